"""What a view costs as the server builds it after each event: in memory, no server.

    .venv/bin/python benchmarks/views.py [--scenarios suspicious-places,ambush-fields]
        [--games 6] [--steps 120]

Plays random commands (drawn from ``candidates``, as the contract tests do) in each scenario
and, after every event, builds each side's update as ``FanOut.publish`` does:
``project_update`` with the side's view held and its memo of worded parts. Prints the thread
CPU of a view (mean and median) over all of them. The default scenarios are the two that
``benchmarks/pace.py`` plays.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from ghillie import Game, examples
from ghillie.view import project_update


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenarios", default="suspicious-places,ambush-fields")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--steps", type=int, default=120, help="commands tried a game")
    args = parser.parse_args()
    took: list[float] = []
    for name in args.scenarios.split(","):
        for seed in range(args.games):
            game = Game.create(examples.load(name), seed=seed)
            sides = game.state.sides
            held = {side: project_update(game.state, game.events(), side, {})[1] for side in sides}
            spoken: dict[str, dict[str, Any]] = {side: {} for side in sides}
            for event in examples.random_events(game, random.Random(seed), args.steps):
                for reader in sides:
                    started = time.thread_time()
                    _, held[reader] = project_update(
                        game.state, [event], reader, held[reader], spoken=spoken[reader]
                    )
                    took.append(time.thread_time() - started)
    print(
        f"{args.scenarios}: {len(took):,} views, thread CPU a view: mean "
        f"{1e6 * statistics.mean(took):.0f} µs, median {1e6 * statistics.median(took):.0f} µs"
    )


if __name__ == "__main__":
    main()
