"""Reading a request: the files and URLs it names, its quoted text, its question, and its clauses.

Quoted text and file names are masked before anything looks for task cues, so
"translate 'a photo of a dog'" asks for a translation, not for an image task.
"""

from __future__ import annotations

import bisect
import re

from langchain_hugginggpt.core.media import media_type
from langchain_hugginggpt.planning.declined import declined_spans
from langchain_hugginggpt.planning.request import (  # noqa: F401 (question_in: re-exported)
    Clause, ParsedRequest, Resource, question_in)

_EXT = r"(?:jpe?g|png|gif|bmp|webp|tiff?|svg|wav|mp3|flac|ogg|m4a|aac|mp4|avi|mov|mkv|webm|mpe?g|csv|xlsx?|pdf|txt|md)"
# Any scheme, not only http(s): a file:// or ftp:// input is then the step's input, which the workspace refuses by
# name ("only http and https URLs are downloaded"), instead of a request with no file that falls back to chat.
URL_RE = re.compile(r"(?<![\w+.-])[A-Za-z][A-Za-z0-9+.-]{1,15}://[^\s'\"<>]+[^\s'\"<>.,;:!?)]")
FILE_RE = re.compile(rf"(?<![\w/.-])/?(?:[\w~.-]+/)*[\w-][\w.-]*\.{_EXT}\b", re.IGNORECASE)
# 'single', "double" and “curly” quotes; an apostrophe inside a word (I've, 'the river's edge') is not a quote.
QUOTE_RE = re.compile(r"(?<![\w])'((?:[^'\n]|(?<=\w)'(?=\w)){2,}?)'(?![\w])|\"([^\"\n]{2,}?)\"|“([^”\n]{2,}?)”|‘([^’\n]{2,}?)’")
# A whitespace run is tried from its start only: a masked quote is padded with spaces, and trying every position
# of a long run is quadratic.
_BOUNDARY = re.compile(
    r"(?<=[.!?])\s+(?=[A-Z])|;\s*|(?:,|(?<![\s,]))\s+(?:and\s+)?(?:then|after that|afterwards|next|finally|subsequently|"
    r"followed by|once (?:that is|it is|that's|it's) done|after which)\b,?\s*|,\s*and\s+(?=\w+\s)",
    re.IGNORECASE)
SEQUENTIAL = re.compile(r"\b(?:then|after that|afterwards|next|finally|subsequently|followed by|once|after which|"
                        r"use (?:it|that|this|the result)|based on|from (?:the|that|this) (?:result|output))\b", re.I)
PARALLEL = re.compile(r"\b(?:also|as well|separately|in addition|additionally|at the same time|meanwhile|"
                      r"independently|in parallel|on the same|the same (?:image|photo|picture|audio|file|text))\b", re.I)
# Words that point back at something an earlier step produced.
RESULT_REF = re.compile(
    r"\b(?:it|its|this|that|them|these|those|(?:the|this|that) (?:caption|description|transcript|transcription|"
    r"summary|translation|answer|labels?|story|response|reply|version|findings|information|details))\b", re.I)
# Explicit words for an earlier step's output: enough to chain even after an analysis step.
OUTPUT_REF = re.compile(
    r"\b(?:result(?:s|ing)?|outputs?|outcome|generated|created|produced|edited|modified|transformed|processed|"
    r"enhanced|improved|cleaned|segmented|annotated|detected|estimated|depth map|mask|post-\w+|new (?:image|picture|photo|"
    r"audio|version)|final)\b", re.I)
_LABEL = {"image": "@IMG", "audio": "@AUD", "video": "@VID", "text": "@TXT"}


# a quoted question that ends its sentence ("...: 'What is the total?' Following that, ..."): the sentence ends
# with it (a quoted statement often leads into a question about it: "saying '...'. On which day ...?")
_ENDS_SENTENCE = re.compile(r"[!?][’'\"”]$")
_NEXT_SENTENCE = re.compile(r"\s+(?=[A-Z])")


def file_kind(value: str) -> str:
    kind = media_type(value)
    if kind == "text" and re.search(r"\.(?:csv|xlsx?|pdf)$", value, re.I):
        return "image"  # tables and documents are read as images by our tasks
    return kind


def _inside(spans: list[tuple[int, int]], position: int) -> bool:
    """Whether `position` falls in one of `spans` (sorted, not overlapping)."""
    at = bisect.bisect_right(spans, (position, float("inf"))) - 1
    return at >= 0 and spans[at][0] <= position < spans[at][1]


def parse(text: str, history: list[Resource] | None = None) -> ParsedRequest:
    """Find the request's resources and split it into clauses, keeping offsets in one masked string.
    `history`: the files of earlier turns, which words like "it" may refer to."""
    spans: list[tuple[int, int, str]] = []
    files: list[Resource] = []
    quotes: list[Resource] = []
    for match in URL_RE.finditer(text):
        files.append(Resource(match.group(0), file_kind(match.group(0)), match.start(), match.end()))
        spans.append((match.start(), match.end(), _LABEL[files[-1].kind]))
    urls = [(s, e) for s, e, _ in spans]  # matches of one pattern never overlap: check the earlier patterns' only
    for match in QUOTE_RE.finditer(text):
        if _inside(urls, match.start()):
            continue
        # a comma a writer put inside the quotes ('born in 1990 in Paris,' and ...) ends the sentence, not the text
        inner = next(g for g in match.groups() if g is not None).strip().rstrip(",;").rstrip()
        if FILE_RE.fullmatch(inner) and file_kind(inner) != "text" or URL_RE.fullmatch(inner):
            files.append(Resource(inner, file_kind(inner), match.start(), match.end()))
            spans.append((match.start(), match.end(), _LABEL[files[-1].kind]))
        else:
            quotes.append(Resource(inner, "text", match.start(), match.end()))
            spans.append((match.start(), match.end(), f"@Q{len(quotes) - 1}"))
    taken = sorted((s, e) for s, e, _ in spans)
    for match in FILE_RE.finditer(text):
        if _inside(taken, match.start()):
            continue
        kind = file_kind(match.group(0))
        if kind == "text":  # notes.txt: a text a step reads, as a quote would be (the file is read when it runs)
            quotes.append(Resource(match.group(0), "text", match.start(), match.end()))
            spans.append((match.start(), match.end(), f"@Q{len(quotes) - 1}"))
            continue
        files.append(Resource(match.group(0), kind, match.start(), match.end()))
        spans.append((match.start(), match.end(), _LABEL[kind]))
    files.sort(key=lambda r: r.start)
    # Mask without moving offsets: pad each placeholder to the span's length.
    masked = list(text)
    for start, end, label in spans:
        token = label[: end - start].ljust(end - start)
        if len(label) < end - start and _ENDS_SENTENCE.search(text, 0, end) and _NEXT_SENTENCE.match(text, end):
            token = token[:-1] + "."  # "... answer 'What is the total?' Then read it aloud": a sentence ends here
        masked[start:end] = list(token)
    masked_text = "".join(masked)
    # text pasted after a colon, unquoted, is a quote for the steps (not masked: the models read its words)
    quotes = sorted(quotes + pasted_texts(text, masked_text), key=lambda q: q.start)
    masked_text = _without_declined(masked_text, sorted((s, e) for s, e, _ in spans))
    return ParsedRequest(text=text, masked=masked_text, files=files, quotes=quotes,
                         clauses=split_clauses(masked_text), history=list(history or []))


def _without_declined(masked: str, placed: list[tuple[int, int]]) -> str:
    """The masked request with the words of each declined step ("don't caption it") blanked; the files and
    quotes in them (`placed`) stay where they are."""
    declined = declined_spans(masked)
    if not declined:
        return masked
    chars = list(masked)
    for start, end in declined:
        for i in range(start, end):
            if not _inside(placed, i):
                chars[i] = " "
    return "".join(chars)


# "Here is one line: In May 1987 the club ...", "continue this opening: The last bus ... there., and then":
# a colon after a word that names a text, then a capitalised passage.
_TEXT_NOUN = (r"(?:line|lines|opening|message|notice|text|passage|paragraph|sentence|note|rule|report|blurb|review|story|"
              r"statement|words|summary|post|email|tweet|phrase|quote|excerpt|snippet|extract|announcement|leaflet|"
              r"article|letter|memo|bulletin|update|description|entry|reminder|instructions|recipe|forecast|advert|ad|"
              r"caption)")
_PASTE_LEAD = re.compile(rf"\b(?:this|these|following|that|here(?:'s| is| it is| are)?|{_TEXT_NOUN})\b"
                         r"[^:.?!\n@]{0,25}:[ \t]+(?=(?-i:[A-Z0-9]))"
                         # "from this office note how long the password stays valid: The guest network ..."
                         rf"|\b(?:this|the\s+following|the\s+below)\s+(?:[\w-]+\s+){{0,2}}?{_TEXT_NOUN}\b"
                         r"[^:?!\n@]{0,160}?:[ \t]+(?=(?-i:[A-Z0-9]))"
                         # "Summarize: The committee met ...", "Translate to French: The train ...": a short
                         # instruction that opens the request, then the text
                         r"|^\s*[a-z][\w' -]{1,40}?:[ \t]+(?=(?-i:[A-Z0-9]))", re.I)
# a sentence that starts with one of these is the request again, not the passage
_RESUMES = re.compile(r"(?:could|can|would|will|please|first(?:ly)?|then|after|afterwards|next|lastly|finally|also|"
                      r"and|now|once|find|tell|translate|summari[sz]e|make|turn|give|use|take|put|read|write|answer|"
                      r"check|compare|create|generate|draw|boil|condense|shorten|based|using|working|looking|keep|pull|"
                      r"mark|tag|identify|pick|extract|classify|label|voice|say|speak|reply|respond|continue|expand|"
                      r"carry|thanks|thank|i|i'd|i'm|i've|my|so|what|how|which|who|where|when|why|is|are|do|does)\b", re.I)


def pasted_texts(text: str, masked: str) -> list[Resource]:
    """Passages pasted after a colon without quotes: from the colon to a sentence-end followed by a comma,
    else to the first sentence that goes back to asking (`_RESUMES`), else to the end; never over a quote or
    a file (they are masked)."""
    found = []
    for lead in _PASTE_LEAD.finditer(masked):
        start = lead.end()
        if found and start < found[-1].stop:
            continue
        rest = masked[start:]
        end = len(rest)
        for boundary in re.finditer(r"(?<=[.?!])(?:,|\s+(?=\S))", rest):
            if boundary.group(0) == "," or _RESUMES.match(rest, boundary.end()):
                end = boundary.start()
                break
        at = rest.find("@")
        end = min(end, at) if at >= 0 else end
        passage = text[start:start + end].strip()
        if len(passage) >= 12 and len(passage.split()) >= 3:
            found.append(Resource(passage, "text", start, start + len(text[start:start + end].rstrip())))
    return found


def split_clauses(masked: str) -> list[Clause]:
    clauses, start, connective = [], 0, ""
    for match in _BOUNDARY.finditer(masked):
        if match.start() > start:
            clauses.append(Clause(masked[start:match.start()], start, match.start(), connective))
        start, connective = match.end(), match.group(0).strip(" ,;").lower()
    if start < len(masked):
        clauses.append(Clause(masked[start:], start, len(masked), connective))
    return clauses or [Clause(masked, 0, len(masked))]


_FILLER = re.compile(r"^(?:(?:now|ok(?:ay)?|so|and|also|please|great|thanks|next|"
                     r"(?:can|could|would|will) you(?: please)?)\b[\s,]*)+", re.I)


def edit_instruction(parsed: ParsedRequest, lo: int, hi: int) -> str | None:
    """An edit instruction: the task's own words without a leading 'now' or 'could you' and the
    trailing connective (split on the masked text, where a file name's dot ends no sentence)."""
    masked = parsed.masked[lo:hi]
    end = re.search(r"[;.!?]|,? (?:and then|then|and also|after that)\b", masked)
    lead = _FILLER.match(masked)
    start, stop = lo + (lead.end() if lead else 0), lo + (end.start() if end else len(masked))
    words, at = [], start
    for file in parsed.in_span(parsed.files, start, stop):  # the model gets the file itself: "the image"
        words += [parsed.text[at:file.start], f"the {file.kind}"]
        at = file.stop
    words.append(parsed.text[at:stop])
    return "".join(words).strip(" ,") or None


def earlier_answer(chat_history: list[dict] | None) -> str | None:
    """The direct answer of the last assistant turn (its first paragraph: the agent's answers put the
    answer first and the account of how after a blank line), which "read that aloud" refers to."""
    for message in reversed(chat_history or []):
        role = message.get("role") if isinstance(message, dict) else getattr(message, "type", None)
        if role in ("assistant", "ai"):
            content = message.get("content", "") if isinstance(message, dict) else getattr(message, "content", "")
            answer = str(content).strip().split("\n\n", 1)[0].strip()
            # Spoken or passed on, a file is its name: the folders of the machine stay out of the output.
            return _FOLDERS.sub("", answer) or None
    return None


_FOLDERS = re.compile(r"(?<![\w.:/-])(?:[A-Za-z]:)?(?:~?/|\\)(?:[^\s/\\]+[/\\])+(?=[^\s/\\]+)")


def history_files(chat_history: list[dict] | None) -> list[Resource]:
    """The files and URLs named in earlier turns (the user's, and the paths an answer listed)."""
    files = []
    for message in chat_history or []:
        content = message.get("content", "") if isinstance(message, dict) else getattr(message, "content", "")
        files += parse(str(content)).files
    return files
