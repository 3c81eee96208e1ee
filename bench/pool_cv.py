"""The learned planner on TaskBench's own requests (issue 33): the labelled pool (prompts/corpus/pool/) by k-fold
cross-validation on ids, and the measuring sets, old planner against new.

    python bench/pool_cv.py sets --label old          # the shipped planner: the whole pool (held out: it never saw it),
                                                     # hf_dev in both wordings, the fresh and the generator-style sets
    python bench/pool_cv.py cv --folds 3             # pool folds by id: trained on the corpus + the other folds
    python bench/pool_cv.py speed --old DIR         # planning time, old (DIR: the models before the pool) and new
    python bench/pool_cv.py weight 0 0.3 1           # how much a pool row counts: corpus round 7 and pool fold 1 of 3
                                                     # held out, and hf_dev (the setting is chosen here)
    python bench/pool_cv.py links                    # the link model as a logistic regression and as boosted trees,
                                                     # on the same split
    python bench/pool_cv.py placement                # where each step is placed, round 4's way and this round's,
                                                     # on the same split, and their planning time
    hugginggpt train planner --out /tmp/new/task_detector.npz     # retrained on the corpus and the pool, then
    python bench/pool_cv.py sets --label new --no-pool --detector /tmp/new/task_detector.npz --links /tmp/new/link_model.npz

hf_dev "official" is hf_dev.jsonl's labels with the request in TaskBench's own wording (the same ids in
prompts/corpus/pool/requests.jsonl); "reworded" is hf_dev.jsonl as it is. Each fold of `cv` trains the task detector
exactly as `hugginggpt train planner` does (corpus writers and pool readers as the cross-fitting groups, the same
number of groups, pool rows weighted alike) on the corpus and the other folds, and the link model on their gold links; the link model's rows
are collected once for every row (with the first fold's detector placing the gold tasks; a held-out row's link rows
never train its fold's link model). The old planner (`--old`: the models before the pool, which never saw it) plans
the same held-out rows. A row's fold: crc32 of its id mod k. Results: bench/data/pool_cv.json (one key per
run, merged).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

from langchain_hugginggpt.planning.taskbench import HF_DEV, HF_TOOLS, ToolSet, load_samples, predict, report
from langchain_hugginggpt.planning.learned import LearnedPlanner
from langchain_hugginggpt.planning.detector import DETECTOR_MODEL
from langchain_hugginggpt.planning.links import ADD, KEEP, LINK_MODEL, LinkModel
from langchain_hugginggpt.planning.corpus import pool_rows
from langchain_hugginggpt.planning.training import (
    POOL_WEIGHT, STACK_GROUPS, Embedder, fit_detector, fit_links, fit_planner, link_rows, row_weights, training_rows)

ROOT = Path(__file__).resolve().parents[1]
FRESH = ROOT / "bench" / "data" / "fresh_hf.jsonl"
GENERATOR_DEV = ROOT / "bench" / "data" / "generator_dev" / "dev.jsonl"
REQUESTS = ROOT / "prompts" / "corpus" / "pool" / "requests.jsonl"
RESULTS = ROOT / "bench" / "data" / "pool_cv.json"
METRICS = ("node_f1", "edge_f1", "arg_name_f1", "arg_value_f1")


def summary(r: dict[str, Any]) -> dict[str, Any]:
    out = {"n": r["n"], **{m: r[m] for m in METRICS}, "latency_ms_median": r["latency_ms_median"],
           "invalid_plans": r["invalid_plans"]}
    out["by_type"] = {t: {m: v[m] for m in ("node_f1", "edge_f1")} for t, v in r["by_type"].items()}
    return out


def empty_plans(predictions: list) -> int:
    return sum(not p.nodes for p in predictions)


def hf_dev_official(folder: Path) -> Path:
    """hf_dev.jsonl with each request swapped for its official wording (requests.jsonl, same id)."""
    official = {}
    for line in REQUESTS.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            official[str(row["id"])] = row["user_request"]
    out = []
    for line in Path(HF_DEV).read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            row["instruction"] = official[str(row["id"])]
            out.append(json.dumps(row))
    path = folder / "hf_dev_official.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def measuring_sets(folder: Path, pool: bool) -> dict[str, list]:
    sets = {"hf_dev official": load_samples(hf_dev_official(folder)), "hf_dev reworded": load_samples(HF_DEV),
            "fresh": load_samples(FRESH), "generator-style": load_samples(GENERATOR_DEV)}
    if pool:
        sets["pool (all, held out)"] = [s for _, s in pool_rows()]
    return sets


def run_sets(label: str, pool: bool, log, detector: Path | None = None, links: Path | None = None) -> dict[str, Any]:
    tools = ToolSet.load(HF_TOOLS)
    planner = LearnedPlanner(detector, tasks=tools.our_tasks(), links=links)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, samples in measuring_sets(Path(tmp), pool).items():
            predictions = predict(samples, planner, tools)
            out[name] = {**summary(report(predictions, tools)), "empty_plans": empty_plans(predictions)}
            log(json.dumps({"planner": label, "set": name, **{k: v for k, v in out[name].items() if k != "by_type"}}))
    return out


def fold_of(sample_id: str, k: int) -> int:
    return zlib.crc32(sample_id.encode()) % k


def run_cv(k: int, log, only: list[int] | None = None, old: Path | None = None,
           groups: int = STACK_GROUPS, pool_weight: float = POOL_WEIGHT) -> dict[str, Any]:
    tools = ToolSet.load(HF_TOOLS)
    tasks = tools.our_tasks()
    rows = training_rows()  # (writer, sample, is_pool)
    samples = [s for _, s, _ in rows]
    weights = row_weights(rows, pool_weight)
    embed = Embedder()  # each text embedded once across folds (the detectors' MiniLM scorers read through it)
    predictions: dict[str, list] = {"new": [], "old": []}
    models = old or DETECTOR_MODEL.parent
    shipped = LearnedPlanner(models / DETECTOR_MODEL.name, tasks=tasks, links=models / LINK_MODEL.name)
    seconds, candidates = [], None
    for fold in (only or range(k)):
        train = [i for i, (_, s, is_pool) in enumerate(rows) if not (is_pool and fold_of(s.id, k) == fold)]
        test = [s for _, s, is_pool in rows if is_pool and fold_of(s.id, k) == fold]
        start = time.perf_counter()
        detector = fit_detector([rows[i][1] for i in train], [rows[i][0] for i in train], embed=embed,
                                folds=groups, weights=[weights[i] for i in train])
        if candidates is None:  # every row's candidate links with its gold tasks placed, once (module docstring)
            candidates = link_rows(samples, detector)
            log(f"link rows for {len(samples)} rows in {time.perf_counter() - start:.0f} s (with the fold's fit)")
        links = fit_links([candidates[i] for i in train], [weights[i] for i in train])
        seconds.append(time.perf_counter() - start)
        predictions["new"] += predict(test, LearnedPlanner(detector, tasks=tasks, links=links), tools)
        predictions["old"] += predict(test, shipped, tools)
        log(f"fold {fold + 1}/{k}: {len(train)} training rows, {len(test)} held out, trained in {seconds[-1]:.0f} s; "
            + json.dumps({n: {m: report(p[-len(test):], tools)[m] for m in METRICS} for n, p in predictions.items()}))
    out = {name: {**summary(report(p, tools)), "empty_plans": empty_plans(p)} for name, p in predictions.items()}
    out["train_s_per_fold"] = round(statistics.mean(seconds), 1)
    out["folds_run"] = [f + 1 for f in (only or range(k))]
    out["stacker_groups"] = groups
    return out


def run_weights(weights: list[float], log, held_round: int = 7, fold: int = 1, k: int = 3) -> dict[str, Any]:
    """For each pool weight, train as `train planner` does (but always with STACK_GROUPS stacker groups, so that
    weight 0 differs from the others by the pool alone) on the corpus without writing round `held_round` and the
    pool without fold `fold` of `k`, and plan the held-out rows (every other one of the pool fold, for time) and
    hf_dev in both wordings: the pool's gain on TaskBench's wording against its cost on ours, on data the fresh and
    generator-style sets never enter."""
    tools = ToolSet.load(HF_TOOLS)
    rows, held, sets = _held_out(held_round, fold, k)
    pool_fold = f"pool fold {fold} of {k}"
    sets = {(f"{n} (half)" if n == pool_fold else n): (v[::2] if n == pool_fold else v) for n, v in sets.items()}
    train = [r for r, h in zip(rows, held) if not h]
    embed, out = Embedder(), {}
    for weight in weights:
        start = time.perf_counter()
        detector, links = fit_planner([r for r in train if weight > 0 or not r[2]], weight, embed, STACK_GROUPS)
        out[f"pool weight {weight}"] = _planned(LearnedPlanner(detector, tasks=tools.our_tasks(), links=links), sets, tools)
        log(f"pool weight {weight}: trained in {time.perf_counter() - start:.0f} s; " + json.dumps(
            {n: [r["node_f1"], r["edge_f1"], r["arg_value_f1"]] for n, r in out[f"pool weight {weight}"].items()}))
    return out


def _held_out(held_round: int, fold: int, k: int) -> tuple[list, list[bool], dict[str, list]]:
    """(the training rows, which of them corpus writing round `held_round` and pool fold `fold` of `k` hold out,
    the held-out sets and hf_dev in both wordings)."""
    rounds = {v["writer"]: v["round"] for v in json.loads((ROOT / "prompts" / "corpus" / "writers.json").read_text()).values()}
    rows = training_rows()
    held = [fold_of(s.id, k) == fold - 1 if is_pool else rounds.get(w) == held_round for w, s, is_pool in rows]
    with tempfile.TemporaryDirectory() as tmp:
        sets = {f"corpus round {held_round}": [s for (w, s, p), h in zip(rows, held) if h and not p],
                f"pool fold {fold} of {k}": [s for (w, s, p), h in zip(rows, held) if h and p],
                **{n: v for n, v in measuring_sets(Path(tmp), False).items() if n.startswith("hf_dev")}}
    return rows, held, sets


def _planned(planner: Any, sets: dict[str, list], tools: ToolSet) -> dict[str, Any]:
    return {n: {**summary(report(p, tools)), "empty_plans": empty_plans(p)}
            for n, p in ((n, predict(v, planner, tools)) for n, v in sets.items())}


def _median_ms(planners: dict[str, Any], samples: list) -> dict[str, float]:
    """Each planner's median planning time, each request planned by each in turn (a change of load falls on all)."""
    times: dict[str, list[float]] = {k: [] for k in planners}
    for sample in samples:
        for key, planner in planners.items():
            start = time.perf_counter()
            planner.plan(sample.request)
            times[key].append((time.perf_counter() - start) * 1000)
    return {k: round(statistics.median(v), 2) for k, v in times.items()}


class LogisticLinks(LinkModel):
    """The link model before the trees: a logistic regression (C=1) over the same features."""

    def __init__(self, rows: list, weights: list[float]) -> None:
        from sklearn.feature_extraction import DictVectorizer
        from sklearn.linear_model import LogisticRegression

        feats, labels = zip(*rows)
        self.vectorizer = DictVectorizer().fit(feats)
        self.index = self.vectorizer.vocabulary_  # the features it knows (`knows`)
        self.regression = LogisticRegression(C=1.0, max_iter=5000).fit(
            self.vectorizer.transform(feats), labels, sample_weight=weights)
        self.keep, self.add = KEEP, ADD

    def probabilities(self, rows):
        return self.regression.predict_proba(self.vectorizer.transform(rows))[:, 1]


def _fold_split(log, held_round: int, fold: int, k: int) -> tuple[list, list[bool], Any, list, dict[str, list]]:
    """The split of `weight` trained as `train planner` does without corpus round `held_round` and pool fold `fold`:
    (rows, which are held out, the detector, every row's candidate links, the held-out sets and hf_dev)."""
    rows, held, sets = _held_out(held_round, fold, k)
    train = [r for r, h in zip(rows, held) if not h]
    start = time.perf_counter()
    detector = fit_detector([s for _, s, _ in train], [w for w, _, _ in train], embed=Embedder(),
                            weights=row_weights(train), folds=STACK_GROUPS)
    candidates = link_rows([s for _, s, _ in rows], detector)
    log(f"detector and link rows in {time.perf_counter() - start:.0f} s")
    return rows, held, detector, candidates, sets


def run_links(log, held_round: int = 7, fold: int = 1, k: int = 3) -> dict[str, Any]:
    """The link model as a logistic regression and as boosted trees, on the split of `weight` (the detector trained
    as `train planner` does, at POOL_WEIGHT, without corpus round `held_round` and pool fold `fold`): how well each
    ranks the held-out rows' candidate links (AUC), and the held-out sets planned with each."""
    from sklearn.metrics import roc_auc_score

    tools = ToolSet.load(HF_TOOLS)
    rows, held, detector, candidates, sets = _fold_split(log, held_round, fold, k)
    weights = row_weights([r for r, h in zip(rows, held) if not h])
    fitted = [c for c, h in zip(candidates, held) if not h]
    forms = {"logistic regression": LogisticLinks([r for rs in fitted for r in rs],
                                                  [w for rs, w in zip(fitted, weights) for _ in rs]),
             "boosted trees": fit_links(fitted, weights)}
    tested = [r for c, h in zip(candidates, held) if h for r in c]
    out: dict[str, Any] = {}
    for name, links in forms.items():
        auc = roc_auc_score([y for _, y in tested], links.probabilities([f for f, _ in tested]))
        out[name] = {"held_out_link_auc": round(float(auc), 4),
                     **_planned(LearnedPlanner(detector, tasks=tools.our_tasks(), links=links), sets, tools)}
        log(f"{name}: AUC {auc:.4f} " + json.dumps(
            {n: [r["node_f1"], r["edge_f1"], r["arg_value_f1"]] for n, r in out[name].items() if isinstance(r, dict)}))
    return out


class ClauseStartPlanner(LearnedPlanner):
    """The placement of round 4: a task no cue names at the start of the clause the scorers rate highest for it
    (before every other step that clause lists); a task the rules name more than once at the rules' choice of
    mention (the first, or a restatement)."""

    def _anchor(self, parsed, task, found, evidence):
        mention = super()._anchor(parsed, task, found, evidence)
        if not mention.cue.startswith("clause"):
            return mention
        clause = parsed.clauses[parsed.clause_at(mention.start)]
        return type(mention)(task, clause.start, clause.start, mention.weight, mention.cue)

    def _one_mention_each(self, found, parsed):
        return found


class CommaPartAnchorPlanner(ClauseStartPlanner):
    """The first change alone: a task no cue names in its own comma-separated part of the clause."""

    _anchor = LearnedPlanner._anchor


def run_placement(log, held_round: int = 7, fold: int = 1, k: int = 3) -> dict[str, Any]:
    """Where each step is placed, round 4's way and with each of this round's two changes (planning/learned.py:
    a task no cue names in the comma-separated part of its clause that reads most like it; of a task's several
    mentions, the one whose part reads most like it), on the split of `weight`, the link model trained on the
    other rows; then their planning time, each hf_dev request planned by each in turn."""
    tools = ToolSet.load(HF_TOOLS)
    rows, held, detector, candidates, sets = _fold_split(log, held_round, fold, k)
    links = fit_links([c for c, h in zip(candidates, held) if not h], row_weights([r for r, h in zip(rows, held) if not h]))
    planners = {"round 4": ClauseStartPlanner(detector, tasks=tools.our_tasks(), links=links),
                "anchor in its comma part": CommaPartAnchorPlanner(detector, tasks=tools.our_tasks(), links=links),
                "and the mention whose comma part reads most like the task (shipped)":
                    LearnedPlanner(detector, tasks=tools.our_tasks(), links=links)}
    out: dict[str, Any] = {}
    for name, planner in planners.items():
        out[name] = _planned(planner, sets, tools)
        log(f"{name}: " + json.dumps({n: [r["node_f1"], r["edge_f1"], r["arg_value_f1"]] for n, r in out[name].items()}))
    for name in (n for n in sets if n.startswith("hf_dev")):
        out[f"median ms, {name}"] = _median_ms(planners, sets[name])
        log(f"{name}: median ms " + json.dumps(out[f"median ms, {name}"]))
    return out


def run_speed(old: Path, log) -> dict[str, Any]:
    """Old and new planner side by side: each request planned by one, then the other (so a change of load
    falls on both), after a warm-up; the median milliseconds per set."""
    tools = ToolSet.load(HF_TOOLS)
    planners = {"old": LearnedPlanner(old / DETECTOR_MODEL.name, tasks=tools.our_tasks(), links=old / LINK_MODEL.name),
                "new": LearnedPlanner(tasks=tools.our_tasks())}
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        sets = measuring_sets(Path(tmp), False)
    for planner in planners.values():
        for sample in sets["fresh"][:10]:
            planner.plan(sample.request)
    for name, samples in sets.items():
        out[name] = _median_ms(planners, samples)
        log(f"{name}: median ms " + json.dumps(out[name]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sets = sub.add_parser("sets", help="the shipped planner on the measuring sets (and the whole pool)")
    sets.add_argument("--label", required=True, help="the key the results go under (e.g. old, new)")
    sets.add_argument("--no-pool", action="store_true", help="leave out the pool (a planner trained on it)")
    sets.add_argument("--detector", type=Path, help="a task_detector.npz other than the shipped one")
    sets.add_argument("--links", type=Path, help="a link_model.npz other than the shipped one")
    cv = sub.add_parser("cv", help="k-fold cross-validation on the pool by id")
    cv.add_argument("--folds", type=int, default=3)
    cv.add_argument("--only", type=int, nargs="+", metavar="F",
                    help="run only these folds (1-based; the rest of the pool is still trained on)")
    cv.add_argument("--groups", type=int, default=STACK_GROUPS,
                    help=f"the stacker's held-out groups of writers (default {STACK_GROUPS}, as training; fewer is faster)")
    cv.add_argument("--pool-weight", type=float, default=POOL_WEIGHT,
                    help=f"how much a pool row counts against a corpus row (default {POOL_WEIGHT}, as training)")
    cv.add_argument("--old", type=Path, metavar="DIR",
                    help="the old planner's task_detector.npz and link_model.npz (default: the shipped ones), e.g. "
                         "from `git show 17b0ce2:agent/planners/models/...`")
    weight = sub.add_parser("weight", help="how much a pool row counts: a corpus round and a pool fold held out")
    weight.add_argument("weights", type=float, nargs="+")
    weight.add_argument("--round", type=int, default=7, help="the corpus writing round held out (default 7)")
    weight.add_argument("--fold", type=int, default=1, help="the pool fold held out, of 3 (default 1)")
    sub.add_parser("links", help="the link model as a logistic regression and as boosted trees, "
                                 "corpus round 7 and pool fold 1 held out")
    sub.add_parser("placement", help="where each step is placed, round 4's way and this round's, "
                                     "corpus round 7 and pool fold 1 held out")
    speed = sub.add_parser("speed", help="the old and the shipped planner's planning time, side by side")
    speed.add_argument("--old", type=Path, required=True, metavar="DIR", help="the models before the pool")
    args = parser.parse_args(argv)
    log = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    if args.what == "sets":
        key, result = f"sets {args.label}", run_sets(args.label, not args.no_pool, log, args.detector, args.links)
    elif args.what == "speed":
        key, result = "speed, old and new side by side", run_speed(args.old, log)
    elif args.what == "links":
        key, result = "link model forms, corpus round 7 and pool fold 1 of 3 held out", run_links(log)
    elif args.what == "placement":
        key, result = "placement, corpus round 7 and pool fold 1 of 3 held out", run_placement(log)
    elif args.what == "weight":
        key = (f"pool weight {' '.join(map(str, args.weights))}, corpus round {args.round} and pool fold {args.fold} "
               "of 3 held out")
        result = run_weights(args.weights, log, args.round, args.fold)
    else:
        only = [f - 1 for f in args.only] if args.only else None
        key = f"cv {args.folds} folds" + (f" (folds {' '.join(map(str, args.only))})" if only else "")
        key += f", {args.groups} stacker groups" if args.groups != STACK_GROUPS else ""
        key += f", pool weight {args.pool_weight}"
        result = run_cv(args.folds, log, only, args.old, args.groups, args.pool_weight)
    saved = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.is_file() else {}
    saved[key] = {"measured": time.strftime("%Y-%m-%d %H:%M"), **result}
    RESULTS.write_text(json.dumps(saved, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
