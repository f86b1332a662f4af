"""Стальная война on a Russian browser: every page of a suspicious-places game, at ru-RU, is
wholly in Russian (issue 26, item 3).

The sweep opens each side's page, the referee's, the table screen, the start page and its
links, a side's page on a second device, and the replay after the game; it opens every
form, shows the odds of an observation, opens the Fairness panel and provokes a refusal.
What a player can read there must hold no English word: an ASCII word of three letters or
more, once the game's own names are set aside (the scenario's title, its sides, pieces and
terrain, the notes the players typed: its author's words, shown as written) and the few
words in ALLOWED.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ghillie import examples, registry

from . import pages

RU = "ru-RU"
# Words a Russian page may show in Latin letters: the program's own name and the command a
# page tells the host to run (ghillie audit, ghillie serve --lan), the file types the start
# page accepts, and the key a host presses to stop the server (Ctrl+C). Nothing else.
ALLOWED = frozenset({"ghillie", "audit", "serve", "lan", "unfinished", "toml", "json", "ctrl"})
WORD = re.compile(r"[A-Za-z]{3,}")
# Not words: links, file names (the record's, made from the scenario's title), hex digests
# and ids (a 12-hex hash prefix may read "fade"), and the shape of a move code (XXXXX-XXXXX).
NOT_WORDS = re.compile(r"https?://\S+|\S+\.json\b|\b[0-9a-f]{8,}\b|\bX{5}\b")

# The text a player can read, node by node: every visible text node with the language of
# its element (a ruleset that does not speak Russian marks its card lang="en"), the words a
# form shows outside the text (options, placeholders) and the § tooltips.
_TEXT = """() => {
    const out = [];
    const langOf = (el) => ((el.closest('[lang]') || document.documentElement).lang || '');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!el || !node.textContent.trim() || el.closest('script, style')) continue;
        if (!el.checkVisibility({ visibilityProperty: true })) continue;
        const kind = typeof el.className === 'string' && el.className ?
            '.' + el.className.split(' ')[0] : '';
        out.push([el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + kind,
            langOf(el), node.textContent]);
    }
    for (const select of document.querySelectorAll('select')) {
        if (!select.checkVisibility()) continue;
        for (const o of select.options) out.push(['option', langOf(select), o.text]);
    }
    for (const input of document.querySelectorAll('input, textarea')) {
        if (!input.checkVisibility() || ['hidden', 'checkbox', 'radio'].includes(input.type)) {
            continue;
        }
        if (input.placeholder) out.push(['placeholder', langOf(input), input.placeholder]);
    }
    // The § tooltips: the rules a line or an order applies, named.
    for (const mark of document.querySelectorAll('abbr.rules')) {
        out.push(['§ tooltip', langOf(mark), mark.title]);
    }
    return out;
}"""


def scenario_words(name: str) -> list[str]:
    """The scenario's own words (every string in its file) and the notes its demo's players
    type: set aside whole, longest first, before looking for English."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(examples.data(name))
    for _, command in pages.demo_steps(name):
        walk(command)
    # A name is also shown with its possessive ("Sergeant Volk's squad" is a name already).
    return sorted({" ".join(w.split()) for w in found if WORD.search(w)}, key=len, reverse=True)


def english(page: pages.OpenPage, names: list[str]) -> list[str]:
    """Each English word a Russian reader finds on the page now: where, the word, the line."""
    out = []
    for where, lang, text in page.page.evaluate(_TEXT):
        if lang.startswith("en"):
            continue  # a ruleset that speaks no Russian, marked as English
        rest = NOT_WORDS.sub(" ", " ".join(text.split()))
        for name in sorted(set(names), key=len, reverse=True):  # a title before its words
            rest = rest.replace(name, " ")
        for word in WORD.findall(rest):
            if word.lower() not in ALLOWED:
                out.append(f"{word!r} in {where}: {' '.join(text.split())[:160]!r}")
    return out


def set_up(server: str) -> pages.Game:
    """A table game with the demo's set-up played through the API, with as many markers as
    the fair d6 gave (one at a time until the squad may hide), then the sergeant activated.
    A d6 of 1 gives fewer markers than the demo hides things, another story: a new game is
    set up instead (one game in 6 had it, and the sweep failed at random). Markers the
    hiding leaves unused may stay in the pool (the markers are pooled, SW-A04)."""
    steps = pages.demo_steps("suspicious-places-table")
    marker = {"type": "place_markers", "markers": [{"cover": "soft", "open": False}]}
    for _ in range(20):
        game = pages.create_game(server, "suspicious-places-table")
        for _ in range(7):  # one marker at a time until the hiding may begin
            pages.command(server, game, "lianra", marker)
            if "status" not in pages.command(server, game, *steps[1]):
                break
        else:
            continue
        break
    else:
        raise AssertionError("no game in 20 gave the demo's hiding enough markers")
    for side, command in steps[2:6]:
        answer = pages.command(server, game, side, command)
        assert "status" not in answer, (command, answer)
    return game


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with pages.serve(tmp_path_factory.mktemp("russian-server")) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with pages.chromium() as chromium:
        yield chromium


def sweep(page: pages.OpenPage, names: list[str], what: str, found: dict[str, list[str]]) -> None:
    page.open_everything()
    page.settle()
    words = english(page, names)
    if words:
        found[what] = words


def test_every_page_of_a_suspicious_places_game_is_wholly_russian(
    server: str, browser: Any, tmp_path: Path
) -> None:
    found: dict[str, list[str]] = {}

    # The game on ghillie's map, being set up: the map, its caption and legend, the setup
    # forms, the Fairness panel.
    mapped = pages.create_game(server, "suspicious-places")
    names = scenario_words("suspicious-places")
    for observer, url in mapped.links.items():
        page = pages.open_page(browser, url, 390, RU)
        try:
            page.rendered()
            page.page.wait_for_function("() => document.documentElement.lang === 'ru'")
            sweep(page, names, f"map game, {observer}", found)
            assert page.errors == [], page.errors
        finally:
            page.close()

    # At a real table, the Keno sergeant activated: the observation form with its odds, and
    # the refusal of an observation of a marker he cannot see.
    table = set_up(server)
    names = scenario_words("suspicious-places-table")
    keno = pages.open_page(browser, table.links["keno"], 390, RU)
    try:
        keno.rendered()
        keno.page.wait_for_function("() => document.documentElement.lang === 'ru'")
        card = keno.page.locator("details.command[data-command=observe]")
        card.locator("summary").click()
        form = card.locator("form")
        marker = form.locator("select[name=marker] option", has_text="M1").get_attribute("value")
        pages.fill(form, {"marker": marker, "measured": {"range": 30, "line_of_sight": "true"}})
        odds = card.locator(".odds .odds-list")
        odds.wait_for()
        shown = card.locator(".odds").inner_text()
        assert "Шансы (куб цели к" in shown, shown  # the dice as the rule text writes them
        assert "ничего (без перемен)" in shown, shown
        sweep(keno, names, "table game, keno, odds shown", found)
        pages.fill(form, {"measured": {"line_of_sight": "false"}})
        card.locator(".odds .hint.warn").wait_for()
        form.locator("button.send").click()
        keno.page.wait_for_selector("#result.error")
        refusal = keno.page.inner_text("#result")
        assert "Наблюдатель не видит этот маркер." in refusal, refusal
        sweep(keno, names, "table game, keno, refused", found)
        assert keno.errors == [], keno.errors
    finally:
        keno.close()
    for observer in ("lianra", "referee", "spectator"):
        page = pages.open_page(browser, table.links[observer], 390, RU)
        try:
            page.rendered()
            page.page.wait_for_function("() => document.documentElement.lang === 'ru'")
            sweep(page, names, f"table game, {observer}", found)
        finally:
            page.close()

    # Keno's link on a second device: the seat is taken, and the server says so; a wrong
    # code to move the seat is refused.
    other = browser.new_context(viewport=pages.SIZES[390], locale=RU)
    try:
        second = other.new_page()
        second.goto(table.links["keno"])
        second.wait_for_function("() => document.documentElement.lang === 'ru'")
        second.wait_for_function(
            "() => window.ghillie && window.ghillie.seat && window.ghillie.seat.state === 'taken'"
        )
        # A wrong move code: the server's seat refusal, in Russian.
        second.locator("input[name=move-code]").fill("AAAAA-AAAAA")
        second.locator("form.move-code button[type=submit]").click()
        second.get_by_text("Это не тот код, который показывает устройство").wait_for()
        sweep(pages.OpenPage(other, second), names, "table game, keno on a second device", found)
    finally:
        other.close()

    # The whole game played and ended: the pages after the end, and the replay.
    played = set_up(server)
    pages.play_steps(server, played, 99)  # the rest of the demo, as far as the dice allow
    pages.command(server, played, "keno", {"type": "end_game"})
    for observer in ("keno", "referee"):
        page = pages.open_page(browser, played.links[observer], 390, RU)
        try:
            page.rendered()
            page.page.wait_for_function("() => document.documentElement.lang === 'ru'")
            sweep(page, names, f"ended game, {observer}", found)
        finally:
            page.close()
    replay = played.links["referee"].replace("/play/", "/replay/")
    page = pages.open_page(browser, replay, 1280, RU)
    try:
        page.page.wait_for_selector("#columns section")
        page.page.locator("#end").click()
        page.page.wait_for_function("() => document.documentElement.lang === 'ru'")
        page.settle()
        sweep(page, names, "replay", found)
    finally:
        page.close()

    # The start page, the Russian rules chosen first, and the links of the game it sets up.
    start = pages.open_page(browser, f"{server}/", 1280, RU)
    try:
        start.page.wait_for_selector("input[name=scenario]")
        assert start.page.locator("#ruleset-suspicious-places").is_checked()
        sweep(start, [*names, *scenario_words("suspicious-places")], "start page", found)
        start.page.locator("#create-button").click()
        start.page.wait_for_selector("#link-list li")
        start.settle()
        sweep(start, [*names, *scenario_words("suspicious-places")], "links page", found)
        assert start.errors == [], start.errors
    finally:
        start.close()

    assert found == {}, "\n".join(f"{what}:\n  " + "\n  ".join(w) for what, w in found.items())


# --- the § tooltips of every ruleset -------------------------------------------------------------

SPEC_ID = re.compile(r"\b[A-Z]{2,4}-[A-Z]{1,2}\d+")
_TOOLTIPS = "() => [...document.querySelectorAll('abbr.rules')].map((a) => a.title)"


def _cites_rules(scenario: str) -> bool:
    """Do its orders name rules (a toy with no RULES-SPEC section, scout-search, names none)?"""
    ruleset = registry.get(examples.data(scenario)["ruleset"])
    return any(order.rules for order in ruleset.orders.values())


@pytest.mark.parametrize(
    "scenario", [n for n in examples.names() if pages.demo_steps(n) and _cites_rules(n)]
)
def test_every_rule_tooltip_names_its_rules_and_never_a_spec_id(
    server: str, browser: Any, scenario: str
) -> None:
    """Issue 26, item 4: a § reads "Sniper stealth setup: The sniper figure is not placed.",
    one line per rule, not "Rules: SW-R33"."""
    game = pages.create_game(server, scenario)
    pages.play_steps(server, game, 99)
    titles: list[str] = []
    first_side = next(o for o in game.links if o not in ("referee", "spectator"))
    for observer in ("referee", first_side):
        page = pages.open_page(browser, game.links[observer], 1280)
        try:
            page.rendered()
            page.open_everything()
            titles.extend(page.page.evaluate(_TOOLTIPS))
        finally:
            page.close()
    assert titles, "no § on the referee's page or a side's after the demo"
    for title in titles:
        assert not SPEC_ID.search(title), title
        for line in title.splitlines():
            assert re.match(r"^\w[^:]{2,60}: \S.{2,}$", line), title  # "Name: a line"


def test_a_map_built_before_the_pages_words_arrive_is_put_into_them(
    server: str, browser: Any
) -> None:
    # On a slow phone the view (and the map with it) may come before the page's own words
    # in Russian: the map's buttons must not stay in English.
    mapped = pages.create_game(server, "suspicious-places")
    held: list[Any] = []
    with urllib.request.urlopen(f"{server}/api/words?lang=ru") as answer:
        words = json.load(answer)["words"]

    def listen(page: Any) -> None:
        def hold(route: Any) -> None:  # held back until the map is drawn
            held.append(route)

        page.route("**/api/words*", hold)

    opened = pages.open_page(browser, mapped.links["keno"], 390, RU, listen)
    try:
        mine = opened.page.locator(".map-tools button.zoom.mine")
        zoom_in = opened.page.locator(".map-tools button.zoom").first
        pages.take_seat(opened.page)
        mine.wait_for(state="attached")
        while not held:
            opened.page.wait_for_timeout(50)
        assert mine.inner_text() == "My pieces"  # built in English, as the words were late
        for route in held:
            route.continue_()
        opened.page.wait_for_function("() => document.documentElement.lang === 'ru'")
        assert mine.inner_text() == words["My pieces"]
        assert zoom_in.get_attribute("aria-label") == words["Zoom in"]
        assert opened.errors == [], opened.errors
    finally:
        opened.close()
