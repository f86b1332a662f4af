"""The turn skeleton of ambush-fields and what each side knows of each field."""

from __future__ import annotations

import pytest

from ghillie.events import BoardChange, Change
from ghillie.rules.ambush_fields.board import (
    Board,
    Done,
    EndAsked,
    FieldKnown,
    FieldState,
    Hint,
    HoldsPI,
    ScanDeclared,
    SideReady,
    Sides,
    Start,
    Step,
    fold,
)
from ghillie.rules.ambush_fields.ruleset import AmbushFields

SIDES = ("cylons", "colonials")


def begun() -> Board:
    board = fold(Board(), Sides(SIDES))
    return fold(board, Start())


def finish_phase(board: Board) -> Board:
    for side in SIDES:
        board = fold(board, Done(side))
    return board


@pytest.mark.spec("BSG-R06", "BSG-R12", "BSG-R28", "BSG-R29")
def test_the_turn_runs_initiative_movement_combat_then_the_next_turn() -> None:
    board = begun()
    seen = []
    for _ in range(7):
        seen.append((board.turn, board.step))
        board = finish_phase(board)
    assert seen == [
        (1, Step.INITIATIVE),
        (1, Step.MOVEMENT),
        (1, Step.COMBAT),
        (2, Step.INITIATIVE),
        (2, Step.MOVEMENT),
        (2, Step.COMBAT),
        (3, Step.INITIATIVE),
    ]


def test_a_phase_ends_only_when_both_sides_are_done() -> None:
    board = fold(begun(), Done("cylons"))
    assert board.step is Step.INITIATIVE
    assert board.done == {"cylons"}
    board = fold(board, Done("cylons"))  # saying it twice changes nothing
    assert board.step is Step.INITIATIVE
    board = fold(board, Done("colonials"))
    assert (board.step, board.done) == (Step.MOVEMENT, frozenset())


@pytest.mark.spec("BSG-A05", "BSG-A06")
def test_scanners_are_declared_each_turn() -> None:
    board = fold(begun(), ScanDeclared("colonials", ["a", "b"]))
    assert board.scanners["colonials"] == {"a", "b"}
    for _ in range(3):
        board = finish_phase(board)
    assert board.turn == 2
    assert board.scanners == {}


@pytest.mark.spec("BSG-R15", "BSG-R19")
def test_each_side_knows_each_field_separately_and_partial_information_stays() -> None:
    board = begun()
    board = fold(board, FieldKnown("colonials", "f1", FieldState.PARTIAL))
    board = fold(board, HoldsPI("colonials", "f1"))
    assert board.knows("colonials", "f1") is FieldState.PARTIAL
    assert board.knows("colonials", "f2") is FieldState.UNKNOWN
    assert board.knows("cylons", "f1") is FieldState.UNKNOWN
    assert board.has_pi("colonials", "f1")
    assert not board.has_pi("colonials", "f2")
    for _ in range(6):
        board = finish_phase(board)
    assert board.has_pi("colonials", "f1")  # "-1 on all future detection rolls"
    board = fold(board, FieldKnown("colonials", "f1", FieldState.LOCATED))
    assert board.knows("colonials", "f1") is FieldState.LOCATED


def test_an_unknown_board_change_is_an_error() -> None:
    with pytest.raises(ValueError, match="no board change 'teleport'"):
        AmbushFields().fold_recorded(Board(), BoardChange("teleport"))


# Each kind of change as records written before the changes were typed hold it: the
# golden transcripts hash these, and old records must replay.
RECORDED = [
    (Sides(SIDES), BoardChange("sides", {"sides": ["cylons", "colonials"]})),
    (SideReady("cylons"), BoardChange("ready", {"side": "cylons"})),
    (EndAsked("cylons"), BoardChange("ending", {"side": "cylons"})),
    (Start(), BoardChange("start", {})),
    (Done("cylons"), BoardChange("done", {"side": "cylons"})),
    (
        ScanDeclared("colonials", ["a", "b"]),
        BoardChange("scan", {"side": "colonials", "ships": ["a", "b"]}),
    ),
    (
        FieldKnown("colonials", "f1", FieldState.DROPPED),
        BoardChange("field", {"side": "colonials", "field": "f1", "state": "dropped"}),
    ),
    (HoldsPI("colonials", "f1"), BoardChange("pi", {"side": "colonials", "field": "f1"})),
    (
        Hint("colonials", {"turn": 2, "kind": "scan", "arcs": ["A", "B"]}),
        BoardChange(
            "hint", {"side": "colonials", "hint": {"turn": 2, "kind": "scan", "arcs": ["A", "B"]}}
        ),
    ),
]


@pytest.mark.parametrize(("change", "recorded"), RECORDED)
def test_a_change_is_recorded_as_before_and_an_old_record_replays(
    change: Change, recorded: BoardChange
) -> None:
    assert change.recorded() == recorded
    board = begun()
    assert AmbushFields().fold_recorded(board, recorded) == fold(board, change)


def test_a_field_located_in_an_old_record_is_located_on_replay() -> None:
    recorded = BoardChange("field", {"side": "colonials", "field": "f1", "state": "located"})
    board = AmbushFields().fold_recorded(begun(), recorded)
    assert board.knows("colonials", "f1") is FieldState.LOCATED
