"""The encounters of the channels as the service reads and writes them: the channel's lock,
the cache, loading, and the one write per command (`Encounters.commit` of a `Write`).

Every command takes the channel's lock with its encounter (`Encounters.holding`), asks the
rules, and commits the new state and its log row in one transaction; a write that another
process made first is tried again by `resolved_again`. Nothing here knows about Discord.
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any, Concatenate, NamedTuple, ParamSpec, Protocol, TypeVar

from bot.service.cache import EncounterCache, LiveEntry, StoredEntry
from bot.service.clock import turn_reminder
from bot.service.core import Ctx, Unreadable, no_encounter
from bot.service.locks import ChannelLocks
from bot.service.turntext import Ping, turn_ping
from data.delta import Parts, parts_diff, state_parts
from data.store import (
    Change,
    DuplicateInteraction,
    LogEntry,
    Reminder,
    StaleEncounter,
    Store,
    StoredEncounter,
    StoreUnavailable,
    read_state,
)
from rules.errors import IllegalAction, NotFound
from rules.facts import Facts
from rules.models import Encounter
from rules.registry import get_system
from rules.turns import Turn

__all__ = ["Encounters", "Write", "button_entry", "resolved_again", "CONFLICT_SECONDS", "LOG_SUMMARY"]

log = logging.getLogger("skirmish.service")

#: how long a command is resolved again while other processes keep writing its encounter first
CONFLICT_SECONDS = 2.0
#: the most characters of a log row's summary
LOG_SUMMARY = 4000


@dataclass(frozen=True)
class Write:
    """What a commit logs with the new state: the command, its facts or summary and its dice (those
    typed with `roll:` by index), whether `/undo` may take it back (``undo_of``: the row an undo
    takes back), whether the encounter stays active, ``rearm``: the turn clock's settings
    changed, so the waiting turn's reminder starts anew, ``anew``: the state replaces the
    encounter as a whole (an import), so its turn is a new one, pinged and clocked from now as a
    turn change is, and ``log``: whether the write is a log row of its own."""

    command: str
    summary: str
    dice: list[int] = field(default_factory=list)
    dice_typed: list[int] = field(default_factory=list)
    undoable: bool = True
    undo_of: int | None = None
    active: bool = True
    rearm: bool = False
    anew: bool = False
    log: bool = True
    #: what the command did, logged in place of ``summary``'s text (`/log` renders it per reader):
    #: `rules.logfacts.LogFacts` as JSON (`rules.logfacts.log_facts`)
    facts: str | None = None


class _Saved(NamedTuple):
    """A new state as it is written: its JSON and its parts (`data.delta.Parts`; None for a
    state not written by this process)."""

    json: str
    parts: Parts | None = None


class _TurnChange(NamedTuple):
    """What a write does to the turn: the new turn's ping, its reminder, whether the
    waiting turn's reminder goes (when none replaces it), the turn the new state is at, and its
    facts (`RuleSystem.facts`) where the ping worked them out."""

    ping: Ping | None = None
    reminder: Reminder | None = None
    clear: bool = True
    turn: Turn | None = None
    facts: Facts | None = None


class Encounters:
    """The channels' encounters: locks, cache, loads, and the one write per command."""

    def __init__(self, store: Store, cache: EncounterCache, locks: ChannelLocks, clock: Callable[[], float]) -> None:
        self.store = store
        self.cache = cache
        self.locks = locks
        self.clock = clock
        #: writes refused because another process wrote the encounter first (then reloaded)
        self.conflicts = 0
        #: how long a command is tried again while other processes write its encounter first
        self.conflict_seconds = CONFLICT_SECONDS
        self.jitter = random.Random()  # the pauses between tries; never the dice

    # -- reading ----------------------------------------------------------------------------
    async def entry(self, channel_id: str) -> StoredEntry | None:
        """The channel's active encounter row (readable or not), or None.

        From the cache, or loaded under the channel's lock, so a load never replaces the entry a
        command holding the lock commits to.
        """
        if self.cache.knows(channel_id):
            return self.cache.get(channel_id)
        async with self.locks.hold(channel_id):
            if self.cache.knows(channel_id):
                return self.cache.get(channel_id)
            stored = await self.store.load_active(channel_id)
            entry = None if stored is None else self.from_stored(stored)
            self.cache.remember(channel_id, entry)
            return entry

    async def live(self, channel_id: str) -> LiveEntry | None:
        """The channel's active encounter, or None; `Unreadable` if it does not read back."""
        entry = await self.entry(channel_id)
        if entry is None or isinstance(entry, LiveEntry):
            return entry
        raise Unreadable(entry.error)

    async def readable(self, channel_id: str) -> LiveEntry | None:
        """The channel's active encounter if there is one that reads back, else None."""
        entry = await self.entry(channel_id)
        return entry if isinstance(entry, LiveEntry) else None

    async def need(self, channel_id: str) -> LiveEntry:
        """The channel's active encounter; refused when there is none."""
        live = await self.live(channel_id)
        if live is None:
            raise await self.none_here(channel_id)
        return live

    async def none_here(self, channel_id: str) -> NotFound:
        """The refusal of a command that needs an encounter under way where the channel has none (`no_encounter`),
        saying so where the channel's last one has ended."""
        return no_encounter(ended=await self.store.last_ended(channel_id) is not None)

    async def ended(self, channel_id: str) -> StoredEntry | None:
        """The channel's last ended encounter (for `/log` and export while it has no active one)."""
        stored = await self.store.last_ended(channel_id)
        return None if stored is None else self.from_stored(stored)

    def created(self, stored: StoredEncounter) -> StoredEntry:
        """A new encounter row (started or imported) is its channel's cached encounter (returned)."""
        entry = self.from_stored(stored)
        self.cache.put(entry)
        return entry

    @staticmethod
    def from_stored(stored: StoredEncounter) -> StoredEntry:
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
    async def holding_any(self, ctx: Ctx) -> AsyncIterator[StoredEntry]:
        """Hold the channel's lock with its encounter row, readable or not; a re-delivered interaction is refused."""
        async with self.locks.hold(ctx.channel_id):
            yield await self._held(ctx)

    @contextlib.asynccontextmanager
    async def holding(self, ctx: Ctx) -> AsyncIterator[LiveEntry]:
        """Hold the channel's lock with its live encounter; a re-delivered interaction is refused."""
        async with self.locks.hold(ctx.channel_id):
            entry = await self._held(ctx)
            if not isinstance(entry, LiveEntry):
                raise Unreadable(entry.error)
            yield entry

    async def _held(self, ctx: Ctx) -> StoredEntry:
        """The channel's encounter row, its lock held; refused when there is none or when the
        interaction was seen already."""
        entry = await self.entry(ctx.channel_id)
        if entry is None:
            raise await self.none_here(ctx.channel_id)
        if entry.seen(ctx.interaction_id):
            raise DuplicateInteraction()
        return entry

    @contextlib.contextmanager
    def changing(self, live: LiveEntry) -> Iterator[Encounter]:
        """The held encounter's state, for the rules to change in place (no copy) and a commit
        to write: if anything raises before that commit lands, the state goes back to its JSON
        as last written, in place, so whoever holds it sees it unchanged (and the entry is
        dropped if even that does not read back). The turn it was at is worked out first, for
        the commit to compare with, and the parts of a state as loaded, when they join into
        the very JSON the load read back (then the commit reads back only what changed)."""
        live.turn()
        if live.parts is None:  # loaded: its parts are proven if its JSON is what this code writes of it
            parts = state_parts(live.enc)
            if parts.whole() == live.json:
                live.parts = parts
                self.cache.recount(live)
        version = live.version
        try:
            yield live.enc
        except BaseException:
            if live.version == version:  # nothing was committed
                self._restore(live)
            raise

    def _restore(self, live: LiveEntry) -> None:
        """``live``'s state as its JSON says (after a change that was not committed)."""
        back, error = read_state(live.json)
        if back is None:
            log.error("encounter %s no longer reads back (%s): dropped from the cache", live.id, error)
            self.cache.drop(live.channel_id)
            return
        enc = live.enc
        for name in type(enc).model_fields:
            setattr(enc, name, getattr(back, name))
        object.__setattr__(enc, "__pydantic_fields_set__", set(back.model_fields_set))
        live.boards.clear()
        live.known_facts = None  # a reader may have worked them out from the change

    async def last_undoable(self, live: StoredEntry) -> tuple[LogEntry | None, Encounter | None]:
        """The encounter's newest log row that may be undone (`Store.last_undoable`), and the state
        before it where the cache holds that state's parts (`LiveEntry.history`): only what differs
        from the state now is read back, the rest is the state now's own (an undo replaces it).
        Else None: the row's ``state_before``, rebuilt from the log, is the state before it."""
        held = live.history if isinstance(live, LiveEntry) else {}
        entry = await self.store.last_undoable(live.id, held)
        if entry is None or entry.version is None or entry.version not in held:
            return entry, None
        assert isinstance(live, LiveEntry)
        restored = self._held_state(live, held[entry.version][0])
        if restored is None:  # parts that do not read back (none were kept so): the log's
            return await self.store.last_undoable(live.id), None
        return entry, restored

    @staticmethod
    def _held_state(live: LiveEntry, before: Parts) -> Encounter | None:
        """The state whose parts are ``before``, read back where they differ from ``live``'s."""
        now = live.parts
        if now is None:
            return None
        back, error = read_state(before.changed_since(now), current=True)
        if back is None:
            log.error("a state kept for undo in encounter %s does not read back (%s)", live.id, error)
            return None
        same = dict(zip(now.items, live.enc.combatants))
        fresh = iter(back.combatants)
        back.combatants = [same[item] if item in same else next(fresh) for item in before.items]
        if before.map == now.map:
            back.map = live.enc.map
        return back

    # -- writing ------------------------------------------------------------------------------
    async def commit(self, ctx: Ctx, live: StoredEntry, new: Encounter | None, write: Write) -> Ping | None:
        """Write ``new`` and its log row (``write``), then make it the channel's cached encounter;
        the new turn's ping if the turn passed.

        ``new`` is None only to end an encounter that does not read back (its row is kept as
        stored). ``live`` may be such an encounter: a command that restores it (undo) commits
        a new state like any other.

        The write lands only on the version ``live`` was read at: if another process wrote the
        encounter since, nothing is written, the cached entry is dropped (the next command
        loads the encounter afresh) and `StaleEncounter` is raised. When the database cannot be
        reached (`StoreUnavailable`) the cached entry is dropped too.
        """
        now = self.clock()
        if new is None:
            saved, turn = _Saved(live.json), _TurnChange()
        else:
            saved = self._saveable(new, live, write.command)
            turn = self._turn_change(live, new, saved.json, write, now)
        try:
            await self.store.apply(self._change(ctx, live, new, write, saved, turn, now))
        except StaleEncounter:
            self.conflicts += 1
            self.cache.drop(live.channel_id)
            raise
        except StoreUnavailable:  # whether the write landed before the server went is unknown: reload
            self.cache.drop(live.channel_id)
            raise
        if not write.active or new is None:
            self.cache.mark_absent(live.channel_id)
            return None
        self._keep(ctx, live, new, saved, turn)
        return turn.ping

    def _turn_change(self, live: StoredEntry, new: Encounter, new_json: str, write: Write, now: float) -> _TurnChange:
        """The ping and reminder of the turn ``new`` is at, if the write moved the turn (or
        ``anew``; the reminder alone for ``rearm``); whether the waiting reminder is cleared (as it
        is where nothing is left to remind: an ended or decided fight, or one not started, as an
        undone `/init roll` leaves it)."""
        system = get_system(new.system)
        turn = system.turn(new)
        moved = write.anew or not isinstance(live, LiveEntry) or live.turn().key != turn.key
        fresh = (moved or write.rearm) and write.active and new.started
        reminder = turn_reminder(new, turn, live.id, live.channel_id, now) if fresh else None
        clear = (not write.active) or new.winner is not None or not new.started or (fresh and reminder is None)
        facts = system.facts(new) if (moved and write.active) else None
        ping = turn_ping(new, turn, live.id, facts) if facts is not None else None
        return _TurnChange(ping, reminder, clear, turn, facts)

    @staticmethod
    def _change(
        ctx: Ctx, live: StoredEntry, new: Encounter | None, write: Write, saved: _Saved, turn: _TurnChange, now: float,
    ) -> Change:
        """The store's record of one write."""
        delta = parts_diff(live.parts, saved.parts) if isinstance(live, LiveEntry) and live.parts and saved.parts else None
        return Change(
            encounter_id=live.id, encounter=new, interaction_id=ctx.interaction_id, user_id=ctx.user_id,
            command=write.command, summary="" if write.facts is not None else write.summary[:LOG_SUMMARY],
            facts=write.facts,
            dice=write.dice, state_before=live.json,
            undoable=write.undoable, now=now, undo_of=write.undo_of, active=write.active, reminder=turn.reminder,
            clear_reminder=turn.clear and turn.reminder is None, state_json=saved.json, dice_typed=write.dice_typed,
            version=live.version, delta=delta, log=write.log,
        )

    def _keep(self, ctx: Ctx, live: StoredEntry, new: Encounter, saved: _Saved, turn: _TurnChange) -> None:
        """Make the written state the channel's cached entry (the holder of the lock commits to
        it even if it was evicted meanwhile), with the turn it is at and its facts (where
        `_turn_change` worked them out)."""
        self.cache.drop(live.channel_id)
        if isinstance(live, LiveEntry):
            if live.parts is not None and saved.parts is not None:
                live.hold(live.version, live.parts, saved.parts)
            kept, live.enc, live.json, live.version = live, new, saved.json, live.version + 1
            live.parts, live.known_turn, live.known_facts = saved.parts, turn.turn, turn.facts
        else:
            kept = LiveEntry(
                id=live.id, channel_id=live.channel_id, json=saved.json, board_message_id=live.board_message_id,
                recent=live.recent, recent_set=live.recent_set, enc=new, version=live.version + 1,
                parts=saved.parts, known_turn=turn.turn, known_facts=turn.facts,
            )
        kept.remember(ctx.interaction_id)
        self.cache.put(kept)

    @staticmethod
    def _saveable(new: Encounter, live: StoredEntry, command: str) -> _Saved:
        """``new`` as JSON, and in parts (`data.delta.Parts`, joined into it), once it reads back
        exactly as a load reads it; else nothing is changed. What is read back is what changed
        since the state ``live`` holds, when this process wrote that one in parts (an unchanged
        part reads back as it did: `Parts.changed_since`); else the whole state."""
        before = live.parts if isinstance(live, LiveEntry) else None
        try:
            parts = state_parts(new).sharing(before)
            new_json = parts.whole()
        except Exception as exc:  # a state that cannot even be written
            error: str | None = f"{type(exc).__name__}: {exc}"[:200]
        else:
            readable, error = read_state(parts.changed_since(before), current=True)
            if readable is not None:
                return _Saved(new_json, parts)
        log.error("%s in channel %s would store a state that cannot be read back (%s): refused", command, live.channel_id, error)
        raise IllegalAction(
            "That would leave the encounter in a state that cannot be saved: nothing was changed. "
            "Try other values, or tell the GM."
        )


E = TypeVar("E", bound=StoredEntry)


def button_entry(entry: E | None, encounter_id: int | None) -> E:
    """The channel's encounter a button belongs to (``encounter_id``; None: any), or a refusal."""
    if entry is None or (encounter_id is not None and entry.id != encounter_id):
        raise IllegalAction("That fight has ended: its buttons no longer do anything, and nothing was changed.")
    return entry


class _HasEncounters(Protocol):
    encounters: Encounters


S = TypeVar("S", bound=_HasEncounters)
P = ParamSpec("P")
R = TypeVar("R")


def resolved_again(
    method: Callable[Concatenate[S, Ctx, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[S, Ctx, P], Coroutine[Any, Any, R]]:
    """A command that commits, run again on the encounter as stored now each time another
    process wrote it first (`StaleEncounter`: nothing was written), after a short random pause
    that doubles, for at most `Encounters.conflict_seconds`; only then is the player told to try
    again. Two processes writing one channel so take turns instead of refusing commands."""

    async def run(self: S, ctx: Ctx, /, *args: P.args, **kwargs: P.kwargs) -> R:
        encounters = self.encounters
        # the channel's lock is held from the first try to the last, so a try again does not
        # queue behind this process's other commands in the channel (the lock is re-entrant)
        async with encounters.locks.hold(ctx.channel_id):
            give_up = time.monotonic() + encounters.conflict_seconds
            pause = 0.002
            while True:
                try:
                    return await method(self, ctx, *args, **kwargs)
                except StaleEncounter:  # the conflict dropped the cached entry: the next try reloads it
                    if time.monotonic() + pause > give_up:
                        raise
                    await asyncio.sleep(encounters.jitter.uniform(pause / 2, pause))
                    pause = min(pause * 2, 0.1)

    functools.update_wrapper(run, method)
    return run


