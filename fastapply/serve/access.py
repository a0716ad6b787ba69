"""Who may talk to the server: the Host header, the browser's Origin, and the body's Content-Type.

A local server is reachable from every web page its user visits: a page can POST to
http://127.0.0.1:8000 (a "simple" cross-site request needs no permission and is executed even
though the page cannot read the answer), and with DNS rebinding a page's own host name can be made
to resolve to 127.0.0.1, after which the browser lets it read answers too. Three checks close that:

- **Host**: only the bound address, the loopback names (`localhost`, `127.0.0.1`, `::1`) and the
  names given with `--allow-host` (a reverse proxy's public name). A rebinding page's requests carry
  its own host name, so they are refused. When the server binds a wildcard address (`0.0.0.0`,
  `::`) on purpose and no `--allow-host` is given, any Host is accepted (it is reached by names we
  cannot know; use `--api-key` there).
- **Origin**: browsers add it to cross-site requests (and to every POST); non-browser clients do
  not send it. A request with an Origin is refused unless that origin was allowed with
  `--allow-origin` (CORS headers are then sent for it, and only for it).
- **Content-Type**: a POST body must be declared `application/json`. A page can send `text/plain`
  or a form without permission, never JSON.

Refusals are 403 (`host_not_allowed`, `origin_not_allowed`) or 415 (`unsupported_media_type`) in
OpenAI's error shape. This module knows header values; nothing about routes or models.
"""

from __future__ import annotations

from dataclasses import dataclass

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARD_ADDRESSES = frozenset({"0.0.0.0", "::", ""})
BODY_METHODS = frozenset({b"POST", b"PUT", b"PATCH"})


def host_name(value: str) -> str:
    """The name in a Host header value: without the port, brackets or trailing dot, lower case."""
    value = value.strip().lower()
    if value.startswith("["):  # [::1]:8000
        return value[1 : value.find("]")] if "]" in value else value
    if value.count(":") == 1:  # name:port (a bare IPv6 address has several colons)
        value = value.split(":", 1)[0]
    return value.rstrip(".")


def is_json(content_type: str | None) -> bool:
    """`application/json`, with or without parameters (`; charset=utf-8`)."""
    if not content_type:
        return False
    return content_type.split(";", 1)[0].strip().lower() == "application/json"


@dataclass(frozen=True)
class AccessPolicy:
    """Which Host names and browser origins may reach the server."""

    bound_host: str | None = None  # the address the server listens on (None: loopback)
    allowed_hosts: tuple[str, ...] = ()  # extra Host names (--allow-host)
    allowed_origins: tuple[str, ...] = ()  # browser origins (--allow-origin); "*" allows any

    @property
    def any_host(self) -> bool:
        return self.bound_host is not None and self.bound_host.strip("[]") in WILDCARD_ADDRESSES \
            and not self.allowed_hosts

    def host_allowed(self, header: str | None) -> bool:
        if header is None or self.any_host:  # HTTP/1.0 without Host is no browser's
            return True
        name = host_name(header)
        names = set(LOOPBACK_NAMES) | {host_name(h) for h in self.allowed_hosts}
        if self.bound_host:
            names.add(host_name(self.bound_host))
        return name in names

    def origin_allowed(self, origin: str) -> bool:
        return "*" in self.allowed_origins or origin.rstrip("/") in {o.rstrip("/") for o in self.allowed_origins}

    def refusal(self, headers: dict[bytes, bytes]) -> tuple[int, str, str] | None:
        """(status, message, code) when the request must be refused, else None."""
        host = headers.get(b"host")
        host_text = host.decode("latin-1") if host is not None else None
        if not self.host_allowed(host_text):
            return (403, f"the Host {host_text!r} is not this server's (DNS rebinding?); a proxy's name can be "
                         "allowed with --allow-host", "host_not_allowed")
        origin = headers.get(b"origin")
        if origin is not None and not self.origin_allowed(origin.decode("latin-1")):
            return (403, f"requests from web pages are refused (Origin {origin.decode('latin-1')!r}); "
                         "allow one with --allow-origin", "origin_not_allowed")
        return None


def content_type_refusal(method: bytes, headers: dict[bytes, bytes]) -> tuple[int, str, str] | None:
    """(status, message, code) for a body that is not declared JSON, else None."""
    if method not in BODY_METHODS:
        return None
    declared = headers.get(b"content-type")
    if is_json(declared.decode("latin-1") if declared is not None else None):
        return None
    shown = declared.decode("latin-1") if declared is not None else "none"
    return (415, f"the request body must be sent as 'Content-Type: application/json' (got {shown})",
            "unsupported_media_type")
