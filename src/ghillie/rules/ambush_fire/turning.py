"""The ``turn`` order (BMF-R02, R04, A18, A20): a side turns its units, their turrets or
both — at set-up for free, in its movement at the rules' costs (``facing`` says which)."""

from __future__ import annotations

from typing import Any

from ghillie import lookup
from ghillie.errors import Refusal
from ghillie.forms import Ask, Order
from ghillie.state import Phase, Piece
from ghillie.words import N_, Say, say

from . import units
from .board import UNIT, Did, Rules
from .commands import Turn
from .facing import hull, number, way, weapon
from .setup import NO_TURRET
from .words import _own

NOTHING_TO_TURN = "nothing_to_turn"
TURNED_TWICE = "turned_twice"


def turn(ruling: Rules, side: str, command: Turn) -> None:
    """The ``turn`` order: each unit's hull, turret or both, in one event. A concealed
    unit's turning is told to its owner only; a unit in view turns in everyone's sight."""
    setting_up = ruling.state.phase is Phase.SETUP
    done: set[str] = set()
    for i, entry in enumerate(command.units):
        try:
            unit = lookup.own(ruling.state, side, entry.unit, [UNIT])
        except Refusal as refused:
            refused.field = f"units.{i}.unit"
            raise
        if unit.id in done:
            raise Refusal(TURNED_TWICE, "Name each unit once in an order.", field=f"units.{i}.unit")
        if entry.facing is None and entry.turret is None:
            raise Refusal(
                NOTHING_TO_TURN,
                "Give the way it faces, its turret's, or both.",
                field=f"units.{i}.facing",
            )
        if entry.turret is not None and not unit.public.get("turret"):
            raise Refusal(NO_TURRET, "That unit has no turret.", field=f"units.{i}.turret")
        done.add(unit.id)
        public: dict[str, Any] = {}  # its new facing, wherever it is kept
        if entry.facing is not None:
            public["facing"] = number(entry.facing)
            if unit.public.get("turret") and entry.turret is None:
                # The turret turns with the hull, keeping its bearing on it.
                carried = weapon(unit) + entry.facing - hull(unit)
                public["turret_facing"] = number(carried)
        if entry.turret is not None:
            public["turret_facing"] = number(entry.turret)
        if unit.public.get("concealed"):
            ruling.update(unit.id, secret=public)  # as secret as the unit (``facing``)
        else:
            ruling.update(unit.id, public=public)
        if not setting_up:
            turned = ruling.piece(unit.id)
            if entry.facing is not None and number(entry.facing) != number(hull(unit)):
                units.note(ruling, turned, Did.FACED)
            if entry.turret is not None and number(entry.turret) != number(weapon(unit)):
                units.note(ruling, ruling.piece(unit.id), Did.TURNED)
        line = {"text": _told(ruling.piece(unit.id), entry.facing, entry.turret)}
        if unit.public.get("concealed"):
            ruling.tell(side, line)
        else:
            ruling.tell_public(line)


def _told(unit: Piece, facing: float | None, turret: float | None) -> Say:
    name = unit.public["name"]
    if facing is not None and turret is not None:
        return say(
            "{unit} now faces {way}, its turret {turret}.",
            unit=name,
            way=way(facing),
            turret=way(turret),
            rules=("BMF-A18",),
        )
    if facing is not None:
        return say("{unit} now faces {way}.", unit=name, way=way(facing), rules=("BMF-A18",))
    assert turret is not None
    return say(
        "{unit} turns its turret {way}.", unit=name, way=way(turret), rules=("BMF-R02", "BMF-A18")
    )


DEGREES_HELP = N_(
    "Degrees clockwise from the table's top edge: 0 toward the top, 90 toward the right, 180 "
    "toward the bottom, 270 toward the left."
)

ORDER = Order(
    N_("Turn units or turrets"),
    N_(
        "The way each unit faces: free while setting up; in your movement, turning a unit is "
        "moving it, and turning a turret spoils Challenge Fire this turn and next. A "
        "concealed unit's facing is as secret as the unit."
    ),
    fields={
        "units": Ask(N_("Units"), item=N_("unit")),
        "units.unit": Ask(N_("Unit"), pieces=_own),
        "units.facing": Ask(N_("Faces"), DEGREES_HELP, unit=N_("degrees")),
        "units.turret": Ask(
            N_("Turret faces"),
            N_("Only for a unit with a turret; leave empty to keep it."),
            unit=N_("degrees"),
        ),
    },
    rules=("BMF-R02", "BMF-R04", "BMF-A18", "BMF-A20"),
)
