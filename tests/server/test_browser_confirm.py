"""An order that cannot be taken back is asked about first, in the page itself (issue 26, item
8): "End the phase" opens a dialog with the ruleset's question; Cancel leaves the game and the
page as they were; the order's own button in the dialog gives it. Never window.confirm, which
a phone's browser may suppress and which no page can translate or style."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import pages

JUNGLE = "jungle"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with pages.chromium() as launched:
        yield launched


def _seq(page: Any) -> int:
    return int(page.evaluate("() => window.ghillie.view.seq"))


def _status(page: Any) -> str:
    return " ".join(page.locator("#status").inner_text().split())


@pytest.mark.parametrize("size", sorted(pages.SIZES))
def test_ending_the_phase_is_asked_first_and_cancel_changes_nothing(
    browser: Any, tmp_path: Path, size: int
) -> None:
    with pages.serve(tmp_path) as base:
        game = pages.create_game(base, "grid-ambush")
        pages.play_steps(base, game, 3)  # set up: the jungle's Movement phase
        opened = pages.open_page(browser, game.links[JUNGLE], size)
        page = opened.page
        native: list[str] = []
        page.on("dialog", lambda dialog: (native.append(dialog.message), dialog.dismiss()))
        opened.rendered()
        before, status = _seq(page), _status(page)
        assert "Movement phase" in status
        end = page.locator('button.command-button[data-command="end_phase"]')

        end.click()
        dialog = page.get_by_role("alertdialog")
        dialog.wait_for()
        question = "End this phase? Your units cannot act in it any more."
        assert " ".join(dialog.inner_text().split()).startswith(question)
        # Named by its question, and Cancel is where the focus starts (a stray tap or Enter
        # takes nothing back).
        assert page.get_by_role("alertdialog", name=question).count() == 1
        assert page.evaluate("() => document.activeElement.textContent") == "Cancel"
        dialog.get_by_role("button", name="Cancel").click()
        assert dialog.count() == 0
        opened.settle()
        assert (_seq(page), _status(page)) == (before, status)
        assert end.is_visible()
        assert end.is_enabled()

        # Escape is a Cancel too.
        end.click()
        dialog.wait_for()
        page.keyboard.press("Escape")
        assert dialog.count() == 0
        opened.settle()
        assert _seq(page) == before

        end.click()
        dialog.get_by_role("button", name="End the phase").click()
        page.wait_for_function(f"() => window.ghillie.view.seq > {before}")
        assert "Shooting phase" in _status(page)
        assert native == []  # no window.confirm on the way
        opened.close()
