"""kill -9 between a roll request and the pages' contributions (issue 10, finding 3), with a
real ``ghillie serve`` and two real pages (Debian's chromium, driven by Playwright) that hold
their own dice chains.

One side's page is away (a phone in a pocket) when the other gives an order, so the roll
waits for it; the server is killed there, and started again on the same database. The game
must go on: the same signed request is shown again, the page sends its order again with the
same id and waits for that request, and another order given meanwhile (by the API) is refused
with a sentence that says what waits for what, instead of asking a second time for the roll — which
the other page, holding the first request as a receipt, would take for a host trying for
another result and refuse for good. No page raises an alarm, and the finished game's record
passes ``ghillie audit`` with both pages' receipts.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ghillie import examples
from ghillie.fairness.audit import audit

from . import pages, test_browser
from .test_browser import DESKTOP, PHONE
from .test_browser_fair import FairPlayer, receipts, seat_key, wait_view
from .test_durability import Server, free_port, request

browser = test_browser.browser
AFTER_RESTART_MS = 40_000  # a page's socket may be waiting out a long backoff by then
KILLS = 2


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "ghillie.db", free_port())
    running.start()
    yield running
    running.kill()


def away(player: FairPlayer) -> None:
    """The page is closed (its browser keeps its storage: the chain, the receipts)."""
    player.page.goto("about:blank")


def back(player: FairPlayer, url: str) -> None:
    player.page.goto(url)
    player.page.wait_for_selector("#conn[data-state=live]", timeout=AFTER_RESTART_MS)
    assert pages.take_seat(player.page) == "yours"  # the seat is still this browser's
    player.page.wait_for_function("() => window.ghillie && window.ghillie.view")


def waiting_for_orks(player: FairPlayer, k: int, timeout: int = 10_000) -> dict[str, Any]:
    player.page.wait_for_function(
        """k => { const f = window.ghillie.view.fairness;
            return f.request && f.request.k === k && JSON.stringify(f.waiting) === '["orks"]'; }""",
        arg=k,
        timeout=timeout,
    )
    return dict(player.view()["fairness"]["request"])


def no_alarm(*players: FairPlayer) -> None:
    for player in players:
        if player.page.url.startswith("http"):
            assert player.page.locator(".alarm").count() == 0, player.page.locator(
                ".alarm"
            ).all_inner_texts()
        assert player.errors == []


def test_a_page_held_game_survives_kill_9_between_the_request_and_the_contributions(
    browser: Any, server: Server
) -> None:
    # No unit may set up in ambush: both sides get ready at once (a side that may ambush
    # writes its orders first, DWV-R04), and the game is in play at event 2.
    data = examples.data("grid-ambush-table")
    data["units"] = [{**unit, "ambush": False} for unit in data["units"]]
    status, created = request(
        server.port, "POST", "/api/games", {"scenario_data": data, "chains": "clients"}
    )
    assert status == 201
    game = created["game_id"]
    links = {link["observer"]: link["url"] for link in created["links"]}
    tokens = {observer: url.split("#")[1] for observer, url in links.items()}
    jungle = FairPlayer(browser, links["jungle"], PHONE)
    orks = FairPlayer(browser, links["orks"], DESKTOP)
    kills = 0
    try:
        for player in (jungle, orks):
            player.wait_seq(0)
        jungle.press("ready")
        orks.press("ready")
        jungle.wait_seq(2)

        # 1. Killed with the order's answer in flight: the page retries it, same id.
        orks_seat = seat_key(orks, game)
        away(orks)
        jungle.page.locator("button.command-button[data-command=end_phase]").click()
        jungle.confirm()
        asked = waiting_for_orks(jungle, 3)  # jungle's page gave its share; orks' is away
        server.kill()
        kills += 1
        server.start()
        assert waiting_for_orks(jungle, 3, AFTER_RESTART_MS) == asked  # shown again, the same
        # Meanwhile the orks end the game over the bare API: without the seat key of the
        # orks' browser the token alone no longer acts for the side (its seat is taken);
        # with it, the order is refused, not asked for.
        end = {"command_id": "orks-end", "command": {"type": "end_game"}}
        path = f"/api/games/{game}/commands"
        status, refused = request(server.port, "POST", path, end, tokens["orks"])
        assert (status, refused["code"]) == (409, "seat_taken"), refused
        status, refused = request(server.port, "POST", path, end, tokens["orks"], orks_seat)
        assert status == 409, refused
        assert refused["code"] == "roll_pending"
        assert refused["detail"].startswith(
            "Roll 3 is waiting for the dice of this side's page (Ork warband)"
        ), refused
        back(orks, links["orks"])  # the page answers the very request it is shown
        for player in (jungle, orks):
            player.wait_seq(3)
        jungle.page.wait_for_selector("#result.ok")
        no_alarm(jungle, orks)

        # 2. A long outage: the page keeps the order (the player cannot give another) and
        #    sends it again with its id once the server is back; it waits for the same roll.
        away(orks)
        jungle.page.locator("button.command-button[data-command=end_phase]").click()
        jungle.confirm()
        asked = waiting_for_orks(jungle, 4)
        server.kill()
        kills += 1
        jungle.page.wait_for_function(
            "() => document.getElementById('result').textContent.startsWith('No answer yet')",
            timeout=AFTER_RESTART_MS,
        )
        assert jungle.page.locator("button.command-button:not([disabled])").count() == 0
        server.start()
        assert waiting_for_orks(jungle, 4, AFTER_RESTART_MS) == asked
        jungle.page.wait_for_function(
            "() => document.getElementById('result').textContent.startsWith('Waiting for')",
            timeout=AFTER_RESTART_MS,
        )
        assert jungle.page.inner_text("#result") == (
            "Waiting for the dice of Ork warband's page (roll 4)…"
        )
        ends = [m for m in jungle.sent_messages("command") if m["command"]["type"] == "end_phase"]
        assert len({m["command_id"] for m in ends[-2:]}) == 1  # the same id, sent again
        # Another order from the Veterans (over the bare API, with their browser's seat key)
        # meanwhile is refused, saying what waits for what.
        again = {"command_id": "jungle-again", "command": {"type": "end_phase"}}
        status, refused = request(
            server.port, "POST", path, again, tokens["jungle"], seat_key(jungle, game)
        )
        assert status == 409, refused
        assert refused["detail"] == (
            "Your earlier order is still waiting for the dice of Ork warband (roll 4); it goes "
            "ahead once they are in. Give this order after it."
        )
        assert jungle.seq() == 3
        back(orks, links["orks"])
        for player in (jungle, orks):
            player.wait_seq(4)
        game_view = jungle.view()
        assert [e["seq"] for e in game_view["log"]] == list(range(5))
        no_alarm(jungle, orks)

        # The game ends; both pages' records, with their receipts, pass the audit.
        orks.page.on("dialog", lambda dialog: dialog.accept())
        orks.press("end_game")
        jungle.wait_seq(5)
        records = {}
        for player, side in ((jungle, "jungle"), (orks, "orks")):
            wait_view(player, "v.phase === 'over'")
            button = player.page.locator("#fair button.record-button")
            with player.page.expect_download() as download:
                button.click()
            records[side] = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
            kept = receipts(player, game, side)
            assert records[side]["receipts"][side] == kept
            # Every roll asked for once, whatever the page saw across the kills.
            assert sorted(r["k"] for r in kept["requests"]) == sorted(
                {r["k"] for r in kept["requests"]}
            )
        both = dict(
            records["jungle"],
            receipts={**records["jungle"]["receipts"], **records["orks"]["receipts"]},
        )
        report = audit(both)
        assert report.ok, report.findings
        assert report.held == []
        assert report.events == 6
        assert report.receipts >= 2 * report.events
        no_alarm(jungle, orks)
        assert kills == KILLS
        print(f"\nkill -9 survived with pages waiting on a roll: {kills}")
    finally:
        jungle.close()
        orks.close()
