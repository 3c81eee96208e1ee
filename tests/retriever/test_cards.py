"""Model card -> short description, on real cards from HuggingGPT's p0 list and on crafted markdown."""

import json

import pytest

from langchain_hugginggpt.retriever.cards import short_description
from tests.retriever.conftest import P0


@pytest.fixture(scope="module")
def cards():
    rows = [json.loads(line) for line in P0.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {row["id"]: row["description"] for row in rows}


def test_keeps_the_first_sentences_that_say_what_the_model_does(cards):
    text = short_description(cards["ProsusAI/finbert"], name="ProsusAI/finbert")
    assert text.startswith("FinBERT is a pre-trained NLP model to analyze sentiment of financial text.")
    assert len(text) <= 300
    assert "](" not in text and "http" not in text  # links reduced to their text


def test_skips_trainer_boilerplate_and_metrics(cards):
    model = "mrm8488/distilroberta-finetuned-financial-news-sentiment-analysis"
    text = short_description(cards[model], name=model)
    assert "financial_phrasebank" in text
    assert "generated automatically" not in text and "Loss" not in text and "More information needed" not in text
    assert "financial-sentiment" in text  # the card's title adds what the id does not say


def test_leaked_yaml_and_verify_tokens_are_dropped(cards):
    model = "bhadresh-savani/distilbert-base-uncased-emotion"
    assert cards[model].startswith("l6Rf")  # the raw card starts inside a YAML block
    text = short_description(cards[model], name=model)
    assert "verifyToken" not in text and "type: recall" not in text


def test_list_only_cards_fall_back_to_their_items(cards):
    text = short_description(cards["Helsinki-NLP/opus-mt-de-en"], name="Helsinki-NLP/opus-mt-de-en")
    assert "source languages: de" in text and "target languages: en" in text


def test_markdown_html_badges_code_and_front_matter():
    card = """---
license: mit
---
# Bird Spotter v2

[![CI](https://img.shields.io/badge/ci-passing-green.svg)](https://ci.example)
<p align="center"><img src="logo.png" width="200"></p>

## Table of Contents
- [Usage](#usage)

This **model** finds [birds](https://birds.example) in photos. It was trained on 10k images!

```python
model = load("bird-spotter")
```

| metric | value |
|--------|-------|
| mAP    | 0.5   |
"""
    text = short_description(card, name="someone/bird-spotter-v2")
    assert text == "This model finds birds in photos. It was trained on 10k images!"


def test_length_is_bounded_at_a_sentence_or_word_boundary():
    card = "First sentence is here. " + "Second sentence is much longer than the first one. " * 3
    assert short_description(card, max_chars=60) == "First sentence is here."
    one_long = "word " * 100
    clipped = short_description(one_long, max_chars=50)
    assert len(clipped) <= 53 and clipped.endswith("...") and " wor..." not in clipped


@pytest.mark.parametrize("card", [None, "", "Entry not found", "```\ncode only\n```"])
def test_empty_or_useless_cards_give_an_empty_description(card):
    assert short_description(card) == ""
