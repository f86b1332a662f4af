"""view(): what each observer receives, built up from what it may see."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game, examples, view

# The § tooltip of that line: the rule's name and a line of its text, never its id.
RECORDING = (
    "Recording: Timing: after table edges and deployment zones are fixed, and before either "
    "army sets up."
)


@pytest.fixture
def game() -> Game:
    game = Game.create(examples.load("grid-ambush-table"), seed=1)
    game.command(
        "jungle",
        {
            "type": "record_ambushes",
            "orders": [{"unit": "graw", "square": "D2", "note": "by the ruin"}],
        },
    )
    return game


def test_a_side_sees_its_own_pieces_with_their_secrets(game: Game) -> None:
    mine = view(game, "jungle")
    graw = next(p for p in mine["pieces"] if p["public"]["key"] == "graw")
    assert graw["secret"]["square"] == "D2"
    assert graw["secret"]["note"] == "by the ruin"
    assert all(p["owner"] == "jungle" for p in mine["pieces"])


def test_the_other_side_gets_a_fixed_line_for_a_secret_command(game: Game) -> None:
    theirs = view(game, "orks")
    # The table's grid names every square (in the table and on the map); leave them out.
    text = json.dumps({k: v for k, v in theirs.items() if k not in ("table", "map")})
    assert "D2" not in text
    assert "by the ruin" not in text
    assert theirs["log"][-1]["lines"] == [
        {
            "event": "ambushes_recorded",
            "text": {
                "say": "{side} write down their ambush orders in secret.",
                "args": {"side": "Deathworld Veterans"},
                "rules": ["DWV-R04"],
            },
        }
    ]
    assert theirs["log"][-1]["said"] == [
        {
            "text": "Deathworld Veterans write down their ambush orders in secret.",
            "rules": ["DWV-R04"],
            "rule_lines": [RECORDING],
        }
    ]


def test_an_event_told_to_nobody_reads_as_a_fixed_acted_line(game: Game) -> None:
    spectator = view(game, "spectator")
    assert spectator["log"][-1]["lines"] == [{"event": "acted", "by": "jungle"}]
    assert spectator["log"][-1]["said"] == [{"text": "Deathworld Veterans gave an order."}]
    assert spectator["pieces"] == []


def test_the_referee_sees_everything(game: Game) -> None:
    referee = view(game, "referee")
    assert "D2" in json.dumps(referee)
    assert referee["log"][-1]["command"]["type"] == "record_ambushes"
    assert len(referee["pieces"]) == len(game.state.pieces)


def test_a_side_knows_the_other_army_only_from_the_start_of_play(game: Game) -> None:
    assert view(game, "orks")["known"] == []
    game.command("jungle", {"type": "ready"})
    game.command("orks", {"type": "ready"})
    known = {k["public"]["key"]: k for k in view(game, "orks")["known"]}
    assert known["graw"]["public"]["status"] == "in_ambush"
    assert "secret" not in known["graw"]
    assert view(game, "orks")["board"]["enemy_units_in_ambush"] == 1


def test_an_unknown_observer_gets_nothing(game: Game) -> None:
    with pytest.raises(ValueError, match="unknown observer"):
        view(game, "eldar")


def test_an_update_merged_into_what_was_held_is_the_whole_view() -> None:
    """project_update skips rebuilding what no event could have changed; merged, it must
    always give exactly the view a fresh projection gives."""
    import random

    from ghillie.view import project, project_update

    for name in examples.names():
        for seed in range(4):
            game = Game.create(examples.load(name), seed=seed)
            rng = random.Random(seed)
            observers = (*game.state.sides, "spectator", "referee")
            held = {o: project_update(game.state, game.events(), o, {})[1] for o in observers}
            # What each reader's parts were last worded as, as the server keeps it: a part
            # drawn as before is not worded again, and must read exactly as a fresh one.
            spoken: dict[str, dict[str, Any]] = {o: {} for o in observers}
            for event in examples.random_events(game, rng, 60):
                for observer in observers:
                    update, held[observer] = project_update(
                        game.state, [event], observer, held[observer], spoken=spoken[observer]
                    )
                    whole = project(game.state, [event], observer)
                    assert held[observer] == {k: v for k, v in whole.items() if k != "log"}
                    assert update["log"] == whole["log"]
