"""ambush-fields in two real browsers (Debian's chromium, driven by Playwright): the bundled
example created on the start page and played through the pages' own forms and hex map for
three turns — a secret scan that gives partial information, one that locates the field,
the basestar identified, fire into and out of the field, the field dropped, the game ended —
with each page showing what its side may know and the Colonials' page receiving nothing of
the field, the ships in it or the Cylons' notes before the rules reveal them.

The dice are fair. The server is seeded (``seeded_serve.py``) with the seed
``ambush_story.story_seed()`` found to tell this story, so the test knows what segment 7
will say; nobody at the table could steer it.
"""

from __future__ import annotations

import json
import sys
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from . import pages, test_browser
from .ambush_story import (
    BASESTAR_NAME,
    CHECKS,
    COLONIALS,
    CYLON_SHIPS_IN_THE_FIELD,
    CYLONS,
    SCENARIO,
    STORY,
    field_secrets,
    resolve,
    story_seed,
)
from .test_browser import DESKTOP, PHONE, Player, assert_never_seen, create_game, serving

browser = test_browser.browser
NOTE = "keep watch"  # the Cylons' private note on the scout's plot
OWN_REFS = ("ship", "scout", "eccm_scout", "field")  # one's own ship or field, by id or key


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose first game is the story's (see seeded_serve.py)."""
    script = Path(__file__).with_name("seeded_serve.py")
    command = [sys.executable, str(script), str(story_seed())]
    with serving(tmp_path_factory.mktemp("seeded"), command) as base:
        yield base


def referee_view(base: str, url: str) -> Any:
    game = url.split("/play/", 1)[1].split("#", 1)[0]
    token = url.split("#", 1)[1]
    request = urllib.request.Request(
        f"{base}/api/games/{game}/view", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def own_ids(command: Mapping[str, Any], view: Mapping[str, Any]) -> dict[str, Any]:
    """The command with its own ships and fields named by id, as the page's choices send
    them."""
    keys = {p["secret"]["key"]: p["id"] for p in view["pieces"] if p["kind"] in ("ship", "field")}

    def walk(value: Any, name: str) -> Any:
        if isinstance(value, Mapping):
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [walk(v, name) for v in value]
        if name in (*OWN_REFS, "ships", "scouts") and isinstance(value, str):
            return keys.get(value, value)
        return value

    return dict(walk(command, ""))


def give(player: Player, command: Mapping[str, Any]) -> str:
    """Give the command through the page: a button for a bare order, else its form."""
    if len(command) == 1:
        return player.press(command["type"])
    form = player.form(command["type"])
    pages.fill(form, command, page=player.page)
    return player.submit(form)


def test_a_three_turn_ambush_fields_game_in_two_browsers(browser: Any, server: str) -> None:
    links = create_game(browser, server, "ambush-fields", SCENARIO, clients=False)
    referee = referee_view(server, links["referee"])
    field_id, hidden = field_secrets(referee)

    pages = {
        CYLONS: Player(browser, links[CYLONS], DESKTOP),
        COLONIALS: Player(browser, links[COLONIALS], PHONE),
    }
    colonials, cylons = pages[COLONIALS], pages[CYLONS]
    for player in pages.values():
        # "Drop this field for good?", "End the game for everyone?"
        player.page.on("dialog", lambda dialog: dialog.accept())
    try:
        for player in pages.values():
            player.page.wait_for_selector("#map svg.map polygon.hex")
            # 24 columns × 20 rows, each hex labelled column-then-row.
            assert player.page.locator("#map polygon.hex").count() == 24 * 20
            assert "1206" in player.page.locator("#map text.hex-label").all_text_contents()
        # The Cylons see their field shaded, the 37 hexes within 3 of the basestar.
        assert cylons.page.locator("#map g.layer.field-own .area-hex").count() == 37
        assert token(cylons, "own", BASESTAR_NAME).count() == 1
        # The Colonials see their own fleet and the picket outside the field, nothing more.
        assert token(colonials, "own", "Galactica").count() == 1
        assert colonials.page.locator("#map .area-hex").count() == 0

        located = False
        for order in STORY:
            player = pages[order.side]
            view = player.view()
            give(player, own_ids(resolve(order.command, view), view))
            for other in pages.values():
                other.wait_seq(player.seq())
            if order.expect:
                views = {side: page.view() for side, page in pages.items()}
                assert CHECKS[order.expect](views), f"{order.expect}: {order}"
                see(order.expect, colonials, cylons)
            located = located or order.expect == "located"
            if not located:
                assert_never_seen(colonials, field_id, *hidden, NOTE)

        assert colonials.view()["phase"] == "over"
        assert "The game is over." in colonials.page.inner_text("#log")
        assert_never_seen(colonials, NOTE)  # a note is never revealed
        for player in pages.values():
            assert player.errors == []
    finally:
        for player in pages.values():
            player.close()


def token(player: Player, style: str, name: str) -> Any:
    """The map's token of this style ("own", "enemy", "counter") labelled ``name``."""
    return player.page.locator(f'#map g.token.{style}:has(> text.label:text-is("{name}"))')


def see(step: str, colonials: Player, cylons: Player) -> None:
    """What the players see on their pages at each turn of the story."""
    log = colonials.page.inner_text("#log")
    theirs = cylons.page.inner_text("#log")
    counters = colonials.page.locator("#map g.token.counter")
    if step == "partial":
        # BSG-R15: an arc and a base number, no field on the map.
        assert "Galactica scans: partial information on an ambush field in its" in log
        assert "base number" in log
        assert colonials.page.locator("#map .area-hex").count() == 0
        assert counters.count() == 0
        # Which ships scanned is the Colonials' secret (BSG-A06): the Cylons hear nothing.
        assert "fails by one" not in theirs
    elif step == "located":
        # BSG-R17: the field on the map with its extent, a face-down counter for each ship.
        assert "an ambush field located around hex 1206, radius 3, rating 2" in log
        assert colonials.page.locator("#map g.layer.field-enemy .area-hex").count() == 37
        assert counters.count() == len(CYLON_SHIPS_IN_THE_FIELD)
        assert token(colonials, "enemy", BASESTAR_NAME).count() == 0
        # The Cylons see that their field is on the enemy's board, and their ships as counters.
        assert "The enemy locates your field veil (Basestar Nemesis)" in theirs
        assert "The enemy now sees 4 of your ships as face-down counters" in theirs
        assert "located by the enemy" in cylons.page.inner_text("#own")
    elif step == "identified":
        assert token(colonials, "enemy", BASESTAR_NAME).count() == 1
        assert "identified, it is Basestar Nemesis (Basestar)" in log
        assert counters.count() == len(CYLON_SHIPS_IN_THE_FIELD) - 1
        assert "to identify Basestar Nemesis: the enemy has identified it" in theirs
    elif step == "into":
        assert "Galactica fires at Basestar Nemesis: total modifier +2 (the field's +2)" in log
        assert "Galactica fires at Basestar Nemesis: total modifier +2" in theirs
    elif step == "out":
        assert "Basestar Nemesis fires at Galactica: total modifier +0" in theirs
        assert "Basestar Nemesis fires at Galactica: total modifier +0" in log
    elif step == "dropped":
        assert "Cylons drop their ambush field around hex 1206" in log
        assert counters.count() == 0
        shown = colonials.page.locator("#map g.token.enemy > text.label").all_text_contents()
        assert set(CYLON_SHIPS_IN_THE_FIELD) <= set(shown)
    elif step == "open":
        assert "Galactica fires at Basestar Nemesis: total modifier +0" in log
