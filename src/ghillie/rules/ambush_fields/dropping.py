"""A field dropped for good: by its controller in the Initiative Phase (BSG-R29), or with
its controlling ship at segment 10 (R28, combat.py). Either way every ship that was in it is
identified (R30), and every other side knows the field is gone."""

from __future__ import annotations

from ghillie.errors import NOT_NOW, Refusal
from ghillie.state import SPECTATOR, Piece
from ghillie.words import Say, say

from .board import FieldKnown, FieldState, Rules
from .commands import DropField
from .fields import field_lost
from .movement import apply, units
from .pieces import fields as field_geometry
from .pieces import own_field
from .story import Sighted, dropped, field_name, sight, tell_sighted


def drop_field(ruling: Rules, side: str, command: DropField) -> None:
    """BSG-R29, R30: dropped for good; every unit that was in it identified and placed."""
    field = own_field(ruling.state, side, command.field)
    if not field.secret["active"]:
        raise Refusal(NOT_NOW, "That field was dropped already.")
    shapes = field_geometry(ruling.state)
    shape = next(f for f in shapes if f.key == field.id)
    remaining = [f for f in shapes if f.key != field.id]
    # A field whose controller is off the board covers no hex of it: nothing is revealed.
    reveals = field_lost(shape, units(ruling.state), remaining) if shape.active else []
    state = ruling.state
    # Each side names the field as it knew it before it went.
    known = {s: dropped(state, s, field, "dropped") for s in state.others(side)}
    mine = field_name(state, side, field)
    before = sight(state)
    ruling.update(field.id, secret={"active": False})
    apply(ruling, reveals)
    dropped_for_good(
        ruling,
        field,
        before,
        told=say(
            "You drop {field}: it can never be raised again, and every ship that was in it "
            "is identified.",
            field=mine,
            rules=("BSG-R29", "BSG-R30"),
        ),
        heard=known,
        spectators=say(
            "{side} drop an ambush field.", side=state.scenario.side_name(side), rules=("BSG-R29",)
        ),
    )


def dropped_for_good(
    ruling: Rules,
    field: Piece,
    before: Sighted,
    *,
    told: Say,
    heard: dict[str, Say],
    spectators: Say,
) -> None:
    """After ``field`` has dropped: every other side knows it is gone; its owner is told
    ``told``, each other side what it ``heard`` (named as it knew the field before), the
    spectators only ``spectators``; and all are told what has newly appeared since
    ``before``."""
    for other in ruling.state.others(field.owner):
        ruling.change(FieldKnown(other, field.id, FieldState.DROPPED))
    ruling.tell(field.owner, {"event": "field_dropped", "field": field.id, "text": told})
    for other, text in heard.items():
        ruling.tell(other, {"event": "field_dropped", "text": text})
    ruling.tell(SPECTATOR, {"event": "field_dropped", "text": spectators})
    tell_sighted(ruling, before, rules=("BSG-R30",))
