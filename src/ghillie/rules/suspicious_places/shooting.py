"""Fire at a marker (SW-R15..R17, A08) or at a unit on the table (general rules; lone
figures SW-R21; snipers SW-R30..R32, R34)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ghillie import lookup
from ghillie.dice.check import Check
from ghillie.dice.steps import Die
from ghillie.errors import Refusal
from ghillie.measure import Measure
from ghillie.ruling import Ruling
from ghillie.state import Facts, Piece

from .activation import (
    ATTACHED,
    KNOWN_MINEFIELD,
    NO_CHANGE,
    NO_LINE_OF_SIGHT,
    NOT_ON_TABLE,
    acting_unit,
    betrayal,
    is_hidden_sniper,
    marker_cover,
    measure_for,
    spend,
    tell_roll,
    unhide_to_act,
)
from .board import MARKER, SNIPER_MARKER, UNIT, Board, Face, Status
from .bookkeeping import SUPPRESSION_CAP
from .checks import Shot, fire_die, shot
from .commands import Fire
from .reveal import expose
from .scenario import PartialFire, RangeDie, SniperHit, UnitKind
from .scenario import SuspiciousPlacesScenario as Scenario


@dataclass(frozen=True)
class Planned:
    """A shot as the rules will roll it: the odds shown and the roll made share ``check``."""

    unit: Piece
    target: Piece
    measure: Measure
    target_die: Die
    check: Check[Shot]
    sniper: bool
    concealed: bool  # a hidden sniper shoots: SW-R34


def plan(ruling: Ruling[Board], scenario: Scenario, side: str, command: Fire) -> Planned:
    """Everything about a shot that is settled before the dice (or a Refusal)."""
    unit = acting_unit(ruling, side, command.unit)
    target = lookup.enemy(ruling.state, side, command.target, [MARKER, SNIPER_MARKER, UNIT])
    if target.kind == UNIT:
        if target.public["status"] != Status.ON_TABLE:
            raise Refusal(NOT_ON_TABLE, "That unit is not on the table.")
        if target.public["attached_to"]:
            raise Refusal(ATTACHED, "Fire at the squad the figure is with (SW-R20).")
    elif target.public.get("face") == Face.MINEFIELD:
        raise Refusal(KNOWN_MINEFIELD, "That marker is a known minefield.")
    # Both are one of the game's dice: the command's by its model, the unit's by the scenario's.
    weapon = Die.parse(command.weapon or unit.public["weapon"])
    measure = measure_for(ruling, scenario, side, command.measured)
    if not measure.line_of_sight(unit, target):
        raise Refusal(NO_LINE_OF_SIGHT, "The shooter cannot see the target.")
    distance = measure.range(unit, target)
    cover = marker_cover(scenario, measure, target)
    sniper = unit.public["unit_kind"] == UnitKind.SNIPER
    lone = target.kind == UNIT and target.public["unit_kind"] == UnitKind.LONE
    quality = Die.parse(unit.public["quality"])
    target_die = fire_die(distance, cover, quality, scenario.switches, sniper=sniper, lone=lone)
    # SW-R34: a hidden sniper's range die depends on which marker is true, so the enemy
    # learns neither it nor the roll on it.
    concealed = is_hidden_sniper(unit)
    check = shot(target_die, quality, weapon, sniper=sniper and concealed)
    return Planned(unit, target, measure, target_die, check, sniper, concealed)


def fire(ruling: Ruling[Board], scenario: Scenario, side: str, command: Fire) -> None:
    """Fire at a marker (SW-R15..R17, A08) or at a unit (general rules; SW-R21, R30..R32)."""
    planned = plan(ruling, scenario, side, command)
    unit, target, measure, target_die = (
        planned.unit,
        planned.target,
        planned.measure,
        planned.target_die,
    )
    sniper, concealed = planned.sniper, planned.concealed
    spend(ruling)
    unhidden = unhide_to_act(ruling, unit)
    # A marker's range die is secret, as in observation (SW-A08 reads the same either way).
    secret = concealed or (target.kind != UNIT and scenario.switches.range_die is RangeDie.SECRET)
    values, outcome = planned.check.roll(
        lambda label, die: ruling.roll(label, die, secret=secret and label == "target")
    )

    if target.kind == UNIT:
        found = _hit_unit(ruling, scenario, unit, target, outcome, sniper)
    else:
        found = _hit_marker(ruling, scenario, target, outcome, sniper)
    name = target.public.get("label") or target.public["name"]
    rolled = f"rolled {values['quality']} and {values['weapon']} — {found['text']}"
    public: dict[str, Any] = {
        "event": "fire",
        "unit": unit.id,
        "target": target.id,
        "dice": {"quality": values["quality"], "weapon": values["weapon"]},
        **found,
        "text": f"{unit.public['name']} fires at {name}: {rolled}",
    }
    die: dict[str, Any] = {"range_die": str(target_die)}
    if not secret or (concealed and target.kind == UNIT):
        die["target_roll"] = values["target"]
    die_text = f"{unit.public['name']} fires at {name} (range die {target_die}): {rolled}"
    if unhidden:
        public["text"] = f"{unhidden['text']} {public['text']}"
        die_text = f"{unhidden['text']} {die_text}"
    extra = {"target_roll": values["target"], "higher": outcome.hits}
    tell_roll(ruling, side, target, public, die, die_text, measure, extra, concealed)
    if outcome.betrayed:
        betrayal(ruling, unit)


def _hit_marker(
    ruling: Ruling[Board], scenario: Scenario, target: Piece, outcome: Shot, sniper: bool
) -> Facts:
    # SW-R31: a sniper's fire gives two suppression markers for one, at most 3 in all.
    suppression = 2 if sniper else 1
    if outcome.hits == 2:
        if target.kind == SNIPER_MARKER:
            if target.secret["true"] or not scenario.switches.sniper_false_marker_removable:
                # SW-R17; SW-A10 option: a false marker never reacts, so it looks the same.
                return {
                    "result": "marker_stays",
                    "text": "full success, but the marker stays (SW-R17).",
                }
            for other in ruling.state.others(target.owner):
                ruling.open(target.id, other, "true")
            ruling.remove(target.id)
            return {
                "result": "revealed",
                "revealed": "nothing",
                "text": f"{target.public['label']} removed: a false sniper marker.",
            }
        content = target.secret.get("content", "nothing")
        if content in ("mine", "ied"):
            # SW-R17: a marker over mines or an IED is not removed.
            return {
                "result": "marker_stays",
                "text": "full success, but the marker stays (SW-R17).",
            }
        # SW-R16: the enemy under it is placed with one suppression marker (SW-A08: no losses).
        return {
            "result": "revealed",
            **expose(
                ruling,
                target,
                suppression=suppression if content == "unit" else 0,
                cap=SUPPRESSION_CAP if sniper else None,
            ),
        }
    if (
        outcome.hits == 1
        and target.kind == MARKER
        and target.secret.get("content") == "unit"
        and scenario.switches.partial_fire_on_marker is PartialFire.HIDDEN_SUPPRESSION
    ):
        unit = ruling.piece(target.secret["unit"])
        hidden = unit.secret.get("hidden_suppression", 0) + suppression
        if sniper:
            hidden = min(hidden, SUPPRESSION_CAP)
        ruling.update(unit.id, secret={"hidden_suppression": hidden})
    # SW-A08: one die higher (or none) has no visible effect on a marker.
    return {"result": NO_CHANGE, "text": "no visible effect."}


def _hit_unit(
    ruling: Ruling[Board],
    scenario: Scenario,
    shooter: Piece,
    target: Piece,
    outcome: Shot,
    sniper: bool,
) -> Facts:
    hits = outcome.hits
    if not sniper:
        words = {
            0: "a miss.",
            1: "one die higher: apply the host rules (suppression).",
            2: "both dice higher: apply the host rules' hits.",
        }
        return {"result": ("miss", "partial", "full")[hits], "text": words[hits]}
    if hits == 0:
        return {"result": "miss", "text": "a miss."}
    if hits == 1:
        # SW-R32: one hit, allocated at random within the target group — and SW-R20: lone
        # figures attached to it are in the group, so they can be hit like anyone else.
        models = target.public["models"]
        attached = _attached(ruling, target)
        group = models + len(attached)
        model = ruling.roll("hit", Die(group)) if group > 1 else 1
        doubled = (
            " plus the host rules' suppression, doubled (SW-R31, A16)"
            if scenario.switches.sniper_hit is SniperHit.DOUBLED
            else ""
        )
        hit: dict[str, Any] = {"result": "partial", "hit_model": model}
        if model > models:
            figure = attached[model - models - 1]
            return {
                **hit,
                "hit_unit": figure.id,
                "text": f"one hit, on {figure.public['name']} with the group{doubled}.",
            }
        return {**hit, "text": f"one hit, on model {model} of the group{doubled}."}
    return {
        "result": "full",
        "text": "both dice higher: one hit on a model the sniper's owner chooses (SW-R32).",
    }


def _attached(ruling: Ruling[Board], squad: Piece) -> list[Piece]:
    """Lone figures with the squad (SW-R19), in a fixed order: after the squad's models."""
    return [
        p
        for p in ruling.state.pieces.values()
        if p.kind == UNIT and p.public.get("attached_to") == squad.id
    ]
