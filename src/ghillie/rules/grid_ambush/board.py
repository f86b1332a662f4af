"""The grid-ambush board: turn skeleton, unit status, finding one's own units, and the board
as each observer sees it."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ghillie import lookup
from ghillie.errors import Refusal
from ghillie.measure.tabletop import XY
from ghillie.ruling import Ruling
from ghillie.state import REFEREE, GameState, Phase, Piece

from .codes import NOT_ON_TABLE
from .scenario import GridAmbushScenario, SquareBy


class Step(StrEnum):
    MOVEMENT = "movement"
    SHOOTING = "shooting"
    ASSAULT = "assault"


class Status(StrEnum):
    ON_TABLE = "on_table"
    IN_AMBUSH = "in_ambush"
    REVEALED = "revealed"  # found or revealed, waiting for its owner to set it up
    DESTROYED = "destroyed"
    RESERVE = "reserve"  # map mode: given no positions and not in ambush, so not on the table


@dataclass(frozen=True)
class Board:
    ready: frozenset[str] = frozenset()
    recorded: frozenset[str] = frozenset()
    turn: int = 0  # the game turn, from 1
    first: str | None = None  # the side whose player turn begins each game turn
    player_turn: int = 0  # counts player turns; flags on units name the one they were set in
    active: str | None = None
    step: Step = Step.MOVEMENT
    turn_begun: bool = False  # a move or phase change has happened this player turn
    shooting_started: bool = False  # a unit has fired this shooting phase
    pending: str | None = None  # a revealed unit waiting to be set up
    scans: tuple[str, ...] = ()  # squares scanned this shooting phase
    found: tuple[str, ...] = ()  # squares whose ambushers a scan found this shooting phase
    found_empty: dict[str, tuple[str, ...]] = field(default_factory=dict)  # side -> squares


# A game of grid-ambush, as its rules read it and as they rule on it.
State = GameState[GridAmbushScenario, Board]
Rules = Ruling[GridAmbushScenario, Board]


def model_in_square(scenario: GridAmbushScenario, square: str, at: XY, radius: float) -> bool:
    """Is a model with its base centre at ``at`` in ``square`` (RULES-SPEC DWV-A04)?"""
    if scenario.grid.ref_at(at) != square:
        return False
    if scenario.switches.square_by is SquareBy.WHOLE_BASE:
        from shapely.geometry import Point

        return bool(scenario.grid.polygon(square).covers(Point(at).buffer(radius)))
    return True


def can_ambush(state: State, side: str) -> bool:
    """Does the side have a unit its army list lets set up in ambush (DWV-R01)?"""
    return any(p.public["ambush"] for p in state.owned(side, "unit"))


def own_unit(state: State, side: str, ref: str) -> Piece:
    """One of the side's own units, by id or scenario key (a piece it cannot see is answered
    like one that does not exist)."""
    return lookup.own(state, side, ref, ["unit"])


def on_table(state: State, side: str, ref: str) -> Piece:
    unit = own_unit(state, side, ref)
    if unit.public["status"] != Status.ON_TABLE.value:
        raise Refusal(NOT_ON_TABLE, "That unit is not on the table.")
    return unit


def board_view(state: State, observer: str) -> dict[str, Any]:
    """The turn as everyone sees it, and the squares ``observer`` found empty."""
    board = state.board
    out: dict[str, Any] = {
        "turn": board.turn,
        "active": board.active,
        "step": board.step.value,
        "waiting_for_setup": board.pending,
        "ready": sorted(board.ready),
    }
    if observer == REFEREE:
        out["found_empty"] = {side: list(sq) for side, sq in board.found_empty.items()}
    elif observer in state.sides:
        out["found_empty"] = list(board.found_empty.get(observer, ()))
        if state.scenario.switches.roster_public and state.phase is not Phase.SETUP:
            # RULES-SPEC DWV-A12: "N units in ambush", from the public roster.
            out["enemy_units_in_ambush"] = sum(
                1
                for p in state.pieces.values()
                if p.owner != observer and p.public.get("status") == Status.IN_AMBUSH.value
            )
    return out
