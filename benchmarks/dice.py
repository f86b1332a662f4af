"""Roll-stream dice: speed and uniformity (TRUST.md §6, F2).

    .venv/bin/python benchmarks/dice.py [--rolls 1000000] [--per-key 1000] [--seed N]

Rolls ``--rolls`` dice of each of d4, d6, d8, d10, d12 and d20, and as many 2d6 pairs, from
:class:`ghillie.fairness.stream.StreamDice`, with a new roll key (from three random party
contributions, as in a game) every ``--per-key`` rolls. Prints rolls per second, the
chi-square statistic against the uniform (or, for 2d6, the exact) distribution, its p-value
and pass/fail at the 0.1% level. The seed is printed so that a failing run can be repeated.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import secrets
import time
from collections import Counter

from ghillie.fairness.stream import StreamDice, roll_context, roll_key

# Upper 0.1% points of chi-square by degrees of freedom: NIST/SEMATECH e-Handbook of
# Statistical Methods, §1.3.6.7.4 (https://www.itl.nist.gov/div898/handbook/eda/section3/eda3674.htm).
CRITICAL_0_1_PERCENT = {
    3: 16.266,
    5: 20.515,
    7: 24.322,
    9: 27.877,
    10: 29.588,
    11: 31.264,
    19: 43.820,
}
DICE = (4, 6, 8, 10, 12, 20)


def p_value(statistic: float, df: int) -> float:
    """P(chi-square with ``df`` degrees of freedom >= statistic), by the series for the
    lower regularised gamma function (fine for the statistics printed here)."""
    a, x = df / 2, statistic / 2
    if x <= 0:
        return 1.0
    term = total = 1 / a
    n = 0
    while term > total * 1e-15:
        n += 1
        term *= x / (a + n)
        total += term
    lower = math.exp(a * math.log(x) - x - math.lgamma(a)) * total
    return max(0.0, 1.0 - lower)


def streams(rng: random.Random, count: int, per_key: int, label: str) -> list[StreamDice]:
    """Fresh StreamDice, one per ``per_key`` rolls, each under its own three-party key."""
    out = []
    for k in range(-(-count // per_key)):
        key = roll_key([rng.randbytes(32) for _ in range(3)])
        out.append(StreamDice(key, roll_context(label, k)))
    return out


def chi_square(counts: Counter[int], expected: dict[int, float]) -> float:
    return sum((counts[v] - e) ** 2 / e for v, e in expected.items())


def report(name: str, n: int, seconds: float, statistic: float, df: int, unit: str) -> bool:
    critical = CRITICAL_0_1_PERCENT[df]
    passed = statistic < critical
    print(
        f"{name:>4}  {n:>9,} {unit:5} {n / seconds:>11,.0f} {unit}/s   chi2 {statistic:7.2f}"
        f"  df {df:2}  p {p_value(statistic, df):6.3f}  crit(0.1%) {critical:6.2f}  "
        f"{'pass' if passed else 'FAIL'}"
    )
    return passed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=10**6, help="rolls per die (and 2d6 pairs)")
    parser.add_argument("--per-key", type=int, default=1000, help="rolls per roll key")
    parser.add_argument("--seed", type=int, default=None, help="repeat an earlier run")
    args = parser.parse_args()
    seed = secrets.randbits(64) if args.seed is None else args.seed
    rng = random.Random(seed)
    print(f"seed {seed}, {args.rolls:,} rolls per die, a new roll key every {args.per_key:,}")
    all_passed = True
    total_rolls, total_seconds = 0, 0.0
    for faces in DICE:
        dice = streams(rng, args.rolls, args.per_key, f"bench-d{faces}")
        rolls: list[int] = []
        start = time.perf_counter()  # key derivation was outside; it is timed below
        left = args.rolls
        for d in dice:
            take = min(args.per_key, left)
            rolls.extend(d.roll(faces) for _ in range(take))
            left -= take
        seconds = time.perf_counter() - start
        total_rolls, total_seconds = total_rolls + args.rolls, total_seconds + seconds
        counts = Counter(rolls)
        statistic = chi_square(counts, dict.fromkeys(range(1, faces + 1), args.rolls / faces))
        all_passed &= report(f"d{faces}", args.rolls, seconds, statistic, faces - 1, "rolls")
    exact = Counter(a + b for a, b in itertools.product(range(1, 7), repeat=2))
    dice = streams(rng, args.rolls, args.per_key, "bench-2d6")
    sums: list[int] = []
    start = time.perf_counter()
    left = args.rolls
    for d in dice:
        take = min(args.per_key, left)
        sums.extend(d.roll(6) + d.roll(6) for _ in range(take))
        left -= take
    seconds = time.perf_counter() - start
    statistic = chi_square(Counter(sums), {s: args.rolls * c / 36 for s, c in exact.items()})
    all_passed &= report("2d6", args.rolls, seconds, statistic, len(exact) - 1, "pairs")
    # Key derivation: one SHA-256 over three contributions, plus a new stream.
    start = time.perf_counter()
    keys = 20_000
    for k in range(keys):
        StreamDice(roll_key([bytes(32), bytes(32), k.to_bytes(32, "big")]), roll_context("g", k))
    key_seconds = time.perf_counter() - start
    print(
        f"all dice: {total_rolls / total_seconds:,.0f} rolls/s; "
        f"a roll key and its stream: {key_seconds / keys * 1e6:.1f} µs"
    )
    print("all pass" if all_passed else "SOME DIE FAILED at the 0.1% level")
    raise SystemExit(0 if all_passed else 1)


if __name__ == "__main__":
    main()
