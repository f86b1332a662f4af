"""The web pages in a real browser (Debian's chromium, driven by Playwright) against a real
server: the start page hands out one link and QR code per side; two players play a game of
each ruleset through their own pages; and the hidden side's secrets — every note, which
square, which marker — never reach the other player's page (its DOM, any HTTP body, any
websocket frame) until the rules reveal them, and notes never.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

from ghillie import examples, registry

from . import pages

CHROMIUM, LAUNCH_ARGS = pages.CHROMIUM, pages.LAUNCH_ARGS  # one way to start Debian's chromium
PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 900}
TIMEOUT_MS = 10_000


# --- a real server and a real browser ----------------------------------------------------------


def serving(where: Path, command: list[str]) -> contextlib.AbstractContextManager[str]:
    """Run ``command`` (a ``ghillie serve`` that takes --port and --db) on a fresh SQLite file
    in ``where`` and a free port; yield its base URL once it answers (tests/server/pages.py)."""
    return pages.serve(where, command)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`ghillie serve` on a fresh SQLite file and a free port, for this module's tests."""
    with serving(
        tmp_path_factory.mktemp("server"), [sys.executable, "-m", "ghillie.cli", "serve"]
    ) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class Player:
    """One player's browser page, with everything the page received over the network."""

    def __init__(
        self, browser: Any, url: str, viewport: dict[str, int], *, take: bool = True
    ) -> None:
        """Open the link on a device of its own and (``take``) take the side's seat, as its
        player does; without, the page is left at its seat screen."""
        self.context = browser.new_context(viewport=viewport)
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.responses: list[Any] = []
        self.frames: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("response", lambda response: self.responses.append(response))
        self.page.on("websocket", self._socket)
        # A confirmation (start a new dice chain) is answered yes, as the player means it.
        self.page.on("dialog", lambda dialog: dialog.accept())
        self.page.goto(url)
        self.page.wait_for_selector("#conn[data-state=live]")
        if take:
            pages.take_seat(self.page)
            self.page.wait_for_function("() => window.ghillie && window.ghillie.view")

    def _socket(self, websocket: Any) -> None:
        websocket.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        self.frames.append(payload.decode() if isinstance(payload, bytes) else payload)

    def close(self) -> None:
        self.context.close()

    # --- what the page received -----------------------------------------------------------

    def received(self) -> list[str]:
        """Every HTTP body and websocket frame the page received so far."""
        bodies = [
            response.text()
            for response in self.responses
            # Only answers without a body are skipped (the websocket's 101, redirects).
            if not (response.status in (101, 204) or 300 <= response.status < 400)
        ]
        return bodies + list(self.frames)

    def received_json(self) -> list[Any]:
        out = []
        for text in self.received():
            try:
                out.append(json.loads(text))
            except ValueError:
                continue
        return out

    # --- reading the view -------------------------------------------------------------------

    def view(self) -> Any:
        return self.page.evaluate("() => window.ghillie.view")

    def seq(self) -> int:
        return int(self.page.evaluate("() => window.ghillie.view.seq"))

    def wait_seq(self, seq: int) -> None:
        self.page.wait_for_function("n => window.ghillie.view.seq >= n", arg=seq)

    def piece_id(self, name: str, own: bool = True) -> str:
        """The id of a piece the page shows, by its name or label."""
        view = self.view()
        for piece in view["pieces" if own else "known"]:
            public = piece["public"]
            if name in (public.get("name"), public.get("label"), public.get("key")):
                return str(piece["id"])
        raise AssertionError(f"no piece {name!r} in {'own' if own else 'known'} pieces")

    # --- giving orders through the forms ------------------------------------------------------

    def form(self, command: str) -> Any:
        """Open a command's card and return its form."""
        card = self.page.locator(f"details.command[data-command={command}]")
        card.wait_for()
        if card.get_attribute("open") is None:
            card.locator("summary").click()
        return card.locator("form")

    def choose(self, form: Any, path: str, piece_id: str) -> None:
        form.locator(f'select[name="{path}"]').select_option(piece_id)

    def submit(self, form: Any) -> str:
        """Send the form; wait for the answer and the view that follows it."""
        before = self._watch()
        form.locator("button.send").click()
        self.confirm()
        return self._answered(before)

    def refused(self, form: Any) -> str:
        """Send the form, expecting a refusal; return the detail shown to the player."""
        before = self.seq()
        form.locator("button.send").click()
        self.page.wait_for_selector("#result.error")
        assert self.seq() == before
        assert form.locator(".message.error").inner_text() == self.page.inner_text("#result")
        return self.page.inner_text("#result")

    def press(self, command: str) -> str:
        before = self._watch()
        self.page.locator(f"button.command-button[data-command={command}]").click()
        self.confirm()
        return self._answered(before)

    def confirm(self) -> None:
        """An order that cannot be taken back asks first, in the page (confirm.js): answer
        with the order's own button, as the player means it."""
        asked = self.page.locator("dialog.confirm[open] button.go")
        if asked.count():
            asked.click()

    def _watch(self) -> int:
        """Before an order goes: watch the answer line, so that the answer waited for is
        this order's, not a refusal still shown from the order before (which made a story
        fail at random, as the page's clearing of it raced the wait)."""
        self.page.evaluate(
            """() => {
                const result = document.getElementById('result');
                window.__answerChanged = false;
                if (window.__answerWatch) window.__answerWatch.disconnect();
                window.__answerWatch = new MutationObserver(() => {
                    window.__answerChanged = true;
                });
                window.__answerWatch.observe(result,
                    { attributes: true, childList: true, characterData: true, subtree: true });
            }"""
        )
        return self.seq()

    def _answered(self, before: int) -> str:
        self.page.wait_for_function(
            """n => {
                const result = document.getElementById('result');
                return window.__answerChanged && (result.classList.contains('error') ||
                    (result.classList.contains('ok') && window.ghillie.view.seq > n));
            }""",
            arg=before,
        )
        result = self.page.locator("#result")
        text = result.inner_text()
        assert "error" not in (result.get_attribute("class") or ""), text
        return text

    def pick(self, form: Any, path: str, x: float, y: float) -> None:
        """Press "Tap on the map" for a position field, then tap the map at (x, y) inches."""
        # The whole map, as a player would zoom out to find the spot.
        self.page.locator("#map button.whole").click()
        form.locator(f'button.pick[data-path="{path}"]').click()
        self.page.wait_for_selector(".map-box.picking")
        point = self.page.evaluate(
            """([x, y]) => {
                const svg = document.querySelector('#map svg');
                const at = () => new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
                window.scrollBy(0, at().y - window.innerHeight / 2);
                return [at().x, at().y];
            }""",
            [x, y],
        )
        self.page.mouse.click(point[0], point[1])
        # A tap lands on a whole pixel: on a phone a pixel is about a fifth of an inch.
        picked_x = float(form.locator(f'input[name="{path}.x"]').input_value())
        picked_y = float(form.locator(f'input[name="{path}.y"]').input_value())
        assert abs(picked_x - x) <= 0.3, (picked_x, picked_y)
        assert abs(picked_y - y) <= 0.3, (picked_x, picked_y)


def create_game(
    browser: Any, base: str, ruleset: str, scenario: str, *, clients: bool = False
) -> dict[str, str]:
    """Create a game on the start page; return each observer's link. Unless ``clients``, the
    host holds every side's dice chain, so a game starts (and rolls) with no page open:
    test_browser_fair.py plays games whose pages hold them."""
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + "/")
    page.check(f'input[name=ruleset][value="{ruleset}"]')
    page.check(f'input[name=scenario][value="{scenario}"]')
    page.set_checked("#client-chains", clients)
    page.click("#create-button")
    page.wait_for_selector("#links:not([hidden])")
    links = {
        item.get_attribute("data-observer"): item.locator("input.url").input_value()
        for item in page.locator("li.link").all()
    }
    assert errors == []
    context.close()
    return links


# --- secrecy checks ---------------------------------------------------------------------------


def _walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def string_values(documents: list[Any]) -> set[str]:
    """Every string value (not key) in the documents."""
    return {v for doc in documents for v in _walk(doc) if isinstance(v, str)}


def dicts(documents: list[Any]) -> Iterator[dict[str, Any]]:
    for doc in documents:
        for value in _walk(doc):
            if isinstance(value, dict):
                yield value


def game_data(documents: list[Any]) -> list[Any]:
    """The documents about this game (views, frames, answers, odds): all but the catalogue of
    rulesets and example scenarios (JSON lists, the same for everyone, whose command schemas
    name fields such as "content")."""
    return [doc for doc in documents if isinstance(doc, dict)]


def pairs_up(documents: list[Any], a: str, b: str) -> bool:
    """Does any one object in the documents name both a and b (say, a marker and a unit)?"""
    return any({a, b} <= {v for v in d.values() if isinstance(v, str)} for d in dicts(documents))


def assert_never_seen(player: Player, *secrets: str) -> None:
    """None of the strings is anywhere in the page or in anything it received."""
    content = player.page.content()
    received = player.received()
    for secret in secrets:
        assert secret not in content, f"{secret!r} is in the page"
        leaks = [text[:200] for text in received if secret in text]
        assert not leaks, f"{secret!r} was sent to the page: {leaks}"


# --- (a) the start page -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "scenario", "sides"),
    [
        ("grid-ambush", "grid-ambush", {"jungle", "marines"}),
        ("suspicious-places", "suspicious-places-table", {"keno", "lianra"}),
    ],
)
def test_the_start_page_creates_a_game_with_a_link_and_qr_code_per_side(
    browser: Any, server: str, ruleset: str, scenario: str, sides: set[str]
) -> None:
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/")
    page.check(f'input[name=ruleset][value="{ruleset}"]')
    # Only this ruleset's examples are offered.
    offered = set(page.locator("input[name=scenario]").evaluate_all("l => l.map(i => i.value)"))
    assert scenario in offered
    assert all(name.startswith(ruleset) for name in offered)
    page.check(f'input[name=scenario][value="{scenario}"]')
    page.click("#create-button")
    page.wait_for_selector("#links:not([hidden])")

    assert "Give each player their own link." in page.locator("#links").inner_text()
    cards = page.locator("li.link").all()
    assert {card.get_attribute("data-observer") for card in cards} == sides | {
        "referee",
        "spectator",
    }
    # The table screen's card says what it is for, to someone who has never seen one.
    table = page.locator('li.link[data-observer="spectator"]').inner_text()
    assert "Table screen" in table
    assert "shows no secrets" in table
    assert "tablet or TV" in table
    urls = set()
    for card in cards:
        url = card.locator("input.url").input_value()
        where = "table" if card.get_attribute("data-observer") == "spectator" else "play"
        assert re.fullmatch(rf"{re.escape(server)}/{where}/[0-9a-f]+#[\w-]{{40,}}", url), url
        urls.add(url)
        qr = card.locator(".qr svg")
        assert qr.count() == 1
        assert qr.locator("path").count() >= 1
        box = qr.bounding_box()
        assert box is not None
        assert box["width"] >= 100
        assert box["height"] >= 100
        assert card.locator("button.copy").is_visible()
    assert len(urls) == len(sides) + 2
    # Nothing on the page is wider than a phone.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert errors == []
    context.close()


def test_the_start_page_creates_a_game_from_an_uploaded_scenario_file(
    browser: Any, server: str
) -> None:
    text = examples.file("grid-ambush-table").read_text()
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto(server + "/")
        page.wait_for_selector("input[name=scenario]")
        # A broken file: the server's explanation is shown, and nothing is created.
        broken = {"name": "broken.toml", "mimeType": "text/plain", "buffer": b"ruleset = ["}
        page.set_input_files("#file", files=[broken])
        page.click("#create-button")
        page.wait_for_selector("#error:not([hidden])")
        assert "not valid TOML" in page.locator("#error").inner_text()
        good = {"name": "mine.toml", "mimeType": "text/plain", "buffer": text.encode()}
        page.set_input_files("#file", files=[good])
        page.wait_for_selector("#file-note:not([hidden])")
        assert "mine.toml" in page.locator("#file-note").inner_text()
        page.click("#create-button")
        page.wait_for_selector("#links:not([hidden])")
        assert page.locator("#game-title").inner_text() == "Sgt. Graw's ambush (table)"
        observers = page.locator("li.link").evaluate_all("l => l.map(i => i.dataset.observer)")
        assert sorted(observers) == ["jungle", "orks", "referee", "spectator"]
    finally:
        context.close()


# --- (b, c) grid-ambush: an ambush found by an auspex ---------------------------------------------

GA_CANARY = "canary-7Q2xGA-fallen-tree"


def test_grid_ambush_through_two_pages_keeps_the_square_secret_until_a_scan(
    browser: Any, server: str
) -> None:
    links = create_game(browser, server, "grid-ambush", "grid-ambush")
    jungle = Player(browser, links["jungle"], PHONE)
    marines = Player(browser, links["marines"], DESKTOP)
    try:
        _play_grid_ambush(jungle, marines)
        assert jungle.errors == []
        assert marines.errors == []
    finally:
        jungle.close()
        marines.close()


def _play_grid_ambush(jungle: Player, marines: Player) -> None:
    marbo, graw = jungle.piece_id("marbo"), jungle.piece_id("graw")
    note_marbo, note_graw = f"{GA_CANARY}-marbo", f"{GA_CANARY}-graw"

    # The Deathworld Veterans write their orders: Marbo in D2, Graw's patrol in E2.
    # The form starts with an order for each unit that may ambush, its unit chosen.
    orders = jungle.form("record_ambushes")
    assert orders.locator("ol.items > li").count() == 2
    assert orders.locator('select[name="orders.0.unit"]').input_value() == graw
    jungle.choose(orders, "orders.0.unit", marbo)
    orders.locator('input[name="orders.0.square"]').fill("Z9")
    # A refusal's detail is shown to the player, and the form keeps what was typed.
    assert jungle.refused(orders) == "That square is not on this table's grid."
    orders.locator('input[name="orders.0.square"]').fill("D2")
    orders.locator('input[name="orders.0.note"]').fill(note_marbo)
    jungle.choose(orders, "orders.1.unit", graw)
    orders.locator('input[name="orders.1.square"]').fill("E2")
    orders.locator('input[name="orders.1.note"]').fill(note_graw)
    assert "In secret, you write down 2 ambush orders: Marbo in square D2" in jungle.submit(orders)
    # The owner sees its own secrets.
    own = jungle.page.locator("#own").inner_text()
    assert note_marbo in own
    assert "D2" in own
    assert "E2" in own

    # The phone's page fits its screen: nothing to scroll sideways.
    assert jungle.page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]

    jungle.press("ready")
    marines.wait_seq(jungle.seq())
    marines.press("ready")
    jungle.wait_seq(marines.seq())

    # Turn 1, the Veterans: nothing revealed, three phases ended.
    for phase in ("Shooting", "Assault", "Space Marines to play"):
        jungle.press("end_phase")
        assert phase in jungle.page.locator("#status").inner_text()
    marines.wait_seq(jungle.seq())
    assert "Space Marines to play" in marines.page.locator("#status").inner_text()
    assert "Enemy units still in ambush: 2" in marines.page.locator("#status").inner_text()

    # The Marines' sergeant (the auspex) walks into D2: his squad's models start where they
    # stand; he alone is moved, picked on the map.
    tactical = marines.piece_id("tactical")
    move = marines.form("move")
    marines.choose(move, "unit", tactical)
    assert move.locator('input[name^="models."][name$=".x"]').count() == 10
    marines.pick(move, "models.0", 42, 23)
    assert "moves" in marines.submit(move)
    marines.press("end_phase")

    # Until the scan, nothing the Marines' page holds says where the ambushers are.
    _assert_ambush_hidden(marines, note_marbo, note_graw, hidden_squares={"D2", "E2"})

    scan = marines.form("scan")
    marines.choose(scan, "unit", tactical)
    assert "ambushers found in D2!" in marines.submit(scan)

    # The Veterans must set Marbo up now, in D2's jungle, picked on the map.
    jungle.wait_seq(marines.seq())
    set_up = jungle.form("set_up")
    jungle.choose(set_up, "unit", marbo)
    assert set_up.locator('input[name="models.0.x"]').count() == 1
    jungle.pick(set_up, "models.0", 40, 16)
    assert "Marbo is set up in D2" in jungle.submit(set_up)

    # The Marines now see Marbo on the table, in D2, on their map.
    marines.wait_seq(jungle.seq())
    known = marines.page.locator("#known").inner_text()
    assert "Marbo" in known
    assert "on the table" in known
    assert marines.page.locator(f'#map g.token.enemy[data-piece="{marbo}"] .mark').count() == 1
    assert "D2" in string_values(marines.received_json())
    # Graw's square and every note stay secret.
    _assert_ambush_hidden(marines, note_marbo, note_graw, hidden_squares={"E2"})


# The orders as ghillie writes them down for the entries the Veterans give (unit, square).
# (The order form's help shows the rules' own example order, so the phrase alone is no sign.)
GA_ORDERS = (
    "Marbo setting up ambush in square D2",
    "Sgt. Graw's patrol setting up ambush in square E2",
)


def _assert_ambush_hidden(player: Player, *notes: str, hidden_squares: set[str]) -> None:
    assert_never_seen(player, *notes, *GA_ORDERS)
    documents = player.received_json()
    assert documents, "the page received nothing: the check would be empty"
    # Squares appear as the grid's keys; as a value only once the rules say where.
    leaked = hidden_squares & string_values(documents)
    if leaked:
        import json as _j

        for d in documents:
            t = _j.dumps(d)
            for sq in leaked:
                i = t.find(f'"{sq}"')
                if i >= 0:
                    print("LEAK", sq, t[max(0, i - 400) : i + 50])
    assert not leaked


# --- (b, c) suspicious-places: the sergeant's example at a real table ----------------------------

SP_CANARY = "canary-9Kz4SP-birches"


def test_suspicious_places_through_two_pages_keeps_the_markers_secret_until_a_reveal(
    browser: Any, server: str
) -> None:
    links = create_game(browser, server, "suspicious-places", "suspicious-places-table")
    lianra = Player(browser, links["lianra"], PHONE)
    keno = Player(browser, links["keno"], DESKTOP)
    try:
        _play_suspicious_places(lianra, keno)
        # The sergeant's dice were typed in: both sides read whose word they are.
        typed = "Keno army typed in 2 dice rolled at the table: 8, 4."
        for player in (keno, lianra):
            assert typed in player.page.locator("#log").inner_text()
        assert lianra.errors == []
        assert keno.errors == []
    finally:
        lianra.close()
        keno.close()
    referee = Player(browser, links["referee"], DESKTOP)
    try:
        # The referee's log marks each typed die with its typer; ghillie's own range die not.
        lines = referee.page.locator("#log .rolls").all_inner_texts()
        dice = next((line for line in lines if "typed in" in line), "")
        assert "d8 → 8 (typed in by Keno army)" in dice, dice
        assert "d4 → 4 (typed in by Keno army)" in dice, dice
        assert dice.count("typed in by") == 2, dice
        assert referee.errors == []
    finally:
        referee.close()


def _play_suspicious_places(lianra: Player, keno: Player) -> None:
    notes = [f"{SP_CANARY}-{i}" for i in range(3)]
    board = lianra.view()["board"]
    count = board["markers_to_place"]

    # Lianra lays out the markers it rolled (the list starts at that many).
    place = lianra.form("place_markers")
    assert place.locator("ol.items > li").count() == count
    for i in range(count):
        place.locator(f'select[name="markers.{i}.cover"]').select_option("none")
        place.locator(f'select[name="markers.{i}.open"]').select_option("false")
    # The count is rolled, so the line may be singular (one marker) or plural.
    assert f"lays out {count} suspicious-place marker" in lianra.submit(place)

    # In secret: the machine gun under M1, a minefield under M2 if there is one.
    m1, mg = lianra.piece_id("M1"), lianra.piece_id("mg")
    hide = lianra.form("hide")
    hide.locator('button.add[data-path="hidings"]').click()
    lianra.choose(hide, "hidings.0.marker", m1)
    lianra.choose(hide, "hidings.0.unit", mg)
    hide.locator('input[name="hidings.0.note"]').fill(notes[0])
    if count >= 2:
        hide.locator('button.add[data-path="hidings"]').click()
        lianra.choose(hide, "hidings.1.marker", lianra.piece_id("M2"))
        hide.locator('select[name="hidings.1.content"]').select_option("mine")
        hide.locator('input[name="hidings.1.note"]').fill(notes[1])
    assert "You record in secret what lies under your markers" in lianra.submit(hide)

    sniper = lianra.form("place_sniper")
    lianra.choose(sniper, "sniper", lianra.piece_id("sniper"))
    sniper.locator('select[name="true_marker"]').select_option(label="the second marker")
    sniper.locator('input[name="note"]').fill(notes[2])
    assert "he hides under sniper markers" in lianra.submit(sniper)
    assert notes[0] in lianra.page.locator("#own").inner_text()

    keno.wait_seq(lianra.seq())
    keno.press("ready")
    lianra.wait_seq(keno.seq())
    lianra.press("ready")
    keno.wait_seq(lianra.seq())

    # Keno's sergeant observes M1 until it gives up its secret. The range die is rolled in
    # secret by ghillie; the sergeant's own dice are entered as rolled at the table.
    revealed = False
    for _ in range(40):
        if _m1_gone(keno, m1):
            revealed = True
            break
        _assert_markers_hidden(keno, notes, m1, mg)
        _next_step(keno, lianra, m1)
    assert revealed, "M1 was never revealed"

    # After the reveal Keno knows what M1 hid, and still no note, mine or true sniper marker.
    known = keno.page.locator("#known").inner_text()
    assert "Machine-gun position" in known
    assert "on the table" in known
    assert pairs_up(keno.received_json(), m1, mg)
    assert_never_seen(keno, *notes)
    assert not any("content" in d or "true" in d for d in dicts(game_data(keno.received_json())))


def _m1_gone(keno: Player, m1: str) -> bool:
    return not any(p["id"] == m1 for p in keno.view()["known"])


def _assert_markers_hidden(keno: Player, notes: list[str], m1: str, mg: str) -> None:
    assert_never_seen(keno, *notes)
    documents = keno.received_json()
    assert documents
    # Which marker hides the machine gun: no document Keno received pairs them up.
    assert not pairs_up(documents, m1, mg)
    # Nor what lies under a marker, nor which sniper marker is the true one.
    assert not any("content" in d or "true" in d for d in dicts(game_data(documents)))


def _next_step(keno: Player, lianra: Player, m1: str) -> None:
    """One step of the observation loop: observe while the sergeant has actions; otherwise
    end the activation, activate again, or pass until a new turn."""
    view = keno.view()
    board = view["board"]
    if board["active"] != "keno":
        lianra.wait_seq(view["seq"])
        lianra.press("pass")
        keno.wait_seq(lianra.seq())
        return
    activation = board["activation"]
    if (
        activation
        and activation["actions_left"] > 0
        and "observe" in [c["type"] for c in view["commands"]]
    ):
        _observe(keno, m1)
    elif activation:
        keno.press("end_activation")
    elif keno.piece_id("sergeant") not in board["activated"]:
        activate = keno.form("activate")
        keno.choose(activate, "unit", keno.piece_id("sergeant"))
        assert "activates" in keno.submit(activate)
    else:
        keno.press("pass")
    lianra.wait_seq(keno.seq())


def _observe(keno: Player, m1: str) -> None:
    observe = keno.form("observe")
    keno.choose(observe, "marker", m1)
    measured = observe.locator('input[name="measured:on"]')
    if not measured.is_checked():
        measured.check()
        observe.locator('input[name="measured.range"]').fill("1")
        observe.locator('select[name="measured.line_of_sight"]').select_option("true")
    rolls = observe.locator('input[name="rolls:on"]')
    if not rolls.is_checked():
        rolls.check()
        observe.locator('input[name="rolls.quality"]').fill("8")
        observe.locator('input[name="rolls.means"]').fill("4")
    # The exact odds, live, before the order is given (d4 range die at 1": 3/4 reveal).
    observe.locator(".odds-list li").first.wait_for()
    assert "%" in observe.locator(".odds").inner_text()
    assert "observes marker M1" in keno.submit(observe)


# --- suspicious-places on ghillie's map -----------------------------------------------------------

SP_MAP_CANARY = "canary-3Vb8SP-church-roof"


def test_suspicious_places_on_the_map_draws_what_each_side_may_see(
    browser: Any, server: str
) -> None:
    links = create_game(browser, server, "suspicious-places", "suspicious-places")
    lianra = Player(browser, links["lianra"], PHONE)
    keno = Player(browser, links["keno"], DESKTOP)
    try:
        _lay_out_the_birch_grove(lianra, keno)
        assert lianra.errors == []
        assert keno.errors == []
    finally:
        lianra.close()
        keno.close()
    referee = Player(browser, links["referee"], DESKTOP)
    try:
        # The referee sees every secret, notes included.
        text = referee.page.locator("#own").inner_text()
        assert f"{SP_MAP_CANARY}-lianra" in text
        assert f"{SP_MAP_CANARY}-keno" in text
        assert referee.page.locator("#orders-box").is_hidden()
        # Its Fairness panel is not left empty: it says why this page checks nothing.
        fair = referee.page.locator("#fair .fair-referee").inner_text()
        assert "plays no side" in fair
        assert "ghillie audit" in fair
    finally:
        referee.close()


def _lay_out_the_birch_grove(lianra: Player, keno: Player) -> None:
    count = lianra.view()["board"]["markers_to_place"]
    place = lianra.form("place_markers")
    # In the birch grove (soft cover, out of the open): picked on the map, zoomed in.
    lianra.page.get_by_role("button", name="Zoom in").click()
    for i in range(count):
        lianra.pick(place, f"markers.{i}.at", 30 + 3 * (i % 5), 34 + 4 * (i // 5))
    # The count is rolled, so the line may be singular (one marker) or plural.
    assert f"lays out {count} suspicious-place marker" in lianra.submit(place)

    hide = lianra.form("hide")
    for i, unit in enumerate(("borz", "ilex")):
        hide.locator('button.add[data-path="hidings"]').click()
        lianra.choose(hide, f"hidings.{i}.marker", lianra.piece_id(f"M{i + 1}"))
        lianra.choose(hide, f"hidings.{i}.unit", lianra.piece_id(unit))
        hide.locator(f'input[name="hidings.{i}.note"]').fill(f"{SP_MAP_CANARY}-lianra")
    assert "You record in secret what lies under your markers" in lianra.submit(hide)

    # Keno's sniper hides under three markers of his own, one of them true.
    keno.wait_seq(lianra.seq())
    sniper = keno.form("place_sniper")
    keno.choose(sniper, "sniper", keno.piece_id("yarov"))
    for i, (x, y) in enumerate(((10, 20), (13, 20), (12, 23))):
        keno.pick(sniper, f"markers.{i}", x, y)
    sniper.locator('select[name="true_marker"]').select_option(label="the third marker")
    sniper.locator('input[name="note"]').fill(f"{SP_MAP_CANARY}-keno")
    assert "he hides under sniper markers" in keno.submit(sniper)
    keno.press("ready")
    lianra.wait_seq(keno.seq())
    lianra.press("ready")
    keno.wait_seq(lianra.seq())

    # Keno's map: Lianra's markers by label, Lianra's reserve on the table, his own squad,
    # officer and three sniper markers, the true one marked for him alone.
    keno_map = keno.page.locator("#map svg")
    labels = keno_map.locator("g.token.enemy.square .label").all_text_contents()
    assert sorted(labels) == sorted(f"M{i + 1}" for i in range(count))
    assert keno_map.locator("g.token.own.disc").count() == 2
    assert keno_map.locator("g.token.enemy.disc").count() == 1
    assert keno_map.locator("g.token.diamond").count() == 3
    assert keno_map.locator("g.token.diamond.true").count() == 1
    assert keno_map.locator("g.layer polygon").count() == 3
    # Lianra's map: the same three sniper markers, none of them singled out.
    lianra_map = lianra.page.locator("#map svg")
    assert lianra_map.locator("g.token.enemy.diamond").count() == 3
    assert lianra_map.locator("g.token.true").count() == 0
    assert lianra_map.locator("g.token.own.square").count() == count

    assert_never_seen(keno, f"{SP_MAP_CANARY}-lianra")
    assert_never_seen(lianra, f"{SP_MAP_CANARY}-keno")
    assert not any("true" in d for d in dicts(game_data(lianra.received_json())))
    assert not any("content" in d for d in dicts(game_data(keno.received_json())))


# --- the connection: a lost answer, a lost socket, a bad link ----------------------------------


def test_a_lost_answer_is_retried_with_the_same_command_id_and_applied_once(
    browser: Any, server: str
) -> None:
    links = create_game(browser, server, "grid-ambush", "grid-ambush-table")
    jungle = Player(browser, links["jungle"], PHONE)
    sent: list[dict[str, Any]] = []

    def lose_the_first_answer(socket: Any) -> None:
        upstream = socket.connect_to_server()
        cut = False

        def to_server(message: str | bytes) -> None:
            nonlocal cut
            parsed = json.loads(message)
            if parsed.get("type") == "command":
                sent.append(parsed)
                # The server has the command, but its answer never arrives. Cut before
                # sending: closing waits on Playwright's driver, and the answer, quick to
                # come, would otherwise be passed on to the page in that wait.
                cut = len(sent) == 1
            upstream.send(message)
            if cut:
                upstream.close()
                socket.close()

        def to_page(message: str | bytes) -> None:
            if not cut:
                socket.send(message)

        socket.on_message(to_server)
        upstream.on_message(to_page)

    try:
        # Orders go by the websocket: from the next connection on, through the meddler.
        jungle.page.route_web_socket(re.compile(r".*/ws$"), lose_the_first_answer)
        jungle.page.evaluate("() => window.ghillie.live.socket.close()")
        jungle.page.wait_for_selector("#conn[data-state=live]")
        before = jungle.seq()
        orders = jungle.form("record_ambushes")
        # The form starts with an order for Graw's patrol and one for Harker's squad.
        orders.locator("ol.items > li").nth(1).locator("button.remove").click()
        jungle.choose(orders, "orders.0.unit", jungle.piece_id("graw"))
        orders.locator('input[name="orders.0.square"]').fill("D2")
        assert "you write down 1 ambush order: Sgt. Graw's patrol in square D2" in jungle.submit(
            orders
        )
        # Sent again on the next connection, with the same id: the first answer, applied once.
        assert len(sent) == 2
        assert sent[0]["command_id"] == sent[1]["command_id"]
        assert jungle.seq() == before + 1
        recorded = [
            line
            for entry in jungle.view()["log"]
            for line in entry["lines"]
            if line["event"] == "ambushes_recorded"
        ]
        assert len(recorded) == 1
        assert jungle.errors == []
    finally:
        jungle.close()


def test_a_dropped_socket_reconnects_and_catches_up(browser: Any, server: str) -> None:
    links = create_game(browser, server, "grid-ambush", "grid-ambush-table")
    jungle = Player(browser, links["jungle"], PHONE)
    orks = Player(browser, links["orks"], PHONE)
    try:
        orks.page.evaluate("() => window.ghillie.live.socket.close()")
        orders = jungle.form("record_ambushes")
        # The form starts with an order for Graw's patrol and one for Harker's squad.
        orders.locator("ol.items > li").nth(1).locator("button.remove").click()
        jungle.choose(orders, "orders.0.unit", jungle.piece_id("graw"))
        orders.locator('input[name="orders.0.square"]').fill("C2")
        jungle.submit(orders)
        jungle.press("ready")
        # The orks' page comes back by itself and shows what happened meanwhile, once each.
        orks.wait_seq(jungle.seq())
        orks.page.wait_for_selector("#conn[data-state=live]")
        seqs = [entry["seq"] for entry in orks.view()["log"]]
        assert seqs == list(range(jungle.seq() + 1))
        assert "Deathworld Veterans are set up and ready" in orks.page.locator("#log").inner_text()
        assert orks.page.locator("button.command-button[data-command=ready]").is_visible()
        assert jungle.errors == []
        assert orks.errors == []
    finally:
        jungle.close()
        orks.close()


def test_a_bad_link_says_so(browser: Any, server: str) -> None:
    links = create_game(browser, server, "grid-ambush", "grid-ambush-table")
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto(links["jungle"].split("#")[0] + "#not-a-token")
        page.wait_for_selector("text=This link does not open a game")
        assert page.locator("#conn").get_attribute("data-state") == "bad-link"
    finally:
        context.close()


def test_every_command_of_every_ruleset_gets_a_form(browser: Any, server: str) -> None:
    """The forms come from the schemas alone: each command's form builds, in map and table
    mode, reads back what it was given, and names the required fields left empty."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(server + "/")
        report = page.evaluate(
            """async () => {
                const { commandForm, FormError } = await import('/static/forms.js');
                const rulesets = await (await fetch('/api/rulesets')).json();
                const out = [];
                for (const ruleset of rulesets) {
                    for (const [name, spec] of Object.entries(ruleset.commands)) {
                        for (const positions of [true, false]) {
                            const form = commandForm(spec.schema, {
                                command: name,
                                words: spec.fields,
                                secretFields: new Set(spec.secret_fields),
                                choices: () => [],
                                pick: positions ? () => {} : null,
                                mode: positions ? "map" : "table",
                            });
                            document.body.append(form.el);
                            const value = form.get(false);
                            form.set(value);
                            const again = form.get(false);
                            let refusal = null;
                            try { form.get(true); } catch (e) {
                                if (!(e instanceof FormError)) throw e;
                                refusal = e.message;
                            }
                            out.push({
                                command: name, positions, value, again, refusal,
                                required: spec.schema.required || [],
                                inputs: form.el.querySelectorAll('input, select, button').length,
                            });
                            form.el.remove();
                        }
                    }
                }
                return out;
            }"""
        )
    finally:
        context.close()
    assert errors == []
    # Two forms (empty and filled) for every command of every registered ruleset.
    assert len(report) == 2 * sum(len(r.commands) for r in registry.rulesets().values())
    for form in report:
        assert form["value"]["type"] == form["command"]
        assert form["again"] == form["value"], form
        if set(form["required"]) - {"type"}:
            assert form["inputs"] > 0, form
        if form["command"] == "observe":
            assert form["refusal"] == "Choose: Marker.", form
