"""The history eligibility reads (RULES-SPEC BMF-A20), as the board keeps it."""

from __future__ import annotations

import pytest

from ghillie.events import BoardChange
from ghillie.rules.ambush_fire.board import Board, Did, Step, did
from ghillie.rules.ambush_fire.changes import Done, Pending, StepBegins, TurnBegins, Walk, fold
from ghillie.rules.ambush_fire.ruleset import AmbushFire


@pytest.mark.spec("BMF-A20")
def test_bmf_a20_stationary_means_no_move_and_no_turret_turn_last_turn_or_this_one() -> None:
    history = {"2": ["turned"], "3": []}
    # "stationary for one or more turns": nothing in the whole previous turn, and nothing
    # so far in this one. A turret turned last turn breaks it.
    assert did(history, 2, Did.MOVED, Did.TURNED)
    assert not did(history, 3, Did.MOVED, Did.TURNED)
    assert not did(history, 1, Did.MOVED, Did.TURNED)


def test_the_board_follows_the_turn() -> None:
    board = fold(Board(), TurnBegins(turn=1, moving="germans"))
    assert (board.turn, board.step, board.moving) == (1, Step.MOVEMENT, "germans")
    board = fold(board, Done(side="germans"))
    board = fold(board, StepBegins(step="fire"))
    assert (board.step, board.moving, board.done) == (Step.FIRE, None, frozenset())
    with pytest.raises(ValueError, match="no board change"):
        AmbushFire().fold_recorded(board, BoardChange("teleport", {}))


def test_a_move_or_walk_that_is_over_is_recorded_bare_as_it_always_was() -> None:
    # Records written before hold ("pending", {}) and ("walk", {}), never a null: the new
    # record must say the same, and an old one must fold back to no move and no walk.
    assert Pending().recorded() == BoardChange("pending", {})
    assert Walk().recorded() == BoardChange("walk", {})
    walk = {"side": "germans", "prompted": 0}
    assert Walk(walk=walk).recorded() == BoardChange("walk", {"walk": walk})
    ruleset = AmbushFire()
    walking = ruleset.fold_recorded(Board(), BoardChange("walk", {"walk": walk}))
    assert walking.walk == walk
    assert ruleset.fold_recorded(walking, BoardChange("walk", {})).walk is None
    stopped = ruleset.fold_recorded(Board(), BoardChange("pending", {"move": {"kind": "ambush"}}))
    assert ruleset.fold_recorded(stopped, BoardChange("pending", {})).pending is None
