"""How long `ghillie audit` takes on long games: python benchmarks/audit.py [--steps N].

Plays random sensible commands (as the contract tests do) for every bundled scenario until
the game is over or N commands were accepted, then audits the record and prints events and
seconds (the best and the median of ``--repeat`` audits). The longest game's figure goes in
the closing note of issue 4.

A scenario whose game ends after a number of turns (ambush-fire's, 3 in its examples) is
played with as many as its model allows (``--turns most``, 20 for ambush-fire: about 250 and
450 events instead of 44 and 117), so that its figure per event is not that of a game's
set-up; ``--turns scenario`` plays the example as it is.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from typing import Any

from ghillie import Game, examples, registry
from ghillie.errors import Refusal
from ghillie.fairness.audit import audit
from ghillie.game import load_scenario
from ghillie.state import Phase


def most_turns(scenario: str) -> dict[str, Any]:
    """The example's data, with as many turns as its ruleset's scenario model allows if its
    game ends after a number of turns (the model's ``turns`` field and its upper bound)."""
    data = examples.data(scenario)
    field = registry.get(data["ruleset"]).scenario_model.model_fields.get("turns")
    most = [m.le for m in field.metadata if getattr(m, "le", None) is not None] if field else []
    return {**data, "turns": min(most)} if most else data


def long_game(scenario: str, steps: int, seed: int, turns: str = "most") -> Game:
    data = most_turns(scenario) if turns == "most" else examples.data(scenario)
    game = Game.create(load_scenario(data), seed=seed)
    ruleset = game.state.ruleset
    rng = random.Random(seed)
    tries = 0
    while game.state.seq < steps and tries < steps * 20 and game.state.phase is not Phase.OVER:
        tries += 1
        side = rng.choice(game.state.sides)
        options = [c for c in ruleset.candidates(game.state, side) if c.get("type") != "end_game"]
        if options:
            with contextlib.suppress(Refusal):
                game.command(side, rng.choice(options))
    for side in game.state.sides:  # before play begins every side must ask (ambush-fields)
        if game.state.phase is not Phase.OVER:
            game.command(side, {"type": "end_game"})
    return game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    # The best of several: on a shared machine the slowest runs measure the neighbours.
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--turns", choices=("most", "scenario"), default="most")
    parser.add_argument("--only", nargs="*", default=None, help="these scenarios alone")
    args = parser.parse_args()
    for scenario in args.only or examples.names():
        started = time.perf_counter()
        game = long_game(scenario, args.steps, args.seed, args.turns)
        played = time.perf_counter() - started
        record = game.record()
        own = cpu = float("inf")
        times = []
        for _ in range(args.repeat):
            started, thread, process = time.perf_counter(), time.thread_time(), time.process_time()
            report = audit(record)
            times.append(time.perf_counter() - started)
            # CPU beside the time: on a shared machine the neighbours' load lengthens the
            # time, not the CPU. The auditing thread's own, and every thread's (signatures
            # are verified on two more).
            own = min(own, time.thread_time() - thread)
            cpu = min(cpu, time.process_time() - process)
        took, median = min(times), statistics.median(times)
        rolls = report.rolls
        print(
            f"{scenario:24} {report.events:5} events {rolls:5} rolls  played in {played:6.2f} s"
            f"  audited in {took:6.3f} s, median {median:6.3f}"
            f" ({1000 * took / report.events:.2f} ms/event;"
            f" CPU {cpu:.2f} s, {own:.2f} s of it the auditing thread's)"
            f"  {'OK' if report.ok else report.findings[0]}"
        )


if __name__ == "__main__":
    main()
