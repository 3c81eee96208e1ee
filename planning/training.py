"""`hugginggpt train planner`: the learned planner's task detector and link model, trained from the
back-instruct corpus.

Reads every `shard_*.jsonl` in the corpus folder (prompts/corpus/ by default: whatever shards exist),
and trains `TaskDetector` (detector.py): the two scorers on the masked requests and their plans' task
names, the stacker on out-of-fold evidence where each writer's rows are scored by scorers trained on
the other writers (`writers.json` in the corpus folder says who wrote which shard; a shard it does not
name is its own writer). The labelled pool of TaskBench's own requests (pool/shard_*.jsonl in the corpus
folder) trains beside the corpus, its readers as writers, each pool row counting POOL_WEIGHT of a corpus row
(`--no-pool`: the corpus alone). Writes planning/models/task_detector.npz (package data). The same shards
give the same model up to floating-point rounding (a retrain on another day moved hf_dev node F1 by 0.4).
Then the link model (links.py): the planner places and wires each row's gold task set, and a regression
learns from the gold links which of the rules' links to keep, move or add (pool rows weighted alike).
Writes link_model.npz beside the detector.
"""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from langchain_hugginggpt.core.arguments import positive_number, probability
from langchain_hugginggpt.planning.corpus import load_corpus_by_writer, pool_dir, pool_rows
from langchain_hugginggpt.planning.taskbench import HF_TOOLS, Sample, ToolSet
from langchain_hugginggpt.planning.detector import (
    DEFAULT_THRESHOLD, DEFAULT_VETO, DETECTOR_MODEL, LEARNED_RULE_SOURCES, TaskDetector, count_cues, cue_precision,
    gather)
from langchain_hugginggpt.planning.learned import LearnedPlanner
from langchain_hugginggpt.planning.links import LINK_MODEL, LinkModel, candidates, features, gold_links
from langchain_hugginggpt.planning.taskset import (
    EmbeddingTaskSet, TfidfTaskSet, minilm_vectors, require_sklearn, span_texts)
from langchain_hugginggpt.planning.text import parse

log = logging.getLogger(__name__)

DEFAULT_C = 10.0  # the scorers' logistic regressions
STACK_C = 1.0  # the stacker's
# With the pool, the stacker's evidence comes from this many held-out groups of writers (corpus writers and pool
# readers dealt round-robin): 34 writers and readers one by one would be 34 scorer fits on ~15,000 rows, over the
# 30 minutes training may take on 2 cores. bench/pool_cv.py cross-validates with the same number.
STACK_GROUPS = 6
# How much a pool row counts against a corpus row, in every fit. Chosen among 0 (no pool), 0.3 and 1 with corpus
# writing round 7 and a third of the pool held out, and hf_dev (docs/benchmarks.md, issue 33): at 1 the pool's
# wording cost held-out corpus wording 0.4 node and 1.1 edge F1; at 0.3 nothing (-0.2 node, +0.2 edge) for most of
# the gain on TaskBench's own requests. Never chosen on the fresh or the generator-style set.
POOL_WEIGHT = 0.3


def training_rows(corpus: str | Path | None = None, pool: str | Path | None | bool = None
                  ) -> list[tuple[str, Sample, bool]]:
    """(writer or reader, row, is a pool row): the corpus's written rows, then the labelled pool's (`pool`: its
    folder, default the corpus folder's pool/; False: none)."""
    rows = [(w, s, False) for w, s in load_corpus_by_writer(corpus)]
    if pool is not False:
        rows += [(r, s, True) for r, s in pool_rows(pool or pool_dir(corpus))]
    return rows


def task_labels(samples: Sequence[Sample], tools: ToolSet | None = None) -> list[list[str]]:
    """Each sample's plan as our task names (TaskBench's, lower-cased and hyphenated)."""
    tools = tools or ToolSet.load(HF_TOOLS)
    return [sorted({tools.our_name(n.task) for n in s.nodes}) for s in samples]


class Embedder:
    """Texts -> MiniLM vectors, each text embedded once (training scores every request and clause
    in several folds)."""

    def __init__(self, embed: Callable[[Sequence[str]], np.ndarray] = minilm_vectors) -> None:
        self._embed, self._seen = embed, {}

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._seen]
        if missing:
            for start in range(0, len(missing), 256):
                batch = missing[start:start + 256]
                self._seen.update(zip(batch, self._embed(batch)))
        return np.stack([self._seen[t] for t in texts])


def fit_scorers(spans: Sequence[list[str]], labels: Sequence[Sequence[str]], embed: Embedder,
                c: float = DEFAULT_C, weights: Sequence[float] | None = None) -> tuple[TfidfTaskSet, EmbeddingTaskSet]:
    """The two scorers, trained on the whole requests (`spans[i][0]`)."""
    requests = [s[0] for s in spans]
    return (TfidfTaskSet.fit(requests, labels, c, weights),
            EmbeddingTaskSet.fit(embed(requests), labels, c, embed, weights))


def fit_detector(samples: Sequence[Sample], writers: Sequence[str], rules: Any = None, embed: Embedder | None = None,
                 c: float = DEFAULT_C, stack_c: float = STACK_C, threshold: float = DEFAULT_THRESHOLD,
                 veto: float = DEFAULT_VETO, folds: int | None = None,
                 weights: Sequence[float] | None = None) -> TaskDetector:
    """Train the detector: the stacker on each writer's rows as scored by scorers trained on the other
    writers, then the scorers again on every row. `rules`: the retrieval planner whose evidence it reads
    (default: one over the Hugging Face tasks with LEARNED_RULE_SOURCES). `folds`: at most this many held-out groups of writers
    (fewer scorer fits, for cross-validation inside cross-validation). `weights`: how much each row counts in
    every fit (default: all alike)."""
    require_sklearn()
    from sklearn.linear_model import LogisticRegression

    from langchain_hugginggpt.planning.retrieval import RetrievalPlanner

    if len(samples) != len(writers):
        raise ValueError(f"need a writer for every row (got {len(samples)} rows, {len(writers)} writers)")
    labels = task_labels(samples)
    tasks = sorted({t for ts in labels for t in ts})
    rules = rules or RetrievalPlanner(tasks=tasks, rule_sources=LEARNED_RULE_SOURCES)
    embed = embed or Embedder()
    parsed = [parse(s.request) for s in samples]
    spans = [span_texts(p) for p in parsed]
    found = [rules._found(p) for p in parsed]
    names = sorted(set(writers))
    if folds and len(names) > folds:  # writers dealt round-robin into `folds` groups
        writers = [f"group-{names.index(w) % folds}" for w in writers]
    groups = sorted(set(writers))
    if len(groups) < 2:
        raise ValueError("the stacker needs rows from at least two writers (shards) to learn from unseen wording")
    def precision_from(rows: Sequence[int]) -> dict[str, float]:
        counts: dict[str, list[int]] = {}
        for i in rows:
            count_cues(found[i], set(labels[i]), counts)
        return cue_precision(counts)

    weights = np.ones(len(samples)) if weights is None else np.asarray(weights, np.float64)
    features, targets, row_weights = [], [], []
    for group in groups:
        train = [i for i, w in enumerate(writers) if w != group]
        tfidf, minilm = fit_scorers([spans[i] for i in train], [labels[i] for i in train], embed, c, weights[train])
        if tfidf.tasks != tasks:  # a task only this writer's rows have: the others cannot score it
            tfidf, minilm = _padded(tfidf, tasks), _padded(minilm, tasks)
        precision = precision_from(train)
        for i in (i for i, w in enumerate(writers) if w == group):
            evidence = gather(parsed[i], rules, tasks, tfidf.probabilities(spans[i]),
                              minilm.from_vectors(embed(spans[i])), precision, found[i])
            features.append(evidence.features)
            targets.append([t in labels[i] for t in tasks])
            row_weights.append(np.full(len(tasks), weights[i]))
        log.info("stacker evidence: writer %s done", group)
    stacker = LogisticRegression(C=stack_c, max_iter=5000).fit(np.vstack(features), np.concatenate(targets),
                                                                sample_weight=np.concatenate(row_weights))
    tfidf, minilm = fit_scorers(spans, labels, embed, c, weights)
    return TaskDetector(tasks, tfidf, minilm, stacker.coef_[0], float(stacker.intercept_[0]), threshold,
                        precision_from(range(len(samples))), veto, rules.rule_sources)


def _padded(scorer: Any, tasks: list[str]) -> Any:
    """The scorer over `tasks`, a task it never saw scored as never asked for."""
    weights = np.zeros((scorer.weights.shape[0], len(tasks)), np.float32)
    bias = np.full(len(tasks), -20.0, np.float32)
    for j, task in enumerate(tasks):
        if task in scorer.tasks:
            weights[:, j], bias[j] = scorer.weights[:, scorer.tasks.index(task)], scorer.bias[scorer.tasks.index(task)]
    scorer.tasks, scorer.weights, scorer.bias = list(tasks), weights, bias
    return scorer


class GoldTaskPlanner(LearnedPlanner):
    """The learned planner's places, slots and links on each request's gold task set (`samples`): the link
    model's training rows (`link_rows`), and what the wiring scores when the tasks are right (the bench)."""

    def __init__(self, samples: Sequence[Sample], model: TaskDetector | str | Path | None = None,
                 links: LinkModel | bool = False, tools: ToolSet | None = None) -> None:
        self.tools = tools or ToolSet.load(HF_TOOLS)
        super().__init__(model, tasks=self.tools.our_tasks(), links=links)
        self.gold = {s.request: s for s in samples}
        self.rows: list[tuple[dict[str, float], bool]] = []

    def _chosen(self, parsed: Any, evidence: Any) -> list[str]:
        nodes = self.gold[parsed.text].nodes
        return list(dict.fromkeys(self.tools.our_name(n.task) for n in nodes if n.task in self.tools.names))

    def _relink(self, steps: list, parsed: Any) -> None:
        """Record each candidate link with its gold label, then relink as the planner would."""
        gold = gold_links(steps, self.gold[parsed.text].nodes, self.tools.our_name)
        self.rows += [(features(steps, i, j, parsed), (i, j) in gold)
                      for i in range(len(steps)) for j in candidates(steps, i)]
        super()._relink(steps, parsed)


def link_rows(samples: Sequence[Sample], detector: TaskDetector) -> list[list[tuple[dict[str, float], bool]]]:
    """For each row, (features, is a gold link) for every candidate link, its gold tasks placed and wired."""
    planner = GoldTaskPlanner(samples, detector)
    out = []
    for sample in samples:
        planner.rows = []
        planner.plan(sample.request)
        out.append(planner.rows)
    return out


def row_weights(rows: Sequence[tuple[str, Sample, bool]], pool_weight: float = POOL_WEIGHT) -> list[float]:
    """How much each `training_rows` row counts in every fit: a pool row `pool_weight`, a corpus row 1."""
    return [pool_weight if is_pool else 1.0 for _, _, is_pool in rows]


def fit_links(candidates: Sequence[list[tuple[dict[str, float], bool]]], weights: Sequence[float]) -> LinkModel:
    """The link model on each row's candidate links (`link_rows`), each counting as much as its row."""
    return LinkModel.fit([r for rs in candidates for r in rs],
                         sample_weight=[w for rs, w in zip(candidates, weights) for _ in rs])


def fit_planner(rows: Sequence[tuple[str, Sample, bool]], pool_weight: float = POOL_WEIGHT,
                embed: Embedder | None = None, groups: int | None = None,
                **detector_options: Any) -> tuple[TaskDetector, LinkModel]:
    """The detector and the link model on `training_rows` rows, each pool row counting `pool_weight`, the
    stacker's evidence from `groups` held-out groups of writers and readers (default: STACK_GROUPS where there
    is a pool, each writer alone where there is none)."""
    weights = row_weights(rows, pool_weight)
    samples = [s for _, s, _ in rows]
    if groups is None and any(p for _, _, p in rows):
        groups = STACK_GROUPS
    detector = fit_detector(samples, [w for w, _, _ in rows], embed=embed, weights=weights, folds=groups,
                            **detector_options)
    return detector, fit_links(link_rows(samples, detector), weights)


def train_planner(corpus: str | Path | None = None, out: str | Path = DETECTOR_MODEL, c: float = DEFAULT_C,
                  threshold: float = DEFAULT_THRESHOLD, veto: float = DEFAULT_VETO,
                  links_out: str | Path | None = None, pool: str | Path | None | bool = True,
                  pool_weight: float = POOL_WEIGHT) -> dict[str, Any]:
    """Train on the corpus and the labelled pool (`pool`: True for the corpus folder's pool/, a folder, or False for
    none; see `fit_planner`) and save; returns what was done (rows, seconds, files and sizes). `links_out`: where
    the link model goes (default: beside the detector)."""
    start = time.perf_counter()
    rows = training_rows(corpus, None if pool is True else pool)
    detector, links = fit_planner(rows, pool_weight, c=c, threshold=threshold, veto=veto)
    path = detector.save(out)
    link_path = links.save(links_out or Path(path).with_name(LINK_MODEL.name))
    return {"rows": len(rows), "pool_rows": sum(p for _, _, p in rows), "writers": len({w for w, _, _ in rows}),
            "seconds": round(time.perf_counter() - start, 1),
            "model": str(path), "bytes": path.stat().st_size, "links": str(link_path), "link_bytes": link_path.stat().st_size}


def cmd_train_planner(args: argparse.Namespace) -> int:
    result = train_planner(args.corpus, args.out, args.c, args.threshold, args.veto, pool=args.pool,
                           pool_weight=args.pool_weight)
    print(f"trained the task detector and the link model on {result['rows']} rows "
          f"({result['rows'] - result['pool_rows']} corpus, {result['pool_rows']} pool) "
          f"from {result['writers']} writers and readers in {result['seconds']} s: "
          f"{result['model']} ({result['bytes'] / 1e6:.1f} MB), "
          f"{result['links']} ({result['link_bytes'] / 1e3:.0f} kB)")
    return 0


def add_commands(subparsers: Any) -> None:
    train = subparsers.add_parser("train", help="train a learned component from the shipped corpus")
    what = train.add_subparsers(dest="component", required=True)
    planner = what.add_parser("planner",
                              help="the learned planner's task detector and link model (prompts/corpus/shard_*.jsonl)")
    planner.add_argument("--corpus", help="folder of shard_*.jsonl (default: prompts/corpus)")
    planner.add_argument("--out", default=str(DETECTOR_MODEL),
                         help="where to write the detector; the link model goes beside it (default: the shipped ones)")
    planner.add_argument("--no-pool", dest="pool", action="store_false",
                         help="leave out the labelled pool of TaskBench's requests (<corpus>/pool/shard_*.jsonl)")
    planner.add_argument("--pool-weight", type=positive_number, default=POOL_WEIGHT,
                         help="how much a pool row counts against a corpus row (default: %(default)s)")
    planner.add_argument("--c", type=positive_number, default=DEFAULT_C, help="inverse regularisation of the scorers' regressions")
    planner.add_argument("--threshold", type=probability, default=DEFAULT_THRESHOLD,
                         help="probability from which the detector adds a task no rule found")
    planner.add_argument("--veto", type=probability, default=DEFAULT_VETO,
                         help="probability under which the detector drops a task the rules found")
    planner.set_defaults(func=cmd_train_planner)
