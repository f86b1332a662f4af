"""Observation (SW-R10..R14, A06, A07, A10, R35a).

The rule that matters most here is RULES-SPEC §6: an observation with one die higher on a
mine, an IED or a sniper's true marker, and any observation with no die higher, must read
exactly the same to the observer — the observer's line is built only from what it already
knows (its own dice, the marker, the range die's size) and the result word, which is
"no_change" in all those cases.
"""

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
from ghillie.words import N_, Say, say

from . import words
from .activation import (
    KNOWN_MINEFIELD,
    NO_CHANGE,
    NO_LINE_OF_SIGHT,
    NO_SUCH_MEANS,
    Roll,
    acting_unit,
    betrayal,
    is_hidden_sniper,
    marker_cover,
    measure_for,
    roll_die,
    spend,
    tell_roll,
)
from .board import MARKER, SNIPER_MARKER, Face, Rules
from .checks import OBSERVATION_ZONE, Observation, observation, observation_die
from .commands import Observe
from .reveal import Found, expose, false_sniper_marker, flip, reveal_sniper
from .scenario import MEANS, FullOnMine, RangeDie
from .story import die as die_words
from .story import name, range_die, then


@dataclass(frozen=True)
class Planned:
    """An observation as the rules will roll it: the odds shown and the roll made both come
    from ``check``."""

    unit: Piece
    target: Piece
    means: str
    measure: Measure
    target_die: Die
    check: Check[Observation]
    concealed: bool  # a hidden sniper observes: SW-R34
    distance: float
    cover: Cover


def plan(ruling: Rules, side: str, command: Observe) -> Planned:
    """Everything about an observation that is settled before the dice (or a Refusal)."""
    scenario = ruling.scenario
    unit = acting_unit(ruling, side, command.unit)
    target = lookup.enemy(ruling.state, side, command.marker, [MARKER, SNIPER_MARKER])
    if target.public.get("face") == Face.MINEFIELD:
        raise Refusal(KNOWN_MINEFIELD, "That marker is a known minefield.")
    means_name: str = command.means or max(unit.public["means"], key=lambda m: MEANS[m].faces)
    if means_name not in unit.public["means"]:
        raise Refusal(NO_SUCH_MEANS, "That unit has no such means of observation.")
    measure = measure_for(ruling, side, command.measured)
    if scenario.switches.observe_needs_los and not measure.line_of_sight(unit, target):
        raise Refusal(NO_LINE_OF_SIGHT, "The observer cannot see that marker.")
    distance = measure.range(unit, target)
    cover = marker_cover(scenario, measure, target)
    target_die = observation_die(distance, cover, scenario.switches)
    # SW-R34: nothing the enemy receives may say where a hidden sniper is, and the range die
    # (so its size) depends on which of its markers is true.
    concealed = is_hidden_sniper(unit)
    quality = Die.parse(unit.public["quality"])
    check = observation(target_die, quality, MEANS[means_name], sniper=concealed)
    return Planned(unit, target, means_name, measure, target_die, check, concealed, distance, cover)


# The means as the sentence says them, and as the dice are named (SW-R13).
WITH = {
    "eyes": N_("with the naked eye"),
    "binoculars": N_("through binoculars"),
    "stereo": N_("through a stereo telescope"),
    "electronic": N_("with electronic means"),
}
MEANS_DIE = dict(words.MEANS)


def observe(ruling: Rules, side: str, command: Observe) -> None:
    """SW-R10..R14 (and SW-A06, A07, A10, R35a)."""
    scenario = ruling.scenario
    planned = plan(ruling, side, command)
    unit, target, means_name, measure = planned.unit, planned.target, planned.means, planned.measure
    target_die, concealed = planned.target_die, planned.concealed
    spend(ruling)
    secret = concealed or scenario.switches.range_die is RangeDie.SECRET
    values, outcome = planned.check.roll(
        lambda label, die: roll_die(ruling, side, target, label, die, secret)
    )
    content = target.secret.get("content", "nothing")  # what its owner knows is there

    found = _observation_effect(ruling, target, outcome.higher)
    label = target.public["label"]
    result = NO_CHANGE if found is None else ("flipped" if found.get("flipped") else "revealed")
    public: dict[str, Any] = {
        "event": "observe",
        "unit": unit.id,
        "marker": target.id,
        "label": label,
        "means": means_name,
        "dice": {"quality": values["quality"], "means": values["means"]},
        "result": result,
        **(found or {}),
    }
    die: dict[str, Any] = {"range_die": str(target_die)}
    if not secret:
        die["target"] = values["target"]
    said = Roll(
        rolled=_rolled(planned, values),
        result=_result(result, found),
        explained=range_die(
            planned.distance,
            OBSERVATION_ZONE,
            planned.cover,
            boundary=scenario.switches.zone_boundary,
            overflow=scenario.switches.overflow,
            rules=("SW-R11", "SW-A03"),
        ),
        owner_result=_owner_result(target, content, outcome.higher, result, found),
    )
    extra = {"target": values["target"], "higher": outcome.higher}
    tell_roll(ruling, side, target, public, die, said, measure, extra, concealed)
    if outcome.betrayed:
        betrayal(ruling, unit)


def _rolled(planned: Planned, values: Mapping[str, int]) -> Say:
    """Who observes which marker, with what, and the observer's two dice (SW-R13)."""
    args: dict[str, Any] = {
        "unit": name(planned.unit),
        "label": planned.target.public["label"],
        "means": say(WITH[planned.means]),
        "quality": values["quality"],
        "quality_die": die_words(planned.unit.public["quality"]),
        "roll": values["means"],
        "means_name": say(MEANS_DIE[planned.means]),
        "means_die": die_words(MEANS[planned.means]),
    }
    if planned.target.kind == SNIPER_MARKER:
        return say(
            "{unit} observes sniper marker {label} {means}: rolled {quality} (quality "
            "{quality_die}) and {roll} ({means_name} {means_die}).",
            rules=("SW-R10", "SW-R13"),
            **args,
        )
    return say(
        "{unit} observes marker {label} {means}: rolled {quality} (quality {quality_die}) and "
        "{roll} ({means_name} {means_die}).",
        rules=("SW-R10", "SW-R13"),
        **args,
    )


def _result(result: str, found: Facts | None) -> Say:
    """What every side reads of the outcome: no change, flipped, or what was found (SW-R14).
    "No change" reads the same whatever the cause (RULES-SPEC §6.2)."""
    if result == NO_CHANGE:
        return say("No change: the marker stays as it was.", rules=("SW-R14",))
    if result == "flipped":
        return say(
            "The marker is flipped: someone is certainly there, people or vehicles, but what "
            "is unclear.",
            rules=("SW-R14",),
        )
    assert found is not None
    text = found["text"]
    assert isinstance(text, Say)
    return text


def _owner_result(target: Piece, content: str, h: int, result: str, found: Facts | None) -> Say:
    """For the marker's owner: why the observation came out as it did, and what the enemy
    learned of the marker."""
    if result == "flipped":
        return say(
            "One die is higher: your marker is flipped. The enemy knows someone is there, but "
            "not what.",
            rules=("SW-R14",),
        )
    if result != NO_CHANGE:
        return then(say(HIGHER[h], rules=("SW-R14",)), _result(result, found))
    if h == 0:
        return say("Neither die is higher: the enemy sees no change.", rules=("SW-R14",))
    if target.kind == SNIPER_MARKER and not target.secret["true"]:
        return say(
            "A false sniper marker never reacts in this game: the enemy sees no change.",
            rules=("SW-A10",),
        )
    if h == 2:  # mines or an IED under sw.full_observation_on_mine = no_change
        return say(
            "Both dice are higher, but in this game mines and IEDs show no change: the enemy "
            "sees no change.",
            rules=("SW-A07",),
        )
    if target.kind == SNIPER_MARKER:
        return say(
            "One die is higher, but a sniper does not show at that: the enemy sees no change.",
            rules=("SW-R14", "SW-A10"),
        )
    if content == "mine":
        return say(
            "One die is higher, but mines do not show at that: the enemy sees no change.",
            rules=("SW-R14",),
        )
    return say(
        "One die is higher, but an improvised explosive device does not show at that: the "
        "enemy sees no change.",
        rules=("SW-R14",),
    )


HIGHER = {1: N_("One die is higher."), 2: N_("Both dice are higher.")}


def _observation_effect(ruling: Rules, target: Piece, h: int) -> Facts | None:
    """The SW-R14 table; None means "no change" (and looks the same whatever the cause)."""
    scenario = ruling.scenario
    if target.kind == SNIPER_MARKER:
        if target.secret["true"]:
            return (
                reveal_sniper(ruling, ruling.piece(target.public["sniper"]), Found.SPOTTED)
                if h == 2
                else None
            )
        # SW-A10: a false sniper marker has nothing under it.
        if h >= 1 and scenario.switches.sniper_false_marker_removable:
            return false_sniper_marker(ruling, target)
        return None
    content = target.secret.get("content", "nothing")
    if content == "unit":
        if h == 1:
            flip(ruling, target)
            return {"flipped": True}
        return expose(ruling, target, rules=OBSERVED) if h == 2 else None
    if content in ("mine", "ied"):
        # SW-R14: h = 1 changes nothing; SW-A07: h = 2 reveals the minefield.
        reveal = h == 2 and scenario.switches.full_observation_on_mine is FullOnMine.REVEAL
        return expose(ruling, target, rules=OBSERVED) if reveal else None
    return expose(ruling, target, rules=OBSERVED) if h >= 1 else None


OBSERVED = ("SW-R09", "SW-R14")
