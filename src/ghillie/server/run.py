"""``ghillie serve``: open and check the database, then serve the app with uvicorn."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
from collections.abc import AsyncIterator
from typing import Any, cast

import uvicorn
from fastapi import FastAPI

from ghillie.server.app import Lifespan, create_app
from ghillie.server.hub import Hub
from ghillie.server.lan import ALL_INTERFACES, addresses, lan_address, print_qr
from ghillie.server.limits import Limits
from ghillie.server.logs import configure
from ghillie.server.notify import Listener
from ghillie.server.owners import Owners
from ghillie.server.slow import guarded
from ghillie.store.sql import SqlStore, StoreError


def build(
    db: str,
    limits: Limits | None = None,
    public_url: str | None = None,
    internal_url: str | None = None,
    **hub_options: Any,
) -> tuple[FastAPI, SqlStore]:
    """The app on a checked database; StoreError if the database will not do.
    ``public_url`` is the address links and QR codes are built from (None: the address
    each request was sent to). ``internal_url``: where the other processes on a PostgreSQL
    database reach this one (ghillie.server.owners). ``hub_options`` go to the :class:`Hub`
    (tests give it seeded sources)."""
    limits = limits or Limits()
    store = SqlStore(db)
    store.check()
    owners = None
    if not store.sqlite:
        owners = Owners(store.owners, internal_url or "http://127.0.0.1:8000")
    hub = Hub(store, limits=limits, owners=owners, **hub_options)
    app = create_app(store, hub=hub, limits=limits, public_url=public_url)
    if owners is not None:
        # The app's own (timers resumed, idle games swept): create_app's, of this type.
        inner = cast(Lifespan, app.router.lifespan_context)
        app.router.lifespan_context = _shared(inner, hub, owners, store.url)
    return app, store


def _shared(inner: Lifespan, hub: Hub, owners: Owners, url: str) -> Lifespan:
    """The app's life with other processes on its database: its lease taken before its
    timers resume (it times only its own games), kept while it serves, and given up when it
    stops; other processes' events heard of meanwhile (ghillie.server.notify)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await owners.enter()
        async with inner(app):
            listener = Listener(url, hub, asyncio.get_running_loop())
            listener.start()
            keeping = asyncio.create_task(owners.keep(hub.resume_timers, hub.games.let_go))
            yield
            keeping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeping
            await owners.leave()
            listener.stop()

    return lifespan


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


def run(
    host: str,
    port: int,
    db: str,
    limits: Limits | None = None,
    public_url: str | None = None,
    internal_url: str | None = None,
) -> int:
    """Serve until stopped. ``public_url`` (checked: :func:`lan.checked_public_url`) is where
    players open ghillie; listening on every interface (``0.0.0.0``) without one, it is this
    machine's address on the local network. ``internal_url``: where the other processes on
    a PostgreSQL database relay requests to this one (by default the address it listens
    on, or its network address if it listens on every interface)."""
    configure()
    limits = limits or Limits()
    everywhere = host in ALL_INTERFACES
    if public_url is None and everywhere:
        found = lan_address()
        public_url = f"http://{found}:{port}" if found else None
    else:
        found = None
    try:
        app, store = build(db, limits, public_url, internal_url or _internal(host, port, found))
    except StoreError as exc:
        print(f"ghillie: {exc}", file=sys.stderr)
        return 1
    # Everything loaded so far lives as long as the server: keep the collector off it. The
    # young are collected every 2,500 allocations and the middle generation after every 2nd
    # of those: as much work in all as in larger pieces, but no command waits behind a long
    # one (benchmarks/pace.py, 1,500 games, 2026-12-04 in benchmarks/FIGURES.md: the longest
    # collection 18-25 ms and p99 61-66 ms, against 131-144 ms and 149-151 ms with (20_000,
    # 2, 500), and 754-1,615 ms pauses with (20_000, 20, 50) before that, at 1,000 games). The
    # oldest after every 4,000th of the middle (20 million young allocations), as before. The
    # price is paid only by a full process: at 1,400-1,500 commands a second, about 10 % more
    # CPU a command (objects in flight are caught alive more often, and promoted), a trade
    # for players' waits; a full process wants another process beside it anyway.
    gc.collect()
    gc.freeze()
    gc.set_threshold(2_500, 2, 4_000)
    where = "SQLite file " + db if store.sqlite else "PostgreSQL"
    announce(host, port, where, public_url, found)
    if everywhere:  # uvicorn would say "running on http://0.0.0.0:8000", which no phone opens
        logging.getLogger("uvicorn.error").addFilter(_NotRunningOn())
    try:
        serve(app, host, port, limits)
    finally:
        app.state.hub.close()
        store.close()
    return 0


def _internal(host: str, port: int, found: str | None) -> str:
    if host in ALL_INTERFACES:
        host = found or "127.0.0.1"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def announce(
    host: str, port: int, where: str, public_url: str | None, found: str | None = None
) -> None:
    """Say where ghillie serves and where players open it, with a QR code of that.
    ``found``: this machine's network address, when ``public_url`` was made of it."""
    if host in ALL_INTERFACES:
        print(
            f"ghillie is serving on port {port} of every network interface, and at "
            f"http://127.0.0.1:{port}/ on this computer (games kept in {where})",
            flush=True,
        )
    else:
        shown = f"[{host}]" if ":" in host else host
        print(f"ghillie is serving at http://{shown}:{port}/ (games kept in {where})", flush=True)
    if public_url is None:
        if host in ALL_INTERFACES:
            print(
                "This computer has no network address but its own (127.0.0.1): phones cannot "
                "reach it until it joins a network. Game links will use the address your "
                "browser opens ghillie at.",
                flush=True,
            )
        return
    start = public_url.rstrip("/") + "/"
    if found:
        print(f"Phones on this network: open {start} or scan this code:", flush=True)
    else:
        print(f"Players open {start} or scan this code:", flush=True)
    print_qr(start)
    print(f"Every game link and QR code uses {start}", flush=True)
    if found:
        others = [a for a in addresses() if a != found]
        if others:
            print(
                "If phones cannot reach it, this computer's other addresses are: "
                + ", ".join(others),
                flush=True,
            )


class _NotRunningOn(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Uvicorn running on")
