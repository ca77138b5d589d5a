"""The database comes back: a PostgreSQL server stopped and started while commands run, and a
SQLite file locked by another program. Commands during the outage get a clear private reply at
once, writes work again in the same process, nothing acknowledged is lost, and the outage is
logged at ERROR once and its end at WARNING."""
from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.offline.harness import Clock, Harness, Sent
from data.pgserver import PgServer, halt_server, resume_server, running_server
from tests.cogs.fights import setup_fight

UNREACHABLE = "The database cannot be reached; nothing was changed."


@pytest.fixture
def own_server(pg_server: PgServer) -> Iterator[PgServer]:
    """A PostgreSQL server of this test's own (the session's server stays up for the others);
    skipped where the session's cannot run."""
    with running_server() as server:
        yield server


def _reply(sent: list[Sent]) -> Sent:
    """The one reply to a command (its response, or the follow-up of a deferral)."""
    [reply] = [s for s in sent if s.kind in ("response", "followup")][:1]
    return reply


async def _logged_ids(h: Harness, channel: str = "general") -> list[str]:
    stored = await h.store.load_active(str(h.payload("gm", "/encounter status", {}, channel)["channel_id"]))
    assert stored is not None
    return [e.interaction_id for e in await h.store.log(stored.id, 10_000) if e.command == "/combatant edit"]


async def test_postgres_stopped_and_started_while_commands_run(
    own_server: PgServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Edits run every 50 ms while the server is stopped for 2 s and started again: each gets one
    reply (done, or the private outage message at once), writes work again within 10 s of the
    server's return, every acknowledged edit is logged once and no refused one at all, and the
    outage is logged at ERROR once and its end at WARNING."""
    url = await own_server.fresh_url()
    h = await Harness.create(url, seed=7, clock=Clock())
    try:
        await setup_fight(h)
        done: list[str] = []
        refused: list[str] = []
        timeline: list[tuple[float, bool, float]] = []  # when sent, accepted, seconds to reply
        stop = asyncio.Event()

        async def edits() -> None:
            n = 0
            while not stop.is_set():
                n += 1
                payload = h.payload("gm", "/combatant edit", {"name": "Grak", "sheet": f"hp={1 + n % 9}"})
                began = time.monotonic()
                reply = _reply(await h.run_payload(payload))
                took = time.monotonic() - began
                if reply.ephemeral:
                    assert UNREACHABLE in reply.text, reply.text
                    refused.append(payload["id"])
                else:
                    done.append(payload["id"])
                timeline.append((began, not reply.ephemeral, took))
                await asyncio.sleep(0.05)

        caplog.set_level(logging.INFO)
        stream = asyncio.create_task(edits())
        await asyncio.sleep(0.5)
        await asyncio.to_thread(halt_server, own_server.socket_dir)
        halted = time.monotonic()
        await asyncio.sleep(2.0)
        back = time.monotonic()
        await asyncio.to_thread(resume_server, own_server.socket_dir)
        returned = time.monotonic()
        while not any(ok and when > returned for when, ok, _ in timeline) and not stream.done():
            assert time.monotonic() - returned < 10, "writes did not come back within 10 s"
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        stop.set()
        await stream

        during = [(ok, took) for when, ok, took in timeline if halted < when and when + took < back]
        assert during and not any(ok for ok, _ in during), "a command during the outage was accepted"
        assert max(took for _, took in during) < 1.0, "a refusal did not come at once"
        assert refused and done
        assert sorted(await _logged_ids(h)) == sorted(done), "an acknowledged edit was lost or a refused one stored"
        ours = [r for r in caplog.records if r.name == "skirmish.store"]
        assert [r.levelname for r in ours] == ["ERROR", "WARNING"], [r.getMessage() for r in ours]
        assert "cannot be reached" in ours[0].getMessage() and "is back" in ours[1].getMessage()
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR and r.name != "skirmish.store"]
    finally:
        await h.close()


async def test_sqlite_locked_by_another_program_refuses_then_recovers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """While another program holds the SQLite file's write lock, an edit is refused with the
    outage message (within Discord's 3 s) and nothing is stored; once the lock is gone an
    edit lands again within 3 s, and the outage is logged at ERROR once and its end at WARNING."""
    path = tmp_path / "bot.db"
    h = await Harness.create(str(path), seed=7, clock=Clock())
    try:
        await setup_fight(h)
        caplog.set_level(logging.INFO)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            payloads = [h.payload("gm", "/combatant edit", {"name": "Grak", "sheet": f"hp={n}"}) for n in (3, 4)]
            began = time.monotonic()
            replies = [_reply(s) for s in await asyncio.gather(*(h.run_payload(p) for p in payloads))]
            assert time.monotonic() - began < 3.0
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert all(r.ephemeral and UNREACHABLE in r.text for r in replies), [r.text for r in replies]
        released = time.monotonic()
        while True:  # a player tries again: refused at once until the store tries the file again
            after = h.payload("gm", "/combatant edit", {"name": "Grak", "sheet": "hp=5"})
            reply = _reply(await h.run_payload(after))
            if not reply.ephemeral:
                break
            assert UNREACHABLE in reply.text and time.monotonic() - released < 3.0
            await asyncio.sleep(0.1)
        assert await _logged_ids(h) == [after["id"]]
        ours = [r for r in caplog.records if r.name == "skirmish.store"]
        assert [r.levelname for r in ours] == ["ERROR", "WARNING"], [r.getMessage() for r in ours]
    finally:
        await h.close()


async def test_sqlite_disk_full_refuses_then_recovers(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """When SQLite finds no room for a write (its page limit reached, as on a full disk), the edit is
    refused with the outage message and nothing is stored; once there is room the next edit lands,
    and the outage is logged at ERROR once and its end at WARNING."""
    h = await Harness.create(str(tmp_path / "bot.db"), seed=7, clock=Clock())
    try:
        await setup_fight(h)
        db = h.store._db  # the page limit belongs to the store's own connection
        [(pages,)] = await db.execute_fetchall("PRAGMA page_count")
        await db.execute(f"PRAGMA max_page_count = {pages}")
        caplog.set_level(logging.INFO)
        accepted: list[str] = []
        for n in range(200):  # the log grows until a write needs a page the limit does not give
            payload = h.payload("gm", "/combatant edit", {"name": "Grak", "sheet": f"hp={1 + n % 9}"})
            reply = _reply(await h.run_payload(payload))
            if reply.ephemeral:
                assert UNREACHABLE in reply.text, reply.text
                break
            accepted.append(payload["id"])
        else:
            pytest.fail("the page limit was never reached")
        await db.execute("PRAGMA max_page_count = 1073741823")
        await asyncio.sleep(0.3)  # the store tries the file again after its first wait
        after = h.payload("gm", "/combatant edit", {"name": "Grak", "sheet": "hp=5"})
        assert not _reply(await h.run_payload(after)).ephemeral
        assert await _logged_ids(h) == [*accepted, after["id"]]
        ours = [r for r in caplog.records if r.name == "skirmish.store"]
        assert [r.levelname for r in ours] == ["ERROR", "WARNING"], [r.getMessage() for r in ours]
        assert "full" in ours[0].getMessage()
    finally:
        await h.close()
