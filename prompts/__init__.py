"""Prompt templates and demonstrations for the planning, selection and response chains.

Templates are plain text files with `{slot}` placeholders filled by `render`
(simple replacement, so JSON braces in the templates need no escaping). They
reproduce the paper's prompt design (stages, slots, JSON formats,
demonstrations) in our own words.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = ["load", "render", "planning_demos"]


@lru_cache(maxsize=None)
def load(name: str) -> str:
    """The text of a template file in this package, e.g. load("planning.md")."""
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8").strip()


def render(name: str, **slots: Any) -> str:
    text = load(name)
    for key, value in slots.items():
        text = text.replace("{" + key + "}", str(value))
    return text


@lru_cache(maxsize=None)
def planning_demos() -> tuple[dict, ...]:
    """The few-shot request -> plan pairs shown to the planning LLM."""
    return tuple(json.loads(load("demos_planning.json")))
