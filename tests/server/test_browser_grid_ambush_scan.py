"""grid-ambush's "Scan for ambushers" form (issue 26, item 8): its "Scanning model" is a real
choice — the chosen unit's models that may scan, by the names its players call them — and
while no unit is chosen there is nothing to choose, so the field is not shown at all (it
was a blank list, "— nothing to choose now —")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import pages

MARINES = "marines"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with pages.chromium() as launched:
        yield launched


@pytest.mark.spec("DWV-R07")
def test_the_scanning_model_is_a_choice_of_the_chosen_units_models(
    browser: Any, tmp_path: Path
) -> None:
    with pages.serve(tmp_path) as base:
        game = pages.create_game(base, "grid-ambush")
        pages.play_steps(base, game, 8)  # the marines' Shooting phase, before anyone fires
        opened = pages.open_page(browser, game.links[MARINES], 390)
        opened.rendered()
        card = opened.page.locator('details.command[data-command="scan"]')
        card.evaluate("d => d.open = true")
        unit, model = card.locator("select[name=unit]"), card.locator("select[name=model]")
        field = card.locator('.field[data-path="model"]')
        # One unit with one scanner: the form starts with both chosen, the model by its name.
        assert field.is_visible()
        assert model.evaluate("s => s.options[s.selectedIndex].text") == "Sergeant Arvin"
        assert card.get_by_label("Scanning model").is_visible()

        unit.select_option("")  # no unit: no model to choose, and no empty list shown
        opened.settle()
        assert field.is_hidden()
        texts = " ".join(text for _, text in opened.visible_text())
        assert "nothing to choose now" not in texts

        unit.select_option(label="Tactical squad Arvin")  # the unit again: its scanner
        opened.settle()
        assert field.is_visible()
        assert model.evaluate("s => [...s.options].map((o) => o.text)")[1:] == ["Sergeant Arvin"]
        assert model.evaluate("s => s.options[s.selectedIndex].text") == "Sergeant Arvin"
        opened.close()
