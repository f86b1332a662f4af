"""Game ownership across server processes on one PostgreSQL: each game is ruled by exactly
one process, its owner, and a request for it that reaches another process is relayed there
(ghillie.server.relay).

A process holds a lease (a row in ``processes``, ghillie.store.sql.owners) that it renews
every ``BEAT`` seconds; a game is its own once it has claimed it — at the game's creation,
or at the first request for a game whose owner is gone (no lease, or a beat older than
``STALE`` seconds). Its own games are known here, so a request for one costs no read of the
database; another process's owner is remembered for ``STALE`` seconds, and forgotten at
once when a relay to it fails.

A process that cannot renew its lease stops ruling its games (``lose``) before others may
take them; one that finds its lease was taken anyway (it was paused, or cut off from the
database) asks which games it still owns. Two processes that both believe they own a game
for a moment cannot fork its log: the store refuses the second write on (game, seq), and its
writer catches up and rules again (ghillie.server.sync). Ownership is there for speed (one
process holds each game's state and rules it without clashes); the store keeps it correct.

When a process finds others dead, it claims those of their games that something is timed
in (a reaction window, a roll waiting for the pages), so their timers go on (``adopt``); the
rest are claimed when someone next asks for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable

from ghillie.server.calls import io
from ghillie.server.problems import where
from ghillie.store.sql.owners import SqlOwners

log = logging.getLogger("ghillie.owners")

BEAT = 1.0  # seconds between a process's beats
# A lease not renewed for this long is over: a killed owner's games move within about this
# long. Several beats, so that a busy event loop or a slow commit does not lose a lease.
STALE = 4.0

Adopt = Callable[[set[str]], Awaitable[object]]
Lose = Callable[[Iterable[str]], None]


class Owners:
    def __init__(self, table: SqlOwners, address: str) -> None:
        """``address``: where the other processes reach this one (``http://host:port``)."""
        self.table = table
        self.address = address.rstrip("/")
        self.me = secrets.token_hex(16)  # a new process at every start
        self.mine: set[str] = set()
        self._theirs: dict[str, tuple[str, float]] = {}  # game -> (owner's address, until)
        self._renewed = 0.0  # time.monotonic() of the last beat that reached the database

    async def enter(self) -> None:
        await io(self.table.enter, self.me, self.address)
        self._renewed = time.monotonic()

    async def leave(self) -> None:
        """Stopping: the games are handed over at once, not after the lease runs out."""
        self.mine.clear()
        with contextlib.suppress(Exception):
            await io(self.table.leave, self.me)

    async def where(self, game_id: str) -> str | None:
        """The address of the process that owns this game, or None if it is this one (it
        is claimed if it has no live owner) or no such game exists."""
        if game_id in self.mine:
            return None
        cached = self._theirs.get(game_id)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        found = await io(self.table.claim, game_id, self.me, STALE)
        if found is None:
            return None  # no such game: answered here, as anywhere
        owner, address = found
        if owner == self.me or address is None:
            self.mine.add(game_id)
            self._theirs.pop(game_id, None)
            return None
        self._theirs[game_id] = (address, time.monotonic() + STALE)
        return address

    def unreachable(self, game_id: str) -> None:
        """A relay to this game's owner failed: ask the database again next time (the owner
        may be dead, and its game claimable once its lease is over)."""
        self._theirs.pop(game_id, None)

    async def keep(self, adopt: Adopt, lose: Lose) -> None:
        """Beat for as long as the server runs; see the module for ``adopt`` and ``lose``."""
        while True:
            await asyncio.sleep(BEAT)
            try:
                await self._beat(adopt, lose)
            except Exception as exc:  # the database is out of reach: try again next beat
                log.warning("ownership beat failed: %s", where(exc))
                if time.monotonic() - self._renewed > STALE - BEAT and self.mine:
                    # Others may take these games before the next beat: stop ruling them.
                    lost, self.mine = self.mine, set()
                    lose(lost)

    async def _beat(self, adopt: Adopt, lose: Lose) -> None:
        late = time.monotonic() - self._renewed > STALE - BEAT
        kept = await io(self.table.beat, self.me, self.address)
        self._renewed = time.monotonic()
        if late or not kept:
            owned = await io(self.table.owned_by, [self.me])
            lost = self.mine - owned
            self.mine &= owned
            if lost:
                lose(lost)
        dead = await io(self.table.dead, STALE)
        if dead:
            orphans = await io(self.table.owned_by, dead)
            await io(self.table.bury, dead, STALE)
            log.info("%d server process(es) stopped beating: %d games", len(dead), len(orphans))
            await adopt(orphans)
