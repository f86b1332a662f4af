"""Red team, issue 24: does the time of other rulings tell the other side's secrets? The
rulings benchmarks/timing_oracle.py does not try: suspicious-places' observation (what a
marker hides, and whether a sniper marker is the true one) and ambush-fields' end of the
Movement Phase (where a hidden ship's plot takes it inside its field). Each world pair gives
the same public answer, byte for byte (checked), and differs only in the secret.

    PYTHONPATH=src .venv/bin/python tests/redteam/timing_more.py [--samples 41]

Prints per world the median and p90 of the ruling's processor time and the separation (the
chance a sample of B took longer than one of A; 0.50 none, with 41 samples a world chance
alone strays about ±0.07). A script, not a test: no timing assertions in tests.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from timing_oracle import p90, separation  # noqa: E402

from ghillie import Game, examples  # noqa: E402
from tests.contract.harness import comparable  # noqa: E402

World = Callable[[int], tuple[Game, Callable[[Game], Any]]]


def timed(game: Game, act: Callable[[Game], Any]) -> float:
    gc.collect()
    gc.disable()
    start = time.thread_time()
    try:
        act(game)
    finally:
        took = time.thread_time() - start
        gc.enable()
    return took * 1e3


def compare(name: str, one: World, other: World, watcher: str, samples: int) -> None:
    a: list[float] = []
    b: list[float] = []
    for i in range(samples):
        seen = []
        for world, out in ((one, a), (other, b)) if i % 2 == 0 else ((other, b), (one, a)):
            game, act = world(i)
            out.append(timed(game, act))
            seen.append(json.dumps(comparable(game.view(watcher)), sort_keys=True))
        assert seen[0] == seen[1], f"{name}: the worlds differ in what {watcher} sees"
    ma, mb = statistics.median(a), statistics.median(b)
    print(
        f"  {name:52} A {ma:7.2f} ms (p90 {p90(a):7.2f})  B {mb:7.2f} ms (p90 {p90(b):7.2f})"
        f"  B/A {mb / ma:4.2f}  separation {separation(a, b):.2f}  n={len(a)}"
    )


# --- suspicious-places: Keno observes, with no die higher (no change, whatever is there) ---


def observed(hidings: list[dict[str, Any]], sniper_true: int, marker: str) -> World:
    from tests.rules.suspicious_places.helpers import (
        KENO,
        QueuedDice,
        activate,
        at_table,
        observe,
        setup_table,
        table_data,
    )

    def world(seed: int) -> tuple[Game, Callable[[Game], Any]]:
        dice = QueuedDice()
        game = setup_table(table_data(), dice, hidings=hidings, sniper_true=sniper_true, seed=seed)
        activate(game, KENO, "sergeant")
        # Target die 4 (it fits every range die), quality and means dice 1: no die higher
        # (SW-R14: no change).
        # A sniper marker's cover is entered when it is observed at a table.
        cover = "none" if marker.startswith("S") else None
        measured = at_table(10, cover=cover)
        return game, lambda g: observe(g, dice, marker, (4, 1, 1), measured=measured)

    return world


def suspicious_places(samples: int) -> None:
    print("suspicious-places: Keno observes a marker, no die higher (A | B)")
    unit = [{"marker": "M1", "unit": "mg"}]
    compare(
        "M1 hides the machine-gun | hides nothing (M2 does)",
        observed(unit, 0, "M1"),
        observed([{"marker": "M2", "unit": "mg"}], 0, "M1"),
        "keno",
        samples,
    )
    # The sniper's three markers are laid after the three suspicious places: S1..S3.
    compare(
        "sniper marker S1 is the true one | a false one",
        observed(unit, 0, "S1"),
        observed(unit, 1, "S1"),
        "keno",
        samples,
    )


# --- ambush-fields: the Movement Phase ends, plots carried out together -----------------------


def plotted(cl_to: str) -> World:
    from tests.rules.ambush_fields.turns import COLONIALS, CYLONS, at_movement

    data = copy.deepcopy(examples.data("ambush-fields"))

    def world(seed: int) -> tuple[Game, Callable[[Game], Any]]:
        game = at_movement(copy.deepcopy(data))
        # The light cruiser, hidden in the basestar's field (radius 3 about 1206), moves
        # inside it, or stays; Galactica closes in, in the open, the same in both worlds.
        game.command(CYLONS, {"type": "plot", "moves": [{"ship": "cl", "to": cl_to}]})
        game.command(CYLONS, {"type": "end_phase"})
        galactica = {"ship": "galactica", "to": "1214", "heading": "A", "speed": 3}
        game.command(COLONIALS, {"type": "plot", "moves": [galactica]})

        def act(g: Game) -> Any:
            return g.command(COLONIALS, {"type": "end_phase"})  # the plots are carried out

        return game, act

    return world


def ambush_fields(samples: int) -> None:
    print("ambush-fields: the Movement Phase ends (A | B)")
    compare(
        "the hidden CL moves inside its field | stays",
        plotted("1208"),
        plotted("1107"),
        "colonials",
        samples,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=41)
    args = parser.parse_args()
    suspicious_places(args.samples)
    ambush_fields(args.samples)


if __name__ == "__main__":
    main()
