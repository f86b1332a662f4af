"""Durable event stores on SQLAlchemy Core: SQLite (the embedded default) and PostgreSQL.

One part per table, sharing one engine (:mod:`.database`): the games and their logs
(:mod:`.events`), the tokens, the seats, the roll requests waiting for the pages
(:mod:`.rolls`) and the host's beats. Events are append-only rows keyed by (game id, seq). A
writer names the seq it expects to follow; a primary-key clash means another writer got there
first (:class:`Conflict`), never an interleaved log. Each command's answer is stored in the
same transaction as its events, and so is the deletion of the roll request it resolves.

SQLite runs in WAL mode with ``synchronous=FULL`` and ``BEGIN IMMEDIATE`` (a writer takes the
write lock when it begins, not when it commits); :meth:`SqlStore.check` refuses a database
that is not set up so, or that fails ``PRAGMA quick_check``. PostgreSQL must have ``fsync``
and ``synchronous_commit`` on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ghillie.events import Event
from ghillie.store.base import Append, Conflict, UnknownGame
from ghillie.store.parts import ByTable
from ghillie.store.sql.beats import SqlBeats
from ghillie.store.sql.database import Database, StoreError, database_url, metadata, now
from ghillie.store.sql.events import SqlLog, exists
from ghillie.store.sql.owners import SqlOwners
from ghillie.store.sql.rolls import SqlRolls
from ghillie.store.sql.seats import SeatChanged, SqlSeats
from ghillie.store.sql.tokens import SqlTokens

__all__ = ["SqlStore", "StoreError", "database_url", "metadata"]


class SqlStore(ByTable):
    _log: SqlLog
    _tokens: SqlTokens
    _rolls: SqlRolls
    _seats: SqlSeats
    _beats: SqlBeats

    def __init__(self, url: str) -> None:
        self.db = Database(url)
        self.url, self.sqlite, self.engine = self.db.url, self.db.sqlite, self.db.engine
        # One server process serves a SQLite file (ghillie.server.run starts no listener);
        # several may share one PostgreSQL database.
        self.shared = not self.sqlite
        self._log = SqlLog(self.db)
        self._tokens = SqlTokens(self.db)
        self._rolls = SqlRolls(self.db)
        self._seats = SqlSeats(self.db)
        self._beats = SqlBeats(self.db)
        # Which process rules each game (PostgreSQL: ghillie.server.owners).
        self.owners = SqlOwners(self.db)

    def check(self) -> dict[str, Any]:
        """Refuse a database that would not keep what it acknowledges (TRUST.md R4)."""
        return self.db.check()

    def integrity(self) -> str:
        """``PRAGMA integrity_check`` on SQLite ("ok" when sound)."""
        return self.db.integrity()

    def close(self) -> None:
        self.db.close()

    # --- the writes that span tables ---------------------------------------------------------

    def create(self, game_id: str, header: Mapping[str, Any], first: Event) -> None:
        self.create_game(game_id, header, first, {})

    def create_game(
        self,
        game_id: str,
        header: Mapping[str, Any],
        first: Event | None,
        token_hashes: Mapping[str, str],
    ) -> None:
        """A game, its first event and its side tokens, in one transaction. A game whose
        sides' pages must first give their roll-chain anchors starts with no event."""
        if first is not None and first.seq != 0:
            raise ValueError("a game starts with event 0")
        try:
            with self.db.writing() as conn:
                self._log.add(conn, game_id, header, first, now())
                self._tokens.add(conn, game_id, token_hashes)
        except IntegrityError:
            raise Conflict(f"game {game_id} exists") from None

    def append(self, game_id: str, expected_seq: int, events_: Sequence[Event]) -> None:
        result = self.append_batch([Append(game_id, expected_seq, events_)])[0]
        if result is not None:
            raise result

    def append_batch(self, batch: Sequence[Append]) -> list[Exception | None]:
        """Write several commands — of any games — in one transaction (group commit). Each
        command is all or nothing: one that clashes with another writer gets a
        :class:`Conflict` and the others still commit. Returns, per command, None or why not.

        The whole batch is first written at once, a statement per table (clashes are rare:
        with one server process they never happen); only if that fails is it written again
        command by command, each in a savepoint, to find which ones clash."""
        for item in batch:
            for offset, ev in enumerate(item.events, start=1):
                if ev.seq != item.expected_seq + offset:
                    raise ValueError("events must follow expected_seq without gaps")
        at = now()
        if all(item.events for item in batch):
            try:
                with self.db.writing() as conn:
                    self._write(conn, batch, at)
            except (IntegrityError, SeatChanged):
                pass
            else:
                return [None] * len(batch)
        with self.db.writing() as conn:
            return [self._write_one(conn, item, at) for item in batch]

    def _write_one(self, conn: Connection, item: Append, at: str) -> Exception | None:
        """One command of a batch that clashed, in a savepoint: None, or why not."""
        try:
            with conn.begin_nested():
                if not item.events and not exists(conn, item.game_id):
                    raise UnknownGame(item.game_id)
                self._write(conn, [item], at)
        except UnknownGame as exc:
            return exc
        except SeatChanged as exc:
            return Conflict(str(exc))
        except IntegrityError:
            # A clash on (game, seq) or on a command id, or no such game at all.
            if exists(conn, item.game_id):
                return Conflict(f"game {item.game_id} moved past {item.expected_seq}")
            return UnknownGame(item.game_id)
        return None

    def _write(self, conn: Connection, batch: Sequence[Append], at: str) -> None:
        self._seats.check(conn, batch)
        self._log.write(conn, batch, at)
        self._rolls.resolve(conn, batch)
        if not self.sqlite:
            self._log.notify(conn, batch)

    def timed(self) -> list[str]:
        with self.engine.connect() as conn:
            return sorted(self._log.due(conn) | self._rolls.waiting(conn))
