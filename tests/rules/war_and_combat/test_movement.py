"""Movement on hexes: facing costs, half the pace per phase, terrain, obstacles, zones, pass-through."""
from __future__ import annotations

import pytest

from rules.events import Checked, Moved, Term, Turned, mod
from rules.geometry import parse_cell
from rules.systems.war_and_combat.events import Engaged, Struck
from rules.systems.war_and_combat.zones import marginal, obstructed, threat
from tests.rules.war_and_combat.build import alone, near, st, wac
from tests.scenario import Scenario


def test_a_front_hex_costs_one_and_turns_the_mover_that_way():
    """"Moving into a front hex costs normal movement points ... changing face costs nothing if done whilst stepping into a front hex"."""
    s = alone()
    res = s.run("move", actor="Borin", path="NE")
    moved = res.events[0]
    assert isinstance(moved, Moved) and moved.cost == 1 and moved.facing == "NE" and st(s, "Borin").mp == 1


def test_a_flank_or_rear_hex_costs_double_and_keeps_the_facing():
    """"Moving into a flank or rear hex costs double"."""
    s = alone()
    res = s.run("move", actor="Borin", path="S")
    assert res.events[0].cost == 2 and s.get("Borin").facing == "N" and st(s, "Borin").mp == 0


def test_a_pivot_costs_one_point():
    """"A character may pivot in the hex to face any direction at the cost of one movement point"."""
    s = alone()
    res = s.run("move", actor="Borin", facing="S")
    assert isinstance(res.events[0], Turned) and res.events[0].cost == 1 and st(s, "Borin").mp == 1


def test_half_the_pace_in_each_phase():
    """"During each phase, the fighter can spend up to half his movement points": a jog (6) gives 3 now."""
    s = alone("pace=jog")
    assert st(s, "Borin").mp == 3
    assert "movement point" in s.refused("move", actor="Borin", path="N N N N")


def test_rough_ground_costs_two():
    """TERRAIN EFFECTS CHART: Rough 2."""
    s = alone(terrain={"F5": "rough"})
    res = s.run("move", actor="Borin", path="N")
    assert res.events[0].cost == 2


def test_running_over_mired_ground_calls_for_an_agility_roll():
    """"If the maximum pace is exceeded, an agility roll ... must be made or the character stumbles" (water: max jog)."""
    s = alone("pace=run", terrain={"F5": "difficult"})
    res = s.run("move", [2, 3, 3], actor="Borin", path="N N")
    check = next(e for e in res.events if isinstance(e, Checked))
    assert check.what == "stumble" and not check.roll.success
    assert st(s, "Borin").fallen and s.get("Borin").position == "F5"


def test_an_obstacle_costs_one_more_and_a_failed_roll_halts_before_it():
    """Obstacles: "cost +1 movement point over and above normal costs of terrain; a failed action halts movement"."""
    s = alone(terrain={"F5": "obstacle"})
    res = s.run("move", [2, 3, 3], actor="Borin", path="N")
    assert s.get("Borin").position == "F6" and not next(e for e in res.events if isinstance(e, Checked)).roll.success
    t = alone("skills=acrobatics:2", terrain={"F5": "obstacle"})
    res = t.run("move", [4, 4, 3], actor="Borin", path="N")
    assert t.get("Borin").position == "F5" and res.events[0].cost == 2


def test_a_failed_obstacle_roll_ends_the_movement_of_the_phase():
    """Obstacles: "a failed action halts movement": no second try in the phase, and no turn to the facing held."""
    s = alone("pace=run", terrain={"F5": "obstacle"})
    res = s.run("move", [4, 4, 3], actor="Borin", path="N")
    assert not any(isinstance(e, Turned) for e in res.events) and st(s, "Borin").mp == 0
    assert "halted its movement this phase" in s.refused("move", [6, 6, 5], actor="Borin", path="N")
    assert "halted" in s.refused("move", actor="Borin", facing="S")
    assert s.get("Borin").position == "F6"


def test_entering_a_zone_of_threat_stops_movement_and_engages():
    """"A character entering a zone of danger must stop upon entering a hex covered by the zone"."""
    s = wac()
    s.add("Borin", "fighter=6 pace=jog", side="dwarves", at="F6", facing="N")
    s.add("Grak", "weapons=axe", side="orcs", at=near(s, "F6", "N", "N", "N"), facing="S", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    res = s.run("move", actor="Borin", path="N N N")
    assert s.get("Borin").position == near(s, "F6", "N", "N")
    assert any(isinstance(e, Engaged) and e.by == "Grak" for e in res.events)


def test_polearm_leaves_a_gap_and_the_two_handed_sword_does_not():
    """"For polearms, the zone of threat leaves a gap"; "if the weapon were a two-handed sword, the obstructed zones would also be zones of threat"."""
    s = wac()
    s.add("Pike", "weapons=polearm", side="a", at="F6", facing="N")
    s.add("Brand", "weapons=two-handed-sword", side="b", at="K6", facing="N")
    grid = s.enc.grid()
    pike, brand = threat(grid, s.get("Pike")), threat(grid, s.get("Brand"))
    assert parse_cell(near(s, "F6", "N")) not in pike and parse_cell(near(s, "F6", "N", "N")) in pike and len(pike) == 3
    assert parse_cell(near(s, "K6", "N")) in brand and parse_cell(near(s, "K6", "N", "N")) in brand and len(brand) == 6
    assert len(marginal(grid, s.get("Pike"))) == 2


def test_pass_through_success_reaches_the_far_side():
    """The "pass through" maneuver: "uses the tactics skill, modified by agility" to reach a safe hex in one go."""
    s = wac(tactics_skew="no")
    s.add("Borin", "fighter=6 pace=run skills=tactics:3", side="dwarves", at="F6", facing="N")
    s.add("Grak", "weapons=axe", side="orcs", at=near(s, "F6", "N", "NE"), facing="SW", owner=None)
    s.add("Ulf", "weapons=axe", side="dwarves", at=near(s, "F6", "N", "NE", "SE"), facing="NW", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2, 1, 2, 2])
    assert s.enc.current == "Borin"
    res = s.run("move", [4, 4, 3], actor="Borin", path="N N N N", options={"pass": ""})
    assert s.get("Borin").position == near(s, "F6", "N", "N", "N", "N")
    assert next(e for e in res.events if isinstance(e, Checked)).roll.success


def test_pass_through_failure_is_an_accidental_blow():
    """"A failed roll means the character was struck. Randomly roll for hit location and severity, but add a low skew die for impact"."""
    s = wac(tactics_skew="no")
    s.add("Borin", "fighter=6 pace=run", side="dwarves", at="F6", facing="N")
    s.add("Grak", "weapons=axe str=10", side="orcs", at=near(s, "F6", "N", "NE"), facing="SW", owner=None)
    s.add("Ulf", "weapons=axe", side="dwarves", at=near(s, "F6", "N", "NE", "SE"), facing="NW", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2, 1, 2, 2])
    # Tactics roll 7 fails; location 4,4,3 chest; impact cap 13 = 3d6-2, a low skew die: 4 dice keep the lowest 3
    res = s.run("move", [2, 3, 2, 4, 4, 3, 6, 1, 2, 3], actor="Borin", path="N N N N", options={"pass": ""})
    hit = next(e for e in res.events if isinstance(e, Struck))
    assert hit.location == "chest" and hit.impact.total == 1 + 2 + 3 - 2
    said = "\n".join(s.text(res)).replace("✍", "").replace("**", "")  # the location's 3d6 and the low skew, shown
    assert ("Borin is struck in the chest (🎲 4, 4, 3 (3d6) = 11): impact 🎲 6, 1, 2, 3 (3d6-2 + a low skew die, the worst 3 "
            "kept: the blow is unintentional)") in said


def test_after_a_flurry_only_a_one_hex_adjustment():
    """"If the character is allowed to enter the hex, he may make a one hex adjustment the following phase"."""
    from tests.rules.war_and_combat.build import duel, fight

    s = duel()
    fight(s)
    s.run("act", action="hold", actor="Borin")
    s.run("act", action="hold", actor="Grak")
    s.run("next", actor="Grak")
    assert "one hex" in s.refused("move", actor="Borin", path="N N")


def test_one_quick_action_a_phase():
    """"A character may perform one quick action during each movement phase" (standing up, drawing a weapon)."""
    s = alone("weapons=broadsword,dagger")
    st(s, "Borin").fallen = True
    s.run("act", action="stand", actor="Borin")
    assert not st(s, "Borin").fallen
    assert "quick action" in s.refused("act", action="wield", actor="Borin", weapon="dagger")


def test_skill_rolls_while_moving_take_the_pace_penalty():
    """ACTION PENALTY BY PACE: "Movement rate penalizes actions that require skill rolls" (jog -2)."""
    s = alone("pace=jog skills=acrobatics:2", terrain={"F5": "obstacle"})
    res = s.run("move", [4, 4, 3], actor="Borin", path="N")
    roll = next(e for e in res.events if isinstance(e, Checked)).roll
    assert mod("pace", -2) in roll.modifiers and roll.total == 11


def test_bringing_an_enemy_into_your_zone_of_threat_stops_the_move():
    """"Entering a zone of threat or causing another character to enter a your zone of threat engages the two
    figures ... At this point, movement stops": Borin walking up behind Grak stops with Grak in his front hex."""
    s = wac()
    s.add("Borin", "fighter=6 pace=run weapons=broadsword", side="dwarves", at="F8", facing="N")
    s.add("Grak", "weapons=axe", side="orcs", at=near(s, "F8", "N", "N", "N"), facing="N", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    res = s.run("move", actor="Borin", path="N N NE")
    assert s.get("Borin").position == near(s, "F8", "N", "N")
    assert any(isinstance(e, Engaged) and e.by == "Grak" and e.zone == "own threat" for e in res.events)
    assert "brings Grak into its zone of threat" in "\n".join(s.text(res))


def _into_danger() -> Scenario:
    """Borin and Grak engaged; Alda (a bow, no zone of threat) steps into the hex beside Grak, in his zone of danger."""
    from tests.rules.war_and_combat.build import duel

    s = duel()
    grak = s.get("Grak").position
    s.add("Alda", "fighter=3 weapons=bow", side="dwarves", at=near(s, grak, "S", "S"), facing="N")
    s.run("init_roll", [5, 5, 4, 2, 3, 2, 2, 2, 2])
    s.run("next", actor="Borin")
    s.run("next", actor="Grak")
    res = s.run("move", actor="Alda", path="N")
    assert any(isinstance(e, Engaged) and e.by == "Grak" and e.zone == "danger" for e in res.events)
    s.run("next", actor="Alda")
    return s


def test_a_fighter_stopped_in_a_zone_of_danger_resolves_it_in_the_flurry():
    """"A character entering a zone of danger must stop upon entering a hex covered by the zone, and resolve the
    threat during the flurry phase"."""
    s = _into_danger()
    assert s.enc.phase == "flurry" and "Alda" in s.enc.state.flurries[0]
    assert "Alda" in s.enc.state.declarations.participants


def test_after_the_danger_a_one_hex_adjustment_and_then_no_move_while_still_in_danger():
    """"he may make a one hex adjustment the following phase ... if the one hex adjustment puts him in another
    danger zone, he cannot move the next round until the new threat is resolved"."""
    s = _into_danger()
    s.run("act", action="declare", actor="Borin", options={})
    s.run("act", [5, 5, 4, 2, 3, 2, 2, 2, 2], action="force")
    while s.enc.phase == "flurry":
        s.run("act", action="hold", actor=s.enc.current)
    while s.enc.current != "Alda":
        s.run("next", actor=s.enc.current)
    assert "one hex" in s.refused("move", actor="Alda", path="S S")
    while s.enc.phase != "movement" or s.enc.current != "Alda":
        s.run("next", [3, 3, 3] * 3, actor=s.enc.current) if s.enc.phase == "adjustment" and s.enc.current == s.enc.order[0] \
            else s.run("next", actor=s.enc.current)
    assert "zone of danger" in s.refused("move", actor="Alda", path="S")


def test_a_fall_on_the_way_leaves_a_crawls_points():
    """"Failure means the victim falls"; "Crawl 2": a runner who falls mid-phase crawls from that moment (1 point
    a phase at most), not on at the run's 4."""
    s = alone("pace=run", terrain={"F5": "difficult"})
    s.run("move", [2, 3, 3], actor="Borin", path="N")
    assert st(s, "Borin").fallen and st(s, "Borin").mp == 1
    s.run("move", actor="Borin", path="N")
    assert "movement point" in s.refused("move", actor="Borin", path="N")


def test_wound_penalties_count_against_movement_rolls():
    """"Action penalties are applied against any task roll the character attempts": a serious wound (-3) turns an
    obstacle roll of 11 (+2 Acrobatics, -1 walking: 12 vs 10) into a failure, and a footing roll of 11 too."""
    from rules.systems.war_and_combat.state import WoundRecord

    s = alone("skills=acrobatics:2", terrain={"F5": "obstacle"})
    st(s, "Borin").wounds.append(WoundRecord(location="chest", severity="serious"))
    res = s.run("move", [4, 4, 3], actor="Borin", path="N")
    check = next(e for e in res.events if isinstance(e, Checked))
    assert check.roll.total == 9 and not check.roll.success and s.get("Borin").position == "F6"
    t = alone("pace=run", terrain={"F5": "difficult"})
    st(t, "Borin").wounds.append(WoundRecord(location="arm", severity="serious"))
    res = t.run("move", [4, 4, 3], actor="Borin", path="N")
    check = next(e for e in res.events if isinstance(e, Checked))
    assert check.what == "stumble" and check.roll.total == 8 and st(t, "Borin").fallen


def test_to_prices_a_pivot_at_one_point_whatever_the_turn():
    """"A character may pivot in the hex to face any direction at the cost of one movement point": `to:` two hexes
    behind costs a half turn (1) and two front steps (2), what `path:` and `facing:` reach, not 4."""
    s = alone("pace=jog")
    res = s.run("move", actor="Borin", to=near(s, "F6", "S", "S"))
    assert s.get("Borin").position == near(s, "F6", "S", "S") and res.events[0].cost == 3
    assert s.get("Borin").facing == "S"


def test_a_front_step_may_keep_the_facing_for_free():
    """"changing face costs nothing if done whilst stepping into a front hex": keeping the facing costs nothing
    either: `options:"keep"` steps NE still facing N, and `to:` with `facing:` finds it."""
    s = alone()
    res = s.run("move", actor="Borin", path="NE", options={"keep": ""})
    assert res.events[0].cost == 1 and s.get("Borin").facing == "N"
    t = alone()
    res = t.run("move", actor="Borin", to=near(t, "F6", "NE"), facing="N")
    assert res.events[0].cost == 1 and t.get("Borin").facing == "N" and st(t, "Borin").mp == 1


def test_an_engaged_allys_zone_of_danger_stops_a_mover_too():
    """"A zone of danger is any hex that is in range of a weapon held by any fighter that is actively engaged":
    Alda stepping beside her engaged ally Borin stops there and joins his flurry."""
    from tests.rules.war_and_combat.build import duel

    s = duel()
    s.add("Alda", "fighter=3 weapons=bow", side="dwarves", at=near(s, "D4", "NW", "NW"), facing="SE")
    s.run("init_roll", [5, 5, 4, 2, 3, 2, 2, 2, 2])
    s.run("next", actor="Borin")
    s.run("next", actor="Grak")
    res = s.run("move", actor="Alda", path="SE SE")
    assert s.get("Alda").position == near(s, "D4", "NW")
    assert any(isinstance(e, Engaged) and e.by == "Borin" and e.zone == "danger" for e in res.events)
    s.run("next", actor="Alda")
    assert "Alda" in s.enc.state.flurries[0]


def test_a_crawler_crosses_rough_ground_over_two_phases():
    """"If the character does not have enough movement points to negotiate an obstacle during a phase or round,
    then that movement action is carried over to the next phase or round": a crawler (1 point a phase) begins the
    step into rough ground (2) in the movement phase and finishes it in the adjustment phase."""
    s = alone("pace=crawl", terrain={"F5": "rough"})
    assert st(s, "Borin").mp == 1
    res = s.run("move", actor="Borin", path="N")
    assert s.get("Borin").position == "F6" and st(s, "Borin").owed == 1 and st(s, "Borin").mp == 0
    assert "1 point(s) carried over" in "\n".join(s.text(res))
    assert "movement point" in s.refused("move", actor="Borin", path="N")
    s.run("next", actor="Borin")
    s.run("next", actor="Grak")
    while s.enc.current != "Borin":
        s.run("next", actor=s.enc.current)
    assert s.enc.phase == "adjustment"
    res = s.run("move", actor="Borin")
    assert s.get("Borin").position == "F5" and st(s, "Borin").carry is None and res.events[0].cost == 1


def test_a_step_too_dear_is_begun_only_as_the_last_of_a_move():
    """A step the points left cannot pay for is carried over only where the move ends; mid-path it is refused."""
    s = alone("pace=crawl", terrain={"F5": "rough"})
    assert "begun now" in s.refused("move", actor="Borin", path="N N")


def test_the_mover_chooses_the_obstacle_action():
    """The obstacles table: "Climb a rope, ladder, or tree Climbing STR ... Dive under a table Acrobatics AGL":
    `via=` picks the action, and its skill and attribute roll (here Climbing and STR for an obstacle hex)."""
    s = alone("str=16 skills=climbing:3,acrobatics:0", terrain={"F5": "obstacle"})
    res = s.run("move", [2, 3, 3], actor="Borin", path="N", options={"via": "climb"})
    check = next(e for e in res.events if isinstance(e, Checked))
    assert check.roll.versus == Term(code="obstacle", args=["climb a rope, ladder, or tree"])
    assert check.roll.total == 8 + 3 + 2 - 1 and check.roll.success and s.get("Borin").position == "F5"
    t = alone(terrain={"F5": "obstacle"})
    assert "several" in t.refused("move", [2, 3, 3], actor="Borin", path="N", options={"via": "jump"})


def test_a_pivot_after_the_steps_cannot_overspend_the_phase():
    """"During each phase, the fighter can spend up to half his movement points" and a pivot costs "one movement
    point": a walker (2 a phase) stepping into its rear hex (2) has nothing left to pivot, a runner (4) after two."""
    s = alone()
    assert "movement point" in s.refused("move", actor="Borin", path="S", facing="S")
    assert s.get("Borin").position == "F6" and st(s, "Borin").mp == 2
    t = alone("pace=run")
    assert "movement point" in t.refused("move", actor="Borin", path="S S", facing="S")
    res = t.run("move", actor="Borin", path="S", facing="S")
    assert res.events[0].cost == 3 and t.get("Borin").facing == "S" and st(t, "Borin").mp == 1


def test_a_jump_or_dive_over_an_obstacle_takes_its_own_row_of_the_pace_table():
    """ACTION PENALTY BY PACE: "Jump or Dive -5", "Swing (1-H) -4": a walker diving under a table or swinging
    across a gap takes that row, not the walk's -1; tumbling over a table keeps the walk's -1."""
    rows = (("dive-under", mod("movement_type", -5, "dive")), ("swing", mod("movement_type", -4, "swing")),
            ("tumble-over", mod("pace", -1)))
    for via, penalty in rows:
        s = alone("skills=acrobatics:2", terrain={"F5": "obstacle"})
        res = s.run("move", [4, 4, 3], actor="Borin", path="N", options={"via": via})
        roll = next(e for e in res.events if isinstance(e, Checked)).roll
        assert [m for m in roll.modifiers if m.value < 0] == [penalty]


def test_a_jump_across_a_gap_names_the_skill_it_rolls():
    """The obstacles table: "Jump across a gap Acrobatics and Jumping STR": the better of the two is rolled, and
    named (here Jumping)."""
    s = alone("str=10 skills=jumping:3,acrobatics:1", terrain={"F5": "gap"})
    res = s.run("move", [4, 4, 3], actor="Borin", path="N")
    roll = next(e for e in res.events if isinstance(e, Checked)).roll
    assert mod("named_skill", 3, "jumping") in roll.modifiers
    assert mod("movement_type", -5, "jump") in roll.modifiers and roll.total == 11 + 3 - 5


def test_a_fighter_stopped_in_a_zone_of_danger_holds_one_of_its_own():
    """"A zone of danger is any hex that is in range of a weapon held by any fighter that is actively engaged":
    Alda, beside her engaged ally Borin and so in his flurry, is actively engaged too, and Drog passing beside her
    stops there."""
    from tests.rules.war_and_combat.build import BORIN, GRAK

    s = wac()
    s.add("Borin", BORIN, side="dwarves", at="H8", facing="SE")
    s.add("Grak", GRAK, side="orcs", at=near(s, "H8", "SE"), facing="NW", owner=None)
    s.add("Alda", "fighter=3 weapons=broadsword", side="dwarves", at=near(s, "H8", "NW"), facing="SE")
    s.add("Drog", "fighter=3 weapons=bow pace=run", side="orcs", at="E8", facing="NE", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2, 2, 2, 2, 2, 2, 2])
    while s.enc.current != "Drog":
        s.run("next", actor=s.enc.current)
    res = s.run("move", actor="Drog", path="NE NE NE")
    assert s.get("Drog").position == "F7"
    assert any(isinstance(e, Engaged) and e.by == "Alda" and e.zone == "danger" for e in res.events)
    s.run("next", actor="Drog")
    assert "Drog" in s.enc.state.flurries[0]


def test_a_sprint_moves_faster_than_a_run_and_takes_the_tables_minus_five():
    """ACTION PENALTY BY PACE: "Sprint -5"; the rate table gives a sprint no rate, so it moves `sprint_points`
    (10 a round: 5 a phase) and is faster than the rough ground's "Run" maximum pace."""
    s = alone("pace=sprint skills=acrobatics:2", terrain={"F5": "obstacle"})
    assert st(s, "Borin").mp == 5
    res = s.run("move", [4, 4, 3], actor="Borin", path="N")
    roll = next(e for e in res.events if isinstance(e, Checked)).roll
    assert mod("pace", -5) in roll.modifiers and roll.total == 8
    assert alone("pace=sprint", sprint_points=14).get("Borin").state.mp == 7
    rough = alone("pace=sprint", terrain={"F5": "rough"})
    res = rough.run("move", [6, 5, 4], actor="Borin", path="N")
    assert any(isinstance(e, Checked) and e.what == "stumble" for e in res.events)


def test_the_swim_pace_moves_four_a_round_with_no_action_penalty():
    """MOVEMENT RATE BY PACE: "Swim 4": two points a phase; the action penalty table names no swim, so none."""
    s = alone("pace=swim skills=acrobatics:2", terrain={"F5": "obstacle"})
    assert st(s, "Borin").mp == 2
    res = s.run("move", [4, 4, 3], actor="Borin", path="N")
    roll = next(e for e in res.events if isinstance(e, Checked)).roll
    assert not any(m.code == "pace" for m in roll.modifiers) and roll.total == 13


def pike_and_grak(**options: object) -> Scenario:
    """Pike (polearm) at F6 facing N takes the first step; Grak (axe) three hexes N and one NW of him."""
    s = wac(tactics_skew="no", **options)
    s.add("Pike", "fighter=6 weapons=polearm", side="a", at="F6", facing="N")
    s.add("Grak", "weapons=axe", side="b", at=near(s, "F6", "N", "NW", "N"), facing="S", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    assert s.enc.current == "Pike"
    return s


def test_a_polearm_limits_its_zone_of_threat_and_frees_the_corresponding_obstructed_hexes():
    """"If the polearm wielder limits the zone of threat to one or two hexes, the corresponding obstructed hex(es) is
    considered unobstructed": limited to the hex ahead and the one to its right, the left threat hex is given up and
    the obstructed hex on that side (NW of Pike) is free; the map shades what is left."""
    s = pike_and_grak()
    grid = s.enc.grid()
    pike = lambda: s.get("Pike")  # noqa: E731
    cell = lambda *steps: parse_cell(near(s, "F6", *steps))  # noqa: E731
    assert obstructed(grid, pike()) == {cell("N"), cell("NE"), cell("NW")}
    assert "holds its polearm's zone of threat to: right" in s.text(s.run("act", action="limit", actor="Pike", options={"right": ""}))[0]
    assert threat(grid, pike()) == {cell("N", "N"), cell("N", "NE")}
    assert obstructed(grid, pike()) == {cell("N"), cell("NE")}
    marks = s.system.highlights(s.enc)
    assert {h.cell for h in marks if h.kind == "obstructed"} == {cell("N"), cell("NE")}
    assert {h.cell for h in marks if h.kind == "threat"} == {cell("N", "N"), cell("N", "NE")}
    s.run("act", action="limit", actor="Pike", options={"ahead": ""})
    assert threat(grid, pike()) == {cell("N", "N")} and obstructed(grid, pike()) == {cell("N")}
    k = pike_and_grak(polearm_limit="kept")
    k.run("act", action="limit", actor="Pike", options={"ahead": ""})
    assert {h.cell for h in k.system.highlights(k.enc) if h.kind == "obstructed"} == {cell("NE"), cell("NW")}
    k.run("act", action="limit", actor="Pike", options={"full": ""})
    assert len(threat(k.enc.grid(), k.get("Pike"))) == 3


def test_the_marginal_zone_follows_a_limited_zone_of_threat():
    """"The marginal zone includes the two hexes to either side of the zone of threat": limited to the hex ahead,
    Pike's marginal zone is the two hexes beside it (where the left and right threat hexes were); limited to it and
    the one to its right, the hex beside each end; in full, the two beside the three."""
    s = pike_and_grak()
    grid = s.enc.grid()
    cell = lambda *steps: parse_cell(near(s, "F6", *steps))  # noqa: E731
    assert marginal(grid, s.get("Pike")) == {cell("NW", "NW"), cell("NE", "NE")}
    s.run("act", action="limit", actor="Pike", options={"ahead": ""})
    assert marginal(grid, s.get("Pike")) == {cell("N", "NW"), cell("N", "NE")}
    assert {h.cell for h in s.system.highlights(s.enc) if h.kind == "marginal"} == {cell("N", "NW"), cell("N", "NE")}
    s.run("act", action="limit", actor="Pike", options={"right": ""})
    assert marginal(grid, s.get("Pike")) == {cell("N", "NW"), cell("NE", "NE")}


def test_a_limited_polearm_no_longer_stops_one_entering_the_hex_given_up():
    """A zone of threat stops who enters it; the hex the polearm gave up does not. Bad words change nothing."""
    for limit, stopped in ((None, True), ("right", False)):
        s = pike_and_grak()
        if limit:
            s.run("act", action="limit", actor="Pike", options={limit: ""})
        s.run("next", actor="Pike")
        res = s.run("move", actor="Grak", path="S")
        assert any(isinstance(e, Engaged) for e in res.events) is stopped
    s = pike_and_grak()
    assert "`sideways` is not one of its `options` words. Type one of `ahead|left|right|full`" in s.refused("act", action="limit", actor="Pike", options={"sideways": ""})
    assert s.get("Pike").state.limit is None
    t = alone("weapons=broadsword")
    assert "no polearm" in t.refused("act", action="limit", actor="Borin", options={"ahead": ""})


def test_a_path_longer_than_the_points_says_what_it_costs_and_what_is_left():
    """"During each phase, the fighter can spend up to half his movement points": a swimmer (Swim 4: 2 a phase)
    given three steps is told the path costs 3 and it has 2, not that it has none left."""
    s = alone("pace=swim")
    text = s.refused("move", actor="Borin", path="N N N")
    assert "costs 3 movement point(s)" in text and "Borin has 2 left this phase" in text


def test_a_weapon_one_does_not_carry_is_named_without_an_article():
    """Wielding or loading a weapon the character does not carry says it carries none (no "a axe")."""
    s = alone("weapons=bow")
    said = s.refused("act", action="wield", actor="Borin", weapon="axe")
    assert "Borin carries no axe" in said and "does not carry a" not in said
    said = s.refused("act", action="load", actor="Borin", options={"axe": ""})
    assert "Borin carries no axe: it has bow." in said


def test_a_quick_action_says_it_limits_the_phases_movement_to_half():
    """"Quick Actions can be done with limited movement" (`quick_movement=half`): the quick action's reply, and a move
    refused after it, say that the quick action limits the phase's movement to half."""
    s = alone("weapons=broadsword,dagger pace=sprint")
    s.run("move", actor="Borin", path="N N")
    said = "\n".join(s.text(s.run("act", action="wield", actor="Borin", weapon="dagger")))
    assert "**Borin** has 1 movement point(s) left this phase (a quick action limits movement to half the phase's)" in said
    refused = s.refused("move", actor="Borin", path="N N")
    assert "Borin has 1 left this phase (a quick action limits movement to half the phase's)" in refused
    t = alone("weapons=broadsword,dagger pace=sprint")
    assert "limits movement" not in t.refused("move", actor="Borin", path=" ".join(["N"] * 9))


def test_to_among_ways_of_equal_cost_takes_the_first_found():
    """"`to:` finds the cheapest way on the same terms": two hexes N and two NE cost 4 whichever comes first, and of
    such ways the first the search finds (`rules.geometry.paths`), so the hexes listed are always the same."""
    s = alone("pace=run")
    res = s.run("move", actor="Borin", to=near(s, "F6", "N", "N", "NE", "NE"))
    assert res.events[0].path == ["F6", "F5", "F4", "G4", "H3"] and res.events[0].cost == 4


def test_a_fighter_stunned_during_its_movement_moves_no_further_that_phase():
    """"Stunned characters ... can take no action for 1d6 rounds": a stun that lands in the fighter's own
    movement step (the GM's serious head wound here; a failed pass-through's blow alike) ends its moving."""
    s = alone("pace=run")
    s.run("move", actor="Borin", path="N")
    assert st(s, "Borin").mp > 0
    s.run("act", [3], action="damage", target="Borin", options={"serious": "", "head": ""})
    assert any(e.code == "stun" and e.target == "Borin" for e in s.enc.effects)
    assert st(s, "Borin").mp == 0
    assert "stunned" in s.refused("move", actor="Borin", path="N")
    assert "stunned" in s.refused("move", actor="Borin", facing="S")


def _p2() -> Scenario:
    """Borin (walk: 2 points a phase) at D4 facing SE, Grak at F5 facing NW; Borin's movement step."""
    s = wac(tactics_skew="no")
    s.add("Borin", "str=14 agl=13 fighter=6 skills=broadsword:3,tactics:2 weapons=broadsword", side="dwarves", at="D4",
          facing="SE")
    s.add("Grak", "str=15 agl=12 fighter=8 skills=axe:2 weapons=axe", side="orcs", at="F5", facing="NW", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    assert s.enc.current == "Borin" and st(s, "Borin").mp == 2
    return s


@pytest.mark.parametrize("path", ["SE N", "S NE"])
def test_a_pass_through_without_the_points_to_finish_it_is_refused_for_the_points(path: str):
    """The pass-through "attempts to pass through a zone of danger ... and reach a safety hex in one go": a path whose
    last step would be carried over ("that movement action is carried over to the next phase") is no pass in one go;
    it is refused for the points it lacks (3 needed, 2 left), and no step into Grak's zone is begun without the roll."""
    s = _p2()
    msg = s.refused("move", actor="Borin", path=path, options={"pass": ""})
    assert "costs 3 movement point(s) and Borin has 2 left" in msg and "in one go" in msg
    assert st(s, "Borin").carry is None


def test_a_move_to_a_wall_hex_says_it_is_a_wall():
    """docs/systems/war-and-combat.md: "`to:` finds the cheapest way on the same terms" as `path:`, whose step into a
    wall is refused with "is a wall: go around it": no number of points reaches a wall, so `to:` a wall hex says so
    (not that the points left are too few), and nothing moves; a hex another fighter stands in likewise."""
    s = alone("pace=run")
    s.enc.map.blocked.append("F5")
    assert s.refused("move", actor="Borin", to="F5") == "F5 is a wall: go around it."
    assert s.enc.get("Borin").position == "F6"
    assert s.refused("move", actor="Borin", path="N") == "F5 is a wall: go around it."
    s.add("Alda", "fighter=3", side="dwarves", at="G6", facing="N")  # a taken hex, likewise
    assert s.refused("move", actor="Borin", to="G6") == "G6 is taken by Alda: go around."


def _begun(rough: str, pace: str, path: str, taken: bool = False) -> Scenario:
    """Borin, at F6 facing N at ``pace``, moves ``path`` in the movement phase, its last step begun into the rough
    hex ``rough`` without the points to finish it; with ``taken``, his ally Alda then stands in that hex; it is
    Borin's step of the adjustment phase."""
    s = wac()
    s.enc.map.terrain[rough] = "rough"
    s.add("Borin", f"fighter=6 pace={pace}", side="dwarves", at="F6", facing="N")
    s.add("Alda", "fighter=0", side="dwarves", at="B2", facing="N")
    s.add("Grak", "fighter=0", side="orcs", at="P12", facing="N", owner=None)
    s.run("init_roll", [6, 6, 6, 1, 1, 1, 1, 1, 2])
    s.run("move", actor="Borin", path=path)
    assert st(s, "Borin").carry_to == rough
    if taken:
        s.get("Alda").position = rough
    while not (s.enc.phase == "adjustment" and s.enc.current == "Borin"):
        s.run("next", actor=s.enc.current)
    return s


def _begun_into_a_taken_hex() -> Scenario:
    """Borin, crawling, begins the step into the rough F5; his ally Alda then stands in F5."""
    return _begun("F5", "crawl", "N", taken=True)


def test_a_step_begun_into_a_hex_since_taken_is_refused_bare_and_given_up_with_words():
    """docs/systems/war-and-combat.md: the step begun is finished by "the fighter's next `/move` (with no words, or
    with more steps after it) in a later phase", and "a wall or a taken hex is refused as a step into it is": with
    F5 since taken by Alda, a bare `/move` is refused (changing nothing), saying so and what to give instead; a
    `/move path:` goes from where Borin stands, and its reply says the step begun is given up."""
    s = _begun_into_a_taken_hex()
    said = s.refused("move", actor="Borin")
    assert "F5 is taken by Alda" in said and "cannot finish the step it began into F5" in said
    assert "give `path`" in said and "Give `path`" not in said
    res = s.run("move", actor="Borin", path="NW")
    text = "\n".join(s.text(res))
    assert "**Borin** gives up the step it began into F5 (taken by Alda): the movement points spent on it are lost" in text
    assert s.get("Borin").position != "F5" and st(s, "Borin").carry is None


def test_a_move_to_after_a_step_begun_is_found_from_the_hex_that_step_enters():
    """docs/systems/war-and-combat.md: "the fighter's next `/move` (with no words, or with more steps after it) in a
    later phase pays the rest first and enters the hex (a `to:` is found from that hex, with the points the rest
    leaves)": Borin, walking, begins the step into the rough F4 from F5 with 1 point owed; in the adjustment phase
    (2 points) `/move to:F3` pays the 1 owed, enters F4 and goes on to F3 for the last point (it was refused, the way
    sought from F5 through the rough F4 for all 2 points, and a way found so would have begun at the wrong hex).
    "`/move to:` the hex the fighter stands in is refused: it is there already", a step begun too; a refusal for
    the points says what the owed point took."""
    s = _begun("F4", "walk", "N N")
    assert (s.get("Borin").position, st(s, "Borin").owed) == ("F5", 1)
    # refused, nothing paid: the hex it stands in, and one beyond what the owed point leaves
    assert s.refused("move", actor="Borin", to="F5").startswith(
        "Borin is at F5 already (a bare `/move` finishes the step it began into F4)")
    assert s.refused("move", actor="Borin", to="F1") == ("Borin cannot reach F1 with 1 movement point(s) left this "
                                                         "phase once the 1 point(s) owed to the step it began into F4 are paid.")
    assert s.refused("move", actor="Borin", to="F3", facing="NE").startswith(
        "Borin cannot reach F3 facing NE with 1 movement point(s) left")  # the pivot is what does not fit
    assert st(s, "Borin").owed == 1 and st(s, "Borin").mp == 2
    res = s.run("move", actor="Borin", to="F3")
    assert "**Borin** moves F5 → F4 → F3 for 2 MP, facing N (0 left)" in s.text(res)
    assert s.get("Borin").position == "F3" and st(s, "Borin").carry is None


def test_to_the_hex_one_stands_in_says_it_is_there_already():
    """A `/move to:` naming the fighter's own hex is refused with words that fit (it gave `to`): it is there already."""
    s = alone()
    said = s.refused("move", actor="Borin", to="F6")
    assert "Borin is at F6 already" in said and "Give `path`" not in said
