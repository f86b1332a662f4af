"""The server's pauses in a window, from ``benchmarks/probe/sitecustomize.py``'s log: what a
benchmark prints to say why its tail is slow (garbage collections, and the event loop's
longest stalls, whatever their cause)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

PROBE = Path(__file__).resolve().parent / "probe"
LONGEST = 5  # the loop's longest stalls printed


@contextlib.contextmanager
def probed(log: Path, threshold: str = "", freeze: float = 0.0) -> Iterator[None]:
    """Within: processes started get the probe (on ``PYTHONPATH``) writing to ``log``, and
    ``threshold`` / ``freeze`` (``GHILLIE_PROBE_GC``, ``GHILLIE_PROBE_FREEZE``) if given.
    The environment is restored after, so that processes started later do not probe."""
    before = dict(os.environ)
    path = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = f"{PROBE}{os.pathsep}{path}" if path else str(PROBE)
    os.environ["GHILLIE_PROBE_LOG"] = str(log)
    if threshold:
        os.environ["GHILLIE_PROBE_GC"] = threshold
    if freeze:
        os.environ["GHILLIE_PROBE_FREEZE"] = str(freeze)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(before)


def read(log: Path, start: float, end: float) -> tuple[dict[int, list[float]], list[float]]:
    """The collections' pauses by generation, and the loop's lags, that ended in the window."""
    collections: dict[int, list[float]] = {0: [], 1: [], 2: []}
    lags: list[float] = []
    with contextlib.suppress(FileNotFoundError), log.open() as lines:
        for line in lines:
            kind, *fields = line.split()
            if len(fields) < 2 or not start <= float(fields[-2]) < end:
                continue  # outside the window, or a line cut short
            if kind == "g":
                collections[int(fields[0])].append(float(fields[-1]))
            else:
                lags.append(float(fields[-1]))
    return collections, lags


def described(log: Path, start: float, end: float, who: str = "server") -> str:
    collections, lags = read(log, start, end)
    seconds = end - start
    each = "; ".join(
        f"gen {g} {len(p):,} ({sum(p) * 1000:,.0f} ms, max {max(p, default=0) * 1000:.0f} ms)"
        for g, p in collections.items()
    )
    paused = sum(sum(p) for p in collections.values())
    longest = ", ".join(f"{lag * 1000:.0f}" for lag in sorted(lags, reverse=True)[:LONGEST])
    return (
        f"  {who} pauses in the window: garbage collections {each}, together "
        f"{paused / seconds:.1%} of the time; the event loop late to its timer by over 10 ms "
        f"{len(lags):,} times ({sum(lags) * 1000:,.0f} ms), longest {longest or '-'} ms"
    )
