"""Memory under chat traffic: a `hugginggpt serve` process's RSS over hundreds of chit-chat requests.

    python bench/bench_memory.py [--warmup 100] [--requests 600] [--every 50]
    python bench/bench_memory.py --prefix-reuse


Starts `hugginggpt serve` (the `local` preset: the embedded SmolLM2 answers chit-chat) on
127.0.0.1 with a temporary HUGGINGGPT_HOME, and sends distinct small-talk requests one at a
time to POST /hugginggpt, as a chat client would. The requests are built from templates and
kept only if the retrieval planner finds no task in them, so each one reaches the LLM. The
server's resident memory (RSS, psutil) is printed after the warm-up and every `--every`
requests after it; the growth over the measured requests is what the issue bounds (< 100 MB
for 600). The warm-up fills the LLM's KV-state cache (llama.cpp's RAM cache of prompt states, `ChatLlamaCpp.prompt_cache_mb`),
which is meant to stay full.

`--prefix-reuse` checks in process that the bounded cache still saves the work it is for:
LLM planning prompts (~1,500 tokens, mostly a fixed prefix) with chat calls between them,
with the cache on and off, counting the prompt tokens llama.cpp evaluates for each call
(the prompt's tokens less those it loaded from its cache).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil

OPENERS = ["Hi there!", "Hello!", "Good morning!", "Hey,", "Good evening!", "Thanks for earlier.",
           "Nice to meet you.", "Greetings!", "Hi again!", "Good afternoon!", "Hey there,", "Hello friend!"]
QUESTIONS = ["What do you think about {}?", "Do you like {}?", "Have you ever heard of {}?",
             "Why do people enjoy {}?", "Is {} popular where you come from?", "What is your opinion of {}?",
             "Are you a fan of {}?", "How do you feel about {}?", "Would you recommend {}?"]
# Asked for brevity: SmolLM2 otherwise runs on for hundreds of tokens, and 700 requests take hours on 2 cores.
CLOSERS = ["Keep it short.", "One line, please.", "Answer in a few words."]
TOPICS = ["rainy days", "jazz music", "chess", "long walks", "mountains", "coffee", "old castles", "the ocean",
          "autumn leaves", "board games", "gardening", "poetry", "baking bread", "street food", "trains",
          "snowy winters", "folk songs", "libraries", "cycling", "sunrises", "puzzles", "tea ceremonies",
          "camping", "museums", "dancing", "kites", "lighthouses", "markets", "winter sports", "picnics",
          "classical music", "early mornings", "hiking trails", "summer holidays", "handwritten letters",
          "small towns", "river cruises", "thunderstorms", "bookshops", "fresh fruit"]
CHAT_MARK = "I found no task for an expert model"  # how the agent begins a chat reply after the retrieval planner


def chat_requests(n: int, seed: int = 0) -> list[str]:
    """`n` distinct small-talk requests in which the retrieval planner finds no task."""
    from langchain_hugginggpt.planning import default_planner

    planner = default_planner()
    texts = [f"{o} {q.format(t)} {c}" for o, q, t, c in itertools.product(OPENERS, QUESTIONS, TOPICS, CLOSERS)]
    random.Random(seed).shuffle(texts)
    chat = []
    for text in texts:  # planning every template takes minutes: stop once there are enough
        if not planner.plan(text).plan.tasks:
            chat.append(text)
            if len(chat) == n:
                break
    if len(chat) < n:
        raise SystemExit(f"only {len(chat)} of the {len(texts)} template requests are chit-chat; asked for {n}")
    return chat[:n]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(home: Path, port: int, log: Path) -> subprocess.Popen:
    env = {**os.environ, "HUGGINGGPT_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    with log.open("wb") as sink:  # a file, not a pipe: a full pipe would block the server
        proc = subprocess.Popen([sys.executable, "-m", "langchain_hugginggpt.cli.main", "serve", "--llm", "local",
                                 "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
                                env=env, stdout=sink, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 300
    while True:
        if proc.poll() is not None:
            raise SystemExit("the server exited: " + log.read_text()[-2000:])
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise SystemExit("the server did not answer /health within 300 s: " + log.read_text()[-2000:])
        time.sleep(0.5)


def rss_mb(proc: psutil.Process) -> float:
    return proc.memory_info().rss / 2**20


def prefix_reuse() -> None:
    """Plan, chat, plan, chat, plan (each request new), with llama.cpp's prompt cache on and off."""
    from langchain_core.messages import HumanMessage, SystemMessage

    from langchain_hugginggpt.agent.local_llm import ChatLlamaCpp
    from langchain_hugginggpt.agent.llm_planner import LLMPlanner
    from langchain_hugginggpt.prompts import render

    calls = [("plan", "Detect the objects in street.jpg"), ("chat", "Hello, how are you?"),
             ("plan", "Caption photo.png and read the caption aloud"), ("chat", "What is the capital of France?"),
             ("plan", "Translate 'good morning' into German")]
    print("| prompt cache | " + " | ".join(f"{kind} {i + 1}" for i, (kind, _) in enumerate(calls)) + " |")
    print("|---" * (len(calls) + 1) + "|")
    for cache_mb in (0, ChatLlamaCpp().prompt_cache_mb):
        llm = ChatLlamaCpp(max_tokens=1, prompt_cache_mb=cache_mb)  # one token: the prompt's cost alone
        planner = LLMPlanner(llm)
        cells = []
        for kind, request in calls:
            messages = planner.messages(request)[0] if kind == "plan" else [SystemMessage(render("chat.md")),
                                                                             HumanMessage(request)]
            started = time.perf_counter()
            usage = llm.invoke(messages).usage_metadata
            seconds = time.perf_counter() - started
            evaluated = usage["input_tokens"] - usage["input_token_details"]["cache_read"]
            cells.append(f"{evaluated} of {usage['input_tokens']} tokens, {seconds:.2f} s")
        print(f"| {f'{cache_mb} MB' if cache_mb else 'off'} | " + " | ".join(cells) + " |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warmup", type=int, default=100, help="requests before the first measured RSS")
    parser.add_argument("--requests", type=int, default=600, help="measured requests after the warm-up")
    parser.add_argument("--every", type=int, default=50, help="print RSS every this many requests")
    parser.add_argument("--prefix-reuse", action="store_true", help="measure what the prompt cache saves instead")
    args = parser.parse_args(argv)
    if args.prefix_reuse:
        prefix_reuse()
        return 0
    requests = chat_requests(args.warmup + args.requests)
    home = Path(tempfile.mkdtemp(prefix="bench-memory-"))
    port = free_port()
    server = start_server(home, port, home / "server.log")
    proc = psutil.Process(server.pid)
    print(f"server pid {server.pid} on 127.0.0.1:{port}; RSS after start {rss_mb(proc):.0f} MB", flush=True)
    print("| requests | RSS MB | change since warm-up MB | s per request (last block) |\n|---|---|---|---|", flush=True)
    base = None
    chat_replies, reply_chars = 0, 0
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600) as client:
            block_start = time.perf_counter()
            for done, text in enumerate(requests, start=1):
                reply = client.post("/hugginggpt", json={"messages": [{"role": "user", "content": text}]})
                reply.raise_for_status()
                message = reply.json()["message"]
                chat_replies += message.startswith(CHAT_MARK)
                reply_chars += len(message.removeprefix(CHAT_MARK).split("\n\n", 1)[-1])
                measured = done - args.warmup
                if measured == 0 or (measured > 0 and measured % args.every == 0):
                    rss = rss_mb(proc)
                    base = rss if base is None else base
                    per_request = (time.perf_counter() - block_start) / (args.warmup if measured == 0 else args.every)
                    print(f"| {args.warmup} + {measured} | {rss:.0f} | {rss - base:+.0f} | {per_request:.2f} |",
                          flush=True)
                    block_start = time.perf_counter()
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:  # a reply still being generated when the bench stopped
            server.kill()
        shutil.rmtree(home, ignore_errors=True)
    growth = rss - base
    print(f"\n{chat_replies} of {len(requests)} replies were chit-chat from the LLM ({reply_chars / len(requests):.0f} "
          f"characters on average); RSS grew {growth:+.0f} MB over "
          f"{args.requests} requests after {args.warmup} of warm-up ({'under' if growth < 100 else 'NOT under'} "
          f"the 100 MB bound)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
