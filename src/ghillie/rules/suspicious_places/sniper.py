"""A sniper's own actions: covert moves between its markers (SW-R36) and hiding again (SW-R37)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghillie import lookup
from ghillie.dice.check import Check
from ghillie.dice.steps import Die
from ghillie.errors import Refusal
from ghillie.state import SPECTATOR, Piece
from ghillie.words import Say, say

from . import setup
from .activation import NOT_A_SNIPER, NOT_HIDDEN, acting_unit, betrayal, is_hidden_sniper, spend
from .board import SNIPER_MARKER, Rules, Status
from .checks import CovertMove as CovertMoveResult
from .checks import covert_move
from .commands import CovertMove, Rehide
from .reveal import sniper_markers
from .scenario import SuspiciousPlacesScenario as Scenario
from .scenario import UnitKind
from .story import die as die_words
from .story import name, then


def only_a_sniper(unit: Piece) -> None:
    """SW-R05, R36, R37: covert moves and hiding again are a real sniper's alone; a squad's
    (camouflaged or not, its owner knows which it is) is refused in the same words."""
    if unit.public["unit_kind"] != UnitKind.SNIPER:
        raise Refusal(NOT_A_SNIPER, "Only a sniper makes a covert move or hides again.")


def plan_covert(
    ruling: Rules, side: str, command: CovertMove
) -> tuple[Piece, list[Piece], Piece | None, Check[CovertMoveResult]]:
    """The sniper, its markers, where it would go, and the check it rolls (or a Refusal)."""
    unit = acting_unit(ruling, side, None)
    only_a_sniper(unit)
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
        Die.parse(unit.public["quality"]), against, ruling.scenario.switches.leadership_die
    )
    return unit, markers, to, check


def covert(ruling: Rules, side: str, command: CovertMove) -> None:
    """SW-R36: roll the quality die higher than the sniper's own leadership (SW-A11) to slip
    to another marker; the opponent never learns whether it moved (bluff)."""
    scenario = ruling.scenario
    unit, markers, to, check = plan_covert(ruling, side, command)
    if scenario.switches.covert_move_costs_action:
        spend(ruling)  # SW-A12
    values, outcome = check.roll(lambda label, die: ruling.roll(label, die, of=side, typed=label))
    was = next(m for m in markers if m.secret["true"])
    moved = False
    if outcome.value == "success" and to is not None and to.id != was.id:
        ruling.update(was.id, secret={"true": False})
        ruling.update(to.id, secret={"true": True})
        moved = True
    public: dict[str, Any] = {
        "event": "covert_move",
        "unit": unit.id,
        "dice": dict(values),
        "text": _tested(unit, values),
    }
    result = {"success": "success", "failure": "failure", "betrayed": "betrayed"}[outcome.value]
    ruling.tell(
        side,
        {
            **public,
            "result": result,
            "moved": moved,
            "to": to.id if to else None,
            "text": then(public["text"], _own_outcome(outcome, moved, to, was)),
        },
    )
    told = public
    if outcome is not CovertMoveResult.BETRAYED:
        # The dice are open and the leadership is on the roster: success or failure is
        # plain to see; where he went is not (SW-R36: "запутать противника").
        told = {**public, "text": then(public["text"], _seen_outcome(outcome, side, scenario))}
    for other in ruling.state.others(side):
        ruling.tell(other, told)
    ruling.tell(SPECTATOR, told)
    if outcome.value == "betrayed":
        betrayal(ruling, unit)


COVERT = ("SW-R36", "SW-A11", "SW-A12")


def _tested(unit: Piece, values: Mapping[str, int]) -> Say:
    """The sniper's covert-move test as everyone sees it: his quality die against his own
    leadership (SW-R36, SW-A11)."""
    leadership = unit.public["leadership"]
    args: dict[str, Any] = {
        "sniper": name(unit),
        "quality": values["quality"],
        "quality_die": die_words(unit.public["quality"]),
    }
    if "leadership" in values:
        return say(
            "{sniper} tests a covert move: rolled {quality} (quality {quality_die}) against "
            "{leadership} (leadership {leadership_die}).",
            rules=COVERT,
            leadership=values["leadership"],
            leadership_die=die_words(str(leadership)),
            **args,
        )
    against = Die.parse(leadership).highest if isinstance(leadership, str) else int(leadership)
    return say(
        "{sniper} tests a covert move: rolled {quality} (quality {quality_die}) against his "
        "leadership of {leadership}.",
        rules=COVERT,
        leadership=against,
        **args,
    )


def _seen_outcome(outcome: CovertMoveResult, side: str, scenario: Scenario) -> Say:
    if outcome is CovertMoveResult.SUCCESS:
        return say(
            "Success, but only {side} knows whether he moved.",
            rules=("SW-R36",),
            side=scenario.side_name(side),
        )
    return say("Failure: he stays where he was.", rules=("SW-R36",))


def _own_outcome(
    outcome: CovertMoveResult, moved: bool, to: Piece | None, was: Piece
) -> Say | None:
    """What the sniper's own side reads: where he is now."""
    if outcome is CovertMoveResult.BETRAYED:
        return None
    here = was.public["label"]
    if outcome is CovertMoveResult.FAILURE:
        return say("Failure: he stays under sniper marker {label}.", label=here)
    if moved and to is not None:
        return say("Success: he slips to sniper marker {label}.", label=to.public["label"])
    if to is None:
        return say("Success, and he stays under sniper marker {label} to bluff.", label=here)
    return say("Success; he is already under sniper marker {label} and stays.", label=here)


def rehide(ruling: Rules, side: str, command: Rehide) -> None:
    """SW-R37: a revealed sniper that passed its reaction test at threat +2 hides again: the
    true marker where it stands, two false ones within 6" (SW-R37 DEFAULT)."""
    scenario = ruling.scenario
    unit = acting_unit(ruling, side, None)
    only_a_sniper(unit)
    if unit.public["status"] != Status.ON_TABLE:
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
                "text": say(
                    "{sniper} fails his reaction test at threat +2 and cannot hide again.",
                    rules=("SW-R37",),
                    sniper=name(unit),
                ),
            }
        )
        return
    setup.lay_sniper_markers(ruling, unit, points, 0, command.note, again=True)
