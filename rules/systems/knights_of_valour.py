"""Knights of Valour: Days of Thunder, combat on a square grid of 5 ft squares.

The rules are shared/rules/knights-of-valour.txt with the defaults of shared/rules/README.md
(SRD 5.1 weapons and armour). Where the text is silent, the choice is written here and every
choice the GM may want to change is an encounter option (``options_help``).

Turns. Initiative is Agility (``/init set`` overrides it), highest first; on a tie player
characters act before monsters, then a delayed combatant after the others, then the order
the GM set with ``/init order`` (else the order they joined). A turn is one Move Action and
one Combat Action in either order. The Move Action may be spread over several ``/move``
commands until the Combat Action is taken (option ``split_move``). A combatant that has not
acted yet this round may lower its initiative for the round (``/act action:delay``). Downed
combatants are skipped; a combatant downed during its own turn ends it.

Map. Walls block moves and line of sight, and their corners cannot be cut diagonally.
Diagonal steps cost 5 ft. Entering a ``difficult`` or ``rough`` square costs 10 ft (movement
halved). ``heights`` are elevations in feet. Vault: an ``obstacle`` square whose top (its
height, default ``obstacle_height``) is at most the mover's height above it is crossed
straight on for 5 ft without stopping on it; a higher one must be climbed. Leap: ``gap``
squares are crossed in a straight line, 5 ft each, when their total width (5 ft a square) is
at most twice the mover's height; nobody stops in a gap. Climb: rising costs 2 ft per foot
on top of the step (half speed); a rise above the mover's height needs a square marked
``climb`` (or an obstacle). Descend: a drop up to the mover's height is free, a deeper one
costs 2 ft per foot. Heights by size: short 4 ft, average 6 ft, tall 7 ft. Active enemies
block squares; allies and downed combatants may be passed but not stopped on.

Attacks of Opportunity. Before the mover leaves a square next to an active enemy for a square
more than 5 ft from it, that enemy makes a free melee attack (wielded melee weapon, else its
best one), once per enemy per turn. A mover dropped by it stops where it was.

Dice order for ``roll:``. An attack rolls its d20 (two with Advantage or Disadvantage), then on
a hit the weapon's damage dice. A move rolls, square by square and for each enemy it provokes
in initiative order, that attack's d20 and then its damage dice on a hit.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from rules.dice import Dice
from rules.errors import IllegalAction, InputError, NotAllowed, NotYourTurn, SheetError
from rules.events import LegacyEvent as Event, Modifier, mod
from rules.grid import Cell, Grid, cheapest_path
from rules.models import INITIATIVE_MAX, INITIATIVE_MIN, Combatant, Encounter
from rules.report import describe_check, signed
from rules.sheet import SheetKey, read_int, read_sheet
from rules.system import Action, RuleSystem, Turn, register

__all__ = [
    "ARMOUR",
    "HEIGHTS",
    "SHIELDS",
    "SIZES",
    "WEAPONS",
    "KnightsOfValour",
    "Weapon",
    "effective_range",
    "parse_weapon",
    "stature_modifier",
]

SQUARE_FT = 5
SIZES = ("short", "average", "tall")
HEIGHTS = {"short": 4, "average": 6, "tall": 7}
SHIELDS = {"none": 0, "small": 1, "large": 2}
#: the largest Defence Modifier an armour gives (a number on a sheet, or the `armors` option)
MAX_ARMOUR = 20
#: Defence Modifier = SRD 5.1 armour class - 10
ARMOUR = {
    "none": 0,
    "padded": 1,
    "leather": 1,
    "studded-leather": 2,
    "hide": 2,
    "chain-shirt": 3,
    "scale-mail": 4,
    "breastplate": 4,
    "ring-mail": 4,
    "half-plate": 5,
    "chain-mail": 6,
    "splint": 7,
    "plate": 8,
}
_ARMOUR_ALIASES = {"scale": "scale-mail", "studded": "studded-leather"}
DIFFICULT = ("difficult", "rough")
NARRATIVE = {
    "shove": "shove",
    "grapple": "grapple",
    "throw": "throw",
    "release": "release",
    "cast": "cast a spell",
    "search": "search",
    "use": "use an object",
}
_DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
_ATTACK_OPTIONS = {"adv": False, "dis": False, "throw": False, "atk": True, "def": True, "dmg": True}
_DICE_RE = re.compile(r"^(?:([1-9]\d?)d([1-9]\d{0,2})([+-]\d{1,2})?|(\d{1,2}))$")
_RANGE_RE = re.compile(r"^(\d{1,4})/(\d{1,4})$")


def _norm(text: str) -> str:
    """Catalogue look-up key: ``"Chain Mail"``, ``"chain_mail"`` and ``"chain-mail"`` are one."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


@dataclass(frozen=True)
class Weapon:
    """A weapon type: damage dice, whether it strikes in melee, and its ranges in feet."""

    name: str
    damage: str
    melee: bool = True
    close: int | None = None
    far: int | None = None

    @property
    def ranged(self) -> bool:
        return self.far is not None


def parse_weapon(name: str, spec: str) -> Weapon:
    """Read ``"1d8 melee"``, ``"1d8 150/600"`` or ``"1d6 melee 20/60"`` (thrown) into a weapon."""
    damage: str | None = None
    melee, ranges = False, (0, 0)
    for token in spec.lower().split():
        if token == "melee":
            melee = True
        elif m := _RANGE_RE.match(token):
            ranges = (int(m.group(1)), int(m.group(2)))
        elif _DICE_RE.match(token) and damage is None:
            damage = token
        else:
            damage = None
            break
    close, far = ranges
    if damage is None or not (melee or far) or close > far:
        raise InputError(
            f"`{name}:{spec}` is not a weapon: write its damage dice, `melee` and/or "
            f"close/maximum range in feet, like `1d8 melee`, `1d8 150/600` or `1d6 melee 20/60`."
        )
    return Weapon(name, damage, melee, close if far else None, far or None)


_WEAPON_TABLE = """
club 1d4 melee; dagger 1d4 melee 20/60; greatclub 1d8 melee; handaxe 1d6 melee 20/60;
javelin 1d6 melee 30/120; light-hammer 1d4 melee 20/60; mace 1d6 melee; quarterstaff 1d6 melee;
sickle 1d4 melee; spear 1d6 melee 20/60; throwing-spear 1d6 melee 20/60; unarmed 1 melee;
light-crossbow 1d8 80/320; dart 1d4 20/60; shortbow 1d6 80/320; sling 1d4 30/120;
battleaxe 1d8 melee; flail 1d8 melee; glaive 1d10 melee; greataxe 1d12 melee;
greatsword 2d6 melee; halberd 1d10 melee; lance 1d12 melee; longsword 1d8 melee;
maul 2d6 melee; morningstar 1d8 melee; pike 1d10 melee; rapier 1d8 melee; scimitar 1d6 melee;
shortsword 1d6 melee; trident 1d6 melee 20/60; war-pick 1d8 melee; warhammer 1d8 melee;
whip 1d4 melee; blowgun 1 25/100; hand-crossbow 1d6 30/120; heavy-crossbow 1d10 100/400;
longbow 1d8 150/600
"""
#: SRD 5.1 weapons (one-handed damage; thrown weapons are melee weapons with a range)
WEAPONS: dict[str, Weapon] = {
    w.name: w
    for w in (
        parse_weapon(entry.split()[0], entry.split(None, 1)[1])
        for entry in (e.strip() for e in _WEAPON_TABLE.split(";"))
    )
}
_WEAPON_INDEX = {_norm(w.name): w for w in WEAPONS.values()}


def stature_modifier(attacker: str, defender: str) -> int:
    """The text's Relative-Size table: +1 per size step the defender is taller than the attacker."""
    return SIZES.index(defender) - SIZES.index(attacker)


def effective_range(weapon: Weapon, strength: int) -> tuple[int, int]:
    """Effective close and maximum range: weapon range + Strength x 5 ft, never below 0."""
    if not weapon.ranged:
        return (0, 0)
    bonus = strength * SQUARE_FT
    return (max(0, (weapon.close or 0) + bonus), max(0, (weapon.far or 0) + bonus))


class _Pos(NamedTuple):
    """A search state while moving: where, how (stand, vault, leap), and at what elevation."""

    cell: Cell
    mode: str = "stand"
    heading: str | None = None
    run: int = 0
    level: int = 0


class _Step(NamedTuple):
    pos: _Pos
    cost: int
    label: str


@dataclass(frozen=True)
class _Mover:
    name: str
    grid: Grid
    height: int
    blockers: frozenset[Cell]
    others: frozenset[Cell]
    obstacle: int

    def ground(self, cell: Cell) -> int:
        default = self.obstacle if self.grid.terrain.get(cell) == "obstacle" else 0
        return self.grid.heights.get(cell, default)

    def can_stop(self, pos: _Pos) -> bool:
        return pos.mode == "stand" and pos.cell not in self.others


def _ft(n: int) -> str:
    return f"{n} ft"


def _number(key: str, default: int, lo: int, hi: int) -> Callable[[KnightsOfValour, Encounter], int]:
    """The reader of a whole-number encounter option (for ``KnightsOfValour._OPTION_READERS``)."""
    return lambda system, enc: system._opt_int(enc, key, default, lo, hi)


def _choice(key: str, choices: tuple[str, ...]) -> Callable[[KnightsOfValour, Encounter], str]:
    """The reader of an encounter option that is one of ``choices`` (the first is the default)."""
    return lambda system, enc: system._opt_choice(enc, key, choices)


@register
class KnightsOfValour(RuleSystem):
    """Knights of Valour: Agility initiative, Move + Combat Action turns, d20 vs Defence Value."""

    key = "knights-of-valour"
    title = "Knights of Valour"
    map_kinds = ("square",)
    default_map = "12x10"
    act_actions = ("delay", "wield", "grant", *NARRATIVE)
    options_help: ClassVar[dict[str, str]] = {
        "delay": "`round` (default): a combatant may lower its initiative until its turn has begun; "
        "`start`: only before anyone has acted in the round",
        "split_move": "`no` (default): taking the Combat Action ends a Move Action under way; "
        "`yes`: the rest of the movement may follow the Combat Action",
        "victory": "`downed` (default): a side is beaten when all its combatants are downed or out; "
        "`out`: only when all are out of the fight",
        "aoo": "`yes` (default): leaving an engaged enemy provokes an Attack of Opportunity; `no`: never",
        "ranged_stature": "`yes` (default): the size table applies to ranged attacks too; `no`: melee only",
        "min_damage": "the least damage a hit does after Strength, default 0",
        "obstacle_height": "height in feet of an obstacle square with no height marked, default 3",
        **{f"height_{size}": f"height in feet of {size} combatants (default {HEIGHTS[size]})" for size in SIZES},
        "small_shield": "Defence Modifier of a small shield (default 1)",
        "large_shield": "Defence Modifier of a large shield (default 2)",
        "armors": "extra or changed armour, comma separated `name:Defence Modifier`, e.g. `elven-chain:5`",
        "weapons": "extra or changed weapons, comma separated `name:damage [melee] [close/maximum ft]`, "
        "e.g. `elven-blade:1d10 melee, rock:1d4 10/20, javelin:1d6 melee 30/120`",
    }

    # -- catalogue and options --------------------------------------------------------------
    def _opt_int(self, enc: Encounter, key: str, default: int, lo: int = 0, hi: int = 100) -> int:
        raw = enc.option(key)
        return default if raw is None else read_int(raw, key, lo, hi, hint="the GM fixes it in the encounter settings")

    @staticmethod
    def _opt_choice(enc: Encounter, key: str, choices: Sequence[str]) -> str:
        raw = (enc.option(key) or choices[0]).strip().lower()
        if raw not in choices:
            raise InputError(f"Encounter option `{key}={raw}` is not accepted: use {' or '.join(choices)}.")
        return raw

    @staticmethod
    def _custom(enc: Encounter | None, key: str) -> Iterator[tuple[str, str]]:
        """``(name, value)`` for each ``name:value`` of a comma separated encounter option."""
        for item in ((enc.option(key) if enc is not None else None) or "").split(","):
            name, sep, value = item.partition(":")
            name = "-".join(name.lower().split())
            if not item.strip():
                continue
            if not (sep and _norm(name) and value.strip()):
                raise InputError(
                    f"Encounter option `{key}`: `{item.strip()}` is not `name:value`; "
                    f"see `/encounter settings` for the form."
                )
            yield name, value.strip()

    def catalogue(self, enc: Encounter | None) -> dict[str, Weapon]:
        """Weapons by look-up key: the SRD table plus the encounter's ``weapons`` option."""
        table = dict(_WEAPON_INDEX)
        for name, spec in self._custom(enc, "weapons"):
            try:
                table[_norm(name)] = parse_weapon(name, spec)
            except InputError as exc:
                raise InputError(f"Encounter option `weapons`: {exc.message}") from None
        return table

    def armours(self, enc: Encounter | None) -> dict[str, tuple[str, int]]:
        """Armour by look-up key: (name, Defence Modifier), with the encounter's ``armors`` option."""
        table = {_norm(k): (k, v) for k, v in ARMOUR.items()}
        table.update({_norm(a): (k, ARMOUR[k]) for a, k in _ARMOUR_ALIASES.items()})
        for name, value in self._custom(enc, "armors"):
            table[_norm(name)] = (name, read_int(value, "armors", 0, MAX_ARMOUR, hint=f"in the entry `{name}:{value[:20]}`"))
        return table

    #: how the rules read each option of ``options_help`` (its default when unset)
    _OPTION_READERS: ClassVar[dict[str, Callable[[KnightsOfValour, Encounter], Any]]] = {
        "delay": _choice("delay", ("round", "start")),
        "split_move": _choice("split_move", ("no", "yes")),
        "victory": _choice("victory", ("downed", "out")),
        "aoo": _choice("aoo", ("yes", "no")),
        "ranged_stature": _choice("ranged_stature", ("yes", "no")),
        "min_damage": _number("min_damage", 0, 0, 100),
        "obstacle_height": _number("obstacle_height", 3, 0, 100),
        **{f"height_{size}": _number(f"height_{size}", HEIGHTS[size], 1, 60) for size in SIZES},
        "small_shield": _number("small_shield", SHIELDS["small"], 0, 20),
        "large_shield": _number("large_shield", SHIELDS["large"], 0, 20),
        "armors": lambda s, enc: s.armours(enc),
        "weapons": lambda s, enc: s.catalogue(enc),
    }

    def _option(self, enc: Encounter, key: str) -> Any:
        """Encounter option ``key`` as the rules use it; a value they cannot use raises InputError."""
        return self._OPTION_READERS[key](self, enc)

    def check_options(self, enc: Encounter) -> None:
        for key in self.options_help:
            self._option(enc, key)

    # -- sheets -------------------------------------------------------------------------------
    def _keys(self, enc: Encounter | None) -> tuple[SheetKey, ...]:
        weapons, armours = self.catalogue(enc), self.armours(enc)

        def read_armour(value: str) -> str | int:
            found = armours.get(_norm(value))
            if found is None and any(ch.isdigit() for ch in value):
                return read_int(value, "armor", 0, MAX_ARMOUR, SheetError, "or give an armour name")
            if found is None:
                known = ", ".join(dict.fromkeys(n for n, _ in armours.values()))
                raise SheetError(f"`armor={value}` is not accepted: use a number or one of {known}.")
            return found[0]

        def read_weapons(value: str) -> dict[str, int]:
            out: dict[str, int] = {}
            for item in (x.strip() for x in value.split(",") if x.strip()):
                name, _, level = item.partition(":")
                weapon = weapons.get(_norm(name))
                if weapon is None:
                    known = ", ".join(sorted(w.name for w in weapons.values()))
                    raise SheetError(f"`weapons`: `{name}` is not a known weapon. Known: {known}.")
                if not re.fullmatch(r"\d{1,2}", level.strip()) or int(level) > 10:
                    raise SheetError(
                        f"`weapons`: write each weapon as name:P.L. with a P.L. from 0 to 10, "
                        f"like `longsword:2,longbow:1`; `{item}` is not."
                    )
                out[weapon.name] = int(level)
            return out

        return (
            SheetKey("str", "Strength stat", "int", 0, minimum=-3, maximum=3),
            SheetKey("agi", "Agility stat, also the initiative", "int", 0, minimum=-3, maximum=3),
            SheetKey("size", "stature", "choice", "average", choices=SIZES),
            SheetKey("height", "height in feet for vault, leap, climb and descend (default by size)",
                     "int", minimum=1, maximum=60),
            SheetKey("hp", "hit points; editing it sets the current HP (0 or less: downed)", "int",
                     required=True, minimum=-99, maximum=999),
            SheetKey("armor", "armour name or Defence Modifier number", "custom", "none",
                     parse=read_armour),
            SheetKey("shield", "shield", "choice", "none", choices=tuple(SHIELDS)),
            SheetKey("weapons", "name:P.L. list, e.g. longsword:2,longbow:1", "custom",
                     parse=read_weapons),
            SheetKey("move", "Movement in feet", "int", 30, minimum=0, maximum=200),
            SheetKey("pc", "player character (wins initiative ties): yes/no, default yes when "
                     "owned by a non-GM", "bool"),
        )

    def sheet_keys(self, variant: str | None = None) -> Sequence[SheetKey]:
        return self._keys(None)

    def read_sheet(
        self, enc: Encounter, raw: dict[str, str], base: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        return read_sheet(raw, self._keys(enc), base)

    def sheet_summary(self, c: Combatant) -> str:
        def show(v: Any) -> str:
            if isinstance(v, dict):
                return ",".join(f"{k}:{n}" for k, n in v.items())
            return "yes" if v is True else "no" if v is False else str(v)

        return " ".join(f"{k}={show(v)}" for k, v in c.sheet.items())

    # -- combatant stats ----------------------------------------------------------------------
    @staticmethod
    def _stat(c: Combatant, key: str) -> int:
        return int(c.sheet.get(key, 0))

    @staticmethod
    def _size(c: Combatant) -> str:
        return str(c.sheet.get("size", "average"))

    def _height(self, enc: Encounter, c: Combatant) -> int:
        size = self._size(c)
        return int(c.sheet.get("height") or self._option(enc, f"height_{size}"))

    def _is_pc(self, enc: Encounter, c: Combatant) -> bool:
        pc = c.sheet.get("pc")
        if pc is None:
            return c.owner_id is not None and c.owner_id not in enc.gm_ids
        return bool(pc)

    def _armour(self, enc: Encounter, c: Combatant) -> tuple[str, int]:
        armour = c.sheet.get("armor", "none")
        if isinstance(armour, int):
            return ("armour", armour)
        return self.armours(enc).get(_norm(armour), (armour, 0))

    def _shield(self, enc: Encounter, c: Combatant) -> tuple[str, int]:
        shield = str(c.sheet.get("shield", "none"))
        if shield == "none":
            return (shield, 0)
        return (shield, self._option(enc, f"{shield}_shield"))

    @staticmethod
    def _levels(c: Combatant) -> dict[str, int]:
        return dict(c.sheet.get("weapons") or {})

    def _weapon(self, enc: Encounter, name: str) -> Weapon | None:
        return self.catalogue(enc).get(_norm(name))

    def _wielded(self, enc: Encounter, c: Combatant) -> Weapon | None:
        name = c.state.get("wield")
        return self._weapon(enc, name) if name else None

    def _best_melee(self, enc: Encounter, c: Combatant) -> Weapon | None:
        """The wielded weapon if it is a proficient melee weapon, else the highest-P.L. one."""
        wielded = self._wielded(enc, c)
        levels = self._levels(c)
        if wielded and wielded.melee and levels.get(wielded.name, 0) > 0:
            return wielded
        melee = [w for n, lv in levels.items() if lv > 0 and (w := self._weapon(enc, n)) and w.melee]
        return max(melee, key=lambda w: levels[w.name], default=None)

    def weapons_of(self, enc: Encounter, c: Combatant) -> list[str]:
        return [n for n, lv in self._levels(c).items() if lv > 0]

    # -- initiative -----------------------------------------------------------------------------
    def _base_init(self, c: Combatant) -> int:
        override = c.state.get("init_set")
        return int(override) if override is not None else self._stat(c, "agi")

    def _eff(self, c: Combatant) -> int:
        return c.initiative if c.initiative is not None else self._base_init(c)

    def _order_key(self, enc: Encounter) -> Callable[[Combatant], tuple[int, bool, bool, int]]:
        ties: list[str] = enc.state.get("ties", [])

        def key(c: Combatant) -> tuple[int, bool, bool, int]:
            tie = ties.index(c.name) if c.name in ties else len(ties)
            return (-self._eff(c), not self._is_pc(enc, c), bool(c.state.get("delayed")), tie)

        return key

    def _arrange(self, enc: Encounter) -> None:
        """Sort those who have not acted this round; those who have keep their places."""
        acted = [n for n in enc.state.get("acted", []) if (c := enc.find(n)) and c.in_fight]
        enc.state["acted"] = acted
        rest = sorted(
            (c for c in enc.combatants if c.in_fight and c.name not in acted), key=self._order_key(enc)
        )
        enc.order = acted + [c.name for c in rest]

    def _order_text(self, enc: Encounter) -> str:
        return ", ".join(f"{n} {self._eff(enc.get(n))}" for n in enc.order)

    def _init_event(self, c: Combatant, note: str) -> Event:
        return Event(kind="initiative", actor=c.name, after=c.initiative, note=note)

    def _agility_note(self, c: Combatant) -> str:
        return f"Agility {signed(self._stat(c, 'agi'))}"

    def roll_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        if action.actor:
            c = enc.get(action.actor)
            if not c.in_fight:
                raise IllegalAction(f"{c.name} is out of the fight: it takes no initiative.")
            c.state["init_set"] = None
            c.initiative = self._base_init(c)
            self._arrange(enc)
            return [self._init_event(c, self._agility_note(c))]
        if enc.started:
            raise IllegalAction(
                f"Combat is already under way (round {enc.round}): use `/init set` to change one "
                f"combatant's initiative, or `/init order` to order tied players."
            )
        fighters = [c for c in enc.combatants if c.in_fight]
        if not fighters:
            raise IllegalAction("There is nobody to fight yet: add combatants with `/combatant add` first.")
        for c in fighters:
            c.initiative = self._base_init(c)
            c.state["delayed"] = False
        enc.round = 1
        enc.state.update(acted=[], fresh=True)
        self._arrange(enc)
        events = [
            self._init_event(c, self._agility_note(c) if c.state.get("init_set") is None else "set by the GM")
            for c in map(enc.get, enc.order)
        ]
        events.append(Event(kind="round", after=1, note=self._round_note(enc)))
        return events + self._advance(enc)

    def _round_note(self, enc: Encounter) -> str:
        note = f"order {self._order_text(enc)}"
        groups: dict[int, list[str]] = {}
        for c in map(enc.get, enc.order):
            if self._is_pc(enc, c):
                groups.setdefault(self._eff(c), []).append(c.name)
        tied = [names for names in groups.values() if len(names) > 1]
        if tied:
            groups_text = "; ".join(", ".join(t) for t in tied)
            note += f"; tied players ({groups_text}) may ask the GM for another order with `/init order`"
        return note

    def set_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        c = enc.get(action.actor)
        if action.value is None:
            raise InputError("Give the new initiative in `value`, like `value:3`.")
        if not -20 <= action.value <= 40:
            raise InputError("An initiative is a whole number from -20 to 40.")
        c.state.update(init_set=action.value, delayed=False)
        c.initiative = action.value
        self._arrange(enc)
        note = f"set by the GM ({self._agility_note(c)})"
        if c.name in enc.state.get("acted", []):
            note += "; it has acted this round, so its place changes from the next round"
        return [self._init_event(c, note)]

    def _split_names(self, enc: Encounter, text: str) -> list[Combatant]:
        """Names separated by commas, or by spaces (longest matching name first)."""
        if "," in text:
            return [enc.get(n.strip()) for n in text.split(",") if n.strip()]
        words, out = text.split(), []
        while words:
            for n in range(len(words), 0, -1):
                c = enc.find(" ".join(words[:n]))
                if c is not None:
                    out.append(c)
                    words = words[n:]
                    break
            else:
                enc.get(words[0])  # no name starts here: raises NotFound listing the combatants
        return out

    def reorder_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        chosen = self._split_names(enc, action.name or "")
        if not chosen:
            return [Event(kind="note", note=f"Initiative order: {self._order_text(enc) or 'not set yet'}")]
        if not action.is_gm:
            raise NotAllowed("Only the GM sets the order of tied combatants: tell the GM the order you agreed.")
        if len(chosen) < 2 or len({c.name for c in chosen}) < len(chosen):
            raise InputError("Name two or more different tied combatants, in the order they should act.")
        out = [c.name for c in chosen if not c.in_fight]
        if out:
            raise IllegalAction(f"{', '.join(out)} is out of the fight: leave it out of the order.")
        if len({self._eff(c) for c in chosen}) > 1:
            shown = ", ".join(f"{c.name} {self._eff(c)}" for c in chosen)
            raise IllegalAction(
                f"Only tied combatants can be put in order ({shown}): change a number with `/init set`."
            )
        if len({self._is_pc(enc, c) for c in chosen}) > 1:
            raise IllegalAction(
                "Player characters always act before monsters on a tie: order the players and the "
                "monsters separately (or change a sheet's `pc`)."
            )
        ties: list[str] = enc.state.setdefault("ties", [])
        ties.extend(c.name for c in chosen if c.name not in ties)
        for slot, c in zip(sorted(ties.index(c.name) for c in chosen), chosen):
            ties[slot] = c.name
        self._arrange(enc)
        note = f"The GM orders the tie at {self._eff(chosen[0])}: {', then '.join(c.name for c in chosen)}"
        if any(c.name in enc.state.get("acted", []) for c in chosen):
            note += " (from the next round for those who have acted)"
        return [Event(kind="note", note=note + f". Order: {self._order_text(enc)}")]

    # -- turns ------------------------------------------------------------------------------------
    @staticmethod
    def _start_turn(c: Combatant) -> None:
        c.state.update(moves=1, combat=1, ft=0, used=False, provoked=[])

    def _advance(self, enc: Encounter) -> list[Event]:
        """Pass the turn to the next active combatant, starting a new round when needed."""
        enc.current = None
        if not any(c.status == "active" for c in enc.combatants):
            return []
        events: list[Event] = []
        for _ in range(2):
            acted: list[str] = enc.state.setdefault("acted", [])
            for name in enc.order:
                c = enc.find(name)
                if c is not None and c.status == "active" and name not in acted:
                    acted.append(name)
                    enc.current = name
                    self._start_turn(c)
                    left = f"Move Action ({_ft(self._movement(c))}) and Combat Action"
                    return events + [Event(kind="turn", actor=name, note=f"**{name}** to act: {left}")]
            events.append(self._new_round(enc))
        return events

    def _new_round(self, enc: Encounter) -> Event:
        enc.round += 1
        enc.state.update(acted=[], fresh=True)
        for c in enc.combatants:
            if c.in_fight:
                c.initiative = self._base_init(c)
                c.state["delayed"] = False
        self._arrange(enc)
        return Event(kind="round", after=enc.round, note=self._round_note(enc))

    def next_turn(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        self.need_started(enc)
        current = enc.find(enc.current)
        actor = enc.find(action.actor)
        if actor is not None and current is not None and actor is not current and not action.is_gm:
            raise NotYourTurn(f"It is {current.name}'s turn, not {actor.name}'s: only they or the GM can end it.")
        enc.state["fresh"] = False
        events = [Event(kind="note", note=f"**{current.name}** ends the turn")] if current else []
        return events + self._advance(enc)

    def turn(self, enc: Encounter) -> Turn:
        c = enc.find(enc.current)
        if not enc.started or enc.winner or c is None:
            return Turn()
        return Turn(
            actors=(c.name,),
            key=(enc.round, c.name),
            label=f"Round {enc.round} · {c.name} to act: {self._left_text(c)}",
            current=c.name,
            side=c.side,
        )

    def _acting(self, enc: Encounter, action: Action) -> Combatant:
        self.need_started(enc)
        c = enc.get(action.actor)
        if enc.current is None:
            raise NotYourTurn("Nobody is acting now: the GM moves the fight on with `/init next`.")
        if c.name != enc.current:
            raise NotYourTurn(f"It is {enc.current}'s turn, not {c.name}'s: wait for the bot to ping you.")
        return c

    def _spend(self, enc: Encounter, c: Combatant) -> None:
        c.state["used"] = True
        enc.state["fresh"] = False

    def _spend_combat(self, enc: Encounter, c: Combatant) -> None:
        if c.state.get("combat", 0) < 1:
            raise IllegalAction(
                f"{c.name} has used the Combat Action this turn: move if the Move Action is left, "
                f"or end the turn with `/init next`."
            )
        c.state["combat"] -= 1
        if self._option(enc, "split_move") == "no":
            c.state["ft"] = 0
        self._spend(enc, c)

    @staticmethod
    def _movement(c: Combatant) -> int:
        return int(c.sheet.get("move", 30))

    @staticmethod
    def _left_text(c: Combatant) -> str:
        st = c.state
        parts = []
        if st.get("ft", 0) > 0:
            parts.append(f"Move Action ({_ft(st['ft'])} left)")
        if st.get("moves", 0) > 0:
            parts.append("Move Action" + (f" ×{st['moves']}" if st["moves"] > 1 else ""))
        if st.get("combat", 0) > 0:
            parts.append("Combat Action" + (f" ×{st['combat']}" if st["combat"] > 1 else ""))
        return " and ".join(parts) + " left" if parts else "both actions used, `/init next` ends the turn"

    def _left_event(self, c: Combatant) -> Event:
        return Event(kind="note", actor=c.name, note=f"{c.name}: {self._left_text(c)}")

    # -- presentation --------------------------------------------------------------------------------
    def status_line(self, enc: Encounter, c: Combatant) -> str:
        bits = [f"**{c.name}**"]
        if c.position:
            bits.append(c.position)
        bits.append(f"{c.hp}/{c.sheet.get('hp')} HP")
        if c.initiative is not None:
            bits.append(f"init {c.initiative}" + (" (delayed)" if c.state.get("delayed") else ""))
        if c.state.get("wield"):
            bits.append(c.state["wield"])
        if c.status != "active":
            bits.append(c.status)
        elif enc.started and not enc.winner:
            if c.name == enc.current:
                bits.append("▶ " + self._left_text(c))
            elif c.name in enc.state.get("acted", []):
                bits.append("turn over")
            else:
                bits.append("Move and Combat Action to come")
        return " · ".join(bits)

    def board_extra(self, enc: Encounter) -> list[str]:
        return [f"Order: {self._order_text(enc)}"] if enc.started and enc.order and not enc.winner else []

    def describe(self, event: Event) -> str | None:
        if event.kind == "attack" and event.data.get("mode"):
            return self._describe_attack(event)
        if event.kind == "damage":
            bare = event.model_copy(update={"note": None, "total": None})
            extra = f": {event.note}" if event.note else ""
            return (
                f"**{event.target}** takes {describe_check(bare)} = **{event.amount}** damage "
                f"({event.before} → {event.after} HP){extra}"
            )
        return None

    @staticmethod
    def _describe_attack(e: Event) -> str:
        head = f"**{e.actor}** attacks **{e.target}** with {e.weapon} ({e.data['mode']}"
        head += f", {_ft(e.data['range'])})" if e.data.get("range") else ")"
        if e.data.get("tag"):
            head = f"{e.data['tag']}: {head}"
        if not e.dice:
            return f"{head}: {e.note}"
        label = e.dice_label or "d20"
        if e.data.get("why"):
            label += ": " + "; ".join(e.data["why"])
        bare = {"dice_label": label, "against": None, "success": None, "note": None}
        roll = describe_check(e.model_copy(update=bare))
        defence = " ".join(f"{signed(v)} {n}" if i else f"{v} {n}" for i, (n, v) in enumerate(e.data["defence"]))
        result = "**hit**" if e.success else "**miss**"
        return f"{head}: {roll} vs defence **{e.against}** ({defence}): {result}"

    # -- add, edit, remove ------------------------------------------------------------------------
    def setup_combatant(self, enc: Encounter, c: Combatant, new: bool) -> list[Event]:
        levels = self._levels(c)
        if new:
            c.hp = int(c.sheet["hp"])
            c.status = "active" if c.hp > 0 else "downed"
            c.state.update(init_set=None, delayed=False, moves=0, combat=0, ft=0, used=False, provoked=[])
            enc.state.setdefault("ties", []).append(c.name)
        if c.state.get("wield") not in levels:
            c.state["wield"] = next(iter(levels), None)
        if enc.started and c.in_fight and not c.state.get("delayed"):
            c.initiative = self._base_init(c)
        self._arrange(enc)
        return []

    def edit(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        events = super().edit(enc, action, dice)
        c = enc.get(action.actor)
        if "hp" in action.raw_sheet:
            before, c.hp = c.hp, int(c.sheet["hp"])
            events.append(Event(kind="note", note=f"**{c.name}** HP set to {c.hp} (was {before})"))
            if c.status != "out":
                events += self._set_status(enc, c, "active" if c.hp > 0 else "downed", "HP set by the GM")
        return events + self._end_if_down(enc)

    def on_removed(self, enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
        enc.state["ties"] = [n for n in enc.state.get("ties", []) if n != c.name]
        self._arrange(enc)
        if enc.started and enc.current is None and not enc.winner:
            return self._advance(enc)
        return []

    def _set_status(self, enc: Encounter, c: Combatant, status: str, why: str) -> list[Event]:
        before = c.status
        if before == status:
            return []
        c.status = status  # type: ignore[assignment]
        if status == "out":
            self._arrange(enc)
        return [Event(kind="status", actor=c.name, before=before, after=status, note=why)]

    def _end_if_down(self, enc: Encounter) -> list[Event]:
        """A combatant downed or taken out during its own turn ends it."""
        current = enc.find(enc.current)
        return self._advance(enc) if current is not None and current.status != "active" else []

    def side_defeated(self, enc: Encounter, side: str) -> bool:
        beaten = ("out",) if self._option(enc, "victory") == "out" else ("out", "downed")
        return all(c.status in beaten for c in enc.combatants if c.side == side)

    # -- attacks ------------------------------------------------------------------------------------
    def _target(self, enc: Encounter, c: Combatant, name: str | None) -> Combatant:
        if not name:
            raise InputError("Name the combatant to attack in `target`.")
        t = enc.get(name, "target")
        if t is c:
            raise IllegalAction(f"{c.name} cannot attack itself: pick another target.")
        if not t.in_fight:
            raise IllegalAction(f"{t.name} is already out of the fight: pick another target.")
        return t

    @staticmethod
    def _reach(c: Combatant, t: Combatant) -> tuple[Cell, Cell, int]:
        """Both cells and the distance in feet between them (diagonal steps count 5 ft)."""
        a, b = c.cell, t.cell
        if a is None or b is None:
            missing = t.name if b is None else c.name
            raise IllegalAction(f"{missing} is not on the map: the GM places it with `/combatant edit at:`.")
        return a, b, SQUARE_FT * max(abs(a.col - b.col), abs(a.row - b.row))

    def _choose_weapon(self, enc: Encounter, c: Combatant, name: str | None) -> Weapon:
        levels = self._levels(c)
        usable = [n for n, lv in levels.items() if lv > 0]
        if not name:
            name = c.state.get("wield") if levels.get(c.state.get("wield") or "", 0) > 0 else None
            if name is None and len(usable) == 1:
                name = usable[0]
        if not name:
            raise InputError(
                f"Name the weapon in `weapon`: {c.name} is proficient in {', '.join(usable) or 'none'}."
            )
        weapon = self._weapon(enc, name)
        if weapon is None or weapon.name not in levels:
            raise IllegalAction(
                f"{c.name} has no `{name}`: its weapons are {', '.join(levels) or 'none'} "
                f"(the sheet's `weapons=name:P.L.`)."
            )
        if levels[weapon.name] < 1:
            raise IllegalAction(
                f"{c.name} is not proficient in {weapon.name} (P.L. 0): attack only with a weapon of "
                f"P.L. 1 or more ({', '.join(usable) or 'none'})."
            )
        return weapon

    @staticmethod
    def _options(action: Action, accepted: dict[str, bool]) -> dict[str, int | None]:
        """Read option words; ``accepted`` maps each word to whether it takes ``=N``."""
        out: dict[str, int | None] = {}
        for key, value in action.options.items():
            if key not in accepted:
                words = ", ".join(f"{k}=N" if v else k for k, v in accepted.items())
                raise InputError(f"`{key}` is not an option here: this takes {words}.")
            if accepted[key]:
                out[key] = read_int(value, key, -20, 20)
            else:
                out[key] = None
        return out

    def attack(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        c = self._acting(enc, action)
        grid = self.need_grid(enc)
        t = self._target(enc, c, action.target)
        weapon = self._choose_weapon(enc, c, action.weapon)
        opts = self._options(action, _ATTACK_OPTIONS)
        a, b, dist = self._reach(c, t)
        ranged = not (weapon.melee and dist <= SQUARE_FT and "throw" not in opts)
        why: list[str] = []
        if ranged:
            why = self._check_ranged(enc, c, t, weapon, dist, "throw" in opts)
            wall = next((x for x in grid.line_cells(a, b) if x in grid.blocked), None)
            if wall is not None:
                raise IllegalAction(
                    f"{c.name} has no line of sight to {t.name}: the wall at {wall.name} is in the way."
                )
        self._spend_combat(enc, c)
        events = self._strike(enc, c, t, weapon, ranged, dist, dice, opts, why)
        return [*events, self._left_event(c)]

    def _check_ranged(
        self, enc: Encounter, c: Combatant, t: Combatant, weapon: Weapon, dist: int, thrown: bool
    ) -> list[str]:
        """Refuse a ranged attack out of range; return the reasons for imposed Disadvantage."""
        if not weapon.ranged:
            others = [n for n in self.weapons_of(enc, c) if (w := self._weapon(enc, n)) and w.ranged]
            if thrown:
                raise IllegalAction(f"{weapon.name} cannot be thrown: it has no range.")
            instead = f", or use a ranged weapon ({', '.join(others)})" if others else ""
            raise IllegalAction(
                f"{t.name} is {_ft(dist)} away: {weapon.name} reaches 5 ft. Move next to {t.name}{instead}."
            )
        strength = self._stat(c, "str")
        close, far = effective_range(weapon, strength)
        if far == 0:
            raise IllegalAction(
                f"With Strength {signed(strength)} the effective maximum range of {weapon.name} is 0 ft: "
                f"{c.name} cannot make a ranged attack with it."
            )
        if dist > far:
            raise IllegalAction(
                f"{t.name} is {_ft(dist)} away, past the effective maximum range of {weapon.name} "
                f"({_ft(far)}): move closer."
            )
        if close == 0:
            return ["effective close range 0 ft"]
        if dist > close:
            return [f"{_ft(dist)} is past close range {_ft(close)}"]
        return []

    def _strike(
        self,
        enc: Encounter,
        att: Combatant,
        tgt: Combatant,
        weapon: Weapon,
        ranged: bool,
        dist: int,
        dice: Dice,
        opts: dict[str, int | None],
        imposed: Sequence[str] = (),
        tag: str | None = None,
    ) -> list[Event]:
        """One melee or ranged attack: d20 (two with Advantage/Disadvantage), then damage on a hit."""
        mods = [mod(f"P.L. {weapon.name}", self._levels(att)[weapon.name])]
        mods.append(mod("agility", self._stat(att, "agi")) if ranged else mod("strength", self._stat(att, "str")))
        if not ranged or self._option(enc, "ranged_stature") == "yes":
            sa, sd = self._size(att), self._size(tgt)
            mods.append(mod(f"stature {sa} vs {sd}", stature_modifier(sa, sd)))
        if opts.get("atk"):
            mods.append(mod("buff", opts["atk"] or 0))
        defence = self._defence(enc, tgt, ranged, opts.get("def") or 0)
        why = list(imposed)
        adv, dis = "adv" in opts, "dis" in opts or bool(imposed)
        if adv:
            why.insert(0, "Advantage asked")
        if "dis" in opts:
            why.insert(0, "Disadvantage asked")
        with dice.rolling_for(att.name):
            rolls = dice.roll(2 if adv != dis else 1, 20)
        kept = (max if adv else min)(rolls) if adv != dis else rolls[0]
        label = "d20" if adv == dis else f"2d20 {'Advantage' if adv else 'Disadvantage'}"
        if adv and dis:
            why.append("they cancel")
        total = kept + sum(m.value for m in mods)
        against = sum(v for _, v in defence)
        att.state["wield"] = weapon.name
        hit = total >= against
        events = [
            Event(
                kind="attack", actor=att.name, target=tgt.name, weapon=weapon.name, dice=rolls,
                dice_label=label, kept=kept if len(rolls) > 1 else None, modifiers=mods, total=total,
                against=against, against_label="defence", success=hit,
                data={"mode": "ranged" if ranged else "melee", "range": dist, "why": why,
                      "defence": [list(d) for d in defence], "tag": tag},
            )
        ]
        if hit:
            events += self._damage(enc, att, tgt, weapon, dice, opts.get("dmg") or 0)
        return events

    def _defence(self, enc: Encounter, t: Combatant, ranged: bool, buff: int) -> list[tuple[str, int]]:
        """Defence Value terms: 10, melee weapon P.L. (melee only), armour, shield, Agility, buff."""
        terms: list[tuple[str, int]] = [("base", 10)]
        wielded = self._wielded(enc, t)
        if not ranged and wielded is not None and wielded.melee:
            terms.append((f"P.L. {wielded.name}", self._levels(t).get(wielded.name, 0)))
        armour, shield = self._armour(enc, t), self._shield(enc, t)
        if armour[1]:
            terms.append(armour)
        if shield[1]:
            terms.append((f"{shield[0]} shield", shield[1]))
        terms.append(("agility", self._stat(t, "agi")))
        if buff:
            terms.append(("buff", buff))
        return terms

    def _damage(
        self, enc: Encounter, att: Combatant, tgt: Combatant, weapon: Weapon, dice: Dice, buff: int
    ) -> list[Event]:
        m = _DICE_RE.match(weapon.damage)
        assert m is not None  # parse_weapon checked it
        with dice.rolling_for(att.name):
            rolls = dice.roll(int(m.group(1)), int(m.group(2))) if m.group(1) else []
        flat = int(m.group(4) or m.group(3) or 0)
        mods: list[Modifier] = [mod("weapon damage", flat)] if flat else []
        mods.append(mod("strength", self._stat(att, "str")))
        if buff:
            mods.append(mod("buff", buff))
        floor = self._option(enc, "min_damage")
        raw = sum(rolls) + sum(x.value for x in mods)
        amount = max(floor, raw)
        before = tgt.hp or 0
        tgt.hp = before - amount
        events = [
            Event(
                kind="damage", actor=att.name, target=tgt.name, weapon=weapon.name, dice=rolls,
                dice_label=weapon.damage if rolls else None, modifiers=mods, amount=amount,
                before=before, after=tgt.hp,
                note=f"raised to the minimum {floor}" if amount != raw else None,
            )
        ]
        if tgt.hp <= 0 and tgt.status == "active":
            events += self._set_status(enc, tgt, "downed", "0 HP or less; a coup de grâce takes it out")
        return events

    def coup_de_grace(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        c = self._acting(enc, action)
        self.need_grid(enc)
        t = self._target(enc, c, action.target)
        best = self._best_melee(enc, c)
        weapon = self._choose_weapon(enc, c, action.weapon or (best.name if best else None))
        if t.status != "downed":
            raise IllegalAction(f"{t.name} is not downed: a coup de grâce needs a downed target, so `/attack` it first.")
        if self._reach(c, t)[2] > SQUARE_FT:
            raise IllegalAction(f"{c.name} is not adjacent to {t.name}: a coup de grâce needs a target within 5 ft.")
        self._spend_combat(enc, c)
        att = Event(
            kind="attack", actor=c.name, target=t.name, weapon=weapon.name, success=True,
            note="coup de grâce, an automatic hit on a downed target",
            data={"mode": "melee", "range": SQUARE_FT},
        )
        return [att, *self._set_status(enc, t, "out", "coup de grâce"), self._left_event(c)]

    # -- movement ---------------------------------------------------------------------------------------
    def _mover(self, enc: Encounter, grid: Grid, c: Combatant) -> _Mover:
        enemies = {cell for e in enc.enemies_of(c) if e.status == "active" and (cell := e.cell) is not None}
        return _Mover(
            name=c.name,
            grid=grid,
            height=self._height(enc, c),
            blockers=frozenset(enemies),
            others=frozenset(enc.occupied(exclude=c)),
            obstacle=self._option(enc, "obstacle_height"),
        )

    @staticmethod
    def _transition(m: _Mover, pos: _Pos, d: str) -> _Step | str:
        """One step from ``pos`` towards ``d``, or the reason it cannot be taken."""
        g, here = m.grid, pos.cell
        nxt = g.step(here, d)
        if nxt is None:
            return f"going {d} from {here.name} leaves the map"
        if nxt in g.blocked:
            return f"{nxt.name} is a wall"
        if nxt in m.blockers:
            return f"{nxt.name} is held by an enemy: go around"
        if len(d) == 2 and {Cell(nxt.col, here.row), Cell(here.col, nxt.row)} & g.blocked:
            return f"going {d} from {here.name} would cut the corner of a wall"
        if pos.mode != "stand" and d != pos.heading:
            return f"a {pos.mode} goes straight on: keep going {pos.heading} from {here.name}"
        kind = g.terrain.get(nxt)
        if kind == "gap":
            run = pos.run + 1 if pos.mode == "leap" else 1
            if pos.mode == "vault":
                return f"{m.name} cannot leap the gap at {nxt.name} straight out of a vault"
            if run * SQUARE_FT > 2 * m.height:
                return (
                    f"the gap at {nxt.name} makes a leap of {_ft(run * SQUARE_FT)}; {m.name} leaps at "
                    f"most {_ft(2 * m.height)}, twice its height"
                )
            return _Step(_Pos(nxt, "leap", d, run, pos.level), SQUARE_FT, "leap")
        ground = m.ground(nxt)
        if kind == "obstacle":
            if pos.mode != "stand":
                return f"{m.name} cannot land on the obstacle at {nxt.name}"
            if ground - pos.level <= m.height:
                return _Step(_Pos(nxt, "vault", d, 0, pos.level), SQUARE_FT, "vault")
        step = SQUARE_FT * (2 if kind in DIFFICULT else 1)
        rise = ground - pos.level
        land = _Pos(nxt, level=ground)
        if rise > 0:
            if rise > m.height and kind not in ("climb", "obstacle"):
                return (
                    f"{nxt.name} is {_ft(rise)} higher than {here.name}: higher than {m.name}'s "
                    f"{_ft(m.height)} only a square marked `climb` can be climbed"
                )
            return _Step(land, step + 2 * rise, f"climb {_ft(rise)}")
        if rise < 0:
            drop = -rise
            return _Step(land, step + (2 * drop if drop > m.height else 0), f"descend {_ft(drop)}")
        return _Step(land, step, "difficult" if kind in DIFFICULT else "")

    def _walk(self, m: _Mover, start: _Pos, dirs: Sequence[str]) -> list[_Step]:
        steps: list[_Step] = []
        pos = start
        for d in dirs:
            step = self._transition(m, pos, d.upper())
            if isinstance(step, str):
                raise IllegalAction(f"{m.name} cannot move that way: {step}.")
            steps.append(step)
            pos = step.pos
        if steps and not m.can_stop(pos):
            raise IllegalAction(
                f"{m.name} cannot stop at {pos.cell.name}: a vault or leap lands beyond it and an "
                f"occupied square can only be passed. Add steps to a free square."
            )
        return steps

    def _route(self, m: _Mover, start: _Pos, goal: Cell, budget: int) -> list[str]:
        """The cheapest directions from ``start`` to ``goal`` within ``budget`` feet."""
        if goal == start.cell:
            raise InputError(f"{m.name} is already at {goal.name}.")
        other = "an enemy" if goal in m.blockers else "someone" if goal in m.others else None
        if other or goal in m.grid.blocked:
            raise IllegalAction(f"{goal.name} is {'taken by ' + other if other else 'a wall'}: pick a free square.")

        def successors(pos: _Pos) -> Iterator[tuple[_Pos, float, str]]:
            for d in _DIRECTIONS:
                step = self._transition(m, pos, d)
                if not isinstance(step, str):
                    yield step.pos, step.cost, d

        def is_goal(pos: _Pos) -> bool:
            return pos.cell == goal and pos.mode == "stand"

        def heuristic(pos: _Pos) -> int:
            return m.grid.distance(pos.cell, goal, diagonal=True) * SQUARE_FT

        if m.grid.region(start.cell) != m.grid.region(goal):
            raise IllegalAction(f"{m.name} cannot reach {goal.name}: walls are in the way.")
        found = cheapest_path(start, is_goal, successors, budget=budget, heuristic=heuristic)
        if found is None:
            # past the movement left, within twice as much, to say what the move would cost
            anyway = cheapest_path(start, is_goal, successors, budget=2 * budget, heuristic=heuristic)
            if anyway is None:
                raise IllegalAction(
                    f"{m.name} cannot reach {goal.name} with {_ft(budget)} of movement: walls, enemies, "
                    f"gaps or heights are in the way, or it is too far. Pick a nearer square."
                )
            raise IllegalAction(
                f"{goal.name} is {_ft(int(anyway[0]))} of movement away but {m.name} has {_ft(budget)}: "
                f"pick a nearer square."
            )
        return [d for _, d in found[1]]

    def move(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        c = self._acting(enc, action)
        grid = self.need_grid(enc)
        facing = grid.parse_facing(action.facing) if action.facing else None
        if action.to and action.path:
            raise InputError("Give either `to` (a square) or `path` (steps like `N NE E`), not both.")
        if not action.to and not action.path:
            if facing is None:
                raise InputError("Give `to` (a square) or `path` (steps like `N NE E`).")
            c.facing = facing
            return [Event(kind="face", actor=c.name, after=facing)]
        here = c.cell
        if here is None:
            raise IllegalAction(f"{c.name} is not on the map: the GM places it with `/combatant edit at:`.")
        st = c.state
        budget = max(st.get("ft", 0), self._movement(c) if st.get("moves", 0) > 0 else 0)
        if budget <= 0:
            raise IllegalAction(
                f"{c.name} has no movement left this turn: use the Combat Action or end the turn "
                f"with `/init next`."
            )
        m = self._mover(enc, grid, c)
        start = _Pos(here, level=m.ground(here))
        if action.to:
            dirs = self._route(m, start, grid.parse(action.to), budget)
        else:
            dirs = re.split(r"[\s,]+", (action.path or "").strip())
        steps = self._walk(m, start, dirs)
        cost = sum(s.cost for s in steps)
        if cost > budget:
            raise IllegalAction(f"That path costs {_ft(cost)} but {c.name} has {_ft(budget)} of movement left.")
        if cost > st.get("ft", 0):
            st["moves"] -= 1
            st["ft"] = self._movement(c)
        available = st["ft"]
        st["ft"] -= cost
        self._spend(enc, c)
        events = self._travel(enc, m, c, here, steps, available, dice)
        if facing and c.status == "active":
            c.facing = facing
            events[-1].after = facing
        if c.status == "active":
            events.append(self._left_event(c))
        return events + self._end_if_down(enc)

    def _travel(
        self,
        enc: Encounter,
        m: _Mover,
        c: Combatant,
        here: Cell,
        steps: list[_Step],
        available: int,
        dice: Dice,
    ) -> list[Event]:
        """Walk the steps, resolving Attacks of Opportunity before each square where one may stop
        is left (vaults, leaps and passing through allies count as one stride)."""
        events: list[Event] = []
        aoo = self._option(enc, "aoo") == "yes"
        shown, spent, seg_cost, segment = [here.name], 0, 0, []

        def flush() -> None:
            nonlocal shown, seg_cost
            if len(shown) > 1:
                events.append(Event(kind="move", actor=c.name, path=shown, cost=seg_cost,
                                    data={"left": available - spent, "unit": "ft"}))
            shown, seg_cost = [here.name], 0

        for step in steps:
            segment.append(step)
            if not m.can_stop(step.pos):
                continue
            dest = step.pos.cell
            foes = self._provoked(enc, c, here, dest) if aoo else []
            if foes:
                flush()
            for foe, weapon in foes:
                c.state.setdefault("provoked", []).append(foe.name)
                events += self._strike(enc, foe, c, weapon, False, SQUARE_FT, dice, {},
                                       tag="Attack of Opportunity")
                if c.status != "active":
                    return events + [Event(kind="note", note=f"**{c.name}** falls at {here.name} and stops there")]
            for s in segment:
                shown.append(s.pos.cell.name + (f" ({s.label})" if s.label else ""))
                spent += s.cost
                seg_cost += s.cost
            segment, here = [], dest
            c.position = dest.name
        flush()
        return events

    def _provoked(
        self, enc: Encounter, c: Combatant, here: Cell, dest: Cell
    ) -> list[tuple[Combatant, Weapon]]:
        """Active enemies next to ``here`` and more than 5 ft from ``dest`` that may still strike,
        in initiative order, each with the melee weapon it strikes with."""
        rank = {n: i for i, n in enumerate(enc.order)}
        foes = []
        for e in sorted(enc.enemies_of(c), key=lambda e: rank.get(e.name, len(rank))):
            cell, weapon = e.cell, self._best_melee(enc, e)
            if (
                e.status == "active" and cell is not None and weapon is not None
                and e.name not in c.state.get("provoked", [])
                and max(abs(cell.col - here.col), abs(cell.row - here.row)) == 1
                and max(abs(cell.col - dest.col), abs(cell.row - dest.row)) > 1
            ):
                foes.append((e, weapon))
        return foes

    # -- /act ------------------------------------------------------------------------------------------
    def act(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        name = (action.name or "").strip().lower()
        handlers: dict[str, Callable[[Encounter, Action], list[Event]]] = {
            "delay": self._delay,
            "wield": self._wield,
            "grant": self._grant,
        }
        if name in NARRATIVE:
            return self._narrative(enc, action, name)
        if name not in handlers:
            return super().act(enc, action, dice)
        return handlers[name](enc, action)

    def _delay(self, enc: Encounter, action: Action) -> list[Event]:
        self.need_started(enc)
        c = enc.get(action.actor)
        if c.status != "active":
            raise IllegalAction(f"{c.name} is {c.status}: it does not act this round.")
        acted = enc.state.get("acted", [])
        is_current = c.name == enc.current
        if c.name in acted and not (is_current and not c.state.get("used")):
            raise IllegalAction(f"{c.name} has already acted this round: initiative can be lowered before its turn.")
        if self._option(enc, "delay") == "start" and not enc.state.get("fresh"):
            raise IllegalAction("Here initiative can only be lowered at the start of a round, before anyone has acted.")
        old = self._eff(c)
        new = self._delay_target(enc, action, c, old)
        if new >= old:
            raise InputError(f"A delay must lower initiative: {c.name}'s is {old}, and {new} is not lower.")
        c.initiative = new
        c.state["delayed"] = True
        if is_current:
            acted.remove(c.name)
            enc.current = None
        self._arrange(enc)
        events = [self._init_event(c, f"delays for this round, from {old} to {new}")]
        if enc.current is None:
            events += self._advance(enc)
        return events

    def _delay_target(self, enc: Encounter, action: Action, c: Combatant, old: int) -> int:
        opts = action.options
        if "to" in opts:
            return read_int(opts["to"], "to", INITIATIVE_MIN, INITIATIVE_MAX)
        if "after" in opts:
            return min(old, self._eff(enc.get(opts["after"])) - 1)
        amount = opts.get("by") or next((k for k in opts if re.fullmatch(r"\d+", k)), None)
        if amount is not None:
            return max(old - read_int(amount, "by", 1, 99), INITIATIVE_MIN)
        raise InputError(
            "Say how far to lower initiative: `options:\"2\"` (by 2), `options:\"to=0\"` or "
            "`options:\"after=Grak\"`."
        )

    def _wield(self, enc: Encounter, action: Action) -> list[Event]:
        c = enc.get(action.actor)
        if enc.started and c.name != enc.current:
            raise NotYourTurn(f"{c.name} changes weapons on its own turn (it is {enc.current}'s).")
        name = action.weapon or action.options.get("weapon") or next(iter(action.options), None)
        levels = self._levels(c)
        weapon = self._weapon(enc, name) if name else None
        if weapon is None or weapon.name not in levels:
            example = next(iter(levels), "longsword")
            raise InputError(
                f"Name a weapon from the sheet to wield, like `options:\"{example}\"`: "
                f"{c.name} has {', '.join(levels) or 'none'}."
            )
        c.state["wield"] = weapon.name
        if weapon.melee:
            defends = f"defends in melee with its P.L. {levels[weapon.name]}"
        else:
            defends = "adds no P.L. to its melee defence"
        return [Event(kind="note", actor=c.name, note=f"**{c.name}** takes up the {weapon.name} (free): {defends}")]

    def _grant(self, enc: Encounter, action: Action) -> list[Event]:
        if not action.is_gm:
            raise NotAllowed("Only the GM grants extra actions (from an item, buff or spell).")
        c = self._acting(enc, action)
        kinds = [k for k in action.options if k in ("move", "combat")]
        if not kinds or len(kinds) < len(action.options):
            raise InputError("Say what to grant: `options:\"move\"`, `options:\"combat\"` or both.")
        for k in kinds:
            c.state["moves" if k == "move" else "combat"] += 1
        what = " and ".join(f"an extra {k.title()} Action" for k in kinds)
        return [Event(kind="note", actor=c.name, note=f"The GM grants **{c.name}** {what}"), self._left_event(c)]

    def _narrative(self, enc: Encounter, action: Action, name: str) -> list[Event]:
        c = self._acting(enc, action)
        t = enc.get(action.target, "target") if action.target else None
        self._spend_combat(enc, c)
        what = NARRATIVE[name] + (f" **{t.name}**" if t else "")
        note = (
            f"**{c.name}** uses the Combat Action to {what}: the rules give no procedure for it, so "
            f"the GM rules on the outcome (`/roll` for any check)"
        )
        return [Event(kind="note", actor=c.name, target=t.name if t else None, note=note), self._left_event(c)]
