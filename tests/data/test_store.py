"""The store on both backends (SQLite files in a temp dir, a real PostgreSQL server): migrations,
round trips, group commit, undo; and what only SQLite has (the file lock, PRAGMAs, query plans)."""
from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from data import (
    RECENT_INTERACTIONS,
    ChannelBusy,
    DuplicateInteraction,
    NotifyPrefs,
    Reminder,
    SqliteStore,
    Store,
    StoreError,
    UndoConflict,
    open_store,
    sqlite_path,
)
from data.sqlite import RECENT_SQL, migrations
from data.store import ShardSlice, read_state
from rules.errors import NotFound, RulesError
from rules.models import Combatant, Encounter, MapState, Settings
from rules.systems.coup_de_grace.state import CdgCombatant, CdgEncounter
from tests.data.stores import change, enc, query


def file_query(path: Path, sql: str) -> list[tuple[object, ...]]:
    """Run ``sql`` through a separate plain sqlite3 connection (what another process sees)."""
    con = sqlite3.connect(path)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


# -- opening and migrations ---------------------------------------------------------------------
async def test_migrations_run_on_fresh_file_and_are_idempotent(db_path: Path) -> None:
    """A fresh file gets every migration and user_version; reopening changes nothing."""
    newest = len(migrations())
    s = await open_store(str(db_path))
    created = await s.create_encounter("c1", "g1", enc(), 1.0)
    await s.close()
    assert file_query(db_path, "PRAGMA user_version") == [(newest,)]
    tables = {r[0] for r in file_query(db_path, "SELECT name FROM sqlite_master")}
    assert {"encounters", "actions", "reminders", "encounters_active_channel"} <= tables
    assert file_query(db_path, "PRAGMA journal_mode") == [("wal",)]

    s = await open_store(str(db_path))
    assert (await s.load_active("c1")).id == created.id
    assert await s.count_encounters() == 1
    await s.close()
    assert file_query(db_path, "PRAGMA user_version") == [(newest,)]


def test_migrations_are_numbered_from_one() -> None:
    """The shipped migrations are found as package resources, numbered 1..N."""
    found = migrations()
    assert [n for n, _ in found] == list(range(1, len(found) + 1))
    assert "CREATE TABLE encounters" in found[0][1]


async def test_newer_database_is_refused(db_path: Path) -> None:
    """A file migrated by a newer version of the bot is not opened."""
    con = sqlite3.connect(db_path)
    con.execute(f"PRAGMA user_version = {len(migrations()) + 1}")
    con.close()
    with pytest.raises(StoreError, match="newer than this code"):
        await open_store(str(db_path))
    assert file_query(db_path, "SELECT name FROM sqlite_master") == []  # nothing was migrated


def test_sqlite_path_forms() -> None:
    """Paths, :memory: and sqlite:/// URLs name files; other schemes are refused."""
    assert sqlite_path("bot.db") == "bot.db"
    assert sqlite_path("/var/lib/bot.db") == "/var/lib/bot.db"
    assert sqlite_path(":memory:") == ":memory:"
    assert sqlite_path("sqlite:///bot.db") == "bot.db"
    assert sqlite_path("sqlite:////var/lib/bot.db") == "/var/lib/bot.db"
    assert sqlite_path("sqlite:///:memory:") == ":memory:"
    assert sqlite_path("sqlite://") == ":memory:"
    for bad in ("postgresql://u@localhost/skirmish", "mysql://x", "", "sqlite:/x"):
        with pytest.raises(StoreError):
            sqlite_path(bad)


async def test_open_store_opens_sqlite_urls(tmp_path: Path) -> None:
    """sqlite:/// URLs and :memory: open SQLite stores."""
    s = await open_store(f"sqlite:///{tmp_path}/sub/dir/bot.db")
    assert isinstance(s, Store)
    await s.create_encounter("c1", None, enc(), 1.0)
    await s.close()
    assert (tmp_path / "sub" / "dir" / "bot.db").exists()
    async with await open_store(":memory:") as mem:
        await mem.create_encounter("c1", None, enc(), 1.0)
        assert await mem.count_encounters() == 1


# -- one process per file, and files that cannot be used ----------------------------------------
ROOT = Path(__file__).resolve().parents[2]


async def test_second_open_of_the_same_file_is_refused(db_path: Path) -> None:
    """While a store holds a file, opening it again (by any spelling of its path) is refused."""
    first = await SqliteStore.open(str(db_path))
    await first.create_encounter("c1", "g", enc("first"), 1.0)
    other_spelling = str(db_path.parent / "." / db_path.name)
    for path in (str(db_path), other_spelling, f"sqlite:///{db_path}"):
        with pytest.raises(StoreError, match="Another Skirmish process is using") as caught:
            await open_store(path)
        assert str(os.getpid()) in str(caught.value)
    assert (await first.load_active("c1")).encounter.name == "first"
    await first.close()
    async with await open_store(other_spelling) as again:  # released on close
        assert await again.count_encounters() == 1


async def test_memory_stores_need_no_lock() -> None:
    """Two in-memory stores open side by side."""
    async with await open_store(":memory:") as a, await open_store(":memory:") as b:
        assert await a.count_encounters() == await b.count_encounters() == 0


async def test_second_process_on_the_file_is_refused(db_path: Path, tmp_path: Path) -> None:
    """The console on a file a store holds exits 2 with one line and changes nothing."""
    async with await open_store(str(db_path)) as held:
        created = await held.create_encounter("c1", "g", enc("held"), 1.0)
        result = subprocess.run(
            [sys.executable, "-m", "bot", "console", "--db", str(db_path)],
            cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
            text=True, timeout=60, input="@gm /encounter end\n",
        )
        assert result.returncode == 2
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "Another Skirmish process is using" in lines[0], result.stderr
        assert "Traceback" not in result.stderr and result.stdout == ""
        loaded = await held.load_active("c1")
        assert loaded is not None and loaded.id == created.id


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
async def test_the_lock_goes_with_a_killed_process(db_path: Path, tmp_path: Path) -> None:
    """A process that holds the file and is killed with SIGKILL leaves it free to open at once."""
    holder = (
        "import asyncio, sys\n"
        "from data import open_store\n"
        "async def main():\n"
        "    store = await open_store(sys.argv[1])\n"
        "    print('held', flush=True)\n"
        "    await asyncio.sleep(600)\n"
        "asyncio.run(main())\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", holder, str(db_path)], cwd=tmp_path, stdout=subprocess.PIPE,
        env=dict(os.environ, PYTHONPATH=str(ROOT)), text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        with pytest.raises(StoreError, match=rf"\(process {proc.pid}\)"):
            await open_store(str(db_path))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    async with await open_store(str(db_path)) as again:
        assert await again.count_encounters() == 0


async def test_cancelled_writer_releases_the_file(db_path: Path) -> None:
    """A store whose event loop went away without close() lets the file be opened again."""

    async def session() -> None:
        s = await SqliteStore.open(str(db_path))
        await s.create_encounter("c1", "g", enc(), 1.0)

    await asyncio.to_thread(asyncio.run, session())
    async with await open_store(str(db_path)) as s:
        assert await s.count_encounters() == 1


def _corrupt(path: Path) -> str:
    path.write_bytes(b"this is not a database, just some text\n" * 200)
    return str(path)


def _newer(path: Path) -> str:
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {len(migrations()) + 7}")
    con.close()
    return str(path)


def _directory(path: Path) -> str:
    path.mkdir()
    return str(path)


def _under_a_file(path: Path) -> str:
    path.write_text("a file, not a folder")
    return str(path / "skirmish.db")


@pytest.mark.parametrize(
    "make, words",
    [
        (_corrupt, "is not a SQLite database"),
        (_newer, "newer than this code"),
        (_directory, "is a folder"),
        (_under_a_file, "Cannot create the folder"),
    ],
)
async def test_unusable_files_raise_one_store_error(tmp_path: Path, make, words: str) -> None:
    """A corrupt file, a newer schema, a folder, or a path under a file is one StoreError naming the path."""
    path = make(tmp_path / "skirmish.db")
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(StoreError, match=words) as caught:
        await SqliteStore.open(path)
    assert path in str(caught.value) and "\n" not in str(caught.value)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")) == before
    if make is _corrupt:  # the file is left as it was
        assert (tmp_path / "skirmish.db").read_bytes().startswith(b"this is not a database")


# -- the recent interactions: a bounded read --------------------------------------------------------
async def test_recent_interactions_query_reads_the_index_not_the_table(db_path: Path) -> None:
    """The recent-interaction query searches the (encounter_id, id) index; it never scans actions."""
    await (await SqliteStore.open(str(db_path))).close()
    plan = [str(row[3]) for row in file_query(db_path, f"EXPLAIN QUERY PLAN {RECENT_SQL.replace('?', '1')}")]
    assert any("SEARCH actions USING INDEX actions_encounter (encounter_id=?)" in p for p in plan), plan
    assert not any(p.startswith("SCAN") for p in plan), plan
    assert not any("TEMP B-TREE" in p for p in plan), plan


async def test_recent_interactions_at_100000_actions(db_path: Path) -> None:
    """With 100,000 logged actions over two encounters, each load holds its own newest 256 ids."""
    s = await SqliteStore.open(str(db_path))
    a = await s.create_encounter("ca", "g", enc("a"), 1.0)
    b = await s.create_encounter("cb", "g", enc("b"), 1.0)
    ended = await s.create_encounter("cc", "g", enc("c"), 1.0)
    await s.apply(change(ended.id, "ended-last", active=False))
    await s.close()
    con = sqlite3.connect(db_path)
    rows = [
        ((a.id, b.id)[n % 2], None if n % 10 == 9 else f"x{n}", "u", "act", "s", "[]", None, float(n))
        for n in range(100_000)
    ]
    con.executemany(
        "INSERT INTO actions (encounter_id, interaction_id, user_id, command, summary, dice, "
        "state_before, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    con.commit()
    con.close()

    def newest(encounter_id: int) -> set[str]:
        ids = [r[1] for r in reversed(rows) if r[0] == encounter_id and r[1] is not None]
        return set(ids[:RECENT_INTERACTIONS])

    async with await open_store(str(db_path)) as s:
        loaded_a, loaded_b = await s.load_active("ca"), await s.load_active("cb")
        assert loaded_a is not None and loaded_b is not None
        assert loaded_a.recent_interactions == newest(a.id) and len(newest(a.id)) == RECENT_INTERACTIONS
        assert loaded_b.recent_interactions == newest(b.id)
        assert [(e.id, e.recent_interactions) for e in await s.active_encounters()] == [
            (a.id, newest(a.id)), (b.id, newest(b.id))
        ]
        assert await s.load_active("cc") is None


# -- encounters ---------------------------------------------------------------------------------
async def test_create_load_round_trip_is_exact(store: Store) -> None:
    """Every field of a rich Encounter comes back equal, with its row ids."""
    rich = Encounter(
        system="coup-de-grace",  # its typed state round-trips, read by the system's models
        variant="v2",
        name="Bridge fight",
        round=3,
        phase="move",
        current="Borin",
        order=["Borin", "Grak"],
        map=MapState(
            kind="hex", width=12, height=10, blocked=["D4"], terrain={"C3": "rough"},
            heights={"E5": 10},
        ),
        combatants=[
            Combatant(name="Borin", side="dwarves", owner_id="123", position="C4", facing="E",
                      hp=3, initiative=4, sheet={"weapons": ["axe", "bow"], "armor": 2},
                      state=CdgCombatant(mp=3, used={"ünïcödé \"axe\"": 1}, last_facing="E")),
            Combatant(name="Grak", side="orcs", status="downed", position="D5"),
        ],
        settings=Settings(player_rolls=False, reminder_hours=1.5, options={"crit": "x3"}),
        gm_ids=["42"],
        state=CdgEncounter(sides=["dwarves", "orcs"], priority="orcs", slot=7),
        winner=None,
    )
    created = await store.create_encounter("chan", "guild", rich, 5.0)
    loaded = await store.load_active("chan")
    assert loaded is not None
    assert loaded.id == created.id
    assert (loaded.channel_id, loaded.guild_id, loaded.board_message_id) == ("chan", "guild", None)
    assert loaded.encounter == rich
    assert loaded.encounter.model_dump_json() == rich.model_dump_json()
    assert loaded.recent_interactions == frozenset()
    assert await store.load_active("other") is None


async def test_one_active_encounter_per_channel(store: Store) -> None:
    """A second encounter in a busy channel is refused; after the end a new one may start."""
    first = await store.create_encounter("c1", "g", enc("first"), 1.0)
    with pytest.raises(ChannelBusy) as info:
        await store.create_encounter("c1", "g", enc("second"), 2.0)
    assert isinstance(info.value, RulesError)
    assert "`/encounter end` it first, or use a thread" in str(info.value)
    await store.create_encounter("c2", "g", enc("elsewhere"), 2.0)

    await store.apply(change(first.id, "end", active=False))
    assert await store.load_active("c1") is None
    again = await store.create_encounter("c1", "g", enc("again"), 3.0)
    loaded = await store.load_active("c1")
    assert loaded is not None and loaded.id == again.id and loaded.encounter.name == "again"
    assert await store.count_encounters() == 3
    assert [e.encounter.name for e in await store.active_encounters()] == ["elsewhere", "again"]


async def test_last_ended_is_the_newest_ended_encounter_of_a_channel_without_an_active_one(store: Store) -> None:
    """last_ended gives the channel's most recently ended encounter, its final state and log length; None while one is active or none ended."""
    assert await store.last_ended("c1") is None
    first = await store.create_encounter("c1", "g", enc("first"), 1.0)
    assert await store.last_ended("c1") is None
    await store.apply(change(first.id, "a", round=3, active=False))
    second = await store.create_encounter("c1", "g", enc("second"), 2.0)
    assert await store.last_ended("c1") is None  # a new encounter hides the ended one
    await store.apply(change(second.id, "b", round=1))
    await store.apply(change(second.id, "c", round=5, active=False))
    await store.create_encounter("c2", "g", enc("other"), 2.0)
    ended = await store.last_ended("c1")
    assert ended is not None and ended.id == second.id and ended.encounter.round == 5
    assert await store.last_ended("c2") is None and await store.last_ended("c3") is None
    assert (await store.count_log(second.id), await store.count_log(first.id)) == (2, 1)


async def test_set_board_message(store: Store) -> None:
    """The board message id is stored and can be cleared."""
    created = await store.create_encounter("c1", None, enc(), 1.0)
    await store.set_board_message(created.id, "999")
    assert (await store.load_active("c1")).board_message_id == "999"
    await store.set_board_message(created.id, None)
    assert (await store.load_active("c1")).board_message_id is None


# -- apply --------------------------------------------------------------------------------------
async def test_apply_updates_state_and_writes_log(store: Store, url: str) -> None:
    """One apply changes the state and appends a full log row, committed when it returns."""
    created = await store.create_encounter("c1", "g", enc(), 1.0)
    await store.apply(change(created.id, "i-1", round=2, summary="Borin hits Grak"))
    assert await query(url, "SELECT count(*) FROM actions") == [(1,)]  # durable on return
    loaded = await store.load_active("c1")
    assert loaded is not None and loaded.encounter.round == 2
    assert loaded.recent_interactions == {"i-1"}
    [entry] = await store.log(created.id, 10)
    assert entry.encounter_id == created.id
    assert (entry.interaction_id, entry.user_id, entry.command) == ("i-1", "u1", "act")
    assert (entry.summary, entry.dice, entry.undone) == ("Borin hits Grak", [2, 6], False)
    assert entry.state_before == enc(round=1).model_dump_json()
    assert entry.created_at == 1002.0


async def test_log_keeps_which_dice_were_typed(store: Store, url: str, backend: str) -> None:
    """The log row stores which of its dice the caller typed; a row given none reads back as none typed."""
    created = await store.create_encounter("c1", "g", enc(), 1.0)
    await store.apply(change(created.id, "i-1", round=2, dice=[2, 6, 4], dice_typed=[1]))
    await store.apply(change(created.id, "i-2", round=3))
    first, second = await store.log(created.id, 10)
    assert (first.dice, first.dice_typed) == ([2, 6, 4], [1])
    assert (second.dice, second.dice_typed) == ([3, 6], [])
    stored = {"sqlite": [("[1]",), ("[]",)], "postgresql": [([1],), ([],)]}[backend]
    assert await query(url, "SELECT dice_typed FROM actions ORDER BY id") == stored


async def test_apply_without_log_row(store: Store) -> None:
    """log=False changes the state and writes no log row."""
    created = await store.create_encounter("c1", "g", enc(), 1.0)
    await store.apply(change(created.id, None, round=4, log=False))
    assert (await store.load_active("c1")).encounter.round == 4
    assert await store.log(created.id, 10) == []


async def test_log_returns_newest_last(store: Store) -> None:
    """log(count) gives the last count rows in order, oldest of them first."""
    created = await store.create_encounter("c1", "g", enc(), 1.0)
    for r in range(1, 6):
        await store.apply(change(created.id, f"i{r}", round=r))
    assert [e.interaction_id for e in await store.log(created.id, 3)] == ["i3", "i4", "i5"]
    assert len(await store.log(created.id, 100)) == 5
    assert await store.log(created.id, 0) == []


async def test_log_skips_the_newest_for_older_pages(store: Store) -> None:
    """log(count, skip) gives the count rows before the newest skip, oldest first, with their states."""
    created = await store.create_encounter("c1", "g", enc(), 1.0)
    for r in range(1, 8):
        await store.apply(change(created.id, f"i{r}", round=r))
    page = await store.log(created.id, 3, skip=3)
    assert [e.interaction_id for e in page] == ["i2", "i3", "i4"]
    assert all(e.state_before is not None for e in page)
    assert [e.interaction_id for e in await store.log(created.id, 3, skip=6)] == ["i1"]
    assert await store.log(created.id, 3, skip=7) == []


async def test_concurrent_applies_land_in_order_once(store: Store, url: str) -> None:
    """50 concurrent applies on 5 encounters all land, in order, none twice, in few batches."""
    ids = [(await store.create_encounter(f"c{k}", "g", enc(), 1.0)).id for k in range(5)]
    before = store.batches
    await asyncio.gather(*(
        store.apply(change(ids[n % 5], f"i{n}", round=n + 1)) for n in range(50)
    ))
    assert store.batches - before < 10  # group commit: far fewer transactions than changes
    for k, encounter_id in enumerate(ids):
        log = await store.log(encounter_id, 100)
        expected = [f"i{n}" for n in range(k, 50, 5)]
        assert [e.interaction_id for e in log] == expected
        assert [e.id for e in log] == sorted(e.id for e in log)
        loaded = await store.load_active(f"c{k}")
        assert loaded is not None and loaded.encounter.round == 50 - 5 + k + 1
        assert loaded.recent_interactions == set(expected)
    assert await query(url, "SELECT count(*) FROM actions") == [(50,)]


async def test_duplicate_interaction_fails_alone(store: Store) -> None:
    """A replayed interaction id raises DuplicateInteraction; the rest of its batch lands."""
    a = await store.create_encounter("a", "g", enc(), 1.0)
    b = await store.create_encounter("b", "g", enc(), 1.0)
    await store.apply(change(a.id, "dup", round=1))
    results = await asyncio.gather(
        store.apply(change(a.id, "a2", round=2)),
        store.apply(change(b.id, "b1", round=1)),
        store.apply(change(a.id, "dup", round=99)),
        store.apply(change(b.id, "b2", round=2)),
        store.apply(change(b.id, "b2", round=98)),  # the same id twice within one batch
        store.apply(change(a.id, "a3", round=3)),
        return_exceptions=True,
    )
    assert [type(r).__name__ for r in results] == [
        "NoneType", "NoneType", "DuplicateInteraction", "NoneType", "DuplicateInteraction",
        "NoneType",
    ]
    assert str(results[2]) == "This command was already applied."
    assert isinstance(results[2], DuplicateInteraction) and isinstance(results[2], RulesError)
    assert [e.interaction_id for e in await store.log(a.id, 10)] == ["dup", "a2", "a3"]
    assert [e.interaction_id for e in await store.log(b.id, 10)] == ["b1", "b2"]
    assert (await store.load_active("a")).encounter.round == 3
    assert (await store.load_active("b")).encounter.round == 2


async def test_apply_to_missing_encounter_fails_alone(store: Store) -> None:
    """A change for an encounter that does not exist raises NotFound; its batch lands."""
    a = await store.create_encounter("a", "g", enc(), 1.0)
    results = await asyncio.gather(
        store.apply(change(a.id, "a1", round=1)),
        store.apply(change(a.id + 100, "ghost", round=1, log=False)),
        store.apply(change(a.id, "a2", round=2)),
        return_exceptions=True,
    )
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], NotFound)
    assert [e.interaction_id for e in await store.log(a.id, 10)] == ["a1", "a2"]


async def test_recent_interactions_keep_the_last_256(store: Store) -> None:
    """recent_interactions holds the newest 256 ids of the log, not older ones."""
    created = await store.create_encounter("c1", "g", enc(), 1.0)
    total = RECENT_INTERACTIONS + 20
    await asyncio.gather(*(store.apply(change(created.id, f"i{n}", round=n + 1)) for n in range(total)))
    loaded = await store.load_active("c1")
    assert loaded is not None
    assert loaded.recent_interactions == {f"i{n}" for n in range(20, total)}
    [active] = await store.active_encounters()
    assert active.recent_interactions == loaded.recent_interactions


async def test_invalid_changes_are_refused_before_queueing(store: Store) -> None:
    """A change that sets and clears a reminder, or names another encounter's, is refused."""
    created = await store.create_encounter("c1", "g", enc(), 1.0)
    rem = Reminder(created.id, "c1", 5.0, ["u"], "t")
    with pytest.raises(ValueError):
        await store.apply(change(created.id, "x", reminder=rem, clear_reminder=True))
    with pytest.raises(ValueError):
        await store.apply(change(created.id, "y", reminder=Reminder(created.id + 1, "c", 5.0,
                                                                    [], "t")))
    assert await store.log(created.id, 10) == []


# -- undo ---------------------------------------------------------------------------------------
async def test_the_last_undoable_row_says_its_version_and_leaves_a_held_state_unbuilt(store: Store) -> None:
    """last_undoable names the version the row's change read; when the caller holds the state at
    that version (``held``), the row's state before is not rebuilt from the log (None)."""
    created = await store.create_encounter("c1", "g", enc(), 1.0)
    for n in range(3):
        await store.apply(change(created.id, f"i{n}", round=n + 1, version=n))
    rebuilt = await store.last_undoable(created.id)
    assert rebuilt is not None and rebuilt.version == 2 and rebuilt.state_before is not None
    assert read_state(rebuilt.state_before)[0] == enc(round=2)
    kept = await store.last_undoable(created.id, held={1: None, 2: None})
    assert kept is not None and (kept.id, kept.version, kept.state_before) == (rebuilt.id, 2, None)
    other = await store.last_undoable(created.id, held={0: None, 1: None})
    assert other == rebuilt


async def test_undo_bookkeeping(store: Store) -> None:
    """last_undoable skips undone rows and rows without state_before; undo marks its row."""
    created = await store.create_encounter("c1", "g", enc(), 1.0)
    assert await store.last_undoable(created.id) is None
    await store.apply(change(created.id, "a", round=1))
    await store.apply(change(created.id, "b", round=2, state_before=None))
    await store.apply(change(created.id, "c", round=3))
    c = await store.last_undoable(created.id)
    assert c is not None and c.interaction_id == "c"

    await store.apply(change(created.id, "undo-c", round=2, undo_of=c.id, state_before=None,
                             command="undo"))
    log = await store.log(created.id, 10)
    assert [(e.interaction_id, e.undone) for e in log] == [
        ("a", False), ("b", False), ("c", True), ("undo-c", False)
    ]
    a = await store.last_undoable(created.id)
    assert a is not None and a.interaction_id == "a"

    with pytest.raises(UndoConflict):  # the same row cannot be undone twice
        await store.apply(change(created.id, "undo-c-again", round=9, undo_of=c.id))
    assert (await store.load_active("c1")).encounter.round == 2
    assert len(await store.log(created.id, 10)) == 4


# -- reminders ----------------------------------------------------------------------------------
async def test_reminders_upsert_clear_due_bump(store: Store) -> None:
    """Reminders are replaced, found when due, bumped with a nudge count, and cleared."""
    a = await store.create_encounter("ca", "g", enc(), 1.0)
    b = await store.create_encounter("cb", "g", enc(), 1.0)
    await store.apply(change(a.id, "a1", reminder=Reminder(a.id, "ca", 100.0, ["u1"], "r1:Borin")))
    await store.apply(change(b.id, "b1", reminder=Reminder(b.id, "cb", 50.0, ["u2", "u3"], "k")))
    assert await store.due_reminders(49.0) == []
    assert await store.due_reminders(100.0) == [
        Reminder(b.id, "cb", 50.0, ["u2", "u3"], "k", 0),
        Reminder(a.id, "ca", 100.0, ["u1"], "r1:Borin", 0),
    ]

    await store.apply(change(a.id, "a2", reminder=Reminder(a.id, "ca", 300.0, ["u9"], "r2:Grak")))
    await store.bump_reminder(b.id, 400.0)
    assert await store.due_reminders(299.0) == []
    assert await store.due_reminders(500.0) == [
        Reminder(a.id, "ca", 300.0, ["u9"], "r2:Grak", 0),
        Reminder(b.id, "cb", 400.0, ["u2", "u3"], "k", 1),
    ]

    await store.apply(change(a.id, "a3", clear_reminder=True))
    await store.apply(change(b.id, "b-end", active=False))  # ending clears the reminder too
    assert await store.due_reminders(10_000.0) == []


async def test_turn_clock_fields_warning_and_postponing(store: Store) -> None:
    """A reminder keeps when its turn began; bumping can record the warning; postponing counts no nudge."""
    a = await store.create_encounter("ca", "g", enc(), 1.0)
    await store.apply(change(a.id, "a1", reminder=Reminder(a.id, "ca", 100.0, ["u1"], "t", since=40.0)))
    assert await store.due_reminders(100.0) == [Reminder(a.id, "ca", 100.0, ["u1"], "t", 0, 40.0, False)]
    await store.bump_reminder(a.id, 200.0, warned=True)
    await store.postpone_reminder(a.id, 250.0)
    assert await store.due_reminders(250.0) == [Reminder(a.id, "ca", 250.0, ["u1"], "t", 1, 40.0, True)]
    await store.bump_reminder(a.id, 300.0)  # a later nudge keeps the warning's mark
    assert (await store.due_reminders(300.0))[0].warned is True


async def test_player_prefs_round_trip_and_replace(store: Store) -> None:
    """`/notify` choices are stored per player, read for the players asked, and replaced whole."""
    assert await store.player_prefs(["u1"]) == {}
    await store.set_player_prefs(NotifyPrefs("u1", "Europe/Paris", 22 * 60, 8 * 60, "both"))
    await store.set_player_prefs(NotifyPrefs("u2", None, None, None, "dm"))
    assert await store.player_prefs(["u1", "u3"]) == {"u1": NotifyPrefs("u1", "Europe/Paris", 1320, 480, "both")}
    await store.set_player_prefs(NotifyPrefs("u1", None, None, None, "channel"))
    assert (await store.player_prefs(["u1", "u2"]))["u1"] == NotifyPrefs("u1")
    assert (await store.player_prefs(["u2"]))["u2"].mode == "dm"


async def test_reminder_last_change_in_a_batch_wins(store: Store) -> None:
    """Within one batch, a clear after an upsert clears, and an upsert after a clear sets."""
    a = await store.create_encounter("ca", "g", enc(), 1.0)
    b = await store.create_encounter("cb", "g", enc(), 1.0)
    await asyncio.gather(
        store.apply(change(a.id, "a1", reminder=Reminder(a.id, "ca", 10.0, [], "t"))),
        store.apply(change(a.id, "a2", clear_reminder=True)),
        store.apply(change(b.id, "b1", clear_reminder=True)),
        store.apply(change(b.id, "b2", reminder=Reminder(b.id, "cb", 20.0, ["u"], "t2"))),
    )
    assert await store.due_reminders(100.0) == [Reminder(b.id, "cb", 20.0, ["u"], "t2", 0)]


# -- durability and shutdown --------------------------------------------------------------------
async def test_state_survives_close_and_reopen(url: str) -> None:
    """Encounter, board message, log, undo marks and reminders are all there after reopening."""
    s = await open_store(url)
    created = await s.create_encounter("c1", "g", enc(), 1.0)
    await s.set_board_message(created.id, "777")
    await s.apply(change(created.id, "i1", round=1))
    await s.apply(change(created.id, "i2", round=2, undo_of=1, state_before=None,
                         reminder=Reminder(created.id, "c1", 60.0, ["u1"], "t")))
    await s.close()

    s = await open_store(url)
    loaded = await s.load_active("c1")
    assert loaded is not None
    assert (loaded.id, loaded.board_message_id) == (created.id, "777")
    assert loaded.encounter == enc(round=2)
    assert loaded.recent_interactions == {"i1", "i2"}
    assert [(e.interaction_id, e.undone) for e in await s.log(created.id, 5)] == [
        ("i1", True), ("i2", False)
    ]
    assert await s.due_reminders(60.0) == [Reminder(created.id, "c1", 60.0, ["u1"], "t", 0)]
    with pytest.raises(DuplicateInteraction):  # caught after a restart too
        await s.apply(change(created.id, "i2", round=5))
    await s.close()


async def test_integrity_check_ok(store: Store) -> None:
    """integrity_check is "ok" after a mixed workload."""
    created = await store.create_encounter("c1", "g", enc(), 1.0)
    await asyncio.gather(*(store.apply(change(created.id, f"i{n}", round=n + 1)) for n in range(20)))
    assert await store.integrity_check() == "ok"


async def test_close_flushes_pending_changes(url: str) -> None:
    """Changes queued but not yet written when close() is called are committed by it."""
    s = await open_store(url)
    created = await s.create_encounter("c1", "g", enc(), 1.0)
    tasks = [asyncio.create_task(s.apply(change(created.id, f"i{n}", round=n + 1)))
             for n in range(30)]
    await asyncio.sleep(0)  # every task has queued its change; none is written yet
    await s.close()
    assert all(t.done() and t.exception() is None for t in tasks)
    with pytest.raises(RuntimeError, match="closed"):
        await s.apply(change(created.id, "late"))
    assert await query(url, "SELECT count(*), max(created_at) FROM actions") == [(30, 1030.0)]


@pytest.mark.parametrize("yields", [1, 2, 3, 5, 8])
async def test_cancelled_writer_flushes_pending_changes(url: str, yields: int) -> None:
    """When the event loop shuts down mid-batch or idle, every queued change lands once."""

    async def session() -> int:
        s = await open_store(url)
        created = await s.create_encounter("c1", "g", enc(), 1.0)
        for wave in (range(0, 20), range(20, 40)):  # the second wave queues behind a batch
            for n in wave:
                asyncio.create_task(s.apply(change(created.id, f"i{n}", round=n + 1)))
            for _ in range(yields):
                await asyncio.sleep(0)
        return created.id  # asyncio.run now cancels every task, the writer's included

    encounter_id = await asyncio.to_thread(asyncio.run, session())
    async with await open_store(url) as s:
        log = await s.log(encounter_id, 100)
        assert [e.interaction_id for e in log] == [f"i{n}" for n in range(40)]
        assert (await s.load_active("c1")).encounter.round == 40
        assert await s.integrity_check() == "ok"


# -- states as stored ---------------------------------------------------------------------------
async def test_state_with_control_characters_round_trips(store: Store) -> None:
    """A name with a NUL and other control characters is stored and read back exactly."""
    odd = enc("nul\x00tab\tbell\x07 ünï")
    created = await store.create_encounter("c1", "g", odd, 1.0)
    await store.apply(change(created.id, "i1", encounter=odd.model_copy(update={"round": 2})))
    loaded = await store.load_active("c1")
    assert loaded is not None and loaded.encounter is not None
    assert loaded.encounter.name == odd.name and loaded.encounter.round == 2


async def test_state_that_does_not_read_back_keeps_its_raw_row(store: Store, url: str) -> None:
    """A damaged state still loads: no encounter, the reason, and the row exactly as stored."""
    await store.create_encounter("c1", "g", enc(), 1.0)
    damaged = '{"system": "coup-de-grace", "round": "many"}'
    await query(url, f"UPDATE encounters SET state = '{damaged}'")
    loaded = await store.load_active("c1")
    assert loaded is not None and loaded.encounter is None
    assert loaded.raw_state == damaged and loaded.error is not None and "round" in loaded.error
    [active] = await store.active_encounters()
    assert active.raw_state == damaged and active.encounter is None


async def test_a_store_running_some_shards_claims_only_their_guilds_reminders(store: Store) -> None:
    """With `shards` set, due_reminders returns the reminders of guilds on those shards only (no guild: shard 0); unset, all of them."""
    guilds = {"g1": str(1 << 22), "g0": str(2 << 22), "none": None}  # shards 1, 0 and 0 of two
    ids = {}
    for name, guild in guilds.items():
        created = await store.create_encounter(name, guild, enc(), 1.0)
        await store.apply(change(created.id, name, reminder=Reminder(created.id, name, 5.0, ["u"], "t")))
        ids[name] = created.id
    store.shards = ShardSlice(2, (1,))
    assert [r.encounter_id for r in await store.due_reminders(10.0)] == [ids["g1"]]
    store.shards = ShardSlice(2, (0,))
    assert sorted(r.encounter_id for r in await store.due_reminders(10.0)) == sorted([ids["g0"], ids["none"]])
    store.shards = None
    assert len(await store.due_reminders(1000.0)) == 3  # after PostgreSQL's lease on the claimed ones
