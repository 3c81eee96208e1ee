"""URL inputs, downloaded so that a request cannot make the agent reach its own network.

A URL named in a request is fetched only when
- its scheme is http or https;
- its host is on the allow-list, or every address the host resolves to is public: loopback,
  private, link-local, cloud metadata, multicast, unspecified and reserved addresses are
  refused, in every spelling the resolver accepts (127.1, 2130706433, 0x7f000001,
  [::ffff:127.0.0.1], ...), since the check is on the resolved addresses;
- the connection goes to the address that was checked (no second lookup that DNS could
  answer differently), and every redirect is checked the same way before it is followed;
- the body stays within the size limit and arrives within the time limit;
- its bytes are an image, audio or video file of the kind the input needs (sniffed like uploads).
Anything else raises DownloadRefused, naming the rule, and nothing is stored.
"""

from __future__ import annotations

import ipaddress
import itertools
import socket
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from pydantic import BaseModel, ConfigDict, Field, field_validator

from langchain_hugginggpt.core.errors import HuggingGPTError
from langchain_hugginggpt.core.media import ALLOWED, SNIFF_BYTES, allowed_formats, serves_as, sniff

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# Instance-metadata services of the big clouds (AWS, ECS tasks, AWS IPv6, Alibaba): named in errors.
METADATA = {ipaddress.ip_address(a) for a in ("169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200")}
NAT64 = ipaddress.ip_network("64:ff9b::/96")
ALLOW_HINT = "URL inputs may only reach public addresses unless the host is allow-listed (--allow-url-host)"


READ_STALL_S = 10.0  # the longest one read of a download may wait


class DownloadRefused(HuggingGPTError, ValueError):
    """A URL input that breaks a download rule; the message names the rule."""


class UrlPolicy(BaseModel):
    """Which URL inputs may be downloaded, and how much of them."""

    model_config = ConfigDict(frozen=True)

    enabled: bool = Field(True, description="False: URL inputs are refused; files must be in the workspace.")
    allow_hosts: tuple[str, ...] = Field((), description=(
        "Hosts that may be internal, as written in URLs: names (gpu-box.lan), IP addresses or networks "
        "(10.0.0.0/8). Every other host must resolve to public addresses only."))
    max_bytes: int = Field(50 * 2**20, gt=0, description="Largest download, in bytes.")
    timeout: float = Field(30.0, gt=0, description="Seconds one download may take, redirects included.")
    max_redirects: int = Field(5, ge=0)

    @field_validator("allow_hosts", mode="before")
    @classmethod
    def _normalise(cls, hosts: object) -> tuple[str, ...]:
        if isinstance(hosts, str):
            hosts = (hosts,)
        return tuple(_allow_entry(str(h)) for h in hosts)  # type: ignore[union-attr]

    def allows(self, host: str) -> bool:
        """Whether a URL host (as `host_of` gives it) is on the allow-list."""
        if host in self.allow_hosts:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in ipaddress.ip_network(entry, strict=False) for entry in self.allow_hosts
                   if _is_network(entry))


def _is_network(entry: str) -> bool:
    try:
        ipaddress.ip_network(entry, strict=False)
    except ValueError:
        return False
    return True


def _allow_entry(entry: str) -> str:
    """An allow-list entry in the form hosts are compared in: a network, an address, or an ASCII name."""
    entry = entry.strip().lower().rstrip(".")
    if _is_network(entry.strip("[]")):
        return str(ipaddress.ip_network(entry.strip("[]"), strict=False)) if "/" in entry else entry.strip("[]")
    try:
        url = httpx.URL(f"http://{entry}/")
    except httpx.InvalidURL as exc:
        raise ValueError(f"allow-list entry {entry!r} is not a host name, IP address or network: {exc}") from None
    if ":" in entry or url.path != "/" or url.userinfo:
        raise ValueError(f"allow-list entry {entry!r} must be a bare host name, IP address or network (no port or path)")
    return host_of(url)


def host_of(url: httpx.URL) -> str:
    """The host as compared and resolved: lower-case ASCII (IDNA), no brackets, no trailing dot."""
    return url.raw_host.decode("ascii").strip("[]").rstrip(".").lower()


def address_problem(address: Address) -> str | None:
    """Why an address may not be reached by a URL input, or None for a public address."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = (address.ipv4_mapped or address.sixtofour or (address.teredo or (None, None))[1]
                    or (ipaddress.IPv4Address(int(address) & 0xFFFFFFFF) if address in NAT64 else None))
        if embedded is not None and (problem := address_problem(embedded)):
            return f"{problem} ({embedded} in IPv6 form)"
    if address in METADATA:
        return "a cloud metadata address"
    for test, name in (("is_loopback", "a loopback address"), ("is_unspecified", "the unspecified address"),
                       ("is_link_local", "a link-local address"), ("is_multicast", "a multicast address"),
                       ("is_reserved", "a reserved address"), ("is_private", "a private-network address")):
        if getattr(address, test):
            return name
    return None if address.is_global else "not a public address"


def check_url(url: httpx.URL, policy: UrlPolicy) -> list[Address]:
    """The addresses to connect to for `url`, after every rule above that can be checked before
    connecting; DownloadRefused otherwise. Nothing is sent to the host before this returns."""
    if url.scheme not in ("http", "https"):
        raise DownloadRefused(f"refused {url}: only http and https URLs are downloaded")
    host = host_of(url)
    if not host:
        raise DownloadRefused(f"refused {url}: the URL names no host")
    allowed = policy.allows(host)
    if not allowed and (host == "localhost" or host.endswith(".localhost")):
        raise DownloadRefused(f"refused {url}: {host!r} is a name for this machine (loopback); {ALLOW_HINT}")
    try:
        infos = socket.getaddrinfo(host, url.port or (443 if url.scheme == "https" else 80), type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise DownloadRefused(f"refused {url}: the host {host!r} could not be resolved ({exc})") from None
    addresses = list(dict.fromkeys(ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos))
    if not allowed:
        for address in addresses:
            if problem := address_problem(address):
                spelled = "is" if _is_network(host) and ipaddress.ip_address(host) == address else f"means {address},"
                raise DownloadRefused(f"refused {url}: the host {host!r} {spelled} {problem}; {ALLOW_HINT}")
    return addresses


def _open(client: httpx.Client, url: httpx.URL, addresses: list[Address]) -> httpx.Response:
    """GET `url` from the first of the checked `addresses` that accepts a connection; the Host
    header and the TLS name stay the URL's, so the server and its certificate are the named ones."""
    host = host_of(url)
    headers = {"Host": url.netloc.decode("ascii"), "Accept": "image/*, audio/*, video/*"}
    extensions = {"sni_hostname": host} if url.scheme == "https" and not _is_network(host) else {}
    for address in addresses:
        request = client.build_request("GET", url.copy_with(host=str(address)), headers=headers, extensions=extensions)
        try:
            return client.send(request, stream=True)
        except httpx.ConnectError:
            if address == addresses[-1]:
                raise
    raise AssertionError("unreachable: check_url returns at least one address")


def download(url: str, policy: UrlPolicy, new_path: Callable[[str], Path], kind: str | None = None,
             still_wanted: Callable[[], None] | None = None) -> Path:
    """Fetch a URL input into `new_path(extension)`, following the rules above.

    `kind` ('image', 'audio', 'video') is what the input must be; `still_wanted` is called between
    chunks and raises to stop a download nobody waits for any more."""
    if not policy.enabled:
        raise DownloadRefused(f"refused {url}: URL inputs are turned off here; put the file in the workspace "
                              "(or upload it) and name its path")
    try:
        current = httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise DownloadRefused(f"refused {url!r}: not a valid URL ({exc})") from None
    deadline = time.monotonic() + policy.timeout
    try:
        # One read may wait at most READ_STALL_S: the deadline is checked between reads, so a server that
        # trickles bytes is cut off at the deadline plus one read at most.
        timeout = httpx.Timeout(min(policy.timeout, READ_STALL_S))
        with httpx.Client(trust_env=False, follow_redirects=False, timeout=timeout) as client:
            for hop in range(policy.max_redirects + 1):
                _check_deadline(url, policy, deadline)
                try:
                    addresses = check_url(current, policy)
                except DownloadRefused as exc:
                    if hop == 0:
                        raise
                    raise DownloadRefused(f"refused {url}: it redirects to a URL that is refused ({exc})") from None
                response = _open(client, current, addresses)
                try:
                    if response.is_redirect:
                        current = current.join(response.headers["location"])
                        continue
                    if response.status_code != 200:
                        raise DownloadRefused(f"could not download {url}: the server answered "
                                              f"{response.status_code} {response.reason_phrase}")
                    return _save(url, response, policy, new_path, kind, deadline, still_wanted)
                finally:
                    response.close()
    except httpx.TimeoutException:
        raise DownloadRefused(f"could not download {url}: no answer within {min(policy.timeout, READ_STALL_S):g} s") from None
    except httpx.HTTPError as exc:
        raise DownloadRefused(f"could not download {url}: {type(exc).__name__}: {exc}") from None
    raise DownloadRefused(f"refused {url}: more than {policy.max_redirects} redirects")


def _save(url: str, response: httpx.Response, policy: UrlPolicy, new_path: Callable[[str], Path],
          kind: str | None, deadline: float, still_wanted: Callable[[], None] | None) -> Path:
    too_big = f"refused {url}: it is larger than the download limit of {policy.max_bytes} bytes"
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > policy.max_bytes:
        raise DownloadRefused(too_big)
    chunks = response.iter_bytes()
    head = b""
    for chunk in chunks:  # enough bytes to tell the format, before anything is stored
        _check_deadline(url, policy, deadline)
        head += chunk
        if len(head) >= SNIFF_BYTES:
            break
    detected = sniff(head)
    if detected is None:
        declared_type = response.headers.get("content-type", "no type")
        raise DownloadRefused(f"refused {url}: the reply ({declared_type}) is not an image, audio or video file "
                              f"in an allowed format ({allowed_formats()}); nothing was stored")
    if kind is not None and not serves_as(detected, kind):
        raise DownloadRefused(f"refused {url}: it is {detected}, but this input needs {kind}; nothing was stored")
    path = new_path(ALLOWED[detected][1])
    part = path.with_name(f".{path.name}.part")  # hidden: never served while incomplete
    size = 0
    try:
        with part.open("xb") as out:
            for chunk in itertools.chain([head], chunks):
                size += len(chunk)
                if size > policy.max_bytes:
                    raise DownloadRefused(too_big)
                _check_deadline(url, policy, deadline)
                if still_wanted is not None:
                    still_wanted()
                out.write(chunk)
        part.rename(path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return path


def _check_deadline(url: str, policy: UrlPolicy, deadline: float) -> None:
    if time.monotonic() > deadline:
        raise DownloadRefused(f"could not download {url}: it took longer than {policy.timeout:g} s")
