"""`/encounter terrain`: kinds the system uses, cell lists with ranges and rectangles; facings only where used."""
from __future__ import annotations

import pytest

from bot.offline.harness import Harness
from rules.registry import get_system
from tests.cogs.fights import export, setup_fight

CDG = type(get_system("coup-de-grace"))


async def test_terrain_refuses_a_kind_the_system_does_not_use(h: Harness) -> None:
    """Coup-De-Grace reads walls and obstacles only: `kind:difficult` is refused, naming the kinds it uses."""
    await setup_fight(h)
    before = await export(h)
    sent = await h.run("gm", "/encounter terrain", cells="E1", kind="difficult")
    assert sent[0].ephemeral and "`difficult`" in sent[0].text and "clear, wall, obstacle" in sent[0].text
    assert "Coup-De-Grace" in sent[0].text
    assert await export(h) == before
    sent = await h.run("gm", "/encounter terrain", cells="E1", kind="wall")
    assert not sent[0].ephemeral and (await export(h))["map"]["blocked"] == ["E1"]


async def test_terrain_takes_ranges_and_rectangles(h: Harness) -> None:
    """`cells:"A1-A3 F2:G3 B6-A6"` marks a column range, a rectangle row by row and a reversed row range."""
    await setup_fight(h)
    sent = await h.run("gm", "/encounter terrain", cells="A1-A3, F2:G3 B6-A6 A2", kind="wall")
    assert not sent[0].ephemeral
    assert (await export(h))["map"]["blocked"] == ["A1", "A2", "A3", "F2", "G2", "F3", "G3", "B6", "A6"]


@pytest.mark.parametrize(
    ("cells", "words"),
    [
        ("A1-C3", "`A1-C3` is not a range: a range runs along one row or column"),
        ("A1:J2", "J2 is off the map: cells run from A1 to H6"),
        ("A1-", "`A1-` is not a range or rectangle"),
        ("B2:Q", "`Q` is not a cell"),
        ("A1:H6 A1:H6 " * 5, "at most 400 cells"),
        (" , ", "Give the cells to mark"),
    ],
)
async def test_bad_cell_lists_are_refused_and_change_nothing(h: Harness, cells: str, words: str) -> None:
    """A diagonal range, an off-map corner, a broken token, too many cells or none at all: refused, nothing marked."""
    await setup_fight(h)
    before = await export(h)
    sent = await h.run("gm", "/encounter terrain", cells=cells, kind="wall")
    assert sent[0].ephemeral and words in sent[0].text, sent[0].text
    assert await export(h) == before


async def test_facing_autocomplete_offers_the_maps_facings(h: Harness) -> None:
    """On a square map `facing:` offers N E S W, filtered by what was typed."""
    await setup_fight(h)
    assert await h.autocomplete("gm", "/combatant add", "facing", "") == ["N", "E", "S", "W"]
    assert await h.autocomplete("gm", "/combatant edit", "facing", "w", name="Borin") == ["W"]


async def test_no_facing_where_the_system_uses_none(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the system has no facings, the autocomplete offers none and `/combatant add facing:` is refused."""
    monkeypatch.setattr(CDG, "uses_facing", False)
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    assert await h.autocomplete("gm", "/combatant add", "facing", "") == []
    sent = await h.run("gm", "/combatant add", name="Grak", at="D3", facing="W", sheet="class=light weapons=axe")
    assert sent[0].ephemeral and "no facings" in sent[0].text


async def test_no_obstacle_goes_under_a_standing_mini(h: Harness) -> None:
    """"You may never move through walls or other blocking obstacles": an obstacle under Grak is refused as a wall is, and nothing is marked."""
    await setup_fight(h)
    before = await export(h)
    for kind in ("wall", "obstacle"):
        sent = await h.run("gm", "/encounter terrain", cells="C1 D3", kind=kind)
        assert sent[0].ephemeral and f"D3 holds Grak: a{'n' if kind == 'obstacle' else ''} {kind} cannot go there" in sent[0].text
        assert await export(h) == before


async def test_terrain_over_a_room_keeps_its_walls_and_echoes_the_range(h: Harness) -> None:
    """docs/commands.md: a `kind` other than `wall` and `clear` "marks the cells around walls and leaves
    the walls standing (the reply names them)". Rough ground painted over a room keeps its two walls,
    the reply echoes the range as typed rather than its 12 cells and names the walls kept; `kind:clear`
    then takes everything away."""
    await h.run("gm", "/encounter start", system="open", name="Crypt", map="12x10")
    await h.run("gm", "/encounter terrain", cells="F2 F3", kind="wall")
    sent = await h.run("gm", "/encounter terrain", cells="e1:g4", kind="difficult")
    assert not sent[0].ephemeral
    assert "E1:G4: difficult (F2 F3 stay walls: `kind:clear` takes a wall away)" in sent[0].text, sent[0].text
    assert "F1" not in sent[0].text
    marked = (await export(h))["map"]
    assert marked["blocked"] == ["F2", "F3"] and len(marked["terrain"]) == 10 and "F2" not in marked["terrain"]
    before = await export(h)
    sent = await h.run("gm", "/encounter terrain", cells="F2-F3", kind="difficult")
    assert sent[0].ephemeral and "F2 F3 are walls" in sent[0].text and "`kind:clear`" in sent[0].text
    assert await export(h) == before
    sent = await h.run("gm", "/encounter terrain", cells="A1:L10", kind="clear")
    assert "A1:L10: clear" in sent[0].text and "stay" not in sent[0].text
    cleared = (await export(h))["map"]
    assert (cleared["blocked"], cleared["terrain"]) == ([], {})
