"""What every event costs before any rule, view or store: python benchmarks/floor.py.

Every event of a two-sided game publishes one root per side over a roster of blinded leaves
(at least 128 slots, blinded afresh at every event: docs/fairness.md) and three Ed25519
signatures (the head, and what each side was shown). The host computes the roots and
signs; the audit computes the same roots again and verifies the same signatures. Those
primitives alone bound how many events one core can seal or audit, whatever the rest of
the code costs. This prints each primitive's time on this machine and the bounds it sets,
next to the targets of issue 15, with the bare cost of one SHA-256 call for scale (a leaf
is one such call on 104 bytes).

    .venv/bin/python benchmarks/floor.py [--peer COMMANDS_PER_S]

``--peer``: boardgame.io "alt" in a run of ``../shared/bench/side-by-side.sh`` (the
throughput target is 1.5 times it); without it, the lower end of the README's range.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import timeit

from ghillie.fairness.capacity import MIN_FACTS
from ghillie.fairness.hashlog import HostKey, verify
from ghillie.fairness.roster import Roster

AUDIT_TARGET = 20_000  # events a second (issue 15)
PEER_ALT = 3_396  # boardgame.io "alt", commands a second (../shared/bench/README.md)


def micro(call: object, number: int) -> float:
    """Microseconds a call, the best of five runs (the least disturbed by other work)."""
    assert callable(call)
    return min(timeit.repeat(call, number=number, repeat=5)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--peer", type=float, default=PEER_ALT)
    args = parser.parse_args()

    roster = Roster("bench", "side", os.urandom(32), MIN_FACTS)
    seqs = iter(range(10**9))
    root = micro(lambda: roster.root(next(seqs)), 2000)
    key = HostKey.generate()
    message = os.urandom(80)  # a head's message is about this long
    signature = key.sign(message)
    sign = micro(lambda: key.sign(message), 2000)
    check = micro(lambda: verify(key.public, message, signature), 2000)
    leaf_input = os.urandom(104)
    sha = micro(lambda: hashlib.sha256(leaf_input).digest(), 100_000)

    seal = 2 * root + 3 * sign
    audit = 2 * root + 3 * check
    print(f"one SHA-256 call on 104 bytes     {sha:8.2f} µs")
    per_leaf = root / MIN_FACTS
    print(f"one root of {MIN_FACTS} slots             {root:8.1f} µs ({per_leaf:.2f} µs a leaf)")
    print(f"one Ed25519 signature             {sign:8.1f} µs")
    print(f"one Ed25519 verification          {check:8.1f} µs")
    print()
    target = 1.5 * args.peer
    print(f"host, per event: 2 roots + 3 signatures       = {seal:6.1f} µs")
    print(
        f"  bound on one core: {1e6 / seal:7,.0f} events/s with nothing else; "
        f"target {target:,.0f} (1.5 × peer {args.peer:,.0f}) needs all of an event in "
        f"{1e6 / target:.0f} µs"
    )
    print(f"audit, per event: 2 roots + 3 verifications  = {audit:6.1f} µs")
    print(
        f"  bound on one core: {1e6 / audit:7,.0f} events/s with nothing else "
        f"({1e6 / (2 * root):,.0f} with the roots alone); target {AUDIT_TARGET:,} needs "
        f"{1e6 / AUDIT_TARGET:.0f} µs an event"
    )


if __name__ == "__main__":
    main()
