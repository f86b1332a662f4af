"""A store made of one part per table: the :class:`~ghillie.store.base.EventStore` methods
that read or write one table only, each answered by that table's part. The writes that span
tables (a game's creation, a batch of commands) are the store's own, in one transaction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ghillie.events import Event
from ghillie.store.base import Answer, Beats, GameLog, RollClaims, Seat, Seats, StoredRoll, Tokens


class ByTable:
    _log: GameLog
    _tokens: Tokens
    _rolls: RollClaims
    _seats: Seats
    _beats: Beats

    def header(self, game_id: str) -> Mapping[str, Any]:
        return self._log.header(game_id)

    def events(self, game_id: str, after: int = -1) -> list[Event]:
        return self._log.events(game_id, after)

    def games(self) -> list[str]:
        return self._log.games()

    def answers(self, game_id: str, after: int = -1) -> list[Answer]:
        return self._log.answers(game_id, after)

    def heads(self, game_ids: Sequence[str]) -> dict[str, int]:
        return self._log.heads(game_ids)

    def observer_for(self, game_id: str, token_hash: str) -> str | None:
        return self._tokens.observer_for(game_id, token_hash)

    def claim_roll(self, game_id: str, roll: StoredRoll) -> StoredRoll:
        return self._rolls.claim_roll(game_id, roll)

    def pending_roll(self, game_id: str) -> StoredRoll | None:
        return self._rolls.pending_roll(game_id)

    def add_element(self, game_id: str, k: int, party: str, element: str) -> StoredRoll | None:
        return self._rolls.add_element(game_id, k, party, element)

    def seats(self, game_id: str) -> dict[str, Seat]:
        return self._seats.seats(game_id)

    def take_seat(
        self, game_id: str, observer: str, holder: str, signing: tuple[str, int] | None = None
    ) -> Seat:
        return self._seats.take_seat(game_id, observer, holder, signing)

    def offer_move(self, game_id: str, observer: str, holder: str, offer: str) -> bool:
        return self._seats.offer_move(game_id, observer, holder, offer)

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
        return self._seats.move_seat(game_id, observer, offer, new, anchor, from_k, signing)

    def new_chain(
        self,
        game_id: str,
        observer: str,
        holder: str,
        anchor: str,
        from_k: int,
        signing: tuple[str, int] | None = None,
    ) -> Seat:
        return self._seats.new_chain(game_id, observer, holder, anchor, from_k, signing)

    def beat(self, game_ids: Sequence[str], at: str) -> None:
        self._beats.beat(game_ids, at)

    def beats(self, game_ids: Sequence[str]) -> dict[str, str]:
        return self._beats.beats(game_ids)
