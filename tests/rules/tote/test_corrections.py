"""TOTE: the corrections a line-by-line reading of `tote.txt` asked for, each quoting its text.

They are written against the shared `Scenario` only (names, numbers, refusals, the board), so
they read the same on any shape of the rules package.
"""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.registry import get_system
from tests.rules.tote.build import started
from tests.scenario import GM, Scenario

BORIN = "strike=3 hawk=2 weapon=axe:2:slash,bow:1:pierce"


def _fight(*foes: tuple[str, str, int], hero: tuple[str, str, int] = ("Borin", BORIN, 5), **options: str) -> Scenario:
    return started(*foes, hero=hero, **options)


def _board(s: Scenario) -> str:
    return s.system.present.board(s.enc, s.system.facts(s.enc)).text()


def test_the_unengaged_gain_comes_in_the_first_melee_round_too() -> None:
    """"At the beginning of a melee round, all unengaged combatants gain 1 Initiative": round 1 included."""
    s = _fight(("Grak", "rating=2", 3))
    assert (s.get("Borin").initiative, s.get("Grak").initiative) == (6, 4)
    old = _fight(("Grak", "rating=2", 3), first_round_gain="no")
    assert (old.get("Borin").initiative, old.get("Grak").initiative) == (5, 3)


def test_two_combatants_always_agree_on_the_distance_between_them() -> None:
    """"Combatant adds to or reduces the distance to the foe": the archer a hero closed on is at Close from him, and cannot escape."""
    s = _fight(("Archer", "rating=1 weapon=bow:1:pierce", 3), hero=("Ann", "move=1 hawk=1", 5), distance="far")
    s.run("move", actor="Ann", to="close")
    for name in ("Ann", "Archer"):
        assert " · close · " in s.system.present.status_line(s.enc, s.get(name), s.system.facts(s.enc))
    res = s.run("move", actor="Archer", to="away")  # away from Close is Far, not an escape
    assert s.get("Archer").status == "active" and not s.enc.winner
    assert "far" in " ".join(s.text(res)) and " · far · " in s.system.present.status_line(s.enc, s.get("Ann"), s.system.facts(s.enc))


def test_disengaged_means_unengaged_for_the_board_the_targets_and_the_gain() -> None:
    """"Disengage: Move away from a foe. You will count as disengaged for the next round.\""""
    s = _fight(("Grak", "rating=2 weapon=club:2:bash", 3), ("Mog", "rating=1", 1), first_round_gain="no")
    s.run("attack", [2, 3, 6, 3], actor="Borin", target="Grak")  # hits: Borin and Grak are engaged
    s.run("next", actor="Grak")
    s.run("next", actor="Mog")
    assert s.enc.round == 2 and s.get("Borin").initiative == 4
    s.run("act", actor="Borin", action="disengage")  # 4 -> 1, "Move away from a foe": at Close from Grak
    assert "at Close from Borin" in s.refused("attack", [6, 1, 3], actor="Grak", target="Borin")
    s.run("next", actor="Grak")
    assert "engaged: Grak" not in s.system.present.status_line(s.enc, s.get("Borin"), s.system.facts(s.enc))
    s.run("next", actor="Mog")
    assert s.enc.round == 3 and s.get("Borin").initiative == 2  # he counted as unengaged: +1
    while s.enc.current != "Borin":  # Grak, unengaged too, gained and acts first
        s.run("next", actor=s.enc.current)
    s.run("attack", [1, 1, 1, 1], actor="Borin", target="Mog")  # not held to Grak


def test_a_shot_does_not_engage() -> None:
    """"An unengaged combatant is one that neither dealt nor received melee damage in the previous round": a Shoot's
    damage engages nobody. In a distance round Grak, shot by Borin, still shoots and moves at Thrain (it was refused
    with "Grak is engaged with Borin"); in a melee round Borin, who shot, may Shoot again."""
    s = Scenario("tote", distance="far")
    s.add("Borin", BORIN, side="heroes")
    s.add("Thrain", "hawk=1", side="heroes")
    s.add("Grak", "rating=2 weapon=bow:1:pierce", side="foes", owner=GM)
    for name, points in (("Borin", 5), ("Grak", 3), ("Thrain", 2)):
        s.run("init_set", actor=name, value=points)
    s.run("init_roll")
    s.run("act", [6, 3], actor="Borin", action="shoot", target="Grak", weapon="bow")
    assert s.get("Grak").hp == 5 and "Engaged: nobody" in _board(s)
    s.run("act", [6, 1, 3], actor="Grak", action="shoot-and-move", target="Thrain", options={"to": "close"})
    assert s.get("Thrain").hp == 5 and "Engaged: nobody" in _board(s)
    melee = _fight(("Grak", "rating=2", 3), first_round_gain="no")
    melee.run("act", [6, 3], actor="Borin", action="shoot", target="Grak", weapon="bow")
    melee.run("next", actor="Grak")
    assert melee.enc.round == 2 and "Engaged: nobody" in _board(melee)
    melee.run("next", actor="Grak")
    melee.run("act", [6, 3], actor="Borin", action="shoot", target="Grak", weapon="bow")
    assert melee.get("Grak").hp == 4


def test_a_shot_engages_with_the_option() -> None:
    """Option `shot_engages=yes` reads "Engaged: Once a foe has done damage to you or you have done damage to a foe"
    as any damage: a Shoot's damage engages the pair, and only melee damage stops the next round's gain."""
    s = _fight(("Grak", "rating=2", 3), first_round_gain="no", shot_engages="yes")
    s.run("act", [6, 3], actor="Borin", action="shoot", target="Grak", weapon="bow")
    assert s.get("Grak").hp == 5 and "Borin ⇄ Grak" in _board(s)
    s.run("next", actor="Grak")
    assert s.enc.round == 2 and (s.get("Borin").initiative, s.get("Grak").initiative) == (3, 4)


def test_shoot_needs_a_weapon_that_shoots() -> None:
    """"Shoot: Combatant remains still, and makes a Shoot test, if a target is in range": a club does not shoot."""
    s = _fight(("Grak", "rating=2 weapon=club:2:bash", 5), hero=("Ann", "hawk=1", 3), distance="far")
    assert "cannot shoot" in s.refused("attack", [6, 6, 6], actor="Grak", target="Ann", weapon="club")
    assert "no weapon that can shoot" in s.refused("attack", [6, 6, 6], actor="Grak", target="Ann")


def test_no_weapon_to_shoot_in_a_distance_round_names_what_it_can_do() -> None:
    """"In a distance round, there are three choices for each combatant: Move, Shoot, Shoot & Move": one with no
    weapon that shoots is told to Move (or to get a weapon that shoots), not to Strike, a melee-round action."""
    s = _fight(("Grak", "rating=2 weapon=club:2:bash", 5), hero=("Ann", "hawk=1", 3), distance="far")
    refused = s.refused("attack", [6, 6, 6], actor="Grak", target="Ann")
    assert "Strike" not in refused and "`/move to:in`" in refused and "`:ranged`" in refused


def test_shoot_needs_a_target_in_range() -> None:
    """"makes a Shoot test, if a target is in range": a javelin reaches Close, not Far."""
    s = _fight(("Grak", "rating=2", 3), hero=("Ann", "shoot=2 weapon=javelin:2:pierce", 5), distance="far")
    assert "out of range" in s.refused("attack", [6, 6, 6], actor="Ann", target="Grak")
    s.run("move", actor="Ann", to="close")
    s.run("next", actor="Grak")
    s.run("attack", [6, 1, 3], actor="Ann", target="Grak")
    assert s.get("Grak").hp == 6 - 2


def test_an_escaped_hero_has_left_the_fight_and_is_not_defeated() -> None:
    """"Combatants that move away from Far are attempting to Escape Foes": escaping is leaving, not a defeat."""
    s = _fight(("Grak", "rating=2", 3), hero=("Ann", "move=1", 5), distance="far")
    res = s.run("move", [6, 4], actor="Ann", to="away")
    assert s.get("Ann").status == "out" and s.enc.winner != "foes"
    assert any("escaped" in line for line in s.text(res))


def test_gm_next_passes_the_combatant_named() -> None:
    """The GM's `/init next combatant:X` passes X, or is refused; it never passes someone else."""
    s = _fight(("Grak", "rating=2", 3), ("Mog", "rating=1", 1), first_round_gain="no")
    s.run("next", actor="Mog")
    assert s.enc.current == "Borin" and s.get("Borin").initiative == 5 and s.enc.order[-1] == "Mog"
    s.refused("next", actor="Mog")  # Mog has passed already: nothing of his to pass
    s.refused("next", actor="Grak", gm=False)  # a player passes only the one whose turn it is


def test_tote_has_no_map_facings_or_terrain() -> None:
    """TOTE has no map: no facings to show or take, no terrain to mark."""
    system = get_system("tote")
    assert system.uses_facing is False and system.terrain_kinds == ()
    with pytest.raises(RulesError):
        Scenario("tote").add("Ann", "", facing="N")
