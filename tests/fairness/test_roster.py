"""Rosters: a side's secret facts sit in a fixed-size Merkle tree, one published root per
side per event. An opening checks against the root it names and against nothing else, so the
host cannot reveal a fact it did not commit to, nor move one to another turn or side."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghillie.fairness.roster import DEPTH, SLOTS, Roster, Written, check_opening

GAME = "g1"
DUMMY = bytes.fromhex("dd" * 32)
PIECE = "a1b2c3d4e5f60718293a4b5c6d7e8f90"


@pytest.fixture
def written() -> tuple[Roster, dict[str, Any], str]:
    """A roster with one fact written at event 4, its opening and the root of event 4."""
    roster = Roster(GAME, "blue", DUMMY)
    roster.write(Written(PIECE, "square", 613, "5a" * 32, 4), "D7")
    return roster, roster.opening(PIECE, "square", 4), roster.root(4)


def test_an_opening_checks_against_the_root_of_its_event(
    written: tuple[Roster, dict[str, Any], str],
) -> None:
    _, opening, root = written
    assert opening["value"] == "D7"
    assert len(opening["path"]) == DEPTH
    assert check_opening(GAME, opening, root)


def flip_hex(h: str) -> str:
    return f"{int(h[0], 16) ^ 1:x}{h[1:]}"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("value", "D8"),  # the host cannot reveal a different square
        ("value", None),
        ("piece", "b" * 32),  # ... or claim the fact belongs to another piece
        ("key", "decoy"),
        ("seq", 3),  # ... or to another event's write
        ("salt", flip_hex("5a" * 32)),
        ("slot", 612),  # a sibling slot: same path length, wrong position
        ("slot", 613 + SLOTS // 2),
        ("side", "red"),
        ("root_seq", 3),  # roots are bound to their event: the opening names the wrong one
        ("root_seq", 5),
    ],
)
def test_an_altered_opening_fails(
    written: tuple[Roster, dict[str, Any], str], field: str, value: Any
) -> None:
    _, opening, root = written
    assert opening[field] != value
    assert not check_opening(GAME, {**opening, field: value}, root)


@pytest.mark.parametrize("level", range(DEPTH))
def test_an_altered_path_fails(written: tuple[Roster, dict[str, Any], str], level: int) -> None:
    _, opening, root = written
    path = list(opening["path"])
    path[level] = flip_hex(path[level])
    assert not check_opening(GAME, {**opening, "path": path}, root)


def test_a_malformed_opening_is_refused_not_crashed_on(
    written: tuple[Roster, dict[str, Any], str],
) -> None:
    # A client checks what the host sends it; a bad message must read as "does not check".
    _, opening, root = written
    assert not check_opening("g2", opening, root)
    assert not check_opening(GAME, opening, flip_hex(root))
    for bad in (
        {k: v for k, v in opening.items() if k != "salt"},
        {**opening, "salt": "not hex"},
        {**opening, "salt": "5a" * 31},  # a commitment salt is 32 bytes
        {**opening, "slot": -1},
        {**opening, "slot": SLOTS},
        {**opening, "path": opening["path"][:-1]},
        {**opening, "path": [*opening["path"], opening["path"][0]]},
        {**opening, "path": None},
        {**opening, "value": float("nan")},  # not JSON, so cannot have been committed
        # Numbers no u64 holds: an audit of a record carrying such an extra opening used to
        # stop with an OverflowError instead of naming the bad opening.
        {**opening, "seq": -1},
        {**opening, "root_seq": -1},
        {**opening, "root_seq": 2**64},
    ):
        assert not check_opening(GAME, bad, root)


def test_writing_a_fact_changes_the_root() -> None:
    roster = Roster(GAME, "blue", DUMMY)
    empty = roster.root(4)
    roster.write(Written(PIECE, "square", 0, "5a" * 32, 4), "D7")
    assert roster.root(4) != empty


def test_rewriting_a_fact_in_its_slot_moves_the_root_and_old_openings_stay_valid() -> None:
    # The host opens against the root published the event before (ledger.seal): an opening
    # made then must keep checking against that root after the fact is rewritten.
    roster = Roster(GAME, "blue", DUMMY)
    roster.write(Written(PIECE, "square", 9, "01" * 32, 1), "D7")
    old_root, old_opening = roster.root(1), roster.opening(PIECE, "square", 1)
    roster.write(Written(PIECE, "square", 9, "02" * 32, 2), "E7")
    new_root, new_opening = roster.root(2), roster.opening(PIECE, "square", 2)
    assert check_opening(GAME, old_opening, old_root)
    assert check_opening(GAME, new_opening, new_root)
    assert not check_opening(GAME, old_opening, new_root)
    assert not check_opening(GAME, {**old_opening, "root_seq": 2}, new_root)


def test_roots_differ_by_event_even_when_nothing_changed() -> None:
    # One root per side per event whether or not anything was written, so a root never
    # says "nothing changed" — or that something did.
    roster = Roster(GAME, "blue", DUMMY)
    assert len({roster.root(seq) for seq in range(10)}) == 10


def test_empty_rosters_do_not_show_whose_they_are_or_how_many_facts_they_hold() -> None:
    # The dummies come from the host's key: without it two empty rosters of two games or
    # sides, and a roster with one fact, are all just unrelated hashes.
    roots = {
        Roster(GAME, "blue", DUMMY).root(0),
        Roster(GAME, "red", DUMMY).root(0),
        Roster("g2", "blue", DUMMY).root(0),
        Roster(GAME, "blue", bytes(32)).root(0),
    }
    assert len(roots) == 4


def test_free_slots_are_never_reused_and_a_full_roster_refuses_another_fact() -> None:
    roster = Roster(GAME, "blue", DUMMY)
    used = set()
    for i in range(SLOTS):
        slot = roster.free_slot(i * 7919)  # the host's random choice
        assert slot not in used
        used.add(slot)
        roster.write(Written(PIECE, f"k{i}", slot, "00" * 32, 0), i)
    assert used == set(range(SLOTS))
    with pytest.raises(RuntimeError, match="more secret facts"):
        roster.free_slot(0)


writes = st.lists(
    st.tuples(
        st.text(max_size=8),  # key
        st.integers(0, SLOTS - 1),  # slot
        st.binary(min_size=32, max_size=32),  # salt
        st.integers(0, 1000),  # seq
        st.none() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(max_size=8),  # value
    ),
    min_size=1,
    max_size=8,
    unique_by=(lambda w: w[0], lambda w: w[1]),
)


@settings(max_examples=50, deadline=None)
@given(writes=writes, root_seq=st.integers(0, 1000))
def test_every_written_fact_opens_against_the_root_and_only_that_root(
    writes: list[tuple[str, int, bytes, int, Any]], root_seq: int
) -> None:
    roster = Roster(GAME, "blue", DUMMY)
    roots = [roster.root(root_seq)]
    for key, slot, salt, seq, value in writes:
        roster.write(Written(PIECE, key, slot, salt.hex(), seq), value)
        roots.append(roster.root(root_seq))
    assert len(set(roots)) == len(roots)  # every write moved the root
    for key, *_ in writes:
        opening = roster.opening(PIECE, key, root_seq)
        assert check_opening(GAME, opening, roots[-1])
        assert not check_opening(GAME, opening, roots[-2])
        assert not check_opening(GAME, opening, roster.root(root_seq + 1))
