"""The maps a player reads, in a real browser (issue 26, items 5 and 7).

- No piece's label covers another's, on each ruleset's map, for each side and the referee, on
  a phone (390×844) and a laptop (1280×800), as the page opens and on the whole map: the
  ruleset's map scenario as it is set up, and its demo played part-way where a demo plays
  it (three tanks at one spot, a lieutenant beside a sergeant's squad, a raider flight by a
  scout ship).
- A phone's hex map draws the hexes' numbers once a hex is large enough to read them.
- The table screen's map fills the screen, the rest of the game beside it.
- A grid game's map measures in squares: its columns' letters and rows' numbers.
- After the game, each step draws every side's map beside the truth's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ghillie.state import REFEREE, SPECTATOR
from tests.registered import map_examples

from . import pages

# The bundled scenarios each ruleset plays on its map (its others are at a real table).
MAP_SCENARIOS = map_examples()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with pages.serve(tmp_path_factory.mktemp("maps-server")) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with pages.chromium() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def games(server: str) -> dict[tuple[str, str], pages.Game]:
    """(scenario, "set up" | "part-way" | "over") -> a game of it, made when first needed:
    as set up, with the first half of the scenario's demo played, or the whole demo."""

    class Games(dict[tuple[str, str], pages.Game]):
        def __missing__(self, key: tuple[str, str]) -> pages.Game:
            scenario, when = key
            game = pages.create_game(server, scenario)
            steps = len(pages.demo_steps(scenario))
            pages.play_steps(server, game, {"set up": 0, "part-way": steps // 2}.get(when, steps))
            self[key] = game
            return game

    return Games()


# Each label's box on the screen, and the pairs of labels whose boxes overlap (by more than
# half a pixel: boxes laid edge to edge may share a rounding).
_LABELS = """() => {
    const boxes = [...document.querySelectorAll('#map g.token text.label')]
        .filter((t) => t.textContent.trim() && t.checkVisibility())
        .map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0);
    const overlaps = [];
    for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
            const [a, b] = [boxes[i].r, boxes[j].r];
            const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (x > 0.5 && y > 0.5) overlaps.push(`${boxes[i].text} over ${boxes[j].text}`);
        }
    }
    // A label partly past the edge of the map on the screen is cut off (one wholly off it
    // belongs to a piece out of view, and comes with it).
    const frame = document.querySelector('#map svg').getBoundingClientRect();
    const cut = boxes.filter(({ r }) => {
        const across = Math.min(r.right, frame.right) - Math.max(r.left, frame.left);
        const down = Math.min(r.bottom, frame.bottom) - Math.max(r.top, frame.top);
        const inside = r.left >= frame.left - 0.5 && r.right <= frame.right + 0.5 &&
            r.top >= frame.top - 0.5 && r.bottom <= frame.bottom + 0.5;
        return across > 0 && down > 0 && !inside;
    }).map(({ text }) => text);
    return { count: boxes.length, overlaps, cut };
}"""


def label_cases() -> list[Any]:
    out = []
    for scenario in MAP_SCENARIOS:
        whens = ["set up", "part-way"] if pages.demo_steps(scenario) else ["set up"]
        for when in whens:
            for observer in pages.observers(scenario):
                for size in pages.SIZES:
                    name = f"{scenario}-{when.replace(' ', '-')}-{observer}-{size}"
                    out.append(pytest.param(scenario, when, observer, size, id=name))
    return out


@pytest.mark.parametrize(("scenario", "when", "observer", "size"), label_cases())
def test_no_label_on_the_map_covers_another(
    browser: Any,
    games: dict[tuple[str, str], pages.Game],
    scenario: str,
    when: str,
    observer: str,
    size: int,
) -> None:
    page = pages.open_page(browser, games[scenario, when].links[observer], size)
    try:
        page.rendered()
        first = page.page.evaluate(_LABELS)
        page.page.locator("#map button.whole").click()
        page.settle()
        whole = page.page.evaluate(_LABELS)
        # A map may be empty as the game is set up (scout-search's pieces come on as they
        # act) when a case part-way through the demo measures its labels.
        empty_allowed = when == "set up" and bool(pages.demo_steps(scenario))
        assert whole["count"] > 0 or empty_allowed, "the map shows no labelled piece"
        assert not first["overlaps"], f"as the page opens: {first['overlaps']}"
        assert not whole["overlaps"], f"on the whole map: {whole['overlaps']}"
        assert not first["cut"], f"cut off at the map's edge as the page opens: {first['cut']}"
        assert not whole["cut"], f"cut off at the map's edge on the whole map: {whole['cut']}"
        assert not page.errors
    finally:
        page.close()


# The screen size of a hex, and how many hex numbers are drawn and in view, with the least
# height of their words.
_HEXES = """() => {
    const svg = document.querySelector('#map svg');
    const frame = svg.getBoundingClientRect();
    const hex = svg.querySelector('polygon.hex').getBoundingClientRect();
    const numbers = [...svg.querySelectorAll('text.hex-label')]
        .filter((t) => t.checkVisibility())
        .map((t) => t.getBoundingClientRect())
        .filter((r) => r.left >= frame.left && r.right <= frame.right &&
            r.top >= frame.top && r.bottom <= frame.bottom);
    return { across: hex.width, shown: numbers.length,
             least: numbers.length ? Math.min(...numbers.map((r) => r.height)) : 0 };
}"""


def test_a_phone_shows_hex_numbers_once_the_hexes_are_large_enough(
    browser: Any, games: dict[tuple[str, str], pages.Game]
) -> None:
    page = pages.open_page(browser, games["ambush-fields", "set up"].links["colonials"], 390)
    try:
        page.rendered()
        page.page.locator("#map button.whole").click()
        page.settle()
        small = page.page.evaluate(_HEXES)
        assert small["across"] < 40
        assert small["shown"] == 0, "numbers too small to read are drawn over the whole map"
        # Zoomed in with the wheel, a step at a time, until a hex is 44 pixels across.
        box = page.page.locator("#map svg").bounding_box()
        page.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        for _ in range(30):
            if page.page.evaluate(_HEXES)["across"] >= 44:
                break
            page.page.mouse.wheel(0, -100)
            page.page.wait_for_timeout(50)
        page.settle()
        close = page.page.evaluate(_HEXES)
        assert close["across"] >= 44
        assert close["shown"] >= 4, f"a hex {close['across']:.0f} px across shows no number"
        assert close["least"] >= 10  # readable: words at least 11 px high
        assert not page.errors
    finally:
        page.close()


_AREAS = """() => {
    const area = (el) => { const r = el.getBoundingClientRect(); return r.width * r.height; };
    const seen = (el) => { const r = el.getBoundingClientRect();
        return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1 &&
            r.right <= innerWidth + 1; };
    const phase = document.querySelector('#status .phase');
    const news = document.querySelector('#news li');
    return {
        map: area(document.getElementById('map-box')) / (innerWidth * innerHeight),
        phase: seen(phase) ? parseFloat(getComputedStyle(phase).fontSize) : 0,
        news: seen(news) ? parseFloat(getComputedStyle(news).fontSize) : 0,
    };
}"""


@pytest.mark.parametrize("scenario", ["ambush-fire", "ambush-fields"])
def test_the_table_screens_map_fills_the_screen(
    browser: Any, games: dict[tuple[str, str], pages.Game], scenario: str
) -> None:
    page = pages.open_page(browser, games[scenario, "part-way"].links[SPECTATOR], 1280)
    try:
        page.rendered()
        found = page.page.evaluate(_AREAS)
        assert found["map"] >= 0.75, f"the map takes {found['map']:.0%} of the screen"
        # Where the game stands and the news stay on the screen, large enough to read across
        # a table.
        assert found["phase"] >= 30
        assert found["news"] >= 17
        assert not page.errors
    finally:
        page.close()


@pytest.mark.parametrize("size", list(pages.SIZES))
def test_a_grid_games_map_measures_in_squares(
    browser: Any, games: dict[tuple[str, str], pages.Game], size: int
) -> None:
    page = pages.open_page(browser, games["grid-ambush", "set up"].links["jungle"], size)
    try:
        page.rendered()
        page.page.locator("#map button.whole").click()
        page.settle()
        ruler = page.page.evaluate(
            """() => [...document.querySelectorAll('#map .ruler text')]
                .filter((t) => t.checkVisibility()).map((t) => t.textContent)"""
        )
        # The 60" × 36" table in squares of a foot, as the rules divide it: columns A–E
        # and rows 1–3, and no inches.
        assert sorted(ruler) == ["1", "2", "3", "A", "B", "C", "D", "E"]
        caption = page.page.locator("#map .map-caption").inner_text()
        assert "squares of 12 inches" in caption
        assert "Inches across" not in caption
    finally:
        page.close()


_REPLAY_MAPS = """() => Object.fromEntries([...document.querySelectorAll('.replay-map')].map(
    (box) => [box.dataset.observer, [...box.querySelectorAll('g.token')]
        .filter((g) => g.checkVisibility()).map((g) => g.dataset.piece).sort()]))"""


@pytest.mark.parametrize("size", list(pages.SIZES))
def test_the_replay_draws_each_sides_map_beside_the_truth(
    browser: Any, server: str, games: dict[tuple[str, str], pages.Game], size: int
) -> None:
    game = games["ambush-fire", "over"]
    token = game.token("germans")
    page = pages.open_page(browser, f"{server}/replay/{game.game_id}#{token}", size)
    try:
        page.page.wait_for_function("() => document.querySelectorAll('.replay-map svg').length")
        # Event 1: the Germans concealed their guns; the Soviets do not know where.
        page.page.locator("#next").click()
        page.page.wait_for_function("() => document.getElementById('at').textContent === '1'")
        page.settle()
        drawn = page.page.evaluate(_REPLAY_MAPS)
        assert set(drawn) == {"germans", "soviets", REFEREE}
        truth, germans, soviets = drawn[REFEREE], drawn["germans"], drawn["soviets"]
        assert set(germans) <= set(truth)
        assert set(soviets) <= set(truth)
        concealed = set(germans) - set(soviets)
        assert concealed, "the Germans' map shows nothing the Soviets' does not"
        assert concealed <= set(truth)
        # Side by side on a laptop: the three maps in one row.
        if size == 1280:
            boxes = page.page.evaluate(
                "() => [...document.querySelectorAll('.replay-map svg')]"
                ".map((b) => b.getBoundingClientRect())"
                ".map((r) => [r.left, r.top, r.height])"
            )
            assert len({round(left) for left, _, _ in boxes}) == 3
            tops = [top for _, top, _ in boxes]
            assert max(tops) - min(tops) < min(height for _, _, height in boxes) / 2
        assert not page.errors
    finally:
        page.close()


def test_the_replay_shows_no_map_while_the_game_goes_on(
    browser: Any, server: str, games: dict[tuple[str, str], pages.Game]
) -> None:
    game = games["ambush-fire", "set up"]
    token = game.token("soviets")
    page = pages.open_page(browser, f"{server}/replay/{game.game_id}#{token}", 390)
    try:
        page.page.wait_for_function("() => document.getElementById('what').textContent")
        assert "once it is over" in page.page.locator("#what").inner_text()
        assert page.page.locator(".replay-map").count() == 0
    finally:
        page.close()


# labels.js on its own: many crowds of pieces, each laid out twice.
_PLACE = """async (crowds) => {
    const { place, overlaps } = await import('/static/labels.js');
    return crowds.map(({ items, bounds }) => {
        const obstacles = items.map(({ x, y, r }) => [x - r, y - r, x + r, y + r]);
        const laid = place(items, obstacles, bounds);
        const again = place(items, obstacles, bounds);
        const clashes = [];
        laid.forEach((a, i) => laid.forEach((b, j) => {
            if (i < j && overlaps(a.box, b.box)) clashes.push([i, j]);
        }));
        const sizes = laid.every((one, i) =>
            Math.abs(one.box[2] - one.box[0] - items[i].width) < 1e-9 &&
            Math.abs(one.box[3] - one.box[1] - items[i].height) < 1e-9);
        return { clashes, same: JSON.stringify(laid) === JSON.stringify(again), sizes,
                 moved: laid.map((one) => one.moved) };
    });
}"""


def test_labels_js_places_crowds_of_labels_without_overlap(browser: Any, server: str) -> None:
    import random

    chance = random.Random(26)
    crowds = []
    for _ in range(200):
        # Up to 12 pieces within a few label heights of each other, labels of 1 to 24
        # letters: the three tanks in one spot, a lieutenant by his sergeant's squad.
        spread = chance.choice([0.0, 0.5, 2.0, 8.0])
        items = [
            {
                "x": 20 + chance.uniform(-spread, spread),
                "y": 20 + chance.uniform(-spread, spread),
                "r": chance.choice([0.3, 0.5, 1.0]),
                "width": chance.randint(1, 24) * 0.6,
                "height": 1.2,
            }
            for _ in range(chance.randint(1, 12))
        ]
        crowds.append({"items": items, "bounds": [0, 0, 40, 40]})
    lone = {"items": [{"x": 5, "y": 5, "r": 0.5, "width": 3, "height": 1.2}], "bounds": None}
    crowds.append(lone)
    page = browser.new_page()
    try:
        page.goto(server + "/")
        found = page.evaluate(_PLACE, crowds)
    finally:
        page.close()
    assert all(not one["clashes"] for one in found), [o["clashes"] for o in found if o["clashes"]]
    assert all(one["same"] and one["sizes"] for one in found)
    assert found[-1]["moved"] == [False]  # a label with room stays above its piece
