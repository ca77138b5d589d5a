"""Tests for the `/map` picture (bot.mapimage)."""

from __future__ import annotations

import io
from collections.abc import Iterable

import pytest
from PIL import Image

from bot.mapimage import (
    BOARD,
    CURRENT_RING,
    DOWNED,
    MAX_PX,
    PALETTE,
    TERRAIN_STYLES,
    WALL,
    cell_centre_px,
    initials,
    labels,
    layout,
    render_map,
    side_colours,
)
from rules.geometry import cell_name
from rules.models import Combatant, Encounter, MapState

CELL = 48
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _enc(
    kind: str = "square",
    width: int = 12,
    height: int = 10,
    combatants: Iterable[Combatant] = (),
    **map_kw: object,
) -> Encounter:
    state = MapState(kind=kind, width=width, height=height, **map_kw)  # type: ignore[arg-type]
    return Encounter(
        system="test", name="Test fight", round=1, map=state, combatants=list(combatants)
    )


def _image(enc: Encounter) -> Image.Image:
    data = render_map(enc, cell_px=CELL)
    assert data.startswith(PNG_SIGNATURE)
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB")


def _pixel(img: Image.Image, enc: Encounter, cell: str) -> tuple[int, int, int]:
    return img.getpixel(cell_centre_px(enc, cell, CELL))  # type: ignore[return-value]


def _disc_colour(img: Image.Image, enc: Encounter, cell: str) -> tuple[int, int, int]:
    """The commonest colour in a box well inside the token at ``cell`` (its initials and any
    cross cover the very centre)."""
    x, y = cell_centre_px(enc, cell, CELL)
    h = int(CELL * 0.2)
    colours = img.crop((x - h, y - h, x + h + 1, y + h + 1)).getcolors(4096) or []
    return max(colours)[1]  # type: ignore[return-value]


def test_png_opens_and_its_size_follows_the_grid() -> None:
    """The PNG opens in Pillow; more columns or rows widen or heighten it by whole cells."""
    base = _enc()
    img = _image(base)
    assert img.size == layout(base, CELL).size
    wider, taller = _image(_enc(width=20)), _image(_enc(height=15))
    assert wider.width - img.width == 8 * CELL and wider.height == img.height
    assert taller.height - img.height == 5 * CELL and taller.width == img.width


def test_blocked_cell_is_wall_coloured() -> None:
    """A blocked cell's centre pixel has the wall colour; an open one the board colour."""
    enc = _enc(blocked=["D4"])
    img = _image(enc)
    assert _pixel(img, enc, "D4") == WALL
    assert _pixel(img, enc, "E4") == BOARD


def test_terrain_cells_get_their_fill() -> None:
    """Each terrain kind fills its cell with its own light colour."""
    kinds = list(TERRAIN_STYLES)
    enc = _enc(terrain={f"{'BCDEF'[i]}2": kind for i, kind in enumerate(kinds)})
    img = _image(enc)
    fills = [_disc_colour(img, enc, f"{'BCDEF'[i]}2") for i in range(len(kinds))]
    assert fills == [TERRAIN_STYLES[k].fill for k in kinds]
    assert len(set(fills)) == len(kinds)


def test_combatants_take_their_side_colour() -> None:
    """A combatant's token has its side's colour, and two sides get different colours."""
    enc = _enc(
        combatants=[
            Combatant(name="Borin", side="dwarves", position="C4", facing="E"),
            Combatant(name="Grak", side="orcs", position="F4", facing="W"),
        ]
    )
    img = _image(enc)
    colours = side_colours(enc)
    assert colours == {"dwarves": PALETTE[0], "orcs": PALETTE[1]}
    assert _disc_colour(img, enc, "C4") == PALETTE[0]
    assert _disc_colour(img, enc, "F4") == PALETTE[1]


def test_downed_is_grey_and_out_is_not_drawn() -> None:
    """A downed combatant is drawn grey; one taken out is left off the board."""
    enc = _enc(
        combatants=[
            Combatant(name="Borin", side="dwarves", position="C4", status="downed"),
            Combatant(name="Grak", side="orcs", position="F4", status="out"),
        ]
    )
    img = _image(enc)
    assert _disc_colour(img, enc, "C4") == DOWNED
    assert _pixel(img, enc, "F4") == BOARD


def test_current_combatant_is_ringed() -> None:
    """Only an encounter with a current combatant on the board shows the gold ring."""
    people = [Combatant(name="Borin", side="dwarves", position="C4")]
    ringed = _image(_enc(combatants=people).model_copy(update={"current": "Borin"}))
    plain = _image(_enc(combatants=people))
    gold = [(n, c) for n, c in ringed.getcolors(1 << 16) or [] if c == CURRENT_RING]
    assert gold and gold[0][0] > CELL
    assert all(c != CURRENT_RING for _, c in plain.getcolors(1 << 16) or [])


def test_hex_map_renders() -> None:
    """Hex maps render: odd columns sit half a hex lower, walls and tokens are in place."""
    enc = _enc(
        "hex",
        blocked=["B1"],
        combatants=[Combatant(name="Elf", side="elves", position="D3", facing="NE")],
    )
    img = _image(enc)
    assert img.size == layout(enc, CELL).size
    (ax, ay), (bx, by) = cell_centre_px(enc, "A1", CELL), cell_centre_px(enc, "B1", CELL)
    assert abs((by - ay) - CELL / 2) <= 1 and bx > ax
    assert _pixel(img, enc, "B1") == WALL
    assert _pixel(img, enc, "A1") == BOARD
    assert _disc_colour(img, enc, "D3") == PALETTE[0]


@pytest.mark.parametrize("kind", ["square", "hex"])
def test_largest_map_stays_under_the_limits(kind: str) -> None:
    """A 60x60 map with 60 combatants stays within MAX_PX a side and far under 8 MiB."""
    cells = [cell_name((c, r)) for r in range(60) for c in range(60)]
    people = [
        Combatant(name=f"Soldier {i}", side=f"side {i % 6}", position=cells[61 * i])
        for i in range(60)
    ]
    enc = _enc(
        kind, 60, 60, people, blocked=cells[1::37], terrain={c: "rough" for c in cells[2::41]}
    )
    data = render_map(enc)
    img = Image.open(io.BytesIO(data))
    assert max(img.size) <= MAX_PX
    assert len(data) < 2 * 1024 * 1024


def test_no_map_raises_value_error() -> None:
    """An encounter without a map cannot be drawn."""
    with pytest.raises(ValueError):
        render_map(_enc("none", 0, 0))


def test_initials_and_labels() -> None:
    """Tokens show initials of two words or two letters, kept distinct within an encounter."""
    assert [initials(n) for n in ("Grak the Bold", "Borin", "Goblin 12", "É", "@@")] == [
        "GT",
        "Bo",
        "G12",
        "E",
        "@@",
    ]
    enc = _enc(combatants=[Combatant(name=n, side="dwarves") for n in ("Borin", "Bofur", "Bob")])
    assert labels(enc) == {"Borin": "Bo", "Bofur": "Bf", "Bob": "Bb"}
