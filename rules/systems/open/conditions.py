"""Conditions: effects named after them (`/effect add name:prone target:Grak rounds:2`) change
the rules while they run; an effect with any other name is the GM's own, which the rules do not read.

Each condition's reading (the common d20-style one, in this project's words):

- **prone**: its attacks have disadvantage; melee attacks against it from within 5 ft have
  advantage, other attacks against it disadvantage; moving costs double (crawling).
- **restrained**: speed 0; its attacks have disadvantage, attacks against it advantage; it has
  disadvantage on Dexterity saves.
- **grappled**: speed 0.
- **stunned**: speed 0 (it cannot move); it takes no actions or reactions; attacks against it have
  advantage; it fails Strength and Dexterity saves.
- **paralysed** (or paralyzed) and **unconscious**: as stunned, and it is helpless: an attack
  from within 5 ft that hits is a critical hit (so is `/coupdegrace`). A combatant down at 0 HP
  counts as unconscious. One down or unconscious is not also prone: attacks against it have advantage,
  ranged ones too (`conditions` leaves its prone out).
- **frightened**, **poisoned**: its attacks have disadvantage.
- **blinded**: its attacks have disadvantage, attacks against it advantage.
- **invisible**: its attacks have advantage, attacks against it disadvantage.
- **dodging** (the `dodge` action, until its next turn): attacks against it have disadvantage.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.effects import Effect
from rules.models import Combatant, Encounter

__all__ = ["Condition", "CONDITIONS", "CONDITION_NAMES", "conditions", "has"]


@dataclass(frozen=True)
class Condition:
    #: its own attacks: "adv", "dis" or ""
    attacks: str = ""
    #: attacks against it: "adv", "dis" or "" (prone: melee from 5 ft "adv", others "dis")
    against: str = ""
    speed_zero: bool = False
    crawl: bool = False
    #: no actions or reactions
    incapacitated: bool = False
    helpless: bool = False
    fails_str_dex: bool = False
    dex_dis: bool = False


_HELPLESS = Condition(against="adv", speed_zero=True, incapacitated=True, helpless=True, fails_str_dex=True)

CONDITIONS: dict[str, Condition] = {
    "prone": Condition(attacks="dis", against="prone", crawl=True),
    "restrained": Condition(attacks="dis", against="adv", speed_zero=True, dex_dis=True),
    "grappled": Condition(speed_zero=True),
    "stunned": Condition(against="adv", speed_zero=True, incapacitated=True, fails_str_dex=True),
    "paralysed": _HELPLESS,
    "unconscious": _HELPLESS,
    "frightened": Condition(attacks="dis"),
    "poisoned": Condition(attacks="dis"),
    "blinded": Condition(attacks="dis", against="adv"),
    "invisible": Condition(attacks="adv", against="dis"),
    "dodging": Condition(against="dis"),
}
_ALIASES = {"paralyzed": "paralysed"}
#: every name the rules read as a condition (its aliases too)
CONDITION_NAMES = frozenset(CONDITIONS) | frozenset(_ALIASES)


def conditions(enc: Encounter, c: Combatant, effects: list[Effect] | None = None) -> dict[str, Condition]:
    """The conditions on ``c`` now, by name (a down combatant is unconscious, and one unconscious is not also
    prone: its prone effect waits for it to be up); ``effects``: those running, if not all of ``enc``'s."""
    found: dict[str, Condition] = {}
    for e in enc.effects if effects is None else effects:
        if e.target == c.name:
            key = e.name.casefold()
            key = _ALIASES.get(key, key)
            if key in CONDITIONS:
                found[key] = CONDITIONS[key]
    if c.status == "downed":
        found["unconscious"] = CONDITIONS["unconscious"]
    if "unconscious" in found:
        found.pop("prone", None)
    return found


def has(enc: Encounter, c: Combatant, flag: str, effects: list[Effect] | None = None) -> bool:
    """Whether any condition on ``c`` sets ``flag`` (``helpless``, ``speed_zero``...)."""
    return bool(setting(enc, c, flag, effects))


def setting(enc: Encounter, c: Combatant, flag: str, effects: list[Effect] | None = None) -> list[str]:
    """The names of the conditions on ``c`` that set ``flag`` (``effects``: as `conditions`)."""
    return [name for name, k in conditions(enc, c, effects).items() if getattr(k, flag)]
