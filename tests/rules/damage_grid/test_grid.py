"""The damage grid: the humanoid default as the text draws it, and custom grids from the sheet."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules.errors import SheetError
from rules.systems.damage_grid.grid import (
    HUMANOID,
    HUMANOID_DEFAULTS,
    DamageGrid,
    Location,
    parse_grid,
)


def test_humanoid_faces_as_the_text_draws_them():
    """Face 1 Mind, 2 Health, 3 Body, 4 Shield, 5 Arsenal, 6 Speed."""
    assert [HUMANOID.location_of(f) for f in range(1, 7)] == ["mind", "health", "body", "shield", "arsenal", "speed"]


def test_humanoid_arrows_as_the_text_draws_them():
    """Mind v Health, Health ^ Mind, Body ^ Health, Shield > Body, Arsenal < Body, Speed ^ Body."""
    arrows = {name: HUMANOID.arrow(name) for name in HUMANOID.names}
    assert arrows == {"mind": "health", "health": "mind", "body": "health", "shield": "body",
                      "arsenal": "body", "speed": "body"}


def test_humanoid_start_values_default_and_overridden():
    """The text's `x` capacities: project defaults, replaced by a sheet's values; Arsenal is the weapons'."""
    assert HUMANOID.start_values() == HUMANOID_DEFAULTS
    assert HUMANOID.start_values({"mind": 5, "body": 2})["mind"] == 5
    assert "arsenal" not in HUMANOID.start_values()


@pytest.mark.parametrize("text", [None, "", "humanoid", " Humanoid "])
def test_parse_humanoid(text):
    """`grid=humanoid` (or nothing) is the humanoid grid."""
    assert parse_grid(text) is HUMANOID


def test_parse_custom_grid_round_trips():
    """A two-square grid reads back from its own text; faces group to locations."""
    g = parse_grid("4/5/6:body:3:health, 1/2/3:health:6:none")
    assert g.names == ("health", "body")
    assert g.faces_of("body") == (4, 5, 6) and g.location_of(2) == "health"
    assert g.arrow("body") == "health" and g.arrow("health") is None
    assert g.start_values() == {"health": 6, "body": 3}
    assert parse_grid(g.text) == g
    assert parse_grid(HUMANOID.text) is HUMANOID


def test_parse_one_square_grid():
    """"or contain just one square": every face strikes Health, no arrow."""
    g = parse_grid("1/2/3/4/5/6:health:10:-")
    assert g.names == ("health",) and g.start_values() == {"health": 10}


@pytest.mark.parametrize(
    "text, says",
    [
        ("1/2/3:health:6", "face:location:hits:arrow"),
        ("1/2/7:health:6:none,4/5/6:body:3:health", "faces from 1 to 6"),
        ("1/1/2/3:health:6:none,4/5/6:body:3:health", "face twice"),
        ("1/2/3:health:6:none,3/4/5/6:body:3:health", "already strikes"),
        ("1/2/3:health:6:none,4/5:body:3:health", "no location for face 6"),
        ("1/2/3:health:x:none,4/5/6:body:3:health", "whole number from 0 to 99"),
        ("1/2/3:health:100:none,4/5/6:body:3:health", "whole number from 0 to 99"),
        ("1/2/3:health:6:none,4/5/6:body:3:legs", "arrow at `legs`"),
        ("1/2/3:health:6:health,4/5/6:body:3:health", "arrow at `health`"),
        ("1/2/3:core:6:none,4/5/6:body:3:core", "needs a `health` location"),
        ("1/2/3:health:6:none,4/5:body:3:health,6:body:1:health", "repeats the location"),
        ("1/2/3:health:6:none,4/5/6:Bö!:3:health", "location name"),
        ("1/2/3:health:6:none,4/5:arsenal:3:health,6:speed:1:health", "write 0"),
        ("x" * 300, "at most 200"),
    ],
)
def test_parse_grid_refuses_with_what_to_write(text, says):
    """A bad custom grid is refused, the message saying what is wrong and what to write."""
    with pytest.raises(SheetError) as e:
        parse_grid(text)
    assert says in e.value.message and "grid=" in e.value.message


def test_grid_model_refuses_a_face_twice():
    """The frozen model itself holds each face once."""
    with pytest.raises(ValueError):
        DamageGrid((Location("health", (1, 2, 3, 4, 5, 6), 3), Location("mind", (1,), 1)))


def test_the_system_page_gives_the_arrows_as_the_text_draws_them():
    """docs/systems/damage-grid.md names each location's transfer arrow as the text's grid does ("^ 3 Body": Body
    passes its hits up to Health)."""
    page = (Path(__file__).parents[3] / "docs" / "systems" / "damage-grid.md").read_text(encoding="utf-8")
    arrows = {loc.name: loc.arrow for loc in HUMANOID.locations if loc.arrow}
    assert arrows["body"] == "health"
    said = "(Mind to Health, Health to Mind, Body to Health, Shield, Arsenal and Speed to Body)"
    assert said in " ".join(page.split())
