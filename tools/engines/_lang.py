"""Shared helpers of the local language, audio and video engines: read a text slot with a
clear error, and name the language of a text or a request ("to Spanish")."""

from __future__ import annotations

import re
from typing import Any

from langchain_hugginggpt.tools.base import Engine
from langchain_hugginggpt.tools.engines._image_io import fail

# ISO 639-1 code -> (English name, ISO 639-3 code). The languages the local engines can
# meet: Apertium's English pairs in Debian and espeak-ng's main voices.
LANGUAGES: dict[str, tuple[str, str]] = {
    "en": ("English", "eng"),
    "es": ("Spanish", "spa"),
    "gl": ("Galician", "glg"),
    "ca": ("Catalan", "cat"),
    "eo": ("Esperanto", "epo"),
    "eu": ("Basque", "eus"),
    "is": ("Icelandic", "isl"),
    "mk": ("Macedonian", "mkd"),
    "sh": ("Serbo-Croatian", "hbs"),
    "fr": ("French", "fra"),
    "de": ("German", "deu"),
    "it": ("Italian", "ita"),
    "pt": ("Portuguese", "por"),
    "nl": ("Dutch", "nld"),
    "zh": ("Chinese", "zho"),
    "ja": ("Japanese", "jpn"),
    "ru": ("Russian", "rus"),
}
_BY_NAME = {name.lower(): code for code, (name, _) in LANGUAGES.items()}
_BY_NAME.update({"castilian": "es", "mandarin": "zh", "croatian": "sh", "serbian": "sh", "bosnian": "sh"})

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


def language_code(name: str) -> str | None:
    """'Spanish', 'es' or 'spa' -> 'es'; None for a language not in LANGUAGES."""
    key = name.strip().lower()
    if key in LANGUAGES:
        return key
    if key in _BY_NAME:
        return _BY_NAME[key]
    return next((code for code, (_, iso3) in LANGUAGES.items() if iso3 == key), None)


def language_name(code: str) -> str:
    return LANGUAGES.get(code, (code, code))[0]


def guess_language(text: str, candidates: tuple[str, ...] = tuple(_STOPWORDS)) -> str:
    """The candidate whose function words occur most in `text` ('en' on a tie or no evidence)."""
    words = re.findall(r"[^\W\d_]+", text.lower())
    counts = {code: sum(w in _STOPWORDS.get(code, ()) for w in words) for code in candidates}
    best = max(counts, key=lambda c: (counts[c], c == "en"), default="en")
    return best if counts.get(best) else "en"


_LANGUAGE_WORDS = "|".join(sorted((re.escape(n) for n in _BY_NAME), key=len, reverse=True))
_TARGET = re.compile(rf"\b(?:in|to|into)\s+({_LANGUAGE_WORDS})\b", re.IGNORECASE)
_SOURCE = re.compile(rf"\bfrom\s+({_LANGUAGE_WORDS})\b", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“«'‘](.+?)[\"”»'’](?=\s|$|[.,:;!?)])", re.DOTALL)
_INSTRUCTION = re.compile(r"^\s*(?:please\s+|can you\s+|could you\s+)?(?:translate|say|write)\b", re.IGNORECASE)


def parse_translation_request(text: str) -> tuple[str, str | None, str | None]:
    """(text to translate, source code, target code) from a text that may carry an
    instruction: "Translate 'I love books' into Spanish", "to Spanish: the cat",
    or plain text (languages None)."""
    target_match = _TARGET.search(text)
    source_match = _SOURCE.search(text)
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
