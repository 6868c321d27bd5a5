"""Pre-rendered responses for the hot pages, served straight from the ASGI layer.

The ladder page and the ladder JSON are what everyone opens (and what ``arena bench dashboard``
measures). Both are rendered once per store version into a ``Payload``: the body, its gzip
form and an ETag, built once. ``FastPath`` answers a GET/HEAD for them from the cache without
entering the router, dependency injection or a thread: a dictionary look-up, a header check
and two ``send`` calls. Anything it does not hold (first request, a new version, any other
URL) goes on to the application, which renders and caches it.

Validation is cheap by construction: the cache re-reads the store's version at most once a
second, in the background (``VersionedCache.peek``), and a client that sends the ETag back
gets a 304 with no body.
"""
from __future__ import annotations

import gzip
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
# Sent with every response (``dashboard.app.SecurityHeaders`` adds them to the others).
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin"),
    (b"content-security-policy", CSP.encode())]


@dataclass(frozen=True)
class Payload:
    """A response body rendered once: raw and gzip bytes, an ETag, and the header lists to send."""

    body: bytes
    media_type: str
    etag: str
    gzipped: bytes | None = None
    _headers: dict[str, list[tuple[bytes, bytes]]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def build(cls, body: bytes, media_type: str) -> Payload:
        etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
        gz = gzip.compress(body, 6, mtime=0) if len(body) > 1400 else None
        p = cls(body, media_type, etag, gz)
        common = [(b"content-type", media_type.encode()), (b"etag", etag.encode()),
                  (b"cache-control", b"no-cache"), (b"vary", b"accept-encoding"), *SECURITY_HEADERS]
        p._headers["plain"] = [(b"content-length", str(len(body)).encode()), *common]
        if gz is not None:
            p._headers["gzip"] = [(b"content-length", str(len(gz)).encode()), (b"content-encoding", b"gzip"),
                                  *common]
        p._headers["304"] = [(b"etag", etag.encode()), (b"cache-control", b"no-cache"),
                             (b"vary", b"accept-encoding"),
                             *SECURITY_HEADERS]
        return p

    def answer(self, if_none_match: str | None,
               accept_encoding: str | None) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """(status, headers, body) for a request with these two headers."""
        if if_none_match and (if_none_match.strip() == "*" or self.etag in if_none_match):
            return 304, self._headers["304"], b""
        if self.gzipped is not None and accept_encoding and "gzip" in accept_encoding:
            return 200, self._headers["gzip"], self.gzipped
        return 200, self._headers["plain"], self.body


def request_headers(scope: dict[str, Any]) -> tuple[str | None, str | None]:
    inm = ae = None
    for k, v in scope.get("headers", ()):
        if k == b"if-none-match":
            inm = v.decode("latin-1")
        elif k == b"accept-encoding":
            ae = v.decode("latin-1")
    return inm, ae


# URL -> cache key of the payload that answers it. Game ids are [a-z0-9_-] (the registry's ids).
ROUTES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^/api/games/([A-Za-z0-9_\-]{1,64})/ladder$"), "ladder-json"),
    (re.compile(r"^/games/([A-Za-z0-9_\-]{1,64})$"), "ladder-html"),
]


class FastPath:
    """Outermost ASGI middleware: answer GET/HEAD of a cached payload without entering the app."""

    def __init__(self, app: Any, cache: Any = None) -> None:
        self.app = app
        self.cache = cache  # a VersionedCache; set by create_app once the dashboard exists

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD") and self.cache is not None \
                and not scope.get("query_string"):
            path = scope["path"]
            for pattern, kind in ROUTES:
                m = pattern.match(path)
                if m:
                    payload = self.cache.peek((kind, m.group(1)))
                    if isinstance(payload, Payload):
                        status, headers, body = payload.answer(*request_headers(scope))
                        await send({"type": "http.response.start", "status": status, "headers": headers})
                        await send({"type": "http.response.body",
                                    "body": b"" if scope["method"] == "HEAD" else body})
                        return
                    break
        await self.app(scope, receive, send)
