"""The open system's down and out, coup de grâce, save attacks, areas and conditions (docs/systems/open.md)."""
from __future__ import annotations

from rules.geometry import Grid
from rules.registry import get_system
from rules.systems.open import turns
from rules.systems.open.events import AreaStruck, DeathSave, Harmed, OpenAttack, Saved
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


def test_a_players_combatant_is_down_and_makes_death_saves() -> None:
    """"at 0 HP a player's combatant is down ... at the start of each of its turns, rolls a death save: a d20, 10 or
    more a success, a natural 1 two failures ... three failures and it is out"."""
    s = with_bo(fight(ann=f"hp=3 ac=10 {SWORD}"))
    s.run("next", actor="Ann")
    s.run("attack", [15, 4], actor="Grak", target="Ann")
    assert s.get("Ann").status == "downed" and s.enc.current != "Ann"
    s.run("next", actor="Grak")
    s.run("next", actor="Orc")
    res = s.run("next", [1], actor="Bo")  # round 2: Ann's turn begins with her death save
    save = next(e for e in res.events if isinstance(e, DeathSave))
    assert (save.failed, save.result) == (2, "failed") and s.enc.current == "Grak"
    s.run("attack", [15, 4, 4, 4], actor="Grak", target="Ann")  # advantage, a critical hit while down: two failures
    assert s.get("Ann").status == "out"


def test_three_successes_stabilise_and_a_natural_20_revives() -> None:
    """"three successes and it is stable"; "a natural 20 back up with 1 HP"."""
    s = with_bo(fight(ann=f"hp=3 ac=10 {SWORD}"))
    s.run("next", actor="Ann")
    s.run("attack", [15, 4], actor="Grak", target="Ann")
    s.run("next", actor="Grak")
    s.run("next", actor="Orc")
    s.run("next", [20], actor="Bo")
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


def test_coup_de_grace_on_a_helpless_target_is_a_critical_hit() -> None:
    """"`/coupdegrace target:X` is a melee attack from within 5 ft on a helpless target (paralysed, unconscious or
    down); a hit is a critical hit"."""
    s = fight(grak=f"hp=30 ac=10 {SWORD}")
    assert "not helpless" in s.refused("coupdegrace", [15, 4, 4], actor="Ann", target="Grak")
    s.run("effect_add", name="Paralyzed", actor="Grak", rounds=1)
    res = s.run("coupdegrace", [3, 15, 4, 5], actor="Ann", target="Grak")
    strike = next(e for e in res.events if isinstance(e, OpenAttack))
    assert strike.coup and strike.critical and strike.mode == "advantage" and s.get("Grak").hp == 30 - 9
    far = fight(grak=f"hp=30 ac=10 {SWORD}", grak_at="E2")
    far.run("effect_add", name="unconscious", actor="Grak", rounds=1)
    assert "within 5 ft" in far.refused("coupdegrace", [15, 4, 4], actor="Ann", target="Grak")


def test_a_hit_from_within_5_ft_on_a_paralysed_target_is_critical() -> None:
    """"**paralysed** ... helpless: a hit from within 5 ft is a critical hit"."""
    s = fight()
    s.run("effect_add", name="paralysed", actor="Grak", rounds=1)
    res = s.run("attack", [2, 12, 3, 3], actor="Ann", target="Grak")
    assert next(e for e in res.events if isinstance(e, OpenAttack)).critical and s.get("Grak").hp == 14


def test_a_burst_catches_everyone_within_it_and_a_save_halves() -> None:
    """"each combatant caught rolls a d20 plus its modifier of the ability ... against the DC; a success takes half";
    "a `burst` is every cell within its size of the point aimed at"."""
    s = fight(ann=f"hp=20 {FIRE}", grak="hp=40 dex=2", grak_at="H5")
    s.run("add", name="Snaga", raw_sheet={"hp": "40"}, at="I6", side="foes", init=0)
    s.run("add", name="Far", raw_sheet={"hp": "40"}, at="H8", side="foes", init=0)
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
    s.run("effect_add", name="stunned", actor="Grak", rounds=1)
    res = s.run("attack", [3] * 8, actor="Ann", target="Grak", weapon="fireball")
    assert next(e for e in res.events if isinstance(e, Saved)).automatic and s.get("Grak").hp == 16
    s = fight(ann=f"hp=20 {FIRE}", grak="hp=40", grak_at="H5")
    s.run("effect_add", name="restrained", actor="Grak", rounds=1)
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
    s.run("add", name="Wide", raw_sheet={"hp": "40"}, at="D4", side="foes", init=0)
    s.run("add", name="Back", raw_sheet={"hp": "40"}, at="A2", side="foes", init=0)
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
    s.run("effect_add", name="Shield", actor="Grak", rounds=1, mods="ac+5")
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
    s = with_bo(fight(ann=f"hp=3 ac=10 {SWORD}"))
    s.run("next", actor="Ann")
    s.run("attack", [15, 4], actor="Grak", target="Ann")
    for _ in range(3):
        s.run("next", actor="Grak")
        s.run("next", actor="Orc")
        s.run("next", [12], actor="Bo")
    ann = OpenCombatant.of(s.get("Ann"))
    assert ann.stable and (ann.saves_made, ann.saves_failed) == (0, 0)
    res = s.run("attack", [15, 4, 4, 4], actor="Grak", target="Ann")  # a critical hit on the stable Ann
    assert any("two failed death saves" in line for line in s.text(res))
    ann = OpenCombatant.of(s.get("Ann"))
    assert not ann.stable and (ann.saves_made, ann.saves_failed) == (0, 2)
    s.run("next", actor="Grak")
    s.run("next", actor="Orc")
    s.run("next", [12], actor="Bo")
    ann = OpenCombatant.of(s.get("Ann"))
    assert (ann.saves_made, ann.saves_failed) == (1, 2) and s.get("Ann").status == "downed"


def test_the_gm_changes_record_the_hp_applied() -> None:
    """"Healing (`/combatant hp change:5`, never above `max_hp`)": the board's GM changes show the HP it stopped at."""
    s = fight(ann=f"hp=30 ac=10 {SWORD}")
    s.run("edit", actor="Ann", hp_change=5)
    assert s.get("Ann").hp == 30 and s.enc.gm_edits[-1] == "round 1: Ann hp=30"


def test_the_refusal_names_only_the_conditions_that_take_actions() -> None:
    """"**grappled** (speed 0), **stunned** (no actions or reactions ...)": a grappled and stunned combatant cannot act
    because it is stunned, not because it is grappled."""
    s = fight()
    s.run("effect_add", name="grappled", actor="Ann", rounds=1)
    s.run("effect_add", name="stunned", actor="Ann", rounds=1)
    message = s.refused("attack", [15, 4], actor="Ann", target="Grak")
    assert "(stunned)" in message and "grappled" not in message
    message = s.refused("act", actor="Ann", name="dodge")
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
    s.run("effect_add", name="Bless", actor="Grak", rounds=3, mods="attack+1")
    s.run("attack", [15, 4], actor="Ann", target="Grak")
    assert s.get("Grak").status == "out" and s.enc.effects == []
