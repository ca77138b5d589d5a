"""What the rules keep for the map: the last move's path, and the cells a system shades."""
from __future__ import annotations

from rules.geometry import Cell, parse_cell
from rules.models import Encounter
from rules.registry import get_system
from rules.system import Highlight, RuleSystem
from tests.rules.knights_of_valour.build import KNIGHT, ORC
from tests.scenario import Scenario

SHEETS = {"coup-de-grace": "class=unarmoured weapons=sword", "knights-of-valour": KNIGHT}


def _cells(highlights: list[Highlight], kind: str) -> set[str]:
    return {h.cell.name for h in highlights if h.kind == kind}


def _kov_duel() -> tuple[Scenario, str]:
    """Borin and Grak of Knights of Valour, the fight started; and who acts first."""
    s = Scenario("knights-of-valour", map="12x10")
    s.add("Borin", KNIGHT, side="dwarves", at="C4")
    s.add("Grak", ORC, side="orcs", at="J9", owner=None)
    s.run("init_roll")
    mover = s.system.turn(s.enc).current
    assert mover is not None
    return s, mover


def test_the_base_system_shades_nothing() -> None:
    """A system that does not say otherwise gives the map no cells to shade."""
    enc = Encounter(system="tote")
    assert RuleSystem().highlights(enc) == []


def test_a_move_keeps_its_path_for_the_map() -> None:
    """After a move the encounter holds its mover and path; undoing (the old state) holds none."""
    s, mover = _kov_duel()
    assert s.enc.last_move is None
    before = s.enc
    start = s.get(mover).position
    goal = "C6" if mover == "Borin" else "J7"
    s.run("move", actor=mover, to=goal)
    assert s.enc.last_move is not None
    assert s.enc.last_move.actor == mover
    assert (s.enc.last_move.path[0], s.enc.last_move.path[-1]) == (start, goal)
    assert before.last_move is None
    assert Encounter.model_validate_json(s.enc.model_dump_json()).last_move == s.enc.last_move


def test_coup_de_grace_shades_the_acting_minis_front_arc() -> None:
    """The acting mini's front 90 degree arc is shaded: cells ahead of it, none behind."""
    s = Scenario("coup-de-grace", map="8x6", tie="join")
    s.add("M", "class=unarmoured weapons=sword", side="a", at="C3", facing="E")
    s.add("T", "class=unarmoured weapons=sword", side="b", at="H6", facing="W")
    s.run("init_roll")
    s.run("init_order", order="a")
    arc = _cells(s.system.highlights(s.enc), "arc")
    grid = s.enc.grid()
    assert grid is not None
    expected = {c.name for c in grid.cells() if c != parse_cell("C3") and grid.in_arc(parse_cell("C3"), "E", c)}
    assert arc == expected
    assert "D3" in arc and "B3" not in arc and "C2" not in arc


def test_knights_of_valour_shades_the_acting_knights_reach() -> None:
    """The acting knight's melee reach (the eight squares around it on level ground) is shaded."""
    s, mover = _kov_duel()
    reach = _cells(s.system.highlights(s.enc), "reach")
    here = s.get(mover).cell
    assert isinstance(here, Cell)
    grid = s.enc.grid()
    assert grid is not None
    assert reach == {c.name for c in grid.neighbours(here, diagonal=True)}
    assert len(reach) == 8


def test_no_one_acting_shades_nothing() -> None:
    """Before the fight starts no one acts, so nothing is shaded."""
    for key in ("coup-de-grace", "knights-of-valour"):
        s = Scenario(key, map="8x6")
        s.add("M", SHEETS[key], side="a", at="C3")
        assert get_system(key).highlights(s.enc) == []
