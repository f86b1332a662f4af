"""ambush-fire in two real browsers, what the play-test could not reach (issue 25, table need
7): an anti-tank missile's flight time, and an Ambush Close Combat that closes.

The dragons' teeth with an ATGM team added for the Germans, set up through the API (where
each concealed unit waits and the standing orders are not under test here); then the pages'
own forms give every command that matters, and each side reads the story in its log:

* the ATGM team's Ambush Fire order (no zone, no distance: "within range") fires where the
  lead tank comes to exactly 1250 m — a legal ambush whose missile has its flight time
  (BMF-R10, A10): it is launched, the Soviets' page is asked at once whether the tank fires
  back at the launcher (its reply priced at 10 less, R12, A23), the tank's move goes on to
  its end, and only then does the missile arrive;
* the submachine gunners walk past the pioneers, who wait at the copse's edge with an
  Ambush Close Combat order: the dash over open ground reaches them (R15), contact is made
  and the attack rolled (R16); the survivors' defence is priced at 10 less (R17, A02) on
  the Soviets' page, and the pioneers' page is asked for their retreat (R18).

The server's randomness is seeded (seeded_serve.py), so the rolls are the same every run.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ghillie import examples

from . import pages, test_browser
from .test_browser import DESKTOP, PHONE, Player
from .test_browser_ambush_fire import NAMES
from .test_browser_camouflage import log, shoot, status

browser = test_browser.browser
GERMANS, SOVIETS = "germans", "soviets"
SHOTS = Path("/tmp/ambush-fire-shots")
SEED = 16  # the missile destroys the lead tank; the gunners survive the pioneers' attack
SERVE = [sys.executable, str(Path(__file__).with_name("seeded_serve.py")), str(SEED)]
ATGM = {
    "key": "atgm",
    "side": "germans",
    "name": "ATGM team",
    "class": "atgm",
    "diet": "omnivore",
    "facing": 90,
    "concealed": True,
}
WAITING = [
    {"unit": "pak", "at": [30.4, 19.2]},
    {"unit": "grenadiers", "at": [50, 36]},
    {"unit": "pioneers", "at": [64, 8]},  # the copse's bottom edge: cover, open ground below
    {"unit": "atgm", "at": [4, 46]},  # 1635 m from the lead tank, 814 m from the farmyard
]
ORDERS = [
    {"unit": "atgm", "reaction": "ambush", "trigger": {"target_class": "vehicle"}, "chance": 60},
    {"unit": "pioneers", "reaction": "close_combat", "trigger": {}, "chance": 50},
    # Never set off here: the move form warns that moving the grenadiers voids it (BMF-R07).
    {"unit": "grenadiers", "reaction": "ambush", "trigger": {"within": 50}, "chance": 50},
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with pages.serve(tmp_path_factory.mktemp("ambush-fire-reach"), SERVE) as base:
        yield base


def set_up(base: str) -> pages.Game:
    data = examples.data("ambush-fire")
    data = {**data, "units": [*data["units"], ATGM]}
    body = pages._call(f"{base}/api/games", {"scenario_data": data, "chains": "host"})
    links = {link["observer"]: link["url"] for link in body["links"]}
    game = pages.Game("ambush-fire", body["game_id"], links)
    for side, order in (
        (GERMANS, {"type": "conceal", "units": WAITING}),
        (GERMANS, {"type": "ready", "orders": ORDERS}),
        (SOVIETS, {"type": "conceal", "units": [{"unit": "scouts", "at": [52, 38.4]}]}),
        (SOVIETS, {"type": "ready"}),
        (GERMANS, {"type": "end_step"}),
    ):
        answer = pages.command(base, game, side, order)
        assert "seq" in answer, answer
    return game


def move(player: Player, other: Player, unit: str, to: list[float]) -> None:
    form = player.form("move")
    pages.fill(form, {"units": [{"unit": NAMES.get(unit, unit), "path": [to]}]})
    player.submit(form)
    other.wait_seq(player.seq())


def reply(
    player: Player, other: Player, values: dict[str, Any], priced: str, *, hold: bool = False
) -> None:
    """Answer a return-fire window on the page, its odds shown as it is given (``hold``:
    then think better of it, and hold fire)."""
    form = player.form("return_fire")
    pages.fill(form, values)
    odds = form.locator(".odds")
    odds.filter(has_text="hit").wait_for()
    assert priced in odds.inner_text(), odds.inner_text()
    if hold:
        pages.fill(form, {"fire": False})
    player.submit(form)
    other.wait_seq(player.seq())


def asked(player: Player, side: str) -> bool:
    """Is the game waiting for ``side`` (this page's) to answer a window?"""
    reaction = player.view().get("reaction") or {}
    return reaction.get("waiting_for") == side


def stay(player: Player, other: Player) -> None:
    """The ambushers stay where they are: a retreat with no path."""
    form = player.form("retreat")
    player.submit(form)
    other.wait_seq(player.seq())


def test_a_missile_in_flight_and_a_close_combat_that_closes(browser: Any, server: str) -> None:
    game = set_up(server)
    germans = Player(browser, game.links[GERMANS], DESKTOP)
    soviets = Player(browser, game.links[SOVIETS], PHONE)
    players = {GERMANS: germans, SOVIETS: soviets}
    try:
        # The lead tank leaves the orchard for the farmyard: at 1250 m the missile is launched.
        move(soviets, germans, "t34_1", [28, 24])
        launched = "Its missile is in flight: it reaches T-34 (1) when the move ends."
        for player in players.values():
            assert "Ambush Fire from hiding: ATGM team at T-34 (1)!" in log(player)
            assert launched in log(player)
            assert "T-34 (1): moved to" not in log(player)  # the move waits for the answer
        assert "Soviets are deciding whether to fire back." in status(soviets)
        shoot(players, "6-missile-in-flight", SHOTS)
        # The one reaction the flight time lets in: the tank may fire back at the launcher
        # (priced at 10 less); its crew hold fire.
        reply(soviets, germans, {"fire": True, "chance": 50}, "40", hold=True)
        for player in players.values():
            # The log shows the newest event first, each event's lines in their order: the
            # answer's event has the move going on to its end, then the missile arriving.
            text = log(player)
            moved = text.index("T-34 (1): moved to 28, 24.")
            arrived = text.index("The missile of ATGM team arrives at T-34 (1).")
            hit = text.index("T-34 (1): destroyed (60% to hit).")  # the seeded roll
            assert moved < arrived < hit < text.index(launched), text[:400]
        assert asked(germans, GERMANS)  # the launcher may retreat after its missile lands
        stay(germans, soviets)

        # The submachine gunners walk below the copse: the pioneers' dash reaches them.
        move(soviets, germans, "smg", [64, 9.6])
        for player in players.values():
            assert (
                "Ambush Close Combat: Pioneers out of cover in a dash at Submachine gunners!"
                in log(player)
            )
            assert "Submachine gunners: survived (50%)." in log(player)  # the seeded roll
            assert "blocks the way" not in log(player)
        shoot(players, "7-close-combat-closes", SHOTS)
        # The gunners survived: they fight back at 10 less for the surprise.
        assert "Soviets are deciding whether to fire back." in status(soviets)
        reply(soviets, germans, {"fire": True, "chance": 50}, "40")
        for player in players.values():
            assert "The defence of Submachine gunners (40%, 10 less for the surprise)" in log(
                player
            )
        if asked(germans, GERMANS):  # the pioneers survived the defence: they may retreat
            stay(germans, soviets)
        assert not asked(soviets, SOVIETS)

        # Turn 2, the Germans to move: their move form warns what moving the grenadiers
        # would void (BMF-R07: "this turn or next"); the Soviets' page has none of it.
        for player, other in ((soviets, germans), (soviets, germans), (germans, soviets)):
            player.press("end_step")  # the Soviets' move, then the fire phase, both sides
            other.wait_seq(player.seq())
        assert "Turn 2: Germans move first." in log(germans)
        form = germans.form("move")
        pages.fill(form, {"units": [{"unit": "Grenadiers"}]})
        warning = form.locator(".hint.warn").filter(has_text="moving now")
        assert warning.inner_text() == (
            "Grenadiers: moving now means the Ambush Fire order cannot fire this turn or next."
        )
        shoot({GERMANS: germans}, "8-move-warning", SHOTS)
        pages.fill(form, {"units": [{"unit": "Grenadiers", "path": [[51, 36]]}]})
        germans.submit(form)
        soviets.wait_seq(germans.seq())
        assert "Grenadiers moved: its Ambush Fire order cannot fire this turn or next." in log(
            germans
        )
        assert "Standing order 3, the Ambush Fire of Grenadiers, cannot fire now" in status(germans)
        for hidden in ("moving now", "cannot fire now", "Grenadiers moved"):
            assert hidden not in log(soviets) + status(soviets)
        for player in players.values():
            assert player.errors == []
    finally:
        for player in players.values():
            player.close()
