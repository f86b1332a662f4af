"""Across server processes on one PostgreSQL: NOTIFY as a wake-up, events from the database.

After each commit the store sends ``NOTIFY ghillie_events, '<game id>:<seq>,…'`` — ids only,
no secrets (NOTIFY payloads are visible to every database user). Each process listens, and on
a notification for a game its clients watch it reads the new events from the database. A
notification can be missed (a listener reconnecting); a poll of the watched games every few
seconds catches up regardless.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading

from ghillie.server.hub import Hub

CHANNEL = "ghillie_events"
POLL_SECONDS = 2.0

log = logging.getLogger("ghillie.notify")


class Listener:
    def __init__(self, url: str, hub: Hub, loop: asyncio.AbstractEventLoop) -> None:
        self.url = url.replace("postgresql+psycopg://", "postgresql://")
        self.hub = hub
        self.loop = loop
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, name="ghillie-listen", daemon=True)
        self._poller: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._thread.start()
        self._poller = self.loop.create_task(self._poll())

    def stop(self) -> None:
        self._stop.set()
        if self._poller is not None:
            self._poller.cancel()
        self._thread.join(timeout=5)

    def _listen(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            for entry in note.payload.split(","):
                                game_id, _, seq = entry.partition(":")
                                if seq.isdigit():
                                    self.loop.call_soon_threadsafe(self._wake, game_id, int(seq))
            except Exception as exc:  # reconnect; the poll covers the gap
                log.warning("listener reconnecting after %s", exc.__class__.__name__)
                self._stop.wait(1.0)

    def _wake(self, game_id: str, seq: int) -> None:
        # Most notifications are this process's own writes: nothing to read for those.
        if self.hub.sync.behind(game_id, seq):
            self.loop.create_task(self.hub.sync.refresh(game_id))

    async def _poll(self) -> None:
        # One query for all watched games; only those behind are read.
        while True:
            await asyncio.sleep(POLL_SECONDS)
            with contextlib.suppress(Exception):
                heads = await asyncio.to_thread(self.hub.store.heads, self.hub.games.watched())
                for game_id, seq in heads.items():
                    if self.hub.sync.behind(game_id, seq):
                        await self.hub.sync.refresh(game_id)
