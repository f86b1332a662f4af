"""The games and their logs: a row per game (its header, and when its open timed window
ends), its events keyed by (game, seq), and the answer each accepted command got, keyed by
(game, side, command id), so that a retry of an acknowledged command finds its first answer
instead of being applied twice."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Column, ForeignKey, Integer, String, Table, Text, func, insert, select, text
from sqlalchemy.engine import Connection

from ghillie.events import Event, event_from_json, event_to_json
from ghillie.store.base import Answer, Append, UnknownGame
from ghillie.store.sql.database import Database, dumps, metadata, placeholder

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


def exists(conn: Connection, game_id: str) -> bool:
    sql = f"SELECT 1 FROM games WHERE game_id = {placeholder(conn.dialect)}"
    return conn.exec_driver_sql(sql, (game_id,)).first() is not None


def last_seq(conn: Connection, game_id: str) -> int:
    """The seq of the game's last event; -1 before its first."""
    sql = f"SELECT MAX(seq) FROM events WHERE game_id = {placeholder(conn.dialect)}"
    head = conn.exec_driver_sql(sql, (game_id,)).scalar()
    return -1 if head is None else int(head)


class SqlLog:
    def __init__(self, db: Database) -> None:
        self.db = db
        mark = db.mark
        self._insert_event = (
            f"INSERT INTO events (game_id, seq, body, created_at) VALUES ({', '.join([mark] * 4)})"
        )
        self._set_due = f"UPDATE games SET due = {mark} WHERE game_id = {mark}"
        self._insert_answer = (
            "INSERT INTO answers (game_id, observer, command_id, seq, answer) "
            f"VALUES ({', '.join([mark] * 5)})"
        )

    def add(
        self,
        conn: Connection,
        game_id: str,
        header: Mapping[str, Any],
        first: Event | None,
        now: str,
    ) -> None:
        """The game's row and its first event, in the caller's transaction."""
        conn.execute(
            insert(games).values(
                game_id=game_id, ruleset=header["ruleset"], header=dumps(header), created_at=now
            )
        )
        if first is not None:
            conn.execute(
                insert(events).values(
                    game_id=game_id, seq=0, body=dumps(event_to_json(first)), created_at=now
                )
            )

    def header(self, game_id: str) -> Mapping[str, Any]:
        with self.db.engine.connect() as conn:
            row = conn.execute(select(games.c.header).where(games.c.game_id == game_id)).first()
        if row is None:
            raise UnknownGame(game_id)
        data: Mapping[str, Any] = json.loads(row[0])
        return data

    def events(self, game_id: str, after: int = -1) -> list[Event]:
        with self.db.engine.connect() as conn:
            if not exists(conn, game_id):
                raise UnknownGame(game_id)
            rows = conn.execute(
                select(events.c.body)
                .where(events.c.game_id == game_id, events.c.seq > after)
                .order_by(events.c.seq)
            ).all()
        return [event_from_json(json.loads(body)) for (body,) in rows]

    def games(self) -> list[str]:
        with self.db.engine.connect() as conn:
            return [row[0] for row in conn.execute(select(games.c.game_id)).all()]

    def answers(self, game_id: str, after: int = -1) -> list[Answer]:
        """The answers of commands that made events after ``after``."""
        with self.db.engine.connect() as conn:
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
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(events.c.game_id, func.max(events.c.seq))
                .where(events.c.game_id.in_(list(game_ids)))
                .group_by(events.c.game_id)
            ).all()
        return {game_id: int(seq) for game_id, seq in rows}

    def due(self, conn: Connection) -> set[str]:
        """The games with a timed reaction window open."""
        return {
            row[0] for row in conn.execute(select(games.c.game_id).where(games.c.due.is_not(None)))
        }

    def write(self, conn: Connection, batch: Sequence[Append], now: str) -> None:
        """The batch's events, answers and window ends, in the caller's transaction."""
        # Plain DBAPI executemany: this runs for every command, and SQLAlchemy's statement
        # machinery per row costs more than the rows themselves.
        rows = [
            (item.game_id, ev.seq, dumps(event_to_json(ev)), now)
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
                dumps(item.answer.body),
            )
            for item in batch
            if item.answer is not None
        ]
        if said:
            conn.exec_driver_sql(self._insert_answer, said)
        due = [(item.due[0], item.game_id) for item in batch if item.due is not None]
        if due:
            conn.exec_driver_sql(self._set_due, due)

    def notify(self, conn: Connection, batch: Sequence[Append]) -> None:
        """A wake-up for the other server processes, sent when this transaction commits:
        "game:seq" for each game written, several to a notification (payloads must stay
        under 8000 bytes)."""
        last = {item.game_id: item.events[-1].seq for item in batch if item.events}
        notes = [f"{game_id}:{seq}" for game_id, seq in last.items()]
        for start in range(0, len(notes), NOTES_PER_NOTIFY):
            conn.execute(
                text("SELECT pg_notify('ghillie_events', :payload)"),
                {"payload": ",".join(notes[start : start + NOTES_PER_NOTIFY])},
            )
