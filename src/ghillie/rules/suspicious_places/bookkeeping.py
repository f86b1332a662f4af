"""Results of the host rules that the hidden-unit rules build on, entered by the players:
suppression (doubled for snipers, SW-R31), lone figures' morale and panic (SW-R22), lone
figures joining and leaving squads (SW-R19), and the end of the game."""

from __future__ import annotations

from ghillie import lookup
from ghillie.errors import OFF_TABLE, Refusal
from ghillie.measure.tabletop import XY, group_covers
from ghillie.scenario import Mode
from ghillie.state import Phase, Piece
from ghillie.words import Say, say, says

from .activation import NOT_ON_TABLE
from .board import UNIT, Rules, Status, model_points
from .commands import EndGame, Join, Leave, Morale, MoraleResult, RemovePanic, Suppress
from .reveal import expose_markers, exposed_on_map
from .scenario import SuspiciousPlacesScenario as Scenario
from .scenario import UnitKind
from .words import name

SUPPRESSION_CAP = 3  # SW-R31: "не больше 3"
NOT_LONE = "not_lone"
NOT_PANICKED = "not_panicked"
BAD_SQUAD = "bad_squad"
NOT_ATTACHED = "not_attached"
TOO_FAR = "too_far"


def suppress(ruling: Rules, side: str, command: Suppress) -> None:
    unit = lookup.visible(ruling.state, side, command.unit, [UNIT])
    if unit.public["status"] != Status.ON_TABLE:
        raise Refusal(NOT_ON_TABLE, "That unit is not on the table.")
    before = unit.public["suppression"]
    if command.by_sniper:
        # SW-R31: two markers for each one, and never more than 3 in all.
        after = max(before, min(SUPPRESSION_CAP, before + 2 * command.markers))
    else:
        after = before + command.markers
    ruling.update(unit.id, public={"suppression": after})
    text = (
        says(
            "{unit} now has {n} suppression marker: a sniper's fire gives two for one, at most 3.",
            "{unit} now has {n} suppression markers: a sniper's fire gives two for one, at most 3.",
            after,
            rules=("SW-R31",),
            unit=name(unit),
        )
        if command.by_sniper
        else says(
            "{unit} now has {n} suppression marker.",
            "{unit} now has {n} suppression markers.",
            after,
            unit=name(unit),
        )
    )
    ruling.tell_public(
        {"event": "suppression", "unit": unit.id, "suppression": after, "text": text}
    )


def _lone(ruling: Rules, side: str, ref: str) -> tuple[str, str | Say]:
    unit = lookup.own(ruling.state, side, ref, [UNIT])
    if unit.public["unit_kind"] != UnitKind.LONE:
        raise Refusal(NOT_LONE, "That is not a lone figure.")
    if unit.public["status"] != Status.ON_TABLE:
        raise Refusal(NOT_ON_TABLE, "That figure is not on the table.")
    return unit.id, name(unit)


def morale(ruling: Rules, side: str, command: Morale) -> None:
    """SW-R22: a failed test gives a suppression marker instead of a morale step; with two
    already, or a two-step failure, a panic marker instead."""
    unit_id, figure = _lone(ruling, side, command.unit)
    unit = ruling.piece(unit_id)
    rules = ("SW-R22",)
    if command.result is MoraleResult.PASSED:
        text = say("{unit} passes the morale test.", rules=rules, unit=figure)
    elif command.result is MoraleResult.FAILED_TWO_STEPS:
        ruling.update(unit_id, public={"panic": True})
        text = say(
            "{unit} fails the morale test by two steps and panics: a panic marker.",
            rules=rules,
            unit=figure,
        )
    elif unit.public["suppression"] >= 2:
        ruling.update(unit_id, public={"panic": True})
        text = say(
            "{unit} fails the morale test and panics: with two suppression markers already, "
            "a panic marker.",
            rules=rules,
            unit=figure,
        )
    else:
        ruling.update(unit_id, public={"suppression": unit.public["suppression"] + 1})
        text = say(
            "{unit} fails the morale test: a suppression marker instead of a step of morale.",
            rules=rules,
            unit=figure,
        )
    ruling.tell_public(
        {"event": "morale", "unit": unit_id, "result": command.result.value, "text": text}
    )


def remove_panic(ruling: Rules, side: str, command: RemovePanic) -> None:
    unit_id, figure = _lone(ruling, side, command.unit)
    if not ruling.piece(unit_id).public["panic"]:
        raise Refusal(NOT_PANICKED, "That figure is not panicking.")
    if command.passed:
        ruling.update(unit_id, public={"panic": False})
        text = say("{unit} rallies: the panic marker is removed.", rules=("SW-R22",), unit=figure)
    else:
        # SW-R22: "он бежал или сдался" — he fled or surrendered.
        ruling.update(
            unit_id, public={"status": Status.OFF_TABLE.value, "at": None, "attached_to": None}
        )
        text = say(
            "{unit} fails to remove the panic and leaves the table: fled or surrendered.",
            rules=("SW-R22",),
            unit=figure,
        )
    ruling.tell_public(
        {"event": "remove_panic", "unit": unit_id, "passed": command.passed, "text": text}
    )


def _beside(scenario: Scenario, squad: Piece, point: XY) -> bool:
    """Map mode: does ``point`` lie with the squad — inside its formation, or no further from
    one of its men than they stand from each other?"""
    spacing = next(u.spacing for u in scenario.units if u.key == squad.public["key"])
    return group_covers(model_points(squad), spacing, point)


def join(ruling: Rules, side: str, command: Join) -> None:
    scenario = ruling.scenario
    unit_id, figure = _lone(ruling, side, command.unit)
    squad = lookup.own(ruling.state, side, command.squad, [UNIT])
    if (
        squad.public["unit_kind"] not in (UnitKind.SQUAD, UnitKind.VEHICLE)
        or squad.public["status"] != Status.ON_TABLE
    ):
        raise Refusal(BAD_SQUAD, "A lone figure joins a squad on the table.")
    if scenario.mode is Mode.MAP:
        # SW-R19: joining is free, walking to the squad is not: a figure joins a squad it
        # stands with (on a map ghillie checks; at a table the players do).
        at = ruling.piece(unit_id).public.get("at")
        if at is None or not _beside(scenario, squad, tuple(at)):
            raise Refusal(TOO_FAR, "A lone figure joins a squad it stands with; move there first.")
    ruling.update(unit_id, public={"attached_to": squad.id, "at": None})
    text = (
        say(
            "{unit} joins {squad}: an officer, he gives it his leadership and may pass it his "
            "actions.",
            rules=("SW-R19",),
            unit=figure,
            squad=name(squad),
        )
        if ruling.piece(unit_id).public["officer"]
        else say("{unit} joins {squad}.", rules=("SW-R19",), unit=figure, squad=name(squad))
    )
    ruling.tell_public({"event": "join", "unit": unit_id, "squad": squad.id, "text": text})


def leave(ruling: Rules, side: str, command: Leave) -> None:
    scenario = ruling.scenario
    unit_id, figure = _lone(ruling, side, command.unit)
    unit = ruling.piece(unit_id)
    squad_id = unit.public["attached_to"]
    if not squad_id:
        raise Refusal(NOT_ATTACHED, "That figure is not with a squad.")
    at = None
    if scenario.mode is Mode.MAP:
        squad = ruling.piece(squad_id)
        at = list(command.at) if command.at is not None else squad.public["at"]
        if not scenario.tabletop.on_table(tuple(at)):
            raise Refusal(OFF_TABLE, "The figure must stay on the table.")
        if not _beside(scenario, squad, tuple(at)):
            # Leaving is free; going further is a move (one action).
            raise Refusal(TOO_FAR, "A figure leaves its squad where the squad stands.")
    ruling.update(unit_id, public={"attached_to": None, "at": at})
    squad_name = name(ruling.piece(squad_id))
    ruling.tell_public(
        {
            "event": "leave",
            "unit": unit_id,
            "text": say("{unit} leaves {squad}.", rules=("SW-R19",), unit=figure, squad=squad_name),
        }
    )
    if scenario.mode is Mode.MAP:
        # SW-R07/R08: standing on its own, the figure may see a marker in the open.
        alone = ruling.piece(unit_id)
        found = expose_markers(ruling, exposed_on_map(ruling.state, alone))
        for line in found:
            ruling.tell_public({"event": "exposed", **line})


def end_game(ruling: Rules, side: str, command: EndGame) -> None:
    scenario = ruling.scenario
    ruling.set_phase(Phase.OVER)
    ruling.tell_public(
        {"event": "game_over", "text": say("{side} ends the game.", side=scenario.side_name(side))}
    )
