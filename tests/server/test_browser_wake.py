"""A phone that sleeps at the table (issue 26, items 1 and 2, the pages' side), with a real
``ghillie serve``, two real pages that hold their own dice chains and the table screen
(Debian's chromium, driven by Playwright).

A phone locks itself: its page is hidden and its network sleeps. A roll then waits for its
element. The table screen and the other side's page name whom to wake and for how long the
game still waits; the phone that wakes connects again at once, gives its element, and tells
its player in one line what happened while it slept. While its side is awaited a page keeps
its screen on, and after a lost connection tries again about every second, where an idle
page backs off.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ghillie import examples
from ghillie.state import SPECTATOR

from . import test_browser
from .test_browser import DESKTOP, PHONE
from .test_browser_fair import FairPlayer
from .test_durability import Server, free_port, request

browser = test_browser.browser

# The page's visibility, as the test says (a phone's lock screen): the document's own
# `visibilityState` follows `window.__asleep`, and `__sleep(on)` tells the page it changed.
SLEEPY = """() => {
    Object.defineProperty(document, 'visibilityState', {
        configurable: true, get: () => (window.__asleep ? 'hidden' : 'visible') });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => !!window.__asleep });
    window.__sleep = (on) => { window.__asleep = on;
        document.dispatchEvent(new Event('visibilitychange')); };
}"""

# A stand-in for the Screen Wake Lock API, which headless chromium refuses: it records what
# the page asks for and lets go of, as the real one would.
WAKE_LOCK = """() => {
    window.__locks = [];
    Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: {
        request: async (type) => {
            const lock = new EventTarget();
            lock.type = type; lock.released = false;
            lock.release = async () => { lock.released = true;
                lock.dispatchEvent(new Event('release')); };
            window.__locks.push(lock);
            return lock;
        } } });
}"""

# Held now: a lock asked for and not let go.
HELD = "() => window.__locks.filter((l) => !l.released).length"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "ghillie.db", free_port())
    running.start()
    yield running
    running.kill()


def new_game(server: Server, wait: int | str, chains: str = "clients") -> dict[str, str]:
    """A game of the table's grid ambush in which no unit sets up in ambush (both sides get
    ready at once, and the game is in play at event 2); each side's page holds its chain
    (``chains="host"``: the host holds them)."""
    data = examples.data("grid-ambush-table")
    data["units"] = [{**unit, "ambush": False} for unit in data["units"]]
    body = {"scenario_data": data, "chains": chains, "wait_for_pages": wait}
    status, created = request(server.port, "POST", "/api/games", body)
    assert status == 201, created
    return {link["observer"]: link["url"] for link in created["links"]}


def in_play(jungle: FairPlayer, orks: FairPlayer) -> None:
    for player in (jungle, orks):
        player.wait_seq(0)
    jungle.press("ready")
    orks.press("ready")
    for player in (jungle, orks):
        player.wait_seq(2)


def table_screen(browser: Any, url: str) -> Any:
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(test_browser.TIMEOUT_MS)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#conn[data-state=live]")
    return page


def fall_asleep(player: FairPlayer) -> None:
    """The phone locks: its page is hidden, then its network sleeps."""
    player.page.evaluate(SLEEPY)
    player.page.evaluate("() => window.__sleep(true)")
    player.context.set_offline(True)
    player.page.wait_for_function("() => !window.ghillie.live.live")


def wake_up(player: FairPlayer) -> None:
    player.context.set_offline(False)
    player.page.evaluate("() => window.__sleep(false)")


def waiting_for_orks(player: FairPlayer, k: int) -> None:
    player.page.wait_for_function(
        """k => { const f = window.ghillie.view.fairness;
            return f.request && f.request.k === k && JSON.stringify(f.waiting) === '["orks"]'; }""",
        arg=k,
    )


def orks_asleep_while_a_roll_waits(jungle: FairPlayer, orks: FairPlayer) -> None:
    """In play, the Orks' phone locks; the Veterans end the phase, and its roll waits for the
    Orks' element (the Veterans' page gave its share)."""
    in_play(jungle, orks)
    fall_asleep(orks)
    jungle.page.locator("button.command-button[data-command=end_phase]").click()
    jungle.confirm()
    waiting_for_orks(jungle, 3)


def no_alarm(*players: FairPlayer) -> None:
    for player in players:
        assert player.page.locator(".alarm").count() == 0, player.page.locator(
            ".alarm"
        ).all_inner_texts()
        assert player.errors == []


def test_a_phone_that_slept_while_a_roll_waited_for_it_wakes_and_the_game_goes_on(
    browser: Any, server: Server
) -> None:
    links = new_game(server, 90)
    jungle = FairPlayer(browser, links["jungle"], PHONE)
    orks = FairPlayer(browser, links["orks"], DESKTOP)
    table = table_screen(browser, links[SPECTATOR])
    try:
        orks_asleep_while_a_roll_waits(jungle, orks)

        # Whom to wake, and for how long the game still waits: on the table screen and on
        # the page of the player whose order waits.
        for page in (table, jungle.page):
            note = page.locator("p.wake-note")
            note.wait_for(state="visible")
            text = note.inner_text()
            assert text.startswith("Whom to wake: Ork warband. The game waits "), text
            assert text.endswith(" more for their page, then rolls without its dice."), text
            seconds = int(text.split("The game waits ")[1].split(" s more")[0])
            assert 0 < seconds <= 90
        # The table screen is read from across the table and scrolled by nobody: the line
        # stands within what its status box shows, not below its fold.
        shown = table.evaluate(
            """() => { const box = document.getElementById('status-box').getBoundingClientRect();
                const note = document.querySelector('p.wake-note').getBoundingClientRect();
                return note.top >= box.top && note.bottom <= box.bottom; }"""
        )
        assert shown, "the table screen's line on whom to wake is below its status box's fold"
        assert jungle.seq() == 2

        wake_up(orks)
        # The woken page gives its element at once: the order goes through, both sides see it.
        for player in (jungle, orks):
            player.wait_seq(3)
        line = jungle.view()["log"][-1]["said"][-1]["text"]
        news = orks.page.locator("#wake .wake-news")
        news.wait_for(state="visible")
        assert news.inner_text().startswith(f"While you were away: {line}"), news.inner_text()
        table.wait_for_function("() => !document.querySelector('p.wake-note')")
        assert jungle.page.locator("p.wake-note").count() == 0
        # Put away by its player, the line goes.
        news.locator("button.wake-ok").click()
        assert orks.page.locator("#wake .wake-news").count() == 0
        no_alarm(jungle, orks)
    finally:
        table.context.close()
        jungle.close()
        orks.close()


def test_the_table_screen_names_whom_to_wake_in_a_game_that_waits_for_ever(
    browser: Any, server: Server
) -> None:
    links = new_game(server, "always")
    jungle = FairPlayer(browser, links["jungle"], PHONE)
    orks = FairPlayer(browser, links["orks"], DESKTOP)
    table = table_screen(browser, links[SPECTATOR])
    try:
        orks_asleep_while_a_roll_waits(jungle, orks)
        note = table.locator("p.wake-note")
        note.wait_for(state="visible")
        # No time is counted where the game keeps none: it says so, in words that hold.
        assert note.inner_text() == (
            "Whom to wake: Ork warband. The game waits for their page until it gives its dice."
        )
        assert "A roll is waiting for: Ork warband." in table.inner_text("#status")
        wake_up(orks)
        table.wait_for_function("() => !document.querySelector('p.wake-note')")
        orks.wait_seq(3)
    finally:
        table.context.close()
        jungle.close()
        orks.close()


def test_an_awaited_page_keeps_its_screen_on_and_lets_go_once_it_is_not(
    browser: Any, server: Server
) -> None:
    links = new_game(server, 90)
    jungle = FairPlayer(browser, links["jungle"], PHONE)
    orks = FairPlayer(browser, links["orks"], DESKTOP)
    try:
        for player in (jungle, orks):
            player.page.evaluate(WAKE_LOCK)
        in_play(jungle, orks)
        # The game is the Veterans' to move: their screen stays on, the Orks' may sleep.
        jungle.page.wait_for_function(f"() => ({HELD})() === 1")
        assert orks.page.evaluate(HELD) == 0
        # Hidden, the browser lets go of the lock; shown again, the page asks for it again.
        jungle.page.evaluate(SLEEPY)
        jungle.page.evaluate(
            """() => { window.__sleep(true);
                for (const l of window.__locks) if (!l.released) l.release(); }"""
        )
        assert jungle.page.evaluate(HELD) == 0
        jungle.page.evaluate("() => window.__sleep(false)")
        jungle.page.wait_for_function(f"() => ({HELD})() === 1")
        # The game over, nobody is awaited: the lock is let go.
        jungle.page.on("dialog", lambda dialog: dialog.accept())
        jungle.press("end_game")
        jungle.page.wait_for_function(f"() => ({HELD})() === 0")
        no_alarm(jungle, orks)
    finally:
        jungle.close()
        orks.close()


# Jitter left out, so the old back-off is what it would be on average: tries 0.5, 1.5,
# 3.5, 7.5, 15.5 s after the connection was lost.
STEADY = "() => { Math.random = () => 0.5; }"
OUTAGE_S = 8.0  # the server is down this long: the next try of a backed-off page is at 15.5 s


def _server_down(server: Server, *players: FairPlayer) -> float:
    """Kill the server with the pages' jitter fixed, keep it down OUTAGE_S while every page
    sees it gone, start it again; the monotonic time it answered again."""
    for player in players:
        player.page.evaluate(STEADY)
    server.kill()
    lost = time.monotonic()
    for player in players:
        player.page.wait_for_selector("#conn[data-state=offline]")
    time.sleep(max(0.0, OUTAGE_S - (time.monotonic() - lost)))
    server.start()
    return time.monotonic()


def _goes_on(jungle: FairPlayer, orks: FairPlayer) -> None:
    """An order goes through on both pages, and neither raised an alarm."""
    jungle.press("end_phase")
    for player in (jungle, orks):
        player.wait_seq(3)
    no_alarm(jungle, orks)


def test_an_awaited_page_reconnects_within_a_second_or_so_where_an_idle_one_backs_off(
    browser: Any, server: Server
) -> None:
    # The host holds the dice: the Orks' page is needed for nothing while the Veterans move.
    links = new_game(server, 90, chains="host")
    jungle = FairPlayer(browser, links["jungle"], PHONE)
    orks = FairPlayer(browser, links["orks"], DESKTOP)
    try:
        in_play(jungle, orks)
        # The Veterans' move: their page is awaited, the Orks' is not.
        assert jungle.view()["your_move"]
        assert not orks.view()["your_move"]
        back = _server_down(server, jungle, orks)
        # The awaited page is live again while the idle one still waits out its back-off.
        jungle.page.wait_for_selector("#conn[data-state=live]", timeout=15_000)
        again = time.monotonic() - back
        assert orks.page.get_attribute("#conn", "data-state") != "live"
        assert orks.page.inner_text("#conn").startswith("offline — trying again in ")
        orks.page.wait_for_selector("#conn[data-state=live]", timeout=30_000)
        print(f"\nthe awaited page was live {again:.2f} s after the server answered again")
        _goes_on(jungle, orks)  # the awaited page carries the game
    finally:
        jungle.close()
        orks.close()


def test_in_a_game_whose_pages_hold_their_dice_every_page_comes_back_at_once(
    browser: Any, server: Server
) -> None:
    """Every order of either side, and the host's own (a window extended after the server
    was down), waits for every page's dice: a page that held back would stall them all."""
    links = new_game(server, 90)
    jungle = FairPlayer(browser, links["jungle"], PHONE)
    orks = FairPlayer(browser, links["orks"], DESKTOP)
    try:
        in_play(jungle, orks)
        assert not orks.view()["your_move"]
        _server_down(server, jungle, orks)
        # The Orks' page, not awaited, is live again well before its back-off (7.5 s after
        # the restart, its jitter fixed) would have tried.
        orks.page.wait_for_selector("#conn[data-state=live]", timeout=5_000)
        _goes_on(jungle, orks)
    finally:
        jungle.close()
        orks.close()
