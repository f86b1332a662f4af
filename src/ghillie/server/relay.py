"""A request for a game that another process owns, relayed to it (ghillie.server.owners).

Every route of a game is under ``/api/games/{game}/``: a request there, or its websocket,
that reaches a process which does not own the game is passed on to the owner's internal
address, and the owner's answer (or every frame, both ways) passed back. Relaying, not
redirecting: a page is served from one public address (its CSP lets it connect to that
origin only), and behind a front such as nginx another process's port is not reachable at
all. The pages (``/play/{game}`` and the like) are the same files everywhere: never relayed.

A relayed request carries ``x-ghillie-relayed`` and is served where it arrives, whoever
owns the game by then, so a request is relayed once at most. A client that sets it itself
only gets what any process on the database could always give it: the store refuses a
second writer on (game, seq), whichever process writes.

An owner out of reach (killed, restarting) is answered ``unavailable`` (503), or a close
with code 1013 (try again later) on the websocket: a client retries with the same command
id, and is served by the new owner once the old one's lease runs out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re

import httpx2
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ghillie.server.owners import Owners
from ghillie.server.problems import UNAVAILABLE, Problem, send_problem, where

log = logging.getLogger("ghillie.relay")

RELAYED = "x-ghillie-relayed"
_GAME = re.compile(r"/api/games/([^/]+)/")
# Headers of one hop only (RFC 9110 7.6.1), and those the client library sets itself.
_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
        "content-encoding",
    }
)
# A command's answer may wait 30 s for the pages' dice before it is answered 202.
ANSWER_SECONDS = 60.0
CONNECT_SECONDS = 2.0
TRY_AGAIN = 1013  # websocket close code: try again later
_OUT_OF_REACH = "The game's server is out of reach for a moment; try again."


class Relay:
    """ASGI middleware: serve here, or relay to the game's owner."""

    def __init__(self, app: ASGIApp, owners: Owners) -> None:
        self.app = app
        self.owners = owners
        self._client: httpx2.AsyncClient | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        game = _GAME.match(scope["path"]) if scope["type"] in ("http", "websocket") else None
        relayed = any(k == RELAYED.encode() for k, _ in scope.get("headers", ()))
        address = None
        if game is not None and not relayed:
            try:
                address = await self.owners.where(game[1])
            except Exception as exc:  # the database is out of reach: served here, as before
                log.warning("no owner found: %s", where(exc))
        if address is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await self._http(game[1], address, scope, receive, send)  # type: ignore[index]
        else:
            await self._socket(game[1], address, scope, receive, send)  # type: ignore[index]

    def _target(self, address: str, scope: Scope) -> str:
        path: bytes = scope.get("raw_path") or scope["path"].encode()
        query: bytes = scope.get("query_string") or b""
        return address + path.decode("latin-1") + ("?" + query.decode("latin-1") if query else "")

    async def _http(
        self, game_id: str, address: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if self._client is None:
            timeout = httpx2.Timeout(ANSWER_SECONDS, connect=CONNECT_SECONDS)
            self._client = httpx2.AsyncClient(timeout=timeout)
        try:
            answer = await self._client.request(
                scope["method"],
                self._target(address, scope),
                headers=[*_forwarded(scope), (RELAYED, "1")],
                content=bytes(body),
            )
        except httpx2.TransportError:
            self.owners.unreachable(game_id)
            problem = Problem(UNAVAILABLE, _OUT_OF_REACH)
            await send_problem(send, problem, (b"retry-after", b"2"))
            return
        headers = [
            (k.encode("latin-1"), v.encode("latin-1"))
            for k, v in answer.headers.multi_items()
            if k.lower() not in _HOP
        ]
        content = answer.content
        headers.append((b"content-length", str(len(content)).encode()))
        await send(
            {"type": "http.response.start", "status": answer.status_code, "headers": headers}
        )
        await send({"type": "http.response.body", "body": content})

    async def _socket(
        self, game_id: str, address: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        client = WebSocket(scope, receive, send)
        await client.accept()
        url = "ws" + self._target(address, scope).removeprefix("http")
        try:
            owner = await connect(
                url,
                additional_headers=[*_forwarded(scope), (RELAYED, "1")],
                open_timeout=CONNECT_SECONDS,
                max_size=None,  # the owner bounds what it takes and what it sends
                compression=None,
            )
        except (OSError, TimeoutError, InvalidHandshake):
            self.owners.unreachable(game_id)
            await client.close(TRY_AGAIN, "try again")
            return
        async with owner:
            inward = asyncio.create_task(_inward(receive, owner))
            outward = asyncio.create_task(_outward(owner, send))
            done, pending = await asyncio.wait(
                (inward, outward), return_when=asyncio.FIRST_COMPLETED
            )
            for task in pending:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                    await task
        if outward in done and owner.close_code in (None, 1006):
            self.owners.unreachable(game_id)  # cut off, not closed: it may be dead


def _forwarded(scope: Scope) -> list[tuple[str, str]]:
    return [
        (k.decode("latin-1"), v.decode("latin-1"))
        for k, v in scope.get("headers", ())
        if k.decode("latin-1").lower() not in _HOP
        and not k.lower().startswith(b"sec-websocket")
        and k.lower() != RELAYED.encode()
    ]


async def _inward(receive: Receive, owner: ClientConnection) -> None:
    """The client's frames to the owner, until the client goes."""
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            await owner.close()
            return
        data = message.get("text")
        await owner.send(data if data is not None else message.get("bytes") or b"")


async def _outward(owner: ClientConnection, send: Send) -> None:
    """The owner's frames to the client, then its close (or "try again" if it was cut off)."""
    with contextlib.suppress(ConnectionClosed):
        async for data in owner:
            frame: Message = {"type": "websocket.send"}
            frame["text" if isinstance(data, str) else "bytes"] = data
            await send(frame)
    code = owner.close_code
    if code is None or code == 1006:
        code, reason = TRY_AGAIN, "try again"
    else:
        reason = owner.close_reason or ""
    with contextlib.suppress(Exception):  # the client may be gone too
        await send({"type": "websocket.close", "code": code, "reason": reason})
