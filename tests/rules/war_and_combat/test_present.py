"""What players see: the board shows who still has to declare, wounds per location; the state reads back."""
from __future__ import annotations

from rules.models import Encounter
from tests.rules.war_and_combat.build import duel, fight, to_flurry


def test_board_shows_who_still_has_to_declare():
    """"the board shows who still has to declare"."""
    s = duel()
    to_flurry(s)
    s.run("act", action="declare", actor="Grak", options={"intent": "grapple"})
    board = s.system.present.board(s.enc, s.system.facts(s.enc)).text()
    assert "still to declare: Borin" in board and "grapple" not in board


def test_the_board_shows_an_engaged_fighters_step_without_movement_points():
    """"Two opponents become engaged when one or both enters the other's danger zones. At this point, movement stops":
    Borin's movement step shows why he may not move, not points he cannot spend."""
    s = duel()
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    facts = s.system.facts(s.enc)
    assert "▶ engaged with Grak: no moving" in s.system.present.status_line(s.enc, s.get("Borin"), facts)
    assert "Borin (engaged with Grak: no moving)" in s.system.present.turn_label(s.enc, facts)
    assert "engaged" in s.refused("move", actor="Borin", path="N")


def test_board_shows_wounds_per_location_and_conditions():
    """The status line carries the worst wound of each location, recorded as the text says ("indicate the wound severity
    and shock check value ... whether the impact was non-penetrating (blunt) or penetrating": P10), and the conditions
    (hp is null)."""
    s = duel()
    fight(s)
    s.run("attack", [4, 4, 3, 5, 5, 5, 3, 2, 2, 3, 3, 3], actor="Borin", target="Grak")
    line = s.system.present.status_line(s.enc, s.get("Grak"), s.system.facts(s.enc))
    assert "wounds left leg light P10" in line and "fallen" in line and s.get("Grak").hp is None


def test_state_mid_flurry_exports_and_reads_back():
    """An encounter stored mid-flurry, with wounds and hidden declarations, reads back the same."""
    s = duel()
    to_flurry(s)
    s.run("act", action="declare", actor="Grak", options={"intent": "throw", "tactic": "circle"})
    again = Encounter.model_validate_json(s.enc.model_dump_json())
    assert again == s.enc and again.state.declarations.made["Grak"]["intent"] == "throw"


def test_autocomplete_offers_the_actions_legal_now():
    """Autocomplete lists declare to one still to declare, force (and the GM's damage and heal) to the GM, hold to the attacker."""
    s = duel()
    to_flurry(s)
    assert s.system.actions_for(s.enc, s.get("Borin")) == ["declare"]
    assert "force" in s.system.actions_for(s.enc, None)
    s.run("act", action="declare", actor="Borin", options={})
    s.run("act", [5, 5, 4, 2, 3, 2], action="declare", actor="Grak", options={})
    assert s.system.actions_for(s.enc, s.get("Borin")) == ["hold"]
    assert s.system.actions_for(s.enc, s.get("Grak")) == ["damage", "heal"]  # the GM's tools, Grak being the GM's


def test_a_near_miss_reads_as_a_parry():
    """"If the attack roll is close to hitting (within three points or so), but not quite, then it indicates a parry, block, or dodge"."""
    s = duel()
    fight(s)
    near_miss = s.run("attack", [2, 3, 3], actor="Borin", target="Grak")  # 12 vs 13
    assert "parried, blocked or dodged" in s.text(near_miss)[0]
    wide = s.run("attack", [1, 1, 2], actor="Grak", target="Borin")  # 6 vs 17
    assert "parried" not in s.text(wide)[0] and "miss" in s.text(wide)[0]
