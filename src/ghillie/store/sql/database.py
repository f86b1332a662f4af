"""The one engine every table's part shares: how a SQLite or PostgreSQL database is opened,
checked, and written to (one write transaction at a time on SQLite)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Engine, MetaData, create_engine, event, inspect
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.pool import NullPool

# Every table's part defines its table here; SqlStore imports them all before it opens a
# database, so that create_all makes each one.
metadata = MetaData()

_WRITES = "ghillie_writes"  # an execution option: this connection's transaction writes
# The advisory lock ghillie's processes take turns at to set up a PostgreSQL database: any
# number of the application's own, the same in every process ("ghillie" in ASCII).
_SETTING_UP = int.from_bytes(b"ghillie")


class StoreError(RuntimeError):
    """The database is missing, unreachable, or not set up to keep what it acknowledges."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def database_url(db: str) -> str:
    """A SQLAlchemy URL from what a user types: a file path, ``sqlite:///…`` or
    ``postgresql://…`` (driven by psycopg 3)."""
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser()}"


def placeholder(dialect: Dialect) -> str:
    """The placeholder of the driver's own SQL, which the hot statements use: SQLAlchemy's
    building and caching of a statement costs several times the query itself."""
    return "?" if dialect.paramstyle == "qmark" else "%s"


class Database:
    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        self.sqlite = self.url.startswith("sqlite")
        try:
            self.engine = self._engine()
            self._set_up()
        except Exception as exc:  # the driver's own message says what is wrong
            raise StoreError(f"cannot open the database: {exc.__class__.__name__}: {exc}") from None
        self._write_lock = threading.Lock()  # SQLite has one writer; queue them here
        self.mark = placeholder(self.engine.dialect)

    def _set_up(self) -> None:
        """Every table made, and every column added since a table was first made."""
        if self.sqlite:  # a file's writers take turns already (BEGIN IMMEDIATE)
            metadata.create_all(self.engine)
            with self.engine.begin() as conn:
                self._add_columns(conn)
            return
        with self.engine.begin() as conn:
            # Several processes started at once on a new database (ghillie serve, once for
            # each core) would each make its tables, and all but one fail: PostgreSQL's
            # CREATE TABLE checks its catalogue for the name, then adds it, so two at once
            # both add it and one breaks a unique index. They take turns, in one transaction
            # a lock held until it commits.
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(%s)", (_SETTING_UP,))
            metadata.create_all(conn)
            self._add_columns(conn)

    def _add_columns(self, conn: Connection) -> None:
        """Columns added since a table was first made: a database of an older ghillie gains
        them when it is next opened (create_all makes missing tables, not missing columns)."""
        seen = inspect(conn)
        for table in metadata.sorted_tables:
            if not seen.has_table(table.name):
                continue  # an in-memory database, one per connection: check() refuses it
            have = {c["name"] for c in seen.get_columns(table.name)}
            for column in table.columns:
                if column.name not in have:
                    kind = column.type.compile(dialect=self.engine.dialect)
                    conn.exec_driver_sql(
                        f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}"
                    )

    def _engine(self) -> Engine:
        if not self.sqlite:
            return create_engine(
                self.url, pool_size=8, max_overflow=8, pool_pre_ping=True, hide_parameters=True
            )
        # hide_parameters: a database error must not carry an event (a secret) into a log.
        engine = create_engine(
            self.url, poolclass=NullPool if ":memory:" in self.url else None, hide_parameters=True
        )

        @event.listens_for(engine, "connect")
        def _connect(dbapi_connection: Any, _record: Any) -> None:
            # Let SQLAlchemy's "begin" event issue BEGIN IMMEDIATE instead of pysqlite's
            # deferred BEGIN, so a second writer waits at BEGIN rather than failing at COMMIT.
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA busy_timeout=10000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _begin(connection: Connection) -> None:
            # A writer takes the write lock as it begins; a reader takes none. In WAL mode a
            # deferred transaction reads one snapshot while a writer writes, so reads (the
            # seats checked on every command, a game loading) never queue behind the writer.
            writes = connection.get_execution_options().get(_WRITES, False)
            connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")

        return engine

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """A write transaction. SQLite writers queue on a lock in this process (and on
        BEGIN IMMEDIATE across processes)."""
        with (
            self._write_lock if self.sqlite else nullcontext(),
            self.engine.connect() as conn,
        ):
            conn.execution_options(**{_WRITES: True})
            with conn.begin():
                yield conn

    def check(self) -> dict[str, Any]:
        """Refuse a database that would not keep what it acknowledges (TRUST.md R4)."""
        with self.engine.connect() as conn:
            if self.sqlite:
                found = {
                    "journal_mode": conn.exec_driver_sql("PRAGMA journal_mode").scalar(),
                    "synchronous": conn.exec_driver_sql("PRAGMA synchronous").scalar(),
                    "quick_check": conn.exec_driver_sql("PRAGMA quick_check").scalar(),
                }
                wanted = {"journal_mode": "wal", "synchronous": 2, "quick_check": "ok"}
            else:
                found = {
                    "fsync": conn.exec_driver_sql("SHOW fsync").scalar(),
                    "synchronous_commit": conn.exec_driver_sql("SHOW synchronous_commit").scalar(),
                }
                wanted = {"fsync": "on", "synchronous_commit": "on"}
        wrong = {k: v for k, v in found.items() if v != wanted[k]}
        if wrong:
            raise StoreError(f"refusing to use this database: {wrong} (need {wanted})")
        return found

    def integrity(self) -> str:
        """``PRAGMA integrity_check`` on SQLite ("ok" when sound)."""
        if not self.sqlite:
            return "ok"
        with self.engine.connect() as conn:
            return str(conn.exec_driver_sql("PRAGMA integrity_check").scalar())

    def close(self) -> None:
        self.engine.dispose()
