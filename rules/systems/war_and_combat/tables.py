"""War & Combat's damage tables, as the text (shared/rules/war-and-combat.txt) gives them:
IMPACT CAP, DAMAGE THRESHOLDS, HIT LOCATIONS, wound severity, the wound effects table, the
action penalties, and the shock values and death check of shared/rules/README.md. One small
pure lookup per table; the mechanics that use them live elsewhere in the package.

Sibling modules: ``tables_movement`` (pace, terrain, action penalty by pace, obstacles, actions
during movement), ``tables_missile`` (range bands, moving targets, called shots, missile hit
locations), ``tables_options`` (combat options, secondary effects, miss-by tables).

Where the text is ambiguous, the reading chosen:

- IMPACT CAP's "-2 to 2" row rolls a d3, so the dice are (count, sides, modifier), not d6
  only. The table stops at 43-47; a higher cap goes on with the table's pattern (each 5 more adds
  a d6 and takes 1 more off). A cap below -7 still does the first row's 1 point: "Actual
  impact will range from 1 to a number close to the Impact Cap".
- DAMAGE THRESHOLDS stops at size 36; a larger size goes on with the table's pattern
  (Impaired half the size rounded up, Disabled the size, Destroyed twice the size). Size 1's
  Impaired is 0 as printed, although the pattern would give 1. Sizes below 1 read the "< 1" row.
- Severity: effective impact of 0 or less is no wound ("blows with an impact less than this
  value is ignored"). Penetration does not change the severity, only its nature (blunt or
  penetrating) and the shock record ("B16").
- The wound effects table prints two effects for the head, chest and belly under three
  columns; "Stun: ... cause stun when the light threshold is exceeded" puts them under Serious
  and Critical, so a light wound there has no effect beyond its action penalty. A critical wound
  exceeds the light threshold too, so it stuns as well: the Critical column names what it adds
  (knockout, a disabled chest, both legs disabled), not that the stun stops. A mortal wound
  (no column) takes the Critical column's effect; the wounded is also incapable of any action.
  A disabled chest ("conscious but immobile") is fallen, as the Defense it gets is the one of
  "a fallen, immobile character"; a disabled arm, leg or belly says nothing of falling, so
  the table does not make the victim fall; its "can no longer be used" does, as the wound
  effects apply it (`attacks.py`, option `disabled_limbs`): a disabled leg bears no weight and a
  disabled arm holds nothing.
- Defense after a wound effect: what the text names, no more: stun's "lose half their Defense
  (i.e., Base 5 + half Fighter rank)" is base 5 and half the Fighter rank rounded down, a
  fallen or crawling fighter's "base Defense of 5, then adds Fighter rank"; neither adds the
  Agility modifier unless the GM says so (option `down_agility`).
- Shock values (README: 4/10/16/19) follow the combat options columns (Superficial, Light,
  Serious, Critical), which the text's own example confirms ("a serious blunt wound to the
  head could be written as B16"). A mortal wound has no shock value: it calls for a death check.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, TypeVar

from rules.errors import InputError
from rules.systems.war_and_combat.catalogue import norm

__all__ = [
    "ImpactDice",
    "IMPACT_CAP",
    "impact_dice",
    "DAMAGE_THRESHOLDS",
    "thresholds",
    "LOCATIONS",
    "HIT_LOCATIONS",
    "hit_location",
    "SEVERITIES",
    "severity",
    "Wound",
    "wound",
    "WOUND_NATURE",
    "MORTAL_NATURE",
    "wound_nature",
    "ACTION_PENALTIES",
    "action_penalty",
    "SHOCK_VALUES",
    "shock_value",
    "death_check_target",
    "Check",
    "DefenseRule",
    "FALLEN",
    "STUNNED",
    "HELPLESS",
    "WoundEffect",
    "WOUND_EFFECTS",
    "wound_effect",
    "norm",
    "pick",
]

T = TypeVar("T")


def pick(table: Mapping[str, T], key: str, what: str) -> T:
    """``table[key]`` for a name as players type it (case, spaces, ``_``), or an InputError
    that lists the names the table knows."""
    name = norm(str(key))
    if name not in table:
        raise InputError(f"No {what} `{str(key)[:40]}`: choose from {', '.join(table)}.")
    return table[name]


# --- IMPACT CAP ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ImpactDice:
    """Impact dice: ``count`` dice of ``sides`` plus ``modifier`` (the "1 point" row is no
    dice and +1)."""

    count: int
    sides: int
    modifier: int

    @property
    def expression(self) -> str:
        """The dice as the text writes them: "1 point", "1d3", "4d6-3"."""
        if not self.count:
            return f"{self.modifier} point"
        tail = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{tail}"


#: IMPACT CAP: (lowest cap, highest cap, damage dice)
IMPACT_CAP: tuple[tuple[int, int, ImpactDice], ...] = (
    (-7, -3, ImpactDice(0, 6, 1)),
    (-2, 2, ImpactDice(1, 3, 0)),
    (3, 7, ImpactDice(1, 6, 0)),
    (8, 12, ImpactDice(2, 6, -1)),
    (13, 17, ImpactDice(3, 6, -2)),
    (18, 22, ImpactDice(4, 6, -3)),
    (23, 27, ImpactDice(5, 6, -4)),
    (28, 32, ImpactDice(6, 6, -5)),
    (33, 37, ImpactDice(7, 6, -6)),
    (38, 42, ImpactDice(8, 6, -7)),
    (43, 47, ImpactDice(9, 6, -8)),
)


def impact_dice(cap: int) -> ImpactDice:
    """IMPACT CAP: "Actual impact will range from 1 to a number close to the Impact Cap and is
    determined by rolling dice according to the table below" (-7 to -3: 1 point; -2 to 2: 1d3;
    3-7: 1d6; 8-12: 2d6-1; ... 43-47: 9d6-8). Below -7: 1 point; above 47: one more d6 and
    one more off for every 5 (48-52: 10d6-9)."""
    for low, high, dice in IMPACT_CAP:
        if low <= cap <= high:
            return dice
    if cap < IMPACT_CAP[0][0]:
        return IMPACT_CAP[0][2]
    count = (cap - 3) // 5 + 1
    return ImpactDice(count, 6, 1 - count)


# --- DAMAGE THRESHOLDS --------------------------------------------------------------------

#: DAMAGE THRESHOLDS: size -> (Impaired, Disabled, Destroyed); size 0 is the text's "< 1" row
DAMAGE_THRESHOLDS: dict[int, tuple[int, int, int]] = {
    0: (0, 0, 1),
    1: (0, 1, 2),
    2: (1, 2, 4),
    3: (2, 3, 6),
    4: (2, 4, 8),
    5: (3, 5, 10),
    6: (3, 6, 12),
    7: (4, 7, 14),
    8: (4, 8, 16),
    9: (5, 9, 18),
    10: (5, 10, 20),
    11: (6, 11, 22),
    12: (6, 12, 24),
    13: (7, 13, 26),
    14: (7, 14, 28),
    15: (8, 15, 30),
    16: (8, 16, 32),
    17: (9, 17, 34),
    18: (9, 18, 36),
    19: (10, 19, 38),
    20: (10, 20, 40),
    21: (11, 21, 42),
    22: (11, 22, 44),
    23: (12, 23, 46),
    24: (12, 24, 48),
    25: (13, 25, 50),
    26: (13, 26, 52),
    27: (14, 27, 54),
    28: (14, 28, 56),
    29: (15, 29, 58),
    30: (15, 30, 60),
    31: (16, 31, 62),
    32: (16, 32, 64),
    33: (17, 33, 66),
    34: (17, 34, 68),
    35: (18, 35, 70),
    36: (18, 36, 72),
}


def thresholds(size: int) -> tuple[int, int, int]:
    """DAMAGE THRESHOLDS: "Damage thresholds are based on the mass of the target": (Impaired,
    Disabled, Destroyed) for a size. Below 1: the "< 1" row (0, 0, 1); above 36, the last
    printed row, the table's pattern goes on: (size rounded up by half, size, twice size)."""
    if size < 1:
        return DAMAGE_THRESHOLDS[0]
    if size in DAMAGE_THRESHOLDS:
        return DAMAGE_THRESHOLDS[size]
    return ((size + 1) // 2, size, 2 * size)


# --- HIT LOCATIONS ------------------------------------------------------------------------

#: the general hit locations, head to foot
LOCATIONS: tuple[str, ...] = ("head", "arm", "chest", "belly", "leg")

#: HIT LOCATIONS (and MISSILE HIT LOCATIONS, printed the same): (lowest 3d6, highest, location)
HIT_LOCATIONS: tuple[tuple[int, int, str], ...] = (
    (3, 5, "head"),
    (6, 9, "arm"),
    (10, 11, "chest"),
    (12, 13, "belly"),
    (14, 18, "leg"),
)


def hit_location(total: int) -> str:
    """HIT LOCATIONS, 3d6: 3-5 Head, 6-9 Arm, 10-11 Chest, 12-13 Belly, 14-18 Leg. The text's
    MISSILE HIT LOCATIONS table is the same, so missiles use this too. A total beyond 3-18
    (a modified roll) reads the nearest end: head below 3, leg above 18."""
    for _, high, location in HIT_LOCATIONS:
        if total <= high:
            return location
    return HIT_LOCATIONS[-1][2]


# --- Wound severity -----------------------------------------------------------------------

#: the four wound severities, lightest first
SEVERITIES: tuple[str, ...] = ("light", "serious", "critical", "mortal")

#: (severity, penetrating) -> what the wound is, as the text describes it
WOUND_NATURE: dict[tuple[str, bool], str] = {
    ("light", False): "bruising",
    ("light", True): "light bleeding",
    ("serious", False): "contusions, but no broken bones",
    ("serious", True): "moderate bleeding",
    ("critical", False): "broken bones",
    ("critical", True): "life-threatening bleeding from deep cuts or punctures",
    ("mortal", False): "shattered bones or disrupted internal organs",
    ("mortal", True): "pierced, impaled, severed or disembowelled",
}
#: a mortal wound's nature by general location: "Mortal blunt wounds shatter bones in the arms, legs or chest,
#: shatter the skull, or disrupt the internal organs in the belly. Mortal punctures to the chest pierce the lungs or
#: heart, to the neck or belly impale. Mortal punctures to the arms or legs hit major blood vessel and cause serious
#: bleeding. Mortal cuts to the belly disembowel the victim; to the chest break ribs and hack internal organs; sever
#: the arms or legs." (a penetrating wound is a cut or a puncture: both are named; the head's is the neck's)
MORTAL_NATURE: dict[tuple[str, bool], str] = {
    ("head", False): "shattered skull",
    ("arm", False): "shattered bones",
    ("leg", False): "shattered bones",
    ("chest", False): "shattered bones",
    ("belly", False): "disrupted internal organs",
    ("head", True): "impaled",
    ("arm", True): "a major blood vessel hit (serious bleeding), or severed",
    ("leg", True): "a major blood vessel hit (serious bleeding), or severed",
    ("chest", True): "lungs or heart pierced, or ribs broken and internal organs hacked",
    ("belly", True): "impaled or disembowelled",
}


def wound_nature(severity: str, penetrating: bool, location: str) -> str:
    """What a wound of ``severity`` does at ``location`` (``left arm``, ``head``...), blunt or penetrating."""
    if severity == "mortal":
        return MORTAL_NATURE[(location.split()[-1], penetrating)]
    return WOUND_NATURE[(severity, penetrating)]


def severity(effective_impact: int, size: int) -> str | None:
    """Wound Severity: "Light wounds don't exceed the Impaired threshold. Serious wounds exceed
    the Impaired threshold but not the Disabled threshold. Critical wounds exceed the Disabled
    threshold but not the Destroyed threshold. Mortal wounds exceed the Destroyed threshold."
    No wound (None) when the effective impact is 0 or less: the armour absorbed it all."""
    if effective_impact <= 0:
        return None
    passed = sum(effective_impact > t for t in thresholds(size))
    return SEVERITIES[passed]


@dataclass(frozen=True)
class Wound:
    """A wound's severity and whether it penetrated (cutting or piercing) or is blunt."""

    severity: str
    penetrating: bool

    @property
    def nature(self) -> str:
        return WOUND_NATURE[(self.severity, self.penetrating)]

    @property
    def record(self) -> str:
        """The text's record of a wound: B (blunt) or P (penetrating) and the shock value:
        "a serious blunt wound to the head could be written as B16"; a mortal wound: B or P."""
        shock = shock_value(self.severity)
        return ("P" if self.penetrating else "B") + ("" if shock is None else str(shock))


def wound(effective_impact: int, size: int, penetrating: bool) -> Wound | None:
    """The wound an effective impact leaves on a target of ``size`` (see :func:`severity`)."""
    found = severity(effective_impact, size)
    return None if found is None else Wound(found, penetrating)


# --- Action penalties and shock -----------------------------------------------------------

#: "Action Penalty —> -1 -3 -7"; a mortal wound leaves no action at all
ACTION_PENALTIES: dict[str, int | None] = {"light": -1, "serious": -3, "critical": -7, "mortal": None}


def action_penalty(severity: str) -> int | None:
    """"Light wounds incur a -1 action penalty", serious -3, critical -7. None for a mortal
    wound: "Mortally wounded characters are incapable of performing any action"."""
    return pick(ACTION_PENALTIES, severity, "wound severity")


#: shock value by severity (shared/rules/README.md: 4/10/16/19; the combat options columns)
SHOCK_VALUES: dict[str, int | None] = {"superficial": 4, "light": 10, "serious": 16, "critical": 19, "mortal": None}


def shock_value(severity: str) -> int | None:
    """The shock check target a wound of ``severity`` sets (README default 4/10/16/19 for
    superficial, light, serious, critical; "a serious blunt wound ... B16"). None for a mortal
    wound, which calls for a death check instead."""
    return pick(SHOCK_VALUES, severity, "wound severity")


def death_check_target(mortal_wounds: int) -> int:
    """Death check (README default): 3d6 + Strength modifier must beat 10 + 3 per mortal wound."""
    return 10 + 3 * max(0, mortal_wounds)


# --- Wound effects ------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """A roll a wound calls for: 3d6 + the ``attribute``'s modifier must exceed ``target``."""

    attribute: str
    target: int


@dataclass(frozen=True)
class DefenseRule:
    """A Defense that replaces the usual one (10 + Fighter rank + Agility modifier): ``base``,
    plus the Fighter rank whole (``rank`` "full"), halved and rounded down ("half") or not at
    all ("none"), plus the Agility modifier when ``agility``."""

    base: int
    rank: str
    agility: bool

    def value(self, fighter_rank: int, agility_modifier: int) -> int:
        share = {"full": fighter_rank, "half": fighter_rank // 2, "none": 0}[self.rank]
        return self.base + share + (agility_modifier if self.agility else 0)


#: "A fallen character that can still move has a base Defense of 5, then adds Fighter rank"
#: (also "A crawling character has a base Defense of 5, plus Fighter rank"); no Agility modifier
#: unless the GM adds it (option `down_agility`)
FALLEN = DefenseRule(5, "full", False)
#: "Stunned characters lose half their Defense (i.e., Base 5 + half Fighter rank)"
STUNNED = DefenseRule(5, "half", False)
#: "Unconscious characters have a base Defense of 3 and get no Fighter rank or Agility
#: modifiers"; "A fallen, immobile character has a base Defense of 3, and gets no Fighter rank
#: or Agility modifier"
HELPLESS = DefenseRule(3, "none", False)


@dataclass(frozen=True)
class WoundEffect:
    """One entry of the wound effects table. When ``check`` is set the victim rolls it and the
    rest applies only on a failure; otherwise the rest applies at once.

    ``actions_lost``: actions lost this round; ``no_action_rounds``: dice of rounds without any
    action; ``drops``: how far a carried item lands; ``falls``, ``unconscious``, ``immobile``;
    ``limb``: what becomes of the struck limb ("unusable this round", "impaired", "disabled",
    "both legs disabled"); ``this_round``: the limb is also unusable for the rest of the round
    (Stumble, "Like the Stumble? check": it "may not stand on the leg for the rest of the
    round"); ``defense``: the Defense the victim has while it lasts."""

    name: str
    text: str
    check: Check | None = None
    actions_lost: int = 0
    no_action_rounds: str | None = None
    drops: str | None = None
    falls: bool = False
    unconscious: bool = False
    immobile: bool = False
    limb: str | None = None
    this_round: bool = False
    defense: DefenseRule | None = None


_STUN = WoundEffect(
    "stun",
    "Stunned characters lose half their Defense (i.e., Base 5 + half Fighter rank) and can take "
    "no action for 1d6 turns.",
    no_action_rounds="1d6",
    defense=STUNNED,
)
_DISABLED = "The limb is disabled and can no longer be used until healed."

#: (location, severity) -> effect; a light head, chest or belly wound has none
WOUND_EFFECTS: dict[tuple[str, str], WoundEffect] = {
    ("head", "serious"): _STUN,
    ("head", "critical"): WoundEffect(
        "knockout",
        "The character automatically falls unconscious.",
        no_action_rounds="1d6",
        falls=True,
        unconscious=True,
        defense=HELPLESS,
    ),
    ("arm", "light"): WoundEffect(
        "fumble?",
        "Roll 3d6 + DEX modifier vs. 10. Failure means (1) any item carried is dropped 1d6-1 "
        "meters from the character, (2) one action is lost this round, and (3) the arm cannot "
        "be used to perform an action for the remainder of the round.",
        check=Check("dex", 10),
        actions_lost=1,
        drops="1d6-1 m",
        limb="unusable this round",
    ),
    ("arm", "serious"): WoundEffect(
        "fumble",
        "Like the Fumble? check except any item carried is automatically dropped. The "
        "character's arm is now impaired, and he can no longer make attacks or defenses with the "
        "injured arm, but may still carry hand held items and perform light tasks.",
        actions_lost=1,
        drops="1d6-1 m",
        limb="impaired",
    ),
    ("arm", "critical"): WoundEffect("disabled", _DISABLED, limb="disabled"),
    ("chest", "serious"): _STUN,
    ("chest", "critical"): WoundEffect(
        "disabled",
        "In the case of a chest wound, the character is conscious but immobile. A fallen, "
        "immobile character has a base Defense of 3, and gets no Fighter rank or Agility modifier.",
        no_action_rounds="1d6",
        falls=True,
        immobile=True,
        defense=HELPLESS,
    ),
    ("belly", "serious"): _STUN,
    ("belly", "critical"): WoundEffect(
        "disabled",
        "In the case of a belly wound, both legs are disabled.",
        no_action_rounds="1d6",
        limb="both legs disabled",
    ),
    ("leg", "light"): WoundEffect(
        "stumble?",
        "Roll 3d6 + AGL modifier vs. 10. Failure means the victim falls. A fallen character that "
        "can still move has a base Defense of 5, then adds Fighter rank. The character loses one "
        "action this round and may not stand on the leg for the rest of the round.",
        check=Check("agl", 10),
        actions_lost=1,
        falls=True,
        limb="unusable this round",
        defense=FALLEN,
    ),
    ("leg", "serious"): WoundEffect(
        "stumble",
        "Like the Stumble? check, except the character automatically falls down. The "
        "character's leg is now impaired: reduce movement rate by 1/2 if one leg is so injured, "
        "or to a crawl if both legs are impaired.",
        actions_lost=1,
        falls=True,
        limb="impaired",
        this_round=True,
        defense=FALLEN,
    ),
    ("leg", "critical"): WoundEffect("disabled", _DISABLED, limb="disabled"),
}


def wound_effect(location: str, severity: str) -> WoundEffect | None:
    """Wound Effects ("Wounds to different hit locations have different effects"):
    Head: -, Stun, Knockout; Arm: Fumble?, Fumble, Disabled; Chest and Belly: -, Stun, Disabled;
    Leg: Stumble?, Stumble, Disabled (Light, Serious, Critical). A mortal wound reads the
    Critical column (it is past the Destroyed threshold, beyond every column). The head's, chest's and belly's
    Critical effects stun too ("cause stun when the light threshold is exceeded")."""
    where = pick({name: name for name in LOCATIONS}, location, "hit location")
    how = pick({name: name for name in SEVERITIES}, severity, "wound severity")
    return WOUND_EFFECTS.get((where, "critical" if how == "mortal" else how))
