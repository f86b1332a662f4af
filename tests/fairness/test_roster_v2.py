"""Rosters v2 (protocol versions 2 and 3, which the audit still checks): a side's secret
facts sit in a fixed number of slots, blinded afresh for every event, one published root per
side per event. An opening checks against the root it names and against nothing else, so the
host cannot reveal a fact it did not commit to, nor move one to another turn or side; and
nothing in roots or openings tells whether, when or where any other secret changed."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghillie.fairness.roster import FixedRewrite, RosterFull, Written, fact_digest
from ghillie.fairness.roster_v2 import Roster, check_opening, leaf

GAME = "g1"
DUMMY = bytes.fromhex("dd" * 32)
PIECE = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
SIZE = 32


def roster(side: str = "blue", game: str = GAME, key: bytes = DUMMY) -> Roster:
    return Roster(game, side, key, SIZE)


@pytest.fixture
def written() -> tuple[Roster, dict[str, Any], str]:
    """A roster with one fact written, its opening against event 4 and event 4's root."""
    kept = roster()
    kept.write(Written(PIECE, "square", 13, "5a" * 32, 0), "D7")
    return kept, kept.opening(PIECE, "square", 4), kept.root(4)


def test_an_opening_checks_against_the_root_of_its_event(
    written: tuple[Roster, dict[str, Any], str],
) -> None:
    _, opening, root = written
    assert opening["value"] == "D7"
    assert len(opening["leaves"]) == SIZE
    assert check_opening(GAME, opening, root, SIZE)


def flip_hex(h: str) -> str:
    return f"{int(h[0], 16) ^ 1:x}{h[1:]}"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("value", "D8"),  # the host cannot reveal a different square
        ("value", None),
        ("piece", "b" * 32),  # ... or claim the fact belongs to another piece
        ("key", "decoy"),
        ("salt", flip_hex("5a" * 32)),
        ("blind", flip_hex("00" * 32)),
        ("side", "red"),
        ("root_seq", 3),  # roots are bound to their event: the opening names the wrong one
        ("root_seq", 5),
    ],
)
def test_an_altered_opening_fails(
    written: tuple[Roster, dict[str, Any], str], field: str, value: Any
) -> None:
    _, opening, root = written
    if field == "blind":
        value = flip_hex(opening["blind"])
    assert opening[field] != value
    assert not check_opening(GAME, {**opening, field: value}, root, SIZE)


@pytest.mark.parametrize("at", [0, 1, SIZE // 2, SIZE - 1])
def test_an_altered_leaf_fails(written: tuple[Roster, dict[str, Any], str], at: int) -> None:
    _, opening, root = written
    leaves = list(opening["leaves"])
    leaves[at] = flip_hex(leaves[at])
    assert not check_opening(GAME, {**opening, "leaves": sorted(leaves)}, root, SIZE)


def test_leaves_out_of_order_or_repeated_fail(
    written: tuple[Roster, dict[str, Any], str],
) -> None:
    # One list of leaves for one root: shuffled or with a repeat, it is not the one.
    _, opening, root = written
    leaves = opening["leaves"]
    assert not check_opening(GAME, {**opening, "leaves": leaves[::-1]}, root, SIZE)
    repeated = sorted([*leaves[:-1], leaves[0]])
    assert not check_opening(GAME, {**opening, "leaves": repeated}, root, SIZE)


def test_a_malformed_opening_is_refused_not_crashed_on(
    written: tuple[Roster, dict[str, Any], str],
) -> None:
    # A client checks what the host sends it; a bad message must read as "does not check".
    _, opening, root = written
    assert not check_opening("g2", opening, root, SIZE)
    assert not check_opening(GAME, opening, flip_hex(root), SIZE)
    assert not check_opening(GAME, opening, root, SIZE + 1)  # the game's size is fixed
    for bad in (
        {k: v for k, v in opening.items() if k != "salt"},
        {**opening, "slot": 3},  # no field beyond the opening's own
        {**opening, "salt": "not hex"},
        {**opening, "salt": "5a" * 31},  # a commitment salt is 32 bytes
        {**opening, "blind": "5a" * 31},
        {**opening, "leaves": opening["leaves"][:-1]},
        {**opening, "leaves": [*opening["leaves"], "ff" * 32]},
        {**opening, "leaves": None},
        {**opening, "leaves": [x[:-2] for x in opening["leaves"]]},
        {**opening, "value": float("nan")},  # not JSON, so cannot have been committed
        # Numbers no u64 holds: an audit of a record carrying such an extra opening used to
        # stop with an OverflowError instead of naming the bad opening.
        {**opening, "root_seq": -1},
        {**opening, "root_seq": 2**64},
        {**opening, "root_seq": "4"},
    ):
        assert not check_opening(GAME, bad, root, SIZE)


def test_writing_a_fact_changes_the_root() -> None:
    kept = roster()
    empty = kept.root(4)
    kept.write(Written(PIECE, "square", 0, "5a" * 32, 0), "D7")
    assert kept.root(4) != empty


def test_rewriting_a_fact_in_its_slot_moves_the_root_and_old_openings_stay_valid() -> None:
    # The host opens against the root published the event before (ledger.seal): an opening
    # made then must keep checking against that root after the fact is rewritten.
    kept = roster()
    kept.write(Written(PIECE, "square", 9, "01" * 32, 0), "D7")
    old_root, old_opening = kept.root(1), kept.opening(PIECE, "square", 1)
    kept.write(Written(PIECE, "square", 9, "02" * 32, 0), "E7")
    new_root, new_opening = kept.root(2), kept.opening(PIECE, "square", 2)
    assert check_opening(GAME, old_opening, old_root, SIZE)
    assert check_opening(GAME, new_opening, new_root, SIZE)
    assert not check_opening(GAME, old_opening, new_root, SIZE)
    assert not check_opening(GAME, {**old_opening, "root_seq": 2}, new_root, SIZE)


def test_roots_differ_by_event_even_when_nothing_changed() -> None:
    # One root per side per event whether or not anything was written, so a root never
    # says "nothing changed" — or that something did.
    kept = roster()
    assert len({kept.root(seq) for seq in range(10)}) == 10


def test_two_events_share_no_leaf_whether_or_not_a_secret_changed() -> None:
    # Issue 10: a Merkle tree whose inner nodes persisted let a side compare two openings'
    # paths and see whether anything else had changed in between (a real covert move
    # against a bluff). Every leaf is blinded anew for every event: two openings of
    # different events share no string, changed or not.
    still, moved = roster(), roster()
    for kept in (still, moved):
        kept.write(Written(PIECE, "square", 5, "01" * 32, 0), "D7")
        kept.write(Written("other", "true", 9, "02" * 32, 0), True)
    before = {x for k in (still, moved) for x in k.opening(PIECE, "square", 3)["leaves"]}
    moved.write(Written("other", "true", 9, "03" * 32, 0), False)
    for kept in (still, moved):
        after = kept.opening(PIECE, "square", 4)
        assert check_opening(GAME, after, kept.root(4), SIZE)
        assert not before & set(after["leaves"])


def test_the_order_of_leaves_says_nothing_of_the_slots() -> None:
    # Leaves are sorted, so where a fact sits in a published list is where its random
    # leaf sorts, whatever its slot: over many events each slot lands everywhere.
    kept = roster()
    kept.write(Written(PIECE, "square", 0, "01" * 32, 0), "D7")
    places = set()
    for seq in range(200):
        opening = kept.opening(PIECE, "square", seq)
        assert check_opening(GAME, opening, kept.root(seq), SIZE)
        places.add(_place_of(opening))
    assert len(places) > SIZE // 2


def _place_of(opening: dict[str, Any]) -> int:
    digest = fact_digest(
        GAME, opening["side"], opening["piece"], opening["key"], opening["value"], opening["salt"]
    )
    return opening["leaves"].index(leaf(bytes.fromhex(opening["blind"]), digest).hex())


def test_empty_rosters_do_not_show_whose_they_are_or_how_many_facts_they_hold() -> None:
    # The blinding comes from the host's key: without it two empty rosters of two games or
    # sides, and a roster with one fact, are all just unrelated hashes.
    one = roster()
    one.write(Written(PIECE, "square", 0, "01" * 32, 0), "D7")
    roots = {
        roster().root(0),
        roster("red").root(0),
        roster(game="g2").root(0),
        roster(key=bytes(32)).root(0),
        one.root(0),
    }
    assert len(roots) == 5


def test_free_slots_are_used_once_a_full_roster_refuses_and_a_removed_piece_gives_back() -> None:
    kept = roster()
    used = set()
    for i in range(SIZE):
        slot = kept.free_slot(i * 7919)  # the host's random choice
        assert slot not in used
        used.add(slot)
        kept.write(Written(PIECE, f"k{i}", slot, "00" * 32, 0), i)
    assert used == set(range(SIZE))
    with pytest.raises(RosterFull):
        kept.free_slot(0)
    full = kept.root(7)
    kept.forget(PIECE)
    assert kept.slots == {}
    assert kept.root(7) == roster().root(7)
    assert kept.root(7) != full
    assert kept.free_slot(0) in range(SIZE)


writes = st.lists(
    st.tuples(
        st.text(max_size=8),  # key
        st.integers(0, SIZE - 1),  # slot
        st.binary(min_size=32, max_size=32),  # salt
        st.none() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(max_size=8),  # value
    ),
    min_size=1,
    max_size=8,
    unique_by=(lambda w: w[0], lambda w: w[1]),
)


@settings(max_examples=50, deadline=None)
@given(writes=writes, root_seq=st.integers(0, 1000))
def test_every_written_fact_opens_against_the_root_and_only_that_root(
    writes: list[tuple[str, int, bytes, Any]], root_seq: int
) -> None:
    kept = roster()
    roots = [kept.root(root_seq)]
    for key, slot, salt, value in writes:
        kept.write(Written(PIECE, key, slot, salt.hex(), 0), value)
        roots.append(kept.root(root_seq))
    assert len(set(roots)) == len(roots)  # every write moved the root
    for key, *_ in writes:
        opening = kept.opening(PIECE, key, root_seq)
        assert check_opening(GAME, opening, roots[-1], SIZE)
        assert not check_opening(GAME, opening, roots[-2], SIZE)
        assert not check_opening(GAME, opening, kept.root(root_seq + 1), SIZE)


# --- facts that never change once written: their openings prove the event that wrote them ----


def fixed_roster() -> Roster:
    return Roster(GAME, "blue", DUMMY, SIZE, frozenset({"square"}))


@pytest.fixture
def fixed() -> tuple[Roster, dict[str, Any], dict[int, str]]:
    """A fact that never changes, written at event 2 (beside one that may: "true"), opened
    against the root of event 6 after other writes; every event's root."""
    kept = fixed_roster()
    roots = {}
    for seq in range(7):
        if seq == 2:
            kept.write(Written(PIECE, "square", 13, "5a" * 32, 0), "D7")
            kept.write(Written(PIECE, "true", 4, "01" * 32, 0), True)
        if seq == 4:
            kept.write(Written("other", "square", 7, "02" * 32, 0), "E1")
            kept.write(Written(PIECE, "true", 4, "03" * 32, 0), False)
        roots[seq] = kept.root(seq)
        kept.sealed(seq)
    return kept, kept.opening(PIECE, "square", 6), roots


def test_an_opening_of_a_fixed_fact_proves_the_event_that_wrote_it(
    fixed: tuple[Roster, dict[str, Any], dict[int, str]],
) -> None:
    kept, opening, roots = fixed
    written = opening["written"]
    assert set(written) == {"seq", "blind", "leaves"}
    assert written["seq"] == 2
    assert check_opening(GAME, opening, roots[6], SIZE, roots[2])
    # The same fact, in the leaves of the root published then; none shared with the root now.
    assert not set(written["leaves"]) & set(opening["leaves"])
    assert written["blind"] != opening["blind"]
    # Without the write event's root it cannot be checked; against another event's, it fails.
    assert not check_opening(GAME, opening, roots[6], SIZE)
    for seq in (0, 1, 3, 4, 5, 6):
        assert not check_opening(GAME, opening, roots[6], SIZE, roots[seq])
    # Every later opening names the same write (the roster holds now what it held since 4).
    for seq in (4, 5):
        again = kept.opening(PIECE, "square", seq)
        assert again["written"] == written
        assert check_opening(GAME, again, roots[seq], SIZE, roots[2])


def test_a_fact_that_may_change_says_nothing_of_when_it_was_written(
    fixed: tuple[Roster, dict[str, Any], dict[int, str]],
) -> None:
    kept, _, roots = fixed
    opening = kept.opening(PIECE, "true", 6)
    assert "written" not in opening
    assert check_opening(GAME, opening, roots[6], SIZE)
    # Nor does any fact of a roster without fixed keys.
    plain = roster()
    plain.write(Written(PIECE, "square", 13, "5a" * 32, 0), "D7")
    plain.sealed(2)
    assert "written" not in plain.opening(PIECE, "square", 6)


def test_a_fact_written_at_the_event_before_its_reveal_proves_that_event(
    fixed: tuple[Roster, dict[str, Any], dict[int, str]],
) -> None:
    kept, _, roots = fixed
    opening = kept.opening("other", "square", 4)
    assert opening["written"]["seq"] == 4
    assert opening["written"]["leaves"] == opening["leaves"]
    assert check_opening(GAME, opening, roots[4], SIZE, roots[4])


def _flip_first(leaves: list[str]) -> list[str]:
    return sorted([flip_hex(leaves[0]), *leaves[1:]])


@pytest.mark.parametrize(
    ("what", "change"),
    [
        ("a leaf of the write's root", lambda w: {**w, "leaves": _flip_first(w["leaves"])}),
        ("leaves out of order", lambda w: {**w, "leaves": w["leaves"][::-1]}),
        ("a leaf short", lambda w: {**w, "leaves": w["leaves"][:-1]}),
        ("the blinding value", lambda w: {**w, "blind": flip_hex(w["blind"])}),
        ("another event", lambda w: {**w, "seq": 3}),
        ("an event after the root", lambda w: {**w, "seq": 7}),
        ("an event before the game", lambda w: {**w, "seq": -1}),
        ("a seq in words", lambda w: {**w, "seq": "2"}),
        ("a seq of true", lambda w: {**w, "seq": True}),
        ("a field more", lambda w: {**w, "slot": 13}),
        ("a field less", lambda w: {k: v for k, v in w.items() if k != "blind"}),
        ("not an object", lambda w: [w["seq"], w["blind"], w["leaves"]]),
        ("null", lambda w: None),
    ],
)
def test_an_altered_write_proof_fails(
    fixed: tuple[Roster, dict[str, Any], dict[int, str]], what: str, change: Any
) -> None:
    _, opening, roots = fixed
    altered = {**opening, "written": change(opening["written"])}
    # Whichever root it names, it does not check.
    for seq in range(7):
        assert not check_opening(GAME, altered, roots[6], SIZE, roots[seq]), what


def test_a_write_proof_names_no_event_after_the_root_it_opens_against() -> None:
    # An opening against event 3 of a fact written at event 5 (a host that opens a rewritten
    # fact against an older root, or names a later write) is refused even with the roots
    # published then.
    kept = fixed_roster()
    kept.write(Written(PIECE, "square", 13, "5a" * 32, 0), "D7")
    kept.sealed(5)
    opening = kept.opening(PIECE, "square", 3)
    assert opening["written"]["seq"] == 5
    assert not check_opening(GAME, opening, kept.root(3), SIZE, kept.root(5))


def test_writing_a_fixed_fact_again_is_a_bug() -> None:
    kept = fixed_roster()
    kept.write(Written(PIECE, "square", 13, "5a" * 32, 0), "D7")
    kept.sealed(1)
    for value, salt in (("E7", "5a" * 32), ("D7", "5b" * 32), ("D7", "5a" * 32)):
        with pytest.raises(FixedRewrite):
            kept.write(Written(PIECE, "square", 13, salt, 0), value)
    assert kept.values[(PIECE, "square")] == "D7"
    # A removed piece's facts go, and with them what proved their write.
    kept.forget(PIECE)
    assert kept.written_at == {}


def test_a_fixed_fact_keeps_its_write_event_at_the_cost_of_one_list_of_leaves() -> None:
    # Every fixed fact an event writes for a side shares one copy of that root's leaves.
    kept = fixed_roster()
    for i in range(4):
        kept.write(Written(f"p{i}", "square", i, f"{i:02x}" * 32, 0), f"D{i}")
    kept.sealed(3)
    proofs = list(kept.written_at.values())
    assert len(proofs) == 4
    assert all(p.leaves is proofs[0].leaves for p in proofs)
    assert len(proofs[0].leaves) == 32 * SIZE
