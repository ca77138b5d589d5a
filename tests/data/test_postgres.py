"""What only PostgreSQL has: its migrations, its connection errors, several stores on one
database; and the DATABASE_URL forms that choose a backend."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.offline.harness import channel_id_of
from bot.settings import SettingsError, load_settings
from data import ChannelBusy, DuplicateInteraction, Store, StoreError, open_store
from data.postgres import MIGRATIONS, PostgresStore
from data.sqlite import migrations
from data.store import database_backend, redact_url
from tests.backends import PgServer
from tests.data.stores import change, enc, query

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def pg_url(pg_server: PgServer) -> str:
    """The URL of an empty PostgreSQL schema."""
    return await pg_server.fresh_url()


# -- DATABASE_URL ---------------------------------------------------------------------------------
def test_database_backend_forms() -> None:
    """Paths and sqlite URLs choose SQLite, postgresql:// and postgres:// PostgreSQL; others are refused."""
    assert database_backend("bot.db") == ("sqlite", "bot.db")
    assert database_backend("sqlite:///bot.db") == ("sqlite", "bot.db")
    for url in ("postgresql://bot:pw@db:5432/skirmish", "postgres://bot@db/skirmish",
                "postgresql:///skirmish?host=/run/postgresql"):
        assert database_backend(url) == ("postgresql", url)
    with pytest.raises(StoreError, match="^Unsupported DATABASE_URL scheme 'mysql'"):
        database_backend("mysql://db/x")
    with pytest.raises(StoreError, match="Bad PostgreSQL URL") as caught:
        database_backend("postgresql://bot:hunter2@db:port/x")
    assert "hunter2" not in str(caught.value)


def test_redact_url_hides_every_password() -> None:
    """The password in the user part or in a password= parameter is never printed."""
    assert redact_url("postgresql://bot:s3:cr@t@db:5432/x") == "postgresql://bot:***@db:5432/x"
    assert redact_url("postgresql://db/x?sslmode=require&password=pw") == (
        "postgresql://db/x?sslmode=require&password=***"
    )
    assert redact_url("postgres://bot@db/x") == "postgres://bot@db/x"
    assert redact_url("bot.db") == "bot.db"


def test_settings_accept_a_postgres_url() -> None:
    """DATABASE_URL takes a postgresql:// URL; a bad one is one line without its password."""
    url = "postgresql://bot:pw@db.internal:5432/skirmish"
    assert load_settings(database_url=url, _env_file=None).database_url == url
    with pytest.raises(SettingsError, match="Bad PostgreSQL URL") as caught:
        load_settings(database_url="postgresql://bot:hunter2@db:x/s", _env_file=None)
    assert "hunter2" not in str(caught.value) and "\n" not in str(caught.value)


# -- opening -----------------------------------------------------------------------------------------
async def test_migrations_run_once_and_are_recorded(pg_url: str) -> None:
    """A fresh database gets every migration, recorded in schema_version; reopening changes nothing."""
    newest = len(migrations(MIGRATIONS))
    async with await open_store(pg_url) as s:
        assert isinstance(s, PostgresStore)
        created = await s.create_encounter("c1", "g1", enc(), 1.0)
        assert await s.integrity_check() == "ok"
    assert await query(pg_url, "SELECT version FROM schema_version ORDER BY version") == [
        (n,) for n in range(1, newest + 1)
    ]
    indexes = {r[0] for r in await query(pg_url, "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")}
    assert {"encounters_active_channel", "actions_encounter", "actions_interaction_id_key",
            "reminders_due"} <= indexes
    async with await open_store(pg_url) as s:
        assert (await s.load_active("c1")).id == created.id
    assert await query(pg_url, "SELECT count(*) FROM schema_version") == [(newest,)]


async def test_two_stores_migrate_one_database_at_once(pg_url: str) -> None:
    """Stores opened at the same moment on a fresh database migrate it once, under the lock."""
    stores = await asyncio.gather(*(open_store(pg_url) for _ in range(4)))
    for s in stores:
        await s.close()
    assert await query(pg_url, "SELECT count(*) FROM schema_version") == [
        (len(migrations(MIGRATIONS)),)
    ]


async def test_newer_schema_is_refused(pg_url: str) -> None:
    """A database migrated by a newer version of the bot is not opened, and not changed."""
    await (await open_store(pg_url)).close()
    newer = len(migrations(MIGRATIONS)) + 1
    await query(pg_url, f"INSERT INTO schema_version (version) VALUES ({newer})")
    with pytest.raises(StoreError, match="newer than this code") as caught:
        await open_store(pg_url)
    assert "\n" not in str(caught.value)
    assert await query(pg_url, "SELECT max(version) FROM schema_version") == [(newer,)]


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda s: f"postgresql://bot:hunter2@/x?host={s.socket_dir}/nowhere", "server is running"),
        (lambda s: f"postgresql://postgres:hunter2@/no_such_db?host={s.socket_dir}",
         "create the database"),
    ],
)
async def test_connection_problems_are_one_line_without_the_password(pg_server: PgServer, make, words: str) -> None:
    """No server, or no such database, is one StoreError line naming the URL without its password."""
    with pytest.raises(StoreError, match="Cannot connect to the PostgreSQL database") as caught:
        await open_store(make(pg_server))
    text = str(caught.value)
    assert words in text and "***" in text
    assert "hunter2" not in text and "\n" not in text


# -- several processes on one database ----------------------------------------------------------
async def test_two_stores_on_one_database_lose_nothing(pg_url: str) -> None:
    """Two stores (two processes) writing one database: each command lands once, duplicates and
    a second encounter in a channel are refused whichever store sees them."""
    a, b = await open_store(pg_url), await open_store(pg_url)
    try:
        created = await asyncio.gather(
            a.create_encounter("c1", "g", enc("from a"), 1.0),
            b.create_encounter("c1", "g", enc("from b"), 1.0),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in created) == ["ChannelBusy", "StoredEncounter"]
        encounter_id = next(r for r in created if not isinstance(r, ChannelBusy)).id
        other = await b.create_encounter("c2", "g", enc(), 1.0)

        def deliveries(store: Store, offset: int) -> list:
            return [store.apply(change((encounter_id, other.id)[n % 2], f"i{n}", round=n + 1))
                    for n in range(offset, 200, 2)]

        # every interaction id is delivered to both stores, as Discord may deliver it twice
        results = await asyncio.gather(
            *deliveries(a, 0), *deliveries(b, 1), *deliveries(b, 0), *deliveries(a, 1),
            return_exceptions=True,
        )
        assert all(r is None or isinstance(r, DuplicateInteraction) for r in results), results
        assert sum(r is None for r in results) == 200
        for store, eid, parity in ((a, encounter_id, 0), (b, other.id, 1)):
            logged = [e.interaction_id for e in await store.log(eid, 500)]
            assert sorted(logged) == sorted(f"i{n}" for n in range(parity, 200, 2))
        assert await query(pg_url, "SELECT count(*), count(DISTINCT interaction_id) FROM actions") == [(200, 200)]
        assert await a.integrity_check() == "ok"
    finally:
        await a.close()
        await b.close()


def _console(url: str, lines: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "console", "--db", url, "--seed", "1"],
        cwd=cwd, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True,
        timeout=120, input="\n".join(lines) + "\n",
    )


async def test_consoles_share_a_postgres_database(pg_url: str, tmp_path: Path) -> None:
    """`python -m bot console --db postgresql://...` stores there; two consoles at once, each in
    its own channel, both land, and a third console afterwards carries on from their state."""
    await (await open_store(pg_url)).close()  # migrated, so the consoles start alike
    scripts = [
        [f"@gm #{ch} /encounter start system:coup-de-grace name:Fight{ch} map:12x10"] + [
            f'@gm #{ch} /combatant add name:{ch}u{n} sheet:"class=light weapons=axe" at:B{n + 1}'
            for n in range(5)
        ]
        for ch in ("c1", "c2")
    ]
    both = await asyncio.gather(*(asyncio.to_thread(_console, pg_url, lines, tmp_path) for lines in scripts))
    assert all(r.returncode == 0 for r in both), [r.stderr for r in both]
    third = _console(pg_url, ['@gm #c1 /combatant add name:late sheet:"class=light weapons=axe" at:C1'], tmp_path)
    assert third.returncode == 0, third.stderr
    async with await open_store(pg_url) as s:
        for ch, extra in (("c1", ["late"]), ("c2", [])):
            loaded = await s.load_active(str(channel_id_of(ch)))
            assert loaded is not None and loaded.encounter is not None
            assert loaded.encounter.name == f"Fight{ch}"
            assert sorted(c.name for c in loaded.encounter.combatants) == sorted(
                [f"{ch}u{n}" for n in range(5)] + extra
            )


# -- outages --------------------------------------------------------------------------------------
class _EndedSession:
    """A pooled connection, as asyncpg's pool gives it, whose server ends the session (stopped with
    ``pg_ctl -m fast``) while a batch is written on it: once the pool has closed it, the server
    answers again (a new connection)."""

    def __init__(self) -> None:
        self.closed = False
        self.ended = True  #: the session ends under the next batch

    def is_closed(self) -> bool:
        return self.closed

    async def fetchval(self, sql: str) -> int:
        return 1

    def acquire(self, timeout: float | None = None) -> _EndedSession:
        return self

    async def __aenter__(self) -> _EndedSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Giving it back resets it; with the server's error still being read that fails (asyncpg's
        own words), and the pool closes the connection."""
        if self.ended:
            self.ended, self.closed = False, True
            raise asyncpg.InternalClientError("cannot switch to state 15; another operation (2) is in progress")

    async def close(self) -> None:
        pass


@pytest.mark.parametrize("committed", [False, True])
async def test_a_session_ended_under_a_batch_is_one_outage(committed: bool, monkeypatch: pytest.MonkeyPatch,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    """The server ends the session under a batch: before its commit (asyncpg raises its roll-back's
    "another operation is in progress", raised while handling the server's shutdown error, before
    it has seen the connection close) or after it; either way the reset of the connection given
    back fails. The batch is refused as the database being unreachable, or acknowledged where it was
    committed, and that is the outage, logged at ERROR once and its end at WARNING, not a failed
    batch logged as a bug besides."""
    import logging

    import data.postgres
    from data import StoreUnavailable

    async def shut_down(conn: object, changes: object) -> None:
        if committed:
            return
        try:
            raise asyncpg.AdminShutdownError("terminating connection due to administrator command")
        except asyncpg.AdminShutdownError:  # the transaction's roll-back, on the same connection
            raise asyncpg.InternalClientError("cannot switch to state 15; another operation (2) is in progress")

    monkeypatch.setattr(data.postgres, "_write_batch", shut_down)
    caplog.set_level(logging.INFO, logger="skirmish.store")
    session = _EndedSession()
    store = PostgresStore(session, "postgresql://postgres@/test")  # type: ignore[arg-type]  # the pool's part of it
    try:
        if committed:
            await store.apply(change(1, "i1"))
        else:
            with pytest.raises(StoreUnavailable):
                await store.apply(change(1, "i1"))
        assert store.outage.down
        async with asyncio.timeout(5):
            while store.outage.down:
                await asyncio.sleep(0.05)
    finally:
        await store.close()
    ours = [r for r in caplog.records if r.name == "skirmish.store"]
    assert [r.levelname for r in ours] == ["ERROR", "WARNING"], [r.getMessage() for r in ours]
    assert "cannot be reached" in ours[0].getMessage() and "is back" in ours[1].getMessage()
