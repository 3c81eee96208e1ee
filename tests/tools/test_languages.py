"""Language names a request gives, and what a one-pair translation model can do."""

import pytest

from langchain_hugginggpt.core.languages import language_code, language_parameters, named_languages, pair_mismatch


@pytest.mark.parametrize("text, expected", [
    ("translate it from german into French", ("German", "French")),
    ("a voice note in French; turn it into English text", (None, "English")),  # "into" names the target
    ("say it in Serbo-Croatian", (None, "Serbo-Croatian")),
    ("a note in Dutch; I need a German version of it", (None, "German")),
    ("transcribe it and give me a french translation", (None, "French")),
    ("make a picture of it", (None, None)),
])
def test_named_languages(text, expected):
    assert named_languages(text) == expected


def test_codes_from_names_and_iso_codes():
    assert [language_code(x) for x in ("Korean", "ko", "kor", "Castilian", "Klingon")] == ["ko", "ko", "ko", "es", None]


def test_a_one_pair_model_says_which_pair_it_has():
    assert pair_mismatch("Helsinki-NLP/opus-mt-en-es", None, "Spanish") is None
    assert pair_mismatch("Helsinki-NLP/opus-mt-en-es", "English", "es") is None
    assert "not into French" in pair_mismatch("Helsinki-NLP/opus-mt-en-es", None, "French")
    assert "not from German" in pair_mismatch("Helsinki-NLP/opus-mt-en-es", "German", "Spanish")
    assert pair_mismatch("facebook/nllb-200-distilled-600M", None, "French") is None  # its id names no pair


def test_language_parameters_in_each_many_language_family_codes():
    assert language_parameters("facebook/nllb-200-distilled-600M", None, "Japanese") == (
        {"src_lang": "eng_Latn", "tgt_lang": "jpn_Jpan"}, None)  # the text taken as English
    assert language_parameters("facebook/mbart-large-50-many-to-many-mmt", "fr", "German") == (
        {"src_lang": "fr_XX", "tgt_lang": "de_DE"}, None)
    assert language_parameters("facebook/m2m100_418M", "Serbian", "es") == ({"src_lang": "hr", "tgt_lang": "es"}, None)
    assert language_parameters("Helsinki-NLP/opus-mt-en-es", None, "French") == ({}, None)  # not a many-language model
    assert language_parameters("t5-small", None, None) == ({}, None)
    assert "does not translate into Danish" in language_parameters("facebook/mbart-large-50", None, "Danish")[1]
    assert "does not translate from Klingon" in language_parameters("facebook/nllb-200-1.3B", "Klingon", "French")[1]
    assert "name the one to translate into" in language_parameters("facebook/m2m100_418M", "French", None)[1]
    assert "needs the language of the text" in language_parameters("facebook/nllb-200-1.3B", None, "English")[1]
