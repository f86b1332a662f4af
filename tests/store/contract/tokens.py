"""Capability tokens: each grants one observer of one game."""

from __future__ import annotations

from ghillie import Game, examples
from ghillie.store.base import EventStore

from .play import Contract


class TokensContract(Contract):
    def test_tokens_grant_one_observer_of_one_game(self, store: EventStore) -> None:
        game = Game.create(examples.load("grid-ambush-table"), seed=3)
        store.create_game(
            "t1", {"ruleset": "grid-ambush"}, game.events()[0], {"h1": "jungle", "h2": "referee"}
        )
        store.create_game("t2", {"ruleset": "grid-ambush"}, game.events()[0], {"h3": "orks"})
        assert store.observer_for("t1", "h1") == "jungle"
        assert store.observer_for("t1", "h2") == "referee"
        assert store.observer_for("t2", "h1") is None  # a token of another game
        assert store.observer_for("t1", "nope") is None
        assert store.observer_for("nope", "h1") is None
