"""CORS: browser pages on other origins (the original HuggingGPT web client) may call the API.
Preflights are answered on every route, before auth; the allow-list is configurable."""

import argparse

import pytest

from langchain_hugginggpt.cli.serve import add_commands

from .conftest import API_KEY

ROUTES = [("POST", "/hugginggpt"), ("POST", "/tasks"), ("POST", "/results"), ("POST", "/hugginggpt/invoke"),
          ("POST", "/hugginggpt/batch"), ("POST", "/hugginggpt/stream"), ("POST", "/files"),
          ("GET", "/files/outputs/x.png"), ("POST", "/conversations"), ("GET", "/conversations/abc"),
          ("DELETE", "/conversations/abc"), ("POST", "/conversations/abc/messages"), ("GET", "/health")]


def preflight(http, path, origin, method="POST"):
    return http.options(path, headers={"Origin": origin, "Access-Control-Request-Method": method,
                                       "Access-Control-Request-Headers": "content-type,authorization"})


@pytest.fixture(scope="module")
def locked(start_server):
    return start_server(api_key=API_KEY)


@pytest.mark.parametrize("method,path", ROUTES)
def test_preflight_is_answered_on_every_route_even_with_auth_on(locked, method, path):
    with locked.client() as http:
        for origin in ("http://localhost:5173", "http://127.0.0.1:9999", "http://[::1]:8080", "https://localhost"):
            response = preflight(http, path, origin, method)
            assert response.status_code == 200, (origin, response.text)
            assert response.headers["access-control-allow-origin"] == origin
            assert method in response.headers["access-control-allow-methods"]
            assert {"authorization", "content-type"} <= {
                h.strip().lower() for h in response.headers["access-control-allow-headers"].split(",")}


def test_responses_carry_the_origin_and_other_origins_are_refused(client, locked):
    reply = client.post("/tasks", json={"messages": [{"role": "user", "content": "hello"}]},
                        headers={"Origin": "http://localhost:5173"})
    assert reply.status_code == 200 and reply.headers["access-control-allow-origin"] == "http://localhost:5173"
    with locked.client() as http:  # the 401 is readable by the page too
        refused = http.post("/tasks", json={}, headers={"Origin": "http://127.0.0.1:3000"})
        assert refused.status_code == 401 and refused.headers["access-control-allow-origin"] == "http://127.0.0.1:3000"
    for origin in ("http://example.com", "http://localhost.example.com", "http://127.0.0.1.nip.io:80", "null"):
        assert preflight(client, "/hugginggpt", origin).status_code == 400, origin
        simple = client.get("/health", headers={"Origin": origin})
        assert "access-control-allow-origin" not in simple.headers, origin


def test_the_allow_list_is_configurable(start_server):
    chosen = start_server(cors_origins=["http://client.example:3000", "https://app.example/"])
    with chosen.client() as http:
        assert preflight(http, "/hugginggpt", "http://client.example:3000").status_code == 200
        assert preflight(http, "/hugginggpt", "https://app.example").status_code == 200
        assert preflight(http, "/hugginggpt", "http://localhost:5173").status_code == 400  # the default is replaced
    anyone = start_server(cors_origins=["*"])
    with anyone.client() as http:
        response = preflight(http, "/tasks", "http://anywhere.example")
        assert response.status_code == 200 and response.headers["access-control-allow-origin"] == "*"
    closed = start_server(cors_origins=[])
    with closed.client() as http:
        assert "access-control-allow-origin" not in preflight(http, "/tasks", "http://localhost:5173").headers


def test_cli_flag_is_repeatable():
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers())
    args = parser.parse_args(["serve", "--cors-origin", "http://a.example", "--cors-origin", "*"])
    assert args.cors_origin == ["http://a.example", "*"]
    assert parser.parse_args(["serve"]).cors_origin is None  # create_app's loopback default


def test_a_post_a_page_on_another_site_sends_without_asking_is_refused(server, start_server, tmp_path):
    """A form post or a multipart upload needs no preflight, so CORS alone never stops it: the origin is
    checked on every POST and DELETE; loopback pages (the default allow-list) and the server's own page pass."""
    with server.client() as http:
        sent = http.post("/conversations", headers={"Origin": "http://evil.example"})
        assert sent.status_code == 403 and "'http://evil.example' is refused" in sent.json()["error"]
        (tmp_path / "a.txt").write_text("hello")
        with (tmp_path / "a.txt").open("rb") as handle:
            upload = http.post("/files", headers={"Origin": "https://evil.example"},
                               files={"file": ("a.txt", handle, "text/plain")})
        assert upload.status_code == 403
        assert http.delete("/conversations/x", headers={"Origin": "http://evil.example"}).status_code == 403
        assert http.post("/conversations", headers={"Origin": "http://localhost:5173"}).status_code == 201
        assert http.post("/conversations", headers={"Origin": server.url}).status_code == 201  # its own page
        assert http.post("/conversations").status_code == 201  # no browser, no Origin
    listed = start_server(cors_origins=["https://app.example"])
    with listed.client() as http:
        assert http.post("/conversations", headers={"Origin": "https://app.example"}).status_code == 201
        assert http.post("/conversations", headers={"Origin": "http://localhost:5173"}).status_code == 403


def test_without_a_key_the_server_answers_only_its_own_names(server, start_server, locked):
    """DNS rebinding: a page on attacker.example points its name at 127.0.0.1 and calls the API as same-origin.
    Without an API key only loopback names, IP addresses and the names allowed are answered."""
    with server.client() as http:
        refused = http.get("/health", headers={"Host": "attacker.example:8931"})
        assert refused.status_code == 403 and "'attacker.example'" in refused.json()["error"]
        for host in ("localhost:1", "127.0.0.1:1", "[::1]:1", "192.168.1.5"):
            assert http.get("/health", headers={"Host": host}).status_code == 200, host
    allowed = start_server(allowed_hosts=["box.lan"])
    with allowed.client() as http:
        assert http.get("/health", headers={"Host": "box.lan:8000"}).status_code == 200
        assert http.get("/health", headers={"Host": "attacker.example"}).status_code == 403
    with locked.client() as http:  # with a key, a rebound page has no key to send
        assert http.get("/health", headers={"Host": "box.lan:8000"}).status_code == 200


def test_serving_beyond_loopback_without_a_key_warns(monkeypatch, tmp_path):
    import logging

    class Kept(logging.Handler):
        def emit(self, record):
            messages.append(record.getMessage())

    messages: list[str] = []
    handler = Kept()
    logging.getLogger("uvicorn.error").addHandler(handler)

    monkeypatch.setattr("uvicorn.run", lambda *a, **k: None)
    monkeypatch.delenv("HUGGINGGPT_API_KEY", raising=False)
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers())
    try:
        for host, warned in (("0.0.0.0", True), ("127.0.0.1", False)):
            args = parser.parse_args(["serve", "--host", host, "--planner", "retrieval", "--responder", "template",
                                      "--workspace", str(tmp_path), "--data-dir", str(tmp_path / "data")])
            messages.clear()
            args.func(args)
            assert any("with no API key" in m for m in messages) == warned, host
    finally:
        logging.getLogger("uvicorn.error").removeHandler(handler)
