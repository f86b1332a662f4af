"""Event stores: append-only logs of events keyed by (game id, seq)."""

from ghillie.store.base import Answer, Append, Conflict, EventStore, StoredRoll, UnknownGame
from ghillie.store.memory import MemoryStore

__all__ = ["Answer", "Append", "Conflict", "EventStore", "MemoryStore", "StoredRoll", "UnknownGame"]
