"""DELETE /files/uploads/{name} and the storage quota of uploads/ (QA: uploads had no quota, no cleanup and no
DELETE, so any client could fill the disk and nobody could remove an upload)."""

import argparse
import asyncio
import http.client
import io
import os

import httpx
import pytest
from fastapi import HTTPException
from starlette.datastructures import Headers, UploadFile

from langchain_hugginggpt.server import create_app
from langchain_hugginggpt.cli.serve import add_commands
from langchain_hugginggpt.server.files import store_upload
from langchain_hugginggpt.core.workspace import Workspace

from .conftest import scripted_agent, shape_image, upload


def uploads_of(live) -> dict:
    folder = live.workspace.root / "uploads"
    return {p.name: p.stat().st_size for p in folder.iterdir()} if folder.exists() else {}


def send_text(http: httpx.Client, name: str, size: int) -> httpx.Response:
    return http.post("/files", files={"file": (name, b"x" * size, "text/plain")})


def raw_delete(live, path: str) -> tuple[int, str]:
    """DELETE with the path sent exactly as written (httpx would resolve '..' before sending)."""
    host, port = live.url.removeprefix("http://").rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.request("DELETE", path)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def test_delete_removes_the_upload_and_a_second_delete_is_404(client, server, tmp_path):
    stored = upload(client, shape_image(tmp_path / "gone.png", 2))
    path = server.workspace.root / stored["path"]
    used = server.state.uploads.used
    deleted = client.delete(stored["url"])
    assert deleted.status_code == 204 and deleted.content == b""
    assert not path.exists() and server.state.uploads.used == used - stored["size"]
    assert client.get(stored["url"]).status_code == 404
    again = client.delete(stored["url"])
    assert again.status_code == 404 and again.json()["error"] == (
        f"no upload {stored['path']!r} to delete: DELETE removes a file POST /files stored (/files/uploads/NAME)")


def test_delete_removes_nothing_but_an_upload(client, server, tmp_path):
    """Outputs, other workspace files, anything reached with '..' (plain, %-encoded, or with an encoded slash),
    an absolute path, a hidden file and a link in uploads/ to a file outside: all 404, all left in place."""
    root = server.workspace.root
    secret = root.parent / "keep-secret.txt"
    secret.write_text("outside the workspace")
    (root / "keep.txt").write_text("a workspace file")
    server.workspace.outputs.mkdir(parents=True, exist_ok=True)
    output = server.workspace.outputs / "keep-output.png"
    output.write_bytes(b"an output")
    upload(client, shape_image(tmp_path / "u.png", 1))  # makes uploads/
    (root / "uploads" / ".keep").write_text("hidden")
    link = root / "uploads" / "link.txt"
    if not link.is_symlink():
        os.symlink(secret, link)
    kept = {p: p.read_bytes() for p in (secret, root / "keep.txt", output, root / "uploads" / ".keep")}
    for path in ("/files/uploads/../keep.txt", "/files/uploads/%2e%2e/keep.txt", "/files/uploads/%2E%2E/keep.txt",
                 "/files/uploads/..%2Fkeep.txt", "/files/uploads/..%2F..%2Fkeep-secret.txt",
                 "/files/uploads/%2e%2e%2f%2e%2e%2fkeep-secret.txt", "/files/uploads/..%5C..%5Ckeep-secret.txt",
                 "/files/uploads/../../keep-secret.txt", "/files/outputs/keep-output.png", "/files/keep.txt",
                 "/files/" + str(secret), "/files/uploads/link.txt", "/files/uploads/.keep",
                 "/files/uploads", "/files/uploads/", "/files/uploads//keep.txt"):
        status, body = raw_delete(server, path)
        assert status == 404, (path, status, body)
        assert "no upload" in body and str(root) not in body and str(root.parent) not in body, body
    assert all(p.read_bytes() == data for p, data in kept.items())
    assert link.is_symlink() and secret.read_text() == "outside the workspace"


def test_an_upload_over_the_quota_is_refused_and_not_kept_until_a_delete_frees_room(start_server):
    live = start_server(max_upload_bytes=200_000, max_upload_storage=100_000)
    with live.client() as http:
        first = send_text(http, "first.txt", 60_000)
        assert first.status_code == 201
        before = uploads_of(live)
        refused = send_text(http, "second.txt", 50_000)
        assert refused.status_code == 507 and refused.json()["error"] == (
            "'second.txt' does not fit in the upload storage quota of 100000 bytes (40000 bytes free): free space "
            "by deleting uploads no longer needed (DELETE /files/uploads/NAME), then send it again")

        def chunks():  # no Content-Length: the quota holds while the body streams in
            yield b'--b0undary\r\nContent-Disposition: form-data; name="file"; filename="s.txt"\r\n'
            yield b"Content-Type: text/plain\r\n\r\n"
            for _ in range(5):
                yield b"y" * 10_000
            yield b"\r\n--b0undary--\r\n"

        chunked = http.post("/files", content=chunks(), headers={"content-type": "multipart/form-data; boundary=b0undary"})
        assert chunked.status_code == 507
        assert send_text(http, "huge.txt", 150_000).status_code == 507  # under the 200 kB a file may be, over the quota
        assert uploads_of(live) == before and live.state.uploads.used == 60_000
        assert http.delete(first.json()["url"]).status_code == 204
        assert send_text(http, "second.txt", 50_000).status_code == 201
        assert live.state.uploads.used == 50_000 == sum(uploads_of(live).values())


def test_the_quota_counts_what_uploads_held_at_start(start_server, tmp_path):
    workspace = tmp_path / "workspace"
    (workspace / "uploads").mkdir(parents=True)
    (workspace / "uploads" / "old.txt").write_bytes(b"o" * 80_000)
    live = start_server(workspace=workspace, max_upload_bytes=200_000, max_upload_storage=100_000)
    assert live.state.uploads.used == 80_000
    with live.client() as http:
        assert send_text(http, "new.txt", 30_000).status_code == 507
        assert http.delete("/files/uploads/old.txt").status_code == 204
        assert send_text(http, "new.txt", 30_000).status_code == 201


def test_concurrent_uploads_never_take_the_folder_over_the_quota(start_server):
    """Eight 1.5 MiB uploads at once against a 4 MiB quota: two fit whole, the others are refused."""
    size, quota = 3 * 2**19, 4 * 2**20
    live = start_server(max_upload_bytes=2 * 2**20, max_upload_storage=quota)

    async def send_all() -> list[int]:
        async with httpx.AsyncClient(base_url=live.url, timeout=120) as http:
            replies = await asyncio.gather(*(http.post("/files", files={"file": (f"t{i}.txt", b"z" * size, "text/plain")})
                                             for i in range(8)))
        return sorted(r.status_code for r in replies)

    assert asyncio.run(send_all()) == [201, 201, 507, 507, 507, 507, 507, 507]
    held = sum(uploads_of(live).values())
    assert held == 2 * size <= quota and live.state.uploads.used == held


def test_bytes_beyond_the_size_the_form_reported_are_counted_as_they_stream(tmp_path):
    """An upload whose size is not known before it is copied is still stopped at the quota, keeping nothing."""
    from langchain_hugginggpt.server.files import UploadQuota

    workspace = Workspace(tmp_path / "workspace")
    quota = UploadQuota(workspace.root / "uploads", 3 * 2**19)
    sent = UploadFile(io.BytesIO(b"w" * (2**21 - 1)), size=None, filename="w.txt",
                      headers=Headers({"content-type": "text/plain"}))
    with pytest.raises(HTTPException) as refused:
        asyncio.run(store_upload(sent, workspace, 4 * 2**20, quota))
    assert refused.value.status_code == 507 and "quota of 1572864 bytes" in refused.value.detail
    assert quota.used == 0 and list((workspace.root / "uploads").iterdir()) == []


def test_max_upload_storage_must_be_a_positive_whole_number(capsys, monkeypatch, tmp_path):
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers())
    assert parser.parse_args(["serve"]).max_upload_storage == 2 * 2**30
    assert parser.parse_args(["serve", "--max-upload-storage", "1048576"]).max_upload_storage == 1048576
    for value, problem in (("0", "must be 1 or more, not 0"), ("-5", "must be 1 or more, not -5"),
                           ("1.5", "not a whole number: '1.5'"), ("2GiB", "not a whole number: '2GiB'")):
        with pytest.raises(SystemExit) as exited:
            parser.parse_args(["serve", "--max-upload-storage", value])
        assert exited.value.code == 2
        assert f"argument --max-upload-storage: {problem}" in capsys.readouterr().err
    for value in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="max_upload_storage must be a whole number of bytes"):
            create_app(lambda ws: None, workspace=tmp_path / "ws", data_dir=tmp_path / "data", max_upload_storage=value)
    served = []
    monkeypatch.setattr("uvicorn.run", lambda app, **options: served.append(app))
    args = parser.parse_args(["serve", "--planner", "retrieval", "--responder", "template", "--workspace",
                              str(tmp_path / "ws"), "--data-dir", str(tmp_path / "data"), "--max-upload-storage", "12345"])
    args.func(args)
    assert served[0].state.hugginggpt.uploads.limit == 12345
    served[0].state.hugginggpt.store.close()


def test_an_app_mounted_under_a_prefix_takes_uploads_and_guards_them(tmp_path):
    """Under a route prefix (Ray Serve's route_prefix, a proxy's sub-path) ASGI's `path` holds the prefix: the
    guard read "/ctl/files" as no upload route and refused every multipart upload with 415."""
    app = create_app(workspace=tmp_path / "workspace", data_dir=tmp_path / "data", api_key="",
                     max_upload_bytes=1000, agent_factory=scripted_agent)

    async def go():
        transport = httpx.ASGITransport(app=app, root_path="/ctl")
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            stored = await http.post("/ctl/files", files={"file": ("note.txt", b"a short note", "text/plain")})
            too_big = await http.post("/ctl/files", files={"file": ("big.txt", b"x" * 5000, "text/plain")})
            served = await http.get("/ctl" + stored.json()["url"])
            return stored, too_big, served

    stored, too_big, served = asyncio.run(go())
    assert stored.status_code == 201, stored.text
    assert too_big.status_code == 413, too_big.text  # the upload limit applies under the prefix too
    assert served.status_code == 200 and served.content == b"a short note"
    app.state.hugginggpt.store.close()


def test_two_servers_on_one_workspace_share_one_quota(start_server, tmp_path):
    """Ray Serve replicas, or two servers on one folder, each kept their own total: together they held up to
    twice the quota. The count is now the folder's, with reservations in a ledger beside it."""
    workspace = tmp_path / "shared"
    one = start_server(workspace=workspace, max_upload_bytes=200_000, max_upload_storage=100_000)
    two = start_server(workspace=workspace, max_upload_bytes=200_000, max_upload_storage=100_000)
    with one.client() as first, two.client() as second:
        kept = send_text(first, "first.txt", 60_000)
        assert kept.status_code == 201
        assert send_text(second, "second.txt", 50_000).status_code == 507
        assert two.state.uploads.used == one.state.uploads.used == 60_000
        assert second.delete(kept.json()["url"]).status_code == 204
        assert send_text(second, "second.txt", 50_000).status_code == 201
    assert sum(uploads_of(one).values()) == 50_000


def _reserve_in_a_process(folder, limit, size, token, barrier, results):
    from langchain_hugginggpt.server.files import UploadQuota

    quota = UploadQuota(folder, limit)
    barrier.wait()
    results.put(quota._reserve(token, size))


def test_processes_reserving_at_once_never_pass_the_quota_and_a_dead_one_frees_its_bytes(tmp_path):
    import multiprocessing

    from langchain_hugginggpt.server.files import UploadQuota

    folder, size = tmp_path / "uploads", 1000
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(6), context.Queue()
    workers = [context.Process(target=_reserve_in_a_process, args=(folder, 4 * size, size, f"t{i}", barrier, results))
               for i in range(6)]
    for worker in workers:
        worker.start()
    outcomes = sorted(results.get(timeout=60) for _ in workers)
    for worker in workers:
        worker.join(60)
    assert outcomes == [False, False, True, True, True, True]
    # their uploads never arrived and the processes are gone: nothing is held
    assert UploadQuota(folder, 4 * size).used == 0
