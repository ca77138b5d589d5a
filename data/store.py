"""The persistence interface: value types, errors, the abstract `Store` and `open_store(url)`.

Backends implement `Store` and return `rules` models; the rest of the bot sees nothing else.
Two backends: `data.sqlite.SqliteStore` (a file path or ``sqlite:///``, the default) and
`data.postgres.PostgresStore` (``postgresql://``), chosen by `database_backend` from the
``DATABASE_URL`` setting.
"""
from __future__ import annotations

import logging
import os
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError

import rules.registry  # noqa: F401  # it gives rules.state the systems whose models read a stored encounter's state
from data.delta import UndoRow, states_before
from rules.errors import RulesError
from rules.models import Encounter
from rules.state import CURRENT

__all__ = [
    "Store",
    "StoredEncounter",
    "LogEntry",
    "Reminder",
    "Change",
    "ChannelBusy",
    "DuplicateInteraction",
    "UndoConflict",
    "StaleEncounter",
    "StoreError",
    "StoreUnavailable",
    "Outage",
    "RETRY_SECONDS",
    "RECENT_INTERACTIONS",
    "open_store",
    "check_change",
    "version_plan",
    "undo_rows",
    "entries_with_states",
    "read_state",
    "sqlite_path",
    "database_backend",
    "redact_url",
    "NotifyPrefs",
    "TABLES",
    "Row",
    "ShardSlice",
    "text_without_nul",
]

#: how many interaction ids of an encounter's log `StoredEncounter.recent_interactions` holds
RECENT_INTERACTIONS = 256

#: every table of a database, in the order a copy must write them (a row's encounter first):
#: its key column and its columns, named alike on both backends
TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "encounters": ("id", (
        "id", "channel_id", "guild_id", "system", "name", "state", "active", "board_message_id",
        "created_at", "updated_at", "version",
    )),
    "actions": ("id", (
        "id", "encounter_id", "interaction_id", "user_id", "command", "summary", "dice",
        "state_before", "undone", "created_at", "dice_typed", "delta", "version", "chain",
        "undoable", "facts",
    )),
    "reminders": ("encounter_id", (
        "encounter_id", "channel_id", "guild_id", "due_at", "user_ids", "turn_key", "nudges",
        "since", "warned",
    )),
    "players": ("user_id", ("user_id", "tz", "quiet_start", "quiet_end", "mode")),
}

#: one stored row as both backends read and write it for a copy (`Store.read_rows`): ints,
#: floats, text, None, bools for flags and lists for dice, typed dice and user ids
Row = dict[str, object]


class ChannelBusy(RulesError):
    """The channel already has an active encounter."""

    def __init__(self) -> None:
        super().__init__(
            "This channel already has an encounter: `/encounter end` it first, or use a thread."
        )


class DuplicateInteraction(RulesError):
    """The same Discord interaction was delivered twice; the second one changes nothing."""

    def __init__(self) -> None:
        super().__init__("This command was already applied.")


class UndoConflict(RulesError):
    """The action an undo names is already undone (or not in this encounter's log)."""

    def __init__(self) -> None:
        super().__init__("That action was already undone: look at `/log` and try again.")


class StaleEncounter(RulesError):
    """Another process wrote the encounter after this command read it: nothing was written.

    The service reloads the encounter and resolves the command again, for up to 2 s
    (`bot.service.core.resolved_again`); only then does the player see this message.
    """

    def __init__(self) -> None:
        super().__init__("Someone changed this encounter at the same moment: try again.")


class StoreError(RulesError):
    """The database cannot be opened or used as it is: the message says which file and what to do.

    Raised at start-up (a bad ``DATABASE_URL``, a file that cannot be written, is not a SQLite
    database, was written by a newer version, or is held by another process); the entry points
    print it as one line and exit with code 2.
    """


class StoreUnavailable(RulesError):
    """The database cannot be reached for a moment (a PostgreSQL server stopped or restarting,
    a SQLite file locked by another program, a full disk): nothing of the command was written.

    The store keeps running and tries again by itself (see `Outage`); the player is told at once.
    """

    def __init__(self) -> None:
        super().__init__(
            "The database cannot be reached; nothing was changed. Try again in a minute "
            "(tell the GM if it goes on)."
        )


#: the store's log: an outage at ERROR (once), its end at WARNING
store_log = logging.getLogger("skirmish.store")


#: during an outage, the first and the longest wait before the database is tried again (each
#: wait doubles the one before): writes work again within about 2 s of its return
RETRY_SECONDS = (0.25, 2.0)


class Outage:
    """Whether a store's database can be reached: an outage is logged at ERROR once, when it
    begins, and at WARNING when it ends (`ended`), however many commands fail meanwhile.

    While it lasts the database is tried again after waits that double from `RETRY_SECONDS`
    [0] to [1] (`due` says when); other operations are refused at once (`refused`)."""

    def __init__(self, name: str, clock: Callable[[], float] = time.monotonic) -> None:
        #: the database, as it may be printed (no password)
        self.name = name
        self.clock = clock
        #: when the outage began (`clock`), or None while the database answers
        self.since: float | None = None
        #: how many operations failed during the current outage
        self.failures = 0
        #: the wait before the next try, and when that is
        self.delay = RETRY_SECONDS[0]
        self.next_try = 0.0

    @property
    def down(self) -> bool:
        return self.since is not None

    def due(self) -> bool:
        """Whether it is time to try the database again (always, while it answers)."""
        return self.since is None or self.clock() >= self.next_try

    def failed(self, error: BaseException) -> StoreUnavailable:
        """Note that ``error`` stopped an operation; the error to hand to its caller."""
        self.failures += 1
        now = self.clock()
        if self.since is None:
            self.since, self.delay = now, RETRY_SECONDS[0]
            reason = " ".join(str(error).split())[:200] or type(error).__name__
            store_log.error(
                "The database %s cannot be reached (%s: %s): commands are refused with "
                "\"nothing was changed\" until it is back", self.name, type(error).__name__, reason,
            )
        else:
            self.delay = min(self.delay * 2, RETRY_SECONDS[1])
        self.next_try = now + self.delay
        return StoreUnavailable()

    def refused(self) -> StoreUnavailable:
        """The error for an operation refused at once because the outage is not over."""
        self.failures += 1
        return StoreUnavailable()

    def ended(self) -> None:
        """An operation succeeded: an outage under way is over."""
        if self.since is not None:
            store_log.warning(
                "The database %s is back after %.1f s (%d operations refused meanwhile)",
                self.name, self.clock() - self.since, self.failures,
            )
            self.since, self.failures = None, 0


@dataclass(frozen=True, slots=True)
class ShardSlice:
    """The Discord shards a process runs: ``ids`` of ``count``. A guild belongs to shard
    ``(guild_id >> 22) % count`` (Discord's rule; direct messages, no guild, go to shard 0)."""

    count: int
    ids: tuple[int, ...]

    def shard_of(self, guild_id: str | int | None) -> int:
        """The shard that receives ``guild_id``'s events."""
        return (int(guild_id) >> 22) % self.count if guild_id not in (None, "") else 0

    def owns(self, guild_id: str | int | None) -> bool:
        """Whether this process runs the shard of ``guild_id``."""
        return self.shard_of(guild_id) in self.ids


@dataclass(frozen=True, slots=True)
class StoredEncounter:
    """An active encounter as stored: its row ids and the `Encounter` itself.

    A row that does not read back (damaged, or written by an older bug) still loads:
    ``encounter`` is None, ``error`` says why, and ``raw_state`` is the row as stored.
    """

    id: int
    channel_id: str
    guild_id: str | None
    encounter: Encounter | None
    board_message_id: str | None
    #: the last `RECENT_INTERACTIONS` interaction ids of its log, to catch a duplicate delivery
    recent_interactions: frozenset[str]
    #: the stored state JSON, exactly as it is in the row
    raw_state: str = ""
    #: why ``raw_state`` does not read back, or None when ``encounter`` is set
    error: str | None = None
    #: how many changes were applied to the row: a `Change` names the version it read
    version: int = 0


def read_state(raw: str, current: bool = False) -> tuple[Encounter | None, str | None]:
    """An encounter from its stored JSON, validated as every load validates it; ``current``: JSON
    this code itself just wrote, which has no old keys to upgrade (`rules.state.CURRENT`).

    Returns ``(encounter, None)``, or ``(None, reason)`` with a short reason when it does not
    read back; never raises.
    """
    try:
        return Encounter.model_validate_json(raw, context=CURRENT if current else None), None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return None, (f"{where}: {first['msg']}" if where else str(first["msg"]))[:200]
    except Exception as exc:  # a validator that failed in another way: still a row we cannot read
        return None, f"{type(exc).__name__}: {exc}"[:200]


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One row of the action log."""

    id: int
    encounter_id: int
    interaction_id: str | None
    user_id: str | None
    command: str | None
    summary: str | None
    dice: list[int]
    #: the Encounter JSON before the command (rebuilt from the compact log); None: cannot be
    #: undone (or its undo data was dropped by `Store.compact`)
    state_before: str | None
    undone: bool
    created_at: float
    dice_typed: list[int] = field(default_factory=list)  # indexes into ``dice`` typed with `roll:`
    #: what the command did, as `rules.logfacts.LogFacts` JSON (rendered per reader); None: a row
    #: whose ``summary`` is its text (a roll, an import, an undo, and rows written before facts)
    facts: str | None = None
    #: the encounter version the row's change read (its ``state_before`` is the state at it); None
    #: on rows written before versions were logged
    version: int | None = None


@dataclass(frozen=True, slots=True)
class Reminder:
    """A pending turn reminder: nudge ``user_ids`` in ``channel_id`` at ``due_at``."""

    encounter_id: int
    channel_id: str
    due_at: float
    user_ids: list[str]
    turn_key: str  # identifies the turn waited on, so a stale reminder can be told apart
    nudges: int = 0
    #: when the turn began waiting (for its deadline); None on rows written before the clock
    since: float | None = None
    #: the deadline's warning went out
    warned: bool = False


@dataclass(frozen=True, slots=True)
class NotifyPrefs:
    """A player's `/notify` choices: quiet hours (minutes after local midnight in ``tz``) and
    how nudges reach them (``channel`` mentions, ``dm``, or ``both``)."""

    user_id: str
    tz: str | None = None
    quiet_start: int | None = None
    quiet_end: int | None = None
    mode: str = "channel"


@dataclass(frozen=True, slots=True)
class Change:
    """One accepted command, written atomically by `Store.apply`.

    The encounter's state becomes ``encounter`` (and ``active``); a log row is appended unless
    ``log`` is false; the row ``undo_of`` is marked undone; the reminder is replaced by
    ``reminder`` or deleted when ``clear_reminder`` (or when the encounter ends).
    """

    encounter_id: int
    #: None only when ending an encounter that cannot be read: its state is kept as stored
    encounter: Encounter | None
    interaction_id: str | None
    user_id: str
    command: str
    summary: str
    dice: list[int]
    state_before: str | None
    now: float
    undo_of: int | None = None
    active: bool = True
    reminder: Reminder | None = None
    clear_reminder: bool = False
    log: bool = True
    #: ``encounter`` as JSON, when the caller has it already (saves serialising it again)
    state_json: str | None = None
    #: indexes into ``dice`` of the results the caller typed with `roll:`
    dice_typed: list[int] = field(default_factory=list)
    #: the encounter's version the command read (`StoredEncounter.version`): the write lands
    #: only on that version, else `StaleEncounter`; None writes whatever the version is
    version: int | None = None
    #: false for a row /undo may not take back (an undo, an end) that still gives
    #: ``state_before`` so the log can store the change it made
    undoable: bool = True
    #: the delta (`data.delta.diff` operations) from ``state_before`` to ``state_json``, when the
    #: caller worked it out from the parts it changed (`data.delta.parts_diff`); None: the store
    #: diffs the two states
    delta: list[list[Any]] | None = None
    #: what the command did, as `rules.logfacts.LogFacts` JSON (`LogEntry.facts`)
    facts: str | None = None


def check_change(change: Change) -> None:
    """Raise ValueError for a change no backend may queue (a caller's bug, not a player's)."""
    if change.reminder is not None and change.clear_reminder:
        raise ValueError("A change cannot both set and clear the reminder.")
    if change.reminder is not None and change.reminder.encounter_id != change.encounter_id:
        raise ValueError("The reminder belongs to another encounter than the change.")


class Store(ABC):
    """Everything the bot stores. Methods are coroutines; results are `rules` models."""

    #: the shards this process runs (set by the bot when it runs a slice of them): it claims
    #: only the reminders of their guilds; None claims every reminder
    shards: ShardSlice | None = None

    @abstractmethod
    async def close(self) -> None:
        """Flush every pending change, then release the connection."""

    @abstractmethod
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

        With ``command``, the creation is also the encounter's first log row, in the same
        transaction; its ``interaction_id`` already in the log raises `DuplicateInteraction`
        and stores nothing.
        """

    @abstractmethod
    async def load_active(self, channel_id: str) -> StoredEncounter | None:
        """The channel's active encounter, or None; a row that does not read back is
        returned with ``encounter`` None and its ``error`` (see `StoredEncounter`)."""

    @abstractmethod
    async def last_ended(self, channel_id: str) -> StoredEncounter | None:
        """The channel's most recently ended encounter, in its final state, while the channel
        has no active one; else None. Its ``recent_interactions`` are left empty."""

    @abstractmethod
    async def active_encounters(self) -> list[StoredEncounter]:
        """Every active encounter (for reminders at start-up)."""

    @abstractmethod
    async def apply(self, change: Change) -> None:
        """Write one accepted command atomically; durable once this returns.

        Adds one to the encounter's version. Raises `DuplicateInteraction` if its interaction
        id is already in the log, and `StaleEncounter` if the encounter is no longer at
        ``change.version``; either way nothing of the change is written.
        """

    @abstractmethod
    async def set_board_message(self, encounter_id: int, message_id: str | None) -> None:
        """Remember the id of the encounter's status board message."""

    @abstractmethod
    async def log(self, encounter_id: int, count: int, skip: int = 0) -> list[LogEntry]:
        """The last ``count`` log rows of the encounter before its newest ``skip``, newest last."""

    @abstractmethod
    async def count_log(self, encounter_id: int) -> int:
        """How many log rows the encounter has, undone ones included."""

    @abstractmethod
    async def undo_bytes(self, encounter_id: int) -> tuple[int, int]:
        """The bytes of undo data (snapshots and deltas) the encounter's log stores, and its rows."""

    @abstractmethod
    async def last_undoable(self, encounter_id: int, held: Collection[int] = ()) -> LogEntry | None:
        """The newest log row that is not undone and may be undone, with its ``state_before``
        rebuilt from the compact log; not rebuilt (None) when the row's ``version`` is one of
        ``held``: the caller holds the state at that version itself."""

    @abstractmethod
    async def compact(self, now: float, retention_days: float) -> int:
        """Drop the undo data (snapshots and deltas) of encounters that ended more than
        ``retention_days`` before ``now``; their log text, dice, summaries and final state stay.
        ``retention_days`` 0 keeps everything. Returns how many log rows were compacted."""

    @abstractmethod
    async def due_reminders(self, now: float) -> list[Reminder]:
        """Reminders due at or before ``now``, soonest first (as they were due).

        Where several processes share the database, each reminder returned is claimed for this
        process for a short lease (its ``due_at`` moves ahead), so another does not take it too.
        With `shards` set, only the reminders of guilds on those shards are returned.
        """

    async def release_reminder(self, reminder: Reminder) -> None:
        """Give back a reminder `due_reminders` returned that could not be sent (Discord failed
        for a moment): it is due again at once, for any process. Only a backend that leases its
        claims has anything to give back."""

    @abstractmethod
    async def bump_reminder(self, encounter_id: int, due_at: float, warned: bool = False) -> None:
        """Move a reminder to ``due_at`` and count one more nudge (``warned``: the deadline's
        warning went out)."""

    @abstractmethod
    async def postpone_reminder(self, encounter_id: int, due_at: float) -> None:
        """Move a reminder to ``due_at`` without counting a nudge (its players' quiet hours)."""

    @abstractmethod
    async def player_prefs(self, user_ids: Sequence[str]) -> dict[str, NotifyPrefs]:
        """The `/notify` choices of those of ``user_ids`` who made any."""

    @abstractmethod
    async def set_player_prefs(self, prefs: NotifyPrefs) -> None:
        """Store a player's `/notify` choices (replacing earlier ones)."""

    @abstractmethod
    async def clear_reminder(self, encounter_id: int, turn_key: str) -> None:
        """Drop the encounter's reminder if it still waits on the turn ``turn_key``."""

    @abstractmethod
    async def count_encounters(self) -> int:
        """How many encounters are stored, ended ones included."""

    @abstractmethod
    async def integrity_check(self) -> str:
        """The backend's own consistency check: ``"ok"`` when all is well."""

    # -- whole tables, for `data.migrate` ----------------------------------------------------------
    @abstractmethod
    async def read_rows(self, table: str, after: int | None, limit: int) -> list[Row]:
        """Up to ``limit`` rows of ``table`` (a key of `TABLES`) exactly as stored, by key above
        ``after`` (None: from the first), in key order."""

    @abstractmethod
    async def read_rows_by_key(self, table: str, keys: Sequence[int | str]) -> list[Row]:
        """The rows of ``table`` whose key is in ``keys``, in key order."""

    @abstractmethod
    async def write_rows(self, table: str, rows: list[Row]) -> None:
        """Insert ``rows`` (as `read_rows` gives them, keys included) in one transaction, and
        move the table's id counter past them."""

    @abstractmethod
    async def count_rows(self, table: str) -> int:
        """How many rows ``table`` holds."""

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*)://")
_POSTGRES_SCHEMES = ("postgresql", "postgres")
_URL_FORMS = "a file path, sqlite:///path or postgresql://user@host/database"


def text_without_nul(value: str | None) -> str | None:
    """``value`` fit for a PostgreSQL text column, which refuses NUL: each becomes U+FFFD.

    (The state columns hold JSON, where pydantic writes a NUL escaped; names and summaries are
    copied out of it for people to read, and a NUL there would fail the whole command.)
    """
    return value.replace("\x00", "\ufffd") if value and "\x00" in value else value


def redact_url(url: str) -> str:
    """``url`` with its password (in the user part or a ``password=`` parameter) replaced by
    ``***``, fit to print."""
    text = re.sub(r"(?i)([?&]password=)[^&#]*", r"\1***", url.strip())
    match = _SCHEME.match(text)
    if match is None:
        return text
    rest = text[match.end():]
    end = min((i for i in map(rest.find, "/?#") if i >= 0), default=len(rest))
    user, at, host = rest[:end].rpartition("@")
    if not at or ":" not in user:
        return text
    return f"{text[:match.end()]}{user.split(':', 1)[0]}:***@{host}{rest[end:]}"


def database_backend(url: str | os.PathLike[str]) -> tuple[str, str]:
    """Which backend ``url`` names and what it opens: ``("sqlite", path)`` (see `sqlite_path`)
    or ``("postgresql", url)`` for a ``postgresql://`` or ``postgres://`` URL.

    Raises `StoreError` with one line (never the password) when ``url`` cannot name a database.
    """
    text = os.fspath(url).strip()
    match = _SCHEME.match(text)
    if match is None or match.group(1).lower() not in _POSTGRES_SCHEMES:
        return "sqlite", sqlite_path(text)
    try:
        urlsplit(text).port  # noqa: B018 - a port that is not a number raises here
    except ValueError as error:
        raise StoreError(f"Bad PostgreSQL URL {redact_url(text)!r} ({error}): write "
                         "postgresql://user:password@host:5432/database.") from None
    return "postgresql", text


def sqlite_path(url: str | os.PathLike[str]) -> str:
    """The SQLite file named by ``url``: a path, ``:memory:``, or ``sqlite:///path``.

    As in SQLAlchemy, ``sqlite:///rel.db`` is relative, ``sqlite:////abs.db`` absolute and
    ``sqlite://`` in memory. Any other scheme raises `StoreError`.
    """
    text = os.fspath(url).strip()
    match = _SCHEME.match(text)
    if match is None:
        if text.lower().startswith("sqlite:"):
            raise StoreError(f"Bad SQLite URL {text!r}: write sqlite:///path or sqlite:///:memory:.")
        if not text:
            raise StoreError(f"DATABASE_URL is empty: give {_URL_FORMS}.")
        return text
    if match.group(1).lower() != "sqlite":
        raise StoreError(
            f"Unsupported DATABASE_URL scheme {match.group(1)!r}: give {_URL_FORMS}."
        )
    rest = text[match.end():]
    if not rest:
        return ":memory:"
    if not rest.startswith("/") or len(rest) == 1:
        raise StoreError(f"Bad SQLite URL {text!r}: write sqlite:///path or sqlite:///:memory:.")
    return rest[1:]


async def open_store(url: str) -> Store:
    """Open the store that ``url`` names (see `database_backend`), migrated and ready."""
    backend, target = database_backend(url)
    # the backend is chosen here, not imported eagerly
    if backend == "postgresql":
        from data.postgres import PostgresStore

        return await PostgresStore.open(target)
    from data.sqlite import SqliteStore

    return await SqliteStore.open(target)


def undo_rows(changes: list[Change]) -> list[tuple[int, str | None, str, int | None, list[list[Any]] | None]]:
    """The logged changes of a batch as `data.delta.chain_rows` takes them: encounter id, the
    state before, the state after, the version read and the delta when the change has it."""
    return [
        (c.encounter_id, c.state_before,
         c.state_json or (c.encounter.model_dump_json() if c.encounter else c.state_before or ""),
         c.version, c.delta if c.state_json else None)
        for c in changes if c.log
    ]


def entries_with_states(
    entries: list[LogEntry], rows: list[UndoRow]
) -> list[LogEntry]:
    """``entries`` with each ``state_before`` rebuilt from the compact log ``rows`` (the same
    rows with their undo columns, oldest first, reaching back to the snapshot needed)."""
    states = states_before(rows, {e.id for e in entries})
    return [replace(e, state_before=states.get(e.id)) for e in entries]


def version_plan(changes: list[Change]) -> dict[int, tuple[int | None, int]]:
    """Per encounter of a batch: the version it must be at before the batch (None: any) and
    how many changes the batch applies to it.

    The changes of one encounter must follow each other (each read the version the one before
    it wrote); one that does not raises `StaleEncounter`, so the batch is retried change by
    change and the stale one fails alone.
    """
    plan: dict[int, tuple[int | None, int]] = {}
    for c in changes:
        base, count = plan.get(c.encounter_id, (None, 0))
        if c.version is not None:
            if base is None:
                base = c.version - count
            elif c.version != base + count:
                raise StaleEncounter()
        plan[c.encounter_id] = (base, count + 1)
    return plan
