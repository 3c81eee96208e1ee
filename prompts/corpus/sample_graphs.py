"""Sample tool graphs for the back-instruct planning corpus (issue 17, step 1).

TaskBench-style back-instruct: sample a subgraph of the tool graph (one node, a
chain or a DAG), fill in its arguments, and let a writer compose the request a
user would type for exactly that graph. This script does the first two parts.
Its only inputs are TaskBench's HF tool list and tool graph; it uses the
standard library only and is deterministic for a given seed.

    python3 prompts/corpus/sample_graphs.py            # writes graphs/shard_00..31.jsonl

Each row: {"id", "type", "n_tools", "voice", "task_nodes", "task_links", "slots"}.
`task_nodes` are in TaskBench's plan format ({"task", "arguments"}), an argument
is a literal (a file name, or a {PLACEHOLDER} the writer replaces with text) or
"<node-j>" for node j's output; `slots` says what each placeholder should hold.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "planning" / "data"

SEED = 17
N_GRAPHS = 3200
SHARD_SIZE = 400
TYPE_MIX = {"single": 0.40, "chain": 0.45, "dag": 0.15}
CHAIN_SIZES = {2: 0.36, 3: 0.30, 4: 0.18, 5: 0.10, 6: 0.06}
DAG_SIZES = {3: 0.32, 4: 0.30, 5: 0.20, 6: 0.11, 7: 0.07}
VOICES = ["terse", "polite", "story", "steps", "casual", "formal"]
# A second round of writing, in the long and roundabout voices real users type (the first round's
# requests run to a median of 22 words; a classifier trained on them read longer requests poorly).
SECOND_ROUND = {"seed": 18, "n": 800, "shard_size": 200, "voices": ["chatty", "roundabout"]}
# A third round in the words of users who know the tools (task names, the tool list's own descriptions)
# and of users who write their texts inline, unquoted: the two earlier rounds avoid both.
THIRD_ROUND = {"seed": 19, "n": 800, "shard_size": 200, "voices": ["informed", "inline"]}
# A fourth round where what the user wants to find out, change or see is said as a task or a wish, not a
# quoted question ("work out how many lanes the road has", "I'd like the fence green"): every earlier round
# quotes its questions, edits and scenes verbatim, and a detector trained on them misses a question asked
# as an errand. The plan holds the plain question the user means (the placeholders of PARAPHRASED_ROLES).
FOURTH_ROUND = {"seed": 20, "n": 800, "shard_size": 200, "voices": ["indirect", "curious"]}
# A fifth round written the way TaskBench's own generator was asked to write: a specific, detailed request
# from a user with a purpose, every step said loosely by what it does to the data ("extract the written
# content", "make sense of this table") or by the result it serves, never by the tool's name. Earlier rounds
# say most steps plainly; requests written from a tool graph by an LLM say many of them only in passing.
FIFTH_ROUND = {"seed": 21, "n": 800, "shard_size": 200, "voices": ["assisted", "outcome"]}
# A sixth round in the shapes an LLM-written request takes when it covers several steps at once: a run of
# gerunds after one "could you help me by" ("converting..., condensing..., and then voicing..."), and a long
# account of the user's project with the asks spread over "also", "moreover", "lastly" and said by what
# each result is for. The detector trained on rounds 1-5 finds fewer of the tasks in long many-step
# requests than in short ones: each step there gets a few words in a long text.
SIXTH_ROUND = {"seed": 22, "n": 800, "shard_size": 200, "voices": ["enumerated", "scenario"]}
# A seventh round where each step is named by the thing it makes or the process, in abstract nouns of a
# formal register ("a spoken rendition of the summary", "a categorisation of the clip"), and where a text
# step takes an earlier result that is itself short text (a label, a list, an answer) and writes from it:
# the detector trained on rounds 1-6 reads verbs and plain product names best.
SEVENTH_ROUND = {"seed": 23, "n": 800, "shard_size": 200, "voices": ["nominal", "inquisitive"]}
# Not training data: a development set to choose the planner's settings on (bench/data/generator_dev/), written
# the way TaskBench's generator was asked to write (a specific, detailed request needing exactly these tools,
# no tool named), without the corpus's second reading that makes every step explicit. Every choice before it
# was made on corpus-like wording, and gains there rarely carried over to TaskBench's own requests.
GENERATOR_DEV = {"seed": 40, "n": 320, "shard_size": 40, "voices": ["generator"]}
LATER_ROUNDS = (SECOND_ROUND, THIRD_ROUND, FOURTH_ROUND, FIFTH_ROUND, SIXTH_ROUND, SEVENTH_ROUND)
# The rounds whose writers say questions, edits and scenes in their own words (the plan holds the plain form).
PARAPHRASING_ROUNDS = (FOURTH_ROUND, FIFTH_ROUND, SIXTH_ROUND, SEVENTH_ROUND, GENERATOR_DEV)
PARAPHRASED_ROLES = {"QUESTION", "EDIT", "SCENE"}

# Links the graph allows but users rarely chain; sampled less often, not never.
_RARE_TARGETS = {"Tabular Classification": 0.25, "Document Question Answering": 0.4}
_QUESTION_LIKE_SOURCES = {"Translation", "Automatic Speech Recognition", "Text Generation", "Conversational"}

# What a literal text slot holds: (placeholder base name, what the writer puts there).
TEXT_ROLES = {
    ("Token Classification", 0): ("PASSAGE", "a text of 1-3 sentences with names, places, dates or organisations to tag"),
    ("Translation", 0): ("PASSAGE", "the text to translate (say the target language in the request)"),
    ("Summarization", 0): ("PASSAGE", "a passage of 3-6 sentences worth summarizing"),
    ("Question Answering", 0): ("PASSAGE", "the passage that holds the answer"),
    ("Question Answering", 1): ("QUESTION", "a question the passage answers"),
    ("Conversational", 0): ("MESSAGE", "a message the user wants a chat-style reply to"),
    ("Text Generation", 0): ("PROMPT", "the start of a text or a prompt to continue/write from"),
    ("Sentence Similarity", 0): ("SENTENCE", "the first sentence to compare"),
    ("Sentence Similarity", 1): ("SENTENCE", "the second sentence to compare"),
    ("Text-to-Image", 0): ("SCENE", "a description of the image to generate"),
    ("Text-to-Video", 0): ("SCENE", "a description of the video to generate"),
    ("Visual Question Answering", 1): ("QUESTION", "a question about the image"),
    ("Document Question Answering", 1): ("QUESTION", "a question about the document image"),
    ("Text-to-Speech", 0): ("PASSAGE", "the text to read aloud"),
    ("Image Editing", 0): ("EDIT", "the edit instruction, e.g. what to change in the image"),
}
# Roles two root nodes of a DAG may share ("summarize this text and also tag it").
_SHAREABLE_ROLES = {"PASSAGE", "SCENE"}

_PHOTO = ("beach_sunset street_market dog_park kitchen_table birthday_party mountain_trail living_room bike_rack "
          "garden_path office_desk city_skyline harbor_boats concert_crowd family_picnic cat_on_sofa parking_lot "
          "classroom museum_hall bakery_window soccer_match wedding_toast snowy_cabin fruit_stand train_platform "
          "campfire backyard_bbq hiking_group lake_dock rooftop_view farmers_market old_bridge skate_park "
          "graduation desert_road aquarium_tunnel bookshop_shelf night_market ski_lift coffee_shop zoo_giraffe "
          "construction_site lighthouse vineyard playground bus_stop flower_shop marathon_finish fishing_trip").split()
_DOCUMENT = ("invoice_2231 receipt_grocery contract_page2 lease_agreement tax_form_2023 scanned_letter boarding_pass "
             "menu_scan utility_bill_may lab_report insurance_claim pay_stub_june delivery_note warranty_card "
             "bank_statement_p1 prescription_label rental_receipt purchase_order_88 customs_form meeting_minutes_scan "
             "parking_ticket hotel_folio school_permission_slip medical_bill event_ticket").split()
_TABLE = ("sales_table_q3 grades_sheet inventory_sheet budget_2024 survey_results timesheet_week12 expense_report "
          "crop_yields league_standings loan_applications patient_vitals shipping_log energy_usage customer_churn "
          "rent_roll fitness_log election_results product_specs").split()
_SPEECH = ("interview_03 voice_memo meeting_recording lecture_week5 voicemail_from_dad podcast_ep12 standup_call "
           "customer_call_17 dictation_notes press_briefing sermon_clip radio_segment tutorial_narration "
           "team_sync_monday oral_history_part2 phone_order focus_group_session").split()
_SOUND = ("mystery_sound backyard_night engine_noise baby_monitor_clip street_ambience birdsong_morning "
          "kitchen_noise forest_walk alarm_clip washing_machine thunder_clip party_background").split()
_NOISY = ("noisy_call hissy_tape_transfer windy_vlog_audio echo_room_talk crowded_cafe_voice old_cassette_rip "
          "zoom_call_static street_interview_noisy").split()
_PEOPLE = ["maria", "sam", "li", "omar", "jess", "ana", "kofi", "priya"]


def load_tools() -> tuple[dict[str, dict], dict[tuple[str, str], str]]:
    tools = {n["id"]: n for n in json.loads((DATA / "hf_tool_desc.json").read_text())["nodes"]}
    links = {(ln["source"], ln["target"]): ln["type"] for ln in json.loads((DATA / "hf_graph_desc.json").read_text())["links"]}
    return tools, links


def _weighted(rng: random.Random, weights: dict):
    keys = list(weights)
    return rng.choices(keys, weights=[weights[k] for k in keys])[0]


class GraphSampler:
    def __init__(self, seed: int = SEED):
        self.rng = random.Random(seed)
        self.tools, self.links = load_tools()
        self.out_type = {t: (d["output-type"] or [None])[0] for t, d in self.tools.items()}
        self.used = Counter()  # how often each tool was drawn, to spread coverage

    # ---- structure -------------------------------------------------------
    def _balance(self, tool: str) -> float:
        return 1.0 / (1 + self.used[tool]) ** 1.5

    def _link_weight(self, source: str, target: str) -> float:
        w = _RARE_TARGETS.get(target, 1.0) if self.out_type[source] == "image" else 1.0
        if target in ("Visual Question Answering", "Document Question Answering", "Image Editing") \
                and self.out_type[source] == "text" and source not in _QUESTION_LIKE_SOURCES:
            w *= 0.25  # a summary as the question to ask of an image is rare
        return w

    def _free_slots(self, tool: str, filled: list[int]) -> list[int]:
        return [k for k in range(len(self.tools[tool]["input-type"])) if k not in filled]

    def _slot_for(self, source: str, target: str, filled: list[int]) -> int | None:
        if (source, target) not in self.links:
            return None
        for k in self._free_slots(target, filled):
            if self.tools[target]["input-type"][k] == self.out_type[source]:
                return k
        return None

    def sample_chain(self, size: int) -> tuple[list[str], list[tuple[int, int, int]]]:
        while True:
            starts = {t: self._balance(t) for t in self.tools if any(s == t for s, _ in self.links)}
            nodes = [_weighted(self.rng, starts)]
            while len(nodes) < size:
                nxt = {t: self._balance(t) * self._link_weight(nodes[-1], t)
                       for t in self.tools if t not in nodes and self._slot_for(nodes[-1], t, []) is not None}
                if not nxt:
                    break
                nodes.append(_weighted(self.rng, nxt))
            if len(nodes) == size:
                edges = [(i, i + 1, self._slot_for(nodes[i], nodes[i + 1], [])) for i in range(size - 1)]
                return nodes, edges

    def sample_dag(self, size: int) -> tuple[list[str], list[tuple[int, int, int]]]:
        """Grow a connected DAG by adding children (1-2 parents) or new roots feeding a free slot."""
        while True:
            nodes = [_weighted(self.rng, {t: self._balance(t) for t in self.tools})]
            edges: list[tuple[int, int, int]] = []  # (source index, target index, target slot)
            for _ in range(size * 6):
                if len(nodes) == size:
                    break
                filled = {i: [k for s, t, k in edges if t == i] for i in range(len(nodes))}
                if self.rng.random() < 0.6:
                    self._add_child(nodes, edges, filled)
                else:
                    self._add_root(nodes, edges, filled)
            outdeg = Counter(s for s, _, _ in edges)
            indeg = Counter(t for _, t, _ in edges)
            branching = any(v > 1 for v in outdeg.values()) or any(v > 1 for v in indeg.values())
            if len(nodes) == size and branching:
                return self._topological(nodes, edges)

    def _add_child(self, nodes, edges, filled) -> None:
        options = {}
        for t in self.tools:
            if t in nodes:
                continue
            for i, u in enumerate(nodes):
                if self._slot_for(u, t, []) is not None:
                    # fan-out from a node that already feeds another is what makes it a DAG
                    bonus = 2.0 if any(s == i for s, _, _ in edges) else 1.0
                    options[(t, i)] = self._balance(t) * self._link_weight(u, t) * bonus
        if not options:
            return
        t, i = _weighted(self.rng, options)
        new = len(nodes)
        nodes.append(t)
        edges.append((i, new, self._slot_for(nodes[i], t, [])))
        if len(self.tools[t]["input-type"]) == 2 and self.rng.random() < 0.6:  # fan-in
            taken = [k for s, tt, k in edges if tt == new]
            seconds = [j for j in range(new) if j != i and self._slot_for(nodes[j], t, taken) is not None]
            if seconds:
                j = self.rng.choice(seconds)
                edges.append((j, new, self._slot_for(nodes[j], t, taken)))

    def _add_root(self, nodes, edges, filled) -> None:
        options = {}
        for v, tv in enumerate(nodes):
            for t in self.tools:
                if t not in nodes and self._slot_for(t, tv, filled[v]) is not None:
                    options[(t, v)] = self._balance(t) * self._link_weight(t, tv)
        if not options:
            return
        t, v = _weighted(self.rng, options)
        nodes.append(t)
        edges.append((len(nodes) - 1, v, self._slot_for(t, nodes[v], filled[v])))

    @staticmethod
    def _topological(nodes, edges):
        order, placed = [], set()
        while len(order) < len(nodes):
            for i in range(len(nodes)):
                if i not in placed and all(s in placed for s, t, _ in edges if t == i):
                    order.append(i)
                    placed.add(i)
                    break
        pos = {old: new for new, old in enumerate(order)}
        return [nodes[i] for i in order], sorted((pos[s], pos[t], k) for s, t, k in edges)

    # ---- arguments -------------------------------------------------------
    def _file(self, tool: str, kind: str) -> str:
        rng = self.rng
        if kind == "audio":
            pool = _SOUND if tool == "Audio Classification" else _NOISY if tool == "Audio-to-Audio" else _SPEECH
            stem = rng.choice(pool)
            ext = rng.choice([".wav", ".wav", ".mp3", ".m4a", ".flac", ".ogg"])
        else:
            pool = _DOCUMENT if tool == "Document Question Answering" else _TABLE if tool == "Tabular Classification" else _PHOTO
            stem = rng.choice(pool)
            ext = rng.choice([".jpg", ".jpg", ".png", ".png", ".jpeg", ".webp"])
        style = rng.random()
        if style < 0.12 and pool is _PHOTO:
            return f"IMG_{rng.randint(1000, 9999)}{rng.choice(['.jpg', '.JPG', '.png'])}"
        if style < 0.2:
            return f"{stem}_{rng.randint(1, 40):02d}{ext}"
        if style < 0.3:
            folder = rng.choice(["photos", "scans", "downloads", "uploads", "data", "inbox", "recordings", "media"])
            return f"{folder}/{stem}{ext}"
        if style < 0.36:
            return f"/home/{rng.choice(_PEOPLE)}/{rng.choice(['Pictures', 'Documents', 'Desktop', 'Music'])}/{stem}{ext}"
        if style < 0.44:
            return f"{stem}-{rng.choice(['2023', '2024', 'final', 'v2', 'copy', 'edited', 'raw'])}{ext}"
        if style < 0.5:
            return stem.replace("_", "-") + ext
        return stem + ext

    def fill(self, nodes, edges) -> tuple[list[dict], dict[str, str]]:
        args: list[list[str | None]] = [[None] * len(self.tools[t]["input-type"]) for t in nodes]
        for s, t, k in edges:
            args[t][k] = f"<node-{s}>"
        slots: dict[str, str] = {}
        role_count = Counter()
        shared: dict[str, str] = {}  # literal kind/role -> value already used by another node
        for i, t in enumerate(nodes):
            for k, kind in enumerate(self.tools[t]["input-type"]):
                if args[i][k] is not None:
                    continue
                share_key = kind if kind != "text" else TEXT_ROLES[(t, k)][0]
                may_share = len(nodes) > 1 and (kind != "text" or share_key in _SHAREABLE_ROLES)
                if may_share and share_key in shared and self.rng.random() < 0.6:
                    args[i][k] = shared[share_key]
                    if kind == "text":
                        slots[shared[share_key]] += f"; also the input of node {i} ({t})"
                    continue
                if kind in ("image", "audio"):
                    value = self._file(t, kind)
                else:
                    role, what = TEXT_ROLES[(t, k)]
                    role_count[role] += 1
                    value = "{" + role + ("" if role_count[role] == 1 else f"_{role_count[role]}") + "}"
                    slots[value] = f"{what} (node {i}, {t})"
                if share_key not in shared:
                    shared[share_key] = value
                args[i][k] = value
        return [{"task": t, "arguments": a} for t, a in zip(nodes, args)], slots

    def sample(self, kind: str, size: int) -> dict:
        if kind == "single":
            nodes, edges = [_weighted(self.rng, {t: self._balance(t) for t in self.tools})], []
        elif kind == "chain":
            nodes, edges = self.sample_chain(size)
        else:
            nodes, edges = self.sample_dag(size)
        self.used.update(nodes)
        task_nodes, slots = self.fill(nodes, edges)
        links = [{"source": nodes[s], "target": nodes[t]} for s, t, _ in edges]
        return {"type": kind, "n_tools": len(nodes), "task_nodes": task_nodes, "task_links": links, "slots": slots}


def sample_corpus(seed: int = SEED, n: int = N_GRAPHS, voices: list[str] = VOICES, first_id: int = 0) -> list[dict]:
    sampler = GraphSampler(seed)
    rng = random.Random(seed + 1)
    counts = {k: round(n * share) for k, share in TYPE_MIX.items()}
    counts["chain"] += n - sum(counts.values())
    plan = []
    for kind, count in counts.items():
        sizes = CHAIN_SIZES if kind == "chain" else DAG_SIZES if kind == "dag" else {1: 1.0}
        # exact quotas per size, largest remainder, so the mix is what the README says
        quota = {s: int(count * w) for s, w in sizes.items()}
        for s in sorted(sizes, key=lambda s: -(count * sizes[s] - quota[s]))[: count - sum(quota.values())]:
            quota[s] += 1
        plan += [(kind, s) for s, q in quota.items() for _ in range(q)]
    rng.shuffle(plan)
    graphs, seen = [], set()
    for kind, size in plan:
        while True:
            g = sampler.sample(kind, size)
            key = json.dumps([g["task_nodes"], g["task_links"]], sort_keys=True)
            if key not in seen:
                seen.add(key)
                break
        graphs.append(g)
    for i, g in enumerate(graphs):
        usable = voices if g["type"] != "single" else [v for v in voices if v != "steps"]
        g["voice"] = usable[(i * 7 + i // 6) % len(usable)]  # even rotation, not locked to position
    return [{"id": f"bi-{first_id + i:05d}",
             **{k: g[k] for k in ("type", "n_tools", "voice", "task_nodes", "task_links", "slots")}}
            for i, g in enumerate(graphs)]


def sample_rounds() -> list[list[dict]]:
    """Every round's graphs, in shards: the first round (seed 17: 3,200 graphs, shards 00-07 of 400),
    the second (seed 18: 800 graphs in the chatty and roundabout voices, shards 08-11 of 200), the
    third (seed 19: 800 graphs in the informed and inline voices, shards 12-15 of 200), the fourth
    (seed 20: 800 graphs in the indirect and curious voices, shards 16-19 of 200), the fifth (seed 21:
    800 graphs in the assisted and outcome voices, shards 20-23 of 200), the sixth (seed 22: 800 graphs
    in the enumerated and scenario voices, shards 24-27 of 200) and the seventh (seed 23: 800 graphs in the
    nominal and inquisitive voices, shards 28-31 of 200)."""
    first = sample_corpus()
    shards = [first[i:i + SHARD_SIZE] for i in range(0, N_GRAPHS, SHARD_SIZE)]
    first_id = N_GRAPHS
    for later in LATER_ROUNDS:
        graphs = sample_corpus(later["seed"], later["n"], later["voices"], first_id=first_id)
        shards += [graphs[i:i + later["shard_size"]] for i in range(0, len(graphs), later["shard_size"])]
        first_id += later["n"]
    return shards


def sample_generator_dev() -> list[list[dict]]:
    """The generator-style development set's graphs (GENERATOR_DEV: seed 40, ids gd-00000.., shards of 40)."""
    dev = GENERATOR_DEV
    graphs = [{**g, "id": g["id"].replace("bi-", "gd-")} for g in sample_corpus(dev["seed"], dev["n"], dev["voices"])]
    return [graphs[i:i + dev["shard_size"]] for i in range(0, len(graphs), dev["shard_size"])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--dev", action="store_true",
                        help="the generator-style development set's graphs (default out: bench/data/generator_dev/graphs)")
    args = parser.parse_args()
    if args.dev:
        shards = sample_generator_dev()
        args.out = args.out or HERE.parent.parent / "bench" / "data" / "generator_dev" / "graphs"
    else:
        shards = sample_rounds()
        args.out = args.out or HERE / "graphs"
    args.out.mkdir(parents=True, exist_ok=True)
    for number, rows in enumerate(shards):
        with open(args.out / f"shard_{number:02d}.jsonl", "w") as f:
            f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    print(json.dumps(summarize([g for rows in shards for g in rows]), indent=1))


def summarize(graphs: list[dict]) -> dict:
    return {
        "graphs": len(graphs),
        "type": dict(Counter(g["type"] for g in graphs)),
        "size_by_type": {k: dict(sorted(Counter(g["n_tools"] for g in graphs if g["type"] == k).items()))
                         for k in TYPE_MIX},
        "voice": dict(Counter(g["voice"] for g in graphs)),
        "tool_coverage": dict(Counter(n["task"] for g in graphs for n in g["task_nodes"]).most_common()),
        "links": sum(len(g["task_links"]) for g in graphs),
    }


if __name__ == "__main__":
    main()
