"""LlamaStateCache: llama-cpp-python's RAM cache of KV states, bounded by the bytes it really holds.

`Llama` saves a `LlamaState` after every completion: the KV bytes, and a copy of the
score matrix (one row of n_vocab floats per token, up to n_batch rows). `LlamaRAMCache`
counts only the KV bytes against its limit, yet with SmolLM2's 49,152-token vocabulary the
scores are ~190 KB per token, about 8 times the KV (~22 KB per token): a 100-token chat
state holds ~19 MB of which the limit sees ~2 MB, so a server's memory grew by ~6 MB per
chat request without bound. This cache drops the scores when the model does not keep
logits (`logits_all=False`: llama.cpp samples from its own buffer, and nothing reads
these rows) and counts every byte a state holds.

Imports llama_cpp, so it is imported only where the local model is loaded.
"""

from __future__ import annotations

from typing import Sequence

from llama_cpp import LlamaRAMCache
from llama_cpp.llama import LlamaState


def state_bytes(state: LlamaState) -> int:
    """The bytes a saved state holds: KV data, token ids and scores."""
    return int(state.llama_state_size) + state.input_ids.nbytes + state.scores.nbytes


class LlamaStateCache(LlamaRAMCache):
    """A `LlamaRAMCache` (LRU, longest-prefix lookup) whose `capacity_bytes` bounds all it holds."""

    def __init__(self, capacity_bytes: int, keep_scores: bool = False) -> None:
        super().__init__(capacity_bytes)
        self.keep_scores = keep_scores

    @property
    def cache_size(self) -> int:
        return sum(state_bytes(state) for state in self.cache_state.values())

    def __setitem__(self, key: Sequence[int], value: LlamaState) -> None:
        if not self.keep_scores:
            # One row stands for them all: `Llama.load_state` assigns it to the rows it
            # restores (numpy broadcasts it), and with logits_all=False no one reads those rows.
            value.scores = value.scores[-1:].copy()
        if state_bytes(value) > self.capacity_bytes:
            return  # it would evict everything and still not fit
        super().__setitem__(key, value)
