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
import random
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from pydantic import ValidationError

from data.store import Change, DuplicateInteraction, LogEntry, Reminder, Store, StoredEncounter
from rules.dice import Dice, parse_given, roll_expression
from rules.errors import IllegalAction, InputError, NotAllowed, NotFound, RulesError
from rules.grid import parse_cell, parse_map_spec
from rules.models import EXPORT_FORMAT, TERRAIN_KINDS, Combatant, Encounter, MapState, Settings
from rules.report import TYPED, Report, board_report, events_report
from rules.system import MAX_COMBATANTS, Action, RuleSystem, Turn, get_system, system_keys

__all__ = ["Service", "Ctx", "Outcome", "Ping", "MAX_IMPORT_BYTES"]

MAX_IMPORT_BYTES = 512 * 1024
CACHE_SIZE = 2048
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


@dataclass
class Outcome:
    report: Report
    ping: Ping | None = None
    board_changed: bool = False
    file: tuple[str, bytes] | None = None
    ephemeral: bool = False


@dataclass
class _Live:
    """An active encounter as cached in memory: the state and its JSON, as last written."""

    id: int
    channel_id: str
    enc: Encounter
    json: str
    board_message_id: str | None
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


class Service:
    def __init__(
        self,
        store: Store,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        default_reminder_hours: float = 24.0,
    ) -> None:
        self.store = store
        self.rng = rng or random.Random()
        self.clock = clock
        self.default_reminder_hours = default_reminder_hours
        self._locks: dict[str, asyncio.Lock] = {}
        self._cache: OrderedDict[str, _Live | None] = OrderedDict()

    # -- loading ----------------------------------------------------------------------------
    def _lock(self, channel_id: str) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def _live(self, channel_id: str) -> _Live | None:
        if channel_id in self._cache:
            self._cache.move_to_end(channel_id)
            return self._cache[channel_id]
        stored = await self.store.load_active(channel_id)
        live = self._from_stored(stored) if stored else None
        self._remember(channel_id, live)
        return live

    def _remember(self, channel_id: str, live: _Live | None) -> None:
        self._cache[channel_id] = live
        self._cache.move_to_end(channel_id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    @staticmethod
    def _from_stored(stored: StoredEncounter) -> _Live:
        live = _Live(
            id=stored.id,
            channel_id=stored.channel_id,
            enc=stored.encounter,
            json=stored.encounter.model_dump_json(),
            board_message_id=stored.board_message_id,
        )
        for i in stored.recent_interactions:
            live.remember(i)
        return live

    @contextlib.asynccontextmanager
    async def _holding(self, ctx: Ctx) -> AsyncIterator[_Live]:
        """Hold the channel's lock with its live encounter; a re-delivered interaction is refused."""
        async with self._lock(ctx.channel_id):
            live = await self._need(ctx.channel_id)
            if live.seen(ctx.interaction_id):
                raise DuplicateInteraction()
            yield live

    async def _need(self, channel_id: str) -> _Live:
        live = await self._live(channel_id)
        if live is None:
            raise NotFound(
                "There is no encounter in this channel: start one with `/encounter start`."
            )
        return live

    async def encounter(self, channel_id: str) -> Encounter | None:
        """The channel's active encounter (read-only use), or None."""
        live = await self._live(channel_id)
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
        live: _Live,
        new: Encounter,
        command: str,
        summary: str,
        dice: list[int],
        undoable: bool = True,
        undo_of: int | None = None,
        active: bool = True,
        dice_typed: list[int] | None = None,
    ) -> Ping | None:
        system = get_system(new.system)
        new_turn = system.turn(new)
        turn_moved = system.turn(live.enc).key != new_turn.key
        now = self.clock()
        reminder = self._reminder(live, new, new_turn, now) if (turn_moved and active) else None
        clear = (not active) or new.winner is not None or (turn_moved and reminder is None)
        new_json = new.model_dump_json()
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
        live.enc = new
        live.json = new_json
        live.remember(ctx.interaction_id)
        if not active:
            self._remember(live.channel_id, None)
        return self._ping(new, new_turn) if (turn_moved and active) else None

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
        async with self._holding(ctx) as live:
            self._gm(live.enc, ctx)
            await self._commit(ctx, live, live.enc, "/encounter end", "ended the encounter", [], undoable=False, active=False)
        return Outcome(Report(f"🏁 {live.enc.name} has ended", ["The log and state stay in the database."]))

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
            summary = ("GM edit: " if gm_edit else "") + (" · ".join(report.lines)[:1500] or command)
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
            raise NotAllowed(f"Only the GM of this encounter can {what}: ask <@{enc.gm_ids[0]}>.")

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
    ) -> Outcome:
        async with self._holding(ctx) as live:
            self._gm(live.enc, ctx, "change settings")
            system = get_system(live.enc.system)
            new = live.enc.model_copy(deep=True)
            if player_rolls is not None:
                new.settings.player_rolls = player_rolls
            if reminder_hours is not None:
                if not 0 <= reminder_hours <= 720:
                    raise InputError("`reminder_hours` is from 0 (never) to 720.")
                new.settings.reminder_hours = reminder_hours
            for key, value in (options or {}).items():
                if key not in system.options_help:
                    known = ", ".join(system.options_help) or "none"
                    raise InputError(f"`{key}` is not an option of {system.title}. Options: {known}.")
                if value in ("", "default"):
                    new.settings.options.pop(key, None)
                elif len(value) > 500:
                    raise InputError(f"The value of `{key}` may be at most 500 characters long.")
                else:
                    new.settings.options[key] = value
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
        async with self._holding(ctx) as live:
            self._gm(live.enc, ctx, "undo")
            entry = await self.store.last_undoable(live.id)
            if entry is None or entry.state_before is None:
                raise IllegalAction("Nothing left to undo in this encounter.")
            restored = Encounter.model_validate_json(entry.state_before)
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
        live = await self._need(ctx.channel_id)
        data = json.dumps(json.loads(live.json), indent=2, ensure_ascii=False).encode()
        report = Report("📦 Export", [f"{live.enc.name}: {len(live.enc.combatants)} combatants, round {live.enc.round}."])
        return Outcome(report, file=("encounter.json", data))

    async def import_(self, ctx: Ctx, raw: bytes) -> Outcome:
        enc = self.read_export(raw, ctx.user_id)
        system = get_system(enc.system)
        async with self._lock(ctx.channel_id):
            live = await self._live(ctx.channel_id)
            if live is None:
                stored = await self.store.create_encounter(ctx.channel_id, ctx.guild_id, enc, self.clock())
                self._remember(ctx.channel_id, self._from_stored(stored))
            else:
                self._gm(live.enc, ctx, "import over this encounter")
                enc.gm_ids = list(dict.fromkeys(live.enc.gm_ids + enc.gm_ids))
                await self._commit(ctx, live, enc, "/encounter import", f"imported {enc.name}", [])
        lines = [f"{system.title}: {len(enc.combatants)} combatants, round {enc.round}."]
        return Outcome(Report(f"📥 Imported {enc.name}", lines), board_changed=True)

    @staticmethod
    def read_export(raw: bytes, importer: str) -> Encounter:
        """Validate an ``encounter.json``; any problem is one clear message."""
        if len(raw) > MAX_IMPORT_BYTES:
            raise InputError(f"That file is over {MAX_IMPORT_BYTES // 1024} KiB: attach an `encounter.json` from `/encounter export`.")
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise InputError("That file is not JSON: attach the `encounter.json` that `/encounter export` gave you.") from None
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise InputError(f"That file is not a Skirmish export (its `format` should be `{EXPORT_FORMAT}`).")
        if data.get("system") not in system_keys():
            raise InputError(f"Unknown system `{data.get('system')}`: this bot runs {', '.join(system_keys())}.")
        try:
            enc = Encounter.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise InputError(f"The file is not valid at `{where}`: {first['msg']}.") from None
        except RulesError as exc:
            raise InputError(f"The file is not valid: {exc.message}") from None
        system = get_system(enc.system)
        system.check_variant(enc.variant)
        _check_import(enc, system)
        if importer not in enc.gm_ids:
            enc.gm_ids.append(importer)
        return enc

    # -- reading --------------------------------------------------------------------------------------
    async def board(self, channel_id: str) -> tuple[Report, Encounter] | None:
        live = await self._live(channel_id)
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
        live = await self._live(channel_id)
        return live.board_message_id if live else None

    async def set_board_message(self, channel_id: str, message_id: str) -> None:
        live = await self._live(channel_id)
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
    async def due_reminders(self) -> list[tuple[Reminder, str]]:
        """Reminders whose time has come, with the nudge text (`reminded` pushes each back)."""
        now = self.clock()
        out: list[tuple[Reminder, str]] = []
        for r in await self.store.due_reminders(now):
            live = await self._live(r.channel_id)
            if live is None or live.id != r.encounter_id:
                continue
            hours = live.enc.settings.reminder_hours or self.default_reminder_hours or 24
            turn = get_system(live.enc.system).turn(live.enc)
            waited = (r.nudges + 1) * hours
            text = _turn_text(live.enc, turn, tuple(r.user_ids), f"⏰ still your turn (waiting about {waited:g} h)")
            out.append((r, text))
        return out

    async def reminded(self, reminder: Reminder) -> None:
        """The nudge went out (or can never go out): the next one is one interval away."""
        live = await self._live(reminder.channel_id)
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


def _check_import(enc: Encounter, system: RuleSystem) -> None:
    if enc.map.kind not in system.map_kinds and not (enc.map.kind == "none" and "none" in system.map_kinds):
        raise InputError(f"{system.title} cannot play on a `{enc.map.kind}` map.")
    names = [c.name.casefold() for c in enc.combatants]
    if len(set(names)) != len(names):
        raise InputError("The file has two combatants with the same name.")
    grid = enc.grid()
    seen: set[str] = set()
    for c in enc.combatants:
        if c.position is None:
            continue
        if grid is None:
            raise InputError(f"{c.name} has a position but the map is `none`.")
        cell = parse_cell(c.position)
        if not grid.contains(cell) or cell in grid.blocked:
            raise InputError(f"{c.name} stands at {c.position}, which is off the map or a wall.")
        if c.position in seen and c.status != "out":
            raise InputError(f"Two combatants stand at {c.position}.")
        seen.add(c.position)
        if c.facing is not None and c.facing not in grid.facings:
            raise InputError(f"{c.name} has facing `{c.facing}`, which this map does not have.")
    for name in [*enc.order, *( [enc.current] if enc.current else [])]:
        if enc.find(name) is None and name not in enc.sides():
            raise InputError(f"The order names `{name}`, who is not among the combatants.")
    if len(enc.combatants) > MAX_COMBATANTS:
        raise InputError(f"The file has more than {MAX_COMBATANTS} combatants.")
    for c in enc.combatants:
        try:
            sheet = system.read_sheet(enc, {k: _as_text(v) for k, v in c.sheet.items()})
        except RulesError as exc:
            raise InputError(f"The sheet of {c.name} in the file is not valid: {exc.message}") from None
        if sheet != c.sheet:
            raise InputError(f"The sheet of {c.name} in the file does not read back the same: export it again.")
    # the file's system state must be one the rules can work with: show everything once
    try:
        board_report(system, enc)
        for c in enc.combatants:
            system.status_line(enc, c)
            system.weapons_of(enc, c)
            system.actions_for(enc, c)
    except RulesError as exc:
        raise InputError(f"The file's state does not fit the rules: {exc.message}") from None
    except Exception as exc:  # a broken file, not a bug: say so and change nothing
        raise InputError(f"The file's state does not fit the rules ({type(exc).__name__}): export it again.") from None


def _as_text(value: object) -> str:
    """A stored sheet value written back as the `key=value` text it was read from."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ",".join(f"{k}:{v}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


