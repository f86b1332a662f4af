"""From a phone waking to the game going on (issue 26, items 1 and 2), with a real
``ghillie serve``, two real pages that hold their own dice chains (Debian's chromium, driven
by Playwright) and a game of the table's grid ambush.

Wake: the Orks' phone locks (its page hidden, its network off); the Veterans end the phase,
and the roll waits for the Orks' element. The phone is woken: the time until its page is
live again, and until the Veterans' page shows the roll drawn (the game gone on), each
measured on the machine's clock in the pages themselves.

Restart: the server is killed with the Veterans to move (their page awaited, the Orks' idle)
and started again after an outage: the time from its first answer to each page being live.

    .venv/bin/python benchmarks/wake.py [--runs 10] [--restarts 5] [--outage 5]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright import sync_api

from ghillie import examples

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
PHONE = {"width": 390, "height": 844}

SLEEPY = """() => {
    Object.defineProperty(document, 'visibilityState', {
        configurable: true, get: () => (window.__asleep ? 'hidden' : 'visible') });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => !!window.__asleep });
    window.__sleep = (on) => { window.__asleep = on;
        document.dispatchEvent(new Event('visibilitychange')); return Date.now(); };
}"""
# Stamps, on the machine's clock, the first moment the page holds a view at `seq` or later
# and the first moment its connection is live.
WATCH = """(seq) => { window.__at = {};
    const look = () => {
        const g = window.ghillie;
        if (!window.__at.seq && g.view && g.view.seq >= seq) window.__at.seq = Date.now();
        if (!window.__at.live && g.live.live) window.__at.live = Date.now();
    };
    window.__watch = setInterval(look, 5);
}"""


class Server:
    def __init__(self, db: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.db = db
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> float:
        """Start it; the time (the machine's clock, s) it first answered."""
        command = [sys.executable, "-m", "ghillie.cli", "serve"]
        self.process = subprocess.Popen(
            [*command, "--db", str(self.db), "--port", str(self.port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, http.client.HTTPException):
                if self.call("GET", "/api/health")[0] == 200:
                    return time.time()
            time.sleep(0.01)
        raise RuntimeError("ghillie serve did not start")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        try:
            data = None if body is None else json.dumps(body)
            conn.request(method, path, data, {"content-type": "application/json"})
            answer = conn.getresponse()
            return answer.status, json.loads(answer.read() or b"null")
        finally:
            conn.close()

    def game(self) -> dict[str, str]:
        data = examples.data("grid-ambush-table")
        data["units"] = [{**unit, "ambush": False} for unit in data["units"]]
        body = {"scenario_data": data, "chains": "clients", "wait_for_pages": 120}
        status, created = self.call("POST", "/api/games", body)
        assert status == 201, created
        return {link["observer"]: link["url"] for link in created["links"]}


@contextlib.contextmanager
def seated(browser: Any, url: str) -> Iterator[tuple[Any, Any]]:
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        page.goto(url)
        page.locator("button.take-seat").click()
        page.wait_for_function("() => window.ghillie.view && window.ghillie.live.live")
        yield context, page
    finally:
        context.close()


def press(page: Any, command: str) -> None:
    page.locator(f"button.command-button[data-command={command}]").click()
    # An order that ends a phase asks first, in the page (confirm.js): answered as meant.
    asked = page.locator("dialog.confirm[open] button.go")
    if asked.count():
        asked.click()


def in_play(jungle: Any, orks: Any) -> None:
    for page in (jungle, orks):
        page.wait_for_function("() => window.ghillie.view.seq >= 0")
    press(jungle, "ready")
    orks.wait_for_function("() => window.ghillie.view.seq >= 1")
    press(orks, "ready")
    for page in (jungle, orks):
        page.wait_for_function("() => window.ghillie.view.seq >= 2")


def wake_once(browser: Any, server: Server) -> tuple[float, float]:
    """(ms from waking to the woken page live, to the other side's view moving on)."""
    links = server.game()
    with (
        seated(browser, links["jungle"]) as (_, jungle),
        seated(browser, links["orks"]) as (
            orks_context,
            orks,
        ),
    ):
        in_play(jungle, orks)
        orks.evaluate(SLEEPY)
        orks.evaluate("() => window.__sleep(true)")
        orks_context.set_offline(True)
        orks.wait_for_function("() => !window.ghillie.live.live")
        press(jungle, "end_phase")
        jungle.wait_for_function(
            """() => { const f = window.ghillie.view.fairness;
                return f.request && JSON.stringify(f.waiting) === '["orks"]'; }"""
        )
        jungle.evaluate(WATCH, 3)
        orks.evaluate(WATCH, 3)
        woke = orks.evaluate("() => Date.now()")  # its network wakes first, then its screen
        orks_context.set_offline(False)
        orks.evaluate("() => window.__sleep(false)")
        jungle.wait_for_function("() => window.__at.seq")
        orks.wait_for_function("() => window.__at.live")
        return (
            orks.evaluate("() => window.__at.live") - woke,
            jungle.evaluate("() => window.__at.seq") - woke,
        )


def restarts(browser: Any, server: Server, count: int, outage: float) -> list[tuple[float, float]]:
    """(s from the server answering again to the awaited page live, to the idle page live)."""
    links = server.game()
    out = []
    with (
        seated(browser, links["jungle"]) as (_, jungle),
        seated(browser, links["orks"]) as (
            _,
            orks,
        ),
    ):
        in_play(jungle, orks)
        for _ in range(count):
            for page in (jungle, orks):
                page.evaluate("() => { clearInterval(window.__watch); window.__at = {}; }")
            server.kill()
            for page in (jungle, orks):
                page.wait_for_function("() => !window.ghillie.live.live")
                page.evaluate(WATCH, 0)
            time.sleep(outage)
            answered = server.start() * 1000
            for page in (jungle, orks):
                page.wait_for_function("() => window.__at.live", timeout=60_000)
            out.append(
                (
                    (jungle.evaluate("() => window.__at.live") - answered) / 1000,
                    (orks.evaluate("() => window.__at.live") - answered) / 1000,
                )
            )
    return out


def figures(name: str, values: list[float], unit: str) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return (
        f"{name}: median {statistics.median(ordered):.2f} {unit}, p90 {p90:.2f} {unit}, "
        f"min {ordered[0]:.2f}, max {ordered[-1]:.2f} (n={len(ordered)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--restarts", type=int, default=5)
    parser.add_argument("--outage", type=float, default=5.0, help="seconds the server is down")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as where, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        server = Server(Path(where) / "ghillie.db")
        server.start()
        try:
            woken = [wake_once(browser, server) for _ in range(options.runs)]
            live, drawn = [a for a, _ in woken], [b for _, b in woken]
            print(figures("wake → the woken page live", live, "ms"))
            print(figures("wake → the roll drawn, the other side's view moved on", drawn, "ms"))
            if options.restarts:
                back = restarts(browser, server, options.restarts, options.outage)
                print(f"server down {options.outage:g} s, then:")
                awaited, idle = [a for a, _ in back], [b for _, b in back]
                print(figures("  server answers → the awaited page live", awaited, "s"))
                print(figures("  server answers → the idle page live", idle, "s"))
        finally:
            server.kill()
            browser.close()


if __name__ == "__main__":
    main()
