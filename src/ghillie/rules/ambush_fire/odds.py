"""``ghillie odds ambush-fire <check> --chance N``: the exact odds of the text's special
shots, from the base chance to hit (the host's tables) and the text's penalty (checks.py).

>>> [str(p) for p in ODDS["challenge"].check(Shot(chance=60), AmbushFireSwitches()).odds().values()]
['1/2', '1/2']
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ghillie.dice.check import Check
from ghillie.ruleset import OddsQuery, Params

from . import checks
from .scenario import AmbushFireSwitches


class Shot(Params):
    chance: int = Field(ge=0, le=100, description="the base percent chance to hit (host tables)")


LABELS = {checks.HIT: "hit", checks.MISS: "miss"}


def _query(kind: str, name: str, what: str, rules: str) -> OddsQuery:
    def check(p: Shot, sw: AmbushFireSwitches) -> Check[Any]:
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
