"""Model card text -> a short description: the first sentences that say what the model does.

Cards are markdown with HTML, badges, tables, code, tables of contents, auto-generated
Trainer boilerplate and sometimes YAML that leaked out of the header. We keep an
informative title and the first prose paragraphs, and fall back to list items (many
translation cards are only lists), then to nothing.
"""

from __future__ import annotations

import re

DEFAULT_MAX_CHARS = 300

_FRONT_MATTER = re.compile(r"\A\s*---\s*\n.*?\n---\s*\n", re.DOTALL)
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_CODE_FENCE = re.compile(r"(```|~~~).*?(\1|\Z)", re.DOTALL)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_REF_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*\S+.*$", re.MULTILINE)
_HTML_TAG = re.compile(r"</?[a-zA-Z][^>]*>")
_URL = re.compile(r"https?://\S+")
_INLINE = re.compile(r"(\*\*|__|`|\*(?=\S)|(?<=\S)\*)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_YAML_LINE = re.compile(r"^\s{2,}(?:-\s+)?[\w-]+:(?:\s|$)")
_LABEL = re.compile(r"^(?:model description|description|overview|summary|introduction|about)\s*:\s*", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")

# Sentences that never describe the model.
_BOILERPLATE = re.compile(
    r"generated automatically|proofread and complete it|table of contents|^disclaimer\b|did not write a model card"
    r"|written by the hugging ?face team|^note\b|if you find this model|connect me on|^please (?:see|refer|cite)"
    r"|^for more details\b|^repository\b|^paper\b|^github\b|^demo\b|^citation\b|^license\b|entry not found"
    r"|more information needed|^it achieves the following results|^use the code below|hyperparameters were used",
    re.IGNORECASE,
)
# Titles that say nothing about the model.
_GENERIC_TITLE = re.compile(
    r"^(?:model card(?: for .*)?|model (?:description|details)|description|overview|introduction|usage|how to use"
    r"|intended uses.*|training.*|evaluation.*|results|limitations.*|citation|license|welcome|about|table of contents"
    r"|getting started.*|summary|details|tl;?dr|model|abstract|benchmarks?)$",
    re.IGNORECASE,
)


def _inline_text(text: str) -> str:
    text = _IMAGE.sub("", text)
    text = _LINK.sub(r"\1", text)
    text = _HTML_TAG.sub(" ", text)
    text = _URL.sub("", text)
    text = _INLINE.sub("", text)
    text = text.replace("&nbsp;", " ").replace("&amp;", "&")
    return re.sub(r"\s+", " ", text).strip(" :-|")


def _blocks(markdown: str) -> list[list[str]]:
    text = _FRONT_MATTER.sub("", markdown.replace("\r\n", "\n"))
    text = _HTML_COMMENT.sub("", text)
    text = _CODE_FENCE.sub("\n\n", text)
    text = _REF_LINK.sub("", text)
    blocks, current = [], []
    for line in text.split("\n"):
        if not line.strip():
            if current:
                blocks.append(current)
            current = []
        elif line.lstrip().startswith("#"):  # a heading is a block of its own
            if current:
                blocks.append(current)
            blocks.append([line])
            current = []
        else:
            current.append(line)
    if current:
        blocks.append(current)
    return blocks


def _is_junk(lines: list[str]) -> bool:
    """Tables, and YAML that leaked out of the card header."""
    if any("verifyToken" in line for line in lines):
        return True
    tabular = sum(1 for line in lines if line.lstrip().startswith("|") or line.count("|") >= 2)
    yaml = sum(1 for line in lines if _YAML_LINE.match(line))
    return tabular * 2 >= len(lines) or yaml * 2 >= len(lines)


def _clip(sentences: list[str], max_chars: int) -> str:
    out = ""
    for sentence in sentences:
        candidate = f"{out} {sentence}".strip()
        if len(candidate) > max_chars:
            if not out:  # one long sentence: cut at a word boundary
                out = candidate[:max_chars].rsplit(" ", 1)[0].rstrip(",;:") + "..."
            break
        out = candidate
    return out


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _sentences(text: str) -> list[str]:
    text = _LABEL.sub("", text)
    out = []
    for sentence in _SENTENCE_END.split(text):
        sentence = sentence.strip()
        if sentence and not _BOILERPLATE.search(re.sub(r"^\W+", "", sentence)):
            out.append(sentence)
    return out


def short_description(markdown: str | None, max_chars: int = DEFAULT_MAX_CHARS, name: str = "") -> str:
    """The first meaningful sentences of a model card, at most `max_chars` long.

    `name` (the model id) keeps a title that only repeats it out of the description.
    """
    if not markdown:
        return ""
    names = {_squash(name), _squash(name.rsplit("/", 1)[-1])}
    title = ""
    prose: list[str] = []
    items: list[str] = []
    for lines in _blocks(markdown):
        first = lines[0].lstrip()
        if first.startswith("#"):
            heading = re.sub(r"[^A-Za-z0-9)]+$", "", _inline_text(first.lstrip("#")))
            if not (title or prose or items) and heading and not _GENERIC_TITLE.match(heading) and _squash(heading) not in names:
                title = heading
            continue
        if _is_junk(lines):
            continue
        text_lines = []
        for line in lines:
            if _LIST_ITEM.match(line):
                item = _inline_text(_LIST_ITEM.sub("", line))
                if len(item) > 3:
                    items.append(item)
            else:
                text_lines.append(line)
        text = _inline_text(" ".join(text_lines))
        if len(text) < 20 or not re.search(r"[^\W\d_]{3}", text):
            continue
        prose.extend(_sentences(text))
        if sum(len(s) for s in prose) >= max_chars:
            break
    sentences = prose or ([f"{'; '.join(items[:6])}."] if items else [])
    if title and not (sentences and _squash(title) in _squash(sentences[0])):
        sentences = [title.rstrip(".") + "."] + sentences
    return _clip(sentences, max_chars)
