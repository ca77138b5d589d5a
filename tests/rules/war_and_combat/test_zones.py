"""The zones of threat and marginal zones, read together from one place (`zones.zones_of`)."""
from __future__ import annotations

from rules.geometry import parse_cell
from rules.systems.war_and_combat.zones import engaging, marginal, threat, zones_of
from tests.rules.war_and_combat.build import near, wac


def test_a_polearm_has_its_zone_of_threat_and_its_marginal_zone_beside_it_from_one_reading():
    """"The zone of threat includes three hexes: the target hex plus the hex to either side of the target hex
    closest to the fighter"; "The marginal zone includes the two hexes to either side of the zone of threat":
    Pike's polearm at F6 facing N, its three hexes two ahead and the hex beside each end, from one reading; a
    fighter engages in both ("the weapon wielder may attack any character that ends movement there")."""
    s = wac()
    s.add("Pike", "weapons=polearm", side="a", at="F6", facing="N")
    grid, pike = s.enc.grid(), s.get("Pike")
    cell = lambda *steps: parse_cell(near(s, "F6", *steps))  # noqa: E731
    zone, beside = zones_of(grid, pike)
    assert zone == {cell("N", "N"), cell("N", "NE"), cell("N", "NW")} == threat(grid, pike)
    assert beside == {cell("NW", "NW"), cell("NE", "NE")} == marginal(grid, pike)
    assert engaging(grid, pike) == zone | beside


def test_the_zones_of_another_stance_are_those_the_fighter_would_hold_there():
    """"A zone of threat includes those hexes in front of a hostile fighter that are in range of his weapon": read
    for another stance (as a move plans a step), Pike at F6 facing S threatens the three hexes two to its south."""
    s = wac()
    s.add("Pike", "weapons=polearm", side="a", at="F6", facing="N")
    grid, pike = s.enc.grid(), s.get("Pike")
    zone, _ = zones_of(grid, pike, at=parse_cell("F6"), facing="S")
    assert zone == {parse_cell(near(s, "F6", "S", x)) for x in ("S", "SE", "SW")}
    pike.facing = "S"
    assert zone == threat(grid, pike)


def test_a_missile_weapon_in_hand_holds_no_zone():
    """"Note that range-0 weapons have no zones of threat or danger": a bow in hand has neither zone."""
    s = wac()
    s.add("Archer", "weapons=bow", side="a", at="F6", facing="N")
    assert zones_of(s.enc.grid(), s.get("Archer")) == (frozenset(), frozenset())


def test_entering_two_enemies_zones_at_once_names_both():
    """docs/systems/war-and-combat.md: "Entering an enemy's zone of threat ... stops the move and engages." A step into
    a hex in two enemies' zones of threat engages both: the move's line, the board and the turn line name both."""
    s = wac()
    s.add("Borin", "str=14 agl=13 fighter=3 skills=broadsword:3 weapons=broadsword", side="dwarves", at="H4", facing="S")
    s.add("Grak", "fighter=3 skills=axe:2 weapons=axe", side="orcs", at="H6", facing="N", owner=None)
    s.add("Ugluk", "fighter=3 skills=axe:2 weapons=axe", side="orcs", at="G6", facing="NE", owner=None)
    s.run("init_roll", [6, 6, 5, 1, 1, 2, 1, 1, 1])
    res = s.run("move", actor="Borin", path="S")
    assert "**Borin** enters Grak's zone of threat at H5: movement stops, they are engaged; it is also engaged with Ugluk" \
        in s.text(res)
    facts = s.system.facts(s.enc)
    assert "▶ engaged with Grak and Ugluk: no moving" in s.system.present.status_line(s.enc, s.get("Borin"), facts)
    assert "Borin (engaged with Grak and Ugluk: no moving)" in s.system.present.turn_label(s.enc, facts)
