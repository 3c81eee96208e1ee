"""Apertium (Debian) as a translation backend: which pairs are installed, which mode a
request needs, and the call itself."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from langchain_hugginggpt.tools.engines._lang import LANGUAGES, language_name

TIMEOUT_S = 120.0


def modes_dir() -> Path | None:
    """Where the installed pairs' `.mode` files live (`<prefix>/share/apertium/modes`)."""
    binary = shutil.which("apertium")
    if binary is None:
        return None
    return Path(binary).resolve().parent.parent / "share" / "apertium" / "modes"


def installed_modes() -> set[str]:
    """Mode names such as 'eng-spa', 'spa-eng', 'en-gl' (cheap: a directory listing)."""
    directory = modes_dir()
    if directory is None or not directory.is_dir():
        return set()
    return {p.stem for p in directory.glob("*.mode")}


def _codes(language: str) -> tuple[str, ...]:
    """Apertium spells a language with its 2- or 3-letter code depending on the pair."""
    return (language, LANGUAGES[language][1]) if language in LANGUAGES else (language,)


def find_mode(source: str, target: str, modes: set[str]) -> str | None:
    for s in _codes(source):
        for t in _codes(target):
            if f"{s}-{t}" in modes:
                return f"{s}-{t}"
    return None


def languages_with_english(modes: set[str]) -> list[str]:
    """ISO 639-1 codes of the languages installed pairs translate to or from English."""
    found = []
    for code in LANGUAGES:
        if code != "en" and (find_mode("en", code, modes) or find_mode(code, "en", modes)):
            found.append(code)
    return found


def describe_pairs(modes: set[str]) -> str:
    pairs = []
    for mode in sorted(modes):
        parts = mode.split("-")
        if len(parts) == 2:  # variants such as spa-eng_US keep the plain pair's name
            pairs.append(f"{_name(parts[0])}->{_name(parts[1])}")
    return ", ".join(pairs) or "none"


def _name(code: str) -> str:
    for short, (name, iso3) in LANGUAGES.items():
        if code in (short, iso3):
            return name
    return code


def translate(text: str, mode: str) -> str:
    """Run `apertium -u MODE` (-u: no '*' marks on unknown words) on `text`."""
    done = subprocess.run(["apertium", "-u", mode], input=text.encode(), capture_output=True,
                          timeout=TIMEOUT_S, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"apertium {mode} failed: {done.stderr.decode(errors='replace').strip()[-300:]}")
    return done.stdout.decode(errors="replace").strip()


def install_hint(source: str, target: str) -> str:
    pair = "-".join(sorted((LANGUAGES.get(source, (source, source))[1], LANGUAGES.get(target, (target, target))[1])))
    return (f"no Apertium pair for {language_name(source)} -> {language_name(target)} is installed "
            f"(look for a Debian package such as apertium-{pair} with `apt-cache search apertium`)")
