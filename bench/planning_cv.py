"""Cross-validation of the offline planners on the back-instruct corpus (prompts/corpus/), across wording.

    python bench/planning_cv.py                   # leave one writing round out (each round has its own voices)
    python bench/planning_cv.py --folds writer    # leave one writer out
    python bench/planning_cv.py --example-bank    # trained on the whole corpus, planning our example bank
    python bench/planning_cv.py --ablate          # each rule source left out of the learned planner in turn
    python bench/planning_cv.py --round-gain 4    # does round 4 help on the other rounds? (trained without/with it)
    python bench/planning_cv.py --gold-tasks      # the wiring alone: links and slots with the gold tasks given
    python bench/planning_cv.py --links           # the link model against the wiring rules, by held-out round

Every fold holds out rows whose writers (and, by round, whose voices) the trained planner never saw: the
case a planner meets in use. Candidates: the hand rules (retrieval planner), each learned scorer alone
(TF-IDF, MiniLM: the best clause's probability over a threshold) and the task detector that weighs both
with the rules' evidence, at several thresholds. The method and its settings (C, threshold) are chosen
here, never on hf_dev or the fresh set. Results go to bench/data/planning_cv_<folds>.json, and
bench_planning.py puts them in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from langchain_hugginggpt.planning.taskbench import HF_TOOLS, ToolSet, predict, report
from langchain_hugginggpt.planning.detector import FEATURES, TaskDetector
from langchain_hugginggpt.planning.learned import LearnedPlanner
from langchain_hugginggpt.planning.retrieval import RULE_SOURCES, RetrievalPlanner
from langchain_hugginggpt.planning.corpus import corpus_rows, load_corpus_by_writer
from langchain_hugginggpt.planning.training import Embedder, GoldTaskPlanner, fit_detector

METRICS = ("node_f1", "edge_f1", "arg_name_f1", "arg_value_f1")
THRESHOLDS = (0.2, 0.3, 0.4, 0.5)
# (veto, threshold): the rules keep their tasks unless the detector scores one under the veto; it adds
# the tasks it scores over the threshold.
HYBRIDS = ((0.05, 0.5), (0.1, 0.5), (0.1, 0.7), (0.2, 0.5))
# (feature, threshold): a scorer alone, its best clause's probability over the threshold.
ALONE = {"TF-IDF alone": ("tfidf_best_clause", 0.3), "MiniLM alone": ("minilm_best_clause", 0.5)}
RESULTS = Path(__file__).resolve().parent / "data"


def result_row(planner: str, r: dict[str, Any], log=None) -> dict[str, Any]:
    """One planner's row of a saved table: n, the F1 metrics and NED of its report `r` (logged if `log`)."""
    row = {"planner": planner, "n": r["n"], **{m: r[m] for m in METRICS}, "ned": r["ned"]}
    if log is not None:
        log(json.dumps(row))
    return row


def results_file(folds: str) -> Path:
    return RESULTS / f"planning_cv_{folds}.json"


def scorer_alone(detector: TaskDetector, feature: str, threshold: float) -> TaskDetector:
    """The detector's scorer by itself: weight 1 on its log-odds, nothing else, so P = its probability."""
    weights = np.zeros_like(detector.weights)
    weights[FEATURES.index(feature)] = 1.0
    return TaskDetector(detector.tasks, detector.tfidf, detector.minilm, weights, 0.0, threshold, detector.precision)


def alone(detector: TaskDetector, tasks: list[str], threshold: float) -> LearnedPlanner:
    return LearnedPlanner(detector, tasks=tasks, threshold=threshold, rules_first=False)


def candidates(detector: TaskDetector, retrieval: RetrievalPlanner, tasks: list[str],
               every_rule: TaskDetector | None = None) -> dict[str, Any]:
    """The planners compared: the rules, each scorer alone, the detector, the rules with the detector;
    `every_rule`: a detector trained beside all the rules (the retired ones too)."""
    out: dict[str, Any] = {"retrieval (hand rules)": retrieval}
    for name, (feature, threshold) in ALONE.items():
        out[name] = alone(scorer_alone(detector, feature, threshold), tasks, threshold)
    for threshold in THRESHOLDS:
        out[f"detector t={threshold}"] = alone(detector, tasks, threshold)
    for veto, threshold in HYBRIDS:
        out[f"rules + detector v={veto} t={threshold}"] = LearnedPlanner(detector, tasks=tasks, threshold=threshold,
                                                                          veto=veto)
    if every_rule is not None:
        out["learned, every rule source"] = LearnedPlanner(every_rule, tasks=tasks)
    return out


def without_each_rule(train: list, tasks: list[str], embed: Embedder) -> dict[str, Any]:
    """The learned planner at its defaults with one rule source left out of the rules it reads (the
    detector retrained without it), and the rules alone without it: does each rule help on wording it
    was not written from?"""
    out: dict[str, Any] = {}
    for source in RULE_SOURCES[1:]:  # the cues are the rules' core: they also place the tasks for the wiring
        kept = tuple(s for s in RULE_SOURCES if s != source)
        rules = RetrievalPlanner(tasks=tasks, rule_sources=kept)
        detector = fit_detector([s for _, s in train], [w for w, _ in train], rules=rules, embed=embed, folds=4)
        out[f"rules without {source}"] = rules
        out[f"learned without {source}"] = LearnedPlanner(detector, tasks=tasks, rule_sources=kept)
    return out


def cross_validate(folds: str = "round", log=print, ablate: bool = False) -> dict[str, dict[str, Any]]:
    """Planner name -> TaskBench metrics over all held-out folds, plus `train_s` (mean per fold).
    `ablate`: the planners of `without_each_rule` instead of `candidates`."""
    rows = [(info["writer"], s, info[folds]) for info, s in corpus_rows()]
    keys = [key for _, _, key in rows]
    tools = ToolSet.load(HF_TOOLS)
    tasks = tools.our_tasks()
    retrieval = RetrievalPlanner(tasks=tasks)
    embed = Embedder()
    predictions: dict[str, list] = {}
    train_seconds = []
    for number, held in enumerate(sorted(set(keys))):
        train = [i for i, k in enumerate(keys) if k != held]
        test = [rows[i][1] for i, k in enumerate(keys) if k == held]
        start = time.perf_counter()
        if ablate:
            planners = without_each_rule([(rows[i][0], rows[i][1]) for i in train], tasks, embed)
        else:
            samples, writers = [rows[i][1] for i in train], [rows[i][0] for i in train]
            detector = fit_detector(samples, writers, embed=embed, folds=4)
            train_seconds.append(time.perf_counter() - start)
            every_rule = fit_detector(samples, writers, rules=retrieval, embed=embed, folds=4)
            planners = candidates(detector, retrieval, tasks, every_rule)
        if ablate:
            train_seconds.append(time.perf_counter() - start)
        for name, planner in planners.items():
            predictions.setdefault(name, []).extend(predict(test, planner, tools))
        log(f"fold {number + 1} (held out: {held}, {len(test)} rows) done in {train_seconds[-1]:.0f} s")
    results = {}
    for name, preds in predictions.items():
        results[name] = report(preds, tools)
        results[name]["train_s"] = (None if ablate or name.startswith("retrieval")
                                    else round(float(np.mean(train_seconds)), 1))
    return results


def round_gain(added: int, log=print, held_out: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """Does a writing round help on wording it was not written in? Each earlier round (or each of `held_out`)
    held out in turn, the learned planner trained on the other earlier rounds without and with round `added`."""
    rows = corpus_rows()
    tools = ToolSet.load(HF_TOOLS)
    tasks = tools.our_tasks()
    embed = Embedder()
    predictions: dict[str, list] = {"without": [], "with": []}
    for held in sorted(set(held_out or {info["round"] for info, _ in rows}) - {added}):
        test = [s for info, s in rows if info["round"] == held]
        for name in predictions:
            train = [(info["writer"], s) for info, s in rows if info["round"] != held
                     and (info["round"] != added or name == "with")]
            detector = fit_detector([s for _, s in train], [w for w, _ in train], embed=embed, folds=4)
            predictions[name] += predict(test, LearnedPlanner(detector, tasks=tasks), tools)
            log(f"round {held} held out, {name} round {added}: done")
    return [result_row(f"learned, {name} round {added}", report(preds, tools), log) for name, preds in predictions.items()]


def wiring_with_gold_tasks(log=print) -> list[dict[str, Any]]:
    """Edge and argument F1 with the gold tasks given, on each corpus round, hf_dev and the fresh set."""
    from langchain_hugginggpt.planning.taskbench import HF_DEV, load_samples

    tools = ToolSet.load(HF_TOOLS)
    rows = corpus_rows()
    sets = {f"corpus round {r}": [s for info, s in rows if info["round"] == r] for r in sorted({i["round"] for i, _ in rows})}
    sets |= {"hf_dev": load_samples(HF_DEV), "fresh set": load_samples(Path(__file__).parent / "data" / "fresh_hf.jsonl")}
    out = []
    for name, samples in sets.items():
        for label, links in (("rules' links", False), ("link model", None)):
            r = report(predict(samples, GoldTaskPlanner(samples, links=links, tools=tools), tools), tools)
            out.append(result_row(f"gold tasks, {label}, {name}", r, log))
    return out


def links_across_rounds(log=print) -> list[dict[str, Any]]:
    """The link model against the wiring rules, each writing round held out in turn, with the gold tasks
    given: the model is trained on the other rounds' gold links. (The rows' tasks are placed with the
    shipped detector's clause scores, which saw every round; the links were learned without the round.)"""
    from langchain_hugginggpt.planning.links import LinkModel

    tools = ToolSet.load(HF_TOOLS)
    rows = corpus_rows()
    samples = [s for _, s in rows]
    collect = GoldTaskPlanner(samples, tools=tools)
    by_round: dict[int, list] = {}
    for info, sample in rows:
        collect.rows = []
        collect.plan(sample.request)
        by_round.setdefault(info["round"], []).append((sample, collect.rows))
    totals: dict[str, list] = {"rules' links": [], "link model": []}
    for held in sorted(by_round):
        model = LinkModel.fit([r for other, items in by_round.items() if other != held for _, rs in items for r in rs])
        test = [s for s, _ in by_round[held]]
        for label, links in (("rules' links", False), ("link model", model)):
            predictions = predict(test, GoldTaskPlanner(test, collect.model, links=links, tools=tools), tools)
            totals[label] += predictions
            log(json.dumps({"planner": label, "held out": f"round {held}", **{m: report(predictions, tools)[m] for m in METRICS}}))
    return [result_row(f"gold tasks, {label}", report(predictions, tools), log) for label, predictions in totals.items()]


def example_bank_check(log=print) -> list[dict[str, Any]]:
    """A check across wording: trained on the whole corpus, planning our example bank (prompts/examples,
    requests written for the retrieval planner's bank, not in the corpus), restricted to the HF tools."""
    from langchain_hugginggpt.planning.taskbench import plan_to_nodes, score
    from langchain_hugginggpt.planning.bank import load_examples

    hf = ToolSet.load(HF_TOOLS)
    tasks = hf.our_tasks()
    tools = ToolSet(names=tuple(tasks), output_types={hf.our_name(n): t for n, t in hf.output_types.items()})
    examples = [(r, p) for r, p in load_examples() if all(t.task in tasks for t in p.tasks)]
    rows = load_corpus_by_writer()
    retrieval = RetrievalPlanner(tasks=tasks)
    detector = fit_detector([s for _, s in rows], [w for w, _ in rows])
    gold = [plan_to_nodes(p, tools) for _, p in examples]
    out = []
    for name, planner in candidates(detector, retrieval, tasks).items():
        r = score(gold, [plan_to_nodes(planner.plan(request).plan, tools) for request, _ in examples], tools)
        out.append(result_row(name, r, log))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folds", choices=("round", "writer"), default="round",
                        help="hold out one writing round (default) or one writer at a time")
    parser.add_argument("--ablate", action="store_true",
                        help="each rule source left out of the learned planner in turn (results: planning_cv_ablate.json)")
    parser.add_argument("--example-bank", action="store_true",
                        help="instead: train on the whole corpus and plan our example bank (prompts/examples)")
    parser.add_argument("--round-gain", type=int, metavar="N",
                        help="instead: each other round held out, trained without and with round N")
    parser.add_argument("--held", type=int, nargs="+", metavar="R",
                        help="with --round-gain: hold out only these rounds (default: every other round)")
    parser.add_argument("--links", action="store_true",
                        help="instead: the link model against the wiring rules, each round held out (planning_cv_links.json)")
    parser.add_argument("--gold-tasks", action="store_true",
                        help="instead: the wiring alone, with the gold tasks given (results: planning_cv_gold_tasks.json)")
    args = parser.parse_args(argv)
    log = lambda m: print(m, file=sys.stderr)  # noqa: E731
    if args.round_gain:
        saved = {"measured": time.strftime("%Y-%m-%d"), "held out": args.held or "every other round",
                 "rows": round_gain(args.round_gain, log, args.held)}
        results_file(f"round{args.round_gain}_gain").write_text(json.dumps(saved, indent=1) + "\n", encoding="utf-8")
        return 0
    if args.links:
        saved = {"measured": time.strftime("%Y-%m-%d"), "rows": links_across_rounds(log)}
        results_file("links").write_text(json.dumps(saved, indent=1) + "\n", encoding="utf-8")
        return 0
    if args.gold_tasks:
        saved = {"measured": time.strftime("%Y-%m-%d"), "rows": wiring_with_gold_tasks(log)}
        results_file("gold_tasks").write_text(json.dumps(saved, indent=1) + "\n", encoding="utf-8")
        return 0
    if args.example_bank:
        saved = {"measured": time.strftime("%Y-%m-%d"), "rows": example_bank_check(log)}
        (RESULTS / "planning_bank_check.json").write_text(json.dumps(saved, indent=1) + "\n", encoding="utf-8")
        return 0
    results = cross_validate(args.folds, log, args.ablate)
    rows = [{"planner": name, "n": r["n"], **{m: r[m] for m in METRICS}, "ned": r["ned"],
             "latency_ms_median": r["latency_ms_median"], "invalid_plans": r["invalid_plans"], "train_s": r["train_s"]}
            for name, r in results.items()]
    for row in rows:
        print(json.dumps(row))
    meta = {"folds": {"round": "one per writing round", "writer": "one per writer"}[args.folds],
            "measured": time.strftime("%Y-%m-%d"), "rows": rows}
    results_file("ablate" if args.ablate else args.folds).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
