"""Limits on what a stranger can make the server do: how fast games may be created (per
client address and overall), how many games stay in memory, how large a scenario may be.

Anyone who can reach the server may create a game, and each one costs memory while it is
live and CPU to set up (a host-held game: ~0.4 MB and ~50 ms of hashing). Creation is
therefore metered by token buckets — one per client address and one for the whole server —
checked before the request's body is even read, so a refused flood costs almost nothing.
A refusal is a 429 problem document with a ``Retry-After`` header.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field
from pydantic.fields import FieldInfo
from starlette.types import ASGIApp, Receive, Scope, Send

from ghillie.server.problems import TOO_MANY, Problem, send_problem


class Limits(BaseModel):
    """Every limit ``ghillie serve`` enforces: each but the sweep's period is the flag of the
    same name (``--create-burst``, …), its description the flag's help (``cli/serve.py``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # Game creation: a burst, then a steady rate (games per minute), per client address...
    create_burst: int = Field(20, description="Games one client address may create at once...")
    create_per_minute: float = Field(20.0, description="...and per minute after that.")
    # ...and for the whole server, so that many addresses together are bounded too.
    create_burst_all: int = Field(
        60, description="Games all clients together may create at once..."
    )
    create_per_minute_all: float = Field(120.0, description="...and per minute after that.")
    # Live games kept in memory: the least recently used idle ones (nobody watching, no
    # roll waiting) beyond ``max_games``, and any idle one after ``idle_seconds`` unused, are
    # dropped. A dropped game reloads from the database on its next request.
    max_games: int = Field(
        500, description="Games kept in memory; idle ones beyond it reload when asked."
    )
    idle_seconds: float = Field(
        300.0, description="Seconds unused after which an idle game leaves memory."
    )
    sweep_seconds: float = 30.0  # how often idle games are looked for: no flag
    # A scenario in a request: bundled ones are 2–20 KB.
    max_scenario: int = Field(
        256 * 1024, description="Bytes a game creation request (its scenario) may have."
    )
    # Slow clients: a request's headers must arrive within this many seconds of its first
    # byte (or of the connection), its body within ``body_seconds`` of its headers.
    header_seconds: float = Field(
        10.0, description="Seconds a client has to send a request's headers."
    )
    body_seconds: float = Field(
        30.0, description="Seconds a client then has to send the request's body."
    )
    # Connections and requests in progress at once; beyond it uvicorn answers 503.
    max_connections: int = Field(1000, description="Connections and requests at once; beyond, 503.")

    @classmethod
    def flags(cls) -> dict[str, FieldInfo]:
        """The limits ``ghillie serve`` takes as flags: those with a description."""
        return {n: f for n, f in cls.model_fields.items() if f.description is not None}


class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` per second; a request takes one."""

    def __init__(self, burst: int, rate: float, now: float) -> None:
        self.burst, self.rate = float(burst), rate
        self.tokens, self.at = float(burst), now

    def _refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def wait(self, now: float) -> float:
        """Seconds until a token is there (0 if one is there now)."""
        self._refill(now)
        if self.tokens >= 1:
            return 0.0
        return math.inf if self.rate <= 0 else (1 - self.tokens) / self.rate

    def take(self) -> None:
        self.tokens -= 1


class CreationMeter:
    """The per-address buckets and the global one. Addresses are kept for the most recent
    ``max_addresses`` only (a forgotten address starts full again: the global bucket still
    bounds everyone together). IPv6 clients are counted by their /64, which one host
    usually holds whole."""

    def __init__(
        self,
        limits: Limits,
        clock: Callable[[], float] = time.monotonic,
        max_addresses: int = 10_000,
    ) -> None:
        self.limits, self.clock, self.max_addresses = limits, clock, max_addresses
        self.everyone = TokenBucket(limits.create_burst_all, limits.create_per_minute_all / 60, 0)
        self.everyone.at = clock()
        self.by_address: OrderedDict[str, TokenBucket] = OrderedDict()

    def admit(self, address: str) -> float:
        """0 if a game may be created now from ``address`` (taking a token from both
        buckets), else the seconds to wait (taking nothing)."""
        now = self.clock()
        key = _client_key(address)
        bucket = self.by_address.get(key)
        if bucket is None:
            bucket = TokenBucket(self.limits.create_burst, self.limits.create_per_minute / 60, now)
            self.by_address[key] = bucket
            while len(self.by_address) > self.max_addresses:
                self.by_address.popitem(last=False)
        self.by_address.move_to_end(key)
        wait = max(bucket.wait(now), self.everyone.wait(now))
        if wait == 0:
            bucket.take()
            self.everyone.take()
        return wait


def _client_key(address: str) -> str:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address  # a test client's name, a unix socket: as it is
    if ip.version == 6:
        mapped = ip.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class CreationLimit:
    """Meter ``POST /api/games`` before anything else happens to the request."""

    def __init__(self, app: ASGIApp, meter: CreationMeter) -> None:
        self.app, self.meter = app, meter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == "/api/games":
            client = scope.get("client")
            wait = self.meter.admit(client[0] if client else "")
            if wait > 0:
                await _too_many(send, wait)
                return
        await self.app(scope, receive, send)


async def _too_many(send: Send, wait: float) -> None:
    problem = Problem(TOO_MANY, "Too many games were created; try again later.")
    retry = str(max(1, math.ceil(min(wait, 24 * 3600)))).encode()
    await send_problem(send, problem, (b"retry-after", retry))
