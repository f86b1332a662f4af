"""The camouflage board: Player Turns, the Order being given, Discover lock-outs, saves owed.

Everything here is public: whose Player Turn it is, which trooper or marker acts, the skills
and AROs declared (Infinity declares them aloud), the lock-outs. What a marker hides lives
in the marker's secret facts, never on the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ghillie.ruling import Ruling
from ghillie.state import GameState

from .scenario import CamouflageScenario

MARKER = "marker"
TROOPER = "trooper"
EQUIPMENT = "equipment"


class State(StrEnum):
    """A trooper's (or an item's) state, public on its piece."""

    CAMOUFLAGED = "camouflaged"  # a marker stands for it (INF-R03)
    MODEL = "model"  # on the table as a model
    DOWN = "down"  # out of the game: its wounds are gone


class Stage(StrEnum):
    SECOND = "second"  # the first skill's AROs are in: the active side declares the second
    RESOLVE = "resolve"  # every skill and ARO is declared: the active side rolls
    SAVES = "saves"  # hits landed: their targets' owners make saving rolls


@dataclass(frozen=True)
class OrderState:
    """The Order being given: the piece activated and what has been declared so far."""

    piece: str  # the trooper activated, or the marker standing for it
    first: Mapping[str, Any]
    stage: Stage
    second: Mapping[str, Any] | None = None
    aros: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # reactor -> ARO
    delayed: tuple[str, ...] = ()  # reactors that delayed (INF-R12)


@dataclass(frozen=True)
class Lock:
    """A failed Discover: ``trooper`` may not try ``marker`` again until the lock ends
    (INF-R10, INF-A05: stored as trooper, marker instance and the Player Turn it was set)."""

    trooper: str
    marker: str
    turn: int


@dataclass(frozen=True)
class Save:
    """Saving rolls a piece owes: ``count`` d20s, each saves on ``value`` or less."""

    piece: str
    count: int
    value: int


@dataclass(frozen=True)
class Board:
    deployed: frozenset[str] = frozenset()
    turn: int = 0  # the Player Turn, counted from 1 across both players
    active: str | None = None
    order: OrderState | None = None
    locks: tuple[Lock, ...] = ()
    saves: tuple[Save, ...] = ()
    markers: Mapping[str, int] = field(default_factory=dict)  # markers laid so far, by side
    over: bool = False


# The game as it stands and a ruling on it, typed with this ruleset's scenario and board.
Game = GameState[CamouflageScenario, Board]
Rules = Ruling[CamouflageScenario, Board]
