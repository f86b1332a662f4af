"""What the blinded rosters cost: python benchmarks/roster.py.

Prints, for rosters of several sizes, the time to compute one event's root (every slot's
leaf blinded afresh, then sorted and hashed) and the size of one opening; then the roster
size of every bundled scenario with its cost per event (one root per side) and opening size.
The figures go in docs/fairness.md and the closing note of issue 10.
"""

from __future__ import annotations

import json
import time

from ghillie import examples
from ghillie.fairness.capacity import MAX_FACTS, roster_size
from ghillie.fairness.roster import Roster, Written


def per_root(size: int, rounds: int = 200) -> tuple[float, int]:
    """Microseconds per event's root, and the bytes of one opening as JSON."""
    roster = Roster("bench", "side", bytes(32), size)
    for i in range(size // 2):
        roster.write(Written(f"p{i}", "k", i, "ab" * 32, 0), i)
    start = time.perf_counter()
    for seq in range(rounds):
        roster.root(seq)
    took = (time.perf_counter() - start) / rounds * 1e6
    opening = json.dumps(roster.opening("p0", "k", rounds))
    return took, len(opening)


def main() -> None:
    print(f"{'slots':>6} {'µs/root':>9} {'µs/slot':>8} {'opening bytes':>14}")
    for size in (16, 64, 128, 512, MAX_FACTS):
        took, opening = per_root(size)
        print(f"{size:>6} {took:>9.1f} {took / size:>8.2f} {opening:>14,}")
    print()
    print(f"{'scenario':<26} {'slots':>6} {'sides':>6} {'µs/event':>9} {'opening bytes':>14}")
    for name in examples.names():
        scenario = examples.load(name)
        size, sides = roster_size(scenario), len(scenario.sides)
        took, opening = per_root(size)
        print(f"{name:<26} {size:>6} {sides:>6} {took * sides:>9.1f} {opening:>14,}")


if __name__ == "__main__":
    main()
