"""Planning quality and speed on TaskBench (Hugging Face tools domain), written to docs/benchmarks.md.

    python bench/bench_planning.py                      # retrieval and learned planners on hf_dev.jsonl and the fresh set
    python bench/planning_cv.py [--folds writer]       # first: corpus cross-validation (its results go in the section)
    python bench/bench_planning.py --llm local          # also SmolLM2 through the LLM chain, with and without retrieval help
    python bench/bench_planning.py --no-write           # print only

Only the "Planning (TaskBench)" section of docs/benchmarks.md is replaced; other sections stay.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

from langchain_hugginggpt.planning.taskbench import HF_DEV as DATA  # noqa: E402 (shipped with the package)
from langchain_hugginggpt.planning.taskbench import HF_TOOLS  # noqa: E402
from docs_section import replace_section  # noqa: E402 (bench/, beside this script)

ROOT = Path(__file__).resolve().parents[1]
# Requests written for this project without reading the development sample or the planner (same tools).
FRESH = ROOT / "bench" / "data" / "fresh_hf.jsonl"
# requests that decline a step ("don't caption it, just..."), written apart; B was never read while tuning
DECLINED = {f"declined steps {part.upper()}": ROOT / "bench" / "data" / f"declined_steps_{part}.jsonl" for part in "ab"}
# requests written the way TaskBench's generator was asked to write, for choosing settings (never trained on)
GENERATOR_DEV = ROOT / "bench" / "data" / "generator_dev" / "dev.jsonl"
DOC = ROOT / "docs" / "benchmarks.md"
RESULTS_DIR = ROOT / "bench" / "data"
HEADING = "## Planning (TaskBench)"
OFFLINE = ("retrieval", "learned")

NOTES = """How the retrieval planner works (planning/): task cues written from the task definitions (lexicon.py;
typed families such as "classify", "generate" or "segment" resolve to a task by the modality they act on, families.py),
question detection (a polite "could you ...?" is a request unless it asks to learn something), a phrasebook
(phrasebook.py: ~900 short clauses expanded from our own templates) matched by TF-IDF against each clause no cue
claimed (threshold 0.3), argument extraction (files and URLs by type, quoted text, the question asked), and
dependencies (wiring.py) from the tasks' input/output types and the wording: in a multi-step request each step takes
the output of the nearest earlier step that produces its input type, unless the wording makes it a sibling ("also",
"the same image"); words that name an earlier output ("based on the summary", "the transcript", "post-editing") link
to it; "X it by Y-ing" runs Y first; a goal stated first and asked for again as a later step runs at the later place.
The example bank (prompts/examples/, requests we wrote ourselves) serves few-shot selection for the LLM chain, the
narrowed task list, the confidence, and a task for a named file no step reads.

Targets from issue 5 (node F1 >= 70, edge F1 >= 35, median <= 50 ms, no invalid plan): met on the development
sample, and on each half of it. How: every change was measured on both halves (even/odd lines) and kept only when
neither half went down and the total went up. Session of 2026-11-22, from 63.80/27.00 (even 62.20/20.22, odd
65.32/33.51): polite requests that name a task are no questions -> 64.37/27.45; then four lines of work on branches,
merged: question detection and which question task (VQA false positives 20 -> 10) -> 66.77/29.94 alone; text tools
in chains (what asks for speech, a reply, new text, a description) -> 67.58/32.20 alone; cues for segmentation,
audio and token classification, similarity with one side named, pictures to make -> 68.79/32.19 alone; edges from
wording -> 64.37/32.60 alone (nodes unchanged). Merged: 73.92/43.55 (even 71.56/37.99, odd 76.16/48.70).
Measured and not kept (one half down): a polite question counting only when the request names no other task; a
wider image/recording-to-text bridge; chaining only from the step just before; an edit after an annotator taking the
original picture; the noun inside a cue as every family's modality; "describe" skipping nouns it cannot act on.
Earlier sessions' rejected variants (phrasebook thresholds and pieces, cues across a file's padding) stay rejected.
Earlier, all-MiniLM-L6-v2 similarity between request segments and a phrasebook added tasks with ~15% precision at
~35 ms per request; nearest-example task votes from the bank had under 10% precision; for choosing demonstrations,
MiniLM over the bank covered the gold tools no better than TF-IDF at ~100x the time, so the bank is searched with
TF-IDF (`ExampleBank(embeddings=...)` switches to MiniLM + FAISS).
How the development sample was used: measurements only (overall, per half, per tool hit/miss counts, which cues
fired, per-request tool lists when a rule changed the plans). No request from it is in the bank, the phrasebook, the
tests or the code, and no wording from it was added to the cues; each new cue or rule was written from the task
definitions and has probe requests of our own in tests/planning/.
The fresh set (bench/data/fresh_hf.jsonl: 80 requests, 30 single, 38 chain, 12 DAG, all 23 tools, TaskBench's
format) was written for this check by an engineer who read only the tool list, the tool graph and TaskBench's
description: not the development sample, the planner, its cues or its tests. It shows how much of a gain tuned on
the development sample carries to wording nobody tuned on. The planner as it was before the session of 2026-11-22
(commit 673a688) scored 75.34 / 45.90 node / edge F1 there (arg-value 56.32); the gain on the fresh set is about
+4 node and +6 edge, well under the +10 / +16 on the development sample: part of that gain is fitted to its
wording, part carries over. Its requests are cleaner than TaskBench's (no tool names outside the list, one reading
each), so its absolute numbers run higher than the development sample's.
"""

LEARNED_NOTES = """The learned planner (planning/learned.py; `auto`, the agent's default offline planner where the
`planner` extra is installed, else the retrieval planner): the rules propose tasks and a task detector trained on the
back-instruct corpus (prompts/corpus, 8,000 requests, twenty-eight writers in seven rounds of voices) and, since
2026-11-29, on 7,137 of TaskBench's own requests labelled by our readers, each counting 0.3 of a corpus row (see
"Planning on TaskBench's own requests"; the tables of settings below were measured on the model before) decides. Its evidence
for each task (detector.py): two learned scorers (taskset.py: TF-IDF over words 1-2 and characters 2-5 with quotes and
files masked to their kind, and the packaged all-MiniLM-L6-v2 embedding, each with one logistic regression per task),
each read on the whole request and on its best clause (a long, chatty request dilutes a task's words in one vector; its
clause does not); whether a cue or an implied result found the task, the cue's weight and its precision learned on the
corpus; how many tasks the rules found; whether a named file fits the task; a bias per task. A logistic regression (the
stacker) weighs these. It is trained on out-of-fold evidence: each writer's rows are scored by scorers trained on the
other writers only, so it learns how far each scorer can be trusted on wording it has not seen. The planner keeps a
task the rules found unless the detector scores it under 0.1 and adds a task over 0.7; a veto never empties the rules'
plan; a task whose input nothing in the request gives gets the likeliest task that makes it from a file no chosen task
reads ("...tell me about beach.png in a spoken clip" gets a step that reads the photo before the speech: a caption
with the rounds 1-6 model, a class label with round 7's, which reads "work out what is in my photo" as a category,
as the fresh set's gold reads "work out what dish it is"); a request whose every task
scores under 0.05 asks for nothing ("Hello!": no plan); one whose chosen tasks cannot run gets the likeliest task that
can, among those scored 0.05 or more (empty plans: 1 of 146 on hf_dev, a request to talk about a topic that scores
every task under 0.05; none on the fresh set). Slots and links: the retrieval planner's wiring, then the link model
(links.py, below). `hugginggpt train planner` retrains both (planning/models/task_detector.npz and link_model.npz: arrays only, loaded with `allow_pickle=False`, so the file runs
no code and reads under any scikit-learn release; it records the rules it was trained beside).

As the agent's planner it is told what the deployment can run (`for_deployment(can_run)`; the agent asks its candidate
source whether a real model, not a labelled stand-in, serves the task): the detector adds, or puts in a rule's place,
only a task that can run. It reads "look at street.jpg and tell me how many people are in it" as visual question
answering, as TaskBench and our corpus do; offline no model answers visual questions, so the rules' object detector counts them, and with a
VQA model (an expert cluster, HF Inference) the question goes to it. TaskBench runs (`hugginggpt eval taskbench`) plan
with every task runnable.

Rules retired: each rule source was left out of the learned planner in turn and the detector retrained without it
(`python bench/planning_cv.py --ablate`, folds by writing round; table below). The bridges to text, the phrasebook
and the unread-file rule each moved node, edge and arg-value F1 by 0.1 or less: they do not measurably help on wording
they were not written from, so the learned planner reads only the cues and the implied results
(LEARNED_RULE_SOURCES). Across rounds that gives 93.80 / 73.37 / 74.52 node / edge / arg-value F1, against 93.59 /
73.34 / 74.42 with every rule. The retrieval planner keeps every rule: without the phrasebook it would score 87.27 /
69.12 on the corpus instead of 86.52 / 68.57, but it is the baseline the hf_dev history below describes.

How it was chosen, without hf_dev or the fresh set: cross-validation holding out one writing round at a time (each
round has its own writers and voices: a wording shift like the one between our corpus and real users), and the
example bank (prompts/examples: our own requests, which the rules were written beside; it favours the rules). Tables
below. The detector alone beats the rules by ~7 node F1 across rounds but loses on the example bank; letting the
rules propose and the detector veto and add (0.1 / 0.7) is as good across rounds and closest to the rules on the
bank, so it is the learned planner's setting. Each scorer alone is worse than the rules on both. Earlier candidates
that lost: the classifier alone on whole requests (hf_dev 49.5 node F1: long requests diluted it), nearest-neighbour
plan retrieval. hf_dev and the fresh set were scored once for the shipped setting (table above). Links still come
from the wiring rules: with the gold tasks given they score 80.5 edge F1 on rounds 2-3, 65.3 on hf_dev, 76.6 on the
fresh set. Tried and not kept, each a gain on the corpus that did not carry over: a learned re-ranker of which earlier
output feeds a linked slot (80.48 -> 80.82 on rounds 2-3 with the gold tasks); a learned decision to link a slot the
rules filled with a file or quote (80.48 -> 82.64 there, but hf_dev edge F1 39.31 -> 38.44 and the fresh set 61.54 ->
61.67); joining a plan left in separate pieces (corpus plans, like TaskBench's, are one connected graph): a slot
holding the whole request, a literal the other piece reads, or words the planner picked itself (never a file or quote
the user named) takes another piece's output. With the gold tasks it raised corpus edge F1 82.56 -> 85.02, with the
learned planner 80.17 -> 81.81 (in-sample detector); but on hf_dev 12 of the 13 links it added were wrong (edge F1
39.53 -> 38.64) and on the fresh set 3 of 5 (66.09 -> 66.67): joining helps only where the tasks are already right.

Round 4 (2026-11-27): 800 more rows in two voices that say a question, an edit or a scene as an errand or a wish
("work out how many lanes the road has") instead of quoting it, as every earlier round does; the detector was
retrained on all 5,600 rows. Does a round help on wording it was not written in? With each earlier round held out in
turn and the planner trained on the other earlier rounds without and with round 4 (`python bench/planning_cv.py
--round-gain 4`; table below), it gains on every held-out round (+0.6 / +0.8 / +0.8 node / edge / arg-value F1 in
all). Against the model trained on rounds 1-3, the fresh set went from 88.26 / 66.09 / 74.30 to the figures in the
table at the top (89.75 / 67.24 / 75.08) and hf_dev from 73.57 / 39.53 / 42.81 to 72.76 / 37.61 / 41.56: there the
new model's task set is better on 3 requests and worse on 5, within what chance moves on 146 requests. A question
asked as an errand in TaskBench's wording ("figure out the predominant color of the object displayed within it")
still reads as object detection: its nouns outweigh what round 4 taught. The retrained detector plans no slower: the
old and new ones, interleaved request by request on hf_dev in one run on a machine ~2.8x slower than the last
session's (the rules' median 4.78 ms against 1.68), took 45.79 and 47.27 ms median.

Round 5 and two wiring repairs (2026-11-27, later session). Two changes to how a plan is put together, each a
fix of what the planner did with tasks it had already chosen: a step that cannot run (a comparison with no second
text) no longer takes down the steps that used its output; they fall back to a quote no step uses, the request's words
or its file, and stay in the plan. And a text step counts as fed only by a step that is itself fed: a named-entity
step followed by a summary, with a scan named and no text quoted, gets a step that reads the scan (before, the
summary's text output counted as its input). With the detector trained on rounds 1-4: hf_dev 72.76 / 37.61 / 41.56
-> 73.77 / 39.05 / 42.51, the fresh set 89.75 / 67.24 / 75.08 -> 90.14 / 66.67 / 75.46, and held-out round 4 (the
detector trained on rounds 1-3) 94.52 / 74.61 / 68.25 -> 94.52 / 74.52 / 68.19: unchanged on the corpus, where the
rules' failures they repair are rare. Then 800 more rows in two voices that say each step loosely, by what it does to
the data or by the product it serves ("extract the written content", "make sense of this table"), the way an LLM
asked to write a detailed request for a tool graph words it; the detector was retrained on all 6,400 rows.
Does it help on wording it was not written in? With each earlier round held out in turn and the
planner trained on the other earlier rounds without and with round 5 (`python bench/planning_cv.py --round-gain 5`;
table below): 94.73 / 74.58 / 74.46 -> 95.16 / 75.16 / 74.89 node / edge / arg-value F1 over the 5,600 held-out rows.
Against the rounds 1-4 model with the same code, hf_dev went from 73.77 / 39.05 / 42.51 to the
figures at the top (75.56 / 38.24 / 43.18: 6 more gold tasks found, 5 fewer wrong, the links about even) and the
fresh set from 90.14 / 66.67 / 75.46 to 89.12 / 68.38 / 74.16. The MiniLM scorer now embeds a request and its
clauses in batches of like length (a clause padded to the whole request's length cost the model several times its
tokens; vectors equal to 3e-8). Planning time, the four combinations interleaved request by request on hf_dev in one
run on a quiet machine: rounds 1-4 model with one padded batch 46.67 ms median, rounds 1-5 model with one padded batch
44.81, rounds 1-4 by length 42.89, rounds 1-5 by length 43.59: the new model costs no time and the batching saves ~8%.
The median in the table at the top is from the bench's own run; two runs of the bench on the same machine and code
gave 57.15 and 49.77 ms: run to run, the median moves by more than these differences. Where the links go wrong: with the
gold tasks given (table below), the wiring rules score 82.11 edge F1 on round 4, 72.12 on round 5, 66.67 on hf_dev and 77.52 on the
fresh set. Round 5's loose wording is harder to wire, as TaskBench's is; on its first 400 rows the commonest miss is a
step that takes a file or the request's words where the plan feeds it an earlier output (115 of 213 missed links),
then a link from the wrong earlier step (70). It is a development set on our side for learned wiring.

Learned links (2026-11-27, third session): the link model (planning/links.py) takes a second look at every link
the wiring rules made. For each step and each other step whose output fits one of its slots, a logistic regression
gives P(the step takes that output) from the rules' own choice (one feature among others), where the two steps are
named (next to each other, one clause, how many steps apart, which comes first), the last words between them and the
first words after the step ("then", "also", "the caption"), whether the step has a file or quote of its own, whether
its words name the other step's output, and the pair of tasks. A rules' link under 0.4 moves to the likeliest other
step over 0.5, else gives way to the request's own file or an unused quote (where there is none it stays); a slot the
rules filled from the request takes an earlier output over 0.5. It learns from the gold links of every corpus row,
its gold task set placed and wired by the planner (4,174 features, 44 kB). Chosen without hf_dev or the fresh set: on
round 5 held out with the gold tasks given (model trained on rounds 1-4) the rules score 72.12 edge F1 and the model
76.44 / 76.60 / 76.21 at keep/add 0.5/0.5, 0.4/0.5, 0.3/0.6; on round 4 held out 82.11 against 85.27-85.29. Without
the word features it scores 76.10 and 85.28 on the two rounds, without the task pairs 75.28 and 84.54, so both stay.
End to end on round 5 held out (detector and link model trained on rounds 1-4): 93.52 / 63.56 / 62.76 node / edge /
arg-value F1 with the rules' links, 93.52 / 67.32 / 65.50 with the model. With the shipped detector, hf_dev went from
75.56 / 38.24 / 43.18 to 75.56 / 39.05 / 44.15 and the fresh set from 89.12 / 68.38 / 74.16 to 89.12 / 67.77 / 74.77:
about a fifth of the corpus gain carries over to TaskBench's wording, as with the two link re-rankers tried before
(above). Each round held out in turn (`python bench/planning_cv.py --links`; table below), gold tasks given, the model
gains on every round: edge F1 83.52 -> 86.99, 79.88 -> 83.08, 81.90 -> 85.09, 82.11 -> 85.07, 72.12 -> 76.60 on rounds
1-5, 81.28 -> 84.74 over all 6,400 rows (arg-value 79.16 -> 82.11). With the gold tasks given, the shipped model
moves hf_dev from 66.67 to 67.18 edge F1 and the fresh set from 77.52 to 80.30 (arg-value 83.19 -> 84.96). A retrain of the
detector on this machine gave a slightly different model (hf_dev 75.16 / 38.69 / 43.58 with links, the fresh set
89.82 / 67.77 / 75.61: training is the same up to floating-point rounding); the shipped detector is the session
before's. The link model costs 0.3 ms a plan: 43.47 against 43.13 ms median, with and without it, interleaved request
by request on hf_dev on a quiet machine (the bench's median at the top moves more than that from run to run: the
rules alone took 5.08 ms in one run against 2.93 in the last). Ready time: importing the learned planner no longer
loads LangChain's tool classes and tracers, the model catalog or httpx (the tools and retriever packages export their
names lazily, as the agent package does). In new processes on this machine, seven of each interleaved, a plan was
ready in 1.94 s median, against 2.52 s with those imports added back; scikit-learn's import (which pulls in
scipy.stats) is most of what is left. A single process moves by half a second (the first, on a cold disk cache, took
3.1 s), so the line above is the median of five.

Translation languages (2026-11-27, third session): a translation step now carries the languages the request names in
its optional `target_lang` and `source_lang` slots ("transcribe talk.wav and translate it into German"). Before, a
chained translation got only the earlier step's text, which names no language, so the engine picked its default
pair (Apertium: English -> Spanish) whatever the user asked; now Apertium translates into the named language or
says which pair is missing, and a one-pair hub model (Helsinki-NLP/opus-mt-en-es, local or through HF Inference)
refuses another language by name instead of answering in its own. A many-language model (NLLB, mBART-50,
M2M100), local or through HF Inference, is given both languages in its own codes (`fra_Latn`, `fr_XX`, `fr`), the text taken as
English where only the target is named, and it refuses a language it does not list (fifth session; local models since the sixth). The plan's TaskBench export lists the language as
an argument, as TaskBench's own plans often do ("French"): hf_dev arg-value F1 44.15 -> 45.39 (the rules alone 44.82
-> 45.95). Our fresh set and our example bank were written to the tool list's one-input Translation and never list
one: 74.77 -> 72.57 and 78.40 -> 76.69 there. The slots are there for what the engine does, not for either score.

Round 6 and a lighter load (2026-11-27, fourth session). 800 more rows (shards 24-27, four new writers) in two voices
that pack every step into one long request, as TaskBench's many-step requests do: `enumerated` (what the user has,
then one frame and a run of step phrases, later ones pointing back) and `scenario` (the project told at length, the
asks spread over "also", "moreover", "lastly", some said by what their result is for); the detector and the link
model were retrained on all 7,200 rows (697 s). Does it help on wording it was not written in? Rounds 4 and 5 held
out in turn, the planner trained on the other rounds 1-5 without and with round 6 (table below): 94.30 / 74.09 /
67.98 -> 94.68 / 74.35 / 68.07 node / edge / arg-value F1 over the 1,600 held-out rows. Against the rounds 1-5 model
with the same code, the fresh set went from 89.12 / 67.77 / 72.35 to 90.59 / 68.85 / 72.73 and hf_dev from 75.56 /
39.05 / 45.57 to the figures at the top (74.92 / 38.58 / 44.63: 4 requests' task sets changed, each for the worse;
chance on 146 requests moves that much). Where hf_dev's misses are: of the 106 gold tasks on the tool list the
planner leaves out, the detector scores 79 under 0.05 and 13 more under 0.1, so no threshold reaches them; most are
steps the request never asks for in words (a depth map and a segmentation before "edit its main object to blue", a
question answered before a video "that explains the core message"). The corpus cannot teach those: a second
reading confirms that each corpus request asks for exactly its graph. Planning now applies the fitted TF-IDF without
importing scikit-learn (planning/taskset.py, `FittedTfidf`: the same analyzer, sublinear tf, idf and norm from
the shipped arrays, tested against scikit-learn's own transform); scikit-learn and SciPy took about a second of the
ready time. Seven new processes each, interleaved: ready in 0.89 s median, against 1.79 s with scikit-learn's import
added back. Measured and not kept: joining a plan that falls into unlinked parts by the likeliest link between them
(every multi-task corpus plan is one connected graph). It raised held-out round 5 (rounds 1-4 models) from 67.32 to
68.82 edge F1 and the fresh set from 67.77 to 68.80, but lost on hf_dev (39.05 -> 37.54), where 22 of the 81
multi-task gold plans are themselves two unlinked parts; dropping a weak part first (detector probability under 0.5)
did no better there (38.18). Also measured and not kept: a veto of 0.3 instead of 0.1 (the rules' task dropped
under it). Each of rounds 4, 5 and 6 held out with a detector trained on the rounds before it scored higher with it
(node / edge / arg-value F1 94.52 / 78.27 / 70.38 -> 95.04 / 78.84 / 71.24, 93.52 / 68.50 / 65.39 -> 93.80 / 68.35 /
65.80, 94.03 / 70.10 / 63.64 -> 95.08 / 71.79 / 65.18), but with the shipped detector the fresh set went from 90.59 /
68.85 / 72.73 to 90.21 / 67.77 / 72.35 and hf_dev from 74.92 / 38.58 / 44.63 to 72.17 / 36.20 / 43.13: on wording
further from the corpus the detector is less sure of the tasks the rules rightly found.

A question with nothing to answer it from (2026-11-27, fourth session): question answering needs a text to answer
from, so a question with no text and no file ("Who painted the Mona Lisa?", "could you help me learn more about these
historic marvels?") lost its only step and planned nothing. It now plans one conversational step on the request (both
planners; the plan's confidence stays under 0.6, so a configured LLM still decides), except chit-chat about the
assistant itself ("how are you?", "what can you do?"), which the chat model answers without a plan. hf_dev had one
such empty plan, now none (node F1 74.92 -> 75.12; the rules 75.00 -> 75.18); the fresh set and our example bank had
none and are unchanged.

Measured and not kept (2026-11-27): a third scorer, the packaged MiniLM fine-tuned end to end on the corpus (mean
pooling, one sigmoid per task, 2 epochs; run as int8 ONNX, 23 MB, ~4 ms a request). Alone, trained on rounds 1-3,
it reads TaskBench's wording far better than TF-IDF alone: node F1 at threshold 0.3, 68.03 against 54.91 on hf_dev,
84.25 against 79.55 on the fresh set, 94.13 against 94.94 on the held-out round 4 (the session's first run of the
procedure that `python bench/finetuned_scorer.py` repeats; a rerun of that script was stopped for time). As a fifth
feature of the detector (out-of-fold scores from two groups of writers) the stacker gave it weight 0.26
against TF-IDF's 0.82 + 0.35: it learns its trust from the shift between writers inside the corpus, where TF-IDF does
as well. The planner then scored 73.52 / 37.13 / 41.46 on hf_dev and 89.12 / 67.80 / 74.01 on the fresh set, no better
than without it, and training took 33 minutes (over the 30-minute budget) for a 24 MB model. The fine-tuned scorer
as the whole detector (rules first, 0.1 / 0.7) scored 73.58 / 38.18 / 42.50 and 86.33 / 62.50 / 70.62. None of the
learned task sets moves hf_dev past ~74 node F1: of its 214 gold links 30 name tools outside the tool list, and most
links we miss hang on a tool the request never asks for (an image segmentation before a question about the picture).

Planning time (2026-11-27, fifth session). The MiniLM pass was about two thirds of a plan. The planner now embeds
with all-MiniLM-L6-v2 quantized to int8 (onnxruntime's dynamic quantization, per channel, 7-bit weights so that a
CPU without VNNI computes the same integer products as one with it; made once from the float export in the cache,
23 MB), through a bare onnxruntime session (retriever/minilm_onnx.py), so planning no longer imports LangChain's
Embeddings. Its vectors are within a cosine of 0.99 on average (0.97 at worst) of the float ones on the fresh set's
requests and clauses, and the detector is retrained on them. Measured in one run, interleaved three times on this
machine, float detector + float MiniLM against int8 detector + int8 MiniLM: hf_dev median 50.12 -> 41.25 ms, the fresh
set 37.24 -> 28.37 ms; the fresh set scores the same (90.59 / 68.85 / 88.82 / 72.73) and hf_dev 75.12 / 38.58 / 67.46
/ 44.58 -> 75.04 / 38.94 / 67.37 / 44.73. The example bank's TF-IDF search behind a plan's confidence (132 examples
scored term by term, ~7 ms) now goes through an inverted index (~0.8 ms, the same neighbours and scores), and a plan
reads the cue patterns once instead of twice: the part of a plan outside MiniLM went from 8.5 to 6.2 ms median on
hf_dev, with the same plans.

A generative step's text (fifth session): what a reply, a story or a picture is to be made of was cut from the raw
request at the first punctuation, so a quoted question lost its end ('Reply: "Any tips for night shifts?"' replied to
'"Any tips for night shifts'; 'reply to this: "What would ..."' to '"Wh'). It is now read on the masked request: a
quote is never cut, a content that starts at a quote leaves the quote itself as the text, and it ends before a quote,
a file or a new line. With the shipped model, on all 7,200 corpus requests, arg-value F1 rose or held in every round
(round 1 83.95 -> 84.22, round 5 68.29 -> 68.57, round 6 68.52 -> 68.72), arg-name F1 fell by at most 0.11 (a
whole-request fallback that names a file reads as an image argument to TaskBench's scorer), and hf_dev and the fresh
set score the same. Text pasted after a colon without quotes ("Here is one line: In May 1987 the club ...", "continue this opening: The
last bus ... there., and then ...") is now read as a quote (text.py `pasted_texts`: a colon after a word that names a
text, a capitalised passage, up to a sentence-end and a comma or the first sentence that goes back to asking). It is
not masked, so the models read the same words as before and need no retraining. Such arguments taken whole, of the
corpus's: round 1 425 -> 475 of 648, round 4 32 -> 69 of 127, round 6 64 -> 106 of 157. Every round then scores
equal or higher (arg-value round 2 79.56 -> 80.59, round 4 73.99 -> 75.52, round 6 68.72 -> 70.27; edge round 4 84.44
-> 85.37, round 6 77.53 -> 78.48). The fresh set is unchanged; on hf_dev arg-value F1 falls 44.73 -> 44.50 from one
request, whose "Imagine this: I've written this beautiful short story ..." is read as a pasted passage. The rule was
written from corpus requests (the only data where users paste text this way), so these corpus figures are not a
held-out measure. Sixth session: a passage also follows a colon when the same sentence named the text earlier ("Work
out from this office note how long the password stays valid: The guest network ..."); round 4 arg-value 75.52 ->
75.90, and round 7, written after the rule, 71.33 -> 71.69 (edge 77.49 -> 77.79); no round lower, the fresh set and
hf_dev unchanged.

Measured and not kept (fifth session), each trained on rounds 1-4 and read on rounds 5 and 6 held out (then on the
fresh set and hf_dev): the stacker trained on its evidence plus a copy with the rules' features blanked for half the
rows where a rule fired, so that it learns to trust the scorers where no cue fires (held out 93.21 / 69.32 / 64.74 ->
93.68 / 69.42 / 64.79 node / edge / arg-value F1; fresh 89.75 / 66.67 / 74.03 -> 89.51 / 68.29 / 73.37; hf_dev 74.13 /
39.88 / 44.24 -> 74.29 / 39.77 / 44.50); and a feature for the best-scoring clause in which no rule found a task
(held out 93.27 / 69.23 / 64.51, fresh 90.53 / 68.85 / 74.78, hf_dev 74.02 / 39.30 / 43.95). Neither moved the
held-out rounds beyond noise. On hf_dev the edges are bound by the tasks: of 59 wrong edges, 31 touch a task not in the
gold plan and 21 of the other 28 skip a gold task we missed (A -> C where gold has A -> B -> C); of 148 missed edges,
138 touch a gold task we did not predict.

Round 7 (2026-11-28, sixth session). 800 more rows (shards 28-31, four new writers) in two voices: `nominal` (every
step a noun phrase for what it makes, "a spoken rendition of the summary", in a formal register) and `inquisitive`
(questions as wishes to understand or determine something, the kind of file saying which question tool answers);
both say a text step that writes from a short text result (a label, a list, an answer) as Text Generation. An
independent blind reading of 200 matched all 200. Before any retraining, the shipped model (rounds 1-6) read round 7
at 95.78 / 77.49 / 71.33 node / edge / arg-value F1, against 97.9 / 73.9 / 68.6 on round 5, which it was trained on:
the corpus's wording, even in new voices, is far easier than TaskBench's. Does the round help on wording it was not
written in? Rounds 5 and 6 held out in turn, the planner trained on the other rounds 1-6 without and with round 7
(table below): 94.14 / 70.58 / 66.12 -> 94.31 / 70.82 / 66.33 over the 1,600 held-out rows, higher on every metric.
The detector and the link model were retrained on all 8,000 rows (1,151 s beside other work; 807 s in the
bench's own retrain). Against the rounds 1-6
model with the same code, the fresh set went from 90.59 / 68.85 / 72.73 to 90.53 / 70.00 / 73.37 and hf_dev from
75.04 / 38.94 / 44.50 to the figures at the top (5 of 146 task sets changed: 2 closer to the gold plan, 3 further;
chance moves that much).

Training changes tried in the seventh session (2026-11-28), none kept: each trained on rounds 1-5 and scored on the
held-out rounds 6-7, the fresh set and hf_dev, against the same training unchanged (94.92 / 75.16 / 69.22 node / edge /
arg-value F1 held out; fresh 89.12 / 68.33 / 72.35; hf_dev 74.92 / 38.92 / 44.50). Longer training requests made by
joining two rows of one writer (union of their tasks; 2,966 more rows): held out 94.69 / 74.67 / 68.72, fresh 89.58 /
69.92 / 72.67, hf_dev 73.88 / 38.04 / 43.70. The stacker's out-of-fold evidence by writing round instead of by writer:
94.05 / 74.14 / 68.48, fresh 89.20 / 68.29 / 72.35, hf_dev 74.96 / 40.12 / 44.50. Finer spans for the best-span
evidence (each clause split at commas, "and", colons and question marks): 94.91 / 75.25 / 69.20, fresh 90.59 / 70.49
/ 73.31, hf_dev 74.80 / 38.69 / 44.39. The scorers' C 3 or 30 instead of 10, the stacker's C 0.1 instead of 1: each
within a point of the base on every set, none better on all three. Why hf_dev does not move: of its 214 gold edges the
planner finds 65; of the 149 it misses, 30 name a tool outside the tool list, 79 lack one end among our tasks, 29 lack
both and 11 have both; on requests where our task set equals the gold one, edges score 30 right, 9 missed, 6 extra. Node recall falls
with the plan's size (0.95 for one task, 0.60 for five, 0.58 for six) and 80 of the 107 gold tasks we miss get a
detector probability under 0.05; a reading of 25 of them found most not said in the request (a segmentation before an
edit, a depth map before a caption), the rest said loosely ("express the result in an audible form"). The ninth
session's careful reading of all 146 (below) shows that reading was wrong: most are said, in words the corpus lacks.

A maker from the request's words (2026-11-28, eighth session): a chosen task whose input nothing gives, with no unread
file to start from, now gets the likeliest task that makes that input from text, if the detector scores it 0.05 or
more ("a pictorial rendering of a lighthouse in a storm, followed by a categorisation of the resulting picture": the
picture's class needs a picture, so the drawing comes first). Before, the task was dropped and the chain after it
with it. Trained on rounds 1-5, held-out rounds 6-7 went from 94.76 / 73.85 / 68.22 to 94.96 / 74.29 / 68.43 node /
edge / arg-value F1 (six rows changed, each a whole chain recovered); with the shipped model the fresh set is
unchanged and hf_dev goes from 74.60 / 38.21 / 44.02 to the figures at the top. The first version, with no floor on
the maker's score, drew pictures before document questions and segmentations on hf_dev (74.60 -> 73.75 node F1): the
floor came from that reading of hf_dev, and at 0.05 or 0.1 it changes the held-out rounds alike. Also measured, not kept: the cosine
between each clause's MiniLM vector and each tool's own description in the tool list, as a zero-shot signal for
wording the corpus lacks. It ranks tasks far worse than the detector (AUC 0.83 against 0.93 on hf_dev, 0.87 against
0.999 on held-out rounds 6-7), and the gold tasks the detector misses on hf_dev rank 8th of 23 by it (median).

A careful reading, and clauses no task is asked in (2026-11-28, ninth session). A helper that saw only hf_dev's
requests and the tool list (not the gold plans, not the planner) wrote the plan each request asks for
(bench/data/hf_dev_careful_reading.jsonl; `hugginggpt eval taskbench --score bench/data/hf_dev_careful_reading.jsonl`):
81.19 / 52.55 / 74.88 / 54.46 node / edge / arg-name / arg-value F1, the level of GPT-4's published figures. It found 38
more gold tasks and 39 more gold edges than the planner, with about as many wrong tasks (59 against 53): most gold
tasks the planner misses are said after all, often in one clause of a long request and in words the corpus does not
use ("a tabular interpretation of these depth estimates, which can then inspire a text creation"). There the task's
evidence is diluted in the request-wide scores the stacker leans on (weight 0.87 for TF-IDF on the whole request,
0.37 and 0.17 for the two scorers' best clause). Two changes kept, each measured against the same training (rounds 1-5
models on held-out rounds 6-7, the shipped model on the fresh set and hf_dev): a clause that no chosen task is asked
in adds its own best task where the two scorers rate it at the detector's threshold (0.7; at 0.5 the held-out rounds
lost 0.5 node F1), and a quoted question that ends its sentence ("...: 'What is the Q1's total revenue?' Following
that, ...") ends its clause (the masked quote hid its '?'). Together: held out 94.99 / 74.31 / 68.45 -> 95.03 / 74.58 /
68.49, fresh 90.91 / 71.07 / 74.12 -> 91.67 / 71.54 / 74.85, hf_dev 74.80 / 38.10 / 43.97 -> 75.58 / 38.01 / 44.42
node / edge / arg-value F1: the fresh set gains as much as hf_dev. Ending the clause after any quoted sentence
instead scored the same on the learned planner's sets, but cost the retrieval planner a point on the fresh set (81.08
-> 80.13 node F1) and broke its reading of "a text document saying '...'. On which day is the meeting?", where the
question is about the quote. Tried again, not kept: the stacker's evidence by writing
round (as in the seventh session): held out 94.21 / 73.56 / 67.88, fresh 88.89 / 67.20 / 71.93, hf_dev 74.73 / 39.66 /
44.16.

Clause scorers trained on clauses (2026-11-28, tenth session), not kept. The clause evidence comes from models of whole
requests read on one clause, so a later clause that only names an earlier step's product ("a new image from the edited
one") scores that step as asked. Each scorer got a clause model of its own, trained on the corpus's clauses labelled by
where each task is asked: a row's task goes to the clause the out-of-fold request scorers rate highest for it (and, in
the soft forms, to any other clause they rate 0.5 or 0.7 and over), and a clause with no task teaches what is not an ask.
Trained on rounds 1-5 with four writer folds, against the same training unchanged (node / edge F1):

| variant | held-out rounds 6-7 | declined A | example bank | fresh set | hf_dev |
|---|---|---|---|---|---|
| unchanged | 94.96 / 74.60 | 95.70 / 92.86 | 92.68 / 85.19 | 89.58 / 67.74 | 75.70 / 38.95 |
| clause models, best clause only | 95.68 / 75.73 | 95.70 / 92.86 | 93.44 / 88.68 | 89.20 / 66.67 | 74.25 / 37.43 |
| clause models, also clauses at 0.5 | 95.59 / 74.92 | 95.19 / 91.23 | 92.10 / 84.11 | 89.58 / 68.80 | 75.74 / 39.31 |
| clause models, also clauses at 0.7 | 95.52 / 75.03 | 95.19 / 91.23 | 93.19 / 88.68 | 88.81 / 68.29 | 75.08 / 38.12 |
| both clause readings as evidence, best clause only | 95.72 / 76.00 | 96.22 / 94.55 | 91.51 / 83.81 | 91.93 / 69.42 | 74.29 / 38.71 |

The sets we may choose on (the held-out rounds, declined set A, the example bank) favour the best-clause labels, and
those lose 1.4 node F1 on hf_dev, TaskBench's own wording. A likely cause, not checked: where the corpus asks, a clause of TaskBench's often sets
the scene and asks at once ("an audio recording where the speaker's commands are obscured by noise" asks to clean it),
and the clause models learned such clauses as no ask. The 0.5 form, the only one no worse on hf_dev, is no better on the
sets it could be chosen on. The training code was not kept.

Whether a task is some clause's first (tenth session), not kept. Two more features for the stacker, from the same
clause scores: whether the task is the one the two scorers rate highest in some clause, and how high there (a task
asked in one clause of a long request is that clause's first, however diluted request-wide). Trained on rounds 1-5
with four writer folds, against the same training unchanged (node / edge / arg-value F1): held-out rounds 6-7 94.96 /
74.60 / 68.47 -> 95.06 / 74.69 / 68.56, example bank 92.68 / 85.19 / 79.82 -> 93.44 / 88.68 / 81.17, fresh set 89.58
/ 67.74 / 72.67 -> 90.66 / 68.80 / 74.05, hf_dev 75.70 / 38.95 / 44.94 -> 75.82 / 38.84 / 45.04; the stacker put 1.19
on being first and nothing on the score. Trained on the whole corpus as shipped, though, it scored the fresh set 91.29
/ 70.49 / 75.07 and hf_dev 74.65 / 38.48 / 44.47 against the shipped model's 91.67 / 71.54 / 74.85 and 75.58 / 38.01 /
44.42: within what a retrain moves, no measurable gain on the wording it was not chosen on, so the model stays as it
was.

Declined steps (ninth session). "Don't detect objects in street.jpg, just caption it" planned the detection. A
negation right before a task's cue or before the name of what a step makes (planning/declined.py: don't, no
need to, skip, rather than, instead of, without, no, not, never mind, forget) now blanks those words in the masked
request, for both planners; a negation of anything else ("I don't speak German", "don't forget to", "not only")
stays. Two sets of 60 requests (45 declining a step, 15 controls), written apart by helpers from the tool list alone,
measure it (rows "declined steps" above). Set A took the learned planner from 77.53 / 56.82 to 93.19 / 88.14 node /
edge F1 with the cue rule alone (34 task sets fixed, none broken); the product nouns ("no video", "forget the
summary") were then added after reading A's misses, so A is no longer unseen. Set B, written afterwards in its own
words ("hold off on", "I'll pass on", "minus the voice-over") and never read while tuning: learned 76.72 / 60.00 ->
86.67 / 72.00 (exact task sets 18 -> 37 of 60), retrieval 75.54 / 57.14 -> 84.62 / 70.27, no control broken (both
"before" figures: this code with the blanking switched off). No fresh-set request declines a step; on hf_dev one
does ("Instead of recording my voice, ..."), and only the retrieval planner's plan for it changed. Also from the QA
probe: "Summarize: The committee met ... The mayor promised a reply." summarized its own instruction and planned a
chat reply from the text's last sentence. A short instruction that opens the request and ends in a colon now gives
the text after it, and a pasted text's sentences are never a clause that asks (clause coverage, the phrasebook).
hf_dev, the fresh set and both declined sets score exactly as before; held-out rounds 6-7 68.52 -> 68.54 arg-value
F1. Skipping the cues inside a pasted text too lost 0.3 edge F1 there (the detector was trained with them) and was
left out.

Declines said as an errand called off (tenth session): "hold off on", "I'll pass on", "leave out", "omit" and "cancel"
now decline a step too ("pass on the caption to a translator" still passes it on). These are set B's own words, noted
from its misses in the ninth session, so set B is no longer unseen: learned 87.20 / 73.68 -> 88.46 / 75.68 node /
edge F1 on it, retrieval 84.62 / 70.27 -> 85.85 / 72.22; hf_dev, the fresh set and set A score exactly as before.

A development set written the way TaskBench's generator was (eleventh session; bench/data/generator_dev, 320
requests: eight new writers, each given a sampled tool graph and TaskBench's brief in our words, writing each request
in one go with no second reading; never trained on). Every earlier choice was checked on corpus-like wording, so this
set was made to choose on instead. The learned planner reads it about as well as the fresh set (rows "generator-style
dev set" above: 91.57 / 69.99 / 64.27 node / edge / arg-value F1; its arg-value F1 runs lower because its writers
often said a question, edit or scene in their own words, whose plain form no reader can quote). The gap on hf_dev is
therefore not wording written from a tool graph as such. Settings measured on it with the shipped model (node / edge
/ arg-value F1 on this set, hf_dev and the fresh set; one run):

| setting | generator-style dev set | hf_dev | fresh set |
|---|---|---|---|
| shipped: rules first, add at 0.7, veto 0.1 | 91.57 / 69.99 / 64.27 | 75.58 / 38.01 / 44.42 | 91.67 / 71.54 / 74.85 |
| add at 0.6 | 91.80 / 70.56 / 64.64 | 75.62 / 37.68 / 44.34 | 92.78 / 74.60 / 76.88 |
| add at 0.5 | 92.31 / 70.89 / 64.66 | 75.45 / 36.47 / 43.64 | 92.83 / 74.42 / 76.79 |
| add at 0.4 | 92.10 / 70.77 / 64.19 | 73.82 / 35.42 / 42.12 | 91.89 / 73.85 / 75.92 |
| veto 0.2 | 91.84 / 70.10 / 64.57 | 74.61 / 37.28 / 43.85 | 91.67 / 71.54 / 74.85 |
| the detector alone, 0.5 | 92.26 / 70.29 / 64.63 | 71.85 / 33.73 / 42.29 | 92.04 / 74.60 / 77.33 |
| link model off | 91.57 / 67.36 / 62.37 | 75.58 / 37.21 / 43.21 | 91.67 / 70.00 / 73.68 |
| expected-F1 decoding | 87.93 / 67.49 / 60.12 | 68.74 / 33.50 / 38.11 | 87.07 / 68.57 / 70.16 |
| retrieval planner | 81.78 / 58.10 / 53.69 | 75.29 / 43.73 / 45.90 | 81.08 / 52.80 / 62.22 |

What it says. The link model helps on all three sets (edge +2.6, +0.8, +1.5), so it stays. A lower threshold for
adding tasks gains a little on this set and the fresh set and nothing on hf_dev (at 0.5: +0.7 / +1.2 node F1 there,
-0.1 node and -1.5 edge F1 on hf_dev), so the shipped 0.7 stays. The detector alone gains on both sets written apart
and loses 3.7 node F1 on hf_dev: letting the rules speak first is worth something only on hf_dev, the set the
retrieval planner's rules were kept or dropped by (see the notes below). So part of hf_dev's figure is fitted, and the
hidden held-out part of TaskBench can be expected to score somewhat lower. Expected-F1 decoding (the prefix of the
ranked tasks maximising 2 * sum of their probabilities / (k + sum of all)) plans too many tasks everywhere. Also
measured on this set and not kept: a description for a picture or a video that runs on over its own commas and "and"s
(ending only where an ask resumes) fixed 11 cut-short prompts here (+0.2 arg-value F1) and changed nothing on hf_dev,
the fresh set or declined set A: a rule that does not help measurably where it was not written. Two more, chosen
here and measured once: a rule's task the detector vetoes passing its place to the detector's best task not yet
chosen, from 0.3 (here +0.6 / +1.1 node / edge F1; hf_dev +0.0 / -0.8, the fresh set -0.3 / -0.6); and a question
with no passage to answer from taking the request's words as its passage instead of being dropped (here +0.1 / +0.5;
hf_dev -0.3 / 0.0, the retrieval planner -0.5 node F1 there). Nor does the tool prior of TaskBench's own sampler (a
uniform start and a random walk on the tool graph, simulated from the graph alone: 0.59 to 1.58 times our corpus's
frequency of each tool), put into the stacker's per-task bias as a prior-shift correction: hf_dev 75.51 / 37.90, the
fresh set 91.67 / 71.54.
On this set the learned planner recalls 85% of the tasks of 4- to 6-task requests at 91 to 97% precision; on hf_dev
56 to 60% at 79 to 92%: hf_dev's long requests name their tasks in ways none of the 36 writers of the corpus and this set wrote.

How our harness reads differently from TaskBench's evaluate.py: gold `<node-j>` numbered from 1 (a node referring to
itself or a later node) is read as 0-based j-1 when that makes every reference earlier; `_` in tool names reads as a
space; a metric with nothing to score is "-" rather than 0.0; a planner crash or invalid plan scores as an empty plan
and is counted as invalid; NED is computed on tool-name sequences without python-Levenshtein (the same ratio).
`hugginggpt eval taskbench FILE --predictions OUT.jsonl` writes every prediction in TaskBench's format (`id`,
`task_nodes` with TaskBench tool names and `<node-j>` arguments, `task_links` from the references) for any scorer.
"""

PUBLISHED = """Published on the same domain (TaskBench paper/README, full test set, node / edge / arg-name / arg-value F1):
GPT-4 81.54 / 54.70 / 77.31 / 60.86; GPT-3.5-turbo 69.49 / 33.36 / 55.88 / 36.32; Claude-2 79.00 / 43.51 / 63.00 / 43.08;
CodeLlama-13b 53.16 / 14.64 / 32.06 / 18.87."""


def run(planner_name: str, llm: str | None, retrieval_help: bool, data: Path, tool_list: Path | None = None) -> dict:
    from langchain_hugginggpt.cli.eval import make_planner
    from langchain_hugginggpt.planning.taskbench import ToolSet, evaluate, find_tool_list

    tools = ToolSet.load(tool_list or find_tool_list(data))
    planner = make_planner(planner_name, tools.our_tasks(), llm, retrieval_help=retrieval_help)
    return evaluate(data, planner, tools)


def rows(label: str, result: dict) -> list[str]:
    from langchain_hugginggpt.cli.eval import METRICS

    def cell(value) -> str:
        return "-" if value is None else f"{value:.2f}"

    out = []
    for split, r in [("all", result)] + sorted(result["by_type"].items()):
        latency = cell(result["latency_ms_median"]) if split == "all" else ""
        invalid = str(result["invalid_plans"]) if split == "all" else ""
        out.append(f"| {label} | {split} | {r['n']} | " + " | ".join(cell(r[m]) for m in METRICS) + f" | {latency} | {invalid} |")
    return out


def bank_self_check() -> dict:
    """Leave-one-out on our own example bank: each example planned with the others as the bank."""
    from langchain_hugginggpt.planning.taskbench import ToolSet, plan_to_nodes, score
    from langchain_hugginggpt.planning.bank import ExampleBank, load_examples
    from langchain_hugginggpt.planning.retrieval import RetrievalPlanner
    from langchain_hugginggpt.core.tasks import TASKS

    tools = ToolSet(names=tuple(TASKS), output_types={n: s.output for n, s in TASKS.items()})
    examples = load_examples()
    golds, preds = [], []
    for i, (request, plan) in enumerate(examples):
        planner = RetrievalPlanner(bank=ExampleBank([e for j, e in enumerate(examples) if j != i]))
        golds.append(plan_to_nodes(plan, tools))
        preds.append(plan_to_nodes(planner.plan(request).plan, tools))
    return score(golds, preds, tools)


def halves(data: Path) -> list[dict]:
    """The retrieval planner on the even and the odd lines: how stable the numbers are."""
    from langchain_hugginggpt.planning.taskbench import ToolSet, find_tool_list, load_samples, predict, report
    from langchain_hugginggpt.planning.retrieval import RetrievalPlanner

    tools = ToolSet.load(find_tool_list(data))
    samples = load_samples(data)
    planner = RetrievalPlanner(tasks=tools.our_tasks())
    return [report(predict(part, planner, tools), tools) for part in (samples[0::2], samples[1::2])]


def learned_footprint() -> str:
    """The learned planner's model size, load time and training time (`hugginggpt train planner`)."""
    import subprocess
    import tempfile

    from langchain_hugginggpt.planning.detector import DETECTOR_MODEL
    from langchain_hugginggpt.planning.links import LINK_MODEL
    from langchain_hugginggpt.planning.training import train_planner

    # In a fresh process, so that the imports count too: the libraries, then our code and the model (the detector's
    # arrays and the packaged MiniLM's onnxruntime session), then a first plan.
    timing = ("import time; t = [time.perf_counter()]; import onnxruntime; "
              "t.append(time.perf_counter()); from langchain_hugginggpt.planning.learned import LearnedPlanner; "
              "p = LearnedPlanner(); t.append(time.perf_counter()); p.plan('caption a.jpg'); t.append(time.perf_counter()); "
              "print(*(b - a for a, b in zip(t, t[1:])))")
    # One run to warm the disk cache, then the run of median total of five: a single run moves by ~0.5 s.
    runs = [[float(x) for x in subprocess.run([sys.executable, "-c", timing], capture_output=True, text=True,
                                              check=True).stdout.split()] for _ in range(6)][1:]
    libraries, model, first = sorted(runs, key=sum)[2]
    with tempfile.TemporaryDirectory() as folder:
        trained = train_planner(out=Path(folder) / "task_detector.npz")
    return (f"Learned planner: model {DETECTOR_MODEL.stat().st_size / 1e6:.1f} MB (planning/models/task_detector.npz, "
            f"arrays only, plus the packaged MiniLM, quantized to int8 once in the cache) and link model "
            f"{LINK_MODEL.stat().st_size / 1e3:.0f} kB (link_model.npz), ready to plan in "
            f"{libraries + model + first:.2f} s (median of five new processes): {libraries:.2f} s importing onnxruntime (planning "
            f"applies the fitted TF-IDF without scikit-learn, which only trains), {model:.2f} s our modules (with pydantic, for the "
            f"plan schema; no LangChain module) and the model (the detector's arrays, the int8 MiniLM session), {first:.2f} s a first plan. "
            f"`hugginggpt train planner` trains both on all {trained['rows']} rows ({trained['rows'] - trained['pool_rows']} "
            f"corpus, {trained['pool_rows']} pool) from {trained['writers']} writers and readers in {trained['seconds']:.0f} s "
            f"on this machine.")


def cv_lines() -> list[str]:
    """The corpus cross-validation results bench/planning_cv.py saved, as tables."""
    import json

    from planning_cv import results_file

    lines = []
    for folds, flag in (("round", ""), ("writer", " --folds writer")):
        path = results_file(folds)
        if not path.is_file():
            continue
        saved = json.loads(path.read_text(encoding="utf-8"))
        lines += [f"Cross-validation on the back-instruct corpus (prompts/corpus, {saved['rows'][0]['n']} rows), folds: "
                  f"{saved['folds']}; measured {saved['measured']} (`python bench/planning_cv.py{flag}`). "
                  "Train s: mean seconds to train one fold. Median ms here reuses MiniLM vectors across candidates "
                  "and ran beside other work: the planning time that counts is the table at the top.", "",
                  "| planner | node F1 | edge F1 | arg-name F1 | arg-value F1 | NED | median ms | invalid | train s |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for r in saved["rows"]:
            lines.append(f"| {r['planner']} | {r['node_f1']:.2f} | {r['edge_f1']:.2f} | {r['arg_name_f1']:.2f} | "
                         f"{r['arg_value_f1']:.2f} | {r['ned']:.3f} | {r['latency_ms_median']:.2f} | {r['invalid_plans']} | "
                         f"{'-' if r['train_s'] is None else r['train_s']} |")
        lines.append("")
    def short_table(path: Path, intro: str) -> None:
        if path.is_file():
            saved = json.loads(path.read_text(encoding="utf-8"))
            lines.extend([intro.format(measured=saved["measured"], n=saved["rows"][0]["n"]), "",
                          "| planner | node F1 | edge F1 | arg-name F1 | arg-value F1 | NED |", "|---|---|---|---|---|---|"])
            lines.extend(f"| {r['planner']} | {r['node_f1']:.2f} | {r['edge_f1']:.2f} | {r['arg_name_f1']:.2f} | "
                         f"{r['arg_value_f1']:.2f} | {r['ned']:.3f} |" for r in saved["rows"])
            lines.append("")

    short_table(results_file("ablate"),
                "Which rules help on data they were not written from: each rule source left out in turn, the detector "
                "retrained without it, the same folds (one per writing round); measured {measured} "
                "(`python bench/planning_cv.py --ablate`), before the retired sources were taken out of the learned "
                "planner (compare with `learned, every rule source` above).")
    short_table(results_file("round4_gain"),
                "Does round 4 help on wording it was not written in: rounds 1, 2 and 3 held out in turn ({n} rows in "
                "all), the learned planner trained on the other two without and with round 4; measured {measured} "
                "(`python bench/planning_cv.py --round-gain 4`).")
    short_table(results_file("round5_gain"),
                "Does round 5 help on wording it was not written in: rounds 1 to 4 held out in turn ({n} rows in "
                "all), the learned planner trained on the other three without and with round 5; measured {measured} "
                "(`python bench/planning_cv.py --round-gain 5`).")
    short_table(results_file("round6_gain"),
                "Does round 6 help on wording it was not written in: rounds 4 and 5 held out in turn ({n} rows in "
                "all), the learned planner trained on the other rounds 1 to 5 without and with round 6; measured "
                "{measured} (`python bench/planning_cv.py --round-gain 6 --held 4 5`).")
    short_table(results_file("round7_gain"),
                "Does round 7 help on wording it was not written in: rounds 5 and 6 held out in turn ({n} rows in "
                "all), the learned planner trained on the other rounds 1 to 6 without and with round 7; measured "
                "{measured} (`python bench/planning_cv.py --round-gain 7 --held 5 6`).")
    short_table(results_file("links"),
                "The link model against the wiring rules, with the gold tasks given: each writing round held out in "
                "turn ({n} rows in all), the link model trained on the other rounds' gold links; measured {measured} "
                "(`python bench/planning_cv.py --links`).")
    short_table(results_file("gold_tasks"),
                "The wiring alone: the learned planner's places, slots and links with the gold tasks given, on each "
                "corpus round, hf_dev and the fresh set, with the rules' links and with the shipped link model (which "
                "was trained on the corpus rows: for them, see the held-out table above); measured {measured} "
                "(`python bench/planning_cv.py --gold-tasks`).")
    short_table(RESULTS_DIR / "planning_bank_check.json",
                "Across wording: trained on the whole corpus, planning our example bank (prompts/examples, {n} requests "
                "within the HF tools, our task names; the retrieval planner's bank holds them and its rules were "
                "written beside them, which favours it); measured {measured} (`python bench/planning_cv.py "
                "--example-bank`).")
    return lines


def helper_stats(data: Path, name: str = "retrieval") -> list[str]:
    """What the LLM chain gets from an offline planner, and how well the confidence separates good plans."""
    from langchain_hugginggpt.cli.eval import offline_planner
    from langchain_hugginggpt.planning.taskbench import ToolSet, find_tool_list, load_samples, plan_to_nodes, score

    tools = ToolSet.load(find_tool_list(data))
    samples = load_samples(data)
    planner = offline_planner(name, tools.our_tasks())
    gold_total = likely_hits = demo_hits = 0
    confident, unsure = [], []
    for sample in samples:
        gold = {tools.our_name(n.task) for n in sample.nodes if n.task in tools.names}
        gold_total += len(gold)
        likely_hits += len(gold & set(planner.likely_tasks(sample.request, 12)))
        demo_hits += len(gold & {t.task for _, plan in planner.select_examples(sample.request, 4) for t in plan.tasks})
        output = planner.plan(sample.request)
        (confident if output.confidence >= 0.6 else unsure).append((sample.nodes, plan_to_nodes(output.plan, tools)))

    def f1(pairs: list) -> float:
        return score([g for g, _ in pairs], [p for _, p in pairs], tools)["node_f1"] or 0.0

    source = "the corpus" if name == "learned" else "the example bank"
    return [
        f"Help for the LLM chain from the {name} planner: `likely_tasks(request, 12)` keeps {100 * likely_hits / gold_total:.1f}% of the gold "
        f"tools (of 23); the tasks of the 4 examples `select_examples` picks from {source} cover {100 * demo_hits / gold_total:.1f}%. "
        f"Confidence >= 0.6 (the agent's default for skipping the LLM): {len(confident)} of {len(samples)} requests, "
        f"node F1 {f1(confident):.2f} there versus {f1(unsure):.2f} on the rest.",
        "",
    ]


def section(results: list[tuple[str, str, dict]], data: Path, extra: list[str] = ()) -> str:
    name = "planning/data/hf_dev.jsonl (shipped with the package)" if data == DATA.resolve() else str(data)
    lines = [
        HEADING, "",
        f"Development sample `{name}` "
        f"(146 requests: 65 single, 67 chain, 14 DAG), metrics as TaskBench's evaluate.py computes them "
        "(percent; NED = 1 - mean Levenshtein ratio of the tool sequences, lower is better). "
        f"Measured {time.strftime('%Y-%m-%d')} on {platform.machine()} with {_cores()} CPU cores shared with other work.",
        "",
        "| planner | split | n | node F1 | edge F1 | arg-name F1 | arg-value F1 | NED | median ms | invalid |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    commands = []
    for label, command, result in results:
        lines += rows(label, result)
        commands.append(f"    {command}")
    lines += ["", "Commands:", "", *commands, "", *extra, LEARNED_NOTES, NOTES, PUBLISHED, ""]
    if not any(label.startswith("SmolLM2") for label, _, _ in results):
        lines += ["<!-- LLM rows: `python bench/bench_planning.py --llm local` adds SmolLM2-135M through the LLM chain,",
                  "     with and without retrieval help (dynamic few-shot + narrowed task list). -->", ""]
    return "\n".join(lines)


def _cores() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--llm", help="also run the LLM chain with this preset (e.g. local)")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)

    data = args.data.resolve()
    shipped = data == DATA.resolve()
    rel = "" if shipped else str(data) + " "  # with no file, `eval taskbench` scores the shipped dev sample
    results = [(f"{name} (offline)", f"hugginggpt eval taskbench {rel}--planner {name}", run(name, None, True, data))
               for name in OFFLINE]
    if args.llm:
        results.append((f"SmolLM2 ({args.llm}) + retrieval help",
                        f"hugginggpt eval taskbench {rel}--planner llm --llm {args.llm}",
                        run("llm", args.llm, True, data)))
        results.append((f"SmolLM2 ({args.llm}), no retrieval help",
                        f"hugginggpt eval taskbench {rel}--planner llm --llm {args.llm} --no-retrieval-help",
                        run("llm", args.llm, False, data)))
    if shipped:
        for label, path in (("fresh set", FRESH), ("generator-style dev set", GENERATOR_DEV), *DECLINED.items()):
            results += [(f"{name} (offline), {label}", f"hugginggpt eval taskbench {path.relative_to(ROOT)} --planner {name}",
                         run(name, None, True, path, HF_TOOLS)) for name in OFFLINE if path.is_file()]
    extra_help = [line for name in OFFLINE for line in helper_stats(data, name)]
    even, odd = halves(data)
    bank = bank_self_check()
    extra = [
        f"Stability: even lines node/edge F1 {even['node_f1']:.2f} / {even['edge_f1']:.2f}, "
        f"odd lines {odd['node_f1']:.2f} / {odd['edge_f1']:.2f}.",
        f"Our own example bank (prompts/examples, leave-one-out, all {bank['n']} requests, our task names): "
        f"node F1 {bank['node_f1']:.2f}, edge F1 {bank['edge_f1']:.2f}, arg-value F1 {bank['arg_value_f1']:.2f}.",
        "",
    ] + extra_help + [learned_footprint(), ""] + cv_lines()
    text = section(results, data, extra)
    print(text)
    if not args.no_write:
        replace_section(DOC, HEADING, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
