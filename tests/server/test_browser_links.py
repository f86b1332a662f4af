"""The links page says when a phone cannot open its links: served without --lan, every link
and QR code points at 127.0.0.1, the host's own computer (issue 26, item 6)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import pages

SERVE = [sys.executable, "-m", "ghillie.cli", "serve"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with pages.chromium() as launched:
        yield launched


def _links_page(browser: Any, base: str) -> Any:
    context = browser.new_context(viewport=pages.SIZES[390])
    page = context.new_page()
    page.goto(base + "/")
    page.check('input[name=ruleset][value="grid-ambush"]')
    page.check('input[name=scenario][value="grid-ambush-table"]')
    page.click("#create-button")
    page.wait_for_selector("#links:not([hidden])")
    return context, page


def test_links_to_this_computer_only_say_a_phone_cannot_open_them(
    browser: Any, tmp_path: Path
) -> None:
    with pages.serve(tmp_path) as base:
        context, page = _links_page(browser, base)
        note = page.locator("#loopback-note")
        assert note.is_visible()
        said = " ".join(note.inner_text().split())
        assert "A phone cannot open these links." in said
        assert "ghillie serve --lan" in said
        context.close()


def test_links_to_a_network_address_say_nothing_of_it(browser: Any, tmp_path: Path) -> None:
    public = [*SERVE, "--public-url", "http://192.0.2.7:8000"]
    with pages.serve(tmp_path, public) as base:
        context, page = _links_page(browser, base)
        assert page.locator("#loopback-note").is_hidden()
        url = page.locator("li.link input.url").first.input_value()
        assert url.startswith("http://192.0.2.7:8000/")
        context.close()
