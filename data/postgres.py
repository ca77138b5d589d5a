"""The PostgreSQL backend: asyncpg, a connection pool, numbered migrations, group commit.

Reads and the small writes run on a pool, each in its own transaction. `apply` queues a change
and waits; one writer task drains the whole queue and writes it in one transaction on one
pooled connection (a handful of round trips per batch, whatever its size), then wakes every
caller, so changes land in the order they were queued. A batch that fails is rolled back and
retried change by change, so one bad change fails alone. Several processes may share one
database: there is no file lock, the unique indexes refuse a second active encounter in a
channel and a repeated interaction id whichever process writes them, and migrations run under
an advisory lock.

When the server cannot be reached (stopped, restarting, out of disk) the store does not stop:
the commands under way are refused with `StoreUnavailable` ("nothing was changed"), later ones
at once without waiting on the server, and a task tries the server again with back-off
(`data.store.RETRY_SECONDS`); once it answers, commands go through again in the same process. The outage
is logged at ERROR when it begins and at WARNING when it ends (`data.store.Outage`).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Collection, Sequence
from dataclasses import replace
from typing import Any

import asyncpg

from data.delta import LAST_LINK, SNAPSHOT_EVERY, Link, UndoRow, chain_rows
from data.sqlite import migrations
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
    redact_url,
    undo_rows,
    version_plan,
)
from data.store import (
    text_without_nul as _text,
)
from rules.errors import NotFound
from rules.models import Encounter

__all__ = ["PostgresStore", "RECENT_SQL", "MIGRATIONS", "REMINDER_LEASE"]

log = logging.getLogger("skirmish.store")

#: the folder of data/ that holds this backend's numbered migrations
MIGRATIONS = "migrations_pg"
_MIGRATION_LOCK = 0x536B726D  # pg_advisory_xact_lock key: one process migrates at a time
_CONNECT_SECONDS = 10
#: seconds a process's claim on a due reminder lasts: if it has not sent it (and bumped or
#: cleared it) by then, the reminder is due again for any process
REMINDER_LEASE = 120.0
#: what a server that cannot be reached raises (stopped, restarting, a lost connection, out of
#: disk or connections), as opposed to a change that is wrong: the command is refused with
#: `StoreUnavailable` and the store tries the server again
_LOST: tuple[type[BaseException], ...] = (
    OSError, asyncio.TimeoutError, asyncpg.PostgresConnectionError, asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError, asyncpg.CannotConnectNowError, asyncpg.InsufficientResourcesError,
)

_LOG_COLS = (
    "id, encounter_id, interaction_id, user_id, command, summary, dice, state_before, "
    "undone, created_at, dice_typed, delta, version, chain, undoable, facts"
)
_REMINDER_COLS = "encounter_id, channel_id, due_at, user_ids, turn_key, nudges, since, warned"
#: one encounter's newest interaction ids, read backwards from the covering index
RECENT_SQL = (
    "SELECT a.interaction_id FROM actions a WHERE a.encounter_id = e.id "
    f"AND a.interaction_id IS NOT NULL ORDER BY a.id DESC LIMIT {RECENT_INTERACTIONS}"
)
_ACTIVE = (
    "SELECT e.id, e.channel_id, e.guild_id, e.state, e.board_message_id, e.version, "
    f"ARRAY({RECENT_SQL}) AS recent FROM encounters e WHERE e.active"
)
#: the channel's newest ended encounter, unless one is active there (no recent ids: it takes no commands)
_LAST_ENDED = (
    "SELECT e.id, e.channel_id, e.guild_id, e.state, e.board_message_id, e.version, "
    "ARRAY[]::text[] AS recent FROM encounters e WHERE e.channel_id = $1 AND NOT e.active "
    "AND NOT EXISTS (SELECT 1 FROM encounters a WHERE a.channel_id = $1 AND a.active) "
    "ORDER BY e.updated_at DESC, e.id DESC LIMIT 1"
)
_COUNT_LOG = "SELECT count(*) FROM actions WHERE encounter_id = $1"
_UNDO_BYTES = (
    "SELECT coalesce(sum(coalesce(length(state_before), 0) + coalesce(length(delta), 0)), 0), count(*) "
    "FROM actions WHERE encounter_id = $1"
)
#: the batch's encounters locked for the transaction, in id order (the same in every process)
_LOCK_ENCOUNTERS = "SELECT pg_advisory_xact_lock(id) FROM unnest($1::bigint[]) AS id ORDER BY id"
#: the batch's states, one per encounter (the last change wins), in one statement; each only
#: on the version its changes read (NULL: any), which goes up by their count
_UPDATE_STATES = (
    "UPDATE encounters e SET state = v.state, name = coalesce(v.name, e.name), "
    "active = v.active, updated_at = v.now, version = e.version + v.count "
    "FROM unnest($1::bigint[], $2::text[], $3::text[], $4::boolean[], $5::float8[], "
    "$6::bigint[], $7::bigint[]) AS v(id, state, name, active, now, base, count) "
    "WHERE e.id = v.id AND (v.base IS NULL OR e.version = v.base) RETURNING e.id"
)
#: the due reminders no other process holds, claimed for `REMINDER_LEASE` seconds; returned
#: as they were due
_CLAIM_REMINDERS = (
    "WITH due AS (SELECT encounter_id, due_at FROM reminders WHERE due_at <= $1 {mine}"
    "ORDER BY due_at, encounter_id FOR UPDATE SKIP LOCKED) "
    "UPDATE reminders r SET due_at = $1 + $2 FROM due WHERE r.encounter_id = due.encounter_id "
    "RETURNING r.encounter_id, r.channel_id, due.due_at, r.user_ids, r.turn_key, r.nudges, r.since, r.warned"
)
#: the `_CLAIM_REMINDERS` filter of a process that runs some shards: a guild's shard is
#: (guild_id >> 22) % count, and no guild is shard 0
_MY_SHARDS = "AND (coalesce(guild_id, '0')::bigint >> 22) % $3 = ANY($4::bigint[]) "
_INSERT_ACTION = (
    "INSERT INTO actions (encounter_id, interaction_id, user_id, command, summary, dice, "
    "state_before, created_at, dice_typed, delta, version, chain, undoable, facts) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"
)
#: each encounter's newest log row as a `Link`, read backwards from the index
_LAST_LINKS = (
    "SELECT v.id, a.* FROM unnest($1::bigint[]) AS v(id) LEFT JOIN LATERAL ("
    + LAST_LINK.format("v.id") + ") a ON true"
)
#: the undo data of encounters ended before a time, dropped; their log text and state stay
_COMPACT = (
    "UPDATE actions SET state_before = NULL, delta = NULL, chain = NULL, undoable = false "
    "WHERE encounter_id IN (SELECT id FROM encounters WHERE NOT active AND updated_at < $1) "
    "AND (state_before IS NOT NULL OR delta IS NOT NULL OR undoable)"
)
_MARK_UNDONE = (
    "UPDATE actions a SET undone = true FROM unnest($1::bigint[], $2::bigint[]) AS v(id, enc) "
    "WHERE a.id = v.id AND a.encounter_id = v.enc AND NOT a.undone RETURNING a.id"
)
#: a reminder, with the guild of its encounter (for the shard that owns it)
_UPSERT_REMINDER = (
    f"INSERT INTO reminders ({_REMINDER_COLS}, guild_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, "
    "(SELECT guild_id FROM encounters WHERE id = $1)) "
    "ON CONFLICT (encounter_id) DO UPDATE SET channel_id = excluded.channel_id, "
    "due_at = excluded.due_at, user_ids = excluded.user_ids, turn_key = excluded.turn_key, "
    "nudges = excluded.nudges, since = excluded.since, warned = excluded.warned"
)
_DELETE_REMINDERS = "DELETE FROM reminders WHERE encounter_id = ANY($1::bigint[])"

_Pending = tuple[Change, "asyncio.Future[None]"]
_STOP = None  # queued by close(): write what came before, then end the writer


def _encounter(row: asyncpg.Record) -> StoredEncounter:
    raw = row["state"] or ""
    encounter, error = read_state(raw)
    return StoredEncounter(
        id=row["id"],
        channel_id=row["channel_id"],
        guild_id=row["guild_id"],
        encounter=encounter,
        board_message_id=row["board_message_id"],
        recent_interactions=frozenset(row["recent"]),
        raw_state=raw,
        error=error,
        version=row["version"],
    )


def _undo_row(row: asyncpg.Record) -> UndoRow:
    return UndoRow(row["id"], row["state_before"], row["delta"], row["version"], row["chain"],
                   row["undoable"])


def _log_entry(row: asyncpg.Record) -> LogEntry:
    return LogEntry(
        id=row["id"],
        encounter_id=row["encounter_id"],
        interaction_id=row["interaction_id"],
        user_id=row["user_id"],
        command=row["command"],
        summary=row["summary"],
        dice=list(row["dice"]),
        state_before=row["state_before"],
        undone=row["undone"],
        created_at=row["created_at"],
        dice_typed=list(row["dice_typed"]),
        facts=row["facts"],
        version=row["version"],
    )


def _reminder(row: asyncpg.Record) -> Reminder:
    return Reminder(
        encounter_id=row["encounter_id"],
        channel_id=row["channel_id"],
        due_at=row["due_at"],
        user_ids=list(row["user_ids"]),
        turn_key=row["turn_key"],
        nudges=row["nudges"],
        since=row["since"],
        warned=row["warned"],
    )


def _lost_cause(error: BaseException) -> BaseException | None:
    """The error that says the server went away, ``error`` itself or one it was raised while
    handling (the driver's error for the roll-back or the reset after the server ended the session
    mid-operation, such as "another operation is in progress", comes from the server's); None if none."""
    seen: set[int] = set()
    at: BaseException | None = error
    while at is not None and id(at) not in seen:
        if isinstance(at, _LOST):
            return at
        seen.add(id(at))
        at = at.__cause__ or at.__context__
    return None


def _gone(conn: asyncpg.Connection, error: BaseException) -> bool:
    """Whether ``error`` on ``conn`` means the server went away (whatever the driver raised)."""
    if _lost_cause(error) is not None:
        return True
    try:
        return bool(conn.is_closed())
    except asyncpg.InterfaceError:  # the pool took the connection back: it was lost
        return True


def _unique_error(error: asyncpg.UniqueViolationError) -> Exception:
    """The store's error for a unique index a write ran into."""
    if error.constraint_name == "encounters_active_channel":
        return ChannelBusy()
    if error.constraint_name == "actions_interaction_id_key":
        return DuplicateInteraction()
    same: Exception = error
    return same


async def _write_batch(conn: asyncpg.Connection, changes: list[Change]) -> None:
    """``changes`` in one transaction on ``conn``, in queue order; per encounter, the last
    change sets the state and the reminder. Raises the first change that does not apply."""
    plan = version_plan(changes)
    states: dict[int, tuple[str, str | None, bool, float, int | None, int]] = {}
    actions: list[tuple[Any, ...]] = []
    undos: list[tuple[int, int]] = []
    reminders: dict[int, Reminder | None] = {}
    logged = undo_rows(changes)
    for c in changes:
        enc = c.encounter
        states[c.encounter_id] = (
            c.state_json or (enc.model_dump_json() if enc else ""),
            _text(enc.name) if enc else None, c.active, c.now, *plan[c.encounter_id],
        )
        if c.log:
            actions.append((
                c.encounter_id, _text(c.interaction_id), _text(c.user_id), _text(c.command),
                _text(c.summary), c.dice, None, c.now, c.dice_typed,
                c.undoable and c.state_before is not None, _text(c.facts),
            ))
        if c.undo_of is not None:
            undos.append((c.undo_of, c.encounter_id))
        if not c.active or c.clear_reminder:  # an ended encounter has nothing to remind
            reminders[c.encounter_id] = None
        elif c.reminder is not None:
            reminders[c.encounter_id] = c.reminder
    async with conn.transaction():
        ids = sorted(states)  # the same lock order in every process
        await conn.execute(_LOCK_ENCOUNTERS, ids)
        updated = await conn.fetch(_UPDATE_STATES, ids, *(
            [states[i][k] for i in ids] for k in range(6)
        ))
        if len(updated) != len(ids):
            missed = sorted(set(ids) - {r["id"] for r in updated})
            found = await conn.fetchval(
                "SELECT count(*) FROM encounters WHERE id = ANY($1::bigint[])", missed
            )
            if found != len(missed):
                raise NotFound("This encounter no longer exists: start a new one with `/encounter start`.")
            raise StaleEncounter()
        if actions:  # each row's undo columns chain on to the encounter's newest row
            last = {
                r["id"]: None if r["version"] is None and r["chain"] is None
                else Link(r["version"], r["chain"])
                for r in await conn.fetch(_LAST_LINKS, sorted({a[0] for a in actions}))
            }
            undo = chain_rows(logged, last)
            await conn.executemany(_INSERT_ACTION, [
                (*a[:6], snap, *a[7:9], delta, row[3], chain, a[9], a[10])
                for a, row, (snap, delta, chain) in zip(actions, logged, undo)
            ])
        if undos:
            marked = await conn.fetch(_MARK_UNDONE, [u[0] for u in undos], [u[1] for u in undos])
            if len(marked) != len(undos):
                raise UndoConflict()
        if deletes := [k for k, r in reminders.items() if r is None]:
            await conn.execute(_DELETE_REMINDERS, deletes)
        if upserts := [r for r in reminders.values() if r is not None]:
            await conn.executemany(_UPSERT_REMINDER, [
                (r.encounter_id, r.channel_id, r.due_at, r.user_ids, r.turn_key, r.nudges, r.since, r.warned)
                for r in upserts
            ])


class PostgresStore(Store):
    """`Store` on an asyncpg pool. Build it with ``await PostgresStore.open(url)``."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.url = redact_url(url)
        #: group-commit transactions written so far (for tests and benchmarks)
        self.batches = 0
        self._pool = pool
        self._queue: asyncio.Queue[_Pending | None] = asyncio.Queue()
        self._closed = False
        #: whether the server answers; while it does not, a task tries it again (`_reconnect`)
        self.outage = Outage(self.url)
        self._reconnecting: asyncio.Task[None] | None = None
        self._writer = asyncio.create_task(self._run_writer(), name="postgres-writer")

    # -- life cycle ------------------------------------------------------------------------------
    @classmethod
    async def open(cls, url: str, *, max_connections: int = 10) -> PostgresStore:
        """Connect, run pending migrations, start the writer.

        Raises `StoreError` (one line naming the database, never its password, and what to do)
        when the server cannot be reached, refuses the login, has no such database, or holds a
        schema newer than this code.
        """
        shown = redact_url(url)
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=max_connections, timeout=_CONNECT_SECONDS,
            )
        except Exception as error:
            raise _connect_error(shown, url, error) from None
        try:
            async with pool.acquire() as conn:
                await cls._migrate(conn, shown)
        except BaseException:
            pool.terminate()
            raise
        return cls(pool, url)

    @staticmethod
    async def _migrate(conn: asyncpg.Connection, shown: str) -> None:
        known = migrations(MIGRATIONS)
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, "
                "applied_at timestamptz NOT NULL DEFAULT now())"
            )
            version = await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version")
            if version > len(known):
                raise StoreError(
                    f"The database {shown} is at schema version {version}, newer than this code "
                    f"({len(known)}): upgrade the bot, or use another database."
                )
            for number, sql in known[version:]:
                await conn.execute(sql)
                await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)

    async def close(self) -> None:
        """Write every queued change, stop the writer task, close the pool."""
        if not self._closed:
            self._closed = True
            self._queue.put_nowait(_STOP)
        await asyncio.wait([self._writer])
        if self._reconnecting is not None:
            self._reconnecting.cancel()
            await asyncio.wait([self._reconnecting])
        await self._pool.close()  # a no-op if a cancelled writer closed it already

    # -- outages ---------------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection for one operation. While the server cannot be reached this
        raises `StoreUnavailable` at once; an operation that finds it gone raises it too (and
        starts the outage: logged once, the server tried again with back-off)."""
        if self.outage.down:
            raise self.outage.refused()
        conn: asyncpg.Connection | None = None
        left: BaseException | None = None  # the operation's own error, as it left the block
        try:
            async with self._pool.acquire() as conn:
                try:
                    yield conn
                except Exception as error:
                    if _gone(conn, error):
                        left = self._lost(error)
                        raise left from error
                    left = error
                    raise
        except _LOST as error:
            raise self._lost(error) from error
        except Exception as error:
            if conn is None or error is left:
                raise
            # giving the connection back failed (its reset found the session ended, and the pool
            # closed it): the server is gone, and the outage is the one logged
            raise self._lost(error) from error

    def _lost(self, error: BaseException) -> StoreUnavailable:
        unavailable = self.outage.failed(_lost_cause(error) or error)
        if not self._closed and (self._reconnecting is None or self._reconnecting.done()):
            self._reconnecting = asyncio.create_task(self._reconnect(), name="postgres-reconnect")
        return unavailable

    async def _reconnect(self) -> None:
        """Try the server with back-off (`data.store.RETRY_SECONDS`) until it answers; then the
        outage ends and commands go through again."""
        while self.outage.down and not self._closed:
            await asyncio.sleep(max(self.outage.next_try - self.outage.clock(), 0.0))
            conn: asyncpg.Connection | None = None
            left: BaseException | None = None
            gone = False
            try:
                async with self._pool.acquire(timeout=_CONNECT_SECONDS) as conn:
                    try:
                        await conn.fetchval("SELECT 1")
                    except Exception as error:
                        left, gone = error, _gone(conn, error)
                        raise
            except Exception as error:
                released = conn is not None and error is not left  # giving it back failed
                if gone or released or _lost_cause(error) is not None:
                    self.outage.failed(error)  # the same outage: logged when it began
                    continue
                # not an outage as we know it: keep trying, and say what it was
                log.exception("trying the database %s again failed", self.url)
                self.outage.failed(error)
            else:
                self.outage.ended()

    # -- group commit ----------------------------------------------------------------------------
    async def apply(self, change: Change) -> None:
        """Queue ``change`` for the writer and wait until its batch is committed."""
        check_change(change)
        if self._closed or self._writer.done():
            raise RuntimeError("The store is closed.")
        if self.outage.down:  # refused at once: the player hears of it within the interaction
            raise self.outage.refused()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((change, future))
        await future

    async def _run_writer(self) -> None:
        task = asyncio.current_task()
        assert task is not None
        batch: list[_Pending | None] = []
        try:
            while True:
                batch = [await self._queue.get()]
                while not self._queue.empty():
                    batch.append(self._queue.get_nowait())
                await self._write(batch)
                stop, batch = _STOP in batch, []
                if stop:
                    return
                if task.cancelling():
                    raise asyncio.CancelledError
        except asyncio.CancelledError:
            # the event loop is going away: write the batch in hand and all queued, then close
            self._closed = True
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            await self._write(batch)
            await self._pool.close()
            raise

    async def _write(self, queued: list[_Pending | None]) -> None:
        """Write ``queued`` in one transaction, or one by one if that fails; every caller's
        future is resolved (with `StoreUnavailable` when the server is gone), and the writer
        lives on whatever happened."""
        pending = [p for p in queued if p is not _STOP]
        if not pending:
            return
        changes = [c for c, _ in pending]
        outcomes: list[Exception | None] = []
        try:
            async with self._connection() as conn:
                error = await self._commit(conn, changes)
                if error is None or len(changes) == 1:
                    outcomes = [error] * len(changes)
                else:
                    for c in changes:
                        outcomes.append(await self._commit(conn, [c]))
        except StoreUnavailable as unavailable:
            outcomes += [unavailable] * (len(changes) - len(outcomes))
        except Exception as error:  # a bug: its callers hear of it, the writer goes on
            log.exception("writing a batch of %d changes failed", len(changes))
            outcomes += [error] * (len(changes) - len(outcomes))
        for (_, future), outcome in zip(pending, outcomes):
            if future.done():
                continue
            if outcome is None:
                future.set_result(None)
            else:
                future.set_exception(outcome)

    async def _commit(self, conn: asyncpg.Connection, changes: list[Change]) -> Exception | None:
        """One transaction for ``changes``; the error that rolled it back, or None."""
        try:
            await _write_batch(conn, changes)
        except asyncpg.UniqueViolationError as error:
            return _unique_error(error)
        except Exception as error:
            if _gone(conn, error):
                raise  # the server is gone: the whole batch is refused (`_connection`)
            return error
        self.batches += 1
        return None

    # -- other writes ----------------------------------------------------------------------------
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
        try:
            async with self._connection() as conn, conn.transaction():
                new_id = await conn.fetchval(
                    "INSERT INTO encounters (channel_id, guild_id, system, name, state, active, "
                    "created_at, updated_at) VALUES ($1, $2, $3, $4, $5, true, $6, $6) RETURNING id",
                    _text(channel_id), _text(guild_id), enc.system, _text(enc.name), state, now,
                )
                if command is not None:
                    await conn.execute(
                        _INSERT_ACTION, new_id, _text(interaction_id), _text(user_id),
                        _text(command), _text(summary), [], None, now, [], None, None, None,
                        False, None,
                    )
        except asyncpg.UniqueViolationError as error:
            raise _unique_error(error) from error
        recent = frozenset([interaction_id] if command is not None and interaction_id else [])
        return StoredEncounter(
            new_id, channel_id, guild_id, enc.model_copy(deep=True), None, recent, state,
            version=0,
        )

    async def _execute(self, sql: str, *params: Any) -> str:
        async with self._connection() as conn:
            status: str = await conn.execute(sql, *params)
            return status

    async def set_board_message(self, encounter_id: int, message_id: str | None) -> None:
        """Remember the id of the encounter's status board message."""
        await self._execute(
            "UPDATE encounters SET board_message_id = $1 WHERE id = $2", message_id, encounter_id
        )

    async def bump_reminder(self, encounter_id: int, due_at: float, warned: bool = False) -> None:
        """Move a reminder to ``due_at`` and count one more nudge (``warned``: the deadline's
        warning went out)."""
        await self._execute(
            "UPDATE reminders SET due_at = $1, nudges = nudges + 1, warned = warned OR $2 WHERE encounter_id = $3",
            due_at, warned, encounter_id,
        )

    async def postpone_reminder(self, encounter_id: int, due_at: float) -> None:
        """Move a reminder to ``due_at`` without counting a nudge (its players' quiet hours)."""
        await self._execute("UPDATE reminders SET due_at = $1 WHERE encounter_id = $2", due_at, encounter_id)

    async def player_prefs(self, user_ids: Sequence[str]) -> dict[str, NotifyPrefs]:
        """The `/notify` choices of those of ``user_ids`` who made any."""
        if not user_ids:
            return {}
        rows = await self._rows(
            "SELECT user_id, tz, quiet_start, quiet_end, mode FROM players WHERE user_id = ANY($1::text[])", list(user_ids)
        )
        return {row["user_id"]: NotifyPrefs(*row) for row in rows}

    async def set_player_prefs(self, prefs: NotifyPrefs) -> None:
        """Store a player's `/notify` choices (replacing earlier ones)."""
        await self._execute(
            "INSERT INTO players (user_id, tz, quiet_start, quiet_end, mode) VALUES ($1, $2, $3, $4, $5) "
            "ON CONFLICT (user_id) DO UPDATE SET tz = excluded.tz, quiet_start = excluded.quiet_start, "
            "quiet_end = excluded.quiet_end, mode = excluded.mode",
            prefs.user_id, prefs.tz, prefs.quiet_start, prefs.quiet_end, prefs.mode,
        )

    async def release_reminder(self, reminder: Reminder) -> None:
        """Give back a claimed reminder that was not sent: its due time is what it was before
        the claim (unless it changed since: a new turn, a nudge counted)."""
        await self._execute(
            "UPDATE reminders SET due_at = $2 WHERE encounter_id = $1 AND turn_key = $3 "
            "AND nudges = $4",
            reminder.encounter_id, reminder.due_at, reminder.turn_key, reminder.nudges,
        )

    async def clear_reminder(self, encounter_id: int, turn_key: str) -> None:
        """Drop the encounter's reminder if it still waits on the turn ``turn_key``."""
        await self._execute(
            "DELETE FROM reminders WHERE encounter_id = $1 AND turn_key = $2", encounter_id, turn_key
        )

    # -- reads -----------------------------------------------------------------------------------
    async def _rows(self, sql: str, *params: Any) -> Sequence[asyncpg.Record]:
        async with self._connection() as conn:
            rows: Sequence[asyncpg.Record] = await conn.fetch(sql, *params)
            return rows

    async def _value(self, sql: str, *params: Any) -> Any:
        async with self._connection() as conn:
            return await conn.fetchval(sql, *params)

    async def load_active(self, channel_id: str) -> StoredEncounter | None:
        """The channel's active encounter, or None."""
        rows = await self._rows(f"{_ACTIVE} AND e.channel_id = $1", channel_id)
        return _encounter(rows[0]) if rows else None

    async def active_encounters(self) -> list[StoredEncounter]:
        """Every active encounter, oldest first."""
        return [_encounter(row) for row in await self._rows(f"{_ACTIVE} ORDER BY e.id")]

    async def last_ended(self, channel_id: str) -> StoredEncounter | None:
        """The channel's newest ended encounter, while it has no active one."""
        rows = await self._rows(_LAST_ENDED, channel_id)
        return _encounter(rows[0]) if rows else None

    async def log(self, encounter_id: int, count: int, skip: int = 0) -> list[LogEntry]:
        """The last ``count`` log rows of the encounter before its newest ``skip``, newest last, each ``state_before``
        rebuilt from the snapshot before it (at most `SNAPSHOT_EVERY` rows further back)."""
        count = max(count, 0)
        rows = list(await self._rows(
            f"SELECT {_LOG_COLS} FROM actions WHERE encounter_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3",
            encounter_id, count + SNAPSHOT_EVERY, max(skip, 0),
        ))[::-1]
        entries = [_log_entry(row) for row in rows[max(len(rows) - count, 0):]]
        return entries_with_states(entries, [_undo_row(row) for row in rows])

    async def count_log(self, encounter_id: int) -> int:
        """How many log rows the encounter has."""
        return int((await self._rows(_COUNT_LOG, encounter_id))[0][0])

    async def undo_bytes(self, encounter_id: int) -> tuple[int, int]:
        """The bytes of undo data (snapshots and deltas) the encounter's log stores, and its rows."""
        [row] = await self._rows(_UNDO_BYTES, encounter_id)
        return int(row[0]), int(row[1])

    async def last_undoable(self, encounter_id: int, held: Collection[int] = ()) -> LogEntry | None:
        """The newest log row that is not undone and may be undone, with its ``state_before``
        rebuilt from the snapshot at or before it (one statement: the row, then its chain),
        unless its version is ``held``."""
        rows = list(await self._rows(
            f"WITH k AS (SELECT id, coalesce(chain, 0) + 1 AS n FROM actions WHERE "
            "encounter_id = $1 AND NOT undone AND undoable ORDER BY id DESC LIMIT 1) "
            f"SELECT {_LOG_COLS} FROM actions WHERE encounter_id = $1 AND id <= (SELECT id FROM k) "
            "ORDER BY id DESC LIMIT (SELECT n FROM k)",
            encounter_id,
        ))[::-1]
        if not rows:
            return None
        if rows[-1]["version"] is not None and rows[-1]["version"] in held:
            return replace(_log_entry(rows[-1]), state_before=None)
        return entries_with_states([_log_entry(rows[-1])], [_undo_row(row) for row in rows])[0]

    async def compact(self, now: float, retention_days: float) -> int:
        """Drop the undo data of encounters that ended over ``retention_days`` ago (0: none)."""
        if retention_days <= 0:
            return 0
        status = await self._execute(_COMPACT, now - retention_days * 86400)
        return int(status.split()[-1])

    async def due_reminders(self, now: float) -> list[Reminder]:
        """Reminders due at or before ``now``, soonest first, each claimed for this process:
        locked with ``FOR UPDATE SKIP LOCKED`` (a process asking at the same moment passes
        over them) and moved `REMINDER_LEASE` seconds ahead in the same statement, so no other
        process takes them until this one has sent them (`bump_reminder`, `clear_reminder`)."""
        if self.shards is None:
            rows = await self._rows(_CLAIM_REMINDERS.format(mine=""), now, REMINDER_LEASE)
        else:
            rows = await self._rows(_CLAIM_REMINDERS.format(mine=_MY_SHARDS), now, REMINDER_LEASE,
                                    self.shards.count, list(self.shards.ids))
        return sorted(map(_reminder, rows), key=lambda r: (r.due_at, r.encounter_id))

    async def count_encounters(self) -> int:
        """How many encounters are stored, ended ones included."""
        return int(await self._value("SELECT count(*) FROM encounters"))

    async def integrity_check(self) -> str:
        """``"ok"`` when the schema is this code's and every index is valid; else what is not."""
        version = await self._value("SELECT max(version) FROM schema_version")
        if version != len(migrations(MIGRATIONS)):
            return f"schema version {version}, expected {len(migrations(MIGRATIONS))}"
        bad = await self._rows(
            "SELECT indexrelid::regclass::text AS name FROM pg_index i JOIN pg_class c "
            "ON c.oid = i.indrelid WHERE c.relnamespace = current_schema()::regnamespace "
            "AND NOT (i.indisvalid AND i.indisready)"
        )
        return f"invalid indexes: {', '.join(r['name'] for r in bad)}" if bad else "ok"


    # -- whole tables, for data.migrate -------------------------------------------------------------
    async def read_rows(self, table: str, after: int | None, limit: int) -> list[Row]:
        """Up to ``limit`` rows of ``table`` by key above ``after``, as stored."""
        key, cols = TABLES[table]
        kind = _KEY_TYPES.get(table, "bigint")
        rows = await self._rows(
            f"SELECT {', '.join(cols)} FROM {table} WHERE $1::{kind} IS NULL OR {key} > $1 "
            f"ORDER BY {key} LIMIT $2",
            after, limit,
        )
        return [_row_out(row) for row in rows]

    async def read_rows_by_key(self, table: str, keys: Sequence[int | str]) -> list[Row]:
        """The rows of ``table`` whose key is in ``keys``, in key order."""
        key, cols = TABLES[table]
        rows = await self._rows(
            f"SELECT {', '.join(cols)} FROM {table} WHERE {key} = ANY($1::{_KEY_TYPES.get(table, 'bigint')}[]) "
            f"ORDER BY {key}",
            keys,
        )
        return [_row_out(row) for row in rows]

    async def write_rows(self, table: str, rows: list[Row]) -> None:
        """Insert ``rows`` in one transaction, then move the table's id sequence past them."""
        key, cols = TABLES[table]
        marks = ", ".join(f"${i}" for i in range(1, len(cols) + 1))
        async with self._connection() as conn, conn.transaction():
            await conn.executemany(
                f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})",
                [tuple(_text(v) if isinstance(v, str) else v for v in (row[c] for c in cols)) for row in rows],
            )
            if table not in _KEY_TYPES:  # a text key has no id sequence to move
                await conn.execute(
                    f"SELECT setval(s, (SELECT max({key}) FROM {table})) FROM "
                    f"pg_get_serial_sequence('{table}', '{key}') AS s WHERE s IS NOT NULL"
                )

    async def count_rows(self, table: str) -> int:
        """How many rows ``table`` holds."""
        if table not in TABLES:
            raise KeyError(table)
        return int(await self._value(f"SELECT count(*) FROM {table}"))


#: tables whose key is not a bigint id
_KEY_TYPES = {"players": "text"}


def _row_out(row: asyncpg.Record) -> Row:
    """A stored row as both backends give it: arrays as lists."""
    return {k: list(v) if isinstance(v, list | tuple) else v for k, v in row.items()}


def _connect_error(shown: str, url: str, error: BaseException) -> StoreError:
    """Why the database at ``shown`` cannot be reached, in one line that says what to do (the
    password of ``url`` is taken out of anything the driver said)."""
    reason = " ".join(str(error).split()) or type(error).__name__
    password = url.partition("://")[2].partition("@")[0].partition(":")[2]
    if password:
        reason = reason.replace(password, "***")
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        advice = "create the database (createdb), or fix the name in DATABASE_URL"
    elif isinstance(error, (asyncpg.InvalidPasswordError,
                            asyncpg.InvalidAuthorizationSpecificationError)):
        advice = "check the user and password in DATABASE_URL"
    elif isinstance(error, (OSError, asyncio.TimeoutError)):
        advice = "check that the server is running and the host and port in DATABASE_URL"
    else:
        advice = "check DATABASE_URL"
    return StoreError(f"Cannot connect to the PostgreSQL database {shown} ({reason[:200]}): {advice}.")
