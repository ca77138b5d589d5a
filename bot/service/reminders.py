"""The turn clock: nudges for a waiting turn, the GM's notice, the deadline's warning, and the
deadline's policy (pass, hold, or tell the GM), all respecting players' quiet hours and DM choice.

A turn's reminder row knows when the turn began (``since``); everything else is worked out
from the encounter's settings when the row falls due, so a change of settings takes effect at
the next due time.
"""
from __future__ import annotations

import logging
import random
from collections.abc import Callable

from bot.limits import MAX_MESSAGE
from bot.service import views
from bot.service.cache import LiveEntry
from bot.service.clock import (
    deadline_times,
    duration_text,
    parse_quiet,
    quiet_until,
    zone,
)
from bot.service.core import BOT_USER, Ctx, Nudge, Outcome
from bot.service.encounters import Encounters, Write
from bot.service.turntext import (
    Ping,
    mentioned,
    owners_of,
    short_names,
    turn_tag,
    turn_text,
    turn_users,
)
from data.store import DuplicateInteraction, NotifyPrefs, Reminder, StoreUnavailable
from rules.actions import Action, Next
from rules.dice import Dice
from rules.errors import InputError, RulesError
from rules.hidden import players_see
from rules.logfacts import Deadline, log_facts
from rules.models import Encounter
from rules.registry import get_system
from rules.report import events_report, plural, user_ref
from rules.system import Prompt, RuleSystem
from rules.turns import Turn

__all__ = ["Reminders"]

log = logging.getLogger(__name__)


class Reminders:
    """The turn clock's pass: the reminders due on ``clock``, each prepared from its encounter
    (``encounters``); a deadline's action is resolved with dice from ``rng``."""

    def __init__(self, encounters: Encounters, rng: random.Random, clock: Callable[[], float]) -> None:
        self.encounters = encounters
        self.store = encounters.store
        self.rng = rng
        self.clock = clock

    async def notify(self, ctx: Ctx, quiet: str | None, tz: str | None, mode: str | None, reset: bool = False) -> Outcome:
        """A player's `/notify` choices: quiet hours in a time zone, and nudges by mention, DM or both."""
        old = NotifyPrefs(ctx.user_id) if reset else (await self.store.player_prefs([ctx.user_id])).get(ctx.user_id, NotifyPrefs(ctx.user_id))
        start, end = old.quiet_start, old.quiet_end
        if quiet is not None:
            start, end = (None, None) if quiet.strip().lower() in ("", "none", "off") else parse_quiet(quiet)
        zone_name = old.tz if tz is None else (tz.strip() or None)
        zone(zone_name)  # refuses an unknown name
        if mode is not None and mode not in views.NOTIFY_MODES:
            raise InputError(f"`mode` is one of {', '.join(views.NOTIFY_MODES)}.")
        prefs = NotifyPrefs(ctx.user_id, zone_name, start, end, mode or old.mode)
        if prefs != old or reset:
            await self.store.set_player_prefs(prefs)
        return Outcome(views.notify_report(prefs), ephemeral=True)

    async def due_reminders(self) -> list[Nudge]:
        """Reminders whose time has come, each with its text (`reminded` records each one sent).

        A reminder that cannot be read (a damaged encounter, a bug) is logged and skipped: the
        others still go out. A deadline's policy is applied here, before its message goes out."""
        out: list[Nudge] = []
        for r in await self.store.due_reminders(self.clock()):
            try:
                nudge = await self._nudge(r)
            except StoreUnavailable:
                raise  # the pass ends; the store logged the outage once
            except Exception:
                log.exception("cannot prepare the reminder of encounter %s in %s", r.encounter_id, r.channel_id)
                continue
            if nudge is not None:
                out.append(nudge)
        return out

    async def _nudge(self, r: Reminder) -> Nudge | None:
        live = await self.encounters.readable(r.channel_id)
        if live is None or live.id != r.encounter_id:
            return None
        enc, now = live.enc, self.clock()
        clock = deadline_times(enc.settings.deadline_hours, r.since)
        if clock is not None and now >= clock[1]:
            return await self._deadline(live, r)
        nudges = r.nudges - int(r.warned)
        hours = enc.settings.reminder_hours
        system = get_system(enc.system)
        facts = system.facts(enc)
        turn = facts.turn
        asked = system.prompt(enc)  # the turn's action waits for this player's answer: the nudges are theirs
        answer = f"`/act action:{asked.action} combatant:{asked.actor}`" if asked is not None else ""
        users: tuple[str, ...]
        if clock is not None and not r.warned and now >= clock[0]:
            left = duration_text((clock[1] - now) / 3600)
            policy = POLICY_WORDS[enc.settings.deadline_policy]
            holder = _deadline_actor(turn)
            if enc.settings.deadline_policy == "hold" and (holder is None or system.hold_action(enc, holder) is None):
                policy = f"the GM is told: {_cannot_hold(system, enc, holder)}"  # as the deadline will
            elif enc.settings.deadline_policy == "pass" and (blocked := _gm_blocked(system, enc, turn)):
                policy = f"the GM is told: {blocked}"
            if asked is not None:
                users, kind = (asked.user_id,), "warning"
                text = _asked_text(enc, asked, f"⏳ the turn's deadline is in about {left} (then the deadline "
                                                f"answers for you: {asked.lapse}, and {policy})")
            else:
                # the turn as it is now: an activation begun since the turn did (its key the same) is one player's
                users, kind = turn_users(enc, turn) or tuple(r.user_ids), "warning"
                passing = system.deadline_passes(enc, turn)
                if enc.settings.deadline_policy == "pass" and passing != turn.actors:
                    # the owners of what the deadline passes are warned, not all of the turn's
                    users, policy = owners_of(enc, passing), f"{short_names(passing)}'s turn passes"
                lead = f"⏳ your turn's deadline is in about {left} (then {policy})"
                text = turn_text(enc, facts, users, lead)
        elif hours > 0 and nudges <= enc.settings.max_nudges:
            # how long the turn has really waited (a nudge held by quiet hours comes later)
            waited = duration_text((now - r.since) / 3600 if r.since is not None else (nudges + 1) * hours)
            if nudges < enc.settings.max_nudges and asked is not None:
                users, kind = (asked.user_id,), "nudge"
                text = _asked_text(enc, asked, f"⏰ still waiting for your answer (about {waited})")
            elif nudges < enc.settings.max_nudges:  # whose turn it is now, as the warning's
                users, kind = turn_users(enc, turn) or tuple(r.user_ids), "nudge"
                text = turn_text(enc, facts, users, f"⏰ still your turn (waiting about {waited})")
            else:
                users, kind = mentioned(tuple(enc.gm_ids)), "notice"
                times = plural(nudges, "time")
                more = "No more reminders for this turn." if clock is None else "Its deadline still applies."
                if asked is not None:
                    more = (f"It waits for {user_ref(asked.user_id)}'s answer ({asked.title}): a GM can answer for them "
                            f"with {answer} or take the action back with `/undo`. {more}")
                # a turn nobody can act in waits for the GM (`Turn.gm`): the GM was the one nudged
                whose, nudged = (f"{short_names(turn.actors)}'s turn", "players were") if turn.actors else ("the turn", "you were")
                text = (
                    f"{' '.join(user_ref(g) for g in users)}: ⏰ {whose} has waited {waited}; "
                    f"{nudged} nudged {times} in **{enc.name}**. {more}"
                )[:MAX_MESSAGE]
        else:  # nothing to say now (the settings changed): wait for the next thing that is due
            await self._reschedule(enc, r, now, warned=r.warned, sent=False)
            return None
        # a nudge or warning offers the turn's buttons; the GM's notice and a reminder of a question do not
        mine = kind != "notice" and asked is None
        buttons = Ping(users, "", live.id, turn_tag(enc, turn), enc.map.kind != "none") if mine else None
        return await self._addressed(r, text, users, kind, now, clock, buttons)

    async def _addressed(
        self, r: Reminder, text: str, users: tuple[str, ...], kind: str, now: float, clock: tuple[float, float] | None,
        buttons: Ping | None = None,
    ) -> Nudge | None:
        """The nudge for the players awake now, by channel mention or DM as each asked; if all
        are in their quiet hours it waits until the first of them ends, never past the deadline
        (``clock``: the warning's time and the deadline's) nor past a warning still to come. A
        warning cannot wait for quiet hours that end only after the deadline: it goes out to
        those players now, saying so."""
        prefs = await self.store.player_prefs(users)
        quiet = {u: t for u in users if u in prefs and (t := quiet_until(prefs[u], now)) is not None}
        late = {u for u, t in quiet.items() if kind == "warning" and clock is not None and t >= clock[1]}
        awake = [u for u in users if u not in quiet or u in late]
        if users and not awake:
            later = [min(quiet.values())]
            if clock is not None:
                later += [clock[1]] + ([clock[0]] if not r.warned and clock[0] > now else [])
            await self.store.postpone_reminder(r.encounter_id, min(later))
            return None
        if late:
            text = f"{text[:MAX_MESSAGE - len(QUIET_WARNING) - 1]}\n{QUIET_WARNING}"
        mode = {u: prefs[u].mode if u in prefs else "channel" for u in awake}
        pings = tuple(u for u in awake if mode[u] in ("channel", "both"))
        dms = tuple(u for u in awake if mode[u] in ("dm", "both"))
        return Nudge(r, text, pings, kind=kind, dm_ids=dms, ping=buttons)

    async def reminded(self, nudge: Nudge) -> None:
        """The nudge went out (or can never go out): schedule what is due next for this turn."""
        if nudge.kind == "deadline":
            return  # its action replaced the reminder (or cleared it)
        live = await self.encounters.readable(nudge.reminder.channel_id)
        if live is None:
            return
        await self._reschedule(live.enc, nudge.reminder, self.clock(), warned=nudge.reminder.warned or nudge.kind == "warning")

    async def _reschedule(self, enc: Encounter, r: Reminder, now: float, warned: bool, sent: bool = True) -> None:
        """Move the reminder to the next nudge, the GM's notice, the warning or the deadline,
        whichever comes first; drop it when nothing is left. ``sent``: one more went out."""
        clock = deadline_times(enc.settings.deadline_hours, r.since)
        # the stored count includes the warning; a nudge (or the GM's notice) went out unless this was the warning
        nudges = r.nudges - int(r.warned) + int(sent and warned == r.warned)
        hours = enc.settings.reminder_hours
        due: list[float] = []
        if hours > 0 and nudges <= enc.settings.max_nudges:
            due.append(now + hours * 3600)
            if nudges == enc.settings.max_nudges and warned and not r.warned and r.since is not None:
                # the warning just went out after the last nudge: the GM's notice keeps its own time
                due[-1] = max(now, r.since + (nudges + 1) * hours * 3600)
        if clock is not None:
            due += [clock[1]] if warned else [max(clock[0], now), clock[1]]
        if not due:
            await self.store.clear_reminder(r.encounter_id, r.turn_key)
        elif sent:
            await self.store.bump_reminder(r.encounter_id, min(due), warned=warned)
        else:
            await self.store.postpone_reminder(r.encounter_id, min(due))

    async def _lapse(self, live: LiveEntry, r: Reminder) -> str:
        """At the deadline, answer the question the turn's action waits for (`RuleSystem.lapse`:
        a target's flips take the least harm) and commit it on its own; its text ("" if none)."""
        enc, version = live.enc, live.version
        system = get_system(enc.system)
        action, asked = system.lapse(enc), system.prompt(enc)
        if action is None or asked is None:
            return ""
        action = action.model_copy(update={"user_id": BOT_USER})
        ctx = Ctx(live.channel_id, BOT_USER, interaction_id=f"lapse:{r.encounter_id}:{r.turn_key}:{r.since}")
        try:
            async with self.encounters.holding(ctx) as held:
                if held is not live or held.version != version:  # written meanwhile
                    return ""
                dice = Dice(rng=self.rng)
                res = system.resolve(enc, action, dice)
                marked = events_report("⏰ Deadline: no answer", res.events, system, res.encounter, res.encounter.hidden_names())
                facts = log_facts(res.events, system, res.encounter, res.encounter.hidden_names(), lapse=asked.lapse)
                await self.encounters.commit(ctx, held, res.encounter, Write(COMMANDS["act"], "", dice.values(), facts=facts))
                report = marked.for_reader(players_see(res.encounter))
        except (RulesError, DuplicateInteraction) as exc:
            log.info("deadline in %s: the waiting question stays (%s)", live.channel_id, exc)
            return ""
        return "\n".join([f"**{report.title}** (the question was not answered: {asked.lapse})", *report.lines])

    async def _deadline(self, live: LiveEntry, r: Reminder) -> Nudge | None:
        """Apply the encounter's deadline policy to the turn that passed its deadline (first
        answering a question the turn's action waits for, `_lapse`)."""
        lead = await self._lapse(live, r)
        enc, version = live.enc, live.version
        system = get_system(enc.system)
        if lead and enc.winner:
            await self.store.clear_reminder(r.encounter_id, r.turn_key)
            return Nudge(r, lead[:MAX_MESSAGE], (), kind="deadline")
        lead = f"{lead}\n" if lead else ""
        turn = system.turn(enc)
        actor = _deadline_actor(turn)
        policy = enc.settings.deadline_policy
        action: Action | None = None
        blocked = _gm_blocked(system, enc, turn)
        gms_turn = actor is None and turn.gm and not blocked  # nobody can act and the GM's `/init next` moves it on
        if (actor is not None or gms_turn) and policy == "pass":  # every combatant the warning named passes
            action = Next(actor=actor, is_gm=True, user_id=BOT_USER, whole_turn=True)
        elif actor is not None and policy == "hold":
            action = system.hold_action(enc, actor)
        hours = f"{enc.settings.deadline_hours:g} h"
        ctx = Ctx(live.channel_id, BOT_USER, interaction_id=f"deadline:{r.encounter_id}:{r.turn_key}:{r.since}")
        if action is not None:
            try:
                async with self.encounters.holding(ctx) as held:
                    if held is not live or held.version != version:  # the turn moved on meanwhile: its own reminder takes over
                        return None
                    dice = Dice(rng=self.rng)
                    res = system.resolve(enc, action, dice)
                    hidden = res.encounter.hidden_names()
                    whose = (short_names(system.deadline_passes(enc, turn)) if action.kind == "next" and turn.current is None
                             else actor) or "the GM"
                    marked = events_report(f"⏰ Deadline: {whose}'s turn", res.events, system, res.encounter, hidden)
                    deadline = Deadline(whose=whose, hours=enc.settings.deadline_hours, policy=policy)
                    facts = log_facts(res.events, system, res.encounter, hidden, deadline=deadline)
                    ping = await self.encounters.commit(
                        ctx, held, res.encounter, Write(COMMANDS[action.kind], "", dice.values(), facts=facts),
                    )
                    report = marked.for_reader(players_see(res.encounter))  # posted in the channel
            except StoreUnavailable:
                raise
            except (RulesError, DuplicateInteraction) as exc:
                log.info("deadline in %s: %s; the GM is told instead", live.channel_id, exc)
            else:
                text = lead + "\n".join([f"**{report.title}** ({POLICY_WORDS[policy]} after {hours})", *report.lines])
                if ping is not None:
                    return Nudge(r, f"{text}\n{ping.text}"[:MAX_MESSAGE], ping.user_ids, kind="deadline", ping=ping)
                return Nudge(r, text[:MAX_MESSAGE], (), kind="deadline")
        gms = mentioned(tuple(enc.gm_ids))
        why = "" if policy == "gm" else f" ({_cannot_hold(system, enc, actor) if policy == 'hold' else blocked or _no_way(system.title, 'pass')})"
        text = (
            f"{lead}{' '.join(user_ref(g) for g in gms)}: ⏰ {short_names(turn.actors) or 'the turn'} passed "
            f"{'their' if len(turn.actors) > 1 else 'its'} {hours} "
            f"deadline in **{enc.name}**; it is up to you{why}."
        )[:MAX_MESSAGE]
        await self.store.clear_reminder(r.encounter_id, r.turn_key)
        return Nudge(r, text, gms, kind="deadline")


def _deadline_actor(turn: Turn) -> str | None:
    """Whom a deadline's policy acts for: the combatant acting now, else the first the turn names."""
    return turn.current or (turn.actors[0] if turn.actors else None)


def _gm_blocked(system: RuleSystem, enc: Encounter, turn: Turn) -> str:
    """Why a deadline cannot pass a ``turn`` that waits for the GM (`Turn.gm`): what the GM does first
    (`RuleSystem.gm_blocked`); empty where the GM's `/init next` moves it on, or the turn is a player's."""
    return system.gm_blocked(enc, turn) if turn.gm and not turn.actors else ""


def _no_way(system: str, verb: str) -> str:
    """``Damage Grid has no way to hold it``: why the GM is told at a deadline instead."""
    return f"{system} has no way to {verb} it"


def _cannot_hold(system: RuleSystem, enc: Encounter, actor: str | None) -> str:
    """Why the deadline does not hold ``actor``'s turn: the GM is told instead."""
    return system.cannot_hold(enc, actor) if actor is not None else _no_way(system.title, "hold")


def _asked_text(enc: Encounter, asked: Prompt, lead: str) -> str:
    """``@ann: ⏰ still waiting for your answer ... in **Boarding**: 🎲 Juno: choose the flips ...``:
    a reminder to the one player the turn's action waits for."""
    return (
        f"{user_ref(asked.user_id)}: {lead} in **{enc.name}**: {asked.title}. Press a button of the question sent to you, "
        f"or type `/act action:{asked.action} combatant:{asked.actor}` with your answer as `options`."
    )[:MAX_MESSAGE]


#: the line a deadline's warning sent in quiet hours ends with
QUIET_WARNING = "🌙 Sent in quiet hours: they end only after the deadline."
#: the command a deadline's action is logged as
COMMANDS = {"next": "/init next", "act": "/act"}
#: what a deadline policy does, in a few words
POLICY_WORDS = {"pass": "the turn passes", "hold": "the combatant holds its action", "gm": "the GM is told"}
