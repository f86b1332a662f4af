"""The detection roll against an ambush field (RULES-SPEC BSG-R14 and its DEFAULTs), with exact
odds checked against a brute-force oracle over the 36 faces of 2d6 (itertools.product)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, cast

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st
from pydantic import Field
from typer.testing import CliRunner, Result

from ghillie.cli.odds import odds_command
from ghillie.dice.source import ScriptedDice
from ghillie.dice.steps import Die
from ghillie.rules.ambush_fields import detection as bsg
from ghillie.rules.ambush_fields.detection import (
    NO_ROLL,
    ODDS,
    DetectionSwitches,
    DetectParams,
    Outcome,
    base_number,
    detection_check,
    odds,
)
from ghillie.rules.ambush_fields.plot import detection_curves, plot_detection
from ghillie.ruleset import OddsQuery, Ruleset
from ghillie.scenario import Scenario

# RULES-SPEC BSG-R14, copied independently of the module: range → (capital, fighter/shuttle).
CAPITAL = (
    {1: 7, 2: 6, 3: 5, 4: 5, 5: 5}
    | dict.fromkeys(range(6, 16), 4)
    | dict.fromkeys(range(16, 21), 2)
)
FIGHTER = {1: 5, 2: 4, 3: 2, 4: 2, 5: 2}
TWO_D6 = list(itertools.product(range(1, 7), repeat=2))


def oracle(base: int | None, modifier: int) -> dict[str, Fraction]:
    """Count located / partial / no contact over the 36 faces of 2d6."""
    counts: Counter[str] = Counter()
    for a, b in TWO_D6:
        m = a + b + modifier
        if base is not None and m <= base:
            counts["located"] += 1
        elif base is not None and m == base + 1:
            counts["partial"] += 1
        else:
            counts["no_contact"] += 1
    return {k: Fraction(counts[k], 36) for k in ("located", "partial", "no_contact")}


def expected(base: int, modifier: int) -> bsg.DetectionOdds:
    counts = oracle(base, modifier)
    return bsg.DetectionOdds(counts["located"], counts["partial"], counts["no_contact"], base)


def as_dict(attempt: bsg.DetectionOdds) -> dict[str, Fraction]:
    return {
        "located": attempt.located,
        "partial": attempt.partial,
        "no_contact": attempt.no_contact,
    }


def draw_from(dice: ScriptedDice) -> Any:
    return lambda label, die: dice.roll(die.faces)


# --- BSG-R14: the table and the modifiers ---------------------------------------------------


@pytest.mark.spec("BSG-R14", "BSG-A11")
@pytest.mark.parametrize("range_hexes", range(1, 26))
def test_the_base_number_table_at_every_range(range_hexes: int) -> None:
    assert base_number(range_hexes, fighter=False) == CAPITAL.get(range_hexes)
    assert base_number(range_hexes, fighter=True) == FIGHTER.get(range_hexes)


@pytest.mark.spec("BSG-R14", "BSG-A01")
def test_a_range_below_one_hex_is_refused() -> None:
    # A ship inside the field does not roll (BSG-R26); nearest-hex range is at least 1.
    with pytest.raises(ValueError, match="at least 1"):
        base_number(0, fighter=False)


@pytest.mark.spec("BSG-R14", "BSG-A02")
def test_the_modifiers_are_each_listed_with_the_texts_sign() -> None:
    assert bsg.modifiers(2) == {"rating": 2, "flag": 0, "scout_points": 0, "partial": 0, "speed": 0}
    assert bsg.modifiers(3, flag=True, scout=True, scout_points=2, partial=True, speed=5) == {
        "rating": 3,
        "flag": -1,
        "scout_points": -2,
        "partial": -1,
        "speed": -2,
    }
    assert bsg.total_modifier(3, flag=True, scout=True, scout_points=2, partial=True, speed=5) == -3


@pytest.mark.spec("BSG-R14", "BSG-R03")
@pytest.mark.parametrize("rating", [0, 4, -1])
def test_a_rating_outside_one_to_three_is_refused(rating: int) -> None:
    with pytest.raises(ValueError, match="BSG-R03"):
        detection_check(4, rating)


@pytest.mark.spec("BSG-R14")
def test_the_check_rolls_two_named_d6_and_judges_their_sum() -> None:
    check = detection_check(4, 2, flag=True, partial=True, speed=2)
    assert check is not None
    assert check.dice == (("first", Die(6)), ("second", Die(6)))
    assert check.outcomes == (Outcome.LOCATED, Outcome.PARTIAL, Outcome.NO_CONTACT)
    for a, b in TWO_D6:
        values, outcome = check.roll(draw_from(ScriptedDice([a, b])))
        assert values == {"first": a, "second": b}
        assert outcome is bsg.outcome_of(a + b - 1, 5)


# --- worked cases ---------------------------------------------------------------------------


@pytest.mark.spec("BSG-T03", "BSG-R14")
def test_a_flagship_at_four_hexes_locates_five_in_twelve_and_gets_partial_one_in_six() -> None:
    attempt = odds(4, 2, flag=True, partial=True, speed=2)
    assert attempt.base_number == 5
    assert attempt.located == Fraction(5, 12)
    assert attempt.partial == Fraction(1, 6)
    assert attempt.no_contact == Fraction(5, 12)
    assert as_dict(attempt) == oracle(5, 2 - 1 - 1 - 1)
    check = detection_check(4, 2, flag=True, partial=True, speed=2)
    assert check is not None
    # Dice 6 → M=5 → located; 7 → partial; 8 → fail.
    assert check.judge_values({"first": 3, "second": 3}) is Outcome.LOCATED
    assert check.judge_values({"first": 3, "second": 4}) is Outcome.PARTIAL
    assert check.judge_values({"first": 4, "second": 4}) is Outcome.NO_CONTACT


@pytest.mark.spec("BSG-T04", "BSG-A11")
def test_a_fighter_at_six_hexes_cannot_roll_and_shows_no_contact() -> None:
    assert detection_check(6, 1, fighter=True) is None
    assert odds(6, 1, fighter=True) == bsg.DetectionOdds(
        Fraction(0), Fraction(0), Fraction(1), None
    )


@pytest.mark.spec("BSG-T05", "BSG-A11")
def test_a_capital_ship_at_twenty_one_hexes_cannot_roll_and_shows_no_contact() -> None:
    assert detection_check(20, 1) is not None
    assert detection_check(21, 1) is None
    assert odds(21, 1, flag=True, speed=3).no_contact == 1


@pytest.mark.spec("BSG-A11", "BSG-R18", "BSG-T04", "BSG-T05")
def test_no_roll_gives_the_very_outcome_a_failed_roll_gives() -> None:
    # §6 anti-leak: "no roll allowed" and "failed by 2 or more" show the same thing.
    failed = detection_check(20, 3)  # N=2, M ≥ 5: always fails by 2 or more
    assert failed is not None
    _, failed_outcome = failed.roll(draw_from(ScriptedDice([6, 6])))
    values, no_roll_outcome = NO_ROLL.roll(draw_from(ScriptedDice([])))
    assert values == {}
    assert no_roll_outcome is failed_outcome is Outcome.NO_CONTACT
    assert NO_ROLL.outcomes == failed.outcomes
    assert NO_ROLL.odds() == failed.odds()
    assert NO_ROLL.odds() == {Outcome.LOCATED: 0, Outcome.PARTIAL: 0, Outcome.NO_CONTACT: 1}


@pytest.mark.spec("BSG-T06")
def test_a_fighter_at_four_hexes_against_rating_three_can_never_locate_or_get_partial() -> None:
    check = detection_check(4, 3, fighter=True)
    assert check is not None
    for a, b in TWO_D6:  # exhaustive: every face of both dice
        assert check.judge_values({"first": a, "second": b}) is Outcome.NO_CONTACT
    assert odds(4, 3, fighter=True) == bsg.DetectionOdds(Fraction(0), Fraction(0), Fraction(1), 2)


# --- DEFAULTs -------------------------------------------------------------------------------


@pytest.mark.spec("BSG-A02")
def test_a_higher_rating_makes_detection_harder_and_speed_makes_it_easier() -> None:
    for range_hexes, fighter in itertools.product(range(1, 21), (False, True)):
        if base_number(range_hexes, fighter) is None:
            continue
        by_rating = [odds(range_hexes, r, fighter=fighter).located for r in (1, 2, 3)]
        assert by_rating == sorted(by_rating, reverse=True)
        by_speed = [odds(range_hexes, 3, fighter=fighter, speed=s).located for s in (0, 1, 2, 3)]
        assert by_speed == sorted(by_speed)
    # Strictly, where the numbers are not at an edge (capital ship, 4 hexes, N=5):
    assert odds(4, 1).located > odds(4, 2).located > odds(4, 3).located
    assert odds(4, 2, speed=3).located > odds(4, 2, speed=1).located > odds(4, 2).located
    # Flag and partial information help too: "a -1 on all future detection rolls".
    assert odds(4, 2, flag=True).located > odds(4, 2).located
    assert odds(4, 2, partial=True).located > odds(4, 2).located


@pytest.mark.spec("BSG-A08")
def test_detection_modifiers_are_uncapped_unless_the_switch_caps_their_whole_sum() -> None:
    heavy: dict[str, Any] = {
        "flag": True,
        "scout": True,
        "scout_points": 4,
        "partial": True,
        "speed": 3,
    }
    assert bsg.total_modifier(1, **heavy) == 1 - 1 - 4 - 1 - 2 == -7
    assert bsg.total_modifier(1, **heavy, cap_detection_mods=True) == -3
    # The rating is inside the capped sum: 3 - 5 = -2, not 3 + max(-3, -5) = 0.
    assert bsg.total_modifier(3, scout=True, scout_points=5, cap_detection_mods=True) == -2
    assert bsg.total_modifier(3, cap_detection_mods=True) == 3
    # At range 16 (N=2): 2d6 - 7 ≤ 2 on 30 of 36 faces uncapped, 2d6 - 3 ≤ 2 on 10 capped.
    assert odds(16, 1, **heavy) == expected(2, -7)
    assert odds(16, 1, **heavy).located == Fraction(5, 6)
    assert odds(16, 1, **heavy, cap_detection_mods=True) == expected(2, -3)
    # The odds query reads the switch.
    params = DetectParams(range=16, rating=1, flag=True, partial=True, speed=3, scout_points=4)
    assert ODDS.check(params, DetectionSwitches()).odds()[Outcome.LOCATED] == Fraction(5, 6)
    capped = ODDS.check(params, DetectionSwitches.model_validate({"bsg.cap_detection_mods": True}))
    assert capped.odds()[Outcome.LOCATED] == Fraction(5, 18)


@pytest.mark.spec("BSG-A09")
def test_scout_points_help_only_a_scouts_own_roll_and_a_non_scout_spending_is_refused() -> None:
    assert odds(10, 2, scout=True, scout_points=2) == expected(4, 2 - 2)
    assert odds(10, 2, scout=True).located == odds(10, 2).located  # a scout spending nothing
    with pytest.raises(ValueError, match="BSG-A09"):
        detection_check(10, 2, scout_points=1)
    with pytest.raises(ValueError, match="not negative"):
        detection_check(10, 2, scout=True, scout_points=-1)


@pytest.mark.spec("BSG-A10")
def test_patrol_boats_scouts_and_civilians_read_the_capital_row() -> None:
    # Only a fighter flight or shuttle reads the second row; there is no other row to pick.
    for range_hexes in range(1, 21):
        scout = detection_check(range_hexes, 1, scout=True)
        assert scout is not None
        assert scout.args[0] == CAPITAL[range_hexes]
    assert DetectParams(range=8, rating=1).fighter is False  # the query's default: capital row
    assert ODDS.check(DetectParams(range=8, rating=1), DetectionSwitches()).args[0] == 4


@pytest.mark.spec("BSG-A18")
def test_the_controllers_speed_this_turn_gives_zero_minus_one_or_minus_two() -> None:
    assert [bsg.speed_modifier(s) for s in range(8)] == [0, -1, -1, -2, -2, -2, -2, -2]
    assert odds(4, 2, speed=0) == expected(5, 2)
    assert odds(4, 2, speed=2) == expected(5, 1)
    assert odds(4, 2, speed=9) == expected(5, 0)
    with pytest.raises(ValueError, match="not negative"):
        bsg.speed_modifier(-1)


# --- the odds agree with brute force everywhere ---------------------------------------------


@pytest.mark.spec("BSG-R14", "BSG-A02", "BSG-A08", "BSG-A10", "BSG-A11", "BSG-A18")
@given(
    range_hexes=st.integers(1, 25),
    rating=st.integers(1, 3),
    fighter=st.booleans(),
    flag=st.booleans(),
    scout_points=st.integers(0, 6),
    partial=st.booleans(),
    speed=st.integers(0, 6),
    cap=st.booleans(),
)
def test_the_checks_odds_equal_brute_force_over_36_faces_and_sum_to_one(
    range_hexes: int,
    rating: int,
    fighter: bool,
    flag: bool,
    scout_points: int,
    partial: bool,
    speed: int,
    cap: bool,
) -> None:
    base = (FIGHTER if fighter else CAPITAL).get(range_hexes)
    modifier = (
        rating - flag - scout_points - partial - (0 if speed == 0 else 1 if speed <= 2 else 2)
    )
    if cap:
        modifier = max(-3, min(3, modifier))
    kwargs: dict[str, Any] = {
        "fighter": fighter,
        "flag": flag,
        "scout": scout_points > 0,
        "scout_points": scout_points,
        "partial": partial,
        "speed": speed,
        "cap_detection_mods": cap,
    }
    check = detection_check(range_hexes, rating, **kwargs)
    got = {str(k): p for k, p in (check or NO_ROLL).odds().items()}
    assert got == oracle(base, modifier)
    assert sum(got.values()) == 1
    assert as_dict(odds(range_hexes, rating, **kwargs)) == got
    if check is not None:  # the roll judges each face pair as the oracle does
        for a, b in TWO_D6:
            expected = bsg.outcome_of(a + b + modifier, base)  # type: ignore[arg-type]
            assert check.judge_values({"first": a, "second": b}) is expected


# --- the odds query as the command line will run it -----------------------------------------


class _Scenario(Scenario):
    switches: DetectionSwitches = Field(default_factory=DetectionSwitches)


class _AmbushFieldsDouble:
    """What ``odds_command`` reads of a ruleset (id, scenario_model): the ruleset proper is not
    written yet and must not be registered."""

    id = "ambush-fields"
    title = "ambush fields (test double)"
    scenario_model = _Scenario
    odds_queries: ClassVar[dict[str, OddsQuery]] = {ODDS.name: ODDS}


def _invoke(*args: str) -> Result:
    ruleset = cast(Ruleset[Any, Any], _AmbushFieldsDouble())
    odds_app = typer.Typer()
    sub = typer.Typer()
    sub.command(ODDS.name, help=ODDS.help)(odds_command(ruleset, ODDS))
    odds_app.add_typer(sub, name=ruleset.id)
    return CliRunner().invoke(odds_app, ["ambush-fields", "detect", *args, "--json"])


def _odds_cli(*args: str) -> dict[str, Any]:
    result = _invoke(*args)
    assert result.exit_code == 0, result.output
    return cast(dict[str, Any], json.loads(result.output))


def _refused(*args: str) -> str:
    """The usage error (exit code 2), its words joined again where the error box wrapped them."""
    result = _invoke(*args)
    assert result.exit_code == 2, result.output
    return " ".join(result.output.replace("│", " ").split())


@pytest.mark.spec("BSG-T03", "BSG-R14")
def test_the_detect_query_prints_the_worked_odds_as_json() -> None:
    out = _odds_cli(
        "--range", "4", "--rating", "2", "--flag", "--partial", "--speed", "2"
    )  # fmt: skip
    assert out["ruleset"] == "ambush-fields"
    assert out["check"] == "detect"
    assert out["dice"] == {"first": "d6", "second": "d6"}
    assert out["params"] == {
        "range": 4,
        "rating": 2,
        "fighter": False,
        "flag": True,
        "partial": True,
        "speed": 2,
        "scout_points": 0,
    }
    assert [(o["outcome"], o["probability"]) for o in out["outcomes"]] == [
        ("located", "5/12"),
        ("partial", "1/6"),
        ("no_contact", "5/12"),
    ]


@pytest.mark.spec("BSG-T04", "BSG-A09", "BSG-A11")
def test_the_detect_query_covers_fighters_scout_points_and_refuses_no_roll() -> None:
    fighter = _odds_cli("--range", "5", "--rating", "1", "--fighter")  # N=2 against 2d6+1
    odds = {o["outcome"]: Fraction(o["probability"]) for o in fighter["outcomes"]}
    assert odds == oracle(2, 1)
    # Where the table has "-" there is no roll and so no odds: the range that exists is said.
    said = _refused("--range", "6", "--rating", "1", "--fighter")
    assert "a fighter or shuttle detects a field at most 5 hexes away" in said
    assert "shows as no contact" in said
    failed = _odds_cli("--range", "20", "--rating", "3")  # N=2 against 2d6+3: never
    assert [(o["label"], o["probability"]) for o in failed["outcomes"]][-1] == ("no contact", "1")
    scout = _odds_cli("--range", "10", "--rating", "2", "--scout-points", "2")
    located = Fraction(scout["outcomes"][0]["probability"])
    assert located == oracle(4, 0)["located"] == Fraction(1, 6)


# --- the chart ------------------------------------------------------------------------------


@pytest.mark.spec("BSG-R14")
def test_the_chart_curves_are_the_checks_odds() -> None:
    curves = detection_curves(fighter=True)
    located, either = curves[1]
    assert located[0] == odds(1, 1, fighter=True).located  # range 1, N=5, M=2d6+1
    assert either[0] == located[0] + odds(1, 1, fighter=True).partial
    assert located[5:] == [0] * 16  # 6..21 hexes: no roll


def test_plot_detection_writes_a_png(tmp_path: Path) -> None:
    path = plot_detection(tmp_path / "detect.png", flag=True, partial=True, speed=2)
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) > 1000


def test_importing_the_chart_module_does_not_import_matplotlib() -> None:
    code = "import sys, ghillie.rules.ambush_fields.plot; sys.exit('matplotlib' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
