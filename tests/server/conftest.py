"""Fixtures of the tests that run several real ``ghillie serve`` processes on one
PostgreSQL database."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from .test_durability import Server, free_port


@pytest.fixture
def postgres_url() -> str:
    found = os.environ.get("GHILLIE_TEST_POSTGRES")
    if not found:
        pytest.fail("GHILLIE_TEST_POSTGRES is not set: run the tests with scripts/test")
    return found


@pytest.fixture
def two_servers(postgres_url: str) -> Iterator[tuple[Server, Server]]:
    """Two processes on the test's PostgreSQL database, started."""
    a, b = Server(postgres_url, free_port()), Server(postgres_url, free_port())  # type: ignore[arg-type]
    a.start()
    b.start()
    yield a, b
    a.kill()
    b.kill()
