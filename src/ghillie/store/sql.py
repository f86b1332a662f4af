"""Durable event stores on SQLAlchemy Core: SQLite (the embedded default) and PostgreSQL.

Events are append-only rows keyed by (game id, seq). A writer names the seq it expects to
follow; a primary-key clash means another writer got there first (:class:`Conflict`), never
an interleaved log. Each command's answer is stored in the same transaction as its events,
keyed by (game, side, command id), so a retry of an acknowledged command finds its first
answer instead of being applied twice. A roll request the sides' pages were asked to answer
is a row keyed by (game, k) until the event that resolves it is written, which deletes it in
the same transaction: the key is what makes two processes agree on one request per roll.

SQLite runs in WAL mode with ``synchronous=FULL`` and ``BEGIN IMMEDIATE`` (a writer takes the
write lock when it begins, not when it commits); :meth:`SqlStore.check` refuses a database
that is not set up so, or that fails ``PRAGMA quick_check``. PostgreSQL must have ``fsync``
and ``synchronous_commit`` on.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import (
    Column,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import NullPool

from ghillie.events import Event, event_from_json, event_to_json
from ghillie.store.base import (
    Answer,
    Append,
    Conflict,
    Seat,
    StoredRoll,
    UnknownGame,
    roll_body,
    roll_from,
)

metadata = MetaData()
NOTES_PER_NOTIFY = 100  # "<32 hex>:<seq>" each: well under NOTIFY's 8000-byte payload

games = Table(
    "games",
    metadata,
    Column("game_id", String(64), primary_key=True),
    Column("ruleset", String(64), nullable=False),
    Column("header", Text, nullable=False),
    Column("created_at", String(40), nullable=False),
    # When the game's open timed reaction window ends (none open: null): see Append.due.
    Column("due", String(40), nullable=True),
)
events = Table(
    "events",
    metadata,
    Column("game_id", String(64), ForeignKey("games.game_id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("body", Text, nullable=False),
    Column("created_at", String(40), nullable=False),
)
# The answer each accepted command got, for idempotent retries.
answers = Table(
    "answers",
    metadata,
    Column("game_id", String(64), primary_key=True),
    Column("observer", String(40), primary_key=True),
    Column("command_id", String(80), primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("answer", Text, nullable=False),
)
# Roll requests the pages were asked to answer and that no event resolved yet. Created by
# create_all like every table, so a database made before this table existed gains it when it
# is next opened.
rolls = Table(
    "pending_rolls",
    metadata,
    Column("game_id", String(64), ForeignKey("games.game_id"), primary_key=True),
    Column("k", Integer, primary_key=True, autoincrement=False),
    Column("body", Text, nullable=False),  # side, command id, command, signed request
    Column("elements", Text, nullable=False),  # party -> hex element, as the pages gave them
)
# The host's last sign of life while a timed window ran in the game (EventStore.beat): no
# foreign key, as a beat is only a hint and must never fail on a game being dropped.
host_beats = Table(
    "beats",
    metadata,
    Column("game_id", String(64), primary_key=True),
    Column("at", String(40), nullable=False),
)
# Capability tokens, stored only as hashes: a leaked database row is not a working link.
tokens = Table(
    "tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("game_id", String(64), nullable=False, index=True),
    Column("observer", String(40), nullable=False),
)
# Who holds each side's seat (ghillie.store.base.Seat): a row once taken, the holder's seat
# key only hashed; a new dice chain's anchor and first roll while its event is to come.
seats = Table(
    "seats",
    metadata,
    Column("game_id", String(64), ForeignKey("games.game_id"), primary_key=True),
    Column("observer", String(40), primary_key=True),
    Column("holder", String(64), nullable=False),
    Column("since", String(40), nullable=False),
    Column("chain", String(64), nullable=True),
    Column("chain_from", Integer, nullable=True),
    Column("offer", String(64), nullable=True),  # the hash of a one-time move code on offer
    # The public key the seat's device signs its orders with, from roll signing_from on.
    Column("signing", String(64), nullable=True),
    Column("signing_from", Integer, nullable=True),
)


class _SeatChanged(Exception):
    """A command's seat was taken or moved by another process after it was checked."""


class StoreError(RuntimeError):
    """The database is missing, unreachable, or not set up to keep what it acknowledges."""


_WRITES = "ghillie_writes"  # an execution option: this connection's transaction writes


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def _exists(conn: Connection, game_id: str) -> bool:
    found = conn.execute(select(games.c.game_id).where(games.c.game_id == game_id)).first()
    return found is not None


def database_url(db: str) -> str:
    """A SQLAlchemy URL from what a user types: a file path, ``sqlite:///…`` or
    ``postgresql://…`` (driven by psycopg 3)."""
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser()}"


class SqlStore:
    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        self.sqlite = self.url.startswith("sqlite")
        # One server process serves a SQLite file (ghillie.server.run starts no listener);
        # several may share one PostgreSQL database.
        self.shared = not self.sqlite
        try:
            self.engine = self._engine()
            metadata.create_all(self.engine)
            self._add_columns()
        except Exception as exc:  # the driver's own message says what is wrong
            raise StoreError(f"cannot open the database: {exc.__class__.__name__}: {exc}") from None
        self._write_lock = threading.Lock()  # SQLite has one writer; queue them here
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        self._insert_event = (
            f"INSERT INTO events (game_id, seq, body, created_at) VALUES ({', '.join([mark] * 4)})"
        )
        self._set_due = f"UPDATE games SET due = {mark} WHERE game_id = {mark}"
        self._insert_answer = (
            "INSERT INTO answers (game_id, observer, command_id, seq, answer) "
            f"VALUES ({', '.join([mark] * 5)})"
        )
        self._delete_roll = f"DELETE FROM pending_rolls WHERE game_id = {mark} AND k = {mark}"

    def _add_columns(self) -> None:
        """Columns added since a table was first made: a database of an older ghillie gains
        them when it is next opened (create_all makes missing tables, not missing columns)."""
        with self.engine.begin() as conn:
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

    # --- the EventStore contract ---------------------------------------------------------------

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
        now = _now()
        try:
            with self._writing() as conn:
                conn.execute(
                    insert(games).values(
                        game_id=game_id,
                        ruleset=header["ruleset"],
                        header=_dumps(header),
                        created_at=now,
                    )
                )
                if first is not None:
                    conn.execute(
                        insert(events).values(
                            game_id=game_id,
                            seq=0,
                            body=_dumps(event_to_json(first)),
                            created_at=now,
                        )
                    )
                for token_hash, observer in token_hashes.items():
                    conn.execute(
                        insert(tokens).values(
                            token_hash=token_hash, game_id=game_id, observer=observer
                        )
                    )
        except IntegrityError:
            raise Conflict(f"game {game_id} exists") from None

    def header(self, game_id: str) -> Mapping[str, Any]:
        with self.engine.connect() as conn:
            row = conn.execute(select(games.c.header).where(games.c.game_id == game_id)).first()
        if row is None:
            raise UnknownGame(game_id)
        data: Mapping[str, Any] = json.loads(row[0])
        return data

    def append(self, game_id: str, expected_seq: int, events_: Sequence[Event]) -> None:
        result = self.append_batch([Append(game_id, expected_seq, events_)])[0]
        if result is not None:
            raise result

    def events(self, game_id: str, after: int = -1) -> list[Event]:
        with self.engine.connect() as conn:
            if not _exists(conn, game_id):
                raise UnknownGame(game_id)
            rows = conn.execute(
                select(events.c.body)
                .where(events.c.game_id == game_id, events.c.seq > after)
                .order_by(events.c.seq)
            ).all()
        return [event_from_json(json.loads(body)) for (body,) in rows]

    def games(self) -> list[str]:
        with self.engine.connect() as conn:
            return [row[0] for row in conn.execute(select(games.c.game_id)).all()]

    # --- what the server needs besides ---------------------------------------------------------

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
        now = _now()
        if all(item.events for item in batch):
            try:
                with self._writing() as conn:
                    self._write(conn, batch, now)
            except (IntegrityError, _SeatChanged):
                pass
            else:
                return [None] * len(batch)
        results: list[Exception | None] = []
        with self._writing() as conn:
            for item in batch:
                try:
                    with conn.begin_nested():
                        if not item.events and not _exists(conn, item.game_id):
                            raise UnknownGame(item.game_id)
                        self._write(conn, [item], now)
                except UnknownGame as exc:
                    results.append(exc)
                except _SeatChanged as exc:
                    results.append(Conflict(str(exc)))
                except IntegrityError:
                    # A clash on (game, seq) or on a command id, or no such game at all.
                    if _exists(conn, item.game_id):
                        clash = f"game {item.game_id} moved past {item.expected_seq}"
                        results.append(Conflict(clash))
                    else:
                        results.append(UnknownGame(item.game_id))
                else:
                    results.append(None)
        return results

    def _write(self, conn: Connection, batch: Sequence[Append], now: str) -> None:
        self._check_seats(conn, batch)
        # Plain DBAPI executemany: this runs for every command, and SQLAlchemy's statement
        # machinery per row costs more than the rows themselves.
        rows = [
            (item.game_id, ev.seq, _dumps(event_to_json(ev)), now)
            for item in batch
            for ev in item.events
        ]
        if rows:
            conn.exec_driver_sql(self._insert_event, rows)
        said = [
            (
                item.game_id,
                item.answer.observer,
                item.answer.command_id,
                item.answer.seq,
                _dumps(item.answer.body),
            )
            for item in batch
            if item.answer is not None
        ]
        if said:
            conn.exec_driver_sql(self._insert_answer, said)
        due = [(item.due[0], item.game_id) for item in batch if item.due is not None]
        if due:
            conn.exec_driver_sql(self._set_due, due)
        resolved = [(item.game_id, item.events[0].seq) for item in batch if item.resolves]
        if resolved:
            conn.exec_driver_sql(self._delete_roll, resolved)
        if not self.sqlite:
            # A wake-up for the other server processes, sent when this transaction commits:
            # "game:seq" for each game written, several to a notification (payloads must stay
            # under 8000 bytes).
            last = {item.game_id: item.events[-1].seq for item in batch if item.events}
            notes = [f"{game_id}:{seq}" for game_id, seq in last.items()]
            for start in range(0, len(notes), NOTES_PER_NOTIFY):
                conn.execute(
                    text("SELECT pg_notify('ghillie_events', :payload)"),
                    {"payload": ",".join(notes[start : start + NOTES_PER_NOTIFY])},
                )

    def _check_seats(self, conn: Connection, batch: Sequence[Append]) -> None:
        """Raise _SeatChanged if a command's seat no longer stands as it was checked (one
        read for the whole batch, in its transaction)."""
        expected = {(item.game_id, item.seat[0]): item.seat[1] for item in batch if item.seat}
        if not expected:
            return
        ids = sorted({game_id for game_id, _ in expected})
        rows = conn.execute(
            select(seats.c.game_id, seats.c.observer, seats.c.holder).where(
                seats.c.game_id.in_(ids)
            )
        ).all()
        held = {(row[0], row[1]): row[2] for row in rows}
        for (game_id, side), holder in expected.items():
            if held.get((game_id, side)) != holder:
                raise _SeatChanged(f"the seat of {side} in game {game_id} has changed")

    def answers(self, game_id: str, after: int = -1) -> list[Answer]:
        """The answers of commands that made events after ``after``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(answers.c.observer, answers.c.command_id, answers.c.seq, answers.c.answer)
                .where(answers.c.game_id == game_id, answers.c.seq > after)
                .order_by(answers.c.seq)
            ).all()
        return [Answer(o, c, s, json.loads(a)) for o, c, s, a in rows]

    def heads(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The last seq of each of these games, in one query."""
        if not game_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(events.c.game_id, func.max(events.c.seq))
                .where(events.c.game_id.in_(list(game_ids)))
                .group_by(events.c.game_id)
            ).all()
        return {game_id: int(seq) for game_id, seq in rows}

    def observer_for(self, game_id: str, token_hash: str) -> str | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(tokens.c.observer).where(
                    tokens.c.token_hash == token_hash, tokens.c.game_id == game_id
                )
            ).first()
        return None if row is None else str(row[0])

    # --- roll requests waiting for the pages -------------------------------------------------

    def claim_roll(self, game_id: str, roll: StoredRoll) -> StoredRoll:
        """Insert first, then look at the log: under PostgreSQL's READ COMMITTED, an insert
        that waited for another transaction deleting the row (the event that resolved it)
        goes through once that commits, and only a statement after it sees that event. So
        the check must come after the insert, or a process that is behind could claim
        again a roll that was just resolved."""
        with self._writing() as conn:
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(rolls).values(
                            game_id=game_id,
                            k=roll.k,
                            body=_dumps(roll_body(roll)),
                            elements=_dumps(dict(roll.elements)),
                        )
                    )
            except IntegrityError:
                pass  # claimed already (or no such game: told apart below)
            if not _exists(conn, game_id):
                raise UnknownGame(game_id)
            head = conn.execute(
                select(func.max(events.c.seq)).where(events.c.game_id == game_id)
            ).scalar()
            last = -1 if head is None else int(head)
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
        with self.engine.connect() as conn:
            if not _exists(conn, game_id):
                raise UnknownGame(game_id)
            latest = conn.execute(
                select(func.max(rolls.c.k)).where(rolls.c.game_id == game_id)
            ).scalar()
            return None if latest is None else self._roll(conn, game_id, int(latest), lock=False)

    def add_element(self, game_id: str, k: int, party: str, element: str) -> StoredRoll | None:
        with self._writing() as conn:
            if not _exists(conn, game_id):
                raise UnknownGame(game_id)
            # FOR UPDATE (PostgreSQL): two processes adding elements at once must not lose
            # one another's. SQLite's BEGIN IMMEDIATE already serialises writers.
            found = self._roll(conn, game_id, k, lock=True)
            if found is None or party in found.elements:
                return found
            elements = {**found.elements, party: element}
            conn.execute(
                rolls.update()
                .where(rolls.c.game_id == game_id, rolls.c.k == k)
                .values(elements=_dumps(elements))
            )
            return roll_from(k, roll_body(found), elements)

    def _roll(self, conn: Connection, game_id: str, k: int, *, lock: bool) -> StoredRoll | None:
        query = select(rolls.c.body, rolls.c.elements).where(
            rolls.c.game_id == game_id, rolls.c.k == k
        )
        row = conn.execute(query.with_for_update() if lock else query).first()
        if row is None:
            return None
        return roll_from(k, json.loads(row[0]), json.loads(row[1]))

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction. SQLite writers queue on a lock in this process (and on
        BEGIN IMMEDIATE across processes)."""
        with (
            self._write_lock if self.sqlite else nullcontext(),
            self.engine.connect() as conn,
        ):
            conn.execution_options(**{_WRITES: True})
            with conn.begin():
                yield conn

    # --- seats --------------------------------------------------------------------------------

    def seats(self, game_id: str) -> dict[str, Seat]:
        with self.engine.connect() as conn:
            if not _exists(conn, game_id):
                raise UnknownGame(game_id)
            rows = conn.execute(select(seats).where(seats.c.game_id == game_id)).all()
        return {row.observer: _seat(row) for row in rows}

    def timed(self) -> list[str]:
        with self.engine.connect() as conn:
            windows = conn.execute(select(games.c.game_id).where(games.c.due.is_not(None)))
            waiting = conn.execute(select(rolls.c.game_id).distinct())
            return sorted({row[0] for row in windows} | {row[0] for row in waiting})

    def beat(self, game_ids: Sequence[str], at: str) -> None:
        if not game_ids:
            return
        with self._writing() as conn:  # a delete and an insert: the same on both databases
            conn.execute(delete(host_beats).where(host_beats.c.game_id.in_(game_ids)))
            conn.execute(insert(host_beats), [{"game_id": g, "at": at} for g in game_ids])

    def beats(self, game_ids: Sequence[str]) -> dict[str, str]:
        with self.engine.connect() as conn:
            query = select(host_beats).where(host_beats.c.game_id.in_(game_ids))
            rows = conn.execute(query).all()
        return {row.game_id: row.at for row in rows}

    def take_seat(
        self, game_id: str, observer: str, holder: str, signing: tuple[str, int] | None = None
    ) -> Seat:
        key, start = signing or (None, None)
        with self._writing() as conn:
            if not _exists(conn, game_id):
                raise UnknownGame(game_id)
            found = self._seat(conn, game_id, observer)
            if found is not None:
                if found.holder == holder and found.signing is None and key is not None:
                    # Its holder gives the key it signs with (a script, after taking it).
                    self._set_seat(
                        conn,
                        game_id,
                        observer,
                        seats.c.holder == holder,
                        signing=key,
                        signing_from=start,
                    )
                    found = self._seat(conn, game_id, observer)
                assert found is not None
                return found
            try:
                with conn.begin_nested():  # another process may take it at the same moment
                    conn.execute(
                        insert(seats).values(
                            game_id=game_id,
                            observer=observer,
                            holder=holder,
                            since=_now(),
                            signing=key,
                            signing_from=start,
                        )
                    )
            except IntegrityError:
                pass  # it did: that device holds the seat
            taken = self._seat(conn, game_id, observer)
        assert taken is not None
        return taken

    def offer_move(self, game_id: str, observer: str, holder: str, offer: str) -> bool:
        with self._writing() as conn:
            return self._set_seat(conn, game_id, observer, seats.c.holder == holder, offer=offer)

    def move_seat(
        self,
        game_id: str,
        observer: str,
        offer: str,
        new: str,
        anchor: str | None,
        from_k: int,
        signing: tuple[str, int] | None = None,
    ) -> Seat | None:
        with self._writing() as conn:
            moved = self._set_seat(
                conn,
                game_id,
                observer,
                seats.c.offer == offer,  # compare and set: the code is used up once
                holder=new,
                since=_now(),
                chain=anchor,
                chain_from=from_k if anchor else None,
                signing=signing[0] if signing else None,
                signing_from=signing[1] if signing else None,
                offer=None,
            )
            return self._seat(conn, game_id, observer) if moved else None

    def _set_seat(
        self, conn: Connection, game_id: str, observer: str, only: Any, **values: Any
    ) -> bool:
        """Set ``values`` on the seat if it matches ``only``; True if it did."""
        if not _exists(conn, game_id):
            raise UnknownGame(game_id)
        done = conn.execute(
            seats.update()
            .where(seats.c.game_id == game_id, seats.c.observer == observer, only)
            .values(**values)
        )
        return bool(done.rowcount)

    def new_chain(
        self,
        game_id: str,
        observer: str,
        holder: str,
        anchor: str,
        from_k: int,
        signing: tuple[str, int] | None = None,
    ) -> Seat:
        with self._writing() as conn:
            if not _exists(conn, game_id):
                raise UnknownGame(game_id)
            values = {
                "holder": holder,
                "since": _now(),
                "chain": anchor,
                "chain_from": from_k,
                "signing": signing[0] if signing else None,
                "signing_from": signing[1] if signing else None,
                "offer": None,
            }
            if self._seat(conn, game_id, observer) is None:
                conn.execute(insert(seats).values(game_id=game_id, observer=observer, **values))
            else:
                conn.execute(
                    seats.update()
                    .where(seats.c.game_id == game_id, seats.c.observer == observer)
                    .values(**values)
                )
            seat = self._seat(conn, game_id, observer)
        assert seat is not None
        return seat

    def _seat(self, conn: Connection, game_id: str, observer: str) -> Seat | None:
        row = conn.execute(
            select(seats).where(seats.c.game_id == game_id, seats.c.observer == observer)
        ).first()
        return None if row is None else _seat(row)


def _seat(row: Any) -> Seat:
    return Seat(
        row.observer,
        row.holder,
        row.since,
        row.chain,
        row.chain_from,
        row.signing,
        row.signing_from,
    )
