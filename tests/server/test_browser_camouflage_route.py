"""camouflage on the map, in real browsers (issue 25, "what a player at the table needs"):
after the Caliban's marker declares a Move, PanOceania's page draws the route it must answer
(INF-R12: a delayed or immediate ARO answers a point of it), and a tap beside the route, as
a finger lands on a phone, snaps onto it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ghillie.rules.camouflage.demo import COMBI, SHOTGUN

from . import pages, test_browser
from .test_browser import PHONE, Player, create_game
from .test_browser_camouflage import NOMADS, PANOCEANIA, _post, shoot

server = test_browser.server
browser = test_browser.browser

SHOTS = Path("/tmp/camo-route-shots")
START, END = [22, 10], [22, 22]  # the Caliban's marker, and where its Move ends
MARKED = ("caliban", "zondbot", "mine")  # the Nomads' camouflaged pieces


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
        # The phone opened on PanOceania's own pieces, far from where the marker starts:
        # asked for a point of the route, the map shows the whole route.
        form.locator('button.pick[data-path="aros.0.at"]').click()
        pano.page.wait_for_selector(".map-box.picking")
        shown = pano.page.evaluate(
            """() => { const b = document.querySelector('#map svg').viewBox.baseVal;
                       return [b.x, b.y, b.x + b.width, b.y + b.height]; }"""
        )
        assert shown[0] <= START[0] <= shown[2], shown
        assert shown[1] <= START[1] <= shown[3], shown
        assert shown[1] <= END[1] <= shown[3], shown
        # A finger lands beside the route (0.4" off): the point taken lies on it, where the
        # finger was level with it.
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


@pytest.mark.spec("INF-T01")
def test_the_roll_says_how_many_dice_are_whose_and_a_short_count_is_refused_with_it(
    browser: Any, server: str
) -> None:
    """At a real table: the Caliban's Burst 2 against the delayed Fusilier's Burst 1. The
    Nomads' form says their two dice and ghillie's one; one die typed is refused, naming two."""
    links = create_game(browser, server, "camouflage", "camouflage-table")
    nomads_link, pano_link = links[NOMADS], links[PANOCEANIA]
    for link, command in (
        (nomads_link, {"type": "deploy", "markers": [{"piece": k} for k in MARKED]}),
        (pano_link, {"type": "deploy", "markers": [{"piece": "croc_man"}]}),
        (nomads_link, {"type": "first_skill", "piece": "caliban", "skill": {"skill": "move"}}),
        (pano_link, {"type": "aros", "aros": [{"piece": "fusilier", "aro": "delay"}]}),
        (
            nomads_link,
            {
                "type": "second_skill",
                "skill": {
                    "skill": "bs_attack",
                    "target": "fusilier",
                    "measured": {"range": 6},
                    "attack": SHOTGUN,
                },
            },
        ),
        (
            pano_link,
            {
                "type": "aros",
                "aros": [
                    {
                        "piece": "fusilier",
                        "aro": "bs_attack",
                        "measured": {"range": 10},
                        "attack": COMBI,
                    }
                ],
            },
        ),
    ):
        _post(server, link, command)
    nomads = Player(browser, nomads_link, PHONE)
    try:
        form = nomads.form("resolve_order")
        note = form.locator("p.note")
        assert note.inner_text() == (
            "Your dice, in the order they are rolled: 2 for Caliban's BS Attack. ghillie "
            "rolls the dice of PanOceania: 1 for Fusilier's BS Attack."
        )
        pages.fill(form, {"rolls": {"dice": [17]}})
        refusal = nomads.refused(form)
        assert "This Order rolls 2 dice for your own troopers: type in all 2" in refusal
        assert "type in all 2" in form.locator(".field-error").inner_text()
        shoot({NOMADS: nomads}, "dice-count-refused", SHOTS)
        pages.fill(form, {"rolls": {"dice": [17, 16]}})
        nomads.submit(form)
        assert "Nomads typed in 2 dice rolled at the table: 17, 16." in nomads.page.inner_text(
            "#log"
        )
        assert nomads.errors == []
    finally:
        nomads.close()
