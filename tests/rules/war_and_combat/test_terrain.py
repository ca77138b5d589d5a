"""The terrain chart's marks: treacherous, uphill, slick and water on the hex map."""
from __future__ import annotations

from rules.events import Checked, Moved
from rules.systems.war_and_combat.events import CollapsePrompt
from tests.rules.war_and_combat.build import alone, st


def test_slick_costs_two_and_a_jog_over_it_calls_for_a_footing_roll():
    """TERRAIN EFFECTS CHART: "Slick 2 Walk or Slide": a jog exceeds its walk, so a failed Agility roll stumbles."""
    s = alone("pace=jog", terrain={"F5": "slick"})
    res = s.run("move", [2, 3, 3], actor="Borin", path="N")
    assert res.events[0].cost == 2
    check = next(e for e in res.events if isinstance(e, Checked))
    assert check.what == "stumble" and not check.roll.success and st(s, "Borin").fallen


def test_walking_on_slick_ground_needs_no_roll():
    """"Slick 2 Walk or Slide": a walk keeps within the maximum pace."""
    s = alone(terrain={"F5": "slick"})
    res = s.run("move", actor="Borin", path="N")
    assert res.events[0].cost == 2 and not any(isinstance(e, Checked) for e in res.events)


def test_water_costs_two_with_a_maximum_pace_of_jog():
    """"Water/Mired/Sandy 2 Jog": running through it calls for the footing roll, a success keeps going."""
    s = alone("pace=run", terrain={"F5": "water"})
    res = s.run("move", [5, 5, 5], actor="Borin", path="N N")
    assert isinstance(res.events[0], Moved) and res.events[0].cost == 3
    assert next(e for e in res.events if isinstance(e, Checked)).roll.success and not st(s, "Borin").fallen


def test_treacherous_costs_as_open_ground_but_a_walk_exceeds_its_creep():
    """"Treacherous ** Creep" and "** as per dominant terrain, but note maximum pace": cost 1, a walker rolls."""
    s = alone(terrain={"F5": "treacherous"})
    res = s.run("move", [5, 5, 5], actor="Borin", path="N")
    assert res.events[0].cost == 1
    assert next(e for e in res.events if isinstance(e, Checked)).what == "stumble"


def test_treacherous_ground_asks_the_gm_whether_it_collapses():
    """"Also, treacherous terrain may collapse (according to GM's design)": the GM is prompted, unless `collapse=no`."""
    s = alone(terrain={"F5": "treacherous"})
    res = s.run("move", [5, 5, 5], actor="Borin", path="N")
    prompt = next(e for e in res.events if isinstance(e, CollapsePrompt))
    assert prompt.actor == "Borin" and prompt.at == "F5"
    quiet = alone(terrain={"F5": "treacherous"}, collapse="no")
    res = quiet.run("move", [5, 5, 5], actor="Borin", path="N")
    assert not any(isinstance(e, CollapsePrompt) for e in res.events)


def test_uphill_doubles_the_cost_going_up_and_not_coming_down():
    """"Uphill ×2 ***": "movement costs are double that of dominant terrain"; coming down from a higher hex costs normal."""
    s = alone(terrain={"F5": "uphill"})
    assert s.run("move", actor="Borin", path="N").events[0].cost == 2
    down = alone(terrain={"F5": "uphill"})
    down.enc.map.heights["F6"] = 10
    assert down.run("move", actor="Borin", path="N").events[0].cost == 1


def test_a_rise_doubles_the_dominant_terrains_cost():
    """"Uphill ×2 ***": "movement costs are double that of dominant terrain": rough ground (2) on a rise (the map's
    heights) costs 4 going up and 2 coming down; open ground on a rise 2."""
    s = alone("pace=run", terrain={"F5": "rough"})
    s.enc.map.heights["F5"] = 10
    assert s.run("move", actor="Borin", path="N").events[0].cost == 4
    down = alone(terrain={"F5": "rough"})
    down.enc.map.heights["F6"] = 10
    assert down.run("move", actor="Borin", path="N").events[0].cost == 2
    hill = alone()
    hill.enc.map.heights["F5"] = 10
    assert hill.run("move", actor="Borin", path="N").events[0].cost == 2


def test_uphill_rough_ground_keeps_roughs_maximum_pace():
    """"*** ... maximum pace is the same as dominant terrain": sprinting up rough ground (max run) calls for the roll."""
    s = alone("pace=sprint", terrain={"F5": "rough"})
    s.enc.map.heights["F5"] = 10
    res = s.run("move", [5, 5, 5], actor="Borin", path="N")
    assert res.events[0].cost == 4 and any(isinstance(e, Checked) and e.what == "stumble" for e in res.events)


def test_uphill_keeps_the_dominant_terrains_maximum_pace():
    """"*** ... maximum pace is the same as dominant terrain": running uphill on open ground needs no roll."""
    s = alone("pace=run", terrain={"F5": "uphill"})
    res = s.run("move", actor="Borin", path="N")
    assert res.events[0].cost == 2 and not any(isinstance(e, Checked) for e in res.events)
