"""The cue lexicon: the ways people ask for each task, written from the task definitions.

A cue is bound to one task ("transcribe" -> automatic-speech-recognition; those are each
task's `planning.cues` in core/task_cues.py) or to a family of tasks whose member depends on
what it acts on ("classify" an image, a sound or a table; "generate" an image, a video or
speech; the families are in families.py): the family cues are here, as they are about kinds
of work, not about one task. These are generic English, not fitted to any benchmark's
wording. cues.py compiles and applies them.
"""

from __future__ import annotations

from langchain_hugginggpt.core.tasks import TASKS

# What a "make it ..." request works on: a pronoun, or a picture named by a noun or a file (the group
# "thing": each cue using it must be the only alternative of its CUE_TABLE entry).
_THING = (r"(?P<thing>it|them|this|that|these|those|(?:the|this|that|these|those|my|our|your|its|their) (?:[\w-]+ )?"
          r"(?:images?|photo(?:graph)?s?|pictures?|pics?|shots?|snapshots?|selfies?|portraits?|scenes?|@img)|@img)")
# A look a picture can be given: colour, light, age, weather, mood, and "look like ...".
_LOOK = (r"(?:black[- ](?:and|&)[- ]white|monochrome|gr[ae]yscale|sepia|brighter|darker|lighter|sharper|warmer|"
         r"cooler|colou?rful|vivid|vibrant|(?:de)?saturated|older|younger|aged|vintage|retro|antique|old[- ]fashioned|"
         r"faded|blurr(?:y|ed)|softer|moodier|dramatic|cinematic|snowy|rainy|sunny|foggy|autumnal|wintry|"
         r"(?:at|by) night|night[- ]?time|(?:red|blue|green|yellow|purple|pink|orange|golden|gr[ae]y)(?:der|er|ish)?|"
         r"like (?:it was|it's|it is|they were)\b|like (?:an? )?(?:old|vintage|retro|faded)\b)")
# A style a picture can be redrawn in (image-to-image).
_STYLE = (r"(?:(?:pencil |charcoal |ink )?(?:sketch|drawing)|(?:oil |acrylic )?painting|watercolou?r|cartoon|anime|"
          r"manga|comic(?: book)?|pixel art|pop art|line art|mosaic|impressionist|cubist|stained glass|"
          r"illustration|claymation|3d render|ukiyo-e|van gogh|picasso|monet)")
_VERB = r"(?:make|makes|making|made|render|turn|get|have|give|change|convert|transform|redraw|redo|restyle|reimagine)\w*"

# ("family:NAME", weight, alternatives): regexes over the request with quotes and files
# masked (@Q0, @IMG, @AUD, @VID), joined with "|"; a heavier cue wins where two overlap.
FAMILY_CUES: list[tuple[str, float, list[str]]] = [
    ("family:to_text", 0.7, [
        r"written (?:form|text|version|record|transcript)",
    ]),
    ("family:to_text", 0.8, [
        r"(?:convert|turn|change|transform|extract|get)\w* (?:[\w@]+ ){0,6}?in ?to (?:written |plain |"
        r"readable |editable )?(?:text|words|writing|notes)\b",
        r"what (?:\w+ ){0,3}?(?:says|said|is saying|are saying)\b",
        r"what (?:does|do|did) (?:it|this|that|they|the \w+) say\b",
        r"(?:figure|work|make) out (?:the |what )?(?:text|words|writing|letters)",
        # "what the text in the image says": the match stops at "text" so that the thing it is in decides
        r"what (?:the )?(?:text|words|writing|inscription|lettering)(?= (?:[\w@]+ +){0,6}?(?:says|reads|said)\b)",
    ]),
    ("family:question", 0.8, [
        r"answer (?:the|my|this|a|some|these|following)? ?questions?", r"question[- ]answering",
        r"(?:based on|according to|using|from) (?:the|this|that|my) (?:text|passage|paragraph|article|"
        r"context|information|content)",
    ]),
    ("family:question", 0.5, [
        # not 'this answer', 'based on the answer' (an earlier step's output) nor 'ask for' (a request)
        r"(?<!this )(?<!that )(?<!your )(?<!these )(?<!those )(?<!on the )(?<!of the )(?<!to the )(?<!with the )"
        r"(?<!from the )(?<!using the )(?<!into the )\banswers?\b(?! (?:them|him|her|back|me)\b)",
        r"\bquestions?\b", r"\bask(?:ing)?\b(?! for\b)", r"\bquery\b",
        r"find out",
        # "I was wondering if you could draw ...": a polite request, not a question
        r"\bwondering\b(?! (?:if|whether) (?:it (?:would|will|might|is|'s) (?:be )?possible|"
        r"you (?:could|can|would|might)))",
        r"want to know", r"like to know", r"need to know",
    ]),
    ("family:segment", 0.8, [
        r"break\w* (?:[\w@]+ +){0,4}?(?:up|down|apart) into", r"break\w* (?:up|down|apart) (?:[\w@]+ +){0,5}?into",
        r"(?:different|distinct|individual|separate|various) (?:parts|regions|areas|segments|sections|zones)",
        r"(?:each|every|all) (?:\w+ ){0,3}?(?:separately|individually|one by one)",
    ]),
    ("family:describe", 0.8, [
        # 'describe', 'describing' ask; 'it describes', 'is described as' tell what the input holds
        r"describ(?:e|ing)\b", r"explain\w* what", r"tell me about",
        r"what (?:the|this|that) \w+ is (?:mainly |all |really )?about",
        r"(?:textual|written) (?:account|summary|explanation)",
        r"what(?:'s| is) (?:in|shown|depicted|happening|going on)",
        r"(?:give|provide|write|generate|get|produce)\w* (?:me )?(?:a |an )?(?:\w+ )?description",
        r"put (?:\w+ ){0,2}?into words", r"what (?:it|this|that|the \w+) (?:shows|depicts|contains|portrays)",
        r"interpret\w*",
    ]),
    ("family:describe", 0.5, [
        r"descriptions?",
    ]),
    ("family:classify", 0.8, [
        r"classif\w*", r"categori[sz]\w*",
        r"(?:what|which) (?:kind|type|sort|category|class|genre|species|breed|emotion|mood|feeling|language|"
        r"accent|instrument|animal)s?\b",
        r"predict\w*", r"sort\w* (?:\w+ ){0,3}?into",
        r"(?:determin|identif|detect|recogni[sz]|analy[sz]|assess|evaluat|figur)\w* (?:out )?(?:the |its |"
        r"their )?(?:\w+ )?(?:emotion|mood|feeling|language|accent|genre|speaker|sentiment|tone|category|"
        r"class|type|kind|species|breed)s?\b",
        r"identify (?:the )?(?:kind|type|category|class|genre|species|breed)",
        r"determine (?:the )?(?:category|class|type|kind|genre)",
        r"recogni[sz]\w* (?:what|which|the (?:type|kind|object|scene|animal))",
        r"\blabel(?:l?ed|l?ing|s)?\b(?! +@)",  # "an image labelled a.jpg" only names the file
        r"\btag(?:s|ging)? (?:the|this|it)", r"identify\w* (?:what|which)",
    ]),
    ("family:generate", 0.8, [
        r"(?:generat|creat|mak|made|produc|render|design|synthesi[sz]|compos|build|craft|dream\w* up|imagin|"
        r"come up with)\w* (?:me |us )?(?:(?:a|an|the|some|one|two|three|several|few|new|short|brief|quick|"
        r"simple|fresh)\b ?)*(?:[\w-]+ ){0,3}?(?:images?|pictures?|photos?|illustrations?|drawings?|"
        r"paintings?|(?:digital|clip|pixel|fan|concept) ?art|artworks?|visuals?|posters?|logos?|sketch(?:es)?|videos?|clips?|animations?|movies?|"
        r"films?|footage|speech|audio|voice|sound|narration|recordings?)\b",
        # "depict the scene in a short video"
        r"(?:depict|portray|illustrat)\w* (?:[\w-]+ ){0,6}?(?:through|in|as|with|via) an? "
        r"(?:[\w-]+ ){0,2}?(?:images?|pictures?|illustrations?|videos?|clips?|animations?)\b",
        r"(?:turn|convert|transform|change)\w* (?:[\w@]+ ){0,6}?in ?to (?:an? )?(?:[\w-]+ )?(?:images?|"
        r"pictures?|illustrations?|visuals?|videos?|clips?|animations?|speech|audio|voice|sound)\b",
    ]),
    ("family:enhance", 0.7, [
        r"enhanc\w*", r"improv\w*", r"clean\w*(?: up)?", r"restor\w*", r"sharpen\w*", r"upscal\w*", r"deblur\w*",
        r"transform\w*", r"styli[sz]\w*", r"restyl\w*", r"brighten\w*", r"darken\w*", r"convert\w*", r"refin\w*",
        r"boost\w*", r"quality", r"clearer", r"crisper",
    ]),
    ("family:edit", 0.8, [
        r"to match (?:the|a|this|my) (?:\w+ )?(?:description|text|instruction|prompt)",
        r"(?:change|alter|modify|adjust)\w* (?:the )?(?:colou?rs? of|background|attributes?)", r"modif\w*",
        r"alter\w*", r"adjust\w*",
        r"(?:make|apply)\w* (?:\w+ ){0,2}?(?:changes?|edits?|adjustments?|modifications?)",
        r"changes? to (?:the|this|my)",
    ]),
    ("family:edit", 0.7, [
        r"instead of", r"(?:would|could|might) look (?:\w+ )?(?:better|great|nicer|good) (?:with|if)",
    ]),
    ("family:edit", 0.7, [
        r"(?:add|put|place|insert|draw)\w* (?:a |an |some )(?:\w+ ){0,3}?(?:over|on|onto|into|behind|above|"
        r"below|next to|beside|to) ",
    ]),
    ("family:classify", 0.8, [
        r"(?:happy|sad|angry|upset|excited|calm|neutral|fearful|surprised|cheerful)(?:,| or) ",
        r"(?:sounds?|looks?|seems?) (?:more )?like (?:\w+ ){0,3}?or\b",
    ]),
    # the emotion a text or a recording conveys (text or audio classification, by what it is in)
    ("family:classify", 0.8, [
        r"emotions?\b", r"emotional (?:tone|state|content|cues?)",
    ]),
    ("family:detect", 0.6, [
        r"(?:find|locate|spot|count)\w* (?:all |every |each |the |any )+\w+",
    ]),
    ("family:make", 0.7, [
        r"(?:artwork|image|picture|illustration|drawing|painting|poster|visual)s? (?:of|showing|depicting|"
        r"where|that shows|inspired by|based on|representing|illustrating|that (?:represents|illustrates|captures))",
        r"(?:clip|video|animation|footage|movie)s? (?:of|showing|depicting|where|in which|that shows)",
        # "in an audio clip": the modality is the modifier, so the match ends before the noun
        r"(?:as|be|in|into) (?:an? )?(?:audio|sound|voice)(?= (?:clip|file|recording|message|version))",
    ]),
    # a new look or style for a picture ("make it black and white", "turn the photo into a sketch")
    ("family:look", 0.9, [
        rf"{_VERB} {_THING} +(?:(?:look|appear|seem)s? )?(?:(?:a little|a bit|a lot|much|way|slightly|more|less|even|"
        rf"somewhat|really|very) )*{_LOOK}(?!\w)",
    ]),
    ("family:restyle", 0.95, [
        rf"{_VERB} {_THING} +(?:(?:look|appear)s? )?(?:like|as|in ?to|in(?: the style of)?) (?:(?:a|an|the) )?"
        rf"(?:[\w-]+ )?{_STYLE}(?!\w)",
    ]),
]

# Every cue: each task's own (in task order), then the families'.
CUE_TABLE: list[tuple[str, float, list[str]]] = [
    (name, weight, alternatives) for name, spec in TASKS.items() for weight, alternatives in spec.planning.cues
] + FAMILY_CUES
