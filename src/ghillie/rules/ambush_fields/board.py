"""The ambush-fields board: the turn skeleton and what each side knows of each field, and
each kind of change to it. A change is recorded as its ``name`` and fields: those are the
names and keys records held before the changes were typed, so that those games replay.

The turn skeleton is the text's own (RULES-SPEC §1.1): an Initiative Phase (a controller may
drop its field, BSG-R29), a Movement Phase (movement is plotted; at its end containment is
checked, BSG-R06, and the detection rolls of segment 7 are made, BSG-R12), and a Combat
Phase (fire, EW and scout abilities; at its end, segment 10, damage is applied and a
destroyed controller's field drops, BSG-R28). Both sides act in every phase; a phase ends
when both have said they are done. The segments the text does not list are the host
game's, so only the two it names are events here.

>>> board = Board(sides=("cylons", "colonials"))
>>> for change in (Start(), Done("cylons"), Done("colonials")):
...     board = fold(board, change)
>>> board.turn, board.step.value
(1, 'movement')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, ClassVar

from ghillie.events import BoardChange, Change
from ghillie.ruling import Ruling
from ghillie.state import GameState

from .scenario import AmbushFieldsScenario


class Step(StrEnum):
    INITIATIVE = "initiative"
    MOVEMENT = "movement"
    COMBAT = "combat"


NEXT = {Step.INITIATIVE: Step.MOVEMENT, Step.MOVEMENT: Step.COMBAT, Step.COMBAT: Step.INITIATIVE}


class FieldState(StrEnum):
    """A field as one opposing side knows it (RULES-SPEC §1.6, F0-F3)."""

    UNKNOWN = "unknown"
    PARTIAL = "partial"  # BSG-R15: failed by one; the side holds PI (-1 on later rolls)
    LOCATED = "located"  # BSG-R17: always shown on that side's board from then on
    DROPPED = "dropped"  # BSG-R28-R30: gone; every unit that was in it identified


@dataclass(frozen=True)
class Board:
    sides: tuple[str, ...] = ()
    ready: frozenset[str] = frozenset()
    turn: int = 0  # from 1 once both sides are ready
    step: Step = Step.INITIATIVE
    done: frozenset[str] = frozenset()  # sides that have finished the current phase
    # BSG-A06: the ships each side declared to scan actively this turn.
    scanners: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # side -> field piece -> what that side knows (BSG-R19: each field separately).
    fields: Mapping[str, Mapping[str, FieldState]] = field(default_factory=dict)
    # side -> the fields it holds partial information on (BSG-R15, R16: permanent).
    pi: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # side -> each piece of partial information as it was given, in order (BSG-R15: a scan's
    # arc and base number; R16: a ship seen coming out of hiding). What the side is shown of
    # it: never which field a piece concerns, which the side is not told.
    hints: Mapping[str, tuple[Mapping[str, Any], ...]] = field(default_factory=dict)
    # Sides that asked to end the game before it began: it ends once every side has, since
    # ending publishes the record, and with it every side's secret set-up (issue 10).
    ending: frozenset[str] = frozenset()

    def knows(self, side: str, field_id: str) -> FieldState:
        return self.fields.get(side, {}).get(field_id, FieldState.UNKNOWN)

    def has_pi(self, side: str, field_id: str) -> bool:
        return field_id in self.pi.get(side, frozenset())


# An ambush-fields game's state, and the ruling its rules write with, typed by its scenario
# and this board.
State = GameState[AmbushFieldsScenario, Board]
Rules = Ruling[AmbushFieldsScenario, Board]


# --- the changes to the board, as the record names them -----------------------------------


@dataclass(frozen=True)
class Sides(Change):
    """The sides at the table, in the scenario's order (the game's first event)."""

    name: ClassVar[str] = "sides"
    sides: Sequence[str]


@dataclass(frozen=True)
class SideReady(Change):
    """A side has set up (BSG-R05)."""

    name: ClassVar[str] = "ready"
    side: str


@dataclass(frozen=True)
class EndAsked(Change):
    """A side asked to end the game before it began (it ends once every side has)."""

    name: ClassVar[str] = "ending"
    side: str


@dataclass(frozen=True)
class Start(Change):
    """Both sides are ready: turn 1's Initiative Phase begins."""

    name: ClassVar[str] = "start"


@dataclass(frozen=True)
class Done(Change):
    """A side is done with the current phase; the last one done ends it."""

    name: ClassVar[str] = "done"
    side: str


@dataclass(frozen=True)
class ScanDeclared(Change):
    """The ships a side declared to scan actively this turn (BSG-A06), by piece id."""

    name: ClassVar[str] = "scan"
    side: str
    ships: Sequence[str]


@dataclass(frozen=True)
class FieldKnown(Change):
    """What a side now knows of an enemy field (BSG-R15, R17, R28-R30)."""

    name: ClassVar[str] = "field"
    side: str
    field: str
    state: FieldState

    def __post_init__(self) -> None:
        # Read back from the record, the state is its value: made the kind again.
        object.__setattr__(self, "state", FieldState(self.state))

    def recorded(self) -> BoardChange:
        # The record has always held the state's value, a plain string.
        data = {"side": self.side, "field": self.field, "state": self.state.value}
        return BoardChange(self.name, data)


@dataclass(frozen=True)
class HoldsPI(Change):
    """A side holds partial information on an enemy field (BSG-R15, R16: permanent)."""

    name: ClassVar[str] = "pi"
    side: str
    field: str


@dataclass(frozen=True)
class Hint(Change):
    """A piece of partial information as a side was shown it (its turn, what it was)."""

    name: ClassVar[str] = "hint"
    side: str
    hint: Mapping[str, Any]


BOARD_CHANGES: tuple[type[Change], ...] = (
    Sides,
    SideReady,
    EndAsked,
    Start,
    Done,
    ScanDeclared,
    FieldKnown,
    HoldsPI,
    Hint,
)


def fold(board: Board, change: Change) -> Board:
    match change:
        case Sides(sides=sides):
            return replace(board, sides=tuple(sides))
        case SideReady(side=side):
            return replace(board, ready=board.ready | {side})
        case EndAsked(side=side):
            return replace(board, ending=board.ending | {side})
        case Start():
            return replace(board, turn=1, step=Step.INITIATIVE, done=frozenset())
        case Done(side=side):
            return _done(board, side)
        case ScanDeclared(side=side, ships=ships):
            return replace(board, scanners={**board.scanners, side: frozenset(ships)})
        case FieldKnown(side=side, field=field_id, state=state):
            known = {**board.fields.get(side, {}), field_id: state}
            return replace(board, fields={**board.fields, side: known})
        case HoldsPI(side=side, field=field_id):
            held = board.pi.get(side, frozenset()) | {field_id}
            return replace(board, pi={**board.pi, side: held})
        case Hint(side=side, hint=hint):
            given = (*board.hints.get(side, ()), dict(hint))
            return replace(board, hints={**board.hints, side: given})
    raise ValueError(f"ambush-fields has no board change {change.name!r}")


def _done(board: Board, side: str) -> Board:
    finished = board.done | {side}
    if board.sides and not set(board.sides) <= finished:
        return replace(board, done=finished)
    following = NEXT[board.step]
    if following is Step.INITIATIVE:
        # A new turn: every ship may scan again (BSG-A05: one roll per ship, field and
        # turn) once its side declares it again.
        return replace(board, turn=board.turn + 1, step=following, done=frozenset(), scanners={})
    return replace(board, step=following, done=frozenset())
