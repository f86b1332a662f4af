"""A ruleset's ``map_reads`` names every part of the state its map is drawn from.

The view draws a reader's map again only when one of those parts changed (ghillie.view):
a ruleset that declared too few would leave a side looking at a stale map, a marker shown
where it no longer is. So, for states met in play, the map of a state whose declared parts
come from another state must be that other state's map, for every reader.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
from typing import Any

import pytest

from ghillie import Game, examples
from ghillie.errors import Refusal
from ghillie.ruleset import STATE_PARTS
from ghillie.state import REFEREE, SPECTATOR, GameState, Phase
from tests.registered import map_examples


def played(name: str, seed: int, steps: int = 120) -> list[GameState[Any, Any]]:
    """The states a game passes through, its commands drawn from the ruleset's candidates."""
    game = Game.create(examples.load(name), seed=seed)
    ruleset = game.state.ruleset
    rng = random.Random(seed)
    states = [game.state]
    for _ in range(steps * 10):
        if len(states) > steps or game.state.phase is Phase.OVER:
            break
        side = rng.choice(game.state.sides)
        options = [c for c in ruleset.candidates(game.state, side) if c["type"] != "end_game"]
        if options:
            with contextlib.suppress(Refusal):
                game.command(side, rng.choice(options))
                states.append(game.state)
    return states


@pytest.mark.parametrize("name", map_examples())
def test_a_map_is_drawn_from_the_parts_its_ruleset_names(name: str) -> None:
    states = played(name, seed=7)
    ruleset = states[0].ruleset
    reads = ruleset.map_reads
    assert set(reads) <= set(STATE_PARTS)
    others = [part for part in STATE_PARTS if part not in reads]
    rng = random.Random(1)
    compared = differed = 0
    for i, state in enumerate(states):
        source = states[rng.randrange(len(states))] if i % 2 else states[i - 1]
        mixed = dataclasses.replace(source, **{part: getattr(state, part) for part in reads})
        differed += any(getattr(source, p) is not getattr(state, p) for p in others)
        for observer in (*state.sides, REFEREE, SPECTATOR):
            assert ruleset.map_view(mixed, observer) == ruleset.map_view(state, observer), (
                f"{name}: the map of state {i} for {observer} read a part of the state that "
                f"map_reads does not name ({', '.join(others)})"
            )
            compared += 1
    # Nothing was tested if every part the map does not read stayed the same throughout.
    assert compared
    assert differed
