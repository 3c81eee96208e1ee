"""A request as the planners read it (`ParsedRequest`: its files, quotes and clauses, as `text.parse` finds
them) and the questions it asks about its input. Below the cue rules (cues.py), which read both."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# A request in a question's clothes: 'could you ...', 'can we ...', 'is it possible to ...', 'could it be done'.
_POLITE = re.compile(r"\b(?:(?:could|can|would|will|may|might|shall) (?:you|we|i|one)|(?:is|would|could|will) it be possible|"
                     r"is it possible|do you|is there (?:a|any) way|(?:how|what) about|why (?:not|don't (?:you|we))|(?:could|can|would) (?:an? |the )?(?:ai|assistant|model|"
                     r"tool|system|bot)\b|(?:can|could|would) (?:[\w-]+ ){1,3}?be (?:done|\w+ed)\b)", re.I)
# '... if there's a way to make a video', '... whether an AI could describe it': what follows 'I wonder' or
# 'I want to know' is a request, not a question about the input.
EMBEDDED_REQUEST = re.compile(r"(?:if|whether) (?:there(?:'s| is) (?:a|any) way|it(?:'s| is| would be| could be| will be| might be) "
                              r"possible|(?:you|we|an? [\w-]+|the [\w-]+) (?:could|can|would|might) (?!be\b|have\b))", re.I)
WH = r"(?:what|which|who|whom|whose|where|when|why|how|is|are|does|do|did|can|was|were|should)"


@dataclass
class Resource:
    value: str
    kind: str  # image | audio | video | text (a document or table file reads as image)
    start: int
    end: int = -1  # where its span in the request ends (quotes included); -1: start + len(value)

    @property
    def stop(self) -> int:
        return self.end if self.end >= 0 else self.start + len(self.value)


@dataclass
class Clause:
    text: str  # masked: quotes -> @Q0, @Q1...; files -> @IMG, @AUD, @VID, @TXT
    start: int
    end: int
    connective: str = ""  # the words that joined it to the clause before


@dataclass
class ParsedRequest:
    text: str
    masked: str
    files: list[Resource] = field(default_factory=list)
    quotes: list[Resource] = field(default_factory=list)
    clauses: list[Clause] = field(default_factory=list)
    history: list[Resource] = field(default_factory=list)  # files earlier turns named or produced, oldest first
    # its cues, found once (cues.find_mentions): a plan reads them twice, the rules and the detector's evidence
    mentions: tuple | None = field(default=None, repr=False, compare=False)

    def files_of(self, kind: str) -> list[Resource]:
        return [f for f in self.files if f.kind == kind]

    def in_span(self, items: list[Resource], start: int, end: int) -> list[Resource]:
        return [r for r in items if start <= r.start < end]

    def in_quote(self, position: int) -> bool:
        """Whether `position` lies in a quoted or pasted text: words a step reads, not words that ask."""
        return any(q.start <= position < q.stop for q in self.quotes)

    def clause_at(self, position: int) -> int:
        for i, clause in enumerate(self.clauses):
            if clause.start <= position < clause.end:
                return i
        return len(self.clauses) - 1


# A sentence that ends in "?". Anchored at sentence starts: unanchored, every position of a long text with no
# "?" would scan to the end (quadratic; a 2 MB request took hours).
_QUESTION_SENTENCE = re.compile(r"(?:^|(?<=[.!?]))[^.!?]*\?")


def question_in(request: ParsedRequest, start: int = 0, end: int | None = None) -> str | None:
    """The question a request asks about its input: a quoted question, else a sentence or
    wh-clause that is not a polite 'could you ...' wrapper."""
    end = len(request.text) if end is None else end
    for quote in request.in_span(request.quotes, start, end):
        if quote.value.endswith("?") or re.match(WH + r"\b", quote.value, re.I):
            return quote.value
    span = request.text[start:end]
    for found in _QUESTION_SENTENCE.finditer(request.masked[start:end]):  # masked: a file's dot ends no sentence
        sentence = span[found.start():found.end()].strip()
        inner = re.search(rf"\b(?:know|tell me|find out|ask|wondering|answer)\s+(?:if\s+)?({WH}\b[^?]*\?)", sentence, re.I)
        if inner:
            return inner.group(1).strip()
        if sentence and not _POLITE.search(sentence):
            inner = re.search(rf"(?:^|[,:;]\s*)({WH}\b.*)", sentence, re.I)  # drop a leading 'From the receipt, '
            return inner.group(1) if inner else sentence
    match = re.search(rf"\b(?:know|tell me|find out|ask|wondering|answer)\s+(?:if\s+|whether\s+)?({WH}\b[^.!?]*)", span, re.I)
    if match:
        return match.group(1).strip().rstrip(",") + "?"
    return None


_ASKS = re.compile(rf"\b(?:know|tell me|find out|ask|wondering|wonder|curious|determine|figure out|understand|answer)\s+"
                   rf"((?:if|whether|{WH})\b[^.!?;]*)", re.I)


# The weight of a polite request's span ('could you edit it?'): cues.py asks it nothing unless it
# names no task and asks to learn something ('can you help me figure out the total?').
POLITE_REQUEST = 0.0
_WH_WORD = re.compile(r"\b(?:what|which|who|whom|whose|where|when|why|how|whether|if)\b", re.I)
# Wh-words that ask nothing: a condition ('if so'), a suggestion ('how about we ...').
_NOT_ASKING = re.compile(r"\b(?:if (?:so|not|possible|necessary|needed|you (?:can|could|would|don't mind))|"
                         r"(?:how|what) about|why not|why don't (?:you|we)|"
                         r"when (?:that|this|it|you)(?:'s|'re| is| are| have| has)? (?:done|finished|complete|ready))\b", re.I)
_ASKING = re.compile(r"\b(?:questions?|ask\w*|answer\w*|know|wondering|find out|query)\b", re.I)


def question_spans(request: ParsedRequest) -> list[tuple[int, int, float]]:
    """Where the request asks a question about its input, with a weight: lower for a
    'could you ...?' sentence, which is more often a polite request than a question."""
    # A quoted question is asked only when the words before it say so ('answer the question "..."');
    # otherwise it is text to work on ('translate "how are you?"').
    spans = [(q.start, q.start + len(q.value) + 2, 0.6) for q in request.quotes
             if (q.value.endswith("?") or re.match(WH + r"\b", q.value, re.I))
             and _ASKING.search(request.masked[max(0, q.start - 40):q.start])]
    for match in _QUESTION_SENTENCE.finditer(request.masked):
        sentence = match.group(0)
        if re.fullmatch(r"\s*@q\d+\s*\?", sentence, re.I):
            continue  # only a quote: handled above
        lead = len(sentence) - len(sentence.lstrip())
        if sentence.strip():
            if not (_POLITE.search(sentence) or EMBEDDED_REQUEST.search(sentence)):
                spans.append((match.start() + lead, match.end(), 0.6))
            elif _WH_WORD.search(_NOT_ASKING.sub("", sentence)):
                spans.append((match.start() + lead, match.end(), 0.5))
            else:
                spans.append((match.start() + lead, match.end(), POLITE_REQUEST))
    for match in _ASKS.finditer(request.masked):
        if not EMBEDDED_REQUEST.match(match.group(1)):
            spans.append((match.start(1), match.end(1), 0.6))
    return sorted(spans)
