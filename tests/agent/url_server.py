"""A real HTTP server on 127.0.0.1 standing for "a service on the agent's own network", and a
spy on socket connections, for the URL-input (SSRF) tests."""

import io
import queue
import socket
import threading
import time
import wave
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import pytest
from PIL import Image

SECRET = b"internal-only secret: do not leak"


def png_bytes(size=(32, 24), color=(10, 120, 200)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, "PNG")
    return buffer.getvalue()


def wav_bytes() -> bytes:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1), out.setsampwidth(2), out.setframerate(8000)
        out.writeframes(b"\x00\x01" * 800)
    return buffer.getvalue()


PNG = png_bytes()


class MediaServer:
    """Serves a fixed set of paths and records every request (path, Host header).

    /photo.png, /sound.wav              media
    /secret.txt, /fake.jpg              not media (the second claims to be a JPEG)
    /big.png?n=N                        a PNG header then N bytes, with Content-Length
    /endless.png?n=N                    the same without Content-Length (the body ends when the server closes)
    /stall                              a PNG's first bytes, then silence until `unstall` is set
    /trickle                            a PNG one byte every 50 ms (a slow-loris server)
    /redirect?to=URL, /loop, /missing   302 to URL, 302 to itself, 404
    """

    def __init__(self, tls=None) -> None:
        """`tls`: an ssl.SSLContext to serve https with (the SNI names clients send are kept in `sni`)."""
        self.requests: list[tuple[str, str]] = []
        self.sni: list[str] = []
        self.unstall = threading.Event()
        self.streamed: queue.Queue = queue.Queue()  # (path, bytes sent after the header) per streamed body
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                owner.requests.append((self.path, self.headers.get("Host", "")))
                url = urlparse(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                if url.path == "/photo.png":
                    return self.reply(200, "image/png", PNG)
                if url.path == "/sound.wav":
                    return self.reply(200, "audio/wav", wav_bytes())
                if url.path == "/secret.txt":
                    return self.reply(200, "text/plain", SECRET)
                if url.path == "/fake.jpg":
                    return self.reply(200, "image/jpeg", b"<html><body>" + SECRET + b"</body></html>")
                if url.path in ("/big.png", "/endless.png"):
                    return self.stream(url.path, int(query["n"]), with_length=url.path == "/big.png")
                if url.path == "/redirect":
                    return self.redirect(query["to"])
                if url.path == "/stall":  # a PNG's first bytes, then nothing until the test is over
                    self.send_response(200)
                    self.send_header("Content-Type", "image/png")
                    self.end_headers()
                    self.wfile.write(PNG[:100])
                    self.wfile.flush()
                    owner.unstall.wait(60)
                    return None
                if url.path == "/trickle":  # each read returns soon, so only a deadline over the whole body stops it
                    self.send_response(200)
                    self.send_header("Content-Type", "image/png")
                    self.end_headers()
                    sent = 0
                    try:
                        for byte in PNG:
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                            sent += 1
                            time.sleep(0.05)
                    except OSError:  # the client hung up
                        pass
                    owner.streamed.put((url.path, sent))
                    return None
                if url.path == "/loop":
                    return self.redirect("/loop")
                return self.reply(404, "text/plain", b"no such file")

            def reply(self, status: int, media: str, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", media)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def redirect(self, location: str) -> None:
                self.send_response(302)
                self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def stream(self, path: str, n: int, with_length: bool) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                if with_length:
                    self.send_header("Content-Length", str(len(PNG) + n))
                self.end_headers()
                sent = 0
                try:
                    self.wfile.write(PNG)
                    block = b"\x00" * 65536
                    while sent < n:
                        self.wfile.write(block[: n - sent])
                        sent += min(len(block), n - sent)
                except OSError:  # the client stopped reading: what the size limit is for
                    pass
                owner.streamed.put((path, sent))

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.scheme = "https" if tls else "http"
        if tls:
            tls.sni_callback = lambda sock, name, context: self.sni.append(name)
            self.httpd.socket = tls.wrap_socket(self.httpd.socket, server_side=True)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"{self.scheme}://{host}:{self.port}{path}"

    def __enter__(self) -> "MediaServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.unstall.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def media_server():
    with MediaServer() as server:
        yield server


@pytest.fixture
def connections(monkeypatch) -> list:
    """Every address a socket in this process connects to while the test runs. Connections to
    anything but 127.0.0.1 are recorded and refused, so no test can send traffic elsewhere."""
    seen: list = []
    original = socket.socket.connect

    def connect(sock, address):
        seen.append(tuple(address[:2]))
        if address[0] != "127.0.0.1":
            raise ConnectionRefusedError(f"test guard: no connections to {address[0]}")
        return original(sock, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    return seen
