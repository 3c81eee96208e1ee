"""transformers runners for the language tasks. Each returns the result in the shape the
transformers pipeline of that task returns (transformers 5 dropped the summarization,
translation, text2text and question-answering pipelines; those runners do what the
pipelines did, on the same model classes)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, ClassVar

from langchain_hugginggpt.tools.base import ExpertOutput
from langchain_hugginggpt.tools.engines._hub import TransformersEngine, jsonable, torch_device
from langchain_hugginggpt.core.languages import translation_languages

if TYPE_CHECKING:
    from langchain_hugginggpt.core.workspace import Workspace


def labels_text(items: list[dict[str, Any]]) -> str:
    """"positive (0.98), negative (0.02)" from pipeline-shaped label scores."""
    return ", ".join(f"{d['label']} ({d['score']:.2f})" if d.get("score") is not None else str(d["label"]) for d in items)


class TextClassification(TransformersEngine):
    pipeline_task = "text-classification"

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        result = jsonable(self.pipeline()(self.require(inputs, "text"), truncation=True))
        return ExpertOutput(model=self.model_id, result=result, text=labels_text(result))


class TokenClassification(TransformersEngine):
    pipeline_task = "token-classification"

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        result = jsonable(self.pipeline()(self.require(inputs, "text"), aggregation_strategy="simple"))
        found = ", ".join(f"{e['word']} ({e['entity_group']})" for e in result)
        return ExpertOutput(model=self.model_id, result=result, text=found or "no entities found")


class ZeroShotClassification(TransformersEngine):
    pipeline_task = "zero-shot-classification"

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        text = self.require(inputs, "text")
        raw = inputs.get("labels") or ""
        labels = [label.strip() for label in (raw.split(",") if isinstance(raw, str) else raw) if label.strip()]
        if not labels:
            raise self.fail("zero-shot classification needs candidate labels (slot 'labels', comma-separated)")
        result = jsonable(self.pipeline()(text, candidate_labels=labels))
        pairs = [{"label": lab, "score": s} for lab, s in zip(result["labels"], result["scores"])]
        return ExpertOutput(model=self.model_id, result=result, text=labels_text(pairs))


class TextGeneration(TransformersEngine):
    pipeline_task = "text-generation"
    max_new_tokens: ClassVar[int] = 64

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        result = jsonable(self.pipeline()(self.require(inputs, "text"), max_new_tokens=self.max_new_tokens))
        return ExpertOutput(model=self.model_id, result=result, text=result[0]["generated_text"])


class Conversational(TextGeneration):
    """A chat reply: the message goes through the model's chat template when it has one."""

    max_new_tokens = 128

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        text = self.require(inputs, "text")
        pipe = self.pipeline()
        if getattr(pipe.tokenizer, "chat_template", None):
            out = pipe([{"role": "user", "content": text}], max_new_tokens=self.max_new_tokens)
            conversation = jsonable(out[0]["generated_text"])
            reply = conversation[-1]["content"]
        else:  # a plain language model: continue the text
            out = pipe(text, max_new_tokens=self.max_new_tokens, return_full_text=False)
            reply = out[0]["generated_text"]
            conversation = [{"role": "user", "content": text}, {"role": "assistant", "content": reply}]
        return ExpertOutput(model=self.model_id, result={"generated_text": reply, "conversation": conversation}, text=reply)


class Seq2SeqGeneration(TransformersEngine):
    """text2text-generation, summarization and translation: an encoder-decoder's `generate`."""

    output_key: ClassVar[str] = "generated_text"
    prefix_key: ClassVar[str | None] = None  # T5 checkpoints keep a task prefix in task_specific_params
    max_new_tokens: ClassVar[int] = 256

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        output = self.generate(self.require(inputs, "text"))
        return ExpertOutput(model=self.model_id, result=[{self.output_key: output}], text=output)

    def generate(self, text: str, src_lang: str | None = None, tgt_lang: str | None = None) -> str:
        """The model's output for `text`; a many-language model reads `src_lang` before the text and is made to
        start its output with `tgt_lang` (the model's own codes: NLLB's fra_Latn, M2M100's fr)."""
        import torch

        tokenizer = self.pretrained("AutoTokenizer")
        model = self.pretrained("AutoModelForSeq2SeqLM")
        params = (getattr(model.config, "task_specific_params", None) or {}).get(self.prefix_key or "", {})
        with _SOURCE_LANGUAGE_LOCK:  # the cached tokenizer is shared: its src_lang holds for one call only
            if src_lang:
                tokenizer.src_lang = src_lang
            encoded = tokenizer(params.get("prefix", "") + text, truncation=True, return_tensors="pt").to(torch_device())
        extra = {"forced_bos_token_id": _language_token_id(self, tokenizer, tgt_lang)} if tgt_lang else {}
        # Learned position tables (BART, Marian) bound the output length; T5's relative ones do not.
        limit = getattr(model.config, "max_position_embeddings", None) or self.max_new_tokens + 2
        with torch.inference_mode():  # token_type_ids (BERT-style tokenizers) mean nothing to a decoder
            generated = model.generate(input_ids=encoded["input_ids"], attention_mask=encoded["attention_mask"],
                                       max_new_tokens=min(self.max_new_tokens, limit - 2), **extra)
        return tokenizer.decode(generated[0], skip_special_tokens=True).strip()


_SOURCE_LANGUAGE_LOCK = threading.Lock()


def _language_token_id(engine: TransformersEngine, tokenizer: Any, code: str) -> int:
    """The token a many-language model's output starts with for `code` (M2M100 writes fr as __fr__)."""
    token_id = tokenizer.get_lang_id(code) if hasattr(tokenizer, "get_lang_id") else tokenizer.convert_tokens_to_ids(code)
    if token_id is None or token_id == tokenizer.unk_token_id:
        raise engine.fail(f"the tokenizer of {engine.model_id} has no language token {code!r}")
    return token_id


class Summarization(Seq2SeqGeneration):
    output_key = "summary_text"
    prefix_key = "summarization"


class Translation(Seq2SeqGeneration):
    output_key = "translation_text"

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        # a model of one fixed pair would answer in its own language, not the one asked for; a many-language
        # one needs both languages in its own codes
        try:
            codes = translation_languages(self.model_id, inputs.get("source_lang"), inputs.get("target_lang"))
        except ValueError as exc:
            raise self.fail(str(exc)) from None
        output = self.generate(self.require(inputs, "text"), codes.get("src_lang"), codes.get("tgt_lang"))
        note = f"{codes['src_lang']} -> {codes['tgt_lang']}" if codes else None
        return ExpertOutput(model=self.model_id, result=[{self.output_key: output}], text=output, note=note)


class QuestionAnswering(TransformersEngine):
    """Extractive QA: the most likely answer span of the context, as the pipeline picks it."""

    max_answer_tokens: ClassVar[int] = 30

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        import torch

        question, context = self.require(inputs, "text"), self.require(inputs, "context")
        tokenizer = self.pretrained("AutoTokenizer")
        model = self.pretrained("AutoModelForQuestionAnswering")
        encoded = tokenizer(question, context, truncation="only_second", max_length=min(tokenizer.model_max_length, 512),
                            return_offsets_mapping=True, return_tensors="pt")
        offsets = encoded.pop("offset_mapping")[0].tolist()
        in_context = torch.tensor([sid == 1 for sid in encoded.sequence_ids(0)])
        with torch.inference_mode():
            out = model(**{k: v.to(torch_device()) for k, v in encoded.items()})
        start = out.start_logits[0].float().cpu().masked_fill(~in_context, -1e9).softmax(-1)
        end = out.end_logits[0].float().cpu().masked_fill(~in_context, -1e9).softmax(-1)
        # P(start=i) * P(end=j) over spans with i <= j < i + max_answer_tokens
        scores = torch.triu(start[:, None] * end[None, :]).tril(self.max_answer_tokens - 1)
        best = int(scores.argmax())
        i, j = divmod(best, scores.shape[1])
        begin, finish = offsets[i][0], offsets[j][1]
        result = {"score": float(scores.flatten()[best]), "start": begin, "end": finish, "answer": context[begin:finish]}
        return ExpertOutput(model=self.model_id, result=result, text=result["answer"])


class SentenceSimilarity(TransformersEngine):
    """Cosine similarity of mean-pooled token embeddings (the sentence-transformers recipe)."""

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        import torch

        sentences = [self.require(inputs, "text"), self.require(inputs, "text2")]
        tokenizer = self.pretrained("AutoTokenizer")
        model = self.pretrained("AutoModel")
        encoded = tokenizer(sentences, padding=True, truncation=True, return_tensors="pt").to(torch_device())
        with torch.inference_mode():
            hidden = model(**encoded).last_hidden_state
        mask = encoded["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        score = float(torch.nn.functional.cosine_similarity(pooled[0:1], pooled[1:2]).item())
        return ExpertOutput(model=self.model_id, result=[score], text=f"similarity {score:.3f}")
