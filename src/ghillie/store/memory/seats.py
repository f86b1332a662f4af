"""Who holds each side's seat, in memory, and the move codes on offer."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, datetime

from ghillie.store.base import Append, Conflict, Seat, UnknownGame


class MemorySeats:
    def __init__(self, lock: threading.Lock) -> None:
        self._lock = lock
        self._seats: dict[str, dict[str, Seat]] = {}
        self._offers: dict[tuple[str, str], str] = {}  # (game, observer) -> offered code hash

    def add(self, game_id: str) -> None:
        """A new game, no seat taken (the caller holds the lock)."""
        self._seats[game_id] = {}

    def changed(self, item: Append) -> Exception | None:
        """A Conflict if the seat ``item`` was checked against no longer stands so (the
        caller holds the lock)."""
        if item.seat is not None:
            side, holder = item.seat
            seat = self._seats.get(item.game_id, {}).get(side)
            if (seat.holder if seat else None) != holder:
                return Conflict(f"the seat of {side} in game {item.game_id} has changed")
        return None

    def _seats_of(self, game_id: str) -> dict[str, Seat]:
        seats = self._seats.get(game_id)
        if seats is None:
            raise UnknownGame(game_id)
        return seats

    def seats(self, game_id: str) -> dict[str, Seat]:
        with self._lock:
            return dict(self._seats_of(game_id))

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
