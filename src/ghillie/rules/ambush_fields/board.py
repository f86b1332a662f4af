"""The ambush-fields board: the turn skeleton and what each side knows of each field.

The turn skeleton is the text's own (RULES-SPEC §1.1): an Initiative Phase (a controller may
drop its field, BSG-R29), a Movement Phase (movement is plotted; at its end containment is
checked, BSG-R06, and the detection rolls of segment 7 are made, BSG-R12), and a Combat
Phase (fire, EW and scout abilities; at its end, segment 10, damage is applied and a
destroyed controller's field drops, BSG-R28). Both sides act in every phase; a phase ends
when both have said they are done. The segments the text does not list are the host
game's, so only the two it names are events here.

>>> board = Board(sides=("cylons", "colonials"))
>>> for change in (start(), done("cylons"), done("colonials")):
...     board = fold(board, change)
>>> board.turn, board.step.value
(1, 'movement')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from ghillie.events import BoardChange


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


def start() -> BoardChange:
    return BoardChange("start")


def done(side: str) -> BoardChange:
    return BoardChange("done", {"side": side})


def fold(board: Board, change: BoardChange) -> Board:
    data = change.data
    match change.name:
        case "sides":
            return replace(board, sides=tuple(data["sides"]))
        case "ready":
            return replace(board, ready=board.ready | {data["side"]})
        case "ending":
            return replace(board, ending=board.ending | {data["side"]})
        case "start":
            return replace(board, turn=1, step=Step.INITIATIVE, done=frozenset())
        case "done":
            finished = board.done | {data["side"]}
            if board.sides and not set(board.sides) <= finished:
                return replace(board, done=finished)
            following = NEXT[board.step]
            if following is Step.INITIATIVE:
                # A new turn: every ship may scan again (BSG-A05: one roll per ship, field
                # and turn) once its side declares it again.
                return replace(
                    board, turn=board.turn + 1, step=following, done=frozenset(), scanners={}
                )
            return replace(board, step=following, done=frozenset())
        case "scan":
            return replace(
                board, scanners={**board.scanners, data["side"]: frozenset(data["ships"])}
            )
        case "field":
            side, field_id = data["side"], data["field"]
            known = {**board.fields.get(side, {}), field_id: FieldState(data["state"])}
            return replace(board, fields={**board.fields, side: known})
        case "pi":
            side = data["side"]
            held = board.pi.get(side, frozenset()) | {data["field"]}
            return replace(board, pi={**board.pi, side: held})
        case "hint":
            side = data["side"]
            given = (*board.hints.get(side, ()), dict(data["hint"]))
            return replace(board, hints={**board.hints, side: given})
    raise ValueError(f"ambush-fields has no board change {change.name!r}")
