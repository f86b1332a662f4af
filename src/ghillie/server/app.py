"""The ASGI application: the JSON API, a websocket per side, and the pages.

Everything a side receives — response bodies, websocket frames, error bodies — is built from
``view(game, observer)`` or from a refusal's fixed code and detail. A side is identified only
by its capability token (``Authorization: Bearer …``; on the websocket, the first message),
never by anything in the URL, so tokens do not end up in access logs or browser history.
The routes are in :mod:`ghillie.server.routes`, one router to a concern.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager

from fastapi import FastAPI
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from ghillie.server.apidocs import add_docs
from ghillie.server.hub import Hub
from ghillie.server.limits import CreationLimit, CreationMeter, Limits
from ghillie.server.middleware import AccessLog, BodyLimit, SecureHeaders
from ghillie.server.relay import Relay
from ghillie.server.routes import ROUTERS
from ghillie.server.routes.errors import PROBLEMS, add_problems
from ghillie.server.socket import serve_socket
from ghillie.store.base import EventStore

Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[None]]

# The route of a side's websocket (routes/play.py), as Starlette matches it.
_SOCKET = re.compile(r"/api/games/(?P<game>[^/]+)/ws")


class App(FastAPI):
    """The app, with a side's websocket served straight from the server's call.

    Through the middleware stack, a websocket keeps every layer's call alive for as long as
    it is open (34 coroutines a connection, FastAPI's exit stacks, each layer's wrapped
    ``send``), about a fifth of a connected game's memory (benchmarks/FIGURES.md), and
    none of the layers does anything for a websocket: the secure headers, the size limit,
    the access log and the creation meter are for HTTP, and ``serve_socket`` answers every
    failure itself. With several processes the relay must look at it first (relay.py),
    so it goes the whole way then."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and (found := _SOCKET.fullmatch(scope["path"])):
            hub: Hub | None = getattr(self.state, "hub", None)
            if hub is not None and hub.owners is None:
                scope["app"] = self
                await serve_socket(hub, WebSocket(scope, receive, send), found["game"])
                return
        await super().__call__(scope, receive, send)


def create_app(
    store: EventStore,
    *,
    hub: Hub | None = None,
    limits: Limits | None = None,
    public_url: str | None = None,
) -> App:
    """The app on ``store``. ``public_url`` (``http://192.0.2.2:8000``: ``ghillie serve
    --lan``, ``--public-url``) is the address every link and QR code is built from; None
    builds them from the address each request was sent to."""
    limits = limits or Limits()
    app = App(
        title="ghillie",
        summary="A neutral referee for hidden units in wargames",
        version="0.1.0",
        lifespan=_lifespan(store, hub, limits),
        responses=PROBLEMS,
        docs_url=None,  # served by add_docs, from this server (apidocs.py)
        redoc_url=None,  # it too loaded its script from a CDN the CSP blocks
    )
    add_docs(app)
    if hub is not None:
        app.state.hub = hub
    app.state.limits = limits
    app.state.public_url = public_url.rstrip("/") if public_url else None
    # One creation's CPU work (parsing, hashing the chains) at a time: in threads, several
    # would each take the GIL in turn from the event loop that serves everyone's games.
    app.state.setting_up = asyncio.Semaphore(1)
    add_problems(app)
    for router in ROUTERS:
        app.include_router(router)
    # Outermost first: secure headers on every answer, then the size limit, then the log,
    # then the creation meter (before anything reads a creation's body), then the relay to
    # a game's owner (whose own middleware does all of this again).
    if hub is not None and hub.owners is not None:  # several processes: see relay.py
        app.add_middleware(Relay, owners=hub.owners)
    app.add_middleware(CreationLimit, meter=CreationMeter(limits))
    app.add_middleware(AccessLog)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecureHeaders)
    return app


def _lifespan(store: EventStore, hub: Hub | None, limits: Limits) -> Lifespan:
    """The hub's life in the app's: made here unless given (and then closed here too), with
    its timers resumed, idle games swept and the host's beat written meanwhile."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.hub = hub or Hub(store, limits=limits)
        # Timers of windows left open and rolls left waiting run from start-up on.
        await app.state.hub.resume_timers()
        sweeping = asyncio.create_task(app.state.hub.games.sweep_every(limits.sweep_seconds))
        beating = asyncio.create_task(app.state.hub.outages.beat_every())
        yield
        for task in (sweeping, beating):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if hub is None:
            app.state.hub.close()

    return lifespan
