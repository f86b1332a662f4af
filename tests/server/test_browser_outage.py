"""The server killed (kill -9) while a live reaction window waits for a phone, and started
again on the same database (issue 26, item 2): the window's clock did not run while it was
down. The asked side's page is live again within about a second, reads that the host was
down and how much longer it has, counts down the time it still had, and its answer is taken;
the record, with the page's receipts, passes the audit.

Before, the window closed at its old end while the server was down, and the restarted
server timed it out at once: "Time ran out: Red hold fire."
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ghillie.fairness.audit import audit

from ..timed import registered, scenario
from . import pages, test_browser
from .test_browser import PHONE
from .test_browser_fair import FairPlayer, give, receipts, wait_view

browser = test_browser.browser
__all__ = ["registered"]  # the fixture, used by name (the audit reads the toy ruleset)
pytestmark = pytest.mark.usefixtures("registered")
SERVE = [sys.executable, str(Path(__file__).with_name("timed_serve.py"))]
LIMIT = 10  # seconds Red has to answer
DOWN = 9  # seconds the server is down: past the window's old end


class Server:
    """The toy timed ruleset's ``ghillie serve`` on one database and port, killed and
    started again."""

    def __init__(self, where: Path) -> None:
        self.port = pages.free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.command = [*SERVE, "--port", str(self.port), "--db", str(where / "ghillie.db")]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while not pages.healthy(self.base):
            if time.monotonic() > deadline:
                raise RuntimeError("the timed server did not start")
            time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # SIGKILL: no shutdown, no goodbye
            self.process.wait()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    running.start()
    yield running
    running.kill()


def _record(server: Server, game: str, token: str) -> dict[str, Any]:
    asked = urllib.request.Request(
        f"{server.base}/api/games/{game}/record", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(asked, timeout=10) as answer:
        return dict(json.load(answer))


def test_a_window_open_when_the_server_is_killed_keeps_the_time_it_had(
    server: Server, browser: Any
) -> None:
    body = pages._call(
        f"{server.base}/api/games", {"scenario_data": scenario(limit=LIMIT), "chains": "clients"}
    )
    game_id = body["game_id"]
    links = {link["observer"]: link["url"] for link in body["links"]}
    blue, red = (FairPlayer(browser, links[s], PHONE) for s in ("blue", "red"))
    try:
        wait_view(blue, "v.phase === 'play'")
        give(blue, {"type": "step"})
        wait_view(red, "v.reaction && v.reaction.waiting_for === 'red'")
        countdown = red.page.locator("#status p.countdown")
        countdown.wait_for()
        time.sleep(2)
        server.kill()  # 8 s of Red's 10 left
        time.sleep(DOWN)
        server.start()
        # Red's page, awaited, is live again within about a second, and reads why it has
        # longer than the old end gave it.
        red.page.wait_for_selector("#conn[data-state=live]", timeout=5000)
        told = red.page.locator("text=The host was down for")
        told.first.wait_for(timeout=20_000)
        line = told.first.inner_text()
        assert re.fullmatch(
            r"The host was down for (\d+) s: the time for Red to answer ends \1 s later\.", line
        )
        # The 8 s or so it had when the server went down, less the moments since it came back
        # (its old end is long past: without the extension there would be no countdown).
        left = int(countdown.inner_text().split()[0])
        assert 1 <= left <= LIMIT - 1, countdown.inner_text()  # whole seconds, rounded up
        give(red, {"type": "shoot", "fire": True})
        red.page.locator("text=Red fire.").first.wait_for()
        assert red.page.locator("text=Time ran out").count() == 0
        give(blue, {"type": "end_game"})
        wait_view(red, "v.phase === 'over'")
        wait_view(blue, "v.phase === 'over'")
        token = links["red"].split("#", 1)[1]
        record = _record(server, game_id, token)
        commands = [e["command"]["type"] for e in record["events"][1:] if e["command"]]
        assert commands[:4] == ["step", "extend", "shoot", "end_game"]
        kept = {s: receipts(p, game_id, s) for p, s in ((blue, "blue"), (red, "red"))}
        report = audit({**record, "receipts": kept})
        assert report.ok, report.findings
        for player in (blue, red):
            assert player.errors == []
            assert player.page.locator(".alarm").count() == 0
    finally:
        for player in (blue, red):
            with contextlib.suppress(Exception):
                player.close()
