"""BoostedTrees: a gradient-boosted tree ensemble as plain arrays, applied with numpy.

Trained by scikit-learn's `HistGradientBoostingClassifier` (only training needs scikit-learn), stored as the
arrays of its trees (no pickle), and applied to a batch of rows in one pass per tree level: every row walks
every tree at once, so a request's candidate links cost a handful of numpy operations.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_FIELDS = ("feature", "threshold", "left", "right", "value", "leaf")


class BoostedTrees:
    """P(y) = sigmoid(baseline + the sum of each tree's leaf value). Nodes of all trees in one set of arrays:
    `roots[t]` is tree t's first node; `left`/`right` index into the same arrays; a row goes left where its
    feature is at most the node's threshold."""

    def __init__(self, roots: np.ndarray, feature: np.ndarray, threshold: np.ndarray, left: np.ndarray,
                 right: np.ndarray, value: np.ndarray, leaf: np.ndarray, baseline: float, depth: int) -> None:
        self.roots = np.asarray(roots, np.int32)
        self.feature, self.threshold = np.asarray(feature, np.int32), np.asarray(threshold, np.float32)
        self.left, self.right = np.asarray(left, np.int32), np.asarray(right, np.int32)
        self.value, self.leaf = np.asarray(value, np.float32), np.asarray(leaf, bool)
        self.baseline, self.depth = float(baseline), int(depth)

    @classmethod
    def fit(cls, x: np.ndarray, y: np.ndarray, sample_weight: Any = None, **options: Any) -> "BoostedTrees":
        from sklearn.ensemble import HistGradientBoostingClassifier

        model = HistGradientBoostingClassifier(**options).fit(x, y, sample_weight=sample_weight)
        return cls.from_sklearn(model)

    @classmethod
    def from_sklearn(cls, model: Any) -> "BoostedTrees":
        """The trees of a fitted binary `HistGradientBoostingClassifier` (numeric features, no missing values).
        Its trees are private attributes: tests/planning/test_link_model.py checks the copy against
        `predict_proba`, so a scikit-learn release that changes them fails there, not in use."""
        parts: dict[str, list] = {name: [] for name in _FIELDS}
        roots, offset, depth = [], 0, 0
        for (tree,) in model._predictors:  # one tree per iteration for a binary target
            nodes = tree.nodes
            roots.append(offset)
            parts["feature"].append(nodes["feature_idx"])
            parts["threshold"].append(nodes["num_threshold"])
            parts["left"].append(np.where(nodes["is_leaf"], 0, nodes["left"] + offset))
            parts["right"].append(np.where(nodes["is_leaf"], 0, nodes["right"] + offset))
            parts["value"].append(nodes["value"])
            parts["leaf"].append(nodes["is_leaf"].astype(bool))
            depth = max(depth, int(nodes["depth"].max()))
            offset += len(nodes)
        baseline = float(np.ravel(model._baseline_prediction)[0])
        return cls(np.array(roots), *(np.concatenate(parts[name]) for name in _FIELDS), baseline, depth)

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """P(y) for each row of `x` (rows x features)."""
        x = np.asarray(x, np.float32)
        rows = np.arange(len(x))[:, None]
        node = np.broadcast_to(self.roots, (len(x), len(self.roots))).copy()
        for _ in range(self.depth):
            inner = ~self.leaf[node]
            if not inner.any():
                break
            goes_left = x[rows, self.feature[node]] <= self.threshold[node]
            node = np.where(inner, np.where(goes_left, self.left[node], self.right[node]), node)
        raw = self.baseline + self.value[node].sum(axis=1, dtype=np.float64)
        return 1.0 / (1.0 + np.exp(-raw))

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        out = {f"{prefix}{name}": getattr(self, name) for name in _FIELDS}
        out[f"{prefix}roots"] = self.roots
        out[f"{prefix}scalars"] = np.array([self.baseline, self.depth], np.float64)
        return out

    @classmethod
    def from_arrays(cls, arrays: Any, prefix: str) -> "BoostedTrees":
        baseline, depth = arrays[f"{prefix}scalars"]
        return cls(arrays[f"{prefix}roots"], *(arrays[f"{prefix}{name}"] for name in _FIELDS), baseline, int(depth))
