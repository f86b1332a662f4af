"""The changes to the suspicious-places board, as the record writes them (``name`` and fields
are the recorded kind and data: records written before must replay), and how each is folded."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from ghillie.events import Change

from .board import ACTIONS_PER_ACTIVATION, Activation, Board

# --- setting up --------------------------------------------------------------------------------


@dataclass(frozen=True)
class MarkersRolled(Change):
    """The owner's marker dice, unit by unit, and the markers it has to lay (SW-R02)."""

    name: ClassVar[str] = "rolled"
    side: str
    rolls: Mapping[str, int]  # unit -> its d6
    pool: int


@dataclass(frozen=True)
class MarkersPlaced(Change):
    """``count`` markers laid, one for each of ``groups`` when markers are a unit's own."""

    name: ClassVar[str] = "placed"
    side: str
    count: int
    groups: Sequence[str]


@dataclass(frozen=True)
class Labelled(Change):
    """``count`` more markers labelled with ``prefix`` (M1, M2, ...; S1, S2, ...)."""

    name: ClassVar[str] = "labels"
    prefix: str
    count: int


@dataclass(frozen=True)
class Hidden(Change):
    """A side has recorded what lies under its markers (SW-R03, R04)."""

    name: ClassVar[str] = "hidden"
    side: str


@dataclass(frozen=True)
class SideReady(Change):
    """A side is set up and ready."""

    name: ClassVar[str] = "ready"
    side: str


# --- turns and activations ---------------------------------------------------------------------


@dataclass(frozen=True)
class Started(Change):
    """The first turn begins, ``first`` activating first."""

    name: ClassVar[str] = "start"
    first: str


@dataclass(frozen=True)
class Activated(Change):
    """A unit is activated, with its actions (SW-R10, R18)."""

    name: ClassVar[str] = "activate"
    unit: str


@dataclass(frozen=True)
class Spent(Change):
    """The activated unit spends an action."""

    name: ClassVar[str] = "spend"


@dataclass(frozen=True)
class ActivationEnded(Change):
    """The activation ends; ``next`` side activates."""

    name: ClassVar[str] = "end_activation"
    next: str


@dataclass(frozen=True)
class Passed(Change):
    """A side passes; ``next`` side activates."""

    name: ClassVar[str] = "pass"
    next: str


@dataclass(frozen=True)
class NextTurn(Change):
    """Two passes in a row: a new turn, the first side activating first."""

    name: ClassVar[str] = "next_turn"


CHANGES: tuple[type[Change], ...] = (
    MarkersRolled,
    MarkersPlaced,
    Labelled,
    Hidden,
    SideReady,
    Started,
    Activated,
    Spent,
    ActivationEnded,
    Passed,
    NextTurn,
)


def fold(board: Board, change: Change) -> Board:
    match change:
        case MarkersRolled(side=side, rolls=rolls, pool=pool):
            return replace(
                board, rolls={**board.rolls, side: dict(rolls)}, pool={**board.pool, side: pool}
            )
        case MarkersPlaced(side=side, count=count, groups=groups):
            placed = dict(board.placed_by_group)
            for group in groups:
                placed[group] = placed.get(group, 0) + 1
            left = board.pool.get(side, 0) - count
            return replace(board, pool={**board.pool, side: left}, placed_by_group=placed)
        case Labelled(prefix=prefix, count=count):
            return replace(
                board, labels={**board.labels, prefix: board.labels.get(prefix, 0) + count}
            )
        case Hidden(side=side):
            return replace(board, hidden=board.hidden | {side})
        case SideReady(side=side):
            return replace(board, ready=board.ready | {side})
        case Started(first=first):
            return replace(board, turn=1, first=first, active=first)
        case Activated(unit=unit):
            return replace(
                board,
                activation=Activation(unit, ACTIONS_PER_ACTIVATION),
                activated=board.activated | {unit},
                passes=0,
            )
        case Spent():
            assert board.activation is not None
            return replace(
                board, activation=replace(board.activation, actions=board.activation.actions - 1)
            )
        case ActivationEnded(next=side):
            return replace(board, activation=None, active=side)
        case Passed(next=side):
            return replace(board, passes=board.passes + 1, active=side)
        case NextTurn():
            return replace(
                board, turn=board.turn + 1, activated=frozenset(), passes=0, active=board.first
            )
    raise ValueError(f"suspicious-places has no board change {change.name!r}")
