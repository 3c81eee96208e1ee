"""Finding task cues in a request: the lexicon (lexicon.py) compiled and applied.

A family cue ("classify", "generate", a question) becomes a task once the modality it
acts on is known: from a file inside the cue, the nouns after it (or before it) in its
clause, or the request's only kind of file.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from langchain_hugginggpt.planning.families import FAMILIES, IN_PICTURE, NOUNS, OUTPUT_FAMILIES
from langchain_hugginggpt.planning.lexicon import CUE_TABLE
from langchain_hugginggpt.planning.request import EMBEDDED_REQUEST, POLITE_REQUEST, ParsedRequest, question_spans

NOUN_RE = {kind: re.compile(rf"(?<![\w@])(?:{pattern})(?!\w)", re.I) for kind, pattern in NOUNS.items()}
CUES = [(re.compile(rf"(?<![\w@])(?:{'|'.join(alternatives)})", re.I), target, weight)
        for target, weight, alternatives in CUE_TABLE]


@dataclass
class Mention:
    task: str
    start: int
    end: int
    weight: float
    cue: str
    implied: bool = False  # "the segmented image": the task's output is referred to, so it must run first
    source: str = "cue"  # the rule that found it (RetrievalPlanner.found_by_source)


def modality_near(request: ParsedRequest, start: int, end: int, *, after_only: bool = False,
                  window: int = 60) -> str | None:
    """The modality of the nearest modality noun or file: after the cue first, then before it,
    inside the cue's clause."""
    clause = request.clauses[request.clause_at(start)]
    text = request.masked
    after = (end, min(clause.end, end + window))
    before = (max(clause.start, start - window), start)
    spans = [after] if after_only else [after, before]
    for lo, hi in spans:
        best = None
        for kind, pattern in NOUN_RE.items():
            for match in pattern.finditer(text, lo, hi):
                distance = match.start() - lo if (lo, hi) == after else hi - match.end()
                if best is None or distance < best[0]:
                    best = (distance, kind)
        if best:
            return best[1]
    return None


_REFERENCE = re.compile(r"(?:the|this|that|its|their|your|my) $", re.I)
# "I've created an audio file", "the photo was translated": a past participle after a subject
# or 'was' tells what happened to the input, it asks for nothing.
_DESCRIBED = re.compile(r"(?:\b(?:i|we|you|they|he|she|someone|somebody)(?:'ve|'d| have| has| had)?|\b(?:was|were|been))"
                        r"(?: (?:already|just|recently|previously|also|then))? $", re.I)
# ... unless a modal makes it a request: "could you sharpen", "can we brighten".
_MODAL_SUBJECT = re.compile(r"\b(?:can|could|would|will|may|might|shall|should|must|do|did|please|to) "
                            r"(?:i|we|you)(?: please)? $", re.I)
# "the recording is hard to interpret", "too noisy to make out": a verb after an adjective of
# difficulty says what the input is like, it asks for nothing.
_HARD_TO = re.compile(r"\b(?:hard|difficult|tough|tricky|impossible|easy|easier|harder|too \w+) to $", re.I)
_OUTPUT_NOUN = re.compile(r"(?:transcript(?:ion)?|caption|summary|translation|description)s?", re.I)
_PARTICIPLE = re.compile(r"\w+(?:ed|en|wn|de)\b", re.I)
_QUESTION_TEXT = re.compile(r"\b(?:text|passage|paragraph|article|context|transcript\w*|caption|summary|story|translation|"
                            r"@q\d+|content|information|report|essay|description)\b", re.I)


# What a polite 'could you help me ...?' asks when it asks a question: to learn or work out something
# ('help me figure it out'), not to do something ('help me achieve this').
_LEARN = re.compile(r"\b(?:figur\w* (?:\w+ )?out|work\w* (?:\w+ )?out|find\w*|understand\w*|determin\w*|know|learn\w*|"
                    r"deduc\w*|tell (?:me|us)|explain\w*|how many|(?:the|its|their) (?:colou?r|number|count|size|shape|name|age|price|"
                    r"amount|total|value|date|time|location|position) of)\b", re.I)


def _last_noun(text: str) -> str | None:
    best = None
    for kind, pattern in NOUN_RE.items():
        for match in pattern.finditer(text):
            if not match.group(0).startswith("@") and (best is None or match.start() > best[0]):
                best = (match.start(), kind)
    return best[1] if best else None


def _clause_has(request: ParsedRequest, position: int, pattern: re.Pattern) -> bool:
    clause = request.clauses[request.clause_at(position)]
    return bool(pattern.search(request.masked, clause.start, clause.end))


def _document_kind(request: ParsedRequest) -> str | None:
    """'doc' for a document the request shows as a picture ('a scan of my receipt', 'the document
    example.jpg'); 'text' for a text document, or one named apart from the only picture ('a long
    document on biology ... also this photo'): its questions are answered from its words."""
    docs = [m for m in NOUN_RE["doc"].finditer(request.masked)
            if not re.search(r"\b(?:text|word|txt|plain) $", request.masked[max(0, m.start() - 6):m.start()], re.I)
            and not re.match(r" (?:text|file)\b", request.masked[m.end():], re.I)]
    if not docs:
        return None
    if not any(f.kind == "image" for f in request.files):
        return "doc"  # the document the question is about is its only input
    for doc in docs:
        before = request.masked[:doc.start()]  # where its sentence starts (a backwards search: a regex here is quadratic)
        sentence = max(before.rfind(mark) for mark in ".!?") + 1
        stop = re.search(r"[.!?]|$", request.masked[doc.end():])
        if NOUN_RE["image"].search(request.masked, sentence, doc.end() + stop.start()):
            return "doc"
    return "text"


def _question_kind(request: ParsedRequest, start: int, end: int) -> str:
    """Visual, document or text question: what a quoted question names ('... in this image?'), else
    document words near the cue, else words naming a text near it, else an image in the request,
    else a text question."""
    clause = request.clauses[request.clause_at(start)]
    asked = " ".join(q.value for q in request.in_span(request.quotes, start, max(end, clause.end)) if q.value.endswith("?"))
    if NOUN_RE["doc"].search(asked) or NOUN_RE["table"].search(asked):
        return "doc"
    if NOUN_RE["image"].search(asked) and any(f.kind == "image" for f in request.files):
        return "image"
    near = request.masked[max(clause.start, start - 60):min(clause.end, end + 60)]
    document = "doc" if NOUN_RE["table"].search(near) else _document_kind(request)
    if document:
        return document
    if _QUESTION_TEXT.search(near) and not re.search(r"@img", near, re.I):
        return "text"
    if any(f.kind == "image" for f in request.files) or NOUN_RE["image"].search(request.masked):
        return "image"
    return "text"


def _picture_at_hand(request: ParsedRequest, match: re.Match) -> str | None:
    """What 'make it black and white' works on: the picture it names, else a picture the request
    brings or mentions before it, else (when nothing else came before it) one an earlier turn
    named or produced. 'Write a poem and turn it into a sketch' is not about a picture."""
    named = _last_noun(match.group("thing"))
    if named:
        return named
    before = request.masked[:match.start()]
    if any(f.kind == "image" for f in request.files) or NOUN_RE["image"].search(before):
        return "image"
    if not _last_noun(before) and any(f.kind == "image" for f in request.history):
        return "image"
    return None


def _names_output(request: ParsedRequest, mention: Mention) -> bool:
    """'According to the transcript, ...': a noun for an earlier step's output, which a question may
    be about, not a request for that step."""
    return _after_reference(request.masked, mention.start) and bool(_OUTPUT_NOUN.fullmatch(mention.cue))


def names_result(request: ParsedRequest, mention: Mention) -> bool:
    """'the generated picture', 'the translated text': the words name a step's result (a participle after
    'the'), which another step works on; they ask for the step, but not as the goal of what follows."""
    return mention.implied or _after_reference(request.masked, mention.start) and bool(_PARTICIPLE.match(mention.cue))


def _after_reference(masked: str, start: int) -> bool:
    """Whether the words at `start` follow 'the', 'this', 'its'...: they name a thing, not an action."""
    return bool(_REFERENCE.search(masked[max(0, start - 6):start]))


def find_mentions(request: ParsedRequest) -> list[Mention]:
    """Every cue in the request, resolved to a task; in order of position. A participle after
    'the' ('the translated text', 'the edited photo') names the result of a task that runs
    before (`implied`): the planner adds that task only when nothing else asks for it. Found once per
    parsed request (a plan reads them twice; the few hundred cue patterns are ~2.5 ms a request) and handed
    out as fresh copies: callers rename a mention's task."""
    if request.mentions is None:
        request.mentions = tuple(_find_mentions(request))
    return [dataclasses.replace(m) for m in request.mentions]


def _find_mentions(request: ParsedRequest) -> list[Mention]:
    mentions: list[Mention] = []
    text = request.masked
    file_kinds = {f.kind for f in request.files}
    for pattern, target, weight in CUES:
        for match in pattern.finditer(text):
            implied = match.group(0).lower().endswith("ed") and _after_reference(text, match.start())
            lead = text[max(0, match.start() - 30):match.start()]
            if _PARTICIPLE.match(match.group(0)) and _DESCRIBED.search(lead) and not _MODAL_SUBJECT.search(lead):
                continue
            if _HARD_TO.search(lead):
                continue
            task = target
            if target.startswith("family:"):
                family = target.split(":", 1)[1]
                if family == "question":
                    if EMBEDDED_REQUEST.match(text, match.end() + 1):  # 'I wonder if you could ...'
                        continue
                    kind = _question_kind(request, match.start(), match.end())
                elif family in OUTPUT_FAMILIES:
                    kind = _last_noun(match.group(0))
                elif family == "make":  # "a picture of ...": something to make, unless the request brings one
                    kind = _last_noun(match.group(0))
                    if kind in file_kinds:
                        continue
                elif family == "to_text" and len(file_kinds - {"text"}) == 1 and not request.in_span(
                        request.files, match.start(), match.end()):
                    kind = next(iter(file_kinds - {"text"}))
                elif family == "classify" and NOUN_RE["table"].search(text):
                    kind = "table"
                elif family in ("look", "restyle"):
                    kind = _picture_at_hand(request, match)
                else:
                    inside = [f.kind for f in request.in_span(request.files, match.start(), match.end())]
                    kind = inside[0] if inside else modality_near(request, match.start(), match.end())
                    if kind is None and len(file_kinds) == 1:
                        kind = next(iter(file_kinds))
                task = FAMILIES[family].get(kind or "")
                if task is None:
                    continue
            elif target in IN_PICTURE and modality_near(request, match.start(), match.end(), after_only=True,
                                                          window=25) == "image":
                task = IN_PICTURE[target]
            mentions.append(Mention(task, match.start(), match.end(), weight, match.group(0), implied))
    # A question about the input asks for question answering, unless another task's cue is inside it.
    for start, end, weight in question_spans(request):
        if weight == POLITE_REQUEST:  # a question only if it names no task and asks to learn something
            if any(start <= m.start < end for m in mentions) or not _LEARN.search(request.masked, start, end):
                continue
            weight = 0.5
        if not any(m.weight >= 0.8 and start <= m.start < end and FAMILIES["question"].get("text") != m.task
                   and m.task not in FAMILIES["question"].values() and not _names_output(request, m) for m in mentions):
            task = FAMILIES["question"][_question_kind(request, start, end)]
            mentions.append(Mention(task, start, end, weight, request.masked[start:end]))
    mentions.sort(key=lambda m: (m.start, -m.weight))
    return mentions
