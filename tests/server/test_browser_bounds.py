"""The pages at the table (issue 25): a number past its bounds is refused beside its field
with the allowed range in the players' words — before sending (the command's JSON Schema),
and by the server when a page sends it anyway — and the reason goes once the field is
fixed; and what a player plans (a standing order's zone, a column's path) is drawn on the
map as it is entered, an empty path filled by tapping the map."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from . import pages, test_browser
from .test_browser import PHONE, Player

browser = test_browser.browser
server = test_browser.server

GRENADIERS = {"unit": "Grenadiers", "reaction": "ambush", "trigger": {"within": 150}}


def _game(server: str, steps: int) -> pages.Game:
    """A game of the bundled ambush-fire map, played by the demo's script through its first
    ``steps`` steps over the API."""
    game = pages.create_game(server, "ambush-fire")
    for side, order in pages.demo_steps("ambush-fire")[:steps]:
        answer = pages.command(server, game, side, order)
        assert "status" not in answer, answer
    return game


def _note(form: Any, path: str) -> Any:
    return form.locator(f'.field[data-path="{path}"] > .field-error')


def test_a_number_past_its_bound_names_its_range_beside_its_field_before_sending(
    browser: Any, server: str
) -> None:
    germans = Player(browser, _game(server, 1).links["germans"], PHONE)
    try:
        order = germans.form("ready")
        # An order the rules would take (the grenadiers ambush whatever comes within 150 m)
        # but for its chance to hit.
        pages.fill(order, {"orders": [{**GRENADIERS, "chance": 50, "note": "come close"}]})
        chance = order.locator('input[name="orders.0.chance"]')
        sent = len(germans.received())
        words = "Base chance to hit: a whole number from 0 to 100 %."
        for typed in ("150", "-1"):
            chance.fill(typed)
            order.locator("button.send").click()
            assert order.locator(".message.error").inner_text() == words
            assert _note(order, "orders.0.chance").inner_text() == words
        # Typing in another field leaves the reason where it is: that field is still wrong.
        order.locator('input[name="orders.0.note"]').fill("let them come close")
        assert _note(order, "orders.0.chance").inner_text() == words
        # Fixed, the reason goes, beside the field and under the button.
        chance.fill("50")
        assert _note(order, "orders.0.chance").count() == 0
        assert order.locator(".message.error").count() == 0
        within = order.locator('input[name="orders.0.trigger.within"]')
        within.fill("5000")
        order.locator("button.send").click()
        assert _note(order, "orders.0.trigger.within").inner_text() == (
            "Fire at the first enemy within: more than 0, up to 1250 metres."
        )
        within.fill("150")
        assert _note(order, "orders.0.trigger.within").count() == 0
        assert len(germans.received()) == sent  # nothing was sent, nothing came back
        assert germans.seq() == 1
        assert germans.errors == []
    finally:
        germans.close()


def test_the_servers_refusal_of_a_number_names_its_range_beside_the_field(
    browser: Any, server: str
) -> None:
    """A page that sends a number past its bound anyway (an old page, a script) is refused
    by the server with the same words, shown beside the field the refusal names."""
    germans = Player(browser, _game(server, 1).links["germans"], PHONE)
    try:
        order = germans.form("ready")
        pages.fill(order, {"orders": [{**GRENADIERS, "chance": 50}]})
        grenadiers = germans.piece_id("Grenadiers")
        wrong = {**GRENADIERS, "unit": grenadiers, "trigger": {"within": 5000}, "chance": 50}
        germans.page.evaluate(
            "(orders) => window.ghillie.outbox.give({type: 'ready', orders})", [wrong]
        )
        words = "Fire at the first enemy within: more than 0, up to 1250 metres."
        note = _note(order, "orders.0.trigger.within")
        note.wait_for()
        assert note.inner_text() == words
        assert germans.page.inner_text("#result") == words
        assert germans.seq() == 1
        order.locator('input[name="orders.0.trigger.within"]').fill("200")  # fixed
        assert note.count() == 0
        assert germans.errors == []
    finally:
        germans.close()


def _tap(player: Player, x: float, y: float) -> None:
    """Tap the map at (x, y) inches, as a finger does (on a whole pixel)."""
    point = player.page.evaluate(
        """([x, y]) => {
            const svg = document.querySelector('#map svg');
            const at = () => new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
            window.scrollBy(0, at().y - window.innerHeight / 2);
            return [at().x, at().y];
        }""",
        [x, y],
    )
    player.page.mouse.click(point[0], point[1])


def _entered(form: Any, path: str, count: int) -> list[list[float]]:
    return [
        [
            float(form.locator(f'input[name="{path}.{i}.x"]').input_value()),
            float(form.locator(f'input[name="{path}.{i}.y"]').input_value()),
        ]
        for i in range(count)
    ]


def _drawn(player: Player, path: str) -> list[list[float]]:
    """The points of the line the map draws for the plan at ``path``."""
    line = player.page.locator(f'#map g.plans g.plan[data-path="{path}"] polyline.plan-line')
    text = line.get_attribute("points") or ""
    return [[float(n) for n in pair.split(",")] for pair in text.split()]


def test_a_zone_and_a_path_are_drawn_on_the_map_as_they_are_entered(
    browser: Any, server: str
) -> None:
    game = _game(server, 1)
    germans = Player(browser, game.links["germans"], PHONE)
    try:
        # A standing order's gap, typed in: drawn as it is entered, under its label.
        order = germans.form("ready")
        gap = [[36, 22.4], [36, 25.6]]
        pages.fill(order, {"orders": [{"unit": "PaK 40", "trigger": {"zone": gap}}]})
        assert _drawn(germans, "orders.0.trigger.zone") == gap
        plan = germans.page.locator('#map g.plan[data-path="orders.0.trigger.zone"]')
        assert plan.locator("circle.plan-point").count() == 2
        assert plan.locator("text.plan-label").text_content() == "Zone"
        # Closing the order's card takes its plan off the map.
        order.locator("xpath=..").locator("summary").click()
        expect(germans.page.locator("#map g.plans g.plan")).to_have_count(0)
        # The script's standing orders go from this page (it holds the Germans' seat), the
        # Soviets' set-up over the API: the Germans move first.
        steps = pages.demo_steps("ambush-fire")
        germans.page.evaluate("(order) => window.ghillie.outbox.give(order)", steps[1][1])
        germans.wait_seq(2)
        for side, command in steps[2:4]:
            assert "status" not in pages.command(server, game, side, command)
        germans.wait_seq(4)
        move = germans.form("move")
        pages.fill(move, {"units": [{"unit": "Grenadiers"}]})
        path = "units.0.path"
        together = move.locator(f'button.pick.all[data-path="{path}"]')
        tapping = move.locator(f'button.add-points[data-path="{path}"]')
        # An empty path has no "move them all" (it had nothing to move): it is tapped in.
        assert not together.is_visible()
        germans.page.locator("#map button.whole").click()
        tapping.click()
        germans.page.wait_for_selector(".map-box.picking")
        _tap(germans, 46, 34)
        _tap(germans, 42, 31)
        germans.page.locator(".pick-bar button").click()  # Cancel: the path is done
        points = _entered(move, path, 2)
        assert abs(points[0][0] - 46) <= 0.3
        assert abs(points[1][1] - 31) <= 0.3
        # Drawn from where the grenadiers wait, through the waypoints as entered.
        assert _drawn(germans, path) == [[50, 36], *points]
        assert together.is_visible()
        # A waypoint typed again moves the line with it.
        move.locator(f'input[name="{path}.1.x"]').fill("40")
        assert _drawn(germans, path)[-1] == [40, points[1][1]]
        assert germans.errors == []
    finally:
        germans.close()
