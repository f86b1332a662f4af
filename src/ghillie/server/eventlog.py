"""A live game's event log: its last events in memory, the earlier ones read back from the
store when a whole view, a record or a past position asks for them.

An event weighs 6–9 KB in memory (its effects and its proof material), so a game kept
whole would grow without bound as it is played: a 1,000-event game held 8 MB. What is
asked for on the hot path is the tail: the events a commit adds (published to the
watchers) and the few a reconnecting page missed. A page that missed more, or connects
anew, is given the earlier ones from the store: one indexed read, off the event loop.
Everything before the tail is durable already (an event is appended only once it is
committed), so reading it back is always possible and always gives the same events.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Final

from ghillie import clock
from ghillie.events import Event
from ghillie.server.calls import read

if TYPE_CHECKING:
    from ghillie.store.base import EventStore

TAIL: Final = 8  # events kept in memory at least (twice as many at most)


def stored_log(store: EventStore, game_id: str, events: Iterable[Event] = ()) -> EventLog:
    """The log of ``game_id`` from ``events`` (all of them, from seq 0), the earlier ones to be
    read back from ``store``."""
    return EventLog(events, functools.partial(store.events, game_id))


class EventLog:
    """The events of one game, seq 0 onwards; the last :data:`TAIL` of them held."""

    def __init__(
        self, events: Iterable[Event], read: Callable[[int], list[Event]], keep: int = TAIL
    ) -> None:
        """``read(after)`` gives the stored events with seq > ``after`` (the store's
        ``events``, for this game)."""
        self._read = read
        self._keep = keep
        self._held: list[Event] = []
        self._count = 0
        self.last_at: str | None = None  # the latest time any event was ruled at, if any
        self._reading = 0  # reads of the store under way: nothing held is let go meanwhile
        for event in events:
            self.append(event)

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, seq: int) -> Event:
        """Event ``seq``, which must be held (one of the last :data:`TAIL` or so)."""
        if not self.first_held <= seq < self._count:
            raise LookupError(f"event {seq} is not in memory")
        return self._held[seq - self.first_held]

    @property
    def first_held(self) -> int:
        """The seq of the first event in memory."""
        return self._count - len(self._held)

    def append(self, event: Event) -> None:
        if event.seq != self._count:
            raise ValueError(f"event {event.seq} appended after {self._count - 1}")
        self._held.append(event)
        self._count += 1
        if event.at is not None and (self.last_at is None or _later(event.at, self.last_at)):
            self.last_at = event.at
        if len(self._held) > 2 * self._keep and not self._reading:  # now and then
            del self._held[: -self._keep]

    def since(self, after: int) -> list[Event]:
        """The events after ``after``, which must all be held: those a commit has just added."""
        if after + 1 < self.first_held:
            raise LookupError(f"events after {after} are no longer all in memory")
        return self._held[after + 1 - self.first_held :]

    async def after(self, after: int = -1) -> list[Event]:
        """The events after ``after`` up to the last one now: from memory if held, else the
        earlier ones read back (off the loop) and the held ones after them. While a read is
        under way nothing held is let go, so the events that come meanwhile join on without
        a gap: one read, however fast commands commit."""
        after = max(after, -1)
        first = self.first_held
        if after + 1 >= first:
            return self._held[after + 1 - first :]
        self._reading += 1
        try:
            stored = await read(self._read, after)
        finally:
            self._reading -= 1
        earlier = [e for e in stored if e.seq < first]
        if len(earlier) != first - (after + 1):
            raise LookupError(f"the store lacks events between {after} and {first}")
        return earlier + list(self._held)  # from `first` on: nothing was let go meanwhile

    async def upto(self, seq: int) -> list[Event]:
        """The events up to ``seq`` inclusive (a past position of the game)."""
        return [e for e in await self.after(-1) if e.seq <= seq]


def _later(at: str, than: str) -> bool:
    return clock.parse(at) > clock.parse(than)
