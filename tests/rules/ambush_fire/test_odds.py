"""The odds queries of ambush-fire: the exact chances the issue names, by enumeration of the
d100 (RULES-SPEC BMF-R03, R04, R12, A01)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ghillie.rules.ambush_fire.odds import ODDS, Shot
from ghillie.rules.ambush_fire.scenario import AmbushFireSwitches


def by_hand(percent: int) -> Fraction:
    return Fraction(sum(1 for face in range(1, 101) if face <= percent), 100)


@pytest.mark.spec("BMF-R03")
@pytest.mark.spec("BMF-R04")
@pytest.mark.spec("BMF-R12")
@pytest.mark.parametrize(
    ("query", "chance", "expected"),
    [
        ("challenge", 60, Fraction(1, 2)),
        ("return-challenge", 55, Fraction(7, 20)),
        ("return-ambush", 60, Fraction(1, 2)),
    ],
)
def test_the_odds_the_issue_names(query: str, chance: int, expected: Fraction) -> None:
    odds = ODDS[query].check(Shot(chance=chance), AmbushFireSwitches()).odds()
    assert odds["hit"] == expected
    penalty = {"challenge": 10, "return-challenge": 20, "return-ambush": 10}[query]
    assert odds["hit"] == by_hand(chance - penalty)


@pytest.mark.spec("BMF-A01")
def test_bmf_a01_multiplicative_reading_in_the_odds_too() -> None:
    sw = AmbushFireSwitches.model_validate({"bmf.penalty_mode": "multiplicative"})
    assert ODDS["challenge"].check(Shot(chance=60), sw).odds()["hit"] == by_hand(54)
    title = ODDS["challenge"].title(Shot(chance=60), ODDS["challenge"].check(Shot(chance=60), sw))
    assert title == "Challenge Fire with a base chance of 60%: d100 54 or less"


@pytest.mark.spec("BMF-R04")
@pytest.mark.spec("BMF-R12")
def test_a_reply_is_priced_by_what_it_answers_while_it_is_given() -> None:
    """The page shows a reply's odds as it is given: 20 less after a Challenge Fire, 10
    less after an Ambush Fire; enumeration of the d100 agrees."""
    from ghillie.demo import new_game, scripts
    from ghillie.rules.ambush_fire.commands import ReturnFire
    from ghillie.rules.ambush_fire.ruleset import AmbushFire

    script = scripts()["ambush-fire"]
    game = new_game(script)
    ruleset = AmbushFire()
    for step in script.steps[:6]:  # up to the Challenge Fire at the gap
        game.command(step.side, step.command)
    reply = ReturnFire(fire=True, chance=55)
    check = ruleset.odds(game.state, "soviets", reply)
    assert check is not None
    assert check.odds()["hit"] == by_hand(35)
    for step in script.steps[6:8]:  # the reply, then the Ambush Fire from the hedgerow
        game.command(step.side, step.command)
    check = ruleset.odds(game.state, "soviets", reply)
    assert check is not None
    assert check.odds()["hit"] == by_hand(45)
    assert ruleset.odds(game.state, "soviets", ReturnFire(fire=False)) is None
