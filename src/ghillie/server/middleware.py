"""ASGI middleware: an allow-listed access log, a request size limit, security headers."""

from __future__ import annotations

import logging
import time
from typing import ClassVar

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ghillie.server.problems import TOO_LARGE, Problem, send_problem

access = logging.getLogger("ghillie.access")

MAX_BODY = 4 * 1024 * 1024  # any request: far above what a well-formed one needs


class AccessLog:
    """An access log of allow-listed fields only: method, the route's template (never the
    concrete path, query or headers), status and time."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 0

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = scope.get("route")
            access.info(
                "%s %s %s %.1fms",
                scope["method"],
                getattr(route, "path", "-"),
                status,
                (time.perf_counter() - start) * 1000,
            )


class BodyLimit:
    """Refuse request bodies over ``MAX_BODY`` bytes, declared or streamed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
            await send_problem(send, Problem(TOO_LARGE, "The request is too large."))
            return
        seen = 0

        async def receiving() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > MAX_BODY:
                    raise Problem(TOO_LARGE, "The request is too large.")
            return message

        await self.app(scope, receiving, send)


class SecureHeaders:
    """Headers every response carries: no sniffing, no caching of game data, no referrer,
    scripts only from this server."""

    HEADERS: ClassVar[list[tuple[bytes, bytes]]] = [
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
        (
            b"content-security-policy",
            b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            # 'self' covers ws: and wss: to this same host (CSP Level 3, which Chromium and
            # Firefox follow): the pages' websocket connects, and nothing else can.
            b"connect-src 'self'; frame-ancestors 'none'",
        ),
    ]

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in self.HEADERS if k not in names]
                if scope["path"].startswith("/api/") and b"cache-control" not in names:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)
