"""Adding, editing, placing and removing combatants and effects: the same roster rules in every system.

`RosterRules` is part of `rules.system.RuleSystem`, which supplies what these rules read of a
system (declared at the top of the class: its title and sides, whether it faces, its sheets,
effect values and initiative hooks). A system overrides `setup_combatant`, `join_fight`,
`apply_edit` and `on_removed` where its rules add to these.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from rules.actions import Add, Edit, EffectAdd, EffectRemove, InitRoll, InitSet, Remove
from rules.dice import Dice
from rules.effects import (
    MAX_DURATION,
    MAX_EFFECTS,
    Effect,
    called,
    next_id,
    parse_ends,
    parse_mods,
)
from rules.errors import IllegalAction, InputError, NotAllowed
from rules.events import (
    Added,
    Edited,
    EffectAdded,
    EffectEnded,
    Event,
    HitPointsChanged,
    JoinedFight,
    Removed,
)
from rules.fight import FightRules
from rules.geometry.cell_lists import parse_cell_list
from rules.hidden import mark
from rules.models import HP_LIMIT, MAX_REVEALED, Combatant, Encounter, Status
from rules.sheet import MARKDOWN, SheetKey, unprintable
from rules.state import CombatantState
from rules.text import article, possessive

__all__ = ["RosterRules", "check_plain", "MAX_COMBATANTS", "MAX_COPIES", "MAX_NAME"]

MAX_COMBATANTS = 100
#: the longest name a combatant may have
MAX_NAME = 40
#: the most copies one `/combatant add count:` adds
MAX_COPIES = 20


#: how many of the GM's mid-fight edits the encounter keeps to show on the board
GM_EDITS_SHOWN = 3


#: Discord's mention syntax, which it shows as a pill rather than as typed: a member ``<@123>`` or
#: ``<@!123>``, a channel ``<#123>``, a role ``<@&123>``, a time ``<t:1700000000:R>``, a custom
#: emoji ``<:orc:123>`` or ``<a:orc:123>``, a slash command ``</encounter start:123>``, a server
#: page ``<id:browse>``
MENTION = re.compile(r"<(?:@[!&]?\d+|#\d+|a?:\w+:\d+|t:-?\d+(?::\w)?|/[^<>]+:\d+|id:\w+)>")


def check_plain(name: str, what: str, listed: bool = False) -> None:
    """The one reader of a name (a combatant's, a side's, an effect's, an encounter's; ``what``:
    ``"combatant's name"``): it refuses control characters (NUL, line breaks, ...) and lone
    surrogates, which no database stores as typed, and Markdown characters and Discord's mention
    syntax (`MENTION`), which every reply, board and ping would misshow; a name ``listed`` with
    others by commas (a combatant's or a side's: `/init order set:"Grak, Borin"`) cannot hold one."""
    the = f"{article(what).capitalize()} {what}"
    if listed and "," in name:
        raise InputError(
            f"{the} cannot hold a comma: commands list such names with commas (`/init order set:\"Grak, Borin\"`), "
            "so it could not be named there. Write it without, e.g. with a space."
        )
    if unprintable(name):
        raise InputError(
            f"{the} cannot hold control characters (such as NUL or a line break) or broken "
            "characters: write it with letters, digits, spaces and punctuation."
        )
    if any(ch in name for ch in MARKDOWN):
        raise InputError(
            f"{the} cannot hold the Markdown characters * _ ~ | ` or \\ (Discord would not show it as typed): "
            f"write it without them, e.g. with spaces or hyphens."
        )
    if (mention := MENTION.search(name)) is not None:
        raise InputError(
            f"{the} cannot hold Discord's mention syntax such as `{mention.group()[:40]}` (Discord would show a member, "
            "channel, role, time or emoji there, not what was typed): write the name in plain words, e.g. `Grak`."
        )



def _span(hp: range) -> str:
    """``from 1 to 7``, ``of 0``, ``of 0 or less``: the hit points of ``hp`` as a GM writes them."""
    if len(hp) == 1:
        return f"of {hp[0]}"
    return f"of {hp[-1]} or less" if hp[0] <= -HP_LIMIT else f"from {hp[0]} to {hp[-1]}"


class RosterRules(FightRules):
    """The roster edits of `rules.system.RuleSystem`."""

    # -- what the roster reads of the system (`rules.system.RuleSystem` gives each) -------------------
    uses_facing: ClassVar[bool]
    default_side_player: ClassVar[str]
    default_side_gm: ClassVar[str]
    has_initiative_numbers: ClassVar[bool]
    newcomer_rolls: ClassVar[bool]
    effect_values: ClassVar[tuple[SheetKey, ...]]
    combatant_state: ClassVar[type[CombatantState]]
    #: effect names the system's rules read (its conditions, `prone`...): like `mods`, once the
    #: fight has started only the GM adds or removes them
    rule_effect_names: ClassVar[frozenset[str]] = frozenset()
    #: whether the system's rounds have phases (the damage grid, War & Combat): only there may an
    #: effect end at the end of the phase
    has_phases: ClassVar[bool] = False

    def read_sheet(self, enc: Encounter, raw: dict[str, str], base: dict[str, Any] | None = None) -> dict[str, Any]:
        raise NotImplementedError  # pragma: no cover - the system's own

    def sheet_summary(self, c: Combatant) -> str:
        raise NotImplementedError  # pragma: no cover - the system's own

    def setup_combatant(self, enc: Encounter, c: Combatant, new: bool) -> list[Event]:
        raise NotImplementedError  # pragma: no cover - the system's own

    def change_hp(self, enc: Encounter, c: Combatant, change: int) -> list[Event]:
        raise NotImplementedError  # pragma: no cover - the system's own

    def health(self, c: Combatant) -> tuple[int, int] | None:
        raise NotImplementedError  # pragma: no cover - the system's own

    def condition(self, c: Combatant) -> str:
        raise NotImplementedError  # pragma: no cover - `rules.system.RuleSystem`'s

    def roll_initiative(self, enc: Encounter, action: InitRoll, dice: Dice) -> list[Event]:
        raise NotImplementedError  # pragma: no cover - the system's own

    def set_initiative(self, enc: Encounter, action: InitSet, dice: Dice) -> list[Event]:
        raise NotImplementedError  # pragma: no cover - the system's own

    # -- the roster's own rules --------------------------------------------------------------------------

    def place(self, enc: Encounter, c: Combatant, at: str | None, facing: str | None) -> None:
        """Put ``c`` on the map at ``at`` (a cell), checking the cell; no map takes no cell."""
        grid = enc.grid()
        if grid is None:
            if at:
                raise InputError("This encounter has no map, so `at` takes no cell: leave it out.")
            if facing:
                raise InputError("This encounter has no map, so there is no facing: leave it out.")
            return
        if at:
            cell = grid.parse(at)
            if cell in grid.blocked:
                raise IllegalAction(f"{cell.name} is a wall or obstacle: pick an open cell.")
            other = enc.at(cell)
            if other is not None and other is not c:
                raise IllegalAction(f"{cell.name} is taken by {other.name}: pick a free cell.")
            c.position = cell.name
        if not self.uses_facing:
            if facing:
                raise InputError(f"{self.title} has no facings: leave `facing` out.")
            return
        if facing:
            c.facing = grid.parse_facing(facing)
        elif c.position and not c.facing:
            c.facing = grid.facings[0]

    def add(self, enc: Encounter, action: Add, dice: Dice) -> list[Event]:
        """Add one combatant, or ``action.count`` numbered copies (each through this same add)."""
        count = action.count
        if count is not None and not 1 <= count <= MAX_COPIES:
            raise InputError(f"`count` is a whole number from 1 to {MAX_COPIES}, not {count}.")
        if count is not None and count > 1:
            events: list[Event] = []
            for copy in self.copies(enc, action, count):
                events += self.add(enc, copy, dice)
            return events
        name = (action.name or "").strip()
        if not name or len(name) > MAX_NAME:
            raise InputError(f"A combatant needs a name of 1 to {MAX_NAME} characters.")
        if any(ch in name for ch in "\n\r"):
            raise InputError("A combatant's name cannot hold line breaks.")
        check_plain(name, "combatant's name", listed=True)
        existing = enc.find(name)
        if existing is not None:
            raise IllegalAction(f"There is already a combatant called {existing.name}: pick another name.")
        gone = next((n for n in enc.removed_hidden if n.casefold() == name.casefold()), None)
        if gone is not None:
            raise IllegalAction(
                f"The GM's {gone} was removed from this fight and what was logged of it stays hidden under that name: "
                f"pick another name (`{gone} 2`)."
            )
        if len(enc.combatants) >= MAX_COMBATANTS:
            raise IllegalAction(f"An encounter holds at most {MAX_COMBATANTS} combatants.")
        if enc.winner:
            raise IllegalAction("This fight is over: start a new encounter.")
        sheet = self.read_sheet(enc, action.raw_sheet)
        owner = action.owner_id
        side = action.side  # left out: the default side; given, never empty (`side_name`)
        if side is None:
            side = self.default_side_gm if (owner is None or owner in enc.gm_ids) else self.default_side_player
        side = self.side_name(enc, side)
        c = Combatant(name=name, side=side, owner_id=owner, sheet=sheet, state=self.combatant_state())
        self.place(enc, c, action.at, action.facing)
        enc.combatants.append(c)
        where = c.position or getattr(c.state, "band", None)
        summary = self.sheet_summary(c) or None  # the sheet as given
        setup = self.setup_combatant(enc, c, new=True)
        added = Added(
            actor=name, summary=summary, side=side, owner_id=owner,
            at=where, facing=c.facing, on_map=enc.grid() is not None, faces=self.uses_facing,
            status=self.condition(c) if c.status != "active" else None,
        )
        return [added, *setup, *self.join_fight(enc, c, action, dice)]

    def join_fight(self, enc: Encounter, c: Combatant, action: Add, dice: Dice) -> list[Event]:
        """``c``, just added, joins the fight under way (if it is): at the initiative the GM gave
        (`/combatant add init:`), or the one the system's rule gives or rolls; announced."""
        init = action.init
        if not enc.started:
            if init is not None:
                raise InputError("`init` places a combatant joining a fight under way: before `/init roll`, leave it out.")
            return []
        events: list[Event] = []
        if init is not None:
            if not self.has_initiative_numbers:
                raise InputError(f"{self.title} has no initiative numbers: leave `init` out, and {c.name} joins its side.")
            events = self.set_initiative(enc, InitSet(actor=c.name, value=init, user_id=action.user_id, is_gm=action.is_gm), dice)
        elif self.newcomer_rolls and c.initiative is None and c.status == "active":
            events = self.roll_initiative(enc, InitRoll(actor=c.name, user_id=action.user_id, is_gm=action.is_gm), dice)
        return [*events, JoinedFight(actor=c.name, round=enc.round, initiative=c.initiative)]

    def copies(self, enc: Encounter, action: Add, count: int) -> list[Add]:
        """The ``count`` single adds of ``/combatant add count:``: ``name 1`` .. ``name n``, on the cells ``at`` lists
        (in order; more cells than copies leaves the rest free); without a map, ``at`` (a band) is for all."""
        name = (action.name or "").strip()
        room = MAX_NAME - len(f" {count}")
        if not name or len(name) > room:
            raise InputError(f"{count} copies need a name of 1 to {room} characters, to fit their numbers up to {count}.")
        grid = enc.grid()
        spots: list[str | None] = [action.at] * count
        if grid is not None and action.at:
            cells = parse_cell_list(action.at, grid.width, grid.height)
            if len(cells) < count:
                raise InputError(
                    f"{count} combatants need {count} cells, and `at` names {len(cells)}: "
                    f'list one cell each, e.g. `at:"B2:D4"`, or lower `count`.'
                )
            spots = [cell.name for cell in cells[:count]]
        return [action.model_copy(update={"name": f"{name} {i}", "at": at, "count": None}) for i, at in enumerate(spots, 1)]

    @staticmethod
    def side_name(enc: Encounter, side: str) -> str:
        """``side`` checked, spelt as the encounter first spelt it (sides match whatever their case)."""
        side = side.strip()
        if not side or len(side) > 40:
            raise InputError("A side needs a name of 1 to 40 characters, e.g. `heroes`.")
        check_plain(side, "side's name", listed=True)
        key = side.casefold()
        return next((s for s in enc.sides() if s.casefold() == key), side)

    def edit(self, enc: Encounter, action: Edit, dice: Dice) -> list[Event]:
        c = enc.get(action.actor)
        change = action.hp_change
        by_change = change is not None or "hp" in action.deltas  # `/combatant hp`, `sheet:"hp+3"`
        was = c.model_dump() if by_change else {}  # what a change of hit points that moves none leaves
        if change is not None and not action.raw_sheet:  # `/combatant hp` where hp is not a sheet key
            events = self.change_hp(enc, c, change)
            self.check_changed(c, was)
            for e in events:  # an owner's own, before the fight, is named as its player's
                if isinstance(e, HitPointsChanged):
                    e.by_gm = action.is_gm
            # the change applied (a heal past the most stops at it); a loss the rules deal as damage, as given
            applied = next((e.change for e in events if isinstance(e, HitPointsChanged)), change)
            self.note_gm_edit(enc, action, c, [self.hp_change_note(c, applied, events)])
            return events
        if not action.raw_sheet and not action.at and not action.facing and not action.side:
            raise InputError("Nothing to change: give `sheet` (key=value pairs, or changes like `hp-7`) to edit.")
        events = self.apply_edit(enc, action, dice)
        if by_change and set(action.raw_sheet) <= {"hp", "max_hp"} and not (action.at or action.facing or action.side):
            self.check_changed(c, was)  # a change of hit points alone
        if change is not None and c.hp is not None:  # `/combatant hp` where hp is a sheet key: read as everywhere
            self.note_gm_edit(enc, action, c, [f"hp{c.hp - int(was['hp'] or 0):+d} (now {c.hp})"])
            return events
        # the values applied: an `hp` past the most stops at it
        changed = [f"{k}={c.hp if k == 'hp' and c.hp is not None else v}" for k, v in action.raw_sheet.items()]
        changed += [f"{k} {v}" for k, v in (("at", action.at), ("facing", action.facing), ("side", action.side)) if v]
        self.note_gm_edit(enc, action, c, changed)
        return events

    def note_gm_edit(self, enc: Encounter, action: Edit, c: Combatant, changed: list[str]) -> None:
        """The GM's edit, noted for the board (`note_gm_change`)."""
        note_gm_change(enc, action.is_gm, c, changed)

    def hp_change_note(self, c: Combatant, applied: int, events: list[Event]) -> str:
        """The board's GM change for `/combatant hp`: the change ``applied`` and the HP it left (a system whose
        hit points have more to them, seen in the change's ``events``, says that too)."""
        return f"hp{applied:+d} (now {c.hp})"

    def check_changed(self, c: Combatant, was: dict[str, Any]) -> None:
        """A change of hit points that leaves ``c`` as it ``was`` (a heal at the most, a loss at the
        least) is refused, so that no reply, log row or undo step tells of a change that is none."""
        if c.model_dump() == was:
            raise IllegalAction(f"{self.health_words(c)}; nothing changed.")

    def hp_ranges(self, enc: Encounter, c: Combatant) -> Mapping[Status, range] | None:
        """The hit points ``c`` may have in each status, as this system's rules leave them (`check_hp`
        reads a file's `hp` and `status` against them); None: the system counts no hit points."""
        return None

    def check_hp(self, enc: Encounter, c: Combatant) -> None:
        """``c``'s `hp` and `status` as a file gives them (an import) within `hp_ranges`; else refused,
        naming the combatant, the field and what to write."""
        ranges = self.hp_ranges(enc, c)
        if ranges is None or c.hp is None or c.hp in ranges[c.status]:
            return
        own = ranges[c.status]
        fits = next((status for status, r in ranges.items() if c.hp in r), None)
        write = " or ".join([*([f"an `hp` {_span(own)}"] if own else []), *([f"`status` `{fits}`"] if fits else [])])
        most = max(r[-1] for r in ranges.values() if r)
        least = min(r[0] for r in ranges.values() if r)
        if c.hp > most:
            raise InputError(f"{c.name}'s `hp` in the file is {c.hp}, above its most ({most}): write {write}.")
        if c.hp < least:
            raise InputError(f"{c.name}'s `hp` in the file is {c.hp}, below the least {self.title} counts ({least}): write {write}.")
        raise InputError(f"{c.name} is `{c.status}` in the file with {c.hp} HP, which {self.title} does not allow: write {write}.")

    def health_words(self, c: Combatant) -> str:
        """``Borin is already at 9/9 HP``: where ``c``'s hit points stand, for a change that moved none."""
        health = self.health(c)
        return f"{c.name} is already at {c.hp if health is None else f'{health[0]}/{health[1]}'} HP"

    def apply_edit(self, enc: Encounter, action: Edit, dice: Dice) -> list[Event]:
        """The changes of an `edit` (a system adds its own after these: an `hp` past the most...)."""
        c = self.edit_sheet(enc, action)
        return [self.edited(enc, action, c), *self.setup_combatant(enc, c, new=False)]

    def edited(self, enc: Encounter, action: Edit, c: Combatant) -> Edited:
        """The `Edited` event of ``action``: ``c``'s sheet summed up as the edit leaves it, and whether
        it is a GM's edit in the fight (shown as such)."""
        return Edited(actor=c.name, summary=self.sheet_summary(c) or None, by_gm=action.is_gm and enc.started,
                      at=(c.position or action.at) if action.at else None, facing=c.facing if action.facing else None,
                      side=c.side if action.side else None)

    def edit_sheet(self, enc: Encounter, action: Edit) -> Combatant:
        """The sheet, side and place an `edit` gives its combatant (returned); a system that changes
        more before the `Edited` event sums the sheet up calls this, `setup_combatant`, then its own
        changes, and makes the event last (the summary once, of the sheet as the edit leaves it)."""
        c = enc.get(action.actor)
        if action.raw_sheet:
            c.sheet = self.read_sheet(enc, action.raw_sheet, base=c.sheet)
        if action.side is not None:
            c.side = self.side_name(enc, action.side)
        if action.at or action.facing:
            self.place(enc, c, action.at, action.facing)
        return c

    def remove(self, enc: Encounter, action: Remove, dice: Dice) -> list[Event]:
        c = enc.get(action.actor)
        enc.combatants.remove(c)
        if c.owner_id is None and c.name not in enc.removed_hidden:  # its log entries and GM changes keep its name
            enc.removed_hidden = [*enc.removed_hidden, c.name]
            revealed = enc.settings.revealed
            if enc.settings.reveal and c.name not in revealed and len(revealed) < MAX_REVEALED:
                # shown as all are: it stays shown as it was (`Encounter.shown_to_players`); with no room, hidden
                enc.settings.revealed = [*revealed, c.name]
        enc.order = [n for n in enc.order if n != c.name]
        if enc.current == c.name:
            enc.current = None
        events: list[Event] = [Removed(actor=c.name)]
        sides = enc.sides()
        if enc.started and not enc.winner and c.side not in sides and len(sides) == 1:
            # the last foe left the field: the side left alone wins, as if that foe had fallen
            events += self.decide(enc, sides[0])
        return events + self.on_removed(enc, c, dice)

    def add_effect(self, enc: Encounter, action: EffectAdd, dice: Dice) -> list[Event]:
        """`/effect add`: a named effect on a combatant (or the field) that counts down `rounds`
        times at the moment `ends` names, changing the target's values as `mods` says (`effect_values`)
        while it runs. Once the fight has started only the GM gives changes or conditions the rules
        read, as only the GM edits sheets. A player's effect records its target as its ``source``
        (None: the GM's). The systems add their own effects with a code."""
        target = enc.get(action.actor).name if action.actor else None
        name = " ".join(action.effect.split())
        if not name or len(name) > 40:
            raise InputError("An effect needs a name of 1 to 40 characters, e.g. `Bless`.")
        check_plain(name, "effect's name")
        if not 1 <= action.rounds <= MAX_DURATION:
            raise InputError(f"`rounds` is how many times the effect counts down: a whole number from 1 to {MAX_DURATION}.")
        ends, of = parse_ends(action.ends, target, (c.name for c in enc.combatants), phases=self.has_phases, title=self.title)
        mods = parse_mods(action.mods, name, self.effect_values, self.title)
        if mods and target is None:
            raise InputError(f"{name}: an effect on the field changes nobody's values: name a `target`, or leave `mods` out.")
        if mods and enc.started and not action.is_gm:
            raise NotAllowed(f"{name}: once the fight has started only the GM changes numbers: leave `mods` out, or ask the GM.")
        if target is not None and enc.started and not action.is_gm and name.casefold() in self.rule_effect_names:
            raise NotAllowed(f"{name} is a condition the rules read: once the fight has started only the GM puts it on. "
                             "Ask the GM, or give your reminder another name.")
        if len(enc.effects) >= MAX_EFFECTS:
            raise InputError(f"This encounter has {MAX_EFFECTS} effects, the most it keeps: `/effect remove` some first.")
        if target is not None and (events := self.put_condition(enc, enc.get(target), name, action)) is not None:
            return events  # the rules' condition: one of its name running is the system's to combine with
        if any(e.name.casefold() == name.casefold() and e.target == target for e in enc.effects):
            on = f"{target} already has" if target else "The field already has"
            raise InputError(f"{on} an effect called {name}: `/effect remove` it first, or choose another name.")
        source = None if action.is_gm else target
        effect = Effect(id=next_id(enc.effects), name=name, target=target, ends=ends, of=of, left=action.rounds, mods=mods,
                        source=source)
        enc.effects.append(effect)
        return [EffectAdded(actor=target, name=name, ends=ends, left=action.rounds, of=of, mods=mods)]

    def put_condition(self, enc: Encounter, c: Combatant, name: str, action: EffectAdd) -> list[Event] | None:
        """`/effect add` of ``name`` on ``c``, once it passed every effect's checks: the rules' own
        condition of that name put on (its events), or None for a named effect. None here; a system
        whose conditions are effects of its own (with a code) puts them on."""
        return None

    def remove_effect(self, enc: Encounter, action: EffectRemove, dice: Dice) -> list[Event]:
        """`/effect remove`: the GM removes any effect; a player one they put on their own combatant
        (once the fight has started, not one that changes numbers or is a condition the rules read)."""
        target = enc.get(action.actor).name if action.actor else None
        found = called([e for e in enc.effects if action.actor is None or e.target == target], action.effect)
        if not found:
            if target:
                names = ", ".join(sorted({e.name for e in enc.effects if e.target == target})) or "none"
                raise InputError(f"No effect called {action.effect[:40]} on {target}. {possessive(target)} effects: {names}.")
            names = ", ".join(sorted({e.name + (f" on {e.target}" if e.target else "") for e in enc.effects})) or "none"
            raise InputError(f"No effect called {action.effect[:40]}. Effects now: {names}.")
        typed = " ".join(action.effect.split())[:40]
        refusals = {self._removal_refusal(enc, e, action, typed if len(found) > 1 else e.name) for e in found}
        if None not in refusals:  # the player may remove none of them: said at once, not "say which"
            raise NotAllowed(min(r for r in refusals if r is not None))
        if len(found) > 1 and len({e.name for e in found}) == 1:
            on = ", ".join(e.target or "the field" for e in found)
            raise InputError(f"{found[0].name} is on {on}: say which with `target`.")
        if len(found) > 1:  # `Protect (by Ann)` and `Protect (by Bob)`
            which = [f"`{e.name}`" + ("" if target else f" on {e.target or 'the field'}") for e in found]
            raise InputError(f"{target or 'The encounter'} has {len(found)} effects called {typed}: "
                             f"say which, {', '.join(which[:-1])} or {which[-1]}.")
        effect = found[0]
        enc.effects.remove(effect)
        return [EffectEnded(actor=effect.target, name=effect.name, removed=True)]

    def _removal_refusal(self, enc: Encounter, effect: Effect, action: EffectRemove, name: str) -> str | None:
        """Why the one who asks may not remove ``effect`` (called ``name`` in the reply), or None."""
        if action.is_gm:
            return None
        if effect.code:
            return f"{name} is a rule's effect: it ends by the rules, or the GM removes it."
        if enc.started and effect.name.casefold() in self.rule_effect_names:
            return f"{name} is a condition the rules read: once the fight has started it ends by itself, or ask the GM to remove it."
        if effect.mods and enc.started:
            return f"{name} changes {effect.target}'s numbers: once the fight has started it ends by itself, or the GM removes it."
        if effect.source is None:
            return f"The GM put {name} on {effect.target or 'the field'}: it ends by itself, or ask the GM to remove it."
        return None

    def on_removed(self, enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
        """Tidy system state after a combatant left (e.g. pass the turn on); say what changed."""
        return []


def note_gm_change(enc: Encounter, is_gm: bool, c: Combatant, changed: list[str]) -> None:
    """Mid-fight, only the GM changes sheets and harm by hand (an edit, `/combatant hp`, a system's
    own GM action such as War & Combat's `damage`): the board shows the last few such changes
    (``round 2: Grak hp=3``), a hidden combatant's as that the GM changed it."""
    if not (is_gm and enc.started):
        return
    note = f"round {enc.round}: {c.name} {' '.join(changed)}"[:200]
    if enc.hidden(c):  # players read that the GM changed it, not what
        note = mark([c.name], note, f"round {enc.round}: the GM changed {c.name}")
    enc.gm_edits = [*enc.gm_edits, note][-GM_EDITS_SHOWN:]
