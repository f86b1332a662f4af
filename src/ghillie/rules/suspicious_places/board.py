"""The suspicious-places board: setup progress, turns and activations, and the board as each
observer sees it; piece vocabulary."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ghillie.measure.tabletop import XY
from ghillie.ruling import Ruling
from ghillie.state import REFEREE, GameState, Piece

from .scenario import SuspiciousPlacesScenario

UNIT = "unit"
MARKER = "marker"  # a suspicious-place marker (SW-R02)
SNIPER_MARKER = "sniper_marker"  # one of a sniper's three markers (SW-R33)

ACTIONS_PER_ACTIVATION = 2  # SW-R10, R18


class Status(StrEnum):
    ON_TABLE = "on_table"
    CAMOUFLAGED = "camouflaged"  # off the table, under a suspicious-place marker
    HIDDEN = "hidden"  # a sniper under its three markers
    OFF_TABLE = "off_table"  # fled or surrendered (SW-R22)


class Face(StrEnum):
    """What the enemy sees of a suspicious-place marker."""

    UP = "face_up"  # S1: something may be here
    FLIPPED = "flipped"  # S2: certainly people or vehicles here (SW-R14, h = 1)
    MINEFIELD = "minefield"  # a known minefield or IED marker (SW-A07)


@dataclass(frozen=True)
class Activation:
    unit: str
    actions: int


@dataclass(frozen=True)
class Board:
    pool: Mapping[str, int] = field(default_factory=dict)  # side -> markers still to place
    rolls: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # side -> unit -> d6
    placed_by_group: Mapping[str, int] = field(default_factory=dict)  # unit -> markers placed
    hidden: frozenset[str] = frozenset()  # sides that recorded what lies under their markers
    ready: frozenset[str] = frozenset()
    labels: Mapping[str, int] = field(default_factory=dict)  # "M" -> markers labelled M1, M2, ...
    turn: int = 0
    first: str | None = None
    active: str | None = None
    activation: Activation | None = None
    activated: frozenset[str] = frozenset()
    passes: int = 0


# A game of suspicious-places, as its rules read it and as they rule on it.
State = GameState[SuspiciousPlacesScenario, Board]
Rules = Ruling[SuspiciousPlacesScenario, Board]


def model_points(unit: Piece) -> list[XY]:
    """Where a unit's models stand on the map (its centre plus its formation)."""
    at = unit.public.get("at")
    if at is None:
        return []
    return [(at[0] + dx, at[1] + dy) for dx, dy in unit.public["formation"]]


def where(state: State, piece: Piece) -> Sequence[XY]:
    """The points ranges are measured from: a unit's models, an attached lone figure's
    squad, a hidden sniper's true marker, a marker's spot."""
    if piece.kind != UNIT:
        at = piece.public.get("at")
        return [tuple(at)] if at else []
    attached = piece.public.get("attached_to")
    if attached and attached in state.pieces:
        return model_points(state.pieces[attached])
    status = piece.public["status"]
    if status == Status.HIDDEN:
        true = next(
            (
                p
                for p in state.pieces.values()
                if p.kind == SNIPER_MARKER and p.public["sniper"] == piece.id and p.secret["true"]
            ),
            None,
        )
        return where(state, true) if true else []
    if status == Status.CAMOUFLAGED:
        marker = state.pieces.get(piece.secret.get("marker", ""))
        return where(state, marker) if marker else []
    return model_points(piece)


def board_view(state: State, observer: str) -> dict[str, Any]:
    """Setup's progress and the turn as everyone sees them; the marker pool to its owner."""
    board = state.board
    out: dict[str, Any] = {
        "ready": sorted(board.ready),
        "turn": board.turn,
        "active": board.active,
        "activation": (
            {"unit": board.activation.unit, "actions_left": board.activation.actions}
            if board.activation
            else None
        ),
        "activated": sorted(board.activated),
        "passes": board.passes,
    }
    # The marker pool and its rolls are the owner's own business.
    if observer == REFEREE:
        out["markers_to_place"] = dict(board.pool)
    elif observer in board.pool:
        out["markers_to_place"] = board.pool[observer]
        out["marker_rolls"] = dict(board.rolls.get(observer, {}))
    return out
