"""Orders over the websocket, offline and back, in a real browser (Debian's chromium, driven
by Playwright) against a real ``ghillie serve``.

A player's order goes by the page's websocket, never by HTTP, and reaches the other side's
page; an order whose roll waits for another side's page says whose, and goes through by itself
when that page comes back (no 30 s limit, no 503); the badge says "offline" when the browser
is, an order given then is kept and shown as not sent, and goes out exactly once when the
network is back; a dropped socket, a silent one (a heartbeat that goes unanswered) and a
killed server are resumed from the last event the page holds (the auth message's ``after``),
with no event shown twice and none missing. The times an order takes to reach the other
phone and a page takes to reconnect are printed (``pytest -s``).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import pages, test_browser
from .test_browser import DESKTOP, PHONE
from .test_browser_fair import FairPlayer
from .test_durability import Server, free_port

server = test_browser.server  # the same `ghillie serve` and chromium as the page tests
browser = test_browser.browser

SCENARIO = "grid-ambush-table"
NOT_SENT_OFFLINE = "Not sent yet — you are offline; it will be sent when the connection is back."
NOT_SENT_DOWN = (
    "Not sent yet — there is no connection to the server; it will be sent when the "
    "connection is back."
)
AFTER_RESTART_MS = 40_000  # a page's socket may be waiting out a long backoff by then


class OrderPlayer(FairPlayer):
    """A player's page that also records every HTTP request it makes."""

    def __init__(self, browser: Any, url: str, viewport: dict[str, int]) -> None:
        self.requests: list[tuple[str, str]] = []
        super().__init__(browser, url, viewport)
        self.page.on("request", lambda r: self.requests.append((r.method, r.url)))

    def posted_commands(self) -> list[str]:
        """The HTTP commands the page gave (it should give none: orders go by the socket)."""
        return [url for method, url in self.requests if method == "POST" and "/commands" in url]

    def commands_sent(self) -> list[dict[str, Any]]:
        return self.sent_messages("command")

    def state(self) -> str:
        return str(self.page.locator("#conn").get_attribute("data-state"))

    def result(self) -> str:
        return str(self.page.inner_text("#result"))

    def wait_result(self, text: str, timeout: int = 10_000) -> None:
        self.page.wait_for_function(
            "t => document.getElementById('result').textContent.includes(t)",
            arg=text,
            timeout=timeout,
        )

    def log_seqs(self) -> list[int]:
        return [int(entry["seq"]) for entry in self.view()["log"]]

    def no_alarm(self) -> None:
        assert self.page.locator(".alarm").count() == 0, self.page.locator(
            ".alarm"
        ).all_inner_texts()
        assert self.errors == []


def events_of(player: OrderPlayer, kind: str) -> list[int]:
    """The seqs of the log entries whose lines hold an event of this kind."""
    return [
        int(entry["seq"])
        for entry in player.view()["log"]
        if any(line.get("event") == kind for line in entry["lines"])
    ]


def one_ambush_order(player: OrderPlayer, square: str) -> Any:
    """Fill in the Veterans' record_ambushes form: Graw's patrol in `square`, nothing else."""
    orders = player.form("record_ambushes")
    # The form starts with an order for Graw's patrol and one for Harker's squad.
    orders.locator("ol.items > li").nth(1).locator("button.remove").click()
    player.choose(orders, "orders.0.unit", player.piece_id("graw"))
    orders.locator('input[name="orders.0.square"]').fill(square)
    return orders


def no_ambushes(jungle: OrderPlayer) -> None:
    """The Veterans write their ambush orders, none (every row taken out of the form), as a
    side that may ambush does before it is ready (DWV-R04)."""
    orders = jungle.form("record_ambushes")
    rows = orders.locator("ol.items > li")
    while rows.count():
        rows.first.locator("button.remove").click()
    jungle.submit(orders)


def both_ready(jungle: OrderPlayer, orks: OrderPlayer) -> None:
    no_ambushes(jungle)
    jungle.press("ready")
    orks.wait_seq(jungle.seq())
    orks.press("ready")
    jungle.wait_seq(orks.seq())


# --- (a) an order goes by the socket and reaches the other phone --------------------------------


def test_an_order_goes_over_the_websocket_and_reaches_the_other_page(
    browser: Any, server: str
) -> None:
    game = pages.create_game(server, SCENARIO)
    jungle = OrderPlayer(browser, game.links["jungle"], PHONE)
    orks = OrderPlayer(browser, game.links["orks"], DESKTOP)
    try:
        before = orks.seq()
        orders = one_ambush_order(jungle, "D2")
        # The time the order is given, on the giving page; the time the other page first
        # shows the event, on that page (one clock: both pages run on this machine).
        jungle.page.evaluate(
            """() => document.addEventListener('submit',
                () => { window.__given = Date.now(); }, { capture: true, once: true })"""
        )
        assert "Sgt. Graw's patrol in square D2" in jungle.submit(orders)
        orks.page.wait_for_function(
            """n => window.ghillie.view.seq > n &&
                (window.__shown = window.__shown || Date.now())""",
            arg=before,
            polling=5,
        )
        given = jungle.page.evaluate("() => window.__given")
        shown = orks.page.evaluate("() => window.__shown")
        assert "Deathworld Veterans write down their ambush orders in secret" in (
            orks.page.locator("#log").inner_text()
        )
        # By the socket, with one command id; not one HTTP command from either page.
        assert [c["command"]["type"] for c in jungle.commands_sent()] == ["record_ambushes"]
        assert jungle.posted_commands() == []
        assert orks.posted_commands() == []
        assert events_of(orks, "ambushes_recorded") == [before + 1]
        jungle.no_alarm()
        orks.no_alarm()
        print(f"\norder given on one page → shown on the other: {shown - given} ms")
    finally:
        jungle.close()
        orks.close()


# --- (b) an order waiting for another page's dice -----------------------------------------------


def test_an_order_waiting_for_the_other_pages_dice_says_whose_and_goes_through_by_itself(
    browser: Any, server: str
) -> None:
    game = pages.create_game(server, SCENARIO, chains="clients")
    jungle = OrderPlayer(browser, game.links["jungle"], PHONE)
    orks = OrderPlayer(browser, game.links["orks"], DESKTOP)
    try:
        for player in (jungle, orks):
            player.wait_seq(0)
        both_ready(jungle, orks)
        before = jungle.seq()
        # The orks' phone goes in a pocket: its page is closed (its browser keeps the chain).
        orks.page.goto("about:blank")
        jungle.page.evaluate(
            """() => {
                window.__said = [];
                new MutationObserver(() => window.__said.push(
                    document.getElementById('result').textContent))
                    .observe(document.getElementById('result'),
                        { childList: true, characterData: true, subtree: true });
            }"""
        )
        jungle.page.locator("button.command-button[data-command=end_phase]").click()
        jungle.confirm()
        k = before + 1
        waiting = f"Waiting for the dice of Ork warband's page (roll {k})…"
        jungle.wait_result(waiting)
        assert jungle.result() == waiting
        card = jungle.page.locator("div.command:has(button[data-command=end_phase]) .message")
        assert card.inner_text() == waiting
        # One order at a time: every order's button waits with it.
        assert jungle.page.locator("button.command-button:not([disabled])").count() == 0
        assert jungle.page.locator("button.send:not([disabled])").count() == 0
        # Said as the elements came in: this page's share first, then the orks' alone.
        said = jungle.page.evaluate("() => window.__said")
        assert any("this page" in text for text in said), said
        # A long wait says what to do about it.
        jungle.wait_result(
            "Ask Ork warband to open their page. If their device is lost", timeout=25_000
        )
        assert jungle.seq() == before
        # The orks' page comes back and gives its share; the order goes through by itself.
        orks.page.goto(game.links["orks"])
        orks.page.wait_for_selector("#conn[data-state=live]")
        jungle.page.wait_for_selector("#result.ok")
        for player in (jungle, orks):
            player.wait_seq(k)
            assert player.log_seqs() == list(range(k + 1))
        assert jungle.page.locator("button.command-button:not([disabled])").count() > 0
        # It waited on the socket: no HTTP command, so no 30 s limit and no 503.
        assert [c["command"]["type"] for c in jungle.commands_sent()][-1] == "end_phase"
        # The ambush orders, ready, then end_phase: each sent once, on the one connection
        # the page had.
        assert len({c["command_id"] for c in jungle.commands_sent()}) == 3
        assert len(jungle.commands_sent()) == 3
        assert jungle.posted_commands() == []
        assert not [r for r in jungle.responses if r.status == 503]
        jungle.no_alarm()
        orks.no_alarm()
    finally:
        jungle.close()
        orks.close()


# --- (c) offline, and back ------------------------------------------------------------------------


def test_offline_the_badge_says_so_an_order_is_kept_and_it_goes_once_when_back(
    browser: Any, server: str
) -> None:
    game = pages.create_game(server, SCENARIO)
    jungle = OrderPlayer(browser, game.links["jungle"], PHONE)
    orks = OrderPlayer(browser, game.links["orks"], DESKTOP)
    try:
        before = jungle.seq()
        went = time.monotonic()
        jungle.context.set_offline(True)
        jungle.page.wait_for_selector("#conn[data-state=offline]", timeout=3_000)
        noticed = time.monotonic() - went
        assert jungle.page.inner_text("#conn").startswith("offline")

        orders = one_ambush_order(jungle, "C2")
        orders.locator("button.send").click()
        card = orders.locator(":scope > p.message")
        assert card.inner_text() == NOT_SENT_OFFLINE
        assert jungle.result() == NOT_SENT_OFFLINE
        assert orders.locator("button.send").is_disabled()
        # Kept for a reload too (sessionStorage), and nothing went anywhere.
        kept = jungle.page.evaluate(
            "key => JSON.parse(sessionStorage.getItem(key))", f"ghillie:outbox:{game.game_id}"
        )
        assert kept["command"]["type"] == "record_ambushes"
        time.sleep(1)
        assert jungle.commands_sent() == []
        assert orks.seq() == before

        back = time.monotonic()
        jungle.context.set_offline(False)
        jungle.page.wait_for_selector("#conn[data-state=live]")
        reconnected = time.monotonic() - back
        jungle.page.wait_for_selector("#result.ok")
        assert "Sgt. Graw's patrol in square C2" in jungle.result()
        orks.wait_seq(before + 1)
        time.sleep(0.5)  # anything sent twice would have made a second event by now
        # Sent once, with the id it was given; one event.
        assert [c["command_id"] for c in jungle.commands_sent()] == [kept["id"]]
        for player in (jungle, orks):
            assert events_of(player, "ambushes_recorded") == [before + 1]
            assert player.log_seqs() == list(range(before + 2))
        assert jungle.posted_commands() == []
        assert (
            jungle.page.evaluate(
                "key => sessionStorage.getItem(key)", f"ghillie:outbox:{game.game_id}"
            )
            is None
        )
        jungle.no_alarm()
        orks.no_alarm()
        print(
            f"\noffline noticed in {noticed * 1000:.0f} ms; "
            f"live again {reconnected * 1000:.0f} ms after the network came back"
        )
    finally:
        jungle.close()
        orks.close()


class Blocker:
    """A page's websockets through a switch: while `blocked`, each one opens and then
    carries nothing (a network that lets the page load but no socket through); otherwise
    they pass to the server."""

    def __init__(self, page: Any) -> None:
        self.blocked = False
        page.route_web_socket(re.compile(r".*/ws$"), self.route)

    def route(self, socket: Any) -> None:
        if self.blocked:
            return  # mocked: open, and nothing comes back
        upstream = socket.connect_to_server()
        socket.on_message(lambda message: upstream.send(message))
        upstream.on_message(lambda message: socket.send(message))


def test_an_order_not_yet_sent_is_kept_across_a_reload(browser: Any, server: str) -> None:
    game = pages.create_game(server, SCENARIO)
    jungle = OrderPlayer(browser, game.links["jungle"], PHONE)
    try:
        blocker = Blocker(jungle.page)
        blocker.blocked = True
        jungle.page.evaluate("() => window.ghillie.live.socket.close()")
        jungle.page.wait_for_selector("#conn:not([data-state=live])")
        before = jungle.seq()
        orders = one_ambush_order(jungle, "B2")
        orders.locator("button.send").click()
        jungle.wait_result(NOT_SENT_DOWN)
        kept = jungle.page.evaluate(
            "key => JSON.parse(sessionStorage.getItem(key))", f"ghillie:outbox:{game.game_id}"
        )
        # The player reloads the page that seems stuck: the order is still there, and goes
        # once the socket does, with the id it was given.
        jungle.page.reload()
        jungle.page.wait_for_function("() => window.ghillie && window.ghillie.live.open")
        blocker.blocked = False
        # The page gives up a socket that brings no view after a while; sooner here.
        jungle.page.evaluate("() => window.ghillie.live.lose('stalled')")
        jungle.page.wait_for_selector("#conn[data-state=live]")
        jungle.page.wait_for_selector("#result.ok")
        assert "Sgt. Graw's patrol in square B2" in jungle.result()
        assert [c["command_id"] for c in jungle.commands_sent()] == [kept["id"]]
        jungle.wait_seq(before + 1)
        assert events_of(jungle, "ambushes_recorded") == [before + 1]
        assert jungle.posted_commands() == []
        jungle.no_alarm()
    finally:
        jungle.close()


# --- (d) a dropped socket, a silent one, a killed server: resumed from `after` ----------------


@pytest.fixture
def restartable(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "ghillie.db", free_port())
    running.start()
    yield running
    running.kill()


def auths(player: OrderPlayer) -> list[dict[str, Any]]:
    return player.sent_messages("auth")


def whole_views(player: OrderPlayer) -> list[dict[str, Any]]:
    out = []
    for text in player.frames:
        try:
            message = json.loads(text)
        except ValueError:
            continue
        if isinstance(message, dict) and message.get("type") == "view":
            out.append(message["view"])
    return out


def assert_resumed(player: OrderPlayer, after: int) -> None:
    """The page's latest connection asked for the log after `after`, was sent only that,
    and holds every event once."""
    assert auths(player)[-1].get("after") == after
    assert all(int(e["seq"]) > after for e in whole_views(player)[-1]["log"])
    assert player.log_seqs() == list(range(player.seq() + 1))


def test_a_dropped_socket_and_a_killed_server_resume_from_the_last_event_held(
    browser: Any, restartable: Server
) -> None:
    base = f"http://127.0.0.1:{restartable.port}"
    game = pages.create_game(base, SCENARIO, chains="clients")
    jungle = OrderPlayer(browser, game.links["jungle"], PHONE)
    orks = OrderPlayer(browser, game.links["orks"], DESKTOP)
    try:
        for player in (jungle, orks):
            player.wait_seq(0)
        assert "after" not in auths(jungle)[0]  # a page that holds nothing asks for it all
        both_ready(jungle, orks)
        held = orks.seq()

        # 1. The orks' socket drops; the Veterans' order waits for the orks' share, which
        #    their page gives once it is back, resumed from the last event it held.
        orks.page.evaluate("() => window.ghillie.live.socket.close()")
        jungle.page.locator("button.command-button[data-command=end_phase]").click()
        jungle.confirm()
        for player in (jungle, orks):
            player.wait_seq(held + 1)
        jungle.page.wait_for_selector("#result.ok")
        assert_resumed(orks, held)

        # 2. The server is killed; an order given meanwhile waits, is sent once it is back,
        #    and both pages resume from the last event they held.
        held = jungle.seq()
        restartable.kill()
        jungle.page.wait_for_selector("#conn[data-state=offline]")
        jungle.page.locator("button.command-button[data-command=end_phase]").click()
        jungle.confirm()
        jungle.wait_result(NOT_SENT_DOWN)
        restartable.start()
        started = time.monotonic()  # the server answers again
        for player in (jungle, orks):
            player.page.wait_for_selector("#conn[data-state=live]", timeout=AFTER_RESTART_MS)
        back = time.monotonic() - started
        jungle.page.wait_for_selector("#result.ok", timeout=AFTER_RESTART_MS)
        for player in (jungle, orks):
            player.wait_seq(held + 1)
            assert_resumed(player, held)
        # Each end_phase sent once: the second on the connection after the restart.
        ends = [c for c in jungle.commands_sent() if c["command"]["type"] == "end_phase"]
        assert len(ends) == 2
        assert len({c["command_id"] for c in ends}) == 2
        assert jungle.posted_commands() == []
        jungle.no_alarm()
        orks.no_alarm()
        print(f"\nlive again {back * 1000:.0f} ms after the restarted server answered")
    finally:
        jungle.close()
        orks.close()


class Silencer:
    """A page's websockets, passed to the server; `silence()` makes the latest one carry
    nothing more either way, without closing it (a connection a sleeping phone or a changed
    network left half-open). Later ones pass."""

    def __init__(self, page: Any) -> None:
        self.sockets = 0
        self.silent: set[int] = set()
        page.route_web_socket(re.compile(r".*/ws$"), self.route)

    def silence(self) -> None:
        self.silent.add(self.sockets)

    def route(self, socket: Any) -> None:
        self.sockets += 1
        mine = self.sockets
        upstream = socket.connect_to_server()

        def to_server(message: str | bytes) -> None:
            if mine not in self.silent:
                upstream.send(message)

        def to_page(message: str | bytes) -> None:
            if mine not in self.silent:
                socket.send(message)

        socket.on_message(to_server)
        upstream.on_message(to_page)


def test_a_silent_socket_is_found_out_by_its_heartbeat_when_the_phone_wakes(
    browser: Any, server: str
) -> None:
    game = pages.create_game(server, SCENARIO)
    jungle = OrderPlayer(browser, game.links["jungle"], PHONE)
    orks = OrderPlayer(browser, game.links["orks"], DESKTOP)
    try:
        no_ambushes(jungle)
        orks.wait_seq(jungle.seq())
        silencer = Silencer(orks.page)
        orks.page.evaluate("() => window.ghillie.live.socket.close()")
        orks.page.wait_for_function("() => window.ghillie.live.connections >= 2")
        orks.page.wait_for_selector("#conn[data-state=live]")
        held = orks.seq()
        silencer.silence()
        # Meanwhile the Veterans get ready: the orks' page is not told.
        jungle.press("ready")
        time.sleep(0.5)
        assert orks.seq() == held
        # The phone wakes: the page pings at once, hears nothing, and connects again.
        woke = time.monotonic()
        orks.page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
        orks.wait_seq(held + 1)
        orks.page.wait_for_selector("#conn[data-state=live]")
        found = time.monotonic() - woke
        assert found < 8, found
        assert_resumed(orks, held)
        assert "Deathworld Veterans are set up and ready" in orks.page.locator("#log").inner_text()
        orks.no_alarm()
        print(f"\na silent socket found out and replaced {found * 1000:.0f} ms after waking")
    finally:
        jungle.close()
        orks.close()
