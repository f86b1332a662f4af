"""The odds of suspicious-places: ``ghillie odds`` queries built from the very checks the
rules roll (checks.py), and the odds a side's page shows of an order it is giving, planned
exactly as the roll would be."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, ConfigDict, Field, model_validator

from ghillie.dice.check import Check
from ghillie.dice.source import RandomDice
from ghillie.dice.steps import Die, StepDie, not_a_die
from ghillie.ids import RandomIds
from ghillie.measure.tabletop import Cover
from ghillie.ruleset import Command, OddsQuery, Params, param_error
from ghillie.ruling import Ruling
from ghillie.words import N_

from . import checks, observation, shooting, sniper
from .board import State
from .commands import CovertMove, Fire, Observe
from .scenario import MEANS, Leadership, SuspiciousPlacesSwitches

# --- odds queries: the same checks the rules roll ----------------------------------------------

# SW-R13: what a player may give as the observation means: its name, or its die.
MeansText = Literal["eyes", "binoculars", "stereo", "electronic", "d4", "d6", "d8", "d10"]
MEANS_WORDS = {str(die): name for name, die in MEANS.items()}
MEANS_NAMES = {"d4": "eyes", "d6": "binoculars", "d8": "a stereo telescope", "d10": "electronic"}


def _means_die(value: Any) -> str:
    """An observation means as its die: ``eyes`` or ``d4`` → ``d4``; a means the game does
    not have (``d12``, ``radar``) is refused with those it has."""
    if isinstance(value, str):
        text = value.strip().lower().replace("к", "d")
        if text in MEANS:
            return str(MEANS[text])
        if text in MEANS_WORDS:
            return text
    raise not_a_die(
        value,
        tuple(f"{name} ({die})" for name, die in MEANS.items()),
        what="an observation means",
    )


Means = Annotated[MeansText, BeforeValidator(_means_die)]
# Defaults are words too ("eyes"): validate them, so that a query left at its default holds
# the die as one given does.
CHECKED_DEFAULTS = ConfigDict(extra="forbid", frozen=True, validate_default=True)


class ObserveParams(Params):
    model_config = CHECKED_DEFAULTS

    range: float = Field(ge=0, le=1000, description="inches from the observer to the marker")
    cover: Cover = Field(Cover.NONE, description="cover the marker lies in: none, soft or hard")
    quality: StepDie = Field("d8", description="the observing squad's quality die (regular = d8)")
    means: Means = Field("eyes", description="eyes, binoculars, stereo, electronic (or its die)")
    lone: bool = Field(False, description="the target is a lone figure (SW-A09)")
    sniper: bool = Field(False, description="the observer is a hidden sniper (a 1 betrays it)")


class FireParams(Params):
    model_config = CHECKED_DEFAULTS

    range: float = Field(ge=0, le=1000, description="inches from the shooter to the target")
    cover: Cover = Field(Cover.NONE, description="cover the target lies in: none, soft or hard")
    quality: StepDie = Field("d8", description="the shooter's quality die")
    weapon: StepDie = Field("d6", description="the weapon die")
    lone: bool = Field(False, description="the target is a lone figure outside a squad (+1 step)")
    sniper: bool = Field(False, description="the shooter is a sniper (double zones)")
    hidden: bool = Field(False, description="the sniper shoots from hiding (a 1 betrays it)")

    @model_validator(mode="after")
    def _only_a_sniper_hides(self) -> FireParams:
        if self.hidden and not self.sniper:
            raise param_error(
                self,
                "hidden",
                "only_a_sniper",
                "only a sniper shoots from hiding (SW-R33): give --sniper as well",
            )
        return self


class CovertMoveParams(Params):
    model_config = CHECKED_DEFAULTS

    quality: StepDie = Field("d8", description="the sniper's quality die")
    leadership: Leadership = Field(
        description="the sniper's own leadership: a number from 1 to 12, or a die d4 to d12"
    )


class MarkersParams(Params):
    units: int = Field(1, ge=1, le=6, description="camouflaged units (d6 markers each)")


def _observe_check(p: ObserveParams, sw: SuspiciousPlacesSwitches) -> Check[Any]:
    target = checks.observation_die(p.range, p.cover, sw, lone=p.lone)
    return checks.observation(target, Die.parse(p.quality), Die.parse(p.means), sniper=p.sniper)


def _fire_check(p: FireParams, sw: SuspiciousPlacesSwitches) -> Check[Any]:
    quality = Die.parse(p.quality)
    target = checks.fire_die(p.range, p.cover, quality, sw, sniper=p.sniper, lone=p.lone)
    return checks.shot(target, quality, Die.parse(p.weapon), sniper=p.sniper and p.hidden)


def _covert_check(p: CovertMoveParams, sw: SuspiciousPlacesSwitches) -> Check[Any]:
    leadership = Die.parse(p.leadership) if isinstance(p.leadership, str) else p.leadership
    return checks.covert_move(Die.parse(p.quality), leadership, sw.leadership_die)


def _markers_check(p: MarkersParams, sw: SuspiciousPlacesSwitches) -> Check[Any]:
    return checks.marker_count(p.units, Die.parse(sw.markers_per_unit))


# --- what each query's odds are of, in players' words ----------------------------------------


def _where(distance: float, cover: Cover) -> str:
    lies = {Cover.NONE: "in the open", Cover.SOFT: "in soft cover", Cover.HARD: "in hard cover"}
    return f'{distance:g}" away {lies[cover]}'


def _dice(check: Check[Any]) -> dict[str, str]:
    return {label: str(die) for label, die in check.dice}


def _observe_title(p: ObserveParams, check: Check[Any]) -> str:
    dice = _dice(check)
    who = "A hidden sniper observing" if p.sniper else "Observing"
    what = "a lone figure" if p.lone else "a marker"
    return (
        f"{who} {what} {_where(p.range, p.cover)}: its range die {dice['target']} against "
        f"quality {dice['quality']} and {MEANS_NAMES[dice['means']]} {dice['means']}"
    )


def _fire_title(p: FireParams, check: Check[Any]) -> str:
    dice = _dice(check)
    who = "A hidden sniper's shot" if p.hidden else "A sniper's shot" if p.sniper else "A shot"
    what = "a lone figure" if p.lone else "a target"
    return (
        f"{who} at {what} {_where(p.range, p.cover)}: its range die {dice['target']} against "
        f"quality {dice['quality']} and weapon {dice['weapon']}"
    )


def _covert_title(p: CovertMoveParams, check: Check[Any]) -> str:
    dice = _dice(check)
    if "leadership" in dice:
        against = f"its leadership die {dice['leadership']}"
    elif isinstance(p.leadership, str):
        against = f"its leadership {p.leadership}, counted as {check.args[0]}"
    else:
        against = f"its leadership {p.leadership}"
    return f"A sniper's covert move: quality {dice['quality']} to roll higher than {against}"


def _markers_title(p: MarkersParams, check: Check[Any]) -> str:
    die = str(check.dice[0][1])
    if p.units == 1:
        return f"Suspicious-place markers for one camouflaged unit: {die}"
    return f"Suspicious-place markers for {p.units} camouflaged units: {die} each, pooled"


def _markers(n: int) -> str:
    return "1 marker" if n == 1 else f"{n} markers"


# Every total the marker dice can show: up to six units of the largest die a scenario may set.
MARKER_LABELS = {str(n): _markers(n) for n in range(1, 6 * 12 + 1)}

ODDS = {
    q.name: q
    for q in (
        OddsQuery(
            "observe",
            "An observation test (SW-R10..R14): the marker's range die against quality + means.",
            ObserveParams,
            _observe_check,
            {
                "nothing": N_("nothing (no change)"),
                "flipped": N_("flipped (one die higher)"),
                "revealed": N_("revealed (both dice higher)"),
                "betrayed_nothing": N_("sniper betrayed, nothing seen"),
                "betrayed_flipped": N_("sniper betrayed, one die higher"),
            },
            title=_observe_title,
            rules="SW-R10..R14, SW-R35",
        ),
        OddsQuery(
            "fire",
            "A shot (SW-R15, R21, R30, R32): the target's range die against quality + weapon.",
            FireParams,
            _fire_check,
            {
                "miss": N_("miss (no die higher)"),
                "partial": N_("partial (one die higher)"),
                "full": N_("full success (both dice higher)"),
                "betrayed_miss": N_("sniper betrayed, miss"),
                "betrayed_partial": N_("sniper betrayed, one die higher"),
            },
            title=_fire_title,
            rules="SW-R15, SW-R21, SW-R30, SW-R32, SW-R35, SW-A17",
        ),
        OddsQuery(
            "covert-move",
            "A sniper's covert move (SW-R36): quality die higher than its own leadership.",
            CovertMoveParams,
            _covert_check,
            {
                "success": N_("success"),
                "failure": N_("failure"),
                "betrayed": N_("betrayed (rolled 1)"),
            },
            title=_covert_title,
            rules="SW-R36, SW-R35, SW-A11",
        ),
        OddsQuery(
            "markers",
            "Suspicious-place markers for camouflaged units (SW-R02): d6 each, pooled.",
            MarkersParams,
            _markers_check,
            MARKER_LABELS,
            title=_markers_title,
            rules="SW-R02, SW-A04",
        ),
    )
}


def odds(state: State, side: str, command: Command) -> Check[Any] | None:
    """The check ``command`` would roll if ``side`` gave it now (Ruleset.odds)."""
    if state.board.activation is None or side != state.board.active:
        return None
    # The same planning as the roll itself, on a ruling that is never finished.
    ruling = Ruling(state, side, RandomDice(), RandomIds())
    match command:
        case Observe():
            return observation.plan(ruling, side, command).check
        case Fire():
            return shooting.plan(ruling, side, command).check
        case CovertMove():
            return sniper.plan_covert(ruling, side, command)[3]
    return None
