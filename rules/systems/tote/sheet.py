"""TOTE sheets: hero and enemy keys, weapons, the injury track, and readers of a sheet.

A sheet with ``rating`` is an **enemy**; any other sheet is a **hero**.
"""
from __future__ import annotations

import re
from typing import Any, NamedTuple

from rules.errors import InputError, SheetError
from rules.models import Combatant
from rules.sheet import SheetKey, read_int, whole_number
from rules.sheet import read_sheet as check_sheet
from rules.systems.tote.tables import (
    BANDS,
    DAMAGE_KINDS,
    DEFAULT_TRACK,
    REACH_WORDS,
    SHOOTING_WEAPONS,
    SKILLS,
    TOTEMS,
)

__all__ = [
    "EFFECT_VALUES",
    "Weapon",
    "parse_weapons",
    "parse_track",
    "parse_tohit",
    "parse_resist",
    "TOHIT_RE",
    "HERO_KEYS",
    "ENEMY_KEYS",
    "SHARED_KEYS",
    "read_tote_sheet",
    "is_enemy",
    "level",
    "weapons",
    "weapon",
    "items",
]

_HINT = "write weapons as `name:damage`, optionally `:effect`, `:bash`/`:pierce`/`:slash` and `:thrown`/`:ranged`, like `sword:2:slash`"


class Weapon(NamedTuple):
    name: str
    damage: int
    effect: int = 0
    kind: str | None = None
    #: the farthest band it shoots to (None: it does not shoot), when the sheet says so
    reach_word: str | None = None

    @classmethod
    def parse(cls, text: str) -> Weapon:
        """``sword:2:slash`` / ``maul:3:1:bash`` / ``spear:1:pierce:thrown`` -> a Weapon."""
        parts = [p.strip() for p in text.split(":")]
        if len(parts) < 2 or not parts[0] or len(parts[0]) > 30:
            raise SheetError(f"`weapon={text}` is not accepted: {_HINT}.")
        name, damage, effect, kind, reach = parts[0], _small_int(parts[1], text, "damage"), 0, None, None
        seen: set[str] = set()
        for part in parts[2:]:
            low = part.lower()
            what = "kind" if low in DAMAGE_KINDS else "range" if low in REACH_WORDS else "effect"
            if what in seen:
                raise SheetError(f"`weapon={text}` gives two {what}s: {_HINT}.")
            seen.add(what)
            if what == "kind":
                kind = low
            elif what == "range":
                reach = low
            else:
                effect = _small_int(part, text, "effect")
        return cls(name, damage, effect, kind, reach)

    @property
    def reach(self) -> str | None:
        """The farthest band this weapon shoots to: its sheet word, else the shooting-weapon list."""
        if self.reach_word:
            return REACH_WORDS[self.reach_word]
        return SHOOTING_WEAPONS.get(self.name.casefold())

    def reaches(self, band: str) -> bool:
        return self.reach is not None and BANDS.index(band) <= BANDS.index(self.reach)

    def text(self) -> str:
        return ":".join(
            [self.name, str(self.damage)]
            + ([str(self.effect)] if self.effect else [])
            + ([self.kind] if self.kind else [])
            + ([self.reach_word] if self.reach_word else [])
        )


#: what each number of a weapon is, for its refusal
_NUMBERS = {"damage": "damage (boxes a hit marks)", "effect": "effect (added on a critical)"}


def _small_int(value: str, whole: str, what: str) -> int:
    n = whole_number(value, 0, 10)
    if n is None:
        raise SheetError(
            f"`weapon`: in `{whole}` the {_NUMBERS[what]} is a whole number from 0 to 10, not `{value[:20]}`; {_HINT}."
        )
    return n


def items(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def parse_weapons(text: str) -> list[str]:
    """A comma list of weapons, each checked and written back in one normal form."""
    found = [Weapon.parse(item).text() for item in items(text)]
    if not found or len(found) > 8:
        raise SheetError("`weapon` takes 1 to 8 weapons, comma separated, like `sword:2:slash,bow:1:pierce`.")
    return found


def parse_track(text: str) -> list[str]:
    """The injury track, left to right: numbers 1-6 and a final ``U`` (unconscious)."""
    boxes = [x.upper() for x in items(text)]
    ok = 1 <= len(boxes) <= 12 and boxes[-1] == "U" and boxes.count("U") == 1
    if not ok or any(b != "U" and b not in {"1", "2", "3", "4", "5", "6"} for b in boxes):
        raise SheetError(
            f"`track={text}` is not accepted: list 1 to 12 boxes from left to right, numbers 1-6 "
            f"ending with one `U`, like `5,4,3,2,1,U`."
        )
    return boxes


TOHIT_RE = re.compile(r"^\s*(?:(\d)\s*(?:d6?)?)?\s*(?:([+-])\s*(\d{1,2}))?\s*$", re.IGNORECASE)


def parse_tohit(text: str) -> str:
    """``3`` or ``3d`` (skill dice), ``+2`` (bonus on the Rating's dice) or ``3d+1``: normal form ``3d+1``."""
    m = TOHIT_RE.match(text or "")
    if not m or (m.group(1) is None and m.group(2) is None) or int(m.group(1) or 0) > 5:
        raise SheetError(
            f"`tohit={text}` is not accepted: give skill dice (0-5) and/or a bonus, like `3`, `+2` or `3d+1`."
        )
    dice = f"{m.group(1)}d" if m.group(1) is not None else ""
    bonus = f"{m.group(2)}{int(m.group(3))}" if m.group(2) and int(m.group(3)) else ""
    return (dice + bonus) or "+0"


def parse_resist(text: str) -> list[str]:
    """``pierce:2,slash`` (1 when no amount) or ``all:1``: boxes taken off each hit of that kind."""
    out: list[str] = []
    for item in items(text):
        kind, _, amount = item.partition(":")
        kind, amount = kind.strip().lower(), amount.strip() or "1"
        hint = "list damage kinds (bash, pierce, slash or all) with an optional number of boxes, like `pierce:2,slash`"
        if kind not in (*DAMAGE_KINDS, "all"):
            raise SheetError(f"`resist={text}` is not accepted: {hint}.")
        out.append(f"{kind}:{read_int(amount, 'resist', 1, 10, SheetError, hint)}")
    return out


SHARED_KEYS = (
    SheetKey("block", "target number to hit this combatant", kind="int", default=8, minimum=2, maximum=20),
    SheetKey(
        "weapon",
        "weapons as name:damage[:effect][:bash|pierce|slash][:thrown|ranged], damage and effect 0–10, comma separated; "
        "the first is used unless `weapon` names another (a Shoot uses the first that shoots: "
        "bows, crossbows, slings and guns reach Far, javelins and darts Close)",
        kind="custom",
        default=["fists:1:bash"],
        parse=parse_weapons,
    ),
    SheetKey(
        "track",
        "injury track from left to right, ending in U",
        kind="custom",
        default=list(DEFAULT_TRACK),
        parse=parse_track,
    ),
)
HERO_KEYS: tuple[SheetKey, ...] = (
    *(SheetKey(t, f"{t.capitalize()} totem", kind="int", default=1, minimum=0, maximum=10) for t in TOTEMS),
    *(SheetKey(s, f"{s.capitalize()} skill dice", kind="int", default=1, minimum=0, maximum=5) for s in SKILLS),
    *SHARED_KEYS,
)
ENEMY_KEYS: tuple[SheetKey, ...] = (
    SheetKey(
        "rating",
        "an enemy's level and base initiative: a sheet with rating is an enemy, one without it a hero",
        kind="int",
        minimum=0,
        maximum=10,
    ),
    SheetKey(
        "tohit",
        "attack test: skill dice and/or bonus (3, +2, 3d+1); default Rating dice, at most 5",
        kind="custom",
        parse=parse_tohit,
    ),
    SheetKey("resist", "damage kinds resisted, boxes off each hit (pierce:2,slash)", kind="custom", parse=parse_resist),
    SheetKey("group", "yes: a group of enemies that acts and is tracked as one", kind="bool", default=False),
    *SHARED_KEYS,
)

#: the values an effect may change (`/effect add mods:"attack+1 block+1"`)
EFFECT_VALUES = (
    SheetKey("attack", "every attack test (Strike, Shoot, Assault...): added to the total", "int", minimum=-5, maximum=5),
    SheetKey("block", "the Block an attack test must meet", "int", minimum=-5, maximum=5),
)


def read_tote_sheet(raw: dict[str, str], base: dict[str, Any] | None = None) -> dict[str, Any]:
    """A hero's or an enemy's sheet; keys of the other kind are refused by name."""
    enemy = "rating" in (raw if base is None else base)
    if base is not None and not enemy and "rating" in raw:
        raise SheetError(
            "This combatant is a hero (no `rating`): remove it and add it again as an enemy with `rating=N`."
        )
    keys, other = (ENEMY_KEYS, HERO_KEYS) if enemy else (HERO_KEYS, ENEMY_KEYS)
    own = {k.name for k in keys}
    wrong = [k for k in raw if k not in own and k in {o.name for o in other}]
    if wrong:
        what, takes = ("an enemy (it has `rating`)", "heroes") if enemy else ("a hero (no `rating`)", "enemies")
        raise SheetError(
            f"{', '.join(f'`{w}`' for w in wrong)}: this sheet is {what}, and only {takes} take "
            f"{'that key' if len(wrong) == 1 else 'those keys'}. It takes {', '.join(k.name for k in keys)}."
        )
    return check_sheet(raw, keys, base)


def is_enemy(c: Combatant) -> bool:
    """A sheet with ``rating`` is an enemy; every other sheet is a hero."""
    return "rating" in c.sheet


def level(c: Combatant) -> int:
    """An enemy's Rating, or a hero's Hawk: its base initiative, used for ties and Escape Foes."""
    return int(c.sheet["rating"] if is_enemy(c) else c.sheet["hawk"])


def weapons(c: Combatant) -> list[Weapon]:
    return [Weapon.parse(w) for w in c.sheet.get("weapon", [])]


def weapon(c: Combatant, name: str | None) -> Weapon:
    """The named weapon of ``c``, or its first one."""
    own = weapons(c)
    if not name:
        return own[0]
    for w in own:
        if w.name.casefold() == name.strip().casefold():
            return w
    raise InputError(f"{c.name} has no weapon `{name}`: weapons: {', '.join(w.name for w in own)}.")
