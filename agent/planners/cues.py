"""Task cues: the ways people ask for each task, written from the task definitions.

A cue is either bound to one task ("transcribe" -> automatic-speech-recognition)
or to a family of tasks whose member depends on what it acts on ("classify" an
image, a sound or a table; "generate" an image, a video or speech). The
modality comes from the nouns and files around the cue. The lists are generic
English for each task; they are not fitted to any benchmark's wording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from langchain_hugginggpt.agent.planners.text import ParsedRequest, question_spans

_S = r"(?:s|es)?"
NOUNS = {
    "image": r"@img|images?|pictures?|photo(?:graph)?s?|pics?|snapshots?|screenshots?|illustrations?|drawings?|"
             r"paintings?|artworks?|graphics?|selfies?|portraits?|visuals?|posters?|logos?|sketch(?:es)?|scenes?|frames?",
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
NOUN_RE = {kind: re.compile(rf"(?<![\w@])(?:{pattern})(?!\w)", re.I) for kind, pattern in NOUNS.items()}

# Family -> modality -> task. Documents read as images where no document task fits.
FAMILIES = {
    "classify": {"image": "image-classification", "audio": "audio-classification", "table": "tabular-classification",
                 "text": "text-classification", "video": "video-classification", "doc": "image-classification"},
    "question": {"image": "visual-question-answering", "doc": "document-question-answering",
                 "text": "question-answering", "table": "document-question-answering"},
    "describe": {"image": "image-to-text", "doc": "image-to-text", "table": "image-to-text", "video": "video-classification"},
    "generate": {"image": "text-to-image", "video": "text-to-video", "audio": "text-to-speech"},
    "enhance": {"image": "image-to-image", "audio": "audio-to-audio", "doc": "image-to-image"},
    "edit": {"image": "image-editing", "audio": "audio-to-audio", "doc": "image-editing"},
    "detect": {"image": "object-detection"},
    "make": {"image": "text-to-image", "video": "text-to-video", "audio": "text-to-speech"},
    "to_text": {"audio": "automatic-speech-recognition", "image": "image-to-text", "doc": "image-to-text",
                "video": "video-classification"},
}
# The object of "generate" is what comes out, the object of the others what goes in.
OUTPUT_FAMILIES = {"generate"}

LANGUAGES = (r"french|spanish|german|italian|chinese|mandarin|japanese|korean|portuguese|russian|arabic|hindi|dutch|"
             r"english|swedish|greek|turkish|polish|vietnamese|hebrew|danish|finnish|norwegian|czech|thai|"
             r"indonesian|ukrainian|romanian|hungarian|catalan|swahili|bengali|urdu|persian|latin")

# (pattern, task or "family:NAME", weight)
_CUES: list[tuple[str, str, float]] = [
    # speech and audio
    (r"transcri\w*|speech[- ]to[- ]text|dictat\w*|subtitl\w*|recogni[sz]\w* (?:the )?(?:speech|spoken|words)", "automatic-speech-recognition", 1.0),
    (r"(?:what|everything|all) (?:that )?(?:is |was |'s |are |were )?(?:being )?(?:said|spoken)|(?:spoken|said) words|write (?:down|out)|"
     r"(?:make|making) out (?:the |what )", "automatic-speech-recognition", 0.8),
    (r"written (?:form|text|version|record|transcript)", "family:to_text", 0.7),
    (r"(?:convert|turn|change|transform|extract|get)\w* (?:[\w@]+ ){0,6}?in ?to (?:written |plain |readable |editable )?(?:text|words|writing|notes)\b|"
     r"what (?:\w+ ){0,3}?(?:says|said|is saying|are saying)\b|what (?:does|do|did) (?:it|this|that|they|the \w+) say\b|"
     r"(?:figure|work|make) out (?:the |what )?(?:text|words|writing|letters)", "family:to_text", 0.8),
    (r"(?:read|speak|say|recite|voice|vocali[sz]e)\w* (?:\w+ ){0,4}?(?:aloud|out loud|out)\b|text[- ]to[- ]speech|"
     r"narrat\w*|voice[- ]?over|read (?:\w+ ){0,3}?to me|\baloud\b|out loud|pronounc\w*|speak(?!er)\w*|(?:(?<=please )|(?<![a-z] ))say\b|"
     r"\bvoice (?:it|this|that|them|your|the)\b", "text-to-speech", 1.0),
    (r"(?:spoken|audio|audible|voice|speech)[- ](?:version|form|format|output|rendition)|"
     r"(?:convert|turn|transform|change|synthesi[sz])\w* (?:\w+ ){0,6}?in ?to (?:an? )?(?:speech|audio|voice|sound|spoken)|"
     r"hear (?:it|this|that|the)|listen to (?:it|this|that|(?:the |this |that |my )?(?:result|text|summary|translation|answer|story|note|"
     r"message|letter|e-?mail|poem|quote|words|paragraph|sentence|@q\d+))", "text-to-speech", 0.8),
    (r"noise (?:reduction|removal|suppression|cancell?ation)|(?:remove|reduce|eliminate|filter|cut)\w* (?:out )?(?:the |any |all )?(?:background )?(?:noise|hiss|hum|static)|"
     r"(?:separate|isolate|extract)\w* (?:the )?(?:vocals?|voices?|speech|instruments?|sources?|speakers?)|"
     r"(?:change|convert|transform|alter|modify)\w* (?:the |my )?(?:voice|speaker)|speech enhancement|source separation|audio[- ]to[- ]audio|denois\w*|"
     r"without (?:the |any |all |that )?(?:background )?(?:noise|roar|hiss|hum|wind|echo|static|crackle|buzz)", "audio-to-audio", 1.0),
    (r"(?:identify|recogni[sz]e|determine|detect|tell)\w* (?:\w+ ){0,2}?(?:speakers?|who is (?:speaking|talking))|speaker (?:identification|recognition)|"
     r"(?:voice )?commands? (?:\w+ ){0,3}?(?:given|spoken|said)|(?:sound|audio) (?:event|category|class|type|label)s?", "audio-classification", 0.9),
    # language
    (rf"translat\w*|(?:in|into|to) (?:{LANGUAGES})\b|(?:reads|speaks|understands|knows) (?:only )?(?:{LANGUAGES})\b|in(?:to)? (?:another|a different|other) languages?", "translation", 1.0),
    (r"summar\w*|synopsis|recap\w*|tl;? ?dr|key (?:points|takeaways|ideas)|main (?:points|ideas)|\bgist\b|condens\w*|"
     r"shorten\w*|boil (?:\w+ )?down|abridg\w*|(?:short|brief|concise|condensed|shorter|compact|quick) (?:version|overview|account|digest)|"
     r"in a (?:few|couple of) (?:sentences|lines|words)|essentials|the essence|highlights|in a nutshell|too long|"
     r"cut (?:it |this |that |them )?down|(?:to|in|into) (?:just )?one (?:line|sentence)", "summarization", 1.0),
    (r"(?:which|what) words\b|words (?:that|which) (?:refer|name|are)|named[- ]entit\w*|\bentit(?:y|ies)\b|\btagg(?:ed|ing)\b|(?:each|every) (?:person|place|date|name|word|organi[sz]ation)\b|parts?[- ]of[- ]speech|(?:label|tag|classify)\w* (?:each|every|all|the individual|individual) (?:word|token)s?|\bpos[- ]tag\w*|\bner\b|token classification|"
     r"(?:extract|identify|find|tag|label|list|pick out|highlight|detect|recogni[sz]e|spot|mark)\w* (?:\w+ ){0,3}?"
     r"(?:names|people|persons|person names|individuals|places|locations|cities|countries|organi[sz]ations|dates|companies|brands|proper nouns|punctuation|tokens|"
     r"nouns?|verbs?|adjectives?|adverbs?|grammatical)", "token-classification", 1.0),
    (r"sentiment|(?:positive|negative)(?: or| vs\.?)|(?:emotion|tone|mood|attitude|polarity|intent|topic) (?:of|in|behind) (?:the|this|that|my)|spam", "text-classification", 0.8),
    (r"similar\w*|same meaning|equivalent in meaning|semantic\w*|(?:how|whether) (?:\w+ )?(?:close|alike|related|equivalent|different)\w*|"
     r"compar\w* (?:\w+ ){0,3}?(?:sentences|texts|phrases|statements|@q\d+|two|both|them|meaning)|mirror each other|resembl\w*|paraphrases of each other|(?:mean|say) (?:\w+ ){0,2}?the same|same thing|"
     r"(?:how|whether) (?:\w+ ){0,2}?(?:closely|well) (?:\w+ ){0,3}?(?:align|match|correspond|relate|overlap)|relatedness|likeness|"
     r"(?:convey|express|carry|share)\w* (?:\w+ ){0,2}?(?:same|similar) (?:idea|meaning|message|sense|point)|relevance (?:between|of (?:the|these|both))", "sentence-similarity", 1.0),
    (r"answer (?:the|my|this|a|some|these|following)? ?questions?|question[- ]answering|"
     r"(?:based on|according to|using|from) (?:the|this|that|my) (?:text|passage|paragraph|article|context|information|content)", "family:question", 0.8),
    (r"\banswers?\b(?! (?:them|him|her|back|me)\b)|\bquestions?\b|\bask(?:ing)?\b|\bquery\b|find out|\bwondering\b|want to know|like to know|need to know", "family:question", 0.5),
    (r"\bchat\w*|conversational|convers(?:e|ing)|(?:have|hold|start|continue) a (?:conversation|dialog\w*)|dialog\w*|(?:respond|reply|react)\w* (?:to|as)|(?:talk|chat) (?:to|with) (?:me|us|someone)|let's talk|"
     r"(?:friendly|natural|engaging|human-like) (?:response|reply|answer)|what would you say|small talk|chatbot|(?:virtual|voice) assistant|"
     r"(?:generate|provide|give|write|craft|produce|formulate)\w* (?:me )?(?:a |an )?(?:\w+ ){0,2}?(?:response|reply)\b|"
     r"(?:way|how) to (?:answer|respond|reply)|what (?:to|should i|could i) (?:say|reply|answer)", "conversational", 0.8),
    (r"conversation\w*", "conversational", 0.5),
    (r"(?:write|compose|draft|craft|author)(?:s|ing)?\b(?! (?:down|out|(?:a |an |the )?(?:\w+ )?(?:caption|summary|transcript|translation|description)))|continu\w* (?:the|this|my|writing|it)|complet\w* (?:the|this|my) (?:sentence|text|story|paragraph|phrase)|"
     r"finish (?:the|this|my) (?:sentence|story|text|paragraph)|fill (?:in|out) (?:the |this )?(?:\w+ )?(?:gaps?|blanks?|missing|incomplete|rest)|incomplete (?:text|sentence)|expand\w*|elaborat\w*|brainstorm\w*|come up with|extend (?:the|this|it)|"
     r"(?:stor(?:y|ies)|poems?|essays?|blog posts?|taglines?|slogans?|lyrics|jokes?|continuation)\b|continu\w*|keep (?:it|this|that|the \w+) going|carry on|(?:another|one more|a further) (?:paragraph|chapter|verse|stanza)", "text-generation", 0.7),
    (r"(?:generat|creat|produc|writ|compos)\w* (?:me )?(?:a |an |some |the |new )?(?:[\w-]+ ){0,2}?(?:text|stor(?:y|ies)|poem|essay|article|paragraph|"
     r"continuation|sentences|dialogue|script|lyrics|tweet|post|content)\b", "text-generation", 0.8),
    (r"paraphras\w*|rewrit\w*|rephras\w*|reword\w*|simplif\w*|correct (?:the )?grammar|proofread\w*", "text2text-generation", 0.8),
    # vision
    (r"(?:object|objects) detect\w*|detect\w*|bounding box\w*|(?:locate|spot|count|mark|point out)\w* (?:\w+ ){0,2}?(?:objects|items|things|people|persons|cars|vehicles|animals|faces|elements)|"
     r"(?:find|identify|list|detect|locate|recogni[sz]e|spot|count|mark|highlight)\w* (?:\w+ ){0,4}?(?:objects?|items?)\b|"
     r"point(?:ing)? out (?:where|each|every|all)|where (?:each|every|all the|the various) \w+ (?:is|are)\b|(?:what|which) (?:objects|items|things)|how many \w+ (?:\w+ )?(?:are|appear|can|is)", "object-detection", 0.9),
    (r"segment\w*|(?:separate|split|divide|partition|isolate)\w* (?:\w+ ){0,4}?(?:regions|parts|segments|objects|areas|foreground|background|layers)|"
     r"\bmasks?\b|pixel[- ]level|(?:each|every) pixel|cut[- ]?out|outlin\w* (?:each|every|the|all|of)|boundar(?:y|ies) (?:of|between)|"
     r"distinguish\w* (?:\w+ ){0,3}?(?:objects|regions|areas|elements|parts|segments)", "image-segmentation", 1.0),
    (r"depth|how far|(?:nearer|closer) to (?:the )?(?:camera|viewer|lens)|(?:further|farther) (?:back|away)|distances? (?:\w+ ){0,3}?(?:from|to) the camera|\b3d (?:structure|layout|information|perception|shape|map)|"
     r"(?:near|close)\w* (?:and|or|vs\.?|versus) (?:far|distant)|spatial (?:layout|arrangement|structure)", "depth-estimation", 1.0),
    (r"caption\w*|\bocr\b|image[- ]to[- ]text|(?:extract|read|recogni[sz]e|get|pull|copy|grab)\w* (?:out )?(?:the |any |all )?(?:printed |written )?"
     r"(?:text|words|writing|characters|letters)\w* (?:\w+ )?(?:from|in|on|off|of)", "image-to-text", 1.0),
    (r"describ\w*|explain\w* what|tell me about|what (?:the|this|that) \w+ is (?:mainly |all |really )?about|(?:textual|written) (?:account|summary|explanation)|"
     r"what(?:'s| is) (?:in|shown|depicted|happening|going on)|(?:give|provide|write|generate|get|produce)\w* (?:me )?(?:a |an )?(?:\w+ )?description|"
     r"put (?:\w+ ){0,2}?into words|what (?:it|this|that|the \w+) (?:shows|depicts|contains|portrays)|interpret\w*", "family:describe", 0.8),
    (r"descriptions?", "family:describe", 0.5),
    (r"classif\w*|categori[sz]\w*|(?:what|which) (?:kind|type|sort|category|class|genre|species|breed|emotion|mood|feeling|language|accent|instrument|animal|object)s?\b|"
     r"predict\w*|sort\w* (?:\w+ ){0,3}?into|"
     r"(?:determin|identif|detect|recogni[sz]|analy[sz]|assess|evaluat|figur)\w* (?:out )?(?:the |its |their )?(?:\w+ )?(?:emotion|mood|feeling|language|accent|genre|speaker|sentiment|tone|category|class|type|kind|species|breed)s?\b|"
     r"identify (?:the )?(?:kind|type|category|class|genre|species|breed)|determine (?:the )?(?:category|class|type|kind|genre)|"
     r"recogni[sz]\w* (?:what|which|the (?:type|kind|object|scene|animal))|\blabel\w*|\btag(?:s|ging)? (?:the|this|it)|"
     r"identify\w* (?:what|which)", "family:classify", 0.8),
    (r"(?:generat|creat|mak|produc|render|design|synthesi[sz]|compos|build|craft|dream\w* up|imagin|come up with)\w* (?:me |us )?(?:(?:a|an|the|some|one|two|three|several|few|new|short|brief|quick|simple|fresh)\b ?)*(?:[\w-]+ ){0,3}?"
     r"(?:images?|pictures?|photos?|illustrations?|drawings?|paintings?|artworks?|visuals?|posters?|logos?|sketch(?:es)?|"
     r"videos?|clips?|animations?|movies?|films?|footage|speech|audio|voice|sound|narration|recordings?)\b|"
     r"(?:turn|convert|transform|change)\w* (?:[\w@]+ ){0,6}?in ?to (?:an? )?(?:[\w-]+ )?(?:images?|pictures?|illustrations?|visuals?|videos?|clips?|animations?|speech|audio|voice|sound)\b", "family:generate", 0.8),
    (r"(?:draw|paint|sketch|illustrate|visuali[sz]e)s?\b|text[- ]to[- ]image", "text-to-image", 0.8),
    (r"text[- ]to[- ]video|animat\w*|(?:video|clip|animation|movie|film|footage) (?:of|showing|depicting|that shows|based on|from|illustrating|about|representing)", "text-to-video", 0.8),
    (r"enhanc\w*|improv\w*|clean\w*(?: up)?|restor\w*|sharpen\w*|upscal\w*|deblur\w*|transform\w*|styli[sz]\w*|restyl\w*|brighten\w*|darken\w*|"
     r"convert\w*|refin\w*|boost\w*|quality|clearer|crisper", "family:enhance", 0.7),
    (r"to match (?:the|a|this|my) (?:\w+ )?(?:description|text|instruction|prompt)|(?:change|alter|modify|adjust)\w* (?:the )?(?:colou?rs? of|background|attributes?)|modif\w*|alter\w*|adjust\w*|(?:make|apply)\w* (?:\w+ ){0,2}?(?:changes?|edits?|adjustments?|modifications?)|changes? to (?:the|this|my)", "family:edit", 0.8),
    (r"style (?:transfer|of)|in the style of|(?:variation|variant)s? of|image[- ]to[- ]image|"
     r"(?:cartoon|anime|sketch|watercolou?r|oil[- ]painting|black and white|vintage|sepia|pixel art|comic)[- ](?:style|version|look|effect)|"
     r"manipulat\w*|super[- ]?resolution|target (?:image|style|domain)|characteristics of (?:another|a target|the target)|"
     r"(?:as|into|like) (?:an? )?(?:cartoon|anime|watercolou?r|oil painting|pixel art|comic)|colori[sz]\w*", "image-to-image", 0.8),
    (r"\bedit\w*|(?:add|remove|replace|erase|insert|swap|delete|change|recolou?r)\w* (?:\w+ ){0,5}?(?:in|to|from|on|into|with) "
     r"(?:the |this |that |my |its )?(?:image|photo|picture|scene|background|foreground|@img|sky)|"
     r"make the (?:\w+ ){1,2}(?:look|appear|more|less|brighter|darker|blue|red|green|purple)|background", "image-editing", 0.7),
    (r"(?:change|turn|make|paint|recolou?r|colou?r)\w* (?:the |its )?(?:\w+ ){0,4}?(?:to|into) (?:a |an )?(?:red|blue|green|yellow|black|white|"
     r"purple|pink|orange|brown|gr[ae]y|golden|silver|bright|dark)\b|(?:add|insert|put|place|remove|erase|delete|replace|swap)\w* "
     r"(?:a |an |the |some )?(?:\w+ ){0,3}?(?:to|in|into|on|onto|from|with) (?:the )?(?:image|photo|picture|scene|background|foreground|@img)", "image-editing", 0.8),
    (r"instead of|(?:would|could|might) look (?:\w+ )?(?:better|great|nicer|good) (?:with|if)", "family:edit", 0.7),
    (r"(?:recogni[sz]|identif|detect|determin|tell)\w* (?:\w+ ){0,3}?(?:sounds?|noises?|audio (?:type|content|category))\b", "audio-classification", 0.8),
    (r"(?:add|put|place|insert|draw)\w* (?:a |an |some )(?:\w+ ){0,3}?(?:over|on|onto|into|behind|above|below|next to|beside|to) ", "family:edit", 0.7),
    (r"(?:happy|sad|angry|upset|excited|calm|neutral|fearful|surprised|cheerful)(?:,| or) |(?:sounds?|looks?|seems?) (?:more )?like (?:\w+ ){0,3}?or\b", "family:classify", 0.8),
    (r"(?:find|locate|spot|count)\w* (?:all |every |each |the |any )+\w+", "family:detect", 0.6),
    (r"(?:artwork|image|picture|illustration|drawing|painting|poster|visual)s? (?:of|showing|depicting|where|that shows)|"
     r"(?:clip|video|animation|footage|movie)s? (?:of|showing|depicting|where|in which|that shows)|"
     r"(?:as|be|into) (?:an? )?(?:audio|sound|voice|spoken) (?:clip|file|recording|message|version)", "family:make", 0.7),
    # ControlNet-style conditions (our tasks; not in TaskBench's tool list)
    (r"\bpose\b|skeleton|key ?points|openpose", "openpose-control", 0.7),
    (r"(?:in|with|using|following|matching|keeping) (?:exactly |the )?(?:same|that|this|its) pose", "openpose-text-to-image", 0.9),
    (r"(?:in|with|using|following|matching|keeping) (?:exactly |the )?(?:same|that|this|its) (?:edges?|outlines?|contours?)", "canny-text-to-image", 0.9),
    (r"\bcanny\b|edge (?:map|detection)|\bedges\b", "canny-control", 0.7),
]
CUES = [(re.compile(rf"(?<![\w@])(?:{pattern})", re.I), target, weight) for pattern, target, weight in _CUES]


@dataclass
class Mention:
    task: str
    start: int
    end: int
    weight: float
    cue: str


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
_QUESTION_TEXT = re.compile(r"\b(?:text|passage|paragraph|article|context|transcript\w*|caption|summary|story|translation|"
                            r"@q\d+|content|information|report|essay|description)\b", re.I)


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


def _question_kind(request: ParsedRequest, start: int, end: int) -> str:
    """Visual, document or text question: document words near the cue, else words naming a text
    near it, else an image in the request, else a text question."""
    clause = request.clauses[request.clause_at(start)]
    near = request.masked[max(clause.start, start - 60):min(clause.end, end + 60)]
    if NOUN_RE["doc"].search(request.masked) or NOUN_RE["table"].search(near):
        return "doc"
    if _QUESTION_TEXT.search(near) and not re.search(r"@img", near, re.I):
        return "text"
    if any(f.kind == "image" for f in request.files) or NOUN_RE["image"].search(request.masked):
        return "image"
    return "text"


def find_mentions(request: ParsedRequest) -> list[Mention]:
    """Every cue in the request, resolved to a task; in order of position. A participle after
    'the' ('the translated text', 'the edited photo') names an earlier result, not a new task."""
    mentions: list[Mention] = []
    text = request.masked
    file_kinds = {f.kind for f in request.files}
    for pattern, target, weight in CUES:
        for match in pattern.finditer(text):
            if match.group(0).lower().endswith("ed") and _REFERENCE.search(text[max(0, match.start() - 6):match.start()]):
                continue
            task = target
            if target.startswith("family:"):
                family = target.split(":", 1)[1]
                if family == "question":
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
                else:
                    inside = [f.kind for f in request.in_span(request.files, match.start(), match.end())]
                    kind = inside[0] if inside else modality_near(request, match.start(), match.end())
                    if kind is None and len(file_kinds) == 1:
                        kind = next(iter(file_kinds))
                task = FAMILIES[family].get(kind or "")
                if task is None:
                    continue
            mentions.append(Mention(task, match.start(), match.end(), weight, match.group(0)))
    # A question about the input asks for question answering, unless another task's cue is inside it.
    for start, end, weight in question_spans(request):
        if not any(m.weight >= 0.8 and start <= m.start < end and FAMILIES["question"].get("text") != m.task
                   and m.task not in FAMILIES["question"].values() for m in mentions):
            task = FAMILIES["question"][_question_kind(request, start, end)]
            mentions.append(Mention(task, start, end, weight, request.masked[start:end]))
    mentions.sort(key=lambda m: (m.start, -m.weight))
    return mentions
