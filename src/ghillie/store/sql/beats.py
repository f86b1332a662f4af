"""The host's last sign of life while a timed window ran in each game (EventStore.beat)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Column, String, Table, delete, insert, select

from ghillie.store.sql.database import Database, metadata

# No foreign key, as a beat is only a hint and must never fail on a game being dropped.
host_beats = Table(
    "beats",
    metadata,
    Column("game_id", String(64), primary_key=True),
    Column("at", String(40), nullable=False),
)


class SqlBeats:
    def __init__(self, db: Database) -> None:
        self.db = db

    def beat(self, game_ids: Sequence[str], at: str) -> None:
        if not game_ids:
            return
        with self.db.writing() as conn:  # a delete and an insert: the same on both databases
            conn.execute(delete(host_beats).where(host_beats.c.game_id.in_(game_ids)))
            conn.execute(insert(host_beats), [{"game_id": g, "at": at} for g in game_ids])

    def beats(self, game_ids: Sequence[str]) -> dict[str, str]:
        with self.db.engine.connect() as conn:
            query = select(host_beats).where(host_beats.c.game_id.in_(game_ids))
            rows = conn.execute(query).all()
        return {row.game_id: row.at for row in rows}
