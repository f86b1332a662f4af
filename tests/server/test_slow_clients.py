"""Requests sent half way and then left open (issue 10, finding 4: "slowloris"). A real
server with one-second deadlines closes a connection that sends nothing, one that stops in
its headers, one that trickles them, and one that stops in its body, while it goes on
serving everyone else. Nothing here times the server: each socket only waits (up to a
generous 30 s) for the server to close it."""

from __future__ import annotations

import json
import socket
import sys
import time
import urllib.request
from collections.abc import Iterator
from urllib.parse import urlparse

import pytest

from .test_browser import serving

WAIT = 30.0  # far above the 1 s deadlines: a server without them never closes


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    command = [
        sys.executable,
        "-m",
        "ghillie.cli",
        "serve",
        "--header-seconds",
        "1",
        "--body-seconds",
        "1",
    ]
    with serving(tmp_path_factory.mktemp("server"), command) as base:
        yield base


def connect(base: str) -> socket.socket:
    where = urlparse(base)
    return socket.create_connection((where.hostname, where.port), timeout=WAIT)


def closed_by_server(conn: socket.socket, trickle: bytes = b"") -> bool:
    """Wait for the server to close ``conn`` (sending ``trickle`` a byte at a time meanwhile,
    if given); True if it did, False if the wait ran out with the connection still open."""
    deadline = time.monotonic() + WAIT
    conn.settimeout(0.2 if trickle else WAIT)
    sent = 0
    while time.monotonic() < deadline:
        try:
            data = conn.recv(65536)
        except TimeoutError:
            if sent < len(trickle):
                try:
                    conn.sendall(trickle[sent : sent + 1])
                except OSError:  # closed under us
                    return True
                sent += 1
            continue
        except OSError:  # reset
            return True
        if data == b"":
            return True
    return False


def healthy(base: str) -> bool:
    with urllib.request.urlopen(f"{base}/api/health", timeout=10) as answer:
        return bool(json.load(answer)["ok"])


def test_a_connection_that_sends_nothing_is_closed(server: str) -> None:
    with connect(server) as conn:
        assert healthy(server)
        assert closed_by_server(conn)


def test_a_request_that_stops_in_its_headers_is_closed(server: str) -> None:
    with connect(server) as conn:
        conn.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Half: ")
        assert healthy(server)  # the server serves others meanwhile
        assert closed_by_server(conn)


def test_headers_trickled_a_byte_at_a_time_are_cut_off(server: str) -> None:
    with connect(server) as conn:
        headers = b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 1000
        assert closed_by_server(conn, trickle=headers)
        assert healthy(server)


def test_a_request_that_stops_in_its_body_is_closed(server: str) -> None:
    with connect(server) as conn:
        conn.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n" + b'{"scenario": "'
        )
        assert healthy(server)
        assert closed_by_server(conn)


def test_a_kept_alive_connection_is_timed_per_request(server: str) -> None:
    with connect(server) as conn:
        conn.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert b" 200 " in conn.recv(65536).split(b"\r\n", 1)[0]
        conn.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # the next one stops
        assert closed_by_server(conn)
