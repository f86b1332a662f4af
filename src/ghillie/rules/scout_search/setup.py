"""The game's first event: the Scout is placed, its square still unwritten, and no hunter
knows of it until it is found; the Hunter, the piece that searches, is placed in the open."""

from __future__ import annotations

from typing import Any

from ghillie.rules.scout_search.scenario import ScoutScenario
from ghillie.ruling import Ruling
from ghillie.state import GameState, Level, Piece

SCOUT = "scout"  # the pieces' kinds, and their handles (lookup.HANDLES)
HUNTER = "hunter"


def setup(ruling: Ruling[ScoutScenario, Any], scenario: ScoutScenario) -> None:
    ruling.place(
        Piece(ruling.new_id(), scenario.scouts, SCOUT, public={"name": "Scout", "key": "scout"})
    )
    hunter = Piece(
        ruling.new_id(), scenario.hunters, HUNTER, public={"name": "Hunter", "key": "hunter"}
    )
    ruling.place(hunter, known={scenario.scouts: Level.IDENTIFIED})


def the_scout(state: GameState[ScoutScenario, Any]) -> Piece:
    return state.owned(state.scenario.scouts, SCOUT)[0]


def the_hunter(state: GameState[ScoutScenario, Any]) -> Piece:
    return state.owned(state.scenario.hunters, HUNTER)[0]
