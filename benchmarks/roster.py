"""What the blinded rosters cost: python benchmarks/roster.py.

Prints, for rosters of several sizes, the time to compute one event's root (every slot's
leaf blinded afresh, then sorted and hashed) and the size of one opening; then the roster
size of every bundled scenario with its cost per event (one root per side) and opening size;
then what a fact that never changes once written costs (Ruleset.fixed_secrets): its opening,
which proves its write event too, and the memory the host keeps to prove it.
The figures go in docs/fairness.md and the closing note of issue 10.
"""

from __future__ import annotations

import json
import time
import tracemalloc

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


def fixed(size: int, facts: int) -> tuple[int, float, float]:
    """Bytes of one opening of a fixed fact as JSON; bytes the host keeps per fixed fact when
    ``facts`` of them are written at one event (one list of leaves for them all) and when
    each is written at an event of its own."""
    roster = Roster("bench", "side", bytes(32), size, frozenset({"k"}))
    tracemalloc.start()
    for i in range(facts):
        roster.write(Written(f"p{i}", "k", i, "ab" * 32, 0), i)
    kept_before = tracemalloc.get_traced_memory()[0]
    roster.sealed(1)
    together = (tracemalloc.get_traced_memory()[0] - kept_before) / facts
    apart = Roster("bench", "side", bytes(32), size, frozenset({"k"}))
    for i in range(facts):
        apart.write(Written(f"p{i}", "k", i, "ab" * 32, 0), i)
        apart.root(2 + i)
        start = tracemalloc.get_traced_memory()[0]
        apart.sealed(2 + i)
        alone = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    opening = json.dumps(roster.opening("p0", "k", 9))
    return len(opening), together, alone


def main_fixed() -> None:
    print()
    head = f"{'slots':>6} {'fixed opening bytes':>20} {'kept/fact, 20 at once':>22}"
    print(f"{head} {'kept, alone':>12}")
    for size in (128, 512, MAX_FACTS):
        opening, together, alone = fixed(size, 20)
        print(f"{size:>6} {opening:>20,} {together:>22,.0f} {alone:>12,.0f}")


if __name__ == "__main__":
    main()
    main_fixed()
