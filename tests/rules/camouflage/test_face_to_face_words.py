"""A Face to Face Roll explained (INF-T01 d; issue 25, "what a player at the table needs"):
besides the dice and who hits, each side reads what failed, what cancelled what — a tie
cancels both, a higher success cancels every lower or equal one, a Critical every success
that is not one, Criticals on both sides each other — and what stands; and the explanation
always agrees with the judge."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghillie.rules.camouflage import cancelled, checks
from ghillie.rules.camouflage.checks import CriticalClash
from ghillie.words import speaker

from .helpers import NOMADS, PANO, aros, ghillie_rolls, last_said, measured, second
from .test_orders import COMBI, caliban_moves_and_fusilier_delays

WORDS = speaker("camouflage")


def _explained(a: list[int], a_value: int, b: list[int], b_value: int, **kw: object) -> str:
    clash = kw.get("clash", CriticalClash.CANCEL)
    assert isinstance(clash, CriticalClash)
    sides = cancelled.Side("Caliban", a, a_value), cancelled.Side("Fusilier", b, b_value)
    return WORDS.text(cancelled.explain(*sides, clash))


def _resolved(caliban_dice: list[int], fusilier_die: int, burst: int) -> list[str]:
    """The Caliban (BS 11 + 0 = 11 at the table) against the delayed Fusilier's BS Attack
    (12 + 3 - 3 for the Caliban's Mimetism = 12): what PanOceania reads of the roll."""
    game, fusilier = caliban_moves_and_fusilier_delays()
    shotgun = {"weapon": "Boarding Shotgun", "burst": burst, "range_mod": 0, "ps": 6}
    second(
        game,
        NOMADS,
        {"skill": "bs_attack", "target": fusilier, "measured": measured(6), "attack": shotgun},
    )
    aro = {"piece": fusilier, "aro": "bs_attack", "measured": measured(10), "attack": COMBI}
    aros(game, PANO, aro)
    with ghillie_rolls(game, fusilier_die):
        game.command(NOMADS, {"type": "resolve_order", "rolls": {"dice": caliban_dice}})
    return last_said(game, PANO)


@pytest.mark.spec("INF-T01")
def test_INF_T01_a_tie_is_said_to_cancel_both() -> None:
    # The play-test's roll: "Caliban rolls 19, 4 needing 11 or less, Fusilier rolls 4 ..."
    lines = _resolved([19, 4], 4, burst=2)
    assert "Caliban's 19 fails. Caliban's 4 and Fusilier's 4 are equal: a tie cancels both." in (
        lines
    )
    assert "Caliban does not hit Fusilier." in lines
    assert "Fusilier does not hit Caliban." in lines


@pytest.mark.spec("INF-T01")
def test_INF_T01_a_higher_success_is_said_to_cancel_the_lower_ones() -> None:
    lines = _resolved([10, 6], 8, burst=2)
    assert (
        "Fusilier's 8 cancels Caliban's 6: a success cancels every lower or equal success of "
        "the other side. Caliban's 10 beats Fusilier's best success, 8, cancels it and stands."
    ) in lines
    assert "Caliban hits Fusilier once." in lines


@pytest.mark.spec("INF-T01")
def test_INF_T01_criticals_are_said_to_cancel_what_they_cancel() -> None:
    # A die equal to the Success Value is a Critical.
    assert _explained([11, 9], 11, [12], 12) == (
        "Caliban's Critical 11 and Fusilier's Critical 12 cancel each other. Fusilier's "
        "Critical cancels Caliban's 9: a Critical cancels every success that is not one."
    )
    assert _explained([11], 11, [12, 3], 12, clash=CriticalClash.STAND) == (
        "Caliban's 11 is a Critical and stands. Fusilier's 12 is a Critical and stands. "
        "Caliban's Critical cancels Fusilier's 3: a Critical cancels every success that is "
        "not one."
    )
    assert _explained([11, 15], 11, [20], 12) == (
        "Caliban's 15 fails. Fusilier's 20 fails. Caliban's 11 is a Critical and stands."
    )
    assert _explained([3], 11, [15, 13], 12) == (
        "Fusilier's 15, 13 fail. Caliban's 3 stands: Fusilier rolls no success to cancel it."
    )
    # Over 20, the excess is added to the die (N5).
    assert _explained([16], 23, [5], 12).startswith("Caliban adds 3 to each die")


@pytest.mark.spec("INF-T01")
@settings(max_examples=400, deadline=None)
@given(
    st.integers(-2, 25),
    st.lists(st.integers(1, 20), min_size=1, max_size=4),
    st.integers(-2, 25),
    st.lists(st.integers(1, 20), min_size=1, max_size=4),
    st.sampled_from(list(CriticalClash)),
)
def test_INF_T01_what_is_said_to_stand_is_what_the_judge_counts(
    a_value: int, a: list[int], b_value: int, b: list[int], clash: CriticalClash
) -> None:
    check = checks.face_to_face(a_value, len(a), b_value, len(b), criticals=clash)
    rolled = {f"a{i}": v for i, v in enumerate(a, 1)} | {f"b{i}": v for i, v in enumerate(b, 1)}
    a_hits, a_crits, b_hits, b_crits = check.judge_values(rolled)
    side_a, side_b = cancelled.Side("A", a, a_value), cancelled.Side("B", b, b_value)
    fa, fb = cancelled.fates(side_a, side_b, clash), cancelled.fates(side_b, side_a, clash)
    assert (fa.hits, len(fa.criticals_stand), fb.hits, len(fb.criticals_stand)) == (
        a_hits,
        a_crits,
        b_hits,
        b_crits,
    )
    # Every die is told of once.
    for side, fate in ((side_a, fa), (side_b, fb)):
        told = (
            fate.failed
            + fate.criticals_stand
            + fate.criticals_cancelled
            + fate.stand
            + fate.by_critical
            + fate.tied
            + fate.beaten
        )
        assert sorted(told) == sorted(side.dice)
    assert WORDS.text(cancelled.explain(side_a, side_b, clash))


@pytest.mark.spec("INF-T01")
def test_INF_T01_a_tie_at_the_top_cancels_both_and_the_lower_ones_too() -> None:
    assert _explained([4, 2], 11, [4], 12) == (
        "Caliban's 4 and Fusilier's 4 are equal: a tie cancels both. Fusilier's 4 cancels "
        "Caliban's 2: a success cancels every lower or equal success of the other side."
    )


@pytest.mark.spec("INF-T01")
def test_INF_T01_a_dodge_against_an_attack_says_whether_it_passed() -> None:
    game, fusilier = caliban_moves_and_fusilier_delays()
    shotgun = {"weapon": "Boarding Shotgun", "burst": 2, "range_mod": 0, "ps": 6}
    attack = {"skill": "bs_attack", "target": fusilier, "measured": measured(6)}
    second(game, NOMADS, {**attack, "attack": shotgun})
    aros(game, PANO, {"piece": fusilier, "aro": "dodge"})
    with ghillie_rolls(game, 9):  # the Fusilier's PH 10: its 9 beats the Caliban's 3 and 5
        game.command(NOMADS, {"type": "resolve_order", "rolls": {"dice": [3, 5]}})
    lines = last_said(game, PANO)
    assert "Fusilier's 9 beats Caliban's best success, 5, cancels it and stands." in lines[1]
    assert "Caliban does not hit Fusilier." in lines
    assert "Fusilier Dodges." in lines
