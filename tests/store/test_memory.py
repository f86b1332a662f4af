"""The in-memory store keeps the storage contract."""

from __future__ import annotations

import pytest

from ghillie.store import EventStore, MemoryStore

from .contract import StoreContract


class TestMemoryStore(StoreContract):
    @pytest.fixture
    def store(self) -> EventStore:
        return MemoryStore()
