"""Task families and the nouns that tell which member a cue means.

A family cue ("classify", "generate", "describe") names a kind of work; the modality it acts
on (an image, a recording, a table, a text), found from the nouns and files around it,
picks the task: "classify the photo" is image classification, "classify the recording"
audio classification.
"""

from __future__ import annotations

from langchain_hugginggpt.core.tasks import TASKS

NOUNS = {
    "image": r"@img|images?|pictures?|photo(?:graph)?s?|pics?|snapshots?|screenshots?|illustrations?|drawings?|"
             r"paintings?|artworks?|(?:digital|clip|pixel|fan|concept) ?art|graphics?|selfies?|portraits?|visuals?|posters?|logos?|sketch(?:es)?|"
             r"scenes?|frames?",
    "audio": r"@aud|audio|recordings?|sounds?|voices?|speech|podcasts?|songs?|music|tracks?|voicemails?|"
             r"voice (?:memo|note|message)s?|noises?|interview|lecture|speaker|narration",
    "video": r"@vid|videos?|films?|movies?|footage|animations?|clips?",
    "doc": r"documents?|receipts?|invoices?|forms?|scans?|scanned|letters?|contracts?|pdfs?|bills?|"
           r"certificates?|menus?|tickets?|passports?|manuals?|papers?|flyers?|brochures?|leaflets?|notices?|pages?",
    "table": r"tables?|tabular|spreadsheets?|csv|rows?|records?|dataset",
    "text": r"@q\d+|@txt|texts?|sentences?|paragraphs?|passages?|articles?|stor(?:y|ies)|messages?|phrases?|essays?|"
            r"reviews?|comments?|posts?|e-?mails?|tweets?|words?|statements?|quotes?|captions?|transcripts?|"
            r"transcriptions?|summar(?:y|ies)|content|lines?|poems?|script|lyrics|descriptions?",
}

# The families, in the order a swap between members tries them (learned.py). Each task names the families
# it is a member of, and for which modalities (`planning.families` in core/task_cues.py): "question" is
# asked by a question, "segment" by "the different parts of the photo", "look" and "restyle" by "make it
# black and white", "turn the photo into a sketch" (cues.py resolves "it" to an image only when there is one).
FAMILY_NAMES = ("classify", "question", "describe", "generate", "enhance", "edit", "detect", "segment", "make",
                "to_text", "look", "restyle")


def _members() -> dict[str, dict[str, str]]:
    """Family -> modality -> task, from the tasks' hints; one task per family and modality."""
    families: dict[str, dict[str, str]] = {family: {} for family in FAMILY_NAMES}
    for name, spec in TASKS.items():
        for family, modalities in spec.planning.families.items():
            if family not in families:
                raise ValueError(f"task {name!r} names an unknown family {family!r}; known: {', '.join(FAMILY_NAMES)}")
            for modality in modalities:
                if modality in families[family]:
                    raise ValueError(f"family {family!r} has two tasks for {modality!r}: "
                                     f"{families[family][modality]!r} and {name!r}")
                families[family][modality] = name
    return families


FAMILIES = _members()
# "find the people in party.jpg": entities in a picture are objects to detect, not words to tag.
IN_PICTURE = {name: spec.planning.in_a_picture for name, spec in TASKS.items() if spec.planning.in_a_picture}
# The object of "generate" is what comes out, the object of the others what goes in.
OUTPUT_FAMILIES = {"generate"}
