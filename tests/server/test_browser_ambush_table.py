"""ambush-fields in table mode, in two real browsers: the players have their own printed hex
map, so the pages draw none. Each side deploys its ships by typing their hexes, plots by
typing hexes (a move starts from the ship's hex), and scans; ghillie works out which ships
start hidden, the ranges and the scans from the hexes it holds. The pages hold their own
roll chains (the start page's default), so nobody — the host included — steers a scan.
"""

from __future__ import annotations

from typing import Any

from . import test_browser
from .test_browser import DESKTOP, PHONE, Player, assert_never_seen, create_game
from .test_browser_ambush import give, referee_view

server = test_browser.server
browser = test_browser.browser

CYLONS, COLONIALS = "cylons", "colonials"
NOTE = "round the back of the moon"
CYLON_SETUP = [
    {"ship": "basestar", "at": "2010"},
    {"ship": "watcher", "at": "3008", "heading": "D"},
    {"ship": "cl", "at": "2011"},
    {"ship": "raiders", "at": "2907"},
    {"ship": "heavy-raider", "at": "0505", "heading": "C"},  # in no field: it will show
]
COLONIAL_SETUP = [
    {"ship": "pegasus", "at": "2028"},
    {"ship": "raptor", "at": "1827"},
    {"ship": "vipers", "at": "2127"},
    {"ship": "colonial-one", "at": "2029"},
]
IN_THE_FIELDS = ("Basestar Arachne", "Cylon scout Watcher", "Cylon light cruiser", "Raider flight")


def ids_by_key(player: Player) -> dict[str, str]:
    return {p["secret"]["key"]: p["id"] for p in player.view()["pieces"] if p["kind"] == "ship"}


def by_id(player: Player, setup: list[dict[str, str]]) -> list[dict[str, str]]:
    keys = ids_by_key(player)
    return [{**placement, "ship": keys[placement["ship"]]} for placement in setup]


def test_ambush_fields_at_a_table_deploy_plot_and_scan_by_hex(browser: Any, server: str) -> None:
    links = create_game(browser, server, "ambush-fields", "ambush-fields-table", clients=True)
    referee = referee_view(server, links["referee"])
    names = {p["id"]: p["secret"]["name"] for p in referee["pieces"] if p["kind"] == "ship"}
    hidden = [i for i, name in names.items() if name in IN_THE_FIELDS]
    fields = [p["id"] for p in referee["pieces"] if p["kind"] == "field"]
    cylons = Player(browser, links[CYLONS], DESKTOP)
    colonials = Player(browser, links[COLONIALS], PHONE)
    pages = {CYLONS: cylons, COLONIALS: colonials}
    try:
        for player in pages.values():
            player.wait_seq(0)  # both pages have given their chains' anchors
            # The table is the map: no map drawn, the orders take hex labels.
            assert player.page.locator("#map svg").count() == 0

        give(cylons, {"type": "deploy", "ships": by_id(cylons, CYLON_SETUP)})
        give(colonials, {"type": "deploy", "ships": by_id(colonials, COLONIAL_SETUP)})
        assert "hex 2010" in cylons.page.inner_text("#own")
        give(cylons, {"type": "ready"})
        give(colonials, {"type": "ready"})
        for player in pages.values():
            player.wait_seq(max(p.seq() for p in pages.values()))

        # Only the heavy raider, in no field, comes onto the Colonials' table, at its hex.
        known = colonials.page.inner_text("#known")
        assert "Heavy raider" in known
        assert "hex 0505" in known
        for name in IN_THE_FIELDS:
            assert name not in known
        assert "Pegasus" in cylons.page.inner_text("#known")
        assert "hex 2028" in cylons.page.inner_text("#known")
        assert_never_seen(colonials, *hidden, *fields)

        for player in pages.values():
            give(player, {"type": "end_phase"})
        keys = ids_by_key(colonials)
        give(colonials, {"type": "scan", "ships": [keys["pegasus"], keys["raptor"]]})
        # A move starts from where the ship is: at a table only the changed hex is typed.
        form = colonials.form("plot")  # a plot has one move to begin with
        form.locator('select[name="moves.0.ship"]').select_option(keys["pegasus"])
        assert form.locator('input[name="moves.0.to"]').input_value() == "2028"
        form.locator('input[name="moves.0.to"]').fill("2023")
        form.locator('input[name="moves.0.speed"]').fill("5")
        colonials.submit(form)
        basestar = ids_by_key(cylons)["basestar"]
        give(
            cylons,
            {
                "type": "plot",
                "moves": [
                    {"ship": basestar, "to": "2012", "heading": "D", "speed": 2, "note": NOTE}
                ],
            },
        )
        for player in pages.values():
            give(player, {"type": "end_phase"})
        colonials.wait_seq(cylons.seq())

        # Segment 7: each scanner's report is no contact, partial or located — nothing else.
        log = colonials.page.inner_text("#log")
        assert "Pegasus scans:" in log
        assert "Raptor 718 scans:" in log
        reports = [
            line
            for entry in colonials.view()["log"]
            for line in entry["lines"]
            if line.get("event") == "scan"
        ]
        assert len(reports) == 2
        for report in reports:
            assert {r["result"] for r in report["results"]} <= {"partial", "located"}
        assert "hex 2012" in cylons.page.inner_text("#own")
        assert "hex 2023" in colonials.page.inner_text("#own")
        assert "hex 2023" in cylons.page.inner_text("#known")
        assert_never_seen(colonials, NOTE)
        for player in pages.values():
            assert player.errors == []
    finally:
        for player in pages.values():
            player.close()
