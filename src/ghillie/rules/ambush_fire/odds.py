"""``ghillie odds ambush-fire <check> --chance N``: the exact odds of the text's special
shots, from the base chance to hit (the host's tables) and the text's penalty (checks.py).

>>> [str(p) for p in ODDS["challenge"].check(Shot(chance=60), AmbushFireSwitches()).odds().values()]
['1/2', '1/2']
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ghillie.dice.check import Check
from ghillie.ruleset import Command, OddsQuery, Params

from . import checks
from .board import State
from .commands import Fire, ReturnFire
from .scenario import AmbushFireSwitches


class Shot(Params):
    chance: int = Field(ge=0, le=100, description="the base percent chance to hit (host tables)")


LABELS = {checks.HIT: "hit", checks.MISS: "miss"}


def _query(kind: str, name: str, what: str, rules: str) -> OddsQuery:
    def check(p: Shot, sw: AmbushFireSwitches) -> Check[Any]:
        if kind == checks.DEFENCE:  # BMF-A02: a percent chance or a strength number
            return checks.shot(
                checks.defence(p.chance, sw.penalty_mode, sw.close_combat, sw.strength_rounding)
            )
        return checks.check_for(kind, p.chance, sw.penalty_mode)

    def title(p: Shot, built: Check[Any]) -> str:
        (percent,) = built.args
        return f"{what} with a base chance of {p.chance}%: d100 {percent} or less"

    return OddsQuery(name, f"{what} ({rules}).", Shot, check, LABELS, title=title, rules=rules)


ODDS = {
    q.name: q
    for q in (
        _query(checks.CHALLENGE, "challenge", "Challenge Fire", "BMF-R03, BMF-A01"),
        _query(
            checks.RETURN_CHALLENGE,
            "return-challenge",
            "Return fire to a Challenge Fire",
            "BMF-R04",
        ),
        _query(checks.RETURN_AMBUSH, "return-ambush", "Return fire to an Ambush Fire", "BMF-R12"),
        _query(
            checks.DEFENCE, "defence", "A defence against Ambush Close Combat", "BMF-R17, BMF-A02"
        ),
    )
}


# What a reply is worth, by the kind of fire it answers (BMF-R04, R12, R17).
REPLIES = {
    "challenge": checks.RETURN_CHALLENGE,
    "ambush": checks.RETURN_AMBUSH,
    # A launcher whose missile flies is fired back at as an ambusher (R12, A23).
    "launch": checks.RETURN_AMBUSH,
    "close_combat": checks.DEFENCE,
}
PRICED = ("return_fire", "fire")


def priced(state: State, side: str, command: Command) -> Check[Any] | None:
    """The shot ``command`` would roll now, as the rules would roll it: a reply at its
    penalty for what it answers, or normal fire at its full chance (BMF-R19). Everything it
    reads is public: the window, the kind of fire that opened it, the chance given."""
    scenario = state.scenario
    mode = scenario.switches.penalty_mode
    if isinstance(command, ReturnFire):
        pending = state.board.pending
        if not command.fire or pending is None:
            return None
        if pending["kind"] == "close_combat":
            sw = scenario.switches
            return checks.shot(
                checks.defence(command.chance, mode, sw.close_combat, sw.strength_rounding)
            )
        return checks.check_for(REPLIES[str(pending["kind"])], command.chance, mode)
    if isinstance(command, Fire):
        return checks.shot(command.chance)
    return None
