"""Checking a declared skill or ARO against the rules, before anything happens."""

from __future__ import annotations

from typing import Any

from ghillie import lookup
from ghillie.errors import MEASURED_BY_MAP, Refusal
from ghillie.state import Piece

from . import zone
from .board import EQUIPMENT, MARKER, TROOPER, Game, State
from .codes import (
    CONTACT_WITH_MARKER,
    DISCOVER_LOCKED,
    EQUIPMENT_TAKES_NO_ORDERS,
    IN_SENSOR_ZONE,
    MARKER_NOT_DISCOVERED,
    NEEDS_TARGET,
    NO_CAMOUFLAGE,
    NO_SENSOR,
    NOT_A_MARKER,
    NOT_AN_ATTACK,
    NOT_IN_PLAY,
    SEEN_BY_ENEMY,
)
from .commands import Declared
from .scenario import CamouflageScenario, LockoutEnds
from .skills import SKILLS, SkillName
from .where import at


def actor(state: Game, side: str, ref: str, field: str) -> Piece:
    """The side's own trooper that acts, named by itself or by its marker: the trooper
    piece (its marker, if any, is its ``marker``)."""
    piece = lookup.own(state, side, ref, [TROOPER, EQUIPMENT, MARKER])
    if piece.kind == MARKER:
        piece = state.piece(piece.secret["hides"])
    if piece.kind == EQUIPMENT:
        raise Refusal(
            EQUIPMENT_TAKES_NO_ORDERS,
            "A weapon or piece of equipment takes no Orders.",
            field=field,
        )
    if piece.public["state"] == State.DOWN:
        raise Refusal(NOT_IN_PLAY, "That trooper is out of the game.", field=field)
    return piece


def shown(state: Game, trooper: Piece) -> Piece:
    """What stands on the table for a trooper: its marker, or the model itself."""
    marker = trooper.public.get("marker")
    return state.piece(marker) if marker else trooper


def locked(state: Game, trooper: str, marker: str) -> bool:
    """INF-R10, INF-A05: has ``trooper`` failed to Discover ``marker`` in a lock that has
    not yet ended? The lock ends when the next Player Turn begins (DEFAULT), or, with
    ``inf.lockout_ends = "own_turn"``, when the trooper's own next Active Turn begins."""
    scenario = state.scenario
    board = state.board
    owner = state.piece(trooper).owner
    for lock in board.locks:
        if lock.trooper != trooper or lock.marker != marker:
            continue
        if board.turn == lock.turn:
            return True
        if scenario.switches.lockout_ends is LockoutEnds.OWN_TURN:
            turns = range(lock.turn + 1, board.turn + 1)
            if not any(active_in(scenario, t) == owner for t in turns):
                return True
    return False


def active_in(scenario: CamouflageScenario, turn: int) -> str:
    """The active player of Player Turn ``turn`` (counted from 1; the players alternate)."""
    ids = [s.id for s in scenario.sides]
    first = ids.index(scenario.first)
    return ids[(first + turn - 1) % 2]


def target(state: Game, side: str, declared: Declared, field: str) -> Piece | None:
    skill = SKILLS[declared.skill]
    if not skill.target:
        return None
    if declared.target is None:
        raise Refusal(NEEDS_TARGET, "Choose what the skill is aimed at.", field=f"{field}.target")
    return on_table(state, side, declared.target, f"{field}.target")


def on_table(state: Game, side: str, ref: str, field: str) -> Piece:
    """The enemy piece ``ref`` names, as it stands on the table: a trooper its side knows
    went back under a marker (INF-A12) is that marker, and a trooper out of the game is no
    target at all."""
    piece = lookup.enemy(state, side, ref, [TROOPER, EQUIPMENT, MARKER])
    marker = piece.public.get("marker") if piece.kind != MARKER else None
    if marker:
        return state.piece(marker)
    if piece.public.get("state") == State.DOWN:
        raise Refusal(NOT_IN_PLAY, "That trooper is out of the game.", field=field)
    return piece


def _discovering(first: dict[str, Any] | None, marker: str) -> bool:
    """Is the Order's first skill (``None``: this is the first) a Discover of ``marker``?"""
    return (
        first is not None
        and first.get("skill") == SkillName.DISCOVER
        and first.get("target") == marker
    )


def check_skill(
    state: Game,
    side: str,
    trooper: Piece,
    declared: Declared,
    field: str,
    first: dict[str, Any] | None = None,
) -> Piece | None:
    """Refuse a skill the rules forbid; return its target, if it names one."""
    aimed = target(state, side, declared, field)
    name = declared.skill
    if aimed is not None and aimed.kind == MARKER:
        # INF-R09, INF-T07: Discover + Attack — an Attack on a marker only after a
        # Discover of that marker declared by this trooper as the first skill.
        if name is SkillName.BS_ATTACK and not _discovering(first, aimed.id):
            raise Refusal(
                MARKER_NOT_DISCOVERED,
                "A Camouflaged Marker cannot be attacked before it is Discovered: declare "
                "Discover first, then the Attack.",
                field=f"{field}.target",
            )
        if name is SkillName.DISCOVER and _discovering(first, aimed.id):
            # INF-R10: the trooper cannot try that marker again if this Discover fails, so
            # not twice in one Order either (RULES-SPEC §5.1: the Discover text, "not against
            # the same Target twice in the same Order"); its rolls come only at the end.
            raise Refusal(
                DISCOVER_LOCKED,
                "This trooper already tries to Discover that marker in this Order: if that "
                "fails, it cannot try that marker again until the next Player Turn.",
                field=f"{field}.target",
            )
        if name is SkillName.DISCOVER and locked(state, trooper.id, aimed.id):
            raise Refusal(
                DISCOVER_LOCKED,
                "This trooper failed to Discover that marker: it cannot try that marker again "
                "until the next Player Turn.",
                field=f"{field}.target",
            )
    elif name is SkillName.DISCOVER:
        raise Refusal(
            NOT_A_MARKER, "Only a Camouflaged Marker can be Discovered.", field=f"{field}.target"
        )
    if declared.caught and not SKILLS[name].attack:
        raise Refusal(
            NOT_AN_ATTACK,
            "Only an Attack with a Template catches markers it is not aimed at.",
            field=f"{field}.caught",
        )
    if declared.contact is not None:
        touched = on_table(state, side, declared.contact, f"{field}.contact")
        if touched.kind == MARKER:
            raise Refusal(
                CONTACT_WITH_MARKER,
                "No trooper may enter Silhouette contact with an enemy Camouflaged Marker.",
                field=f"{field}.contact",
            )
    if name is SkillName.SENSOR and not trooper.public["sensor"]:
        raise Refusal(
            NO_SENSOR, "Only a trooper with Sensor can declare it.", field=f"{field}.skill"
        )
    if declared.zone and state.scenario.mode.value == "map":
        raise Refusal(
            MEASURED_BY_MAP,
            "This game is on a map: ghillie finds the markers in the Zone of Control.",
            field=f"{field}.zone",
        )
    if name is SkillName.CAMOUFLAGE:
        if not trooper.public["camouflage"] or trooper.public["state"] != State.MODEL:
            raise Refusal(
                NO_CAMOUFLAGE,
                "Only a trooper with Camouflage, on the table as a model, can go back into "
                "Camouflaged State.",
                field=f"{field}.skill",
            )
        if trooper.public["impetuous"]:
            raise Refusal(
                NO_CAMOUFLAGE,
                "An Impetuous trooper cannot be in Camouflaged State.",
                field=f"{field}.skill",
            )
        if not declared.unseen:
            raise Refusal(
                SEEN_BY_ENEMY,
                "A trooper goes back into Camouflaged State only outside the line of fire of "
                "every enemy model and marker: confirm that none can see it.",
                field=f"{field}.unseen",
            )
        _outside_sensors(state, side, trooper, declared, field)
    return aimed


def _outside_sensors(
    state: Game, side: str, trooper: Piece, declared: Declared, field: str
) -> None:
    """RULES-SPEC §5.1, Sensor: no enemy with Camouflage regains the state inside a Sensor's
    Zone of Control (8"). Only the enemy Sensors the side knows of count (zone.py, as INF-A02
    for line of fire): on the map ghillie measures; at a real table, if the enemy has one
    on the table, the side confirms it is not that close (``outside_sensor``)."""
    if state.scenario.mode.value == "map":
        if declared.outside_sensor:
            raise Refusal(
                MEASURED_BY_MAP,
                "This game is on a map: ghillie measures the Zone of Control, nothing is entered.",
                field=f"{field}.outside_sensor",
            )
        here = at(trooper)
        if here is not None and zone.blocking(state, side, here):
            raise Refusal(
                IN_SENSOR_ZONE,
                "A trooper cannot go back into Camouflaged State within 8 inches of an enemy "
                "trooper with Sensor (its Zone of Control).",
                field=f"{field}.skill",
            )
    elif zone.known_sensors(state, side) and not declared.outside_sensor:
        raise Refusal(
            IN_SENSOR_ZONE,
            "A trooper cannot go back into Camouflaged State within 8 inches of an enemy "
            "trooper with Sensor (its Zone of Control): confirm that none is that close.",
            field=f"{field}.outside_sensor",
        )
