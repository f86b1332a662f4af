"""ambush-fire in two real browsers (Debian's chromium, driven by Playwright): the bundled
example ``ambush-fire`` (the dragons' teeth, on the map) created on the start page and played
through the pages' own forms, one page per side — the course of the demo script
(src/ghillie/rules/ambush_fire/demo.py):

the Germans record three concealed units, then get ready with three standing orders in one
form (each page shows its own orders' zones on the map, the other side nothing); the Soviet
tank column drives through the gap and the PaK's Challenge Fire takes the lead tank with no
prompt first; the Soviets fire back (their page prices the reply: 35%), the lead tank is
destroyed and the column stops; the riflemen set off the grenadiers' Ambush Fire, which
reveals the Soviet scouts too, and fire back; the grenadiers' first retreat, too long, is
refused with its reason beside the field, the second taken; the pioneers' dash is stopped by
the stream; in the fire phase the PaK is refused a second shot; the game ends and both pages'
records pass ``ghillie audit``.

The host holds the dice chains and the server's randomness is seeded (seeded_serve.py), so
the rolls tell the story the script does; test_browser_camouflage.py plays a game whose
pages hold their own chains. Both pages are photographed at a phone's and a laptop's size
(in /tmp/ambush-fire-shots/), and nothing on them is text a player should never read.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from ghillie.fairness.audit import audit
from ghillie.rules.ambush_fire.demo import SCRIPT

from . import pages, test_browser
from .test_browser import DESKTOP, PHONE, Player, assert_never_seen, create_game
from .test_browser_camouflage import log, offered, readable, shoot, status

browser = test_browser.browser
GERMANS, SOVIETS = "germans", "soviets"
SHOTS = Path("/tmp/ambush-fire-shots")
SEED = 13  # as tests/server/test_api_ambush_fire.py: the rolls of the story
SERVE = [sys.executable, str(Path(__file__).with_name("seeded_serve.py")), str(SEED)]
NAMES = {
    "pak": "PaK 40",
    "grenadiers": "Grenadiers",
    "pioneers": "Pioneers",
    "t34_1": "T-34 (1)",
    "t34_2": "T-34 (2)",
    "t34_3": "T-34 (3)",
    "riflemen": "Riflemen",
    "smg": "Submachine gunners",
    "scouts": "Scouts",
}
GERMAN_NOTES = ("dug in at the edge of the wood", "let them come close", "rush them with charges")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with pages.serve(tmp_path_factory.mktemp("ambush-fire"), SERVE) as base:
        yield base


def _named(value: Any) -> Any:
    """A script command as a player fills the form: units chosen by their names."""
    if isinstance(value, Mapping):
        return {
            k: NAMES.get(v, v) if k in ("unit", "target") else _named(v) for k, v in value.items()
        }
    if isinstance(value, list):
        return [_named(v) for v in value]
    return value


def give(player: Player, other: Player, command: Mapping[str, Any]) -> str:
    """Give the command through the page (a button for an order with nothing to fill in,
    else its form); the other side's page has the news before this returns."""
    button = player.page.locator(f"button.command-button[data-command={command['type']}]")
    if button.count():
        answer = player.press(command["type"])
    else:
        form = player.form(command["type"])
        pages.fill(form, _named(command))
        answer = player.submit(form)
    other.wait_seq(player.seq())
    return answer


def step(number: int) -> dict[str, Any]:
    return dict(SCRIPT.steps[number - 1].command)


def test_the_dragons_teeth_played_through_both_pages(
    browser: Any, server: str, tmp_path: Path
) -> None:
    links = create_game(browser, server, "ambush-fire", "ambush-fire")
    germans = Player(browser, links[GERMANS], PHONE)
    soviets = Player(browser, links[SOVIETS], DESKTOP)
    players = {GERMANS: germans, SOVIETS: soviets}
    try:
        # Set-up: the concealed units' places and the standing orders, in secret.
        assert status(germans).startswith("Setting up")
        give(germans, soviets, step(1))
        assert "3 concealed units recorded." in log(germans)
        # The standing orders come with the Germans' Ready, in one form: a list of orders.
        form = germans.form("ready")
        pages.fill(form, _named(step(2)))
        shoot({GERMANS: germans}, "1-set-up-form", SHOTS)
        germans.submit(form)
        soviets.wait_seq(germans.seq())
        assert "Standing order 3 written: Pioneers: Ambush Close Combat" in log(germans)
        # The Germans' map shows what their orders watch; the Soviets' shows none of it.
        assert germans.page.locator("#map .layer.zone-own polygon").count() == 3
        assert soviets.page.locator("#map .layer.zone-own polygon").count() == 0
        shoot(players, "2-orders-given", SHOTS)
        give(soviets, germans, step(3))
        give(soviets, germans, step(4))
        for player in players.values():
            assert "Turn 1: Germans move first." in log(player)
        # Nothing the other side hides reaches a page: not a note, not a concealed unit on
        # its map or in its lists (the rosters are the scenario's, which both sides read).
        assert_never_seen(soviets, *GERMAN_NOTES)
        assert_never_seen(germans, "lying low by the lane")
        for name in ("PaK 40", "Grenadiers", "Pioneers"):
            assert name not in readable(soviets), name
        assert "Scouts" not in readable(germans)
        give(germans, soviets, step(5))

        # The column through the gap: the PaK's order fires, with no prompt before it.
        give(soviets, germans, step(6))
        fired = "Challenge Fire from PaK 40 at T-34 (1) as it crosses the open ground"
        for player in players.values():
            assert fired in log(player)
        assert "Soviets are deciding whether to fire back." in status(soviets)
        assert soviets.page.locator("#status .badge.go").is_visible()
        assert offered(germans) == ["end_game"], offered(germans)
        assert "return_fire" in offered(soviets)
        # The order's opening, checked on the Soviets' page against its commitment.
        opened = "The standing order (PaK 40: Challenge Fire at the first vehicle"
        assert opened in log(soviets)
        # The reply priced while it is given: 55% less 20.
        form = soviets.form("return_fire")
        pages.fill(form, {"fire": True, "chance": 55})
        odds = form.locator(".odds")
        # Priced again as the chance is typed: wait for the price of the 55 (a busy machine
        # shows the price of the empty field first).
        odds.filter(has_text="35.00%").wait_for()
        assert "35" in odds.inner_text(), odds.inner_text()
        shoot(players, "3-challenge-fire", SHOTS)
        soviets.submit(form)
        germans.wait_seq(soviets.seq())
        for player in players.values():
            text = log(player)
            assert "T-34 (1): destroyed by the Challenge Fire." in text
            assert "The rest of the column stops." in text

        # The riflemen set off the Ambush Fire from the hedgerow: both sides revealed.
        give(soviets, germans, step(8))
        for player in players.values():
            assert "Ambush Fire from hiding: Grenadiers at Riflemen!" in log(player)
        assert "Scouts" in germans.page.inner_text("#known")
        assert "Grenadiers" in soviets.page.inner_text("#known")
        give(soviets, germans, step(9))
        assert "Return fire from Riflemen at the ambusher" in log(germans)

        # A retreat too long is refused, the reason beside its field; then the true one.
        retreat = germans.form("retreat")
        pages.fill(retreat, {"path": [[60, 36]]})
        reason = germans.refused(retreat)
        assert reason.startswith("A retreat goes at most 50 metres"), reason
        beside = retreat.locator(".field-error").filter(has_text="A retreat goes at most")
        assert beside.first.is_visible()
        assert germans.seq() == soviets.seq()
        shoot({GERMANS: germans}, "4-retreat-refused", SHOTS)
        pages.fill(retreat, step(10))
        germans.submit(retreat)
        soviets.wait_seq(germans.seq())
        assert "Grenadiers: a retreat to 48.4, 36." in log(soviets)

        # The pioneers' dash is stopped by the stream: left in the open.
        give(soviets, germans, step(11))
        for player in players.values():
            assert "blocks the way! Left in the open at 48.6, 10.1" in log(player)
        shoot(players, "5-failed-contact", SHOTS)

        # The fire phase: the side that moved second fires first.
        for number in (12, 13, 14, 15):
            give(soviets, germans, step(number))
        again = germans.form("fire")
        pages.fill(again, _named(step(16)))
        reason = germans.refused(again)
        assert reason == "It took Challenge Fire this turn: it may not fire again until next turn."
        give(germans, soviets, step(17))
        # Turn 2: the PaK swung round through the turn form, in everyone's sight.
        give(germans, soviets, step(18))
        for player in players.values():
            assert "PaK 40 now faces 90° (toward the right edge)." in log(player)
        give(germans, soviets, step(19))
        for player in players.values():
            player.page.wait_for_function("() => window.ghillie.view.phase === 'over'")
            assert "The game is over." in log(player)
            assert player.errors == []
        assert "lying low by the lane" not in readable(germans)
        for note in GERMAN_NOTES:
            assert note not in readable(soviets)

        # Each page downloads the game's record: `ghillie audit` takes it.
        for side, player in players.items():
            with player.page.expect_download() as download:
                player.page.locator("#fair button.record-button").click()
            path = tmp_path / f"{side}-{download.value.suggested_filename}"
            download.value.save_as(path)
            report = audit(json.loads(path.read_text(encoding="utf-8")))
            assert report.ok, (side, report.findings)
            assert report.openings > 0
    finally:
        for player in players.values():
            player.close()
