"""The pages refuse, before sending, a number past the bounds its command's JSON Schema
states (issue 24, every field bounded): the server would refuse it too, but a player reads
the bound beside the field at once, and nothing is sent."""

from __future__ import annotations

from typing import Any

from . import pages, test_browser
from .test_browser import PHONE, Player, create_game

browser = test_browser.browser
server = test_browser.server


def test_a_number_past_its_bound_is_refused_beside_its_field_before_sending(
    browser: Any, server: str
) -> None:
    links = create_game(browser, server, "ambush-fire", "ambush-fire")
    germans = Player(browser, links["germans"], PHONE)
    try:
        order = germans.form("ready")
        # An order the rules would take (the grenadiers ambush whatever comes within 150 m)
        # but for its chance to hit.
        unit = {"unit": "Grenadiers", "reaction": "ambush", "trigger": {"within": 150}}
        pages.fill(order, {"orders": [{**unit, "chance": 50, "note": "let them come close"}]})
        chance = order.locator('input[name="orders.0.chance"]')
        sent = len(germans.received())
        for typed in ("150", "-1"):
            chance.fill(typed)
            order.locator("button.send").click()
            error = order.locator(".message.error")
            error.wait_for()
            assert error.inner_text() == "Base chance to hit: from 0 to 100."
        assert len(germans.received()) == sent  # nothing was sent, nothing came back
        assert germans.seq() == 0
        assert germans.errors == []
    finally:
        germans.close()
