"""Opaque piece ids: random, so that an id never says what it names (never "squad-3")."""

from __future__ import annotations

import random
import secrets
from typing import Protocol


class IdSource(Protocol):
    def new_id(self) -> str:
        """A fresh 128-bit id as 32 hex digits."""
        ...


class RandomIds:
    def new_id(self) -> str:
        return secrets.token_hex(16)


class SeededIds:
    """Reproducible ids for tests, demos and golden transcripts."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(f"ids:{seed}")

    def new_id(self) -> str:
        return f"{self._random.getrandbits(128):032x}"
