"""Where the game stands, all of it public: whose turn, and the squares searched."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from ghillie.events import Change


@dataclass(frozen=True)
class Board:
    hunters_next: bool = False  # the scouts move first, then the hunters search, in turn
    searched: tuple[str, ...] = ()  # the squares searched, in order (one per hunter turn)
    heard: tuple[str, ...] = ()  # the squares searched that heard the Scout: the hunters'
    winner: str | None = None


@dataclass(frozen=True)
class Moved(Change):
    """The scouts took their turn (a step or staying put: the record cannot tell)."""

    name: ClassVar[str] = "scouts_moved"


@dataclass(frozen=True)
class Searched(Change):
    """A search, and whether it heard the Scout: written on every search, so the record's
    shape is the same either way. ``side`` is the side that searched and heard, which
    names it as what that side was told (the two-worlds suite reads it so)."""

    name: ClassVar[str] = "searched"
    side: str
    square: str
    heard: bool


@dataclass(frozen=True)
class Won(Change):
    name: ClassVar[str] = "won"
    side: str


CHANGES = (Moved, Searched, Won)


def fold(board: Board, change: object) -> Board:
    match change:
        case Moved():
            return replace(board, hunters_next=True)
        case Searched(square=square, heard=heard):
            return replace(
                board,
                hunters_next=False,
                searched=(*board.searched, square),
                heard=(*board.heard, square) if heard else board.heard,
            )
        case Won(side=side):
            return replace(board, winner=side)
    raise ValueError(change)
