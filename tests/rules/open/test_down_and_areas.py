"""The open system's down and out, coup de grâce, save attacks, areas and conditions (docs/systems/open.md)."""
from __future__ import annotations

import random
from pathlib import Path

from rules.actions import make_action
from rules.dice import Dice
from rules.errors import IllegalAction
from rules.events import Victory
from rules.geometry import Grid
from rules.registry import get_system
from rules.systems.open import turns
from rules.systems.open.events import (
    AreaStruck,
    DeathSave,
    Harmed,
    OpenAttack,
    Saved,
    TurnBegan,
)
from rules.systems.open.space import area_cells
from rules.systems.open.state import OpenCombatant, OpenEncounter
from tests.scenario import PLAYER, Scenario

SWORD = "weapons=sword:+5:1d6:slashing"
FIRE = "weapons='fireball:save=dex:15:8d6:fire:half:area=burst10:range=60,ray:save=con:12:2d6:cold'"


def fight(ann: str = f"hp=20 ac=10 {SWORD}", grak: str = f"hp=20 ac=10 {SWORD}", grak_at: str = "C2",
          **options: str) -> Scenario:
    """Ann (the player's, at B2) acts first; Grak is the GM's."""
    s = Scenario("open", **options).add("Ann", ann + " init=+10", at="B2")
    s.add("Grak", grak, at=grak_at, owner=None, side="foes")
    s.add("Orc", f"hp=20 ac=10 {SWORD}", at="L10", owner=None, side="foes")
    s.run("init_roll", [10, 2, 1])
    return s


def with_bo(s: Scenario) -> Scenario:
    """Bo, another player's combatant, joins at initiative 0 (so Ann's fall does not end the fight)."""
    s.run("add", name="Bo", raw_sheet={"hp": "5"}, at="L1", owner_id=PLAYER, init=0)
    return s


def test_the_gms_combatant_is_out_at_0_hp() -> None:
    """"The GM's combatants are out at 0 HP (option `gm_at_zero=down`: down and helpless, out at the next damage)"."""
    s = fight(grak=f"hp=3 ac=10 {SWORD}")
    s.run("attack", [15, 4], actor="Ann", target="Grak")
    assert s.get("Grak").status == "out" and s.get("Grak").hp == 0
    s = fight(grak=f"hp=3 ac=10 {SWORD}", gm_at_zero="down")
    s.run("attack", [15, 4], actor="Ann", target="Grak")
    assert s.get("Grak").status == "downed"


def test_the_gms_combatant_brought_to_0_hp_by_the_gm_before_the_fight_is_out_as_in_it() -> None:
    """"The GM's combatants are out at 0 HP (option `gm_at_zero=down`: down and helpless, out at the next damage)":
    the GM's `/combatant hp` (or a sheet's `hp=0`) bringing Grak to 0 HP before the fight puts him out, as the same
    command does in the fight and as adding him at 0 HP does (he was down: in the order, a coup de grâce's target);
    with `gm_at_zero=down` he is down; a player's combatant so brought is down (it makes death saves)."""
    for edit, status in (({"hp_change": -20}, "out"), ({"raw_sheet": {"hp": "0"}}, "out")):
        s = Scenario("open").add("Ann", f"hp=20 ac=10 {SWORD}", at="B2").add("Grak", f"hp=20 ac=10 {SWORD}", at="C2", owner=None, side="foes")
        s.run("edit", actor="Grak", **edit)
        assert s.get("Grak").status == status and s.get("Grak").hp == 0
        s.run("edit", actor="Ann", **edit)
        assert s.get("Ann").status == "downed"
    s = Scenario("open", gm_at_zero="down").add("Grak", f"hp=20 ac=10 {SWORD}", at="C2", owner=None, side="foes")
    s.run("edit", actor="Grak", hp_change=-20)
    assert s.get("Grak").status == "downed"


def test_an_owner_setting_hp_before_the_fight_brings_an_out_combatant_back() -> None:
    """"one that is out (dead) stays out: `/combatant hp` on it is refused, and the GM's `/combatant edit sheet:"hp=5"`
    brings it back" (docs/systems/open.md), and its owner edits its sheet before the fight: Alda, out at 0 HP
    (`death_saves=no`), given `hp=4` by her player before the fight is back up (she was left "4/10 HP · out")."""
    s = Scenario("open", death_saves="no").add("Alda", f"hp=10 ac=10 {SWORD}", at="C5")
    s.run("edit", actor="Alda", hp_change=-10, gm=False, user_id=PLAYER)
    assert s.get("Alda").status == "out"
    s.run("edit", actor="Alda", raw_sheet={"hp": "4"}, gm=False, user_id=PLAYER)
    assert (s.get("Alda").hp, s.get("Alda").status) == (4, "active")


def test_a_relative_hp_edit_before_the_fight_brings_an_out_combatant_back_as_hp_set_would() -> None:
    """docs/commands.md: "`key+N` and `key-N` change any number a sheet holds from its value now ... they mix with
    `key=value` pairs and are refused as the value they give would be"; docs/systems/open.md: "the GM's
    `/combatant edit sheet:"hp=5"` brings it back (before the fight, its owner's too)". Before the fight Alda's player's
    `hp+3` on her, out at 0 HP, brings her back at 3 HP as `hp=3` does, and so does the GM's `hp+3` on his Grak; the
    refusal of `/combatant hp` (healing) tells her player to set the HP, not that only the GM can. In the fight the
    GM's `hp+3` is healing, refused as before, telling the GM to set the HP."""
    s = Scenario("open", death_saves="no").add("Alda", f"hp=0 max_hp=10 {SWORD}", at="B4")
    s.add("Grak", f"hp=0 max_hp=10 {SWORD}", at="F5", owner=None, side="foes")
    assert (s.get("Alda").status, s.get("Grak").status) == ("out", "out")
    text = s.refused("edit", error=IllegalAction, actor="Alda", hp_change=3, gm=False, user_id=PLAYER)
    assert "the GM sets" not in text and 'sheet:"hp=5"' in text
    s.run("edit", actor="Alda", deltas={"hp": 3}, gm=False, user_id=PLAYER)
    assert (s.get("Alda").hp, s.get("Alda").status) == (3, "active")
    s.run("edit", actor="Grak", deltas={"hp": 3})
    assert (s.get("Grak").hp, s.get("Grak").status) == (3, "active")
    s.add("Orc", f"hp=9 {SWORD}", at="L9", owner=None, side="foes")
    s.run("init_roll", [10, 1, 2])
    s.run("edit", actor="Grak", hp_change=-30)
    assert s.get("Grak").status == "out"
    text = s.refused("edit", error=IllegalAction, actor="Grak", deltas={"hp": 3})
    assert "healing does not bring it back" in text and "the GM sets" not in text and 'sheet:"hp=5"' in text


def test_a_players_combatant_is_down_and_makes_death_saves() -> None:
    """"at 0 HP a player's combatant is down ... at the start of each of its turns, rolls a death save: a d20, 10 or
    more a success, a natural 1 two failures ... three failures and it is out"."""
    s = with_bo(fight(ann=f"hp=3 max_hp=12 ac=10 {SWORD}"))
    s.run("next", actor="Ann")
    s.run("attack", [15, 4], actor="Grak", target="Ann")
    assert s.get("Ann").status == "downed" and s.enc.current != "Ann"
    s.run("next", actor="Grak")
    s.run("next", actor="Orc")
    res = s.run("next", actor="Bo")  # round 2: Ann's turn begins with her death save
    assert s.enc.current == "Ann" and not any(isinstance(e, DeathSave) for e in res.events)
    res = s.run("act", [1], actor="Ann", action="death-save")
    save = next(e for e in res.events if isinstance(e, DeathSave))
    assert (save.failed, save.result) == (2, "failed") and s.enc.current == "Grak"
    assert "a natural 1: two failures (0 successes, 2 failures)" in "\n".join(s.text(res))  # not "a failure" counted twice
    res = s.run("attack", [15, 4, 4, 4], actor="Grak", target="Ann")  # advantage, a critical hit while down: two failures
    assert s.get("Ann").status == "out" and not any("massive" in line for line in s.text(res))


def test_three_successes_stabilise_and_a_natural_20_revives() -> None:
    """"three successes and it is stable"; "a natural 20 back up with 1 HP"."""
    s = with_bo(fight(ann=f"hp=3 ac=10 {SWORD}"))
    s.run("next", actor="Ann")
    s.run("attack", [15, 4], actor="Grak", target="Ann")
    s.run("next", actor="Grak")
    s.run("next", actor="Orc")
    s.run("next", actor="Bo")
    s.run("act", [20], actor="Ann", action="death-save")
    assert s.get("Ann").status == "active" and s.get("Ann").hp == 1 and s.enc.current == "Ann"


def test_death_saves_off_means_out() -> None:
    """"Option `death_saves=no`: a player's combatant is out at 0 HP"."""
    s = fight(ann=f"hp=3 ac=10 {SWORD}", death_saves="no")
    s.run("next", actor="Ann")
    s.run("attack", [15, 4], actor="Grak", target="Ann")
    assert s.get("Ann").status == "out"


def test_healing_brings_a_down_combatant_back() -> None:
    """"Healing (`/combatant hp change:5`, never above `max_hp`) brings a down combatant back"."""
    s = fight(ann=f"hp=3 ac=10 {SWORD}")
    s.run("next", actor="Ann")
    s.run("attack", [15, 4], actor="Grak", target="Ann")
    s.run("edit", actor="Ann", hp_change=50)
    assert s.get("Ann").status == "active" and s.get("Ann").hp == 3


def test_one_brought_back_in_a_round_it_has_acted_in_waits_for_the_next() -> None:
    """Initiative: "Highest first"; "**A turn** is the combatant's speed ... and one action" (docs/systems/open.md):
    one turn a round, at its place. Grak, out in his own turn and brought back by "the GM's `/combatant edit
    sheet:"hp=5"`", acts again only in round 2; Ann, out at 0 HP (`death_saves=no`) in hers, the same."""
    s = with_bo(fight())
    s.run("next", actor="Ann")
    s.run("edit", actor="Grak", hp_change=-30)
    s.run("edit", actor="Grak", raw_sheet={"hp": "5"})
    assert s.get("Grak").status == "active" and s.enc.current == "Orc"
    s.run("next", actor="Orc")
    assert s.enc.current == "Bo"
    s.run("next", actor="Bo")
    assert (s.enc.round, s.enc.current) == (2, "Ann")
    s = with_bo(fight(death_saves="no"))
    s.run("edit", actor="Ann", hp_change=-30)
    s.run("edit", actor="Ann", raw_sheet={"hp": "5"})
    for name in ("Grak", "Orc", "Bo"):
        assert s.enc.current == name
        s.run("next", actor=name)
    assert (s.enc.round, s.enc.current) == (2, "Ann")


def test_one_brought_back_acts_at_its_place_if_it_has_not_passed() -> None:
    """"Highest first" (docs/systems/open.md): Orc (initiative 1), out in Ann's turn and brought back in it, still acts
    in round 1 after Grak; out in Ann's turn and brought back in Bo's (initiative 0), after his place has passed, he
    waits for round 2, as one skipped."""
    s = with_bo(fight())
    s.run("edit", actor="Orc", hp_change=-30)
    s.run("edit", actor="Orc", raw_sheet={"hp": "5"})
    for name in ("Ann", "Grak", "Orc", "Bo"):
        assert s.enc.current == name
        s.run("next", actor=name)
    s = with_bo(fight())
    s.run("edit", actor="Orc", hp_change=-30)
    s.run("next", actor="Ann")
    s.run("next", actor="Grak")
    assert s.enc.current == "Bo"
    s.run("edit", actor="Orc", raw_sheet={"hp": "5"})
    s.run("next", actor="Bo")
    assert (s.enc.round, s.enc.current) == (2, "Ann")


def test_the_reply_to_one_brought_back_after_its_place_has_passed_says_it_joins_next_round() -> None:
    """docs/systems/open.md: "where that place has passed (before the one acting now), from the next round, listed in
    its place among those who have acted (a project default, as for one brought back from out; the reply says `joins
    the fight in round 2`)". Orc, out in Ann's turn and brought back in Bo's (after his place), is told to join in
    round 2, as one added there is; brought back in Ann's turn (his place to come), the reply says nothing of it."""
    s = with_bo(fight())
    s.run("edit", actor="Orc", hp_change=-30)
    s.run("next", actor="Ann")
    s.run("next", actor="Grak")
    assert s.enc.current == "Bo"
    lines = s.text(s.run("edit", actor="Orc", raw_sheet={"hp": "5"}))
    assert "**Orc** joins the fight in round 2, at initiative 1" in lines
    res = s.run("add", name="Newt", raw_sheet={"hp": "5"}, at="L5", owner_id=PLAYER, init=40)
    assert "**Newt** joins the fight in round 2, at initiative 40" in s.text(res)
    s = with_bo(fight())
    s.run("edit", actor="Orc", hp_change=-30)
    lines = s.text(s.run("edit", actor="Orc", raw_sheet={"hp": "5"}))
    assert not any("joins the fight" in line for line in lines)


def test_one_brought_back_leaves_another_that_is_out_in_the_order_shown() -> None:
    """docs/commands.md: `/init order` shows the order; docs/systems/open.md: one brought back "takes its turns at its
    place in the order". Orc, out in Ann's turn, is listed in `/init order` (marked out) and on the board's Order line;
    Bo going out (`death_saves=no`) and the GM bringing him back with `hp=5` leaves Orc listed as he was, and so does
    the next round."""
    def shown() -> tuple[str, str]:
        facts = s.system.facts(s.enc)
        return "\n".join(s.system.present.order_lines(s.enc, facts)), "\n".join(s.system.present.board_extra(s.enc, facts))
    s = with_bo(fight(death_saves="no"))
    s.run("edit", actor="Orc", hp_change=-30)
    order, board = shown()
    assert "**Orc** (1) · foes · out" in order and "Orc 1" in board
    s.run("edit", actor="Bo", hp_change=-30)
    s.run("edit", actor="Bo", raw_sheet={"hp": "5"})
    assert shown() == (order, board)
    for name in ("Ann", "Grak", "Bo"):
        assert s.enc.current == name
        s.run("next", actor=name)
    assert (s.enc.round, s.enc.current) == (2, "Ann")
    order, board = shown()
    assert "**Orc** (1) · foes · out" in order and "Orc 1" in board


def test_coup_de_grace_on_a_helpless_target_is_a_critical_hit() -> None:
    """"`/coupdegrace target:X` is a melee attack from within 5 ft on a helpless target (paralysed, unconscious or
    down); a hit is a critical hit"."""
    s = fight(grak=f"hp=30 ac=10 {SWORD}")
    assert "not helpless" in s.refused("coupdegrace", [15, 4, 4], actor="Ann", target="Grak")
    s.run("effect_add", effect="Paralyzed", actor="Grak", rounds=1)
    res = s.run("coupdegrace", [3, 15, 4, 5], actor="Ann", target="Grak")
    strike = next(e for e in res.events if isinstance(e, OpenAttack))
    assert strike.coup and strike.critical and strike.mode == "advantage" and s.get("Grak").hp == 30 - 9
    far = fight(grak=f"hp=30 ac=10 {SWORD}", grak_at="E2")
    far.run("effect_add", effect="unconscious", actor="Grak", rounds=1)
    assert "within 5 ft" in far.refused("coupdegrace", [15, 4, 4], actor="Ann", target="Grak")


def test_a_hit_from_within_5_ft_on_a_paralysed_target_is_critical() -> None:
    """"**paralysed** ... helpless: a hit from within 5 ft is a critical hit"."""
    s = fight()
    s.run("effect_add", effect="paralysed", actor="Grak", rounds=1)
    res = s.run("attack", [2, 12, 3, 3], actor="Ann", target="Grak")
    assert next(e for e in res.events if isinstance(e, OpenAttack)).critical and s.get("Grak").hp == 14


def test_a_burst_catches_everyone_within_it_and_a_save_halves() -> None:
    """"each combatant caught rolls a d20 plus its modifier of the ability ... against the DC; a success takes half";
    "a `burst` is every cell within its size of the point aimed at"."""
    s = fight(ann=f"hp=20 {FIRE}", grak="hp=40 dex=2", grak_at="H5")
    s.run("add", name="Snaga", raw_sheet={"hp": "40"}, at="I6", side="foes", init=0)
    s.run("add", [2, 1], name="Far", raw_sheet={"hp": "40"}, at="H8", side="foes", init=0)  # ties Snaga: a roll-off
    dice = [3] * 8 + [13, 2, 5]  # 24 fire; Grak 13+2 saves, Orc (far away) is not caught, Snaga 2 fails
    res = s.run("attack", dice[:10], actor="Ann", target="Grak", weapon="fireball")
    area = next(e for e in res.events if isinstance(e, AreaStruck))
    assert area.caught == ["Grak", "Snaga"] and area.shape == "burst"
    assert [e.roll.success for e in res.events if isinstance(e, Saved)] == [True, False]
    assert (s.get("Grak").hp, s.get("Snaga").hp, s.get("Far").hp) == (40 - 12, 40 - 24, 40)
    assert OpenEncounter.of(s.enc).area and "H5" in OpenEncounter.of(s.enc).area
    assert any(h.kind == "area" for h in s.system.highlights(s.enc))


def test_walls_stop_an_area_and_range_limits_it() -> None:
    """"Walls stop an area (a cell needs a clear centre line from its origin)"; an area aimed past the range is refused."""
    s = fight(ann=f"hp=20 {FIRE}", grak="hp=40", grak_at="H5")
    s.run("add", name="Hid", raw_sheet={"hp": "40"}, at="J5", side="foes", init=0)
    s.enc.map.blocked.append("I5")
    res = s.run("attack", [3] * 8 + [19], actor="Ann", target="Grak", weapon="fireball")
    assert next(e for e in res.events if isinstance(e, AreaStruck)).caught == ["Grak"]
    s = fight(ann=f"hp=20 {FIRE}", grak="hp=40", grak_at="K9", diagonals="alternate")
    assert "range of 60 ft" in s.refused("attack", [3] * 9, actor="Ann", target="Orc", weapon="fireball")


def test_paralysed_fails_dex_saves_and_restrained_rolls_them_with_disadvantage() -> None:
    """"Paralysed, stunned and unconscious combatants fail Strength and Dexterity saves; restrained ones roll Dexterity
    saves with disadvantage"."""
    s = fight(ann=f"hp=20 {FIRE}", grak="hp=40", grak_at="H5")
    s.run("effect_add", effect="stunned", actor="Grak", rounds=1)
    res = s.run("attack", [3] * 8, actor="Ann", target="Grak", weapon="fireball")
    assert next(e for e in res.events if isinstance(e, Saved)).automatic and s.get("Grak").hp == 16
    s = fight(ann=f"hp=20 {FIRE}", grak="hp=40", grak_at="H5")
    s.run("effect_add", effect="restrained", actor="Grak", rounds=1)
    res = s.run("attack", [3] * 8 + [18, 4], actor="Ann", target="Grak", weapon="fireball")
    save = next(e for e in res.events if isinstance(e, Saved))
    assert save.mode == "disadvantage" and save.roll.kept == 4 and not save.roll.success


def test_a_single_target_save_attack_without_half_takes_nothing_on_a_save() -> None:
    """A save attack without `half`: "a success takes half (`half`) or nothing"."""
    s = fight(ann=f"hp=20 {FIRE}", grak="hp=40 con=3")
    res = s.run("attack", [6, 6, 9], actor="Ann", target="Grak", weapon="ray")
    assert next(e for e in res.events if isinstance(e, Saved)).roll.success and s.get("Grak").hp == 40
    assert not any(isinstance(e, Harmed) for e in res.events)


def test_cones_and_lines() -> None:
    """"a `cone` spreads from the attacker towards the point, its width at each distance equal to that distance ...;
    a `line` is 5 ft wide from the attacker through the point"."""
    cone = "weapons='breath:save=dex:12:2d6:fire:half:area=cone15,bolt:save=dex:12:2d6:lightning:half:area=line30'"
    s = fight(ann=f"hp=20 {cone}", grak="hp=40", grak_at="E2")
    s.run("add", name="Side", raw_sheet={"hp": "40"}, at="E3", side="foes", init=0)
    s.run("add", [2, 1], name="Wide", raw_sheet={"hp": "40"}, at="D4", side="foes", init=0)  # ties Side: a roll-off
    s.run("add", [1], name="Back", raw_sheet={"hp": "40"}, at="A2", side="foes", init=0)  # ties both: it rolls
    res = s.resolve("attack", [1, 1, 1, 1], actor="Ann", target="Grak", weapon="breath")
    assert next(e for e in res.events if isinstance(e, AreaStruck)).caught == ["Grak", "Side"]
    res = s.resolve("attack", [1, 1, 1], actor="Ann", target="Grak", weapon="bolt")
    assert next(e for e in res.events if isinstance(e, AreaStruck)).caught == ["Grak"]


def test_a_cone_is_as_wide_as_it_is_far() -> None:
    """"a `cone` spreads from the attacker towards the point, its width at each distance equal to that distance (a cell
    within its size is in it when its centre is: a 30 ft cone is 6 cells long, 30 ft wide at its end)"."""
    opts = get_system("open").options.read({})
    square = Grid("square", 20, 20)
    cells = area_cells(square, opts, "cone", 30, square.parse("A10"), square.parse("G10"))
    widths = [sum(1 for c in cells if c.col == col) for col in range(1, 8)]
    assert widths == [1, 1, 3, 3, 5, 5, 0] and len(cells) == 18  # 450 square feet, the cone's area
    hexes = Grid("hex", 20, 20)
    cells = area_cells(hexes, opts, "cone", 30, hexes.parse("A10"), hexes.parse("G10"))
    assert max(hexes.distance(hexes.parse("A10"), c) for c in cells) == 6 and len(cells) < 24


def test_effects_change_ac_attack_and_speed() -> None:
    """"Effects may also change `attack`, `ac`, `damage`, `save` and `speed` (`mods:"ac+2"`)"."""
    s = fight()
    s.run("effect_add", effect="Shield", actor="Grak", rounds=1, mods="ac+5")
    res = s.resolve("attack", [9], actor="Ann", target="Grak")
    assert next(e for e in res.events if isinstance(e, OpenAttack)).roll.against == 15
    assert turns.feet_left(s.enc, s.get("Ann")) == 30


def test_a_burst_on_a_hex_map_counts_hexes() -> None:
    """"a `burst` is every cell within its size of the point aimed at", 5 ft a hex on a hex map."""
    s = Scenario("open", map="12x10 hex").add("Ann", f"hp=20 init=+10 {FIRE}", at="B2")
    s.add("Grak", "hp=40", at="F5", owner=None, side="foes")
    s.add("Near", "hp=40", at="F7", owner=None, side="foes")
    s.add("Far", "hp=40", at="F8", owner=None, side="foes")
    s.run("init_roll", [10, 1, 2, 3])
    res = s.run("attack", [3] * 8 + [1, 1], actor="Ann", target="Grak", weapon="fireball")
    area = next(e for e in res.events if isinstance(e, AreaStruck))
    assert area.caught == ["Grak", "Near"] and area.cells == 19


def test_stable_resets_the_saves_and_damage_restarts_them() -> None:
    """"At stable the counts start again. Damage while down is a failed death save (two on a critical hit); a stable
    combatant that takes damage is no longer stable and makes death saves again"."""
    s = with_bo(fight(ann=f"hp=3 max_hp=12 ac=10 {SWORD}"))
    s.run("next", actor="Ann")
    s.run("attack", [15, 4], actor="Grak", target="Ann")
    for _ in range(3):
        s.run("next", actor="Grak")
        s.run("next", actor="Orc")
        s.run("next", actor="Bo")
        s.run("next", [12], actor="Ann")
    ann = OpenCombatant.of(s.get("Ann"))
    assert ann.stable and (ann.saves_made, ann.saves_failed) == (0, 0)
    res = s.run("attack", [15, 4, 4, 4], actor="Grak", target="Ann")  # a critical hit on the stable Ann
    assert any("two failed death saves" in line for line in s.text(res))
    ann = OpenCombatant.of(s.get("Ann"))
    assert not ann.stable and (ann.saves_made, ann.saves_failed) == (0, 2)
    s.run("next", actor="Grak")
    s.run("next", actor="Orc")
    s.run("next", actor="Bo")
    s.run("next", [12], actor="Ann")
    ann = OpenCombatant.of(s.get("Ann"))
    assert (ann.saves_made, ann.saves_failed) == (1, 2) and s.get("Ann").status == "downed"


def test_the_gm_changes_record_the_hp_applied() -> None:
    """"Healing (`/combatant hp change:5`, never above `max_hp`)": the board's GM changes show the HP it stopped at,
    and the sheet's `hp` is the value applied."""
    s = fight(ann=f"hp=30 ac=10 {SWORD}")
    s.run("edit", actor="Ann", hp_change=-3)
    s.run("edit", actor="Ann", hp_change=5)
    assert (s.get("Ann").hp, s.get("Ann").sheet["hp"]) == (30, 30)
    assert s.enc.gm_edits[-2:] == ["round 1: Ann hp-3 (now 27)", "round 1: Ann hp+3 (now 30)"]


def test_the_refusal_names_only_the_conditions_that_take_actions() -> None:
    """"**grappled** (speed 0), **stunned** (no actions or reactions ...)": a grappled and stunned combatant cannot act
    because it is stunned, not because it is grappled."""
    s = fight()
    s.run("effect_add", effect="grappled", actor="Ann", rounds=1)
    s.run("effect_add", effect="stunned", actor="Ann", rounds=1)
    message = s.refused("attack", [15, 4], actor="Ann", target="Grak")
    assert "(stunned)" in message and "grappled" not in message
    message = s.refused("act", actor="Ann", action="dodge")
    assert "(stunned)" in message and "grappled" not in message


def test_a_burst_around_the_attacker_leaves_it_out() -> None:
    """"a burst with no range is around the attacker and leaves the attacker out"."""
    nova = "weapons='nova:save=con:12:2d6:thunder:half:area=burst5'"
    s = fight(ann=f"hp=20 {nova}", grak="hp=40")
    res = s.run("attack", [3, 3, 1], actor="Ann", weapon="nova", options={"at": "B2"})
    assert next(e for e in res.events if isinstance(e, AreaStruck)).caught == ["Grak"] and s.get("Ann").hp == 20


def test_the_effects_on_a_combatant_that_is_out_end() -> None:
    """"The GM's combatants are out at 0 HP ... The effects on a combatant that is out end"."""
    s = fight(grak=f"hp=3 ac=10 {SWORD}")
    s.run("effect_add", effect="Bless", actor="Grak", rounds=3, mods="attack+1")
    s.run("attack", [15, 4], actor="Ann", target="Grak")
    assert s.get("Grak").status == "out" and s.enc.effects == []


def test_the_effects_timed_by_the_turn_of_a_combatant_that_is_out_end() -> None:
    """"The effects on a combatant that is out end, and so do the effects timed by its turn (it takes no turn again ..."
    (docs/systems/open.md): Mark on Ann until Grak's turn ends ends as Grak goes out, with its line in the reply."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "open.md").read_text(encoding="utf-8").split())
    assert "The effects on a combatant that is out end, and so do the effects timed by its turn (it takes no turn again" in page
    commands = " ".join((Path(__file__).parents[3] / "docs" / "commands.md").read_text(encoding="utf-8").split())
    assert "an effect timed by a combatant's turn when that combatant is removed or, in Open d20, out of the fight" in commands
    s = fight(grak=f"hp=7 ac=10 {SWORD}")
    s.run("effect_add", effect="Mark", actor="Ann", rounds=3, ends="end of Grak's turn")
    s.run("effect_add", effect="Bless", actor="Ann", rounds=3)
    res = s.run("edit", actor="Grak", hp_change=-7)
    assert s.get("Grak").status == "out" and [e.name for e in s.enc.effects] == ["Bless"]
    assert any("Mark" in line and "ends" in line for line in s.text(res))


def test_massive_damage_kills_outright() -> None:
    """"when damage reduces a combatant to 0 HP and the damage left over equals or exceeds its hit point maximum, it
    dies outright (no death saves)"; temporary hit points take their share first."""
    s = with_bo(fight(ann=f"hp=6 max_hp=6 temp_hp=2 ac=10 {SWORD}", grak="hp=20 ac=10 weapons=maul:+5:2d6+2:bludgeoning"))
    s.run("next", actor="Ann")
    s.run("attack", [15, 6, 5], actor="Grak", target="Ann")  # 13: 2 to temp HP, 11 to HP, 5 left over: down
    assert s.get("Ann").status == "downed"
    s = with_bo(fight(ann=f"hp=6 max_hp=6 ac=10 {SWORD}", grak="hp=20 ac=10 weapons=maul:+5:2d6+2:bludgeoning"))
    s.run("next", actor="Ann")
    res = s.run("attack", [15, 6, 4], actor="Grak", target="Ann")  # 12: 6 left over at 0 HP, its maximum
    assert s.get("Ann").status == "out" and any("massive damage" in line for line in s.text(res))
    assert not any(isinstance(e, DeathSave) for name in ("Grak", "Orc", "Bo") for e in s.run("next", actor=name).events)


def test_massive_damage_while_down_kills_outright() -> None:
    """"Damage while down is a failed death save (two on a critical hit)", unless it reaches the hit point maximum: at 0 HP
    all of the damage is left over, and massive damage kills outright."""
    s = with_bo(fight(ann=f"hp=3 max_hp=8 ac=10 {SWORD}", grak="hp=20 ac=10 weapons=maul:+5:2d6+2:bludgeoning"))
    s.run("next", actor="Ann")
    s.run("attack", [15, 1, 1], actor="Grak", target="Ann")
    assert s.get("Ann").status == "downed"
    for name in ("Grak", "Orc"):
        s.run("next", actor=name)
    s.run("next", actor="Bo")
    s.run("next", [12], actor="Ann")  # Ann's death save: a success
    ann = s.get("Ann")
    s.run("attack", [15, 4, 1, 1, 1, 1], actor="Grak", target="Ann")  # a critical hit of 6: two failed death saves
    assert ann.status == "downed" and OpenCombatant.of(s.get("Ann")).saves_failed == 2
    s = with_bo(fight(ann=f"hp=3 max_hp=8 ac=10 {SWORD}", grak="hp=20 ac=10 weapons=maul:+5:2d6+2:bludgeoning"))
    s.run("next", actor="Ann")
    s.run("attack", [15, 1, 1], actor="Grak", target="Ann")
    for name in ("Grak", "Orc"):
        s.run("next", actor=name)
    s.run("next", actor="Bo")
    s.run("next", [12], actor="Ann")
    res = s.run("attack", [15, 4, 2, 2, 1, 1], actor="Grak", target="Ann")  # 8, its hit point maximum: dead
    assert s.get("Ann").status == "out" and any("massive damage" in line for line in s.text(res))


def test_massive_damage_is_an_option() -> None:
    """"Option `massive_damage=no`": damage left over at 0 HP does not kill outright; the combatant is down."""
    s = with_bo(fight(ann=f"hp=6 max_hp=6 ac=10 {SWORD}", grak="hp=20 ac=10 weapons=maul:+5:2d6+2:bludgeoning",
                      massive_damage="no"))
    s.run("next", actor="Ann")
    s.run("attack", [15, 6, 6], actor="Grak", target="Ann")
    assert s.get("Ann").status == "downed"


def test_a_side_all_at_0_hp_fights_on_while_any_is_dying() -> None:
    """"A side with nobody able to act is beaten" once none of it is still making death saves (option
    `victory=settled`): the foes act on meanwhile and the dying roll at their turns."""
    s = fight(ann=f"hp=3 max_hp=12 ac=10 {SWORD}")
    s.run("next", actor="Ann")
    s.run("attack", [15, 4], actor="Grak", target="Ann")
    assert s.get("Ann").status == "downed" and not s.enc.winner
    s.run("next", actor="Grak")
    assert s.enc.current == "Orc"
    s.run("next", actor="Orc")
    res = s.run("next", [12], actor="Ann")  # round 2: Ann's death save, then Grak acts
    assert [e.result for e in res.events if isinstance(e, DeathSave)] == ["made"] and s.enc.current == "Grak"
    s.run("next", actor="Grak")
    s.run("next", actor="Orc")
    s.run("next", [12], actor="Ann")
    assert not s.enc.winner and s.enc.current == "Grak"
    s.run("next", actor="Grak")
    s.run("next", actor="Orc")
    res = s.run("next", [12], actor="Ann")  # the third success: stable, and the side has lost
    assert [e.result for e in res.events if isinstance(e, DeathSave)] == ["stable"]
    assert s.enc.winner == "foes" and s.enc.current is None
    assert not any(isinstance(e, TurnBegan) for e in res.events)


def test_a_side_whose_last_dying_combatant_dies_has_lost() -> None:
    """"three failures and it is out": the last of its side to die decides the fight."""
    s = fight(ann=f"hp=3 max_hp=12 ac=10 {SWORD}")
    s.run("next", actor="Ann")
    s.run("attack", [15, 4], actor="Grak", target="Ann")
    s.run("next", actor="Grak")
    s.run("next", actor="Orc")
    s.run("act", [1], actor="Ann", action="death-save")  # two failures
    assert not s.enc.winner
    s.run("attack", [15, 4, 1, 1], actor="Grak", target="Ann")  # a critical hit while down: two more, dead
    assert s.get("Ann").status == "out" and s.enc.winner == "foes"


def test_victory_downed_decides_at_once() -> None:
    """"Option `victory=downed`": a side is beaten as soon as nobody of it can act."""
    s = fight(ann=f"hp=3 max_hp=12 ac=10 {SWORD}", victory="downed")
    s.run("next", actor="Ann")
    s.run("attack", [15, 4], actor="Grak", target="Ann")
    assert s.get("Ann").status == "downed" and s.enc.winner == "foes"


def test_falling_in_its_own_turn_announces_the_result() -> None:
    """"A side with nobody able to act is beaten": the last of a side falling in its own turn (an opportunity attack as it
    moves) is announced once."""
    s = fight(ann=f"hp=3 ac=10 {SWORD}", death_saves="no")
    res = s.run("move", [15, 4], actor="Ann", path="W")
    assert s.get("Ann").status == "out" and s.enc.winner == "foes"
    assert [e.side for e in res.events if isinstance(e, Victory)] == ["foes"]


def dying_ann(**options: str) -> Scenario:
    """Ann (the player's) down at 0 HP, the turn passed on to hers."""
    s = with_bo(fight(ann=f"hp=3 max_hp=12 ac=10 {SWORD}", **options))
    s.run("next", actor="Ann")
    s.run("attack", [15, 4], actor="Grak", target="Ann")
    for name in ("Grak", "Orc"):
        s.run("next", actor=name)
    return s


def test_a_player_rolls_their_own_death_save() -> None:
    """"at the start of each of its turns, rolls a death save": its owner rolls it with `/act action:death-save`, their
    own d20 typed with `roll:` as for any other roll of theirs."""
    s = dying_ann()
    res = s.run("next", actor="Bo")
    assert s.enc.current == "Ann" and any("/act action:death-save" in line for line in s.text(res))
    mine = Dice(rng=random.Random(0), given=[17], may_type=frozenset({"Ann"}))
    res = s.system.resolve(s.enc, make_action("act", actor="Ann", action="death-save", user_id=PLAYER), mine)
    s.enc = res.encounter
    save = next(e for e in res.events if isinstance(e, DeathSave))
    assert save.roll.dice == [17] and save.roll.typed == [0] and save.result == "made"
    assert s.enc.current == "Grak"
    message = s.refused("act", actor="Grak", action="death-save")
    assert "no death save" in message and "/init next" in message


def test_ending_a_dying_turn_rolls_the_death_save() -> None:
    """"at the start of each of its turns, rolls a death save": the GM ending the turn (or the deadline) rolls it."""
    s = dying_ann()
    s.run("next", actor="Bo")
    assert not s.system.untouched(s.enc, "Ann")  # no "end the turn?" question: ending it rolls the save
    res = s.run("next", [4], actor="Ann")
    assert [(e.actor, e.result) for e in res.events if isinstance(e, DeathSave)] == [("Ann", "failed")]
    assert s.enc.current == "Grak"


def test_the_bot_rolls_death_saves_as_the_turn_begins() -> None:
    """"Option `death_save_roll=bot`": the death save is rolled as the turn begins, and the turn passes on."""
    s = dying_ann(death_save_roll="bot")
    res = s.run("next", [12], actor="Bo")
    assert [e.result for e in res.events if isinstance(e, DeathSave)] == ["made"] and s.enc.current == "Grak"


def test_a_natural_20_as_the_turn_ends_brings_it_up_and_the_turn_passes() -> None:
    """"a natural 20 back up with 1 HP": rolled as the GM ends the turn, the combatant is up and the turn passes on."""
    s = dying_ann()
    s.run("next", actor="Bo")
    res = s.run("next", [20], actor="Ann")
    assert s.get("Ann").status == "active" and s.get("Ann").hp == 1 and s.enc.current == "Grak"
    assert [e.actor for e in res.events if isinstance(e, TurnBegan)] == ["Grak"]


def test_falling_in_its_own_turn_passes_it_on_with_no_death_save() -> None:
    """"at the start of each of its turns, rolls a death save": a combatant downed in its own turn (an opportunity attack
    as it moves) makes none in it; the turn passes on."""
    s = with_bo(fight(ann=f"hp=3 max_hp=12 ac=10 {SWORD}"))
    res = s.run("move", [15, 4], actor="Ann", path="W")
    assert s.get("Ann").status == "downed" and s.enc.current == "Grak"
    assert not any(isinstance(e, DeathSave) for e in res.events)


def test_two_sides_both_dying_roll_on_until_one_is_settled() -> None:
    """"while any of it is dying ... the fight goes on ... the dying rolling at their turns": with both sides dying, their
    turns still come round."""
    s = Scenario("open").add("Ann", f"hp=3 max_hp=12 init=+10 {SWORD}", at="B2")
    s.add("Cat", f"hp=3 max_hp=12 init=+0 {SWORD}", at="C2", side="rivals")
    s.run("init_roll", [10, 10])
    s.run("edit", actor="Ann", raw_sheet={"hp": "0"})
    assert s.enc.current == "Cat"
    s.run("edit", actor="Cat", raw_sheet={"hp": "0"})
    assert s.enc.current == "Ann" and not s.enc.winner  # round 2: Ann's death save is due
    s.run("next", [1], actor="Ann")  # a natural 1: two failures each
    s.run("next", [1], actor="Cat")
    s.run("next", [12], actor="Ann")
    assert not s.enc.winner and s.enc.current == "Cat"
    s.run("next", [4], actor="Cat")  # Cat's third failure: the rivals have lost
    assert s.get("Cat").status == "out" and s.enc.winner == "heroes"


def test_the_turn_of_a_combatant_that_cannot_act_still_passes_for_its_effects() -> None:
    """"Effects count down as turns pass" (docs/commands.md): the turn of a dying combatant whose death save the bot
    rolls, and of the GM's combatant down under `gm_at_zero=down`, passes all the same, so an effect timed by it ends."""
    s = dying_ann(death_save_roll="bot")
    s.run("effect_add", actor="Ann", effect="frightened", rounds=1)
    s.run("effect_add", actor="Grak", effect="hexed", rounds=1, ends="end of Ann's turn")
    s.run("next", [12], actor="Bo")  # Ann's turn: the bot rolls her death save and passes on
    assert s.enc.current == "Grak" and [e.name for e in s.enc.effects] == []
    s = fight(grak=f"hp=3 ac=10 {SWORD}", gm_at_zero="down")
    s.run("attack", [15, 4], actor="Ann", target="Grak")
    assert s.get("Grak").status == "downed"
    s.run("effect_add", actor="Grak", effect="stunned", rounds=1)
    s.run("next", actor="Ann")  # Grak's turn passes over him: his effect runs out with it
    assert s.enc.current == "Orc" and [e.name for e in s.enc.effects] == []


def test_hit_points_the_gm_takes_away_mid_fight_are_damage() -> None:
    """`/combatant hp` with a loss mid-fight is damage of no type, as docs/systems/open.md says: "temporary HP take it
    first"; at 0 HP "a player's combatant is down ... the GM's combatants are out"; "damage while down is a failed death
    save"; with `death_saves=no` a player's combatant is out."""
    s = with_bo(fight(ann=f"hp=20 temp_hp=4 ac=10 {SWORD}"))
    res = s.run("edit", actor="Ann", hp_change=-7)
    assert (s.get("Ann").hp, s.get("Ann").sheet["temp_hp"]) == (17, 0)
    assert any(isinstance(e, Harmed) and e.temp == 4 for e in res.events)
    assert "GM: **Ann** takes **7** damage (4 taken by temporary HP) (20 → 17 HP)" in s.text(res)  # as every system names the GM's
    s.run("edit", actor="Grak", hp_change=-20)
    assert s.get("Grak").status == "out"
    s.run("edit", actor="Ann", hp_change=-17)
    assert s.get("Ann").status == "downed" and OpenCombatant.of(s.get("Ann")).saves_failed == 0
    s.run("edit", actor="Ann", hp_change=-1)
    assert s.get("Ann").status == "downed" and OpenCombatant.of(s.get("Ann")).saves_failed == 1
    s = with_bo(fight(death_saves="no"))
    s.run("edit", actor="Bo", hp_change=-5)
    assert s.get("Bo").status == "out"


def test_the_boards_gm_changes_say_what_temporary_hp_took() -> None:
    """docs/commands.md: the board lists the GM's `/combatant hp` "as the change applied and the HP it left", in Open
    d20 with what temporary HP took: `Grak hp-2, 2 to temporary HP (now 7)`."""
    commands = " ".join((Path(__file__).parents[3] / "docs" / "commands.md").read_text(encoding="utf-8").split())
    assert "as the change applied and the HP it left: `Grak hp-1 (now 2)`" in commands
    assert "in Open d20 with what temporary HP took" in commands
    s = fight(ann=f"hp=7 temp_hp=3 ac=10 {SWORD}")
    s.run("edit", actor="Ann", hp_change=-2)
    assert s.enc.gm_edits[-1] == "round 1: Ann hp-2, 2 to temporary HP (now 7)"
    s.run("edit", actor="Ann", hp_change=-3)
    assert s.enc.gm_edits[-1] == "round 1: Ann hp-3, 1 to temporary HP (now 5)"
    s.run("edit", actor="Ann", hp_change=-1)
    assert s.enc.gm_edits[-1] == "round 1: Ann hp-1 (now 4)"


def test_brought_up_in_its_dying_turn_then_downed_again_its_turn_passes() -> None:
    """"One downed in its own turn makes its first save at the start of its next": healed back up in the turn it
    was dying in, then downed again in that turn, it rolls no save now, and its turn passes on."""
    s = dying_ann()
    s.run("next", actor="Bo")
    assert s.enc.current == "Ann" and s.get("Ann").status == "downed"
    s.run("edit", actor="Ann", hp_change=4)
    assert s.get("Ann").status == "active" and s.enc.current == "Ann"
    s.run("edit", actor="Ann", hp_change=-5)
    assert s.get("Ann").status == "downed" and s.enc.current == "Grak"
    assert OpenCombatant.of(s.get("Ann")).saves_failed == 0


def test_a_dying_combatants_turn_line_and_move_say_what_it_may_do() -> None:
    """A dying combatant's turn is its death save ("`/act action:death-save`"): the turn line says so, not "action
    left", and a move is refused pointing to the death save."""
    s = dying_ann()
    s.run("next", actor="Bo")
    line = s.system.present.turn_label(s.enc, s.system.facts(s.enc))
    assert "Ann is dying" in line and "death-save" in line and "left" not in line
    message = s.refused("move", actor="Ann", path="E")
    assert "dying" in message and "/act action:death-save" in message and "Attack" not in message


def test_a_cone_aimed_at_its_own_cell_is_refused_and_spends_nothing() -> None:
    """"a `cone` spreads from the attacker towards the point": aimed at the attacker's own cell it has no direction, so
    it is refused, saying to aim elsewhere, and the action is not spent."""
    cone = "weapons='breath:save=dex:12:2d6:fire:half:area=cone15'"
    s = fight(ann=f"hp=20 {cone}")
    message = s.refused("attack", actor="Ann", weapon="breath", options={"at": "B2"})
    assert "another cell than its own" in message and not OpenCombatant.of(s.get("Ann")).acted


def test_a_third_failure_from_damage_reads_as_death() -> None:
    """"three failures and it is out" ... "Damage while down is a failed death save": when damage is the third
    failure, the reply says the combatant died of its failed death saves."""
    s = with_bo(fight(ann=f"hp=3 max_hp=30 ac=10 {SWORD}"))
    s.run("next", actor="Ann")
    s.run("attack", [15, 4], actor="Grak", target="Ann")
    OpenCombatant.of(s.get("Ann")).saves_failed = 2
    res = s.run("edit", actor="Ann", hp_change=-1)
    assert s.get("Ann").status == "out"
    assert any("dead after three failed death saves" in line for line in s.text(res))


def test_a_combatant_that_cannot_act_is_told_so_by_its_turn_line_and_stand() -> None:
    """"stunned: speed 0 (it cannot move); it takes no actions": the turn line says the stunned Ann cannot act and
    that `/init next` ends her turn, not "action left" (and so does her board line); standing up from prone is
    refused saying why."""
    s = fight()
    s.run("effect_add", effect="stunned", actor="Ann", rounds=2)
    s.run("effect_add", effect="prone", actor="Ann", rounds=2)
    line = s.system.present.turn_label(s.enc, s.system.facts(s.enc))
    assert "Ann cannot act (stunned)" in line and "/init next" in line and "left" not in line
    facts = s.system.facts(s.enc)
    status = s.system.present.status_line(s.enc, s.get("Ann"), facts)
    assert "▶ cannot act" in status and "left" not in status  # her board line agrees with the turn line
    message = s.refused("act", actor="Ann", action="stand")
    assert "speed 0" in message and "/init next" in message


def test_standing_costs_half_the_speed_now() -> None:
    """"Standing up from prone costs half its speed", its speed now: with `speed-10` on a speed-30 Ann it costs 10 ft;
    grappled and prone, she cannot stand but may still act."""
    s = fight(ann=f"hp=20 ac=10 speed=30 {SWORD}")
    s.run("effect_add", effect="Slowed", actor="Ann", rounds=2, mods="speed-10")
    s.run("effect_add", effect="prone", actor="Ann", rounds=2)
    res = s.run("act", actor="Ann", action="stand")
    assert OpenCombatant.of(s.get("Ann")).feet_spent == 10
    assert "**Ann** stands up for 10 ft of movement (10 ft left)" in s.text(res)  # what the 10 ft went on
    s = fight(ann=f"hp=20 ac=10 speed=25 {SWORD}")  # the docs: "half its speed now, rounded down: 12 ft of a 25 ft speed"
    s.run("effect_add", effect="prone", actor="Ann", rounds=2)
    s.run("act", actor="Ann", action="stand")
    assert OpenCombatant.of(s.get("Ann")).feet_spent == 12
    s = fight()
    s.run("effect_add", effect="grappled", actor="Ann", rounds=2)
    s.run("effect_add", effect="prone", actor="Ann", rounds=2)
    message = s.refused("act", actor="Ann", action="stand")
    assert "speed 0" in message and "Act, or end the turn" in message


def test_a_win_with_a_winner_dying_names_the_dying_for_the_gm_to_settle() -> None:
    """"A side whose foes are all gone ... wins, even with its own combatants dying: the fight is decided, no more
    death saves are rolled, and the GM settles the dying with `/combatant hp` (healing) or `/combatant edit`": the
    announcement says who is still dying and how the GM settles them."""
    s = Scenario("open").add("Borin", f"hp=5 init=+0 {SWORD}", at="B2").add("Ann", f"hp=20 init=+0 {SWORD}", at="C3")
    s.add("Orc", f"hp=5 ac=5 init=+0 {SWORD}", at="C2", owner=None, side="foes")
    s.run("init_roll", [15, 10, 5])
    s.run("edit", actor="Borin", raw_sheet={"hp": "0"})
    assert s.get("Borin").status == "downed" and s.enc.current == "Ann"
    res = s.run("attack", [15, 6], actor="Ann", target="Orc")
    assert s.enc.winner == "heroes"
    said = " ".join(s.text(res))
    assert "**Borin** is still dying" in said and "`/combatant hp`" in said and "`/combatant edit`" in said
