"""The storage contract, one suite for every backend: subclass it with a ``store`` fixture."""

from __future__ import annotations

import threading

import pytest

from ghillie import Game, examples
from ghillie.events import Event
from ghillie.store.base import Answer, Append, Conflict, EventStore, StoredRoll, UnknownGame
from tests.scenarios import no_ambushers


def _game(store: EventStore, game_id: str) -> Game:
    # No side may ambush: each gets ready at once, and the events here stay at the seqs named.
    return Game.create(no_ambushers(), store=store, seed=3, game_id=game_id)


def _roll(k: int, side: str, command_id: str, elements: dict[str, str] | None = None) -> StoredRoll:
    """A roll request as the hub stores it (the request's fields are opaque to the store)."""
    return StoredRoll(
        k,
        side,
        command_id,
        {"type": "ready"},
        {"k": k, "side": side, "commitment": command_id * 2, "sig": "s", "payload": {"a": [1]}},
        elements or {},
    )


def _next(game: Game) -> Event:
    """An event that could follow the game's last one (made without storing it)."""

    side = "jungle" if "jungle" not in game.state.board.ready else "orks"
    event, _ = game.trial(side, {"type": "ready"})
    return event


class StoreContract:
    @pytest.fixture
    def store(self) -> EventStore:
        raise NotImplementedError

    def test_a_created_game_has_its_header_and_first_event(self, store: EventStore) -> None:
        game = _game(store, "g1")
        assert store.header("g1")["ruleset"] == "grid-ambush"
        assert store.events("g1") == game.events()
        assert [e.seq for e in store.events("g1")] == [0]
        assert "g1" in store.games()

    def test_events_come_back_in_order_and_after_a_seq(self, store: EventStore) -> None:
        game = _game(store, "g2")
        game.command("jungle", {"type": "ready"})
        game.command("orks", {"type": "ready"})
        assert [e.seq for e in store.events("g2")] == [0, 1, 2]
        assert [e.seq for e in store.events("g2", after=1)] == [2]
        assert store.events("g2", after=2) == []

    def test_a_second_writer_at_the_same_seq_conflicts(self, store: EventStore) -> None:
        game = _game(store, "g3")
        event = _next(game)
        store.append("g3", 0, [event])
        with pytest.raises(Conflict):
            store.append("g3", 0, [event])
        assert [e.seq for e in store.events("g3")] == [0, 1]

    def test_creating_a_game_twice_conflicts(self, store: EventStore) -> None:
        _game(store, "g4")
        with pytest.raises(Conflict):
            _game(store, "g4")

    def test_an_unknown_game_is_named_as_such(self, store: EventStore) -> None:
        with pytest.raises(UnknownGame):
            store.header("nope")
        with pytest.raises(UnknownGame):
            store.events("nope")
        with pytest.raises(UnknownGame):
            store.append("nope", 0, [])

    def test_concurrent_writers_never_interleave(self, store: EventStore) -> None:
        game = _game(store, "g5")
        event = _next(game)
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


class ServerStoreContract(StoreContract):
    """What the server needs besides: group commit, answers for idempotent retries, tokens."""

    def test_a_batch_commits_every_command_that_does_not_clash(self, store: EventStore) -> None:
        a, b = _game(store, "b1"), _game(store, "b2")
        ea, eb = _next(a), _next(b)
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
        game = _game(store, "b3")
        first = _next(game)
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

    def test_the_heads_of_several_games_in_one_read(self, store: EventStore) -> None:
        a, b = _game(store, "h1"), _game(store, "h2")
        a.command("jungle", {"type": "ready"})
        assert store.heads(["h1", "h2", "nope"]) == {"h1": 1, "h2": 0}
        assert store.heads([]) == {}
        assert b.state.seq == 0

    def test_the_hosts_last_beat_is_kept_per_game_and_a_later_one_replaces_it(
        self, store: EventStore
    ) -> None:
        _game(store, "b1"), _game(store, "b2")
        assert store.beats(["b1", "b2"]) == {}
        store.beat(["b1", "b2"], "2026-12-01T20:00:01.000+00:00")
        store.beat(["b1"], "2026-12-01T20:00:02.000+00:00")
        store.beat([], "2026-12-01T20:00:03.000+00:00")  # nothing timed: nothing written
        assert store.beats(["b1", "b2", "nope"]) == {
            "b1": "2026-12-01T20:00:02.000+00:00",
            "b2": "2026-12-01T20:00:01.000+00:00",
        }

    # --- seats ----------------------------------------------------------------------------------

    def test_a_seat_is_taken_once_by_the_first_device(self, store: EventStore) -> None:
        _game(store, "s1")
        assert store.seats("s1") == {}
        first = store.take_seat("s1", "jungle", "key-a")
        assert (first.observer, first.holder, first.chain) == ("jungle", "key-a", None)
        assert store.take_seat("s1", "jungle", "key-a") == first  # a retry is the same
        assert store.take_seat("s1", "jungle", "key-b").holder == "key-a"  # taken already
        assert store.seats("s1") == {"jungle": first}
        with pytest.raises(UnknownGame):
            store.take_seat("nope", "jungle", "key-a")

    def test_a_command_checked_against_a_seat_that_has_changed_is_not_written(
        self, store: EventStore
    ) -> None:
        # Another process seated a device after this one checked the seat: the write finds
        # out in its own transaction, and the others in the batch still commit.
        game, other = _game(store, "s9"), _game(store, "s10")
        event, later = _next(game), _next(other)
        store.take_seat("s9", "jungle", "key-b")
        results = store.append_batch(
            [
                Append("s9", 0, [event], seat=("jungle", None)),  # checked as free
                Append("s10", 0, [later], seat=("jungle", None)),
            ]
        )
        assert isinstance(results[0], Conflict)
        assert results[1] is None
        assert [e.seq for e in store.events("s9")] == [0]
        assert store.append_batch([Append("s9", 0, [event], seat=("jungle", "key-b"))]) == [None]
        assert [e.seq for e in store.events("s9")] == [0, 1]

    def test_concurrent_takes_give_the_seat_to_one_device(self, store: EventStore) -> None:
        _game(store, "s2")
        holders: list[str] = []

        def take(key: str) -> None:
            holders.append(store.take_seat("s2", "orks", key).holder)

        threads = [threading.Thread(target=take, args=(f"key-{i}",)) for i in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(holders) == 6
        assert len(set(holders)) == 1

    def test_a_seat_moves_only_with_the_code_its_holder_offered(self, store: EventStore) -> None:
        _game(store, "s3")
        assert not store.offer_move("s3", "jungle", "key-a", "code-1")  # never taken
        store.take_seat("s3", "jungle", "key-a")
        assert not store.offer_move("s3", "jungle", "key-x", "code-1")  # not its holder
        assert store.move_seat("s3", "jungle", "code-1", "key-b", None, 0) is None
        assert store.offer_move("s3", "jungle", "key-a", "code-1")
        assert store.move_seat("s3", "jungle", "code-2", "key-b", None, 0) is None
        moved = store.move_seat("s3", "jungle", "code-1", "key-b", "ab" * 32, 5)
        assert moved is not None
        assert (moved.holder, moved.chain, moved.chain_from) == ("key-b", "ab" * 32, 5)
        assert store.seats("s3")["jungle"] == moved
        # The code is used up.
        assert store.move_seat("s3", "jungle", "code-1", "key-c", None, 0) is None

    def test_a_new_chain_takes_the_seat_and_says_from_which_roll(self, store: EventStore) -> None:
        _game(store, "s4")
        store.take_seat("s4", "jungle", "key-a")
        seat = store.new_chain("s4", "jungle", "key-c", "ab" * 32, 7)
        assert (seat.holder, seat.chain, seat.chain_from) == ("key-c", "ab" * 32, 7)
        assert store.seats("s4")["jungle"] == seat
        fresh = store.new_chain("s4", "orks", "key-d", "cd" * 32, 0)  # a seat never taken
        assert store.seats("s4")["orks"] == fresh

    # --- roll requests waiting for the pages -------------------------------------------------

    def test_a_roll_request_is_stored_once_per_roll(self, store: EventStore) -> None:
        _game(store, "r1")
        assert store.pending_roll("r1") is None
        first = _roll(1, "jungle", "c1", {"jungle": "aa"})
        assert store.claim_roll("r1", first) == first
        # Another request for the same roll (a restart, another process) gets the first.
        assert store.claim_roll("r1", _roll(1, "orks", "c2")) == first
        assert store.pending_roll("r1") == first
        with pytest.raises(UnknownGame):
            store.claim_roll("nope", first)
        with pytest.raises(UnknownGame):
            store.pending_roll("nope")

    def test_a_request_for_a_roll_the_log_already_has_conflicts(self, store: EventStore) -> None:
        game = _game(store, "r2")
        with pytest.raises(Conflict):
            store.claim_roll("r2", _roll(0, "jungle", "c1"))
        game.command("jungle", {"type": "ready"})
        with pytest.raises(Conflict):
            store.claim_roll("r2", _roll(1, "jungle", "c1"))
        assert store.pending_roll("r2") is None

    def test_the_pages_elements_are_kept_with_the_request(self, store: EventStore) -> None:
        _game(store, "r3")
        assert store.add_element("r3", 1, "jungle", "aa") is None  # nothing asked for
        store.claim_roll("r3", _roll(1, "jungle", "c1"))
        assert store.add_element("r3", 1, "jungle", "aa") == _roll(
            1, "jungle", "c1", {"jungle": "aa"}
        )
        # A party's first element stays: the caller sees it and refuses the other.
        kept = store.add_element("r3", 1, "jungle", "bb")
        assert kept is not None
        assert kept.elements == {"jungle": "aa"}
        both = store.add_element("r3", 1, "orks", "cc")
        assert both is not None
        assert both.elements == {"jungle": "aa", "orks": "cc"}
        assert store.pending_roll("r3") == both
        assert store.add_element("r3", 2, "orks", "cc") is None

    def test_the_event_that_resolves_a_request_clears_it_in_its_write(
        self, store: EventStore
    ) -> None:
        game = _game(store, "r4")
        store.claim_roll("r4", _roll(1, "jungle", "c1", {"jungle": "aa"}))
        event = _next(game)
        # A write that clashes leaves the request as it was.
        store.append("r4", 0, [event])
        clash = store.append_batch([Append("r4", 0, [event], resolves=True)])
        assert isinstance(clash[0], Conflict)
        assert store.pending_roll("r4") is not None
        # (Start again on a game whose event 1 is still to come.)
        other = _game(store, "r5")
        store.claim_roll("r5", _roll(1, "jungle", "c1"))
        result = store.append_batch(
            [Append("r5", 0, [_next(other)], Answer("jungle", "c1", 1, {}), resolves=True)]
        )
        assert result == [None]
        assert store.pending_roll("r5") is None
        assert store.add_element("r5", 1, "orks", "cc") is None
        with pytest.raises(Conflict):  # resolved: that roll can never be asked for again
            store.claim_roll("r5", _roll(1, "orks", "c2"))

    def test_concurrent_claims_agree_on_one_request(self, store: EventStore) -> None:
        _game(store, "r6")
        got: list[StoredRoll] = []

        def claim(n: int) -> None:
            got.append(store.claim_roll("r6", _roll(1, "jungle", f"c{n}")))

        threads = [threading.Thread(target=claim, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(got) == 8
        assert len({roll.command_id for roll in got}) == 1
        assert store.pending_roll("r6") == got[0]

    def test_concurrent_elements_are_all_kept(self, store: EventStore) -> None:
        _game(store, "r7")
        store.claim_roll("r7", _roll(1, "jungle", "c1"))
        parties = [f"p{n}" for n in range(8)]
        threads = [
            threading.Thread(target=store.add_element, args=("r7", 1, party, party * 2))
            for party in parties
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        stored = store.pending_roll("r7")
        assert stored is not None
        assert stored.elements == {party: party * 2 for party in parties}

    def test_a_claim_racing_the_event_that_resolves_the_roll_never_asks_again(
        self, store: EventStore
    ) -> None:
        """A process that is behind claims roll 1 while another commits event 1: it gets
        the first request (still open when it looked) or a conflict, never its own."""
        for n in range(10):
            game_id = f"race{n}"
            game = _game(store, game_id)
            store.claim_roll(game_id, _roll(1, "jungle", "first"))
            event = _next(game)
            claimed: list[object] = []

            def claim(n: int, game_id: str = game_id, claimed: list[object] = claimed) -> None:
                try:
                    claimed.append(store.claim_roll(game_id, _roll(1, "orks", f"late{n}")))
                except Conflict:
                    claimed.append("conflict")

            threads = [threading.Thread(target=claim, args=(i,)) for i in range(4)]
            writer = threading.Thread(
                target=store.append_batch, args=([Append(game_id, 0, [event], resolves=True)],)
            )
            for thread in [*threads[:2], writer, *threads[2:]]:
                thread.start()
            for thread in [*threads, writer]:
                thread.join()
            assert store.pending_roll(game_id) is None
            for outcome in claimed:
                assert outcome == "conflict" or (
                    isinstance(outcome, StoredRoll) and outcome.command_id == "first"
                )
