"""argparse types the command lines share: a number argparse refuses by name when it cannot mean anything
(`--limit 0` scoring every sample, `--last -2` dropping two runs, `--port 99999` binding a random port)."""

from __future__ import annotations

import argparse
from pathlib import Path


def _number(value: str, kind: type) -> int | float:
    try:
        return kind(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not {'a whole number' if kind is int else 'a number'}: {value!r}") from None


def positive_number(value: str) -> float:
    number = _number(value, float)
    if not number > 0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be more than 0, not {value}")
    return number


def probability(value: str) -> float:
    number = _number(value, float)
    if not 0 <= number <= 1:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, not {value}")
    return number


def positive_int(value: str) -> int:
    number = _number(value, int)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return number


def count(value: str) -> int:
    number = _number(value, int)
    if number < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return number


def port(value: str) -> int:
    number = _number(value, int)
    if not 1 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {value}")
    return number


def folder(value: str) -> str:
    """An existing folder (a workspace): a file or a missing path there would fail only when a task writes."""
    path = Path(value).expanduser()
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{value!r} is {'a file' if path.exists() else 'no such folder'}; "
                                         "give an existing folder")
    return value


def folder_to_use(value: str) -> str:
    """A folder that exists or can be made (the server's workspace): not a file."""
    path = Path(value).expanduser()
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{value!r} is a file; give a folder")
    return value
