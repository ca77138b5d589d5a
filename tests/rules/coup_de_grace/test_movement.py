"""Coup-De-Grace movement: steps, turns, the enemy doubling, paths round walls."""

from __future__ import annotations

import pytest

from rules.systems.coup_de_grace import DRAFT_VARIANT
from tests.rules.coup_de_grace.build import (
    KEY,
    SWORD,
    SYSTEM,
    fight,
    foes,
    one,
    refused,
    resolve,
    run,
)
from tests.scenario import Scenario


# -- movement ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("enemies", "cost"), [((), 1), (("F5",), 2), (("F5", "E4"), 4), (("F5", "E4", "E6"), 8)]
)
def test_each_adjacent_enemy_doubles_the_step(enemies: tuple[str, ...], cost: int) -> None:
    """Worked example: a step costs 1, 2 next to one enemy, 4 next to two, 8 next to three."""
    enc = fight(("M", "a", "class=unarmoured", "E5", "W"), *foes(*enemies))
    move = one(resolve(enc, "move", actor="M", path="W"), "move")
    assert (move.cost, move.left) == (cost, 8 - cost)


def test_only_the_step_that_starts_next_to_an_enemy_is_doubled() -> None:
    """Stepping away costs 2, the next step 1."""
    enc = fight(("M", "a", "class=unarmoured", "E5", "W"), ("O", "b", SWORD, "F5", "W"))
    assert one(resolve(enc, "move", actor="M", path="W W"), "move").cost == 3


@pytest.mark.parametrize(
    ("variant", "enemies", "cost"),
    [(None, ("F4",), 1), (DRAFT_VARIANT, ("F4",), 2), (DRAFT_VARIANT, ("F5", "E4", "E6"), 2)],
)
def test_adjacency_for_doubling_by_ruleset(variant: str | None, enemies: tuple[str, ...], cost: int) -> None:
    """Newer: diagonal enemies are not adjacent; draft: any adjacent enemy (diagonals too) doubles once."""
    enc = fight(("M", "a", "class=unarmoured", "E5", "W"), *foes(*enemies), variant=variant)
    assert one(resolve(enc, "move", actor="M", path="W"), "move").cost == cost


@pytest.mark.parametrize(("enemies", "cost"), [((), 1), (("F5",), 2), (("F5", "E4"), 4)])
def test_turning_in_place_costs_one_doubled_by_enemies(enemies: tuple[str, ...], cost: int) -> None:
    """Turning in place costs 1 MP, doubled like every MP cost."""
    res = resolve(
        fight(("M", "a", "class=unarmoured", "E5", "W"), *foes(*enemies)), "move", actor="M", facing="S"
    )
    face = one(res, "face")
    assert (face.cost, face.left, res.encounter.get("M").facing) == (cost, 8 - cost, "S")


def test_move_to_finds_the_cheapest_way_round_a_wall() -> None:
    """`to:` goes round walls along a cheapest path; without `facing:` the mini keeps its facing."""
    enc = fight(("M", "a", "class=unarmoured", "B2", "E"), ("O", "b", SWORD, "J9", "N"), blocked=("C2",))
    res = resolve(enc, "move", actor="M", to="D2")
    move, m = one(res, "move"), res.encounter.get("M")
    assert (move.cost, len(move.path or []), m.position) == (4, 5, "D2")
    assert m.facing == "E"


def test_move_to_among_paths_of_equal_cost_takes_the_first_found() -> None:
    """`to:` takes the "cheapest legal path": round the wall at C2 north and south cost the same, and of such paths
    the first the search finds (`rules.geometry.paths`), so the squares listed are always the same."""
    enc = fight(("M", "a", "class=unarmoured", "B2", "E"), ("O", "b", SWORD, "J9", "N"), blocked=("C2",))
    move = one(resolve(enc, "move", actor="M", to="D2"), "move")
    assert move.path == ["B2", "B1", "C1", "D1", "D2"] and move.cost == 4


def test_move_to_avoids_squares_next_to_enemies_when_cheaper() -> None:
    """The cheapest path skirts round an enemy instead of paying double."""
    enc = fight(("M", "a", "class=unarmoured", "B3", "E"), *foes("D4", "E4", "F4"))
    move = one(resolve(enc, "move", actor="M", to="H3"), "move")
    assert (move.cost, len(move.path or [])) == (8, 9) and "D3" not in (move.path or [])


def test_move_to_refuses_an_occupied_or_walled_end() -> None:
    """The end square must be free: no moving into a mini or a wall."""
    enc = fight(("M", "a", "class=unarmoured", "B2", "E"), ("O", "b", SWORD, "D2", "N"), blocked=("C3",))
    assert "D2 is taken by O" in refused(enc, "move", actor="M", to="D2")
    assert "C3 is a wall" in refused(enc, "move", actor="M", to="C3")


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("E E", "C2 is taken by O"),
        ("S E", "B3 is a wall"),
        ("N N", "off the map"),
        ("NE", "no diagonal moves"),
        ("E X", "`X` is not a step here"),
    ],
)
def test_path_follows_the_steps_exactly_and_refuses_illegal_ones(path: str, message: str) -> None:
    """`path:` never moves into or through minis or walls, nor off the map, nor diagonally (newer)."""
    enc = fight(("M", "a", "class=unarmoured", "A2", "E"), ("O", "b", SWORD, "C2", "N"), blocked=("B3",))
    assert message in refused(enc, "move", actor="M", path=path)


def test_path_is_case_insensitive_and_takes_commas_and_facing() -> None:
    """`path:"e, s"` works; a given facing is taken with the last step for free."""
    enc = fight(("M", "a", "class=unarmoured", "A1", "E"), ("O", "b", SWORD, "J9", "N"))
    res = resolve(enc, "move", actor="M", path="e, s", facing="W")
    m = res.encounter.get("M")
    assert (m.position, m.facing, one(res, "move").cost) == ("B2", "W", 2)


def test_not_enough_movement_points_says_what_it_needs_and_has() -> None:
    """A heavy mini (MA 4) cannot walk 5 squares."""
    enc = fight(("M", "a", "class=heavy", "A1", "E"), ("O", "b", SWORD, "J9", "N"))
    assert "needs 5 MP to move A1 → F1 but has 4 left" in refused(enc, "move", actor="M", to="F1")


def test_draft_moves_diagonally_for_one_point() -> None:
    """Draft: a step in any of 8 directions costs 1 and may change facing."""
    enc = fight(
        ("M", "a", "class=unarmoured", "B2", "E"), ("O", "b", SWORD, "J9", "N"), variant=DRAFT_VARIANT
    )
    res = resolve(enc, "move", actor="M", to="E5")
    assert (one(res, "move").cost, res.encounter.get("M").position) == (3, "E5")


def test_draft_diagonal_step_cannot_squeeze_between_two_blocked_squares() -> None:
    """Draft: a diagonal step needs one of the two squares beside it open."""
    squeezed = fight(
        ("M", "a", "class=unarmoured", "B2", "E"),
        ("O", "b", SWORD, "J9", "N"),
        variant=DRAFT_VARIANT,
        blocked=("B1", "C2"),
    )
    assert "squeezes between two blocked squares" in refused(squeezed, "move", actor="M", path="NE")
    open_side = fight(
        ("M", "a", "class=unarmoured", "B2", "E"),
        ("O", "b", SWORD, "J9", "N"),
        variant=DRAFT_VARIANT,
        blocked=("B1",),
    )
    assert run(open_side, "move", actor="M", path="NE").get("M").position == "C1"


def test_draft_step_back_then_shoot_with_six_points() -> None:
    """Draft worked example: an unarmoured mini (MA 6) steps back from an enemy (2 MP), then shoots (4 MP)."""
    enc = fight(
        ("S", "a", "class=unarmoured weapons=bow", "C2", "E"),
        ("O", "b", SWORD, "D2", "W"),
        variant=DRAFT_VARIANT,
    )
    assert "needs 8 MP to shoot (4 MP ×2: next to O)" in refused(enc, "attack", [6], actor="S", target="O")
    enc = run(enc, "move", actor="S", path="W", facing="E")
    res = resolve(enc, "attack", [6], actor="S", target="O")
    assert (one(res, "attack").cost, res.encounter.get("S").state.mp) == (4, 0)




# -- corrections: obstacles, the kept facing, the draft's defaults as options ------------------------------------------
def _duel(s: Scenario, first: str = "a") -> Scenario:
    s.run("init_roll")
    s.run("init_order", order=first)
    return s


def test_an_obstacle_blocks_moves_like_a_wall() -> None:
    """"You may never move through walls or other blocking obstacles": an `obstacle` square blocks a step."""
    s = Scenario(KEY, map="8x6", tie="join")
    s.enc.map.terrain["C3"] = "obstacle"
    s.add("M", "class=unarmoured", side="a", at="B3", facing="E").add("O", SWORD, side="b", at="H6", facing="N")
    _duel(s)
    assert "C3 is a wall or obstacle" in s.refused("move", actor="M", path="E")
    assert s.run("move", actor="M", to="D3").events[-1].cost == 4  # round the obstacle


def test_the_system_reads_walls_and_obstacles_only() -> None:
    """"Other blocking obstacles": Coup-De-Grace reads `wall` and `obstacle`; `difficult` and `gap` mean nothing here."""
    assert SYSTEM.terrain_kinds == ("clear", "wall", "obstacle") and SYSTEM.uses_facing


def test_a_move_without_facing_keeps_the_facing() -> None:
    """"For ONE movement point a mini can move into one of its four adjacent squares ... and change its facing to
    any of the four directions": a move without `facing:` keeps the mini's facing, at no extra cost."""
    s = _duel(Scenario(KEY, map="8x6", tie="join").add("M", "class=unarmoured", side="a", at="B2", facing="N")
              .add("O", SWORD, side="b", at="H6", facing="N"))
    res = s.run("move", actor="M", to="D2")
    assert (s.get("M").facing, res.events[-1].cost) == ("N", 2)
    assert s.run("move", actor="M", path="S", facing="W").events[-1].cost == 1 and s.get("M").facing == "W"


def test_the_draft_diagonal_squeeze_is_an_option() -> None:
    """Draft: "a mini can move 1 square in any direction (including diagonals)"; squeezing between two blocked
    squares is refused by default and allowed with `diagonal_squeeze=yes`."""
    for squeeze, allowed in (("no", False), ("yes", True)):
        s = Scenario(KEY, map="8x6", variant=DRAFT_VARIANT, blocked=("C2", "B3"), tie="join", diagonal_squeeze=squeeze)
        _duel(s.add("M", "class=unarmoured", side="a", at="B2", facing="E").add("O", SWORD, side="b", at="H6", facing="N"))
        if allowed:
            assert s.run("move", actor="M", path="SE").events[-1].path == ["B2", "C3"]
        else:
            assert "squeezes between two blocked squares" in s.refused("move", actor="M", path="SE")


def test_the_draft_turn_in_place_is_an_option() -> None:
    """Draft: "For ONE movement point a mini can remain in his current square and change his facing"; with
    `turn_in_place=no` a mini turns only as it steps."""
    for turn, allowed in (("yes", True), ("no", False)):
        s = Scenario(KEY, map="8x6", variant=DRAFT_VARIANT, tie="join", turn_in_place=turn)
        _duel(s.add("M", "class=unarmoured", side="a", at="B2", facing="E").add("O", SWORD, side="b", at="H6", facing="N"))
        if allowed:
            assert s.run("move", actor="M", facing="S").events[-1].cost == 1
        else:
            assert "turn_in_place=no" in s.refused("move", actor="M", facing="S")


@pytest.mark.parametrize(("crawl", "variant", "allowed"), [
    ("ruleset", None, False), ("any", None, True), ("ruleset", DRAFT_VARIANT, True), ("orthogonal", DRAFT_VARIANT, False),
])
def test_the_crawl_direction_is_an_option(crawl: str, variant: str | None, allowed: bool) -> None:
    """A downed mini "can crawl one square": N, E, S or W by default (draft: any direction), or as `crawl` says."""
    s = Scenario(KEY, map="8x6", variant=variant, tie="join", crawl=crawl)
    s.add("T", "class=light hp=1 weapons=sword", side="a", at="C3", facing="E")
    s.add("A", "class=light weapons=sword,axe", side="b", at="D3", facing="W").add("F", SWORD, side="b", at="H6", facing="N")
    _duel(s, "b")
    s.run("attack", [6], actor="A", target="T", weapon="sword")
    s.run("next")
    if allowed:
        assert [e.path for e in s.run("move", actor="T", to="B2").events if e.kind == "move"] == [["C3", "B2"]]
    else:
        assert "can only crawl one square" in s.refused("move", actor="T", to="B2")


def test_no_mini_is_placed_on_an_obstacle() -> None:
    """A blocking obstacle is no place for a mini: `/combatant add at:` an obstacle square is refused."""
    s = Scenario(KEY, map="8x6")
    s.enc.map.terrain["C3"] = "obstacle"
    assert "C3 is a wall or obstacle" in s.refused("add", name="M", raw_sheet={"class": "light"}, at="C3", facing="E")
