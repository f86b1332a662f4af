"""What the trust model costs an event, per bundled scenario: python benchmarks/floor.py.

Every event is asked for (a request: a salted commitment and, when pages answer, a
signature), sealed (each side's roster root, the openings the rules call for, the hash of the
log and each side's digest of what it was shown) and signed. This plays a random game of
every bundled scenario through the library (every chain host-held, as ``benchmarks/load.py``'s
games are) and times, for each event, the ledger's own work: ``Ledger.request`` and
``Ledger.seal``, the rules' ruling left out. It prints, per scenario, the median and p90 of
the work that runs **on the server's event loop** — the host's signature of the head is made
together with the event's hash and the sides' digests, on the writer thread since protocol 4
(ghillie.server.committer), so that is shown apart —
for the events that open nothing and write no secret (most of a game) and for all events,
with the cost of one signature and one verification beside them.

    .venv/bin/python benchmarks/floor.py [--steps N] [--seed S]

Run it against another checkout to compare (``PYTHONPATH=that/src``): at protocol 3 the
three signatures of an event were made on the loop, inside ``seal``, and are counted there.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import time
import timeit
from collections.abc import Callable
from typing import Any

from ghillie import Game, examples
from ghillie.errors import Refusal
from ghillie.fairness import hashlog, ledger
from ghillie.state import Phase

TARGET_LOOP_US = 30  # issue 24: on the loop, for an event that opens nothing, writes nothing


def micro(call: Callable[[], object], number: int) -> float:
    """Microseconds a call, the best of five runs (the least disturbed by other work)."""
    return min(timeit.repeat(call, number=number, repeat=5)) / number * 1e6


class Timed:
    """Times the ledger's request and seal (and the host's signatures made inside them)."""

    def __init__(self) -> None:
        self.request = 0.0
        self.seal = 0.0
        self.sign = 0.0
        self.rows: list[tuple[bool, float, float]] = []  # (plain, on the loop, signing)

    def wrap(self) -> contextlib.ExitStack:
        stack = contextlib.ExitStack()
        for owner, name, slot in (
            (ledger.Ledger, "request", "request"),
            (ledger.Ledger, "seal", "seal"),
            # Since protocol 4 the writer thread hashes, digests and signs each event.
            *([(ledger.Ledger, "finish", "sign")] if hasattr(ledger.Ledger, "finish") else []),
            *([] if hasattr(ledger.Ledger, "finish") else [(hashlog.HostKey, "sign", "sign")]),
        ):
            stack.enter_context(self._patched(owner, name, slot))
        return stack

    @contextlib.contextmanager
    def _patched(self, owner: Any, name: str, slot: str) -> Any:
        original = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                setattr(self, slot, getattr(self, slot) + time.perf_counter() - started)

        setattr(owner, name, timed)
        try:
            yield
        finally:
            setattr(owner, name, original)

    def event(self, plain: bool) -> None:
        # The library finishes (hashes and signs) inside seal; the server does it on its
        # writer thread since protocol 4. Before, the three signatures were the loop's.
        off_loop = self.sign if ledger.VERSION >= 4 else 0.0
        loop = self.request + self.seal - off_loop
        self.rows.append((plain, loop * 1e6, self.sign * 1e6))
        self.request = self.seal = self.sign = 0.0


def plain(event: Any) -> bool:
    """Does the event open nothing and write no secret fact?"""
    fair = event.fair or {}
    return not fair.get("openings") and not fair["private"]["facts"]


def play(scenario: str, steps: int, seed: int, timed: Timed) -> None:
    game = Game.create(examples.load(scenario), seed=seed)
    ruleset = game.state.ruleset
    rng = random.Random(seed)
    tries = 0
    while game.state.seq < steps and tries < steps * 20 and game.state.phase is not Phase.OVER:
        tries += 1
        side = rng.choice(game.state.sides)
        options = [c for c in ruleset.candidates(game.state, side) if c.get("type") != "end_game"]
        if not options:
            continue
        timed.request = timed.seal = timed.sign = 0.0
        try:
            event = game.command(side, rng.choice(options))
        except Refusal:
            continue
        timed.event(plain(event))


def best(scenario: str, steps: int, seed: int, repeat: int) -> Timed:
    """The game played ``repeat`` times: each event's least time on the loop and off it."""
    runs = []
    for _ in range(repeat):
        timed = Timed()
        with timed.wrap():
            play(scenario, steps, seed, timed)
        runs.append(timed.rows)
    if any(len(rows) != len(runs[0]) for rows in runs):
        raise SystemExit(f"{scenario}: the same seed played a different game")
    out = Timed()
    out.rows = [
        (rows[0][0], min(r[1] for r in rows), min(r[2] for r in rows))
        for rows in zip(*runs, strict=True)
    ]
    return out


def quantiles(values: list[float]) -> str:
    if not values:
        return "       —"
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    return f"{statistics.median(values):7.1f} / {p90:7.1f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    # Each game is played this many times, the same way (one seed): each event's figure is
    # its best, the least disturbed by whatever else the machine was doing.
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    key = hashlog.HostKey.generate()
    message = os.urandom(120)
    signature = key.sign(message)
    print(f"protocol {ledger.VERSION}")
    print(f"one Ed25519 signature      {micro(lambda: key.sign(message), 2000):7.1f} µs")
    check = micro(lambda: hashlog.verify(key.public, message, signature), 2000)
    print(f"one Ed25519 verification   {check:7.1f} µs")
    print()
    print(
        f"{'scenario':24} {'events':>6}  {'plain: on the loop':>20}  {'all: on the loop':>18}  "
        f"{'finish, off it':>16}   (median / p90, µs an event)"
    )
    worst = 0.0
    for scenario in examples.names():
        timed = best(scenario, args.steps, args.seed, args.repeat)
        loop_plain = [loop for is_plain, loop, _ in timed.rows if is_plain]
        loop_all = [loop for _, loop, _ in timed.rows]
        signing = [sign for _, _, sign in timed.rows]
        if loop_plain:
            worst = max(worst, statistics.median(loop_plain))
        print(
            f"{scenario:24} {len(timed.rows):6}  {quantiles(loop_plain):>20}  "
            f"{quantiles(loop_all):>18}  {quantiles(signing):>16}"
        )
    verdict = "met" if worst <= TARGET_LOOP_US else "NOT met"
    print()
    print(
        f"target: at most {TARGET_LOOP_US} µs on the loop for an event that opens nothing and "
        f"writes nothing (the largest median above: {worst:.1f} µs): {verdict}"
    )


if __name__ == "__main__":
    main()
