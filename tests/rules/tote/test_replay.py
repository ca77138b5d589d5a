"""TOTE: the defects a replay of whole fights found (placing with `at:`, the unengaged gain,
Shoot & Move, the words for the distance), each quoting the text it checks."""

from __future__ import annotations

import pytest

from rules.errors import IllegalAction
from rules.hidden import for_reader
from rules.sheet import parse_pairs
from tests.rules.tote.build import started
from tests.scenario import GM, Scenario

BORIN = "shoot=2 strike=3 hawk=2 weapon=javelin:1:pierce,axe:2:slash"


def _fight(*foes: tuple[str, str, int], hero: tuple[str, str, int] = ("Borin", BORIN, 5), **options: str) -> Scenario:
    return started(*foes, hero=hero, **options)


def _band(s: Scenario, name: str) -> str:
    """The band the board shows for ``name`` (its distance from its nearest foe)."""
    return s.system.present.status_line(s.enc, s.get(name), s.system.facts(s.enc)).split(" · ")[2 if "rating" in s.get(name).sheet else 1]


# -- item 8: `at:` sets the distance of the pair ---------------------------------------------------
def test_a_newcomer_added_at_far_is_at_far_from_a_foe_that_closed_in() -> None:
    """"The GM will determine the Distance (Far or Close)": Snaga added `at:far` is at Far, and a javelin (Close) cannot reach him."""
    s = _fight(("Grak", "rating=2", 3), distance="far")
    s.run("move", actor="Borin", to="close")  # Borin's own band is Close now
    s.run("add", name="Snaga", raw_sheet=parse_pairs("rating=1"), side="foes", at="far", owner_id=GM, init=1)
    assert _band(s, "Snaga") == "far"
    s.run("next", actor="Grak")
    s.run("next", actor="Snaga")
    assert s.enc.round == 2 and s.enc.current == "Borin"
    assert "out of range" in s.refused("attack", [6, 6, 6], actor="Borin", target="Snaga", weapon="javelin")
    s.run("attack", [6, 1, 3], actor="Borin", target="Grak", weapon="javelin")  # Grak is still at Close


def test_a_gm_edit_at_far_sets_the_distance_from_a_nearer_foe() -> None:
    """"The GM will determine the Distance": `/combatant edit at:far` puts Snaga at Far from Borin, who stands at Close."""
    s = _fight(("Grak", "rating=2", 3), ("Snaga", "rating=1", 1), distance="far")
    s.run("move", actor="Borin", to="close")
    assert _band(s, "Snaga") == "close"
    s.run("edit", actor="Snaga", at="far")
    assert _band(s, "Snaga") == "far" and _band(s, "Grak") == "close"


def test_a_foe_placed_at_far_stays_there_from_combatants_added_later() -> None:
    """"The GM will determine the Distance (Far or Close)": a foe placed at Far before the fight is at Far from a hero added after it without `at`."""
    s = Scenario("tote", distance="close")
    s.add("Snaga", "rating=1", side="foes", at="far", owner=GM)
    s.add("Borin", BORIN, side="heroes")
    s.run("init_roll", [1, 1, 1, 1])
    assert s.enc.phase == "distance: far" and _band(s, "Snaga") == "far"


# -- item 9: `at:` under a melee start -------------------------------------------------------------
def test_at_far_is_refused_when_the_fight_starts_in_melee() -> None:
    """"Depending on the circumstances, heroes may find themselves able to make one or more rounds of attacks at a distance": with the default melee start, `at:far` is refused with what to set instead."""
    s = Scenario("tote")
    s.add("Borin", BORIN, side="heroes")
    text = s.refused("add", name="Snaga", raw_sheet={"rating": "1"}, side="foes", at="far")
    assert "starts in melee" in text and "distance=far" in text
    s.add("Snaga", "rating=1", side="foes", at="melee", owner=GM)  # melee is where everyone is


def test_a_melee_start_is_refused_while_at_placed_a_combatant_at_close() -> None:
    """"The GM will determine the Distance (Far or Close)": `distance=melee` after Dan was placed `at:close` is refused, naming Dan and what to do."""
    s = Scenario("tote", distance="far")
    s.add("Ann", BORIN, side="heroes")
    s.add("Dan", "rating=1", side="foes", at="close", owner=GM)
    melee = s.enc.model_copy(deep=True)
    melee.settings.options["distance"] = "melee"
    with pytest.raises(IllegalAction) as caught:
        s.system.check_options(melee)
    assert "Dan (close)" in caught.value.message and "`/combatant edit name:Dan at:melee`" in caught.value.message
    del melee.settings.options["distance"]  # the default start is melee too
    with pytest.raises(IllegalAction):
        s.system.check_options(melee)
    s.run("edit", actor="Dan", at="melee")
    s.system.check_options(s.enc.model_copy(update={"settings": melee.settings}))  # nothing placed apart now


def test_at_melee_beside_a_combatant_placed_at_far_is_refused_before_the_fight() -> None:
    """"Combatants that move from Close go into Melee Rounds": Cid placed `at:melee` would start melee rounds and lose Ann's Far, so it is refused, and the other way round."""
    s = Scenario("tote", distance="far")
    s.add("Ann", BORIN, side="heroes", at="far")
    text = s.refused("add", name="Cid", raw_sheet={"rating": "1"}, side="foes", at="melee", owner_id=GM)
    assert "Ann (far)" in text and "leave `at` out for Cid" in text
    s.add("Cid", "rating=1", side="foes", owner=GM)
    s.run("init_roll", [1, 1, 1, 1])
    assert s.enc.phase == "distance: far" and _band(s, "Ann") == "far"
    t = Scenario("tote", distance="far")
    t.add("Cid", "rating=1", side="foes", at="melee", owner=GM)
    text = t.refused("add", name="Ann", raw_sheet=parse_pairs(BORIN), side="heroes", at="far")
    assert "Cid stands in melee" in text and "`at:far` cannot hold" in text


def test_at_close_is_refused_in_a_melee_round_where_everyone_is_in_melee() -> None:
    """"Melee Rounds": with option `into_melee=everyone` every pair of foes is in melee in a melee round, so a GM edit
    `at:close` is refused with the distance action to use; by default ("Combatants that move from Close go into Melee
    Rounds": only they) one may stand at Close in melee rounds, so the edit places Grak there."""
    s = _fight(("Grak", "rating=2", 3), into_melee="everyone")
    text = s.refused("edit", actor="Grak", at="close")
    assert "melee round" in text and "/act action:distance options:close" in text
    s = _fight(("Grak", "rating=2", 3))
    s.run("edit", actor="Grak", at="close")
    assert " · close · " in s.system.present.status_line(s.enc, s.get("Grak"), s.system.facts(s.enc))


# -- item 10: disengaging from one foe while another stays engaged ---------------------------------
def test_disengaging_from_one_foe_while_another_fights_on_gives_no_gain() -> None:
    """"Disengage: Move away from a foe. You will count as disengaged for the next round": still engaged with Snaga, Borin gains nothing."""
    s = _fight(("Grak", "rating=2", 3), ("Snaga", "rating=1", 2), first_round_gain="no")
    s.run("attack", [2, 3, 6, 3], actor="Borin", target="Grak")  # hits: Borin ⇄ Grak
    s.run("next", actor="Grak")
    s.run("attack", [6, 3], actor="Snaga", target="Borin")  # hits: Borin ⇄ Snaga
    assert s.enc.round == 2 and s.get("Borin").initiative == 4
    s.run("act", actor="Borin", action="disengage", target="Grak")  # 4 -> 1
    s.run("next", actor="Grak")
    res = s.run("attack", [6, 3], actor="Snaga", target="Borin")  # melee damage in round 2
    assert s.enc.round == 3 and s.get("Borin").initiative == 1
    assert not any(line.startswith("**Borin** initiative") for line in s.text(res))


# -- item 11: Shoot & Move when the shot ends the fight ---------------------------------------------
def test_shoot_and_move_that_downs_the_last_foe_does_not_escape() -> None:
    """"Shoot & Move: Combatant makes a Shoot test at current range and then moves": with no foe left there is no Escape Foes."""
    s = _fight(("Snaga", "rating=1 track=U", 3), hero=("Ann", "shoot=2 move=1 weapon=bow:1:pierce", 5), distance="far")
    res = s.run("act", [6, 2, 3], actor="Ann", action="shoot-and-move", target="Snaga", options={"away": ""})
    ann = s.get("Ann")
    assert s.get("Snaga").status == "downed" and s.enc.winner == "heroes"
    assert ann.status == "active" and not ann.state.escaped
    lines = s.text(res)
    assert not any("Escape Foes" in line for line in lines) and any("no foe left" in line for line in lines)


# -- item 12: `first_round_gain=no` after distance rounds -------------------------------------------
def test_no_first_round_gain_also_when_melee_begins_after_distance_rounds() -> None:
    """"At the beginning of a melee round, all unengaged combatants gain 1 Initiative": with `first_round_gain=no` the first melee round gains nothing, after distance rounds too."""
    s = _fight(("Grak", "rating=2", 3), distance="close", first_round_gain="no")
    s.run("move", actor="Borin", to="in")
    res = s.run("next", actor="Grak")
    assert s.enc.round == 2 and s.enc.phase == "melee"
    assert (s.get("Borin").initiative, s.get("Grak").initiative) == (5, 3)
    assert not any("unengaged" in line for line in s.text(res))
    yes = _fight(("Grak", "rating=2", 3), distance="close", first_round_gain="yes")
    yes.run("move", actor="Borin", to="in")
    yes.run("next", actor="Grak")
    assert (yes.get("Borin").initiative, yes.get("Grak").initiative) == (6, 4)


# -- item 13: the words of the gain ----------------------------------------------------------------
def test_an_engaged_combatant_is_not_told_it_gains_as_unengaged() -> None:
    """"An unengaged combatant is one that neither dealt nor received melee damage in the previous round": a pair engaged by a Shoot gains, but not as "unengaged"."""
    s = _fight(("Grak", "rating=2", 3), hero=("Borin", "shoot=2 hawk=2 weapon=bow:1:pierce", 5), first_round_gain="no",
               shot_engages="yes")
    s.run("act", [6, 1, 3], actor="Borin", action="shoot", target="Grak")  # engaged (option), no melee damage
    res = s.run("next", actor="Grak")
    assert s.enc.round == 2 and (s.get("Borin").initiative, s.get("Grak").initiative) == (3, 4)
    gains = [line for line in s.text(res) if "initiative **" in line]
    assert len(gains) == 2 and all("no melee damage last round" in g and "unengaged" not in g for g in gains)


def test_the_board_and_a_refusal_name_the_same_distance() -> None:
    """"The GM will determine the Distance (Far or Close)": after Borin closes in, the board's "distance: close" is the distance a refusal names too."""
    s = _fight(("Grak", "rating=2", 3), distance="far")
    s.run("move", actor="Borin", to="close")
    assert s.enc.phase == "distance: close"
    assert "Distance round (distance: close)" in s.system.present.board(s.enc, s.system.facts(s.enc)).text()
    assert "distance round (distance: close)" in s.refused("act", actor="Grak", action="strike", target="Borin")


def test_on_deck_never_names_the_combatant_whose_turn_it_is() -> None:
    """"The return attack does count as the foe's action for the round": Grak, who may return the Assault and then act, is not also "on deck"."""
    s = _fight(("Grak", "rating=2", 3))
    s.run("act", [2, 3, 6, 3], actor="Borin", action="assault", target="Grak")
    assert s.system.turn(s.enc).actors == ("Grak",)
    assert "Grak" not in s.system.on_deck(s.enc)


# -- the damage a short track takes ----------------------------------------------------------------
def test_damage_beyond_a_short_track_says_what_was_taken_and_that_the_track_capped_it() -> None:
    """"Damage marks boxes on the Injury Track ... equal to the weapon's Damage rating plus 1 per extra success": 3 damage on a 2-box track fills 2 and says so."""
    s = _fight(("Gob", "rating=1 track=1,U", 3))
    res = s.run("attack", [6, 6, 1, 3], actor="Borin", target="Gob", weapon="axe")  # axe 2 + 1 extra success
    line = next(t for t in s.text(res) if "damage" in t)
    assert line.startswith("**Gob** takes 2 damage (2 → 0): axe 2 +1 for 1 extra success = 3, capped at the 2 boxes left"), line
    hidden = for_reader(s.system.present.view(res.encounter, frozenset({"Gob"})).report("", res.events).text(), lambda name: False)
    assert "**Gob** is hit: axe 2 +? for extra successes (now down)" in hidden and "boxes" not in hidden, hidden  # players: no track, no count
