"""The grid-ambush board: turn skeleton, unit status, and finding one's own units."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from ghillie import lookup
from ghillie.errors import Refusal
from ghillie.events import BoardChange
from ghillie.measure.tabletop import XY
from ghillie.state import GameState, Piece

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


def model_in_square(scenario: GridAmbushScenario, square: str, at: XY, radius: float) -> bool:
    """Is a model with its base centre at ``at`` in ``square`` (RULES-SPEC DWV-A04)?"""
    if scenario.grid.ref_at(at) != square:
        return False
    if scenario.switches.square_by is SquareBy.WHOLE_BASE:
        from shapely.geometry import Point

        return bool(scenario.grid.polygon(square).covers(Point(at).buffer(radius)))
    return True


def can_ambush(state: GameState[Any, Board], side: str) -> bool:
    """Does the side have a unit its army list lets set up in ambush (DWV-R01)?"""
    return any(p.public["ambush"] for p in state.owned(side, "unit"))


def fold(board: Board, change: BoardChange) -> Board:
    data = change.data
    match change.name:
        case "ready":
            return replace(board, ready=board.ready | {data["side"]})
        case "recorded":
            return replace(board, recorded=board.recorded | {data["side"]})
        case "next_turn":
            first = board.first or data["active"]
            return replace(
                board,
                first=first,
                active=data["active"],
                turn=board.turn + 1 if data["active"] == first else board.turn,
                player_turn=board.player_turn + 1,
                step=Step.MOVEMENT,
                turn_begun=False,
                shooting_started=False,
                scans=(),
                found=(),
            )
        case "step":
            return replace(
                board,
                step=Step(data["step"]),
                turn_begun=True,
                shooting_started=False,
                scans=(),
                found=(),
            )
        case "turn_begun":
            return replace(board, turn_begun=True)
        case "shooting_started":
            return replace(board, shooting_started=True)
        case "pending":
            return replace(board, pending=data["unit"])
        case "scan":
            return replace(board, scans=(*board.scans, data["square"]))
        case "found":
            return replace(board, found=(*board.found, data["square"]))
        case "found_empty":
            side, square = data["side"], data["square"]
            known = board.found_empty.get(side, ())
            if square in known:
                return board
            return replace(board, found_empty={**board.found_empty, side: (*known, square)})
    raise ValueError(f"grid-ambush has no board change {change.name!r}")


def own_unit(state: GameState[Any, Board], side: str, ref: str) -> Piece:
    """One of the side's own units, by id or scenario key (a piece it cannot see is answered
    like one that does not exist)."""
    return lookup.own(state, side, ref, ["unit"])


def on_table(state: GameState[Any, Board], side: str, ref: str) -> Piece:
    unit = own_unit(state, side, ref)
    if unit.public["status"] != Status.ON_TABLE.value:
        raise Refusal(NOT_ON_TABLE, "That unit is not on the table.")
    return unit
