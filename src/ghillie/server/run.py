"""``ghillie serve``: open and check the database, then serve the app with uvicorn."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from fastapi import FastAPI

from ghillie.server.app import create_app
from ghillie.server.hub import Hub
from ghillie.server.limits import Limits
from ghillie.server.logs import configure
from ghillie.server.notify import Listener
from ghillie.server.slow import guarded
from ghillie.store.sql import SqlStore, StoreError


def build(db: str, limits: Limits | None = None, **hub_options: Any) -> tuple[FastAPI, SqlStore]:
    """The app on a checked database; StoreError if the database will not do.
    ``hub_options`` go to the :class:`Hub` (tests give it seeded sources)."""
    limits = limits or Limits()
    store = SqlStore(db)
    store.check()
    hub = Hub(store, limits=limits, **hub_options)
    app = create_app(store, hub=hub, limits=limits)
    if not store.sqlite:
        listening: dict[str, Listener] = {}
        inner = app.router.lifespan_context  # the app's own (the sweep of idle games)

        @contextlib.asynccontextmanager
        async def lifespan(app_: FastAPI) -> AsyncIterator[None]:
            async with inner(app_):
                listening["it"] = Listener(store.url, hub, asyncio.get_running_loop())
                listening["it"].start()
                yield
                listening["it"].stop()

        app.router.lifespan_context = lifespan
    return app, store


def serve(app: FastAPI, host: str, port: int, limits: Limits) -> None:
    """Run ``app`` with uvicorn, within ``limits`` (connections, slow clients)."""
    uvicorn.run(
        app,
        host=host,
        port=port,
        access_log=False,
        log_config=None,
        http=guarded(limits.header_seconds, limits.body_seconds),
        limit_concurrency=limits.max_connections,
        ws_max_size=1 << 20,
        # A view is a few kilobytes pushed after every event: compressing it costs more
        # time than it saves on a local network.
        ws_per_message_deflate=False,
    )


def run(host: str, port: int, db: str, limits: Limits | None = None) -> int:
    configure()
    limits = limits or Limits()
    try:
        app, store = build(db, limits)
    except StoreError as exc:
        print(f"ghillie: {exc}", file=sys.stderr)
        return 1
    # Everything loaded so far lives as long as the server: keep the collector off it, and
    # collect the young less often (a command allocates many small objects).
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 50)
    where = "SQLite file " + db if store.sqlite else "PostgreSQL"
    print(f"ghillie is serving at http://{host}:{port}/ (games kept in {where})", flush=True)
    try:
        serve(app, host, port, limits)
    finally:
        app.state.hub.close()
        store.close()
    return 0
