"""boardgame.io, the floor and ghillie, interleaved in one run, one server process each.

    .venv/bin/python benchmarks/side_by_side.py [--rounds 2] [--seconds 15] [--games 200]
        [--bgio DIR] [--only NAME ...]

Every round runs, in turn: boardgame.io 0.50.2 in memory, "alt" (strict alternation, one
move in flight per match: ``../shared/bench/bgio/bench.js``, its own load generator and the
official client), the floor (``benchmarks/floor_server.py``: the bare stack, no rules, views
or proofs) and ghillie (``ghillie serve``, SQLite, durable), the last two driven by
``load.py --mix end_phase``'s lean clients. For each it prints commands/s, the time from a
command to both sides updated (p50, p99), and the CPU per command of the server process and
of the load generator; then the medians over the rounds, and each system's commands/s as a
multiple of boardgame.io's. Interleaving keeps the ratios while the shared machine's speed
drifts: compare ratios, never absolute figures across runs.

Without ``--bgio`` the peer is copied from ``../shared/bench/bgio`` to a temporary folder and
``npm install``-ed there (its README's way); ``--bgio DIR`` reuses such a folder.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREE = HERE.parent
PEER = TREE.parent / "shared" / "bench" / "bgio"


@dataclass
class Figures:
    rate: float  # commands (moves) accepted a second
    p50: float  # ms from a command to both sides updated
    p99: float
    server: float  # µs of the server process's CPU a command
    client: float  # µs of the load generator's CPU a command


def bgio(folder: Path, games: int, seconds: float) -> Figures:
    """boardgame.io "alt": its bench.js prints one JSON line with everything."""
    argv = ["node", "bench.js", "--matches", str(games), "--storage", "memory", "--mode", "alt"]
    argv += ["--driver", "client", "--duration", str(seconds), "--warmup", "3"]
    argv += ["--out", "/dev/null"]
    out = subprocess.run(
        argv, cwd=folder, capture_output=True, text=True, timeout=seconds + 200, check=True
    ).stdout
    result = json.loads([line for line in out.splitlines() if line.startswith("{")][-1])
    rate, both = result["moves_per_s"], result["latency_ms"]["both"]
    per = 1e4 / max(rate, 1)  # a percentage of a core over a second, in µs a move
    return Figures(
        rate, both["p50"], both["p99"], result["server_cpu_pct"] * per,
        result["loadgen_cpu_pct"] * per,
    )  # fmt: skip


COST = re.compile(r"server process\(es\) ([\d,]+) µs, load generator ([\d,]+) µs")
LAST = re.compile(r"([\d,]+) commands/s accepted.*p50 ([\d.]+) ms, p99 ([\d.]+) ms")


def load(games: int, seconds: float, *options: str) -> Figures:
    """``benchmarks/load.py --cpu`` with ``options``: its CPU line and its last line."""
    argv = [sys.executable, str(HERE / "load.py"), "--games", str(games)]
    argv += ["--seconds", str(seconds), "--cpu", *options]
    # The server load.py starts imports this tree's ghillie, whichever the venv names.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TREE / "src"), str(TREE)])}
    out = subprocess.run(
        argv, env=env, capture_output=True, text=True, timeout=seconds + 300, check=True
    ).stdout
    cost, last = COST.search(out), LAST.search(out.strip().splitlines()[-1])
    if cost is None or last is None:
        raise RuntimeError(f"load.py printed no figures:\n{out}")
    rate, p50, p99, server, client = (
        float(text.replace(",", "")) for text in (*last.groups(), *cost.groups())
    )
    return Figures(rate, p50, p99, server, client)


def systems(folder: Path, games: int, seconds: float) -> dict[str, Callable[[], Figures]]:
    """Each system's run, by its name, in the order a round runs them."""
    return {
        "boardgame.io alt": lambda: bgio(folder, games, seconds),
        "floor": lambda: load(games, seconds, "--server", "floor"),
        "ghillie": lambda: load(games, seconds, "--server", "ghillie"),
        # ghillie on two processes, each game owned by one (issue 28, the owners branch):
        # its load.py options go here, e.g. "ghillie ×2": lambda: load(games, seconds,
        # "--processes", "2", ...).
    }


def installed_peer() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="bgio-"))
    shutil.copytree(PEER, folder, dirs_exist_ok=True)
    subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund"], cwd=folder, check=True, capture_output=True
    )
    return folder


def line(name: str, f: Figures) -> str:
    return (
        f"{name:>18}: {f.rate:7,.0f} commands/s, p50 {f.p50:6.1f} ms, p99 {f.p99:6.1f} ms; "
        f"CPU a command: server {f.server:5,.0f} µs, load generator {f.client:4,.0f} µs"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bgio", type=Path, help="a copy of the peer, npm-installed")
    parser.add_argument("--only", nargs="+", help="these systems only, by name")
    args = parser.parse_args()
    folder = args.bgio or installed_peer()
    runs = systems(folder, args.games, args.seconds)
    names = [n for n in runs if not args.only or n in args.only]
    measured: dict[str, list[Figures]] = {name: [] for name in names}
    for r in range(1, args.rounds + 1):
        for name in names:
            measured[name].append(runs[name]())
            print(f"round {r} {line(name, measured[name][-1])}", flush=True)
    print(f"medians of {args.rounds} interleaved rounds, {args.games} games, {args.seconds:g} s:")
    medians = {
        name: Figures(*(statistics.median(getattr(f, k) for f in runs_) for k in vars(runs_[0])))
        for name, runs_ in measured.items()
    }
    peer = medians.get("boardgame.io alt")
    for name, f in medians.items():
        times = f" = {f.rate / peer.rate:.2f}× boardgame.io alt" if peer else ""
        print(f"{line(name, f)}{times}", flush=True)


if __name__ == "__main__":
    main()
