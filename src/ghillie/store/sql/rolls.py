"""Roll requests the sides' pages were asked to answer: a row keyed by (game, k) until the
event that resolves it is written, which deletes it in the same transaction. The key is what
makes two processes agree on one request per roll."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import Column, ForeignKey, Integer, String, Table, Text, func, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ghillie.store.base import Append, Conflict, StoredRoll, UnknownGame, roll_body, roll_from
from ghillie.store.sql.database import Database, dumps, metadata
from ghillie.store.sql.events import exists, last_seq

# Created by create_all like every table, so a database made before this table existed gains
# it when it is next opened.
rolls = Table(
    "pending_rolls",
    metadata,
    Column("game_id", String(64), ForeignKey("games.game_id"), primary_key=True),
    Column("k", Integer, primary_key=True, autoincrement=False),
    Column("body", Text, nullable=False),  # side, command id, command, signed request
    Column("elements", Text, nullable=False),  # party -> hex element, as the pages gave them
)


class SqlRolls:
    def __init__(self, db: Database) -> None:
        self.db = db
        mark = db.mark
        self._delete_roll = f"DELETE FROM pending_rolls WHERE game_id = {mark} AND k = {mark}"
        self._insert_roll = (
            f"INSERT INTO pending_rolls (game_id, k, body, elements) VALUES ({mark}, {mark}, "
            f"{mark}, {mark})"
        )
        self._set_elements = (
            f"UPDATE pending_rolls SET elements = {mark} WHERE game_id = {mark} AND k = {mark}"
        )
        self._read_roll = (
            f"SELECT body, elements FROM pending_rolls WHERE game_id = {mark} AND k = {mark}"
        )
        # FOR UPDATE is PostgreSQL's; SQLite has none (its BEGIN IMMEDIATE serialises writers).
        self._lock_roll = self._read_roll + ("" if db.sqlite else " FOR UPDATE")

    def claim_roll(self, game_id: str, roll: StoredRoll) -> StoredRoll:
        """Insert first, then look at the log: under PostgreSQL's READ COMMITTED, an insert
        that waited for another transaction deleting the row (the event that resolved it)
        goes through once that commits, and only a statement after it sees that event. So
        the check must come after the insert, or a process that is behind could claim
        again a roll that was just resolved."""
        with self.db.writing() as conn:
            try:
                with conn.begin_nested():
                    conn.exec_driver_sql(
                        self._insert_roll,
                        (game_id, roll.k, dumps(roll_body(roll)), dumps(dict(roll.elements))),
                    )
            except IntegrityError:
                pass  # claimed already (or no such game: told apart below)
            if not exists(conn, game_id):
                raise UnknownGame(game_id)
            last = last_seq(conn, game_id)
            if last >= roll.k:
                raise Conflict(f"game {game_id} already has event {roll.k}")  # rolls back
            if last < roll.k - 1:
                raise ValueError("a roll request follows the game's last event")
            found = self._roll(conn, game_id, roll.k, lock=False)
        if found is None:
            # The claim found another's row, which the event resolving it then deleted
            # (committed after the look at the log above): the caller is behind.
            raise Conflict(f"game {game_id} resolved roll {roll.k} meanwhile")
        return found

    def pending_roll(self, game_id: str) -> StoredRoll | None:
        with self.db.engine.connect() as conn:
            if not exists(conn, game_id):
                raise UnknownGame(game_id)
            latest = conn.execute(
                select(func.max(rolls.c.k)).where(rolls.c.game_id == game_id)
            ).scalar()
            return None if latest is None else self._roll(conn, game_id, int(latest), lock=False)

    def add_element(self, game_id: str, k: int, party: str, element: str) -> StoredRoll | None:
        with self.db.writing() as conn:
            if not exists(conn, game_id):
                raise UnknownGame(game_id)
            # FOR UPDATE (PostgreSQL): two processes adding elements at once must not lose
            # one another's. SQLite's BEGIN IMMEDIATE already serialises writers.
            found = self._roll(conn, game_id, k, lock=True)
            if found is None or party in found.elements:
                return found
            elements = {**found.elements, party: element}
            conn.exec_driver_sql(self._set_elements, (dumps(elements), game_id, k))
            return roll_from(k, roll_body(found), elements)

    def _roll(self, conn: Connection, game_id: str, k: int, *, lock: bool) -> StoredRoll | None:
        query = self._lock_roll if lock else self._read_roll
        row = conn.exec_driver_sql(query, (game_id, k)).first()
        if row is None:
            return None
        return roll_from(k, json.loads(row[0]), json.loads(row[1]))

    def resolve(self, conn: Connection, batch: Sequence[Append]) -> None:
        """Clear the requests the batch's events resolve, in the batch's transaction."""
        resolved = [(item.game_id, item.events[0].seq) for item in batch if item.resolves]
        if resolved:
            conn.exec_driver_sql(self._delete_roll, resolved)

    def waiting(self, conn: Connection) -> set[str]:
        """The games a roll request waits in."""
        return {row[0] for row in conn.execute(select(rolls.c.game_id).distinct())}
