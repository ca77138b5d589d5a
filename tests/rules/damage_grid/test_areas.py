"""Area effect shapes on the square grid, and clouds drifting on a d10."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules.dice import Dice
from rules.geometry import Cell
from rules.systems.damage_grid.areas import (
    burst,
    corridor,
    drift,
    fan,
    line,
    on_board,
    pulse,
    reach_distance,
    roll_drift,
    star_burst,
)

T = Cell(5, 5)


def _block(cols, rows):
    return {Cell(c, r) for c in cols for r in rows}


@pytest.mark.parametrize("a, b, reach", [((0, 0), (1, 1), 1), ((0, 0), (1, 0), 1), ((0, 0), (2, 1), 2),
                                         ((0, 0), (2, 2), 2), ((0, 0), (3, 1), 3), ((0, 0), (3, 3), 3),
                                         ((0, 0), (4, 0), 4)])
def test_reach_circles(a, b, reach):
    """"So the next 'circle' of squares would require Reach 4": round a targeted square, ring k is k steps out."""
    assert reach_distance(Cell(*a), Cell(*b)) == reach


def test_burst_1_is_the_targeted_square():
    """"Burst 1 Area Affects only affect the targeted square"."""
    assert burst(T, 1) == [T]


def test_burst_2_is_four_squares_round_the_top_right_corner():
    """The Smoke grenade "is Burst 2 ... it will occupy 4 concentrated squares", from the top right corner."""
    assert set(burst(T, 2)) == _block((5, 6), (4, 5))


def test_the_system_page_gives_burst_2_as_the_block_the_rules_make():
    """docs/systems/damage-grid.md says what the code makes of "Burst 2 ... will occupy 4 concentrated squares" (a 2 x 2
    block at the targeted square's top right corner), not the rings round it that a Star Burst counts."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "damage-grid.md").read_text(encoding="utf-8").split())
    assert len(burst(T, 2)) == 4 and "Area shapes count the same rings" not in page
    assert "Burst 2 the 2 × 2 block at the targeted square's top right corner" in page


def test_burst_3_and_4():
    """Burst 3: the nine squares round the target; Burst 4: a 4 x 4 block round the corner without its corners."""
    assert set(burst(T, 3)) == _block((4, 5, 6), (4, 5, 6))
    four = _block((4, 5, 6, 7), (3, 4, 5, 6)) - {Cell(4, 3), Cell(7, 3), Cell(4, 6), Cell(7, 6)}
    assert set(burst(T, 4)) == four


def test_line_one_square_per_step():
    """The most direct route: one square per step, the model's own square left out, on past the target if asked."""
    assert line(Cell(0, 0), Cell(4, 2)) == [Cell(1, 1), Cell(2, 1), Cell(3, 2), Cell(4, 2)]
    assert line(Cell(0, 0), Cell(2, 0), 4) == [Cell(1, 0), Cell(2, 0), Cell(3, 0), Cell(4, 0)]
    assert line(T, T) == []


def test_corridor_adds_right_then_left_columns():
    """"Odd corridors taken the next left column and evens the right": heading north, width 2 adds the east column,
    width 3 the west one too."""
    one = {Cell(5, r) for r in (5, 6, 7, 8)}
    assert set(corridor(Cell(5, 9), T, 1)) == one
    assert set(corridor(Cell(5, 9), T, 2)) == one | {Cell(6, r) for r in (5, 6, 7, 8)}
    assert set(corridor(Cell(5, 9), T, 3)) == one | {Cell(c, r) for c in (4, 6) for r in (5, 6, 7, 8)}


def test_corridor_heading_east_widens_to_the_south():
    """Seen from the model looking east, its right is south: width 2 adds the row below."""
    assert set(corridor(Cell(0, 0), Cell(2, 0), 2)) == _block((1, 2), (0, 1))


def test_fan_2_reach_3():
    """"Fan 2 Reach 3": 1, 1 and 2 squares wide along the line through the target, 4 squares."""
    assert set(fan(Cell(5, 9), Cell(5, 8), 2, 3)) == {Cell(5, 8), Cell(5, 7), Cell(5, 6), Cell(6, 6)}


def test_fan_half_reach_is_half_width_rounded_down():
    """"At half reach the Fan's with is half X rounding down": Fan 3 Reach 4 is 1 square wide at step 2 of 4."""
    cells = fan(Cell(0, 8), Cell(0, 7), 3, 4)
    widths = [sum(1 for c in cells if c.row == r) for r in (7, 6, 5, 4)]
    assert widths == [1, 1, 2, 3]


def test_star_burst():
    """"X is the radius in reach of the Blast from the targeted square": Star Burst 1 is 9 squares, 2 is 25."""
    assert set(star_burst(T, 1)) == _block((4, 5, 6), (4, 5, 6))
    assert set(star_burst(T, 2)) == _block(range(3, 8), range(3, 8))


def test_pulse_only_the_phasing_circle():
    """"Only the phasing circle is part of the Area Affect. Previous phases are not affected again"; X is the last."""
    assert pulse(T, 2, 0) == [T]
    assert set(pulse(T, 2, 1)) == _block((4, 5, 6), (4, 5, 6)) - {T}
    assert len(pulse(T, 2, 2)) == 16 and not set(pulse(T, 2, 2)) & set(pulse(T, 2, 1))
    assert pulse(T, 2, 3) == []


def test_on_board_drops_squares_off_the_map_and_obstructed():
    """"obstructed squares are not affected by it"; nor are squares off the map."""
    assert on_board(burst(Cell(0, 0), 2), 10, 10, blocked=[Cell(1, 0)]) == [Cell(0, 0)]


def test_cloud_drifts_in_the_rolled_direction():
    """A d10 of 3 moves the cloud one square east."""
    d = drift([Cell(2, 2), Cell(3, 2)], 3, 10, 10)
    assert (d.direction, d.cells, d.gone, d.blocked) == ("E", (Cell(3, 2), Cell(4, 2)), False, False)


def test_cloud_gone_on_a_zero():
    """"On a 0 the Cloud disappears prematurely": a d10's 10 is its 0."""
    d = drift([Cell(2, 2)], 10, 10, 10)
    assert d.gone and d.cells == ()


def test_cloud_stays_on_a_nine_or_when_obstructed():
    """9 is no drift; "moved, if not obstructed": a wall or the map's edge keeps it where it is."""
    assert drift([Cell(2, 2)], 9, 10, 10).cells == (Cell(2, 2),)
    walled = drift([Cell(2, 2)], 3, 10, 10, blocked=[Cell(3, 2)])
    assert walled.blocked and walled.cells == (Cell(2, 2),) and walled.direction == "E"
    assert drift([Cell(0, 2)], 7, 10, 10).blocked


def test_roll_drift_rolls_a_d10():
    """The cloud's d10 comes from the dice: a given 1 moves it north."""
    d = roll_drift(Dice.fixed([1]), [Cell(2, 2)], 10, 10)
    assert d.roll == 1 and d.cells == (Cell(2, 1),) and d.direction == "N"
