"""Movement: Speed points, rough ground and debris, prone, grapples (shared/rules/README.md's default)."""
from __future__ import annotations

from rules.errors import IllegalAction
from rules.systems.damage_grid.events import DgMoved, ProneChanged
from rules.systems.damage_grid.state import DgCombatant
from tests.rules.damage_grid.build import duel, events


def test_a_move_spends_one_speed_point_a_square_and_stops_at_speed() -> None:
    """"a Move (1 Speed point per square ...)"; Speed points = the Speed location value (humanoid default 4)."""
    s = duel(b_at="J2")
    res = s.run("move", actor="Meena", path="N N N")
    assert events(res, DgMoved)[0].left == 1 and s.get("Meena").position == "E5"
    assert "costs 2" in s.refused("move", actor="Meena", path="N N", error=IllegalAction)


def test_rough_ground_costs_one_more() -> None:
    """"rough or debris +1": entering a rough square costs 2 Speed points."""
    s = duel(b_at="J2")
    s.enc.map.terrain = {"E7": "rough"}
    res = s.run("move", actor="Meena", path="N N")
    assert events(res, DgMoved)[0].cost == 3 and events(res, DgMoved)[0].rough == ["E7"]


def test_hits_on_speed_take_speed_points_away() -> None:
    """"Speed points = its Speed location value ... -1 per hit on Speed.\""""
    s = duel(a_sheet="speed=2", b_at="J2")
    res = s.run("move", actor="Meena", to="E6")
    assert events(res, DgMoved)[0].left == 0
    assert DgCombatant.of(s.get("Meena")).speed_left == 0


def test_a_prone_model_stands_up_for_one_speed_point() -> None:
    """A prone model stands up first, for `stand_cost` Speed points (a project default: 1)."""
    s = duel(b_at="J2")
    DgCombatant.of(s.get("Meena")).prone = True
    res = s.run("move", actor="Meena", path="N")
    assert events(res, DgMoved)[0].cost == 2 and events(res, ProneChanged)[0].prone is False
    assert not DgCombatant.of(s.get("Meena")).prone


def test_the_cheapest_path_goes_round_walls_and_models() -> None:
    """Walls, obstacles and other models block a move; `to` finds the cheapest way."""
    s = duel(b_at="E6", blocked=("D6", "F6"))
    assert "wall" in s.refused("move", actor="Meena", to="D6", error=IllegalAction)
    res = s.run("move", actor="Meena", to="E5")
    moved = events(res, DgMoved)[0]
    assert moved.cost == 4 and not {"D6", "E6", "F6"} & set(moved.path)


def test_a_grappled_model_cannot_move() -> None:
    """A Grapple is "to stop it from moving"."""
    s = duel()
    DgCombatant.of(s.get("Meena")).grappled_by = ["Hera"]
    assert "grapple" in s.refused("move", actor="Meena", path="S", error=IllegalAction)


def test_facing_alone_turns_the_model() -> None:
    """`/move facing:E` turns the model (it faces a way: the row-behind rule reads it)."""
    s = duel(b_at="J2")
    s.run("move", actor="Meena", facing="E")
    assert s.get("Meena").facing == "E"


def test_a_custom_grid_without_speed_moves_at_the_sheets_speed() -> None:
    """A grid with no Speed location: Speed points are the sheet's `speed` (default 4)."""
    s = duel(a_sheet="grid=1/2/3:health:4:none,4/5/6:body:2:health speed=2", b_at="J2")
    res = s.run("move", actor="Meena", path="N")
    assert events(res, DgMoved)[0].left == 1


def test_move_to_among_paths_of_equal_cost_takes_the_first_found() -> None:
    """"A square costs 1 (diagonals too, option `diagonal`)": round the wall at E7 the ways east and west cost the
    same; `to` takes the first the search finds (`rules.geometry.paths`), so the squares listed are always the same."""
    for diagonal, path in (("yes", ["E8", "F7", "F6", "E5"]), ("no", ["E8", "F8", "F7", "F6", "F5", "E5"])):
        s = duel(b_at="J2", diagonal=diagonal, blocked=("E7",), a_sheet="speed=6")
        res = s.run("move", actor="Meena", to="E5")
        assert events(res, DgMoved)[0].path == path
