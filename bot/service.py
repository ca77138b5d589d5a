"""The service: one command at a time per channel, permissions, rules, and one write per command.

For each command: take the channel's lock, load the encounter (cached after the first load),
check who may do it, call the rule system, save the new state and the log row in one
transaction, and hand back an :class:`Outcome` for the cog to render. Nothing here knows
about Discord.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.porting import MAX_IMPORT_BYTES, read_export, set_options
from data.store import Change, DuplicateInteraction, LogEntry, Reminder, Store, StoredEncounter, read_state
from rules.dice import Dice, parse_given, roll_expression
from rules.errors import IllegalAction, InputError, NotAllowed, NotFound, RulesError
from rules.grid import parse_map_spec
from rules.models import (
    MAX_CELL_HEIGHT,
    MAX_NUDGES_LIMIT,
    TERRAIN_KINDS,
    Combatant,
    Encounter,
    MapState,
    Settings,
    reminder_hours_problem,
)
from rules.report import TYPED, Report, board_report, events_report
from rules.sheet import read_int
from rules.system import Action, RuleSystem, Turn, get_system

__all__ = ["Service", "Ctx", "Outcome", "Ping", "Nudge", "MAX_IMPORT_BYTES", "CACHE_BYTES", "Unreadable"]

log = logging.getLogger("skirmish.service")

#: the encounter cache holds at most this many bytes of encounter JSON (least recently used go)
CACHE_BYTES = 64 * 1024 * 1024
#: how many channels known to have no encounter are remembered (apart from the cache)
ABSENT_SIZE = 4096
#: an import up to this size is checked on the event loop (a few ms at most); a bigger one in a thread
INLINE_IMPORT_BYTES = 16 * 1024
RECENT_IDS = 256

COMMAND_NAMES = {
    "add": "/combatant add",
    "edit": "/combatant edit",
    "remove": "/combatant remove",
    "init_roll": "/init roll",
    "init_set": "/init set",
    "init_order": "/init order",
    "next": "/init next",
    "move": "/move",
    "attack": "/attack",
    "coupdegrace": "/coupdegrace",
    "act": "/act",
}
GM_ONLY = {"remove", "init_roll", "init_set", "init_order"}
ACTOR_KINDS = {"next", "move", "attack", "coupdegrace", "act"}


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
    """A turn change: a new message that mentions exactly these users."""

    user_ids: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class Nudge:
    """A due reminder as it goes out: its text and exactly the users it may ping.

    ``last`` is the GM's notice after ``max_nudges`` nudges: the turn gets no more reminders."""

    reminder: Reminder
    text: str
    user_ids: tuple[str, ...]
    last: bool = False


@dataclass
class Outcome:
    report: Report
    ping: Ping | None = None
    board_changed: bool = False
    file: tuple[str, bytes] | None = None
    ephemeral: bool = False


class Unreadable(IllegalAction):
    """The channel's stored encounter does not read back; only export, undo and end work."""

    def __init__(self, reason: str | None) -> None:
        super().__init__(
            f"This channel's encounter could not be read ({reason or 'unknown error'}): the GM can "
            "`/encounter export` it as it is stored, `/undo` the last action, or `/encounter end` it."
        )


@dataclass
class _Stored:
    """An active encounter's row as cached in memory: its JSON as last written; ``error`` says
    why it does not read back (a `_Live` is one that does)."""

    id: int
    channel_id: str
    json: str
    board_message_id: str | None
    error: str | None = None
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_IDS))
    recent_set: set[str] = field(default_factory=set)

    def seen(self, interaction_id: str | None) -> bool:
        return interaction_id is not None and interaction_id in self.recent_set

    def remember(self, interaction_id: str | None) -> None:
        if interaction_id is None:
            return
        if len(self.recent) == self.recent.maxlen:
            self.recent_set.discard(self.recent[0])
        self.recent.append(interaction_id)
        self.recent_set.add(interaction_id)


@dataclass(kw_only=True)
class _Live(_Stored):
    """An active encounter as cached in memory: the state and its JSON, as last written."""

    enc: Encounter


@dataclass
class _ChannelLock:
    """A channel's lock, how many tasks hold or wait for it, and which task holds it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    owner: asyncio.Task[Any] | None = None


def _no_encounter() -> NotFound:
    return NotFound("There is no encounter in this channel: start one with `/encounter start`.")


class Service:
    def __init__(
        self,
        store: Store,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        default_reminder_hours: float = 24.0,
        cache_bytes: int = CACHE_BYTES,
    ) -> None:
        self.store = store
        self.rng = rng or random.Random()
        self.clock = clock
        self.default_reminder_hours = default_reminder_hours
        #: the bound of the encounter cache, in bytes of encounter JSON
        self.cache_bytes = cache_bytes
        #: the bytes of encounter JSON the cache holds now
        self.cached_bytes = 0
        self._locks: dict[str, _ChannelLock] = {}
        self._cache: OrderedDict[str, _Stored] = OrderedDict()
        self._absent: OrderedDict[str, None] = OrderedDict()

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

    async def _entry(self, channel_id: str) -> _Stored | None:
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

    async def _live(self, channel_id: str) -> _Live | None:
        """The channel's active encounter, or None; `Unreadable` if it does not read back."""
        entry = await self._entry(channel_id)
        if entry is None or isinstance(entry, _Live):
            return entry
        raise Unreadable(entry.error)

    async def _readable(self, channel_id: str) -> _Live | None:
        """The channel's active encounter if there is one that reads back, else None."""
        entry = await self._entry(channel_id)
        return entry if isinstance(entry, _Live) else None

    def _put(self, entry: _Stored) -> None:
        """Cache ``entry`` as its channel's newest; the least recently used go past the byte bound."""
        self._drop(entry.channel_id)
        self._absent.pop(entry.channel_id, None)
        self._cache[entry.channel_id] = entry
        self.cached_bytes += len(entry.json)
        while self.cached_bytes > self.cache_bytes and self._cache:
            _, gone = self._cache.popitem(last=False)
            self.cached_bytes -= len(gone.json)

    def _remember(self, channel_id: str, entry: _Stored | None) -> None:
        """Cache the channel's encounter row, or that it has none."""
        if entry is None:
            self._mark_absent(channel_id)
        else:
            self._put(entry)

    def _drop(self, channel_id: str) -> None:
        gone = self._cache.pop(channel_id, None)
        if gone is not None:
            self.cached_bytes -= len(gone.json)

    def _mark_absent(self, channel_id: str) -> None:
        """Remember that the channel has no encounter, in a small set of its own."""
        self._drop(channel_id)
        self._absent[channel_id] = None
        self._absent.move_to_end(channel_id)
        while len(self._absent) > ABSENT_SIZE:
            self._absent.popitem(last=False)

    @staticmethod
    def _from_stored(stored: StoredEncounter) -> _Stored:
        entry: _Stored
        if stored.encounter is None:
            entry = _Stored(stored.id, stored.channel_id, stored.raw_state, stored.board_message_id, stored.error)
        else:
            entry = _Live(
                id=stored.id,
                channel_id=stored.channel_id,
                enc=stored.encounter,
                json=stored.raw_state or stored.encounter.model_dump_json(),
                board_message_id=stored.board_message_id,
            )
        for i in stored.recent_interactions:
            entry.remember(i)
        return entry

    @contextlib.asynccontextmanager
    async def _holding_any(self, ctx: Ctx) -> AsyncIterator[_Stored]:
        """Hold the channel's lock with its encounter row, readable or not; a re-delivered interaction is refused."""
        async with self._lock(ctx.channel_id):
            entry = await self._entry(ctx.channel_id)
            if entry is None:
                raise _no_encounter()
            if entry.seen(ctx.interaction_id):
                raise DuplicateInteraction()
            yield entry

    @contextlib.asynccontextmanager
    async def _holding(self, ctx: Ctx) -> AsyncIterator[_Live]:
        """Hold the channel's lock with its live encounter; a re-delivered interaction is refused."""
        async with self._holding_any(ctx) as entry:
            if not isinstance(entry, _Live):
                raise Unreadable(entry.error)
            yield entry

    async def _need(self, channel_id: str) -> _Live:
        live = await self._live(channel_id)
        if live is None:
            raise _no_encounter()
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

    def _ping(self, enc: Encounter, turn: Turn) -> Ping | None:
        if enc.winner or not turn.actors:
            return None
        users = self.owners_of(enc, turn.actors)
        if not users:
            return None
        return Ping(_mentioned(users), _turn_text(enc, turn, users, "your turn"))

    def _reminder(self, live: _Live, enc: Encounter, turn: Turn, now: float) -> Reminder | None:
        hours = enc.settings.reminder_hours
        users = self.owners_of(enc, turn.actors)
        if enc.winner or not users or hours <= 0:
            return None
        return Reminder(
            encounter_id=live.id,
            channel_id=live.channel_id,
            due_at=now + hours * 3600,
            user_ids=list(users),
            turn_key=json.dumps(list(turn.key), default=str),
            nudges=0,
        )

    # -- writing ------------------------------------------------------------------------------
    async def _commit(
        self,
        ctx: Ctx,
        live: _Stored,
        new: Encounter | None,
        command: str,
        summary: str,
        dice: list[int],
        undoable: bool = True,
        undo_of: int | None = None,
        active: bool = True,
        dice_typed: list[int] | None = None,
    ) -> Ping | None:
        """Write ``new`` and its log row, then make it the channel's cached encounter.

        ``new`` is None only to end an encounter that does not read back (its row is kept as
        stored). ``live`` may be such an encounter: a command that restores it (undo) commits
        a new state like any other.
        """
        now = self.clock()
        ping: Ping | None = None
        reminder: Reminder | None = None
        clear = True
        if new is None:
            new_json = live.json
        else:
            new_json = self._saveable(new, live.channel_id, command)
            system = get_system(new.system)
            new_turn = system.turn(new)
            turn_moved = not isinstance(live, _Live) or system.turn(live.enc).key != new_turn.key
            reminder = self._reminder(live, new, new_turn, now) if (turn_moved and active) else None
            clear = (not active) or new.winner is not None or (turn_moved and reminder is None)
            ping = self._ping(new, new_turn) if (turn_moved and active) else None
        await self.store.apply(
            Change(
                encounter_id=live.id,
                encounter=new,
                interaction_id=ctx.interaction_id,
                user_id=ctx.user_id,
                command=command,
                summary=summary[:1500],
                dice=dice,
                state_before=live.json if undoable else None,
                now=now,
                undo_of=undo_of,
                active=active,
                reminder=reminder,
                clear_reminder=clear and reminder is None,
                state_json=new_json,
                dice_typed=dice_typed or [],
            )
        )
        if not active or new is None:
            self._mark_absent(live.channel_id)
            return None
        # the holder of the lock commits to the channel's entry in the cache, even if it was evicted
        self._drop(live.channel_id)
        if isinstance(live, _Live):
            kept, live.enc, live.json = live, new, new_json
        else:
            kept = _Live(
                id=live.id, channel_id=live.channel_id, json=new_json, board_message_id=live.board_message_id,
                recent=live.recent, recent_set=live.recent_set, enc=new,
            )
        kept.remember(ctx.interaction_id)
        self._put(kept)
        return ping

    @staticmethod
    def _saveable(new: Encounter, channel_id: str, command: str) -> str:
        """``new`` as JSON, once it reads back exactly as a load reads it; else nothing is changed."""
        try:
            new_json = new.model_dump_json()
        except Exception as exc:  # a state that cannot even be written
            error: str | None = f"{type(exc).__name__}: {exc}"[:200]
        else:
            readable, error = read_state(new_json)
            if readable is not None:
                return new_json
        log.error("%s in channel %s would store a state that cannot be read back (%s): refused", command, channel_id, error)
        raise IllegalAction(
            "That would leave the encounter in a state that cannot be saved: nothing was changed. "
            "Try other values, or tell the GM."
        )

    # -- encounter lifecycle --------------------------------------------------------------------------
    async def start(
        self,
        ctx: Ctx,
        system_key: str,
        name: str | None,
        map_spec: str | None,
        variant: str | None,
    ) -> Outcome:
        system = get_system(system_key)
        variant = system.check_variant(variant)
        enc = Encounter(
            system=system.key,
            variant=variant,
            name=(name or "").strip()[:100] or f"{system.title} encounter",
            map=self._map(system, map_spec),
            gm_ids=[ctx.user_id],
            settings=Settings(reminder_hours=self.default_reminder_hours),
        )
        async with self._lock(ctx.channel_id):
            if await self._live(ctx.channel_id) is not None:
                raise IllegalAction(
                    "This channel already has an encounter: `/encounter end` it first, or start one in a thread."
                )
            stored = await self.store.create_encounter(ctx.channel_id, ctx.guild_id, enc, self.clock())
            self._remember(ctx.channel_id, self._from_stored(stored))
        lines = [f"GM: <@{ctx.user_id}>", f"Map: {self._map_text(enc.map)}"]
        if variant:
            lines.append(f"Variant: {variant}")
        lines.append("Add combatants with `/combatant add`, then `/init roll` to begin.")
        return Outcome(Report(f"⚔️ {enc.name} · {system.title}", lines), board_changed=True)

    @staticmethod
    def _map(system: RuleSystem, spec: str | None) -> MapState:
        if spec is None or not spec.strip():
            spec = system.default_map or "none"
        kind, width, height = parse_map_spec(spec)
        if kind not in system.map_kinds:
            kinds = " or ".join(f"`{k}`" for k in system.map_kinds)
            raise InputError(f"{system.title} plays on a {kinds} map, not `{kind}`: {_map_hint(system)}.")
        return MapState(kind=kind, width=width, height=height)  # type: ignore[arg-type]

    @staticmethod
    def _map_text(m: MapState) -> str:
        return "none (range bands)" if m.kind == "none" else f"{m.width}x{m.height} {m.kind}"

    async def end(self, ctx: Ctx) -> Outcome:
        async with self._holding_any(ctx) as entry:
            enc = self._gm_of(entry, ctx, "end this encounter")
            await self._commit(ctx, entry, enc, "/encounter end", "ended the encounter", [], undoable=False, active=False)
        name = enc.name if enc else "The encounter"
        return Outcome(Report(f"🏁 {name} has ended", ["The log and state stay in the database."]))

    # -- game actions --------------------------------------------------------------------------------
    async def act(self, ctx: Ctx, action: Action) -> Outcome:
        """Run one game action (add, edit, remove, initiative, next, move, attack, ...)."""
        async with self._holding(ctx) as live:
            enc = live.enc
            system = get_system(enc.system)
            is_gm = enc.is_gm(ctx.user_id)
            action = self._authorise(enc, system, ctx, action.model_copy(update={"user_id": ctx.user_id, "is_gm": is_gm}))
            given = parse_given(ctx.roll)
            if given and not is_gm and not enc.settings.player_rolls:
                raise NotAllowed(
                    "The GM has turned off `roll:` for players in this encounter: leave it out and the bot rolls."
                )
            # a player's `roll:` stands only for the dice of their own combatants; the GM's for anyone's
            mine = None if is_gm else frozenset(c.name for c in enc.combatants if c.owner_id == ctx.user_id)
            dice = Dice(rng=self.rng, given=given, may_type=mine)
            res = system.resolve(enc, action, dice, snapshot=live.json)
            command = COMMAND_NAMES[action.kind]
            gm_edit = action.kind == "edit" and is_gm and enc.started  # mid-fight: the GM's, shown as such
            title = f"🛠️ GM edit: {action.actor}" if gm_edit else self._title(command, action)
            report = events_report(title, res.events, system)
            summary = " · ".join(report.lines)[:1500] or command  # a GM's mid-fight edit says so itself
            typed = dice.typed()
            if typed:
                report.lines.append(f"{TYPED} typed with `roll:` by <@{ctx.user_id}>; unmarked dice rolled by the bot")
            ping = await self._commit(ctx, live, res.encounter, command, summary, dice.values(), dice_typed=typed)
        return Outcome(report, ping=ping, board_changed=True)

    @staticmethod
    def _title(command: str, action: Action) -> str:
        if action.kind == "act" and action.name:
            return f"{action.actor}: {action.name}"
        if action.actor and action.kind in ACTOR_KINDS:
            return f"{action.actor}: {command.lstrip('/')}"
        return command

    def _gm(self, enc: Encounter, ctx: Ctx, what: str = "do that") -> None:
        if not enc.is_gm(ctx.user_id):
            raise _not_gm(enc.gm_ids, what)

    def _gm_of(self, entry: _Stored, ctx: Ctx, what: str) -> Encounter | None:
        """Check the caller is a GM of the channel's encounter, and return it (None if it does
        not read back: then its GMs are read from the stored JSON, and if even they cannot be
        read, anyone may recover the channel)."""
        if isinstance(entry, _Live):
            self._gm(entry.enc, ctx, what)
            return entry.enc
        gm_ids = _stored_gm_ids(entry.json)
        if gm_ids and ctx.user_id not in gm_ids:
            raise _not_gm(gm_ids, what)
        return None

    def _authorise(self, enc: Encounter, system: RuleSystem, ctx: Ctx, action: Action) -> Action:
        """Check the caller may do this, and fill in the acting combatant when it was left out."""
        user, is_gm = ctx.user_id, action.is_gm
        kind = action.kind
        if kind in GM_ONLY:
            self._gm(enc, ctx, f"use {COMMAND_NAMES[kind]}")
            return action
        if kind == "act" and action.name in system.gm_actions:
            self._gm(enc, ctx, f"use `/act action:{action.name}`")
            if action.actor:
                return action.model_copy(update={"actor": enc.get(action.actor).name})
            return action
        if kind == "add":
            owner = action.owner_id or (None if is_gm else user)
            if not is_gm and owner != user:
                raise NotAllowed("Players can add only their own combatants: leave `owner` out, or ask the GM.")
            if not is_gm and enc.started:
                raise NotAllowed(
                    f"The fight has started, so only the GM adds combatants now: ask <@{enc.gm_ids[0]}> to add yours."
                )
            return action.model_copy(update={"owner_id": owner})
        if kind == "edit":
            c = enc.get(action.actor)
            if not is_gm and c.owner_id != user:
                raise NotAllowed(f"{c.name} is not yours: only its owner or the GM can edit it.")
            if not is_gm and action.side:
                raise NotAllowed("Only the GM can move a combatant to another side.")
            if not is_gm and enc.started:
                self._cosmetic_only(enc, system, c, action)
            return action
        # acting commands
        if action.actor:
            c = enc.get(action.actor)
            if not is_gm and c.owner_id != user:
                raise NotAllowed(f"{c.name} is not yours: you can act only for your own combatants.")
            return action.model_copy(update={"actor": c.name})
        return action.model_copy(update={"actor": self._default_actor(enc, system, user, is_gm)})

    @staticmethod
    def _cosmetic_only(enc: Encounter, system: RuleSystem, c: Combatant, action: Action) -> None:
        """Mid-fight, an owner's edit may touch only cosmetic sheet keys: the rest is the GM's or the rules'."""
        keys = {k.name: k for k in system.sheet_keys(enc.variant)}
        refused = [k for k in action.raw_sheet if k in keys and not keys[k].cosmetic]
        refused += [f"`{o}`" for o in ("at", "facing") if getattr(action, o)]
        if not refused:
            return
        cosmetic = [k for k, key in keys.items() if key.cosmetic]
        still = f"; you may still change {', '.join(cosmetic)}" if cosmetic else ""
        raise NotAllowed(
            f"The fight has started: {c.name}'s {', '.join(refused)} change now only by rule actions or by the GM's "
            f"edit. Ask <@{enc.gm_ids[0]}>{still}."
        )

    @classmethod
    def acting(cls, enc: Encounter, user: str, named: str | None = None) -> Combatant | None:
        """The combatant a command by ``user`` would act with, or None where it must be named."""
        if named:
            return enc.find(named)
        try:
            return enc.find(cls._default_actor(enc, get_system(enc.system), user, enc.is_gm(user)))
        except RulesError:
            return None

    @staticmethod
    def _default_actor(enc: Encounter, system: RuleSystem, user: str, is_gm: bool) -> str:
        turn = system.turn(enc)
        def mine(name: str) -> bool:
            c = enc.find(name)
            return c is not None and (is_gm or c.owner_id == user)
        candidates = [n for n in turn.actors if mine(n)]
        if turn.current and turn.current in candidates:
            return turn.current
        if len(candidates) == 1:
            return candidates[0]
        if len(candidates) > 1:
            raise InputError(f"Say which combatant acts with `combatant`: {', '.join(candidates[:20])}.")
        owned = [c.name for c in enc.combatants if c.owner_id == user and c.in_fight]
        if len(owned) == 1:
            return owned[0]
        if not owned and not is_gm:
            raise NotFound("You have no combatant in this encounter: add one with `/combatant add`.")
        now = f" It is {', '.join(turn.actors)}'s turn." if turn.actors else ""
        raise InputError(f"Say which combatant acts with `combatant`.{now}")

    # -- settings, GMs, terrain --------------------------------------------------------------------
    async def settings(
        self,
        ctx: Ctx,
        player_rolls: bool | None,
        reminder_hours: float | None,
        options: dict[str, str] | None,
        max_nudges: int | None = None,
    ) -> Outcome:
        async with self._holding(ctx) as live:
            self._gm(live.enc, ctx, "change settings")
            system = get_system(live.enc.system)
            new = live.enc.model_copy(deep=True)
            if player_rolls is not None:
                new.settings.player_rolls = player_rolls
            if reminder_hours is not None:
                problem = reminder_hours_problem(reminder_hours)
                if problem:
                    raise InputError(problem)
                new.settings.reminder_hours = reminder_hours
            if max_nudges is not None:
                if not 0 <= max_nudges <= MAX_NUDGES_LIMIT:
                    raise InputError(f"`max_nudges` is a whole number from 0 to {MAX_NUDGES_LIMIT}, not {max_nudges}.")
                new.settings.max_nudges = max_nudges
            set_options(system, new.settings.options, options or {})
            system.check_options(new)
            lines = self._settings_lines(system, new)
            if new != live.enc:
                await self._commit(ctx, live, new, "/encounter settings", "; ".join(lines), [])
        return Outcome(Report("⚙️ Encounter settings", lines), board_changed=True)

    @staticmethod
    def _settings_lines(system: RuleSystem, enc: Encounter) -> list[str]:
        s = enc.settings
        lines = [
            f"Players may give their own rolls (`roll:`): **{'yes' if s.player_rolls else 'no'}**",
            f"Reminder after: **{s.reminder_hours:g} h**" if s.reminder_hours else "Reminders: **off**",
            f"Nudges per turn before only the GM is told, `max_nudges`: **{s.max_nudges}**",
            f"GMs: {', '.join(f'<@{g}>' for g in enc.gm_ids)}",
        ]
        for key, text in system.options_help.items():
            value = s.options.get(key)
            lines.append(f"`{key}` = **{value}**: {text}" if value else f"`{key}` (default): {text}")
        return lines

    async def show_settings(self, ctx: Ctx) -> Outcome:
        live = await self._need(ctx.channel_id)
        system = get_system(live.enc.system)
        return Outcome(Report("⚙️ Encounter settings", self._settings_lines(system, live.enc)), ephemeral=True)

    async def co_gm(self, ctx: Ctx, user_id: str, remove: bool) -> Outcome:
        async with self._holding(ctx) as live:
            self._gm(live.enc, ctx, "add or remove co-GMs")
            new = live.enc.model_copy(deep=True)
            if remove:
                if user_id not in new.gm_ids:
                    raise InputError(f"<@{user_id}> is not a GM here.")
                if len(new.gm_ids) == 1:
                    raise IllegalAction("An encounter needs at least one GM: add another before removing this one.")
                new.gm_ids.remove(user_id)
                text = f"<@{user_id}> is no longer a GM here."
            else:
                if user_id in new.gm_ids:
                    raise InputError(f"<@{user_id}> is already a GM here.")
                new.gm_ids.append(user_id)
                text = f"<@{user_id}> is now a co-GM."
            await self._commit(ctx, live, new, "/encounter gm", text, [])
        return Outcome(Report("👑 GMs", [text]), board_changed=True)

    async def terrain(self, ctx: Ctx, cells: str, kind: str, height: int | None) -> Outcome:
        async with self._holding(ctx) as live:
            self._gm(live.enc, ctx, "mark the map")
            grid = live.enc.grid()
            if grid is None:
                raise IllegalAction("This encounter has no map to mark.")
            kind = (kind or "").strip().lower()
            if kind not in TERRAIN_KINDS:
                raise InputError(f"`{kind}` is not a terrain: use one of {', '.join(TERRAIN_KINDS)}.")
            targets = [grid.parse(t) for t in cells.replace(",", " ").split()]
            if not targets:
                raise InputError("Give the cells to mark, like `cells:\"D4 D5 E5\"`.")
            if len(targets) > 400:
                raise InputError("Mark at most 400 cells at a time.")
            if height is not None:
                read_int(str(height), "height", -MAX_CELL_HEIGHT, MAX_CELL_HEIGHT, hint="in feet; 0 clears it")
            new = live.enc.model_copy(deep=True)
            m = new.map
            for cell in targets:
                name = cell.name
                if kind == "wall" and new.at(cell) is not None:
                    raise IllegalAction(f"{name} holds {new.at(cell).name}: a wall cannot go there.")  # type: ignore[union-attr]
                if name in m.blocked:
                    m.blocked.remove(name)
                m.terrain.pop(name, None)
                if kind == "wall":
                    m.blocked.append(name)
                elif kind != "clear":
                    m.terrain[name] = kind
                if height is not None:
                    if height:
                        m.heights[name] = height
                    else:
                        m.heights.pop(name, None)
            names = " ".join(c.name for c in targets)
            text = f"{names}: {kind}" + (f", height {height} ft" if height is not None else "")
            await self._commit(ctx, live, new, "/encounter terrain", text, [])
        return Outcome(Report("🗺️ Map marked", [text]), board_changed=True)

    # -- undo, log, export/import --------------------------------------------------------------------
    async def undo(self, ctx: Ctx) -> Outcome:
        async with self._holding_any(ctx) as live:
            self._gm_of(live, ctx, "undo")
            entry = await self.store.last_undoable(live.id)
            if entry is None or entry.state_before is None:
                raise IllegalAction("Nothing left to undo in this encounter.")
            restored, error = read_state(entry.state_before)
            if restored is None:
                raise IllegalAction(
                    f"The state before {entry.command} could not be read either ({error}): "
                    "`/encounter export` the encounter as it is stored, or `/encounter end` it."
                )
            text = f"Undid {entry.command} by <@{entry.user_id}>: {entry.summary}"
            ping = await self._commit(ctx, live, restored, "/undo", text, [], undoable=False, undo_of=entry.id)
        return Outcome(Report("↩️ Undone", [text[:3500]]), ping=ping, board_changed=True)

    async def log(self, ctx: Ctx, count: int) -> Outcome:
        live = await self._need(ctx.channel_id)
        count = max(1, min(count, 25))
        entries = await self.store.log(live.id, count)
        lines = []
        for e in entries:
            stamp = time.strftime("%d %b %H:%M", time.gmtime(e.created_at))
            dice = _log_dice(e)
            undone = " ~~undone~~" if e.undone else ""
            lines.append(f"`#{e.id}` {stamp} <@{e.user_id}> {e.command}{undone}: {e.summary}{dice}")
        if not lines:
            lines = ["Nothing has happened yet."]
        return Outcome(Report(f"📜 Log of {live.enc.name}", lines))

    async def export(self, ctx: Ctx) -> Outcome:
        entry = await self._entry(ctx.channel_id)
        if entry is None:
            raise _no_encounter()
        if not isinstance(entry, _Live):
            lines = [f"It could not be read ({entry.error}): this is the file exactly as it is stored."]
            return Outcome(Report("📦 Export", lines), file=("encounter.json", entry.json.encode()))
        live = entry
        data = json.dumps(json.loads(live.json), indent=2, ensure_ascii=False).encode()
        report = Report("📦 Export", [f"{live.enc.name}: {len(live.enc.combatants)} combatants, round {live.enc.round}."])
        return Outcome(report, file=("encounter.json", data))

    async def import_(self, ctx: Ctx, raw: bytes, replace: bool = False) -> Outcome:
        """Load an ``encounter.json``; over an active encounter only the GM may, with ``replace``."""
        if len(raw) <= INLINE_IMPORT_BYTES:
            enc = read_export(raw, ctx.user_id)
        else:  # up to 512 KiB: over 100 ms of checks, in a thread so that the event loop runs on
            enc = await asyncio.to_thread(read_export, raw, ctx.user_id)
        system = get_system(enc.system)
        summary = f"imported {enc.name}"
        async with self._lock(ctx.channel_id):
            live = await self._live(ctx.channel_id)
            if live is None:
                stored = await self.store.create_encounter(
                    ctx.channel_id, ctx.guild_id, enc, self.clock(),
                    interaction_id=ctx.interaction_id, user_id=ctx.user_id, command="/encounter import", summary=summary,
                )
                self._remember(ctx.channel_id, self._from_stored(stored))
            else:
                if live.seen(ctx.interaction_id):
                    raise DuplicateInteraction()
                self._gm(live.enc, ctx, "import over this encounter")
                if not replace:
                    raise IllegalAction(
                        f"This channel already has an encounter ({live.enc.name}): add `replace:true` to replace it "
                        "with the file (`/undo` brings it back), or import in a thread."
                    )
                enc.gm_ids = list(dict.fromkeys(live.enc.gm_ids + enc.gm_ids))
                await self._commit(ctx, live, enc, "/encounter import", summary, [])
        lines = [f"{system.title}: {len(enc.combatants)} combatants, round {enc.round}."]
        return Outcome(Report(f"📥 Imported {enc.name}", lines), board_changed=True)

    read_export = staticmethod(read_export)

    # -- reading --------------------------------------------------------------------------------------
    async def board(self, channel_id: str) -> tuple[Report, Encounter] | None:
        live = await self._readable(channel_id)
        if live is None:
            return None
        return board_report(get_system(live.enc.system), live.enc), live.enc

    async def status(self, ctx: Ctx) -> Outcome:
        live = await self._need(ctx.channel_id)
        return Outcome(board_report(get_system(live.enc.system), live.enc))

    async def order(self, ctx: Ctx) -> Outcome:
        live = await self._need(ctx.channel_id)
        enc = live.enc
        system = get_system(enc.system)
        turn = system.turn(enc)
        lines: list[str] = []
        if not enc.started:
            lines.append("Combat has not started: the GM uses `/init roll`.")
        for i, name in enumerate(enc.order, 1):
            c = enc.find(name)
            if c is None:
                continue
            mark = "▶️ " if name in turn.actors else ""
            init = f" ({c.initiative})" if c.initiative is not None else ""
            lines.append(f"{mark}{i}. **{c.name}**{init} · {c.side}" + (f" · {c.status}" if c.status != "active" else ""))
        if turn.label:
            lines.append(turn.label)
        return Outcome(Report(f"🎯 Order · round {enc.round}", lines or ["No combatants yet."]))

    async def show(self, ctx: Ctx, name: str) -> Outcome:
        live = await self._need(ctx.channel_id)
        enc = live.enc
        system = get_system(enc.system)
        c = enc.get(name)
        owner = f"<@{c.owner_id}>" if c.owner_id else "the GM"
        lines = [system.status_line(enc, c), f"Side: {c.side or '—'} · owner: {owner}"]
        fields = [("Sheet", system.sheet_summary(c) or "—")]
        if c.state:
            fields.append(("State", ", ".join(f"{k}={v}" for k, v in c.state.items())[:1000]))
        return Outcome(Report(f"🧾 {c.name}", lines, fields), ephemeral=True)

    async def map_image(self, ctx: Ctx) -> Outcome:
        live = await self._need(ctx.channel_id)
        enc = live.enc
        if enc.map.kind == "none":
            raise IllegalAction(
                "This encounter has no map: distances are range bands. `/encounter status` shows who is where."
            )
        from bot.mapimage import render_map

        png = await asyncio.to_thread(render_map, enc)
        report = Report(f"🗺️ {enc.name} · round {enc.round}", [f"{enc.map.width}x{enc.map.height} {enc.map.kind}"])
        return Outcome(report, file=("map.png", png))

    async def board_message(self, channel_id: str) -> str | None:
        live = await self._entry(channel_id)
        return live.board_message_id if live else None

    async def set_board_message(self, channel_id: str, message_id: str) -> None:
        live = await self._entry(channel_id)
        if live is None:
            return
        live.board_message_id = message_id
        await self.store.set_board_message(live.id, message_id)

    def roll(self, ctx: Ctx, expression: str, reason: str | None) -> Outcome:
        result = roll_expression(expression, Dice(rng=self.rng))
        text = result.text
        if len(text) > 3000:
            text = text[:3000] + " …"
        title = f"🎲 {reason[:200]}" if reason else "🎲 Roll"
        return Outcome(Report(title, [f"<@{ctx.user_id}>: {text}", f"**Total: {result.total}**"]))

    # -- reminders ------------------------------------------------------------------------------------
    async def due_reminders(self) -> list[Nudge]:
        """Reminders whose time has come, each with its text (`reminded` records each one sent).

        A reminder that cannot be read (a damaged encounter, a bug) is logged and skipped: the
        others still go out."""
        out: list[Nudge] = []
        for r in await self.store.due_reminders(self.clock()):
            try:
                nudge = await self._nudge(r)
            except Exception:
                log.exception("cannot prepare the reminder of encounter %s in %s", r.encounter_id, r.channel_id)
                continue
            if nudge is not None:
                out.append(nudge)
        return out

    async def _nudge(self, r: Reminder) -> Nudge | None:
        live = await self._readable(r.channel_id)
        if live is None or live.id != r.encounter_id:
            return None
        enc = live.enc
        hours = enc.settings.reminder_hours or self.default_reminder_hours or 24
        turn = get_system(enc.system).turn(enc)
        waited = (r.nudges + 1) * hours
        if r.nudges < enc.settings.max_nudges:
            text = _turn_text(enc, turn, tuple(r.user_ids), f"⏰ still your turn (waiting about {waited:g} h)")
            return Nudge(r, text, tuple(r.user_ids))
        gms = _mentioned(tuple(enc.gm_ids))
        who = ", ".join(turn.actors[:10]) + (" …" if len(turn.actors) > 10 else "")
        times = f"{r.nudges} time{'' if r.nudges == 1 else 's'}"
        text = (
            f"{' '.join(f'<@{g}>' for g in gms)}: ⏰ {who}'s turn has waited {waited:g} h; players were nudged "
            f"{times} in **{enc.name}**. No more reminders for this turn."
        )
        return Nudge(r, text[:MAX_MESSAGE], gms, last=True)

    async def reminded(self, nudge: Nudge) -> None:
        """The nudge went out (or can never go out): the next one is one interval away, and
        after the GM's notice there is none for this turn."""
        reminder = nudge.reminder
        if nudge.last:
            await self.store.clear_reminder(reminder.encounter_id, reminder.turn_key)
            return
        live = await self._readable(reminder.channel_id)
        hours = (live.enc.settings.reminder_hours if live else 0) or self.default_reminder_hours or 24
        await self.store.bump_reminder(reminder.encounter_id, self.clock() + hours * 3600)


MAX_MESSAGE = 2000
MENTION_ROOM = 1700  # of a message's 2000 characters; the rest says whose turn it is


def _mentioned(users: tuple[str, ...]) -> tuple[str, ...]:
    """As many of ``users`` as their mentions fit in one message (with Discord's 100 at most)."""
    out: list[str] = []
    size = 0
    for u in users[:100]:
        size += len(u) + 4
        if size > MENTION_ROOM:
            break
        out.append(u)
    return tuple(out)


def _turn_text(enc: Encounter, turn: Turn, users: tuple[str, ...], lead: str) -> str:
    """``@a @b: your turn in **Bridge**: Borin, Thrain. Round 2 ...``, within one message."""
    shown = _mentioned(users)
    mentions = " ".join(f"<@{u}>" for u in shown)
    if len(users) > len(shown):
        mentions += f" (+{len(users) - len(shown)} more)"
    who = ", ".join(turn.actors[:10]) + (" …" if len(turn.actors) > 10 else "")
    text = f"{mentions}: {lead} in **{enc.name}**: {who}. {turn.label}".strip()
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def _not_gm(gm_ids: list[str], what: str) -> NotAllowed:
    ask = f": ask <@{gm_ids[0]}>" if gm_ids else ""
    return NotAllowed(f"Only the GM of this encounter can {what}{ask}.")


def _stored_gm_ids(raw: str) -> list[str]:
    """The GMs named in an encounter's stored JSON that does not read back as an encounter."""
    try:
        data = json.loads(raw)
    except ValueError:
        return []
    ids = data.get("gm_ids") if isinstance(data, dict) else None
    return [str(i) for i in ids] if isinstance(ids, list) else []


def _log_dice(e: LogEntry) -> str:
    """`` 🎲 5, 3 · ✍ typed by <@u>: 6``: the bot's dice, then the ones the caller typed."""
    rolled = [str(d) for i, d in enumerate(e.dice) if i not in e.dice_typed]
    typed = [str(d) for i, d in enumerate(e.dice) if i in e.dice_typed]
    parts = [f"🎲 {', '.join(rolled)}"] if rolled else []
    if typed:
        parts.append(f"{TYPED} typed by <@{e.user_id}>: {', '.join(typed)}")
    return " " + " · ".join(parts) if parts else ""


def _map_hint(system: RuleSystem) -> str:
    if system.map_kinds == ("none",):
        return "leave `map` out"
    if "hex" in system.map_kinds:
        return "write a size like `12x10 hex`"
    return "write a size like `12x10`"
