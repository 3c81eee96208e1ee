"""Shared helpers of the local language, audio and video engines: read a text slot with a
clear error, and name the language of a text or a request ("to Spanish")."""

from __future__ import annotations

import functools
import re
from typing import Any

from langchain_hugginggpt.tools.base import Engine
from langchain_hugginggpt.tools.engines._image_io import fail
from langchain_hugginggpt.core.languages import (  # noqa: F401 (the engines import them from here)
    LANGUAGES, SOURCE_RE, TARGET_RE, language_code, language_name)

# The languages our engines tell apart (the Apertium pairs with English, the voices); `guess_language` may be
# given fewer.
CANDIDATES = ("en", "es", "fr", "de", "it", "pt", "gl", "ca")


@functools.lru_cache(maxsize=1)
def _identifier() -> Any:
    """py3langid's naive-Bayes language identifier over byte n-grams (its model ships in the package as arrays;
    loading takes about a second, once)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def require_text(engine: Engine, inputs: dict[str, Any], slot: str = "text") -> str:
    """The stripped text in `slot`; ExpertError when it is missing or blank."""
    value = inputs.get(slot)
    if not isinstance(value, str) or not value.strip():
        raise fail(engine, f"no input text given (slot {slot!r} is empty)")
    return value.strip()


# Most texts here are English: another language must be this many times as likely to win over it ("hello" reads
# as Italian by a hair, "bonjour" as French by far).
ENGLISH_ODDS = 2.0


def guess_language(text: str, candidates: tuple[str, ...] = CANDIDATES) -> str:
    """The candidate language `text` is most likely in, by a learned language identifier ('en' for a text with
    no letters, or where no other candidate is ENGLISH_ODDS times as likely). It reads short texts a word list
    cannot ("bonjour", "merci beaucoup"); bench/bench_language_id.py measures both."""
    if not re.search(r"[^\W\d_]", text):
        return "en" if "en" in candidates else candidates[0]
    scores = dict(_identifier().rank(text))  # read-only: engines on several threads share one identifier
    best = max(candidates, key=lambda code: scores.get(code, 0.0))
    if "en" in candidates and best != "en" and scores.get(best, 0.0) < ENGLISH_ODDS * scores.get("en", 0.0):
        return "en"
    return best


_QUOTED = re.compile(r"[\"“«'‘](.+?)[\"”»'’](?=\s|$|[.,:;!?)])", re.DOTALL)
_INSTRUCTION = re.compile(r"^\s*(?:please\s+|can you\s+|could you\s+)?(?:translate|say|write)\b", re.IGNORECASE)


def parse_translation_request(text: str) -> tuple[str, str | None, str | None]:
    """(text to translate, source code, target code) from a text that may carry an
    instruction: "Translate 'I love books' into Spanish", "to Spanish: the cat",
    or plain text (languages None)."""
    target_match = TARGET_RE.search(text)
    source_match = SOURCE_RE.search(text)
    if not target_match and not source_match:
        return text, None, None
    target = language_code(target_match.group(1)) if target_match else None
    source = language_code(source_match.group(1)) if source_match else None
    quoted = _QUOTED.search(text)
    if quoted:
        body = quoted.group(1)
    else:  # drop the instruction words around the text: "translate (from X) to Y:" before or after it
        body = text
        for match in (target_match, source_match):
            if match:
                body = body.replace(match.group(0), " ")
        body = _INSTRUCTION.sub(" ", body)
        body = re.sub(r"^[\s:,;.-]+|[\s:,;-]+$", "", body)
        body = re.sub(r"^(?:this|the following)(?:\s+(?:text|sentence))?\s*[:,]?\s*", "", body, flags=re.IGNORECASE)
    return body.strip(), source, target
