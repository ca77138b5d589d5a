"""``python -m bot migrate``: the example fights copied from SQLite to PostgreSQL read back the
same (export, /log, /undo), a second run copies nothing, and a destination holding other data
is refused untouched."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.offline.console import parse_line
from bot.offline.harness import Clock, Harness
from data.migrate import migrate
from data.store import TABLES, open_store
from tests.backends import PgServer
from tests.cogs.fights import export
from tests.data.stores import enc, query

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "bot" / "examples").glob("*.txt"))
DAY = 86400


def run_migrate(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot migrate ARGS`` in a process of its own, with no settings from outside."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", "migrate", *args], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=120,
    )


async def play_examples(db: str, clock: Clock) -> None:
    """Each example fight in a channel of its own; the Coup-De-Grace one ends and, ten days
    later, its undo data is compacted; the TOTE one waits on a turn with a reminder (the
    others' reminders are turned off)."""
    h = await Harness.create(db, seed=5, clock=clock)
    try:
        for path in EXAMPLES:
            for line in path.read_text().splitlines():
                if line.strip() and not line.startswith("#"):
                    user, _, command, options = parse_line(line)
                    await h.run(user, command, path.stem, **options)
                    clock.now += 60
        for other in EXAMPLES:  # only the TOTE turn waits on a reminder
            if other.stem not in ("tote", "coup-de-grace"):
                await h.run("gm", "/encounter settings", other.stem, reminder_hours="0")
        await h.run("gm", "/encounter settings", "tote", reminder_hours="1", deadline_hours="48")
        await h.run("bob", "/notify", "tote", quiet="22:00-08:00", tz="Europe/Paris", mode="both")
        await h.run("gm", "/init next", "tote", confirm="true")
        await h.run("gm", "/encounter end", "coup-de-grace", confirm="true")
        clock.now += 10 * DAY
        assert await h.store.compact(clock.now, 1) > 0
        assert await h.store.count_rows("reminders") == 1
    finally:
        await h.close()


async def views(h: Harness) -> dict[str, tuple[object, list[str]]]:
    """Each example channel's export and the first three pages of its /log (25 rows a page, the most) as its GM sees them."""
    out = {}
    for path in EXAMPLES:
        log = [s.text for page in (1, 2, 3) for s in await h.run("gm", "/log", path.stem, count=25, page=page)]
        out[path.stem] = (await export(h, path.stem, "gm"), log)
    return out


async def undo_each(h: Harness) -> dict[str, object]:
    """/undo in each still active example channel, then its export."""
    out = {}
    for stem in ("tote", "knights-of-valour"):
        sent = await h.run("gm", "/undo", stem)
        assert not sent[0].ephemeral, sent[0].text
        out[stem] = await export(h, stem, "gm")
    return out


async def test_the_example_fights_migrate_to_postgresql_and_read_back_the_same(
    tmp_path: Path, pg_server: PgServer
) -> None:
    """Every example fight copied to PostgreSQL (an ended and compacted one too) shows the same export and /log, and /undo works there as on SQLite."""
    db, url = str(tmp_path / "bot.db"), await pg_server.fresh_url()
    clock = Clock()
    await play_examples(db, clock)

    done = run_migrate("--from", db, "--to", url)

    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Copied ") and len(lines) == 1 + len(TABLES)
    source, dest = await open_store(db), await open_store(url)
    try:
        for table in TABLES:
            count = await source.count_rows(table)
            assert count > 0 and await dest.count_rows(table) == count
            assert f"  {table}: {count} in both (copied {count}, already there 0)" in lines
            assert await dest.read_rows(table, None, 10_000) == await source.read_rows(table, None, 10_000)
    finally:
        await source.close()
        await dest.close()
    seen = {}
    for where in (db, url):  # one harness at a time: the harness records replies per task
        h = await Harness.create(where, seed=9, clock=Clock(clock.now))
        try:
            seen[where] = (await views(h), await undo_each(h))
            if where == url:
                assert await h.reminders() == []  # not due yet: its stored time came along
                h.bot.service.clock.now += 2 * 3600
                assert len(await h.reminders()) == 1
        finally:
            await h.close()
    assert seen[url] == seen[db]


async def test_a_second_run_copies_nothing_and_says_so(tmp_path: Path, pg_server: PgServer) -> None:
    """Run twice, the migration writes no row the second time and says the destination already holds everything."""
    db, url = str(tmp_path / "bot.db"), await pg_server.fresh_url()
    await play_examples(db, Clock())
    assert run_migrate("--from", db, "--to", url).returncode == 0
    before = await query(url, "SELECT count(*), max(id) FROM actions")

    again = run_migrate("--from", db, "--to", url)

    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Nothing to copy: the destination already holds every row")
    assert "copied 0" in again.stdout and "copied 1" not in again.stdout
    assert await query(url, "SELECT count(*), max(id) FROM actions") == before


async def test_new_encounters_on_the_destination_take_ids_after_the_copied_ones(tmp_path: Path, pg_server: PgServer) -> None:
    """After a copy, PostgreSQL's id sequences continue after the copied rows, so the next encounter and log row store."""
    db, url = str(tmp_path / "bot.db"), await pg_server.fresh_url()
    await play_examples(db, Clock())
    assert run_migrate("--from", db, "--to", url).returncode == 0
    h = await Harness.create(url, seed=1)
    try:
        sent = await h.run("gm", "/encounter start", "fresh", system="tote", name="After the move")
        assert not sent[0].ephemeral, sent[0].text
        sent = await h.run("gm", "/combatant add", "fresh", name="Borin", sheet="hawk=2 strike=3")
        assert not sent[0].ephemeral, sent[0].text
        [(encounters, actions)] = await query(url, "SELECT (SELECT count(*) FROM encounters), (SELECT count(*) FROM actions)")
        source = await open_store(db)
        try:
            assert encounters == await source.count_rows("encounters") + 1
            assert actions == await source.count_rows("actions") + 1
        finally:
            await source.close()
    finally:
        await h.close()


async def test_a_destination_with_other_data_is_refused_and_left_as_it_was(tmp_path: Path, pg_server: PgServer) -> None:
    """A destination whose encounter 1 is another fight is refused in one line, exit code 2, and nothing is written to it."""
    db, url = str(tmp_path / "bot.db"), await pg_server.fresh_url()
    await play_examples(db, Clock())
    other = await open_store(url)
    try:
        await other.create_encounter("elsewhere", "g", enc("Someone else's"), 1.0)
    finally:
        await other.close()

    done = run_migrate("--from", db, "--to", url)

    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "already holds encounters row id=1 with another channel_id: nothing was copied" in done.stderr
    assert await query(url, "SELECT count(*) FROM encounters") == [(1,)]
    assert await query(url, "SELECT count(*) FROM actions") == [(0,)]


async def test_rows_the_source_lacks_refuse_the_copy(tmp_path: Path, pg_server: PgServer) -> None:
    """A destination holding every source row plus one more is refused: it is not this bot's copy."""
    db, url = str(tmp_path / "bot.db"), await pg_server.fresh_url()
    await play_examples(db, Clock())
    source, dest = await open_store(db), await open_store(url)
    try:
        await migrate(source, dest)
        await dest.create_encounter("new", "g", enc("later"), 1.0)
        with pytest.raises(Exception, match="^The destination holds 1 encounters row the source does not have"):
            await migrate(source, dest)
    finally:
        await source.close()
        await dest.close()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--to", "postgresql://u:secret@host:notaport/db"], "Bad PostgreSQL URL 'postgresql://u:***@host:notaport/db'"),
        (["--to", "mysql://u@host/db"], "Unsupported DATABASE_URL scheme 'mysql'"),
        (["--to", "postgresql://u@/nope?host=/nonexistent-socket-dir"], "Cannot connect to the PostgreSQL database"),
        (["--from", "missing.db", "--to", "postgresql://u@/db"], "There is no database file missing.db"),
    ],
)
def test_a_bad_url_is_one_line_and_exit_code_2(tmp_path: Path, args: list[str], words: str) -> None:
    """A destination URL that cannot be used, or a source file that is not there, is one line on stderr with exit code 2."""
    db = tmp_path / "bot.db"
    db.touch()
    if "--from" not in args:
        args = ["--from", str(db), *args]
    done = run_migrate(*args)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert words in done.stderr and "secret" not in done.stderr


async def test_a_nul_in_stored_text_is_copied_as_postgresql_stores_it(tmp_path: Path, pg_server: PgServer) -> None:
    """A name and log summary with a NUL (SQLite keeps it, PostgreSQL text cannot) copy as U+FFFD, as the bot writes them there, and a second run finds them already copied."""
    db, url = str(tmp_path / "bot.db"), await pg_server.fresh_url()
    source = await open_store(db)
    try:
        created = await source.create_encounter("c1", "g", enc("Nul\x00name"), 1.0, user_id="u", command="/encounter start",
                                                summary="**Nul\x00name** begins")
        dest = await open_store(url)
        try:
            first = await migrate(source, dest)
            again = await migrate(source, dest)
            [row] = await dest.read_rows("actions", None, 10)
            assert row["summary"] == "**Nul\ufffdname** begins"
            [stored] = await dest.read_rows("encounters", None, 10)
            assert stored["name"] == "Nul\ufffdname" and stored["id"] == created.id
        finally:
            await dest.close()
    finally:
        await source.close()
    assert [t.copied for t in first] == [1, 1, 0, 0] and [t.copied for t in again] == [0, 0, 0, 0]
