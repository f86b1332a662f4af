"""The fire phase's normal fire, as far as the special fire rules reach into it: a unit
that took Challenge Fire this turn may not fire again until next turn (BMF-R05, A03); a
concealed firer is revealed to the side it fired at (A22, ``bmf.fire_reveals``); an
attacker left in the open by a failed Ambush Close Combat is fired at at the full chance,
"because the defender is not surprised" (R19). The side that moved first fires second.
Return fire is free (A12): with ``bmf.return_fire_consumes`` a unit that fired back at a
challenger or an ambusher this turn may not fire in its fire phase (a defence in close
combat is not fire, and never counts)."""

from __future__ import annotations

from ghillie import lookup
from ghillie.errors import Refusal
from ghillie.state import Level
from ghillie.words import say

from . import checks, eligibility, units
from .board import UNIT, Did, Rules, did
from .commands import Fire

MAY_NOT_FIRE = "may_not_fire"


def fire(ruling: Rules, side: str, command: Fire) -> None:
    scenario = ruling.scenario
    state = ruling.state
    firer = lookup.own(state, side, command.unit, [UNIT])
    target = lookup.enemy(state, side, command.target, [UNIT])
    turn = ruling.board.turn
    history = units.history(firer)
    if did(history, turn, Did.CHALLENGED):
        reason = eligibility.challenge(history, turn)
        raise Refusal(MAY_NOT_FIRE, reason or "", field="unit")
    if did(history, turn, Did.FIRED):
        raise Refusal(MAY_NOT_FIRE, "That unit has fired this turn.", field="unit")
    if scenario.switches.return_fire_consumes and did(history, turn, Did.RETURNED_FIRE):
        # BMF-A12's option: its return fire was its fire for the turn.
        raise Refusal(
            MAY_NOT_FIRE,
            "That unit fired back this turn: it may not fire again until next turn.",
            field="unit",
        )
    _values, outcome = checks.shot(command.chance).roll(lambda label, die: ruling.roll(label, die))
    hit = outcome == checks.HIT
    if firer.public.get("concealed") and scenario.switches.fire_reveals:
        ruling.update(firer.id, public={"concealed": False, "at": units.xy(firer.secret["at"])})
        ruling.reveal(firer.id, target.owner, Level.IDENTIFIED)
    units.note(ruling, ruling.piece(firer.id), Did.FIRED)  # in view, if it was revealed
    result = say("destroyed") if hit else say("a miss")
    line = {
        "text": say(
            "Fire from {firer} at {target} ({chance}%): {result}.",
            firer=firer.public["name"],
            target=target.public["name"],
            chance=command.chance,
            result=result,
        )
    }
    if not ruling.piece(firer.id).public.get("concealed"):
        ruling.tell_public(line)
    else:
        # Not revealed (``bmf.fire_reveals`` off): the other side learns it was shot at, not
        # by which unit, nor its chance (which would tell its weapon and range).
        ruling.tell(firer.owner, line)
        unseen = say(
            "Fire from an unseen unit at {target}: {result}.",
            target=target.public["name"],
            result=result,
        )
        for other in ruling.state.others(firer.owner):
            ruling.tell(other, {"text": unseen})
    if hit:
        ruling.remove(target.id)
