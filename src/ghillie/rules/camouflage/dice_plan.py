"""How many d20s a command will roll, and whose, told before it is given: the form of the
Order's roll and of the saving rolls says it beside "Dice rolled at the table", and a side
that types in a different number of its own dice is refused with the count (issue 25).

The plan follows resolution.py's order (Discovers, Sensor, the AROs' Discovers, the Attacks
— a Face to Face Roll's dice together —, then Dodge, Reset and other rolls) and reads only
what every side sees: the skills and AROs declared, and whether a target is still a marker.
An Attack after a Discover of a marker is rolled only if the Discover passes, and says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ghillie.state import Piece
from ghillie.words import N_, Say, say, says

from . import camo, declare
from .board import MARKER, Game, Stage
from .orders import SKILL_WORDS, label
from .skills import SkillName

PLAIN = (SkillName.DODGE, SkillName.RESET, SkillName.OTHER_ROLL)


@dataclass(frozen=True)
class Roll:
    trooper: str  # the piece whose dice they are
    skill: SkillName
    dice: int
    if_discovered: bool = False  # rolled only if the trooper's Discover of its target passes


def _burst(facts: Mapping[str, Any]) -> int:
    return int((facts.get("attack") or {}).get("burst", 1))


def _now(state: Game, ref: str) -> Piece | None:
    if ref in state.pieces:
        return state.pieces[ref]
    return camo.stood_for(state, ref)


def order_rolls(state: Game) -> list[Roll]:
    """Every roll of the Order being rolled, in the order drawn."""
    order = state.board.order
    assert order is not None
    active = order.piece
    skills = [order.first, *([order.second] if order.second else [])]
    out: list[Roll] = []
    for facts in skills:
        if facts["skill"] == SkillName.DISCOVER and facts["target"] in state.pieces:
            out.append(Roll(active, SkillName.DISCOVER, 1))
    out += [Roll(active, SkillName.SENSOR, 1) for f in skills if f["skill"] == SkillName.SENSOR]
    for reactor, facts in order.aros.items():
        if facts["aro"] == SkillName.DISCOVER and facts.get("marker") in state.pieces:
            out.append(Roll(reactor, SkillName.DISCOVER, 1))
    answered: set[str] = set()
    attack = next((f for f in skills if f["skill"] == SkillName.BS_ATTACK), None)
    aimed = _now(state, attack["target"]) if attack is not None else None
    if attack is not None and aimed is not None:
        # A marker still: the Attack waits on the Discover declared before it (INF-T07).
        unsure = aimed.kind == MARKER
        out.append(Roll(active, SkillName.BS_ATTACK, _burst(attack), unsure))
        back = order.aros.get(aimed.id)
        if back is not None and back["aro"] in (SkillName.BS_ATTACK, SkillName.DODGE):
            answered.add(aimed.id)
            name = SkillName(back["aro"])
            dice = _burst(back) if name is SkillName.BS_ATTACK else 1
            out.append(Roll(aimed.id, name, dice))
    for reactor, facts in order.aros.items():
        name = SkillName(facts["aro"])
        if reactor in answered:
            continue
        if name is SkillName.BS_ATTACK:
            out.append(Roll(reactor, name, _burst(facts)))
        elif name in PLAIN:
            out.append(Roll(reactor, name, 1))
    for facts in skills:
        if SkillName(facts["skill"]) in PLAIN:
            out.append(Roll(active, SkillName(facts["skill"]), 1))
    return out


def _who(state: Game, side: str, trooper: str) -> Say | str:
    """A trooper as ``side`` names it: its own by name, the enemy's as it stands."""
    piece = state.piece(trooper)
    if piece.owner == side:
        return str(piece.public["name"])
    return label(declare.shown(state, piece))


def _each(state: Game, side: str, rolls: list[Roll]) -> list[Say]:
    out = []
    for roll in rolls:
        who, skill = _who(state, side, roll.trooper), Say(SKILL_WORDS[roll.skill])
        if roll.if_discovered:
            out.append(
                say(
                    "{n} for {who}'s {skill}, if its Discover passes",
                    n=roll.dice,
                    who=who,
                    skill=skill,
                )
            )
        else:
            out.append(say("{n} for {who}'s {skill}", n=roll.dice, who=who, skill=skill))
    return out


def order_note(state: Game, side: str) -> Say | None:
    """What the Order's roll asks of ``side``, the active side: its own dice, in order, and
    whose dice ghillie rolls."""
    order = state.board.order
    if order is None or order.stage is not Stage.RESOLVE or side != state.board.active:
        return None
    rolls = order_rolls(state)
    mine = [r for r in rolls if state.piece(r.trooper).owner == side]
    theirs = [r for r in rolls if state.piece(r.trooper).owner != side]
    own: Say = (
        say("Your dice, in the order they are rolled: {rolls}.", rolls=_each(state, side, mine))
        if mine
        else Say(N_("This Order rolls none of your dice."))
    )
    if not theirs:
        return own
    others = sorted({state.piece(r.trooper).owner for r in theirs})
    return say(
        "{own} ghillie rolls the dice of {sides}: {rolls}.",
        own=own,
        sides=[state.scenario.side_name(s) for s in others],
        rolls=_each(state, side, theirs),
    )


def saves_note(state: Game, side: str) -> Say | None:
    """What the saving rolls ask of ``side``: how many dice, for whom, each needing what."""
    owed = [s for s in state.board.saves if state.piece(s.piece).owner == side]
    if not owed:
        return None
    each = [
        says(
            "{n} for {who}, saving on {value} or less",
            "{n} for {who}, each saving on {value} or less",
            s.count,
            who=str(state.piece(s.piece).public["name"]),
            value=s.value,
        )
        for s in owed
    ]
    return say("Your dice, in the order they are rolled: {rolls}.", rolls=each)
