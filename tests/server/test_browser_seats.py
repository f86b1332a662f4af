"""Seats at a real table, in a real browser (issue: at a real table). The host creates a game
and opens every link to check it, which takes nothing; each player takes their seat on their
own device and plays to a reveal; one player moves their seat to a new phone with the code
the old one shows, the other's phone is lost and a new one starts a new dice chain; the game
goes on, the other side is told, and the record passes the audit naming where each new chain
starts. Every order is signed by the device that held the seat when it was given: each new
device with a seat key of its own, which the record gives the side from the event its new
chain starts. The host's tabs are shown nothing of the game once the seats are taken."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from ghillie.fairness.audit import audit

from . import pages, test_browser
from .test_browser import DESKTOP, PHONE, Player, assert_never_seen
from .test_browser_fair import (
    MeddledPlayer,
    _walk,
    create_game,
    give,
    receipts,
    signed_orders,
    wait_view,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with pages.serve(tmp_path_factory.mktemp("seats-server")) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with pages.chromium() as chromium:
        yield chromium


def _links_page(browser: Any, server: str) -> tuple[Any, dict[str, str]]:
    """The host's links page of a new suspicious-places game whose pages hold the chains."""
    host = browser.new_context(viewport=DESKTOP)
    host.set_default_timeout(test_browser.TIMEOUT_MS)
    start = host.new_page()
    start.goto(server + "/")
    start.check('input[name=ruleset][value="suspicious-places"]')
    start.check('input[name=scenario][value="suspicious-places-table"]')
    start.set_checked("#client-chains", True)
    start.click("#create-button")
    start.wait_for_selector("#links:not([hidden])")
    links = {
        item.get_attribute("data-observer"): item.locator("input.url").input_value()
        for item in start.locator("li.link").all()
    }
    return start, links


def _seat_lines(start: Any) -> dict[str, str]:
    return {
        side: start.locator(f'li.link[data-observer="{side}"] .seat-status').get_attribute(
            "data-taken"
        )
        or ""
        for side in ("lianra", "keno")
    }


def _move_code(player: Player) -> str:
    """The holder shows the code that moves its seat (Fairness, "Move this seat")."""
    player.page.locator("button.move-seat").click()
    shown = player.page.locator(".move-code-text")
    shown.wait_for()
    assert player.page.locator(".seat-move .qr svg").count() == 1
    return shown.inner_text().strip()


def _some_order(a: Player, b: Player) -> None:
    """One order that needs no input, by whichever side is offered one (a pass, say)."""
    for player, other in ((a, b), (b, a)):
        offered = [c["type"] for c in player.view()["commands"]]
        for kind in ("pass", "end_activation", "ready"):
            if kind in offered:
                player.press(kind)
                other.wait_seq(player.seq())
                return
    raise AssertionError("neither side is offered an order that needs no input")


def _record(server: str, game: str, token: str) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{server}/api/games/{game}/record", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        record: dict[str, Any] = json.load(answer)
    return record


def test_seats_are_taken_once_moved_with_a_code_and_restarted_with_a_new_chain(
    browser: Any, server: str
) -> None:
    start, links = _links_page(browser, server)
    game = links["lianra"].split("/play/")[1].split("#")[0]
    # The host checks each side's link from the links page: that takes no seat.
    tabs = {}
    for side in ("lianra", "keno"):
        with start.context.expect_page() as opened:
            start.locator(f'li.link[data-observer="{side}"] a.open').click()
        tab = opened.value
        tab.locator("[data-seat=free]").wait_for()
        assert "Take this seat" in tab.locator("#seat").inner_text()
        tabs[side] = tab
    assert _seat_lines(start) == {"lianra": "false", "keno": "false"}

    # Each player takes their own seat, on their own device: the host's tabs are told.
    lianra = Player(browser, links["lianra"], PHONE)
    keno = Player(browser, links["keno"], DESKTOP)
    lianra_new = keno_new = None
    try:
        for tab in tabs.values():
            tab.locator("[data-seat=taken]").wait_for()
            assert tab.locator("#app").is_hidden()
        start.wait_for_function(
            "() => document.querySelectorAll('.seat-status[data-taken=true]').length === 2"
        )
        assert "Seat taken by a device" in start.locator("#links").inner_text()

        # A game to a reveal: markers, secrets, observations, every roll from both phones.
        test_browser._play_suspicious_places(lianra, keno)
        notes = [f"{test_browser.SP_CANARY}-{i}" for i in range(3)]
        for tab in tabs.values():  # shown nothing of the game after the seats were taken
            assert all(note not in tab.content() for note in notes)

        # Lianra moves to a new phone: the old one shows a code, the new one takes it.
        code = _move_code(lianra)
        lianra_new = Player(browser, links["lianra"], PHONE, take=False)
        lianra_new.page.locator("[data-seat=taken]").wait_for()
        lianra_new.page.fill("input[name=move-code]", code.lower())  # typed as it comes
        lianra_new.page.locator("form.move-code button[type=submit]").click()
        lianra_new.page.wait_for_function(
            "() => window.ghillie.view && window.ghillie.seat.state === 'yours'"
        )
        lianra.page.locator("[data-seat=taken]").wait_for()
        assert "This seat moved to another device" in lianra.page.locator("#seat").inner_text()
        own = lianra_new.page.locator("#own").inner_text()
        assert any(note in own for note in notes), own  # her secrets, on the new phone
        lianra.close()
        lianra = lianra_new
        _some_order(lianra, keno)  # the first roll from Lianra's new chain

        # Keno's phone is lost: a new one starts a new dice chain (every page is told).
        keno.close()
        keno_new = Player(browser, links["keno"], DESKTOP, take=False)
        keno_new.page.locator("[data-seat=taken]").wait_for()
        keno_new.page.locator("button.new-chain").click()
        keno_new.page.wait_for_function(
            "() => window.ghillie.view && window.ghillie.seat.state === 'yours'"
        )
        keno = keno_new
        lianra.page.wait_for_function(
            "() => (window.ghillie.view.fairness.new_chains || []).some(c => c.side === 'keno')"
        )
        assert "was taken over by another device" in lianra.page.locator("#status").inner_text()
        _some_order(lianra, keno)  # the first roll from Keno's new chain
        assert_never_seen(keno, *notes)

        # The game ends; the record, with both new phones' receipts, passes the audit.
        ender = keno if "end_game" in [c["type"] for c in keno.view()["commands"]] else lianra
        ender.press("end_game")
        for player in (lianra, keno):
            player.page.wait_for_function("() => window.ghillie.view.phase === 'over'")
            assert player.page.locator("#alarms .alarm").count() == 0, player.page.locator(
                "#alarms"
            ).inner_text()
        assert "come from a new chain" in keno.page.locator("#status").inner_text()
        record = _record(server, game, links["referee"].split("#")[1])
        kept = [(side, receipts(p, game, side)) for side, p in (("lianra", lianra), ("keno", keno))]
        report = audit(record, kept_by=kept)
        assert report.ok, report.findings
        assert [side for side, _ in report.new_chains] == ["lianra", "keno"]
        first, second = (k for _, k in report.new_chains)
        assert first < second
        # Every order was signed by the device that held the seat then: from the event its
        # new chain starts, each new device's own seat key, which the record gives the side
        # there; no command of either side is the host's.
        starts = dict(report.new_chains)
        for side, player in (("lianra", lianra), ("keno", keno)):
            key = player.page.evaluate("side => window.ghillie.fairplay.seatKey(side)", side)
            events = record["events"]
            assert events[starts[side]]["fair"]["keys"] == {side: key}
            assert events[0]["fair"]["setup"]["seats"][side] not in (None, key)
        signed = signed_orders(record)
        assert max(max(seqs) for seqs in signed.values()) > starts["keno"]  # end_game
        assert report.host_acted == {}
        assert report.signed == {side: len(seqs) for side, seqs in signed.items()}
        assert lianra.errors == []
        assert keno.errors == []
    finally:
        for player in {id(p): p for p in (lianra, keno, lianra_new, keno_new) if p}.values():
            player.close()
        start.context.close()


def test_a_seat_taken_over_while_its_own_order_waits_for_its_roll_goes_on(
    browser: Any, server: str
) -> None:
    """Keno gives an order and its phone is lost before it gives its element for the order's
    roll (here: the request never reaches it). A new device takes the seat with a new dice
    chain: the roll waits for its element, for an order the lost device signed with the seat's
    key then. The game must go on, with no alarm. (Its record must also pass the audit; with
    the page's check taken out, it does not: event 1 records the new key, and the audit checks
    the lost device's signature of its order against it.)"""
    _, links = create_game(server, "clients")

    def meddle(message: Any) -> Any:
        def visit(part: dict[str, Any]) -> None:
            request = part.get("request") if "waiting" in part else None
            if isinstance(request, dict) and request["k"] >= 1:
                part["request"] = None  # the phone never learns its roll was asked for
                part["waiting"] = []

        return _walk(message, visit)

    keno = MeddledPlayer(browser, links["keno"], DESKTOP, meddle)
    lianra = Player(browser, links["lianra"], PHONE)
    keno_new = None
    try:
        for player in (keno, lianra):
            player.wait_seq(0)
        give(keno, {"type": "ready"})
        wait_view(lianra, "JSON.stringify(v.fairness.waiting) === '[\"keno\"]'")
        keno.close()  # lost, its element for roll 1 never given
        keno_new = Player(browser, links["keno"], DESKTOP, take=False)
        keno_new.page.locator("[data-seat=taken]").wait_for()
        keno_new.page.locator("button.new-chain").click()
        keno_new.page.wait_for_function(
            "() => window.ghillie.view && window.ghillie.seat.state === 'yours'"
        )
        keno_new.page.wait_for_function(
            "() => document.querySelector('.alarm') || window.ghillie.view.seq >= 1"
        )
        assert keno_new.page.locator(".alarm").count() == 0, keno_new.page.locator(
            ".alarm"
        ).inner_text()
        lianra.wait_seq(1)
    finally:
        for player in (keno, lianra, keno_new):
            if player is not None:
                player.close()
