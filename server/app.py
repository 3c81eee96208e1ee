"""`create_app`: the HuggingGPT agent served over HTTP by one FastAPI app.

    app = create_app()     # embedded defaults; the local LLM loads on the first request
    uvicorn.run(app, host="127.0.0.1", port=8004)

Routes (with an API key set, all but GET /health and the page's static shell need it):
  /hugginggpt/invoke|batch|stream|stream_log|playground   LangServe: HuggingGPTInput -> HuggingGPTResult
  POST /hugginggpt, /tasks, /results                      the original HuggingGPT API (routes.py)
  POST /files, GET /files/{path}                          uploads and workspace files (files.py)
  DELETE /files/uploads/{name}                            removes an upload (uploads share a storage quota)
  /conversations[/{id}[/messages]]                        conversations: LangGraph threads in a SQLite checkpointer
  POST /v1/chat/completions, GET /v1/models               OpenAI's chat-completions API (openai_api.py)
  GET /health                                             which LLM and which experts are ready
  GET /                                                   the chat page (static/)
Every error is JSON: `{"error": message, "status": code}`, never a stack trace. What every request
passes first (the key, the page origin, the Host, the body) is guard.py. No response names a path of
the server's disk (public.py). Browser pages on the allowed origins (default: loopback, any port) may
call every route; preflights are answered before auth.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import Depends, FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from langchain_hugginggpt.agent.checkpoints import CHECKPOINTS_NAME
from langchain_hugginggpt.core.downloads import UrlPolicy
from langchain_hugginggpt.server.conversations import ConversationThreads
from langchain_hugginggpt.server.guard import LOOPBACK_ORIGIN, Guard, json_error, origin_rule
from langchain_hugginggpt.server.openai_api import OpenAIErrors
from langchain_hugginggpt.server.public import PublicPaths, PublicPathsMiddleware
from langchain_hugginggpt.core.workspace import UPLOADS, Workspace

if TYPE_CHECKING:
    from langchain_hugginggpt.server.files import UploadQuota

logger = logging.getLogger(__name__)

API_KEY_ENV = "HUGGINGGPT_API_KEY"
STATIC = Path(__file__).parent / "static"
AgentFactory = Callable[[Workspace], Any]


@dataclass
class ServerState:
    agent: Any
    workspace: Workspace
    store: ConversationThreads
    max_upload_bytes: int
    uploads: UploadQuota
    api_key: str | None
    public: PublicPaths
    sse_ping_seconds: float = 15.0


def default_agent_factory(llm: str | None = None, **options: Any) -> AgentFactory:
    """Builds HuggingGPT with a controller preset; the LLM itself loads on first use."""

    def build(workspace: Workspace) -> Any:
        from langchain_hugginggpt.agent.hugginggpt import HuggingGPT

        return HuggingGPT.from_preset(llm, workspace=workspace, **options)

    return build


def create_app(agent_factory: AgentFactory | None = None, *, workspace: Workspace | str | Path | None = None,
               api_key: str | None = None, data_dir: str | Path | None = None,
               max_upload_bytes: int = 50 * 2**20, max_upload_storage: int = 2 * 2**30,
               max_body_bytes: int = 2 * 2**20,
               urls: UrlPolicy | None = None, cors_origins: Sequence[str] | None = None,
               sse_ping_seconds: float = 15.0, allowed_hosts: Sequence[str] = ()) -> FastAPI:
    """The app. `agent_factory(workspace)` returns the agent (HuggingGPT or alike); `workspace`
    (default: `<data dir>/workspace`) holds uploads and outputs; `api_key` (default:
    $HUGGINGGPT_API_KEY) turns on bearer auth; `data_dir` holds the conversations' checkpoints;
    `max_upload_bytes` bounds one upload and `max_upload_storage` all of `uploads/` together; `urls`
    sets which URL inputs the workspace made here downloads (default: public hosts only);
    `cors_origins` are the browser origins allowed to call it (`"*"`: any; default: the
    loopback origins on any port; empty: none; a POST or DELETE a browser sends from another origin is
    refused); `sse_ping_seconds` spaces the keep-alive comments of the conversation event stream;
    `allowed_hosts` are host names it answers to without an API key, besides loopback names and IP
    addresses (a page on another site that rebinds its own name to this machine gets no answer)."""
    from langserve import add_routes

    from langchain_hugginggpt.core.schema import HuggingGPTResult
    from langchain_hugginggpt.server.files import UploadQuota
    from langchain_hugginggpt.server.files import router as files_router
    from langchain_hugginggpt.server.openai_api import router as openai_router
    from langchain_hugginggpt.server.routes import router as api_router
    from langchain_hugginggpt.core.paths import data_dir as default_data_dir

    if isinstance(max_upload_storage, bool) or not isinstance(max_upload_storage, int) or max_upload_storage < 1:
        raise ValueError(f"max_upload_storage must be a whole number of bytes, 1 or more, not {max_upload_storage!r}")
    data = Path(data_dir) if data_dir is not None else default_data_dir()
    if not isinstance(workspace, Workspace):
        workspace = Workspace(workspace if workspace is not None else data / "workspace", urls=urls)
    workspace.root.mkdir(parents=True, exist_ok=True)
    api_key = (api_key if api_key is not None else os.environ.get(API_KEY_ENV)) or None
    agent = (agent_factory or default_agent_factory())(workspace)
    public = PublicPaths(workspace, private=[data])
    threads = ConversationThreads(agent, data / CHECKPOINTS_NAME, workspace)
    uploads = UploadQuota(workspace.root / UPLOADS, max_upload_storage)
    state = ServerState(agent, workspace, threads, max_upload_bytes, uploads, api_key, public, sse_ping_seconds)

    app = FastAPI(title="HuggingGPT", version="0.1.0",
                  description="HuggingGPT on LangChain: plan, select models, run them, answer.")
    app.state.hugginggpt = state
    # Outermost last: CORS answers preflights before auth; no response leaves with a disk path.
    app.add_middleware(Guard, api_key=api_key, max_body_bytes=max_body_bytes,
                       max_upload_bytes=max_upload_bytes + 64 * 1024,  # room for the multipart framing
                       origin_allowed=origin_rule(cors_origins), allowed_hosts=allowed_hosts)
    app.add_middleware(OpenAIErrors)  # outside the guard: its refusals on /v1/ come in OpenAI's shape too
    app.add_middleware(PublicPathsMiddleware, paths=public)
    _add_cors(app, cors_origins)
    _add_error_handlers(app)
    # The compatible POST /hugginggpt is an exact path; LangServe's routes live under /hugginggpt/...
    app.include_router(api_router)
    app.include_router(files_router)
    app.include_router(openai_router)
    add_routes(app, agent, path="/hugginggpt", output_type=HuggingGPTResult, serializer=_serializer(),
               dependencies=[Depends(_batch_inputs_checker(agent))])
    _add_health_and_page(app, state)
    return app


def _batch_inputs_checker(agent: Any) -> Callable:
    """LangServe validates batch inputs outside its error translation (a 500 for `"inputs": "x"`):
    check them first, as invoke does its input (a 422 naming the field)."""
    from pydantic import TypeAdapter, ValidationError

    inputs = TypeAdapter(list[agent.input_schema])

    async def check(request: Request) -> None:
        if request.method != "POST" or not request.url.path.endswith("/batch"):
            return
        try:
            body = await request.json()
        except ValueError:
            return  # LangServe answers invalid JSON itself
        if isinstance(body, dict) and "inputs" in body:
            try:
                inputs.validate_python(body["inputs"])
            except ValidationError as exc:
                raise RequestValidationError([{**e, "loc": ("body", "inputs", *e["loc"])} for e in exc.errors()]) from None

    return check


def _serializer() -> Any:
    """LangServe's serializer, also for the result's task-id keys (ints; JSON wants strings)."""
    import orjson
    from langserve.serialization import WellKnownLCSerializer, default

    def or_error_text(obj: Any) -> Any:
        # a failed expert's run in /stream_events carries its exception: sent as its message
        return f"{type(obj).__name__}: {obj}" if isinstance(obj, BaseException) else default(obj)

    class Serializer(WellKnownLCSerializer):
        def dumps(self, obj: Any) -> bytes:
            return orjson.dumps(obj, default=or_error_text, option=orjson.OPT_NON_STR_KEYS)

    return Serializer()


def _add_cors(app: FastAPI, origins: Sequence[str] | None) -> None:
    """Browser pages on other origins (the original HuggingGPT web client) may call the API:
    the listed origins, `*` for any, by default the loopback ones on any port."""
    if origins is not None and not origins:
        return
    exact = [] if origins is None else ["*"] if "*" in origins else [o.rstrip("/") for o in origins]
    app.add_middleware(CORSMiddleware, allow_origins=exact, allow_origin_regex=LOOPBACK_ORIGIN if origins is None else None,
                       allow_methods=["GET", "POST", "DELETE"], allow_headers=["Authorization", "Content-Type"],
                       max_age=600)



def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code in (404, 405) and exc.detail in ("Not Found", "Method Not Allowed"):
            what = "no route" if exc.status_code == 404 else "method not allowed:"
            return json_error(exc.status_code, f"{what} {request.method} {request.url.path}", exc.headers)
        if isinstance(exc.detail, str):
            return json_error(exc.status_code, exc.detail, exc.headers)
        return json_error(exc.status_code, _validation_message(exc.detail), exc.headers,
                      details=_brief(jsonable_encoder(exc.detail)))

    @app.exception_handler(RequestValidationError)
    async def invalid_body(request: Request, exc: RequestValidationError) -> JSONResponse:
        return json_error(422, _validation_message(exc.errors()), details=_brief(jsonable_encoder(exc.errors())))

    @app.exception_handler(RecursionError)
    async def too_deep(request: Request, exc: RecursionError) -> JSONResponse:
        return json_error(400, "invalid request: the body is nested too deeply to read")

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("unhandled error on %s %s", request.method, request.url.path)
        # Sent from outside the middlewares: hide disk paths here too.
        return json_error(500, request.app.state.hugginggpt.public.text(f"internal error: {type(exc).__name__}: {exc}"))


def _brief(errors: Any, limit: int = 200) -> Any:
    """Validation errors without a long echo of what was sent (a 900 kB file part came back whole)."""
    if not isinstance(errors, list):
        return errors
    out = []
    for error in errors:
        if isinstance(error, dict) and "input" in error:
            shown = error["input"] if isinstance(error["input"], str) else json.dumps(error["input"], default=str)
            if len(shown) > limit:
                error = {**error, "input": shown[:limit] + f"... ({len(shown):,} characters)"}
        out.append(error)
    return out


def _validation_message(errors: Any) -> str:
    """The first validation error as one line: 'invalid request: body.messages: Field required'."""
    if isinstance(errors, list) and errors and isinstance(errors[0], dict):
        first = errors[0]
        if first.get("type") == "json_invalid":  # its loc is ("body", character offset)
            offset = first.get("loc", ("body", None))[-1]
            return f"invalid request: the body is not valid JSON ({first.get('msg', '')} at character {offset})"
        where = ".".join(str(part) for part in first.get("loc", ()))
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        return f"invalid request: {where + ': ' if where else ''}{first.get('msg', 'invalid value')}{more}"
    return f"invalid request: {errors}"


def _add_health_and_page(app: FastAPI, state: ServerState) -> None:
    experts_cache: dict[str, Any] = {}

    @app.get("/health", tags=["server"])
    async def health() -> dict[str, Any]:
        """Which controller LLM is configured and ready, and which tasks have an expert here."""
        if time.monotonic() - experts_cache.get("at", -1e9) > 30:  # engine checks are cheap, not free
            experts_cache.update(value=await asyncio.to_thread(experts_status), at=time.monotonic())
        return {"status": "ok", "auth": state.api_key is not None, "llm": llm_status(getattr(state.agent, "llm", None)),
                "planner": getattr(state.agent, "planner", None), "experts": experts_cache["value"]}

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")


def llm_status(llm: Any) -> dict[str, Any]:
    """The controller LLM's name and whether it can answer (a cheap check: no load, no call)."""
    if llm is None:
        return {"name": None, "ready": False, "detail": "no controller LLM: the offline planner and template answers"}
    from langchain_hugginggpt.agent.llms import llm_name
    from langchain_hugginggpt.agent.local_llm import ChatLlamaCpp

    status: dict[str, Any] = {"name": llm_name(llm), "type": getattr(llm, "_llm_type", type(llm).__name__)}
    if isinstance(llm, ChatLlamaCpp):
        problems = []
        if importlib.util.find_spec("xllamacpp") is None:
            problems.append("llama.cpp (xllamacpp) is not installed: pip install 'langchain-hugginggpt[local-llm]'")
        if not Path(llm.model_path).is_file():
            problems.append(f"model file {llm.model_path} not found")
        loaded = llm.loaded
        status.update(ready=not problems, loaded=loaded,
                      detail="; ".join(problems) or ("loaded" if loaded else "loads on the first request"))
    else:
        status.update(ready=True, detail="remote or custom model: not probed")
    return status


def experts_status() -> dict[str, Any]:
    """Tasks with a real model that runs here, tasks with only a stand-in, and the rest."""
    from langchain_hugginggpt.tools import TASKS, task_status

    rows = [task_status(name) for name in TASKS]
    return {"ready": {r["task"]: r["models"] for r in rows if r["models"]},
            "stand_in_only": {r["task"]: r["stand_ins"] for r in rows if not r["models"] and r["stand_ins"]},
            "unavailable": [r["task"] for r in rows if not r["models"] and not r["stand_ins"]]}
