"""Knights of Valour: the defects a replay of whole fights found (a GM's HP edit, the coup de
grâce with a bow, melee reach across a wall's corner)."""
from __future__ import annotations

import pytest

from rules.errors import SheetError
from rules.report import board_report
from rules.sheet import parse_pairs, parse_sheet_edit
from tests.rules.knights_of_valour.build import (
    KNIGHT,
    SYSTEM,
    add,
    duel,
    encounter,
    run,
    start,
)
from tests.rules.wording import ROOT


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
        reply = "GM: **Grak** gains 5 HP (4 → 9 HP; +20 stops at its most)" if change == "heal 20" else "HP set to 9 (was 4): no more than its `max_hp`"
        assert reply in SYSTEM.present.report("", res.events).text(), change


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


def _added(sheet: str):
    return run(encounter(), kind="add", name="Grak", raw_sheet=parse_pairs(sheet), at="D4", side="orcs", owner_id=None)


def test_an_hp_above_max_hp_given_with_it_is_refused() -> None:
    """"`max_hp` | the most hit points (default: hp)" (docs/systems/knights-of-valour.md): `hp=12 max_hp=10` at add
    is refused, saying what to give instead, as the open system refuses it; so is `max_hp=3 hp=8` in an edit."""
    with pytest.raises(SheetError) as err:
        _added("hp=12 max_hp=10")
    assert err.value.message == "`hp=12` is more than `max_hp=10`, the most hit points: give an `hp` up to 10, or a `max_hp` of 12 or more."
    enc = add(encounter(), "Grak", "hp=9", "D4", "orcs", owner=None)
    for when in (enc, start(add(enc, "Borin", KNIGHT, "C4", "dwarves"))):
        with pytest.raises(SheetError, match="`hp=8` is more than `max_hp=3`"):
            _edit(when, "max_hp=3 hp=8")


def test_hp_given_alone_before_the_fight_is_a_most_from_1_to_999() -> None:
    """"`max_hp` | ... | 1–999 | default: hp": before the fight `hp` alone is the most too, so `hp=-5` or `hp=0` at add
    is refused (give `max_hp` with it to add a combatant already down), and a relative edit is "refused as the value
    it gives would be (a range ...)" (docs/commands.md): `hp-30` on 12 HP, nothing changed."""
    for sheet in ("hp=-5", "hp=0"):
        with pytest.raises(SheetError) as err:
            _added(sheet)
        hp = sheet.removeprefix("hp=")
        assert err.value.message == (
            f"`hp={hp}` given alone is also the most hit points (`max_hp`), which is 1 to 999: give an `hp` from 1 "
            f"to 999, or give the most with it to start the combatant downed, like `hp={hp} max_hp=12`."
        )
    down = _added("hp=-5 max_hp=12").encounter.get("Grak")
    assert (down.hp, down.sheet["hp"], down.status) == (-5, 12, "downed")
    enc = add(encounter(), "Grak", "hp=12", "D4", "orcs", owner=None)
    pairs, deltas = parse_sheet_edit("hp-30")
    with pytest.raises(SheetError, match="`hp=-18` given alone is also the most hit points"):
        run(enc, kind="edit", actor="Grak", raw_sheet=pairs, deltas=deltas, gm=True)
    assert (enc.get("Grak").hp, enc.get("Grak").sheet["hp"]) == (12, 12)
    started = start(add(enc, "Borin", KNIGHT, "C4", "dwarves"))
    hurt = run(started, kind="edit", actor="Grak", raw_sheet=pairs, deltas=deltas, gm=True).encounter.get("Grak")
    assert (hurt.hp, hurt.sheet["hp"], hurt.status) == (-18, 12, "downed")  # in a fight `hp` is the HP now only


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


# -- relative edits of `max_hp`, `/combatant hp` before the fight ---------------------------------
def _relative(enc, sheet: str):
    pairs, deltas = parse_sheet_edit(sheet)
    return run(enc, kind="edit", actor="Grak", raw_sheet=pairs, deltas=deltas, gm=True)


def test_max_hp_changes_relatively_from_the_most_hp() -> None:
    """"`key+N` and `key-N` change any number a sheet holds from its value now" (docs/commands.md): Grak (4 of 9 HP)
    takes `max_hp+3` and `max_hp-2` as `max_hp=12` and `max_hp=7`, before the fight and in it alike."""
    hurt = add(encounter(), "Grak", "hp=4 max_hp=9 weapons=club:1", "D4", "orcs", owner=None)
    for enc in (hurt, start(add(hurt, "Borin", KNIGHT, "C4", "dwarves"))):
        for relative, absolute in (("max_hp+3", "max_hp=12"), ("max_hp-2", "max_hp=7")):
            assert _relative(enc, relative).encounter == _edit(enc, absolute).encounter, relative
        assert _relative(enc, "max_hp-6").encounter.get("Grak").hp == 3  # the HP is never more than the most


def test_combatant_hp_before_the_fight_changes_the_current_hp_only() -> None:
    """"`/combatant hp combatant:Grak change:-7` changes the current hit points" (docs/commands.md), before the fight as
    in it: Grak (4 of 9) loses 1 to 3 of 9, heals 20 to 9 of 9 (the reply says it gained 5), and a loss
    past 0 starts him downed (0 or less: downed), stopping at -99, never refused as a sheet edit."""
    enc = add(encounter(), "Grak", "hp=4 max_hp=9 weapons=club:1", "D4", "orcs", owner=None)
    lost = run(enc, kind="edit", actor="Grak", hp_change=-1, gm=True).encounter.get("Grak")
    assert (lost.hp, lost.sheet["hp"]) == (3, 9)
    healed = run(enc, kind="edit", actor="Grak", hp_change=20, gm=True)
    assert (healed.encounter.get("Grak").hp, healed.encounter.get("Grak").sheet["hp"]) == (9, 9)
    assert "GM: **Grak** gains 5 HP (4 → 9 HP; +20 stops at its most)" in SYSTEM.present.report("", healed.events).text()
    down = run(enc, kind="edit", actor="Grak", hp_change=-6, gm=True).encounter.get("Grak")
    assert (down.hp, down.sheet["hp"], down.status) == (-2, 9, "downed")
    for when in (enc, duel()):  # a loss stops at the least HP (-99) rather than being refused as `hp=-491`
        assert run(when, kind="edit", actor="Grak", hp_change=-500, gm=True).encounter.get("Grak").hp == -99


def test_max_hp_alone_before_the_fight_raises_the_hp_with_it_and_never_leaves_it_above() -> None:
    """"`max_hp` ... before the fight" (docs/systems/knights-of-valour.md): a raised most raises the HP now by as much
    (Grak at 9 of 9 given `max_hp=12` is 12 of 12, at 4 of 9 he is 7 of 12: his wound stays); a lowered one lowers
    only an HP above it (9 of 9 to 6 of 6, 4 of 9 to 4 of 6)."""
    whole = add(encounter(), "Grak", "hp=9 weapons=club:1", "D4", "orcs", owner=None)
    hurt = add(encounter(), "Grak", "hp=4 max_hp=9 weapons=club:1", "D4", "orcs", owner=None)
    for enc, sheet, wanted in ((whole, "max_hp=12", (12, 12)), (hurt, "max_hp=12", (7, 12)),
                               (whole, "max_hp=6", (6, 6)), (hurt, "max_hp=6", (4, 6))):
        grak = _edit(enc, sheet).encounter.get("Grak")
        assert (grak.hp, grak.sheet["hp"]) == wanted, sheet


def test_combatant_hp_reply_names_who_changed_it_as_every_system() -> None:
    """"the reply names who changed them, the GM or (before the fight) the combatant's player" (docs/commands.md): Bob's
    own `/combatant hp change:-2` reads `**P** loses 2 HP (4 → 2 HP), changed by its player`, the GM's heal of 5
    `GM: **P** gains 5 HP (2 → 7 HP)`, neither repeating the sheet."""
    enc = add(encounter(), "P", "hp=4 max_hp=9", "A1", "heroes", owner="1")
    lost = run(enc, kind="edit", actor="P", hp_change=-2, user_id="1")
    text = SYSTEM.present.report("", lost.events).text()
    assert "**P** loses 2 HP (4 → 2 HP), changed by its player" in text and "updated" not in text, text
    healed = run(lost.encounter, kind="edit", actor="P", hp_change=5, gm=True)
    text = SYSTEM.present.report("", healed.events).text()
    assert "GM: **P** gains 5 HP (2 → 7 HP)" in text and "updated" not in text and "HP set" not in text, text


def test_max_hp_alone_before_the_fight_does_not_bring_back_a_combatant_down() -> None:
    """"one at 0 HP or less keeps its HP and stays down (0/9 then `max_hp=12` is 0/12)" (docs/systems/knights-of-valour.md):
    Grak added at `hp=0 max_hp=9` (downed) given `max_hp=12` is 0 of 12 and still downed, with no "is now active"."""
    enc = add(encounter(), "Grak", "hp=0 max_hp=9 weapons=club:1", "D4", "orcs", owner=None)
    res = _edit(enc, "max_hp=12")
    grak = res.encounter.get("Grak")
    assert (grak.hp, grak.sheet["hp"], grak.status) == (0, 12, "downed")
    assert "now **active**" not in SYSTEM.present.report("", res.events).text()


def test_relative_hp_is_damage_in_the_fight_and_sets_both_before_it() -> None:
    """"in the fight `hp-7` is 7 damage, while before the fight an `hp` given alone (`hp=N`, `hp-7`) sets both the
    current and the most HP" (docs/commands.md): Grak at 9 of 9 given `hp-7` is 2 of 2 before the fight, 2 of 9 in it."""
    text = " ".join((ROOT / "docs" / "commands.md").read_text(encoding="utf-8").split())
    assert "in the fight `hp-7` is 7 damage, while before the fight an `hp` given alone (`hp=N`, `hp-7`) sets both" in text
    before = add(encounter(), "Grak", "hp=9 weapons=club:1", "D4", "orcs", owner=None)
    grak = _relative(before, "hp-7").encounter.get("Grak")
    assert (grak.hp, grak.sheet["hp"]) == (2, 2)
    grak = _relative(start(add(before, "Borin", KNIGHT, "C4", "dwarves")), "hp-7").encounter.get("Grak")
    assert (grak.hp, grak.sheet["hp"]) == (2, 9)
