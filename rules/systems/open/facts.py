"""What the open system's board and turn line show, worked out by its rules for the presenter to
word (`rules.facts`): numbers, names and condition names, by combatant; and the opportunity attack
a player is asked (`OpportunityQuestion`)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.events import Modifier
from rules.facts import Facts, Question, effect_changes
from rules.models import Encounter
from rules.systems.open import sheet
from rules.systems.open.conditions import conditions
from rules.turns import Turn

__all__ = ["OpenFacts", "OpportunityQuestion", "open_facts"]


@dataclass(frozen=True, kw_only=True)
class OpportunityQuestion(Question):
    """``kind`` ``opportunity``: ``mover`` is leaving ``attacker``'s reach at the cell ``at``; does
    ``attacker`` (the question's ``actor``) take an opportunity attack with its reaction? The
    answers: ``yes``, ``no`` (the deadline's answer, where the turns have one: ``deadline_hours``)."""

    mover: str
    attacker: str
    at: str
    deadline_hours: float = 0


@dataclass(frozen=True)
class OpenFacts(Facts):
    """Each combatant's numbers and conditions, by name (a name missing from ``temp_hp``,
    ``ac_changes``, ``conditions`` or ``held`` has none); ``turn.points`` holds the acting
    combatant's feet of movement left."""

    #: its hit point maximum
    max_hp: Mapping[str, int]
    #: its temporary hit points, where it has any
    temp_hp: Mapping[str, int]
    #: its AC as its sheet gives it (cover and effects are added to an attack's AC)
    ac: Mapping[str, int]
    #: what the running effects change its AC by, one modifier each (``+1 Shield of Faith``)
    ac_changes: Mapping[str, tuple[Modifier, ...]]
    #: the names of the conditions on it (`conditions.CONDITIONS`; a combatant down is unconscious)
    conditions: Mapping[str, tuple[str, ...]]
    #: the names of the conditions on it that take its actions (incapacitated), sorted
    held: Mapping[str, tuple[str, ...]]
    #: the combatants played by a player (not a GM): their death saves are shown while they are down
    players: frozenset[str]


def open_facts(enc: Encounter, turn: Turn) -> OpenFacts:
    """The facts of ``enc`` with ``turn`` (`rules.systems.open.OpenSystem.turn`)."""
    on = {c.name: conditions(enc, c) for c in enc.combatants}
    temp = {c.name: int(c.sheet.get("temp_hp", 0)) for c in enc.combatants}
    return OpenFacts(
        turn=turn,
        max_hp={c.name: sheet.max_hp(c) for c in enc.combatants},
        temp_hp={name: n for name, n in temp.items() if n},
        ac={c.name: sheet.ac(c) for c in enc.combatants},
        ac_changes=effect_changes(enc, "ac"),
        conditions={name: tuple(found) for name, found in on.items() if found},
        held={name: held for name, found in on.items() if (held := tuple(sorted(n for n, k in found.items() if k.incapacitated)))},
        players=frozenset(c.name for c in enc.combatants if sheet.is_player(enc, c)),
    )
