"""What the planners need to know of each task: how a request asks for it, which family
member it is, what its output is called, and a few facts about how it is wired.

`tasks.py` attaches each task's `PlanningHints` to its `TaskSpec`; the offline planners
(planning/) compile their rules from them, so a new task is planned once its hints are here.
Cues and phrases are generic English written from the task definitions, not fitted to any
benchmark's wording. Patterns are regexes over the request with quotes and files masked
(@Q0, @IMG, @AUD, @VID); patterns about language in general (negation, families, file
names) live in planning/.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from langchain_hugginggpt.core.languages import ANY_LANGUAGE

# A cue group: (weight, regex alternatives); where cues for two tasks overlap, the heavier wins.
CueGroup = tuple[float, list[str]]
# A phrasebook group: templates whose "{}" takes each of the objects.
PhraseGroup = tuple[list[str], list[str]]


@dataclass(frozen=True)
class PlanningHints:
    cues: list[CueGroup] = field(default_factory=list)
    # family ("classify", "generate", ... in planning/families.py) -> the modalities this task is the member for
    families: dict[str, list[str]] = field(default_factory=dict)
    # words naming this task's output ("the transcript"): a later step working on them links to it
    output_names: list[str] = field(default_factory=list)
    phrases: list[PhraseGroup] = field(default_factory=list)
    fallback: str | None = None  # the nearest task, where this one is not among the allowed tasks
    in_a_picture: str | None = None  # the task this one's cue means when it acts on a picture
    annotates: bool = False  # its output marks up its input (boxes, masks, maps)
    generative: bool = False  # makes something new from a description ("an image of ...")
    takes_instruction: bool = False  # its text may be an earlier step's output ("edit it based on the summary")
    # what its text slot holds, which decides how the wiring fills it: "content" (the text it works on or
    # makes), "question" (about its picture), "question_on_context" (a question, and a passage in "context"),
    # "comparison" (one of two texts, the other in "text2"), "instruction" (what to change or draw)
    text_role: str = "content"
    reports_text: bool = False  # an image-making task that also reports text (detection's labels)

    def __post_init__(self) -> None:
        if self.text_role not in TEXT_ROLES:
            raise ValueError(f"text_role {self.text_role!r} is none of {', '.join(TEXT_ROLES)}")


TEXT_ROLES = ("content", "question", "question_on_context", "comparison", "instruction")


LANGUAGES = ANY_LANGUAGE  # the names of core/languages.py

# The things phrasebook templates act on.
IMG = ["@IMG", "the image", "the photo", "the picture", "this photograph"]
AUD = ["@AUD", "the audio", "the recording", "the audio clip", "the voice message"]
TXT = ["@Q0", "the text", "this passage", "the sentence", "the article"]
DOC = ["the document @IMG", "the scanned form", "the receipt", "the invoice image"]
TAB = ["the table @IMG", "the spreadsheet image", "the tabular data", "the table image"]

# ControlNet-style conditions: the words for each map, for the cues below.
CANNY = r"canny(?: edge map| edges?)?|edge map"
HED = r"hed(?: map)?|soft[- ]edges?(?: map)?"
MLSD = r"m-?lsd(?: map)?|straight[- ]line(?: map)?s?|line map"
OPENPOSE = r"(?:open)?pose(?: skeleton| map)?|skeleton"
DEPTH = r"depth map"
SEG = r"seg(?:mentation)? map"
SCRIBBLE = r"scribbles?(?: map)?"


def _for_controlnet(condition: str) -> CueGroup:
    """'A depth map of a.jpg for ControlNet': the map as a condition (heavier and longer than the cue of the
    task it shares words with, depth estimation or segmentation, so it wins where they overlap)."""
    return (1.0, [rf"(?:{condition})(?= (?:[\w@'-]+ +){{0,10}}?(?:control ?net|conditioning|condition)\b)",
                  rf"(?:{condition})[- ]control\b"])


def _drawn_from(condition: str) -> CueGroup:
    """'Generate a castle from the depth map d.png': a new image drawn from a condition map; the cue spans
    the verb, so that "generate an image" alone (text to image) is part of it."""
    return (1.0, [r"(?:generat|creat|mak|draw|render|produc|paint|design)\w* (?:[\w@'-]+ +){0,8}?(?:from|using|"
                  rf"following|with|matching|conditioned on|guided by|based on) (?:the |this |that |a |an |my |its |"
                  rf"their )?(?:given )?(?:{condition})\b", rf"(?:{condition})[- ](?:text[- ])?to[- ]image"])


HINTS: dict[str, PlanningHints] = {
    "text-classification": PlanningHints(
        cues=[
            (0.8, [
                r"sentiment", r"(?:positive|negative)(?: or| vs\.?)",
                r"(?:emotion|tone|mood|attitude|polarity|intent|topic) (?:of|in|behind) (?:the|this|that|my)", r"spam",
            ]),
        ],
        families={"classify": ["text"]},
        phrases=[(["classify {}", "what is the sentiment of {}", "is {} positive or negative",
                   "detect the emotion expressed in {}", "categorize {} by topic",
                   "determine whether {} is spam", "analyze the tone of {}"], TXT + ["the review", "it"])],
    ),
    "token-classification": PlanningHints(
        cues=[
            (1.0, [
                r"(?:which|what) words\b", r"words (?:that|which) (?:refer|name|are)", r"named[- ]entit\w*",
                r"\bentit(?:y|ies)\b", r"\btagg(?:ed|ing)\b",
                r"(?:each|every) (?:person|place|date|name|word|organi[sz]ation)\b", r"parts?[- ]of[- ]speech",
                r"(?:label|tag|classify)\w* (?:each|every|all|the individual|individual) (?:word|token)s?",
                r"\bpos[- ]tag\w*", r"\bner\b", r"token classification",
                r"(?:extract|identify|find|tag|label|list|pick out|highlight|detect|recogni[sz]e|spot|isolate|single out|"
                r"pull out|underline|mark)\w* (?:\w+ ){0,3}?(?:names|people|persons|person names|individuals|places|"
                r"locations|cities|countries|organi[sz]ations|dates|companies|brands|proper nouns|punctuation|tokens|"
                r"nouns?|verbs?|adjectives?|adverbs?|grammatical|key ?words|key terms)",
                r"(?:names|people|persons|individuals|places|locations|cities|countries|organi[sz]ations|dates|"
                r"companies) (?:that )?(?:are |were )?(?:mentioned|named|referred to)",
            ]),
        ],
        phrases=[(["find the named entities in {}", "tag each word of {}", "extract the people and places "
                   "mentioned in {}", "identify the names, dates and organizations in {}",
                   "label the parts of speech in {}", "pick out the key terms in {}"],
                  TXT + ["the transcript", "it"])],
        in_a_picture="object-detection",
    ),
    "text2text-generation": PlanningHints(
        cues=[
            (0.8, [
                r"paraphras\w*", r"rewrit\w*", r"rephras\w*", r"reword\w*", r"simplif\w*", r"correct (?:the )?grammar",
                r"proofread\w*",
            ]),
        ],
        phrases=[(["paraphrase {}", "rewrite {} in simpler words", "rephrase {}",
                   "correct the grammar of {}", "reword {}"], TXT + ["it"])],
        fallback="text-generation",
    ),
    "summarization": PlanningHints(
        cues=[
            (1.0, [
                r"summar\w*", r"synopsis", r"recap\w*", r"tl;? ?dr", r"key (?:points|takeaways|ideas)",
                r"main (?:points|ideas)", r"\bgist\b", r"condens\w*", r"shorten\w*", r"boil (?:\w+ )?down", r"abridg\w*",
                r"(?:short|brief|concise|condensed|shorter|compact|quick) (?:version|overview|account|digest)",
                r"in a (?:few|couple of) (?:sentences|lines|words)", r"essentials", r"the essence", r"highlights",
                r"in a nutshell", r"too long", r"cut (?:it |this |that |them )?down",
                r"(?:to|in|into) (?:just )?one (?:line|sentence)",
            ]),
        ],
        output_names=[r"summar\w*"],
        phrases=[(["summarize {}", "give me the key points of {}", "shorten {}", "condense {} into a few lines",
                   "write a brief overview of {}", "what is the gist of {}"], TXT + ["the transcript", "it"])],
    ),
    "translation": PlanningHints(
        cues=[
            (1.0, [
                r"translat\w*", rf"(?:in|into|to) (?:{LANGUAGES})\b",
                rf"(?:reads|speaks|understands|knows) (?:only )?(?:{LANGUAGES})\b",
                r"in(?:to)? (?:another|a different|other) languages?",
            ]),
        ],
        output_names=[r"translat\w*"],
        phrases=[(["translate {} into French", "convert {} to Spanish", "put {} into another language",
                   "render {} in German", "I need {} in Japanese"], TXT + ["the result", "it"])],
    ),
    "question-answering": PlanningHints(
        families={"question": ["text"]},
        output_names=[r"answer"],
        phrases=[(["answer the question using {}", "based on {}, who won the match",
                   "find the answer in {}", "according to {}, when did it happen",
                   "use {} to answer my question", "look up the answer to the question in {}"],
                  TXT + ["the transcript", "the context", "the result"])],
        text_role="question_on_context",
    ),
    "conversational": PlanningHints(
        cues=[
            (0.8, [
                r"\bchat\w*", r"conversational", r"convers(?:e|ing)",
                r"(?:continue|keep|carry on)\w* (?:the |this |our )?(?:conversation|chat|dialog\w*)(?: going)?",
                r"(?:response|reply|answer) to (?:the|this|my|a) (?:prompt|message|remark|comment)",
                r"(?:have|hold|start|continue) a (?:conversation|dialog\w*)", r"dialog\w*",
                r"(?:respond|reply|react)\w* (?:to|as)", r"(?:talk|chat) (?:to|with) (?:me|us|someone)", r"let's talk",
                r"(?:friendly|natural|engaging|human-like) (?:response|reply|answer)", r"what would you say", r"small talk",
                r"chatbot", r"(?:virtual|voice) assistant",
                r"(?:generate|provide|give|write|craft|produce|formulate)\w* (?:me )?(?:a |"
                r"an )?(?:\w+ ){0,2}?(?:response|reply)\b",
                r"(?:way|how) to (?:answer|respond|reply)", r"what (?:to|should i|could i) (?:say|reply|answer)",
            ]),
            # "a conversational reply": what the task makes. A bare "conversation" ("I recorded a
            # conversation") is mostly what a recording holds, and asks for nothing.
            (0.9, [
                r"conversation(?:al)? (?:text|response|reply|replies|answer|message|turn)s?\b",
            ]),
        ],
        output_names=[r"repl(?:y|ies)", r"response"],
        phrases=[(["chat with me about {}", "reply to {} as an assistant", "respond to {} in a friendly way",
                   "give a natural reply to {}", "continue the dialogue about {}"],
                  ["@Q0", "my message", "the result", "it"])],
        generative=True,
    ),
    "text-generation": PlanningHints(
        cues=[
            (0.7, [
                r"(?:write|compose|draft|craft|author)(?:s|ing)?\b(?! (?:down|out|(?:a |an |"
                r"the )?(?:\w+ )?(?:caption|summary|transcript|translation|description)))",
                r"continu\w* (?:the|this|my|writing|it)",
                r"complet\w* (?:the|this|my) (?:sentence|text|story|paragraph|phrase)",
                r"finish (?:the|this|my) (?:sentence|story|text|paragraph)",
                r"fill (?:in|out) (?:the |this )?(?:\w+ )?(?:gaps?|blanks?|missing|incomplete|rest)",
                r"incomplete (?:text|sentence)", r"expand\w*", r"elaborat\w*", r"brainstorm\w*", r"come up with",
                r"extend (?:the|this|it)",
                # "a story", "some lyrics" are new texts to write; "this story", "my poem" are texts that exist
                r"(?:an?|some|new|another|one more) (?:[\w'-]+ ){0,2}?(?:stor(?:y|ies)|poems?|essays?|blog posts?|taglines?|"
                r"slogans?|lyrics|jokes?|continuation)\b",
                r"continu\w*", r"keep (?:it|this|that|the \w+) going", r"carry on",
                r"(?:another|one more|a further) (?:paragraph|chapter|verse|stanza)",
            ]),
            (0.8, [
                # "the written text" is a text that exists: 'written' before its noun asks for nothing
                r"(?:generat|creat|produc|writ(?!ten\b)|compos)\w* (?:me )?(?:a |an |some |the |"
                r"new )?(?:(?!conversational)[\w-]+ ){0,2}?(?:text|stor(?:y|ies)|poem|essay|article|paragraph|continuation|sentences|"
                r"dialogue|script|lyrics|tweet|post|content)\b",
            ]),
        ],
        output_names=[r"generated text", r"story", r"written"],
        phrases=[(["write a story about {}", "continue {}", "generate text based on {}",
                   "compose a poem about {}", "expand {} into a paragraph", "complete {}",
                   "come up with a short article on {}"], TXT + ["the caption", "it", "a dragon"])],
        generative=True,
    ),
    "sentence-similarity": PlanningHints(
        cues=[
            (1.0, [
                r"similar\w*", r"same meaning", r"equivalent in meaning", r"semantic\w*",
                r"(?:how|whether) (?:\w+ )?(?:close|alike|related|equivalent|different)\w*",
                r"compar\w* (?:\w+ ){0,3}?(?:sentences|texts|phrases|statements|@q\d+|two|both|them|meaning)",
                r"mirror each other", r"resembl\w*", r"paraphrases of each other", r"(?:mean|say) (?:\w+ ){0,2}?the same",
                r"same thing",
                r"(?:how|whether) (?:\w+ ){0,2}?(?:closely|well) (?:\w+ ){0,3}?(?:align|match|correspond|relate|overlap)",
                r"relatedness", r"likeness", r"closeness", r"how close (?:\w+ ){0,3}?(?:in meaning|semantically)",
                r"(?:convey|express|carry|share)\w* (?:\w+ ){0,2}?(?:same|similar) (?:idea|meaning|message|sense|point)",
                r"relevance (?:between|of (?:the|these|both))",
            ]),
        ],
        phrases=[(["how similar are {} and the other sentence", "compare the meaning of {} with the second text",
                   "check if {} means the same as the other one", "measure the semantic similarity of {}",
                   "score how closely {} matches the reference"], TXT + ["the two sentences", "both texts"])],
        text_role="comparison",
    ),
    "tabular-classification": PlanningHints(
        families={"classify": ["table"]},
        phrases=[(["classify the rows of {}", "predict the category of each record in {}",
                   "categorize the entries in {}", "label the data in {}"], TAB)],
    ),
    "zero-shot-classification": PlanningHints(
        cues=[
            (1.0, [r"zero[- ]shot", r"candidate labels?"]),
            # "classify the text into the labels sports, politics or cooking": labels given with the request
            (0.9, [r"(?:classif|categori[sz]|sort|label|tag|assign)\w* (?:[\w@'-]+ +){0,6}?(?:into|as|among|between|with|"
                   r"under|using|to) (?:one of )?(?:the |these |those |following |candidate |given |possible |my )*"
                   r"(?:labels|categories|classes|topics)\b(?= *:? *(?:[\w@'-]+ +){0,2}[\w@'-]+ *(?:,|or\b|and\b))"]),
        ],
        fallback="text-classification",
    ),
    "image-classification": PlanningHints(
        families={"classify": ["image", "doc"]},
        phrases=[(["classify {}", "what category does {} belong to", "recognize what is shown in {}",
                   "identify the main subject of {}", "label {} with a category",
                   "figure out what kind of thing is in {}", "determine the class of {}"], IMG)],
    ),
    "object-detection": PlanningHints(
        cues=[
            (0.9, [
                r"(?:object|objects) detect\w*", r"detect\w*", r"bounding box\w*",
                r"(?:draw|put|place|add)\w* (?:\w+ ){0,2}?boxes", r"boxes (?:around|over|on)",
                r"(?:locate|spot|count|mark|point out)\w* (?:\w+ ){0,2}?(?:objects|items|things|people|persons|cars|"
                r"vehicles|animals|faces|elements)",
                # ("spot which object is nearest" asks a question about the picture)
                r"(?:find|identify|list|detect|locate|recogni[sz]e|spot|count|mark|"
                r"highlight)\w* (?!(?:out )?(?:which|what|whether|if)\b)(?:\w+ ){0,4}?(?:objects?|items?)\b",
                r"point(?:ing)? out (?:where|each|every|all)", r"where (?:each|every|all the|the various) \w+ (?:is|are)\b",
                r"(?:what|which) (?:objects|items|things)", r"how many \w+ (?:\w+ )?(?:are|appear|can|is)",
            ]),
        ],
        families={"detect": ["image"]},
        output_names=[r"detect\w*", r"objects"],
        phrases=[(["detect the objects in {}", "find and locate every item in {}",
                   "draw bounding boxes around things in {}", "identify the objects present in {}",
                   "count the items that appear in {}", "spot the people and vehicles in {}",
                   "point out where the objects are in {}"], IMG)],
        annotates=True,
        reports_text=True,
    ),
    "image-segmentation": PlanningHints(
        cues=[
            (1.0, [
                r"segment\w*",
                r"(?:separate|split|divide|partition|isolate)\w* (?:\w+ ){0,4}?(?:regions|parts|segments|objects|"
                r"areas|foreground|background|layers)",
                r"\bmasks?\b", r"pixel[- ]level", r"(?:each|every) pixel", r"cut[- ]?out",
                r"pixel[- ]?(?:wise|by[- ]pixel)", r"per[- ]pixel", r"(?:panoptic|semantic|instance) (?:\w+ )?(?:analysis|map|labell?ing|parsing)",
                r"(?:its|their) own (?:region|area|segment)s?", r"isolat\w* (?:\w+ ){0,3}?from (?:the )?(?:rest|background|surroundings)",
                r"outlin\w* (?:each|every|the|all|of)", r"boundar(?:y|ies) (?:of|between)",
                r"distinguish\w* (?:\w+ ){0,3}?(?:objects|regions|areas|elements|parts|segments)",
            ]),
        ],
        families={"segment": ["image"]},
        output_names=[r"segment\w*", r"masks?"],
        phrases=[(["segment {}", "split {} into regions", "separate the foreground from the background of {}",
                   "divide {} into its distinct parts", "create a mask for each region of {}",
                   "isolate the different objects in {} pixel by pixel", "partition {} into segments",
                   "outline each area of {}"], IMG)],
        annotates=True,
    ),
    "depth-estimation": PlanningHints(
        cues=[
            (1.0, [
                r"depth", r"how far", r"(?:nearer|closer) to (?:the )?(?:camera|viewer|lens)",
                r"(?:further|farther) (?:back|away)", r"distances? (?:\w+ ){0,3}?(?:from|to) the camera",
                r"\b3d (?:structure|layout|information|perception|shape|map)",
                r"(?:near|close)\w* (?:and|or|vs\.?|versus) (?:far|distant)", r"spatial (?:layout|arrangement|structure)",
            ]),
        ],
        output_names=[r"depth"],
        phrases=[(["estimate the depth of {}", "how far away things are in {}",
                   "make a depth map from {}", "work out the distance of objects from the camera in {}",
                   "understand the 3D layout of {}", "which parts of {} are close to the camera and which are distant"], IMG)],
        annotates=True,
    ),
    "image-to-text": PlanningHints(
        cues=[
            (1.0, [
                r"caption\w*", r"\bocr\b", r"image[- ]to[- ]text", r"what (?:text|words|writing) (?:is|are) (?:written|printed|shown)",
                r"(?:extract|read|recogni[sz]e|get|pull|copy|grab)\w* (?:out )?(?:the |any |all )?(?:printed |"
                r"written )?(?:text|words|writing|characters|letters)\w* (?:\w+ )?(?:from|in|on|off|of)",
                # "identify any text on the sign": text found on a picture is read from it
                r"(?:identify|detect|find|spot|pick out|recogni[sz]e|read)\w* (?:the |any |all )?(?:text|words|writing|"
                r"inscriptions?|lettering)\w* (?:\w+ ){0,2}?(?:from|in|on|of) (?:the |this |that |its |my |an? )?(?:[\w-]+ )?"
                r"(?:images?|photo(?:graph)?s?|pictures?|signs?|posters?|screenshots?|scans?|@img)\b",
            ]),
        ],
        families={"describe": ["image", "doc", "table"], "to_text": ["image", "doc"]},
        output_names=[r"caption\w*", r"description"],
        phrases=[(["describe {}", "write a caption for {}", "tell me what is in {}", "read the text written on {}",
                   "extract the words printed in {}", "generate a description of {}",
                   "turn {} into a sentence", "explain what {} shows"], IMG)],
    ),
    "visual-question-answering": PlanningHints(
        families={"question": ["image"]},
        output_names=[r"answer"],
        phrases=[(["answer a question about {}", "what color is the car in {}",
                   "how many people are standing in {}", "is there a dog in {}",
                   "ask something about what appears in {}", "what is the person holding in {}"], IMG)],
        takes_instruction=True,
        text_role="question",
    ),
    "document-question-answering": PlanningHints(
        families={"question": ["doc", "table"]},
        output_names=[r"answer"],
        phrases=[(["answer a question about {}", "what is the total amount on {}",
                   "find the date written on {}", "who signed {}",
                   "look up a detail in {}", "extract the requested information from {}"], DOC)],
        takes_instruction=True,
        text_role="question",
    ),
    "text-to-image": PlanningHints(
        cues=[
            (0.8, [
                r"(?:draw|paint|sketch|illustrate|visuali[sz]e)s?\b", r"text[- ]to[- ]image",
            ]),
        ],
        families={"generate": ["image"], "make": ["image"]},
        output_names=[r"generated", r"created"],
        phrases=[(["generate an image of {}", "draw a picture of {}", "create an illustration showing {}",
                   "visualize {} as a picture", "make artwork depicting {}", "paint {}"],
                  ["a sunset over the sea", "@Q0", "the description", "it", "a cat on a sofa"])],
        generative=True,
    ),
    "image-to-image": PlanningHints(
        cues=[
            (0.8, [
                r"style (?:transfer|of)", r"in the style of", r"(?:variation|variant)s? of", r"image[- ]to[- ]image",
                r"(?:cartoon|anime|sketch|watercolou?r|oil[- ]painting|black and white|vintage|sepia|pixel art|"
                r"comic)[- ](?:style|version|look|effect)",
                r"manipulat\w*", r"super[- ]?resolution", r"target (?:image|style|domain)",
                r"characteristics of (?:another|a target|the target)",
                r"(?:as|into|like) (?:an? )?(?:cartoon|anime|watercolou?r|oil painting|pixel art|comic)", r"colori[sz]\w*",
            ]),
        ],
        families={"enhance": ["image", "doc"], "restyle": ["image", "doc"]},
        output_names=[r"transformed", r"enhanced", r"improved", r"styli[sz]ed"],
        phrases=[(["transform {} into a new style", "enhance the quality of {}", "make a variation of {}",
                   "upscale {}", "restyle {} as a painting", "convert {} into a sketch",
                   "improve the resolution of {}", "turn {} into another image"], IMG)],
        fallback="image-editing",
    ),
    "image-editing": PlanningHints(
        cues=[
            (0.7, [
                r"\bedit\w*",
                r"(?:add|remove|replace|erase|insert|swap|delete|change|recolou?r)\w* (?:\w+ ){0,5}?(?:in|to|from|on|"
                r"into|with) (?:the |this |that |my |its )?(?:image|photo|picture|scene|background|foreground|@img|"
                r"sky)",
                r"make the (?:\w+ ){1,2}(?:look|appear|more|less|brighter|darker|blue|red|green|purple)", r"background",
            ]),
            (0.8, [
                r"(?:change|turn|make|paint|recolou?r|colou?r)\w* (?:the |its )?(?:\w+ ){0,4}?(?:to|into) (?:a |"
                r"an )?(?:red|blue|green|yellow|black|white|purple|pink|orange|brown|gr[ae]y|golden|silver|bright|"
                r"dark)\b",
                r"(?:add|insert|put|place|remove|erase|delete|replace|swap)\w* (?:a |an |the |"
                r"some )?(?:\w+ ){0,3}?(?:to|in|into|on|onto|from|with) (?:the )?(?:image|photo|picture|scene|"
                r"background|foreground|@img)",
            ]),
        ],
        families={"edit": ["image", "doc"], "look": ["image", "doc"]},
        output_names=[r"edited", r"modified", r"post-edit\w*"],
        phrases=[(["edit {} so the sky is purple", "remove the person from {}", "add a hat to the man in {}",
                   "change the background of {}", "replace the car in {} with a bike",
                   "modify {} following the instruction", "make the walls of {} blue"], IMG)],
        fallback="image-to-image",
        takes_instruction=True,
        text_role="instruction",
    ),
    "automatic-speech-recognition": PlanningHints(
        cues=[
            (1.0, [
                r"transcri\w*", r"speech[- ]to[- ]text", r"dictat\w*", r"subtitl\w*",
                r"recogni[sz]\w* (?:the )?(?:speech|spoken|words)",
            ]),
            (0.8, [
                r"(?:what|everything|all) (?:that )?(?:is |was |'s |are |were )?(?:being )?(?:said|spoken)",
                r"(?:spoken|said) words", r"write (?:down|out)", r"(?:make|making) out (?:the |what )",
            ]),
        ],
        families={"to_text": ["audio"]},
        output_names=[r"transcri\w*", r"commands?", r"instructions?"],
        phrases=[(["transcribe {}", "write down what is said in {}", "convert {} to text",
                   "turn the speech in {} into words", "get a transcript of {}",
                   "figure out what people say in {}", "what does the speaker say in {}"], AUD)],
    ),
    "text-to-speech": PlanningHints(
        cues=[
            (1.0, [
                r"(?:read|speak|say|recite|voice|vocali[sz]e)\w* (?:\w+ ){0,4}?(?:aloud|out loud|out)\b",
                r"text[- ]to[- ]speech", r"narrat\w*", r"voice[- ]?over", r"read (?:\w+ ){0,3}?to me", r"\baloud\b",
                r"out loud", r"pronounc\w*",
                # "speak it", "speak the summary": speaking something; not "I don't speak French", "the person speaking"
                r"(?<!n't )(?<!not )speak(?:s|ing)? (?:it|this|that|them|these|those|the|my|our|your|its|@q\d+)\b",
                r"(?:(?<=please )|(?<![a-z] ))say\b(?! *@(?:img|aud|vid))",  # "a photo, say a.jpg": for example
                r"\bvoice (?:it|this|that|them|your|the)\b",
            ]),
            (0.8, [
                # "a spoken summary", "an audio description": a text the task makes, said aloud
                r"(?:spoken|audio|audible|voice|speech)[- ](?:version|form|format|output|rendition|description|summary|"
                r"response|reply|answer|explanation|recap)s?\b",
                r"(?:convert|turn|transform|change|synthesi[sz])\w* (?:\w+ ){0,6}?in ?to (?:an? )?(?:speech|audio|"
                r"voice|sound|spoken|(?:[\w-]+,? ){1,3}speech\b)",
                r"hear (?:it|this|that|the)",
                r"(?:natural|human)[- ]sounding (?:speech|voice|audio)", r"(?:have|get)\w* (?:it|this|that|them|@q\d+ *|the \w+) (?:\w+ )?(?:spoken|read out|voiced)\b",
                r"listen to (?:it|this|that|(?:the |this |that |my )?(?:result|text|summary|translation|answer|story|"
                r"note|message|letter|e-?mail|poem|quote|words|paragraph|sentence|@q\d+))",
            ]),
        ],
        families={"generate": ["audio"], "make": ["audio"]},
        output_names=[r"speech", r"spoken"],
        phrases=[(["read {} aloud", "convert {} into speech", "narrate {}", "make an audio version of {}",
                   "say {} out loud", "I want to hear {}", "create a voice recording of {}"],
                  TXT + ["the summary", "the result", "it"])],
        generative=True,
    ),
    "audio-classification": PlanningHints(
        cues=[
            (0.9, [
                r"(?:identify|recogni[sz]e|determine|detect|tell)\w* (?:\w+ ){0,2}?(?:speakers?|who is (?:speaking|talking))",
                r"speaker (?:identification|recognition)", r"who(?:'s| is| was) (?:the (?:person|one|man|woman|voice) )?(?:speaking|talking)", r"(?:voice )?commands? (?:\w+ ){0,3}?(?:given|spoken|said)",
                r"(?:sound|audio) (?:event|category|class|type|label)s?",
            ]),
            (0.8, [
                r"(?:recogni[sz]|identif|detect|determin|tell)\w* (?:\w+ ){0,3}?(?:sounds?|noises?|audio (?:type|"
                r"content|category))\b",
            ]),
        ],
        families={"classify": ["audio"], "describe": ["audio"]},
        output_names=[r"commands?", r"labels?", r"class(?:es)?", r"categor(?:y|ies)"],
        phrases=[(["classify {}", "what kind of sound is in {}", "identify the sound events in {}",
                   "recognize the emotion of the speaker in {}", "which language is spoken in {}",
                   "detect the genre of {}", "tell what category {} belongs to",
                   "recognize the command spoken in {}"], AUD)],
    ),
    "audio-to-audio": PlanningHints(
        cues=[
            (1.0, [
                r"noise (?:reduction|removal|suppression|cancell?ation)",
                r"(?:remove|reduce|eliminate|filter|cut)\w* (?:out )?(?:the |any |all )?(?:background )?(?:noise|"
                r"hiss|hum|static)",
                r"(?:separate|isolate|extract)\w* (?:the )?(?:vocals?|voices?|speech|instruments?|sources?|speakers?)",
                r"(?:change|convert|transform|alter|modify)\w* (?:the |my )?(?:voice|speaker)", r"speech enhancement",
                r"source separation", r"audio[- ]to[- ]audio", r"denois\w*",
                r"without (?:the |any |all |that )?(?:background )?(?:noise|roar|hiss|hum|wind|echo|static|crackle|buzz)",
            ]),
        ],
        families={"enhance": ["audio"], "edit": ["audio"]},
        output_names=[r"enhanced", r"clean(?:ed)?", r"improved"],
        phrases=[(["remove the background noise from {}", "enhance the quality of {}", "clean up {}",
                   "separate the voices in {}", "denoise {}", "make {} sound clearer",
                   "change the voice in {}", "improve the sound of {}"], AUD)],
    ),
    "text-to-video": PlanningHints(
        cues=[
            (0.8, [
                r"text[- ]to[- ]video", r"animat\w*",
                r"(?:video|clip|animation|movie|film|footage) (?:of|showing|depicting|that shows|based on|from|"
                r"illustrating|about|representing)",
            ]),
        ],
        families={"generate": ["video"], "make": ["video"]},
        phrases=[(["make a video of {}", "generate a clip showing {}", "animate {}",
                   "create a short film about {}", "produce footage depicting {}"],
                  ["a dog running on a beach", "@Q0", "the story", "it", "the description"])],
        generative=True,
    ),
    "video-classification": PlanningHints(
        families={"classify": ["video"], "describe": ["video"], "to_text": ["video"]},
        phrases=[(["classify {}", "what is happening in {}", "label the action in {}"],
                  ["@VID", "the video", "the clip"])],
    ),
    "canny-control": PlanningHints(
        cues=[
            _for_controlnet(CANNY),
            (0.7, [
                r"\bcanny\b", r"edge (?:map|detection)", r"\bedges\b",
            ]),
        ],
        annotates=True,
    ),
    "canny-text-to-image": PlanningHints(
        cues=[
            _drawn_from(CANNY),
            (0.9, [
                r"(?:in|with|using|following|matching|keeping) (?:exactly |the )?(?:same|that|this|its) (?:edges?|"
                r"outlines?|contours?)",
            ]),
        ],
        takes_instruction=True,
        text_role="instruction",
    ),
    "hed-control": PlanningHints(
        cues=[
            _for_controlnet(HED),
            (0.8, [
                r"\bhed\b", r"soft[- ]edges?(?: maps?)?", r"holistic(?:ally)?[- ]nested",
            ]),
        ],
        annotates=True,
    ),
    "hed-text-to-image": PlanningHints(
        cues=[_drawn_from(HED)],
        takes_instruction=True,
        text_role="instruction",
    ),
    "mlsd-control": PlanningHints(
        cues=[
            _for_controlnet(MLSD),
            (0.8, [
                r"\bm-?lsd\b", r"straight[- ]lines?", r"line (?:map|segments)",
            ]),
        ],
        annotates=True,
    ),
    "mlsd-text-to-image": PlanningHints(
        cues=[_drawn_from(MLSD)],
        takes_instruction=True,
        text_role="instruction",
    ),
    "openpose-control": PlanningHints(
        cues=[
            _for_controlnet(OPENPOSE),
            (0.7, [
                r"\bpose\b", r"skeleton", r"key ?points", r"openpose",
            ]),
        ],
        annotates=True,
    ),
    "openpose-text-to-image": PlanningHints(
        cues=[
            _drawn_from(OPENPOSE),
            (0.9, [
                r"(?:in|with|using|following|matching|keeping) (?:exactly |the )?(?:same|that|this|its) pose",
            ]),
        ],
        takes_instruction=True,
        text_role="instruction",
    ),
    "depth-control": PlanningHints(
        cues=[_for_controlnet(DEPTH)],
        annotates=True,
    ),
    "depth-text-to-image": PlanningHints(
        cues=[_drawn_from(DEPTH)],
        takes_instruction=True,
        text_role="instruction",
    ),
    "seg-control": PlanningHints(
        cues=[_for_controlnet(SEG)],
        annotates=True,
    ),
    "seg-text-to-image": PlanningHints(
        cues=[_drawn_from(SEG)],
        takes_instruction=True,
        text_role="instruction",
    ),
    "scribble-control": PlanningHints(
        cues=[
            _for_controlnet(SCRIBBLE),
            (0.8, [
                r"\bscribbles?\b",
            ]),
        ],
        annotates=True,
    ),
    "scribble-text-to-image": PlanningHints(
        cues=[_drawn_from(SCRIBBLE)],
        takes_instruction=True,
        text_role="instruction",
    ),
}
