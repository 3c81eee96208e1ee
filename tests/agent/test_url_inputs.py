"""URL inputs (issue 16, SSRF): which URLs are downloaded, against a real HTTP server on 127.0.0.1.

Loopback is refused by default, so the tests that download use an explicit allow-list for
127.0.0.1, and the tests of refusals use the default policy. Every refusal is checked to
happen before any connection is made (a spy on socket.connect, and the server's request log).
"""

import pytest
from PIL import Image

from langchain_hugginggpt.core.downloads import UrlPolicy
from langchain_hugginggpt.core.workspace import TaskAbandoned, Workspace, WorkspaceError

from .url_server import PNG, SECRET, connections, media_server  # noqa: F401 (fixtures)

LOCAL = UrlPolicy(allow_hosts=("127.0.0.1",))


def stored(workspace: Workspace) -> list:
    """Every file under outputs/downloads, hidden partial files included."""
    folder = workspace.outputs / "downloads"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def refused(workspace: Workspace, url: str, kind: str | None = "image") -> str:
    with pytest.raises(WorkspaceError) as caught:
        workspace.resolve_input(url, kind)
    message = str(caught.value)
    assert str(workspace.root) not in message and "/outputs" not in message  # no server disk paths
    assert stored(workspace) == []
    return message


def test_allow_listed_host_is_downloaded_from_the_checked_address(tmp_path, media_server, connections):
    workspace = Workspace(tmp_path, urls=LOCAL)
    path = workspace.resolve_input(media_server.url("/photo.png?size=big"), "image")
    assert path.parent == workspace.outputs / "downloads" and path.suffix == ".png"
    assert path.read_bytes() == PNG and Image.open(path).size == (32, 24)
    assert connections == [("127.0.0.1", media_server.port)]
    assert media_server.requests[-1] == ("/photo.png?size=big", f"127.0.0.1:{media_server.port}")


def test_the_extension_comes_from_the_bytes_not_the_url(tmp_path, media_server):
    workspace = Workspace(tmp_path, urls=LOCAL)
    path = workspace.resolve_input(media_server.url("/redirect?to=/photo.png&name=x.mp4"), "image")
    assert path.suffix == ".png" and path.read_bytes() == PNG


def test_allow_list_takes_networks(tmp_path, media_server):
    workspace = Workspace(tmp_path, urls=UrlPolicy(allow_hosts=("127.0.0.0/8",)))
    assert workspace.resolve_input(media_server.url("/photo.png")).read_bytes() == PNG


SPELLINGS = {  # host -> the rule its refusal must name
    "127.0.0.1": "loopback", "127.1": "loopback", "0177.1": "loopback", "2130706433": "loopback",
    "0x7f000001": "loopback", "0x7f.1": "loopback", "[::1]": "loopback", "[::ffff:127.0.0.1]": "loopback",
    "[::ffff:7f00:1]": "loopback", "[2002:7f00:1::]": "loopback", "localhost": "loopback",
    "LocalHost.": "loopback", "images.localhost": "loopback",
    "0.0.0.0": "unspecified", "0": "unspecified", "[::]": "unspecified",
    "169.254.169.254": "cloud metadata", "[fd00:ec2::254]": "cloud metadata", "100.100.100.200": "cloud metadata",
    "[::ffff:169.254.169.254]": "cloud metadata", "169.254.1.1": "link-local", "[fe80::1]": "link-local",
    "10.0.0.1": "private", "10.255.1.2": "private", "172.16.0.1": "private", "172.31.255.1": "private",
    "192.168.1.1": "private", "[fc00::1]": "private", "[fd12:3456::1]": "private", "[64:ff9b::a00:1]": "private",
    "224.0.0.1": "multicast", "239.255.255.250": "multicast", "[ff02::1]": "multicast",
    "240.0.0.1": "reserved", "100.64.0.1": "not a public address",
}


@pytest.mark.parametrize("host", list(SPELLINGS))
def test_internal_addresses_are_refused_before_connecting(host, tmp_path, media_server, connections):
    before = len(media_server.requests)
    message = refused(Workspace(tmp_path), media_server.url("/photo.png", host=host))
    assert SPELLINGS[host] in message and "--allow-url-host" in message
    assert connections == [] and len(media_server.requests) == before


def test_an_octal_dotted_quad_is_refused_as_an_invalid_url(tmp_path, connections):
    assert "not a valid URL" in refused(Workspace(tmp_path), "http://0177.0.0.1/photo.png")
    assert connections == []


def test_allow_list_matches_the_host_as_written(tmp_path, media_server, connections):
    """127.0.0.1 on the list does not let other spellings or names through."""
    workspace = Workspace(tmp_path, urls=LOCAL)
    for host in ("127.1", "2130706433", "localhost", "[::ffff:127.0.0.1]"):
        assert "loopback" in refused(workspace, media_server.url("/photo.png", host=host))
    assert connections == []


@pytest.mark.parametrize("url", ["ftp://127.0.0.1/photo.png", "gopher://127.0.0.1:70/_x", "dict://127.0.0.1/",
                                 "FTP://example.com/a.png"])
def test_only_http_and_https(url, tmp_path, connections):
    assert "only http and https" in refused(Workspace(tmp_path, urls=LOCAL), url)
    assert connections == []


def test_url_inputs_can_be_turned_off(tmp_path, media_server, connections):
    message = refused(Workspace(tmp_path, urls=UrlPolicy(enabled=False, allow_hosts=("127.0.0.1",))),
                      media_server.url("/photo.png"))
    assert "URL inputs are turned off" in message and connections == []


@pytest.mark.parametrize("target", ["http://127.1:{port}/photo.png", "http://localhost:{port}/photo.png",
                                    "http://[::1]:{port}/photo.png", "http://169.254.169.254/latest/meta-data/",
                                    "http://10.0.0.1/photo.png", "ftp://127.0.0.1/photo.png"])
def test_a_redirect_to_a_refused_url_is_not_followed(target, tmp_path, media_server, connections):
    target = target.format(port=media_server.port)
    message = refused(Workspace(tmp_path, urls=LOCAL), media_server.url(f"/redirect?to={target}"))
    assert "redirects to a URL that is refused" in message
    assert connections == [("127.0.0.1", media_server.port)]  # only the allowed first hop
    assert media_server.requests[-1][0].startswith("/redirect")


def test_redirect_loops_end(tmp_path, media_server):
    assert "more than 5 redirects" in refused(Workspace(tmp_path, urls=LOCAL), media_server.url("/loop"))


def test_a_declared_oversized_body_is_refused_before_reading(tmp_path, media_server):
    workspace = Workspace(tmp_path, urls=UrlPolicy(allow_hosts=("127.0.0.1",), max_bytes=10_000))
    message = refused(workspace, media_server.url("/big.png?n=20000"))
    assert "larger than the download limit of 10000 bytes" in message


def test_an_undeclared_oversized_body_is_cut_off_at_the_default_limit(tmp_path, media_server):
    """No Content-Length: the stream is counted and dropped past 50 MB (the default), and the
    partial file is removed."""
    workspace = Workspace(tmp_path, urls=LOCAL)
    assert workspace.urls.max_bytes == 50 * 2**20
    message = refused(workspace, media_server.url("/endless.png?n=314572800"))  # 300 MB on offer
    assert f"larger than the download limit of {50 * 2**20} bytes" in message
    path = None
    while path != "/endless.png":  # when the server saw the connection close, how much it had sent
        path, sent = media_server.streamed.get(timeout=60)
    assert sent < 100 * 2**20  # it was not read to the end


def test_a_stalled_download_times_out_and_leaves_nothing(tmp_path, media_server):
    workspace = Workspace(tmp_path, urls=UrlPolicy(allow_hosts=("127.0.0.1",), timeout=0.5))
    assert "no answer within 0.5 s" in refused(workspace, media_server.url("/stall"))


def test_a_trickling_download_stops_at_the_deadline_before_its_type_is_known(tmp_path, media_server):
    from langchain_hugginggpt.core.media import SNIFF_BYTES

    workspace = Workspace(tmp_path, urls=UrlPolicy(allow_hosts=("127.0.0.1",), timeout=0.5))
    assert "took longer than 0.5 s" in refused(workspace, media_server.url("/trickle"))
    path = None
    while path != "/trickle":
        path, sent = media_server.streamed.get(timeout=60)
    assert sent < SNIFF_BYTES  # hung up while still reading the bytes that tell the format


def test_a_redirect_to_an_invalid_url_is_refused(tmp_path, media_server):
    message = refused(Workspace(tmp_path, urls=LOCAL), media_server.url("/redirect?to=http://[::1/x"))
    assert "Invalid URL in location header" in message  # httpx checks it before the redirect is seen


@pytest.mark.parametrize("path", ["/secret.txt", "/fake.jpg"])
def test_a_body_that_is_not_media_is_refused_and_not_stored(path, tmp_path, media_server):
    message = refused(Workspace(tmp_path, urls=LOCAL), media_server.url(path))
    assert "is not an image, audio or video file" in message and "nothing was stored" in message
    assert SECRET.decode() not in message


def test_media_of_another_kind_is_refused(tmp_path, media_server):
    workspace = Workspace(tmp_path, urls=LOCAL)
    assert "it is audio/wav, but this input needs image" in refused(workspace, media_server.url("/sound.wav"))
    assert workspace.resolve_input(media_server.url("/sound.wav"), "audio").suffix == ".wav"


def test_http_errors_name_the_status(tmp_path, media_server):
    assert "the server answered 404 Not Found" in refused(Workspace(tmp_path, urls=LOCAL), media_server.url("/missing"))


def test_an_abandoned_task_stops_downloading(tmp_path, media_server):
    workspace = Workspace(tmp_path, urls=LOCAL).for_task()
    workspace.task_files.abandon()
    with pytest.raises(TaskAbandoned):
        workspace.resolve_input(media_server.url("/photo.png"), "image")
    assert stored(workspace) == []


def test_allow_list_entries_are_checked():
    assert UrlPolicy(allow_hosts=("GPU-Box.lan.", "[::1]", "10.0.0.0/8")).allow_hosts == ("gpu-box.lan", "::1",
                                                                                            "10.0.0.0/8")
    for bad in ("gpu-box:8080", "http://gpu-box", "gpu-box/path"):
        with pytest.raises(ValueError, match="bare host name"):
            UrlPolicy(allow_hosts=(bad,))
