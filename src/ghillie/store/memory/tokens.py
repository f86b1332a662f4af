"""The games' capability tokens, in memory: (game, token hash) → observer."""

from __future__ import annotations

from collections.abc import Mapping


class MemoryTokens:
    def __init__(self) -> None:
        self._tokens: dict[tuple[str, str], str] = {}

    def add(self, game_id: str, token_hashes: Mapping[str, str]) -> None:
        for token_hash, observer in token_hashes.items():
            self._tokens[(game_id, token_hash)] = observer

    def observer_for(self, game_id: str, token_hash: str) -> str | None:
        return self._tokens.get((game_id, token_hash))
