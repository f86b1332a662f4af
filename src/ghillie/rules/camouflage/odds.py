"""``ghillie odds camouflage discover``: the exact odds of a Discover roll, and the same
check for the Discover a side is declaring in a game (the page shows it as the order is
given). Both build the very check the rules roll (checks.py)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, Field

from ghillie.dice.check import Check
from ghillie.ruleset import OddsQuery, Params

from . import checks, declare
from .board import MARKER, Game
from .commands import FirstSkill, SecondSkill
from .scenario import CamouflageSwitches
from .skills import SkillName


def _a_mimetism(value: int) -> int:
    if value not in checks.MIMETISM_LEVELS:
        raise ValueError("Mimetism is 0, -3 or -6 (INF-R04)")
    return value


class DiscoverParams(Params):
    wip: int = Field(ge=1, le=20, description="the discovering trooper's WIP")
    range: float = Field(ge=0, le=96, description="inches from the trooper to the marker")
    mimetism: Annotated[int, AfterValidator(_a_mimetism)] = Field(
        0, description="the marker's Mimetism: 0, -3 or -6"
    )
    msv: int = Field(0, ge=0, le=3, description="the trooper's Multispectral Visor level")
    cover: bool = Field(False, description="the marker is in cover")
    sensor: bool = Field(
        False, description="a Sensor roll: WIP+6, no Range or Mimetism MOD (range not read)"
    )


def discover_check(
    wip: int,
    range_: float,
    mimetism: int,
    msv: int,
    cover: bool,
    sw: CamouflageSwitches,
    sensor: bool = False,
) -> Check[str]:
    value, _mods = checks.discover_value(
        wip,
        range_,
        mimetism,
        msv,
        cover,
        sw.discover_applies_cover,
        sw.band_edge,
        sensor,
        mod_cap=sw.mod_cap or None,
    )
    return checks.normal_roll(value)


def _query_check(p: DiscoverParams, sw: CamouflageSwitches) -> Check[str]:
    return discover_check(p.wip, p.range, p.mimetism, p.msv, p.cover, sw, p.sensor)


def _title(p: DiscoverParams, check: Check[Any]) -> str:
    (value,) = check.args
    if p.sensor:
        return f"Sensor by a WIP {p.wip} trooper: d20 {value} or less"
    marker = f"a Mimetism ({p.mimetism}) marker" if p.mimetism else "a marker"
    where = " in cover" if p.cover else ""
    visor = f", Multispectral Visor L{p.msv}" if p.msv else ""
    return (
        f'Discover by a WIP {p.wip} trooper{visor}, {marker}{where} {p.range:g}" away: '
        f"d20 {value} or less"
    )


ODDS = {
    "discover": OddsQuery(
        "discover",
        "A Discover roll (INF-R10, INF-A01): a Normal WIP Roll with the Discover MODs.",
        DiscoverParams,
        _query_check,
        {"success": "Discovered", "failure": "failed"},
        title=_title,
        rules="INF-R10, INF-A01, INF-A08, INF-A11",
    )
}


def odds(state: Game, side: str, command: Any) -> Check[Any] | None:
    """The Discover check of a skill being declared, from what ``side`` knows: its own
    trooper's WIP and visor, the marker's public Mimetism, and the range and cover measured
    as the skill would measure them (the same refusals if they cannot be)."""
    if not isinstance(command, FirstSkill | SecondSkill):
        return None
    declared = command.skill
    if declared.skill not in (SkillName.DISCOVER, SkillName.SENSOR):
        return None
    from .orders import measured_at

    scenario = state.scenario
    order = state.board.order
    if isinstance(command, FirstSkill):
        trooper = declare.actor(state, side, command.piece, "piece")
        source = declare.shown(state, trooper).public.get("at")
    else:
        # Only the active side declares a second skill: its own trooper's profile.
        if order is None or state.piece(order.piece).owner != side:
            return None
        trooper = state.piece(order.piece)
        source = order.first.get("to") or order.first.get("from")
    if declared.skill is SkillName.SENSOR:
        p = trooper.public
        return discover_check(p["wip"], 0, 0, 0, False, scenario.switches, sensor=True)
    marker = declare.target(state, side, declared, "skill")
    if marker is None or marker.kind != MARKER:
        return None
    found = measured_at(scenario, side, declared, source, marker)
    p = trooper.public
    return discover_check(
        p["wip"],
        found["range"],
        marker.public["mimetism"],
        p["msv"],
        found["cover"],
        scenario.switches,
    )
