"""Deadlines for requests sent half way and then left open ("slowloris").

uvicorn closes a keep-alive connection that stays silent between requests
(``timeout_keep_alive``), but it has no deadline once a request has begun, nor for a new
connection that sends nothing: a client trickling its headers or body one byte at a time
holds a connection, and its buffers, for as long as it likes. This protocol gives each
request ``header_seconds`` from its connection (or from its first byte, on a kept-alive
connection) to complete its headers, then ``body_seconds`` to complete its body, and closes
the connection when either passes. A request's handler may take as long as it needs (a
command waits for the roll's contributions): only receiving the request is timed. A
websocket is not timed once it is upgraded: it has its own pings.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class GuardedHttp(HttpToolsProtocol):
    header_seconds = 10.0
    body_seconds = 30.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.header_seconds)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm(self.header_seconds)

    def on_headers_complete(self) -> None:
        self._arm(self.body_seconds)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()


def guarded(header_seconds: float, body_seconds: float) -> type[GuardedHttp]:
    """The protocol class with these deadlines (uvicorn makes one instance per connection)."""
    return type(
        "GuardedHttp",
        (GuardedHttp,),
        {"header_seconds": header_seconds, "body_seconds": body_seconds},
    )
