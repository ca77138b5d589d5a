"""The read-only replies the service builds: command titles, settings lines, the order, a
combatant's sheet, log rows, rolls and the map's description. Each takes what it shows and
returns text or a :class:`~rules.report.Report`; none reads or writes storage."""
from __future__ import annotations

import json
import re
import time
from collections.abc import Collection, Sequence

from bot.limits import LIMITS
from bot.service.cache import LiveEntry, StoredEntry
from bot.service.clock import quiet_text
from bot.service.core import AFTER_END, BOT_USER, Ctx
from data.store import LogEntry, NotifyPrefs
from rules.dice import ExpressionResult
from rules.errors import RulesError
from rules.hidden import MARK_START, everyone, mark, marked_names, players_see
from rules.logfacts import LogFacts, facts_report
from rules.models import Combatant, Encounter, MapState
from rules.options import Option
from rules.registry import get_system
from rules.report import TYPED, Report, joined, plural, user_ref
from rules.system import Action, RuleSystem
from rules.text import listing, possessive

__all__ = ["title", "start_report", "end_question", "next_question", "replace_question", "notify_report", "NOTIFY_MODES",
           "settings_lines", "settings_changes", "map_text", "order_report", "map_title", "show_report", "end_report",
           "log_report", "entry_text", "system_of", "roll_report", "roll_summary", "private_roll_report", "effects_report",
           "numbers_report", "readers", "who", "reveal_text", "numbers_hidden_again"]


#: commands that act with one combatant, whose reply is titled with its name
ACTOR_KINDS = {"next", "move", "attack", "coupdegrace", "act"}


def title(command: str, action: Action, gm_actions: Collection[str] = ()) -> str:
    """``Borin: move``: the title of a game action's reply; an `/act` of the system's ``gm_actions`` is the GM's,
    whichever combatant is named with it (``GM: damage on Juno``)."""
    if action.kind == "act" and action.action in gm_actions:
        return f"GM: {action.action}" + (f" on {action.target}" if action.target else "")
    if action.kind == "act" and action.action:
        return f"{action.actor}: {action.action}" if action.actor else f"/act {action.action}"
    if action.actor and action.kind in ACTOR_KINDS:
        return f"{action.actor}: {command.lstrip('/')}"
    return command


def start_report(system: RuleSystem, enc: Encounter, gm_id: str) -> Report:
    """`/encounter start`: the new encounter's GM, map and variant, and what to do next."""
    lines = [f"GM: {user_ref(gm_id)}", f"Map: {map_text(enc.map)}"]
    if enc.variant:
        lines.append(f"Variant: {enc.variant}")
    lines.append("Add combatants with `/combatant add`, then `/init roll` to begin.")
    return Report(f"⚔️ {enc.name} · {system.title}", lines)


def end_question(enc: Encounter | None) -> Report:
    """What `/encounter end` asks the GM of a fight that is not over (``enc`` None: it does not read back)."""
    what = f"**{enc.name}** (round {enc.round}, {plural(len(enc.combatants), 'combatant')})" if enc else "this channel's encounter"
    return Report("🏁 End the encounter?", [f"End {what}? Nothing undoes the end: {AFTER_END}"])


def next_question(whose: str) -> Report:
    """What a typed `/init next` asks before ending a turn in which ``whose`` has done nothing."""
    return Report("⏭️ End the turn?", [
        f"**{whose}** has done nothing yet this turn: end {whose}'s turn now? (`confirm:true` skips this question.)",
    ])


def replace_question(old: Encounter, enc: Encounter) -> Report:
    """What an import with ``replace`` asks the GM before replacing ``old`` with the file's ``enc``."""
    return Report("📥 Replace the encounter?", [
        f"Replace **{old.name}** (round {old.round}, {plural(len(old.combatants), 'combatant')}) with **{enc.name}** "
        f"({plural(len(enc.combatants), 'combatant')}) from the file? `/undo` brings the old one back.",
    ])


#: how nudges reach a player (`/notify mode:`)
NOTIFY_MODES = {"channel": "a mention in the channel", "dm": "a direct message", "both": "a mention and a direct message"}


def notify_report(prefs: NotifyPrefs) -> Report:
    """A player's `/notify` choices: quiet hours, and how nudges reach them."""
    lines = [
        f"Quiet hours: **{quiet_text(prefs)}**" + (": nudges due then wait until they end" if prefs.quiet_start is not None else ""),
        f"Nudges reach you by: **{NOTIFY_MODES[prefs.mode]}**" + (
            "; each also shows in the channel without mentioning you, for its End turn and Map buttons"
            if prefs.mode == "dm" else ""),
        "Turn changes always mention you in the channel; these choices are for nudges and deadline warnings, in every server.",
    ]
    return Report("🔔 Your notifications", lines)


def settings_lines(system: RuleSystem, enc: Encounter) -> list[str]:
    """The encounter's settings and the system's options, one line each."""
    s = enc.settings
    lines = [
        f"Players may give their own rolls (`roll:`) and roll modifiers: **{'yes' if s.player_rolls else 'no'}**",
        f"Reminder after: **{s.reminder_hours:g} h**" if s.reminder_hours else "Reminders: **off**",
        f"Nudges per turn before only the GM is told, `max_nudges`: **{s.max_nudges}**",
        (f"Turn deadline, `deadline_hours`: **{s.deadline_hours:g} h**, then `deadline_policy` **{s.deadline_policy}**"
         + (f" ({system.title} has no hold: at the deadline the GM is told, as with `gm`)"
            if s.deadline_policy == "hold" and not system.can_hold else "")
         if s.deadline_hours else f"Turn deadline: **none** (`deadline_policy` {s.deadline_policy} once `deadline_hours` is set)"),
        "Players' numbers: all shown; the GM's combatants, `hidden`: " + ("**none** (shown)" if s.reveal else "**gm** (a condition word)")
        + (f", except {', '.join(s.revealed)}" if s.revealed and not s.reveal else ""),
        f"GMs: {', '.join(user_ref(g) for g in enc.gm_ids)}",
    ]
    for key, text in system.options_help.items():
        value = s.options.get(key)
        option = system.options.get(key)
        if value and option.kind == "bool" and option.read(value) is False:  # the help says what `yes` does
            lines.append(f"`{key}` = **{value}**: off ({_when_yes(text)})")
        else:
            lines.append(f"`{key}` = **{value}**: {text}" if value else f"`{key}` (default): {text}")
    return lines


def _when_yes(text: str) -> str:
    """A yes/no option's help as what `yes` does: ``when `yes`: a natural 1 always misses`` (from "whether a natural
    1 always misses"); a help that already says what `yes` and `no` do stays as it is."""
    if re.match(r"`?yes`?:", text):
        return text
    return "when `yes`: " + re.sub(r"^whether ", "", text)


#: the encounter settings `/encounter settings` takes besides the system's options
SETTING_KEYS = ("player_rolls", "reminder_hours", "max_nudges", "deadline_hours", "deadline_policy")


def settings_changes(system: RuleSystem, old: Encounter, new: Encounter, limit: int = 1400) -> str:
    """What `/encounter settings` changed, for the log: ``key old → new`` each, the values the
    rules use (a default's value where unset), only where that value changed; whole entries
    only (at most ``limit`` characters, then "and N more")."""

    def shown(value: object) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        return f"{value:g}" if isinstance(value, float) else str(value)

    def effective(option: Option, raw: str | None) -> tuple[object, str]:
        """The value the rules use and its words: the default's value where unset."""
        try:
            value = option.read(raw)
        except RulesError:  # a value stored before the rules refused it: its own words
            return raw, str(raw)
        if isinstance(value, (bool, int, float, str)):
            return value, shown(value)
        return value, raw.strip() if raw is not None else option.default_text()

    a, b = old.settings, new.settings
    changes = [f"{k} {shown(getattr(a, k))} → {shown(getattr(b, k))}" for k in SETTING_KEYS if getattr(a, k) != getattr(b, k)]
    if (a.reveal, a.revealed) != (b.reveal, b.revealed):  # `hidden=`: who sees the GM's numbers
        hidden_was, hidden_now = ("none" if s.reveal else ("gm, some shown" if s.revealed else "gm") for s in (a, b))
        changes.append(f"hidden {hidden_was} → {hidden_now}")
    for option in system.options:
        (was, was_text), (now, now_text) = (effective(option, s.options.get(option.name)) for s in (a, b))
        if was != now:
            changes.append(f"{option.name} {was_text} → {now_text}")
    text = ""
    for i, change in enumerate(changes):
        rest = f"; and {len(changes) - i} more"
        if text and len(text) + 2 + len(change) + len(rest) > limit:
            return text + rest
        text = f"{text}; {change}" if text else change
    return text


def map_text(m: MapState) -> str:
    return "none (range bands)" if m.kind == "none" else f"{m.width}x{m.height} {m.kind}"


def order_report(system: RuleSystem, enc: Encounter, numbers: bool = False) -> Report:
    """`/init order`: who acts in which order, the ones acting now marked; the initiative of a
    hidden combatant only with ``numbers`` (the GM's view)."""
    facts = system.facts(enc)
    present = system.present.view(enc, frozenset() if numbers else enc.hidden_names())
    lines: list[str] = []
    if enc.winner:
        lines.append(present.over_line(enc))
    elif not enc.started:
        lines.append("Combat has not started: the GM uses `/init roll`.")
    lines += present.order_lines(enc, facts)
    line = present.turn_line(enc, facts)
    if line:
        lines.append(present.readable(line))
    return Report(f"🎯 Order · round {enc.round}", lines or ["No combatants yet."])


def map_title(enc: Encounter) -> str:
    """`/map`'s title: the round, or that the fight has not started."""
    when = f"round {enc.round}" if enc.started else "the fight has not started"
    return f"🗺️ {enc.name} · {when}"


def show_report(system: RuleSystem, enc: Encounter, c: Combatant, public_only: bool = False, numbers: bool = True) -> Report:
    """`/combatant show`: one combatant's line (as the system shows it), side, owner and sheet;
    ``public_only``: what players may see of a GM's combatant whose numbers are hidden; without
    ``numbers`` (a player's view), no number that tells a hidden combatant's either."""
    owner = user_ref(c.owner_id) if c.owner_id else "the GM"
    # a player's view: no number that tells a hidden combatant's; ``public_only``: none of this one's either
    hidden = frozenset() if numbers and not public_only else enc.hidden_names() | ({c.name} if public_only else frozenset())
    present = system.present.view(enc, hidden)
    lines = [present.line(enc, c, system.facts(enc)), f"Side: {c.side or '—'} · owner: {owner}"]
    effects = [e for e in enc.effects if e.target == c.name]
    if effects:
        lines.append("Effects: " + "; ".join(
            f"{e.name}{present.effect_changes(e.target, e.mods)}, {present.effect_ends(e.ends, e.of or e.target, e.left)}"
            for e in effects
        ))
    if public_only:
        lines.append("The GM keeps its sheet and numbers hidden.")
        return Report(f"🧾 {c.name}", lines)
    return Report(f"🧾 {c.name}", lines, [("Sheet", system.sheet_summary(c) or "—")])


def numbers_report(public: Report, full: Report) -> Report | None:
    """For the GM: the lines of ``full`` that the public ``public`` shows as condition words."""
    lines = [line for line in full.lines if line not in public.lines]
    if not lines:
        return None
    return Report("🔒 The numbers (only you see this)", lines)


def readers(report: Report, enc: Encounter | None, gm: bool) -> tuple[Report, Report | None]:
    """A marked report (`rules.hidden.mark`) as players see it, and for a GM (``gm``) the lines
    with the numbers that the players' version hides (None when it hides none: also at once
    where no text of the report is marked)."""
    public = report.for_reader(players_see(enc))
    return public, numbers_report(public, report.for_reader(everyone)) if gm and _marked(report) else None


def _marked(report: Report) -> bool:
    """Whether any text of ``report`` holds a mark: else every reader reads it alike."""
    texts = (report.title, report.footer or "", *report.lines, *(text for field in report.fields for text in field))
    return any(MARK_START in text for text in texts)


def who(user_id: str | None) -> str:
    """Who did a logged action: a user, or the turn clock (a deadline it applied)."""
    return "⏰ the turn clock" if user_id == BOT_USER else user_ref(str(user_id))


def reveal_text(names: Sequence[str] | None, hide: bool, again: bool = False) -> str:
    """What a reveal did: the numbers of the GM's combatants ``names`` (None: every combatant's)
    shown to everyone (``again``: by an undo), or (``hide``) hidden from players again."""
    if names is None:
        whose = "every combatant's numbers"
    elif len(names) == 1:
        whose = f"{possessive(names[0])} numbers"
    else:  # at most 10 named, the rest counted
        whose = "the numbers of " + listing([*names[:10], *([f"{len(names) - 10} more"] if len(names) > 10 else [])])
    return f"{whose} are " + ("hidden from players again" if hide else "shown to everyone" + " again" * again)


def numbers_hidden_again(now: Encounter, restored: Encounter) -> str | None:
    """What an undo from ``now`` back to ``restored`` hides from players again of the GM's
    combatants' numbers (an undone reveal), or shows again (an undone hide), in the reveal's words;
    None: neither."""
    for hide, before, after in ((True, now, restored), (False, restored, now)):
        names = sorted(n for n in after.hidden_names() if before.shown_to_players(n))
        if names:
            every = before.settings.reveal and not after.settings.reveal
            return reveal_text(None if every else names, hide=hide, again=True)
    return None


def end_report(enc: Encounter | None, logged: int) -> Report:
    """`/encounter end`: the rounds played, the winner, who fell on each side, the log's length."""
    if enc is None:
        return Report("🏁 The encounter has ended", [f"Actions logged: **{logged}**", AFTER_END])
    fallen = {
        side: [f"{c.name} ({c.status})" for c in enc.combatants if c.side == side and c.status != "active"]
        for side in enc.sides()
    }
    fell = [f"{side}: {joined(names, 300, sep=', ')}" for side, names in fallen.items() if names]
    winner = "no one: every side fell" if enc.winner == "nobody" else enc.winner
    lines = [
        f"Rounds played: **{enc.round}**",
        f"Winner: **{winner}**" if winner else "Winner: none",
        f"Actions logged: **{logged}**",
        AFTER_END,
        "Fell: " + ("; ".join(fell[:1]) if fell else "nobody"),
        *fell[1:],
    ]
    return Report(f"🏁 {enc.name} has ended", lines)


def system_of(entry: StoredEntry) -> RuleSystem | None:
    """The rules of a stored encounter, even one whose state does not read back (None: unknown)."""
    if isinstance(entry, LiveEntry):
        return get_system(entry.enc.system)
    try:
        return get_system(json.loads(entry.json)["system"])
    except (ValueError, KeyError, TypeError, RulesError):
        return None


def entry_text(e: LogEntry, system: RuleSystem | None) -> str:
    """A log row's text, both versions marked (`Report.for_reader` picks): rebuilt from its facts
    where it has them, else the text it stored (rolls, imports, and rows written before facts)."""
    if e.facts is None or system is None:
        return e.summary or e.command or ""
    facts = LogFacts.model_validate_json(e.facts)
    text = " · ".join(facts_report(system, facts).lines) or e.command or ""
    if facts.lapse is not None:
        text = f"⏰ the deadline answered for the player ({facts.lapse}): {text}"
    if facts.deadline is not None:
        d = facts.deadline
        text = f"⏰ {d.whose}'s turn passed its {d.hours:g} h deadline ({d.policy}): {text}"
    if facts.undid is not None:
        text = f"Undid {facts.undid.command} by {who(facts.undid.user_id or '')}: {text}"
    return text


def log_report(name: str, entries: list[LogEntry], system: RuleSystem | None, ended: bool = False,
               hidden_undone: str | None = None, last: int | None = None) -> Report:
    """`/log` of the encounter called ``name``: one row per logged command, with every die,
    rolled or typed; an ended one says so first. ``hidden_undone``: what an undo hid again
    (`RuleSystem.hidden_again`): the undone rows say only that, meanwhile. ``last``: the newest
    row's number in its encounter (its rows count 1, 2, 3...; without it, each row's id)."""
    lines = [f"This fight has ended: {AFTER_END}"] if ended else []
    first = None if last is None else last - len(entries) + 1
    for n, e in enumerate(entries):
        number = e.id if first is None else first + n
        stamp = time.strftime("%d %b %H:%M", time.gmtime(e.created_at))
        undone = " ~~undone~~" if e.undone else ""
        if e.undone and hidden_undone is not None:
            lines.append(f"`#{number}` {stamp} {who(e.user_id)} {e.command}{undone}: not shown while {hidden_undone}")
            continue
        dice = _log_dice(e)
        text = entry_text(e, system)
        hiding = marked_names(text)  # the dice of an entry that hides numbers are the GM's to read
        lines.append(f"`#{number}` {stamp} {who(e.user_id)} {e.command}{undone}: {text}{mark(hiding, dice, '') if hiding else dice}")
    return Report(f"📜 Log of {name}" + (" (ended)" if ended else ""), lines or ["Nothing has happened yet."])


#: the longest `/log` row: what an embed's description holds, less room for the title and the page's footer
ENTRY_ROOM = LIMITS["description"] - 200
#: where a reader finds how things stand that a reply or a `/log` row longer than a message had no room for
WHERE_THINGS_STAND = "(`/init order` and `/encounter status` show where things stand now)"
ENTRY_MORE = "(this entry is longer than a message holds: " + WHERE_THINGS_STAND[1:]


def fit_entry(line: str, limit: int = ENTRY_ROOM) -> str:
    """A `/log` row (as its reader sees it) within ``limit`` characters: its first part, then as many
    whole parts (`` · `` between them) from its end as fit (how the command ended: the round's order,
    who acts), with how many it leaves out between them and where to look (`ENTRY_MORE`); cut in a
    part's middle only where its first part alone is longer than that."""
    if len(line) <= limit:
        return line
    parts = line.split(" · ")
    room = limit - len(parts[0]) - len(f" … and {len(parts)} more {ENTRY_MORE}") - 40  # the first part and the count
    cut = len(parts)
    while cut > 1 and len(" · ".join(parts[cut - 1:])) + 3 <= room:
        cut -= 1
    tail = " · ".join(parts[cut:])
    head = joined(parts[:cut], limit - (len(tail) + 3 if tail else 0), ENTRY_MORE, sep=" · ")
    if head.startswith("… and"):  # not even the first part fits: it, clipped, and the count of the rest
        note = (f" and {len(parts) - 1} more " if len(parts) > 1 else " ") + ENTRY_MORE
        return f"{parts[0][: limit - len(note) - 1]}…{note}"
    return f"{head} · {tail}" if tail else head


def roll_report(user_id: str, result: ExpressionResult, reason: str | None, mode: str | None = None) -> Report:
    """`/roll`: who rolled, the dice (with advantage or disadvantage) and the total."""
    text = result.text
    if len(text) > 3000:
        text = text[:3000] + " …"
    heading = f"🎲 {reason[:200]}" if reason else "🎲 Roll"
    lines = [f"{user_ref(user_id)}: {text}", f"**Total: {result.total}**"]
    return Report(heading, [f"*{mode[0].upper()}{mode[1:]}*", *lines] if mode else lines)


def roll_summary(result: ExpressionResult, reason: str | None, mode: str | None, private: bool) -> str:
    """A `/roll`'s log row: the expression, the mode, the reason and the total; a private
    roll's only says that it was rolled (the GMs have it by direct message)."""
    if private:
        return "rolled privately"
    how = f" ({mode})" if mode else ""
    why = f" for {reason}" if reason else ""
    return f"rolled {result.expression[:200]}{how}{why}: {result.total}"


def private_roll_report(ctx: Ctx, result: ExpressionResult, reason: str | None, mode: str | None) -> Report:
    """A private roll as the GM gets it by direct message: who, where, and the roll."""
    report = roll_report(ctx.user_id, result, reason, mode)
    report.title = f"🔒 {report.title} (private, in <#{ctx.channel_id}>)"
    return report


def _log_dice(e: LogEntry) -> str:
    """`` 🎲 5, 3 · ✍ typed by @u: 6``: the bot's dice, then the ones the caller typed."""
    rolled = [str(d) for i, d in enumerate(e.dice) if i not in e.dice_typed]
    typed = [str(d) for i, d in enumerate(e.dice) if i in e.dice_typed]
    parts = [f"🎲 {', '.join(rolled)}"] if rolled else []
    if typed:
        parts.append(f"{TYPED} typed by {user_ref(str(e.user_id))}: {', '.join(typed)}")
    return " " + " · ".join(parts) if parts else ""


def effects_report(system: RuleSystem, enc: Encounter, numbers: bool = False) -> Report:
    """`/effect list`: every running effect (all of them, in as many messages as they need), what it changes
    and when it ends; the changes an effect makes to a hidden combatant's values only with ``numbers`` (the
    GM's view)."""
    present = system.present.view(enc, frozenset() if numbers else enc.hidden_names())
    lines = present.effect_lines(enc) or ["No effects running: `/effect add` puts one on a combatant."]
    return Report(title=f"Effects · {enc.name}", lines=lines, whole=True)
