"""https URL inputs: the connection goes to the checked address, while the TLS name (SNI) and the
certificate check stay the URL's host name. A real TLS server on 127.0.0.1 with a test CA (trustme),
which the downloader is made to trust through certifi (the CA list httpx reads)."""

import ssl

import certifi
import pytest
import trustme

from langchain_hugginggpt.core.downloads import UrlPolicy
from langchain_hugginggpt.core.workspace import Workspace, WorkspaceError

from .url_server import PNG, MediaServer, connections  # noqa: F401 (fixture)

LOCALHOST = UrlPolicy(allow_hosts=("localhost",))


@pytest.fixture
def ca(tmp_path, monkeypatch):
    authority = trustme.CA()
    bundle = tmp_path / "test-ca.pem"
    authority.cert_pem.write_to_path(str(bundle))
    monkeypatch.setattr(certifi, "where", lambda: str(bundle))
    return authority


def tls_server(ca, name: str) -> MediaServer:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ca.issue_cert(name).configure_cert(context)
    return MediaServer(tls=context)


def test_https_goes_to_the_checked_address_with_the_name_for_tls(ca, tmp_path, connections):
    with tls_server(ca, "localhost") as server:
        path = Workspace(tmp_path, urls=LOCALHOST).resolve_input(server.url("/photo.png", host="localhost"), "image")
        assert path.read_bytes() == PNG
        assert server.sni == ["localhost"] and server.requests == [("/photo.png", f"localhost:{server.port}")]
    assert connections == [("127.0.0.1", server.port)]


def test_https_certificate_is_checked_against_the_url_host(ca, tmp_path, connections):
    with tls_server(ca, "elsewhere.example") as server:
        with pytest.raises(WorkspaceError, match="could not download .*certificate verify failed"):
            Workspace(tmp_path, urls=LOCALHOST).resolve_input(server.url("/photo.png", host="localhost"), "image")
        assert server.requests == []
    assert connections == [("127.0.0.1", server.port)]
