"""Helpers for checking the web pages in a real browser, shared by
tests/server/test_browser_pages.py and scripts/screenshots.

A real ``ghillie serve`` on a free port (:func:`serve`), Debian's chromium (:func:`chromium`),
a game of a bundled scenario created through the API (:func:`create_game`), and each side's
or the referee's page opened at a given size (:func:`open_page`). An :class:`OpenPage`
records every console error and uncaught page error from the moment it opens, runs
axe-core in the page (:meth:`OpenPage.axe`), opens every ``<details>`` and gives each list in
a command card one item (:meth:`OpenPage.open_everything`), and collects the text a player
can read (:meth:`OpenPage.visible_text`), which :func:`forbidden_text` checks for what a
player should never be shown: a RULES-SPEC id, double backticks, ``null``/``undefined``/
``NaN``/``[object Object]``, or a 32-hex id.

Plain standard library and Playwright: no pytest, so the screenshot script can use it too.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright import sync_api

from ghillie import examples
from ghillie.state import REFEREE

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# The two sizes every page is checked at: a phone held upright and a laptop.
SIZES: dict[int, dict[str, int]] = {
    390: {"width": 390, "height": 844},
    1280: {"width": 1280, "height": 800},
}
TIMEOUT_MS = 10_000
# axe-core, vendored for the tests by scripts/vendor-js (checked by test_vendor.py).
AXE = ROOT / "tests" / "server" / "vendor" / "axe-core" / "axe.min.js"
AXE_IMPACTS = ("serious", "critical")


# --- the bundled scenarios ----------------------------------------------------------------------


def scenarios() -> list[str]:
    """Every bundled example scenario (src/ghillie/rules/*/scenarios/*.toml)."""
    return examples.names()


def observers(scenario: str) -> list[str]:
    """Who has a link to a game of the scenario: each side, in the scenario's order, and the
    referee."""
    return [side.id for side in examples.load(scenario).sides] + [REFEREE]


def cases() -> list[tuple[str, str]]:
    """(scenario, observer) for every page of every bundled scenario."""
    return [(name, observer) for name in scenarios() for observer in observers(name)]


# --- a real server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/api/health", timeout=1) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


@contextlib.contextmanager
def serve(where: Path, command: list[str] | None = None) -> Iterator[str]:
    """Run ``ghillie serve`` (or ``command``, which must take --port and --db) on a fresh
    SQLite file in ``where`` and a free port; yield its base URL once it answers, and stop it
    afterwards. The server's output goes to ``where``/server.log."""
    command = command or [sys.executable, "-m", "ghillie.cli", "serve"]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    where.mkdir(parents=True, exist_ok=True)
    log_path = where / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*command, "--port", str(port), "--db", str(where / "ghillie.db")],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 30
            while not healthy(base):
                if process.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    raise RuntimeError("the server did not start:\n" + log_path.read_text())
                time.sleep(0.1)
            yield base
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# --- games, through the API ---------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    scenario: str
    game_id: str
    links: dict[str, str]  # observer -> the link a player opens (token in the fragment)

    def token(self, observer: str) -> str:
        return self.links[observer].split("#", 1)[1]


def _call(url: str, body: Any | None = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def create_game(base: str, scenario: str, chains: str = "host") -> Game:
    """A new game of a bundled scenario. The host holds every side's dice chain, so the game
    starts with no page open and each page can be opened on its own; with ``chains="clients"``
    each side's page holds its own, and every roll waits for the pages."""
    body = _call(f"{base}/api/games", {"scenario": scenario, "chains": chains})
    links = {link["observer"]: link["url"] for link in body["links"]}
    return Game(scenario, body["game_id"], links)


def command(base: str, game: Game, observer: str, order: dict[str, Any]) -> dict[str, Any]:
    """Give one command as ``observer``; the answer, or the refusal's problem document (with
    its ``status``) if the rules refused it."""
    url = f"{base}/api/games/{game.game_id}/commands"
    body = {"command_id": uuid.uuid4().hex, "command": order}
    try:
        answer: dict[str, Any] = _call(url, body, game.token(observer))
    except urllib.error.HTTPError as error:
        with error:
            problem: dict[str, Any] = json.load(error)
        return problem
    return answer


def demo_steps(scenario: str) -> list[tuple[str, dict[str, Any]]]:
    """(side, command) of the steps of the demo script played on this scenario
    (src/ghillie/rules/*/demo.py), or none if no demo plays it."""
    from ghillie.demo import scripts

    for script in scripts().values():
        if script.scenario == scenario:
            return [(step.side, dict(step.command)) for step in script.steps]
    return []


def play_steps(base: str, game: Game, count: int) -> list[str]:
    """Play the first ``count`` steps of the scenario's demo script in ``game`` through the
    API; one line per step saying what the server answered. The server's dice are fair, not
    the demo's, so a later step may be refused: it is reported and the next one played."""
    out = []
    for number, (side, order) in enumerate(demo_steps(game.scenario)[:count], start=1):
        answer = command(base, game, side, order)
        if "status" in answer:
            out.append(f"step {number} ({side} {order['type']}): refused: {answer.get('detail')}")
        else:
            out.append(f"step {number} ({side} {order['type']}): event {answer['seq']}")
    return out


# --- a real browser -----------------------------------------------------------------------------


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """Debian's chromium, driven by Playwright (its own browser download does not work)."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield browser
        finally:
            browser.close()


# Drawn: the socket is live, the page has a view, and it has drawn it (render() writes the
# view's title into the heading once the rulesets have arrived too).
_RENDERED = """() => {
    const conn = document.getElementById('conn');
    const title = document.getElementById('title');
    const view = window.ghillie && window.ghillie.view;
    return Boolean(conn && conn.dataset.state === 'live' && view && title &&
        title.textContent === view.title);
}"""


def device_key(url: str) -> tuple[str, str]:
    """The localStorage entry under which seat.js keeps a link's seat key, and a key for it
    made from the link (one per game and side, the same on every run of the case)."""
    game = url.split("/play/")[-1].split("#")[0]
    token = url.split("#", 1)[-1].split("&")[0]
    name = f"ghillie:seat:{game}:{hashlib.sha256(token.encode()).hexdigest()[:32]}"
    return name, hashlib.sha256(f"device {token}".encode()).hexdigest()[:32]


_SEAT = "() => { const s = window.ghillie && window.ghillie.seat; return s ? s.state : null; }"


def take_seat(page: Any) -> str | None:
    """A side's link opens its seat (seat.js): take it, as its player does on their own
    device, if it is free. Returns the seat's state then (``yours``, ``taken``, or ``none``
    for the referee's page); None on a page with no seat."""
    if "/play/" not in page.url:
        return None
    page.wait_for_function(f"() => ({_SEAT})() !== null")
    if page.evaluate(_SEAT) == "free":
        page.locator("button.take-seat").click()
        page.wait_for_function(f"() => ({_SEAT})() !== 'free'")
    state = page.evaluate(_SEAT)
    return str(state)


# Resolves once the document has gone `quiet` ms without a change, or after `limit` ms.
_QUIET = """([quiet, limit]) => new Promise((resolve) => {
    const start = performance.now();
    let timer = null;
    const observer = new MutationObserver(() => {
        clearTimeout(timer);
        if (performance.now() - start > limit) done(); else timer = setTimeout(done, quiet);
    });
    function done() { observer.disconnect(); clearTimeout(timer); resolve(); }
    observer.observe(document, { subtree: true, childList: true, attributes: true,
        characterData: true });
    timer = setTimeout(done, quiet);
})"""

# Opens every <details>; then, in every command card, presses each list's "Add" button
# once, so that an empty list shows the fields of an item. Returns how many it pressed.
_OPEN = """() => {
    for (const details of document.querySelectorAll('details')) details.open = true;
    const pressed = window.__pagesPressed || (window.__pagesPressed = new WeakSet());
    let count = 0;
    for (const button of document.querySelectorAll('details.command button.add')) {
        if (pressed.has(button) || button.disabled || !button.checkVisibility()) continue;
        pressed.add(button);
        button.click();
        count += 1;
    }
    return count;
}"""

# The text a player can read: the rendered text of the body (which leaves out whatever is
# hidden, closed or off the page, and attributes such as title=), with the words a form
# shows that are not in it: each visible select's options (the list a tap opens) and each
# visible field's value and placeholder. One [where, text] per part.
_TEXT = """() => {
    const out = [['body', document.body.innerText]];
    const describe = (el) => {
        const name = el.getAttribute('name') || el.getAttribute('aria-label') || '';
        const card = el.closest('details.command');
        return `${el.tagName.toLowerCase()}${name ? `[name="${name}"]` : ''}` +
            (card ? ` in the ${card.dataset.command} card` : '');
    };
    for (const select of document.querySelectorAll('select')) {
        if (!select.checkVisibility()) continue;
        const options = [...select.options].map((o) => o.text).join('\\n');
        out.push([`options of ${describe(select)}`, options]);
    }
    for (const input of document.querySelectorAll('input, textarea')) {
        if (!input.checkVisibility() || ['hidden', 'checkbox', 'radio'].includes(input.type)) {
            continue;
        }
        if (input.value) out.push([`value of ${describe(input)}`, input.value]);
        if (input.placeholder) out.push([`placeholder of ${describe(input)}`, input.placeholder]);
    }
    return out;
}"""


@dataclass
class OpenPage:
    """One page in its own browser context, with every error it reported."""

    context: Any
    page: Any
    errors: list[str] = field(default_factory=list)

    def rendered(self, timeout_ms: int = TIMEOUT_MS) -> None:
        """Wait until the page has drawn the game's view, then until it stops changing.
        A side's page takes its seat first."""
        take_seat(self.page)
        try:
            self.page.wait_for_function(_RENDERED, timeout=timeout_ms)
        except sync_api.TimeoutError:
            raise AssertionError(
                f"the page did not draw the view in {timeout_ms} ms; errors: {self.errors}"
            ) from None
        self.settle()

    def settle(self, quiet_ms: int = 300, limit_ms: int = 3000) -> None:
        self.page.evaluate(_QUIET, [quiet_ms, limit_ms])

    def open_everything(self, rounds: int = 3) -> None:
        """Open every <details> and give every list in a command card one item (a list's
        item may hold lists: up to ``rounds`` levels)."""
        for round_ in range(rounds):
            pressed = self.page.evaluate(_OPEN)
            if round_ and not pressed:
                break  # nothing new: the page has settled since the last round
            self.settle()

    def axe(self, impacts: tuple[str, ...] = AXE_IMPACTS) -> list[dict[str, Any]]:
        """axe-core's violations of these impacts: each with its rule id, impact, help text
        and the nodes it found (CSS target and HTML, shortened).

        Evaluated through the browser's debugging protocol, which the page's CSP does not
        govern, so the page is tested under its own CSP (a script tag would be refused)."""
        if not self.page.evaluate("() => typeof window.axe === 'object'"):
            self.page.evaluate(AXE.read_text(encoding="utf-8"))
        violations: list[dict[str, Any]] = self.page.evaluate(
            """async (impacts) => {
                const results = await window.axe.run(document, { resultTypes: ['violations'] });
                return results.violations
                    .filter((v) => impacts.includes(v.impact))
                    .map((v) => ({
                        id: v.id,
                        impact: v.impact,
                        help: v.help,
                        nodes: v.nodes.map((n) => ({
                            target: n.target.join(' '),
                            html: n.html.slice(0, 160),
                            summary: (n.failureSummary || '').slice(0, 300),
                        })),
                    }));
            }""",
            list(impacts),
        )
        return violations

    def visible_text(self) -> list[tuple[str, str]]:
        """(where, text) of what a player can read on the page now."""
        return [(where, text) for where, text in self.page.evaluate(_TEXT)]

    def screenshot(self, path: Path) -> None:
        self.page.screenshot(path=str(path), full_page=True)

    def close(self) -> None:
        self.context.close()


def open_page(
    browser: Any,
    url: str,
    size: int,
    locale: str = "en-GB",
    listen: Callable[[Any], None] | None = None,
) -> OpenPage:
    """Open ``url`` in a new context of SIZES[size], recording console errors and page
    errors from the start; does not wait for it to draw (see :meth:`OpenPage.rendered`).
    ``listen(page)`` is called before the page is opened, to add listeners of its own (the
    websocket's frames, say)."""
    context = browser.new_context(viewport=SIZES[size], locale=locale)
    context.set_default_timeout(TIMEOUT_MS)
    # Every size of a side's page is the same player's device: the same seat key, so the
    # phone and the laptop views of one case are one device's (seat.js keeps it so).
    if "/play/" in url:
        name, key = device_key(url)
        context.add_init_script(f"localStorage.setItem({json.dumps(name)}, {json.dumps(key)})")
    page = context.new_page()
    opened = OpenPage(context, page)

    def console(message: Any) -> None:
        if message.type == "error":
            where = message.location or {}
            at = f" ({where.get('url', '')}:{where.get('lineNumber', '')})" if where else ""
            opened.errors.append(f"console: {message.text}{at}")

    def page_error(error: Any) -> None:
        # The first lines of the stack say where: the message alone rarely does.
        stack = "\n".join((getattr(error, "stack", None) or str(error)).splitlines()[:3])
        opened.errors.append(f"page error: {stack}")

    page.on("console", console)
    page.on("pageerror", page_error)
    if listen is not None:
        listen(page)
    page.goto(url)
    return opened


# --- what a player must never read ---------------------------------------------------------------

# A RULES-SPEC statement's id: BSG-R07 (a rule), SW-A03 (an ambiguity), INF-T04 (a test
# case), BSG-S2 (an information state); the spec's prefixes are BSG, BMF, SW, DWV and INF.
SPEC_ID = re.compile(r"\b[A-Z]{2,4}-[RATS]\d{1,2}\b")
FORBIDDEN: list[tuple[str, re.Pattern[str]]] = [
    ("a RULES-SPEC id", SPEC_ID),
    ("double backticks", re.compile(r"``")),
    ("a stray null/undefined/NaN", re.compile(r"\b(?:null|undefined|NaN)\b")),
    ("[object Object]", re.compile(r"\[object Object\]")),
    ("a 32-hex id", re.compile(r"\b[0-9a-f]{32}\b")),
]


def forbidden_text(parts: list[tuple[str, str]]) -> list[str]:
    """One line per forbidden thing found in the (where, text) parts: what it is, where, and
    the line of text it is on."""
    out = []
    for where, text in parts:
        for line in text.splitlines():
            for what, pattern in FORBIDDEN:
                for match in pattern.finditer(line):
                    shown = line.strip()
                    if len(shown) > 160:
                        start = max(match.start() - 60, 0)
                        shown = "…" + line[start : start + 150].strip() + "…"
                    out.append(f"{what} {match.group(0)!r} in {where}: {shown!r}")
    return out


# --- filling a form as a player does --------------------------------------------------------------


def fill(form: Any, value: Any, path: str = "", page: Any = None) -> None:
    """Fill a command form's fields under ``path`` with ``value`` (the command as JSON) as a
    player would: open a group the order may leave out (its switch), grow or shrink a list
    to the entries given, choose pieces and named choices by what the list shows (or their
    value), tick a box, type numbers and words; with ``page``, take a hex from the map as a
    player taps it ("Tap on the map", then the hex, on the whole map)."""
    switch = form.locator(f'input[name="{path}:on"]')
    if path and switch.count() and not switch.is_checked():
        switch.check()
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key != "type":
                fill(form, item, f"{path}.{key}" if path else key, page)
        return
    across = form.locator(f'input[name="{path}.x"]')
    if isinstance(value, list) and len(value) == 2 and across.count():
        # A point on the table, typed in inches across and down.
        across.fill(str(value[0]))
        form.locator(f'input[name="{path}.y"]').fill(str(value[1]))
        return
    if isinstance(value, list):
        items = form.locator(f'fieldset:has(> button.add[data-path="{path}"]) > ol.items > li')
        while items.count() > len(value):
            items.last.locator("button.remove").click()
        while items.count() < len(value):
            form.locator(f'button.add[data-path="{path}"]').click()
        for i, item in enumerate(value):
            fill(form, item, f"{path}.{i}", page)
        return
    field = form.locator(f'[name="{path}"]')
    pick = form.locator(f'button.pick[data-path="{path}"]')
    if page is not None and pick.count():
        # Whatever lies on the hex (a field's shading, a ship) takes the tap, as on a phone.
        page.locator("#map button.whole").click()
        pick.click()
        page.wait_for_selector("#map.picking")
        page.locator(f'#map polygon.hex[data-hex="{value}"]').click(force=True)
        assert field.input_value() == value
        return
    if isinstance(value, bool):
        field.set_checked(value)
    elif field.evaluate("e => e.tagName") == "SELECT":
        field.select_option(str(value))  # by its value, or by the words the list shows
    else:
        field.fill(str(value))
