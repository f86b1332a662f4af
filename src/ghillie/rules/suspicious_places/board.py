"""The suspicious-places board: setup progress, turns and activations; piece vocabulary."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from ghillie.events import BoardChange
from ghillie.measure.tabletop import XY
from ghillie.state import GameState, Piece

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


def fold(board: Board, change: BoardChange) -> Board:
    data = change.data
    match change.name:
        case "rolled":
            return replace(
                board,
                rolls={**board.rolls, data["side"]: dict(data["rolls"])},
                pool={**board.pool, data["side"]: data["pool"]},
            )
        case "placed":
            groups = dict(board.placed_by_group)
            for group in data["groups"]:
                groups[group] = groups.get(group, 0) + 1
            return replace(
                board,
                pool={**board.pool, data["side"]: board.pool.get(data["side"], 0) - data["count"]},
                placed_by_group=groups,
            )
        case "labels":
            prefix = data["prefix"]
            return replace(
                board, labels={**board.labels, prefix: board.labels.get(prefix, 0) + data["count"]}
            )
        case "hidden":
            return replace(board, hidden=board.hidden | {data["side"]})
        case "ready":
            return replace(board, ready=board.ready | {data["side"]})
        case "start":
            return replace(board, turn=1, first=data["first"], active=data["first"])
        case "activate":
            return replace(
                board,
                activation=Activation(data["unit"], ACTIONS_PER_ACTIVATION),
                activated=board.activated | {data["unit"]},
                passes=0,
            )
        case "spend":
            assert board.activation is not None
            return replace(
                board, activation=replace(board.activation, actions=board.activation.actions - 1)
            )
        case "end_activation":
            return replace(board, activation=None, active=data["next"])
        case "pass":
            return replace(board, passes=board.passes + 1, active=data["next"])
        case "next_turn":
            return replace(
                board, turn=board.turn + 1, activated=frozenset(), passes=0, active=board.first
            )
    raise ValueError(f"suspicious-places has no board change {change.name!r}")


def model_points(unit: Piece) -> list[XY]:
    """Where a unit's models stand on the map (its centre plus its formation)."""
    at = unit.public.get("at")
    if at is None:
        return []
    return [(at[0] + dx, at[1] + dy) for dx, dy in unit.public["formation"]]


def where(state: GameState[Any, Any], piece: Piece) -> Sequence[XY]:
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
