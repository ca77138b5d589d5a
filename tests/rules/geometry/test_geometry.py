"""rules.geometry: the two board kinds, the corner rule, corner lines, regions and budgeted paths."""
from __future__ import annotations

import random
from collections.abc import Iterator

from rules.geometry import (
    Cell,
    Grid,
    HexGrid,
    SquareGrid,
    cheapest_path,
    corner_lines,
    corner_segments,
    obstruction,
    parse_cell,
)


def _walk(g: Grid):
    def successors(c: Cell):
        for d in g.directions():
            n = g.step(c, d)
            if n is not None and n not in g.blocked:
                yield n, 1.0, d
    return successors


def test_grid_factory_picks_the_kind_once() -> None:
    """Grid(kind, ...) builds the kind's own class."""
    assert isinstance(Grid("square", 5, 5), SquareGrid) and isinstance(Grid("hex", 5, 5), HexGrid)


def test_parse_cell_is_cached() -> None:
    """The same text gives the very same Cell object."""
    assert parse_cell("C4") is parse_cell("C4")


def test_corner_rule_open_blocks_either() -> None:
    """A diagonal through a corner: open ignores the cells beside it, blocks needs one, either both."""
    one = Grid("square", 5, 5, blocked=[Cell(1, 0)])
    both = Grid("square", 5, 5, blocked=[Cell(1, 0), Cell(0, 1)])
    a, b = Cell(0, 0), Cell(1, 1)
    assert one.line_of_sight(a, b) and not one.line_of_sight(a, b, corner="blocks")
    assert one.line_of_sight(a, b, corner="either") and not both.line_of_sight(a, b, corner="either")


def test_corner_lines_count_obstructed_back_corner_lines() -> None:
    """A wall square on the diagonal obstructs some lines; none in the open; a full wall all three."""
    g = Grid("square", 6, 6, blocked=[Cell(2, 2)])
    assert obstruction(g, Cell(0, 0), Cell(4, 4)) == "partial"
    assert obstruction(g, Cell(0, 0), Cell(4, 0)) == "none"
    block = Grid("square", 6, 6, blocked=[Cell(c, r) for c in range(1, 4) for r in range(1, 4)])
    assert obstruction(block, Cell(0, 0), Cell(4, 4)) == "hidden"


def test_corner_lines_in_one_row_are_obstructed_by_a_wall_beside_it() -> None:
    """In one row two lines run along the row's edges end to end and one through the middle: a wall
    beside either square or a square between touches an edge line, a wall in the row all three."""
    a, b = Cell(0, 2), Cell(4, 2)
    assert corner_lines(Grid("square", 6, 6), a, b) == 0
    assert corner_lines(Grid("square", 6, 6, blocked=[Cell(2, 1)]), a, b) == 1  # above: touches the top edge
    assert corner_lines(Grid("square", 6, 6, blocked=[Cell(2, 3)]), a, b) == 1  # below: the bottom edge
    assert corner_lines(Grid("square", 6, 6, blocked=[Cell(2, 2)]), a, b) == 3  # in the row: all three
    assert corner_lines(Grid("square", 6, 6, blocked=[Cell(2, 1), Cell(3, 3)]), a, b) == 2  # the middle line is clear
    assert corner_lines(Grid("square", 6, 6, blocked=[Cell(4, 1)]), a, b) == 1  # beside the target
    assert corner_lines(Grid("square", 6, 6, blocked=[Cell(0, 3)]), a, b) == 1  # beside the looker
    assert corner_lines(Grid("square", 6, 6, blocked=[Cell(5, 1)]), a, b) == 0  # beyond the target: a corner only
    # a column reads the same way
    assert corner_lines(Grid("square", 6, 6, blocked=[Cell(1, 2)]), Cell(2, 0), Cell(2, 4)) == 1


def test_corner_segments_join_back_corners_along_the_sides_and_through_the_middle() -> None:
    """The looker's three back corners join the target's three back corners (the target's front corner faces the looker)."""
    assert sorted(corner_segments(Cell(3, 3), Cell(1, 2))) == [(3, 4, 1, 3), (4, 3, 2, 2), (4, 4, 1, 2)]
    assert sorted(corner_segments(Cell(3, 5), Cell(3, 2), (0, 0))) == [(3, 6, 3, 2), (4, 5, 3, 3), (4, 6, 4, 2)]


def test_regions_split_by_a_wall() -> None:
    """Cells on either side of a full wall lie in different regions."""
    g = Grid("square", 5, 5, blocked=[Cell(2, r) for r in range(5)])
    assert g.region(Cell(0, 0)) == g.region(Cell(1, 4)) != g.region(Cell(4, 4))
    assert g.region(Cell(2, 0)) == -1


def test_budget_stops_the_search_early() -> None:
    """With a budget and a heuristic, a far goal is refused after few expansions."""
    g = Grid("square", 100, 100)
    seen: list[Cell] = []
    succ = _walk(g)

    def counted(c: Cell):
        seen.append(c)
        return succ(c)

    goal = Cell(99, 99)
    found = cheapest_path(Cell(0, 0), lambda c: c == goal, counted, budget=10,
                          heuristic=lambda c: g.distance(c, goal))
    assert found is None and len(seen) == 0
    near = Cell(5, 0)
    found = cheapest_path(Cell(0, 0), lambda c: c == near, counted, budget=10,
                          heuristic=lambda c: g.distance(c, near))
    assert found is not None and found[0] == 5 and len(seen) <= 10


def test_same_cost_as_plain_search_round_a_wall() -> None:
    """A* with the distance heuristic finds the same cost as the plain search."""
    g = Grid("square", 8, 8, blocked=[Cell(3, r) for r in range(7)])
    goal = Cell(6, 0)
    plain = cheapest_path(Cell(0, 0), lambda c: c == goal, _walk(g))
    astar = cheapest_path(Cell(0, 0), lambda c: c == goal, _walk(g), heuristic=lambda c: g.distance(c, goal))
    assert plain is not None and astar is not None and plain[0] == astar[0] == 20


def test_ties_broken_by_the_second_cost() -> None:
    """Of two equal-cost ways, the one with the smaller second cost wins."""
    g = Grid("square", 3, 3)
    goal = Cell(1, 1)
    # going E first costs a second point; going S first does not
    found = cheapest_path(Cell(0, 0), lambda c: c == goal, _walk(g),
                          tie=lambda a, b, d: 1.0 if b == Cell(1, 0) else 0.0)
    assert found is not None and [c for c, _ in found[1]] == [Cell(0, 1), Cell(1, 1)]
    found = cheapest_path(Cell(0, 0), lambda c: c == goal, _walk(g),
                          tie=lambda a, b, d: 1.0 if b == Cell(0, 1) else 0.0)
    assert found is not None and [c for c, _ in found[1]] == [Cell(1, 0), Cell(1, 1)]


def test_among_equal_ways_the_first_found_is_kept() -> None:
    """"Among paths of equal cost ... then the first found" (`rules.geometry.paths`): the ways a
    search takes among ties, as players see them, on squares (4 and 8 steps) and hexes."""
    g = Grid("square", 5, 5)
    found = cheapest_path(Cell(0, 0), lambda c: c == Cell(2, 2), _walk(g))
    assert found is not None and [c.name for c, _ in found[1]] == ["B1", "C1", "C2", "C3"]

    def eight(c: Cell) -> Iterator[tuple[Cell, float, str]]:
        for d, n in g.exits(c, diagonal=True):
            yield n, 1.0, d

    found = cheapest_path(Cell(0, 0), lambda c: c == Cell(3, 1), eight)
    assert found is not None and [d for _, d in found[1]] == ["E", "E", "SE"]
    h = Grid("hex", 8, 8)
    goal = Cell(5, 4)
    found = cheapest_path(Cell(1, 1), lambda c: c == goal, _walk(h), heuristic=lambda c: h.distance(c, goal))
    assert found is not None and [c.name for c, _ in found[1]] == ["C3", "D3", "E4", "F4", "F5"]


def test_exits_and_neighbours_follow_the_directions() -> None:
    """A cell's steps come in the order of the board's directions, those off the map left out."""
    g = Grid("square", 4, 4)
    assert g.exits(Cell(0, 0), diagonal=True) == (("E", Cell(1, 0)), ("SE", Cell(1, 1)), ("S", Cell(0, 1)))
    assert g.neighbours(Cell(1, 1)) == (Cell(1, 0), Cell(2, 1), Cell(1, 2), Cell(0, 1))
    h = Grid("hex", 4, 4)
    assert [d for d, _ in h.exits(Cell(1, 1))] == list(h.directions())


def test_ways_leave_out_walls_and_cut_corners() -> None:
    """A cell's ways are its steps less those into a wall and, on squares, the diagonals past a wall's corner."""
    g = Grid("square", 4, 4, blocked=[Cell(2, 1)])
    assert g.cuts_corner(Cell(1, 1), Cell(2, 2)) and not g.cuts_corner(Cell(1, 1), Cell(1, 2))
    assert [d for d, _ in g.ways(Cell(1, 1), diagonal=True)] == ["N", "S", "SW", "W", "NW"]
    h = Grid("hex", 4, 4, blocked=[Cell(1, 0)])
    assert [n for _, n in h.ways(Cell(1, 1))] == [n for n in h.neighbours(Cell(1, 1)) if n != Cell(1, 0)]


def test_regions_are_the_parts_steps_join() -> None:
    """Two open cells lie in one region exactly when steps between open cells (diagonals too) join them; walls are -1:
    the regions worked out by columns agree with a flood fill on seeded boards of both kinds."""
    rng = random.Random(7)
    for kind in ("square", "hex"):
        for _ in range(60):
            w, h = rng.randint(1, 16), rng.randint(1, 16)
            walls = [c for c in Grid(kind, w, h).cells() if rng.random() < rng.choice((0.1, 0.3, 0.5))]
            g = Grid(kind, w, h, blocked=walls)
            flood: dict[Cell, int] = {}
            for start in g.cells():
                if start in g.blocked or start in flood:
                    continue
                flood[start], todo = len(flood), [start]
                while todo:
                    for n in g.neighbours(todo.pop(), diagonal=True):
                        if n not in g.blocked and n not in flood:
                            flood[n] = flood[start]
                            todo.append(n)
            same: dict[int, int] = {}
            for c in g.cells():
                assert (g.region(c) == -1) == (c in g.blocked)
                if c not in g.blocked:
                    assert same.setdefault(flood[c], g.region(c)) == g.region(c)
            assert len(set(same.values())) == len(same)
