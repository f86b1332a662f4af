"""The game's first event: the Scout is placed, its square still unwritten, and no hunter
knows of it until it is found."""

from __future__ import annotations

from typing import Any

from ghillie.rules.scout_search.scenario import ScoutScenario
from ghillie.ruling import Ruling
from ghillie.state import GameState, Piece

SCOUT = "scout"  # the piece's kind


def setup(ruling: Ruling[ScoutScenario, Any], scenario: ScoutScenario) -> None:
    ruling.place(Piece(ruling.new_id(), scenario.scouts, SCOUT, public={"name": "Scout"}))


def the_scout(state: GameState[ScoutScenario, Any]) -> Piece:
    return state.owned(state.scenario.scouts, SCOUT)[0]
