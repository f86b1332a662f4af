"""A sniper's own actions: covert moves between its markers (SW-R36) and hiding again (SW-R37)."""

from __future__ import annotations

from ghillie import lookup
from ghillie.dice.check import Check
from ghillie.dice.steps import Die
from ghillie.errors import Refusal
from ghillie.ruling import Ruling
from ghillie.state import SPECTATOR, Piece

from . import setup
from .activation import NOT_HIDDEN, acting_unit, betrayal, is_hidden_sniper, spend
from .board import SNIPER_MARKER, Board, Status
from .checks import CovertMove as CovertMoveResult
from .checks import covert_move
from .commands import CovertMove, Rehide
from .reveal import sniper_markers
from .scenario import SuspiciousPlacesScenario as Scenario
from .scenario import UnitKind


def plan_covert(
    ruling: Ruling[Board], scenario: Scenario, side: str, command: CovertMove
) -> tuple[Piece, list[Piece], Piece | None, Check[CovertMoveResult]]:
    """The sniper, its markers, where it would go, and the check it rolls (or a Refusal)."""
    unit = acting_unit(ruling, side, None)
    if not is_hidden_sniper(unit):
        raise Refusal(NOT_HIDDEN, "Only a hidden sniper moves between its markers.")
    markers = sniper_markers(ruling, unit.id)
    to = None
    if command.to is not None:
        to = lookup.own(ruling.state, side, command.to, [SNIPER_MARKER])
        if to not in markers:
            raise Refusal("bad_marker", "That is not one of this sniper's markers.")
    leadership = unit.public["leadership"]
    against = Die.parse(leadership) if isinstance(leadership, str) else int(leadership)
    check = covert_move(
        Die.parse(unit.public["quality"]), against, scenario.switches.leadership_die
    )
    return unit, markers, to, check


def covert(ruling: Ruling[Board], scenario: Scenario, side: str, command: CovertMove) -> None:
    """SW-R36: roll the quality die higher than the sniper's own leadership (SW-A11) to slip
    to another marker; the opponent never learns whether it moved (bluff)."""
    unit, markers, to, check = plan_covert(ruling, scenario, side, command)
    if scenario.switches.covert_move_costs_action:
        spend(ruling)  # SW-A12
    values, outcome = check.roll(lambda label, die: ruling.roll(label, die))
    moved = False
    if outcome.value == "success" and to is not None and not to.secret["true"]:
        current = next(m for m in markers if m.secret["true"])
        ruling.update(current.id, secret={"true": False})
        ruling.update(to.id, secret={"true": True})
        moved = True
    rolled = ", ".join(map(str, values.values()))
    text = f"{unit.public['name']} tests a covert move: rolled {rolled}."
    public = {"event": "covert_move", "unit": unit.id, "dice": dict(values), "text": text}
    result = {"success": "success", "failure": "failure", "betrayed": "betrayed"}[outcome.value]
    where_now = f" Now under {to.public['label']}." if moved and to else " Stays put."
    ruling.tell(
        side,
        {
            **public,
            "result": result,
            "moved": moved,
            "to": to.id if to else None,
            "text": text + where_now,
        },
    )
    for other in ruling.state.others(side):
        ruling.tell(other, public)
    ruling.tell(SPECTATOR, public)
    if outcome.value == "betrayed":
        betrayal(ruling, unit)


def rehide(ruling: Ruling[Board], scenario: Scenario, side: str, command: Rehide) -> None:
    """SW-R37: a revealed sniper that passed its reaction test at threat +2 hides again: the
    true marker where it stands, two false ones within 6" (SW-R37 DEFAULT)."""
    unit = acting_unit(ruling, side, None)
    if unit.public["unit_kind"] != UnitKind.SNIPER or unit.public["status"] != Status.ON_TABLE:
        raise Refusal(NOT_HIDDEN, "Only a sniper on the table hides again.")
    here = unit.public.get("at") or (0.0, 0.0)
    spots = None
    if command.markers is not None:
        spots = ((float(here[0]), float(here[1])), *command.markers)
    points = setup.check_sniper_spots(scenario, spots)
    spend(ruling)
    if not command.passed_reaction_test:
        ruling.tell_public(
            {
                "event": "rehide",
                "unit": unit.id,
                "text": f"{unit.public['name']} fails to hide again.",
            }
        )
        return
    setup.lay_sniper_markers(ruling, unit, points, 0, command.note)
