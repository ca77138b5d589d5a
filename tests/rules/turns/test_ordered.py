"""The initiative order procedure (rules/turns/ordered.py): highest first, system tie-breaks, skips, delay, reverse."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.system import Turn
from rules.turns import ordered
from rules.turns.ordered import (
    Slot,
    arrange,
    delay_refusal,
    lowered,
    next_to_act,
    tied_groups,
)
from tests.scenario import Scenario

#: Knights of Valour's tie-break: players (False) before monsters, then the GM's order
PARTY = [
    Slot("Grak", 1, (True, 0)),
    Slot("Borin", 1, (False, 1)),
    Slot("Alda", 2, (False, 2)),
    Slot("Thrain", 1, (False, 0)),
    Slot("Snaga", 0, (True, 1), can_act=False),
]


def test_highest_first_with_the_systems_tie_breaks() -> None:
    """Highest initiative first; on a tie the smaller tie-break acts first (players, then the GM's order)."""
    assert arrange(PARTY) == ["Alda", "Thrain", "Borin", "Grak", "Snaga"]


def test_reverse_runs_lowest_first() -> None:
    """`reverse=True` gives the same order backwards (War & Combat's adjustment phase)."""
    assert arrange(PARTY, reverse=True) == ["Snaga", "Grak", "Borin", "Thrain", "Alda"]


def test_those_who_acted_keep_their_places() -> None:
    """A combatant that has had its turn keeps its place when the others are sorted again."""
    changed = [s if s.name != "Borin" else Slot("Borin", 5, (False, 1)) for s in PARTY]
    assert arrange(changed, acted=["Alda", "Thrain"]) == ["Alda", "Thrain", "Borin", "Grak", "Snaga"]
    assert arrange(changed)[0] == "Borin"


def test_next_skips_those_who_cannot_act_and_those_who_acted() -> None:
    """One turn each per round; downed combatants are skipped; None ends the round."""
    order = arrange(PARTY)
    can_act = {s.name for s in PARTY if s.can_act}
    assert next_to_act(order, [], can_act) == "Alda"
    assert next_to_act(order, ["Alda", "Thrain", "Borin"], can_act) == "Grak"
    assert next_to_act(order, ["Alda", "Thrain", "Borin", "Grak"], can_act) is None


def test_tied_groups() -> None:
    """Groups of two or more sharing an initiative, in order."""
    assert tied_groups(PARTY) == [["Thrain", "Borin", "Grak"]]


@pytest.mark.parametrize(("window", "acted", "current", "used", "fresh", "may", "refusal"), [
    ("start", [], None, False, True, True, None),
    ("start", [], None, False, True, False, "not_allowed"),
    ("start", ["Alda"], "Alda", False, False, True, "not_start"),
    ("turn", ["Alda"], "Alda", False, False, True, None),
    ("turn", ["Borin", "Alda"], "Alda", False, False, True, "acted"),
    ("turn", ["Borin"], "Borin", True, False, True, "acted"),
    ("turn", ["Borin"], "Borin", False, False, True, None),
])
def test_delay_refusals(window: str, acted: list[str], current: str | None, used: bool, fresh: bool,
                        may: bool, refusal: str | None) -> None:
    """Delay is allowed within the system's window, before one's turn has been used, for those it allows."""
    got = delay_refusal("Borin", window=window, acted=acted, current=current,
                        turn_used=used, round_start=fresh, may_delay=may)
    assert got == refusal


def test_lowered() -> None:
    """To a number, by an amount (never under the floor), or below another's initiative."""
    assert lowered(2, floor=-99, to=0) == 0
    assert lowered(2, floor=-99, by=3) == -1
    assert lowered(2, floor=-99, by=500) == -99
    assert lowered(2, floor=-99, below=1) == 0
    assert lowered(2, floor=-99, below=7) == 2
    assert lowered(2, floor=-99) is None


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(-5, 5), st.booleans()), min_size=1, max_size=10), st.booleans())
def test_order_property(fighters: list[tuple[int, bool]], reverse: bool) -> None:
    """Every slot appears once; forwards, initiative never rises and ties follow the tie-break; reverse is the mirror."""
    slots = [Slot(f"F{i}", init, (monster, i)) for i, (init, monster) in enumerate(fighters)]
    order = arrange(slots, reverse=reverse)
    assert sorted(order) == sorted(s.name for s in slots)
    forward = order[::-1] if reverse else order
    by_name = {s.name: s for s in slots}
    keys = [(-by_name[n].initiative, by_name[n].tiebreak) for n in forward]
    assert keys == sorted(keys)


def test_the_turn_is_the_current_combatants_and_both_initiative_systems_use_it() -> None:
    """One turn each: the turn names the current combatant, keyed by round and name; nobody before the
    start or between turns. Knights of Valour and the open system both answer with this one function."""
    s = Scenario("knights-of-valour").add("Borin", "agi=2 hp=9", side="party", at="B2")
    s.add("Grak", "agi=1 hp=9", side="orcs", at="F2", owner=None)
    assert ordered.turn(s.enc) == Turn()
    s.run("init_roll")
    assert ordered.turn(s.enc) == Turn(actors=("Borin",), key=(1, "Borin"), current="Borin", side="party")
    assert ordered.turn(s.enc, lambda c: (7,)).points == (7,)
    assert s.system.turn(s.enc) == ordered.turn(s.enc)
    o = Scenario("open").add("Ann", "hp=10", at="B2").add("Gob", "hp=10", at="F2", owner=None)
    o.run("init_roll", [15, 12])
    assert o.system.turn(o.enc) == ordered.turn(o.enc, lambda c: (30,))
