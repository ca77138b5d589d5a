"""What TOTE's board and turn line show, worked out for its presenter (`ToteFacts`): each
combatant's distance from its nearest foe and engagements, who defends, protects, has acted or
counts as disengaged this round, and the round's distance and cost table. Names, bands and
numbers only: `present.py` words them."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.effects import active
from rules.facts import Facts
from rules.models import Encounter
from rules.systems.tote.movement import (
    band_of,
    costs,
    disengaged,
    distance_now,
    engaged_with,
    pair_band,
    round_distance,
)
from rules.systems.tote.sheet import is_enemy
from rules.systems.tote.state import DEFEND, PROTECT, ToteCombatant, ToteEncounter
from rules.turns import Turn

__all__ = ["ToteFacts", "board_facts"]


@dataclass(frozen=True)
class ToteFacts(Facts):
    """The turn, and by combatant's name: ``enemies`` (sheets with a Rating); ``band``, the distance
    from its nearest foe still in the fight (every combatant not out); ``engaged``, whom it is
    engaged with; ``disengaged``, ``defending`` and ``acted``, who counts as disengaged, defends
    or has acted this round; ``protecting``, the ally each protects this round.

    ``distance`` is the round's: before the fight the one it starts at (option ``distance``),
    then melee or the nearest band between two foes; ``costs`` the initiative each action costs
    in such a round; ``foe_bands``, once the fight started, for each combatant (of any side)
    whose foes are not all at one distance, the distance of each foe; ``apart``, in melee rounds,
    the combatants still in the fight in melee with no foe (they kept their distance)."""

    enemies: frozenset[str]
    band: Mapping[str, str]
    engaged: Mapping[str, tuple[str, ...]]
    disengaged: frozenset[str]
    defending: frozenset[str]
    acted: frozenset[str]
    protecting: Mapping[str, str]
    distance: str
    costs: Mapping[str, int]
    foe_bands: Mapping[str, Mapping[str, str]]
    apart: tuple[str, ...] = ()


def board_facts(enc: Encounter, turn: Turn) -> ToteFacts:
    """The facts of ``enc`` whose ``turn`` is under way (before the fight, nobody has done anything
    this round yet)."""
    shown = [c for c in enc.combatants if c.status != "out"]
    engaged = {c.name: tuple(engaged_with(enc, c.name)) for c in shown}
    distance = distance_now(enc) if enc.started else round_distance(enc)
    now = shown if enc.started else []
    bands = {c.name: band_of(enc, c) for c in shown}
    states = {c.name: ToteCombatant.of(c) for c in now}
    return ToteFacts(
        turn=turn,
        enemies=frozenset(c.name for c in enc.combatants if is_enemy(c)),
        band=bands,
        engaged={name: with_ for name, with_ in engaged.items() if with_},
        disengaged=frozenset(c.name for c in now if disengaged(enc, c)),
        defending=frozenset(c.name for c in now if active(enc.effects, c.name, DEFEND) is not None),
        acted=frozenset(name for name, st in states.items() if st.acted == enc.round),
        protecting={e.source: e.target for e in enc.effects if e.code == PROTECT and e.source in states and e.target},
        distance=distance,
        costs=costs(enc),
        foe_bands=_foe_bands(enc) if enc.started else {},
        apart=tuple(c.name for c in now if c.status == "active" and bands[c.name] != "melee") if distance == "melee" else (),
    )


def _foe_bands(enc: Encounter) -> dict[str, dict[str, str]]:
    """Each active combatant, of any side, whose active foes are not all at one distance: each foe's."""
    found, index = {}, ToteEncounter.of(enc).range_index()
    for c in enc.combatants:
        foes = [o for o in enc.enemies_of(c) if o.status == "active"]
        if c.status != "active" or not foes:
            continue
        bands = {o.name: pair_band(enc, c, o, index) for o in foes}
        if len(set(bands.values())) > 1:
            found[c.name] = bands
    return found
