"""The games and their logs: events in order, one writer per seq, and the answers of the
commands that made them (group commit, idempotent retries)."""

from __future__ import annotations

import threading

import pytest

from ghillie.events import Event
from ghillie.store.base import Answer, Append, Conflict, EventStore, UnknownGame

from .play import Contract, new_game, next_event


class LogContract(Contract):
    def test_a_created_game_has_its_header_and_first_event(self, store: EventStore) -> None:
        game = new_game(store, "g1")
        assert store.header("g1")["ruleset"] == "grid-ambush"
        assert store.events("g1") == game.events()
        assert [e.seq for e in store.events("g1")] == [0]
        assert "g1" in store.games()

    def test_events_come_back_in_order_and_after_a_seq(self, store: EventStore) -> None:
        game = new_game(store, "g2")
        game.command("jungle", {"type": "ready"})
        game.command("orks", {"type": "ready"})
        assert [e.seq for e in store.events("g2")] == [0, 1, 2]
        assert [e.seq for e in store.events("g2", after=1)] == [2]
        assert store.events("g2", after=2) == []

    def test_a_second_writer_at_the_same_seq_conflicts(self, store: EventStore) -> None:
        game = new_game(store, "g3")
        event = next_event(game)
        store.append("g3", 0, [event])
        with pytest.raises(Conflict):
            store.append("g3", 0, [event])
        assert [e.seq for e in store.events("g3")] == [0, 1]

    def test_creating_a_game_twice_conflicts(self, store: EventStore) -> None:
        new_game(store, "g4")
        with pytest.raises(Conflict):
            new_game(store, "g4")

    def test_an_unknown_game_is_named_as_such(self, store: EventStore) -> None:
        with pytest.raises(UnknownGame):
            store.header("nope")
        with pytest.raises(UnknownGame):
            store.events("nope")
        with pytest.raises(UnknownGame):
            store.append("nope", 0, [])

    def test_concurrent_writers_never_interleave(self, store: EventStore) -> None:
        game = new_game(store, "g5")
        event = next_event(game)
        outcomes: list[str] = []

        def write() -> None:
            try:
                store.append("g5", 0, [event])
            except Conflict:
                outcomes.append("conflict")
            else:
                outcomes.append("appended")

        threads = [threading.Thread(target=write) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes) == ["appended"] + ["conflict"] * 7
        assert [e.seq for e in store.events("g5")] == [0, 1]

    def test_a_batch_commits_every_command_that_does_not_clash(self, store: EventStore) -> None:
        a, b = new_game(store, "b1"), new_game(store, "b2")
        ea, eb = next_event(a), next_event(b)
        results = store.append_batch(
            [
                Append("b1", 0, [ea], Answer("jungle", "c1", 1, {"seq": 1})),
                Append("b2", 0, [eb], Answer("jungle", "c1", 1, {"seq": 1})),
                Append("b1", 0, [ea], Answer("jungle", "c2", 1, {"seq": 1})),  # clashes
                Append("nope", 0, [ea]),
            ]
        )
        assert results[:2] == [None, None]
        assert isinstance(results[2], Conflict)
        assert isinstance(results[3], UnknownGame)
        assert [e.seq for e in store.events("b1")] == [0, 1]
        assert [e.seq for e in store.events("b2")] == [0, 1]
        # The clashing command left nothing behind, not even its answer.
        assert [a.command_id for a in store.answers("b1")] == ["c1"]

    def test_a_command_id_is_answered_once_per_side(self, store: EventStore) -> None:
        game = new_game(store, "b3")
        first = next_event(game)
        store.append_batch([Append("b3", 0, [first], Answer("jungle", "same", 1, {"seq": 1}))])
        again = Event(2, "jungle", None, (), (), {})
        results = store.append_batch([Append("b3", 1, [again], Answer("jungle", "same", 2, {}))])
        assert isinstance(results[0], Conflict)
        assert [e.seq for e in store.events("b3")] == [0, 1]
        # Another side may use the same id for its own command.
        results = store.append_batch(
            [Append("b3", 1, [again], Answer("orks", "same", 2, {"x": 1}))]
        )
        assert results == [None]
        stored = {(a.observer, a.command_id): a for a in store.answers("b3")}
        assert stored[("jungle", "same")].body == {"seq": 1}
        assert stored[("orks", "same")].seq == 2
        assert [a.seq for a in store.answers("b3", after=1)] == [2]

    def test_the_heads_of_several_games_in_one_read(self, store: EventStore) -> None:
        a, b = new_game(store, "h1"), new_game(store, "h2")
        a.command("jungle", {"type": "ready"})
        assert store.heads(["h1", "h2", "nope"]) == {"h1": 1, "h2": 0}
        assert store.heads([]) == {}
        assert b.state.seq == 0
