"""Who holds each side's seat (ghillie.store.base.Seat): a row once taken, the holder's seat
key only hashed; a new dice chain's anchor and first roll while its event is to come."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Column, ForeignKey, Integer, String, Table, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ghillie.store.base import Append, Seat, UnknownGame
from ghillie.store.sql.database import Database, metadata, now
from ghillie.store.sql.events import exists

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


class SeatChanged(Exception):
    """A command's seat was taken or moved by another process after it was checked."""


class SqlSeats:
    def __init__(self, db: Database) -> None:
        self.db = db

    def check(self, conn: Connection, batch: Sequence[Append]) -> None:
        """Raise SeatChanged if a command's seat no longer stands as it was checked (one
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
                raise SeatChanged(f"the seat of {side} in game {game_id} has changed")

    def seats(self, game_id: str) -> dict[str, Seat]:
        with self.db.engine.connect() as conn:
            if not exists(conn, game_id):
                raise UnknownGame(game_id)
            rows = conn.execute(select(seats).where(seats.c.game_id == game_id)).all()
        return {row.observer: _seat(row) for row in rows}

    def take_seat(
        self, game_id: str, observer: str, holder: str, signing: tuple[str, int] | None = None
    ) -> Seat:
        key, start = signing or (None, None)
        with self.db.writing() as conn:
            if not exists(conn, game_id):
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
                            since=now(),
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
        with self.db.writing() as conn:
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
        with self.db.writing() as conn:
            moved = self._set_seat(
                conn,
                game_id,
                observer,
                seats.c.offer == offer,  # compare and set: the code is used up once
                holder=new,
                since=now(),
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
        if not exists(conn, game_id):
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
        with self.db.writing() as conn:
            if not exists(conn, game_id):
                raise UnknownGame(game_id)
            values = {
                "holder": holder,
                "since": now(),
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
