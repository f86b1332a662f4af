"""The in-memory twin of the durable stores: same contract, nothing survives the process.

One part per table, as in :mod:`ghillie.store.sql`, sharing one lock. It keeps events as
JSON text, as a database would, so a value that does not survive the round trip fails here
first.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

from ghillie.events import Event
from ghillie.store.base import Append
from ghillie.store.memory.beats import MemoryBeats
from ghillie.store.memory.events import MemoryLog
from ghillie.store.memory.rolls import MemoryRolls
from ghillie.store.memory.seats import MemorySeats
from ghillie.store.memory.tokens import MemoryTokens
from ghillie.store.parts import ByTable

__all__ = ["MemoryStore"]


class MemoryStore(ByTable):
    shared = False  # one process's memory
    _log: MemoryLog
    _tokens: MemoryTokens
    _rolls: MemoryRolls
    _seats: MemorySeats
    _beats: MemoryBeats

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._log = MemoryLog(self._lock)
        self._tokens = MemoryTokens()
        self._rolls = MemoryRolls(self._lock, self._log)
        self._seats = MemorySeats(self._lock)
        self._beats = MemoryBeats(self._lock)
        # Each game's events as stored (JSON text), for a test to rewrite one as an older
        # ghillie wrote it.
        self._events = self._log.logs

    def create(self, game_id: str, header: Mapping[str, Any], first: Event) -> None:
        self.create_game(game_id, header, first, {})

    def create_game(
        self,
        game_id: str,
        header: Mapping[str, Any],
        first: Event | None,
        token_hashes: Mapping[str, str],
    ) -> None:
        if first is not None and first.seq != 0:
            raise ValueError("a game starts with event 0")
        with self._lock:
            self._log.add(game_id, header, first)
            self._rolls.add(game_id)
            self._seats.add(game_id)
            self._tokens.add(game_id, token_hashes)

    def append(self, game_id: str, expected_seq: int, events: Sequence[Event]) -> None:
        result = self.append_batch([Append(game_id, expected_seq, events)])[0]
        if result is not None:
            raise result

    def append_batch(self, batch: Sequence[Append]) -> list[Exception | None]:
        with self._lock:
            return [self._append_one(item) for item in batch]

    def _append_one(self, item: Append) -> Exception | None:
        problem = self._log.behind(item) or self._seats.changed(item) or self._log.answered(item)
        if problem is not None:
            return problem
        self._log.write(item)
        self._rolls.resolve(item)
        return None

    def timed(self) -> list[str]:
        with self._lock:
            return sorted(set(self._log.due) | self._rolls.waiting())
