"""The changes to the grid-ambush board, as the record writes them (``name`` and fields are
the recorded kind and data: records written before must replay), and how each is folded."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from ghillie.events import Change

from .board import Board, Step


@dataclass(frozen=True)
class SideReady(Change):
    """A side is set up and ready."""

    name: ClassVar[str] = "ready"
    side: str


@dataclass(frozen=True)
class OrdersRecorded(Change):
    """A side has written down its ambush orders, even none (DWV-R04)."""

    name: ClassVar[str] = "recorded"
    side: str


@dataclass(frozen=True)
class NextTurn(Change):
    """A player turn begins: ``active``'s; the game turn with the first side's."""

    name: ClassVar[str] = "next_turn"
    active: str


@dataclass(frozen=True)
class NextStep(Change):
    """The active side begins another step of its turn."""

    name: ClassVar[str] = "step"
    step: str  # a Step's value, as the record writes it


@dataclass(frozen=True)
class TurnBegun(Change):
    """A unit has moved: too late to reveal an ambush this turn (DWV-R06)."""

    name: ClassVar[str] = "turn_begun"


@dataclass(frozen=True)
class ShootingStarted(Change):
    """A unit has fired: too late to scan this shooting phase (DWV-R07)."""

    name: ClassVar[str] = "shooting_started"


@dataclass(frozen=True)
class Pending(Change):
    """A revealed unit waits for its owner to set it up; None once it is set up."""

    name: ClassVar[str] = "pending"
    unit: str | None


@dataclass(frozen=True)
class Scanned(Change):
    """A square was scanned this shooting phase."""

    name: ClassVar[str] = "scan"
    square: str


@dataclass(frozen=True)
class Found(Change):
    """A scan found the square's ambusher this shooting phase (DWV-A14)."""

    name: ClassVar[str] = "found"
    square: str


@dataclass(frozen=True)
class FoundEmpty(Change):
    """A side's scan found a square empty, and it was told so (DWV-A06)."""

    name: ClassVar[str] = "found_empty"
    side: str
    square: str


CHANGES: tuple[type[Change], ...] = (
    SideReady,
    OrdersRecorded,
    NextTurn,
    NextStep,
    TurnBegun,
    ShootingStarted,
    Pending,
    Scanned,
    Found,
    FoundEmpty,
)


def fold(board: Board, change: Change) -> Board:
    match change:
        case SideReady(side=side):
            return replace(board, ready=board.ready | {side})
        case OrdersRecorded(side=side):
            return replace(board, recorded=board.recorded | {side})
        case NextTurn(active=active):
            first = board.first or active
            return replace(
                board,
                first=first,
                active=active,
                turn=board.turn + 1 if active == first else board.turn,
                player_turn=board.player_turn + 1,
                step=Step.MOVEMENT,
                turn_begun=False,
                shooting_started=False,
                scans=(),
                found=(),
            )
        case NextStep(step=step):
            return replace(
                board,
                step=Step(step),
                turn_begun=True,
                shooting_started=False,
                scans=(),
                found=(),
            )
        case TurnBegun():
            return replace(board, turn_begun=True)
        case ShootingStarted():
            return replace(board, shooting_started=True)
        case Pending(unit=unit):
            return replace(board, pending=unit)
        case Scanned(square=square):
            return replace(board, scans=(*board.scans, square))
        case Found(square=square):
            return replace(board, found=(*board.found, square))
        case FoundEmpty(side=side, square=square):
            known = board.found_empty.get(side, ())
            if square in known:
                return board
            return replace(board, found_empty={**board.found_empty, side: (*known, square)})
    raise ValueError(f"grid-ambush has no board change {change.name!r}")
