"""The pages' own sentences give a name its possessive as the server's do (issue 26, item 8):
"Waiting for the dice of Nomads' page", never "Nomads's page" (i18n.js ``t``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import pages

T = """async ([template, side]) => {
    const { t } = await import('/static/i18n.js');
    return t(template, { side });
}"""


def test_a_pages_sentence_gives_a_side_name_its_possessive(tmp_path: Path) -> None:
    with pages.serve(tmp_path) as base, pages.chromium() as browser:
        page: Any = browser.new_page()
        page.goto(base + "/")
        said = {side: page.evaluate(T, ["{side}'s page", side]) for side in ("Nomads", "Orlov")}
        assert said == {"Nomads": "Nomads' page", "Orlov": "Orlov's page"}
        assert page.evaluate(T, ["Waiting for {side}.", "Nomads"]) == "Waiting for Nomads."
        page.close()
