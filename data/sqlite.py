"""The SQLite backend: one aiosqlite connection, numbered migrations, group commit.

Every statement goes through one connection, guarded by one `asyncio.Lock` so that a read
never sees a batch that is still open and a write never shares a transaction with another.
`apply` queues a change and waits; one writer task drains the whole queue and writes it in
one transaction (about three awaits per batch, whatever its size), then wakes every caller.
A batch that fails is rolled back and retried change by change, so one bad change fails alone.

A write that SQLite refuses for a passing reason (another program holds the file's lock past
`BUSY_MS`, the disk is full or failing) is refused with `StoreUnavailable` ("nothing was
changed"); the store keeps running, refuses writes at once and lets one through after
waits that double up to 2 s (`data.store.RETRY_SECONDS`), until one lands. The outage is logged at
ERROR when it begins and at WARNING at the first write that lands again (`data.store.Outage`).
"""
from __future__ import annotations

import asyncio
import errno
import json
import os
import re
import sqlite3
from collections.abc import Collection, Iterable, Sequence
from contextlib import suppress
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite
from filelock import FileLock, Timeout

from data.delta import LAST_LINK, SNAPSHOT_EVERY, Link, UndoRow, chain_rows
from data.store import (
    RECENT_INTERACTIONS,
    TABLES,
    Change,
    ChannelBusy,
    DuplicateInteraction,
    LogEntry,
    NotifyPrefs,
    Outage,
    Reminder,
    Row,
    StaleEncounter,
    Store,
    StoredEncounter,
    StoreError,
    StoreUnavailable,
    UndoConflict,
    check_change,
    entries_with_states,
    read_state,
    undo_rows,
    version_plan,
)
from rules.errors import NotFound
from rules.models import Encounter

__all__ = ["SqliteStore", "migrations", "RECENT_SQL", "BUSY_MS"]

_MIGRATION_NAME = re.compile(r"^(\d{4})_[\w\-]+\.sql$")

#: how long a write waits for a lock another program holds, in ms: short enough that a
#: refused command is answered within Discord's 3 s
BUSY_MS = 2000
_PRAGMAS = (
    "PRAGMA synchronous = NORMAL;"
    f"PRAGMA busy_timeout = {BUSY_MS};"
    "PRAGMA foreign_keys = ON;"
)
#: SQLite's primary result codes for a file that cannot be written for now (locked by another
#: program, a full or failing disk), as opposed to a change that is wrong
_PASSING = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR}
_ENCOUNTER_COLS = "id, channel_id, guild_id, state, board_message_id, version"
#: the channel's newest ended encounter, unless one is active there
_LAST_ENDED = (
    f"SELECT {_ENCOUNTER_COLS} FROM encounters WHERE channel_id = ? AND active = 0 "
    "AND NOT EXISTS (SELECT 1 FROM encounters WHERE channel_id = ? AND active = 1) "
    "ORDER BY updated_at DESC, id DESC LIMIT 1"
)
_COUNT_LOG = "SELECT count(*) FROM actions WHERE encounter_id = ?"
_UNDO_BYTES = (
    "SELECT coalesce(sum(coalesce(length(state_before), 0) + coalesce(length(delta), 0)), 0), count(*) "
    "FROM actions WHERE encounter_id = ?"
)
_LOG_COLS = (
    "id, encounter_id, interaction_id, user_id, command, summary, dice, state_before, "
    "undone, created_at, dice_typed, delta, version, chain, undoable, facts"
)
_REMINDER_COLS = "encounter_id, channel_id, due_at, user_ids, turn_key, nudges, since, warned"
#: one encounter's newest interaction ids: a walk back along the (encounter_id, id) index that
#: stops after `RECENT_INTERACTIONS` rows, so it costs the same however long the log is
RECENT_SQL = (
    "SELECT interaction_id FROM actions WHERE encounter_id = ? AND interaction_id IS NOT NULL "
    f"ORDER BY id DESC LIMIT {RECENT_INTERACTIONS}"
)
#: the state of one encounter, only on the version its change read (NULL: any)
_UPDATE_ENCOUNTER = (
    "UPDATE encounters SET state = ?, name = coalesce(?, name), active = ?, updated_at = ?, "
    "version = version + ? WHERE id = ? AND (? IS NULL OR version = ?)"
)
_INSERT_ACTION = (
    "INSERT INTO actions (encounter_id, interaction_id, user_id, command, summary, dice, "
    "state_before, created_at, dice_typed, delta, version, chain, undoable, facts) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
#: the log row of the command that created an encounter (right after its INSERT)
_INSERT_FIRST_ACTION = (
    "INSERT INTO actions (encounter_id, interaction_id, user_id, command, summary, dice, "
    "state_before, created_at, undoable) VALUES (last_insert_rowid(), ?, ?, ?, ?, '[]', NULL, ?, 0)"
)
#: the undo data of encounters ended before a time, dropped; their log text and state stay
_COMPACT = (
    "UPDATE actions SET state_before = NULL, delta = NULL, chain = NULL, undoable = 0 "
    "WHERE encounter_id IN (SELECT id FROM encounters WHERE active = 0 AND updated_at < ?) "
    "AND (state_before IS NOT NULL OR delta IS NOT NULL OR undoable = 1)"
)
_MARK_UNDONE = "UPDATE actions SET undone = 1 WHERE id = ? AND encounter_id = ? AND undone = 0"
#: a reminder, with the guild of its encounter (for the shard that owns it)
_UPSERT_REMINDER = (
    f"INSERT INTO reminders ({_REMINDER_COLS}, guild_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
    "(SELECT guild_id FROM encounters WHERE id = ?1)) "
    "ON CONFLICT (encounter_id) DO UPDATE SET channel_id = excluded.channel_id, "
    "due_at = excluded.due_at, user_ids = excluded.user_ids, turn_key = excluded.turn_key, "
    "nudges = excluded.nudges, since = excluded.since, warned = excluded.warned"
)
_DELETE_REMINDER = "DELETE FROM reminders WHERE encounter_id = ?"

_Pending = tuple[Change, "asyncio.Future[None]"]
_STOP = None  # queued by close(): write what came before, then end the writer


def migrations(folder_name: str = "migrations") -> list[tuple[int, str]]:
    """The numbered migrations shipped in ``data/<folder_name>``, as ``(number, sql)`` in order."""
    folder = resources.files(__package__).joinpath(folder_name)
    found = sorted(
        (int(m.group(1)), entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if (m := _MIGRATION_NAME.match(entry.name))
    )
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"Migrations must be numbered 1..N without gaps, found {numbers}.")
    return found


def _encounter(row: Sequence[Any], recent: Iterable[str] = ()) -> StoredEncounter:
    state = row[3]
    raw = state.decode("utf-8", "replace") if isinstance(state, bytes) else str(state or "")
    encounter, error = read_state(raw)
    return StoredEncounter(
        id=row[0],
        channel_id=row[1],
        guild_id=row[2],
        encounter=encounter,
        board_message_id=row[4],
        recent_interactions=frozenset(recent),
        raw_state=raw,
        error=error,
        version=row[5],
    )


def _recent(conn: sqlite3.Connection, encounter_ids: list[int]) -> dict[int, list[str]]:
    """Run in the connection's thread: `RECENT_SQL` for each encounter, in one hand-over."""
    return {i: [r[0] for r in conn.execute(RECENT_SQL, (i,))] for i in encounter_ids}


def _undo_row(row: Sequence[Any]) -> UndoRow:
    return UndoRow(row[0], row[7], row[11], row[12], row[13], bool(row[14]))


def _log_entry(row: Sequence[Any]) -> LogEntry:
    return LogEntry(
        id=row[0],
        encounter_id=row[1],
        interaction_id=row[2],
        user_id=row[3],
        command=row[4],
        summary=row[5],
        dice=json.loads(row[6]) if row[6] else [],
        state_before=row[7],
        undone=bool(row[8]),
        created_at=row[9],
        dice_typed=json.loads(row[10]) if row[10] else [],
        facts=row[15],
        version=row[12],
    )


def _reminder(row: Sequence[Any]) -> Reminder:
    return Reminder(row[0], row[1], row[2], json.loads(row[3] or "[]"), row[4], row[5] or 0, row[6], bool(row[7]))


def _write_batch(
    conn: sqlite3.Connection, params: tuple[list[tuple[Any, ...]], ...], committed: list[bool]
) -> None:
    """Run in the connection's thread: every statement of a batch, then commit (or roll back)."""
    states, actions, undos, upserts, deletes = params
    try:
        if actions:  # each row's undo columns chain on to the encounter's newest row
            last = {
                i: (Link(*row) if (row := conn.execute(LAST_LINK.format("?"), (i,)).fetchone()) else None)
                for i in {a[0] for a in actions}
            }
            undo = chain_rows([a[-1] for a in actions], last)
            actions = [(*a[:6], snap, *a[7:9], delta, a[-1][3], chain, a[9], a[10])
                       for a, (snap, delta, chain) in zip(actions, undo)]
        cur = conn.executemany(_UPDATE_ENCOUNTER, states)
        if cur.rowcount != len(states):
            ids = [s[5] for s in states]
            marks = ",".join("?" * len(ids))
            [(found,)] = conn.execute(f"SELECT count(*) FROM encounters WHERE id IN ({marks})", ids)
            if found != len(ids):
                raise _Mismatch(NotFound("This encounter no longer exists: start a new one with `/encounter start`."))
            raise _Mismatch(StaleEncounter())
        if actions:
            conn.executemany(_INSERT_ACTION, actions)
        if undos:
            cur = conn.executemany(_MARK_UNDONE, undos)
            if cur.rowcount != len(undos):
                raise _Mismatch(UndoConflict())
        if upserts:
            conn.executemany(_UPSERT_REMINDER, upserts)
        if deletes:
            conn.executemany(_DELETE_REMINDER, deletes)
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    committed.append(True)


def _batch_params(changes: list[Change]) -> tuple[list[tuple[Any, ...]], ...]:
    """Statement parameters for a batch, in queue order; per encounter, the last change wins
    for the state and the reminder (each of those writes replaces the previous one)."""
    states: dict[int, tuple[Any, ...]] = {}
    actions: list[tuple[Any, ...]] = []
    undos: list[tuple[Any, ...]] = []
    reminders: dict[int, tuple[Any, ...] | None] = {}
    plan = version_plan(changes)
    logged = iter(undo_rows(changes))
    for c in changes:
        enc = c.encounter
        base, count = plan[c.encounter_id]
        states[c.encounter_id] = (
            c.state_json or (enc.model_dump_json() if enc else ""), enc.name if enc else None,
            int(c.active), c.now, count, c.encounter_id, base, base,
        )
        if c.log:
            actions.append((
                c.encounter_id, c.interaction_id, c.user_id, c.command, c.summary,
                json.dumps(c.dice), None, c.now, json.dumps(c.dice_typed),
                int(c.undoable and c.state_before is not None), c.facts, next(logged),
            ))
        if c.undo_of is not None:
            undos.append((c.undo_of, c.encounter_id))
        if not c.active or c.clear_reminder:  # an ended encounter has nothing to remind
            reminders[c.encounter_id] = None
        elif (r := c.reminder) is not None:
            reminders[c.encounter_id] = (
                c.encounter_id, r.channel_id, r.due_at, json.dumps(r.user_ids), r.turn_key,
                r.nudges, r.since, int(r.warned),
            )
    upserts = [r for r in reminders.values() if r is not None]
    deletes = [(k,) for k, r in reminders.items() if r is None]
    return list(states.values()), actions, undos, upserts, deletes


class _Mismatch(Exception):
    """A batch touched fewer rows than it should: some change in it is not applicable."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


class SqliteStore(Store):
    """`Store` on one aiosqlite connection. Build it with ``await SqliteStore.open(path)``."""

    def __init__(self, db: aiosqlite.Connection, path: str, lock_fd: FileLock | None = None) -> None:
        self.path = path
        self._lock_fd = lock_fd  # the `<path>.lock` held while this store lives
        #: group-commit transactions written so far (for tests and benchmarks)
        self.batches = 0
        self._db = db
        self._lock = asyncio.Lock()
        self._queue: asyncio.Queue[_Pending | None] = asyncio.Queue()
        self._closed = False
        #: whether writes land; a passing refusal (a lock, a full disk) starts an outage
        self.outage = Outage(path)
        self._writer = asyncio.create_task(self._run_writer(), name=f"sqlite-writer:{path}")

    # -- life cycle ------------------------------------------------------------------------------
    @classmethod
    async def open(cls, path: str) -> SqliteStore:
        """Lock the file, connect, set the pragmas, run pending migrations, start the writer.

        Raises `StoreError` (one line naming the file and what to do) when another process
        holds the file or it cannot be created, written, read as SQLite, or migrated.
        """
        lock_fd = None if path == ":memory:" else _lock_file(path)
        try:
            db = await aiosqlite.connect(path, isolation_level="IMMEDIATE")
            try:
                await db.execute("PRAGMA journal_mode = WAL")
                await db.executescript(_PRAGMAS)
                await cls._migrate(db, path)
            except BaseException:
                await db.close()
                raise
        except sqlite3.Error as error:
            _unlock(lock_fd)
            raise _open_error(path, error) from None
        except BaseException:
            _unlock(lock_fd)
            raise
        return cls(db, path, lock_fd)

    @staticmethod
    async def _migrate(db: aiosqlite.Connection, path: str) -> None:
        [(version,)] = await db.execute_fetchall("PRAGMA user_version")
        known = migrations()
        if version > len(known):
            raise StoreError(
                f"{path} is at schema version {version}, newer than this code "
                f"({len(known)}): upgrade the bot, or use another database file."
            )
        for number, sql in known[version:]:
            try:
                await db.executescript(
                    f"BEGIN IMMEDIATE;\n{sql}\n;PRAGMA user_version = {number};\nCOMMIT;"
                )
            except BaseException:
                await db.rollback()
                raise

    async def close(self) -> None:
        """Write every queued change, stop the writer task, close the connection."""
        if not self._closed:
            self._closed = True
            self._queue.put_nowait(_STOP)
        await asyncio.wait([self._writer])
        await self._db.close()  # a no-op if a cancelled writer closed it already
        self._release()

    def _release(self) -> None:
        """Let another process open the file (after the connection is closed)."""
        _unlock(self._lock_fd)
        self._lock_fd = None

    # -- group commit ----------------------------------------------------------------------------
    async def apply(self, change: Change) -> None:
        """Queue ``change`` for the writer and wait until its batch is committed."""
        check_change(change)
        if self._closed or self._writer.done():
            raise RuntimeError("The store is closed.")
        if not self.outage.due():  # refused at once until the next try (`Outage`)
            raise self.outage.refused()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((change, future))
        await future

    def _drain(self, into: list[_Pending | None]) -> list[_Pending | None]:
        while not self._queue.empty():
            into.append(self._queue.get_nowait())
        return into

    async def _run_writer(self) -> None:
        task = asyncio.current_task()
        assert task is not None
        batch: list[_Pending | None] = []
        try:
            while True:
                batch = self._drain([await self._queue.get()])
                await self._write(batch)  # absorbs a cancellation that comes while writing
                stop, batch = _STOP in batch, []
                if stop:
                    return
                if task.cancelling():
                    raise asyncio.CancelledError
        except asyncio.CancelledError:
            # the event loop is going away: write the batch in hand and all queued, then close
            self._closed = True
            await self._write(self._drain(batch))
            await self._db.close()
            self._release()
            raise

    async def _write(self, queued: list[_Pending | None]) -> None:
        """Write ``queued`` in one transaction, or one by one if that fails.

        Every caller's future is resolved; only a cancellation is raised.
        """
        pending = [p for p in queued if p is not _STOP]
        if not pending:
            return
        async with self._lock:
            try:
                await self._commit([c for c, _ in pending])
            except Exception as error:
                if len(pending) == 1 or isinstance(error, StoreUnavailable):  # the file, not a change
                    for _, future in pending:
                        _fail(future, error)
                    return
                for change, future in pending:
                    try:
                        await self._commit([change])
                    except Exception as single:
                        _fail(future, single)
                    else:
                        _done(future)
            else:
                for _, future in pending:
                    _done(future)

    async def _commit(self, changes: list[Change]) -> None:
        """One transaction for ``changes``, in ONE trip to aiosqlite's thread.

        The statements and the commit run together in the connection's thread
        (`Connection._execute`, the primitive all of aiosqlite's methods use), so a batch costs
        one hand-over however busy the event loop is. A cancellation (the event loop shutting
        down) does not lose the batch: the thread finishes it, commit or roll back, so wait for
        it, and if it did not commit, write the batch again.
        """
        params = _batch_params(changes)  # StaleEncounter if one encounter's changes do not chain
        db = self._db
        for attempt in (1, 2):
            committed: list[bool] = []
            try:
                await db._execute(_write_batch, db._conn, params, committed)  # type: ignore[no-untyped-call]  # aiosqlite's private primitive is not annotated
            except asyncio.CancelledError:
                if attempt == 2:
                    raise
                await db.execute_fetchall("SELECT 1")  # runs after the batch in the thread
                if committed:
                    break
            except _Mismatch as error:
                raise error.error from None
            except sqlite3.IntegrityError as error:
                if "interaction_id" in str(error):
                    raise DuplicateInteraction() from error
                raise
            except sqlite3.OperationalError as error:
                if (refusal := self._refusal(error)) is not None:
                    raise refusal from error
                raise
            else:
                break
        self.outage.ended()
        self.batches += 1

    def _refusal(self, error: sqlite3.OperationalError) -> StoreUnavailable | None:
        """`StoreUnavailable` (the outage noted) when SQLite refused for a passing reason; else None."""
        return self.outage.failed(error) if (error.sqlite_errorcode & 0xFF) in _PASSING else None

    # -- other writes ----------------------------------------------------------------------------
    async def _write_one(self, sql: str, params: Sequence[Any]) -> aiosqlite.Cursor:
        return (await self._write_all((sql, params)))[0]

    async def _write_all(self, *statements: tuple[str, Sequence[Any]]) -> list[aiosqlite.Cursor]:
        """Run ``statements`` in one transaction."""
        if not self.outage.due():
            raise self.outage.refused()
        async with self._lock:
            try:
                cursors = [await self._db.execute(sql, params) for sql, params in statements]
                await self._db.commit()
            except BaseException as error:
                with suppress(Exception):
                    await self._db.rollback()
                if isinstance(error, sqlite3.OperationalError) and (refusal := self._refusal(error)):
                    raise refusal from error
                raise
            self.outage.ended()
            return cursors

    async def create_encounter(
        self,
        channel_id: str,
        guild_id: str | None,
        enc: Encounter,
        now: float,
        *,
        interaction_id: str | None = None,
        user_id: str | None = None,
        command: str | None = None,
        summary: str | None = None,
    ) -> StoredEncounter:
        """Store a new active encounter; raise `ChannelBusy` if the channel has one.

        With ``command``, its first log row is written in the same transaction (see `Store`).
        """
        state = enc.model_dump_json()
        statements: list[tuple[str, Sequence[Any]]] = [(
            "INSERT INTO encounters (channel_id, guild_id, system, name, state, active, "
            "created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
            (channel_id, guild_id, enc.system, enc.name, state, now, now),
        )]
        if command is not None:
            statements.append((_INSERT_FIRST_ACTION, (interaction_id, user_id, command, summary, now)))
        try:
            cur = (await self._write_all(*statements))[0]
        except sqlite3.IntegrityError as error:
            if "channel_id" in str(error):
                raise ChannelBusy() from error
            if "interaction_id" in str(error):
                raise DuplicateInteraction() from error
            raise
        assert cur.lastrowid is not None
        recent = frozenset([interaction_id] if command is not None and interaction_id else [])
        return StoredEncounter(
            cur.lastrowid, channel_id, guild_id, enc.model_copy(deep=True), None, recent, state,
            version=0,
        )

    async def set_board_message(self, encounter_id: int, message_id: str | None) -> None:
        """Remember the id of the encounter's status board message."""
        await self._write_one(
            "UPDATE encounters SET board_message_id = ? WHERE id = ?", (message_id, encounter_id)
        )

    async def bump_reminder(self, encounter_id: int, due_at: float, warned: bool = False) -> None:
        """Move a reminder to ``due_at`` and count one more nudge (``warned``: the deadline's
        warning went out)."""
        await self._write_one(
            "UPDATE reminders SET due_at = ?, nudges = nudges + 1, warned = max(warned, ?) WHERE encounter_id = ?",
            (due_at, int(warned), encounter_id),
        )

    async def postpone_reminder(self, encounter_id: int, due_at: float) -> None:
        """Move a reminder to ``due_at`` without counting a nudge (its players' quiet hours)."""
        await self._write_one("UPDATE reminders SET due_at = ? WHERE encounter_id = ?", (due_at, encounter_id))

    async def player_prefs(self, user_ids: Sequence[str]) -> dict[str, NotifyPrefs]:
        """The `/notify` choices of those of ``user_ids`` who made any."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._rows(
            f"SELECT user_id, tz, quiet_start, quiet_end, mode FROM players WHERE user_id IN ({marks})", list(user_ids)
        )
        return {row[0]: NotifyPrefs(*row) for row in rows}

    async def set_player_prefs(self, prefs: NotifyPrefs) -> None:
        """Store a player's `/notify` choices (replacing earlier ones)."""
        await self._write_one(
            "INSERT INTO players (user_id, tz, quiet_start, quiet_end, mode) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET tz = excluded.tz, quiet_start = excluded.quiet_start, "
            "quiet_end = excluded.quiet_end, mode = excluded.mode",
            (prefs.user_id, prefs.tz, prefs.quiet_start, prefs.quiet_end, prefs.mode),
        )

    async def clear_reminder(self, encounter_id: int, turn_key: str) -> None:
        """Drop the encounter's reminder if it still waits on the turn ``turn_key``."""
        await self._write_one(
            "DELETE FROM reminders WHERE encounter_id = ? AND turn_key = ?", (encounter_id, turn_key)
        )

    # -- reads -----------------------------------------------------------------------------------
    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        async with self._lock:
            return list(await self._db.execute_fetchall(sql, params))

    async def _with_recent(self, where: str, params: Sequence[Any]) -> list[StoredEncounter]:
        """Active encounters (``where`` narrows them) with their newest interaction ids, each
        read by `RECENT_SQL` from the index: the cost does not grow with the log."""
        async with self._lock:
            rows = list(await self._db.execute_fetchall(
                f"SELECT {_ENCOUNTER_COLS} FROM encounters WHERE active = 1 {where} ORDER BY id",
                params,
            ))
            if not rows:
                return []
            recent = await self._db._execute(_recent, self._db._conn, [row[0] for row in rows])  # type: ignore[no-untyped-call]  # aiosqlite's private primitive is not annotated
        return [_encounter(row, recent[row[0]]) for row in rows]

    async def load_active(self, channel_id: str) -> StoredEncounter | None:
        """The channel's active encounter, or None."""
        found = await self._with_recent("AND channel_id = ?", (channel_id,))
        return found[0] if found else None

    async def active_encounters(self) -> list[StoredEncounter]:
        """Every active encounter, oldest first."""
        return await self._with_recent("", ())

    async def last_ended(self, channel_id: str) -> StoredEncounter | None:
        """The channel's newest ended encounter, while it has no active one."""
        rows = await self._rows(_LAST_ENDED, (channel_id, channel_id))
        return _encounter(rows[0]) if rows else None

    async def log(self, encounter_id: int, count: int, skip: int = 0) -> list[LogEntry]:
        """The last ``count`` log rows of the encounter before its newest ``skip``, newest last, each ``state_before``
        rebuilt from the snapshot before it (at most `SNAPSHOT_EVERY` rows further back)."""
        count = max(count, 0)
        rows = (await self._rows(
            f"SELECT {_LOG_COLS} FROM actions WHERE encounter_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
            (encounter_id, count + SNAPSHOT_EVERY, max(skip, 0)),
        ))[::-1]
        entries = [_log_entry(row) for row in rows[max(len(rows) - count, 0):]]
        return entries_with_states(entries, [_undo_row(row) for row in rows])

    async def count_log(self, encounter_id: int) -> int:
        """How many log rows the encounter has."""
        return int((await self._rows(_COUNT_LOG, (encounter_id,)))[0][0])

    async def undo_bytes(self, encounter_id: int) -> tuple[int, int]:
        """The bytes of undo data (snapshots and deltas) the encounter's log stores, and its rows."""
        [row] = await self._rows(_UNDO_BYTES, (encounter_id,))
        return int(row[0]), int(row[1])

    async def last_undoable(self, encounter_id: int, held: Collection[int] = ()) -> LogEntry | None:
        """The newest log row that is not undone and may be undone, with its ``state_before``
        rebuilt from the snapshot at or before it, unless its version is ``held``."""
        async with self._lock:
            found = list(await self._db.execute_fetchall(
                "SELECT id, chain, version FROM actions WHERE encounter_id = ? AND undone = 0 "
                "AND undoable = 1 ORDER BY id DESC LIMIT 1",
                (encounter_id,),
            ))
            if not found:
                return None
            row_id, chain, version = found[0]
            keep = version is not None and version in held
            rows = list(await self._db.execute_fetchall(
                f"SELECT {_LOG_COLS} FROM actions WHERE encounter_id = ? AND id <= ? "
                "ORDER BY id DESC LIMIT ?",
                (encounter_id, row_id, 1 if keep else (chain or 0) + 1),
            ))[::-1]
        if keep:
            return replace(_log_entry(rows[-1]), state_before=None)
        return entries_with_states([_log_entry(rows[-1])], [_undo_row(row) for row in rows])[0]

    async def compact(self, now: float, retention_days: float) -> int:
        """Drop the undo data of encounters that ended over ``retention_days`` ago (0: none)."""
        if retention_days <= 0:
            return 0
        cur = await self._write_one(_COMPACT, (now - retention_days * 86400,))
        return cur.rowcount

    async def due_reminders(self, now: float) -> list[Reminder]:
        """Reminders due at or before ``now`` (of the guilds on `shards`, if set), soonest first."""
        mine = ""
        params: list[float | str] = [now]
        if self.shards is not None:  # a guild's shard: (guild_id >> 22) % count; none: shard 0
            mine = ("AND ((coalesce(CAST(guild_id AS INTEGER), 0) >> 22) % ?) "
                    "IN (SELECT value FROM json_each(?))")
            params += [self.shards.count, json.dumps(self.shards.ids)]
        rows = await self._rows(
            f"SELECT {_REMINDER_COLS} FROM reminders WHERE due_at <= ? {mine} "
            "ORDER BY due_at, encounter_id",
            params,
        )
        return [_reminder(row) for row in rows]

    async def count_encounters(self) -> int:
        """How many encounters are stored, ended ones included."""
        return int((await self._rows("SELECT count(*) FROM encounters"))[0][0])

    async def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` (plus foreign keys): ``"ok"`` when all is well."""
        rows = await self._rows("PRAGMA integrity_check")
        result = "\n".join(str(r[0]) for r in rows)
        if result == "ok" and (bad := await self._rows("PRAGMA foreign_key_check")):
            return f"foreign key violations: {len(bad)} rows, first in {bad[0][0]}"
        return result


    # -- whole tables, for data.migrate -------------------------------------------------------------
    async def read_rows(self, table: str, after: int | None, limit: int) -> list[Row]:
        """Up to ``limit`` rows of ``table`` by key above ``after``, as stored."""
        key, cols = TABLES[table]
        rows = await self._rows(
            f"SELECT {', '.join(cols)} FROM {table} WHERE ? IS NULL OR {key} > ? "
            f"ORDER BY {key} LIMIT ?",
            (after, after, limit),
        )
        return [_row_out(cols, row) for row in rows]

    async def read_rows_by_key(self, table: str, keys: Sequence[int | str]) -> list[Row]:
        """The rows of ``table`` whose key is in ``keys``, in key order."""
        key, cols = TABLES[table]
        rows = await self._rows(
            f"SELECT {', '.join(cols)} FROM {table} WHERE {key} IN "
            f"(SELECT value FROM json_each(?)) ORDER BY {key}",
            (json.dumps(keys),),
        )
        return [_row_out(cols, row) for row in rows]

    async def write_rows(self, table: str, rows: list[Row]) -> None:
        """Insert ``rows`` in one transaction (SQLite's ids follow the largest by themselves)."""
        _, cols = TABLES[table]
        sql = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
        async with self._lock:
            try:
                await self._db.executemany(sql, [_row_in(cols, row) for row in rows])
                await self._db.commit()
            except BaseException:
                with suppress(Exception):
                    await self._db.rollback()
                raise

    async def count_rows(self, table: str) -> int:
        """How many rows ``table`` holds."""
        if table not in TABLES:
            raise KeyError(table)
        return int((await self._rows(f"SELECT count(*) FROM {table}"))[0][0])


#: the columns SQLite keeps as JSON lists and as 0/1 flags
_JSON_LISTS = frozenset({"dice", "dice_typed", "user_ids"})
_FLAGS = frozenset({"active", "undone", "undoable", "warned"})


def _row_out(cols: tuple[str, ...], row: Sequence[Any]) -> Row:
    """A stored row as both backends give it: JSON lists as lists (NULL: empty), flags as bools."""
    out: Row = {}
    for col, value in zip(cols, row):
        if col in _JSON_LISTS:
            value = json.loads(value) if value else []
        elif col in _FLAGS:
            value = bool(value)
        elif isinstance(value, bytes):
            value = value.decode("utf-8", "replace")
        out[col] = value
    return out


def _row_in(cols: tuple[str, ...], row: Row) -> tuple[Any, ...]:
    """``row`` (as `_row_out` gives it) as SQLite stores it."""
    return tuple(
        json.dumps(row[c]) if c in _JSON_LISTS else int(bool(row[c])) if c in _FLAGS else row[c]
        for c in cols
    )


# -- the file: one process at a time, and errors a person can act on ------------------------------
def _lock_file(path: str) -> FileLock:
    """Create the database's folder, then take an exclusive lock on ``<path>.lock`` (the real
    path, however it is spelled) and write this process's id to ``<path>.lock.pid`` for the
    refusal a second process prints. Returns the held lock; `_unlock` releases it. The lock
    is the operating system's (flock on Unix, LockFileEx on Windows): it goes with the
    process, even one that is killed."""
    if os.path.isdir(path):
        raise StoreError(f"{path} is a folder, not a database file: name a file inside it.")
    folder = Path(path).parent
    lock = FileLock(os.path.realpath(path) + ".lock", timeout=0)
    holder = Path(lock.lock_file + ".pid")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if os.path.exists(path):  # SQLite would quietly open a read-only file read-only
            os.close(os.open(path, os.O_RDWR))
        lock.acquire()
    except Timeout:
        try:
            pid = holder.read_text("ascii", "replace").strip()
        except OSError:
            pid = ""
        raise StoreError(
            f"Another Skirmish process is using {path}"
            + (f" (process {pid})" if pid.isdigit() else "")
            + ": stop it first, or give this one another database (DATABASE_URL, or --db for"
            " the console)."
        ) from None
    except OSError as error:
        if not folder.is_dir():
            raise StoreError(
                f"Cannot create the folder {folder} for {path} ({error.strerror}): "
                "create it, or choose a database file in a folder that exists."
            ) from None
        raise _open_error(path, error) from None
    with suppress(OSError):
        holder.write_text(f"{os.getpid()}\n", "ascii")
    return lock


def _unlock(lock: FileLock | None) -> None:
    """Release ``lock`` (if any) and remove its holder's id."""
    if lock is not None:
        with suppress(OSError):
            Path(lock.lock_file + ".pid").unlink(missing_ok=True)
        with suppress(OSError):
            lock.release(force=True)


def _open_error(path: str, error: sqlite3.Error | OSError) -> StoreError:
    """What went wrong with the file at ``path``, in one line that says what to do."""
    text = str(error).lower()
    if isinstance(error, sqlite3.DatabaseError) and ("not a database" in text or "malformed" in text):
        return StoreError(
            f"{path} is not a SQLite database (damaged, or another kind of file): move it away "
            "or restore a backup, or use another database file."
        )
    if (
        "readonly" in text or isinstance(error, PermissionError)
        or getattr(error, "errno", None) == errno.EROFS
    ):
        return StoreError(
            f"Cannot write to {path}: the file or its folder is read-only for this process; "
            "give it write access to both (SQLite writes -wal and -shm files beside it)."
        )
    if "unable to open" in text:
        return StoreError(
            f"Cannot open {path}: check that its folder exists and this process may write there."
        )
    return StoreError(f"Cannot use the database {path}: {error}.")


def _done(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _fail(future: asyncio.Future[None], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)
