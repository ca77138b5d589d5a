"""The service: every command a cog calls. Each takes the channel's lock with its encounter
(`bot.service.encounters`), checks who may do it (`bot.service.permissions`), asks the rules,
commits once and hands back an :class:`~bot.service.core.Outcome`; the replies' text comes from
`bot.service.views`, the turn clock's pass from `bot.service.reminders`."""
from __future__ import annotations

import asyncio
import json
import random
import time
from collections import OrderedDict
from collections.abc import Callable

from bot.service import views
from bot.service.cache import CACHE_BYTES, EncounterCache, LiveEntry, StoredEntry
from bot.service.core import Asked, Ctx, LogPage, Outcome, no_encounter, turn_tag
from bot.service.encounters import Encounters, Write, button_entry, resolved_again
from bot.service.locks import ChannelLocks
from bot.service.permissions import (
    COMMAND_NAMES,
    acting,
    authorise,
    default_actor,
    dice_for,
    not_gm,
    require_gm,
    require_gm_of,
)
from bot.service.pictures import NoPictures, Pictures
from bot.service.porting import read_export
from bot.service.reminders import Reminders
from data.store import DuplicateInteraction, Store, read_state
from rules.actions import Act, Next
from rules.dice import Dice, roll_expression, with_advantage
from rules.errors import IllegalAction, InputError, NotAllowed
from rules.geometry.cell_lists import cell_list_text
from rules.hidden import everyone, players_see
from rules.logfacts import LogFacts, Undid, log_facts
from rules.models import Encounter
from rules.present import Prompt
from rules.registry import get_system
from rules.report import TYPED, Report, events_report, joined, plural, user_ref
from rules.setup import new_encounter, with_gm, with_reveal, with_settings, with_terrain
from rules.system import Action, Turn

__all__ = ["Service", "INLINE_IMPORT_BYTES"]


#: an import up to this size is checked on the event loop (a few ms at most); a bigger one in a thread
INLINE_IMPORT_BYTES = 16 * 1024


def fresh_prompt(before: Prompt | None, asked: Prompt | None) -> Prompt | None:
    """The question to send once a command changed the encounter: the one that waits now (``asked``),
    unless it is the one that waited before (its buttons were sent then)."""
    return asked if asked is not None and (before is None or before.tag != asked.tag) else None


def turn_now(live: LiveEntry, turn: str) -> Turn:
    """The turn ``live`` is at, while it is still ``turn`` (a `turn_tag`: the one a button or a
    question was made for); a refusal saying whose turn it is now once that turn has passed."""
    now = live.turn()
    if turn_tag(live.enc, now) != turn:
        whose = f" (it is {', '.join(now.actors[:10])}'s turn now)" if now.actors else ""
        raise IllegalAction(f"This turn has passed{whose}: that button no longer does anything, and nothing was changed.")
    return now


class Service:
    """Every command a cog can call, one at a time per channel, composed of its parts: the
    encounters (store, cache and locks), the turn clock's reminders and the map renderer."""

    def __init__(
        self,
        store: Store,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        default_reminder_hours: float = 24.0,
        cache_bytes: int = CACHE_BYTES,
        maps: Pictures | None = None,
    ) -> None:
        self.store = store
        self.rng = rng or random.Random()
        self.clock = clock
        #: the ``reminder_hours`` of a new encounter
        self.default_reminder_hours = default_reminder_hours
        self.encounters = Encounters(store, EncounterCache(cache_bytes), ChannelLocks(), clock)
        self.reminders = Reminders(self.encounters, self.rng, clock)
        #: where `/map` pictures are drawn (the app's worker processes, or a thread)
        self.maps: Pictures = maps if maps is not None else NoPictures()

    async def encounter(self, channel_id: str) -> Encounter | None:
        """The channel's active encounter (read-only use), or None (also when it does not read back)."""
        live = await self.encounters.readable(channel_id)
        return live.enc if live else None

    # -- the cache as `python -m bot benchmark` measures it ------------------------------------------
    @property
    def cache_bytes(self) -> int:
        return self.encounters.cache.bound

    @cache_bytes.setter
    def cache_bytes(self, value: int) -> None:
        self.encounters.cache.bound = value

    @property
    def cached_bytes(self) -> int:
        return self.encounters.cache.held

    @cached_bytes.setter
    def cached_bytes(self, value: int) -> None:
        self.encounters.cache.held = value

    @property
    def _cache(self) -> OrderedDict[str, StoredEntry]:
        return self.encounters.cache.entries

    async def _readable(self, channel_id: str) -> LiveEntry | None:
        return await self.encounters.readable(channel_id)

    # -- encounter lifecycle --------------------------------------------------------------------------
    async def start(self, ctx: Ctx, system_key: str, name: str | None, map_spec: str | None, variant: str | None) -> Outcome:
        system = get_system(system_key)
        enc = new_encounter(system, name, map_spec, variant, ctx.user_id, self.default_reminder_hours)
        async with self.encounters.locks.hold(ctx.channel_id):
            if await self.encounters.live(ctx.channel_id) is not None:
                raise IllegalAction(
                    "This channel already has an encounter: `/encounter end` it first, or start one in a thread."
                )
            stored = await self.store.create_encounter(ctx.channel_id, ctx.guild_id, enc, self.clock())
            self.encounters.created(stored)
        return Outcome(views.start_report(system, enc, ctx.user_id), board_changed=True)

    async def end_question(self, ctx: Ctx) -> Asked | None:
        """What `/encounter end` asks the GM before ending a fight that is not over (None: nothing
        to ask, the fight is won), about that encounter; a caller who may not end it is refused at once."""
        entry = await self.encounters.entry(ctx.channel_id)
        if entry is None:
            raise await self.encounters.none_here(ctx.channel_id)
        enc = require_gm_of(entry, ctx, "end this encounter")
        if enc is not None and enc.winner:
            return None
        return Asked(views.end_question(enc), entry.id)

    @resolved_again
    async def end(self, ctx: Ctx, encounter_id: int | None = None) -> Outcome:
        """`/encounter end`; with ``encounter_id``, the Confirm of its question about that encounter
        (refused once it has ended: a later one in the channel is not ended)."""
        async with self.encounters.holding_any(ctx) as entry:
            if encounter_id is not None:
                button_entry(entry, encounter_id)
            enc = require_gm_of(entry, ctx, "end this encounter")
            logged = await self.store.count_log(entry.id)
            await self.encounters.commit(ctx, entry, enc, Write("/encounter end", "ended the encounter", undoable=False, active=False))
        return Outcome(views.end_report(enc, logged))

    # -- game actions --------------------------------------------------------------------------------
    @resolved_again
    async def act(self, ctx: Ctx, action: Action) -> Outcome:
        """Run one game action (add, edit, remove, initiative, next, move, attack, ...).

        If another process wrote the encounter after it was read, the action is checked and
        resolved again on the encounter as stored now (the same action, the same dice source:
        dice typed with `roll:` are used again), for up to 2 s (`resolved_again`); then it is
        refused with `StaleEncounter`. Nothing is ever written over another process's write.
        """
        return await self._act(ctx, action)

    async def _act(self, ctx: Ctx, action: Action) -> Outcome:
        async with self.encounters.holding(ctx) as live:
            enc = live.enc
            system = get_system(enc.system)
            is_gm = enc.is_gm(ctx.user_id)
            action = authorise(enc, system, ctx, action.model_copy(update={"user_id": ctx.user_id, "is_gm": is_gm}), live.turn())
            dice = dice_for(enc, ctx, is_gm, self.rng)
            command = "/combatant hp" if getattr(action, "hp_change", None) is not None else COMMAND_NAMES[action.kind]
            before = system.prompt(enc)
            if before is not None and isinstance(action, Act) and action.action.strip().lower() == before.action:
                command = f"{command} {before.action} (the answer to {before.waiting or 'the question'})"  # logged as such
            gm_edit = action.kind == "edit" and is_gm and enc.started  # mid-fight: the GM's, shown as such
            with self.encounters.changing(live) as state:  # resolved in place: a refusal puts it back
                res = system.resolve(enc, action, dice, copy=state, turn=live.turn())
                title = f"🛠️ GM edit: {action.actor}" if gm_edit else views.title(command, action, system.gm_actions)
                hidden = res.encounter.hidden_names()
                marked = events_report(title, res.events, system, res.encounter, hidden)
                marked.more = views.WHERE_THINGS_STAND  # where a reply cut to whole lines sends its reader
                report, private = views.readers(marked, res.encounter, is_gm)
                facts = log_facts(res.events, system, res.encounter, hidden)  # `/log` renders per reader
                typed = dice.typed()
                if typed:
                    report.lines.append(f"{TYPED} typed with `roll:` by {user_ref(ctx.user_id)}; unmarked dice rolled by the bot")
                asked = system.prompt(res.encounter)
                write = Write(command, "", dice.values(), dice_typed=typed, facts=facts)
                ping = await self.encounters.commit(ctx, live, res.encounter, write)
        return Outcome(report, ping=ping, board_changed=True, private=private, prompt=fresh_prompt(before, asked),
                       channel_id=ctx.channel_id)

    async def answer(self, ctx: Ctx, tag: str, index: int) -> Outcome:
        """A press of a question's button (`RuleSystem.prompt`), its ``index``-th choice: only the
        player asked may answer, and only the question still waiting (``tag``); the answer is that
        question's `/act` action."""
        live = await self.encounters.need(ctx.channel_id)
        q = get_system(live.enc.system).prompt(live.enc)
        if q is None or q.tag != tag or not 0 <= index < len(q.choices):
            raise IllegalAction("This question has been answered or taken back: nothing was changed.")
        if ctx.user_id != q.user_id:
            raise NotAllowed(f"Only {user_ref(q.user_id)}, who plays {q.actor}, can answer this.")
        options = {"choice": q.choices[index][1], "tag": tag}
        return await self.act(ctx, Act(actor=q.actor, action=q.action, options=options))

    async def next_question(self, ctx: Ctx, action: Action) -> Asked | None:
        """What a typed `/init next` asks before ending a turn in which its combatant has done nothing
        yet, with the turn it asks about (None: nothing to ask); a caller who may not end that turn,
        or whose turn's end would be refused (its dice typed with `roll:`, say), is refused at once
        rather than asked. Its Confirm is `end_turn` with the action, for that turn alone."""
        live = await self.encounters.need(ctx.channel_id)
        enc = live.enc
        system = get_system(enc.system)
        is_gm = enc.is_gm(ctx.user_id)
        now = live.turn()
        action = authorise(enc, system, ctx, action.model_copy(update={"user_id": ctx.user_id, "is_gm": is_gm}), now)
        whose, passing = system.ending(enc, action)
        if whose is None or passing or not system.untouched(enc, whose):
            return None
        system.resolve(enc, action, dice_for(enc, ctx, is_gm, random.Random(0)))  # tried on a copy, its dice its own
        return Asked(views.next_question(whose), live.id, turn_tag(enc, now))

    # -- settings, GMs, terrain --------------------------------------------------------------------
    @resolved_again
    async def settings(
        self,
        ctx: Ctx,
        player_rolls: bool | None,
        reminder_hours: float | None,
        options: dict[str, str] | None,
        max_nudges: int | None = None,
        deadline_hours: float | None = None,
        deadline_policy: str | None = None,
    ) -> Outcome:
        timing = {"reminder_hours": reminder_hours, "max_nudges": max_nudges, "deadline_hours": deadline_hours}
        async with self.encounters.holding(ctx) as live:
            require_gm(live.enc, ctx, "change settings")
            system = get_system(live.enc.system)
            given = {"player_rolls": player_rolls, "deadline_policy": deadline_policy, **timing}
            new = with_settings(live.enc, system, given, options or {})
            changes = views.settings_changes(system, live.enc, new)
            lines = views.settings_lines(system, new if changes else live.enc)
            if changes:  # a value the rules already use (a default typed again) changes nothing
                # an option that says when a side has lost (`victory`) may decide the fight now
                decided = events_report("", system.check_victory(new), system, new, new.hidden_names()).lines
                lines += decided
                if live.enc.winner and new.settings.options != live.enc.settings.options:  # a rule changed too late to undecide
                    lines.append(f"The fight stays decided ({live.enc.winner} won): `/undo` back to what decided it to reopen it.")
                rearm = any(getattr(new.settings, k) != getattr(live.enc.settings, k) for k in timing)
                summary = "; ".join([changes, *decided])
                await self.encounters.commit(ctx, live, new, Write("/encounter settings", summary, rearm=rearm))
        return Outcome(Report("⚙️ Encounter settings", lines, whole=True), board_changed=True)

    async def show_settings(self, ctx: Ctx) -> Outcome:
        live = await self.encounters.need(ctx.channel_id)
        system = get_system(live.enc.system)
        return Outcome(Report("⚙️ Encounter settings", views.settings_lines(system, live.enc), whole=True), ephemeral=True)

    @resolved_again
    async def co_gm(self, ctx: Ctx, user_id: str, remove: bool) -> Outcome:
        async with self.encounters.holding(ctx) as live:
            require_gm(live.enc, ctx, "add or remove co-GMs")
            new = with_gm(live.enc, user_id, remove, by=ctx.user_id)
            text = f"{user_ref(user_id)} is " + ("no longer a GM here." if remove else "now a co-GM.")
            await self.encounters.commit(ctx, live, new, Write("/encounter gm", text))
        return Outcome(Report("👑 GMs", [text]), board_changed=True)

    @resolved_again
    async def terrain(self, ctx: Ctx, cells: str, kind: str | None, height: int | None) -> Outcome:
        async with self.encounters.holding(ctx) as live:
            require_gm(live.enc, ctx, "mark the map")
            new, kind, _, kept = with_terrain(live.enc, get_system(live.enc.system), cells, kind, height)
            marks = ([kind] if kind else []) + ([f"height {height} ft"] if height is not None else [])
            text = f"{cell_list_text(cells)}: {', '.join(marks)}"
            if kept:
                walls = joined([c.name for c in kept], 300, sep=" ")
                text += f" ({walls} {'stays a wall' if len(kept) == 1 else 'stay walls'}: `kind:clear` takes a wall away)"
            await self.encounters.commit(ctx, live, new, Write("/encounter terrain", text))
        return Outcome(Report("🗺️ Map marked", [text]), board_changed=True)

    # -- undo, log, export/import --------------------------------------------------------------------
    @resolved_again
    async def undo(self, ctx: Ctx, encounter_id: int | None = None) -> Outcome:
        """`/undo`, or the board's Undo button of the encounter ``encounter_id``."""
        if encounter_id is not None:  # an ended fight's button: say so rather than "no encounter"
            button_entry(await self.encounters.entry(ctx.channel_id), encounter_id)
        async with self.encounters.holding_any(ctx) as live:
            button_entry(live, encounter_id)
            require_gm_of(live, ctx, "undo")
            entry, restored = await self.encounters.last_undoable(live)
            if entry is None or (restored is None and entry.state_before is None):
                raise IllegalAction("Nothing left to undo in this encounter.")
            if restored is None:  # rebuilt from the log
                restored, error = read_state(entry.state_before or "")
                if restored is None:
                    raise IllegalAction(
                        f"The state before {entry.command} could not be read either ({error}): "
                        "`/encounter export` the encounter as it is stored, or `/encounter end` it."
                    )
            system = get_system(restored.system)
            before = system.prompt(live.enc) if isinstance(live, LiveEntry) else None  # one that did not read back asked nothing
            asked = system.prompt(restored)
            undid = Undid(command=entry.command or "", user_id=entry.user_id)
            facts = None
            if entry.facts:
                facts = LogFacts.model_validate_json(entry.facts).model_copy(update={"undid": undid}).model_dump_json(exclude_defaults=True)
            # what the undone command told is hidden again (declarations, the numbers a reveal showed):
            # said, not told again
            told = [system.hidden_again(restored), views.numbers_hidden_again(live.enc, restored) if isinstance(live, LiveEntry) else None]
            again = "; ".join(t for t in told if t) or None
            if again is not None:
                facts = None
            text = f"Undid {entry.command} by {views.who(entry.user_id)}: {again or views.entry_text(entry, system)}"
            ping = await self.encounters.commit(ctx, live, restored, Write("/undo", text, undoable=False, undo_of=entry.id, facts=facts))
        report, private = views.readers(Report("↩️ Undone", [text[:3500]]), restored, restored.is_gm(ctx.user_id))
        # a question the undo brings back (its answer undone) is asked again, with live buttons
        return Outcome(report, ping=ping, board_changed=True, private=private, prompt=fresh_prompt(before, asked),
                       channel_id=ctx.channel_id)

    async def log(self, ctx: Ctx, count: int, public: bool = False, page: int = 1, encounter_id: int | None = None) -> Outcome:
        """`/log`: page ``page`` (1: the newest) of ``count`` entries; ``encounter_id``: a page
        button's encounter, which must still be the channel's."""
        entry: StoredEntry | None = await self.encounters.live(ctx.channel_id)
        ended = entry is None
        if entry is None:
            entry = await self.encounters.ended(ctx.channel_id)
            if entry is None:
                raise no_encounter()
        if encounter_id is not None and entry.id != encounter_id:
            raise IllegalAction("This log is of an encounter that is no longer this channel's: use `/log`.")
        enc = entry.enc if isinstance(entry, LiveEntry) else None
        name = enc.name if enc is not None else "the ended encounter"
        count = max(1, min(count, 25))
        total = await self.store.count_log(entry.id)
        pages = max(1, -(-total // count))
        if not 1 <= page <= pages:
            raise InputError(f"The log has {plural(pages, 'page')} of {count} entries: give a `page:` from 1 to {pages}.")
        entries = await self.store.log(entry.id, count, skip=(page - 1) * count)
        # each reader's own: the GM's with every number, unless posted for everyone
        gm = enc is not None and enc.is_gm(ctx.user_id) and not public
        shown = everyone if gm else players_see(enc)
        system = views.system_of(entry)
        again = system.hidden_again(enc) if enc is not None and system is not None and not gm else None
        last = total - (page - 1) * count  # the rows count 1, 2, 3... within the encounter
        report = views.log_report(name, entries, system, ended=ended, hidden_undone=again, last=last).for_reader(shown)
        report.lines = [views.fit_entry(line) for line in report.lines]  # each reader's row, as long as it reads for them
        if pages > 1 or total > len(entries):
            report.footer = f"Page {page} of {pages} (page 1 is the newest) · {total} entries"
        report.more = "(a smaller `count:` shows them)"
        return Outcome(report, ephemeral=not public, log_page=LogPage(entry.id, count, page, pages))

    async def export(self, ctx: Ctx) -> Outcome:
        active = await self.encounters.entry(ctx.channel_id)
        entry = active or await self.encounters.ended(ctx.channel_id)
        if entry is None:
            raise no_encounter()
        if not isinstance(entry, LiveEntry):  # what it hides cannot be told: its GMs' alone, privately
            require_gm_of(entry, ctx, "export an encounter that does not read back")
            lines = [f"It could not be read ({entry.error}): this is the file exactly as it is stored, for you alone."]
            return Outcome(Report("📦 Export", lines), file=("encounter.json", entry.json.encode()), ephemeral=True)
        live = entry
        kept = get_system(live.enc.system).kept_from_players(live.enc)
        if kept is not None and not live.enc.is_gm(ctx.user_id):
            # an ended fight is revealed no more: only its GM can give the file
            raise not_gm(live.enc.gm_ids, f"export it while {kept}" if active is not None else
                         "export this ended fight: its file holds what is hidden from players")
        data = json.dumps(json.loads(live.json), indent=2, ensure_ascii=False).encode()
        lines = [f"{live.enc.name}: {plural(len(live.enc.combatants), 'combatant')}, round {live.enc.round}."]
        if kept is not None:  # an ended fight takes no reveal: its file stays the GM's
            lines.append(f"Only you see this file while {kept}." if active is not None else
                         "Only you see this file: it holds what is hidden from players.")
        # the file holds what players may not see: the GM's alone then
        return Outcome(Report("📦 Export", lines), file=("encounter.json", data), ephemeral=kept is not None)

    @resolved_again
    async def import_(self, ctx: Ctx, raw: bytes, replace: bool = False, encounter_id: int | None = None) -> Outcome:
        """Load an ``encounter.json``; over an active encounter only the GM may, with ``replace``;
        with ``encounter_id``, the Confirm of its question about replacing that encounter (refused
        once it has ended: a later one in the channel is not replaced)."""
        if len(raw) <= INLINE_IMPORT_BYTES:
            enc = read_export(raw, ctx.user_id)
        else:  # up to 512 KiB: over 100 ms of checks, in a thread so that the event loop runs on
            enc = await asyncio.to_thread(read_export, raw, ctx.user_id)
        system = get_system(enc.system)
        summary = f"imported {enc.name}"
        # a fight under way comes in at a turn: a new one where it lands, pinged and clocked from now
        async with self.encounters.locks.hold(ctx.channel_id):
            live = await self.encounters.live(ctx.channel_id)
            if encounter_id is not None:
                button_entry(live, encounter_id)
            if live is None:
                stored = await self.store.create_encounter(
                    ctx.channel_id, ctx.guild_id, enc, self.clock(),
                    interaction_id=ctx.interaction_id, user_id=ctx.user_id, command="/encounter import", summary=summary,
                )
                created = self.encounters.created(stored)
                # the row is the log's first: the turn's clock is written after it, not logged again
                clocked = Write("/encounter import", summary, anew=True, log=False)
                ping = await self.encounters.commit(ctx, created, enc, clocked) if enc.started else None
            else:
                if live.seen(ctx.interaction_id):
                    raise DuplicateInteraction()
                require_gm(live.enc, ctx, "import over this encounter")
                if not replace:
                    raise IllegalAction(
                        f"This channel already has an encounter ({live.enc.name}): add `replace:true` to replace it "
                        "with the file (`/undo` brings it back), or import in a thread."
                    )
                enc.gm_ids = list(dict.fromkeys(live.enc.gm_ids + enc.gm_ids))
                ping = await self.encounters.commit(ctx, live, enc, Write("/encounter import", summary, anew=True))
        lines = [f"{system.title}: {plural(len(enc.combatants), 'combatant')}, round {enc.round}."]
        return Outcome(Report(f"📥 Imported {enc.name}", lines), ping=ping, board_changed=True)

    async def import_question(self, ctx: Ctx, raw: bytes, replace: bool) -> Asked | None:
        """What an import with ``replace`` asks the GM before replacing the channel's encounter
        (None: nothing to replace); a bad file or a caller who may not replace is refused at once."""
        live = await self.encounters.live(ctx.channel_id)
        if not replace or live is None:
            return None
        if live.seen(ctx.interaction_id):
            raise DuplicateInteraction()
        require_gm(live.enc, ctx, "import over this encounter")
        enc = await asyncio.to_thread(read_export, raw, ctx.user_id) if len(raw) > INLINE_IMPORT_BYTES else read_export(raw, ctx.user_id)
        return Asked(views.replace_question(live.enc, enc), live.id)

    read_export = staticmethod(read_export)

    # -- buttons --------------------------------------------------------------------------------------
    async def end_turn(self, ctx: Ctx, encounter_id: int, turn: str, action: Next | None = None) -> Outcome:
        """The End turn button: the `/init next` of the combatant whose turn it is, while that turn
        is still the one the button was posted for (``turn``, a `turn_tag`); with ``action``, the
        typed `/init next` whose question (`next_question`) asked about that turn, confirmed."""
        async with self.encounters.locks.hold(ctx.channel_id):
            live = button_entry(await self.encounters.live(ctx.channel_id), encounter_id)
            if live.seen(ctx.interaction_id):
                raise DuplicateInteraction()
            now = turn_now(live, turn)
            if action is not None:
                return await self.act(ctx, action)
            actor = now.current
            if actor is None and not now.gm:  # a side's turn (Coup-De-Grace): the presser's one mini, or say which to name
                try:
                    actor = default_actor(live.enc, get_system(live.enc.system), ctx.user_id, live.enc.is_gm(ctx.user_id), now)
                except InputError:
                    raise InputError(
                        f"More than one combatant can act now ({', '.join(now.actors[:10])}): end one's turn with "
                        "`/init next combatant:NAME`, or act with it first."
                    ) from None
            return await self.act(ctx, Next(actor=actor))  # a turn the GM moves on (`Turn.gm`): as the typed `/init next`

    async def check_asked(self, ctx: Ctx, asked: Asked) -> None:
        """Refuse, as a stale button is refused, a Confirm of ``asked`` once the encounter it asked
        about has ended, or the turn it asked about (where it asked about one) has passed; nothing
        is changed either way."""
        if not asked.turn:
            button_entry(await self.encounters.entry(ctx.channel_id), asked.encounter_id)
        else:
            turn_now(button_entry(await self.encounters.live(ctx.channel_id), asked.encounter_id), asked.turn)

    # -- reading --------------------------------------------------------------------------------------
    async def order(self, ctx: Ctx) -> Outcome:
        live = await self.encounters.need(ctx.channel_id)
        system, enc = get_system(live.enc.system), live.enc
        report = views.order_report(system, enc)  # posted for everyone: the GM's numbers follow privately
        private = views.numbers_report(report, views.order_report(system, enc, numbers=True)) if enc.is_gm(ctx.user_id) else None
        return Outcome(report, private=private)

    async def show(self, ctx: Ctx, name: str) -> Outcome:
        live = await self.encounters.need(ctx.channel_id)
        enc = live.enc
        c = enc.get(name)
        gm = enc.is_gm(ctx.user_id)
        return Outcome(views.show_report(get_system(enc.system), enc, c, public_only=enc.hidden(c) and not gm, numbers=gm), ephemeral=True)

    async def effects(self, ctx: Ctx, public: bool = False) -> Outcome:
        live = await self.encounters.need(ctx.channel_id)
        numbers = not public and live.enc.is_gm(ctx.user_id)
        return Outcome(views.effects_report(get_system(live.enc.system), live.enc, numbers), ephemeral=not public)

    async def board(self, channel_id: str) -> tuple[Report, Encounter, int] | None:
        """The channel's status board, its encounter and that encounter's id (None: no encounter)."""
        live = await self.encounters.readable(channel_id)
        if live is None:
            return None
        return live.board(), live.enc, live.id

    async def status(self, ctx: Ctx, public: bool = False) -> Outcome:
        """The board: for the GM's own eyes with every number; posted for all, as players see it."""
        live = await self.encounters.need(ctx.channel_id)
        numbers = not public and live.enc.is_gm(ctx.user_id)
        return Outcome(live.board(numbers), ephemeral=not public)

    @resolved_again
    async def reveal(self, ctx: Ctx, name: str | None, hide: bool = False) -> Outcome:
        """The GM shows (or hides again) the numbers of one of their combatants, or of all."""
        async with self.encounters.holding(ctx) as live:
            require_gm(live.enc, ctx, "reveal or hide combatants' numbers")
            new, shown = with_reveal(live.enc, name, hide)
            what = views.reveal_text(None if shown is None else [shown], hide)
            if new != live.enc:
                await self.encounters.commit(ctx, live, new, Write("/encounter reveal", what))
        return Outcome(Report("👁️ Reveal", [what[0].upper() + what[1:] + "."]), board_changed=True)

    async def map_image(self, ctx: Ctx, encounter_id: int | None = None, ephemeral: bool = False) -> Outcome:
        """`/map`, or the Map button of the encounter ``encounter_id`` (only the presser sees it)."""
        if encounter_id is None:
            live = await self.encounters.need(ctx.channel_id)
        else:
            live = button_entry(await self.encounters.live(ctx.channel_id), encounter_id)
        enc = live.enc
        if enc.map.kind == "none":
            raise IllegalAction(
                "This encounter has no map: distances are range bands. `/encounter status` shows who is where."
            )
        # drawn in a worker process from the encounter's JSON as last written: the loop runs on,
        # and later commands change nothing drawn
        png, lines = await self.maps.picture(enc.system, live.json, route=live.channel_id)
        return Outcome(Report(views.map_title(enc), lines), file=("map.png", png), ephemeral=ephemeral)

    async def board_message(self, channel_id: str) -> str | None:
        live = await self.encounters.entry(channel_id)
        return live.board_message_id if live else None

    async def set_board_message(self, channel_id: str, message_id: str) -> None:
        live = await self.encounters.entry(channel_id)
        if live is None:
            return
        live.board_message_id = message_id
        await self.store.set_board_message(live.id, message_id)

    async def roll(
        self, ctx: Ctx, expression: str, reason: str | None, adv: bool = False, dis: bool = False,
        private: bool = False,
    ) -> Outcome:
        """`/roll`: roll, and log it in the channel's encounter if there is one; a private roll
        goes only to the roller and, by direct message, to the encounter's GMs (the log says
        that it was rolled, not what)."""
        expression, mode = with_advantage(expression, adv, dis)
        result = roll_expression(expression, Dice(rng=self.rng))
        reason = " ".join((reason or "").split())[:200] or None
        report = views.roll_report(ctx.user_id, result, reason, mode)
        if await self.encounters.live(ctx.channel_id) is None:  # no encounter here: nothing to log, no GM
            if private:
                report.lines.append("No encounter runs here, so no GM sees this roll.")
            return Outcome(report, ephemeral=private)
        async with self.encounters.holding(ctx) as live:
            summary = views.roll_summary(result, reason, mode, private)
            dice = [] if private else [d.value for d in result.dice]
            await self.encounters.commit(ctx, live, live.enc, Write("/roll", summary, dice, undoable=False))
        gms = tuple(g for g in live.enc.gm_ids if g != ctx.user_id) if private else ()
        if private:
            report.lines.append("Only you and the GM see this roll.")
        direct = (gms, views.private_roll_report(ctx, result, reason, mode)) if gms else None
        return Outcome(report, ephemeral=private, direct=direct)

    acting = staticmethod(acting)
