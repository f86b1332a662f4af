"""The changes to the ambush-fire board, each a frozen dataclass recorded under its ``name``
with its fields as its data, exactly as the record has always written them (the golden
transcripts hash every event, and records written before must still replay), and ``fold``,
the board after one of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ghillie.events import BoardChange, Change

from .board import Board, Step


@dataclass(frozen=True)
class _Side(Change):
    """A change that names one side."""

    side: str


@dataclass(frozen=True)
class Deployed(_Side):
    """The side's set-up is done."""

    name: ClassVar[str] = "deployed"


@dataclass(frozen=True)
class TurnBegins(Change):
    """A turn begins with its movement step, ``moving`` first."""

    name: ClassVar[str] = "turn"
    turn: int
    moving: str


@dataclass(frozen=True)
class Moves(_Side):
    """It is ``side``'s move (or its fire, in the fire phase)."""

    name: ClassVar[str] = "moving"


@dataclass(frozen=True)
class StepBegins(Change):
    """The turn's next step begins (its value as recorded: ``Step.FIRE.value``)."""

    name: ClassVar[str] = "step"
    step: str


@dataclass(frozen=True)
class Done(_Side):
    """The side has ended the current step."""

    name: ClassVar[str] = "done"


@dataclass(frozen=True)
class _Cleared(Change):
    """A change whose one field is None once what it holds is over: the record has always
    written that as the bare name (``pending`` with no data, not ``move: null``), and must
    still, so the None is left out; an old record's bare name folds back to the default."""

    def recorded(self) -> BoardChange:
        whole = super().recorded()
        return BoardChange(whole.name, {k: v for k, v in whole.data.items() if v is not None})


@dataclass(frozen=True)
class Pending(_Cleared):
    """A move stopped by a reaction while the sides answer (``Board.pending``); None: it
    has been carried out."""

    name: ClassVar[str] = "pending"
    move: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Walk(_Cleared):
    """A move walked in legs while a live side is asked (``Board.walk``); None: the walk
    is over."""

    name: ClassVar[str] = "walk"
    walk: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Crossed(Change):
    """A concealed unit of this class was seen crossing open ground between two points
    (BMF S2)."""

    name: ClassVar[str] = "crossed"
    unit_class: str
    points: Sequence[Sequence[float]]


@dataclass(frozen=True)
class OrderGiven(_Side):
    """The side wrote a standing order, or reacted live (which writes one)."""

    name: ClassVar[str] = "order_given"


KINDS: tuple[type[Change], ...] = (
    Deployed,
    TurnBegins,
    Moves,
    StepBegins,
    Done,
    Pending,
    Walk,
    Crossed,
    OrderGiven,
)


def fold(board: Board, change: Change) -> Board:
    match change:
        case Deployed(side=side):
            return replace(board, deployed=board.deployed | {side})
        case TurnBegins(turn=turn, moving=moving):
            return replace(
                board,
                turn=turn,
                step=Step.MOVEMENT,
                moving=moving,
                done=frozenset(),
                crossings=(),
            )
        case Moves(side=side):
            return replace(board, moving=side)
        case StepBegins(step=step):
            return replace(board, step=Step(step), moving=None, done=frozenset())
        case Done(side=side):
            return replace(board, done=board.done | {side})
        case Pending(move=move):
            return replace(board, pending=move)
        case Walk(walk=walk):
            return replace(board, walk=walk)
        case Crossed(unit_class=unit_class, points=points):
            crossing = {"unit_class": unit_class, "points": points}
            return replace(board, crossings=(*board.crossings, crossing))
        case OrderGiven(side=side):
            return replace(board, orders={**board.orders, side: board.orders.get(side, 0) + 1})
    raise ValueError(f"ambush-fire has no board change {change.name!r}")
