"""The turn skeleton of ambush-fields and what each side knows of each field."""

from __future__ import annotations

import pytest

from ghillie.events import BoardChange
from ghillie.rules.ambush_fields.board import Board, FieldState, Step, done, fold, start

SIDES = ("cylons", "colonials")


def begun() -> Board:
    board = fold(Board(), BoardChange("sides", {"sides": list(SIDES)}))
    return fold(board, start())


def learned(state: str) -> BoardChange:
    return BoardChange("field", {"side": "colonials", "field": "f1", "state": state})


def finish_phase(board: Board) -> Board:
    for side in SIDES:
        board = fold(board, done(side))
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
    board = fold(begun(), done("cylons"))
    assert board.step is Step.INITIATIVE
    assert board.done == {"cylons"}
    board = fold(board, done("cylons"))  # saying it twice changes nothing
    assert board.step is Step.INITIATIVE
    board = fold(board, done("colonials"))
    assert (board.step, board.done) == (Step.MOVEMENT, frozenset())


@pytest.mark.spec("BSG-A05", "BSG-A06")
def test_scanners_are_declared_each_turn() -> None:
    board = fold(begun(), BoardChange("scan", {"side": "colonials", "ships": ["a", "b"]}))
    assert board.scanners["colonials"] == {"a", "b"}
    for _ in range(3):
        board = finish_phase(board)
    assert board.turn == 2
    assert board.scanners == {}


@pytest.mark.spec("BSG-R15", "BSG-R19")
def test_each_side_knows_each_field_separately_and_partial_information_stays() -> None:
    board = begun()
    board = fold(
        board, BoardChange("field", {"side": "colonials", "field": "f1", "state": "partial"})
    )
    board = fold(board, BoardChange("pi", {"side": "colonials", "field": "f1"}))
    assert board.knows("colonials", "f1") is FieldState.PARTIAL
    assert board.knows("colonials", "f2") is FieldState.UNKNOWN
    assert board.knows("cylons", "f1") is FieldState.UNKNOWN
    assert board.has_pi("colonials", "f1")
    assert not board.has_pi("colonials", "f2")
    for _ in range(6):
        board = finish_phase(board)
    assert board.has_pi("colonials", "f1")  # "-1 on all future detection rolls"
    board = fold(
        board, BoardChange("field", {"side": "colonials", "field": "f1", "state": "located"})
    )
    assert board.knows("colonials", "f1") is FieldState.LOCATED


def test_an_unknown_board_change_is_an_error() -> None:
    with pytest.raises(ValueError, match="no board change 'teleport'"):
        fold(Board(), BoardChange("teleport"))
