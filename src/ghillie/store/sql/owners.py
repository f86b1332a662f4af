"""Which server process rules each game, on a PostgreSQL database several processes share.

``processes`` holds one row per running server: its id (new at every start), the internal
address the others relay to it at, and its last beat. ``owners`` holds one row per game
that a process has claimed. A claim is one conditional upsert: it succeeds when the game
has no owner, when its owner is the claimer, or when its owner's beat is older than the
lease (``stale`` seconds) — so a live owner's games are never taken from it, and a dead
one's are taken by the first process that asks. Every time is the database's own
(``now()``): the processes' clocks need not agree.

PostgreSQL only (``ON CONFLICT … WHERE``, ``make_interval``): one process serves a SQLite
file, and owns everything in it. The tables are made on SQLite too (one metadata for all
tables), and stay empty there.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Column, DateTime, String, Table, text

from ghillie.store.sql.database import Database, metadata

# No foreign key to the games: an owner row is a lease, and must never block or fail a
# game's own writes.
processes = Table(
    "processes",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("address", String(300), nullable=False),
    Column("beat_at", DateTime(timezone=True), nullable=False),
)
owners = Table(
    "owners",
    metadata,
    Column("game_id", String(64), primary_key=True),
    Column("process", String(32), nullable=False),
)

_FRESH = "p.beat_at >= now() - make_interval(secs => CAST(:stale AS float8))"

# The claim and the answer in one statement: the claimer's own id if it owns the game now,
# else the live owner and its address. An unknown game is never claimed (no row for ids
# nobody was given), and answers nothing.
_CLAIM = text(
    f"""
    WITH asked AS (SELECT CAST(:game AS varchar) AS game, CAST(:me AS varchar) AS me),
    claimed AS (
        INSERT INTO owners AS o (game_id, process)
        SELECT game, me FROM asked WHERE EXISTS (
            SELECT 1 FROM games g, asked WHERE g.game_id = asked.game)
        ON CONFLICT (game_id) DO UPDATE SET process = EXCLUDED.process
        WHERE o.process = EXCLUDED.process OR NOT EXISTS (
            SELECT 1 FROM processes p WHERE p.id = o.process AND {_FRESH})
        RETURNING o.process
    )
    SELECT process, NULL AS address FROM claimed
    UNION ALL
    SELECT o.process, p.address FROM owners o JOIN processes p ON p.id = o.process, asked
    WHERE o.game_id = asked.game AND NOT EXISTS (SELECT 1 FROM claimed)
    """
)


class SqlOwners:
    def __init__(self, db: Database) -> None:
        self.db = db

    def enter(self, me: str, address: str) -> None:
        """This process starts: its lease, beating from now."""
        with self.db.writing() as conn:
            conn.execute(
                text("INSERT INTO processes (id, address, beat_at) VALUES (:me, :address, now())"),
                {"me": me, "address": address},
            )

    def beat(self, me: str, address: str) -> bool:
        """Renew this process's lease; False if its row was gone (others found it dead and
        buried it: it is entered again, and must find out which games it still owns)."""
        with self.db.writing() as conn:
            found = conn.execute(
                text("UPDATE processes SET beat_at = now() WHERE id = :me"), {"me": me}
            ).rowcount
            if not found:
                conn.execute(
                    text("INSERT INTO processes (id, address, beat_at) VALUES (:me, :a, now())"),
                    {"me": me, "a": address},
                )
        return bool(found)

    def leave(self, me: str) -> None:
        """This process stops: its games may be claimed at once."""
        with self.db.writing() as conn:
            conn.execute(text("DELETE FROM processes WHERE id = :me"), {"me": me})

    def claim(self, game_id: str, me: str, stale: float) -> tuple[str, str | None] | None:
        """Claim a game (see the module): (``me``, None) if this process owns it now,
        (owner, its address) if a live process does, None for an unknown game."""
        with self.db.writing() as conn:
            row = conn.execute(_CLAIM, {"game": game_id, "me": me, "stale": stale}).first()
        return None if row is None else (row.process, row.address)

    def dead(self, stale: float) -> list[str]:
        """The processes whose beat is older than the lease."""
        with self.db.engine.connect() as conn:
            query = text(f"SELECT p.id FROM processes p WHERE NOT ({_FRESH})")
            return [row.id for row in conn.execute(query, {"stale": stale})]

    def owned_by(self, ids: Sequence[str]) -> set[str]:
        """The games these processes own."""
        if not ids:
            return set()
        with self.db.engine.connect() as conn:
            query = text("SELECT game_id FROM owners WHERE process = ANY(:ids)")
            return {row.game_id for row in conn.execute(query, {"ids": list(ids)})}

    def bury(self, ids: Sequence[str], stale: float) -> None:
        """Forget dead processes (unless one beat meanwhile): their games have no owner."""
        with self.db.writing() as conn:
            conn.execute(
                text(f"DELETE FROM processes p WHERE p.id = ANY(:ids) AND NOT ({_FRESH})"),
                {"ids": list(ids), "stale": stale},
            )
