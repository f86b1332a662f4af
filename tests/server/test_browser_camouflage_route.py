"""camouflage on the map, in real browsers (issue 25, "what a player at the table needs"):
after the Caliban's marker declares a Move, PanOceania's page draws the route it must answer
(INF-R12: a delayed or immediate ARO answers a point of it), and a tap beside the route, as
a finger lands on a phone, snaps onto it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import pages, test_browser
from .test_browser import PHONE, Player, create_game
from .test_browser_camouflage import NOMADS, PANOCEANIA, _post, shoot

server = test_browser.server
browser = test_browser.browser

SHOTS = Path("/tmp/camo-route-shots")
START, END = [22, 10], [22, 22]  # the Caliban's marker, and where its Move ends


def _tap(player: Player, x: float, y: float) -> None:
    """Tap the map at (x, y) inches, as a finger does: on a whole pixel."""
    point = player.page.evaluate(
        """([x, y]) => {
            const svg = document.querySelector('#map svg');
            const at = () => new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
            window.scrollBy(0, at().y - window.innerHeight / 2);
            return [at().x, at().y];
        }""",
        [x, y],
    )
    player.page.mouse.click(round(point[0]), round(point[1]))


@pytest.mark.spec("INF-R12")
def test_the_reacting_side_sees_the_route_and_a_tap_beside_it_snaps_onto_it(
    browser: Any, server: str
) -> None:
    links = create_game(browser, server, "camouflage", "camouflage")
    _post(
        server,
        links[NOMADS],
        {
            "type": "deploy",
            "markers": [
                {"piece": "caliban", "at": START},
                {"piece": "zondbot", "at": [34, 20]},
                {"piece": "mine", "at": [20, 30]},
            ],
        },
    )
    croc = {"type": "deploy", "markers": [{"piece": "croc_man", "at": [12, 34]}]}
    _post(server, links[PANOCEANIA], croc)
    _post(
        server,
        links[NOMADS],
        {"type": "first_skill", "piece": "caliban", "skill": {"skill": "move", "to": END}},
    )
    pano = Player(browser, links[PANOCEANIA], PHONE)
    try:
        route = pano.page.locator("#map g.line.route polyline")
        route.wait_for(state="attached")  # a straight line up the map has no width
        assert route.get_attribute("points") == f"{START[0]},{START[1]} {END[0]},{END[1]}"
        assert "an ARO answers a point of it" in pano.page.inner_text("#map .legend")
        form = pano.form("aros")
        help_text = form.inner_text()
        pages.fill(form, {"aros": [{"piece": pano.piece_id("Seraph"), "aro": "dodge"}]})
        assert "Left empty, the ARO answers the end of the route" in form.inner_text(), help_text
        # A finger lands beside the route (0.4" off on the phone's whole-table view): the
        # point taken lies on it, where the finger was level with it.
        pano.page.locator("#map button.whole").click()
        form.locator('button.pick[data-path="aros.0.at"]').click()
        pano.page.wait_for_selector(".map-box.picking")
        _tap(pano, START[0] + 0.4, 16)
        x = float(form.locator('input[name="aros.0.at.x"]').input_value())
        y = float(form.locator('input[name="aros.0.at.y"]').input_value())
        assert x == START[0], (x, y)
        assert abs(y - 16) < 0.5, (x, y)
        shoot({PANOCEANIA: pano}, "route-snapped", SHOTS)
        pano.submit(form)  # taken: the point lies on the route
        said = pano.view()["log"][-1]["said"]
        assert any("Seraph declares Dodge as its ARO." in line["text"] for line in said)
        assert pano.errors == []
    finally:
        pano.close()
