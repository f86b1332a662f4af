"""ambush-fields in a real browser (Debian's chromium, driven by Playwright): each side's page
draws the hex map with what that side may see — its own ships and fields, the enemy ships
it knows of — and when the Cylons drop their field, the Colonials' map and list show the
basestar, identified.

The orders are the demo's (``ghillie.demo.ambush_fields``), given over the API for speed.
The demo's dice are scripted and a browser game's are fair, so nothing here depends on a
scan's result: only the field drop, which identifies every ship in the field whatever the
dice said, is checked.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid
from typing import Any

from ghillie.demo.ambush_fields import BASESTAR, GALACTICA, SCRIPT

from . import test_browser
from .test_browser import DESKTOP, PHONE, Player

server = test_browser.server  # the same `ghillie serve` and chromium as the page tests
browser = test_browser.browser

BASESTAR_NAME = "Basestar Nemesis"


def create_game(base: str) -> tuple[str, dict[str, str]]:
    """Create the bundled ambush-fields game over the API, the host holding the chains."""
    body = json.dumps({"scenario": "ambush-fields", "chains": "host"}).encode()
    request = urllib.request.Request(
        f"{base}/api/games", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        created = json.load(answer)
    return created["game_id"], {link["observer"]: link["url"] for link in created["links"]}


def command(base: str, game: str, url: str, cmd: dict[str, Any]) -> dict[str, Any]:
    """Give a command as the side whose link ``url`` is; fail with the refusal's detail."""
    token = url.split("#", 1)[1]
    body = json.dumps({"command_id": str(uuid.uuid4()), "command": cmd}).encode()
    request = urllib.request.Request(
        f"{base}/api/games/{game}/commands",
        data=body,
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return dict(json.load(answer))
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{cmd} was refused: {error.read().decode()}") from None


def map_names(player: Player) -> list[str]:
    return list(
        player.page.locator("#map svg g.ship").evaluate_all("l => l.map(g => g.dataset.name)")
    )


def test_ambush_fields_hex_map_hides_the_field_until_it_is_dropped(
    browser: Any, server: str
) -> None:
    game, links = create_game(server)
    cylons = Player(browser, links["cylons"], DESKTOP)
    colonials = Player(browser, links["colonials"], PHONE)
    try:
        for player in (cylons, colonials):
            player.page.wait_for_selector("#map svg.hexmap polygon.hex")
            # 24 columns × 20 rows, each hex labelled column-then-row.
            assert player.page.locator("#map polygon.hex").count() == 24 * 20
            labels = player.page.locator("#map text.hex-label")
            assert labels.count() == 24 * 20
            assert "1206" in labels.all_text_contents()

        # The Colonials see their own fleet and the picket outside the field: no basestar,
        # no field.
        seen = map_names(colonials)
        assert "Galactica" in seen
        assert colonials.page.locator('#map g.ship.own[data-name="Galactica"]').count() == 1
        assert BASESTAR_NAME not in seen
        assert BASESTAR_NAME not in colonials.page.locator("#map").inner_html()
        assert colonials.page.locator("#map .field-hex").count() == 0

        # The Cylons see their field shaded: the 37 hexes within 3 of 1206.
        assert cylons.page.locator("#map g.field.own .field-hex").count() == 37
        assert cylons.page.locator('#map .field-hex[data-hex="1206"]').count() == 1
        assert cylons.page.locator('#map .field-hex[data-hex="1210"]').count() == 0
        assert BASESTAR_NAME in map_names(cylons)

        # The demo's orders, up to the field drop; the orders that name the basestar or
        # Galactica by the demo's piece ids (identify, fire) depend on the demo's dice.
        for step in SCRIPT.steps:
            if step.command["type"] == "end_game":
                break
            if {BASESTAR, GALACTICA} & set(map(str, step.command.values())):
                continue
            if step.command["type"] == "plot" and step.side == "colonials":
                # A tap on a hex writes its label into the order's focused "to" box.
                form = colonials.form("plot")
                if form.locator('input[name="moves.0.to"]').count() == 0:
                    form.locator('button.add[data-path="moves"]').click()
                to = step.command["moves"][0]["to"]
                form.locator('input[name="moves.0.to"]').focus()
                colonials.page.locator(f'#map polygon.hex[data-hex="{to}"]').click()
                assert form.locator('input[name="moves.0.to"]').input_value() == to
                assert to in colonials.page.inner_text("#map .map-caption")
            command(server, game, links[step.side], step.command)

        colonials.page.wait_for_function(
            """name => window.ghillie.view.known.some(p => p.facts && p.facts.name === name)""",
            arg=BASESTAR_NAME,
        )
        basestar = colonials.page.locator(
            f'#map g.ship.counter.identified[data-name="{BASESTAR_NAME}"]'
        )
        basestar.wait_for()
        assert basestar.count() == 1
        assert BASESTAR_NAME in colonials.page.inner_text("#known")
        assert cylons.errors == []
        assert colonials.errors == []
    finally:
        cylons.close()
        colonials.close()
