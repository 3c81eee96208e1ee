"""Shared helpers of the local language, audio and video engines: read a text slot with a
clear error, and name the language of a text or a request ("to Spanish")."""

from __future__ import annotations

import re
from typing import Any

from langchain_hugginggpt.tools.base import Engine
from langchain_hugginggpt.tools.engines._image_io import fail
from langchain_hugginggpt.tools.languages import (  # noqa: F401 (the engines import them from here)
    LANGUAGES, SOURCE_RE, TARGET_RE, language_code, language_name)

# A few very frequent function words per language: enough to tell the languages above
# apart on a sentence or more. This is a heuristic, not a language-identification model.
_STOPWORDS: dict[str, frozenset[str]] = {
    "en": frozenset("the a an and of to in is are was it that this for with on you i not be have".split()),
    "es": frozenset("el la los las de del y que en es un una por para con no se su al lo como pero más".split()),
    "fr": frozenset("le la les de des du et que est un une pour dans pas ce qui sur au avec je vous".split()),
    "de": frozenset("der die das und ist nicht ein eine zu den von mit sich des auf für ich sie es".split()),
    "it": frozenset("il lo la gli le di e che è un una per non con del della sono si ma".split()),
    "pt": frozenset("o a os as de do da e que é um uma para com não em no na se mais".split()),
    "gl": frozenset("o a os as de do da e que é un unha para con non en no na se máis".split()),
    "ca": frozenset("el la els les de del i que és un una per amb no en al es més".split()),
}


def require_text(engine: Engine, inputs: dict[str, Any], slot: str = "text") -> str:
    """The stripped text in `slot`; ExpertError when it is missing or blank."""
    value = inputs.get(slot)
    if not isinstance(value, str) or not value.strip():
        raise fail(engine, f"no input text given (slot {slot!r} is empty)")
    return value.strip()


def guess_language(text: str, candidates: tuple[str, ...] = tuple(_STOPWORDS)) -> str:
    """The candidate whose function words occur most in `text` ('en' on a tie or no evidence)."""
    words = re.findall(r"[^\W\d_]+", text.lower())
    counts = {code: sum(w in _STOPWORDS.get(code, ()) for w in words) for code in candidates}
    best = max(counts, key=lambda c: (counts[c], c == "en"), default="en")
    return best if counts.get(best) else "en"


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
