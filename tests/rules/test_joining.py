"""Joining a fight under way: `/combatant add ... init:12` (or the system's own roll) places the
newcomer in the order in one step, and the reply announces it joining."""
from __future__ import annotations

import pytest

from rules.errors import InputError
from rules.events import JoinedFight
from tests.scenario import PLAYER, Scenario

KOV = "agi=1 hp=7 weapons=warhammer:1"


def kov_fight() -> Scenario:
    s = Scenario("knights-of-valour", map="8x6")
    s.add("Borin", "str=1 agi=1 hp=14 weapons=warhammer:2", side="dwarves", at="C4")
    s.add("Gob", KOV, side="orcs", at="E4")
    s.run("init_roll")
    return s


def test_init_places_the_newcomer_in_the_order_and_announces_it() -> None:
    """Knights of Valour: `init:12` adds Orc2 at initiative 12, in the order, announced as joining in round 1."""
    s = kov_fight()
    res = s.run("add", name="Orc2", raw_sheet={"agi": "2", "hp": "7", "weapons": "warhammer:1"}, side="orcs", at="F4", init=12)
    assert s.get("Orc2").initiative == 12 and "Orc2" in s.enc.order
    assert res.events[-1] == JoinedFight(actor="Orc2", round=1, initiative=12)
    assert s.text(res)[-1] == "**Orc2** joins the fight in round 1, at initiative 12"


def test_without_init_the_systems_rule_gives_it() -> None:
    """Knights of Valour gives a newcomer its Agility as initiative; the announcement says so."""
    s = kov_fight()
    res = s.run("add", name="Orc2", raw_sheet={"agi": "2", "hp": "7", "weapons": "warhammer:1"}, side="orcs", at="F4")
    assert s.get("Orc2").initiative == 2 and "Orc2" in s.enc.order
    assert res.events[-1] == JoinedFight(actor="Orc2", round=1, initiative=2)


def test_tote_newcomer_rolls_its_plan_test_as_it_joins() -> None:
    """TOTE: "Enemies calculate this by making a T8 Plan test, and adding the number of successes to their
    base Initiative value": a Rating 1 newcomer rolling 6 (Paragon 4) joins at 1 success + 1."""
    s = Scenario("tote")
    s.add("Borin", "hawk=2 plan=2 strike=3 weapon=axe:2:slash", side="heroes")
    s.add("Grak", "rating=2 tohit=3 weapon=club:2:bash", side="foes", owner=None)
    s.run("init_roll", [6, 5, 4, 3, 2, 1])
    res = s.run("add", [6, 4], name="Snaga", raw_sheet={"rating": "1", "weapon": "spear:1:pierce"}, side="foes", owner_id=None)
    assert s.get("Snaga").initiative == 2
    assert res.events[-1] == JoinedFight(actor="Snaga", round=1, initiative=2)


def test_init_is_refused_where_it_means_nothing() -> None:
    """Before the fight, or in a system without initiative numbers, `init` is refused and nothing changes."""
    s = Scenario("knights-of-valour", map="8x6").add("Borin", "str=1 agi=1 hp=14 weapons=warhammer:2", side="dwarves", at="C4")
    assert "before `/init roll`" in s.refused("add", name="Gob", raw_sheet={"hp": "7"}, side="orcs", at="E4", init=3, error=InputError)
    c = Scenario("coup-de-grace", map="8x6")
    c.add("Borin", "class=heavy weapons=hammer", side="dwarves", at="C3", facing="E")
    c.add("Grak", "class=light weapons=axe", side="orcs", at="F3", facing="W")
    c.run("init_roll", [6, 1])
    text = c.refused("add", name="Orc", raw_sheet={"class": "light"}, side="orcs", at="F4", facing="W", init=3, error=InputError)
    assert "no initiative numbers: leave `init` out" in text
    res = c.run("add", name="Orc", raw_sheet={"class": "light", "weapons": "axe"}, side="orcs", at="F4", facing="W")
    assert res.events[-1] == JoinedFight(actor="Orc", round=1)
    assert c.text(res)[-1] == "**Orc** joins the fight in round 1"


@pytest.mark.parametrize("count", [2])
def test_copies_join_at_the_same_initiative(count: int) -> None:
    """`count:2 init:9` adds Orc 1 and Orc 2, each joining at initiative 9."""
    s = kov_fight()
    res = s.run("add", name="Orc", raw_sheet={"agi": "0", "hp": "5", "weapons": "warhammer:1"}, side="orcs", at="F4 F5", init=9, count=count)
    assert [s.get(f"Orc {i}").initiative for i in (1, 2)] == [9, 9]
    assert [e.actor for e in res.events if isinstance(e, JoinedFight)] == ["Orc 1", "Orc 2"]


def test_one_added_at_its_least_joins_already_down_or_out() -> None:
    """The open system: "The GM's combatants are out at 0 HP" and "at 0 HP a player's combatant is down": one
    added at 0 HP is announced as joining already out (the GM's) or already down (a player's), as the board shows
    it, not as one joining able to act; one added able to act is announced as before."""
    s = Scenario("open", map="12x10")
    res = s.run("add", name="Orc", raw_sheet={"hp": "0"}, side="foes", at="E4", owner_id=None)
    assert s.get("Orc").status == "out"
    assert s.text(res)[0] == "**Orc** joins **foes** at E4, already out, the GM's: hp=0"
    res = s.run("add", name="Ann", raw_sheet={"hp": "0"}, at="B2", owner_id=PLAYER)
    assert s.get("Ann").status == "downed" and ", already down, played by" in s.text(res)[0]
    res = s.run("add", name="Bo", raw_sheet={"hp": "5"}, at="B3")
    assert "already" not in s.text(res)[0]
