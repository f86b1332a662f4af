"""The history eligibility reads (RULES-SPEC BMF-A20), as the board keeps it."""

from __future__ import annotations

import pytest

from ghillie.events import BoardChange
from ghillie.rules.ambush_fire.board import Board, Did, Step, did, fold


@pytest.mark.spec("BMF-A20")
def test_bmf_a20_stationary_means_no_move_and_no_turret_turn_last_turn_or_this_one() -> None:
    history = {"2": ["turned"], "3": []}
    # "stationary for one or more turns": nothing in the whole previous turn, and nothing
    # so far in this one. A turret turned last turn breaks it.
    assert did(history, 2, Did.MOVED, Did.TURNED)
    assert not did(history, 3, Did.MOVED, Did.TURNED)
    assert not did(history, 1, Did.MOVED, Did.TURNED)


def test_the_board_follows_the_turn() -> None:
    board = fold(Board(), BoardChange("turn", {"turn": 1, "moving": "germans"}))
    assert (board.turn, board.step, board.moving) == (1, Step.MOVEMENT, "germans")
    board = fold(board, BoardChange("done", {"side": "germans"}))
    board = fold(board, BoardChange("step", {"step": "fire"}))
    assert (board.step, board.moving, board.done) == (Step.FIRE, None, frozenset())
    with pytest.raises(ValueError, match="no board change"):
        fold(board, BoardChange("teleport", {}))
