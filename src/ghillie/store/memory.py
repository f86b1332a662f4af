"""The in-memory twin of the durable stores: same contract, nothing survives the process.

It keeps events as JSON text, as a database would, so a value that does not survive the
round trip fails here first.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from ghillie.events import Event, event_from_json, event_to_json
from ghillie.store.base import (
    Answer,
    Append,
    Conflict,
    Seat,
    StoredRoll,
    UnknownGame,
    roll_body,
    roll_from,
)


class MemoryStore:
    shared = False  # one process's memory

    def __init__(self) -> None:
        self._headers: dict[str, str] = {}
        self._events: dict[str, list[str]] = {}
        self._answers: dict[str, dict[tuple[str, str], Answer]] = {}
        self._tokens: dict[tuple[str, str], str] = {}
        # game -> k -> (body as JSON text, elements): at most one request per roll
        self._rolls: dict[str, dict[int, tuple[str, dict[str, str]]]] = {}
        self._seats: dict[str, dict[str, Seat]] = {}
        self._due: dict[str, str] = {}  # game -> when its open timed window ends
        self._beats: dict[str, str] = {}  # game -> the host's last sign of life (beat)
        self._offers: dict[tuple[str, str], str] = {}  # (game, observer) -> offered code hash
        self._lock = threading.Lock()

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
            if game_id in self._headers:
                raise Conflict(f"game {game_id} exists")
            self._headers[game_id] = json.dumps(header)
            self._events[game_id] = [json.dumps(event_to_json(first))] if first else []
            self._answers[game_id] = {}
            self._rolls[game_id] = {}
            self._seats[game_id] = {}
            for token_hash, observer in token_hashes.items():
                self._tokens[(game_id, token_hash)] = observer

    def header(self, game_id: str) -> Mapping[str, Any]:
        try:
            data: Mapping[str, Any] = json.loads(self._headers[game_id])
        except KeyError:
            raise UnknownGame(game_id) from None
        return data

    def append(self, game_id: str, expected_seq: int, events: Sequence[Event]) -> None:
        result = self.append_batch([Append(game_id, expected_seq, events)])[0]
        if result is not None:
            raise result

    def append_batch(self, batch: Sequence[Append]) -> list[Exception | None]:
        results: list[Exception | None] = []
        with self._lock:
            for item in batch:
                results.append(self._append_one(item))
        return results

    def _append_one(self, item: Append) -> Exception | None:
        log = self._events.get(item.game_id)
        if log is None:
            return UnknownGame(item.game_id)
        if len(log) - 1 != item.expected_seq:
            return Conflict(f"game {item.game_id} is at {len(log) - 1}, not {item.expected_seq}")
        for offset, event in enumerate(item.events, start=1):
            if event.seq != item.expected_seq + offset:
                raise ValueError("events must follow expected_seq without gaps")
        if item.seat is not None:
            side, holder = item.seat
            seat = self._seats.get(item.game_id, {}).get(side)
            if (seat.holder if seat else None) != holder:
                return Conflict(f"the seat of {side} in game {item.game_id} has changed")
        answers = self._answers[item.game_id]
        if item.answer is not None:
            key = (item.answer.observer, item.answer.command_id)
            if key in answers:
                return Conflict(f"command {item.answer.command_id} was already answered")
            answers[key] = item.answer
        log.extend(json.dumps(event_to_json(e)) for e in item.events)
        if item.due is not None:
            if item.due[0] is None:
                self._due.pop(item.game_id, None)
            else:
                self._due[item.game_id] = item.due[0]
        if item.resolves and item.events:
            self._rolls[item.game_id].pop(item.events[0].seq, None)
        return None

    def answers(self, game_id: str, after: int = -1) -> list[Answer]:
        with self._lock:
            stored = self._answers.get(game_id, {}).values()
            return sorted((a for a in stored if a.seq > after), key=lambda a: a.seq)

    def heads(self, game_ids: Sequence[str]) -> dict[str, int]:
        with self._lock:
            return {g: len(self._events[g]) - 1 for g in game_ids if g in self._events}

    def observer_for(self, game_id: str, token_hash: str) -> str | None:
        return self._tokens.get((game_id, token_hash))

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

    # --- roll requests waiting for the pages -------------------------------------------------

    def claim_roll(self, game_id: str, roll: StoredRoll) -> StoredRoll:
        with self._lock:
            log = self._events.get(game_id)
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
            if game_id not in self._events:
                raise UnknownGame(game_id)
            rolls = self._rolls[game_id]
            return self._roll(game_id, max(rolls)) if rolls else None

    def add_element(self, game_id: str, k: int, party: str, element: str) -> StoredRoll | None:
        with self._lock:
            if game_id not in self._events:
                raise UnknownGame(game_id)
            stored = self._rolls[game_id].get(k)
            if stored is None:
                return None
            stored[1].setdefault(party, element)
            return self._roll(game_id, k)

    def _roll(self, game_id: str, k: int) -> StoredRoll:
        body, elements = self._rolls[game_id][k]
        return roll_from(k, json.loads(body), elements)

    # --- seats --------------------------------------------------------------------------------

    def _seats_of(self, game_id: str) -> dict[str, Seat]:
        seats = self._seats.get(game_id)
        if seats is None:
            raise UnknownGame(game_id)
        return seats

    def seats(self, game_id: str) -> dict[str, Seat]:
        with self._lock:
            return dict(self._seats_of(game_id))

    def timed(self) -> list[str]:
        with self._lock:
            return sorted(set(self._due) | {g for g, rolls in self._rolls.items() if rolls})

    def beat(self, game_ids: Sequence[str], at: str) -> None:
        with self._lock:
            self._beats.update(dict.fromkeys(game_ids, at))

    def beats(self, game_ids: Sequence[str]) -> dict[str, str]:
        with self._lock:
            return {g: self._beats[g] for g in game_ids if g in self._beats}

    def take_seat(
        self, game_id: str, observer: str, holder: str, signing: tuple[str, int] | None = None
    ) -> Seat:
        with self._lock:
            seats = self._seats_of(game_id)
            key, start = signing or (None, None)
            fresh = Seat(observer, holder, _now(), None, None, key, start)
            seat = seats.setdefault(observer, fresh)
            if seat.holder == holder and seat.signing is None and key is not None:
                seat = replace(seat, signing=key, signing_from=start)
                seats[observer] = seat
            return seat

    def offer_move(self, game_id: str, observer: str, holder: str, offer: str) -> bool:
        with self._lock:
            seat = self._seats_of(game_id).get(observer)
            if seat is None or seat.holder != holder:
                return False
            self._offers[(game_id, observer)] = offer
            return True

    def move_seat(
        self,
        game_id: str,
        observer: str,
        offer: str,
        new: str,
        anchor: str | None,
        from_k: int,
        signing: tuple[str, int] | None = None,
    ) -> Seat | None:
        with self._lock:
            seats = self._seats_of(game_id)
            if observer not in seats or self._offers.get((game_id, observer)) != offer:
                return None
            del self._offers[(game_id, observer)]
            seat = Seat(
                observer,
                new,
                _now(),
                anchor,
                from_k if anchor else None,
                signing[0] if signing else None,
                signing[1] if signing else None,
            )
            seats[observer] = seat
            return seat

    def new_chain(
        self,
        game_id: str,
        observer: str,
        holder: str,
        anchor: str,
        from_k: int,
        signing: tuple[str, int] | None = None,
    ) -> Seat:
        with self._lock:
            seat = Seat(
                observer,
                holder,
                _now(),
                anchor,
                from_k,
                signing[0] if signing else None,
                signing[1] if signing else None,
            )
            self._seats_of(game_id)[observer] = seat
            self._offers.pop((game_id, observer), None)
            return seat


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
