"""The SQLite and PostgreSQL stores keep the storage contract, and refuse unsafe settings."""

from __future__ import annotations

import concurrent.futures
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ghillie import Game, examples
from ghillie.store.base import StoredRoll
from ghillie.store.sql import SqlStore, StoreError, database_url, metadata

from .contract import StoreContract


class TestSqliteStore(StoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path) -> Iterator[SqlStore]:
        store = SqlStore(str(tmp_path / "ghillie.db"))
        store.check()
        yield store
        store.close()


def postgres_url() -> str:
    url = os.environ.get("GHILLIE_TEST_POSTGRES")
    if not url:
        pytest.fail("GHILLIE_TEST_POSTGRES is not set: run the tests with scripts/test")
    return url


class TestPostgresStore(StoreContract):
    @pytest.fixture
    def store(self) -> Iterator[SqlStore]:
        store = SqlStore(postgres_url())
        metadata.drop_all(store.engine)  # a clean schema: the tests share one database
        metadata.create_all(store.engine)
        store.check()
        yield store
        store.close()


def test_sqlite_runs_in_wal_mode_with_full_synchronous_writes(tmp_path: Path) -> None:
    store = SqlStore(str(tmp_path / "g.db"))
    assert store.check() == {"journal_mode": "wal", "synchronous": 2, "quick_check": "ok"}
    assert store.integrity() == "ok"


def test_a_damaged_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    SqlStore(str(path)).close()
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # scribble over the schema page
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError):
        SqlStore(str(path)).check()


def test_a_database_that_cannot_use_a_write_ahead_log_is_refused() -> None:
    """An in-memory SQLite database cannot run in WAL mode: nothing it holds survives."""
    store = SqlStore("sqlite:///:memory:")
    with pytest.raises(StoreError, match="journal_mode"):
        store.check()


def test_an_existing_database_is_switched_to_wal(tmp_path: Path) -> None:
    plain = sqlite3.connect(tmp_path / "plain.db")
    plain.execute("create table t (x)")
    plain.close()
    assert SqlStore(str(tmp_path / "plain.db")).check()["journal_mode"] == "wal"


def test_database_urls_from_what_users_type() -> None:
    assert database_url("ghillie.db") == "sqlite:///ghillie.db"
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:////tmp/x.db") == "sqlite:////tmp/x.db"


def test_an_unreachable_database_is_named_clearly() -> None:
    with pytest.raises(StoreError, match="cannot open the database"):
        SqlStore("postgresql://nobody@127.0.0.1:1/none")


def test_a_database_made_before_pending_rolls_existed_opens_and_gains_the_table(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    old = SqlStore(str(path))
    Game.create(examples.load("grid-ambush-table"), store=old, seed=3, game_id="old")
    with old.engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE pending_rolls")  # the schema as it was
    old.close()
    store = SqlStore(str(path))
    assert store.check()["quick_check"] == "ok"
    assert [e.seq for e in store.events("old")] == [0]
    assert store.pending_roll("old") is None
    roll = StoredRoll(1, "jungle", "c1", {"type": "ready"}, {"k": 1}, {})
    assert store.claim_roll("old", roll) == roll
    store.close()


def test_processes_started_at_once_on_a_new_postgres_database_all_open_it() -> None:
    """`ghillie serve` once for each core, started together on an empty PostgreSQL: each
    makes the tables, and without taking turns all but one failed ("cannot open the
    database: … duplicate key value violates unique constraint")."""
    url = postgres_url()
    for _ in range(4):
        empty = SqlStore(url)
        metadata.drop_all(empty.engine)  # a new database: no table yet
        empty.close()
        together = threading.Barrier(4)

        def opened(together: threading.Barrier) -> SqlStore:
            together.wait()
            return SqlStore(url)

        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            stores = [f.result() for f in [pool.submit(opened, together) for _ in range(4)]]
        Game.create(examples.load("grid-ambush-table"), store=stores[0], seed=3, game_id="g")
        assert [e.seq for e in stores[3].events("g")] == [0]
        for store in stores:
            store.close()


def test_a_read_does_not_wait_for_a_write_under_way(tmp_path: Path) -> None:
    # The seats are read before every command: a read that queued for the write lock would
    # make each command wait for every other game's write.
    store = SqlStore(str(tmp_path / "g.db"))
    store.create_game("g1", {"ruleset": "x"}, None, {})
    with store.db.writing() as conn:
        conn.exec_driver_sql("UPDATE games SET header = header WHERE game_id = 'g1'")
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            assert pool.submit(store.seats, "g1").result(timeout=5) == {}
            assert pool.submit(store.header, "g1").result(timeout=5) == {"ruleset": "x"}
    store.close()


def test_a_writer_takes_the_write_lock_when_it_begins(tmp_path: Path) -> None:
    # Another process's writer waits at its BEGIN, not at a COMMIT that would then fail.
    path = tmp_path / "g.db"
    store = SqlStore(str(path))
    store.create_game("g1", {"ruleset": "x"}, None, {})
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    with store.db.writing(), pytest.raises(sqlite3.OperationalError, match="locked"):
        other.execute("BEGIN IMMEDIATE")
    other.execute("BEGIN IMMEDIATE")
    other.execute("ROLLBACK")
    other.close()
    store.close()
