"""Capability tokens, stored only as hashes: a leaked database row is not a working link."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import Column, String, Table, insert, select
from sqlalchemy.engine import Connection

from ghillie.store.sql.database import Database, metadata

tokens = Table(
    "tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("game_id", String(64), nullable=False, index=True),
    Column("observer", String(40), nullable=False),
)


class SqlTokens:
    def __init__(self, db: Database) -> None:
        self.db = db

    def add(self, conn: Connection, game_id: str, token_hashes: Mapping[str, str]) -> None:
        """A new game's tokens (hash → observer), in the caller's transaction."""
        for token_hash, observer in token_hashes.items():
            conn.execute(
                insert(tokens).values(token_hash=token_hash, game_id=game_id, observer=observer)
            )

    def observer_for(self, game_id: str, token_hash: str) -> str | None:
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(tokens.c.observer).where(
                    tokens.c.token_hash == token_hash, tokens.c.game_id == game_id
                )
            ).first()
        return None if row is None else str(row[0])
