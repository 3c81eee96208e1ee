"""k-fold cross-validation of the offline planners on the back-instruct corpus (prompts/corpus/).

    python bench/planning_cv.py                 # 5 folds: retrieval, learned (TF-IDF + LR), kNN, MiniLM + LR
    python bench/planning_cv.py --no-minilm     # skip the MiniLM candidate (it embeds every request)
    python bench/planning_cv.py --by-voice      # leave-one-voice-out folds instead of random ones
    python bench/planning_cv.py --example-bank  # trained on all the corpus, planning our example bank (other wording)

Each fold trains on the other folds only; the method and its hyper-parameters (C, threshold) are chosen
here, never on hf_dev or the fresh set. bench_planning.py imports `cross_validate` for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any, Sequence

import numpy as np
from pathlib import Path

from langchain_hugginggpt.agent.eval.taskbench import HF_TOOLS, Sample, ToolSet, predict, report
from langchain_hugginggpt.agent.planners.learned import LearnedPlanner
from langchain_hugginggpt.agent.planners.retrieval import RetrievalPlanner
from langchain_hugginggpt.agent.planners.taskset import TaskSetClassifier, model_text
from langchain_hugginggpt.agent.planners.text import parse
from langchain_hugginggpt.agent.planners.train import corpus_dir, load_corpus, task_labels, train_taskset

METRICS = ("node_f1", "edge_f1", "arg_name_f1", "arg_value_f1")
# (veto, threshold) of the hybrid: a rule's task under the veto is dropped, a task over the threshold added.
GRID = ((0.0, 0.5), (0.0, 0.7), (0.0, 0.9), (0.05, 0.5), (0.1, 0.5), (0.1, 0.9), (0.2, 0.5))
# Where the results go (bench_planning.py puts them in docs/benchmarks.md without rerunning them).
RESULTS = Path(__file__).resolve().parent / "data"


def results_file(by_voice: bool) -> Path:
    return RESULTS / ("planning_cv_voice.json" if by_voice else "planning_cv_random.json")


class NearestPlanTasks(TaskSetClassifier):
    """Candidate (c): the task set of the nearest corpus requests (TF-IDF cosine), votes weighted by
    similarity; the same `scores` interface as the classifier, so LearnedPlanner wires it alike."""

    def __init__(self, texts: Sequence[str], labels: Sequence[Sequence[str]], k: int = 1, threshold: float = 0.5) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer

        self.vectorizer = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, token_pattern=r"[@\w][\w'-]*")
        self.matrix = self.vectorizer.fit_transform(texts)
        self.tasks = sorted({t for ts in labels for t in ts})
        self.targets = np.array([[t in ts for t in self.tasks] for ts in labels], dtype=float)
        self.k, self.threshold = k, threshold

    def probabilities(self, texts: Sequence[str]) -> np.ndarray:
        similarity = (self.vectorizer.transform(list(texts)) @ self.matrix.T).toarray()
        nearest = np.argsort(-similarity, axis=1)[:, : self.k]
        weights = np.take_along_axis(similarity, nearest, axis=1) + 1e-9
        votes = np.einsum("nk,nkt->nt", weights, self.targets[nearest])
        return votes / weights.sum(axis=1, keepdims=True)


class EmbeddingTaskSet(TaskSetClassifier):
    """Candidate (b): all-MiniLM-L6-v2 sentence embeddings (the packaged model) + one-vs-rest LR."""

    def __init__(self, texts: Sequence[str], labels: Sequence[Sequence[str]], c: float = 10.0, threshold: float = 0.3) -> None:
        from sklearn.linear_model import LogisticRegression
        from sklearn.multiclass import OneVsRestClassifier
        from sklearn.preprocessing import MultiLabelBinarizer

        binarizer = MultiLabelBinarizer()
        targets = binarizer.fit_transform(labels)
        self.head = OneVsRestClassifier(LogisticRegression(C=c, max_iter=2000)).fit(embed(texts), targets)
        self.tasks, self.threshold = list(binarizer.classes_), threshold

    def probabilities(self, texts: Sequence[str]) -> np.ndarray:
        return self.head.predict_proba(embed(texts))


_EMBEDDED: dict[str, np.ndarray] = {}


def embed(texts: Sequence[str]) -> np.ndarray:
    from langchain_hugginggpt.retriever.embeddings import default_embeddings

    missing = [t for t in dict.fromkeys(texts) if t not in _EMBEDDED]
    if missing:
        for text, vector in zip(missing, default_embeddings().embed_documents(missing)):
            _EMBEDDED[text] = np.asarray(vector, dtype=np.float32)
    return np.stack([_EMBEDDED[t] for t in texts])


def folds(n: int, k: int, seed: int = 17) -> list[list[int]]:
    order = list(range(n))
    random.Random(seed).shuffle(order)
    return [order[i::k] for i in range(k)]


def voice_folds(samples: list[Sample]) -> list[list[int]]:
    """One fold per voice (terse, polite, story, steps, casual, formal): each voice is planned by a model
    that never saw a request written in it, a test of wording the training data does not have."""
    voices = {}
    for path in sorted(corpus_dir().glob("shard_*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                voices[str(row["id"])] = row.get("voice", "")
    names = sorted({voices.get(s.id, "") for s in samples})
    return [[i for i, s in enumerate(samples) if voices.get(s.id, "") == v] for v in names]


def cross_validate(samples: list[Sample] | None = None, k: int = 5, minilm: bool = True, by_voice: bool = False,
                   log=print) -> dict[str, dict[str, Any]]:
    """Planner name -> TaskBench metrics over all held-out folds, plus `train_s` (mean per fold).
    `by_voice`: one fold per voice instead of k random folds."""
    samples = samples if samples is not None else load_corpus()
    tools = ToolSet.load(HF_TOOLS)
    tasks = tools.our_tasks()
    texts = [model_text(parse(s.request)) for s in samples]
    labels = task_labels(samples, tools)
    predictions: dict[str, list] = {}
    train_seconds: dict[str, list[float]] = {}
    retrieval = RetrievalPlanner(tasks=tasks)
    splits = voice_folds(samples) if by_voice else folds(len(samples), k)
    for number, held_out in enumerate(splits):
        test = [samples[i] for i in held_out]
        train = sorted(set(range(len(samples))) - set(held_out))
        candidates: dict[str, Any] = {}
        start = time.perf_counter()
        classifier = train_taskset([samples[i] for i in train])
        train_seconds.setdefault("learned", []).append(time.perf_counter() - start)
        for threshold in (0.2, 0.3):
            candidates[f"learned t={threshold}"] = LearnedPlanner(classifier, tasks=tasks, threshold=threshold, rules=False)
        for veto, threshold in GRID:
            candidates[f"rules + learned v={veto} t={threshold}"] = LearnedPlanner(
                classifier, tasks=tasks, threshold=threshold, rules=True, veto=veto)
        for k_nearest in (1, 5):
            candidates[f"kNN k={k_nearest}"] = LearnedPlanner(NearestPlanTasks(
                [texts[i] for i in train], [labels[i] for i in train], k=k_nearest), tasks=tasks, rules=False)
        if minilm:
            start = time.perf_counter()
            dense = EmbeddingTaskSet([texts[i] for i in train], [labels[i] for i in train])
            train_seconds.setdefault("MiniLM + LR", []).append(time.perf_counter() - start)
            candidates["MiniLM + LR t=0.3"] = LearnedPlanner(dense, tasks=tasks, rules=False)
        candidates["retrieval (hand rules)"] = retrieval
        for name, planner in candidates.items():
            predictions.setdefault(name, []).extend(predict(test, planner, tools))
        log(f"fold {number + 1}/{len(splits)} done")
    results = {}
    for name, preds in predictions.items():
        result = report(preds, tools)
        base = "learned" if "learned" in name else name.split(" t=")[0]
        result["train_s"] = round(float(np.mean(train_seconds[base])), 1) if base in train_seconds else None
        results[name] = result
    return results


def example_bank_check(log=print) -> list[dict[str, Any]]:
    """A check across wording: trained on the whole corpus, planning our example bank (prompts/examples,
    requests written for the retrieval planner's bank, not in the corpus), restricted to the HF tools."""
    from langchain_hugginggpt.agent.eval.taskbench import plan_to_nodes, score
    from langchain_hugginggpt.agent.planners.bank import load_examples

    hf = ToolSet.load(HF_TOOLS)
    tasks = hf.our_tasks()
    tools = ToolSet(names=tuple(tasks), output_types={hf.our_name(n): t for n, t in hf.output_types.items()})
    examples = [(r, p) for r, p in load_examples() if all(t.task in tasks for t in p.tasks)]
    classifier = train_taskset(load_corpus())
    candidates: dict[str, Any] = {"retrieval (hand rules)": RetrievalPlanner(tasks=tasks),
                                  "learned t=0.3": LearnedPlanner(classifier, tasks=tasks, threshold=0.3, rules=False)}
    for veto, threshold in GRID:
        candidates[f"rules + learned v={veto} t={threshold}"] = LearnedPlanner(
            classifier, tasks=tasks, threshold=threshold, rules=True, veto=veto)
    gold = [plan_to_nodes(p, tools) for _, p in examples]
    rows = []
    for name, planner in candidates.items():
        r = score(gold, [plan_to_nodes(planner.plan(request).plan, tools) for request, _ in examples], tools)
        rows.append({"planner": name, **{m: r[m] for m in ("n", *METRICS)}, "ned": r["ned"]})
        log(json.dumps(rows[-1]))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--no-minilm", action="store_true")
    parser.add_argument("--by-voice", action="store_true", help="one fold per voice (leave-one-voice-out)")
    parser.add_argument("--example-bank", action="store_true",
                        help="instead: train on the whole corpus and plan our example bank (prompts/examples)")
    args = parser.parse_args(argv)
    if args.example_bank:
        rows = example_bank_check()
        saved = {"measured": time.strftime("%Y-%m-%d"), "rows": rows}
        (RESULTS / "planning_bank_check.json").write_text(json.dumps(saved, indent=1) + "\n", encoding="utf-8")
        return 0
    results = cross_validate(k=args.folds, minilm=not args.no_minilm, by_voice=args.by_voice,
                             log=lambda m: print(m, file=sys.stderr))
    rows = [{"planner": name, "n": r["n"], **{m: r[m] for m in METRICS}, "ned": r["ned"],
             "latency_ms_median": r["latency_ms_median"], "invalid_plans": r["invalid_plans"], "train_s": r["train_s"]}
            for name, r in results.items()]
    for row in rows:
        print(json.dumps(row))
    meta = {"folds": "one per voice" if args.by_voice else f"{args.folds} random (seed 17)",
            "measured": time.strftime("%Y-%m-%d"), "rows": rows}
    results_file(args.by_voice).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
