"""The DAG scheduler: references, parallelism, failure propagation, timeouts."""

import asyncio
from pathlib import Path

import pytest
from PIL import Image

from langchain_hugginggpt.agent.executor import TaskExecutor
from langchain_hugginggpt.core.schema import Plan, Selection, Task


def selections(**by_id):
    return {int(k[1:]): Selection(task_id=int(k[1:]), model_id=v, reason="test") for k, v in by_id.items()}


def run(plan, sel, workspace, **kw):
    return asyncio.run(TaskExecutor(workspace, **kw).arun(Plan(tasks=[Task.model_validate(t) for t in plan]), sel))


def test_references_resolve_to_earlier_outputs(test_engines, workspace):
    results = run([
        {"task": "image-to-image", "id": 0, "args": {"image": "red.png"}},
        {"task": "image-classification", "id": 1, "dep": [0], "args": {"image": "<resource>-0"}},
        {"task": "text2text-generation", "id": 2, "dep": [1], "args": {"text": "size is <resource>-1"}},
    ], selections(t0="test/grayscale", t1="test/image-size", t2="test/slow-upper"), workspace)
    assert [r.status for r in results.values()] == ["ok", "ok", "ok"]
    gray = Path(results[0].output.image)
    assert gray.parent == workspace.outputs and Image.open(gray).mode == "L"
    assert results[1].args["image"] == str(gray)
    assert results[2].args["text"] == "size is 64x48"
    assert results[2].output.text == "SIZE IS 64X48"


def test_independent_tasks_overlap_in_time(test_engines, workspace):
    results = run([
        {"task": "text2text-generation", "id": 0, "args": {"text": "a"}},
        {"task": "image-to-image", "id": 1, "args": {"image": "red.png"}},
        {"task": "text2text-generation", "id": 2, "dep": [0], "args": {"text": "<resource>-0 b"}},
    ], selections(t0="test/slow-upper", t1="test/grayscale", t2="test/slow-upper"), workspace)
    a, b, c = results[0], results[1], results[2]
    assert a.started_at < b.ended_at and b.started_at < a.ended_at  # 0 and 1 ran at the same time
    assert c.started_at >= a.ended_at  # 2 waited for its dependency


def test_concurrency_bound_serialises(test_engines, workspace):
    results = run([
        {"task": "text2text-generation", "id": 0, "args": {"text": "a"}},
        {"task": "text2text-generation", "id": 1, "args": {"text": "b"}},
    ], selections(t0="test/slow-upper", t1="test/slow-upper"), workspace, max_concurrency=1)
    first, second = sorted(results.values(), key=lambda r: r.started_at)
    assert second.started_at >= first.ended_at


def test_failure_skips_dependents_and_independent_tasks_finish(test_engines, workspace):
    results = run([
        {"task": "summarization", "id": 0, "args": {"text": "long text"}},
        {"task": "text2text-generation", "id": 1, "dep": [0], "args": {"text": "<resource>-0"}},
        {"task": "image-classification", "id": 2, "args": {"image": "red.png"}},
        {"task": "text2text-generation", "id": 3, "dep": [1], "args": {"text": "<resource>-1"}},
    ], selections(t0="test/always-fails", t1="test/slow-upper", t2="test/image-size", t3="test/slow-upper"), workspace)
    assert results[0].status == "error" and "broken on purpose" in results[0].error
    assert results[1].status == "skipped" and "task 0 error" in results[1].error
    assert results[3].status == "skipped" and "task 1 skipped" in results[3].error
    assert results[2].status == "ok" and results[2].output.text == "64x48"


def test_timeout_is_an_error_result(test_engines, workspace):
    results = run([{"task": "translation", "id": 0, "args": {"text": "hola"}}],
                  selections(t0="test/hangs"), workspace, task_timeout=0.5)
    assert results[0].status == "error" and "timed out after 0.5 s" in results[0].error


def test_missing_input_file_is_named(test_engines, workspace):
    results = run([{"task": "image-classification", "id": 0, "args": {"image": "nope.png"}}],
                  selections(t0="test/image-size"), workspace)
    assert results[0].status == "error" and "nope.png" in results[0].error and "not found" in results[0].error


def test_input_outside_workspace_is_refused(test_engines, workspace, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "x.png"
    Image.new("RGB", (4, 4)).save(outside)
    results = run([{"task": "image-classification", "id": 0, "args": {"image": str(outside)}}],
                  selections(t0="test/image-size"), workspace)
    assert results[0].status == "error" and "outside the workspace" in results[0].error


def test_hidden_files_in_the_workspace_are_not_read(workspace):
    """A project's .git or .env sits inside a --workspace; `GET /files` never serves it, and a step that read it
    would hand its words back in a summary or a caption."""
    from langchain_hugginggpt.core.workspace import WorkspaceError

    (workspace.root / ".git").mkdir()
    (workspace.root / ".git" / "notes.md").write_text("secret token ABC")
    Image.new("RGB", (4, 4)).save(workspace.root / ".git" / "x.png")
    (workspace.root / ".env.txt").write_text("KEY=1")
    (workspace.root / "link.md").symlink_to(workspace.root / ".git" / "notes.md")
    for value, read in ((".git/notes.md", workspace.text_input), (".env.txt", workspace.text_input),
                        ("link.md", workspace.text_input), (".git/x.png", workspace.resolve_input),
                        (str(workspace.root / ".git" / "x.png"), workspace.resolve_input)):
        try:
            read(value)
        except WorkspaceError as exc:
            assert "hidden file" in str(exc) and repr(value) in str(exc)
        else:
            raise AssertionError(f"{value} was read")
    assert workspace.resolve_input("red.png") == workspace.root / "red.png"


def test_unselected_model_error_is_kept(test_engines, workspace):
    sel = {0: Selection(task_id=0, model_id=None, reason="no model for depth-estimation can run here")}
    results = run([{"task": "depth-estimation", "id": 0, "args": {"image": "red.png"}}], sel, workspace)
    assert results[0].status == "error" and "can run here" in results[0].error


def test_steps_that_outlive_their_timeout_leave_asyncio_s_own_threads_free(test_engines, workspace):
    """A timed-out step's thread cannot be stopped. On asyncio's default pool, a few of them left planning, the
    checkpointer and the server's health check no thread for minutes (QA probe): steps run on a pool of their own."""
    import threading

    names = set()

    async def scenario():
        executor = TaskExecutor(workspace, max_concurrency=8, task_timeout=0.2)
        plan = Plan(tasks=[Task.model_validate({"task": "translation", "id": i, "args": {"text": "hola"}})
                           for i in range(8)])
        results = await executor.arun(plan, selections(**{f"t{i}": "test/hangs" for i in range(8)}))
        assert all("timed out" in r.error for r in results.values())
        # eight sleeping steps later, the default pool still answers at once
        names.add(await asyncio.wait_for(asyncio.to_thread(lambda: threading.current_thread().name), 1.0))
        names.update(t.name for t in threading.enumerate() if t.name.startswith("hugginggpt-expert"))

    asyncio.run(scenario())
    assert any(n.startswith("hugginggpt-expert") for n in names)
    assert any(not n.startswith("hugginggpt-expert") for n in names)


def test_a_file_url_reads_the_same_file_whatever_the_case_of_its_scheme(workspace, tmp_path_factory):
    """'FILE://...' matched the URL pattern (any case) but not the 'file://' prefix, so it was read as a
    relative path; now every spelling is the same local file, held to the same rules."""
    from langchain_hugginggpt.core.workspace import WorkspaceError

    target = workspace.root / "red.png"
    for scheme in ("file", "FILE", "File"):
        assert workspace.resolve_input(f"{scheme}://{target}") == target
    outside = tmp_path_factory.mktemp("elsewhere") / "y.png"
    Image.new("RGB", (4, 4)).save(outside)
    with pytest.raises(WorkspaceError, match="outside the workspace"):
        workspace.resolve_input(f"FILE://{outside}")
