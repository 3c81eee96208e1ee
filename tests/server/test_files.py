"""Uploads and served files: limits, the media-type allow-list, sanitised names, no way out of the workspace."""

import io
import os
import wave

import numpy as np
from PIL import Image

from .conftest import shape_image, upload


def test_upload_is_stored_in_the_workspace_and_served_back(client, server, tmp_path):
    source = shape_image(tmp_path / "Holiday Photo.png", 4)
    stored = upload(client, source)
    assert stored["kind"] == "image" and stored["media_type"] == "image/png" and stored["size"] == source.stat().st_size
    assert stored["path"].startswith("uploads/Holiday-Photo-") and stored["path"].endswith(".png")
    assert (server.workspace.root / stored["path"]).read_bytes() == source.read_bytes()
    served = client.get(stored["url"])
    assert served.status_code == 200 and served.content == source.read_bytes()
    assert served.headers["x-content-type-options"] == "nosniff"


def test_audio_and_jpeg_get_the_extension_of_their_real_format(client, tmp_path):
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1), out.setsampwidth(2), out.setframerate(16000)
        out.writeframes((np.sin(np.arange(1600) / 5) * 8000).astype("<i2").tobytes())
    (tmp_path / "tone.bin").write_bytes(buffer.getvalue())
    audio = upload(client, tmp_path / "tone.bin", media_type="application/octet-stream")
    assert audio["kind"] == "audio" and audio["path"].endswith(".wav")
    Image.new("RGB", (8, 8), "red").save(tmp_path / "red.png.jpeg", "JPEG")
    photo = upload(client, tmp_path / "red.png.jpeg", name="red.png", media_type="image/png")
    assert photo["media_type"] == "image/jpeg" and photo["path"].endswith(".jpg")


def test_too_large_upload_is_refused_and_not_kept(client, server, tmp_path):
    noise = np.random.default_rng(0).integers(0, 256, (300, 300, 3), dtype=np.uint8)
    Image.fromarray(noise).save(tmp_path / "noise.png")  # ~270 kB against a 200 kB limit
    before = set((server.workspace.root / "uploads").glob("*"))
    with (tmp_path / "noise.png").open("rb") as handle:
        response = client.post("/files", files={"file": ("noise.png", handle, "image/png")})
    assert response.status_code == 413 and "limit" in response.json()["error"]

    def chunks():  # no Content-Length: the limit must hold while the body streams in
        boundary = b"--b0undary"
        yield boundary + b'\r\nContent-Disposition: form-data; name="file"; filename="n.png"\r\nContent-Type: image/png\r\n\r\n'
        data = (tmp_path / "noise.png").read_bytes()
        for start in range(0, len(data), 16384):
            yield data[start:start + 16384]
        yield b"\r\n" + boundary + b"--\r\n"

    chunked = client.post("/files", content=chunks(), headers={"content-type": "multipart/form-data; boundary=b0undary"})
    assert chunked.status_code == 413
    assert set((server.workspace.root / "uploads").glob("*")) == before


def test_wrong_types_are_refused(client, tmp_path):
    script = tmp_path / "evil.png"
    script.write_text("<script>alert(1)</script>")
    for media_type in ("image/png", "text/html"):
        with script.open("rb") as handle:
            response = client.post("/files", files={"file": ("evil.png", handle, media_type)})
        assert response.status_code == 415, response.text
    assert "images, audio, video or plain text" in response.json()["error"]
    svg = client.post("/files", files={"file": ("a.svg", b"<svg xmlns='http://www.w3.org/2000/svg'/>", "image/svg+xml")})
    assert svg.status_code == 415
    not_multipart = client.post("/files", content=b"\x89PNG", headers={"content-type": "image/png"})
    assert not_multipart.status_code == 415 and "multipart/form-data" in not_multipart.json()["error"]
    no_file = client.post("/files", files={"other": ("a.png", b"x", "image/png")})
    assert no_file.status_code == 422


def test_path_traversal_names_are_sanitised(client, server, tmp_path):
    outside = server.workspace.root.parent
    before = set(outside.rglob("*"))
    for name in ("../../escape.png", "..\\..\\escape.png", "/etc/escape.png", "..", ".hidden.png"):
        stored = upload(client, shape_image(tmp_path / "x.png", 1), name=name)
        path = (server.workspace.root / stored["path"]).resolve()
        assert path.parent == (server.workspace.root / "uploads").resolve(), name
        assert "/" not in stored["path"].removeprefix("uploads/") and not path.name.startswith(".")
    added = set(outside.rglob("*")) - before
    assert all(server.workspace.root in p.parents for p in added)


def test_nothing_outside_the_workspace_is_served(client, server):
    secret = server.workspace.root.parent / "secret.txt"
    secret.write_text("do not serve")
    (server.workspace.root / ".env").write_text("TOKEN=1")
    link = server.workspace.root / "link.txt"
    if not link.exists():
        os.symlink(secret, link)
    for path in ("/files/../secret.txt", "/files/..%2Fsecret.txt", "/files/%2E%2E/secret.txt",
                 "/files/uploads/..%2F..%2Fsecret.txt", "/files//etc/passwd", "/files/%2Fetc%2Fpasswd",
                 "/files/link.txt", "/files/.env", "/files/uploads", "/files/"):
        response = client.get(path)
        assert response.status_code == 404, (path, response.status_code)
        assert "do not serve" not in response.text and "root:" not in response.text


def test_served_text_and_json_files_are_their_own_bytes(client, server):
    """The server cuts disk paths out of its own messages; a workspace file that holds one is sent as it is,
    whole or in ranges."""
    text = "Config at /etc/nginx/nginx.conf and /usr/local/bin/tool.\n"
    (server.workspace.root / "notes.txt").write_text(text)
    (server.workspace.root / "data.json").write_text('{"a": "/etc/passwd"}')
    served = client.get("/files/notes.txt")
    assert served.status_code == 200 and served.text == text
    assert client.get("/files/data.json").text == '{"a": "/etc/passwd"}'
    part = client.get("/files/notes.txt", headers={"Range": "bytes=0-20"})
    assert part.status_code == 206 and part.content == text.encode()[:21]
    assert part.headers["content-range"] == f"bytes 0-20/{len(text.encode())}"
    # the server's own answers still show no path
    missing = client.get("/files/nope.txt")
    assert missing.status_code == 404 and str(server.workspace.root) not in missing.text


PASSAGE = ("The city council met on Monday evening. After a long debate about the new park, the members agreed on a "
           "budget of two million euros and set the opening for next spring. Residents welcomed the decision. " * 3)


def test_a_text_too_long_for_a_request_is_uploaded_and_read_by_the_step_that_names_it(start_server, tmp_path):
    from langchain_hugginggpt.agent.hugginggpt import HuggingGPT

    live = start_server(agent_factory=lambda ws: HuggingGPT(llm=None, planner="retrieval", responder="template",
                                                            workspace=ws, log_runs=False))
    with live.client() as http:
        (tmp_path / "minutes.txt").write_text(PASSAGE, encoding="utf-8")
        stored = upload(http, tmp_path / "minutes.txt", media_type="text/plain")
        assert stored["kind"] == "text" and stored["path"].endswith(".txt") and stored["media_type"] == "text/plain"
        served = http.get(stored["url"])
        assert served.text == PASSAGE and served.headers["x-content-type-options"] == "nosniff"
        reply = http.post("/hugginggpt", json={"messages": [{"role": "user", "content": f"Summarize {stored['path']}"}]})
        assert reply.status_code == 200, reply.text
        answer = reply.json()["message"]
        assert "summarization" in answer and "The city council met on Monday evening." in answer  # the file's words
        # bytes that are not text, sent as text/plain, are refused
        (tmp_path / "noise.txt").write_bytes(bytes(range(256)))
        with (tmp_path / "noise.txt").open("rb") as handle:
            refused = http.post("/files", files={"file": ("noise.txt", handle, "text/plain")})
        assert refused.status_code == 415 and "nor UTF-8 text sent as text/plain" in refused.json()["error"]


def test_an_empty_upload_is_named_as_empty(client, tmp_path):
    (tmp_path / "blank.png").write_bytes(b"")
    with (tmp_path / "blank.png").open("rb") as handle:
        refused = client.post("/files", files={"file": ("blank.png", handle, "image/png")})
    assert refused.status_code == 400 and refused.json()["error"] == "'blank.png' is empty (0 bytes): nothing to store"


def test_two_file_parts_are_refused_not_halved(client, server, tmp_path):
    """Two `file` parts used to store the last one and answer as if it were the only one."""
    first, second = shape_image(tmp_path / "first.png", 3), shape_image(tmp_path / "second.png", 5)
    before = set((server.workspace.root / "uploads").glob("*"))
    with first.open("rb") as a, second.open("rb") as b:
        refused = client.post("/files", files=[("file", ("first.png", a, "image/png")),
                                               ("file", ("second.png", b, "image/png"))])
    assert refused.status_code == 400 and refused.json()["error"] == (
        "one file per POST /files: this request has 2 'file' parts")
    assert set((server.workspace.root / "uploads").glob("*")) == before


def test_an_upload_that_decodes_to_gigabytes_is_refused_and_not_kept(client, server, tmp_path, monkeypatch):
    """A 20 kB PNG declaring 13,000 x 13,000 pixels took 2.7 GB per request to edge-map; an hour-long FLAC of
    silence 7 GB to classify (QA probe). Refused at upload from the header, naming the file as sent."""
    from langchain_hugginggpt.core import media

    Image.new("1", (7000, 7000)).save(tmp_path / "bomb.png", optimize=True)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1), out.setsampwidth(2), out.setframerate(8000)
        out.writeframes(np.zeros(8000 * 5, "<i2").tobytes())
    (tmp_path / "long.wav").write_bytes(buffer.getvalue())
    monkeypatch.setattr(media, "MAX_AUDIO_SECONDS", 3)  # the 5 s file stands for a long one
    before = set((server.workspace.root / "uploads").glob("*"))
    for name, kind, problem in (("bomb.png", "image/png", "'bomb.png' is 7,000 x 7,000 pixels; images of at most 40 "
                                                          "million pixels are read"),
                                ("long.wav", "audio/wav", "'long.wav' is 5 s long; audio of at most 3 s is read")):
        with (tmp_path / name).open("rb") as handle:
            refused = client.post("/files", files={"file": (name, handle, kind)})
        assert refused.status_code == 413 and refused.json()["error"] == problem
    assert set((server.workspace.root / "uploads").glob("*")) == before
