"""The skills an Order or an ARO may declare, as data: what each one is, in the terms the
Camouflaged State text uses to say what cancels it (RULES-SPEC INF-R13, INF-A04) and which
AROs a marker allows (INF-R11)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class SkillName(StrEnum):
    MOVE = "move"
    CAUTIOUS_MOVE = "cautious_move"
    BS_ATTACK = "bs_attack"
    DISCOVER = "discover"
    SENSOR = "sensor"  # WIP+6: Discovers every enemy marker in its Zone of Control (§5.1)
    LOOK_OUT = "look_out"
    DODGE = "dodge"
    RESET = "reset"
    CAMOUFLAGE = "camouflage"  # go back into the state (INF-R02)
    OTHER_LONG = "other_long"  # any other Long Skill
    OTHER_ROLL = "other_roll"  # any other skill that requires a Roll
    IDLE = "idle"
    DELAY = "delay"  # an ARO only: wait for the second half of the Order (INF-R12)


@dataclass(frozen=True)
class Skill:
    long: bool = False  # a Long Skill: the whole Order
    roll: bool = False  # its resolution includes a d20 roll by its user (INF-A04)
    attack: bool = False
    target: bool = False  # it names an enemy piece
    cancels: bool = False  # declaring it cancels its user's Camouflaged State (INF-R13)
    aro: bool = True  # it may be declared as an ARO


SKILLS: dict[SkillName, Skill] = {
    SkillName.MOVE: Skill(aro=False),
    # INF-R13 (b): a Long Skill of any kind other than Cautious Movement cancels the state.
    SkillName.CAUTIOUS_MOVE: Skill(long=True, aro=False),
    # INF-R13 (a): an Attack, Look Out!, or any skill that requires a Roll.
    SkillName.BS_ATTACK: Skill(roll=True, attack=True, target=True, cancels=True),
    SkillName.DISCOVER: Skill(roll=True, target=True, cancels=True),
    # A skill that requires a Roll (INF-R13 a); not an ARO against a marker (INF-R11).
    SkillName.SENSOR: Skill(roll=True, cancels=True, aro=False),
    SkillName.LOOK_OUT: Skill(cancels=True),
    SkillName.DODGE: Skill(roll=True, cancels=True),
    SkillName.RESET: Skill(roll=True, cancels=True),
    SkillName.CAMOUFLAGE: Skill(long=True, aro=False),
    SkillName.OTHER_LONG: Skill(long=True, cancels=True, aro=False),
    SkillName.OTHER_ROLL: Skill(roll=True, cancels=True),
    SkillName.IDLE: Skill(aro=False),
    SkillName.DELAY: Skill(),
}

# INF-R11: the only AROs that may be declared against a Camouflaged Marker.
AGAINST_A_MARKER = frozenset(
    {SkillName.DISCOVER, SkillName.DODGE, SkillName.LOOK_OUT, SkillName.RESET, SkillName.DELAY}
)
AROS = tuple(name for name, skill in SKILLS.items() if skill.aro)
ORDER_SKILLS = tuple(name for name in SKILLS if name is not SkillName.DELAY)
