"""Refresh from the Hugging Face Hub: the most downloaded models of a task, with their cards.

Two Hub routes are used, both through `huggingface_hub` (so `HF_ENDPOINT`, `HF_TOKEN` and
`HF_HUB_OFFLINE` behave as everywhere else): `GET /api/models` (`HfApi.list_models`) and
`GET /{repo_id}/resolve/main/README.md` (the model card).
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from langchain_hugginggpt.retriever.cards import DEFAULT_MAX_CHARS
from langchain_hugginggpt.retriever.records import CatalogError, ModelRecord, record_from_p0
from langchain_hugginggpt.core.tasks import TASKS

logger = logging.getLogger(__name__)

# Our tasks that are also Hub pipeline tags (the others, like the ControlNet ones, are not).
HUB_TASKS: tuple[str, ...] = tuple(t for t, spec in TASKS.items() if spec.on_hub)
EXPAND = ["downloads", "likes", "tags", "pipeline_tag", "cardData", "safetensors"]
# Hub tags that say nothing about what a model does.
_NOISE_TAGS = {"transformers", "pytorch", "tf", "jax", "safetensors", "onnx", "endpoints_compatible", "autotrain_compatible",
               "text-generation-inference", "has_space", "deploy:azure", "model-index"}


def _card(api: Any, repo_id: str) -> str | None:
    """The model card's markdown, or None when the repo has none (a failure here is not fatal)."""
    from huggingface_hub import hf_hub_url
    from huggingface_hub.utils import build_hf_headers, get_session, hf_raise_for_status

    url = hf_hub_url(repo_id, "README.md", endpoint=api.endpoint)
    try:
        response = get_session().get(url, headers=build_hf_headers(token=api.token), timeout=30,
                                     follow_redirects=True)
        hf_raise_for_status(response)
        return response.text
    except Exception as exc:  # one missing card must not lose the task's list
        logger.warning("no model card for %s: %s", repo_id, exc)
        return None


def _record(info: Any, card: str | None, task: str, max_chars: int) -> ModelRecord:
    from huggingface_hub import ModelCard

    meta: dict[str, Any] = {}
    body = None
    if card:
        parsed = ModelCard(card, ignore_metadata_errors=True)
        meta, body = parsed.data.to_dict(), parsed.text
    if getattr(info, "card_data", None) is not None:
        meta = {**meta, **info.card_data.to_dict()}
    if not meta.get("tags"):
        meta["tags"] = [t for t in (info.tags or []) if ":" not in t and t not in _NOISE_TAGS and t != task]
    row = {"id": info.id, "task": task, "downloads": info.downloads, "likes": info.likes, "meta": meta,
           "description": body}
    record = record_from_p0(row, max_chars=max_chars, source="hub")
    if getattr(info, "safetensors", None) is not None and info.safetensors.total:
        record.size = int(info.safetensors.total)
    return record


def fetch_task(task: str, limit: int = 30, endpoint: str | None = None, token: str | bool | None = None,
               max_chars: int = DEFAULT_MAX_CHARS, workers: int = 8) -> list[ModelRecord]:
    """The `limit` most downloaded Hub models for `task`, as catalog records."""
    if task not in HUB_TASKS:
        raise CatalogError(f"cannot refresh {task!r} from the Hub: it is not a Hub pipeline tag; "
                           f"refreshable tasks: {', '.join(HUB_TASKS)}")
    if limit < 1:
        raise CatalogError(f"cannot refresh {task!r}: --limit must be at least 1 (got {limit})")
    try:
        import httpx
        from huggingface_hub import HfApi
        from huggingface_hub.errors import OfflineModeIsEnabled
    except ImportError as exc:
        raise CatalogError(f"cannot refresh from the Hub: {exc.name} is not installed "
                           "(pip install 'langchain-hugginggpt[retrieval]')") from exc
    api = HfApi(endpoint=endpoint, token=token)
    try:
        infos = list(api.list_models(pipeline_tag=task, sort="downloads", limit=limit, expand=EXPAND))
    except OfflineModeIsEnabled as exc:
        raise CatalogError("cannot refresh from the Hub: offline mode is on (HF_HUB_OFFLINE=1); unset it when "
                           "online, or import a model list with `hugginggpt models import FILE`") from exc
    except (httpx.HTTPError, OSError) as exc:
        raise CatalogError(f"cannot list {task} models on the Hub at {api.endpoint}: {type(exc).__name__}: {exc}. "
                           "Offline? Import a model list with `hugginggpt models import FILE` instead") from exc
    with ThreadPoolExecutor(max_workers=workers) as pool:
        cards = list(pool.map(lambda info: _card(api, info.id), infos))
    return [_record(info, card, task, max_chars) for info, card in zip(infos, cards)]
