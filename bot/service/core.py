"""The service's machinery: channel locks, the encounter cache, loading, one write per command,
the turn ping and the reminders.

Every command (`bot.service.commands`) takes the channel's lock, loads the encounter (cached
after the first load), checks who may do it (`bot.service.permissions`), calls the rule system,
saves the new state and the log row in one transaction (`ServiceCore._commit`), and hands back
an :class:`Outcome` for the cog to render. Nothing here knows about Discord.
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import hashlib
import json
import logging
import random
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from bot.maps import MapRenderer, shared_renderer
from bot.service.cache import (
    CACHE_BYTES,
    RESIDENT_PER_JSON_BYTE,
    YOUNG_EVERY,
    YOUNG_MIDDLE,
    LiveEntry,
    StoredEntry,
    resident_bytes,
)
from bot.service.clock import deadline_times
from bot.service.turntext import MAX_MESSAGE, mentioned, short_names, turn_text
from data.delta import Parts, parts_diff, state_parts
from data.store import (
    Change,
    DuplicateInteraction,
    Reminder,
    StaleEncounter,
    Store,
    StoredEncounter,
    StoreUnavailable,
    read_state,
)
from rules.errors import IllegalAction, NotFound
from rules.models import Encounter
from rules.registry import get_system
from rules.report import Report
from rules.system import Prompt, Turn

__all__ = [
    "ServiceCore", "Ctx", "Outcome", "LogPage", "Ping", "Nudge", "CACHE_BYTES", "Unreadable", "StoredEntry", "LiveEntry", "no_encounter",
    "RESIDENT_PER_JSON_BYTE", "resident_bytes",
    "MAX_MESSAGE", "turn_tag", "resolved_again", "CONFLICT_SECONDS",
]

log = logging.getLogger("skirmish.service")

#: from this many combatants a write serialises its state in parts (`data.delta.Parts`) and the
#: next undo delta comes from the parts that changed (measured, a move and a hit: 4 combatants
#: 72 µs either way, 10: 111 -> 87 µs, 30: 814 -> 290 µs, 100: 980 -> 545 µs)
PARTS_FROM = 8
#: how many channels known to have no encounter are remembered (apart from the cache)
ABSENT_SIZE = 4096
#: how long a command is resolved again while other processes keep writing its encounter first
CONFLICT_SECONDS = 2.0

@dataclass(frozen=True)
class Ctx:
    """Who sent a command, and where."""

    channel_id: str
    user_id: str
    guild_id: str | None = None
    interaction_id: str | None = None
    roll: str | None = None


@dataclass(frozen=True)
class Ping:
    """A turn change: a new message that mentions exactly these users. ``encounter_id`` and
    ``turn`` (`turn_tag`) say which encounter and turn its buttons end."""

    user_ids: tuple[str, ...]
    text: str
    encounter_id: int | None = None
    turn: str = ""
    #: the encounter has a map (so the message offers the Map button)
    has_map: bool = True


def turn_tag(enc: Encounter, turn: Turn) -> str:
    """A short tag of the turn under way (``r2.1a2b3c4d``): the round and a hash of the turn's key,
    which changes exactly when the turn passes; a button carrying an older tag is stale."""
    digest = hashlib.sha256(json.dumps(list(turn.key), default=str).encode()).hexdigest()[:8]
    return f"r{enc.round}.{digest}"


@dataclass(frozen=True)
class Nudge:
    """A due reminder as it goes out: its text, exactly the users it may ping in the channel,
    and those who asked for it by direct message (`/notify`).

    ``kind``: ``nudge``, ``notice`` (the GM's, after ``max_nudges`` nudges), ``warning`` (the
    deadline is near) or ``deadline`` (its policy was applied: the reminder is already replaced)."""

    reminder: Reminder
    text: str
    user_ids: tuple[str, ...]
    kind: str = "nudge"
    dm_ids: tuple[str, ...] = ()
    #: the turn whose buttons the message carries: the one a deadline started, or the one a nudge
    #: or warning is about (None: no buttons, as on the GM's notice)
    ping: Ping | None = None


@dataclass(frozen=True)
class LogPage:
    """Where a `/log` reply stands: the encounter, the entries a page holds, this page (1: the
    newest) and how many there are; the reply carries ◀ ▶ buttons to the pages beside it."""

    encounter_id: int
    count: int
    page: int
    pages: int


@dataclass
class Outcome:
    report: Report
    ping: Ping | None = None
    board_changed: bool = False
    file: tuple[str, bytes] | None = None
    ephemeral: bool = False
    #: shown only to the caller after the reply (the GM's numbers behind condition words)
    private: Report | None = None
    #: sent by direct message to these users (a private roll's result to the GMs)
    direct: tuple[tuple[str, ...], Report] | None = None
    #: a `/log` page: the reply carries buttons to the older and newer pages
    log_page: LogPage | None = None
    #: a question the action now waits for, sent privately to the player who answers it, with
    #: a button per choice (``channel_id`` is the encounter's, where the answer is posted)
    prompt: Prompt | None = None
    channel_id: str | None = None


class Unreadable(IllegalAction):
    """The channel's stored encounter does not read back; only export, undo and end work."""

    def __init__(self, reason: str | None) -> None:
        super().__init__(
            f"This channel's encounter could not be read ({reason or 'unknown error'}): the GM can "
            "`/encounter export` it as it is stored, `/undo` the last action, or `/encounter end` it."
        )


@dataclass
class _ChannelLock:
    """A channel's lock, how many tasks hold or wait for it, and which task holds it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    owner: asyncio.Task[Any] | None = None


M = TypeVar("M", bound=Callable[..., Any])


def resolved_again(method: M) -> M:
    """A command that commits, run again on the encounter as stored now each time another
    process wrote it first (`StaleEncounter`: nothing was written), after a short random pause
    that doubles, for at most `ServiceCore.conflict_seconds`; only then is the player told to try
    again. Two processes writing one channel so take turns instead of refusing commands."""

    @functools.wraps(method)
    async def run(self: "ServiceCore", ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
        # the channel's lock is held from the first try to the last, so a try again does not
        # queue behind this process's other commands in the channel (the lock is re-entrant)
        async with self._lock(ctx.channel_id):
            give_up = time.monotonic() + self.conflict_seconds
            pause = 0.002
            while True:
                try:
                    return await method(self, ctx, *args, **kwargs)
                except StaleEncounter:  # the conflict dropped the cached entry: the next try reloads it
                    if time.monotonic() + pause > give_up:
                        raise
                    await asyncio.sleep(self._jitter.uniform(pause / 2, pause))
                    pause = min(pause * 2, 0.1)

    return cast(M, run)


def no_encounter() -> NotFound:
    return NotFound("There is no encounter in this channel: start one with `/encounter start`.")


class ServiceCore:
    """The lock, cache, load and commit every command of :class:`bot.service.Service` goes through."""

    def __init__(
        self,
        store: Store,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        default_reminder_hours: float = 24.0,
        cache_bytes: int = CACHE_BYTES,
        maps: MapRenderer | None = None,
    ) -> None:
        self.store = store
        #: where `/map` pictures are drawn (worker processes, or a thread)
        self.maps = maps if maps is not None else shared_renderer()
        self.rng = rng or random.Random()
        self.clock = clock
        self.default_reminder_hours = default_reminder_hours
        #: the bound of the encounter cache, in bytes of resident memory (`resident_bytes`)
        self.cache_bytes = cache_bytes
        #: the bytes of resident memory the cache counts for its entries now
        self.cached_bytes = 0
        #: writes refused because another process wrote the encounter first (then reloaded)
        self.conflicts = 0
        #: how long a command is tried again while other processes write its encounter first
        self.conflict_seconds = CONFLICT_SECONDS
        self._jitter = random.Random()  # the pauses between tries; never the dice
        self._locks: dict[str, _ChannelLock] = {}
        self._cache: OrderedDict[str, StoredEntry] = OrderedDict()
        self._absent: OrderedDict[str, None] = OrderedDict()
        self._puts = 0  # encounters cached so far (`YOUNG_EVERY`)

    # -- loading ----------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _lock(self, channel_id: str) -> AsyncIterator[None]:
        """Hold the channel's lock (again, at no cost, in the task that holds it already).

        The lock is forgotten once no task holds or waits for it, so idle channels cost nothing.
        """
        task = asyncio.current_task()
        entry = self._locks.get(channel_id)
        if entry is not None and entry.owner is task:
            yield
            return
        if entry is None:
            entry = self._locks[channel_id] = _ChannelLock()
        entry.users += 1
        try:
            async with entry.lock:
                entry.owner = task
                try:
                    yield
                finally:
                    entry.owner = None
        finally:
            entry.users -= 1
            if entry.users == 0 and self._locks.get(channel_id) is entry:
                del self._locks[channel_id]

    async def _entry(self, channel_id: str) -> StoredEntry | None:
        """The channel's active encounter row (readable or not), or None.

        From the cache, or loaded under the channel's lock, so a load never replaces the entry a
        command holding the lock commits to.
        """
        if channel_id in self._cache:
            self._cache.move_to_end(channel_id)
            return self._cache[channel_id]
        if channel_id in self._absent:
            return None
        async with self._lock(channel_id):
            if channel_id in self._cache or channel_id in self._absent:
                return self._cache.get(channel_id)
            stored = await self.store.load_active(channel_id)
            if stored is None:
                self._mark_absent(channel_id)
                return None
            entry = self._from_stored(stored)
            self._put(entry)
            return entry

    async def _live(self, channel_id: str) -> LiveEntry | None:
        """The channel's active encounter, or None; `Unreadable` if it does not read back."""
        entry = await self._entry(channel_id)
        if entry is None or isinstance(entry, LiveEntry):
            return entry
        raise Unreadable(entry.error)

    async def _readable(self, channel_id: str) -> LiveEntry | None:
        """The channel's active encounter if there is one that reads back, else None."""
        entry = await self._entry(channel_id)
        return entry if isinstance(entry, LiveEntry) else None

    def _put(self, entry: StoredEntry) -> None:
        """Cache ``entry`` as its channel's newest; the least recently used go past the bound
        (`resident_bytes` of each)."""
        self._drop(entry.channel_id)
        self._absent.pop(entry.channel_id, None)
        self._cache[entry.channel_id] = entry
        self._puts += 1
        if self._puts % YOUNG_EVERY == 0:
            gc.collect(1 if self._puts % (YOUNG_EVERY * YOUNG_MIDDLE) == 0 else 0)
        entry.held = resident_bytes(entry)
        self.cached_bytes += entry.held
        while self.cached_bytes > self.cache_bytes and self._cache:
            _, gone = self._cache.popitem(last=False)
            self.cached_bytes -= gone.held

    def _remember(self, channel_id: str, entry: StoredEntry | None) -> None:
        """Cache the channel's encounter row, or that it has none."""
        if entry is None:
            self._mark_absent(channel_id)
        else:
            self._put(entry)

    def _drop(self, channel_id: str) -> None:
        gone = self._cache.pop(channel_id, None)
        if gone is not None:
            self.cached_bytes -= gone.held

    def _mark_absent(self, channel_id: str) -> None:
        """Remember that the channel has no encounter, in a small set of its own."""
        self._drop(channel_id)
        self._absent[channel_id] = None
        self._absent.move_to_end(channel_id)
        while len(self._absent) > ABSENT_SIZE:
            self._absent.popitem(last=False)

    @staticmethod
    def _from_stored(stored: StoredEncounter) -> StoredEntry:
        entry: StoredEntry
        if stored.encounter is None:
            entry = StoredEntry(
                stored.id, stored.channel_id, stored.raw_state, stored.board_message_id, stored.error,
                version=stored.version,
            )
        else:
            entry = LiveEntry(
                id=stored.id,
                channel_id=stored.channel_id,
                enc=stored.encounter,
                json=stored.raw_state or stored.encounter.model_dump_json(),
                board_message_id=stored.board_message_id,
                version=stored.version,
            )
        for i in stored.recent_interactions:
            entry.remember(i)
        return entry

    @contextlib.asynccontextmanager
    async def _holding_any(self, ctx: Ctx) -> AsyncIterator[StoredEntry]:
        """Hold the channel's lock with its encounter row, readable or not; a re-delivered interaction is refused."""
        async with self._lock(ctx.channel_id):
            entry = await self._entry(ctx.channel_id)
            if entry is None:
                raise no_encounter()
            if entry.seen(ctx.interaction_id):
                raise DuplicateInteraction()
            yield entry

    @contextlib.asynccontextmanager
    async def _holding(self, ctx: Ctx) -> AsyncIterator[LiveEntry]:
        """Hold the channel's lock with its live encounter; a re-delivered interaction is refused."""
        async with self._holding_any(ctx) as entry:
            if not isinstance(entry, LiveEntry):
                raise Unreadable(entry.error)
            yield entry

    async def _need(self, channel_id: str) -> LiveEntry:
        live = await self._live(channel_id)
        if live is None:
            raise no_encounter()
        return live

    async def encounter(self, channel_id: str) -> Encounter | None:
        """The channel's active encounter (read-only use), or None (also when it does not read back)."""
        live = await self._readable(channel_id)
        return live.enc if live else None

    # -- the turn and its ping ----------------------------------------------------------------
    @staticmethod
    def owners_of(enc: Encounter, names: tuple[str, ...]) -> tuple[str, ...]:
        users: list[str] = []
        for n in names:
            c = enc.find(n)
            if c is None:
                continue
            for u in [c.owner_id] if c.owner_id else enc.gm_ids[:1]:
                if u and u not in users:
                    users.append(u)
        return tuple(users)

    def _ping(self, enc: Encounter, turn: Turn, encounter_id: int) -> Ping | None:
        """The turn-change message: who must act now (pinged) and who is on deck (named, not pinged)."""
        if enc.winner or not turn.actors:
            return None
        users = self.owners_of(enc, turn.actors)
        if not users:
            return None
        text = turn_text(enc, turn, users, "your turn")
        on_deck = get_system(enc.system).on_deck(enc)
        if on_deck:
            deck = f"\nOn deck: {short_names(on_deck)}."
            text += deck if len(text) + len(deck) <= MAX_MESSAGE else ""
        return Ping(mentioned(users), text, encounter_id, turn_tag(enc, turn), enc.map.kind != "none")

    def _reminder(self, live: LiveEntry, enc: Encounter, turn: Turn, now: float) -> Reminder | None:
        """The new turn's reminder: its first nudge, or its deadline's warning if that is sooner."""
        hours = enc.settings.reminder_hours
        users = self.owners_of(enc, turn.actors)
        clock = deadline_times(enc.settings.deadline_hours, now)
        if enc.winner or not users or (hours <= 0 and clock is None):
            return None
        due = min([now + hours * 3600] if hours > 0 else [], default=float("inf"))
        return Reminder(
            encounter_id=live.id,
            channel_id=live.channel_id,
            due_at=min(due, clock[0]) if clock else due,
            user_ids=list(users),
            turn_key=json.dumps(list(turn.key), default=str),
            nudges=0,
            since=now,
        )

    # -- writing ------------------------------------------------------------------------------
    async def _commit(
        self,
        ctx: Ctx,
        live: StoredEntry,
        new: Encounter | None,
        command: str,
        summary: str,
        dice: list[int],
        undoable: bool = True,
        undo_of: int | None = None,
        active: bool = True,
        dice_typed: list[int] | None = None,
        rearm: bool = False,
    ) -> Ping | None:
        """Write ``new`` and its log row, then make it the channel's cached encounter.

        ``rearm``: the turn clock's settings changed, so the waiting turn's reminder starts anew.

        ``new`` is None only to end an encounter that does not read back (its row is kept as
        stored). ``live`` may be such an encounter: a command that restores it (undo) commits
        a new state like any other.

        The write lands only on the version ``live`` was read at: if another process wrote the
        encounter since, nothing is written, the cached entry is dropped (the next command
        loads the encounter afresh) and `StaleEncounter` is raised. When the database cannot be
        reached (`StoreUnavailable`) the cached entry is dropped too.
        """
        now = self.clock()
        ping: Ping | None = None
        reminder: Reminder | None = None
        clear = True
        spare: Encounter | None = None
        parts: Parts | None = None
        if new is None:
            new_json = live.json
        else:
            new_json, spare, parts = self._saveable(new, live.channel_id, command, len(new.combatants) >= PARTS_FROM)
            system = get_system(new.system)
            new_turn = system.turn(new)
            turn_moved = not isinstance(live, LiveEntry) or system.turn(live.enc).key != new_turn.key
            fresh = (turn_moved or rearm) and active and new.started
            reminder = self._reminder(live, new, new_turn, now) if fresh else None
            clear = (not active) or new.winner is not None or (fresh and reminder is None)
            ping = self._ping(new, new_turn, live.id) if (turn_moved and active) else None
        change = Change(
            encounter_id=live.id,
            encounter=new,
            interaction_id=ctx.interaction_id,
            user_id=ctx.user_id,
            command=command,
            summary=summary[:4000],
            dice=dice,
            state_before=live.json,
            undoable=undoable,
            now=now,
            undo_of=undo_of,
            active=active,
            reminder=reminder,
            clear_reminder=clear and reminder is None,
            state_json=new_json,
            dice_typed=dice_typed or [],
            version=live.version,
            delta=parts_diff(live.parts, parts) if isinstance(live, LiveEntry) and live.parts and parts else None,
        )
        try:
            await self.store.apply(change)
        except StaleEncounter:
            self.conflicts += 1
            self._drop(live.channel_id)
            raise
        except StoreUnavailable:  # whether the write landed before the server went is unknown: reload
            self._drop(live.channel_id)
            raise
        if not active or new is None:
            self._mark_absent(live.channel_id)
            return None
        # the holder of the lock commits to the channel's entry in the cache, even if it was evicted
        self._drop(live.channel_id)
        if isinstance(live, LiveEntry):
            kept, live.enc, live.json, live.version, live.spare = live, new, new_json, live.version + 1, spare
            live.parts = parts
        else:
            kept = LiveEntry(
                id=live.id, channel_id=live.channel_id, json=new_json, board_message_id=live.board_message_id,
                recent=live.recent, recent_set=live.recent_set, enc=new, version=live.version + 1, spare=spare,
                parts=parts,
            )
        kept.remember(ctx.interaction_id)
        self._put(kept)
        return ping

    @staticmethod
    def _saveable(new: Encounter, channel_id: str, command: str,
                  in_parts: bool = False) -> tuple[str, Encounter, Parts | None]:
        """``new`` as JSON once it reads back exactly as a load reads it, what it read back as,
        and with ``in_parts`` the JSON's parts (`data.delta.Parts`, joined into it); else nothing
        is changed."""
        try:
            parts = state_parts(new) if in_parts else None
            new_json = parts.whole() if parts is not None else new.model_dump_json()
        except Exception as exc:  # a state that cannot even be written
            error: str | None = f"{type(exc).__name__}: {exc}"[:200]
        else:
            readable, error = read_state(new_json, current=True)
            if readable is not None:
                return new_json, readable, parts
        log.error("%s in channel %s would store a state that cannot be read back (%s): refused", command, channel_id, error)
        raise IllegalAction(
            "That would leave the encounter in a state that cannot be saved: nothing was changed. "
            "Try other values, or tell the GM."
        )
