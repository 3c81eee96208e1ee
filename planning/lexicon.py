"""The cue lexicon: the ways people ask for each task, written from the task definitions.

A cue is bound to one task ("transcribe" -> automatic-speech-recognition) or to a family
of tasks whose member depends on what it acts on ("classify" an image, a sound or a table;
"generate" an image, a video or speech; the families are in families.py). These are
generic English for each task, not fitted to any benchmark's wording. cues.py compiles
and applies them.
"""

from __future__ import annotations

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

LANGUAGES = (r"french|spanish|german|italian|chinese|mandarin|japanese|korean|portuguese|russian|arabic|hindi|dutch|"
             r"english|swedish|greek|turkish|polish|vietnamese|hebrew|danish|finnish|norwegian|czech|thai|"
             r"indonesian|ukrainian|romanian|hungarian|catalan|swahili|bengali|urdu|persian|latin")

# (task or "family:NAME", weight, alternatives): regexes over the request with quotes and files
# masked (@Q0, @IMG, @AUD, @VID), joined with "|"; a heavier cue wins where two overlap.
CUE_TABLE: list[tuple[str, float, list[str]]] = [
    # speech and audio
    ("automatic-speech-recognition", 1.0, [
        r"transcri\w*", r"speech[- ]to[- ]text", r"dictat\w*", r"subtitl\w*",
        r"recogni[sz]\w* (?:the )?(?:speech|spoken|words)",
    ]),
    ("automatic-speech-recognition", 0.8, [
        r"(?:what|everything|all) (?:that )?(?:is |was |'s |are |were )?(?:being )?(?:said|spoken)",
        r"(?:spoken|said) words", r"write (?:down|out)", r"(?:make|making) out (?:the |what )",
    ]),
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
    ("text-to-speech", 1.0, [
        r"(?:read|speak|say|recite|voice|vocali[sz]e)\w* (?:\w+ ){0,4}?(?:aloud|out loud|out)\b",
        r"text[- ]to[- ]speech", r"narrat\w*", r"voice[- ]?over", r"read (?:\w+ ){0,3}?to me", r"\baloud\b",
        r"out loud", r"pronounc\w*",
        # "speak it", "speak the summary": speaking something; not "I don't speak French", "the person speaking"
        r"(?<!n't )(?<!not )speak(?:s|ing)? (?:it|this|that|them|these|those|the|my|our|your|its|@q\d+)\b",
        r"(?:(?<=please )|(?<![a-z] ))say\b(?! *@(?:img|aud|vid))",  # "a photo, say a.jpg": for example
        r"\bvoice (?:it|this|that|them|your|the)\b",
    ]),
    ("text-to-speech", 0.8, [
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
    ("audio-to-audio", 1.0, [
        r"noise (?:reduction|removal|suppression|cancell?ation)",
        r"(?:remove|reduce|eliminate|filter|cut)\w* (?:out )?(?:the |any |all )?(?:background )?(?:noise|"
        r"hiss|hum|static)",
        r"(?:separate|isolate|extract)\w* (?:the )?(?:vocals?|voices?|speech|instruments?|sources?|speakers?)",
        r"(?:change|convert|transform|alter|modify)\w* (?:the |my )?(?:voice|speaker)", r"speech enhancement",
        r"source separation", r"audio[- ]to[- ]audio", r"denois\w*",
        r"without (?:the |any |all |that )?(?:background )?(?:noise|roar|hiss|hum|wind|echo|static|crackle|buzz)",
    ]),
    ("audio-classification", 0.9, [
        r"(?:identify|recogni[sz]e|determine|detect|tell)\w* (?:\w+ ){0,2}?(?:speakers?|who is (?:speaking|talking))",
        r"speaker (?:identification|recognition)", r"who(?:'s| is| was) (?:the (?:person|one|man|woman|voice) )?(?:speaking|talking)", r"(?:voice )?commands? (?:\w+ ){0,3}?(?:given|spoken|said)",
        r"(?:sound|audio) (?:event|category|class|type|label)s?",
    ]),
    # language
    ("translation", 1.0, [
        r"translat\w*", rf"(?:in|into|to) (?:{LANGUAGES})\b",
        rf"(?:reads|speaks|understands|knows) (?:only )?(?:{LANGUAGES})\b",
        r"in(?:to)? (?:another|a different|other) languages?",
    ]),
    ("summarization", 1.0, [
        r"summar\w*", r"synopsis", r"recap\w*", r"tl;? ?dr", r"key (?:points|takeaways|ideas)",
        r"main (?:points|ideas)", r"\bgist\b", r"condens\w*", r"shorten\w*", r"boil (?:\w+ )?down", r"abridg\w*",
        r"(?:short|brief|concise|condensed|shorter|compact|quick) (?:version|overview|account|digest)",
        r"in a (?:few|couple of) (?:sentences|lines|words)", r"essentials", r"the essence", r"highlights",
        r"in a nutshell", r"too long", r"cut (?:it |this |that |them )?down",
        r"(?:to|in|into) (?:just )?one (?:line|sentence)",
    ]),
    ("token-classification", 1.0, [
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
    ("text-classification", 0.8, [
        r"sentiment", r"(?:positive|negative)(?: or| vs\.?)",
        r"(?:emotion|tone|mood|attitude|polarity|intent|topic) (?:of|in|behind) (?:the|this|that|my)", r"spam",
    ]),
    ("sentence-similarity", 1.0, [
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
    ("conversational", 0.8, [
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
    ("conversational", 0.9, [
        r"conversation(?:al)? (?:text|response|reply|replies|answer|message|turn)s?\b",
    ]),
    ("text-generation", 0.7, [
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
    ("text-generation", 0.8, [
        # "the written text" is a text that exists: 'written' before its noun asks for nothing
        r"(?:generat|creat|produc|writ(?!ten\b)|compos)\w* (?:me )?(?:a |an |some |the |"
        r"new )?(?:(?!conversational)[\w-]+ ){0,2}?(?:text|stor(?:y|ies)|poem|essay|article|paragraph|continuation|sentences|"
        r"dialogue|script|lyrics|tweet|post|content)\b",
    ]),
    ("text2text-generation", 0.8, [
        r"paraphras\w*", r"rewrit\w*", r"rephras\w*", r"reword\w*", r"simplif\w*", r"correct (?:the )?grammar",
        r"proofread\w*",
    ]),
    # vision
    ("object-detection", 0.9, [
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
    ("image-segmentation", 1.0, [
        r"segment\w*",
        r"(?:separate|split|divide|partition|isolate)\w* (?:\w+ ){0,4}?(?:regions|parts|segments|objects|"
        r"areas|foreground|background|layers)",
        r"\bmasks?\b", r"pixel[- ]level", r"(?:each|every) pixel", r"cut[- ]?out",
        r"pixel[- ]?(?:wise|by[- ]pixel)", r"per[- ]pixel", r"(?:panoptic|semantic|instance) (?:\w+ )?(?:analysis|map|labell?ing|parsing)",
        r"(?:its|their) own (?:region|area|segment)s?", r"isolat\w* (?:\w+ ){0,3}?from (?:the )?(?:rest|background|surroundings)",
        r"outlin\w* (?:each|every|the|all|of)", r"boundar(?:y|ies) (?:of|between)",
        r"distinguish\w* (?:\w+ ){0,3}?(?:objects|regions|areas|elements|parts|segments)",
    ]),
    ("family:segment", 0.8, [
        r"break\w* (?:[\w@]+ +){0,4}?(?:up|down|apart) into", r"break\w* (?:up|down|apart) (?:[\w@]+ +){0,5}?into",
        r"(?:different|distinct|individual|separate|various) (?:parts|regions|areas|segments|sections|zones)",
        r"(?:each|every|all) (?:\w+ ){0,3}?(?:separately|individually|one by one)",
    ]),
    ("depth-estimation", 1.0, [
        r"depth", r"how far", r"(?:nearer|closer) to (?:the )?(?:camera|viewer|lens)",
        r"(?:further|farther) (?:back|away)", r"distances? (?:\w+ ){0,3}?(?:from|to) the camera",
        r"\b3d (?:structure|layout|information|perception|shape|map)",
        r"(?:near|close)\w* (?:and|or|vs\.?|versus) (?:far|distant)", r"spatial (?:layout|arrangement|structure)",
    ]),
    ("image-to-text", 1.0, [
        r"caption\w*", r"\bocr\b", r"image[- ]to[- ]text", r"what (?:text|words|writing) (?:is|are) (?:written|printed|shown)",
        r"(?:extract|read|recogni[sz]e|get|pull|copy|grab)\w* (?:out )?(?:the |any |all )?(?:printed |"
        r"written )?(?:text|words|writing|characters|letters)\w* (?:\w+ )?(?:from|in|on|off|of)",
        # "identify any text on the sign": text found on a picture is read from it
        r"(?:identify|detect|find|spot|pick out|recogni[sz]e|read)\w* (?:the |any |all )?(?:text|words|writing|"
        r"inscriptions?|lettering)\w* (?:\w+ ){0,2}?(?:from|in|on|of) (?:the |this |that |its |my |an? )?(?:[\w-]+ )?"
        r"(?:images?|photo(?:graph)?s?|pictures?|signs?|posters?|screenshots?|scans?|@img)\b",
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
    ("text-to-image", 0.8, [
        r"(?:draw|paint|sketch|illustrate|visuali[sz]e)s?\b", r"text[- ]to[- ]image",
    ]),
    ("text-to-video", 0.8, [
        r"text[- ]to[- ]video", r"animat\w*",
        r"(?:video|clip|animation|movie|film|footage) (?:of|showing|depicting|that shows|based on|from|"
        r"illustrating|about|representing)",
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
    ("image-to-image", 0.8, [
        r"style (?:transfer|of)", r"in the style of", r"(?:variation|variant)s? of", r"image[- ]to[- ]image",
        r"(?:cartoon|anime|sketch|watercolou?r|oil[- ]painting|black and white|vintage|sepia|pixel art|"
        r"comic)[- ](?:style|version|look|effect)",
        r"manipulat\w*", r"super[- ]?resolution", r"target (?:image|style|domain)",
        r"characteristics of (?:another|a target|the target)",
        r"(?:as|into|like) (?:an? )?(?:cartoon|anime|watercolou?r|oil painting|pixel art|comic)", r"colori[sz]\w*",
    ]),
    ("image-editing", 0.7, [
        r"\bedit\w*",
        r"(?:add|remove|replace|erase|insert|swap|delete|change|recolou?r)\w* (?:\w+ ){0,5}?(?:in|to|from|on|"
        r"into|with) (?:the |this |that |my |its )?(?:image|photo|picture|scene|background|foreground|@img|"
        r"sky)",
        r"make the (?:\w+ ){1,2}(?:look|appear|more|less|brighter|darker|blue|red|green|purple)", r"background",
    ]),
    ("image-editing", 0.8, [
        r"(?:change|turn|make|paint|recolou?r|colou?r)\w* (?:the |its )?(?:\w+ ){0,4}?(?:to|into) (?:a |"
        r"an )?(?:red|blue|green|yellow|black|white|purple|pink|orange|brown|gr[ae]y|golden|silver|bright|"
        r"dark)\b",
        r"(?:add|insert|put|place|remove|erase|delete|replace|swap)\w* (?:a |an |the |"
        r"some )?(?:\w+ ){0,3}?(?:to|in|into|on|onto|from|with) (?:the )?(?:image|photo|picture|scene|"
        r"background|foreground|@img)",
    ]),
    ("family:edit", 0.7, [
        r"instead of", r"(?:would|could|might) look (?:\w+ )?(?:better|great|nicer|good) (?:with|if)",
    ]),
    ("audio-classification", 0.8, [
        r"(?:recogni[sz]|identif|detect|determin|tell)\w* (?:\w+ ){0,3}?(?:sounds?|noises?|audio (?:type|"
        r"content|category))\b",
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
    # ControlNet-style conditions (our tasks; not in TaskBench's tool list)
    ("openpose-control", 0.7, [
        r"\bpose\b", r"skeleton", r"key ?points", r"openpose",
    ]),
    ("openpose-text-to-image", 0.9, [
        r"(?:in|with|using|following|matching|keeping) (?:exactly |the )?(?:same|that|this|its) pose",
    ]),
    ("canny-text-to-image", 0.9, [
        r"(?:in|with|using|following|matching|keeping) (?:exactly |the )?(?:same|that|this|its) (?:edges?|"
        r"outlines?|contours?)",
    ]),
    ("hed-control", 0.8, [
        r"\bhed\b", r"soft[- ]edges?", r"holistic(?:ally)?[- ]nested",
    ]),
    ("mlsd-control", 0.8, [
        r"\bm-?lsd\b", r"straight[- ]lines?", r"line (?:map|segments)",
    ]),
    ("scribble-control", 0.8, [
        r"\bscribbles?\b",
    ]),
    ("canny-control", 0.7, [
        r"\bcanny\b", r"edge (?:map|detection)", r"\bedges\b",
    ]),
]
