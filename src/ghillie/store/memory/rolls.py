"""Roll requests waiting for the pages, in memory: at most one per (game, k), until the
event that resolves it is written."""

from __future__ import annotations

import json
import threading

from ghillie.store.base import Append, Conflict, StoredRoll, UnknownGame, roll_body, roll_from
from ghillie.store.memory.events import MemoryLog


class MemoryRolls:
    def __init__(self, lock: threading.Lock, log: MemoryLog) -> None:
        self._lock = lock
        self._log = log
        # game -> k -> (body as JSON text, elements): at most one request per roll
        self._rolls: dict[str, dict[int, tuple[str, dict[str, str]]]] = {}

    def add(self, game_id: str) -> None:
        """A new game, with no request yet (the caller holds the lock)."""
        self._rolls[game_id] = {}

    def resolve(self, item: Append) -> None:
        """Clear the request ``item``'s first event resolves (the caller holds the lock)."""
        if item.resolves and item.events:
            self._rolls[item.game_id].pop(item.events[0].seq, None)

    def waiting(self) -> set[str]:
        """The games a roll request waits in (the caller holds the lock)."""
        return {g for g, rolls in self._rolls.items() if rolls}

    def claim_roll(self, game_id: str, roll: StoredRoll) -> StoredRoll:
        with self._lock:
            log = self._log.logs.get(game_id)
            if log is None:
                raise UnknownGame(game_id)
            if len(log) > roll.k:
                raise Conflict(f"game {game_id} already has event {roll.k}")
            if len(log) < roll.k:
                raise ValueError("a roll request follows the game's last event")
            rolls = self._rolls[game_id]
            if roll.k not in rolls:
                rolls[roll.k] = (json.dumps(roll_body(roll)), dict(roll.elements))
            return self._roll(game_id, roll.k)

    def pending_roll(self, game_id: str) -> StoredRoll | None:
        with self._lock:
            if game_id not in self._rolls:
                raise UnknownGame(game_id)
            rolls = self._rolls[game_id]
            return self._roll(game_id, max(rolls)) if rolls else None

    def add_element(self, game_id: str, k: int, party: str, element: str) -> StoredRoll | None:
        with self._lock:
            if game_id not in self._rolls:
                raise UnknownGame(game_id)
            stored = self._rolls[game_id].get(k)
            if stored is None:
                return None
            stored[1].setdefault(party, element)
            return self._roll(game_id, k)

    def _roll(self, game_id: str, k: int) -> StoredRoll:
        body, elements = self._rolls[game_id][k]
        return roll_from(k, json.loads(body), elements)
