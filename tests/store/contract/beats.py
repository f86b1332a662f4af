"""The host's beats: the last one per game."""

from __future__ import annotations

from ghillie.store.base import EventStore

from .play import Contract, new_game


class BeatsContract(Contract):
    def test_the_hosts_last_beat_is_kept_per_game_and_a_later_one_replaces_it(
        self, store: EventStore
    ) -> None:
        new_game(store, "b1"), new_game(store, "b2")
        assert store.beats(["b1", "b2"]) == {}
        store.beat(["b1", "b2"], "2026-12-01T20:00:01.000+00:00")
        store.beat(["b1"], "2026-12-01T20:00:02.000+00:00")
        store.beat([], "2026-12-01T20:00:03.000+00:00")  # nothing timed: nothing written
        assert store.beats(["b1", "b2", "nope"]) == {
            "b1": "2026-12-01T20:00:02.000+00:00",
            "b2": "2026-12-01T20:00:01.000+00:00",
        }
