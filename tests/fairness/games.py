"""Complete games of every bundled scenario, played by random sensible commands, as records."""

from __future__ import annotations

import contextlib
import random
from functools import cache
from typing import Any

from ghillie import Game, examples, registry
from ghillie.errors import Refusal
from ghillie.state import Phase


def play_random(scenario: str, seed: int, steps: int = 80) -> Game:
    game = Game.create(examples.load(scenario), seed=seed)
    ruleset = registry.get(game.state.ruleset)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.state.phase is Phase.OVER:
            break
        side = rng.choice(game.state.sides)
        # End the game only near the end, so that most games are long.
        candidates = [
            c for c in ruleset.candidates(game.state, side) if c.get("type") != "end_game"
        ]
        if not candidates:
            continue
        with contextlib.suppress(Refusal):
            game.command(side, rng.choice(candidates))
    # Then play on until a side may end the game (not during set-up, say), and end it.
    for _ in range(500):
        if game.state.phase is Phase.OVER:
            break
        side = rng.choice(game.state.sides)
        try:
            game.command(side, {"type": "end_game"})
        except Refusal:
            options = ruleset.candidates(game.state, side)
            if options:
                with contextlib.suppress(Refusal):
                    game.command(side, rng.choice(options))
    assert game.state.phase is Phase.OVER, "the random game never ended"
    return game


KEYS: dict[str, str] = {}  # game id -> the host's signing key (never in a record)


@cache
def records(per_scenario: int = 3) -> tuple[tuple[str, dict[str, Any]], ...]:
    out = []
    for name in examples.names():
        for seed in range(per_scenario):
            game = play_random(name, seed)
            KEYS[game.id] = game.store.header(game.id)["fair"]["key"]
            out.append((f"{name}#{seed}", game.record()))
    return tuple(out)
