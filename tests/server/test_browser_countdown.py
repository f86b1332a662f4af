"""A timed reaction window on the pages: the side asked and the table screen both count down
the same window, and when it runs out both read that the host answered for the late side."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..timed import scenario
from . import pages

SERVE = [sys.executable, str(Path(__file__).with_name("timed_serve.py"))]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with pages.serve(tmp_path_factory.mktemp("countdown"), SERVE) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with pages.chromium() as launched:
        yield launched


def test_the_asked_side_and_the_table_count_down_and_read_the_time_out(
    server: str, browser: Any
) -> None:
    body = pages._call(f"{server}/api/games", {"scenario_data": scenario(limit=3)})
    links = {link["observer"]: link["url"] for link in body["links"]}
    game = pages.Game("timed", body["game_id"], links)
    # Red's phone, asked, and the table screen everyone sees (blue gives its order by API).
    opened = {o: pages.open_page(browser, links[o], 390) for o in ("red", "spectator", "referee")}
    try:
        for page in opened.values():
            page.rendered()  # its seat taken, as its player does
        assert pages.command(server, game, "blue", {"type": "step"})["seq"] == 1
        for page in opened.values():
            countdown = page.page.locator("#status p.countdown")
            countdown.wait_for()
            assert countdown.inner_text() in ("3 s left to answer.", "2 s left to answer.")
        for page in opened.values():
            log = page.page.locator("text=Time ran out: Red hold fire.")
            log.first.wait_for(timeout=6000)
            assert page.page.locator("#status p.countdown").count() == 0
            assert page.errors == []
        # The referee's log names the host's command in words, not by its code.
        referee = opened["referee"].page.locator("#log").inner_text()
        assert "ghillie: the time to answer ran out" in referee
        assert "time_out" not in referee
    finally:
        for page in opened.values():
            page.context.close()
