"""Roll requests waiting for the pages: one per roll, for ever, cleared by the write of the
event that resolves it."""

from __future__ import annotations

import threading

import pytest

from ghillie.store.base import Answer, Append, Conflict, EventStore, StoredRoll, UnknownGame

from .play import Contract, new_game, next_event, request


class RollsContract(Contract):
    def test_a_roll_request_is_stored_once_per_roll(self, store: EventStore) -> None:
        new_game(store, "r1")
        assert store.pending_roll("r1") is None
        first = request(1, "jungle", "c1", {"jungle": "aa"})
        assert store.claim_roll("r1", first) == first
        # Another request for the same roll (a restart, another process) gets the first.
        assert store.claim_roll("r1", request(1, "orks", "c2")) == first
        assert store.pending_roll("r1") == first
        with pytest.raises(UnknownGame):
            store.claim_roll("nope", first)
        with pytest.raises(UnknownGame):
            store.pending_roll("nope")

    def test_a_request_for_a_roll_the_log_already_has_conflicts(self, store: EventStore) -> None:
        game = new_game(store, "r2")
        with pytest.raises(Conflict):
            store.claim_roll("r2", request(0, "jungle", "c1"))
        game.command("jungle", {"type": "ready"})
        with pytest.raises(Conflict):
            store.claim_roll("r2", request(1, "jungle", "c1"))
        assert store.pending_roll("r2") is None

    def test_the_pages_elements_are_kept_with_the_request(self, store: EventStore) -> None:
        new_game(store, "r3")
        assert store.add_element("r3", 1, "jungle", "aa") is None  # nothing asked for
        store.claim_roll("r3", request(1, "jungle", "c1"))
        assert store.add_element("r3", 1, "jungle", "aa") == request(
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
        game = new_game(store, "r4")
        store.claim_roll("r4", request(1, "jungle", "c1", {"jungle": "aa"}))
        event = next_event(game)
        # A write that clashes leaves the request as it was.
        store.append("r4", 0, [event])
        clash = store.append_batch([Append("r4", 0, [event], resolves=True)])
        assert isinstance(clash[0], Conflict)
        assert store.pending_roll("r4") is not None
        # (Start again on a game whose event 1 is still to come.)
        other = new_game(store, "r5")
        store.claim_roll("r5", request(1, "jungle", "c1"))
        result = store.append_batch(
            [Append("r5", 0, [next_event(other)], Answer("jungle", "c1", 1, {}), resolves=True)]
        )
        assert result == [None]
        assert store.pending_roll("r5") is None
        assert store.add_element("r5", 1, "orks", "cc") is None
        with pytest.raises(Conflict):  # resolved: that roll can never be asked for again
            store.claim_roll("r5", request(1, "orks", "c2"))

    def test_concurrent_claims_agree_on_one_request(self, store: EventStore) -> None:
        new_game(store, "r6")
        got: list[StoredRoll] = []

        def claim(n: int) -> None:
            got.append(store.claim_roll("r6", request(1, "jungle", f"c{n}")))

        threads = [threading.Thread(target=claim, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(got) == 8
        assert len({roll.command_id for roll in got}) == 1
        assert store.pending_roll("r6") == got[0]

    def test_concurrent_elements_are_all_kept(self, store: EventStore) -> None:
        new_game(store, "r7")
        store.claim_roll("r7", request(1, "jungle", "c1"))
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
            game = new_game(store, game_id)
            store.claim_roll(game_id, request(1, "jungle", "first"))
            event = next_event(game)
            claimed: list[object] = []

            def claim(n: int, game_id: str = game_id, claimed: list[object] = claimed) -> None:
                try:
                    claimed.append(store.claim_roll(game_id, request(1, "orks", f"late{n}")))
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
