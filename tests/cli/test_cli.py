"""The ghillie command line, as a newcomer would use it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ghillie import examples, registry
from ghillie.cli import app

runner = CliRunner()


def run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def refused(*args: str) -> str:
    """A usage error (exit code 2), its words joined again where the error box wrapped them."""
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2, result.output
    return " ".join(result.output.replace("│", " ").split())


@pytest.mark.parametrize("columns", ["80", "120"])
def test_rulesets_lists_each_rulesets_examples_by_the_names_new_takes(columns: str) -> None:
    listed = {r["id"]: r["examples"] for r in json.loads(run("rulesets", "--json"))}
    for name in examples.names():
        assert name in listed[examples.data(name)["ruleset"]]
    assert sorted(n for names in listed.values() for n in names) == sorted(examples.names())
    result = runner.invoke(app, ["rulesets"], env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    table = result.output.splitlines()
    for ruleset, names in listed.items():
        # Its examples one a line, whole, from the ruleset's own row down.
        # (in the id column, at the left edge: "camouflage" is also a word of a title)
        row = next(i for i, line in enumerate(table) if line.startswith(f" {ruleset} "))
        for offset, name in enumerate(names):
            assert name in table[row + offset].split(), table[row + offset]
    assert "ghillie new <example>" in result.output


DICE = "d4, d6, d8, d10 or d12"


def test_rulesets_lists_every_registered_ruleset() -> None:
    listed = json.loads(run("rulesets", "--json"))
    assert [r["id"] for r in listed] == list(registry.rulesets())
    table = run("rulesets")
    assert "grid-ambush" in table
    assert "suspicious-places" in table


@pytest.mark.spec("SW-T09")
def test_odds_of_the_issue_example_as_json() -> None:
    out = json.loads(
        run(
            "odds", "suspicious-places", "observe",
            "--range", "30", "--cover", "soft", "--quality", "d8", "--means", "eyes", "--json",
        )
    )  # fmt: skip
    assert out["dice"] == {"target": "d10", "quality": "d8", "means": "d4"}
    assert [(o["outcome"], o["probability"]) for o in out["outcomes"]] == [
        ("nothing", "99/160"),
        ("flipped", "21/80"),
        ("revealed", "19/160"),
    ]
    assert out["outcomes"][0]["percent"] == pytest.approx(61.875)


def test_odds_as_a_readable_table() -> None:
    out = run("odds", "suspicious-places", "observe", "--range", "30", "--cover", "soft")
    assert "99/160" in out
    assert "61.88%" in out
    assert "flipped" in out


@pytest.mark.parametrize(
    "args",
    [
        ["fire", "--range", "20", "--quality", "d8", "--weapon", "d6", "--lone"],
        ["fire", "--range", "40", "--quality", "d8", "--sniper", "--hidden"],
        ["covert-move", "--quality", "d8", "--leadership", "4"],
        ["covert-move", "--quality", "d10", "--leadership", "d6"],
        ["markers", "--units", "3"],
    ],
)
def test_every_check_that_rolls_dice_has_odds_that_add_up_to_one(args: list[str]) -> None:
    from fractions import Fraction

    out = json.loads(run("odds", "suspicious-places", *args, "--json"))
    assert sum(Fraction(o["probability"]) for o in out["outcomes"]) == 1


def test_odds_take_switches_from_a_scenario(tmp_path: Path) -> None:
    data = examples.data("suspicious-places-table")
    path = tmp_path / "capped.json"
    path.write_text(json.dumps({**data, "switches": {"sw.overflow": "cap_d12"}}))
    args = ["odds", "suspicious-places", "observe", "--range", "60", "--cover", "hard", "--json"]
    assert json.loads(run(*args))["dice"]["target"] == "d12+2"
    assert json.loads(run(*args, "--scenario", str(path)))["dice"]["target"] == "d12"


def test_bad_parameters_get_a_clear_error() -> None:
    result = runner.invoke(app, ["odds", "suspicious-places", "observe", "--range", "-1"])
    assert result.exit_code == 2
    assert "--range" in result.output
    result = runner.invoke(
        app, ["odds", "suspicious-places", "observe", "--range", "3", "--quality", "d3x"]
    )
    assert result.exit_code == 2


MEANS = "is not an observation means in this game: use eyes (d4), binoculars (d6), stereo (d8) or "
MEANS += "electronic (d10)"
LEADERSHIP = f"is not a leadership in this game: give a number from 1 to 12 or a die, {DICE}"
NO_DIE = f"is not a die in this game: use {DICE}"


@pytest.mark.spec("SW-R11", "SW-R13", "SW-R36")
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["observe", "--range", "30", "--quality", "d7"], f"d7 {NO_DIE}"),
        (["observe", "--range", "30", "--means", "d12"], f"d12 {MEANS}"),
        (["fire", "--range", "20", "--quality", "d9"], f"d9 {NO_DIE}"),
        (["fire", "--range", "20", "--weapon", "d12+1"], f"d12+1 {NO_DIE}"),
        (["covert-move", "--leadership", "4", "--quality", "d20"], f"d20 {NO_DIE}"),
        (["covert-move", "--leadership", "d7"], f"d7 {LEADERSHIP}"),
    ],
)  # fmt: skip
def test_odds_refuse_a_die_the_game_does_not_have(args: list[str], said: str) -> None:
    option = next(a for a in reversed(args) if a.startswith("--"))
    assert f"Invalid value for '{option}': {said}" in refused("odds", "suspicious-places", *args)


def test_odds_help_lists_the_dice_there_are() -> None:
    shown = run("odds", "suspicious-places", "fire", "--help")
    assert shown.count("<d4|d6|d8|d10|d12>") == 2  # --quality and --weapon
    means = " ".join(run("odds", "suspicious-places", "observe", "--help").split())
    assert "eyes|binoculars|stereo|el" in means


@pytest.mark.spec("SW-R13")
def test_odds_take_a_die_as_the_rule_text_writes_it() -> None:
    out = json.loads(run("odds", "suspicious-places", "observe", "--range", "30",
                         "--quality", "к8", "--means", "binoculars", "--json"))  # fmt: skip
    assert out["dice"] == {"target": "d8", "quality": "d8", "means": "d6"}


def test_a_ruleset_without_dice_says_so() -> None:
    assert "no dice rolls" in run("odds", "grid-ambush")


@pytest.mark.parametrize("ruleset", sorted(registry.rulesets()))
def test_demo_shows_each_side_what_it_sees(ruleset: str) -> None:
    out = run("demo", ruleset)
    assert "Step 1" in out
    assert "sees:" in out


def test_demo_for_one_side_keeps_the_other_sides_secrets() -> None:
    out = run("demo", "suspicious-places", "--side", "keno")
    assert "keno sees" in out
    assert "lianra sees" not in out
    assert "MG nest behind the birches" not in out.replace("\n", " ")
    assert "machine-gun position under M1" not in out.replace("\n", " ")
    steps = json.loads(run("demo", "suspicious-places", "--side", "keno", "--json"))
    assert all(set(step["views"]) == {"keno"} for step in steps)
    assert "MG nest behind the birches" not in json.dumps(steps[2]["views"])


def test_demo_of_an_unknown_ruleset() -> None:
    result = runner.invoke(app, ["demo", "chess"])
    assert result.exit_code == 2
    assert "grid-ambush" in result.output


@pytest.mark.spec("BSG-R14")
def test_ambush_fields_detect_odds_and_chart(tmp_path: Path) -> None:
    # The issue's example, and the chart players weigh where to scan with.
    out = json.loads(
        run("odds", "ambush-fields", "detect", "--range", "4", "--rating", "2", "--flag",
            "--partial", "--speed", "2", "--json")
    )  # fmt: skip
    odds = {o["outcome"]: o["probability"] for o in out["outcomes"]}
    assert odds == {"located": "5/12", "partial": "1/6", "no_contact": "5/12"}
    chart = tmp_path / "detect.png"
    said = run("odds", "ambush-fields", "detect", "--range", "4", "--rating", "3", "--fighter",
               "--plot", str(chart))  # fmt: skip
    assert "Chart written" in said
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
