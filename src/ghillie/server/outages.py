"""A reaction window's clock does not run while the host is down.

While a timed window runs, the host writes a sign of life for its game every second (the
store's ``beat``). A host that starts again finds, for each game whose window was running, its
last beat: from then until its ruling nobody could answer, so it gives the host's command
``extend`` (ghillie.host), which moves the window's end on by that time, records it in the
signed log and tells every side. Until it is ruled (or refused), the game's time-out waits.

Why a beat and not the time of the last event: a window runs for half a minute with no event
while its side thinks, and the host may die at any moment of it; the beat puts the outage's
start within a second of the truth. The claim is bounded from below by the last event the
host ruled (it was alive then), which is what the audit holds it to.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ghillie import clock
from ghillie.errors import ROLL_PENDING, Refusal
from ghillie.server.calls import io
from ghillie.server.deadlines import Deadlines
from ghillie.server.live import LiveGame
from ghillie.server.problems import where
from ghillie.store.base import EventStore

log = logging.getLogger("ghillie.outages")

# How often the host says it is alive while a window runs, and the outage below which
# nothing is extended (a beat missed by a busy loop is no outage).
BEAT = 1.0
SHORTEST = 2.0

# (game id, the window's opening seq, since) -> None once the extension is ruled or refused
Extend = Callable[[str, int, str], Awaitable[object]]


class Outages:
    def __init__(self, store: EventStore, deadlines: Deadlines) -> None:
        self.store = store
        self.deadlines = deadlines

    async def beat_every(self, seconds: float = BEAT) -> None:
        """Until cancelled: the host's sign of life for every game whose window is timed."""
        while True:
            timed = sorted(self.deadlines.timed())
            if timed:
                try:
                    await io(self.store.beat, timed, clock.now())
                except Exception as exc:  # a missed beat only makes an outage look longer
                    log.warning("the host's beat could not be written: %s", where(exc))
            await asyncio.sleep(seconds)

    async def last_beats(self, game_ids: list[str]) -> dict[str, str]:
        """Read before this host beats: the last sign of life of the host before it."""
        return await io(self.store.beats, game_ids)

    async def extend(self, game_id: str, opened: int, since: str, give: Extend) -> None:
        """Give the extension of ``game_id``'s window (opened by event ``opened``) for the
        outage from ``since`` (its time-out is held meanwhile), then let the time run out."""
        try:
            down = (clock.parse(clock.now()) - clock.parse(since)).total_seconds()
            while down >= SHORTEST:
                try:
                    await give(game_id, opened, since)
                except Refusal as refusal:
                    if refusal.code != ROLL_PENDING:
                        break  # answered, closed, or not running when the host went down
                    await asyncio.sleep(BEAT)  # a command's roll awaits the pages: after it
                else:
                    break
        except Exception as exc:
            log.warning("a window could not be extended after an outage: %s", where(exc))
        finally:
            self.deadlines.release(game_id)


def outage_start(game: LiveGame, beat: str | None) -> str | None:
    """When the host that ruled ``game`` was last known alive while its timed window ran:
    its last beat, or the last event it ruled at a recorded time if that came later (a window
    opened, or a command given, after the last beat). None: no timed window waits, or its
    time had run out before then (it is timed out, not extended)."""
    window = game.state.window
    if window is None or window.ends is None or window.awaiting is None:
        return None
    last = game.events.last_at
    known = [] if last is None else [clock.parse(last)]
    if beat is not None:
        known.append(clock.parse(beat))
    if not known:
        return None
    since = max(known)
    return None if since >= clock.parse(window.ends) else clock.stamp(since)
