"""The URL-input flags of `hugginggpt run/chat/replay/serve`, down to the download."""

import json

from langchain_hugginggpt.cli.main import build_parser
from langchain_hugginggpt.cli.options import url_policy
from langchain_hugginggpt.core.downloads import UrlPolicy

from .test_cli import hugginggpt
from .url_server import MediaServer


def test_flags_make_the_policy():
    parser = build_parser()
    args = parser.parse_args(["run", "x", "--allow-url-host", "gpu-box.lan", "--allow-url-host", "10.0.0.0/8",
                              "--max-download-mb", "2"])
    assert url_policy(args) == UrlPolicy(allow_hosts=("gpu-box.lan", "10.0.0.0/8"), max_bytes=2 * 2**20)
    assert url_policy(parser.parse_args(["chat"])) == UrlPolicy()  # public hosts only, 50 MB
    serve = parser.parse_args(["serve", "--no-url-inputs"])
    assert url_policy(serve).enabled is False


def test_run_refuses_a_loopback_url_unless_allow_listed(tmp_path):
    with MediaServer() as internal:
        request = f"Give me the canny edge map of {internal.url('/photo.png')}"
        refused = hugginggpt("run", request, "--planner", "retrieval", "--json", "--no-log",
                             cwd=tmp_path, home=tmp_path / "home")
        task = json.loads(refused.stdout)["results"]["0"]
        assert task["status"] == "error" and "loopback" in task["error"] and internal.requests == []

        allowed = hugginggpt("run", request, "--planner", "retrieval", "--json", "--no-log",
                             "--allow-url-host", "127.0.0.1", cwd=tmp_path, home=tmp_path / "home")
        task = json.loads(allowed.stdout)["results"]["0"]
        assert task["status"] == "ok" and task["files"][0].startswith(str(tmp_path / "outputs"))
        assert [path for path, _ in internal.requests] == ["/photo.png"]
