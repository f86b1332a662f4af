"""Every odds query of every ruleset, as the command line runs it: parameters a game cannot
have are refused with what does exist."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from matplotlib.figure import Figure
from pydantic import ValidationError
from typer.testing import CliRunner

from ghillie import examples, registry
from ghillie.cli import app
from ghillie.rules.ambush_fields import detection as bsg
from ghillie.rules.ambush_fields.plot import RANGES
from ghillie.ruleset import OddsQuery
from tests.test_spec_coverage import REQUIRED

runner = CliRunner()
SPEC_ID = re.compile(r"\b(?:SW|BSG|DWV|BMF|INF)-[RATS]\d")

# For every query, parameters that can arise in a game: the baseline each test varies.
EXAMPLES: dict[tuple[str, str], dict[str, Any]] = {
    ("ambush-fields", "detect"): {"range": 4, "rating": 2, "flag": True, "speed": 2},
    ("suspicious-places", "observe"): {"range": 30, "cover": "soft"},
    ("suspicious-places", "fire"): {"range": 40, "sniper": True, "hidden": True},
    ("suspicious-places", "covert-move"): {"quality": "d8", "leadership": "d6"},
    ("suspicious-places", "markers"): {"units": 3},
    ("camouflage", "discover"): {"wip": 13, "range": 45, "mimetism": -3},
    ("ambush-fire", "challenge"): {"chance": 60},
    ("ambush-fire", "return-challenge"): {"chance": 55},
    ("ambush-fire", "return-ambush"): {"chance": 60},
    ("ambush-fire", "defence"): {"chance": 50},
    ("scout-search", "search"): {"hear_on": 6},
}
QUERIES = {
    (ruleset.id, query.name): query
    for ruleset in registry.rulesets().values()
    for query in ruleset.odds_queries.values()
}


def refused(*args: str) -> str:
    """A usage error (exit code 2), its words joined again where the error box wrapped them."""
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2, result.output
    return " ".join(result.output.replace("│", " ").split())


def test_every_odds_query_has_an_example() -> None:
    assert set(EXAMPLES) == set(QUERIES)


def _numbers(query: OddsQuery) -> list[str]:
    return [
        name
        for name, field in query.params.model_fields.items()
        if typing.get_origin(field.annotation) is None
        and isinstance(field.annotation, type)
        and issubclass(field.annotation, int | float)
        and not issubclass(field.annotation, bool)
    ]


@pytest.mark.parametrize("key", sorted(EXAMPLES), ids="/".join)
def test_every_number_a_query_takes_is_bounded_both_ways(key: tuple[str, str]) -> None:
    # A range, a count or a modifier with no end would give odds of a situation no game has.
    query = QUERIES[key]
    query.params.model_validate(EXAMPLES[key])
    numbers = _numbers(query)
    assert numbers or key == ("suspicious-places", "covert-move")
    for name in numbers:
        for beyond in (10**6, -(10**6)):
            with pytest.raises(ValidationError) as refused_:
                query.params.model_validate({**EXAMPLES[key], name: beyond})
            assert [e["loc"] for e in refused_.value.errors()] == [(name,)], (name, beyond)


DETECT = ("odds", "ambush-fields", "detect")
LONGEST = (
    "Invalid value for '--range': the longest detection range is 20 hexes (BSG-A11); "
    "farther, no roll is made and the attempt shows as no contact"
)
FIGHTERS = (
    "Invalid value for '--range': a fighter or shuttle detects a field at most 5 hexes away "
    "(BSG-R14); farther, it makes no roll and the attempt shows as no contact"
)


@pytest.mark.spec("BSG-R14", "BSG-A11", "BSG-T04", "BSG-T05")
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["--range", "50", "--rating", "2"],
            LONGEST,
        ),
        (
            ["--range", "21", "--rating", "2"],
            LONGEST,
        ),
        (
            ["--range", "6", "--rating", "2", "--fighter"],
            FIGHTERS,
        ),
        (
            ["--range", "0", "--rating", "2"],
            "'--range': the range is counted to the field's nearest hex, so it is at least 1",
        ),
        (
            ["--range", "4", "--rating", "4"],
            "'--rating': 4 is out of range: it runs from 1 to 3 (the field's rating R, 1 to 3)",
        ),
        (
            ["--range", "4", "--rating", "2", "--speed", "100"],
            "'--speed': 100 is out of range: it runs from 0 to 99",
        ),
        (
            ["--range", "4", "--rating", "2", "--scout-points", "-1"],
            "'--scout-points': -1 is out of range: it runs from 0 to 99",
        ),
        (
            ["--range", "4", "--rating", "2", "--fighter", "--scout-points", "2"],
            "'--scout-points': a fighter or shuttle is no scout",
        ),
    ],
)
def test_detect_odds_refuse_what_the_range_table_does_not_have(args: list[str], said: str) -> None:
    assert said in refused(*DETECT, *args)


@pytest.mark.spec("BSG-R14", "BSG-A11")
def test_detect_odds_run_to_the_last_column_of_each_row() -> None:
    for args in (["--range", "20"], ["--range", "5", "--fighter"]):
        assert runner.invoke(app, [*DETECT, "--rating", "1", *args]).exit_code == 0


SW = ("odds", "suspicious-places")


@pytest.mark.spec("SW-R02", "SW-R33", "SW-R36", "SW-A11")
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["observe", "--range", "1001"],
            (
                "'--range': 1001 is out of range: it runs from 0 to 1000 (inches from the "
                "observer to the marker)"
            ),
        ),
        (
            ["fire", "--range", "-3"],
            (
                "'--range': -3 is out of range: it runs from 0 to 1000 (inches from the shooter "
                "to the target)"
            ),
        ),
        (
            ["fire", "--range", "20", "--hidden"],
            "'--hidden': only a sniper shoots from hiding (SW-R33): give --sniper as well",
        ),
        (
            ["markers", "--units", "7"],
            (
                "'--units': 7 is out of range: it runs from 1 to 6 (camouflaged units (d6 markers "
                "each))"
            ),
        ),
        (
            ["covert-move", "--leadership", "13"],
            (
                "'--leadership': a leadership number runs from 1 to 12 (the most a quality die "
                "rolls), not 13"
            ),
        ),
        (
            ["covert-move", "--leadership", "-2"],
            "'--leadership': -2 is not a leadership in this game",
        ),
    ],
)
def test_suspicious_places_odds_refuse_what_cannot_arise(args: list[str], said: str) -> None:
    assert said in refused(*SW, *args)


# --- the chart: only the range varies --------------------------------------------------------


def _drawn(monkeypatch: pytest.MonkeyPatch, *args: str) -> Figure:
    """The one figure ``--plot`` draws, caught as it is saved."""
    drawn: list[Figure] = []
    save = Figure.savefig

    def keep(self: Figure, *a: Any, **k: Any) -> None:
        drawn.append(self)
        save(self, *a, **k)

    monkeypatch.setattr(Figure, "savefig", keep)
    result = runner.invoke(app, [*DETECT, *args])
    assert result.exit_code == 0, result.output
    [figure] = drawn
    return figure


@pytest.mark.spec("BSG-R14", "BSG-A08", "BSG-A09", "BSG-A10")
@pytest.mark.parametrize(
    ("args", "switches", "rating", "mods"),
    [
        (
            ["--range", "4", "--rating", "2", "--flag", "--partial", "--speed", "2"],
            {},
            2,
            {"flag": True, "partial": True, "speed": 2},
        ),
        (["--range", "3", "--rating", "3", "--fighter"], {}, 3, {"fighter": True}),
        (
            ["--range", "16", "--rating", "1", "--flag", "--partial", "--speed", "3",
             "--scout-points", "4"],
            {"bsg.cap_detection_mods": True},
            1,
            {"flag": True, "partial": True, "speed": 3, "scout": True, "scout_points": 4,
             "cap_detection_mods": True},
        ),
    ],
)  # fmt: skip
def test_the_detect_chart_is_drawn_for_the_parameters_given(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    switches: dict[str, Any],
    rating: int,
    mods: dict[str, Any],
) -> None:
    scenario = tmp_path / "scenario.json"
    scenario.write_text(json.dumps({**examples.data("ambush-fields-table"), "switches": switches}))
    chart = tmp_path / "chart.png"
    figure = _drawn(monkeypatch, *args, "--scenario", str(scenario), "--plot", str(chart))
    assert chart.read_bytes().startswith(b"\x89PNG")
    [axes] = figure.axes  # one kind of unit: the one given
    curves = {
        str(line.get_label()): ([int(x) for x in line.get_xdata()], list(line.get_ydata()))
        for line in axes.lines
        if str(line.get_label()).startswith("rating")
    }
    attempts = [bsg.odds(r, rating, **mods) for r in RANGES]
    assert curves == {  # one rating, the one given, with every modifier given
        f"rating {rating}: located": (list(RANGES), [float(a.located) for a in attempts]),
        f"rating {rating}: located or partial information": (
            list(RANGES),
            [float(a.located + a.partial) for a in attempts],
        ),
    }
    given = int(args[args.index("--range") + 1])
    assert [line.get_xdata()[0] for line in axes.lines if line.get_label() == f"{given} hexes"] == [
        given
    ]
    title = " ".join(figure.get_suptitle().split())  # the modifiers may wrap
    assert not SPEC_ID.search(title)
    for words, given_it in (
        ("with a Flag rating", mods.get("flag")),
        ("holding partial information", mods.get("partial")),
        (f"speed {mods.get('speed')}", mods.get("speed")),
        ("modifiers capped at ±3", mods.get("cap_detection_mods")),
    ):
        assert (words in title) == bool(given_it), (words, title)
    assert ("Fighters" in axes.get_title()) == bool(mods.get("fighter"))
    assert ("scout spending 4" in axes.get_title()) == bool(mods.get("scout_points"))


# --- what the odds are of, in players' words --------------------------------------------------


def _options(params: dict[str, Any]) -> list[str]:
    args: list[str] = []
    for name, value in params.items():
        option = f"--{name.replace('_', '-')}"
        args += [option] if value is True else [option, str(value)]
    return args


def _table(key: tuple[str, str], *extra: str) -> tuple[str, list[str], str]:
    """The title, the outcome rows and the rules line of a query's table."""
    result = runner.invoke(app, ["odds", *key, *_options(EXAMPLES[key]), *extra])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("┏"))
    bottom = next(i for i, line in enumerate(lines) if line.startswith("└"))
    rows = [line.split("│")[1].strip() for line in lines[top + 3 : bottom]]
    return " ".join(" ".join(lines[:top]).split()), rows, " ".join(lines[bottom + 1 :]).strip()


@pytest.mark.parametrize("key", sorted(EXAMPLES), ids="/".join)
def test_every_odds_table_reads_in_players_words(key: tuple[str, str]) -> None:
    query = QUERIES[key]
    title, rows, rules = _table(key)
    assert title
    assert not SPEC_ID.search(title), title  # spec ids go on the rules line
    assert key[0] not in title
    assert "_" not in title
    assert rules == f"rules: {query.rules}"
    if REQUIRED[key[0]]:  # a ruleset with no RULES-SPEC section has no id to name
        assert SPEC_ID.search(rules)
    out = json.loads(runner.invoke(app, ["odds", *key, *_options(EXAMPLES[key]), "--json"]).output)
    assert out["title"] == title
    assert out["rules"] == query.rules
    # Every outcome reads as the query labels it: none is shown as its code.
    assert [o["label"] for o in out["outcomes"]] == [
        query.labels[o["outcome"]] for o in out["outcomes"]
    ]
    assert rows == [o["label"] for o in out["outcomes"]]
    assert not any("_" in row for row in rows)


@pytest.mark.spec("BSG-R14", "SW-T09")
@pytest.mark.parametrize(
    ("key", "title"),
    [
        (
            ("ambush-fields", "detect"),
            "Detection by a capital ship 4 hexes from a rating 2 field, with a Flag rating, the "
            "field's controller at speed 2: 2d6, located on 5 or less, partial information on 6",
        ),
        (
            ("suspicious-places", "observe"),
            'Observing a marker 30" away in soft cover: its range die d10 against quality d8 and '
            "eyes d4",
        ),
        (
            ("suspicious-places", "fire"),
            "A hidden sniper's shot at a target 40\" away in the open: its range die d8 against "
            "quality d8 and weapon d6",
        ),
        (
            ("suspicious-places", "covert-move"),
            "A sniper's covert move: quality d8 to roll higher than its leadership die d6",
        ),
        (
            ("suspicious-places", "markers"),
            "Suspicious-place markers for 3 camouflaged units: d6 each, pooled",
        ),
    ],
)
def test_an_odds_title_says_what_the_odds_are_of(key: tuple[str, str], title: str) -> None:
    assert _table(key)[0] == title


@pytest.mark.spec("BSG-A08", "SW-A11")
def test_a_title_follows_the_scenarios_switches(tmp_path: Path) -> None:
    capped = tmp_path / "capped.json"
    data = examples.data("ambush-fields-table")
    capped.write_text(json.dumps({**data, "switches": {"bsg.cap_detection_mods": True}}))
    key = ("ambush-fields", "detect")
    title = _table(key, "--scout-points", "6", "--scenario", str(capped))[0]
    assert "a scout spending 6 scout points" in title
    assert "modifiers capped at ±3: 2d6 - 3," in title
    faces = tmp_path / "faces.json"
    data = examples.data("suspicious-places-table")
    faces.write_text(json.dumps({**data, "switches": {"sw.leadership_die": "faces"}}))
    title = _table(("suspicious-places", "covert-move"), "--scenario", str(faces))[0]
    assert title.endswith("to roll higher than its leadership d6, counted as 6")
