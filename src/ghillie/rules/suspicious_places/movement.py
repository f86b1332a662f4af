"""Moving a unit, and the markers a move exposes (SW-R07, R08)."""

from __future__ import annotations

from ghillie import lookup
from ghillie.errors import OFF_TABLE, Refusal
from ghillie.scenario import Mode
from ghillie.state import Facts
from ghillie.words import say

from .activation import (
    ATTACHED,
    BAD_MOVE,
    HIDDEN,
    acting_unit,
    is_hidden_sniper,
    spend,
    unhide_to_act,
)
from .board import MARKER, SNIPER_MARKER, Rules
from .commands import Move
from .reveal import expose_markers, exposed_at_table, exposed_on_map
from .words import name


def move(ruling: Rules, side: str, command: Move) -> None:
    """A move; then SW-R07 (an enemy marker in the open now in sight) and SW-R08 (a marker
    now inside the squad) remove markers and place what they hid."""
    scenario = ruling.scenario
    unit = acting_unit(ruling, side, command.unit)
    if is_hidden_sniper(unit):
        raise Refusal(HIDDEN, "A hidden sniper moves only by a covert move.")
    if unit.public["attached_to"]:
        raise Refusal(ATTACHED, "An attached figure moves with its squad.")
    lines: list[Facts] = []
    if scenario.mode is Mode.MAP:
        if command.to is None or command.exposes:
            raise Refusal(
                BAD_MOVE, "On a map, give the unit's new centre; ghillie finds what it exposes."
            )
        if not scenario.tabletop.on_table(command.to):
            raise Refusal(OFF_TABLE, "The unit must stay on the table.")
    else:
        if command.to is not None:
            raise Refusal(
                BAD_MOVE, "At a table, move the models there and name the markers it exposed."
            )
        exposed = exposed_at_table(
            unit,
            [
                lookup.enemy(ruling.state, side, ref, [MARKER, SNIPER_MARKER])
                for ref in command.exposes
            ],
        )
    spend(ruling)
    unhidden = unhide_to_act(ruling, unit)
    if unhidden:
        lines.append(unhidden)
    if scenario.mode is Mode.MAP:
        assert command.to is not None
        ruling.update(unit.id, public={"at": list(command.to)})
        exposed = exposed_on_map(ruling.state, ruling.piece(unit.id))
    ruling.tell_public(
        {"event": "move", "unit": unit.id, "text": say("{unit} moves.", unit=name(unit))}
    )
    lines += expose_markers(ruling, exposed)
    for line in lines:
        ruling.tell_public(
            {
                "event": "exposed",
                **line,
                **({"asserted_by": side} if scenario.mode is Mode.TABLE else {}),
            }
        )
