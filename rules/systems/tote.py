"""TOTE (Tales from the Torn Earth): initiative as a resource, range bands, no grid.

Source: ``shared/rules/tote.txt`` with the project defaults of ``shared/rules/README.md``.

Model, in brief:

* A sheet with ``rating`` is an **enemy**; any other sheet is a **hero**.
* A **skill test** rolls as many plain d6 as the skill (0-5), keeps one (the best the
  injury track allows, or ``keep=N``), adds the Paragon d6 and any bonus, and compares with
  the target. Given ``roll:`` results are the plain dice in order, then the Paragon die.
* **Initiative** is a pool of points: ``/init roll`` makes the starting T8 test, actions
  spend points, the highest pool acts first and the order is re-read after every action.
  Every ready combatant takes one action per round (or passes with ``/init next``); the
  round ends when nobody is left to act, and the next one starts at once.
* **Distance** is a band per combatant (``state["band"]``: far, close, melee) relative to
  the foes; the encounter's round type is ``enc.state["distance"]`` ("melee" for melee
  rounds, "far"/"close" for distance rounds, shown as ``enc.phase``).
* **Engagement** is a list of pairs in ``enc.state["engaged"]``: melee damage engages the
  pair; an engaged combatant must target the foes it is engaged with.
* ``hp`` is the number of injury boxes still unfilled (U included); ``state["filled"]``
  counts the filled ones from the left.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from rules.dice import Dice, Typed
from rules.errors import IllegalAction, InputError, NotAllowed, NotYourTurn, SheetError
from rules.events import LegacyEvent as Event, Modifier, mod
from rules.models import Combatant, Encounter
from rules.report import dice_text, die_text, signed
from rules.sheet import SheetKey, read_int, yes_no
from rules.sheet import read_sheet as check_sheet
from rules.system import Action, RuleSystem, Turn, register

__all__ = [
    "ToteSystem",
    "TestResult",
    "Weapon",
    "skill_test",
    "parse_weapons",
    "parse_track",
    "parse_tohit",
    "parse_resist",
    "BANDS",
    "MELEE_COSTS",
    "DISTANCE_COSTS",
    "TOTEMS",
    "SKILLS",
]

TOTEMS = ("bear", "coyote", "hawk", "stag", "turtle", "wolf", "bison", "owl")
SKILLS = ("plan", "strike", "shoot", "brawl", "impress", "move")
#: range bands, nearest first
BANDS = ("melee", "close", "far")
DAMAGE_KINDS = ("bash", "pierce", "slash")
DEFAULT_TRACK = ("5", "4", "3", "2", "1", "U")
MELEE_COSTS = {
    "assault": 2,
    "assist": 1,
    "defend": 0,
    "disengage": 3,
    "grapple": 0,
    "intimidate": 1,
    "protect": 2,
    "shoot": 3,
    "strike": 1,
}
DISTANCE_COSTS = {"move": 0, "shoot": 0, "shoot-and-move": 1}
_BAND_WORDS = (*BANDS, "in", "away", "escape")
_ATTACK_SKILLS = ("strike", "shoot", "brawl")
_OPTION_WORDS = ("keep", "bonus", "ally", "weapon", *_BAND_WORDS)


# -- sheet values -------------------------------------------------------------------------------
class Weapon(NamedTuple):
    name: str
    damage: int
    effect: int = 0
    kind: str | None = None

    @classmethod
    def parse(cls, text: str) -> Weapon:
        """``sword:2:slash`` / ``maul:3:1:bash`` -> a Weapon (damage, then effect and kind in any order)."""
        hint = (
            "write weapons as `name:damage`, optionally `:effect` and `:bash`/`:pierce`/`:slash`, like `sword:2:slash`"
        )
        parts = [p.strip() for p in text.split(":")]
        if len(parts) < 2 or not parts[0] or len(parts[0]) > 30:
            raise SheetError(f"`weapon={text}` is not accepted: {hint}.")
        name, damage, effect, kind = parts[0], _small_int(parts[1], text, hint), 0, None
        seen: set[str] = set()
        for part in parts[2:]:
            what = "kind" if part.lower() in DAMAGE_KINDS else "effect"
            if what in seen:
                raise SheetError(f"`weapon={text}` gives two {what}s: {hint}.")
            seen.add(what)
            if what == "kind":
                kind = part.lower()
            else:
                effect = _small_int(part, text, hint)
        return cls(name, damage, effect, kind)

    def text(self) -> str:
        return ":".join(
            [self.name, str(self.damage)]
            + ([str(self.effect)] if self.effect else [])
            + ([self.kind] if self.kind else [])
        )


def _small_int(value: str, whole: str, hint: str) -> int:
    return read_int(value, "weapon", 0, 10, SheetError, f"in `{whole}`, {hint}")


def _items(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def parse_weapons(text: str) -> list[str]:
    """A comma list of weapons, each checked and written back in one normal form."""
    weapons = [Weapon.parse(item).text() for item in _items(text)]
    if not weapons or len(weapons) > 8:
        raise SheetError("`weapon` takes 1 to 8 weapons, comma separated, like `sword:2:slash,bow:1:pierce`.")
    return weapons


def parse_track(text: str) -> list[str]:
    """The injury track, left to right: numbers 1-6 and a final ``U`` (unconscious)."""
    boxes = [x.upper() for x in _items(text)]
    ok = 1 <= len(boxes) <= 12 and boxes[-1] == "U" and boxes.count("U") == 1
    if not ok or any(b != "U" and b not in {"1", "2", "3", "4", "5", "6"} for b in boxes):
        raise SheetError(
            f"`track={text}` is not accepted: list 1 to 12 boxes from left to right, numbers 1-6 "
            f"ending with one `U`, like `5,4,3,2,1,U`."
        )
    return boxes


_TOHIT_RE = re.compile(r"^\s*(?:(\d)\s*(?:d6?)?)?\s*(?:([+-])\s*(\d{1,2}))?\s*$", re.IGNORECASE)


def parse_tohit(text: str) -> str:
    """``3`` or ``3d`` (skill dice), ``+2`` (bonus on the Rating's dice) or ``3d+1``: normal form ``3d+1``."""
    m = _TOHIT_RE.match(text or "")
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
    for item in _items(text):
        kind, _, amount = item.partition(":")
        kind, amount = kind.strip().lower(), amount.strip() or "1"
        hint = "list damage kinds (bash, pierce, slash or all) with an optional number of boxes, like `pierce:2,slash`"
        if kind not in (*DAMAGE_KINDS, "all"):
            raise SheetError(f"`resist={text}` is not accepted: {hint}.")
        out.append(f"{kind}:{read_int(amount, 'resist', 1, 10, SheetError, hint)}")
    return out


_SHARED_KEYS = (
    SheetKey("block", "target number to hit this combatant", kind="int", default=8, minimum=2, maximum=20),
    SheetKey(
        "weapon",
        "weapons as name:damage[:effect][:bash|pierce|slash], comma separated; "
        "the first is used unless `weapon` names another",
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
    *_SHARED_KEYS,
)
ENEMY_KEYS: tuple[SheetKey, ...] = (
    SheetKey(
        "rating",
        "an enemy's level and base initiative (a sheet with rating is an enemy)",
        kind="int",
        minimum=0,
        maximum=10,
        required=True,
    ),
    SheetKey(
        "tohit",
        "attack test: skill dice and/or bonus (3, +2, 3d+1); default Rating dice, at most 5",
        kind="custom",
        parse=parse_tohit,
    ),
    SheetKey("resist", "damage kinds resisted, boxes off each hit (pierce:2,slash)", kind="custom", parse=parse_resist),
    SheetKey("group", "yes: a group of enemies that acts and is tracked as one", kind="bool", default=False),
    *_SHARED_KEYS,
)


# -- the skill test -----------------------------------------------------------------------------
@dataclass
class TestResult:
    """One skill test: plain dice, Paragon die, kept die, modifiers, total and successes."""

    dice: list[int]
    paragon: int
    kept: int | None
    modifiers: list[Modifier]
    target: int
    total: int
    successes: int
    critical: bool
    barred: list[int] = field(default_factory=list)
    keep_note: str | None = None

    @property
    def success(self) -> bool:
        return self.successes > 0


def skill_test(
    dice: Dice,
    count: int,
    target: int,
    modifiers: Sequence[Modifier] = (),
    *,
    keep: int | None = None,
    barred: frozenset[int] | set[int] = frozenset(),
    extra_successes: bool = True,
    critical_successes: int = 1,
) -> TestResult:
    """Roll ``count`` plain d6 then the Paragon d6; keep one die that is not ``barred``.

    Successes: 0 on a failure; else 1, plus 1 for each other keepable die that would also
    have met the target (``extra_successes``), plus ``critical_successes`` when the kept
    die equals the Paragon die.
    """
    plain = dice.roll(count, 6)
    paragon = dice.die(6)
    keepable = [d for d in plain if d not in barred]
    note = None
    if keep is not None and keep not in keepable:
        note = f"no keepable {keep} was rolled, so the best die was kept"
        keep = None
    kept = keep if keep is not None else max(keepable, default=None)
    bonus = sum(m.value for m in modifiers)
    total = (kept or 0) + paragon + bonus
    critical = kept is not None and kept == paragon
    successes = 0
    if total >= target:
        others = list(keepable)
        if kept is not None:
            others.remove(kept)
        successes = 1 + (sum(1 for d in others if d + paragon + bonus >= target) if extra_successes else 0)
        successes += critical_successes if critical else 0
    return TestResult(
        plain,
        paragon,
        kept,
        list(modifiers),
        target,
        total,
        successes,
        critical,
        sorted({d for d in plain if d in barred}, reverse=True),
        note,
    )


def _test_event(kind: str, r: TestResult, label: str, against: str | None, **kw: Any) -> Event:
    data = {"paragon": r.paragon, "successes": r.successes, "critical": r.critical, "barred": r.barred,
            "paragon_typed": isinstance(r.paragon, Typed)}
    if r.keep_note:
        data["keep_note"] = r.keep_note
    data.update(kw.pop("data", {}))
    return Event(
        kind=kind,
        dice=r.dice,
        dice_label=label,
        kept=r.kept,
        modifiers=r.modifiers,
        total=r.total,
        against=r.target,
        against_label=against,
        success=r.success,
        data=data,
        **kw,
    )


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _test_text(e: Event) -> str:
    shown = dice_text(e) if e.dice else "no skill dice"
    bits = [f"🎲 {e.dice_label} [{shown}]"]
    if e.data.get("barred"):
        bits.append(f"({', '.join(map(str, e.data['barred']))} barred by injuries)")
    bits.append(f"keep {e.kept}" if e.kept is not None else "nothing to keep")
    bits.append(f"+ Paragon {die_text(e.data['paragon'], e.data.get('paragon_typed', False))}")
    bits += [f"{signed(m.value)} {m.name}" for m in e.modifiers]
    result = ("hit" if e.success else "miss") if e.kind == "attack" else ("success" if e.success else "failure")
    against = f"{e.against_label} {e.against}" if e.against_label else f"T{e.against}"
    text = " ".join(bits) + f" = **{e.total}** vs {against}: {result}"
    if e.success:
        text += f", {_plural(e.data['successes'], 'success', 'successes')}"
        if e.data.get("critical"):
            text += " (critical)"
    if e.data.get("keep_note"):
        text += f" ({e.data['keep_note']})"
    return text


# -- the system -----------------------------------------------------------------------------------
Handler = Callable[[Encounter, Combatant, Action, Dice], list[Event]]


@register
class ToteSystem(RuleSystem):
    key = "tote"
    title = "TOTE"
    map_kinds = ("none",)
    default_map = None
    act_actions = (*MELEE_COSTS, "move", "shoot-and-move", "distance")
    gm_actions = ("distance",)
    default_side_player = "heroes"
    default_side_gm = "foes"
    options_help: ClassVar[dict[str, str]] = {
        "distance": "the starting distance: melee (default), close or far; "
        "the GM changes it in a fight with `/act action:distance`",
        "init_target": "target of the starting initiative test (default 8: a T8 Plan test)",
        "extra_successes": "yes (default): each other keepable skill die that also meets the target adds a success; "
        "no: one at most",
        "critical_successes": "successes a critical (kept die = Paragon die) adds to a passed test "
        "(default 1; 0 turns it off)",
        "damage_per_success": "boxes each success beyond the first adds to damage (default 1)",
        "injury_bars": "yes (default): the number of a filled injury box cannot be kept on a skill die; "
        "no: injuries never bar dice",
        "assault_bonus": "to-hit bonus of an Assault and of the foe's return attack (default 2)",
        "defend_penalty": "penalty on attacks against a defender that round (default 2: To-Hit 8 becomes 10)",
        "unengaged_gain": "initiative every unengaged combatant gains at the start of a melee round (default 1)",
        "intimidate_base": "Intimidate target: this + the foe's Rating, or a hero's Stag (default 7)",
        "escape_base": "Escape Foes target: this + the highest foe Rating, a hero counting its Hawk (default 7)",
        "grapple_damage": "boxes a successful Grapple marks before extra successes (default 1)",
        "coup_de_grace_cost": "initiative a coup-de-grace costs; it takes an unconscious foe out of the fight "
        "(default 1)",
        "victory": "downed (default): a side with nobody conscious has lost; out: only when all of it is out",
    }

    # -- sheets ---------------------------------------------------------------------------------
    def sheet_keys(self, variant: str | None = None) -> Sequence[SheetKey]:
        return (*HERO_KEYS[: -len(_SHARED_KEYS)], *ENEMY_KEYS)

    def read_sheet(self, enc: Encounter, raw: dict[str, str], base: dict[str, Any] | None = None) -> dict[str, Any]:
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
                f"{'that key' if len(wrong) == 1 else 'those keys'}. It takes {', '.join(own)}."
            )
        return check_sheet(raw, keys, base)

    def setup_combatant(self, enc: Encounter, c: Combatant, new: bool) -> list[Event]:
        if enc.started:
            c.state.setdefault("band", self._distance(enc))
        c.state["filled"] = min(c.state.get("filled", 0), len(c.sheet["track"]))
        c.hp = len(c.sheet["track"]) - c.state["filled"]
        if c.hp == 0 and c.status == "active":
            c.status = "downed"
        events: list[Event] = []
        if new and enc.started:
            events.append(
                Event(
                    kind="note",
                    note=f"{c.name} joins a fight in progress: the GM rolls its initiative with "
                    f"`/init roll combatant:{c.name}`.",
                )
            )
        return events + self._settle(enc)

    def place(self, enc: Encounter, c: Combatant, at: str | None, facing: str | None) -> None:
        if facing:
            raise InputError("TOTE has no map, so there is no facing: leave `facing` out.")
        if at:
            c.state["band"] = self._band_name(at, "at")

    def weapons_of(self, enc: Encounter, c: Combatant) -> list[str]:
        return [Weapon.parse(w).name for w in c.sheet.get("weapon", [])]

    def actions_for(self, enc: Encounter, c: Combatant | None) -> list[str]:
        return [*self._costs(enc), "distance"]

    # -- small helpers -----------------------------------------------------------------------------
    @staticmethod
    def is_enemy(c: Combatant) -> bool:
        """A sheet with ``rating`` is an enemy; every other sheet is a hero."""
        return "rating" in c.sheet

    def _level(self, c: Combatant) -> int:
        """An enemy's Rating, or a hero's Hawk: its base initiative, used for ties and Escape Foes."""
        return int(c.sheet["rating"] if self.is_enemy(c) else c.sheet["hawk"])

    @staticmethod
    def _int_option(enc: Encounter, key: str, default: int, low: int = 0, high: int = 99) -> int:
        return read_int(enc.option(key, str(default)) or str(default), key, low, high)

    @staticmethod
    def _yes_option(enc: Encounter, key: str, default: bool) -> bool:
        return yes_no(enc.option(key, "yes" if default else "no") or "yes", key)

    @staticmethod
    def _choice_option(enc: Encounter, key: str, choices: tuple[str, ...]) -> str:
        """The first of ``choices`` is the default."""
        raw = (enc.option(key) or choices[0]).strip().lower()
        if raw not in choices:
            raise InputError(
                f"The encounter option `{key}={raw}` is not accepted: use "
                f"{', '.join(f'`{c}`' for c in choices[:-1])} or `{choices[-1]}`."
            )
        return raw

    #: how the rules read each option of ``options_help`` (its default when unset)
    _OPTION_READERS: ClassVar[dict[str, Callable[[ToteSystem, Encounter], Any]]] = {
        "distance": lambda s, enc: s._choice_option(enc, "distance", BANDS),
        "init_target": lambda s, enc: s._int_option(enc, "init_target", 8),
        "extra_successes": lambda s, enc: s._yes_option(enc, "extra_successes", True),
        "critical_successes": lambda s, enc: s._int_option(enc, "critical_successes", 1),
        "damage_per_success": lambda s, enc: s._int_option(enc, "damage_per_success", 1),
        "injury_bars": lambda s, enc: s._yes_option(enc, "injury_bars", True),
        "assault_bonus": lambda s, enc: s._int_option(enc, "assault_bonus", 2),
        "defend_penalty": lambda s, enc: s._int_option(enc, "defend_penalty", 2),
        "unengaged_gain": lambda s, enc: s._int_option(enc, "unengaged_gain", 1),
        "intimidate_base": lambda s, enc: s._int_option(enc, "intimidate_base", 7),
        "escape_base": lambda s, enc: s._int_option(enc, "escape_base", 7),
        "grapple_damage": lambda s, enc: s._int_option(enc, "grapple_damage", 1),
        "coup_de_grace_cost": lambda s, enc: s._int_option(enc, "coup_de_grace_cost", 1),
        "victory": lambda s, enc: s._choice_option(enc, "victory", ("downed", "out")),
    }

    def _option(self, enc: Encounter, key: str) -> Any:
        """Encounter option ``key`` as the rules use it; a value they cannot use raises InputError."""
        return self._OPTION_READERS[key](self, enc)

    def check_options(self, enc: Encounter) -> None:
        for key in self.options_help:
            self._option(enc, key)

    def _distance(self, enc: Encounter, strict: bool = False) -> str:
        """The round type: "melee", or the band ("far"/"close") the GM set for distance rounds.

        Before the fight it comes from the encounter option ``distance``; ``strict`` refuses a
        bad value (presentation falls back to melee instead of failing).
        """
        if "distance" in enc.state:
            return str(enc.state["distance"])
        try:
            return str(self._option(enc, "distance"))
        except InputError:
            if strict:
                raise
            return "melee"

    def _melee(self, enc: Encounter) -> bool:
        return self._distance(enc) == "melee"

    def _costs(self, enc: Encounter) -> dict[str, int]:
        return MELEE_COSTS if self._melee(enc) else DISTANCE_COSTS

    @staticmethod
    def _band_name(text: str, where: str) -> str:
        band = text.strip().lower()
        if band not in BANDS:
            raise InputError(
                f"`{text}` is not a range band: TOTE has no map, so `{where}` takes far, close or melee "
                f"(the distance from the foes)."
            )
        return band

    def _band(self, enc: Encounter, c: Combatant) -> str:
        """``c``'s distance from the foes; unplaced combatants are at the encounter's distance."""
        return str(c.state.get("band") or self._distance(enc))

    @staticmethod
    def _active(enc: Encounter) -> list[Combatant]:
        return [c for c in enc.combatants if c.status == "active"]

    def _barred(self, enc: Encounter, c: Combatant) -> frozenset[int]:
        if not self._option(enc, "injury_bars"):
            return frozenset()
        return frozenset(int(b) for b in c.sheet["track"][: c.state.get("filled", 0)] if b != "U")

    def _pool(self, c: Combatant, skill: str) -> tuple[int, list[Modifier]]:
        """Skill dice and fixed modifiers of ``c`` for a test of ``skill``."""
        if not self.is_enemy(c):
            return int(c.sheet[skill]), []
        rating_dice = min(int(c.sheet["rating"]), 5)
        if skill not in _ATTACK_SKILLS or not c.sheet.get("tohit"):
            return rating_dice, []
        m = _TOHIT_RE.match(c.sheet["tohit"])
        assert m is not None
        count = int(m.group(1)) if m.group(1) is not None else rating_dice
        bonus = int(m.group(2) + m.group(3)) if m.group(2) else 0
        return count, [mod("to-hit bonus", bonus)] if bonus else []

    def _test(
        self,
        enc: Encounter,
        c: Combatant,
        skill: str,
        target: int,
        dice: Dice,
        action: Action,
        extra: Sequence[Modifier] = (),
    ) -> TestResult:
        count, mods = self._pool(c, skill)
        bonus = self._opt_number(action, "bonus", -10, 10)
        if bonus:
            mods.append(mod("bonus", bonus))
        with dice.rolling_for(c.name):
            return skill_test(
                dice,
                count,
                target,
                [*mods, *extra],
                keep=self._opt_number(action, "keep", 1, 6),
                barred=self._barred(enc, c),
                extra_successes=self._option(enc, "extra_successes"),
                critical_successes=self._option(enc, "critical_successes"),
            )

    @staticmethod
    def _opt_number(action: Action, key: str, low: int, high: int) -> int | None:
        options = getattr(action, "options", {})  # an initiative roll has none
        if key not in options:
            return None
        return read_int(options[key], key, low, high)

    def _label(self, c: Combatant, skill: str) -> str:
        """How a test's dice are named: the hero's skill, or an enemy's To-Hit / Rating dice."""
        if not self.is_enemy(c):
            return skill.capitalize()
        return "To-Hit" if skill in _ATTACK_SKILLS else "Rating dice"

    # -- engagement ------------------------------------------------------------------------------------
    @staticmethod
    def _pairs(enc: Encounter) -> list[list[str]]:
        return list(enc.state.get("engaged", []))

    def _engaged_with(self, enc: Encounter, name: str) -> list[str]:
        return [b if a == name else a for a, b in self._pairs(enc) if name in (a, b)]

    def _engage(self, enc: Encounter, a: str, b: str) -> bool:
        pair = sorted([a, b])
        if pair in self._pairs(enc):
            return False
        enc.state["engaged"] = [*self._pairs(enc), pair]
        return True

    def _release(self, enc: Encounter, name: str, other: str | None = None) -> None:
        enc.state["engaged"] = [p for p in self._pairs(enc) if name not in p or (other is not None and other not in p)]

    # -- turn order --------------------------------------------------------------------------------------
    def _sort_key(self, enc: Encounter, c: Combatant) -> tuple[int, ...]:
        ties = enc.state.get("tiebreak", [])
        rank = ties.index(c.name) if c.name in ties else len(ties)
        return (-(c.initiative or 0), int(self.is_enemy(c)), -self._level(c), rank, enc.combatants.index(c))

    def _ready(self, enc: Encounter) -> list[Combatant]:
        """Active combatants with initiative, highest first (heroes win ties, then Hawk/Rating, then the GM's order)."""
        return sorted((c for c in self._active(enc) if c.initiative is not None), key=lambda c: self._sort_key(enc, c))

    def _waiting(self, enc: Encounter) -> list[Combatant]:
        return [c for c in self._ready(enc) if c.state.get("acted") != enc.round]

    def turn(self, enc: Encounter) -> Turn:
        if not enc.started or enc.winner:
            return Turn()
        pending = enc.state.get("pending_return")
        if pending:
            foe = enc.get(pending["by"])
            label = (
                f"{foe.name} may return {pending['against']}'s Assault: `/attack` (free) or `/init next` to let it go"
            )
            return Turn((foe.name,), (enc.round, "return", foe.name), label, foe.name, foe.side)
        waiting = self._waiting(enc)
        if not waiting:
            return Turn(label="Nobody is ready to act: the GM rolls initiative with `/init roll combatant:NAME`.")
        c = waiting[0]
        later = ", ".join(f"{o.name} {o.initiative}" for o in waiting[1:4]) + (" …" if len(waiting) > 4 else "")
        label = f"{c.name} to act ({c.initiative} initiative)" + (f"; then {later}" if later else "")
        return Turn((c.name,), (enc.round, c.name), label, c.name, c.side)

    def _over(self, enc: Encounter) -> bool:
        sides = enc.sides()
        return len(sides) >= 2 and sum(not self.side_defeated(enc, s) for s in sides) <= 1

    def _settle(self, enc: Encounter) -> list[Event]:
        """Start the next round when nobody is left to act, then refresh phase, order and current."""
        events: list[Event] = []
        pending = enc.state.get("pending_return")
        if pending and enc.get(pending["by"]).status != "active":
            enc.state.pop("pending_return")
        live = enc.started and not enc.winner and not self._over(enc) and not enc.state.get("pending_return")
        if live and self._ready(enc) and not self._waiting(enc):
            events += self._start_round(enc, enc.round + 1)
        ready = self._ready(enc)
        enc.order = [c.name for c in ready if c.state.get("acted") != enc.round] + [
            c.name for c in ready if c.state.get("acted") == enc.round
        ]
        if enc.started:
            distance = self._distance(enc)
            if distance != "melee":
                bands = {self._band(enc, c) for c in self._active(enc)}
                distance = "close" if "close" in bands or "melee" in bands else "far"
            enc.phase = "melee" if distance == "melee" else f"distance: {distance}"
        enc.current = self.turn(enc).current
        return events

    def _start_round(self, enc: Encounter, number: int) -> list[Event]:
        """Begin round ``number``: switch to melee when someone is in Melee, then the unengaged gain.

        The first round of the fight has no gain: the starting initiative counts as its own.
        """
        enc.round = number
        enc.state.pop("pending_return", None)
        if self._melee(enc):
            note = "melee round"
        elif any(self._band(enc, c) == "melee" for c in self._active(enc)):
            enc.state["distance"] = "melee"
            note = "a combatant is in Melee: melee rounds begin"
        else:
            return [
                Event(
                    kind="round",
                    after=number,
                    note="distance round: move 0, shoot 0, shoot-and-move 1; no initiative gain",
                )
            ]
        for c in enc.combatants:
            if c.status != "out":
                c.state["band"] = "melee"
        events = [Event(kind="round", after=number, note=note)]
        gain = self._option(enc, "unengaged_gain")
        if number == 1 or not gain:
            return events
        for c in self._ready(enc):
            if c.state.get("melee_round") != number - 1 or c.state.get("disengaged") == number - 1:
                before = c.initiative or 0
                c.initiative = before + gain
                events.append(
                    Event(
                        kind="initiative",
                        actor=c.name,
                        before=before,
                        after=c.initiative,
                        note=f"{signed(gain)} unengaged",
                    )
                )
        return events

    # -- initiative commands ----------------------------------------------------------------------------------
    def roll_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        if action.actor is None and enc.started:
            raise IllegalAction(
                f"Combat has already started (round {enc.round}): roll for a newcomer with `combatant:NAME`, "
                f"or set a value with `/init set`."
            )
        if action.actor is not None:
            who = [enc.get(action.actor)]
            if who[0].status != "active":
                raise IllegalAction(f"{who[0].name} is {who[0].status} and does not take part in initiative.")
        else:
            if len(enc.sides()) < 2:
                raise IllegalAction("A fight needs two sides: add the foes (sheets with `rating`) before `/init roll`.")
            who = [c for c in self._active(enc) if c.initiative is None]
        target = self._option(enc, "init_target")
        events = [self._initiative_test(enc, c, target, dice, action) for c in who]
        if action.actor is None:
            enc.state["distance"] = self._distance(enc, strict=True)
            for c in enc.combatants:
                c.state.setdefault("band", enc.state["distance"])
            events += self._start_round(enc, 1)
        return events + self._settle(enc)

    def _initiative_test(self, enc: Encounter, c: Combatant, target: int, dice: Dice, action: Action) -> Event:
        r = self._test(enc, c, "plan", target, dice, action)
        base_label = "Rating" if self.is_enemy(c) else "Hawk"
        c.initiative = r.successes + self._level(c)
        return _test_event(
            "initiative",
            r,
            self._label(c, "plan"),
            None,
            actor=c.name,
            after=c.initiative,
            data={"base": self._level(c), "base_label": base_label},
        )

    def set_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        if not action.actor:
            raise InputError("Name the `combatant` whose initiative points you set.")
        c = enc.get(action.actor)
        if action.value is None or not 0 <= action.value <= 99:
            raise InputError("`/init set` needs a `value`: initiative points from 0 to 99.")
        before, c.initiative = c.initiative, action.value
        return [
            Event(kind="initiative", actor=c.name, before=before, after=c.initiative, note="set by the GM"),
            *self._settle(enc),
        ]

    def reorder_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        names = [enc.get(n).name for n in _items(action.name or "")]
        if not names:
            raise InputError("Give the names in the order ties should break, comma separated: `Borin, Thrain`.")
        enc.state["tiebreak"] = names + [n for n in enc.state.get("tiebreak", []) if n not in names]
        note = f"Ties left after initiative, heroes-first and Hawk/Rating now break in this order: {', '.join(names)}"
        return [Event(kind="note", note=note), *self._settle(enc)]

    def next_turn(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        self.need_started(enc)
        turn = self.turn(enc)
        if turn.current is None:
            raise IllegalAction("Nobody is waiting to act: the GM rolls initiative with `/init roll combatant:NAME`.")
        if action.actor and not action.is_gm and enc.get(action.actor).name != turn.current:
            raise NotYourTurn(f"It is {turn.current}'s turn, not {action.actor}'s: only they or the GM can pass it.")
        c = enc.get(turn.current)
        pending = enc.state.pop("pending_return", None)
        if pending:
            note = f"{c.name} lets {pending['against']}'s Assault go unanswered and keeps its action"
        else:
            c.state["acted"] = enc.round
            note = f"{c.name} passes, keeping {_plural(c.initiative or 0, 'initiative point')}"
        return [Event(kind="note", actor=c.name, note=note), *self._settle(enc)]

    # -- acting ------------------------------------------------------------------------------------------------
    def _acting(self, enc: Encounter, action: Action) -> Combatant:
        """The combatant named in ``action`` if it may act now, else a message saying who may."""
        self.need_started(enc)
        c = enc.get(action.actor)
        if c.status != "active":
            raise IllegalAction(
                f"{c.name} is {'unconscious' if c.status == 'downed' else 'out of the fight'} and cannot act."
            )
        unknown = [k for k in action.options if k not in _OPTION_WORDS]
        if unknown:
            raise InputError(
                f"`options`: {', '.join(f'`{k}`' for k in unknown)} is not read here. TOTE reads `keep=N` (the skill "
                f"die to keep), `bonus=N`, `ally=NAME`, `weapon=NAME` and a band (far, close, melee, in, away, escape)."
            )
        pending = enc.state.get("pending_return")
        if pending and pending["by"] != c.name:
            raise NotYourTurn(
                f"{pending['by']} first answers {pending['against']}'s Assault (a free `/attack` or `/init next`)."
            )
        if pending:
            return c
        if c.initiative is None:
            raise NotYourTurn(f"{c.name} has no initiative yet: the GM rolls it with `/init roll combatant:{c.name}`.")
        if c.state.get("acted") == enc.round:
            raise NotYourTurn(f"{c.name} has already acted in round {enc.round}: wait for round {enc.round + 1}.")
        first = self._waiting(enc)[0]
        if first is not c:
            raise NotYourTurn(
                f"It is {first.name}'s turn ({first.initiative} initiative): {c.name} ({c.initiative}) acts later "
                f"this round, highest initiative first."
            )
        return c

    def _perform(
        self, enc: Encounter, c: Combatant, name: str, action: Action, dice: Dice, cost: int | None = None
    ) -> list[Event]:
        """Check the round type and the cost, run the action, spend, and pass the turn on."""
        costs = self._costs(enc)
        if name not in costs and cost is None:
            if self._melee(enc):
                raise IllegalAction(
                    f"{name.capitalize()} is a distance-round action and this is a melee round: "
                    f"use {', '.join(MELEE_COSTS)} (or `/act action:disengage` to break off)."
                )
            raise IllegalAction(
                f"{name.capitalize()} is a melee-round action and this is a distance round ({self._distance(enc)}): "
                f"use move, shoot or shoot-and-move."
            )
        cost = costs[name] if cost is None else cost
        have = c.initiative or 0
        if cost > have:
            free = ", ".join(n for n, v in costs.items() if v == 0)
            raise IllegalAction(
                f"{c.name} has {_plural(have, 'initiative point')} and {name} costs {cost}: choose a cheaper "
                f"action ({free} cost 0) or pass with `/init next`."
            )
        handler: Handler = getattr(self, "_do_" + name.replace("-", "_"))
        c.initiative = have - cost
        spend = Event(kind="spend", actor=c.name, amount=cost, before=have, after=c.initiative, note=name)
        results = handler(enc, c, action, dice)
        c.state["acted"] = enc.round
        return [spend, *results, *self._settle(enc)]

    def act(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        name = (action.name or "").strip().lower().replace("&", "and").replace("_", "-").replace(" ", "-")
        name = re.sub("-+", "-", name)
        if name == "distance":
            return self._set_distance(enc, action)
        if name not in self.act_actions:
            raise IllegalAction(f"`{action.name}` is not a TOTE action. Actions: {', '.join(self.act_actions)}.")
        c = self._acting(enc, action)
        if enc.state.get("pending_return"):
            if name not in ("strike", "assault"):
                raise IllegalAction(
                    f"{c.name} may only return the Assault now (`/attack`) or let it go (`/init next`)."
                )
            return self._return_attack(enc, c, action, dice)
        return self._perform(enc, c, name, action, dice)

    def attack(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        c = self._acting(enc, action)
        if enc.state.get("pending_return"):
            return self._return_attack(enc, c, action, dice)
        return self._perform(enc, c, "strike" if self._melee(enc) else "shoot", action, dice)

    def move(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        if action.path or action.facing:
            raise InputError("TOTE has no map: move with `to:` a band (far, close, melee) or `in`, `away`, `escape`.")
        c = self._acting(enc, action)
        if self._melee(enc):
            raise IllegalAction(
                "In melee rounds nobody moves between bands: break off with `/act action:disengage` (3 initiative); "
                "the GM sets a new distance with `/act action:distance`."
            )
        return self._perform(enc, c, "move", action, dice)

    def coup_de_grace(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        c = self._acting(enc, action)
        if enc.state.get("pending_return"):
            raise IllegalAction(f"{c.name} may only return the Assault now (`/attack`) or let it go (`/init next`).")
        if not self._melee(enc):
            raise IllegalAction("A coup-de-grace is a melee blow: it waits for melee rounds.")
        return self._perform(enc, c, "coup_de_grace", action, dice, cost=self._option(enc, "coup_de_grace_cost"))

    def _set_distance(self, enc: Encounter, action: Action) -> list[Event]:
        if not action.is_gm:
            raise NotAllowed("Only the GM sets the distance.")
        words = [w for w in action.options if w in BANDS]
        if len(words) != 1 or len(action.options) != 1:
            raise InputError("Give one distance in `options`: `far`, `close` or `melee`, like `options:far`.")
        band = words[0]
        enc.state["distance"] = band
        enc.state.pop("pending_return", None)
        for c in enc.combatants:
            if c.status != "out":
                c.state["band"] = band
        if band != "melee":
            enc.state["engaged"] = []
        text = (
            "melee rounds"
            if band == "melee"
            else f"distance rounds at {band.capitalize()}: move 0, shoot 0, shoot-and-move 1"
        )
        when = "" if enc.started else " from the first round"
        return [
            Event(kind="note", note=f"The GM sets the distance: {text}{when}; everyone is at {band.capitalize()}."),
            *self._settle(enc),
        ]

    # -- targets and attacks --------------------------------------------------------------------------------
    def _foe(self, enc: Encounter, c: Combatant, name: str | None, *, downed: bool = False) -> Combatant:
        """The foe ``c`` targets: named, or the only engaged/standing one; engagement restricts the choice."""
        engaged = self._engaged_with(enc, c.name)
        if not name:
            standing = [o.name for o in enc.enemies_of(c) if o.status == ("downed" if downed else "active")]
            choices = engaged or standing
            if len(choices) == 1:
                name = choices[0]
            else:
                raise InputError(f"Name a `target`: {', '.join(choices) or 'there is no foe to target'}.")
        t = enc.get(name)
        if t.side == c.side:
            raise IllegalAction(f"{t.name} is on {c.name}'s side: pick a foe.")
        if t.status == "out":
            raise IllegalAction(f"{t.name} is out of the fight.")
        if downed and t.status != "downed":
            raise IllegalAction(
                f"{t.name} is not unconscious: a coup-de-grace needs an unconscious foe. Strike instead."
            )
        if not downed and t.status == "downed":
            raise IllegalAction(f"{t.name} is unconscious: `/coupdegrace target:{t.name}` takes them out of the fight.")
        if engaged and t.name not in engaged:
            raise IllegalAction(
                f"{c.name} is engaged with {', '.join(engaged)}: its actions must target "
                f"{'that foe' if len(engaged) == 1 else 'one of them'} until it disengages "
                f"(`/act action:disengage`, 3 initiative) or the foe is defeated."
            )
        return t

    def _ally(self, enc: Encounter, c: Combatant, name: str | None, action_name: str) -> Combatant:
        if not name:
            raise InputError(f"{action_name.capitalize()} needs an ally: name one (e.g. `options:ally=NAME`).")
        a = enc.get(name)
        if a.side != c.side or a is c or a.status != "active":
            raise IllegalAction(f"{a.name} is not a conscious ally of {c.name}: {action_name} needs one.")
        return a

    def _weapon(self, c: Combatant, name: str | None) -> Weapon:
        weapons = [Weapon.parse(w) for w in c.sheet["weapon"]]
        if not name:
            return weapons[0]
        for w in weapons:
            if w.name.casefold() == name.strip().casefold():
                return w
        raise InputError(f"{c.name} has no weapon `{name}`: weapons: {', '.join(w.name for w in weapons)}.")

    def _attack(
        self,
        enc: Encounter,
        c: Combatant,
        target: Combatant,
        action: Action,
        dice: Dice,
        *,
        skill: str,
        what: str,
        melee: bool,
        extra: Sequence[Modifier] = (),
        weapon: Weapon | None = None,
    ) -> tuple[list[Event], Combatant]:
        """One attack test and its damage; Protect redirects it. Returns the events and who was attacked."""
        events: list[Event] = []
        for p in self._active(enc):
            guard = p.state.get("protect", {})
            if guard.get("ally") == target.name and guard.get("round") == enc.round and p is not c:
                events.append(Event(kind="note", note=f"{p.name} protects {target.name} and takes the attack instead."))
                target = p
                break
        weapon = weapon or self._weapon(c, action.weapon or action.options.get("weapon"))
        mods = list(extra)
        if target.state.get("defend") == enc.round:
            mods.append(mod("Defend", -self._option(enc, "defend_penalty")))
        r = self._test(enc, c, skill, int(target.sheet["block"]), dice, action, mods)
        events.append(
            _test_event(
                "attack",
                r,
                self._label(c, skill),
                "Block",
                actor=c.name,
                target=target.name,
                weapon=weapon.name,
                data={"action": what},
            )
        )
        if r.success:
            events += self._wound(enc, c, target, weapon, r, melee)
        return events, target

    def _wound(
        self, enc: Encounter, c: Combatant, t: Combatant, weapon: Weapon, r: TestResult, melee: bool
    ) -> list[Event]:
        parts = [f"{weapon.name} {weapon.damage}"]
        amount = weapon.damage
        extra = (r.successes - 1) * self._option(enc, "damage_per_success")
        if extra:
            amount += extra
            parts.append(f"{signed(extra)} for {_plural(r.successes - 1, 'extra success', 'extra successes')}")
        if r.critical and weapon.effect:
            amount += weapon.effect
            parts.append(f"{signed(weapon.effect)} effect (critical)")
        for entry in t.sheet.get("resist") or []:
            kind, _, boxes = entry.partition(":")
            if kind == "all" or kind == weapon.kind:
                amount -= int(boxes)
                parts.append(f"−{boxes} resist {kind}")
        amount = max(amount, 0)
        before_hp, track, filled = t.hp, t.sheet["track"], t.state.get("filled", 0)
        newly = track[filled : filled + amount]
        t.state["filled"] = filled + len(newly)
        t.hp = len(track) - t.state["filled"]
        boxes = f"fills {' '.join(f'[{b}]' for b in newly)}" if newly else "no box filled"
        events = [
            Event(
                kind="damage",
                actor=c.name,
                target=t.name,
                amount=len(newly),
                before=before_hp,
                after=t.hp,
                note=f"{' '.join(parts)} = {amount}; {boxes}",
                data={"boxes": newly},
            )
        ]
        if melee and newly:
            for x in (c, t):
                x.state["melee_round"] = enc.round
            if self._engage(enc, c.name, t.name):
                events.append(Event(kind="note", note=f"{c.name} and {t.name} are now engaged."))
        if t.hp == 0:
            events += self._defeat(
                enc, t, "downed", "unconscious (U filled): a `/coupdegrace` takes them out of the fight"
            )
        return events

    def _defeat(self, enc: Encounter, t: Combatant, status: str, note: str) -> list[Event]:
        t.status = status  # type: ignore[assignment]
        self._release(enc, t.name)
        return [Event(kind="status", actor=t.name, after=status, note=note)]

    def _strike(
        self, enc: Encounter, c: Combatant, action: Action, dice: Dice, what: str, extra: Sequence[Modifier] = ()
    ) -> tuple[list[Event], Combatant]:
        target = self._foe(enc, c, action.target)
        return self._attack(enc, c, target, action, dice, skill="strike", what=what, melee=True, extra=extra)

    def _return_attack(self, enc: Encounter, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        pending = enc.state.pop("pending_return")
        assaulter = enc.get(pending["against"])
        if action.target and enc.get(action.target) is not assaulter:
            raise IllegalAction(f"A return attack answers the Assault: its target is {assaulter.name}.")
        bonus = mod("Assault return", self._option(enc, "assault_bonus"))
        events, _ = self._attack(
            enc, c, assaulter, action, dice, skill="strike", what="Return attack", melee=True, extra=[bonus]
        )
        c.state["acted"] = enc.round
        spend = Event(
            kind="spend", actor=c.name, amount=0, before=c.initiative, after=c.initiative, note="return attack"
        )
        return [spend, *events, *self._settle(enc)]

    # -- the actions (each returns its events; _perform spends and passes the turn) ---------------------
    def _do_strike(self, enc: Encounter, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        return self._strike(enc, c, action, dice, "Strike")[0]

    def _do_assault(self, enc: Encounter, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        bonus = self._option(enc, "assault_bonus")
        events, foe = self._strike(enc, c, action, dice, "Assault", [mod("Assault", bonus)])
        if foe.status != "active" or foe.initiative is None:
            return events
        if foe.state.get("acted") == enc.round:
            return events + [Event(kind="note", note=f"{foe.name} has already acted this round: no return attack.")]
        enc.state["pending_return"] = {"by": foe.name, "against": c.name}
        note = (
            f"{foe.name} may return the Assault now: `/attack target:{c.name}` (free, {signed(bonus)}; "
            f"it is {foe.name}'s action this round) or `/init next` to let it go."
        )
        return events + [Event(kind="note", note=note)]

    def _do_assist(self, enc: Encounter, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        ally = self._ally(enc, c, action.options.get("ally"), "assist")
        target = self._foe(enc, c, action.target)
        if ally.initiative is None:
            raise IllegalAction(f"{ally.name} has no initiative yet to add to.")
        before = ally.initiative
        ally.initiative += 1
        gain = Event(
            kind="initiative", actor=ally.name, before=before, after=ally.initiative, note=f"+1 from {c.name}'s Assist"
        )
        return [gain, *self._attack(enc, c, target, action, dice, skill="strike", what="Assist strike", melee=True)[0]]

    def _do_defend(self, enc: Encounter, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        strike = self._strike(enc, c, action, dice, "Defend strike")[0] if action.target else []
        c.state["defend"] = enc.round
        penalty = self._option(enc, "defend_penalty")
        before = c.initiative or 0
        c.initiative = before + 1
        return [
            Event(kind="note", note=f"{c.name} defends: attacks against {c.name} take −{penalty} this round."),
            Event(kind="initiative", actor=c.name, before=before, after=c.initiative, note="+1 Defend"),
            *strike,
        ]

    def _do_disengage(self, enc: Encounter, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        engaged = self._engaged_with(enc, c.name)
        if not engaged:
            raise IllegalAction(f"{c.name} is not engaged with anyone: there is nothing to disengage from.")
        if action.target:
            other = enc.get(action.target).name
            if other not in engaged:
                raise IllegalAction(f"{c.name} is not engaged with {other}: it is engaged with {', '.join(engaged)}.")
        elif len(engaged) == 1:
            other = engaged[0]
        else:
            raise InputError(f"Name the foe to disengage from as `target`: {', '.join(engaged)}.")
        self._release(enc, c.name, other)
        c.state["disengaged"] = enc.round
        return [Event(kind="note", note=f"{c.name} disengages from {other} and counts as unengaged next round.")]

    def _do_grapple(self, enc: Encounter, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        if action.weapon or "weapon" in action.options:
            raise InputError("A Grapple is a Brawl attack with bare hands: leave `weapon` out.")
        target = self._foe(enc, c, action.target)
        hold = Weapon("bare hands", self._option(enc, "grapple_damage"), 0, "bash")
        return self._attack(enc, c, target, action, dice, skill="brawl", what="Grapple", melee=True, weapon=hold)[0]

    def _do_intimidate(self, enc: Encounter, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        t = self._foe(enc, c, action.target)
        level, label = (t.sheet["rating"], "Rating") if self.is_enemy(t) else (t.sheet["stag"], "Stag")
        base = self._option(enc, "intimidate_base")
        r = self._test(enc, c, "impress", base + int(level), dice, action)
        test = _test_event(
            "check",
            r,
            self._label(c, "impress"),
            f"{base} + {label} {level} =",
            actor=c.name,
            target=t.name,
            data={"what": f"Intimidate {t.name}"},
        )
        if not r.success or t.initiative is None:
            return [test]
        before = t.initiative
        t.initiative = max(0, before - r.successes)
        return [
            test,
            Event(
                kind="initiative", actor=t.name, before=before, after=t.initiative, note=f"−{r.successes} intimidated"
            ),
        ]

    def _do_protect(self, enc: Encounter, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        if self._engaged_with(enc, c.name):
            raise IllegalAction(f"{c.name} is engaged: only an unengaged combatant can Protect. Disengage first.")
        ally = self._ally(enc, c, action.target or action.options.get("ally"), "protect")
        c.state["protect"] = {"ally": ally.name, "round": enc.round}
        return [
            Event(
                kind="note",
                note=f"{c.name} protects {ally.name}: attacks on {ally.name} hit {c.name} instead this round.",
            )
        ]

    def _do_shoot(self, enc: Encounter, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        engaged = self._engaged_with(enc, c.name)
        if engaged:
            raise IllegalAction(
                f"{c.name} is engaged with {', '.join(engaged)}: only an unengaged combatant can Shoot. "
                "Strike or Disengage."
            )
        target = self._foe(enc, c, action.target)
        return self._attack(enc, c, target, action, dice, skill="shoot", what="Shoot", melee=False)[0]

    def _do_move(self, enc: Encounter, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        return self._move_band(enc, c, self._wanted_band(action), action, dice)

    def _do_shoot_and_move(self, enc: Encounter, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        want = self._wanted_band(action)
        return self._do_shoot(enc, c, action, dice) + self._move_band(enc, c, want, action, dice)

    def _do_coup_de_grace(self, enc: Encounter, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        t = self._foe(enc, c, action.target, downed=True)
        return self._defeat(enc, t, "out", f"{c.name} delivers a coup-de-grace: {t.name} is out of the fight")

    # -- bands ------------------------------------------------------------------------------------------------
    @staticmethod
    def _wanted_band(action: Action) -> str:
        to = getattr(action, "to", None)  # `/move to:`; `/act` names the band in its options
        words = ([to.strip().lower()] if to else []) + [w for w in action.options if w in _BAND_WORDS]
        if len(words) != 1 or words[0] not in _BAND_WORDS:
            raise InputError(
                "Say where to move, once: a band (`far`, `close`, `melee`), or `in`, `away`, `escape` "
                "(`to:close`, or `options:close` with `/act`)."
            )
        return words[0]

    def _move_band(self, enc: Encounter, c: Combatant, want: str, action: Action, dice: Dice) -> list[Event]:
        here = self._band(enc, c)
        step = BANDS.index(here)
        if want == "in":
            if step == 0:
                raise IllegalAction(f"{c.name} is already in melee.")
            want = BANDS[step - 1]
        elif want == "away":
            want = "escape" if here == "far" else BANDS[step + 1]
        if want == "escape":
            if here != "far":
                raise IllegalAction(
                    f"{c.name} is at {here.capitalize()}: only a move away from Far tries to Escape Foes."
                )
            return self._escape(enc, c, action, dice)
        if want == here:
            raise IllegalAction(f"{c.name} is already at {here.capitalize()}.")
        if abs(BANDS.index(want) - step) != 1:
            raise IllegalAction(f"{c.name} is at {here.capitalize()}: a move goes one band, to Close.")
        c.state["band"] = want
        left = c.initiative or 0
        events = [Event(kind="move", actor=c.name, path=[here, want], data={"unit": "initiative", "left": left})]
        if want == "melee":
            events.append(Event(kind="note", note=f"{c.name} moves in from Close: melee rounds begin next round."))
        return events

    def _escape(self, enc: Encounter, c: Combatant, action: Action, dice: Dice) -> list[Event]:
        foes = [o for o in enc.enemies_of(c) if o.status == "active"]
        top = max(foes, key=self._level, default=None)
        level = self._level(top) if top else 0
        base = self._option(enc, "escape_base")
        label = (
            f"{base} + {'Rating' if top and self.is_enemy(top) else 'Hawk'} {level} ({top.name if top else 'nobody'}) ="
        )
        r = self._test(enc, c, "move", base + level, dice, action)
        test = _test_event("check", r, self._label(c, "move"), label, actor=c.name, data={"what": "Escape Foes"})
        if not r.success:
            return [test, Event(kind="note", note=f"{c.name} fails to escape and stays at Far.")]
        c.state["escaped"] = True
        return [test, *self._defeat(enc, c, "out", "escaped the fight")]

    # -- presentation ------------------------------------------------------------------------------------------
    def describe(self, event: Event) -> str | None:
        if event.kind == "spend":
            what = (event.note or "action").replace("_", " ").capitalize()
            if event.amount:
                return (
                    f"**{event.actor}** · {what}: spends {event.amount} initiative ({event.before} → **{event.after}**)"
                )
            return f"**{event.actor}** · {what}: free ({event.after} initiative left)"
        if "paragon" not in event.data:
            return None
        test = _test_text(event)
        if event.kind == "initiative":
            base = f"{event.data['base_label']} {event.data['base']}"
            return (
                f"**{event.actor}** starting initiative **{event.after}**: {test} → {event.data['successes']} + {base}"
            )
        if event.kind == "attack":
            return f"**{event.actor}** · {event.data['action']} at **{event.target}** with {event.weapon}: {test}"
        return f"**{event.actor}** · {event.data.get('what', 'test')}: {test}"

    def sheet_summary(self, c: Combatant) -> str:
        """The sheet without its default values, led by hero or enemy."""
        keys = {k.name: k.default for k in (ENEMY_KEYS if self.is_enemy(c) else HERO_KEYS)}
        parts = []
        for k, v in c.sheet.items():
            if v == keys.get(k) or v is None:
                continue
            shown = ",".join(map(str, v)) if isinstance(v, list) else ("yes" if v is True else v)
            parts.append(f"{k}={shown}")
        return ("enemy: " if self.is_enemy(c) else "hero: ") + (" ".join(parts) or "default values")

    def _track_text(self, c: Combatant) -> str:
        filled = c.state.get("filled", 0)
        return "".join(f"[{'x' if i < filled else b}]" for i, b in enumerate(c.sheet["track"]))

    def status_line(self, enc: Encounter, c: Combatant) -> str:
        bits = [f"**{c.name}**"]
        if self.is_enemy(c):
            bits.append(f"rating {c.sheet['rating']}" + (" group" if c.sheet.get("group") else ""))
        if c.status == "out":
            return " · ".join([*bits, "escaped" if c.state.get("escaped") else "out"])
        bits += [
            self._band(enc, c),
            f"init {'—' if c.initiative is None else c.initiative}",
            f"{self._track_text(c)} {c.hp} left",
        ]
        engaged = self._engaged_with(enc, c.name)
        if engaged:
            bits.append(f"engaged: {', '.join(engaged)}")
        if enc.started and c.state.get("defend") == enc.round:
            bits.append("defending")
        guard = c.state.get("protect", {})
        if enc.started and guard.get("round") == enc.round:
            bits.append(f"protecting {guard['ally']}")
        if c.status == "downed":
            bits.append("unconscious")
        elif enc.started and c.state.get("acted") == enc.round:
            bits.append("acted")
        return " · ".join(bits)

    def board_extra(self, enc: Encounter) -> list[str]:
        if not enc.started:
            d = self._distance(enc)
            return [f"Starting distance: {d} (the GM changes it with `/act action:distance options:far|close|melee`)."]
        if self._melee(enc):
            costs = ", ".join(f"{n} {v}" for n, v in MELEE_COSTS.items())
            lines = [f"⚔️ Melee round: unengaged combatants gain initiative at the start of each. Costs: {costs}."]
        else:
            nearest = (enc.phase or "").removeprefix("distance: ").capitalize()
            lines = [
                f"🏹 Distance round, nearest band {nearest}: no initiative gain. "
                "Costs: move 0, shoot 0, shoot-and-move 1; "
                "moving in from Close starts melee, moving away from Far tries to Escape Foes."
            ]
        pairs = self._pairs(enc)
        lines.append("🔗 Engaged: " + ("; ".join(f"{a} ⇄ {b}" for a, b in pairs) if pairs else "nobody"))
        pending = enc.state.get("pending_return")
        if pending:
            lines.append(f"↩️ {pending['by']} may return {pending['against']}'s Assault.")
        return lines

    # -- victory and removal ------------------------------------------------------------------------------------
    def side_defeated(self, enc: Encounter, side: str) -> bool:
        down = ("out",) if self._option(enc, "victory") == "out" else ("out", "downed")
        return all(c.status in down for c in enc.combatants if c.side == side)

    def on_removed(self, enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
        self._release(enc, c.name)
        pending = enc.state.get("pending_return")
        if pending and c.name in (pending["by"], pending["against"]):
            enc.state.pop("pending_return")
        enc.state["tiebreak"] = [n for n in enc.state.get("tiebreak", []) if n != c.name]
        return self._settle(enc)
