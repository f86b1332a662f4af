"""Seats: taken once by the first device, moved only with its holder's code, and checked
again in the write of every command that was checked against one."""

from __future__ import annotations

import threading

import pytest

from ghillie.store.base import Append, Conflict, EventStore, UnknownGame

from .play import Contract, new_game, next_event


class SeatsContract(Contract):
    def test_a_seat_is_taken_once_by_the_first_device(self, store: EventStore) -> None:
        new_game(store, "s1")
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
        game, other = new_game(store, "s9"), new_game(store, "s10")
        event, later = next_event(game), next_event(other)
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
        new_game(store, "s2")
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
        new_game(store, "s3")
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
        new_game(store, "s4")
        store.take_seat("s4", "jungle", "key-a")
        seat = store.new_chain("s4", "jungle", "key-c", "ab" * 32, 7)
        assert (seat.holder, seat.chain, seat.chain_from) == ("key-c", "ab" * 32, 7)
        assert store.seats("s4")["jungle"] == seat
        fresh = store.new_chain("s4", "orks", "key-d", "cd" * 32, 0)  # a seat never taken
        assert store.seats("s4")["orks"] == fresh
