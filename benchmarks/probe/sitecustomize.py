"""Why a server's tail is slow, measured from inside it without changing it: put this folder
on a server's ``PYTHONPATH`` with ``GHILLIE_PROBE_LOG=<path>`` (``benchmarks/pace.py`` does,
for the server it starts; nothing in ghillie imports it) and Python runs it at start-up.

It appends a line to the log for every garbage collection, ``g <generation> <end> <pause>``,
and for every stretch the event loop did not get back to its timers, ``l <end> <lag>`` when
over ``LAG`` (times in seconds, ends on the monotonic clock, which the processes of one
machine share: a reader keeps the lines of its own window). The loop's lag is a timer that
asks to be woken every ``TICK`` seconds: how late it wakes is how long the loop was busy
with something else (a callback, a collection, the GIL held by another thread).

``GHILLIE_PROBE_GC=a,b,c`` sets the collector's thresholds once the loop runs (after
``ghillie.server.run`` set its own), to compare settings without editing the server;
``GHILLIE_PROBE_FREEZE=<seconds>`` calls ``gc.freeze()`` that often, to try it.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from typing import Any

TICK = 0.05  # seconds between the lag timer's wake-ups: 20 a second, a few µs each
LAG = 0.01  # lags under this are not written (a loop turn is often a few ms)


def _install(path: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    began = [0.0]

    def collected(phase: str, info: dict[str, Any]) -> None:
        # One small write a collection (tens a second): no buffer to flush at a kill -9.
        now = time.monotonic()
        if phase == "start":
            began[0] = now
        else:
            os.write(fd, f"g {info['generation']} {now:.6f} {now - began[0]:.6f}\n".encode())

    gc.callbacks.append(collected)

    async def lagging() -> None:
        while True:
            asked = time.monotonic()
            await asyncio.sleep(TICK)
            now = time.monotonic()
            if now - asked - TICK > LAG:
                os.write(fd, f"l {now:.6f} {now - asked - TICK:.6f}\n".encode())

    def started(loop: asyncio.AbstractEventLoop) -> None:
        threshold = os.environ.get("GHILLIE_PROBE_GC")
        if threshold:
            gc.set_threshold(*(int(x) for x in threshold.split(",")))
        tasks = [loop.create_task(lagging())]
        freeze = float(os.environ.get("GHILLIE_PROBE_FREEZE") or 0)
        if freeze:
            tasks.append(loop.create_task(freezing(freeze)))
        loops.append((loop, tasks))  # the tasks kept: a loop holds its tasks only weakly

    async def freezing(every: float) -> None:
        while True:
            await asyncio.sleep(every)
            gc.freeze()

    loops: list[Any] = []
    # uvicorn makes its loop with uvloop.new_event_loop, looked up when it is called.
    import uvloop

    made = uvloop.new_event_loop

    def new_event_loop() -> asyncio.AbstractEventLoop:
        loop = made()
        loop.call_soon(started, loop)
        return loop

    uvloop.new_event_loop = new_event_loop


if os.environ.get("GHILLIE_PROBE_LOG"):
    _install(os.environ["GHILLIE_PROBE_LOG"])
