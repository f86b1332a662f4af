"""Fair dice through the pages, in a real browser (Debian's chromium, driven by Playwright):
each side's page holds its own dice chain and gives one element of it for every roll, signs
every order it gives with its seat key (protocol 4), keeps a receipt of every signed head,
roll request and order, checks what the host opens to it at a reveal, and at the end saves
the game record with its receipts, which ``ghillie audit`` accepts. A page that had been asked
for a roll before with another request refuses to answer and says so.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ghillie.fairness.audit import audit
from ghillie.fairness.hashlog import order_digest, order_message, verify

from . import pages, test_browser
from .test_browser import DESKTOP, PHONE, TIMEOUT_MS, Player

server = test_browser.server  # the same `ghillie serve` and chromium as the page tests
browser = test_browser.browser

SCENARIO = "suspicious-places-table"


class FairPlayer(Player):
    """A player's page that also records what it sends (websocket frames, HTTP bodies)."""

    def __init__(self, browser: Any, url: str, viewport: dict[str, int]) -> None:
        self.sent: list[str] = []  # before the page opens: its socket opens with it
        super().__init__(browser, url, viewport)
        self.page.on("request", lambda request: self.sent.append(request.post_data or ""))

    def _socket(self, websocket: Any) -> None:
        super()._socket(websocket)
        websocket.on("framesent", lambda payload: self.sent.append(str(payload)))

    def sent_messages(self, kind: str) -> list[dict[str, Any]]:
        out = []
        for text in self.sent:
            try:
                message = json.loads(text)
            except ValueError:
                continue
            if isinstance(message, dict) and message.get("type") == kind:
                out.append(message)
        return out


def create_game(base: str, chains: str) -> tuple[str, dict[str, str]]:
    """Create a game over the API; return its id and each observer's link."""
    body = json.dumps({"scenario": SCENARIO, "chains": chains}).encode()
    request = urllib.request.Request(
        f"{base}/api/games", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        created = json.load(answer)
    return created["game_id"], {link["observer"]: link["url"] for link in created["links"]}


def stored(player: FairPlayer, key: str) -> Any:
    return player.page.evaluate("key => JSON.parse(localStorage.getItem(key))", key)


def seat_key(player: FairPlayer, game: str) -> str:
    """The seat key the player's browser keeps for its side of ``game`` (seat.js)."""
    key = player.page.evaluate(
        """game => { const name = Object.keys(localStorage)
            .find((k) => k.startsWith(`ghillie:seat:${game}:`));
            return name ? localStorage.getItem(name) : null; }""",
        game,
    )
    assert isinstance(key, str), "the page keeps no seat key"
    return key


def receipts(player: FairPlayer, game: str, side: str) -> dict[str, list[dict[str, Any]]]:
    kept = stored(player, f"ghillie:receipts:{game}:{side}")
    assert kept is not None, f"{side}'s page kept no receipts"
    return dict(kept)


def wait_view(player: FairPlayer, condition: str) -> None:
    """Wait until `condition`, a JS expression of the page's view `v`, holds."""
    player.page.wait_for_function(f"() => {{ const v = window.ghillie.view; return {condition}; }}")


def give(player: FairPlayer, command: dict[str, Any]) -> None:
    """The player gives ``command`` as the page's forms do (outbox.js): signed with the
    page's seat key for its next roll, and sent on the socket, which a roll does not hold up
    (over HTTP the answer would wait for the roll, and hold the server's shutdown)."""
    assert player.page.evaluate("c => window.ghillie.outbox.give(c)", command)


def signed_orders(record: dict[str, Any]) -> dict[str, list[int]]:
    """Every side's command in ``record`` carries its seat key's signature (the key the
    set-up names, or a later event gives it), over the command exactly as recorded and its
    roll, and the event quotes its digest (``fair.order``): side -> the events it signed."""
    events = record["events"]
    keys = dict(events[0]["fair"]["setup"]["seats"])
    signed: dict[str, list[int]] = {}
    for event in events:
        fair = event["fair"]
        keys.update(fair.get("keys") or {})
        side, seq = event["side"], event["seq"]
        if side is None:
            assert "order" not in fair["private"], seq
            continue
        order = fair["private"].get("order")
        assert order is not None, f"event {seq}: {side}'s command is not signed"
        # Signed exactly as sent (the record holds the command as the rules read it, its
        # defaults filled in: the audit rules on the signed one again and compares).
        assert order["command"]["type"] == event["command"]["type"], seq
        message = order_message(record["game"], seq, side, order["id"], order["command"])
        assert verify(keys[side], message, order["sig"]), seq
        assert fair["order"] == order_digest(order["sig"]), seq
        signed.setdefault(side, []).append(seq)
    return signed


# --- a whole game with each page's share in every roll -------------------------------------------


def test_two_pages_share_every_roll_and_their_record_passes_the_audit(
    browser: Any, server: str
) -> None:
    game, links = create_game(server, "clients")
    lianra = FairPlayer(browser, links["lianra"], PHONE)
    keno = None
    try:
        # Alone, Lianra's page gives its anchor and waits: the game has no event yet.
        wait_view(lianra, "v.fairness && JSON.stringify(v.fairness.joining) === '[\"keno\"]'")
        assert lianra.seq() == -1
        status = lianra.page.locator("#status").inner_text()
        assert "Waiting for Keno army to take their seat" in status, status
        assert "to take their seat" in lianra.page.locator("#fair").inner_text()
        orders = lianra.page.locator("#commands").inner_text()
        assert orders == "The game starts once every side has opened its page."

        started = time.monotonic()
        keno = FairPlayer(browser, links["keno"], DESKTOP)
        # Once both pages have joined, roll 0 (how many markers Lianra rolls) takes a share
        # from each page, and the game begins.
        for player in (lianra, keno):
            player.wait_seq(0)
        start_seconds = time.monotonic() - started
        assert start_seconds < 5, start_seconds
        for player, side in ((lianra, "lianra"), (keno, "keno")):
            seed = player.page.evaluate(
                "key => localStorage.getItem(key)", f"ghillie:chain:{game}:{side}"
            )
            assert re.fullmatch("[0-9a-f]{64}", seed or ""), seed
            # The seed never leaves the page: only the anchor and one element per roll do.
            assert not any(seed in text for text in player.sent + player.received())
            assert len(player.sent_messages("anchor")) == 1
            assert [m["k"] for m in player.sent_messages("contribute")] == [0]
            chain = player.page.locator("#fair .fair-chain")
            assert chain.get_attribute("data-holder") == "page"
            assert "host cannot" in chain.inner_text()
            view = player.view()
            assert view["fairness"]["chains"] == {"keno": "client", "lianra": "client"}
            setup = view["log"][0]["proof"]["setup"]
            assert {p["party"]: p["held"] for p in setup["parties"]} == {
                "host": True,
                "keno": False,
                "lianra": False,
            }

        # A reload makes the same chain again from the seed this browser keeps.
        lianra.page.reload()
        lianra.page.wait_for_selector("#conn[data-state=live]")
        lianra.page.wait_for_function("() => window.ghillie.view && window.ghillie.view.seq >= 0")
        # Another browser with Lianra's link is told the seat is taken, is shown nothing of
        # the game and makes no chain; Lianra's page is told at once that it was opened.
        elsewhere = browser.new_context(viewport=PHONE)
        try:
            other = elsewhere.new_page()
            frames: list[str] = []
            other.on(
                "websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f)))
            )
            other.goto(links["lianra"])
            other.locator("[data-seat=taken]").wait_for()
            assert "This seat is taken" in other.locator("#seat").inner_text()
            assert other.locator("#app").is_hidden()
            assert other.evaluate("() => window.ghillie.view") is None
            assert all('"log"' not in str(f) for f in frames), frames  # no view, no log
            assert (
                other.evaluate(f"() => localStorage.getItem('ghillie:chain:{game}:lianra')") is None
            )
            lianra.page.locator("#fair .seat-visits").wait_for()
        finally:
            elsewhere.close()

        # The sergeant's example at a real table: markers rolled and laid out, secrets
        # hidden, then Keno observes M1 (range dice rolled in secret) until it is revealed.
        test_browser._play_suspicious_places(lianra, keno)

        # The reveal opened what M1 hid; Keno's page checked it against Lianra's roster root,
        # and against her root of the event that recorded it, which the line names: what lay
        # under M1 was fixed before Keno observed.
        ok = keno.page.locator("#log .opening-ok")
        ok.first.wait_for()
        lines = ok.all_inner_texts()
        said = [
            re.fullmatch(
                r"✓ What marker M1 hides \(a unit: ([^)]+)\) was written at event (\d+) and has "
                r"not changed since: it matches the commitments published then and at event "
                r"(\d+)\.",
                line,
            )
            for line in lines
        ]
        found = next((m for m in said if m), None)
        assert found, lines
        written, root_seq = int(found.group(2)), int(found.group(3))
        log = keno.view()["log"]
        hidden = [e["seq"] for e in log if any(x.get("event") == "hidden" for x in e["lines"])]
        assert written == hidden[-1] < root_seq, (written, hidden, root_seq)
        assert found.group(1) in {p["name"] for p in keno.view()["known"]}
        assert keno.page.locator("#log .opening-bad, #log .opening-unknown").count() == 0
        openings = keno.page.locator("#fair .fair-openings").inner_text()
        shown = sum(len(e["proof"]["openings"]) for e in log)
        assert shown > len(lines)  # M1's two facts, one line
        assert f": {shown} match." in openings, openings

        # Each page kept a receipt of every head and answered every roll, in order.
        for player, side in ((lianra, "lianra"), (keno, "keno")):
            player.wait_seq(keno.seq())
            seq = player.seq()
            kept = receipts(player, game, side)
            assert sorted(h["seq"] for h in kept["heads"]) == list(range(seq + 1))
            assert sorted(r["k"] for r in kept["requests"]) == list(range(seq + 1))
            # One element per roll, each sent once, although each roll's request comes in
            # several updates (asked, then each party in).
            assert [m["k"] for m in player.sent_messages("contribute")] == list(range(seq + 1))
            assert all(
                set(r) == {"game", "k", "side", "commitment", "prev", "order", "sig"}
                for r in kept["requests"]
            )
            # Each head with every side's digest of what it was shown, this page's computed
            # from what it received (the host signs them with the head, once).
            last = player.view()["log"][-1]["proof"]
            order = [s["id"] for s in player.view()["sides"]]
            other = next(s for s in order if s != side)
            assert kept["heads"][-1]["sig"] == last["sig"]
            assert (
                kept["heads"][-1]["shown"][order.index(other)] == (last["shown"]["digests"][other])
            )
            # The anchor of the chain the page gave, and the seat key it signs orders with.
            setup = player.view()["log"][0]["proof"]["setup"]
            assert kept["anchor"] == next(
                p["anchor"] for p in setup["parties"] if p["party"] == side
            )
            assert kept["seat"] == setup["seats"][side]
            assert re.fullmatch("[0-9a-f]{64}", kept["seat"])
            # Every order this page gave, signed for its roll: the roll request quoted it.
            mine = [r for r in kept["requests"] if r["side"] == side]
            assert mine, side
            assert {(o["k"], o["digest"]) for o in kept["orders"]} >= {
                (r["k"], r["order"]) for r in mine
            }
            # Roll 0 is the host's (the game's creation): it quotes no order; every other
            # roll quotes the order of the side that gave it.
            assert [r["order"] for r in kept["requests"] if r["side"] is None] == [""]
            assert all(
                re.fullmatch("[0-9a-f]{64}", r["order"])
                for r in kept["requests"]
                if r["side"] is not None
            )
            fair_text = player.page.locator("#fair").inner_text()
            count = int(re.search(r"Receipts kept: (\d+)", fair_text).group(1))
            assert count == 2 * (seq + 1), fair_text
            # The other side's roster roots, one per event.
            other = player.page.locator("#fair .fair-roots li").inner_text()
            assert re.match(
                rf"[\w ]+: {seq + 1} commitments? to its secrets received, latest \w{{12}}\.",
                other,
            ), other
            assert player.page.locator(".alarm").count() == 0

        # Keno ends the game; both pages offer the record.
        keno.page.on("dialog", lambda dialog: dialog.accept())
        keno.press("end_game")
        lianra.wait_seq(keno.seq())
        wait_view(lianra, "v.phase === 'over'")
        records = {}
        for player, side in ((lianra, "lianra"), (keno, "keno")):
            button = player.page.locator("#fair button.record-button")
            button.wait_for()
            assert button.inner_text() == "Download the game record"
            named = re.compile(r"ghillie audit ghillie-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.json")
            assert named.search(player.page.locator("#fair").inner_text())
            with player.page.expect_download() as download:
                button.click()
            assert named.fullmatch("ghillie audit " + download.value.suggested_filename)
            records[side] = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
            assert set(records[side]["receipts"]) == {side}
            assert records[side]["receipts"][side] == receipts(player, game, side)
            # The host's key kept from the start travels with the receipts.
            assert records[side]["receipts"][side]["key"] == player.view()["fairness"]["key"]
            # Apart from the receipts, the server's record exactly, every number as the server
            # wrote it (a page that parsed and rewrote it would turn 4.0 into 4).
            token = links[side].split("#", 1)[1]
            asked = urllib.request.Request(
                f"{server}/api/games/{game}/record", headers={"Authorization": f"Bearer {token}"}
            )
            with urllib.request.urlopen(asked, timeout=10) as answer:
                served = json.load(answer)
            mine = {k: v for k, v in records[side].items() if k != "receipts"}
            assert json.dumps(mine, sort_keys=True) == json.dumps(served, sort_keys=True)

        # Every command a side gave carries its page's signature, under the seat key the
        # set-up names for that side: none is the host's.
        signed = signed_orders(records["keno"])
        assert set(signed) == {"lianra", "keno"}
        for side in ("lianra", "keno"):
            assert (
                records["keno"]["events"][0]["fair"]["setup"]["seats"][side]
                == (records[side]["receipts"][side]["seat"])
            )
        # Either page's record passes the audit with its receipts, and with both.
        for side, record in records.items():
            report = audit(record)
            assert report.ok, (side, report.findings)
            assert report.held == [], "a side's chain was held by the host"
            assert report.host_acted == {}, "the host gave a page-played side's command"
            assert report.signed == {s: len(events) for s, events in signed.items()}
            assert report.openings >= 1
            # A head and a request per event, every one checked.
            assert report.receipts == 2 * report.events
        both = dict(
            records["keno"],
            receipts={**records["keno"]["receipts"], **records["lianra"]["receipts"]},
        )
        report = audit(both)
        assert report.ok, report.findings
        assert report.receipts == 4 * report.events
        assert report.rolls > 0
        assert lianra.errors == []
        assert keno.errors == []
    finally:
        lianra.close()
        if keno is not None:
            keno.close()


# --- a page that was asked for a roll before, differently, refuses --------------------------------


def test_a_page_refuses_a_second_different_request_for_the_same_roll(
    browser: Any, server: str
) -> None:
    game, links = create_game(server, "clients")
    lianra = FairPlayer(browser, links["lianra"], PHONE)
    keno = None
    try:
        wait_view(lianra, "v.fairness && JSON.stringify(v.fairness.joining) === '[\"keno\"]'")
        # As if the host had already asked Lianra's page for roll 0 with another request.
        earlier = {
            "game": game,
            "k": 0,
            "side": None,
            "commitment": "0" * 64,
            "prev": "1" * 64,
            "order": "",
            "sig": "2" * 128,
        }
        lianra.page.evaluate(
            "([key, kept]) => localStorage.setItem(key, JSON.stringify(kept))",
            [f"ghillie:receipts:{game}:lianra", {"heads": [], "requests": [earlier]}],
        )
        keno = FairPlayer(browser, links["keno"], DESKTOP)

        alarm = lianra.page.locator(".alarm")
        alarm.wait_for()
        assert "The host asked twice for roll 0" in alarm.inner_text()
        assert "ghillie audit" in alarm.inner_text()
        # Keno's page gave its share; Lianra's did not, so roll 0 waits for Lianra alone.
        wait_view(
            keno, "v.fairness.request && JSON.stringify(v.fairness.waiting) === '[\"lianra\"]'"
        )
        keno.page.locator("#fair .fair-waiting").wait_for()
        assert (
            keno.page.locator("#fair .fair-waiting").inner_text()
            == "Roll 0 is waiting for: Lianra defenders."
        )
        time.sleep(0.5)
        assert lianra.seq() == -1
        assert keno.seq() == -1
        assert lianra.sent_messages("contribute") == []
        # Both requests are kept: the host's signed one is the evidence for the audit.
        kept = receipts(lianra, game, "lianra")
        assert [r["k"] for r in kept["requests"]] == [0, 0]
        assert kept["requests"][0] == earlier
        real = keno.view()["fairness"]["request"]
        assert kept["requests"][1] == {
            key: real[key] for key in ("game", "k", "side", "commitment", "prev", "order", "sig")
        }
        # A reload does not forget it: the page still refuses.
        lianra.page.reload()
        lianra.page.wait_for_selector("#conn[data-state=live]")
        lianra.page.locator(".alarm").wait_for()
        assert "The host asked twice for roll 0" in lianra.page.locator(".alarm").inner_text()
        time.sleep(0.5)
        assert lianra.sent_messages("contribute") == []
        # The anchor went once: after the reload the chains were fixed, nobody was joining.
        assert len(lianra.sent_messages("anchor")) == 1
        assert keno.seq() == -1
        assert lianra.errors == []
        assert keno.errors == []
    finally:
        lianra.close()
        if keno is not None:
            keno.close()


# --- the start page's choice ---------------------------------------------------------------------


@pytest.mark.parametrize("clients", [True, False])
def test_the_start_page_asks_for_the_pages_dice_by_default(
    browser: Any, server: str, clients: bool
) -> None:
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto(server + "/")
        page.check('input[name=scenario][value="grid-ambush-table"]')
        box = page.locator("#client-chains")
        assert box.is_checked()
        label = page.locator("label[for=client-chains]").inner_text()
        assert "Each side's page contributes to the dice (recommended)" in label
        if not clients:
            box.uncheck()
        with page.expect_request("**/api/games") as sent:
            page.click("#create-button")
        assert json.loads(sent.value.post_data)["chains"] == ("clients" if clients else "host")
        page.wait_for_selector("#links:not([hidden])")
        assert page.locator("#clients-note").is_visible() == clients
        url = page.locator('li.link[data-observer="jungle"] input.url').input_value()
    finally:
        context.close()
    jungle = FairPlayer(browser, url, PHONE)
    try:
        chain = jungle.page.locator("#fair .fair-chain")
        chain.wait_for()
        if clients:
            assert chain.get_attribute("data-holder") == "page"
            assert "Waiting for Ork warband" in jungle.page.locator("#status").inner_text()
        else:
            # Plainly said: the host holds this side's chain and could steer the rolls.
            assert chain.get_attribute("data-holder") == "host"
            assert "the host could steer the rolls" in chain.inner_text()
            assert jungle.seq() == 0
        assert jungle.errors == []
    finally:
        jungle.close()


def test_a_page_refuses_a_request_that_follows_a_head_it_was_never_shown(
    browser: Any, server: str
) -> None:
    game, links = create_game(server, "clients")
    lianra = FairPlayer(browser, links["lianra"], PHONE)
    keno = FairPlayer(browser, links["keno"], DESKTOP)
    try:
        for player in (lianra, keno):
            player.wait_seq(0)
        # As if the host had shown Lianra's page another event 0 than the one it goes on from.
        kept = receipts(lianra, game, "lianra")
        assert [head["seq"] for head in kept["heads"]] == [0]
        kept["heads"] = [{**head, "hash": "3" * 64} for head in kept["heads"]]
        lianra.page.evaluate(
            "([key, kept]) => localStorage.setItem(key, JSON.stringify(kept))",
            [f"ghillie:receipts:{game}:lianra", kept],
        )
        # Keno's order, signed for roll 1, asks for roll 1.
        give(keno, {"type": "ready"})

        alarm = lianra.page.locator(".alarm")
        alarm.wait_for()
        assert "The host asked for roll 1 after a history this page was never shown" in (
            alarm.inner_text()
        )
        wait_view(
            keno,
            "v.fairness.request && v.fairness.request.k === 1 && "
            "JSON.stringify(v.fairness.waiting) === '[\"lianra\"]'",
        )
        assert "Roll 1 is waiting for: Lianra defenders." in keno.page.locator("#fair").inner_text()
        assert lianra.seq() == 0
        # The request is kept as evidence: signed, yet it follows no head Lianra was shown.
        assert [r["k"] for r in receipts(lianra, game, "lianra")["requests"]] == [0, 1]
        assert lianra.errors == []
        assert keno.errors == []
    finally:
        lianra.close()
        keno.close()


# --- a page checks the host's signatures (issue 10, finding 1) ------------------------------


class MeddledPlayer(FairPlayer):
    """A player's page whose websocket passes through `meddle`, as a dishonest host (or
    anything between it and the page) would answer: each frame from the server is handed to
    `meddle` as JSON and the page gets what it returns."""

    def __init__(
        self,
        browser: Any,
        url: str,
        viewport: dict[str, int],
        meddle: Callable[[Any], Any],
    ) -> None:
        self.meddle = meddle
        self.sent = []
        self.context = browser.new_context(viewport=viewport)
        self.context.set_default_timeout(TIMEOUT_MS)
        self.context.route_web_socket(re.compile(r".*/ws$"), self._route)
        self.page = self.context.new_page()
        self.errors = []
        self.responses = []
        self.frames = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("response", lambda response: self.responses.append(response))
        self.page.on("websocket", self._socket)
        self.page.on("request", lambda request: self.sent.append(request.post_data or ""))
        self.page.goto(url)
        self.page.wait_for_selector("#conn[data-state=live]")
        pages.take_seat(self.page)
        self.page.wait_for_function("() => window.ghillie && window.ghillie.view")

    def _route(self, socket: Any) -> None:
        server = socket.connect_to_server()
        socket.on_message(lambda message: server.send(message))
        server.on_message(lambda message: socket.send(json.dumps(self.meddle(json.loads(message)))))


def _walk(value: Any, visit: Callable[[dict[str, Any]], None]) -> Any:
    if isinstance(value, dict):
        visit(value)
        for inner in value.values():
            _walk(inner, visit)
    elif isinstance(value, list):
        for inner in value:
            _walk(inner, visit)
    return value


def _spoil(sig: str) -> str:
    """The signature with one bit of its first byte changed: it no longer verifies."""
    return f"{int(sig[:2], 16) ^ 1:02x}{sig[2:]}"


def _alarm(player: FairPlayer) -> str:
    alarm = player.page.locator(".alarm")
    alarm.wait_for()
    return str(alarm.inner_text())


def test_a_page_shown_a_head_its_host_did_not_sign_raises_the_alarm(
    browser: Any, server: str
) -> None:
    game, links = create_game(server, "clients")

    def meddle(message: Any) -> Any:
        def visit(entry: dict[str, Any]) -> None:
            if entry.get("seq") == 0 and isinstance(entry.get("proof"), dict):
                entry["proof"]["sig"] = _spoil(entry["proof"]["sig"])

        return _walk(message, visit)

    lianra = MeddledPlayer(browser, links["lianra"], PHONE, meddle)
    keno = FairPlayer(browser, links["keno"], DESKTOP)
    try:
        for player in (lianra, keno):
            player.wait_seq(0)
        text = _alarm(lianra)
        assert (
            "The host sent a record of event 0 that its own key did not sign — keep your "
            "receipts and run ghillie audit." in text
        ), text
        # Player's words only: no hex, no code.
        assert not re.search(r"[0-9a-f]{12}", text)
        # The page keeps the bad head as evidence, with the key it kept from the start: the
        # audit of a record with these receipts fails.
        kept = receipts(lianra, game, "lianra")
        assert kept["key"] == keno.view()["log"][0]["proof"]["setup"]["key"]
        assert kept["key"] == keno.view()["fairness"]["key"]
        honest = keno.view()["log"][0]["proof"]
        [head] = kept["heads"]
        assert (head["seq"], head["hash"], head["sig"]) == (
            0,
            honest["hash"],
            _spoil(honest["sig"]),
        )
        # With the digests the honest head was signed with: Lianra's, as her page computed it
        # from what it received, is the one Keno's page is told (and the other way round).
        assert receipts(keno, game, "keno")["heads"][0]["shown"] == head["shown"]
        # The page that was shown the honest head has no alarm.
        assert keno.page.locator(".alarm").count() == 0
        assert receipts(keno, game, "keno")["heads"][0]["sig"] == honest["sig"]
        # A reload shows the alarm still (the head is not checked again: it was kept).
        lianra.page.reload()
        lianra.page.wait_for_selector("#conn[data-state=live]")
        assert "its own key did not sign" in _alarm(lianra)
        assert lianra.errors == []
        assert keno.errors == []
    finally:
        lianra.close()
        keno.close()


def test_a_page_gives_nothing_for_a_request_its_host_did_not_sign(
    browser: Any, server: str
) -> None:
    game, links = create_game(server, "clients")

    def meddle(message: Any) -> Any:
        def visit(entry: dict[str, Any]) -> None:
            request = entry.get("request")
            if isinstance(request, dict) and request.get("k") == 0:
                request["sig"] = _spoil(request["sig"])

        return _walk(message, visit)

    lianra = MeddledPlayer(browser, links["lianra"], PHONE, meddle)
    keno = FairPlayer(browser, links["keno"], DESKTOP)
    try:
        text = _alarm(lianra)
        assert (
            "The host asked for roll 0 without its own key's signature, so this page did not "
            "give its share — keep your receipts and run ghillie audit." in text
        ), text
        # Keno's page (shown the honest request) gave its share; Lianra's did not.
        wait_view(
            keno, "v.fairness.request && JSON.stringify(v.fairness.waiting) === '[\"lianra\"]'"
        )
        time.sleep(0.5)
        assert lianra.sent_messages("contribute") == []
        assert [m["k"] for m in keno.sent_messages("contribute")] == [0]
        assert lianra.seq() == -1
        # The unsigned request is kept as the evidence.
        kept = receipts(lianra, game, "lianra")
        assert [r["k"] for r in kept["requests"]] == [0]
        real = keno.view()["fairness"]["request"]
        assert kept["requests"][0]["sig"] == _spoil(real["sig"])
        assert lianra.errors == []
        assert keno.errors == []
    finally:
        lianra.close()
        keno.close()


def test_a_page_shown_another_host_key_raises_the_alarm(browser: Any, server: str) -> None:
    game, links = create_game(server, "clients")
    other = "11" * 32

    def meddle(message: Any) -> Any:
        def visit(entry: dict[str, Any]) -> None:
            setup = entry.get("setup")
            if isinstance(setup, dict) and "key" in setup:
                setup["key"] = other

        return _walk(message, visit)

    keno = FairPlayer(browser, links["keno"], DESKTOP)
    lianra = None
    try:
        lianra = MeddledPlayer(browser, links["lianra"], PHONE, meddle)
        for player in (lianra, keno):
            player.wait_seq(0)
        text = _alarm(lianra)
        assert "The host changed the key it signs this game's record with" in text, text
        # The page keeps the key it was given first, not the one event 0 showed.
        assert receipts(lianra, game, "lianra")["key"] == keno.view()["fairness"]["key"]
        assert keno.page.locator(".alarm").count() == 0
    finally:
        keno.close()
        if lianra is not None:
            lianra.close()


# --- a page checks event 0's roll parties and what it was shown (red team A and F) -------------


def test_a_page_whose_chain_is_listed_twice_raises_the_alarm_and_gives_nothing(
    browser: Any, server: str
) -> None:
    """The host lists Lianra twice in event 0's roll parties, the second time with a chain of
    its own (a reader of the first entry would see the page's chain, one of the last the
    host's): the page raises the alarm, stops saying the host cannot steer its rolls and gives
    no element for the next roll."""
    game, links = create_game(server, "clients")
    shadow = "5" * 64

    def meddle(message: Any) -> Any:
        def visit(entry: dict[str, Any]) -> None:
            setup = entry.get("setup")
            if isinstance(setup, dict) and isinstance(setup.get("parties"), list):
                setup["parties"].append({"party": "lianra", "anchor": shadow, "held": False})

        return _walk(message, visit)

    lianra = MeddledPlayer(browser, links["lianra"], PHONE, meddle)
    keno = FairPlayer(browser, links["keno"], DESKTOP)
    try:
        for player in (lianra, keno):
            player.wait_seq(0)
        text = _alarm(lianra)
        assert (
            "The host's record of this game's set-up does not list this page's dice chain as the "
            "one it gave — keep your receipts and run ghillie audit." in text
        ), text
        # The set-up was changed after the host signed what it showed.
        assert "The host sent a record of event 0 that its own key did not sign" in text, text
        assert not re.search(r"[0-9a-f]{12}", text)
        chain = lianra.page.locator("#fair .fair-chain")
        assert chain.get_attribute("data-holder") == "unlisted"
        assert "the host could steer the rolls" in chain.inner_text()
        give(keno, {"type": "ready"})
        wait_view(
            keno,
            "v.fairness.request && v.fairness.request.k === 1 && "
            "JSON.stringify(v.fairness.waiting) === '[\"lianra\"]'",
        )
        time.sleep(0.5)
        assert [m["k"] for m in lianra.sent_messages("contribute")] == [0]
        # The anchor it gave is kept with its receipts, for the audit.
        setup = keno.view()["log"][0]["proof"]["setup"]
        real = next(p["anchor"] for p in setup["parties"] if p["party"] == "lianra")
        assert receipts(lianra, game, "lianra")["anchor"] == real
        assert keno.page.locator(".alarm").count() == 0
        assert lianra.errors == []
        assert keno.errors == []
    finally:
        lianra.close()
        keno.close()
