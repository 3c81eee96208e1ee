"""Language names a request gives, and what a one-pair translation model can do."""

import pytest

from langchain_hugginggpt.tools.languages import language_code, named_languages, pair_mismatch


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
