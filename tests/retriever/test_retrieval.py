"""Retrieval over the real p0 catalog with the real all-MiniLM-L6-v2 and a real FAISS index."""

from __future__ import annotations

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings

from langchain_hugginggpt.core.schema import Task
from langchain_hugginggpt.retriever import (
    CandidateRetriever,
    CatalogCandidates,
    ModelCatalog,
    ModelRecord,
    ScoreWeights,
    task_context,
)
from langchain_hugginggpt.retriever.index import CatalogIndex
from langchain_hugginggpt.tools.base import Engine, ExpertOutput
from langchain_hugginggpt.tools.registry import register, unregister

SPANISH_FINANCE = "Analyse the sentiment of these Spanish financial news headlines"
# What p0 holds for text-classification: finance and Spanish sentiment models, and generic English ones.
DOMAIN = {"ProsusAI/finbert", "yiyanghkust/finbert-tone", "finiteautomata/beto-sentiment-analysis",
          "mrm8488/distilroberta-finetuned-financial-news-sentiment-analysis"}
GENERIC_ENGLISH = {"distilbert-base-uncased-finetuned-sst-2-english", "siebert/sentiment-roberta-large-english",
                   "cardiffnlp/twitter-roberta-base-sentiment", "cardiffnlp/twitter-roberta-base-sentiment-latest",
                   "finiteautomata/bertweet-base-sentiment-analysis"}


def _rank(candidates, ids):
    return min((i for i, c in enumerate(candidates) if c.id in ids), default=len(candidates))


def test_a_spanish_financial_news_need_ranks_a_domain_model_above_generic_english_ones(p0_retriever):
    found = p0_retriever.candidates("text-classification", SPANISH_FINANCE, k=10, available_only=False)
    assert [c.task for c in found] == ["text-classification"] * 10
    assert found[0].id in DOMAIN
    assert _rank(found, DOMAIN) < _rank(found, GENERIC_ENGLISH)
    # The paper's ranking (popularity alone) puts the generic English SST-2 model first instead.
    by_popularity = p0_retriever.model_copy(update={"weights": ScoreWeights(similarity=0, popularity=1)})
    top = by_popularity.candidates("text-classification", SPANISH_FINANCE, k=1, available_only=False)[0]
    assert top.id == "distilbert-base-uncased-finetuned-sst-2-english"


def test_scores_combine_similarity_and_popularity_as_configured(p0_retriever):
    found = p0_retriever.candidates("text-classification", SPANISH_FINANCE, k=5, available_only=False)
    weights = p0_retriever.weights
    for c in found:
        assert c.score == pytest.approx(weights.similarity * c.details["similarity"]
                                        + weights.popularity * c.details["popularity"], abs=2e-4)
        assert 0 <= c.details["popularity"] <= 1 and -1 <= c.details["similarity"] <= 1
    assert [c.score for c in found] == sorted((c.score for c in found), reverse=True)
    similarity_only = p0_retriever.model_copy(update={"weights": ScoreWeights(similarity=1, popularity=0)})
    ranked = similarity_only.candidates("text-classification", SPANISH_FINANCE, k=30, available_only=False)
    sims = [c.details["similarity"] for c in ranked]
    assert sims == sorted(sims, reverse=True) and len(ranked) == 30  # every text-classification record


def test_candidates_carry_what_selection_needs(p0_retriever):
    short = p0_retriever.model_copy(update={"max_description": 40})
    found = short.candidates("translation", "Translate this German letter into English", k=3, available_only=False)
    assert len(found) == 3
    for c in found:
        assert len(c.description) <= 40 and c.downloads > 0 and c.backend and c.details["source"] == "import"

def test_the_language_of_a_request_matters(p0_retriever):
    found = p0_retriever.candidates("automatic-speech-recognition", "Transcribe this Chinese audio recording", k=3,
                                    available_only=False)
    assert "chinese" in found[0].id.lower()


def test_task_filter_and_k(p0_retriever):
    videos = p0_retriever.candidates("text-to-video", "make a video of a dancing bear", k=50, available_only=False)
    assert {c.id for c in videos} == {r.id for r in p0_retriever.catalog.records("text-to-video")}
    assert sum(c.details["source"] == "import" for c in videos) == 8  # p0's eight, plus any built-in engine
    everywhere = p0_retriever.candidates(None, "answer questions about a scanned invoice", k=5, available_only=False)
    assert everywhere[0].task == "document-question-answering"
    assert len({c.task for c in p0_retriever.candidates(None, "a photo", k=40, available_only=False)}) > 1


def test_available_only_keeps_what_the_registry_says_can_run(p0_retriever):
    everything = p0_retriever.candidates("text-classification", SPANISH_FINANCE, k=100, available_only=False)
    runnable = p0_retriever.candidates("text-classification", SPANISH_FINANCE, k=100)
    catalog = p0_retriever.catalog
    expected = {r.id for r in catalog.records("text-classification")
                if r.available and r.backend != "inference-api" and not r.stand_in}
    assert {c.id for c in runnable} == expected
    assert all(c.available for c in runnable)
    assert len(everything) == len(catalog.records("text-classification"))


def test_a_user_model_becomes_a_candidate_and_only_new_texts_are_embedded(home, embeddings):
    counting = _Counting(embeddings)
    retriever = CandidateRetriever(catalog=ModelCatalog(), embeddings=counting)
    before = retriever.candidates("text-classification", SPANISH_FINANCE, k=3, available_only=False)
    assert counting.documents == 0  # the index persisted by the session fixture was loaded, not rebuilt
    assert retriever.index().fingerprint == CatalogIndex.load(home / "index").fingerprint
    retriever.catalog.add("acme/bolsa-sentimiento", "text-classification",
                          "Sentiment of Spanish stock market and financial news headlines (positive, negative, "
                          "neutral), fine-tuned on Spanish financial news.", languages=["es"])
    after = retriever.candidates("text-classification", SPANISH_FINANCE, k=3, available_only=False)
    assert counting.documents == 1  # one new record embedded, the other 673+ reused
    mine = after[0]  # no download counts (so the task's median popularity), but the best match
    assert mine.id == "acme/bolsa-sentimiento" and mine.details["source"] == "user"
    assert 0 < mine.details["popularity"] < 1
    assert mine.details["similarity"] == max(c.details["similarity"] for c in after)
    assert mine.id not in {c.id for c in before}
    # The rebuilt index was saved: a fresh retriever loads it without embedding anything.
    fresh = _Counting(embeddings)
    again = CandidateRetriever(catalog=ModelCatalog(), embeddings=fresh)
    assert mine.id in {c.id for c in again.candidates("text-classification", SPANISH_FINANCE, k=3,
                                                      available_only=False)}
    assert fresh.documents == 0


def test_another_embedding_model_gets_its_own_index(tmp_path, embeddings):
    records = [ModelRecord(id=f"me/model-{i}", task="summarization", description=text, source="user")
               for i, text in enumerate(["Summarises news.", "Summarises meetings.", "Summarises papers."])]
    catalog = ModelCatalog.from_records(records)
    first = _Counting(embeddings)
    CandidateRetriever(catalog=catalog, embeddings=first, index_dir=tmp_path).index()
    assert first.documents == 3 and CatalogIndex.load(tmp_path).embedding == "sentence-transformers/all-MiniLM-L6-v2"
    other = _Counting(embeddings)
    other.model_name = "other/embedding-model"
    CandidateRetriever(catalog=catalog, embeddings=other, index_dir=tmp_path).index()
    assert other.documents == 3  # fingerprint mismatch: everything re-embedded, nothing reused
    assert CatalogIndex.load(tmp_path).embedding == "other/embedding-model"


class _Summarizer(Engine):
    task = "summarization"
    model_id = "test/retrieval-real"
    description = "Keeps the longest sentence (a test engine)."

    def run(self, inputs, workspace):
        longest = max(inputs["text"].split(". "), key=len)
        return ExpertOutput(model=self.model_id, result=[{"summary_text": longest}], text=longest)


class _SummarizerStandIn(_Summarizer):
    model_id = "test/retrieval-stand-in"
    backend, stand_in = "stand-in", True


class _RewriterMissing(_Summarizer):
    task = "text2text-generation"
    model_id = "test/retrieval-missing"
    requires = ("no_such_module_for_retrieval_tests",)


class _RewriterStandIn(_SummarizerStandIn):
    task = "text2text-generation"


@pytest.fixture
def test_engines():
    engines = (_Summarizer, _SummarizerStandIn, _RewriterMissing, _RewriterStandIn)
    for cls in engines:
        register(cls)
    yield engines
    for cls in engines:
        unregister(cls.task, cls.model_id)


def test_stand_ins_are_offered_only_when_no_real_model_can_run(embeddings, test_engines):
    records = [ModelRecord(id=cls.model_id, task=cls.task, description=cls.description, source="user")
               for cls in test_engines]
    retriever = CandidateRetriever(catalog=ModelCatalog.from_records(records), embeddings=embeddings)
    found = retriever.candidates("summarization", "summarise this report", k=5)
    assert [(c.id, c.stand_in, c.available) for c in found] == [("test/retrieval-real", False, True)]
    found = retriever.candidates("text2text-generation", "rewrite this sentence", k=5)
    assert [(c.id, c.stand_in, c.backend) for c in found] == [("test/retrieval-stand-in", True, "stand-in")]
    everything = retriever.candidates("text2text-generation", "rewrite this sentence", k=5, available_only=False)
    assert retriever.candidates("translation", "translate this", k=5, available_only=False) == []  # none in it
    missing = next(c for c in everything if c.id == "test/retrieval-missing")
    assert not missing.available and "no_such_module_for_retrieval_tests" in missing.details["unavailable_reason"]


def test_langchain_retriever_interface(p0_retriever):
    retriever = p0_retriever.model_copy(update={"task": "object-detection", "available_only": False, "k": 3})
    docs = retriever.invoke("count the cars in this street photo")
    assert len(docs) == 3
    assert all(d.metadata["task"] == "object-detection" and "score" in d.metadata for d in docs)


def test_catalog_candidates_is_the_agents_candidate_source(p0_retriever):
    source = CatalogCandidates(p0_retriever.model_copy(update={"available_only": False}))
    task = Task(task="text-classification", id=0, dep=[-1],
                args={"text": "Las acciones de Repsol caen un 5% tras los resultados trimestrales"})
    context = task_context(SPANISH_FINANCE, task)
    assert SPANISH_FINANCE in context and "Repsol" in context
    assert "<resource>" not in task_context("x", Task(task="summarization", id=1, args={"text": "<resource>-0"}))
    found = source.candidates(task, SPANISH_FINANCE, 3)
    assert len(found) == 3 and found[0].id in DOMAIN
    assert "text-classification" in CatalogCandidates(p0_retriever).unavailable_reason(task)


class _Counting(Embeddings):
    """The real embedding model, counting how many documents it embeds."""

    def __init__(self, inner: Embeddings) -> None:
        self.inner = inner
        self.model_name = getattr(inner, "model_name", "")
        self.documents = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents += len(texts)
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


def test_the_compact_index_for_large_catalogs_returns_the_exact_results(tmp_path):
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((3000, 32)).astype("float32")
    keys = [("summarization" if i < 2900 else "translation", f"m/{i}") for i in range(3000)]
    compact = CatalogIndex.from_vectors(keys, vectors, "e", kind="refine")
    exact = CatalogIndex.from_vectors(keys, vectors, "e", kind="flat")
    compact.save(tmp_path)
    loaded = CatalogIndex.load(tmp_path)
    assert loaded.kind == "refine" and exact.kind == "flat"
    for query in rng.standard_normal((5, 32)):
        for where in ({"task": "summarization"}, {"task": "translation"}, {}, {"positions": [3, 7, 2950]}):
            got, want = loaded.search(query, 10, **where), exact.search(query, 10, **where)
            assert [i for i, _ in got] == [i for i, _ in want]
            assert [s for _, s in got] == pytest.approx([s for _, s in want], abs=1e-5)


def test_engines_made_for_other_requests_give_way_to_a_fitting_stand_in(tmp_path, embeddings):
    """image-to-text here: Tesseract reads text; only a labelled stand-in describes a picture."""
    retriever = CandidateRetriever(catalog=ModelCatalog(tmp_path / "catalog"), embeddings=embeddings)
    describe = retriever.candidates("image-to-text", "Describe the picture street.jpg", k=5)
    assert [(c.id, c.stand_in) for c in describe] == [("detection+classification-caption", True),
                                                      ("tesseract-ocr", False)]
    read = retriever.candidates("image-to-text", "Read the text on the sign in sign.png", k=5)
    assert [c.id for c in read] == ["tesseract-ocr"]  # a real engine fits: no stand-in
    neither = retriever.candidates("image-to-text", "Convert street.jpg to text", k=5)
    assert [c.id for c in neither] == ["tesseract-ocr"]  # the stand-in serves other requests: never offered


def test_a_search_over_every_task_weighs_each_stand_in_against_its_own_task(tmp_path, embeddings):
    """Real engines of other tasks (a detector, a classifier) do not describe a picture either."""
    retriever = CandidateRetriever(catalog=ModelCatalog(tmp_path / "catalog"), embeddings=embeddings)
    describe = {c.id for c in retriever.candidates(None, "Describe the picture street.jpg", k=1000)}
    assert "detection+classification-caption" in describe and "centernet-mobilenetv3-coco" in describe
    read = {c.id for c in retriever.candidates(None, "Read the text on the sign in sign.png", k=1000)}
    assert "tesseract-ocr" in read and "detection+classification-caption" not in read
