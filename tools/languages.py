"""Language names and codes, and the languages a request names ("into French", "from German").

Shared by the planner, which writes the languages a translation step's words name into its `source_lang`
and `target_lang` slots, and the engines, which read them. No heavy imports: the planner loads this.
"""

from __future__ import annotations

import re

# ISO 639-1 code -> (English name, ISO 639-3 code): the languages of Apertium's English pairs in Debian,
# espeak-ng's main voices, and the languages users most often ask for.
LANGUAGES: dict[str, tuple[str, str]] = {
    "en": ("English", "eng"), "es": ("Spanish", "spa"), "gl": ("Galician", "glg"), "ca": ("Catalan", "cat"),
    "eo": ("Esperanto", "epo"), "eu": ("Basque", "eus"), "is": ("Icelandic", "isl"), "mk": ("Macedonian", "mkd"),
    "sh": ("Serbo-Croatian", "hbs"), "fr": ("French", "fra"), "de": ("German", "deu"), "it": ("Italian", "ita"),
    "pt": ("Portuguese", "por"), "nl": ("Dutch", "nld"), "zh": ("Chinese", "zho"), "ja": ("Japanese", "jpn"),
    "ru": ("Russian", "rus"), "ko": ("Korean", "kor"), "ar": ("Arabic", "ara"), "hi": ("Hindi", "hin"),
    "sv": ("Swedish", "swe"), "pl": ("Polish", "pol"), "tr": ("Turkish", "tur"), "el": ("Greek", "ell"),
    "he": ("Hebrew", "heb"), "vi": ("Vietnamese", "vie"), "uk": ("Ukrainian", "ukr"), "cs": ("Czech", "ces"),
    "da": ("Danish", "dan"), "fi": ("Finnish", "fin"), "no": ("Norwegian", "nor"), "ro": ("Romanian", "ron"),
}
_BY_NAME = {name.lower(): code for code, (name, _) in LANGUAGES.items()}
_BY_NAME.update({"castilian": "es", "mandarin": "zh", "croatian": "sh", "serbian": "sh", "bosnian": "sh"})

_NAMES = "|".join(sorted((re.escape(n) for n in _BY_NAME), key=len, reverse=True))
TARGET_RE = re.compile(rf"\b(?:in|to|into)\s+({_NAMES})\b", re.IGNORECASE)
_INTO_RE = re.compile(rf"\b(?:to|into)\s+({_NAMES})\b", re.IGNORECASE)
SOURCE_RE = re.compile(rf"\bfrom\s+({_NAMES})\b", re.IGNORECASE)
# "a French translation", "the Italian version": the language names what the text becomes
_MADE_IN_RE = re.compile(rf"\b({_NAMES})\s+(?:translation|version|rendering|subtitles?)\b", re.IGNORECASE)


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


def named_languages(text: str) -> tuple[str | None, str | None]:
    """(source, target) language names as the text writes them, capitalised: "from German into French"
    -> ("German", "French"); None where it names none. "into X" and "an X translation" name the target
    before "in X" does ("a note in French; turn it into English text", "a note in Dutch; I need a German
    version")."""
    found = [SOURCE_RE.search(text), _INTO_RE.search(text) or _MADE_IN_RE.search(text) or TARGET_RE.search(text)]
    source, target = (m.group(1)[:1].upper() + m.group(1)[1:] if m else None for m in found)
    return source, target


_FIXED_PAIR = re.compile(r"opus-mt-([a-z]{2,3})-([a-z]{2,3})$", re.IGNORECASE)


def pair_mismatch(model_id: str, source: str | None, target: str | None) -> str | None:
    """Why a model that translates one fixed pair (Helsinki-NLP/opus-mt-en-es) cannot do what a step asks
    ("into French"); None where it can or where its id names no pair."""
    match = _FIXED_PAIR.search(model_id)
    if not match:
        return None
    has_source, has_target = match.group(1).lower(), match.group(2).lower()
    for asked, has, side in ((source, has_source, "from"), (target, has_target, "into")):
        if asked and language_code(asked) != has:
            return (f"this model translates {language_name(has_source)} into {language_name(has_target)} only, "
                    f"not {side} {asked}: choose a translation model for that pair")
    return None
