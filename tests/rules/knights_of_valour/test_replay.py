"""Knights of Valour: the defects a replay of whole fights found (a GM's HP edit, the coup de
grâce with a bow, melee reach across a wall's corner)."""
from __future__ import annotations

from rules.report import board_report
from rules.sheet import parse_pairs
from tests.rules.knights_of_valour.build import SYSTEM, add, duel, encounter, run


def _edit(enc, sheet: str):
    return run(enc, kind="edit", actor="Grak", raw_sheet=parse_pairs(sheet), gm=True)


def _hp_line(enc) -> str:
    board = board_report(SYSTEM, enc, numbers=True).text()
    return next(line for line in board.splitlines() if "**Grak**" in line)


# -- item 16: `hp` edits the current HP, `max_hp` the most ----------------------------------------
def test_a_gm_hp_edit_mid_fight_sets_the_current_hp_only() -> None:
    """"the Target suffers a number of Damage Points": the GM's `hp=3` mid-fight is Grak's HP now, out of 9; `hp=0` downs him at 0/9."""
    enc = duel()
    res = _edit(enc, "hp=3")
    grak = res.encounter.get("Grak")
    assert (grak.hp, grak.sheet["hp"]) == (3, 9) and "3/9 HP" in _hp_line(res.encounter)
    assert "HP set to 3 (was 9)" in SYSTEM.present.report("", res.events).text()
    down = _edit(res.encounter, "hp=0").encounter
    assert down.get("Grak").status == "downed" and "0/9 HP" in _hp_line(down)


def test_max_hp_sets_the_most_hp_and_leaves_the_current() -> None:
    """"the Target suffers a number of Damage Points": `max_hp=12` mid-fight raises Grak's most HP, not his HP now."""
    enc = _edit(duel(), "hp=4").encounter
    res = _edit(enc, "max_hp=12")
    grak = res.encounter.get("Grak")
    assert (grak.hp, grak.sheet["hp"]) == (4, 12) and "max_hp" not in grak.sheet
    assert "4/12 HP" in _hp_line(res.encounter)


def test_a_lowered_max_hp_caps_the_current_hp_and_says_so() -> None:
    """"the Target suffers a number of Damage Points": `max_hp=6` under Grak's 9 HP lowers his HP to 6, shown 6/6, and the reply says why."""
    res = _edit(duel(), "max_hp=6")
    grak = res.encounter.get("Grak")
    assert (grak.hp, grak.sheet["hp"]) == (6, 6) and "6/6 HP" in _hp_line(res.encounter)
    assert "HP lowered to 6 (was 9): no more than its `max_hp`" in SYSTEM.present.report("", res.events).text()
    raised = _edit(res.encounter, "max_hp=8").encounter.get("Grak")
    assert (raised.hp, raised.sheet["hp"]) == (6, 8)


def test_hp_above_the_most_stops_at_max_hp_in_a_fight() -> None:
    """In a fight `hp` sets the current HP, never above `max_hp`: Grak (9 HP at most, 4 now) healed 20 (`/combatant hp`) or set to `hp=30` has 9, 9/9 on the board, and the reply says why."""
    hurt = _edit(duel(), "hp=4").encounter
    for change, res in (("heal 20", run(hurt, kind="edit", actor="Grak", raw_sheet={}, hp_change=20, gm=True)),
                        ("hp=30", _edit(hurt, "hp=30"))):
        grak = res.encounter.get("Grak")
        assert (grak.hp, grak.sheet["hp"]) == (9, 9) and "9/9 HP" in _hp_line(res.encounter), change
        assert "HP set to 9 (was 4): no more than its `max_hp`" in SYSTEM.present.report("", res.events).text(), change


def test_the_gm_edit_reply_shows_the_hp_now_and_the_most() -> None:
    """The GM edit reply's sheet shows `hp=3 max_hp=9` after `hp=3`, and `hp=3 max_hp=12` after `max_hp=12`, as the board's 3/9 and 3/12."""
    res = _edit(duel(), "hp=3")
    text = SYSTEM.present.report("", res.events).text()
    assert "hp=3 max_hp=9" in text and "hp=9" not in text.replace("max_hp=9", ""), text
    text = SYSTEM.present.report("", _edit(res.encounter, "max_hp=12").events).text()
    assert "hp=3 max_hp=12" in text and "hp=12" not in text.replace("max_hp=12", ""), text


def test_before_the_fight_hp_is_both_and_max_hp_starts_a_combatant_hurt() -> None:
    """Before the fight `hp` is the most and the starting HP; `hp=4 max_hp=9` at add starts Grak hurt, 4 of 9."""
    enc = add(encounter(), "Grak", "hp=4 max_hp=9 weapons=club:1", "D4", "orcs", owner=None)
    grak = enc.get("Grak")
    assert (grak.hp, grak.sheet["hp"]) == (4, 9)
    enc = _edit(enc, "hp=7").encounter
    assert (enc.get("Grak").hp, enc.get("Grak").sheet["hp"]) == (7, 7)


# -- item 17: the coup de grâce's label, melee across a wall's corner -------------------------------
def _archer_over_downed_grak():
    enc = add(encounter(), "Snaga", "agi=-2 hp=5 weapons=club:1", "J9", "orcs", owner=None)
    enc = duel(knight="agi=1 hp=12 weapons=longbow:1", enc=enc)
    return _edit(enc, "hp=0").encounter


def test_a_coup_de_grace_with_a_longbow_is_not_called_melee() -> None:
    """"Ranged Attack: You may only make an Attack with a Ranged Weapon": a longbow's coup de grâce from 5 ft is labelled ranged, not melee."""
    enc = _archer_over_downed_grak()
    assert enc.get("Grak").status == "downed"
    res = run(enc, kind="coupdegrace", actor="Borin", target="Grak")
    line = SYSTEM.present.report("", res.events).text()
    assert "with longbow (ranged, 5 ft): coup de grâce" in line and "melee" not in line
    assert res.encounter.get("Grak").status == "out"


def test_melee_reaches_across_a_wall_corner() -> None:
    """"Melee Attack: The Target must be within 5" of your character", while only a Ranged Attack needs "Line-of-sight": a diagonal foe past a wall's corner is in reach."""
    enc = duel("C4", "D3", enc=encounter(blocked=("C3", "D4")))
    res = run(enc, [20, 8], kind="attack", actor="Borin", target="Grak")
    assert res.encounter.get("Grak").hp < 9
    assert "(melee, 5 ft)" in SYSTEM.present.report("", res.events).text()
