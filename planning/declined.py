"""Steps a request declines: "don't caption it, just ...", "no need to read it aloud", "not a summary".

A negation right before a task's cue, or before the name of what a step makes, takes that ask out of the
request: `parse` blanks the declined words in its masked text (files and quotes keep their places), so neither
the cue rules nor the detector read them as an ask, and "it" after them still finds the file. A negation before anything else ("I don't speak German",
"don't forget to read it aloud", "not only ... but also") is context, not a decline, and stays.
"""

from __future__ import annotations

import re

from langchain_hugginggpt.planning.cues import CUES
from langchain_hugginggpt.planning.families import NOUNS

# what a step makes, declined by its name alone: "no video, please", "forget the summary", "not a still image"
_PRODUCT = re.compile(rf"(?:(?:still|spoken|short|new|written|french|english|\w+ish)\s+)?(?:{'|'.join(NOUNS.values())})\b",
                      re.I)
_NEGATION = re.compile(r"(?<![\w'’-])(?:do(?:n[’']?t| not)|does(?:n[’']?t| not)|no need (?:to|for)|never ?mind|"
                       r"skip(?:ping)?|forget(?: about)?|without|rather than|instead of|not|no|"
                       # said as an errand called off: "hold off on the caption", "I'll pass on the translation"
                       r"hold(?:ing)? off(?: on)?|(?:i[’']?ll|i will|i[’']?d|we[’']?ll) pass on|leave out|"
                       r"leaving out|omit(?:ting)?|cancel)\b", re.I)
# after the negation: it negates something else ("don't forget to", "not only", "not sure what's in it")
_NOT_DECLINED = re.compile(r"\s*(?:forget|hesitate|miss|fail|only|just|sure|mind|know|understand)\b", re.I)
_FOLLOWS_NEGATION = re.compile(r"(?:do(?:n[’']?t| not)|never)\s+$", re.I)
# words between the negation and the cue: "I don't (really) want (you to) (bother with) the ..."
_FILLER = re.compile(r"\s*(?:(?:really|even|actually)\s+)?(?:(?:need|want|wish|care|bother|have)s?(?:\s+(?:you|it))?"
                     r"(?:\s+(?:to|for|with|about))?|to|the|a|an|any|about|with|me|you|it)\b", re.I)
# where a decline ends: the clause goes on to what the user does want
_SCOPE_END = re.compile(r"[,.;:!?()\n]|\s[-–—]\s|\s(?:but|just|only|instead|and|then|so|please|as)\b", re.I)


def declined_spans(masked: str) -> list[tuple[int, int]]:
    """The (start, end) spans of the masked request that decline a step, in order."""
    spans: list[tuple[int, int]] = []
    for negation in _NEGATION.finditer(masked):
        if spans and negation.start() < spans[-1][1] or _NOT_DECLINED.match(masked, negation.end()):
            continue
        if negation.group(0).lower().startswith("forget") and _FOLLOWS_NEGATION.search(masked, 0, negation.start()):
            continue  # "don't forget to ..." asks for it
        at = negation.end()
        while (filler := _FILLER.match(masked, at)) and filler.end() > at:
            at = filler.end()
        at += len(masked[at:at + 20]) - len(masked[at:at + 20].lstrip())
        if masked.startswith("@", at) or not (_PRODUCT.match(masked, at)
                                               or any(pattern.match(masked, at) for pattern, _, _ in CUES)):
            continue
        scope_end = _SCOPE_END.search(masked, at)
        spans.append((negation.start(), scope_end.start() if scope_end else len(masked)))
    return spans
