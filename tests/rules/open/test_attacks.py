"""The open system's attacks, damage and cover (docs/systems/open.md, "Attacks" and "Cover")."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules.errors import SheetError
from rules.events import Term
from rules.hidden import for_reader
from rules.systems.open.events import Harmed, OpenAttack
from rules.systems.open.sheet import weapon
from tests.scenario import Scenario

SWORD = "longsword:+5:1d8+3:slashing"


def duel(hero: str = f"hp=20 ac=15 weapons={SWORD}", foe: str = "hp=30 ac=14", foe_at: str = "C2",
         blocked: tuple[str, ...] = (), **options: str) -> Scenario:
    """Ann (the player's, at B2) against the GM's Grak; Ann acts first."""
    s = Scenario("open", blocked=blocked, **options).add("Ann", hero + " init=+10", at="B2")
    s.add("Grak", foe + " weapons=claws:+4:1d6:slashing", at=foe_at, owner=None)
    s.run("init_roll", [10, 1])
    return s


def attack_of(res) -> OpenAttack:
    return next(e for e in res.events if isinstance(e, OpenAttack))


def harm_of(res) -> Harmed:
    return next(e for e in res.events if isinstance(e, Harmed))


def test_a_d20_plus_the_bonus_must_reach_ac() -> None:
    """"a d20 plus the weapon's bonus ... must reach the target's AC"."""
    s = duel()
    assert attack_of(s.resolve("attack", [9, 4], actor="Ann", target="Grak")).roll.success  # 9 + 5 = 14
    assert not attack_of(s.resolve("attack", [8], actor="Ann", target="Grak")).roll.success  # 13
    res = s.run("attack", [9, 4], actor="Ann", target="Grak")
    assert s.get("Grak").hp == 30 - 7 and harm_of(res).amount == 7


def test_a_natural_20_is_a_critical_hit_doubling_the_dice_and_a_natural_1_misses() -> None:
    """"A natural 20 hits and is a critical hit: the damage dice are rolled twice over (option `crit`); a natural 1
    misses (option `fumble`)"."""
    s = duel(foe="hp=30 ac=30")
    res = s.resolve("attack", [20, 4, 6], actor="Ann", target="Grak")
    assert attack_of(res).critical and harm_of(res).amount == 4 + 6 + 3
    s = duel(foe="hp=30 ac=2")
    assert not attack_of(s.resolve("attack", [1], actor="Ann", target="Grak")).roll.success
    s = duel(foe="hp=30 ac=30", crit="no")
    assert not attack_of(s.resolve("attack", [20], actor="Ann", target="Grak")).roll.success
    s = duel(foe="hp=30 ac=2", fumble="no")
    assert attack_of(s.resolve("attack", [1, 3], actor="Ann", target="Grak")).roll.success


def test_adv_and_dis_words_and_conditions() -> None:
    """"`options:"adv"` / `"dis"` roll two d20s and keep the higher or lower; conditions add their own, and one of
    each cancels"."""
    s = duel()
    a = attack_of(s.resolve("attack", [3, 15, 2], actor="Ann", target="Grak", options={"adv": ""}))
    assert a.mode == "advantage" and a.roll.kept == 15 and a.roll.success
    s.run("effect_add", effect="poisoned", actor="Ann", rounds=1)
    a = attack_of(s.resolve("attack", [15, 3], actor="Ann", target="Grak"))
    assert a.mode == "disadvantage" and a.roll.kept == 3 and Term(code="condition", args=["poisoned"]) in a.reasons
    a = attack_of(s.resolve("attack", [15, 2], actor="Ann", target="Grak", options={"adv": ""}))
    assert a.mode == "cancel" and a.roll.dice == [15]


def test_restrained_and_prone_targets() -> None:
    """"**restrained** ... attacks against it advantage"; "**prone** ... melee attacks from within 5 ft against it
    advantage, others disadvantage"."""
    s = duel()
    s.run("effect_add", effect="Restrained", actor="Grak", rounds=1)
    assert attack_of(s.resolve("attack", [3, 15, 2], actor="Ann", target="Grak")).mode == "advantage"
    s = duel(hero="hp=20 weapons=bow:+5:1d6:piercing:range=80/320", foe_at="F2")
    s.run("effect_add", effect="prone", actor="Grak", rounds=1)
    assert attack_of(s.resolve("attack", [3, 15], actor="Ann", target="Grak")).mode == "disadvantage"


def test_a_target_down_or_unconscious_is_not_also_prone() -> None:
    """"A combatant down or unconscious is not also prone: attacks against it have advantage, ranged ones too": a
    ranged attack on a prone target that is unconscious, or down, has advantage, not a cancelled roll."""
    s = duel(hero="hp=20 weapons=bow:+5:1d6:piercing:range=80/320", foe_at="F2")
    s.run("effect_add", effect="prone", actor="Grak", rounds=5)
    s.run("effect_add", effect="unconscious", actor="Grak", rounds=5)
    a = attack_of(s.resolve("attack", [3, 15, 2], actor="Ann", target="Grak"))
    assert a.mode == "advantage" and a.roll.kept == 15
    assert Term(code="target_condition", args=["Grak", "prone"]) not in a.reasons
    s = duel(hero="hp=20 weapons=bow:+5:1d6:piercing:range=80/320", foe_at="F2", gm_at_zero="down")
    s.run("add", [5], name="Orc", raw_sheet={"hp": "30"}, at="J9", owner_id=None, side="foes")  # the fight goes on
    s.run("effect_add", effect="prone", actor="Grak", rounds=5)
    s.run("edit", actor="Grak", raw_sheet={"hp": "0"})
    assert s.get("Grak").status == "downed"
    assert attack_of(s.resolve("attack", [3, 15, 2], actor="Ann", target="Grak")).mode == "advantage"
    line = s.system.present.status_line(s.enc, s.get("Grak"), s.system.facts(s.enc))
    assert "prone" not in line and "down" in line  # the board does not show it prone either (the effect stays)
    assert any(e.name == "prone" for e in s.enc.effects)


def test_resistance_immunity_vulnerability_and_temporary_hit_points() -> None:
    """"immunity takes none, resistance half (rounded down), vulnerability double; temporary hit points are lost
    first"."""
    for sheet, amount in (("resist=slashing", 3), ("immune=slashing,fire", 0), ("vulnerable=slashing", 14)):
        s = duel(foe=f"hp=30 ac=10 {sheet}")
        assert harm_of(s.resolve("attack", [15, 4], actor="Ann", target="Grak")).amount == amount
    s = duel(foe="hp=30 ac=10 temp_hp=5")
    res = s.run("attack", [15, 4], actor="Ann", target="Grak")
    assert harm_of(res).temp == 5 and s.get("Grak").hp == 28 and s.get("Grak").sheet["temp_hp"] == 0


def test_damage_doubled_by_vulnerability_reads_from_what_was_rolled() -> None:
    """"vulnerability double": a reply reads "takes **14** slashing damage from 7 rolled", never "takes 14 of 7" (which
    reads as a part of what was rolled, as resistance's "takes 3 of 7" is)."""
    s = duel(foe="hp=30 ac=10 vulnerable=slashing")
    lines = s.text(s.resolve("attack", [15, 4], actor="Ann", target="Grak"))
    assert any("**Grak** takes **14** slashing damage from 7 rolled (" in line for line in lines)
    assert not any("14** of 7" in line for line in lines)
    s = duel(foe="hp=30 ac=10 resist=slashing")
    assert any("**Grak** takes **3** of 7 slashing damage" in line for line in s.text(s.resolve("attack", [15, 4], actor="Ann", target="Grak")))


def test_reach_and_range() -> None:
    """"A melee weapon reaches its `reach=` or the sheet's `reach`; a ranged one past its normal range has
    disadvantage, past its long range it is refused"."""
    s = duel(foe_at="D2")
    assert "beyond Ann's 5 ft reach" in s.refused("attack", [15, 4], actor="Ann", target="Grak")
    s = duel(hero="hp=20 weapons=glaive:+5:1d10:slashing:reach=10", foe_at="D2")
    assert attack_of(s.resolve("attack", [15, 4], actor="Ann", target="Grak")).roll.success
    s = duel(hero="hp=20 weapons=sling:+5:1d4:bludgeoning:range=10/20", foe_at="E2")
    a = attack_of(s.resolve("attack", [15, 3], actor="Ann", target="Grak"))
    assert a.mode == "disadvantage" and Term(code="long_range") in a.reasons
    s = duel(hero="hp=20 weapons=sling:+5:1d4:bludgeoning:range=10/20", foe_at="G2")
    assert "long range of 20 ft" in s.refused("attack", [15], actor="Ann", target="Grak")


def test_a_ranged_attack_with_a_hostile_next_to_it_has_disadvantage() -> None:
    """"with a hostile able to act within 5 ft it has disadvantage"."""
    s = duel(hero="hp=20 weapons=bow:+5:1d6:piercing:range=80/320")
    a = attack_of(s.resolve("attack", [15, 3], actor="Ann", target="Grak"))
    assert a.mode == "disadvantage" and Term(code="hostile_near") in a.reasons


DAGGER = "dagger:+4:1d4+2:piercing:reach=5:range=20/60"


def test_a_weapon_with_reach_and_range_strikes_in_melee_within_its_reach_and_is_thrown_beyond() -> None:
    """A weapon given both `reach=` and `range=` (a thrown dagger, as the docs say: "A melee weapon reaches its `reach=`
    ...; a ranged one past its normal range has disadvantage ... and with a hostile able to act within 5 ft it has
    disadvantage"): next to Grak it is a melee attack (no disadvantage for the hostile near), it may strike an
    opportunity attack or a coup de grace as any melee weapon; at 15 ft it is thrown, a ranged attack."""
    s = duel(hero=f"hp=20 weapons={DAGGER}")
    a = attack_of(s.resolve("attack", [15, 3], actor="Ann", target="Grak"))
    assert a.mode is None and a.reasons == []
    assert weapon(s.get("Ann"), None, melee_only=True).name == "dagger"
    s = duel(hero=f"hp=20 weapons={DAGGER}", foe_at="E2")
    a = attack_of(s.resolve("attack", [15, 3], actor="Ann", target="Grak"))
    assert a.roll.success and a.mode is None
    s = Scenario("open").add("Ann", f"hp=20 weapons={DAGGER} init=+10", at="B2")
    s.add("Grak", "hp=30 ac=14 weapons=claws:+4:1d6:slashing", at="C2", owner=None)
    s.add("Snaga", "hp=5 ac=10", at="E2", owner=None)
    s.run("init_roll", [10, 2, 1])
    a = attack_of(s.resolve("attack", [15, 14, 3], actor="Ann", target="Snaga"))
    assert a.mode == "disadvantage" and Term(code="hostile_near") in a.reasons


def test_cover_from_walls_adds_to_ac_and_total_cover_blocks() -> None:
    """"of the three lines from the attacker's corner to the target's corners ... one blocked gives half cover (+2 AC),
    two three-quarters cover (+5 AC), three total cover (it cannot be targeted)"."""
    bow = "hp=20 weapons=bow:+5:1d6:piercing:range=80/320"
    s = duel(hero=bow, foe="hp=30 ac=10", foe_at="F2", blocked=("D2",))
    assert "total cover" in s.refused("attack", [15], actor="Ann", target="Grak")
    s = duel(hero=bow, foe="hp=30 ac=10", foe_at="F3", blocked=("D2",))
    a = attack_of(s.resolve("attack", [9], actor="Ann", target="Grak"))
    assert a.cover in ("half", "three-quarters") and a.roll.against == 10 + {"half": 2, "three-quarters": 5}[a.cover]


def test_the_centre_line_and_its_corner_rule() -> None:
    """"`cover=centre` ... grazing a wall's corner is half cover; option `corner` says what a corner the line passes
    exactly through does (`open`: half cover, `blocks`: total ...)"."""
    bow = "hp=20 weapons=bow:+5:1d6:piercing:range=80/320"
    s = duel(hero=bow, foe="hp=30 ac=10", foe_at="D4", blocked=("C2",), cover="centre")
    assert attack_of(s.resolve("attack", [9, 3], actor="Ann", target="Grak")).cover == "half"
    s = duel(hero=bow, foe="hp=30 ac=10", foe_at="D4", blocked=("C2",), cover="centre", corner="blocks")
    assert "total cover" in s.refused("attack", [9], actor="Ann", target="Grak")


def test_one_action_a_turn() -> None:
    """"one action (an attack, a save attack, a coup de grâce or an `/act` action)"."""
    s = duel(foe="hp=30 ac=30")
    s.run("attack", [5], actor="Ann", target="Grak")
    assert "used its action" in s.refused("attack", [5], actor="Ann", target="Grak")


def test_the_target_is_checked_as_every_system_checks_it() -> None:
    """The one target check (rules/targets.py: "named, not itself, still in the fight ... on the map"), each refusal
    saying what to do instead, for attacks, save attacks and the coup de grâce alike."""
    s = duel(hero=f"hp=20 ac=15 weapons='{SWORD},ray:save=con:12:2d6:cold'")
    assert "pick another target" in s.refused("attack", actor="Ann", target="Ann")
    assert "pick another target" in s.refused("attack", actor="Ann", target="Ann", weapon="ray")
    assert "cannot strike itself: pick another target" in s.refused("coupdegrace", actor="Ann", target="Ann")
    s.run("add", name="Orc", raw_sheet={"hp": "5"}, owner_id=None, init=0)  # not placed on the map
    assert "Orc is not on the map: the GM places it with `/combatant edit at:`" in s.refused(
        "attack", actor="Ann", target="Orc")
    s.get("Grak").status = "out"
    assert "already out of the fight: pick another target" in s.refused("attack", actor="Ann", target="Grak")


def test_a_flat_damage_is_accepted_and_a_critical_does_not_double_it() -> None:
    """"each weapon has its own name and damage dice that roll something ..., or a flat damage from 1 to 999
    (`club:+4:3:bludgeoning`), which a critical hit does not double" (docs/systems/open.md): `:3:` hits for 3, a
    natural 20 too, while `:0:` is refused."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "open.md").read_text(encoding="utf-8").split())
    assert "or a flat damage from 1 to 999 (`club:+4:3:bludgeoning`), which a critical hit does not double" in page
    s = duel(hero="hp=20 ac=15 weapons=club:+4:3:bludgeoning")
    assert harm_of(s.resolve("attack", [12], actor="Ann", target="Grak")).amount == 3
    assert harm_of(s.resolve("attack", [20], actor="Ann", target="Grak")).amount == 3
    with pytest.raises(SheetError, match="rolls nothing"):
        duel(hero="hp=20 ac=15 weapons=club:+4:0:bludgeoning")


def test_the_damage_line_shows_its_typed_dice_and_named_effects_as_the_attack_line_does() -> None:
    """"The damage line shows its roll as the attack line does: the dice (a typed one marked ✍), the `damage` effects by
    name and the total" (docs/systems/open.md): Ann's typed 4 and her Bless, to the GM and to players; a flat club's
    number and Bless too."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "open.md").read_text(encoding="utf-8").split())
    assert ("The damage line shows its roll as the attack line does: the dice (a typed one marked ✍), the `damage` "
            "effects by name and the total") in page
    s = duel(hero=f"hp=20 ac=15 weapons={SWORD},club:+4:3:bludgeoning")
    s.run("effect_add", effect="Bless", actor="Ann", rounds=2, mods="damage+2")
    res = s.run("attack", [15, 4], actor="Ann", target="Grak")
    view = s.system.present.view(s.enc, frozenset({"Grak"}))
    gm = for_reader(view.report("", res.events).text(), lambda name: True)
    assert "**Grak** takes **9** slashing damage (🎲 4✍ (1d8+3) +2 Bless = **9**) (30 → 21 HP)" in gm
    players = for_reader(view.report("", res.events).text(), lambda name: name != "Grak")
    assert "**Grak** takes **?** of 9 rolled slashing damage (🎲 4✍ (1d8+3) +2 Bless = **9**) (now hurt)" in players
    s = duel(hero=f"hp=20 ac=15 weapons={SWORD},club:+4:3:bludgeoning")
    s.run("effect_add", effect="Bless", actor="Ann", rounds=2, mods="damage+2")
    res = s.run("attack", [15], actor="Ann", target="Grak", weapon="club")
    assert "(+3 club +2 Bless = **5**) (30 → 25 HP)" in s.system.present.view(s.enc, frozenset()).report("", res.events).text()


def test_a_hidden_attackers_damage_roll_reaches_the_gm_alone() -> None:
    """"a hidden attacker's damage roll reaches the GM alone" (docs/systems/open.md): players read what Ann took."""
    s = duel()
    s.run("next", actor="Ann")
    res = s.run("attack", [15, 5], actor="Grak", target="Ann")
    view = s.system.present.view(s.enc, frozenset({"Grak"}))
    players = for_reader(view.report("", res.events).text(), lambda name: name != "Grak")
    assert "**Ann** takes **5** slashing damage (20 → 15 HP)" in players and "🎲 5" not in players
    gm = for_reader(view.report("", res.events).text(), lambda name: True)
    assert "**Ann** takes **5** slashing damage (🎲 5✍ (1d6) = **5**) (20 → 15 HP)" in gm


@pytest.mark.parametrize(("hero", "weapon", "options", "says"), [
    ("hp=20 weapons=fb:save=dex:13:3d6:fire:half:area=burst10:range=60", "fb", {"adv": ""}, "leave `adv` out"),
    ("hp=20 weapons=fb:save=dex:13:3d6:fire:half:area=burst10:range=60", "fb", {"dis": ""}, "leave `dis` out"),
    (f"hp=20 weapons={SWORD}", "longsword", {"at": "C2"}, "leave `at=` out"),
])
def test_words_an_attack_of_the_other_kind_reads_are_refused_not_dropped(
        hero: str, weapon: str, options: dict[str, str], says: str) -> None:
    """docs/systems/open.md: "`adv`: advantage: roll two d20s and keep the higher", "`at=NAME`: the cell a save
    attack's area is aimed at"; a save attack rolls no attack d20, a weapon attack aims at no cell: the word is refused,
    saying to leave it out, and nothing changes (docs/commands.md: "Errors are shown only to you and change nothing")."""
    from rules.errors import InputError
    s = duel(hero=hero)
    text = s.refused("attack", error=InputError, actor="Ann", target="Grak", weapon=weapon, options=options)
    assert says in text and s.get("Grak").hp == 30


def test_a_target_or_cell_past_the_range_is_refused_saying_what_to_do() -> None:
    """"past its long range it is refused"; docs/commands.md: "Bad input gets a clear message that says what to do
    instead": the refusal says to move closer or pick a nearer target (or cell), as the reach's says "move closer
    first"."""
    s = duel(hero="hp=20 weapons=sling:+5:1d4:bludgeoning:range=10/20", foe_at="G2")
    assert "move closer first, or pick a nearer target" in s.refused("attack", [15], actor="Ann", target="Grak")
    s = duel(hero="hp=20 weapons=ball:save=dex:15:4d6:fire:half:area=burst5:range=10")
    assert "move closer first, or aim nearer" in s.refused("attack", actor="Ann", weapon="ball", options={"at": "H2"})
