"""The story of a game as text (ghillie.story): orders in their form's words, pieces by name."""

from __future__ import annotations

from typing import Any

from ghillie.demo import new_game, scripts
from ghillie.state import REFEREE
from ghillie.story import Teller


def _teller(ruleset: str, steps: int) -> tuple[Teller, dict[str, Any]]:
    script = scripts()[ruleset]
    game = new_game(script)
    for step in script.steps[:steps]:
        game.command(step.side, step.command)
    names = {s.id: s.name for s in game.scenario.sides}
    teller = Teller(ruleset, names)
    views = {o: game.view(o) for o in (*game.state.sides, REFEREE)}
    teller.step(0, None, None, views)
    return teller, views


def test_an_order_is_read_in_the_words_of_its_form() -> None:
    teller, views = _teller("grid-ambush", 6)
    move = {"type": "move", "unit": "tactical", "models": [[42, 21], [40.5, 27]]}
    assert teller.title("move") == "Move a unit"
    assert teller.order(move, views["marines"]) == [
        "Unit: Tactical squad Arvin",
        "New positions: (42, 21), (40.5, 27)",
    ]


def test_a_piece_the_giver_cannot_see_is_named_and_said_unseen() -> None:
    teller, views = _teller("grid-ambush", 0)  # before the set-up, the Marines know no enemy
    graw = next(p for p in views[REFEREE]["pieces"] if p["name"] == "Sgt. Graw's patrol")
    said = teller.order({"type": "reveal", "unit": graw["id"]}, views["marines"])
    assert said == ["Unit: Sgt. Graw's patrol (unseen by the giver)"]


def test_a_ship_named_by_its_secret_key_is_named_as_its_owner_knows_it() -> None:
    teller, views = _teller("ambush-fields", 0)
    own = views["colonials"]["pieces"]
    galactica = next(p for p in own if p["secret"].get("key") == "galactica")
    said = teller.order({"type": "scan", "ships": ["galactica"]}, views["colonials"])
    assert said == [f"Scanning ships: {galactica['name']}"]
