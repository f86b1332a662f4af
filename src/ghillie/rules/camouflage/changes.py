"""Each change to the camouflage board, and how the board takes it.

The record writes a change as its ``name`` and its fields, as it always has: the names and
keys here are the ones games recorded before these classes existed, so those games replay.
A change is read back from the record's JSON (a stage as its word, a list for a tuple), so
a class whose field the JSON cannot carry as typed turns it back in ``__post_init__``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, ClassVar

from ghillie.events import BoardChange, Change

from .board import Board, Lock, OrderState, Save, Stage


@dataclass(frozen=True)
class Deployed(Change):
    """A side has laid out its markers."""

    name: ClassVar[str] = "deployed"
    side: str


@dataclass(frozen=True)
class MarkersLaid(Change):
    """How many markers a side has laid so far (their numbers count on from them)."""

    name: ClassVar[str] = "markers"
    side: str
    count: int


@dataclass(frozen=True)
class PlayerTurn(Change):
    """A Player Turn begins: ``active`` is the active player."""

    name: ClassVar[str] = "turn"
    turn: int
    active: str


@dataclass(frozen=True)
class OrderGiven(Change):
    """An Order is given to ``piece`` and its first skill declared."""

    name: ClassVar[str] = "order"
    piece: str
    first: Mapping[str, Any]
    stage: Stage

    def __post_init__(self) -> None:
        object.__setattr__(self, "stage", Stage(self.stage))


@dataclass(frozen=True)
class SecondDeclared(Change):
    """The Order's second skill is declared."""

    name: ClassVar[str] = "second"
    second: Mapping[str, Any]


@dataclass(frozen=True)
class ArosDeclared(Change):
    """A reactive side's AROs (by reactor), and the reactors that delay theirs (INF-R12)."""

    name: ClassVar[str] = "aros"
    aros: Mapping[str, Mapping[str, Any]]
    delayed: Sequence[str]


@dataclass(frozen=True)
class StageReached(Change):
    """The Order moves on to ``stage``."""

    name: ClassVar[str] = "stage"
    stage: Stage

    def __post_init__(self) -> None:
        object.__setattr__(self, "stage", Stage(self.stage))


@dataclass(frozen=True)
class OrderDone(Change):
    """The Order is over, its saving rolls made."""

    name: ClassVar[str] = "order_done"


@dataclass(frozen=True)
class LockedOut(Change):
    """A failed Discover locks ``trooper`` out of ``marker`` (INF-R10, INF-A05)."""

    name: ClassVar[str] = "lock"
    trooper: str
    marker: str
    turn: int


@dataclass(frozen=True)
class SavesOwed(Change):
    """The saving rolls the Order's hits call for."""

    name: ClassVar[str] = "saves"
    saves: tuple[Save, ...]

    def __post_init__(self) -> None:
        read: Sequence[Save | Mapping[str, Any]] = self.saves  # as recorded: mappings
        saves = tuple(s if isinstance(s, Save) else Save(**s) for s in read)
        object.__setattr__(self, "saves", saves)

    def recorded(self) -> BoardChange:
        # Each save as its fields: the record's JSON holds no dataclass.
        return BoardChange(self.name, {"saves": [asdict(s) for s in self.saves]})


@dataclass(frozen=True)
class Saved(Change):
    """These pieces have made the saving rolls they owed."""

    name: ClassVar[str] = "saved"
    pieces: Sequence[str]


@dataclass(frozen=True)
class GameOver(Change):
    """The game is over."""

    name: ClassVar[str] = "over"


CHANGES: tuple[type[Change], ...] = (
    Deployed,
    MarkersLaid,
    PlayerTurn,
    OrderGiven,
    SecondDeclared,
    ArosDeclared,
    StageReached,
    OrderDone,
    LockedOut,
    SavesOwed,
    Saved,
    GameOver,
)


def fold(board: Board, change: Change) -> Board:
    match change:
        case Deployed(side=side):
            return replace(board, deployed=board.deployed | {side})
        case MarkersLaid(side=side, count=count):
            return replace(board, markers={**board.markers, side: count})
        case PlayerTurn(turn=turn, active=active):
            return replace(board, turn=turn, active=active, order=None)
        case OrderGiven(piece=piece, first=first, stage=stage):
            return replace(board, order=OrderState(piece, first, stage))
        case SecondDeclared(second=second):
            assert board.order is not None
            return replace(board, order=replace(board.order, second=second))
        case ArosDeclared(aros=aros, delayed=delayed):
            assert board.order is not None
            order = board.order
            return replace(
                board,
                order=replace(
                    order,
                    aros={**order.aros, **aros},
                    delayed=tuple(r for r in (*order.delayed, *delayed) if r not in aros),
                ),
            )
        case StageReached(stage=stage):
            assert board.order is not None
            return replace(board, order=replace(board.order, stage=stage))
        case OrderDone():
            return replace(board, order=None, saves=())
        case LockedOut(trooper=trooper, marker=marker, turn=turn):
            return replace(board, locks=(*board.locks, Lock(trooper, marker, turn)))
        case SavesOwed(saves=saves):
            return replace(board, saves=saves)
        case Saved(pieces=pieces):
            return replace(board, saves=tuple(s for s in board.saves if s.piece not in pieces))
        case GameOver():
            return replace(board, over=True, order=None)
    raise ValueError(f"camouflage has no board change {change.name!r}")
