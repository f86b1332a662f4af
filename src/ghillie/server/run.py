"""``ghillie serve``: open and check the database, then serve the app with uvicorn."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from fastapi import FastAPI

from ghillie.server.app import create_app
from ghillie.server.hub import Hub
from ghillie.server.notify import Listener
from ghillie.store.sql import SqlStore, StoreError

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def build(db: str, **hub_options: Any) -> tuple[FastAPI, SqlStore]:
    """The app on a checked database; StoreError if the database will not do.
    ``hub_options`` go to the :class:`Hub` (tests give it seeded sources)."""
    store = SqlStore(db)
    store.check()
    hub = Hub(store, **hub_options)
    app = create_app(store, hub=hub)
    if not store.sqlite:
        listening: dict[str, Listener] = {}

        @contextlib.asynccontextmanager
        async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
            listening["it"] = Listener(store.url, hub, asyncio.get_running_loop())
            listening["it"].start()
            yield
            listening["it"].stop()

        app.router.lifespan_context = lifespan
    return app, store


def run(host: str, port: int, db: str) -> int:
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    try:
        app, store = build(db)
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
        uvicorn.run(
            app,
            host=host,
            port=port,
            access_log=False,
            log_config=None,
            ws_max_size=1 << 20,
            # A view is a few kilobytes pushed after every event: compressing it costs more
            # time than it saves on a local network.
            ws_per_message_deflate=False,
        )
    finally:
        app.state.hub.close()
        store.close()
    return 0
