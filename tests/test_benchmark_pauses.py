"""The probe ``benchmarks/pace.py`` starts its server with (benchmarks/probe, read by
benchmarks/pauses.py) reports the garbage collections and event-loop stalls of a process it
did not change, and only those of the window asked about; processes started after are not
probed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "benchmarks")]
import pauses  # noqa: E402  (benchmarks/ is no package)

# A process as the server is: its loop made by uvloop.new_event_loop (as uvicorn makes it),
# one callback holding it for 0.3 s, and two full collections.
BUSY = """
import gc, time, uvloop
gc.collect(); gc.collect()
loop = uvloop.new_event_loop()
loop.call_later(0.1, time.sleep, 0.3)
loop.call_later(0.6, loop.stop)
loop.run_forever()
print(gc.get_threshold())
"""


def test_a_process_started_probed_reports_its_pauses(tmp_path: Path) -> None:
    log = tmp_path / "pauses.log"
    began = time.monotonic()
    with pauses.probed(log, threshold="12345,6,7"):
        out = subprocess.run(
            [sys.executable, "-c", BUSY], check=True, capture_output=True, text=True
        ).stdout
    assert "GHILLIE_PROBE_LOG" not in os.environ  # the processes started after: not probed
    assert out.strip() == "(12345, 6, 7)"  # the threshold asked for, set once the loop ran
    collections, lags = pauses.read(log, began, time.monotonic())
    assert len(collections[2]) >= 2
    assert max(lags) >= 0.2  # the callback that held the loop (its timer asked before it)
    assert pauses.read(log, 0.0, began) == ({0: [], 1: [], 2: []}, [])
    text = pauses.described(log, began, time.monotonic())
    assert "gen 2 " in text
    assert f"longest {max(lags) * 1000:.0f}" in text  # the longest stall first
