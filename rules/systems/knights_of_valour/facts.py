"""What Knights of Valour's board and turn line show, worked out by the rules once per render
(`KovFacts`): the presenter words these numbers and names and works nothing out itself."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.facts import Facts
from rules.models import Encounter
from rules.systems.knights_of_valour.turns import effective
from rules.turns import ordered

__all__ = ["KovFacts", "board_facts"]


@dataclass(frozen=True)
class KovFacts(Facts):
    """The turn, and the initiative each combatant in the order acts on."""

    #: combatant in the order -> the initiative it acts on (`/init set`'s or its Agility, a delay included)
    initiative: Mapping[str, int]


def board_facts(enc: Encounter) -> KovFacts:
    """The facts of ``enc`` for its presenter (`rules.system.SystemContract.facts`)."""
    return KovFacts(
        turn=ordered.turn(enc),
        initiative={n: effective(c) for n in enc.order if (c := enc.find(n))},
    )
