"""Language names and codes, and the languages a request names ("into French", "from German").

Shared by the planner, which writes the languages a translation step's words name into its `source_lang`
and `target_lang` slots, and the engines, which read them. No heavy imports: the planner loads this.
"""

from __future__ import annotations

import re

# ISO 639-1 code -> English name: every language the package names anywhere (model cards give codes; the
# embedding model matches a request's "German" far better than "de"; the planner reads the names in requests).
LANGUAGE_NAMES: dict[str, str] = {
    "ar": "Arabic", "bg": "Bulgarian", "bn": "Bengali", "ca": "Catalan", "cs": "Czech", "da": "Danish",
    "de": "German", "el": "Greek", "en": "English", "eo": "Esperanto", "es": "Spanish", "et": "Estonian",
    "eu": "Basque", "fa": "Persian", "fi": "Finnish", "fr": "French", "ga": "Irish", "gl": "Galician",
    "he": "Hebrew", "hi": "Hindi", "hr": "Croatian", "hu": "Hungarian", "id": "Indonesian", "is": "Icelandic",
    "it": "Italian", "ja": "Japanese", "ko": "Korean", "la": "Latin", "lt": "Lithuanian", "lv": "Latvian",
    "mk": "Macedonian", "ms": "Malay", "nl": "Dutch", "no": "Norwegian", "pl": "Polish", "pt": "Portuguese",
    "ro": "Romanian", "ru": "Russian", "sh": "Serbo-Croatian", "sk": "Slovak", "sl": "Slovenian", "sr": "Serbian",
    "sv": "Swedish", "sw": "Swahili", "ta": "Tamil", "th": "Thai", "tr": "Turkish", "uk": "Ukrainian",
    "ur": "Urdu", "vi": "Vietnamese", "zh": "Chinese",
}
# The languages the engines translate and speak (Apertium's English pairs in Debian, espeak-ng's main voices, and
# the languages users most often ask for): ISO 639-1 code -> (English name, ISO 639-3 code).
LANGUAGES: dict[str, tuple[str, str]] = {code: (LANGUAGE_NAMES[code], iso3) for code, iso3 in {
    "en": "eng", "es": "spa", "gl": "glg", "ca": "cat", "eo": "epo", "eu": "eus", "is": "isl", "mk": "mkd",
    "sh": "hbs", "fr": "fra", "de": "deu", "it": "ita", "pt": "por", "nl": "nld", "zh": "zho", "ja": "jpn",
    "ru": "rus", "ko": "kor", "ar": "ara", "hi": "hin", "sv": "swe", "pl": "pol", "tr": "tur", "el": "ell",
    "he": "heb", "vi": "vie", "uk": "ukr", "cs": "ces", "da": "dan", "fi": "fin", "no": "nor", "ro": "ron",
}.items()}
_BY_NAME = {name.lower(): code for code, (name, _) in LANGUAGES.items()}
_BY_NAME.update({"castilian": "es", "mandarin": "zh", "croatian": "sh", "serbian": "sh", "bosnian": "sh"})

# Every language name a request may use, as a regex alternation (the planners' cue for translation).
ANY_LANGUAGE = "|".join(sorted({name.lower() for name in LANGUAGE_NAMES.values()} | set(_BY_NAME), key=len, reverse=True))
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


# Many-language translation models name their languages in codes of their own, and need both sides named
# (src_lang / tgt_lang): NLLB in FLORES-200 codes, mBART-50 in its locale codes, M2M100 in ISO 639-1.
# Serbo-Croatian ("sh") is read as Croatian, the variety these models list in the Latin script.
_FLORES = {
    "en": "eng_Latn", "es": "spa_Latn", "gl": "glg_Latn", "ca": "cat_Latn", "eo": "epo_Latn", "eu": "eus_Latn",
    "is": "isl_Latn", "mk": "mkd_Cyrl", "sh": "hrv_Latn", "fr": "fra_Latn", "de": "deu_Latn", "it": "ita_Latn",
    "pt": "por_Latn", "nl": "nld_Latn", "zh": "zho_Hans", "ja": "jpn_Jpan", "ru": "rus_Cyrl", "ko": "kor_Hang",
    "ar": "arb_Arab", "hi": "hin_Deva", "sv": "swe_Latn", "pl": "pol_Latn", "tr": "tur_Latn", "el": "ell_Grek",
    "he": "heb_Hebr", "vi": "vie_Latn", "uk": "ukr_Cyrl", "cs": "ces_Latn", "da": "dan_Latn", "fi": "fin_Latn",
    "no": "nob_Latn", "ro": "ron_Latn",
}
_MBART50 = {
    "en": "en_XX", "es": "es_XX", "gl": "gl_ES", "mk": "mk_MK", "sh": "hr_HR", "fr": "fr_XX", "de": "de_DE",
    "it": "it_IT", "pt": "pt_XX", "nl": "nl_XX", "zh": "zh_CN", "ja": "ja_XX", "ru": "ru_RU", "ko": "ko_KR",
    "ar": "ar_AR", "hi": "hi_IN", "sv": "sv_SE", "pl": "pl_PL", "tr": "tr_TR", "he": "he_IL", "vi": "vi_VN",
    "uk": "uk_UA", "cs": "cs_CZ", "fi": "fi_FI", "ro": "ro_RO",
}
_M2M100 = {code: ("hr" if code == "sh" else code) for code in LANGUAGES if code not in ("eo", "eu")}
_MANY = ((re.compile(r"nllb", re.I), _FLORES), (re.compile(r"mbart-large-50", re.I), _MBART50),
         (re.compile(r"m2m100", re.I), _M2M100))


def language_parameters(model_id: str, source: str | None, target: str | None) -> tuple[dict[str, str], str | None]:
    """For a many-language model (NLLB, mBART-50, M2M100): its `src_lang` and `tgt_lang` for the languages a
    step names, or why it cannot run (the target not named, a language the model does not list). The text is
    taken as English where only the target is named and is not English. ({}, None) for any other model."""
    codes = next((table for pattern, table in _MANY if pattern.search(model_id)), None)
    if codes is None:
        return {}, None
    if not target:
        return {}, f"{model_id} translates between many languages: name the one to translate into (target_lang)"
    target_code = language_code(target)
    if not source and target_code == "en":
        return {}, f"{model_id} needs the language of the text to translate it into English: name it (source_lang)"
    source_code = language_code(source) if source else "en"
    for asked, code, side in ((source, source_code, "from"), (target, target_code, "into")):
        if code not in codes:
            return {}, f"{model_id} does not translate {side} {asked}"
    return {"src_lang": codes[source_code], "tgt_lang": codes[target_code]}, None


def translation_languages(model_id: str, source: str | None, target: str | None) -> dict[str, str]:
    """What a translation engine sends its model for the languages a step names: {} for a model that needs
    none, `src_lang` / `tgt_lang` in a many-language model's codes. Raises ValueError naming the problem where
    the model cannot do what the step asks (a fixed pair asked for another language, a language not listed)."""
    codes, problem = language_parameters(model_id, source, target)
    problem = pair_mismatch(model_id, source, target) or problem
    if problem:
        raise ValueError(problem)
    return codes
