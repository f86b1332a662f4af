"""What every slice of the store contract plays with: a store to test, and a game in it."""

from __future__ import annotations

import pytest

from ghillie import Game
from ghillie.events import Event
from ghillie.store.base import EventStore, StoredRoll
from tests.scenarios import no_ambushers


class Contract:
    """A slice of the contract: subclass it with a ``store`` fixture."""

    @pytest.fixture
    def store(self) -> EventStore:
        raise NotImplementedError


def new_game(store: EventStore, game_id: str) -> Game:
    # No side may ambush: each gets ready at once, and the events here stay at the seqs named.
    return Game.create(no_ambushers(), store=store, seed=3, game_id=game_id)


def request(
    k: int, side: str, command_id: str, elements: dict[str, str] | None = None
) -> StoredRoll:
    """A roll request as the hub stores it (the request's fields are opaque to the store)."""
    return StoredRoll(
        k,
        side,
        command_id,
        {"type": "ready"},
        {"k": k, "side": side, "commitment": command_id * 2, "sig": "s", "payload": {"a": [1]}},
        elements or {},
    )


def next_event(game: Game) -> Event:
    """An event that could follow the game's last one (made without storing it)."""

    side = "jungle" if "jungle" not in game.state.board.ready else "orks"
    event, _ = game.trial(side, {"type": "ready"})
    return event
