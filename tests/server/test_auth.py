"""With an API key, every route but /health (and the page's static shell) needs it."""

from urllib.parse import quote

import pytest

from .conftest import API_KEY, shape_image, upload


@pytest.fixture(scope="module")
def locked(start_server):
    return start_server(api_key=API_KEY)


PROTECTED = [("POST", "/hugginggpt", {"messages": [{"role": "user", "content": "hello"}]}),
             ("POST", "/tasks", {"messages": [{"role": "user", "content": "hello"}]}),
             ("POST", "/results", {"messages": [{"role": "user", "content": "hello"}]}),
             ("POST", "/hugginggpt/invoke", {"input": {"request": "hello"}}),
             ("POST", "/hugginggpt/stream", {"input": {"request": "hello"}}),
             ("GET", "/hugginggpt/input_schema", None), ("GET", "/hugginggpt/playground/", None),
             ("POST", "/conversations", None), ("GET", "/files/uploads/a.png", None),
             ("GET", "/docs", None), ("GET", "/openapi.json", None), ("GET", "/no-such-route", None)]


@pytest.mark.parametrize("method,path,body", PROTECTED)
def test_routes_refuse_a_missing_or_wrong_key(locked, method, path, body):
    with locked.client() as http:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {API_KEY}"}):
            response = http.request(method, path, json=body, headers=headers)
            assert response.status_code == 401, (path, headers)
            assert response.headers["www-authenticate"] == "Bearer" and "API key" in response.json()["error"]
            sent = "Authorization" in headers  # a wrong key is told apart from a missing one
            assert ("not this server's" in response.json()["error"]) == sent


def test_health_and_page_are_open_and_report_auth(locked):
    with locked.client() as http:
        assert http.get("/health").json()["auth"] is True
        assert http.get("/").status_code == 200 and http.get("/static/app.js").status_code == 200


def test_the_key_opens_every_route(locked, tmp_path):
    with locked.client(headers={"Authorization": f"Bearer {API_KEY}"}) as http:
        assert http.post("/hugginggpt", json=PROTECTED[0][2]).json()["message"].startswith("Hello!")
        assert http.post("/hugginggpt/invoke", json={"input": {"request": "hello"}}).status_code == 200
        with (shape_image(tmp_path / "k.png", 2)).open("rb") as handle:
            stored = http.post("/files", files={"file": ("k.png", handle, "image/png")}).json()
        assert http.get(stored["url"]).status_code == 200
    # The page keeps the key in a same-site cookie so <img src="/files/..."> loads too.
    with locked.client(cookies={"hugginggpt_key": API_KEY}) as http:
        assert http.get(stored["url"]).status_code == 200


def test_deleting_an_upload_needs_the_key_as_uploading_does(locked, tmp_path):
    with locked.client(headers={"Authorization": f"Bearer {API_KEY}"}) as http:
        stored = upload(http, shape_image(tmp_path / "d.png", 3))
    path = locked.workspace.root / stored["path"]
    with locked.client() as http:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {API_KEY}"}):
            refused = http.delete(stored["url"], headers=headers)
            assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer", headers
        assert path.exists()
        keyed = {"Authorization": f"Bearer {API_KEY}"}
        assert http.delete(stored["url"], headers={**keyed, "Origin": "http://evil.example"}).status_code == 403
        assert path.exists()
        assert http.delete(stored["url"], headers=keyed).status_code == 204 and not path.exists()


def test_auth_is_off_without_a_key(client):
    assert client.get("/health").json()["auth"] is False
    assert client.post("/hugginggpt/invoke", json={"input": {"request": "hello"}}).status_code == 200


def test_key_from_the_environment(start_server, monkeypatch):
    monkeypatch.setenv("HUGGINGGPT_API_KEY", "from-env")
    live = start_server(api_key=None)
    with live.client() as http:
        assert http.post("/conversations").status_code == 401
        assert http.post("/conversations", headers={"Authorization": "Bearer from-env"}).status_code == 201


def test_cookie_with_a_url_encoded_key(start_server, tmp_path):
    """The page writes the cookie with encodeURIComponent: a key with '+', '/' or '=' arrives encoded."""
    key = "k+y/with=signs=="
    live = start_server(api_key=key)
    with live.client(headers={"Authorization": f"Bearer {key}"}) as http:
        stored = upload(http, shape_image(tmp_path / "c.png", 3))
    encoded = quote(key, safe="-_.!~*'()")  # what encodeURIComponent makes of it
    assert encoded == "k%2By%2Fwith%3Dsigns%3D%3D"
    with live.client() as http:
        for cookie in (f"hugginggpt_key={encoded}", f"other=1; hugginggpt_key={encoded}", f"hugginggpt_key={key}"):
            assert http.get(stored["url"], headers={"Cookie": cookie}).status_code == 200, cookie
        for cookie in ("hugginggpt_key=k%2By", "hugginggpt_key=k+y/with=signs=", "hugginggpt_key="):
            assert http.get(stored["url"], headers={"Cookie": cookie}).status_code == 401, cookie
