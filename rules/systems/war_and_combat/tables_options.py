"""War & Combat's COMBAT OPTIONS table and its Secondary Effects (shared/rules/war-and-combat.txt),
with the miss-by tables of Fumble-XX and Stumble-XX and the README's shock check, one pure
lookup each.

Where the text is ambiguous, the reading chosen:

- "Miss by": the roll is 3d6 + modifier against the target and must exceed it (the system's
  task roll), so a total equal to the target misses by 0; ``miss_by`` is target - total and
  a negative ``miss_by`` is a success (no effect).
- Shock-XX has no entry among the Secondary Effects; it is the README's shock check: 3d6 +
  Strength modifier against XX, failure loses 1 action, failing by 5 or more also stuns for
  1 round.
- Restrict "before attempting any action": a failure loses that action; a success acts at -1.
- The table's columns (Superficial, Light, Serious, Critical) are not the four wound
  severities (light to mortal) and the text does not say how an option's column is found; a
  "mortal" result reads the Critical column, the worst the table has.
- The intentions of a flurry (disarm, grapple, subdue, tackle, throw) name the rows
  (Disarming, Grappling, Subdual, Tackling, Throwing).
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.errors import InputError
from rules.systems.war_and_combat.tables import norm, pick

__all__ = [
    "OPTION_SEVERITIES",
    "COMBAT_OPTIONS",
    "INTENTS",
    "SecondaryEffect",
    "combat_option",
    "EFFECT_ATTRIBUTES",
    "secondary",
    "Outcome",
    "MISS_TABLES",
    "secondary_effect",
]

#: the COMBAT OPTIONS table's columns
OPTION_SEVERITIES: tuple[str, ...] = ("superficial", "light", "serious", "critical")

#: COMBAT OPTIONS: attack type -> the secondary effect of each column
COMBAT_OPTIONS: dict[str, tuple[str, str, str, str]] = {
    "disarming": ("fumble-4", "fumble-10", "fumble-16", "break"),
    "grappling": ("restrict-4", "restrict-10", "restrict-16", "restrict-19"),
    "subdual": ("shock-4", "shock-10", "shock-16", "shock-19"),
    "tackling": ("stumble-7", "stumble-13", "stumble-16", "stumble-19"),
    "throwing": ("stumble-7", "stumble-13", "stumble-16", "stumble-19"),
}

#: a flurry's declared intention -> its row
INTENTS: dict[str, str] = {
    "disarm": "disarming",
    "grapple": "grappling",
    "subdue": "subdual",
    "tackle": "tackling",
    "throw": "throwing",
    # "A fighter may also attempt to disarm, subdue, entangle, tackle ...": the table has no entangling
    # row; an entangling net, whip or cloak holds the victim as a grapple does (the project's reading)
    "entangle": "grappling",
}

#: the attribute whose modifier each secondary effect's roll adds ("break" has no roll)
EFFECT_ATTRIBUTES: dict[str, str | None] = {
    "fumble": "dex",
    "restrict": "str",
    "shock": "str",
    "stumble": "agl",
    "break": None,
}


@dataclass(frozen=True)
class SecondaryEffect:
    """A secondary effect as the table writes it: "fumble-16" is ``name`` fumble, ``target`` 16
    (the victim rolls 3d6 + ``attribute`` modifier and must exceed it); "break" has no target."""

    name: str
    target: int | None

    @property
    def attribute(self) -> str | None:
        return EFFECT_ATTRIBUTES[self.name]

    @property
    def code(self) -> str:
        return self.name if self.target is None else f"{self.name}-{self.target}"


def secondary(code: str) -> SecondaryEffect:
    """A secondary effect read from its code: "fumble-16", "Restrict-4", "break"."""
    name, _, target = code.strip().lower().partition("-")
    pick(EFFECT_ATTRIBUTES, name, "secondary effect")
    if name == "break":
        return SecondaryEffect(name, None)
    if not target.isdigit() or len(target) > 2:
        raise InputError(f"`{code[:40]}` needs a target number, such as `{name}-10`.")
    return SecondaryEffect(name, int(target))


def combat_option(kind: str, severity: str) -> SecondaryEffect:
    """COMBAT OPTIONS ("The maneuver table below determines the outcome for these attacks"):
    Disarming Fumble-4, Fumble-10, Fumble-16, Break; Grappling Restrict-4/10/16/19; Subdual
    Shock-4/10/16/19; Tackling and Throwing Stumble-7/13/16/19 (Superficial, Light, Serious,
    Critical). ``kind`` is the row or the intention (disarm, grapple, subdue, tackle, throw)."""
    key = norm(kind)
    row = pick(COMBAT_OPTIONS, INTENTS.get(key, key), "attack type")
    column = pick({s: i for i, s in enumerate(OPTION_SEVERITIES)} | {"mortal": 3}, severity, "severity")
    return secondary(row[column])


@dataclass(frozen=True)
class Outcome:
    """What a secondary effect does: ``actions_lost`` this round, ``drop`` (where the carried
    item lands), ``falls`` (how the victim lands), ``penalty`` on the action, ``stunned_rounds``,
    ``breaks`` (the weapon breaks)."""

    text: str
    actions_lost: int = 0
    drop: str | None = None
    falls: str | None = None
    penalty: int = 0
    stunned_rounds: int = 0
    breaks: bool = False


#: the miss-by tables: effect -> ((lowest miss, highest miss or None for "+", outcome), ...)
MISS_TABLES: dict[str, tuple[tuple[int, int | None, Outcome], ...]] = {
    "fumble": (
        (0, 0, Outcome("Item slips, but is caught. Lose 1 action this round.", actions_lost=1)),
        (1, 3, Outcome("Drop item at feet.", drop="at feet")),
        (4, None, Outcome("Item goes flying 1d6 hexes away in random direction.", drop="1d6 hexes, random direction")),
    ),
    "stumble": (
        (0, 0, Outcome("You slip, but catch yourself. Lose 1 action this round.", actions_lost=1)),
        (1, 3, Outcome("Fall to knees.", falls="knees")),
        (4, 6, Outcome("Fall to your hands and knees.", falls="hands and knees")),
        (7, None, Outcome("Fall on back, side, or face.", falls="back, side, or face")),
    ),
    "restrict": ((0, None, Outcome("Loses an action.", actions_lost=1)),),
    "shock": (
        (0, 4, Outcome("Loses 1 action.", actions_lost=1)),
        (5, None, Outcome("Loses 1 action and is stunned for 1 round.", actions_lost=1, stunned_rounds=1)),
    ),
}

_RESTRICTED = Outcome("May act at -1.", penalty=-1)
_BREAK = Outcome("A weapon break.", breaks=True)


def secondary_effect(code: str, miss_by: int | None = None) -> Outcome | None:
    """Secondary Effects: what ``code`` (e.g. "fumble-10") does to a victim whose roll missed
    its target by ``miss_by`` (target - total; below 0 the roll succeeded). Fumble-XX: "0 Item
    slips, but is caught. Lose 1 action this round. 1-3 Drop item at feet. 4+ Item goes flying
    1d6 hexes away in random direction." Stumble-XX: "0 You slip, but catch yourself. Lose 1
    action this round. 1-3 Fall to knees. 4-6 Fall to your hands and knees. 7+ Fall on back,
    side, or face." Restrict: "If he fails, he loses an action, otherwise he may act at -1."
    Break: "A weapon break." (no roll). None when the roll succeeded and nothing follows."""
    effect = secondary(code)
    if effect.name == "break":
        return _BREAK
    if miss_by is None:
        raise InputError(f"`{effect.code}` needs the roll: by how much it missed {effect.target}.")
    if miss_by < 0:
        return _RESTRICTED if effect.name == "restrict" else None
    for low, high, outcome in MISS_TABLES[effect.name]:
        if low <= miss_by and (high is None or miss_by <= high):
            return outcome
    raise AssertionError("the miss-by tables cover every miss from 0 up")
