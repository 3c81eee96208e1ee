"""A phrasebook: many ways a user asks for each task, generated from our own templates.

Cues (lexicon.py) are precise but miss indirect wording ("I want to understand how far
things are in the photo"). The phrasebook covers that: for each task a few verbs or goals
and the things they act on, expanded into short clauses, indexed with TF-IDF. A clause of a
request that no cue claimed is matched against it (`PhraseClassifier.classify`); a close
enough match names the task. Every phrase here was written from the task definitions in
core/tasks.py, not taken from any benchmark.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from functools import lru_cache

from langchain_hugginggpt.planning.bank import terms

IMG = ["@IMG", "the image", "the photo", "the picture", "this photograph"]
AUD = ["@AUD", "the audio", "the recording", "the audio clip", "the voice message"]
TXT = ["@Q0", "the text", "this passage", "the sentence", "the article"]
DOC = ["the document @IMG", "the scanned form", "the receipt", "the invoice image"]
TAB = ["the table @IMG", "the spreadsheet image", "the tabular data", "the table image"]

# task -> list of (templates, objects): each template's "{}" takes each object.
PHRASES: dict[str, list[tuple[list[str], list[str]]]] = {
    "image-classification": [(["classify {}", "what category does {} belong to", "recognize what is shown in {}",
                               "identify the main subject of {}", "label {} with a category",
                               "figure out what kind of thing is in {}", "determine the class of {}"], IMG)],
    "object-detection": [(["detect the objects in {}", "find and locate every item in {}",
                           "draw bounding boxes around things in {}", "identify the objects present in {}",
                           "count the items that appear in {}", "spot the people and vehicles in {}",
                           "point out where the objects are in {}"], IMG)],
    "image-segmentation": [(["segment {}", "split {} into regions", "separate the foreground from the background of {}",
                             "divide {} into its distinct parts", "create a mask for each region of {}",
                             "isolate the different objects in {} pixel by pixel", "partition {} into segments",
                             "outline each area of {}"], IMG)],
    "depth-estimation": [(["estimate the depth of {}", "how far away things are in {}",
                           "make a depth map from {}", "work out the distance of objects from the camera in {}",
                           "understand the 3D layout of {}", "which parts of {} are close to the camera and which are distant"], IMG)],
    "image-to-text": [(["describe {}", "write a caption for {}", "tell me what is in {}", "read the text written on {}",
                        "extract the words printed in {}", "generate a description of {}",
                        "turn {} into a sentence", "explain what {} shows"], IMG)],
    "visual-question-answering": [(["answer a question about {}", "what color is the car in {}",
                                    "how many people are standing in {}", "is there a dog in {}",
                                    "ask something about what appears in {}", "what is the person holding in {}"], IMG)],
    "document-question-answering": [(["answer a question about {}", "what is the total amount on {}",
                                      "find the date written on {}", "who signed {}",
                                      "look up a detail in {}", "extract the requested information from {}"], DOC)],
    "tabular-classification": [(["classify the rows of {}", "predict the category of each record in {}",
                                 "categorize the entries in {}", "label the data in {}"], TAB)],
    "text-to-image": [(["generate an image of {}", "draw a picture of {}", "create an illustration showing {}",
                        "visualize {} as a picture", "make artwork depicting {}", "paint {}"],
                       ["a sunset over the sea", "@Q0", "the description", "it", "a cat on a sofa"])],
    "image-to-image": [(["transform {} into a new style", "enhance the quality of {}", "make a variation of {}",
                         "upscale {}", "restyle {} as a painting", "convert {} into a sketch",
                         "improve the resolution of {}", "turn {} into another image"], IMG)],
    "image-editing": [(["edit {} so the sky is purple", "remove the person from {}", "add a hat to the man in {}",
                        "change the background of {}", "replace the car in {} with a bike",
                        "modify {} following the instruction", "make the walls of {} blue"], IMG)],
    "text-to-video": [(["make a video of {}", "generate a clip showing {}", "animate {}",
                        "create a short film about {}", "produce footage depicting {}"],
                       ["a dog running on a beach", "@Q0", "the story", "it", "the description"])],
    "video-classification": [(["classify {}", "what is happening in {}", "label the action in {}"],
                              ["@VID", "the video", "the clip"])],
    "automatic-speech-recognition": [(["transcribe {}", "write down what is said in {}", "convert {} to text",
                                       "turn the speech in {} into words", "get a transcript of {}",
                                       "figure out what people say in {}", "what does the speaker say in {}"], AUD)],
    "text-to-speech": [(["read {} aloud", "convert {} into speech", "narrate {}", "make an audio version of {}",
                         "say {} out loud", "I want to hear {}", "create a voice recording of {}"],
                        TXT + ["the summary", "the result", "it"])],
    "audio-classification": [(["classify {}", "what kind of sound is in {}", "identify the sound events in {}",
                               "recognize the emotion of the speaker in {}", "which language is spoken in {}",
                               "detect the genre of {}", "tell what category {} belongs to",
                               "recognize the command spoken in {}"], AUD)],
    "audio-to-audio": [(["remove the background noise from {}", "enhance the quality of {}", "clean up {}",
                         "separate the voices in {}", "denoise {}", "make {} sound clearer",
                         "change the voice in {}", "improve the sound of {}"], AUD)],
    "translation": [(["translate {} into French", "convert {} to Spanish", "put {} into another language",
                      "render {} in German", "I need {} in Japanese"], TXT + ["the result", "it"])],
    "summarization": [(["summarize {}", "give me the key points of {}", "shorten {}", "condense {} into a few lines",
                        "write a brief overview of {}", "what is the gist of {}"], TXT + ["the transcript", "it"])],
    "text-classification": [(["classify {}", "what is the sentiment of {}", "is {} positive or negative",
                              "detect the emotion expressed in {}", "categorize {} by topic",
                              "determine whether {} is spam", "analyze the tone of {}"], TXT + ["the review", "it"])],
    "token-classification": [(["find the named entities in {}", "tag each word of {}", "extract the people and places "
                               "mentioned in {}", "identify the names, dates and organizations in {}",
                               "label the parts of speech in {}", "pick out the key terms in {}"],
                              TXT + ["the transcript", "it"])],
    "question-answering": [(["answer the question using {}", "based on {}, who won the match",
                             "find the answer in {}", "according to {}, when did it happen",
                             "use {} to answer my question", "look up the answer to the question in {}"],
                            TXT + ["the transcript", "the context", "the result"])],
    "sentence-similarity": [(["how similar are {} and the other sentence", "compare the meaning of {} with the second text",
                              "check if {} means the same as the other one", "measure the semantic similarity of {}",
                              "score how closely {} matches the reference"], TXT + ["the two sentences", "both texts"])],
    "conversational": [(["chat with me about {}", "reply to {} as an assistant", "respond to {} in a friendly way",
                         "give a natural reply to {}", "continue the dialogue about {}"],
                        ["@Q0", "my message", "the result", "it"])],
    "text-generation": [(["write a story about {}", "continue {}", "generate text based on {}",
                          "compose a poem about {}", "expand {} into a paragraph", "complete {}",
                          "come up with a short article on {}"], TXT + ["the caption", "it", "a dragon"])],
    "text2text-generation": [(["paraphrase {}", "rewrite {} in simpler words", "rephrase {}",
                               "correct the grammar of {}", "reword {}"], TXT + ["it"])],
}


@lru_cache(maxsize=1)
def phrases() -> list[tuple[str, str]]:
    """Every (clause, task) pair the templates expand to."""
    return [(template.format(obj), task) for task, groups in PHRASES.items() for templates, objects in groups
            for template, obj in itertools.product(templates, objects)]


class PhraseClassifier:
    """Nearest phrases by TF-IDF cosine over word stems and stem pairs; tasks voted by the top k."""

    def __init__(self, tasks: list[str] | None = None, k: int = 5) -> None:
        pairs = [(p, t) for p, t in phrases() if tasks is None or t in tasks]
        self.tasks = [t for _, t in pairs]
        docs = [Counter(terms(p)) for p, _ in pairs]
        df = Counter(term for doc in docs for term in doc)
        self.idf = {term: math.log((1 + len(docs)) / (1 + n)) + 1 for term, n in df.items()}
        self.vectors = [self._vector(doc) for doc in docs]
        self.postings: dict[str, list[int]] = {}
        for i, vec in enumerate(self.vectors):
            for term in vec:
                self.postings.setdefault(term, []).append(i)
        self.k = k

    def _vector(self, counts: Counter) -> dict[str, float]:
        vec = {t: (1 + math.log(c)) * self.idf[t] for t, c in counts.items() if t in self.idf}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        return {t: v / norm for t, v in vec.items()}

    def classify(self, clause: str) -> list[tuple[str, float]]:
        """Tasks with their mean similarity over the k nearest phrases, best first."""
        query = self._vector(Counter(terms(clause)))
        scores: dict[int, float] = {}
        for term, weight in query.items():
            for i in self.postings.get(term, ()):
                scores[i] = scores.get(i, 0.0) + weight * self.vectors[i][term]
        top = sorted(scores.items(), key=lambda s: -s[1])[: self.k]
        votes: dict[str, float] = {}
        for i, s in top:
            votes[self.tasks[i]] = votes.get(self.tasks[i], 0.0) + s / self.k
        return sorted(votes.items(), key=lambda v: -v[1])
