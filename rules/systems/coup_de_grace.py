"""Coup-De-Grace: Rules of Conflict (RPGnet wiki, November 2013).

Two rulesets share this module:

- the newer text (15 Nov 2013, the default): MA 8/6/4, 4-way adjacency and moves, turning in
  place costs 1 MP, each adjacent enemy doubles every MP cost (2, 4, 8...), a coup-de-grace is
  any attack on a downed mini;
- the draft (11 Nov 2013, variant ``draft-2013-11-11``): MA 6/5/4, steps in 8 directions
  (range is counted the same way), one doubling when any enemy touches the mini (diagonals
  included), and the coup-de-grace is its own melee action costing 2 MP (doubled to 4).
  What the draft leaves empty falls back to the newer text.

Choices where the text is silent (all documented in ``options_help`` or the README):

- Initiative ties: each tied side rolls a d6, highest first, re-rolling ties (``tie=join``:
  the side that joined first). Sides then take turns in that order, one mini at a time.
- Only minis on the board are activated; undeployed minis still count for the initiative.
- A mini's activation starts with its first move, attack or act and ends with ``/init next``;
  a downed mini's single action ends its activation by itself.
- The enemy doubling applies to every MP cost (steps, turns, ranged attacks, the draft's
  coup-de-grace), as the draft's notes say; downed enemies count (``downed_adjacent=no``: not).
- Range ignores walls and minis (they matter for line of sight only); maximum range is
  ``max_increments`` (5) range increments.
- Downed minis have no facing: they neither co-ordinate, distract, block nor get a backstab
  or a shield bonus; a downed attacker needs no arc, only adjacency or range and sight.
- Pushes (hammer, pistol) go one square along the side of the square that points most
  directly away from the attacker; a pistol push that cannot happen is cancelled.
- A crossbow rerolls a natural 2 by itself, once per round, only when the 2 would miss.
- Spears and polearms reach ``reach`` (2) squares straight ahead over minis, not walls.
- Draft: diagonal steps cannot squeeze between two blocked squares; turning in place is
  allowed for 1 MP as in the newer text; melee, its modifiers and downed attacks use the
  newer text's 4-way adjacency (the draft leaves them empty).
- A downed mini's crawl is one square N, E, S or W (draft: any of 8 directions).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from itertools import zip_longest
from typing import Any, ClassVar

from rules.dice import Dice
from rules.errors import IllegalAction, InputError, NotFound, NotYourTurn, SheetError
from rules.events import LegacyEvent as Event, Modifier, mod
from rules.grid import Cell, Grid, cheapest_path
from rules.models import Combatant, Encounter
from rules.report import describe_check, signed
from rules.sheet import SheetKey, read_int, read_sheet, yes_no
from rules.system import Action, RuleSystem, Turn, register

__all__ = [
    "CLASSES",
    "DEFENCE_VALUE",
    "DRAFT",
    "DRAFT_VARIANT",
    "NEWER",
    "WEAPONS",
    "CoupDeGrace",
    "Ruleset",
    "Weapon",
    "normalise_weapon",
]

DRAFT_VARIANT = "draft-2013-11-11"
CLASSES = ("unarmoured", "light", "heavy")
DEFENCE_VALUE = {"unarmoured": 3, "light": 4, "heavy": 5}
DEFAULT_HP = 3
STEP_COST = 1
TURN_COST = 1
RANGED_COST = 4
DRAFT_CDG_COST = 2
#: the largest reach or range increment the `weapons` option takes: a map's longest side
MAX_REACH = 60
DOWNED_PENALTY = -2
MAX_PATH_STEPS = 60
ORTHOGONAL = ("N", "E", "S", "W")
ALL_DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
ATTACK_OPTIONS = {"melee": "melee", "ranged": "ranged", "throw": "ranged", "shoot": "ranged"}


@dataclass(frozen=True)
class Ruleset:
    """What differs between the newer text and the draft."""

    name: str
    movement: dict[str, int]
    diagonal: bool  # steps, crawls and range count a diagonal as one square
    double_each: bool  # each adjacent enemy doubles (newer) / one doubling for any (draft)
    cdg_action: bool  # the coup-de-grace is its own 2 MP melee action (draft)

    @property
    def directions(self) -> tuple[str, ...]:
        return ALL_DIRECTIONS if self.diagonal else ORTHOGONAL


NEWER = Ruleset("newer", {"unarmoured": 8, "light": 6, "heavy": 4}, False, True, False)
DRAFT = Ruleset(DRAFT_VARIANT, {"unarmoured": 6, "light": 5, "heavy": 4}, True, False, True)


@dataclass(frozen=True)
class Weapon:
    """A catalogue weapon. ``reach``/``increment`` None mean the encounter's default."""

    name: str
    melee: bool = True
    ranged: bool = False
    reach: int | None = 1
    increment: int | None = None
    rule: str = ""

    @property
    def attacks(self) -> bool:
        return self.melee or self.ranged


WEAPONS: dict[str, Weapon] = {
    w.name: w
    for w in (
        Weapon(
            "hammer",
            rule="Bash Back: a hit pushes the target one square directly away; "
            "if it cannot go there, +1 damage instead",
        ),
        Weapon("shield", rule="Block: +1 defence against attacks from the front 90 degree arc"),
        Weapon("buckler", melee=False, rule="no attack; +2 defence against melee from the front arc"),
        Weapon("axe", rule="Dolorous Blow: +1 damage on a natural 6"),
        Weapon("assassin's knife", rule="Spine Stab: +1 damage on a backstab"),
        Weapon("curved sword", rule="Slice and Dice: a natural 1-3 gets +1"),
        Weapon("glaive", rule="Cut Down: +1 damage on a natural 3-4 that hits"),
        Weapon("fencing sword", rule="Finesse: +2 MP after a miss"),
        Weapon("throwing knife", ranged=True, rule="Versatile: ranged, and a one-handed melee weapon"),
        Weapon(
            "crossbow",
            melee=False,
            ranged=True,
            rule="Accuracy: a missing natural 2 is rerolled once per round",
        ),
        Weapon("pistol", melee=False, ranged=True, rule="Blastback: a hit pushes the target back one square"),
        Weapon("spear", reach=None, rule="Reach: melee up to 2 squares straight ahead"),
        Weapon("polearm", reach=None, rule="Reach: melee up to 2 squares straight ahead"),
        Weapon("sword"),
        Weapon("dagger"),
        Weapon("club"),
        Weapon("mace"),
        Weapon("staff"),
        Weapon("bow", melee=False, ranged=True),
        Weapon("sling", melee=False, ranged=True),
    )
}

_CLASS_ALIASES = {
    "unarmoured": "unarmoured",
    "unarmored": "unarmoured",
    "none": "unarmoured",
    "light": "light",
    "lightly": "light",
    "heavy": "heavy",
    "heavily": "heavy",
}


def normalise_weapon(text: str) -> str:
    """``"Assassin’s-Knife"`` -> ``"assassins knife"``: the form weapon names are compared in."""
    text = text.lower().replace("’", "'").replace("'", "")
    return re.sub(r"[\s_-]+", " ", text).strip()


def _at(c: Combatant) -> Cell:
    """The square of a mini on the board."""
    if c.cell is None:
        raise IllegalAction(
            f"{c.name} is not on the board: the GM places it with `/combatant edit name:{c.name} at:CELL`."
        )
    return c.cell


def _facing(c: Combatant) -> str:
    """The facing of a standing mini."""
    if c.facing is None:
        raise IllegalAction(
            f"{c.name} has no facing: the GM gives it one with `/combatant edit name:{c.name} facing:N`."
        )
    return c.facing


def _parse_class(value: str) -> str:
    v = re.sub(r"[\s_-]+armou?red$", "", value.strip().lower())
    if v not in _CLASS_ALIASES:
        raise SheetError(f"`class={value}` is not accepted: use one of {', '.join(CLASSES)}.")
    return _CLASS_ALIASES[v]


def _parse_weapons(catalogue: dict[str, Weapon], value: str) -> list[str]:
    known = {normalise_weapon(n): n for n in catalogue}
    items = [x.strip() for x in value.split(",") if x.strip()]
    bad = [x for x in items if normalise_weapon(x) not in known]
    if bad:
        raise SheetError(
            f"`weapons`: {', '.join(bad)} {'is' if len(bad) == 1 else 'are'} not known. "
            f"Known: {', '.join(catalogue)} (the GM adds more with the `weapons` encounter option)."
        )
    if len(items) > 6:
        raise SheetError("`weapons` lists at most 6 weapons.")
    return [known[normalise_weapon(x)] for x in items]


@register
class CoupDeGrace(RuleSystem):
    key = "coup-de-grace"
    title = "Coup-De-Grace"
    variants = (DRAFT_VARIANT,)
    map_kinds = ("square",)
    default_map = "12x10"
    act_actions = ("recover",)
    default_side_player = "heroes"
    default_side_gm = "foes"
    has_initiative_numbers = False
    options_help: ClassVar[dict[str, str]] = {
        "tie": "who activates first when sides have as many minis: `roll` (default: a d6 per "
        "tied side, highest first, ties re-roll) or `join` (the side that joined first)",
        "range_increment": "squares per range increment for ranged weapons that state none (default 6)",
        "max_increments": "maximum range, in range increments (default 5)",
        "reach": "squares straight ahead that spears and polearms reach (default 2)",
        "recover_on": "the d6 result a dramatic recovery needs (default 5, i.e. 5+)",
        "downed_adjacent": "`yes` (default): downed enemies next to a mini double its MP costs too; `no`: they do not",
        "weapons": "extra or changed weapons, comma separated `name:melee|ranged|versatile[:reach or "
        "increment]`, e.g. `longbow:ranged:8, halberd:melee:2`",
    }

    # -- options and the ruleset in force ---------------------------------------------------------
    @staticmethod
    def _rules(enc: Encounter) -> Ruleset:
        return DRAFT if enc.variant == DRAFT_VARIANT else NEWER

    @staticmethod
    def _int_option(enc: Encounter, key: str, default: int, low: int = 1, high: int = 99) -> int:
        raw = enc.option(key)
        return default if raw is None else read_int(raw, key, low, high, hint="the GM fixes it in the encounter settings")

    @staticmethod
    def _bool_option(enc: Encounter, key: str, default: bool) -> bool:
        raw = enc.option(key)
        return default if raw is None else yes_no(raw, key)

    @staticmethod
    def _choice_option(enc: Encounter, key: str, choices: tuple[str, ...]) -> str:
        """The first of ``choices`` is the default."""
        raw = (enc.option(key) or choices[0]).strip().lower()
        if raw not in choices:
            raise InputError(
                f"The encounter option `{key}={raw}` is not accepted: use {' or '.join(f'`{c}`' for c in choices)}."
            )
        return raw

    #: how the rules read each option of ``options_help`` (its default when unset)
    _OPTION_READERS: ClassVar[dict[str, Callable[[CoupDeGrace, Encounter], Any]]] = {
        "tie": lambda s, enc: s._choice_option(enc, "tie", ("roll", "join")),
        "range_increment": lambda s, enc: s._int_option(enc, "range_increment", 6),
        "max_increments": lambda s, enc: s._int_option(enc, "max_increments", 5),
        "reach": lambda s, enc: s._int_option(enc, "reach", 2),
        "recover_on": lambda s, enc: s._int_option(enc, "recover_on", 5, high=6),
        "downed_adjacent": lambda s, enc: s._bool_option(enc, "downed_adjacent", True),
        "weapons": lambda s, enc: s._catalogue(enc),
    }

    def _option(self, enc: Encounter, key: str) -> Any:
        """Encounter option ``key`` as the rules use it; a value they cannot use raises InputError."""
        return self._OPTION_READERS[key](self, enc)

    def check_options(self, enc: Encounter) -> None:
        for key in self.options_help:
            self._option(enc, key)

    def _catalogue(self, enc: Encounter) -> dict[str, Weapon]:
        """The weapon list: the catalogue plus the GM's ``weapons`` option."""
        text = enc.option("weapons")
        if not text:
            return WEAPONS
        out = dict(WEAPONS)
        known = {normalise_weapon(n): n for n in out}
        for item in (x.strip() for x in text.split(",")):
            if not item:
                continue
            parts = [p.strip() for p in item.split(":")]
            name = known.get(normalise_weapon(parts[0]), parts[0].lower())
            kind = parts[1].lower() if len(parts) > 1 else ""
            number = parts[2] if len(parts) > 2 else None
            if (
                not name
                or len(name) > 30
                or len(parts) > 3
                or kind not in ("melee", "ranged", "versatile")
            ):
                raise InputError(
                    f"The `weapons` option item `{item}` is not `name:melee|ranged|versatile[:number]`, "
                    f"like `longbow:ranged:8` or `halberd:melee:2`."
                )
            n = read_int(number, "weapons", 1, MAX_REACH, hint=f"in `{item}`, the reach or range increment in squares") if number is not None else None
            base = out.get(name, Weapon(name))
            out[name] = replace(
                base,
                melee=kind != "ranged",
                ranged=kind != "melee",
                reach=n if (n and kind == "melee") else base.reach,
                increment=n if (n and kind != "melee") else base.increment,
            )
            known[normalise_weapon(name)] = name
        return out

    def _weapon(self, enc: Encounter, name: str) -> Weapon:
        catalogue = self._catalogue(enc)
        if name not in catalogue:
            raise NotFound(
                f"`{name}` is no longer a known weapon here: the GM edits the sheet or the `weapons` option."
            )
        return catalogue[name]

    # -- sheets ---------------------------------------------------------------------------------------
    def _keys(self, catalogue: dict[str, Weapon]) -> tuple[SheetKey, ...]:
        return (
            SheetKey(
                "class",
                "armour class: unarmoured (DV 3, MA 8), light (DV 4, MA 6) or heavy "
                "(DV 5, MA 4); draft MA 6/5/4",
                kind="choice",
                choices=CLASSES,
                required=True,
                parse=_parse_class,
            ),
            SheetKey("hp", "hit points", kind="int", default=DEFAULT_HP, minimum=1, maximum=20),
            SheetKey(
                "weapons",
                "weapons in hand, comma separated",
                kind="list",
                choices=tuple(catalogue),
                parse=partial(_parse_weapons, catalogue),
            ),
            SheetKey("race", "race, free text (shown on the board)", cosmetic=True),
            SheetKey("dv", "defence value, overrides the class", kind="int", minimum=1, maximum=12),
            SheetKey("ma", "movement allowance, overrides the class", kind="int", minimum=0, maximum=30),
        )

    def sheet_keys(self, variant: str | None = None) -> tuple[SheetKey, ...]:
        return self._keys(WEAPONS)

    def read_sheet(
        self, enc: Encounter, raw: dict[str, str], base: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        return read_sheet(raw, self._keys(self._catalogue(enc)), base)

    def setup_combatant(self, enc: Encounter, c: Combatant, new: bool) -> list[Event]:
        hp_max = int(c.sheet.get("hp", DEFAULT_HP))
        if new or c.hp is None:
            c.hp = hp_max
            c.state = {"hp_max": hp_max, "done": False, "mp": None, "used": {}, "reroll": False}
            return []
        old = int(c.state.get("hp_max", hp_max))
        c.state["hp_max"] = hp_max
        if hp_max == old or c.status == "out":
            return []
        new_hp = c.hp + hp_max - old
        note = f"sheet hp {old} → {hp_max}: {c.name} has {c.hp} → {new_hp} HP"
        return [Event(kind="note", note=note), *self._set_hp(enc, c, new_hp)]

    def place(self, enc: Encounter, c: Combatant, at: str | None, facing: str | None) -> None:
        super().place(enc, c, at, facing)
        if c.status == "downed":
            c.facing = None  # a downed mini lies on its side: no facing

    # -- derived values -------------------------------------------------------------------------------
    def defence(self, c: Combatant) -> int:
        return int(c.sheet.get("dv") or DEFENCE_VALUE[c.sheet.get("class", "unarmoured")])

    def movement(self, enc: Encounter, c: Combatant) -> int:
        ma = c.sheet.get("ma")
        return int(ma) if ma is not None else self._rules(enc).movement[c.sheet.get("class", "unarmoured")]

    @staticmethod
    def _mp(c: Combatant) -> int | None:
        """MP left in the activation under way, or None when the mini is not activating."""
        mp = c.state.get("mp")
        return None if mp is None else int(mp)

    def weapons_of(self, enc: Encounter, c: Combatant) -> list[str]:
        catalogue = self._catalogue(enc)
        held = dict.fromkeys(c.sheet.get("weapons") or [])
        return [w for w in held if w in catalogue and catalogue[w].attacks]

    def actions_for(self, enc: Encounter, c: Combatant | None) -> list[str]:
        if c is None:
            return list(self.act_actions)
        return ["recover"] if c.status == "downed" else []

    # -- turn order: alternating activation by side ----------------------------------------------------
    @staticmethod
    def _pool(enc: Encounter, side: str) -> list[Combatant]:
        """The side's minis that may still activate this round (on the board, not yet activated)."""
        return [c for c in enc.combatants if c.side == side and c.on_board and not c.state.get("done")]

    @staticmethod
    def _rotation(enc: Encounter) -> list[str]:
        sides = list(enc.state.get("sides") or [])
        return sides + [s for s in enc.sides() if s not in sides]

    def _standing_sides(self, enc: Encounter) -> list[str]:
        return [s for s in enc.sides() if not self.side_defeated(enc, s)]

    def _order_sides(
        self, enc: Encounter, counts: dict[str, int], dice: Dice
    ) -> tuple[list[str], list[Event]]:
        """Most minis first; ties by a d6 roll-off (or joining order with ``tie=join``)."""
        tie = self._option(enc, "tie")
        order: list[str] = []
        events: list[Event] = []
        for count in sorted(set(counts.values()), reverse=True):
            group = [s for s in counts if counts[s] == count]
            if len(group) > 1 and tie == "roll":
                group = self._roll_off(enc, group, dice, events)
            order += group
        return order, events

    def _roll_off(
        self, enc: Encounter, sides: list[str], dice: Dice, events: list[Event], depth: int = 0
    ) -> list[str]:
        if depth >= 10:  # endless ties: keep the joining order
            return sides
        rolls: dict[str, int] = {}
        for s in sides:
            with dice.rolling_for(*(c.name for c in enc.combatants if c.side == s)):
                rolls[s] = dice.die(6)
        events += [
            Event(
                kind="check",
                actor=s,
                dice=[v],
                dice_label="d6",
                total=v,
                data={"what": "rolls off for the initiative"},
            )
            for s, v in rolls.items()
        ]
        out: list[str] = []
        for value in sorted(set(rolls.values()), reverse=True):
            tied = [s for s in sides if rolls[s] == value]
            out += self._roll_off(enc, tied, dice, events, depth + 1) if len(tied) > 1 else tied
        return out

    def _new_round(self, enc: Encounter, dice: Dice) -> list[Event]:
        """Start the next round: reset activations, work the initiative out afresh."""
        enc.round += 1
        enc.current = None
        for c in enc.combatants:
            c.state.update(done=False, mp=None, used={}, reroll=False)
        counts = {s: sum(1 for c in enc.combatants if c.side == s and c.in_fight) for s in enc.sides()}
        counts = {s: n for s, n in counts.items() if n}
        sides, events = self._order_sides(enc, counts, dice)
        enc.state.update(sides=sides, priority=None, slot=0)
        pools = [self._pool(enc, s) for s in sides]
        enc.order = [c.name for group in zip_longest(*pools) for c in group if c is not None]
        summary = ", ".join(f"{s} {counts[s]}" for s in sides) or "none"
        lead = sides[0] if sides else "nobody"
        events.append(
            Event(
                kind="round",
                after=enc.round,
                note=f"{lead} have the initiative (minis in the battle: {summary}); "
                f"sides take turns activating one mini at a time",
            )
        )
        return events + self._pass_priority(enc, None)

    def _pass_priority(self, enc: Encounter, after: str | None) -> list[Event]:
        """Give priority to the next side (after ``after``) that has a mini left to activate."""
        rotation = self._rotation(enc)
        start = rotation.index(after) + 1 if after in rotation else 0
        events: list[Event] = []
        for i in range(len(rotation)):
            side = rotation[(start + i) % len(rotation)]
            pool = self._pool(enc, side)
            if pool:
                enc.state["priority"] = side
                enc.state["slot"] = int(enc.state.get("slot", 0)) + 1
                names = ", ".join(c.name for c in pool)
                return events + [Event(kind="turn", note=f"**{side}** to activate a mini: {names}")]
            if side in self._standing_sides(enc) and side != after:
                events.append(Event(kind="note", note=f"{side} have no minis left to activate and pass."))
        enc.state["priority"] = None
        return events

    def _advance(self, enc: Encounter, after: str | None, dice: Dice) -> list[Event]:
        """Pass priority on; when nobody has a mini left, the round is over and the next begins."""
        events = self._pass_priority(enc, after)
        if enc.state.get("priority") is None:
            events.append(Event(kind="note", note=f"Every mini has activated: round {enc.round} is over."))
            events += self._new_round(enc, dice)
        return events

    def _activate(self, enc: Encounter, c: Combatant) -> list[Event]:
        """Make ``c`` the activating mini (its first action this activation), or refuse."""
        self.need_started(enc)
        if enc.current == c.name:
            return []
        if c.status == "out":
            raise IllegalAction(f"{c.name} is out of action and takes no further part in the battle.")
        if enc.current:
            raise NotYourTurn(
                f"{enc.current} is activating now: its activation ends with `/init next` before "
                f"{c.name} can act."
            )
        side = enc.state.get("priority")
        if side is None:
            raise NotYourTurn(f"Round {enc.round} is over: `/init next` starts round {enc.round + 1}.")
        waiting = ", ".join(x.name for x in self._pool(enc, side))
        if c.state.get("done"):
            raise NotYourTurn(
                f"{c.name} has already activated in round {enc.round}: each mini activates once a "
                f"round. Still to activate for {side}: {waiting or 'none'}."
            )
        if c.side != side:
            raise NotYourTurn(
                f"Priority is with {side}, who activate one of {waiting}; {c.name} waits until "
                f"priority passes to {c.side}."
            )
        if c.position is None:
            raise IllegalAction(
                f"{c.name} is not on the board: the GM deploys it with `/combatant edit name:{c.name} at:CELL`."
            )
        enc.current = c.name
        mp = 0 if c.status == "downed" else self.movement(enc, c)
        c.state.update(done=True, mp=mp)
        if c.status == "downed":
            note = (
                f"{c.name} activates while downed: ONE action (crawl one square, attack at −2, "
                f"or `/act action:recover`)"
            )
        else:
            note = f"{c.name} activates with {mp} MP"
        return [Event(kind="note", actor=c.name, note=note)]

    def _end_activation(self, enc: Encounter) -> list[Event]:
        c = enc.get(enc.current)
        left = self._mp(c)
        c.state["mp"] = None
        enc.current = None
        unused = f" ({left} MP unused)" if left and c.status == "active" else ""
        return [Event(kind="note", actor=c.name, note=f"{c.name}'s activation ends{unused}.")]

    def _finish(self, enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
        """End a downed mini's activation after its one action (unless the fight is won)."""
        if len(self._standing_sides(enc)) < 2 or enc.current != c.name:
            return []
        return self._end_activation(enc) + self._advance(enc, c.side, dice)

    def turn(self, enc: Encounter) -> Turn:
        if not enc.started or enc.winner:
            return Turn()
        key = (enc.round, int(enc.state.get("slot", 0)))
        cur = enc.find(enc.current)
        if cur is not None:
            mp = self._mp(cur)
            doing = (
                "one action (downed)" if cur.status == "downed" else f"{mp}/{self.movement(enc, cur)} MP left"
            )
            return Turn(
                (cur.name,),
                key,
                f"Round {enc.round} · {cur.name} ({cur.side}) activating: {doing}",
                cur.name,
                cur.side,
            )
        side = enc.state.get("priority")
        pool = self._pool(enc, side) if side else []
        if not pool:
            return Turn(
                (),
                (enc.round, "over"),
                f"Round {enc.round} is over: `/init next` starts round {enc.round + 1}",
            )
        names = tuple(c.name for c in pool)
        return Turn(names, key, f"Round {enc.round} · {side} to activate: {', '.join(names)}", None, side)

    # -- initiative commands ------------------------------------------------------------------------------
    def roll_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        if action.actor:
            raise IllegalAction(
                f"{self.title} has no initiative for a single mini: `/init roll` without a combatant "
                f"starts the fight, and the side with the most minis activates first."
            )
        if enc.started:
            raise IllegalAction(
                f"The fight is under way (round {enc.round}): initiative is worked out afresh at the "
                f"start of each round. `/init next` ends the activation under way."
            )
        if len([s for s in enc.sides() if any(c.in_fight for c in enc.combatants if c.side == s)]) < 2:
            raise IllegalAction("A fight needs minis on at least two sides: add some with `/combatant add`.")
        return self._new_round(enc, dice)

    def set_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        raise IllegalAction(
            f"{self.title} has no initiative numbers: each round the side with the most minis "
            f"activates first. The GM can set the order of sides with `/init order` before the "
            f"round's first activation."
        )

    def reorder_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        """GM: set this round's order of sides (side names, or minis standing for their side)."""
        self.need_started(enc)
        if enc.current or any(c.state.get("done") for c in enc.combatants):
            raise IllegalAction(
                "The order of sides can only change before the round's first activation: "
                "it is worked out afresh at the start of the next round."
            )
        rotation = self._rotation(enc)
        wanted: list[str] = []
        for raw in (x.strip() for x in (action.name or "").split(",")):
            if not raw:
                continue
            mini = enc.find(raw)
            side = mini.side if mini else next((s for s in rotation if s.casefold() == raw.casefold()), None)
            if side is None:
                raise NotFound(f"`{raw}` is neither a side nor a mini here. Sides: {', '.join(rotation)}.")
            if side not in wanted:
                wanted.append(side)
        if not wanted:
            raise InputError(f"Give the sides in the order they act, comma separated: {', '.join(rotation)}.")
        enc.state["sides"] = wanted + [s for s in rotation if s not in wanted]
        events = [Event(kind="note", note=f"Order of sides this round: {' → '.join(enc.state['sides'])}.")]
        return events + self._pass_priority(enc, None)

    def next_turn(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        self.need_started(enc)
        events: list[Event] = []
        if enc.current is None:
            side = enc.state.get("priority")
            if side is None or not self._pool(enc, side):  # round over (or priority owed after a removal)
                return self._advance(enc, side, dice)
            if not action.actor:
                raise NotYourTurn(
                    f"{side} must activate a mini before priority passes (a side cannot pass while it "
                    f"has minis to activate): act with one, or `/init next combatant:NAME` to activate "
                    f"it and do nothing."
                )
            events += self._activate(enc, enc.get(action.actor))
        side = enc.get(enc.current).side
        return events + self._end_activation(enc) + self._advance(enc, side, dice)

    def on_removed(self, enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
        if not enc.started or enc.winner:
            return []
        side = enc.state.get("priority")
        if self._mp(c) is not None or (enc.current is None and side and not self._pool(enc, side)):
            return self._advance(enc, c.side if self._mp(c) is not None else side, dice)
        return []

    # -- geometry helpers ------------------------------------------------------------------------------------
    @staticmethod
    def _open(grid: Grid, occupied: set[Cell], cell: Cell | None) -> bool:
        return cell is not None and cell not in grid.blocked and cell not in occupied

    def _step(
        self, enc: Encounter, grid: Grid, occupied: set[Cell], here: Cell, d: str
    ) -> tuple[Cell | None, str]:
        """The square one legal step from ``here`` towards ``d``, or None and why not."""
        nxt = grid.step(here, d)
        if not self._open(grid, occupied, nxt):
            return None, self._why_closed(enc, grid, nxt)
        if len(d) == 2 and not any(self._open(grid, occupied, grid.step(here, s)) for s in d):
            return None, "it squeezes between two blocked squares"
        return nxt, ""

    def _why_closed(self, enc: Encounter, grid: Grid, cell: Cell | None) -> str:
        if cell is None:
            return "off the map"
        if cell in grid.blocked:
            return f"{cell.name} is a wall or obstacle"
        other = enc.at(cell)
        return f"{cell.name} is taken by {other.name if other else 'a mini'}"

    def _multiplier(self, enc: Encounter, grid: Grid, c: Combatant, cell: Cell) -> tuple[int, list[str]]:
        """The doubling of MP costs for ``c`` standing on ``cell``, and the enemies causing it."""
        rules = self._rules(enc)
        downed_count = self._option(enc, "downed_adjacent")
        near = [
            o.name
            for o in enc.enemies_of(c)
            if o.on_board
            and (downed_count or o.status == "active")
            and grid.adjacent(cell, _at(o), diagonal=rules.diagonal)
        ]
        if rules.double_each:
            return 2 ** len(near), near
        return (2 if near else 1), near

    def _cost(self, enc: Encounter, grid: Grid, c: Combatant, base: int) -> tuple[int, str]:
        """An MP cost paid where ``c`` stands, with the doubling explained."""
        mult, near = self._multiplier(enc, grid, c, _at(c))
        why = f" ({base} MP ×{mult}: next to {', '.join(near)})" if mult > 1 and base else ""
        return base * mult, why

    def _spend(self, c: Combatant, cost: int, what: str, why: str = "") -> int:
        left = self._mp(c) or 0
        if cost > left:
            raise IllegalAction(
                f"{c.name} needs {cost} MP to {what}{why} but has {left} left: do something cheaper "
                f"or end the activation with `/init next`."
            )
        c.state["mp"] = left - cost
        return left - cost

    @staticmethod
    def _facing_after(grid: Grid, c: Combatant, last: str, wanted: str | None) -> str:
        """The facing after a move: as asked, else along the last step (a diagonal keeps a fitting facing)."""
        if wanted:
            return grid.parse_facing(wanted)
        if len(last) == 1:
            return last
        return c.facing if c.facing and c.facing in last else last[0]

    def _steps_from_path(
        self, enc: Encounter, grid: Grid, c: Combatant, text: str
    ) -> list[tuple[Cell, str, int]]:
        """Follow ``path`` exactly: ``[(cell, direction, cost)]``, refusing any illegal step."""
        rules = self._rules(enc)
        tokens = [t for t in re.split(r"[\s,]+", text.strip().upper()) if t]
        if not tokens or len(tokens) > MAX_PATH_STEPS:
            raise InputError(f"`path` takes 1 to {MAX_PATH_STEPS} steps like `N N E`.")
        steps: list[tuple[Cell, str, int]] = []
        here = _at(c)
        occupied = enc.occupied(exclude=c)
        for d in tokens:
            if d not in rules.directions:
                raise InputError(
                    f"`{d}` is not a step here: use {' '.join(rules.directions)}"
                    + ("" if rules.diagonal else " (no diagonal moves)")
                    + "."
                )
            nxt, why = self._step(enc, grid, occupied, here, d)
            if nxt is None:
                raise IllegalAction(
                    f"{c.name} cannot step {d} from {here.name}: {why} (no moving into or through "
                    f"minis or walls). Try `to:` to find a way round."
                )
            steps.append((nxt, d, self._multiplier(enc, grid, c, here)[0] * STEP_COST))
            here = nxt
        return steps

    def _steps_to(self, enc: Encounter, grid: Grid, c: Combatant, dest: Cell) -> list[tuple[Cell, str, int]]:
        """The cheapest legal way to ``dest`` (facing is free with every step, so cells suffice)."""
        rules = self._rules(enc)
        occupied = enc.occupied(exclude=c)
        mults: dict[Cell, int] = {}

        def successors(cell: Cell) -> Iterator[tuple[Cell, float, str]]:
            if cell not in mults:
                mults[cell] = self._multiplier(enc, grid, c, cell)[0]
            for d in rules.directions:
                nxt = self._step(enc, grid, occupied, cell, d)[0]
                if nxt is not None:
                    yield nxt, mults[cell] * STEP_COST, d

        def heuristic(cell: Cell) -> int:
            return grid.distance(cell, dest, diagonal=rules.diagonal) * STEP_COST

        left = self._mp(c) or 0
        walled = grid.region(_at(c)) != grid.region(dest)
        # within the MP left; past them, within twice as many, to say what the move would cost
        found = None if walled else (
            cheapest_path(_at(c), lambda s: s == dest, successors, budget=left, heuristic=heuristic)
            or cheapest_path(_at(c), lambda s: s == dest, successors, budget=2 * left, heuristic=heuristic)
        )
        if found is None:
            raise IllegalAction(
                f"There is no way from {c.position} to {dest.name} for {c.name}: minis and walls "
                f"block every path."
                if walled
                else f"{c.name} cannot reach {dest.name} with the {left} MP left: minis and walls are in "
                f"the way, or it is too far. Pick a nearer square."
            )
        steps = found[1]
        out: list[tuple[Cell, str, int]] = []
        prev = _at(c)
        for cell, d in steps:
            out.append((cell, d, mults[prev] * STEP_COST))
            prev = cell
        return out

    # -- movement --------------------------------------------------------------------------------------------
    def move(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        grid = self.need_grid(enc)
        c = enc.get(action.actor)
        if not (action.to or action.path or action.facing):
            raise InputError(
                "Say where: `to:` a cell, `path:` steps like `N N E`, or `facing:` to turn in place."
            )
        if action.to and action.path:
            raise InputError("Give `to` or `path`, not both.")
        events = self._activate(enc, c)
        if c.status == "downed":
            return events + self._crawl(enc, grid, c, action, dice)
        dest = grid.parse(action.to) if action.to else _at(c)
        if dest != _at(c) and not self._open(grid, enc.occupied(exclude=c), dest):
            raise IllegalAction(
                f"{c.name} cannot end its move on {dest.name}: {self._why_closed(enc, grid, dest)}."
            )
        if action.path or dest != _at(c):
            steps = (
                self._steps_from_path(enc, grid, c, action.path)
                if action.path
                else self._steps_to(enc, grid, c, dest)
            )
            cost = sum(s[2] for s in steps)
            end = steps[-1][0]
            why = (
                f" (steps {'+'.join(str(s[2]) for s in steps)}: adjacent enemies double)"
                if cost > len(steps)
                else ""
            )
            left = self._spend(c, cost, f"move {c.position} → {end.name}", why)
            facing = self._facing_after(grid, c, steps[-1][1], action.facing)
            path = [c.position or "", *(s[0].name for s in steps)]
            c.position, c.facing = end.name, facing
            return events + [
                Event(
                    kind="move",
                    actor=c.name,
                    path=path,
                    cost=cost,
                    after=facing,
                    data={"left": left, "steps": [s[2] for s in steps]},
                )
            ]
        if not action.facing:
            raise IllegalAction(
                f"{c.name} is already at {c.position}: give another cell, or `facing:` to turn."
            )
        facing = grid.parse_facing(action.facing)
        if facing == c.facing:
            raise IllegalAction(f"{c.name} already faces {facing}: pick another facing.")
        cost, why = self._cost(enc, grid, c, TURN_COST)
        left = self._spend(c, cost, f"turn to face {facing}", why)
        c.facing = facing
        return events + [Event(kind="face", actor=c.name, after=facing, cost=cost, data={"left": left})]

    def _crawl(self, enc: Encounter, grid: Grid, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        """A downed mini's crawl: one square, its whole activation."""
        rules = self._rules(enc)
        if action.facing:
            raise InputError(
                f"{c.name} is downed and has no facing: leave `facing` out (it picks one on recovering)."
            )
        if action.path:
            steps = self._steps_from_path(enc, grid, c, action.path)
            dest = steps[0][0] if len(steps) == 1 else None
        else:
            dest = grid.parse(action.to or "")
            if not grid.adjacent(_at(c), dest, diagonal=rules.diagonal):
                dest = None
            elif not self._open(grid, enc.occupied(exclude=c), dest):
                raise IllegalAction(f"{c.name} cannot crawl there: {self._why_closed(enc, grid, dest)}.")
        if dest is None:
            where = "any direction" if rules.diagonal else "N, E, S or W"
            raise IllegalAction(f"{c.name} is downed and can only crawl one square ({where}).")
        path = [c.position or "", dest.name]
        c.position = dest.name
        event = Event(kind="move", actor=c.name, path=path, data={"crawl": True})
        return [event, *self._finish(enc, c, dice)]

    # -- attacks -----------------------------------------------------------------------------------------------
    def attack(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        return self._attack(enc, action, dice, special_cdg=False)

    def coup_de_grace(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        target = enc.get(self._need_target(action), "target")
        if target.status != "downed":
            raise IllegalAction(
                f"{target.name} is not downed: a coup-de-grace is an attack on a downed mini (0 HP). "
                f"Use `/attack` against a standing one."
            )
        return self._attack(enc, action, dice, special_cdg=self._rules(enc).cdg_action)

    @staticmethod
    def _need_target(action: Action) -> str:
        if not action.target:
            raise InputError("Say who to attack: `target:NAME`.")
        return action.target

    def _pick_weapon(self, enc: Encounter, c: Combatant, asked: str | None) -> Weapon:
        catalogue = self._catalogue(enc)
        held: list[str] = list(c.sheet.get("weapons") or [])
        used: dict[str, int] = c.state.get("used") or {}
        ready = [
            w
            for w in dict.fromkeys(held)
            if catalogue.get(w, Weapon(w)).attacks and used.get(w, 0) < held.count(w)
        ]
        if asked:
            name = {normalise_weapon(w): w for w in held}.get(normalise_weapon(asked))
            if name is None:
                raise NotFound(
                    f"{c.name} holds no {asked}: {c.name}'s weapons are {', '.join(held) or 'none'}."
                )
            weapon = self._weapon(enc, name)
            if not weapon.attacks:
                raise IllegalAction(
                    f"A {name} cannot attack (it only defends). Ready: {', '.join(ready) or 'none'}."
                )
            if name not in ready:
                raise IllegalAction(
                    f"{c.name} has already attacked with the {name} this round: each weapon attacks once "
                    f"a round. Ready: {', '.join(ready) or 'none'}."
                )
            return weapon
        if len(ready) == 1:
            return self._weapon(enc, ready[0])
        if not ready:
            raise IllegalAction(
                f"{c.name} has no weapon ready to attack with this round (weapons: {', '.join(held) or 'none'}): "
                f"end the activation with `/init next`."
            )
        raise InputError(f"Say which weapon {c.name} attacks with: `weapon:` {', '.join(ready)}.")

    @staticmethod
    def _mode(weapon: Weapon, options: dict[str, str]) -> str | None:
        """``melee``/``ranged`` as the options ask (None: decide by the target's place)."""
        unknown = [k for k in options if k not in ATTACK_OPTIONS]
        if unknown:
            raise InputError(
                f"Unknown option `{unknown[0]}`: attacks read `melee` or `ranged` (also `throw`)."
            )
        modes = {ATTACK_OPTIONS[k] for k in options}
        if len(modes) > 1:
            raise InputError("Give `melee` or `ranged`, not both.")
        mode = modes.pop() if modes else None
        if mode == "melee" and not weapon.melee or mode == "ranged" and not weapon.ranged:
            raise InputError(f"A {weapon.name} is not a {mode} weapon.")
        if mode is None and weapon.melee != weapon.ranged:
            mode = "melee" if weapon.melee else "ranged"
        return mode

    def _reach_cells(self, enc: Encounter, grid: Grid, c: Combatant, weapon: Weapon) -> list[Cell]:
        """Squares a standing mini's melee weapon reaches: straight ahead, not through walls."""
        reach = weapon.reach or self._option(enc, "reach")
        cells: list[Cell] = []
        here = _at(c)
        for _ in range(reach):
            ahead = grid.step(here, _facing(c))
            if ahead is None or ahead in grid.blocked:
                break
            cells.append(ahead)
            here = ahead
        return cells

    def _check_melee(self, enc: Encounter, grid: Grid, c: Combatant, t: Combatant, weapon: Weapon) -> None:
        if c.status == "downed":
            if not grid.adjacent(_at(c), _at(t)):
                raise IllegalAction(
                    f"{c.name} is downed: its melee attack needs an adjacent target (N, E, S or W)."
                )
            return
        if _at(t) in self._reach_cells(enc, grid, c, weapon):
            return
        side = grid.direction(_at(c), _at(t))
        if side is not None and len(side) == 1:
            raise IllegalAction(
                f"{t.name} is next to {c.name} but not in {c.name}'s front facing square ({c.name} faces "
                f"{c.facing}): turn with `/move facing:{side}` first."
            )
        reach = weapon.reach or self._option(enc, "reach")
        more = f" (the {weapon.name} reaches {reach} squares straight ahead)" if reach > 1 else ""
        raise IllegalAction(
            f"{c.name} is not adjacent to {t.name}: melee needs an adjacent target in the front facing{more}."
        )

    def _check_ranged(
        self, enc: Encounter, grid: Grid, c: Combatant, t: Combatant, weapon: Weapon
    ) -> tuple[int, int]:
        """Arc, range and sight; returns ``(range, increment)``."""
        if c.status != "downed" and not grid.in_arc(_at(c), _facing(c), _at(t)):
            raise IllegalAction(
                f"{t.name} is not in {c.name}'s front 90 degree arc (facing {c.facing}): turn towards "
                f"{grid.facing_towards(_at(c), _at(t))} first."
            )
        distance = grid.distance(_at(c), _at(t), diagonal=self._rules(enc).diagonal)
        increment = weapon.increment or self._option(enc, "range_increment")
        longest = increment * self._option(enc, "max_increments")
        if distance > longest:
            raise IllegalAction(
                f"{t.name} is {distance} squares away: the {weapon.name} reaches {longest} at most."
            )
        blockers = enc.occupied(exclude=c) - {_at(t)}
        if not grid.line_of_sight(_at(c), _at(t), blockers):
            raise IllegalAction(
                f"{c.name} has no line of sight to {t.name}: a mini or an obstacle is in the way. Move to a clear line first."
            )
        return distance, increment

    @staticmethod
    def _faces(grid: Grid, o: Combatant, cell: Cell | None) -> bool:
        return bool(o.facing and o.cell and grid.front(o.cell, o.facing) == cell)

    def _melee_modifiers(
        self, enc: Encounter, grid: Grid, c: Combatant, t: Combatant
    ) -> tuple[list[Modifier], bool]:
        """Co-ordinated attack, backstab, distraction, coup-de-grace bonus; and whether it is a backstab."""

        def standing(group: Iterable[Combatant]) -> list[Combatant]:
            return [o for o in group if o.on_board and o.status == "active"]

        helpers = [
            a.name
            for a in standing(enc.allies_of(c))
            if grid.adjacent(_at(a), _at(t)) and self._faces(grid, a, _at(t))
        ]
        distractors = [
            o.name
            for o in standing(enc.enemies_of(c))
            if o is not t and grid.adjacent(_at(o), _at(c)) and self._faces(grid, o, _at(c))
        ]
        a, b = _at(c), _at(t)
        straight = a.col == b.col or a.row == b.row
        backstab = bool(t.facing and straight and grid.facing_towards(a, b) == t.facing)
        mods = []
        if helpers:
            mods.append(mod(f"co-ordinated attack ({', '.join(helpers)})", len(helpers)))
        if backstab:
            mods.append(mod("backstab", 1))
        if distractors:
            mods.append(mod(f"distraction ({', '.join(distractors)})", -len(distractors)))
        if t.status == "downed":
            mods.append(mod("melee coup-de-grace", 1))
        return mods, backstab

    def _ranged_modifiers(
        self, enc: Encounter, grid: Grid, c: Combatant, t: Combatant, distance: int, increment: int
    ) -> list[Modifier]:
        """Firing into melee and the range penalty (doubled against a downed target)."""
        mods = []
        near = [a.name for a in enc.allies_of(c) if a.on_board and grid.adjacent(_at(a), _at(t))]
        if near:
            mods.append(mod(f"firing into melee ({', '.join(near)})", -len(near)))
        penalty = distance // increment
        if penalty:
            doubled = t.status == "downed"
            name = f"range {distance} (increment {increment})" + (" ×2 vs downed" if doubled else "")
            mods.append(mod(name, -penalty * (2 if doubled else 1)))
        return mods

    def _defence(self, grid: Grid, c: Combatant, t: Combatant, melee: bool) -> list[Modifier]:
        """Shield and buckler bonuses against an attacker in the target's front arc."""
        if not t.facing or not grid.in_arc(_at(t), t.facing, _at(c)):
            return []
        held = set(t.sheet.get("weapons") or [])
        out = [mod("shield (Block)", 1)] if "shield" in held else []
        if "buckler" in held and melee:
            out.append(mod("buckler", 2))
        return out

    def _fighters(self, enc: Encounter, action: Action) -> tuple[Combatant, Combatant]:
        """The attacker and a target it may attack at all."""
        c = enc.get(action.actor)
        t = enc.get(self._need_target(action), "target")
        if t is c:
            raise IllegalAction(f"{c.name} cannot attack itself.")
        if t.side == c.side:
            raise IllegalAction(f"{t.name} is on {c.name}'s side: you can never attack your own minis.")
        if t.status == "out":
            raise IllegalAction(f"{t.name} is already out of action.")
        if not t.on_board:
            raise IllegalAction(f"{t.name} is not on the board.")
        return c, t

    def _aim(
        self, enc: Encounter, grid: Grid, c: Combatant, t: Combatant, weapon: Weapon, options: dict[str, str]
    ) -> tuple[str, list[Modifier], bool, int]:
        """Check the attack is legal; return its mode, modifiers, whether it is a backstab, and the range."""
        mode = self._mode(weapon, options)
        if mode is None:  # a versatile weapon: melee when the target is in reach
            in_reach = (
                grid.adjacent(_at(c), _at(t))
                if c.status == "downed"
                else _at(t) in self._reach_cells(enc, grid, c, weapon)
            )
            mode = "melee" if in_reach else "ranged"
        backstab = False
        if mode == "melee":
            self._check_melee(enc, grid, c, t, weapon)
            distance = grid.distance(_at(c), _at(t), diagonal=self._rules(enc).diagonal)
            mods, backstab = self._melee_modifiers(enc, grid, c, t)
        else:
            distance, increment = self._check_ranged(enc, grid, c, t, weapon)
            mods = self._ranged_modifiers(enc, grid, c, t, distance, increment)
        if c.status == "downed":
            mods.append(mod("downed", DOWNED_PENALTY))
        return mode, mods, backstab, distance

    def _roll(
        self, dice: Dice, c: Combatant, weapon: Weapon, mods: list[Modifier], dv: int
    ) -> tuple[int, list[int], str | None]:
        """The d6 with the crossbow's reroll and the curved sword's +1 (added to ``mods``)."""
        natural = dice.die(6)
        rolled, note = [natural], None
        if (
            weapon.name == "crossbow"
            and natural == 2
            and not c.state.get("reroll")
            and natural + sum(m.value for m in mods) < dv
        ):
            c.state["reroll"] = True
            natural = dice.die(6)
            rolled.append(natural)
            note = "crossbow Accuracy: the missing 2 is rerolled, once a round"
        if weapon.name == "curved sword" and natural <= 3:
            mods.append(mod("curved sword (natural 1-3)", 1))
        return natural, rolled, note

    def _attack(self, enc: Encounter, action: Action, dice: Dice, special_cdg: bool) -> list[Event]:
        """An attack; ``special_cdg`` is the draft's own coup-de-grace action (2 MP, melee only)."""
        grid = self.need_grid(enc)
        self.need_started(enc)
        c, t = self._fighters(enc, action)
        events = self._activate(enc, c)
        if self._rules(enc).cdg_action and t.status == "downed" and not special_cdg:
            raise IllegalAction(
                f"{t.name} is downed: in the {DRAFT_VARIANT} rules finishing it is a coup-de-grace: "
                f"use `/coupdegrace` (2 MP, doubled to 4, melee only)."
            )
        if special_cdg and c.status == "downed":
            raise IllegalAction(f"{c.name} is downed: a coup-de-grace is not among a downed mini's actions.")
        weapon = self._pick_weapon(enc, c, action.weapon)
        mode, mods, backstab, distance = self._aim(enc, grid, c, t, weapon, action.options)
        if special_cdg and mode != "melee":
            raise IllegalAction("Ranged weapons cannot make a coup-de-grace: use a melee weapon.")
        base_cost = (
            DRAFT_CDG_COST
            if special_cdg
            else (RANGED_COST if mode == "ranged" and c.status == "active" else 0)
        )
        cost, why = self._cost(enc, grid, c, base_cost)
        left = self._spend(c, cost, "make a coup-de-grace" if special_cdg else "shoot", why)
        defence = self._defence(grid, c, t, mode == "melee")
        dv = self.defence(t) + sum(m.value for m in defence)
        with dice.rolling_for(c.name):
            natural, rolled, note = self._roll(dice, c, weapon, mods, dv)
        total = natural + sum(m.value for m in mods)
        hit = total >= dv
        used = c.state.setdefault("used", {})
        used[weapon.name] = used.get(weapon.name, 0) + 1
        events.append(
            Event(
                kind="attack",
                actor=c.name,
                target=t.name,
                weapon=weapon.name,
                dice=rolled,
                dice_label="d6",
                kept=natural if len(rolled) > 1 else None,
                modifiers=mods,
                total=total,
                against=dv,
                against_label="DV",
                success=hit,
                note=note,
                data={
                    "mode": mode,
                    "range": distance,
                    "dv": self.defence(t),
                    "cost": cost,
                    "left": left,
                    "defence": [[m.name, m.value] for m in defence],
                    "coup_de_grace": t.status == "downed",
                },
            )
        )
        if hit:
            events += self._on_hit(enc, grid, c, t, weapon, natural, backstab)
        elif weapon.name == "fencing sword" and c.status == "active":
            c.state["mp"] = left + 2
            events.append(
                Event(
                    kind="note",
                    actor=c.name,
                    note=f"fencing sword Finesse: the miss gives {c.name} +2 MP ({left + 2} left)",
                )
            )
        if c.status == "downed":
            events += self._finish(enc, c, dice)
        return events

    def _on_hit(
        self,
        enc: Encounter,
        grid: Grid,
        c: Combatant,
        t: Combatant,
        weapon: Weapon,
        natural: int,
        backstab: bool,
    ) -> list[Event]:
        """Damage (with each weapon's bonus), status changes and pushes."""
        bonuses: list[str] = []
        if weapon.name == "axe" and natural == 6:
            bonuses.append("axe Dolorous Blow (natural 6)")
        if weapon.name == "assassin's knife" and backstab:
            bonuses.append("assassin's knife Spine Stab (backstab)")
        if weapon.name == "glaive" and natural in (3, 4):
            bonuses.append("glaive Cut Down (natural 3-4)")
        push_to: Cell | None = None
        blocked = ""
        if weapon.name in ("hammer", "pistol"):
            away = grid.facing_towards(_at(c), _at(t))
            square = grid.step(_at(t), away)
            if self._open(grid, enc.occupied(exclude=t), square):
                push_to = square
            else:
                blocked = self._why_closed(enc, grid, square)
                if weapon.name == "hammer":
                    bonuses.append(f"hammer Bash Back ({blocked})")
        amount = 1 + len(bonuses)
        note = " ".join(["1", *(f"+1 {b}" for b in bonuses)]) if bonuses else None
        events = self._damage(enc, t, amount, note)
        if weapon.name == "pistol" and push_to is None and t.on_board:
            events.append(Event(kind="note", note=f"pistol Blastback cancelled: {blocked}"))
        if push_to is not None and t.on_board:
            events.append(
                Event(
                    kind="push",
                    actor=c.name,
                    target=t.name,
                    weapon=weapon.name,
                    path=[t.position or "", push_to.name],
                )
            )
            t.position = push_to.name
        return events

    def _damage(self, enc: Encounter, t: Combatant, amount: int, note: str | None) -> list[Event]:
        before = t.hp or 0
        event = Event(
            kind="damage", target=t.name, amount=amount, before=before, after=before - amount, note=note
        )
        return [event, *self._set_hp(enc, t, before - amount)]

    def _set_hp(self, enc: Encounter, c: Combatant, hp: int, facing: str | None = None) -> list[Event]:
        """Set HP and the status it means: 0 downed, -1 or less out of action."""
        c.hp = hp
        if hp <= -1 and c.status != "out":
            c.status, c.position, c.facing = "out", None, None
            enc.order = [n for n in enc.order if n != c.name]
            return [
                Event(kind="status", actor=c.name, after="out", note="out of action, removed from the board")
            ]
        if hp == 0 and c.status == "active":
            c.state["last_facing"] = c.facing
            c.status, c.facing = "downed", None
            return [Event(kind="status", actor=c.name, after="downed", note="0 HP: lies down, no facing")]
        if hp > 0 and c.status == "downed":
            c.status = "active"
            c.facing = facing or c.state.get("last_facing") or "N"
            return [Event(kind="status", actor=c.name, after="active", note=f"stands up facing {c.facing}")]
        return []

    # -- other actions ------------------------------------------------------------------------------------------
    def act(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        name = (action.name or "").strip().lower()
        if name not in self.act_actions:
            return super().act(enc, action, dice)
        grid = self.need_grid(enc)
        c = enc.get(action.actor)
        if c.status != "downed":
            raise IllegalAction(
                f"{c.name} is not downed: only a downed mini (0 HP) attempts a dramatic recovery."
            )
        facing = grid.parse_facing(action.facing) if action.facing else None
        need = self._option(enc, "recover_on")
        events = self._activate(enc, c)
        with dice.rolling_for(c.name):
            roll = dice.die(6)
        ok = roll >= need
        events.append(
            Event(
                kind="check",
                actor=c.name,
                dice=[roll],
                dice_label="d6",
                total=roll,
                against=need,
                against_label="dramatic recovery",
                success=ok,
                note="stands up with 1 HP" if ok else "nothing happens",
                data={"what": "attempts a dramatic recovery"},
            )
        )
        if ok:
            events += self._set_hp(enc, c, 1, facing)
        return events + self._finish(enc, c, dice)

    # -- presentation ---------------------------------------------------------------------------------------------
    def status_line(self, enc: Encounter, c: Combatant) -> str:
        bits = [f"**{c.name}**"]
        if c.position:
            bits.append(c.position + (f" {c.facing}" if c.facing else ""))
        elif c.status != "out":
            bits.append("not deployed")
        bits.append(
            f"{c.hp}/{c.state.get('hp_max', c.hp)} HP · DV {self.defence(c)} · MA {self.movement(enc, c)}"
        )
        mp = self._mp(c)
        if mp is not None:
            bits.append(f"▶ {mp} MP left")
        elif enc.started and c.state.get("done") and c.in_fight:
            bits.append("activated")
        if c.status != "active":
            bits.append(c.status)
        used = c.state.get("used") or {}
        weapons = ", ".join(w + (" (used)" if used.get(w) else "") for w in (c.sheet.get("weapons") or []))
        bits.append(weapons or "no weapons")
        if c.sheet.get("race"):
            bits.append(str(c.sheet["race"]))
        return " · ".join(bits)

    def board_extra(self, enc: Encounter) -> list[str]:
        if not enc.started or enc.winner:
            return []
        return [f"Order of sides this round: {' → '.join(self._rotation(enc))}"]

    def describe(self, event: Event) -> str | None:
        e, data = event, event.data
        if e.kind == "attack":
            verb = "shoots at" if data.get("mode") == "ranged" else "attacks"
            roll = describe_check(e.model_copy(update={"against": None, "success": None, "note": None}))
            guard = "".join(f" {signed(v)} {n}" for n, v in data.get("defence", []))
            dv = f"DV {data.get('dv', e.against)}{guard}" + (f" = **{e.against}**" if guard else "")
            cost = f" · {e.data['cost']} MP, {e.data['left']} left" if data.get("cost") else ""
            extra = f" ({e.note})" if e.note else ""
            return (
                f"**{e.actor}** {verb} **{e.target}** with {e.weapon}: {roll} vs {dv}: "
                f"**{'hit' if e.success else 'miss'}**{extra}{cost}"
            )
        if e.kind == "move":
            path = " → ".join(e.path or [])
            if data.get("crawl"):
                return f"**{e.actor}** crawls {path} (its one action while downed)"
            steps = data.get("steps") or []
            detail = f" ({'+'.join(map(str, steps))})" if any(s > STEP_COST for s in steps) else ""
            return (
                f"**{e.actor}** moves {path} for {e.cost:g} MP{detail}, facing {e.after} · "
                f"{data.get('left')} MP left"
            )
        if e.kind == "face":
            return f"**{e.actor}** turns to face {e.after} for {e.cost:g} MP · {data.get('left')} MP left"
        if e.kind == "push":
            path = " → ".join(e.path or [])
            return f"**{e.target}** is pushed back {path} ({e.weapon})"
        return None
