"""The truth store: pieces, what each side knows of them, and the ruleset's own board.

Only the engine and the rulesets read a :class:`GameState` directly. Nothing a side
receives is made from it except through :func:`ghillie.view.view`, which builds a view up
from what that side may see.

State is immutable by convention: every change makes a new object (``dataclasses.replace``
and fresh dicts), so a refused command can never leave a half-changed state behind.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from ghillie.ruleset import Ruleset
    from ghillie.scenario import Scenario

Json = Any  # a JSON value: None, bool, int, float, str, list, dict
Facts = Mapping[str, Json]

REFEREE = "referee"  # sees everything; used by the host, the tests and the audit
SPECTATOR = "spectator"  # sees public facts only


class Level(IntEnum):
    """One knowledge ladder for every ruleset (DESIGN.md, Knowledge)."""

    UNKNOWN = 0  # the side does not know the piece exists
    SUSPECTED = 1  # a marker is visible, its content is not
    DETECTED = 2  # something real is there: position and class known, type not
    IDENTIFIED = 3  # public information in full


class Phase(StrEnum):
    SETUP = "setup"  # secrets are recorded, the table is laid out
    PLAY = "play"
    OVER = "over"


# slots=True on the pieces and what a side knows: a live game holds dozens of them
# (benchmarks/memory.py --part served), and a __dict__ costs about 40 bytes each.
@dataclass(frozen=True, slots=True)
class Piece:
    """Anything on (or beside) the table: a unit, a marker, a minefield.

    ``public`` is what any side that can see the piece sees; ``secret`` only its owner.
    Rulesets keep hidden facts (which marker a squad sits under) in ``secret`` and move them
    to ``public`` only when a rule reveals them.
    """

    id: str
    owner: str
    kind: str
    public: Facts = field(default_factory=dict)
    secret: Facts = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Known:
    """What one side knows of one piece it does not own."""

    level: Level
    facts: Facts = field(default_factory=dict)  # side-specific extras a rule told this side


# What a side knows of a piece it was told nothing of: one object, asked for very often
# (every side's sight of every ship, before and after a rule acts), and never changed.
_UNKNOWN = Known(Level.UNKNOWN, MappingProxyType({}))


@dataclass(frozen=True)
class Window:
    """A reaction window: a command opened it in the middle of an order, and the game waits
    for the sides in ``asks`` to answer, one after another in that order, before the rules
    go on (Infinity's AROs, ambush-fire's reactions). The engine owns it: whose answer is
    awaited and in what order, like turn order. Everything in it is public — who is asked
    must never depend on another side's secrets — and ``about`` holds only public facts the
    ruleset attaches (which piece is acting). ``answers`` are the answers as given, by side,
    for the ruleset to resolve when the window closes.

    A window may have a time ``limit`` (seconds, public like the rest): it ``ends`` at the
    host's time of the event that opened it (``opened``, its seq) plus the limit, and then
    the host may answer for every side still awaited with the reaction's default
    (``engine.time_out``). The same limit for every prompt is what keeps being asked from
    saying anything (ambush-fire's live reactions)."""

    name: str
    by: str  # the side whose command opened it
    asks: tuple[str, ...]
    about: Facts = field(default_factory=dict)
    answers: Mapping[str, Facts] = field(default_factory=dict)
    opened: int = -1  # the seq of the event that opened it: names it in a time-out
    limit: int | None = None  # seconds the sides asked have to answer; None: no limit
    ends: str | None = None  # when the limit runs out (ghillie.clock), if it has one

    @property
    def awaiting(self) -> str | None:
        """The side whose answer the game waits for now; None once every side answered."""
        return next((side for side in self.asks if side not in self.answers), None)


S = TypeVar("S", bound="Scenario")
B = TypeVar("B")


@dataclass(frozen=True)
class GameState(Generic[S, B]):
    """One game's state. It holds its ruleset, handed to it where the game is created or
    loaded (the registry is read only there), so the engine and the view never look it up."""

    ruleset: Ruleset[S, B]
    scenario: S  # the ruleset's parsed scenario (public: both sides read it)
    sides: tuple[str, ...]
    board: B  # the ruleset's own state: turn, phase, activations, ...
    phase: Phase = Phase.SETUP
    pieces: Mapping[str, Piece] = field(default_factory=dict)
    knowledge: Mapping[str, Mapping[str, Known]] = field(default_factory=dict)
    window: Window | None = None  # a reaction window the game waits on (engine.py)
    seq: int = -1  # the last event folded in; -1 before the game is created

    @cached_property
    def memo(self) -> dict[Any, Any]:
        """Answers the engine works out once for this state and asks for again (which
        commands each side may give, whom the game waits for: every view of an event asks
        for them). A state never changes, so neither do they; a new state starts empty."""
        return {}

    def piece(self, piece_id: str) -> Piece:
        return self.pieces[piece_id]

    def owned(self, side: str, kind: str | None = None) -> list[Piece]:
        return [
            p for p in self.pieces.values() if p.owner == side and (kind is None or p.kind == kind)
        ]

    def known(self, side: str, piece_id: str) -> Known:
        return self.knowledge.get(side, {}).get(piece_id, _UNKNOWN)

    def can_see(self, side: str, piece_id: str) -> bool:
        """Does ``side`` know this piece exists (owns it, or knows it at least as suspected)?"""
        piece = self.pieces.get(piece_id)
        if piece is None:
            return False
        return piece.owner == side or self.known(side, piece_id).level >= Level.SUSPECTED

    def others(self, side: str) -> tuple[str, ...]:
        return _others(self.sides, side)


@functools.lru_cache(maxsize=256)  # a game's sides never change; rules ask for every ship
def _others(sides: tuple[str, ...], side: str) -> tuple[str, ...]:
    return tuple(s for s in sides if s != side)
