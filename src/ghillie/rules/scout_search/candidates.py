"""What a side could sensibly give now, from what it knows: for the contract suites' random
games and two worlds. The scouts' variants differ only in their secret fields (the square,
the note), so two worlds has something hidden to compare."""

from __future__ import annotations

from ghillie.rules.scout_search.board import Board
from ghillie.rules.scout_search.grid import SQUARES, neighbours
from ghillie.rules.scout_search.scenario import ScoutScenario
from ghillie.rules.scout_search.setup import the_hunter, the_scout
from ghillie.state import Facts, GameState, Phase

NOTE = "behind the hedge"


def candidates(state: GameState[ScoutScenario, Board], side: str) -> list[Facts]:
    scenario = state.scenario
    if side == scenario.scouts and state.phase is Phase.SETUP:
        return [
            {"type": "hide", "square": s, **({"note": NOTE} if i % 2 else {})}
            for i, s in enumerate(SQUARES)
        ]
    if state.phase is not Phase.PLAY:
        return []
    if side == scenario.scouts and not state.board.hunters_next:
        here = str(the_scout(state).secret["square"])
        return [
            {"type": "move", "square": s, **({"note": NOTE} if i % 2 else {})}
            for i, s in enumerate([here, *neighbours(here)])
        ]
    if side == scenario.hunters and state.board.hunters_next:
        hunter = the_hunter(state).id
        return [{"type": "search", "hunter": hunter, "square": s} for s in SQUARES]
    return []
