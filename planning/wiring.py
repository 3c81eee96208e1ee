"""Filling each step's slots: which file, quote, words or earlier output each task gets.

For each step, in the order the request names them: a file of the slot's type named near
the task, else the output of an earlier task that produces that type when the wording
chains ("then", "it", "the result") or nothing else can fill it, else a file or quote named
elsewhere, else text taken from the task's own words. A step named before the step that
feeds it ("read aloud the caption of a.jpg") is filled last, from later steps.
"""

from __future__ import annotations

import re

from langchain_hugginggpt.planning.cues import Mention
from langchain_hugginggpt.planning.steps import Step, ancestors, input_of
from langchain_hugginggpt.planning.text import (
    OUTPUT_REF, PARALLEL, RESULT_REF, SEQUENTIAL, ParsedRequest, Resource, edit_instruction, question_in)
from langchain_hugginggpt.core.languages import named_languages
from langchain_hugginggpt.core.tasks import TASKS

# Tasks whose output annotates their input (boxes, masks, depth): words for the picture after
# them ("describe the picture") still mean their input; only explicit words ("the result",
# "the mask") chain to the annotation. With chaining by default off, "it" means the input too.
ANNOTATORS = {name for name, spec in TASKS.items() if spec.planning.annotates}


def _map_of_a_photo(task: str, source: str) -> bool:
    """A ControlNet map (edges, pose, lines) drawn from a detection's picture would trace its boxes and labels:
    "detect the objects in a.jpg and give me the canny edges of it" means the photo."""
    return TASKS[task].family == "control" and task in ANNOTATORS and TASKS[source].planning.reports_text


# Tasks that read what a picture shows (captions, labels, answers, other annotations). Tasks that
# make a new image from one (editing, ControlNet generation from a map) may start from an annotation.
READERS = {name for name, spec in TASKS.items() if "image" in spec.inputs.values()
           and (spec.output == "text" or name in ANNOTATORS)}
# Words for the picture a request started from, as opposed to something a step made.
INPUT_REF = re.compile(r"\b(?:the|this|that|same|original|my) (?:picture|image|photo(?:graph)?|pic|scene|snapshot)\b", re.I)
_CONTENT = re.compile(r"\b(?:of|about|showing|depicting|featuring|illustrating|representing|saying|that says|"
                      r"describing|on the (?:topic|theme) of|:)\s+(.{3,})", re.I)
# Tasks that make something new from a description ("an image of ..."); others work on a given text.
_GENERATIVE = {name for name, spec in TASKS.items() if spec.planning.generative}
# Words that name the output of a particular earlier task ("the transcript" -> speech recognition).
NAMES_OUTPUT_OF = {name: tuple(re.compile(rf"\b{p}\b", re.I) for p in spec.planning.output_names)
                   for name, spec in TASKS.items() if spec.planning.output_names}
# Tasks whose text may be an earlier step's output named by its source ("edit it based on the summary").
_TAKES_INSTRUCTION = {name for name, spec in TASKS.items() if spec.planning.takes_instruction}
# Words that take an instruction from somewhere: "modify the image based on the response".
_SOURCE = re.compile(r"\b(?:based on|using|according to|following|guided by|in line with|to match|apply(?:ing)?|"
                     r"as (?:described|instructed|specified|stated|suggested) (?:in|by))"
                     r"\s+((?:[\w'-]+\s+){0,3}[\w'-]+)", re.I)
_DETERMINER = re.compile(r"\b(?:the|this|that|these|those|its|their|your|my|our)\s+(?:[\w-]+\s+)?$", re.I)
_LEAD_REF = re.compile(r"^(?:it|this|that|them|these|those|the (?:result|output|text|caption|description|transcript|"
                       r"summary|translation|answer|story|generated|same|above)|@)", re.I)


def restatements(first: dict[str, Mention], mentions: list[Mention], parsed: ParsedRequest) -> dict[str, Mention]:
    """A task named early ("I want a picture of this phrase") and again as a step that works on
    another task's output ("translate it, then create an image out of it") runs as that later step."""
    moved: dict[str, Mention] = {}
    for m in mentions:
        early = first[m.task]
        if m.implied or m.start <= early.end or _names_a_result(m, parsed):
            continue
        between = {t for t, f in first.items() if early.start < f.start < m.start and t != m.task}
        later = [n.end for n in mentions if n.start > m.start and n.task != m.task]  # up to the next task's words
        clause = parsed.clauses[parsed.clause_at(m.start)]
        window = parsed.masked[m.start:min([clause.end] + later)]
        names = any(p.search(window) for t in between for p in NAMES_OUTPUT_OF.get(t, ()))
        names |= any(n.task in between and m.start < n.start and n.end <= m.start + len(window) for n in mentions)
        lead = parsed.masked[clause.start:m.start]
        points = bool(RESULT_REF.search(window) or OUTPUT_REF.search(window)) and bool(
            SEQUENTIAL.search(lead) or clause.connective)
        if between and (names or points):
            moved[m.task] = m
    return moved


def _names_a_result(m: Mention, parsed: ParsedRequest) -> bool:
    """'the created image', 'the French translation': words for a task's result, not a request for it."""
    words = parsed.masked[m.start:m.end]
    if OUTPUT_REF.match(words):
        return True
    names = any(p.match(words) for p in NAMES_OUTPUT_OF.get(m.task, ()))
    return names and bool(_DETERMINER.search(parsed.masked[:m.start]))


def produces_text(task: str) -> bool:
    return TASKS[task].output == "text" or TASKS[task].planning.reports_text  # detection also reports its labels


def feeds(producer: str, kind: str) -> bool:
    """Whether the output of task `producer` can fill a slot of this kind."""
    return TASKS[producer].output == kind or (kind == "text" and produces_text(producer))


def spare_quotes(parsed: ParsedRequest, steps: list[Step]) -> list[str]:
    """The quotes the request gives that no step's slot holds yet."""
    used = {v for s in steps for v in s.args.values()}
    return [q.value for q in parsed.quotes if q.value not in used]


def fill_step(i: int, steps: list[Step], parsed: ParsedRequest, chain_by_default: bool = True) -> None:
    step, spec = steps[i], TASKS[steps[i].task]
    scope = parsed.masked[step.lo:step.hi]
    gap = parsed.masked[steps[i - 1].mention.end if i else step.lo:step.mention.start]
    own_files = parsed.in_span(parsed.files, step.lo, step.hi)
    if i:  # "Lastly, I have a document x.png. Answer ...": a file introduced between two steps is the later one's
        own_files += [f for f in parsed.in_span(parsed.files, steps[i - 1].hi, step.lo)
                      if not any(s.lo <= f.start < s.hi for s in steps)]
    own_quotes = parsed.in_span(parsed.quotes, step.lo, step.hi)
    # "After cleaning the audio, transcribe it": the step before was introduced as coming first.
    before_prev = parsed.masked[steps[i - 1].lo:steps[i - 1].mention.start] if i else ""
    # A later step of a multi-step request works on what the step before produced unless the
    # wording says otherwise ("also", "separately"): requests that list steps mostly chain them.
    chained = i > 0 and (chain_by_default or bool(
        SEQUENTIAL.search(gap) or re.search(r"\b(?:after|once|first)\W*$", before_prev, re.I)))
    explicit = bool(OUTPUT_REF.search(scope))
    parallel = bool(PARALLEL.search(gap)) and not explicit
    sibling = steps[i - 1] if i and parallel else None  # "... and also X": same inputs as the task before

    def earlier(kind: str) -> int | None:
        producers = [j for j in range(i - 1, -1, -1) if feeds(steps[j].task, kind)]
        named = [j for j in producers if any(p.search(scope) for p in NAMES_OUTPUT_OF.get(steps[j].task, ()))]
        return (named or producers or [None])[0]

    def link(slot: str, j: int) -> None:
        step.args[slot] = f"<resource>-{j}"
        step.deps.add(j)

    for slot, kind in spec.inputs.items():
        if slot in step.args or (slot not in spec.required and kind != "text"):
            continue
        if kind != "text":
            same = [v for s, v in sibling.args.items()
                    if TASKS[sibling.task].inputs.get(s) == kind] if sibling else []
            if same and not [f for f in own_files if f.kind == kind]:
                step.args[slot] = same[0]
                step.deps |= {d for d in sibling.deps if f"<resource>-{d}" == same[0]}
                continue
            j = earlier(kind)
            mine = [f for f in own_files if f.kind == kind]
            anywhere = [f for f in parsed.files if f.kind == kind]
            if (j is not None and not mine and not explicit and steps[j].task in ANNOTATORS
                    and step.task in READERS and (INPUT_REF.search(scope) or _map_of_a_photo(step.task, steps[j].task))):
                # "Detect the objects in a.jpg and describe the picture": the picture is what the
                # annotator annotated, not its drawing (which chaining by default would give).
                source = input_of(steps[j], kind)
                if source is not None:
                    step.args[slot] = source
                    step.deps |= {d for d in steps[j].deps if f"<resource>-{d}" == source}
                    continue
            # after an annotator (boxes, masks) only explicit words chain; "it" means the original
            refers = j is not None and (explicit or (steps[j].task not in ANNOTATORS and bool(RESULT_REF.search(scope))))
            if mine and not (j is not None and explicit):
                step.args[slot] = mine[0].value
            elif j is not None and (refers or (chained and not parallel) or not anywhere):
                link(slot, j)
            elif anywhere:
                before = [f for f in anywhere if f.start < step.mention.start]
                step.args[slot] = (before[-1] if before else anywhere[0]).value
            elif j is not None:
                link(slot, j)
            else:
                old = [f for f in parsed.history if f.kind == kind]
                if old:
                    step.args[slot] = old[-1].value
    _fill_text(i, steps, parsed, scope, own_quotes, chained, explicit, parallel, sibling)
    if "labels" in spec.inputs and not step.args.get("labels"):
        labels = listed_labels(parsed.text[step.lo:step.hi])
        if labels:
            step.args["labels"] = ", ".join(labels)


# "into the labels sports, politics or cooking", "categories: urgent, normal and low"
_LABEL_LIST = re.compile(r"\b(?:labels?|categories|classes|topics|options)\b\s*:?\s*((?:['\"]?[\w'-]+(?: [\w'-]+)?['\"]?"
                         r"\s*(?:,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+))+['\"]?[\w'-]+(?: [\w'-]+)?['\"]?)", re.I)
_LABEL_SEPARATOR = re.compile(r"\s*(?:,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+)", re.I)


def listed_labels(words: str) -> list[str]:
    """The candidate labels a request lists for a zero-shot classification (its `labels` slot)."""
    match = _LABEL_LIST.search(words)
    if not match:
        return []
    return [label.strip("'\" ") for label in _LABEL_SEPARATOR.split(match.group(1)) if label.strip("'\" ")]


def _fill_text(i: int, steps: list[Step], parsed: ParsedRequest, scope: str, own_quotes: list[Resource],
               chained: bool, explicit: bool, parallel: bool, sibling: Step | None) -> None:
    step, spec = steps[i], TASKS[steps[i].task]
    if not any(k == "text" and s not in step.args for s, k in spec.inputs.items()):
        return
    original = parsed.text[step.lo:step.hi]
    producers = [j for j in range(i - 1, -1, -1) if produces_text(steps[j].task)]
    named = [j for j in producers if any(p.search(scope) for p in NAMES_OUTPUT_OF.get(steps[j].task, ()))]
    prev = (named or producers or [None])[0]
    if sibling is not None and not own_quotes:
        refs = [d for d in sibling.deps if produces_text(steps[d].task)]
        prev = refs[0] if refs else prev
    spare = spare_quotes(parsed, steps)
    refers = prev is not None and (explicit or bool(RESULT_REF.search(scope)) or (chained and not parallel)
                                   or bool(named))
    question = question_in(parsed, step.lo, step.hi) or question_in(parsed)

    def link(j: int) -> str:
        step.deps.add(j)
        return f"<resource>-{j}"

    name, role = spec.name, spec.planning.text_role
    source = None  # an earlier step whose text an edit follows or a question asks
    if not own_quotes and name in _TAKES_INSTRUCTION:
        # It may be named ahead of the task in its clause ("Based on the summary, edit ..."), also by
        # the very words that named the step before ("the summary").
        start = max(parsed.clauses[parsed.clause_at(step.mention.start)].start, steps[i - 1].lo if i else 0)
        after = steps[i - 1].mention.start - start if i else 0
        own = (step.mention.start - start, step.mention.end - start)
        source = _instruction_source(parsed.masked[start:step.hi], after, own, producers, steps)
    if role == "question":
        if question is None and source is not None:  # "answer a question using the summary"
            step.args["text"] = link(source)
        else:
            step.args["text"] = question or (own_quotes[0].value if own_quotes else
                                               _content(original, parsed.masked[step.lo:step.hi]) or parsed.text)
    elif role == "question_on_context":
        step.args["text"] = question or parsed.text
        context = [q.value for q in own_quotes if q.value != question] or [q for q in spare if q != question]
        if prev is not None and (refers or not context):
            step.args["context"] = link(prev)
        elif context:
            step.args["context"] = context[0]
    elif role == "comparison":
        texts = [q.value for q in own_quotes]
        if prev is not None and (refers or len(texts) + len(spare) < 2):
            texts.insert(0, link(prev))
        texts += [q for q in spare if q not in texts]
        if len(texts) >= 2:
            step.args["text"], step.args["text2"] = texts[0], texts[1]
        elif texts:  # the other side may come from a later step, else complete_comparisons
            step.args["text"] = texts[0]
    elif role == "instruction":
        if source is not None:
            step.args["text"] = link(source)
        elif own_quotes:
            step.args["text"] = own_quotes[0].value
        else:
            step.args["text"] = edit_instruction(parsed, step.lo, step.hi) or parsed.text
    elif "text" in spec.required and "text" not in step.args:
        # The text this task works on: its own quote, an earlier output, its own words, a spare quote.
        content = _content(original, parsed.masked[step.lo:step.hi]) if name in _GENERATIVE else None
        if own_quotes and own_quotes[0].value != question and not (named and steps[named[0]].mention.implied):
            step.args["text"] = own_quotes[0].value
        elif prev is not None and (refers or not (spare or content)):
            step.args["text"] = link(prev)
        elif content:
            step.args["text"] = content
        elif spare:
            step.args["text"] = spare[0]
        # else left empty: a task named later may feed it (fill_from_later)


def fill_from_later(steps: list[Step]) -> None:
    """'Read aloud the caption of a.jpg': a task named before the task that feeds it."""
    for i, step in enumerate(steps):
        spec = TASKS[step.task]
        for slot in spec.required:
            if step.args.get(slot):
                continue
            kind = spec.inputs[slot]
            for j in range(i + 1, len(steps)):
                if feeds(steps[j].task, kind) and i not in ancestors(steps, j):
                    step.args[slot] = f"<resource>-{j}"
                    step.deps.add(j)
                    break


# "translate @Q0 to Klingon": a capitalised word right after the translation's object names a language we do not list
_UNLISTED_TARGET = re.compile(r"\b(?i:translat\w*\s+(?:@Q\d+|it|this|that|the \w+)\s+(?:in)?to)\s+([A-Z][a-z]+)\b(?!\s*['\w])")


def name_languages(steps: list[Step], parsed: ParsedRequest) -> None:
    """'Transcribe a.wav and translate it into French': a translation step takes the languages the request
    names (its own words where it has several translation steps), so the engine translates into French even
    when its text is an earlier step's output. Quoted text names no language for it."""
    translations = [s for s in steps if "target_lang" in TASKS[s.task].inputs]
    for step in translations:
        words = parsed.masked if len(translations) == 1 else parsed.masked[step.lo:step.hi]
        source, target = named_languages(words)
        if target is None and (unknown := _UNLISTED_TARGET.search(words)):
            target = unknown.group(1)  # "into Klingon": the engine refuses a language it lacks by name
        for slot, language in (("target_lang", target), ("source_lang", source)):
            if language and not step.args.get(slot):
                step.args[slot] = language


def complete_comparisons(steps: list[Step], parsed: ParsedRequest) -> None:
    """'Summarize 'X' and check how close the summary is to the original': a comparison with one
    side still open compares with a quote another step already uses, else an earlier output."""
    for i, step in enumerate(steps):
        if TASKS[step.task].planning.text_role != "comparison" or not step.args.get("text") or step.args.get("text2"):
            continue
        refs = {f"<resource>-{j}" for j in range(len(steps))}
        quotes = [q.value for q in parsed.quotes if q.value != step.args["text"]]
        outputs = [j for j in range(i - 1, -1, -1) if produces_text(steps[j].task)
                   and f"<resource>-{j}" != step.args["text"]]
        if quotes and step.args["text"] in refs:
            step.args["text2"] = quotes[0]
        elif outputs:
            step.args["text2"] = f"<resource>-{outputs[0]}"
            step.deps.add(outputs[0])


def _instruction_source(words: str, after: int, own: tuple[int, int], producers: list[int],
                        steps: list[Step]) -> int | None:
    """The earlier step whose text an edit follows: "using these commands", "based on the summary".
    Only a phrase ending past `after` (where the step before was named) can belong to this step, and
    the step's own cue names no source ("based on the answer" is no question to answer)."""
    for match in _SOURCE.finditer(words):
        if match.end() <= after:
            continue
        for j in producers:
            for pattern in NAMES_OUTPUT_OF.get(steps[j].task, ()):
                found = pattern.search(words, match.start(1), match.end(1))
                if found and not (found.start() < own[1] and own[0] < found.end()):
                    return j
    return None


def _content(text: str, masked: str) -> str | None:
    """What a generative task should make, from its own words: 'an image of a red fox' -> 'a red fox'.
    Read on the masked words (`masked`, same offsets as `text`), so that a quote's own punctuation ends
    nothing and a quote is never cut in two; it ends before a quote, a file or a new line, and one that begins at
    a quote or a file is none of these words (the quote itself is then the text)."""
    match = _CONTENT.search(masked)
    if not match or _LEAD_REF.match(match.group(1).strip()):
        return None
    end = re.search(r"[,;.!?]|\b(?:and then|then|and also|and)\b|\n|@(?:IMG|AUD|VID|TXT|Q\d)", masked[match.start(1):])
    content = text[match.start(1):match.start(1) + end.start() if end else len(masked)].strip()
    return content if len(content) > 2 else None
