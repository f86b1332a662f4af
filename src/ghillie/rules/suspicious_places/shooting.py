"""Fire at a marker (SW-R15..R17, A08) or at a unit on the table (general rules; lone
figures SW-R21; snipers SW-R30..R32, R34)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ghillie import lookup
from ghillie.dice.check import Check
from ghillie.dice.steps import Die
from ghillie.errors import Refusal
from ghillie.measure.tabletop import Cover
from ghillie.measuring import Measure
from ghillie.state import Facts, Piece
from ghillie.words import Say, say

from .activation import (
    ATTACHED,
    KNOWN_MINEFIELD,
    NO_CHANGE,
    NO_LINE_OF_SIGHT,
    NOT_ON_TABLE,
    Roll,
    acting_unit,
    betrayal,
    is_hidden_sniper,
    marker_cover,
    measure_for,
    roll_die,
    spend,
    tell_roll,
    unhide_to_act,
)
from .board import MARKER, SNIPER_MARKER, UNIT, Face, Rules, Status
from .bookkeeping import SUPPRESSION_CAP
from .checks import Shot, fire_die, fire_zone_length, shot
from .commands import Fire
from .reveal import expose, false_sniper_marker
from .scenario import PartialFire, RangeDie, SniperHit, UnitKind
from .story import die as die_words
from .story import name, range_die, then


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
    weapon: Die
    distance: float
    cover: Cover
    lone: bool


def plan(ruling: Rules, side: str, command: Fire) -> Planned:
    """Everything about a shot that is settled before the dice (or a Refusal)."""
    scenario = ruling.scenario
    unit = acting_unit(ruling, side, command.unit)
    target = lookup.enemy(ruling.state, side, command.target, [MARKER, SNIPER_MARKER, UNIT])
    if target.kind == UNIT:
        if target.public["status"] != Status.ON_TABLE:
            raise Refusal(NOT_ON_TABLE, "That unit is not on the table.")
        if target.public["attached_to"]:
            raise Refusal(ATTACHED, "Fire at the squad the figure is with.")
    elif target.public.get("face") == Face.MINEFIELD:
        raise Refusal(KNOWN_MINEFIELD, "That marker is a known minefield.")
    # Both are one of the game's dice: the command's by its model, the unit's by the scenario's.
    weapon = Die.parse(command.weapon or unit.public["weapon"])
    measure = measure_for(ruling, side, command.measured)
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
    return Planned(
        unit, target, measure, target_die, check, sniper, concealed, weapon, distance, cover, lone
    )


def fire(ruling: Rules, side: str, command: Fire) -> None:
    """Fire at a marker (SW-R15..R17, A08) or at a unit (general rules; SW-R21, R30..R32)."""
    scenario = ruling.scenario
    planned = plan(ruling, side, command)
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
        lambda label, die: roll_die(ruling, side, target, label, die, secret)
    )

    content = target.secret.get("content", "nothing")  # what its owner knows is there
    if target.kind == UNIT:
        found = _hit_unit(ruling, unit, target, outcome, sniper)
        owner_result = None
    else:
        found = _hit_marker(ruling, target, outcome, sniper)
        owner_result = _owner_result(ruling, target, content, outcome.hits, found)
    public: dict[str, Any] = {
        "event": "fire",
        "unit": unit.id,
        "target": target.id,
        "dice": {"quality": values["quality"], "weapon": values["weapon"]},
        **found,
    }
    die: dict[str, Any] = {"range_die": str(target_die)}
    if not secret or (concealed and target.kind == UNIT):
        die["target_roll"] = values["target"]
    rolled = _rolled(planned, values)
    if unhidden:
        text = unhidden["text"]
        assert isinstance(text, Say)
        rolled = then(text, rolled)
    result = found["text"]
    assert isinstance(result, Say)
    said = Roll(
        rolled=rolled,
        result=result,
        explained=range_die(
            planned.distance,
            fire_zone_length(
                Die.parse(unit.public["quality"]), sniper=sniper, rule=scenario.switches.fire_zone
            ),
            planned.cover,
            lone=planned.lone,
            sniper=sniper,
            boundary=scenario.switches.zone_boundary,
            overflow=scenario.switches.overflow,
            rules=(
                "SW-R15",
                "SW-A17",
                *(("SW-R30",) if sniper else ()),
                *(("SW-R21",) if planned.lone else ()),
            ),
        ),
        owner_result=owner_result,
    )
    extra = {"target_roll": values["target"], "higher": outcome.hits}
    tell_roll(ruling, side, target, public, die, said, measure, extra, concealed)
    if outcome.betrayed:
        betrayal(ruling, unit)


def _rolled(planned: Planned, values: Mapping[str, int]) -> Say:
    """Who fires at what, and the shooter's two dice (SW-R15, the general rules)."""
    target = planned.target
    args: dict[str, Any] = {
        "unit": name(planned.unit),
        "quality": values["quality"],
        "quality_die": die_words(planned.unit.public["quality"]),
        "roll": values["weapon"],
        "weapon_die": die_words(planned.weapon),
    }
    if target.kind == MARKER:
        return say(
            "{unit} fires at marker {label}: rolled {quality} (quality {quality_die}) and "
            "{roll} (weapon {weapon_die}).",
            rules=("SW-R15",),
            label=target.public["label"],
            **args,
        )
    if target.kind == SNIPER_MARKER:
        return say(
            "{unit} fires at sniper marker {label}: rolled {quality} (quality {quality_die}) "
            "and {roll} (weapon {weapon_die}).",
            rules=("SW-R15",),
            label=target.public["label"],
            **args,
        )
    return say(
        "{unit} fires at {target}: rolled {quality} (quality {quality_die}) and {roll} "
        "(weapon {weapon_die}).",
        target=name(target),
        **args,
    )


def _owner_result(ruling: Rules, target: Piece, content: str, hits: int, found: Facts) -> Say:
    """For the marker's owner: why the shot came out as it did (SW-R16, R17, A08, A10)."""
    result = found["result"]
    if result == "revealed":
        text = found["text"]
        assert isinstance(text, Say)
        return text
    if result == "marker_stays":
        if target.kind == SNIPER_MARKER and not target.secret["true"]:
            return say(
                "Both dice are higher, but a false sniper marker never reacts in this game.",
                rules=("SW-A10",),
            )
        if target.kind == SNIPER_MARKER:
            return say("Both dice are higher, but a sniper marker is not removed.", rules=RULE_17)
        if content == "mine":
            return say(
                "Both dice are higher, but a marker over mines is not removed.", rules=RULE_17
            )
        return say(
            "Both dice are higher, but a marker over an improvised explosive device is not "
            "removed.",
            rules=RULE_17,
        )
    if hits == 0:
        return say("Neither die is higher: no effect.")
    unit = ruling.state.pieces.get(str(target.secret.get("unit", "")))
    hidden = unit.secret.get("hidden_suppression", 0) if unit is not None else 0
    if content == "unit" and unit is not None and hidden:
        return say(
            "One die is higher: {unit} under it takes a suppression marker the enemy does not "
            "see ({n} hidden in all).",
            rules=("SW-A08",),
            unit=name(unit),
            n=hidden,
        )
    return say("One die is higher: no visible effect on a marker.", rules=("SW-A08",))


RULE_17 = ("SW-R17",)


def _hit_marker(ruling: Rules, target: Piece, outcome: Shot, sniper: bool) -> Facts:
    scenario = ruling.scenario
    # SW-R31: a sniper's fire gives two suppression markers for one, at most 3 in all.
    suppression = 2 if sniper else 1
    if outcome.hits == 2:
        if target.kind == SNIPER_MARKER:
            if target.secret["true"] or not scenario.switches.sniper_false_marker_removable:
                # SW-R17; SW-A10 option: a false marker never reacts, so it looks the same.
                return {"result": "marker_stays", "text": STAYS}
            found = false_sniper_marker(ruling, target)
            return {"result": "revealed", **found, "text": then(FULL, found["text"])}
        content = target.secret.get("content", "nothing")
        if content in ("mine", "ied"):
            # SW-R17: a marker over mines or an IED is not removed.
            return {"result": "marker_stays", "text": STAYS}
        # SW-R16: the enemy under it is placed with one suppression marker (SW-A08: no losses).
        found = expose(
            ruling,
            target,
            rules=("SW-R16",),
            suppression=suppression if content == "unit" else 0,
            cap=SUPPRESSION_CAP if sniper else None,
        )
        return {"result": "revealed", **found, "text": then(FULL, found["text"])}
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
    return {"result": NO_CHANGE, "text": say("No visible effect.", rules=("SW-A08",))}


FULL = say("A full success.", rules=("SW-R16",))
STAYS = say("A full success, but the marker stays.", rules=("SW-R17",))


def _hit_unit(ruling: Rules, shooter: Piece, target: Piece, outcome: Shot, sniper: bool) -> Facts:
    scenario = ruling.scenario
    hits = outcome.hits
    if not sniper:
        if hits == 0:
            return {"result": "miss", "text": MISS}
        if hits == 1:
            return {
                "result": "partial",
                "text": say("One die higher: apply the host rules' suppression."),
            }
        return {"result": "full", "text": say("Both dice higher: apply the host rules' hits.")}
    if hits == 0:
        return {"result": "miss", "text": MISS}
    if hits == 1:
        # SW-R32: one hit, allocated at random within the target group — and SW-R20: lone
        # figures attached to it are in the group, so they can be hit like anyone else.
        models = target.public["models"]
        attached = _attached(ruling, target)
        group = models + len(attached)
        model = ruling.roll("hit", Die(group)) if group > 1 else 1
        doubled = scenario.switches.sniper_hit is SniperHit.DOUBLED
        hit: dict[str, Any] = {"result": "partial", "hit_model": model}
        if model > models:
            figure = attached[model - models - 1]
            return {**hit, "hit_unit": figure.id, "text": _sniper_hit(name(figure), doubled)}
        return {**hit, "text": _sniper_hit(None, doubled, model)}
    return {
        "result": "full",
        "text": say(
            "Both dice higher: one hit, on a model {side} chooses.",
            rules=("SW-R32",),
            side=scenario.side_name(shooter.owner),
        ),
    }


MISS = say("A miss.")


def _sniper_hit(figure: str | Say | None, doubled: bool, model: int = 0) -> Say:
    """SW-R32: one die higher, one hit at random in the group; SW-R31, A16: with the host
    rules' suppression, doubled."""
    if figure is not None and doubled:
        return say(
            "One die higher: one hit, drawn at random, on {figure} with the group; the host "
            "rules' suppression comes doubled, at most 3.",
            rules=("SW-R32", "SW-R20", "SW-R31", "SW-A16"),
            figure=figure,
        )
    if figure is not None:
        return say(
            "One die higher: one hit, drawn at random, on {figure} with the group.",
            rules=("SW-R32", "SW-R20"),
            figure=figure,
        )
    if doubled:
        return say(
            "One die higher: one hit, drawn at random, on model {model} of the group; the host "
            "rules' suppression comes doubled, at most 3.",
            rules=("SW-R32", "SW-R31", "SW-A16"),
            model=model,
        )
    return say(
        "One die higher: one hit, drawn at random, on model {model} of the group.",
        rules=("SW-R32",),
        model=model,
    )


def _attached(ruling: Rules, squad: Piece) -> list[Piece]:
    """Lone figures with the squad (SW-R19), in a fixed order: after the squad's models."""
    return [
        p
        for p in ruling.state.pieces.values()
        if p.kind == UNIT and p.public.get("attached_to") == squad.id
    ]
