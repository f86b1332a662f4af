"""The games and their logs, in memory: each game's header, its events as JSON text (as a
database keeps them), the answers of its commands, and when its open timed window ends."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from ghillie.events import Event, event_from_json, event_to_json
from ghillie.store.base import Answer, Append, Conflict, UnknownGame


class MemoryLog:
    def __init__(self, lock: threading.Lock) -> None:
        self._lock = lock
        self.headers: dict[str, str] = {}
        self.logs: dict[str, list[str]] = {}
        self.said: dict[str, dict[tuple[str, str], Answer]] = {}
        self.due: dict[str, str] = {}  # game -> when its open timed window ends

    def add(self, game_id: str, header: Mapping[str, Any], first: Event | None) -> None:
        """A new game's header and first event (the caller holds the lock)."""
        if game_id in self.headers:
            raise Conflict(f"game {game_id} exists")
        self.headers[game_id] = json.dumps(header)
        self.logs[game_id] = [json.dumps(event_to_json(first))] if first else []
        self.said[game_id] = {}

    def behind(self, item: Append) -> Exception | None:
        """Why ``item`` cannot follow the game's log, if it cannot (the caller holds the
        lock)."""
        log = self.logs.get(item.game_id)
        if log is None:
            return UnknownGame(item.game_id)
        if len(log) - 1 != item.expected_seq:
            return Conflict(f"game {item.game_id} is at {len(log) - 1}, not {item.expected_seq}")
        for offset, event in enumerate(item.events, start=1):
            if event.seq != item.expected_seq + offset:
                raise ValueError("events must follow expected_seq without gaps")
        return None

    def answered(self, item: Append) -> Exception | None:
        """A Conflict if ``item``'s command id was answered already (the caller holds the
        lock)."""
        said = self.said[item.game_id]
        if item.answer is not None and (item.answer.observer, item.answer.command_id) in said:
            return Conflict(f"command {item.answer.command_id} was already answered")
        return None

    def write(self, item: Append) -> None:
        """``item``'s answer, events and window end (the caller holds the lock)."""
        if item.answer is not None:
            key = (item.answer.observer, item.answer.command_id)
            self.said[item.game_id][key] = item.answer
        self.logs[item.game_id].extend(json.dumps(event_to_json(e)) for e in item.events)
        if item.due is not None:
            if item.due[0] is None:
                self.due.pop(item.game_id, None)
            else:
                self.due[item.game_id] = item.due[0]

    def header(self, game_id: str) -> Mapping[str, Any]:
        try:
            data: Mapping[str, Any] = json.loads(self.headers[game_id])
        except KeyError:
            raise UnknownGame(game_id) from None
        return data

    def events(self, game_id: str, after: int = -1) -> list[Event]:
        with self._lock:
            log = self.logs.get(game_id)
            if log is None:
                raise UnknownGame(game_id)
            rows = log[after + 1 :]
        return [event_from_json(json.loads(row)) for row in rows]

    def games(self) -> list[str]:
        with self._lock:
            return list(self.headers)

    def answers(self, game_id: str, after: int = -1) -> list[Answer]:
        with self._lock:
            stored = self.said.get(game_id, {}).values()
            return sorted((a for a in stored if a.seq > after), key=lambda a: a.seq)

    def heads(self, game_ids: Sequence[str]) -> dict[str, int]:
        with self._lock:
            return {g: len(self.logs[g]) - 1 for g in game_ids if g in self.logs}
