"""What Coup-De-Grace's board, turn line and `/init order` show, worked out by the rules once per
render (`CdgFacts`): the presenter words these numbers and names and works nothing out itself."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.events import Modifier
from rules.facts import Facts, effect_changes
from rules.models import Encounter
from rules.systems.coup_de_grace.sheet import defence, movement
from rules.systems.coup_de_grace.state import CdgCombatant
from rules.systems.coup_de_grace.turns import side_order, turn

__all__ = ["CdgFacts", "board_facts"]


@dataclass(frozen=True)
class CdgFacts(Facts):
    """The turn, each mini's Defence Value and movement allowance as the running effects leave
    them, this round's order of sides, and each side's minis still to activate."""

    #: mini -> its Defence Value, effects included (the board's ``DV``)
    dv: Mapping[str, int]
    #: mini -> its movement allowance, effects included (the board's ``MA``)
    ma: Mapping[str, int]
    #: mini -> what the running effects change its Defence Value and movement allowance by (none: no entry)
    dv_changes: Mapping[str, tuple[Modifier, ...]]
    ma_changes: Mapping[str, tuple[Modifier, ...]]
    #: the sides in this round's order (empty before the fight starts)
    sides: tuple[str, ...]
    #: side -> its minis in the fight that have not activated this round, in the order they joined
    waiting: Mapping[str, tuple[str, ...]]


def board_facts(enc: Encounter) -> CdgFacts:
    """The facts of ``enc`` for its presenter (`rules.system.SystemContract.facts`)."""
    sides = tuple(side_order(enc)) if enc.started else ()
    waiting = {
        side: tuple(c.name for c in enc.combatants if c.side == side and c.in_fight and not CdgCombatant.of(c).done)
        for side in sides
    }
    dv_changes, ma_changes = effect_changes(enc, "defence"), effect_changes(enc, "ma")
    return CdgFacts(
        turn=turn(enc),
        dv={c.name: defence(c) + sum(m.value for m in dv_changes.get(c.name, ())) for c in enc.combatants},
        ma={c.name: movement(enc, c) for c in enc.combatants},
        dv_changes=dv_changes,
        ma_changes=ma_changes,
        sides=sides,
        waiting=waiting,
    )
