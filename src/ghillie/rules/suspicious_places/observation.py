"""Observation (SW-R10..R14, A06, A07, A10, R35a).

The rule that matters most here is RULES-SPEC §6: an observation with one die higher on a
mine, an IED or a sniper's true marker, and any observation with no die higher, must read
exactly the same to the observer — the observer's line is built only from what it already
knows (its own dice, the marker, the range die's size) and the result word, which is
"no_change" in all those cases.
"""

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
    KNOWN_MINEFIELD,
    NO_CHANGE,
    NO_LINE_OF_SIGHT,
    NO_SUCH_MEANS,
    acting_unit,
    betrayal,
    is_hidden_sniper,
    marker_cover,
    measure_for,
    spend,
    tell_roll,
)
from .board import MARKER, SNIPER_MARKER, Board, Face
from .checks import Observation, observation, observation_die
from .commands import Observe
from .reveal import expose, flip, reveal_sniper
from .scenario import MEANS, FullOnMine, RangeDie
from .scenario import SuspiciousPlacesScenario as Scenario


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


def plan(ruling: Ruling[Board], scenario: Scenario, side: str, command: Observe) -> Planned:
    """Everything about an observation that is settled before the dice (or a Refusal)."""
    unit = acting_unit(ruling, side, command.unit)
    target = lookup.enemy(ruling.state, side, command.marker, [MARKER, SNIPER_MARKER])
    if target.public.get("face") == Face.MINEFIELD:
        raise Refusal(KNOWN_MINEFIELD, "That marker is a known minefield.")
    means_name: str = command.means or max(unit.public["means"], key=lambda m: MEANS[m].faces)
    if means_name not in unit.public["means"]:
        raise Refusal(NO_SUCH_MEANS, "That unit has no such means of observation.")
    measure = measure_for(ruling, scenario, side, command.measured)
    if scenario.switches.observe_needs_los and not measure.line_of_sight(unit, target):
        raise Refusal(NO_LINE_OF_SIGHT, "The observer cannot see that marker (SW-A06).")
    distance = measure.range(unit, target)
    target_die = observation_die(
        distance, marker_cover(scenario, measure, target), scenario.switches
    )
    # SW-R34: nothing the enemy receives may say where a hidden sniper is, and the range die
    # (so its size) depends on which of its markers is true.
    concealed = is_hidden_sniper(unit)
    quality = Die.parse(unit.public["quality"])
    check = observation(target_die, quality, MEANS[means_name], sniper=concealed)
    return Planned(unit, target, means_name, measure, target_die, check, concealed)


def observe(ruling: Ruling[Board], scenario: Scenario, side: str, command: Observe) -> None:
    """SW-R10..R14 (and SW-A06, A07, A10, R35a)."""
    planned = plan(ruling, scenario, side, command)
    unit, target, means_name, measure = planned.unit, planned.target, planned.means, planned.measure
    target_die, concealed = planned.target_die, planned.concealed
    spend(ruling)
    secret = concealed or scenario.switches.range_die is RangeDie.SECRET
    values, outcome = planned.check.roll(
        lambda label, die: ruling.roll(label, die, secret=secret and label == "target")
    )

    found = _observation_effect(ruling, scenario, target, outcome.higher)
    label = target.public["label"]
    result = NO_CHANGE if found is None else ("flipped" if found.get("flipped") else "revealed")
    words = {
        NO_CHANGE: "no change.",
        "flipped": "the marker is flipped: someone is certainly there!",
        "revealed": (found or {}).get("text", ""),
    }[result]
    rolled = f"rolled {values['quality']} and {values['means']}"
    public: dict[str, Any] = {
        "event": "observe",
        "unit": unit.id,
        "marker": target.id,
        "label": label,
        "means": means_name,
        "dice": {"quality": values["quality"], "means": values["means"]},
        "result": result,
        **(found or {}),
        "text": f"{unit.public['name']} observes {label}: {rolled} — {words}",
    }
    die: dict[str, Any] = {"range_die": str(target_die)}
    if not secret:
        die["target"] = values["target"]
    die_text = (
        f"{unit.public['name']} observes {label} (range die {target_die}): {rolled} — {words}"
    )
    extra = {"target": values["target"], "higher": outcome.higher}
    tell_roll(ruling, side, target, public, die, die_text, measure, extra, concealed)
    if outcome.betrayed:
        betrayal(ruling, unit)


def _observation_effect(
    ruling: Ruling[Board], scenario: Scenario, target: Piece, h: int
) -> Facts | None:
    """The SW-R14 table; None means "no change" (and looks the same whatever the cause)."""
    if target.kind == SNIPER_MARKER:
        if target.secret["true"]:
            return (
                reveal_sniper(ruling, ruling.piece(target.public["sniper"]), "is spotted")
                if h == 2
                else None
            )
        # SW-A10: a false sniper marker has nothing under it.
        if h >= 1 and scenario.switches.sniper_false_marker_removable:
            for other in ruling.state.others(target.owner):
                ruling.open(target.id, other, "true")
            ruling.remove(target.id)
            return {
                "revealed": "nothing",
                "text": f"{target.public['label']} removed: a false sniper marker.",
            }
        return None
    content = target.secret.get("content", "nothing")
    if content == "unit":
        if h == 1:
            flip(ruling, target)
            return {"flipped": True}
        return expose(ruling, target) if h == 2 else None
    if content in ("mine", "ied"):
        # SW-R14: h = 1 changes nothing; SW-A07: h = 2 reveals the minefield.
        reveal = h == 2 and scenario.switches.full_observation_on_mine is FullOnMine.REVEAL
        return expose(ruling, target) if reveal else None
    return expose(ruling, target) if h >= 1 else None
