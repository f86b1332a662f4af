"""Every page of every bundled scenario — each side's and the referee's, on a phone (390×844)
and a laptop (1280×800) — opened in a real browser against a real server: once it has drawn
the game (with every <details> opened and every command card's lists given an item), it
reports no console error and no uncaught error, axe-core finds no serious or critical
accessibility violation, and nothing a player can read shows a RULES-SPEC id, double
backticks, a stray null/undefined/NaN/[object Object] or a 32-hex id.

One browser, one server and one game per scenario serve all the cases; each case is its own
test (``-k ambush-fields-referee``) and reports all three checks at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from . import pages


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with pages.serve(tmp_path_factory.mktemp("pages-server")) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with pages.chromium() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def games(server: str) -> dict[str, pages.Game]:
    """One game per scenario, created when a case first needs it."""

    class Games(dict[str, pages.Game]):
        def __missing__(self, scenario: str) -> pages.Game:
            self[scenario] = game = pages.create_game(server, scenario)
            return game

    return Games()


@pytest.fixture(scope="module")
def played(server: str) -> dict[str, pages.Game]:
    """One game per scenario that has a demo script, with the whole script played: the
    pages after reveals, fire, set-ups and the end of the game."""

    class Played(dict[str, pages.Game]):
        def __missing__(self, scenario: str) -> pages.Game:
            self[scenario] = game = pages.create_game(server, scenario)
            pages.play_steps(server, game, len(pages.demo_steps(scenario)))
            return game

    return Played()


CASES = [
    pytest.param(scenario, observer, size, id=f"{scenario}-{observer}-{size}")
    for scenario, observer in pages.cases()
    for size in pages.SIZES
]


PLAYED = [
    pytest.param(scenario, observer, size, id=f"played-{scenario}-{observer}-{size}")
    for scenario, observer in pages.cases()
    if pages.demo_steps(scenario)
    for size in pages.SIZES
]


@pytest.mark.parametrize(("scenario", "observer", "size"), CASES)
def test_the_page_has_no_error_no_serious_axe_violation_and_no_forbidden_text(
    browser: Any, games: dict[str, pages.Game], scenario: str, observer: str, size: int
) -> None:
    check(browser, games[scenario].links[observer], size)


@pytest.mark.parametrize(("scenario", "observer", "size"), PLAYED)
def test_after_a_whole_demo_game_the_page_still_speaks_the_game(
    browser: Any, played: dict[str, pages.Game], scenario: str, observer: str, size: int
) -> None:
    check(browser, played[scenario].links[observer], size)


def check(browser: Any, link: str, size: int) -> None:
    page = pages.open_page(browser, link, size)
    try:
        page.rendered()
        page.open_everything()
        violations = page.axe()
        forbidden = pages.forbidden_text(page.visible_text())
        page.settle()
        errors = list(page.errors)
    finally:
        page.close()

    problems = [f"error: {error}" for error in errors]
    for violation in violations:
        nodes = "; ".join(node["target"] for node in violation["nodes"][:5])
        more = len(violation["nodes"]) - 5
        problems.append(
            f"axe {violation['impact']} {violation['id']} ({violation['help']}): {nodes}"
            + (f" and {more} more" if more > 0 else "")
        )
    problems += [f"text: {line}" for line in forbidden]
    if problems:
        pytest.fail(f"{len(problems)} problem(s):\n" + "\n".join(problems), pytrace=False)


def test_the_text_checks_find_what_they_are_for_and_nothing_else() -> None:
    bad = [
        "as RULES-SPEC BSG-R07 says",
        "SW-R32: a sniper",
        "(DWV-A03)",
        "INF-T04",
        "see BMF-A17.",
        "state BSG-S2",
        "``to`` omitted",
        "Range: null",
        "undefined",
        "NaN hexes",
        "[object Object]",
        "unit 0a1b2c3d4e5f60718293a4b5c6d7e8f9",
    ]
    for line in bad:
        assert pages.forbidden_text([("body", line)]), line
    fine = [
        "Roll 2d6 and add 1: a hit on 7+.",
        "latest head: event 0, ee9521f99899",  # a short digest, as the fairness panel shows
        "nullable, undefinedness, NaNa, BSG-R123, bsg-r07, XBSG-R07x",
        "`to` may be left out",
        "Squares A1 to E3; hex 0412; T-34",
    ]
    for line in fine:
        assert pages.forbidden_text([("body", line)]) == [], line
    (line,) = pages.forbidden_text([("options of select", "— choose —\nBSG-R05 (hex 0101)")])
    assert "BSG-R05" in line
    assert "options of select" in line


def test_the_harness_sees_an_error_a_violation_and_text_in_a_closed_details(
    browser: Any, games: dict[str, pages.Game]
) -> None:
    # A page that passes, spoiled on purpose: what the checks above rely on seeing.
    page = pages.open_page(browser, games["grid-ambush-table"].links["referee"], 390)
    try:
        page.rendered()
        assert page.errors == []
        assert page.axe() == []
        page.page.evaluate(
            """() => {
                console.error('spoiled: a console error');
                setTimeout(() => { throw new Error('spoiled: an uncaught error'); });
                const details = document.createElement('details');
                details.innerHTML = '<summary>More</summary><p>see BSG-R07</p>' +
                    '<input type="text"><select><option>0a1b2c3d4e5f60718293a4b5c6d7e8f9' +
                    '</option></select>';
                const hint = document.createElement('p');
                hint.title = 'SW-R32, only in a tooltip';
                hint.textContent = 'A tooltip';
                document.querySelector('main').append(details, hint);
            }"""
        )
        before = pages.forbidden_text(page.visible_text())
        page.open_everything()
        violations = {v["id"] for v in page.axe()}
        after = pages.forbidden_text(page.visible_text())
        page.settle()
    finally:
        page.close()
    assert any("spoiled: a console error" in e for e in page.errors), page.errors
    assert any("spoiled: an uncaught error" in e for e in page.errors), page.errors
    assert "label" in violations  # a field no label names: critical
    assert before == []  # closed, the details hide their text...
    assert any("'BSG-R07' in body" in line for line in after), after  # ...open, they show it
    assert any("32-hex" in line and "options of select" in line for line in after), after
    assert not any("SW-R32" in line for line in after)  # a title= is not visible text


def test_a_russian_reader_plays_the_russian_rules_in_russian_and_the_others_in_english(
    browser: Any, games: dict[str, pages.Game]
) -> None:
    """Стальная война follows the browser's language: headings, forms and log in the rule
    text's own words; every other ruleset stays English for the same reader."""
    russian = pages.open_page(
        browser, games["suspicious-places-table"].links["lianra"], 390, "ru-RU"
    )
    english = pages.open_page(browser, games["grid-ambush-table"].links["jungle"], 390, "ru-RU")
    try:
        russian.rendered()
        russian.page.wait_for_function("() => document.documentElement.lang === 'ru'")
        russian.settle()
        text = russian.page.inner_text("body")
        assert "Ваши приказы" in text  # the page's own words
        assert "Выложить маркеры «подозрительное место»" in text  # the ruleset's orders
        assert "маркер" in russian.page.inner_text("#log")  # the log
        assert "Your orders" not in text
        english.rendered()
        assert "Your orders" in english.page.inner_text("body")
        assert english.page.evaluate("() => document.documentElement.lang") == "en"
        assert russian.errors == []
        assert english.errors == []
    finally:
        russian.close()
        english.close()
