"""The open system's sheet keys and initiative (docs/systems/open.md, "Sheet" and "Initiative")."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules.errors import RulesError
from rules.systems.open.sheet import parse_weapon
from rules.systems.open.state import OpenCombatant
from tests.scenario import Scenario

HERO = "hp=20 ac=15 dex=2 weapons=longsword:+5:1d8+3:slashing"
FOE = "hp=10 ac=12 weapons=claws:+4:1d6+2:slashing"


def test_weapons_and_save_attacks_read_in_one_form() -> None:
    """"an attack is `longsword:+5:1d8+3:slashing` with optional `:reach=10` and `:range=80/320`"; a save attack
    `fireball:save=dex:15:8d6:fire:half:area=burst20:range=150`."""
    glaive = parse_weapon("glaive:+5:1d10+3:slashing:reach=10")
    assert (glaive.bonus, glaive.damage, glaive.kind, glaive.reach, glaive.ranged) == (5, "1d10+3", "slashing", 10, False)
    bow = parse_weapon("longbow:+6:1d8+4:piercing:range=150/600")
    assert (bow.normal, bow.long, bow.ranged) == (150, 600, True)
    fire = parse_weapon("fireball:save=dex:15:8d6:fire:half:area=burst20:range=150")
    assert (fire.save, fire.dc, fire.damage, fire.kind, fire.half, fire.area, fire.size, fire.normal) == (
        "dex", 15, "8d6", "fire", True, "burst", 20, 150)


@pytest.mark.parametrize("bad", ["sword", "sword:5x:1d8:slashing", "sword:+5:1d8:slashing:reach=7",
                                 "zap:save=luck:15:8d6:fire", "bow:+5:1d8:piercing:range=80/20"])
def test_a_bad_weapon_is_refused_with_the_form(bad: str) -> None:
    """A weapon not in the form is refused, and the message shows the form."""
    s = Scenario("open")
    message = s.refused("add", name="Ann", raw_sheet={"hp": "5", "weapons": bad})
    assert "longsword:+5:1d8+3:slashing" in message


def test_defaults_max_hp_speed_reach_and_ac() -> None:
    """"`max_hp` (default `hp`) ... `ac` (default 10), `speed` in feet (default 30) ... `reach` (default 5 ft)"."""
    s = Scenario("open").add("Ann", "hp=12", at="B2")
    ann = s.get("Ann")
    assert (ann.hp, ann.sheet["max_hp"], ann.sheet["ac"], ann.sheet["speed"], ann.sheet["reach"]) == (12, 12, 10, 30, 5)


def test_initiative_rolls_each_expression_modifier_or_dice() -> None:
    """"a modifier such as `+3` is a d20 plus it, dice such as `1d20+3` are rolled as written; left out, a d20 plus `dex`"."""
    s = Scenario("open").add("Ann", "hp=5 init=+3", at="B2").add("Bo", "hp=5 init=2d6+1", at="C2")
    s.add("Cy", "hp=5 dex=4", at="D2", owner=None)
    s.run("init_roll", [10, 3, 4, 10])
    assert [s.get(n).initiative for n in ("Ann", "Bo", "Cy")] == [13, 8, 14]
    assert s.enc.order == ["Cy", "Ann", "Bo"]


def test_the_roll_off_d20s_go_to_one_tied_group_after_another() -> None:
    """"For `roll:`, the initiative dice in the order the combatants joined, then the roll-off d20s, one tied group
    after another" (docs/systems/open.md): Ava 10, Bea 11, Cid 11, Dog 10 take the d20s 5, 15, 3, 18 as Ava, Dog
    (the group Ava joined first in), then Bea, Cid; the page gives this example."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "open.md").read_text(encoding="utf-8").split())
    assert (
        "then the roll-off d20s, one tied group after another: the groups in the order their first combatant joined, "
        "each group's combatants in the order they joined (Ava 10, Bea 11, Cid 11 and Dog 10 roll off as Ava, Dog, Bea, Cid)"
    ) in page
    s = Scenario("open")
    for name in ("Ava", "Bea", "Cid", "Dog"):
        s.add(name, "hp=10 init=+0", at=None)
    s.run("init_roll", [10, 11, 11, 10, 5, 15, 3, 18])
    assert [OpenCombatant.of(s.get(n)).roll_off for n in ("Ava", "Dog", "Bea", "Cid")] == [5, 15, 3, 18]
    assert s.enc.order == ["Cid", "Bea", "Dog", "Ava"]


def test_ties_go_to_the_higher_modifier_then_a_roll_off() -> None:
    """"ties go to the higher modifier, then to a roll-off (a d20 each, higher first)"."""
    s = Scenario("open").add("Ann", "hp=5 init=+1", at="B2").add("Bo", "hp=5 init=+3", at="C2")
    s.add("Cy", "hp=5 init=+3", at="D2", owner=None)
    # Ann 12+1, Bo 10+3, Cy 10+3: all 13; Bo and Cy tie on +3 too and roll off: 4 and 17
    s.run("init_roll", [12, 10, 10, 4, 17])
    assert s.enc.order == ["Cy", "Bo", "Ann"]
    assert OpenCombatant.of(s.get("Cy")).roll_off == 17


def test_equal_roll_off_dice_keep_the_join_order_and_the_reply_says_so() -> None:
    """"equal roll-off dice keep the order the combatants joined, with no second roll-off, and the reply says so"
    (docs/systems/open.md): Ann and Bo both roll a 9 and Ann, who joined first, goes first."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "open.md").read_text(encoding="utf-8").split())
    assert ("equal roll-off dice keep the order the combatants joined, with no second roll-off, and the reply says so: "
            "`(equal dice keep the order they joined: Bea, Cid)`") in page
    s = Scenario("open").add("Ann", "hp=5 init=+3", at="B2").add("Bo", "hp=5 init=+3", at="C2")
    s.add("Cy", "hp=5 init=+1", at="D2").add("Dee", "hp=5 init=+1", at="E2")
    # all four 13; Ann and Bo tie on +3 and roll 9 each, Cy and Dee on +1 and roll 9 and 4
    res = s.run("init_roll", [10, 10, 12, 12, 9, 9, 9, 4])
    assert s.enc.order == ["Ann", "Bo", "Cy", "Dee"]
    text = s.system.present.view(s.enc, frozenset()).report("", res.events).text()
    assert ("ties settled by a roll-off: Ann 🎲 9✍, Bo 🎲 9✍, Cy 🎲 9✍, Dee 🎲 4✍ "
            "(equal dice keep the order they joined: Ann, Bo)\n") in text + "\n"


def test_group_init_copies_share_one_roll() -> None:
    """"Option `group_init=yes`: numbered copies (`/combatant add count:`) share one roll"."""
    s = Scenario("open", group_init="yes").add("Ann", "hp=5", at="B2")
    s.run("add", name="Goblin", raw_sheet={"hp": "5", "dex": "2"}, at="E2 F2 G2", count=3, owner_id=None)
    s.run("init_roll", [11, 7])  # Ann 11; the goblins one 7 (+2), and no roll-off among themselves
    assert [s.get(f"Goblin {i}").initiative for i in (1, 2, 3)] == [9, 9, 9]
    assert s.enc.order == ["Ann", "Goblin 1", "Goblin 2", "Goblin 3"]


def _page() -> str:
    return " ".join((Path(__file__).parents[3] / "docs" / "systems" / "open.md").read_text(encoding="utf-8").split())


def test_copies_sharing_a_roll_stay_together_in_number_order_and_roll_off_as_one() -> None:
    """"copies sharing a roll stay together in number order (Goblin 1, Goblin 2, Goblin 3) and roll off as one against
    the others they tie, one d20 for them all (`the Goblin group 🎲 12`)" (docs/systems/open.md): the Goblins and the
    Orc tie on 8 and +0; the group rolls 5, the Orc 12."""
    assert ("copies sharing a roll stay together in number order (Goblin 1, Goblin 2, Goblin 3) and roll off as one "
            "against the others they tie, one d20 for them all (`the Goblin group 🎲 12`)") in _page()
    s = Scenario("open", group_init="yes")
    for name in ("Goblin 3", "Goblin 1", "Goblin 2", "Orc"):  # joined out of number order
        s.add(name, "hp=5 init=+0", at=None, owner=None)
    res = s.run("init_roll", [8, 8, 5, 12])
    assert s.enc.order == ["Orc", "Goblin 1", "Goblin 2", "Goblin 3"]
    text = s.system.present.view(s.enc, frozenset()).report("", res.events).text()
    assert "order Orc 8, Goblin 1 8, Goblin 2 8, Goblin 3 8; ties settled by a roll-off: the Goblin group 🎲 5✍, Orc 🎲 12✍" in text
    s = Scenario("open", group_init="yes")
    for name in ("Goblin 1", "Goblin 2", "Orc"):
        s.add(name, "hp=5 init=+0", at=None, owner=None)
    s.run("init_roll", [8, 8, 9, 9])  # equal dice: the group joined first, and goes first
    assert s.enc.order == ["Goblin 1", "Goblin 2", "Orc"]


def test_a_combatant_joining_on_a_tie_rolls_off_with_those_it_ties() -> None:
    """"A combatant joining the fight under way ... that ties others on initiative and modifier rolls off with them"
    (docs/systems/open.md): Newt joins on Orc's 8 and +0; Orc rolls 4 and Newt 17, so Newt goes first, and the reply
    shows the roll-off."""
    assert ("A combatant joining the fight under way (or whose initiative is rolled again or set) that ties others on "
            "initiative and modifier rolls off with them") in _page()
    s = Scenario("open").add("Ann", "hp=5 init=+0", at="B2").add("Orc", "hp=5 init=+0", at="D2", owner=None)
    s.run("init_roll", [15, 8])
    res = s.run("add", [8, 4, 17], name="Newt", raw_sheet={"hp": "5", "init": "+0"}, at="F2", owner_id=None)
    assert s.enc.order == ["Ann", "Newt", "Orc"]
    text = s.system.present.view(s.enc, frozenset()).report("", res.events).text()
    assert "**Newt** initiative **8** (🎲 8✍ (1d20+0) = **8**); tied with others: a roll-off: Orc 🎲 4✍, Newt 🎲 17✍" in text
    s.run("init_set", [11], actor="Ann", value=8)  # Ann set on 8 too: she rolls, Orc and Newt keep their dice
    assert [OpenCombatant.of(s.get(n)).roll_off for n in ("Ann", "Orc", "Newt")] == [11, 4, 17]


def test_a_combatant_joining_after_its_place_has_passed_takes_its_first_turn_next_round() -> None:
    """"Highest first"; "a combatant added during the fight rolls its own (or takes `init:`)": in round 1 Drake (20)
    has acted and Alda (15) acts; Newt joins at 17, a place that has passed, so its first turn is in round 2 (as
    one brought back after its place has passed, a project default), listed in its place; Pip joins at 10, after
    Alda: its place is still to come, so it acts this round, before Borin (5)."""
    s = Scenario("open").add("Borin", "hp=9", at="B2").add("Alda", "hp=9", at="C2").add("Drake", "hp=9", at="D2", owner=None)
    s.run("init_roll", [5, 15, 20])
    s.run("next", actor="Drake")
    res = s.run("add", name="Newt", raw_sheet={"hp": "5"}, at="F2", owner_id=None, init=17)
    assert s.enc.order == ["Drake", "Newt", "Alda", "Borin"] and s.enc.current == "Alda"
    assert "**Newt** joins the fight in round 2, at initiative 17" in s.text(res)
    res = s.run("add", name="Pip", raw_sheet={"hp": "5"}, at="G2", owner_id=None, init=10)
    assert "**Pip** joins the fight in round 1, at initiative 10" in s.text(res)
    s.run("next", actor="Alda")
    assert s.enc.current == "Pip"
    s.run("next", actor="Pip")
    assert s.enc.current == "Borin"
    s.run("next", actor="Borin")
    assert s.enc.round == 2 and s.enc.current == "Drake" and s.enc.order == ["Drake", "Newt", "Alda", "Pip", "Borin"]


def test_init_set_replaces_a_number() -> None:
    """"`/init set` replaces a number"."""
    s = Scenario("open").add("Ann", "hp=5", at="B2").add("Bo", "hp=5", at="C2", owner=None)
    s.run("init_roll", [15, 5])
    s.run("init_set", actor="Bo", value=16)
    assert s.get("Bo").initiative == 16 and s.enc.order == ["Ann", "Bo"]  # Ann's turn is under way: she keeps it
    s.run("next", actor="Ann")
    s.run("next", actor="Bo")
    assert s.enc.round == 2 and s.enc.order == ["Bo", "Ann"]


def test_a_bad_init_is_refused() -> None:
    """`init` is a modifier or dice: anything else is refused, naming both forms."""
    with pytest.raises(RulesError, match="`\\+3`"):
        Scenario("open").add("Ann", "hp=5 init=fast", at="B2")


@pytest.mark.parametrize("raw, says", [
    ({"weapons": "sword:+5:1d8:slashin"}, "The damage types: acid, bludgeoning"),
    ({"resist": "firee"}, "The damage types: acid, bludgeoning"),
    ({"weapons": "sword:+5:0d8:slashing"}, "rolls nothing"),
    ({"weapons": "sword:+5:1d8:slashing,sword:+3:1d6:piercing"}, "two weapons are called `sword`"),
    ({"hp": "10", "max_hp": "5"}, "more than `max_hp=5`"),
    ({"immune": "fire", "vulnerable": "fire"}, "`fire` is both in `immune` and in `vulnerable`"),
])
def test_a_sheet_the_rules_cannot_read_is_refused(raw: dict[str, str], says: str) -> None:
    """"The damage types are acid, bludgeoning, ...; a type sits in at most one of `resist`, `immune` and `vulnerable`;
    each weapon has its own name and damage dice that roll something; an `hp` given with `max_hp` is at most `max_hp`.
    Anything else is refused, saying what to write"."""
    s = Scenario("open")
    assert says in s.refused("add", name="Ann", raw_sheet={"hp": "5", **raw})


def test_init_set_before_the_roll_is_refused() -> None:
    """"`/init set` replaces a number once `/init roll` has started the fight (before it, it is refused: the roll
    would replace it)"."""
    s = Scenario("open").add("Ann", "hp=5", at="B2").add("Cy", "hp=5", at="D2", owner=None)
    assert "after it" in s.refused("init_set", actor="Ann", value=15)
    s.run("init_roll", [10, 3])
    s.run("init_set", actor="Ann", value=15)
    assert s.get("Ann").initiative == 15


@pytest.mark.parametrize(("damage", "said"), [
    ("1000", "has a flat damage out of range: a flat damage is a whole number from 1 to 999, like `club:+4:3:bludgeoning`"),
    ("-3", "has a flat damage out of range: a flat damage is a whole number from 1 to 999"),
    ("1d8+1000", "has dice out of range: dice are at most 99 dice, so that a critical hit's doubled dice can be rolled, "
                 "of at most 999 sides, and a modifier from -999 to +999, like `1d8+3`"),
    ("1000d6", "has dice out of range: dice are at most 99 dice, so that a critical hit's doubled dice can be rolled"),
    ("100d6", "has dice out of range: dice are at most 99 dice, so that a critical hit's doubled dice can be rolled"),
])
def test_a_damage_out_of_range_is_refused_naming_its_range(damage: str, said: str) -> None:
    """"damage dice that roll something (at most 99 dice of at most 999 sides, and a modifier from -999 to +999), or a
    flat damage from 1 to 999" (docs/systems/open.md): a damage past these is refused naming the range to keep to."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "open.md").read_text(encoding="utf-8").split())
    assert ("damage dice that roll something (at most 99 dice of at most 999 sides, and a modifier from -999 to +999), "
            "or a flat damage from 1 to 999") in page
    message = Scenario("open").refused("add", name="Ann", raw_sheet={"hp": "5", "weapons": f"club:+4:{damage}:bludgeoning"})
    assert said in message


@pytest.mark.parametrize("weapon", ["big:+5:100d6:fire", "big:+5:150d6+3:fire", "blast:save=dex:15:100d6:fire"])
def test_a_weapon_the_attack_cannot_roll_is_refused_at_the_sheet(weapon: str) -> None:
    """"at most 99 dice ... (so that a critical hit, which rolls them twice, stays within the 200 dice one roll may
    roll)" (docs/systems/open.md): a weapon or save attack of 100 dice or more is refused when the sheet is given."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "open.md").read_text(encoding="utf-8").split())
    assert "(so that a critical hit, which rolls them twice, stays within the 200 dice one roll may roll)" in page
    message = Scenario("open").refused("add", name="Ann", raw_sheet={"hp": "5", "weapons": weapon})
    assert "has dice out of range: dice are at most 99 dice, so that a critical hit's doubled dice can be rolled" in message


def test_the_most_dice_a_sheet_takes_roll_on_a_critical_hit() -> None:
    """"A natural 20 hits and is a critical hit: the damage dice are rolled twice over": a 99-die weapon the sheet
    accepts rolls its 198 dice on a critical hit, typed with `roll:` as well, and is never refused for its size."""
    s = Scenario("open", map="8x6").add("Ann", "hp=20 weapons=big:+5:99d6:fire", side="a", at="B2")
    s.add("Orc", "hp=9999 ac=5", side="b", at="C2", owner=None)
    s.run("init_roll", [20, 1])
    res = s.run("attack", [20] + [1] * 198, actor="Ann", target="Orc")
    assert s.get("Orc").hp == 9999 - 198
    assert any("198" in line for line in s.text(res))


@pytest.mark.parametrize("bonus", ["+1000", "-100", "100"])
def test_an_attack_bonus_out_of_range_is_refused_naming_its_range(bonus: str) -> None:
    """"an attack bonus from -99 to +99 (`+5`)" (docs/systems/open.md): `club:+1000:1d6:bludgeoning` is refused naming
    the range and what to give, not as a weapon with no bonus."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "open.md").read_text(encoding="utf-8").split())
    assert "an attack bonus from -99 to +99 (`+5`)" in page
    message = Scenario("open").refused("add", name="Ann", raw_sheet={"hp": "5", "weapons": f"club:{bonus}:1d6:bludgeoning"})
    assert "has an attack bonus out of range: an attack bonus is a whole number from -99 to +99, like `+5`" in message
    assert "needs an attack bonus" not in message


def test_combatant_hp_before_the_fight_changes_the_hp_now_only() -> None:
    """"`/combatant hp combatant:Grak change:-7` changes the current hit points" (docs/commands.md): before the fight
    a heal of 10 on Ann (15 of 20) stops at 20 and leaves `max_hp` 20, where `hp=30` typed alone raises it."""
    s = Scenario("open", map="8x6").add("Ann", "hp=15 max_hp=20 ac=15 weapons=longsword:+5:1d8+3:slashing", side="a", at="C3")
    healed = s.resolve("edit", actor="Ann", hp_change=10).encounter.get("Ann")
    assert (healed.hp, healed.sheet["max_hp"]) == (20, 20)
    typed = s.resolve("edit", actor="Ann", raw_sheet={"hp": "30"}).encounter.get("Ann")
    assert (typed.hp, typed.sheet["max_hp"]) == (30, 30)


def test_max_hp_alone_before_the_fight_raises_the_hp_with_it_but_not_from_0() -> None:
    """"a `max_hp` given alone before the fight ... raises the current HP by as much as the most rose" (docs/systems/open.md):
    9/9 then `max_hp=12` is 12/12, 4/9 is 7/12, 0/9 stays 0/12 and down, and 4/9 then `max_hp=3` is 3/3."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "open.md").read_text(encoding="utf-8").split())
    assert "a `max_hp` given alone before the fight (as in Knights of Valour; a project default) raises the current HP" in page
    for hp, most, wanted in (("hp=9", "max_hp=12", (12, 12)), ("hp=4 max_hp=9", "max_hp=12", (7, 12)),
                             ("hp=0 max_hp=9", "max_hp=12", (0, 12)), ("hp=4 max_hp=9", "max_hp=3", (3, 3))):
        s = Scenario("open", map="8x6").add("Ann", hp, at="C3")
        ann = s.resolve("edit", actor="Ann", raw_sheet={"max_hp": most.split("=")[1]}).encounter.get("Ann")
        assert (ann.hp, int(ann.sheet["max_hp"])) == wanted, (hp, most)
        assert ann.status == ("downed" if wanted[0] == 0 else "active"), (hp, most)


def test_a_typed_initiative_die_is_marked_in_the_initiative_line() -> None:
    """"Typed dice are marked ✍ in replies (`🎲 15✍ (d20)`)" (docs/commands.md): Ann's typed 15 and Bo's typed 4 and 2
    are marked in their initiative lines, as their roll-off d20s are."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "commands.md").read_text(encoding="utf-8").split())
    assert "Typed dice are marked ✍ in replies (`🎲 15✍ (d20)`)" in page
    s = Scenario("open").add("Ann", "hp=5 init=+3", at="B2").add("Bo", "hp=5 init=2d6+3", at="C2")
    res = s.run("init_roll", [15, 4, 2])
    text = s.system.present.view(s.enc, frozenset()).report("", res.events).text()
    assert "**Ann** initiative **18** (🎲 15✍ (1d20+3) = **18**)" in text
    assert "**Bo** initiative **9** (🎲 4✍, 2✍ (2d6+3) = **9**)" in text


def test_a_combatant_joining_with_init_or_set_on_a_tie_rolls_off_with_those_it_ties() -> None:
    """"A combatant joining the fight under way (or whose initiative is rolled again or set) that ties others on
    initiative and modifier rolls off with them" (docs/systems/open.md), `init:` and `/init set` too: Newt (+1) is set on
    Orc's 11 and +1; its modifier counts as its sheet gives it, and the bot rolls the tie's d20s."""
    page = _page()
    assert ("A combatant joining the fight under way (or whose initiative is rolled again or set) that ties others on "
            "initiative and modifier rolls off with them") in page
    assert "`/combatant add init:` and `/init set` take no `roll:`: the bot rolls the tie's d20s" in page
    s = Scenario("open").add("Ann", "hp=5 init=+1", at="B2").add("Orc", "hp=5 init=+1", at="D2", owner=None)
    s.run("init_roll", [15, 10])
    res = s.run("add", [4, 17], name="Newt", raw_sheet={"hp": "5", "init": "+1"}, at="F2", owner_id=None, init=11)
    assert s.enc.order == ["Ann", "Newt", "Orc"]
    text = s.system.present.view(s.enc, frozenset()).report("", res.events).text()
    assert "tied with others: a roll-off: Orc 🎲 4✍, Newt 🎲 17✍" in text
    res = s.run("init_set", [2], actor="Newt", value=11)  # set again: Newt rolls again, Orc keeps its 4
    assert s.enc.order == ["Ann", "Orc", "Newt"]
    assert "tied with others: a roll-off: Orc 🎲 4, Newt 🎲 2✍" in s.system.present.view(s.enc, frozenset()).report("", res.events).text()


def _goblins_and_heroes(goblin_2: str = "+1") -> Scenario:
    s = Scenario("open", group_init="yes").add("Ava", "hp=12 init=+1", at="B2")
    s.run("add", name="Goblin", raw_sheet={"hp": "7", "init": "+1"}, at="H2 H3 H4", count=3, owner_id=None)
    if goblin_2 != "+1":
        s.run("edit", actor="Goblin 2", raw_sheet={"init": goblin_2})
    return s.add("Bea", "hp=10 init=+1", at="B4")


def test_copies_sharing_a_roll_stay_together_while_one_joins_on_their_tie_or_above_them() -> None:
    """"copies sharing a roll stay together in number order (Goblin 1, Goblin 2, Goblin 3)" (docs/systems/open.md), also
    when one joins in the group's turns: Newt wins the roll-off on the group's 11, Kit joins at 20, both while Goblin 1
    acts; their places have passed, so they take their first turns next round, listed before the group: the group's
    turns go on together."""
    assert ("one joining in the group's turns with a higher initiative (or winning its tie) has seen its place pass: "
            "it takes its first turn next round") in _page()
    s = _goblins_and_heroes()
    s.run("init_roll", [10, 10, 10, 7, 12, 8])  # all 11; roll-off Ava 7, the group 12, Bea 8
    assert s.enc.order == ["Goblin 1", "Goblin 2", "Goblin 3", "Bea", "Ava"] and s.enc.current == "Goblin 1"
    s.run("add", [10, 20], name="Newt", raw_sheet={"hp": "5", "init": "+1"}, at="H6", owner_id=None)
    assert s.enc.order == ["Newt", "Goblin 1", "Goblin 2", "Goblin 3", "Bea", "Ava"]
    s.run("add", name="Kit", raw_sheet={"hp": "5", "init": "+1"}, at="H7", owner_id=None, init=20)
    assert s.enc.order == ["Kit", "Newt", "Goblin 1", "Goblin 2", "Goblin 3", "Bea", "Ava"]
    for name in ("Goblin 1", "Goblin 2", "Goblin 3", "Bea"):
        s.run("next", actor=name)
    s.run("next", actor="Ava")
    assert s.enc.round == 2 and s.enc.current == "Kit"


def test_a_copy_edited_to_another_initiative_rolls_its_own() -> None:
    """"copies sharing a roll stay together in number order" (docs/systems/open.md): a copy whose `init` is edited away
    from its group's no longer shares the roll; it rolls its own and takes its own place."""
    assert "A copy whose `init` differs from the others' no longer shares their roll: it rolls its own" in _page()
    s = _goblins_and_heroes("+5")
    s.run("init_roll", [12, 10, 3, 2])  # Ava 13, Goblins 1 and 3 11, Goblin 2 8, Bea 3
    assert [s.get(n).initiative for n in ("Goblin 1", "Goblin 2", "Goblin 3")] == [11, 8, 11]
    assert s.enc.order == ["Ava", "Goblin 1", "Goblin 3", "Goblin 2", "Bea"]


def test_a_player_joining_mid_fight_at_0_hp_rolls_its_initiative() -> None:
    """"a combatant added during the fight rolls its own (or takes `init:`)"; "a combatant added at 0 HP is down or
    out as the options below say for 0 HP": a dying joiner rolls its place for its death saves, and the board's
    order names a number, never "None"."""
    s = Scenario("open").add("Borin", "hp=5 init=+0", at="C4").add("Orc", "hp=40 ac=5 init=+0", at="D4", owner=None)
    s.run("init_roll", [5, 10])
    res = s.run("add", [8], name="Pip", raw_sheet={"hp": "0", "init": "+0"}, at="C9", owner_id="cid")
    assert s.get("Pip").status == "downed" and s.get("Pip").initiative == 8
    assert s.enc.order == ["Orc", "Pip", "Borin"]
    assert any("**Pip** initiative **8**" in line for line in s.text(res))
    board = s.system.present.board_extra(s.enc, s.system.facts(s.enc))
    assert "Order: Orc 10, Pip 8, Borin 5" in board and not any("None" in line for line in board)


def test_a_gms_combatant_joining_out_at_0_hp_rolls_its_initiative_when_brought_back() -> None:
    """"a combatant added during the fight rolls its own"; "the GM's `/combatant edit sheet:"hp=5"` brings it back;
    mid-fight it takes its turns at its place in the order": one that joined out rolls its place as it comes back."""
    s = Scenario("open").add("Borin", "hp=5 init=+0", at="C4").add("Orc", "hp=40 ac=5 init=+0", at="D4", owner=None)
    s.run("init_roll", [5, 10])
    s.run("add", name="Zed", raw_sheet={"hp": "0", "init": "+0"}, at="C8", owner_id=None)
    assert s.get("Zed").status == "out"
    res = s.run("edit", [7], actor="Zed", raw_sheet={"hp": "5"})
    assert s.get("Zed").status == "active" and s.get("Zed").initiative == 7
    assert s.enc.order == ["Orc", "Zed", "Borin"]
    assert not any("None" in line for line in [*s.text(res), *s.system.present.board_extra(s.enc, s.system.facts(s.enc))])
