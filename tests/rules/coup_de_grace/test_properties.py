"""Coup-De-Grace property: any action either applies cleanly or changes nothing."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.actions import make_action
from rules.dice import Dice
from rules.errors import RulesError
from rules.systems.coup_de_grace import DRAFT_VARIANT
from tests.rules.coup_de_grace.build import SYSTEM, fight

# -- property: any action either applies cleanly or changes nothing -------------------------------------------------------
NAMES = ("A", "B", "T", "U")
action_st = st.tuples(
    st.sampled_from(["move", "attack", "coupdegrace", "next", "act"]),
    st.sampled_from(NAMES),
    st.sampled_from(NAMES),
    st.sampled_from([None, "C3", "D4", "E5", "A1", "F6", "B2"]),
    st.sampled_from([None, "N", "E S", "W W", "NE", "S"]),
    st.sampled_from([None, "N", "E", "S", "W"]),
    st.sampled_from([None, "sword", "spear", "crossbow", "hammer"]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(action_st, min_size=1, max_size=25),
    st.integers(0, 2**32 - 1),
    st.sampled_from([None, DRAFT_VARIANT]),
)
def test_any_action_sequence_keeps_the_encounter_consistent(
    actions: list[tuple[Any, ...]], seed: int, variant: str | None
) -> None:
    """Every action applies consistently or is refused without changing anything."""
    enc = fight(
        ("A", "a", "class=heavy weapons=hammer,sword hp=2", "C3", "E"),
        ("B", "a", "class=unarmoured weapons=crossbow", "B5", "E"),
        ("T", "b", "class=light weapons=spear hp=1", "D3", "W"),
        ("U", "b", "class=light weapons=sword,crossbow", "E5", "W"),
        variant=variant,
        blocked=("D5",),
    )
    rng = random.Random(seed)
    for kind, actor, target, to, path, facing, weapon in actions:
        action = make_action(
            kind,
            lenient=True,
            actor=actor,
            target=target,
            to=to if path is None else None,
            path=path,
            facing=facing,
            weapon=weapon,
            action="recover",
        )
        before = enc.model_dump()
        try:
            enc = SYSTEM.resolve(enc, action, Dice(rng=rng)).encounter
        except RulesError:
            assert enc.model_dump() == before
            continue
        cells = [c.position for c in enc.combatants if c.position]
        assert len(cells) == len(set(cells)) and "D5" not in cells
        for c in enc.combatants:
            expected = "out" if c.hp <= -1 else "downed" if c.hp == 0 else "active"
            assert c.status == expected and c.hp <= c.state.hp_max
            assert (c.position is None) == (c.status == "out")
            assert (c.facing is None) == (c.status != "active")
            assert c.state.mp is None or c.state.mp >= 0
        if enc.winner:
            break
        if enc.current:
            assert enc.get(enc.current).side == enc.state.priority

