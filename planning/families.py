"""Task families and the nouns that tell which member a cue means.

A family cue ("classify", "generate", "describe") names a kind of work; the modality it acts
on (an image, a recording, a table, a text), found from the nouns and files around it,
picks the task: "classify the photo" is image classification, "classify the recording"
audio classification.
"""

from __future__ import annotations

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

# Family -> modality -> task. Documents read as images where no document task fits.
FAMILIES = {
    "classify": {"image": "image-classification", "audio": "audio-classification", "table": "tabular-classification",
                 "text": "text-classification", "video": "video-classification", "doc": "image-classification"},
    "question": {"image": "visual-question-answering", "doc": "document-question-answering",
                 "text": "question-answering", "table": "document-question-answering"},
    "describe": {"image": "image-to-text", "doc": "image-to-text", "table": "image-to-text", "audio": "audio-classification",
                 "video": "video-classification"},
    "generate": {"image": "text-to-image", "video": "text-to-video", "audio": "text-to-speech"},
    "enhance": {"image": "image-to-image", "audio": "audio-to-audio", "doc": "image-to-image"},
    "edit": {"image": "image-editing", "audio": "audio-to-audio", "doc": "image-editing"},
    "detect": {"image": "object-detection"},
    # "the different parts of the photo", "break the picture down into regions"
    "segment": {"image": "image-segmentation"},
    "make": {"image": "text-to-image", "video": "text-to-video", "audio": "text-to-speech"},
    "to_text": {"audio": "automatic-speech-recognition", "image": "image-to-text", "doc": "image-to-text",
                "video": "video-classification"},
    # "make it black and white", "turn the photo into a sketch": a new look for a picture the
    # request or an earlier turn brings (cues.py resolves "it" to an image only when there is one).
    "look": {"image": "image-editing", "doc": "image-editing"},
    "restyle": {"image": "image-to-image", "doc": "image-to-image"},
}
# Entities in a picture are objects to detect, not words to tag: "find the people in party.jpg".
IN_PICTURE = {"token-classification": "object-detection"}
# The object of "generate" is what comes out, the object of the others what goes in.
OUTPUT_FAMILIES = {"generate"}
