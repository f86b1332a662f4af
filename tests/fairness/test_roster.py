"""Rosters v3 (protocol 4): a side's secret facts sit in a fixed number of slots, one
published root per side per event, over leaves blinded afresh only where they can be shown.
An opening checks against the root it names and against nothing else, so the host cannot
reveal a fact it did not commit to, nor move one to another event or side; and nothing in
roots or openings tells whether, when or where any other secret changed: no root repeats,
and no two lists of leaves that can ever be shown share a leaf."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghillie.fairness.roster import (
    FixedRewrite,
    Roster,
    RosterFull,
    Written,
    check_opening,
    fact_digest,
    leaf,
)

GAME = "g1"
DUMMY = bytes.fromhex("dd" * 32)
PIECE = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
SIZE = 32


def roster(side: str = "blue", game: str = GAME, key: bytes = DUMMY) -> Roster:
    return Roster(game, side, key, SIZE)


def sealed_up_to(kept: Roster, last: int, start: int = 0) -> dict[int, str]:
    """Seal events ``start`` … ``last`` with nothing written nor opened: their roots."""
    return {seq: kept.seal(seq, False) for seq in range(start, last + 1)}


@pytest.fixture
def written() -> tuple[Roster, dict[str, Any], str]:
    """A roster with one fact written at event 1, its opening against event 4 and that
    event's root."""
    kept = roster()
    kept.seal(0, False)
    kept.write(Written(PIECE, "square", 13, "5a" * 32, 0), "D7", 1)
    roots = sealed_up_to(kept, 4, start=1)
    return kept, kept.opening(PIECE, "square", 4), roots[4]


def test_an_opening_checks_against_the_root_of_its_event(
    written: tuple[Roster, dict[str, Any], str],
) -> None:
    _, opening, root = written
    assert opening["value"] == "D7"
    assert len(opening["leaves"]) == SIZE
    assert check_opening(GAME, opening, root, SIZE)


def test_an_opening_is_made_only_against_the_last_root() -> None:
    # The ledger opens at event s against the root of s - 1, before s's writes: a roster
    # asked for an opening against any other root would give one that does not check.
    kept = roster()
    kept.write(Written(PIECE, "square", 3, "5a" * 32, 0), "D7", 0)
    sealed_up_to(kept, 3)
    with pytest.raises(ValueError, match="event 3"):
        kept.opening(PIECE, "square", 2)


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
        ("blind", None),
        ("nonce", None),
        ("side", "red"),
        ("root_seq", 3),  # roots are bound to their event: the opening names the wrong one
        ("root_seq", 5),
    ],
)
def test_an_altered_opening_fails(
    written: tuple[Roster, dict[str, Any], str], field: str, value: Any
) -> None:
    _, opening, root = written
    if value is None and field in ("blind", "nonce"):
        value = flip_hex(opening[field])
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
        {k: v for k, v in opening.items() if k != "nonce"},
        {**opening, "slot": 3},  # no field beyond the opening's own
        {**opening, "salt": "not hex"},
        {**opening, "salt": "5a" * 31},  # a commitment salt is 32 bytes
        {**opening, "blind": "5a" * 31},
        {**opening, "nonce": "5a" * 31},
        {**opening, "leaves": opening["leaves"][:-1]},
        {**opening, "leaves": [*opening["leaves"], "ff" * 32]},
        {**opening, "leaves": None},
        {**opening, "leaves": [x[:-2] for x in opening["leaves"]]},
        {**opening, "value": float("nan")},  # not JSON, so cannot have been committed
        {**opening, "root_seq": -1},
        {**opening, "root_seq": 2**64},
        {**opening, "root_seq": "4"},
    ):
        assert not check_opening(GAME, bad, root, SIZE)


def test_a_root_never_repeats_and_says_nothing_of_whether_anything_changed() -> None:
    # The leaves stay as they are between events where nothing is written; each root still
    # hashes its own event and a nonce only the host knows, so no two roots are alike and
    # nobody can tell from them whether a leaf changed.
    still, moved = roster(), roster()
    for kept in (still, moved):
        kept.write(Written(PIECE, "true", 5, "01" * 32, 0), 1, 0)
    roots = {kept: sealed_up_to(kept, 3) for kept in (still, moved)}
    moved.write(Written(PIECE, "true", 5, "02" * 32, 0), 2, 4)
    for kept in (still, moved):
        roots[kept].update(sealed_up_to(kept, 8, start=4))
    for kept in (still, moved):
        assert len(set(roots[kept].values())) == 9
    # Before the move the two rosters held the same: their roots were the same (one key,
    # one game, one side), and the move changed only the roots from event 4 on.
    assert [roots[still][s] == roots[moved][s] for s in range(9)] == [True] * 4 + [False] * 5


def test_a_write_changes_one_leaf_and_blinds_it_under_its_event() -> None:
    kept = roster()
    kept.write(Written(PIECE, "square", 7, "01" * 32, 0), "D7", 0)
    kept.seal(0, False)
    kept.seal(1, False)
    one = set(kept.opening(PIECE, "square", 1)["leaves"])
    kept.write(Written("other", "true", 3, "02" * 32, 0), True, 2)
    kept.seal(2, False)
    two = set(kept.opening(PIECE, "square", 2)["leaves"])
    assert len(one - two) == 1  # one leaf out
    assert len(two - one) == 1  # one in


def test_an_opening_blinds_every_leaf_afresh_so_no_two_shown_lists_share_a_leaf() -> None:
    # Issue 10 and issue 24: lists of leaves a side is shown must share nothing, or the
    # leaves they share tell which slots did not change between them (a real covert move
    # against a bluff). An event that opens a fact blinds the roster afresh, so the list
    # its opening shows (the event before) is never seen again.
    for moves in (False, True):
        kept = roster()
        kept.write(Written(PIECE, "square", 5, "01" * 32, 0), "D7", 0)
        kept.write(Written("sniper", "true", 9, "02" * 32, 0), 1, 0)
        sealed_up_to(kept, 2)
        shown = [kept.opening(PIECE, "square", 2)["leaves"]]
        kept.seal(3, True)  # event 3 opens a fact: the list of event 2 was shown
        for seq in range(4, 9):
            if moves and seq == 5:
                kept.write(Written("sniper", "true", 9, "03" * 32, 0), 2, seq)
            kept.seal(seq, False)
        shown.append(kept.opening(PIECE, "square", 8)["leaves"])
        kept.seal(9, True)
        assert not set(shown[0]) & set(shown[1]), moves


def test_the_order_of_leaves_says_nothing_of_the_slots() -> None:
    # Leaves are sorted, so where a fact sits in a shown list is where its random leaf
    # sorts, whatever its slot: over many openings each slot lands everywhere.
    kept = roster()
    kept.write(Written(PIECE, "square", 0, "01" * 32, 0), "D7", 0)
    root = kept.seal(0, False)
    places = set()
    for seq in range(1, 200):
        opening = kept.opening(PIECE, "square", seq - 1)
        assert check_opening(GAME, opening, root, SIZE)
        places.add(_place_of(opening))
        root = kept.seal(seq, True)  # every event opens: blinded afresh each time
    assert len(places) > SIZE // 2


def _place_of(opening: dict[str, Any]) -> int:
    digest = fact_digest(
        GAME, opening["side"], opening["piece"], opening["key"], opening["value"], opening["salt"]
    )
    return opening["leaves"].index(leaf(bytes.fromhex(opening["blind"]), digest).hex())


def test_empty_rosters_do_not_show_whose_they_are_or_how_many_facts_they_hold() -> None:
    one = roster()
    one.write(Written(PIECE, "square", 0, "01" * 32, 0), "D7", 0)
    roots = {
        roster().seal(0, False),
        roster("red").seal(0, False),
        roster(game="g2").seal(0, False),
        roster(key=bytes(32)).seal(0, False),
        one.seal(0, False),
    }
    assert len(roots) == 5


def test_free_slots_are_used_once_a_full_roster_refuses_and_a_removed_piece_gives_back() -> None:
    kept = roster()
    used = set()
    for i in range(SIZE):
        slot = kept.free_slot(i * 7919)  # the host's random choice
        assert slot not in used
        used.add(slot)
        kept.write(Written(PIECE, f"k{i}", slot, "00" * 32, 0), i, 0)
    assert used == set(range(SIZE))
    with pytest.raises(RosterFull):
        kept.free_slot(0)
    kept.seal(0, False)
    kept.forget(PIECE, 1)
    assert kept.slots == {}
    assert kept.free_slot(0) in range(SIZE)
    # Emptied, every slot holds the filler again: the same root as a roster never written,
    # once both are blinded afresh at the same event.
    assert kept.seal(1, True) == roster().seal(1, True)


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
@given(writes=writes, seed=st.integers(0, 2**32))
def test_every_written_fact_opens_against_its_root_and_only_that_root(
    writes: list[tuple[str, int, bytes, Any]], seed: int
) -> None:
    rng = random.Random(seed)
    kept = roster()
    roots = [kept.seal(0, False)]
    for seq, (key, slot, salt, value) in enumerate(writes, start=1):
        kept.write(Written(PIECE, key, slot, salt.hex(), 0), value, seq)
        roots.append(kept.seal(seq, rng.random() < 0.3))
    assert len(set(roots)) == len(roots)
    last = len(roots) - 1
    for key, *_ in writes:
        opening = kept.opening(PIECE, key, last)
        assert check_opening(GAME, opening, roots[-1], SIZE)
        assert not check_opening(GAME, opening, roots[-2], SIZE)


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
            kept.write(Written(PIECE, "square", 13, "5a" * 32, 0), "D7", seq)
            kept.write(Written(PIECE, "true", 4, "01" * 32, 0), True, seq)
        if seq == 4:
            kept.write(Written("other", "square", 7, "02" * 32, 0), "E1", seq)
            kept.write(Written(PIECE, "true", 4, "03" * 32, 0), False, seq)
        roots[seq] = kept.seal(seq, False)
    return kept, kept.opening(PIECE, "square", 6), roots


def test_an_opening_of_a_fixed_fact_proves_the_event_that_wrote_it(
    fixed: tuple[Roster, dict[str, Any], dict[int, str]],
) -> None:
    _, opening, roots = fixed
    written = opening["written"]
    assert set(written) == {"seq", "blind", "nonce", "leaves"}
    assert written["seq"] == 2
    assert check_opening(GAME, opening, roots[6], SIZE, roots[2])
    # The list of the write's root shares no leaf with the list now: the event after a
    # fixed fact's write blinds the roster afresh, since that list will be shown.
    assert not set(written["leaves"]) & set(opening["leaves"])
    assert written["nonce"] != opening["nonce"]
    assert not check_opening(GAME, opening, roots[6], SIZE)
    for seq in (0, 1, 3, 4, 5, 6):
        assert not check_opening(GAME, opening, roots[6], SIZE, roots[seq])


def test_a_fact_that_may_change_says_nothing_of_when_it_was_written(
    fixed: tuple[Roster, dict[str, Any], dict[int, str]],
) -> None:
    kept, _, roots = fixed
    opening = kept.opening(PIECE, "true", 6)
    assert "written" not in opening
    assert check_opening(GAME, opening, roots[6], SIZE)


def test_a_fact_written_at_the_event_before_its_reveal_proves_that_event() -> None:
    kept = fixed_roster()
    sealed_up_to(kept, 3)
    kept.write(Written("other", "square", 7, "02" * 32, 0), "E1", 4)
    root = kept.seal(4, False)
    opening = kept.opening("other", "square", 4)
    assert opening["written"]["seq"] == 4
    assert opening["written"]["leaves"] == opening["leaves"]
    assert check_opening(GAME, opening, root, SIZE, root)


def _flip_first(leaves: list[str]) -> list[str]:
    return sorted([flip_hex(leaves[0]), *leaves[1:]])


@pytest.mark.parametrize(
    ("what", "change"),
    [
        ("a leaf of the write's root", lambda w: {**w, "leaves": _flip_first(w["leaves"])}),
        ("leaves out of order", lambda w: {**w, "leaves": w["leaves"][::-1]}),
        ("a leaf short", lambda w: {**w, "leaves": w["leaves"][:-1]}),
        ("the blinding value", lambda w: {**w, "blind": flip_hex(w["blind"])}),
        ("the nonce", lambda w: {**w, "nonce": flip_hex(w["nonce"])}),
        ("another event", lambda w: {**w, "seq": 3}),
        ("an event after the root", lambda w: {**w, "seq": 7}),
        ("an event before the game", lambda w: {**w, "seq": -1}),
        ("a seq in words", lambda w: {**w, "seq": "2"}),
        ("a seq of true", lambda w: {**w, "seq": True}),
        ("a field more", lambda w: {**w, "slot": 13}),
        ("a field less", lambda w: {k: v for k, v in w.items() if k != "nonce"}),
        ("not an object", lambda w: [w["seq"], w["blind"], w["leaves"]]),
        ("null", lambda w: None),
    ],
)
def test_an_altered_write_proof_fails(
    fixed: tuple[Roster, dict[str, Any], dict[int, str]], what: str, change: Any
) -> None:
    _, opening, roots = fixed
    altered = {**opening, "written": change(opening["written"])}
    for seq in range(7):
        assert not check_opening(GAME, altered, roots[6], SIZE, roots[seq]), what


def _hashes(monkeypatch: pytest.MonkeyPatch, call: Any) -> int:
    """How many SHA-256 hashes ``call`` starts."""
    made = 0
    real = hashlib.sha256

    def counted(*args: Any) -> Any:
        nonlocal made
        made += 1
        return real(*args)

    with monkeypatch.context() as patched:
        patched.setattr(hashlib, "sha256", counted)
        call()
    return made


def test_the_event_after_a_fixed_write_costs_what_any_event_costs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Blinding afresh after a fixed fact's write (a hash a slot) is the writing event's
    cost, not the next one's: the next event may be the other side's, and its time must not
    tell whether a fixed fact was written (an ambush-fire Ready with standing orders, or
    without). Counted in hashes, not timed."""
    work = []
    for key in ("square", "true"):  # fixed, or a fact that may change
        kept = fixed_roster()
        sealed_up_to(kept, 1)
        kept.write(Written(PIECE, key, 13, "5a" * 32, 0), "D7", 2)
        writing = _hashes(monkeypatch, lambda kept=kept: kept.seal(2, False))
        following = _hashes(monkeypatch, lambda kept=kept: kept.seal(3, False))
        work.append((writing, following))
    (fixed_writing, fixed_following), (plain_writing, plain_following) = work
    assert fixed_following == plain_following
    assert fixed_writing >= plain_writing + SIZE  # every slot, at the write


def test_writing_a_fixed_fact_again_is_a_bug() -> None:
    kept = fixed_roster()
    kept.write(Written(PIECE, "square", 13, "5a" * 32, 0), "D7", 1)
    kept.seal(1, False)
    for value, salt in (("E7", "5a" * 32), ("D7", "5b" * 32), ("D7", "5a" * 32)):
        with pytest.raises(FixedRewrite):
            kept.write(Written(PIECE, "square", 13, salt, 0), value, 2)
    assert kept.values[(PIECE, "square")] == "D7"
    kept.forget(PIECE, 2)
    assert kept.written_at == {}


def test_a_fixed_fact_keeps_its_write_event_at_the_cost_of_one_list_of_leaves() -> None:
    kept = fixed_roster()
    for i in range(4):
        kept.write(Written(f"p{i}", "square", i, f"{i:02x}" * 32, 0), f"D{i}", 3)
    kept.seal(3, False)
    proofs = [shown for _, shown in kept.written_at.values()]
    assert len(proofs) == 4
    assert all(p is proofs[0] for p in proofs)
    assert len(proofs[0].leaves) == 32 * SIZE
