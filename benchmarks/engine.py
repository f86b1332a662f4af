"""Engine throughput: commands ruled per second and the cost of a view, in memory.

    .venv/bin/python benchmarks/engine.py [--games 40] [--steps 200]

Plays random games of every bundled scenario (commands drawn from ``candidates``) and prints
medians over the scenarios. No storage: this is the rules engine alone.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ghillie import Game, Refusal, examples


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    for name in examples.names():
        rule_times: list[float] = []
        view_times: list[float] = []
        accepted = refused = 0
        for seed in range(args.games):
            game = Game.create(examples.load(name), seed=seed)
            ruleset = game.state.ruleset
            rng = random.Random(seed)
            for _ in range(args.steps):
                side = rng.choice(game.state.sides)
                options = ruleset.candidates(game.state, side)
                if not options:
                    continue
                command = rng.choice(options)
                start = time.perf_counter()
                try:
                    game.command(side, command)
                    accepted += 1
                except Refusal:
                    refused += 1
                rule_times.append(time.perf_counter() - start)
                start = time.perf_counter()
                game.view(side)
                view_times.append(time.perf_counter() - start)
                if game.state.phase.value == "over":
                    break
        rule = statistics.median(rule_times)
        view = statistics.median(view_times)
        p99 = sorted(rule_times)[int(len(rule_times) * 0.99)]
        print(
            f"{name:26} {accepted:6} accepted {refused:6} refused | command median "
            f"{rule * 1e6:7.0f} µs (p99 {p99 * 1e6:7.0f} µs, {1 / rule:7.0f}/s) | "
            f"view median {view * 1e6:7.0f} µs"
        )


if __name__ == "__main__":
    main()
