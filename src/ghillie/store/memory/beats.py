"""The host's last sign of life in each game a timed window runs in, in memory."""

from __future__ import annotations

import threading
from collections.abc import Sequence


class MemoryBeats:
    def __init__(self, lock: threading.Lock) -> None:
        self._lock = lock
        self._beats: dict[str, str] = {}  # game -> the host's last sign of life (beat)

    def beat(self, game_ids: Sequence[str], at: str) -> None:
        with self._lock:
            self._beats.update(dict.fromkeys(game_ids, at))

    def beats(self, game_ids: Sequence[str]) -> dict[str, str]:
        with self._lock:
            return {g: self._beats[g] for g in game_ids if g in self._beats}
