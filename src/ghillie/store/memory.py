"""The in-memory twin of the durable stores: same contract, nothing survives the process.

It keeps events as JSON text, as a database would, so a value that does not survive the
round trip fails here first.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from ghillie.events import Event, event_from_json, event_to_json
from ghillie.store.base import Conflict, UnknownGame


class MemoryStore:
    def __init__(self) -> None:
        self._headers: dict[str, str] = {}
        self._events: dict[str, list[str]] = {}
        self._lock = threading.Lock()

    def create(self, game_id: str, header: Mapping[str, Any], first: Event) -> None:
        if first.seq != 0:
            raise ValueError("a game starts with event 0")
        with self._lock:
            if game_id in self._headers:
                raise Conflict(f"game {game_id} exists")
            self._headers[game_id] = json.dumps(header)
            self._events[game_id] = [json.dumps(event_to_json(first))]

    def header(self, game_id: str) -> Mapping[str, Any]:
        try:
            data: Mapping[str, Any] = json.loads(self._headers[game_id])
        except KeyError:
            raise UnknownGame(game_id) from None
        return data

    def append(self, game_id: str, expected_seq: int, events: Sequence[Event]) -> None:
        rows = [json.dumps(event_to_json(e)) for e in events]
        with self._lock:
            log = self._events.get(game_id)
            if log is None:
                raise UnknownGame(game_id)
            if len(log) - 1 != expected_seq:
                raise Conflict(f"game {game_id} is at {len(log) - 1}, not {expected_seq}")
            for offset, event in enumerate(events, start=1):
                if event.seq != expected_seq + offset:
                    raise ValueError("events must follow expected_seq without gaps")
            log.extend(rows)

    def events(self, game_id: str, after: int = -1) -> list[Event]:
        with self._lock:
            log = self._events.get(game_id)
            if log is None:
                raise UnknownGame(game_id)
            rows = log[after + 1 :]
        return [event_from_json(json.loads(row)) for row in rows]

    def games(self) -> list[str]:
        with self._lock:
            return list(self._headers)
