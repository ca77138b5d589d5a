"""Tests for the `/map` picture (bot.maps)."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any, cast

import pytest
from PIL import Image

from bot.maps.image import MAX_PX, cell_centre_px, layout, render_map
from bot.maps.key import PALETTE, initials, labels, side_colours
from bot.maps.style import BOARD, CURRENT_RING, DOWNED, TERRAIN_STYLES, WALL
from rules.geometry import Cell, cell_name
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
    state = MapState(kind=kind, width=width, height=height, **map_kw)
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
    return img.getpixel(cell_centre_px(enc, cell, CELL))


def _disc_colour(img: Image.Image, enc: Encounter, cell: str) -> tuple[int, int, int]:
    """The commonest colour in a box well inside the token at ``cell`` (its initials and any
    cross cover the very centre)."""
    x, y = cell_centre_px(enc, cell, CELL)
    h = int(CELL * 0.2)
    colours = img.crop((x - h, y - h, x + h + 1, y + h + 1)).getcolors(4096) or []
    return max(colours)[1]


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
    enc = _enc(terrain={f"{'BCDEFGHIJK'[i]}2": kind for i, kind in enumerate(kinds)})
    img = _image(enc)
    fills = [_disc_colour(img, enc, f"{'BCDEFGHIJK'[i]}2") for i in range(len(kinds))]
    assert fills == [TERRAIN_STYLES[k].fill for k in kinds]
    assert len(set(fills)) == len(kinds)


def test_every_terrain_kind_has_its_own_style() -> None:
    """Each kind `/encounter terrain` marks (walls aside) is drawn with its own fill, hatch and legend swatch."""
    from rules.models import TERRAIN_KINDS

    assert set(TERRAIN_STYLES) == set(TERRAIN_KINDS) - {"clear", "wall"}
    assert len({(s.fill, s.pattern) for s in TERRAIN_STYLES.values()}) == len(TERRAIN_STYLES)


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
    assert set(colours) == {"dwarves", "orcs"} and colours["dwarves"] != colours["orcs"]
    assert set(colours.values()) <= set(PALETTE)
    assert _disc_colour(img, enc, "C4") == colours["dwarves"]
    assert _disc_colour(img, enc, "F4") == colours["orcs"]


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
    assert _disc_colour(img, enc, "D3") == side_colours(enc)["elves"]


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
        "É",
        "@@",
    ]
    enc = _enc(combatants=[Combatant(name=n, side="dwarves") for n in ("Borin", "Bofur", "Bob")])
    assert labels(enc) == {"Borin": "Bo", "Bofur": "Bf", "Bob": "Bb"}


# -- the bundled font ----------------------------------------------------------------------
UNASSIGNED = "\u0378"  # no character: every font draws its missing-glyph box for it


def _glyph(text: str) -> bytes:
    """The bitmap the map's font draws for ``text``."""
    from bot.maps.key import font

    mask = font(40).getmask(text)
    return bytes(mask) + repr(mask.size).encode()


@pytest.mark.parametrize("text", ["Æ", "g", "ï", "Ω", "Ж", "中", "文", "か", "한"])
def test_font_draws_every_script(text: str) -> None:
    """Latin, Greek, Cyrillic, CJK, kana and hangul letters are real glyphs, not the missing box."""
    assert _glyph(text) != _glyph(UNASSIGNED)
    assert any(_glyph(text))


def test_font_is_loaded_from_the_package() -> None:
    """The map's font is the file shipped inside the bot package, with its licence beside it."""
    from pathlib import Path

    import bot
    from bot.maps.key import FONT_FILE
    from bot.maps.key import font as _font

    package = Path(bot.__file__).parent
    assert Path(FONT_FILE).parent == package / "fonts"
    assert Path(_font(20).path) == Path(FONT_FILE)
    assert (package / "fonts" / "LICENSE-Apache-2.0.txt").is_file()


def test_unicode_names_render_on_the_map() -> None:
    """Ægir and 中文 get their own letters on their tokens and in the legend."""
    from bot.maps.key import initials

    assert initials("Ægir") == "Æg"
    assert initials("中文") == "中"
    enc = _enc(
        combatants=[
            Combatant(name="Ægir", side="heroes", position="C4"),
            Combatant(name="中文", side="foes", position="F4"),
        ]
    )
    assert labels(enc) == {"Ægir": "Æg", "中文": "中"}
    assert _image(enc).size == layout(enc, CELL).size


def test_font_files_are_declared_package_data() -> None:
    """`pip install .` ships the font and its licence: pyproject.toml declares them as package data."""
    import fnmatch
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    declared = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["bot"]
    shipped = [p.relative_to(root / "bot").as_posix() for p in (root / "bot" / "fonts").iterdir()]
    assert {"fonts/WenQuanYiMicroHei.ttf", "fonts/LICENSE-Apache-2.0.txt"} <= set(shipped)
    assert all(any(fnmatch.fnmatch(f, pattern) for pattern in declared) for f in shipped)


# -- telling combatants and sides apart ----------------------------------------------------
def test_copies_get_distinct_labels() -> None:
    """Goblin 1..Goblin 5 read G1..G5, and a full encounter of 100 gets 100 different labels."""
    goblins = _enc(combatants=[Combatant(name=f"Goblin {i}", side="foes") for i in range(1, 6)])
    assert list(labels(goblins).values()) == ["G1", "G2", "G3", "G4", "G5"]
    names = [f"Goblin Archer {i}" for i in range(1, 21)] + [f"Bo{'r' * i}in" for i in range(30)] + [f"Dwarf{i}" for i in range(10)]
    names += [f"Borin {i}" for i in range(20)] + [f"Grak {chr(65 + i)}" for i in range(20)]
    crowd = _enc(combatants=[Combatant(name=n, side="foes") for n in names])
    assert len(set(labels(crowd).values())) == len(names) == 100


def _sides(order: list[str]) -> dict[str, tuple[int, int, int]]:
    return side_colours(_enc(combatants=[Combatant(name=f"{s} one", side=s) for s in order]))


def test_side_colours_come_from_the_names_alone() -> None:
    """The same sides get the same colours whatever order they joined in, all different."""
    sides = ["orcs", "dwarves", "elves", "trolls", "heroes", "foes"]
    first, second = _sides(sides), _sides(list(reversed(sides)))
    assert first == second
    assert len(set(first.values())) == len(sides)
    assert (first["heroes"], first["foes"]) == (PALETTE[0], PALETTE[1])
    assert len(set(_sides([f"side {i}" for i in range(len(PALETTE))]).values())) == len(PALETTE)


def test_side_colours_are_the_same_in_every_process() -> None:
    """Two processes with different string hash seeds give the sides the same colours."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "from bot.maps.key import side_colours; from rules.models import Combatant, Encounter; "
        "people = [Combatant(name=s + ' one', side=s) for s in ['orcs', 'dwarves', 'elves', 'goblins']]; "
        "print(sorted(side_colours(Encounter(system='test', combatants=people)).items()))"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
            stdout=subprocess.PIPE,
            text=True,
        )
        for seed in ("1", "2")
    ]
    runs = {p.communicate()[0] for p in procs}
    assert [p.returncode for p in procs] == [0, 0]
    assert len(runs) == 1
    assert str(sorted(_sides(["goblins", "elves", "dwarves", "orcs"]).items())) == runs.pop().strip()


# -- the trail, the shading, the edges -----------------------------------------------------
def test_trail_follows_the_last_move() -> None:
    """The last move's cells carry the trail in the mover's colour; without one they stay bare."""
    from bot.maps.style import shade
    from rules.models import LastMove

    people = [Combatant(name="Borin", side="dwarves", position="E2")]
    trail = LastMove(actor="Borin", path=["B2", "C2", "D2", "E2"])
    moved = _enc(combatants=people).model_copy(update={"last_move": trail})
    img = _image(moved)
    ink = shade(side_colours(moved)["dwarves"], 0.8)
    assert _pixel(img, moved, "C2") == ink and _pixel(img, moved, "D2") == ink
    assert _pixel(img, moved, "C3") == BOARD
    plain = _image(_enc(combatants=people))
    assert _pixel(plain, moved, "C2") == BOARD


def test_shaded_cells_are_tinted() -> None:
    """Cells a system shades take their kind's tint; the others keep the board colour."""
    from bot.maps.style import tinted
    from rules.geometry import parse_cell
    from rules.system import Highlight

    enc = _enc()
    shade = [Highlight(parse_cell("C3"), "arc"), Highlight(parse_cell("D3"), "threat"), Highlight(parse_cell("E3"), "odd")]
    img = Image.open(io.BytesIO(render_map(enc, cell_px=CELL, highlights=shade))).convert("RGB")
    tints = [_pixel(img, enc, c) for c in ("C3", "D3", "E3")]
    assert tints == [tinted(BOARD, "arc"), tinted(BOARD, "threat"), tinted(BOARD, "odd")]
    assert len(set(tints)) == 3 and BOARD not in tints
    assert _pixel(img, enc, "F3") == BOARD


def test_obstructed_and_marginal_hexes_take_their_own_tints() -> None:
    """War & Combat's zone legend: "M - marginal zones, X - obstructed hexes": the two kinds are shaded apart."""
    from bot.maps.style import tinted
    from rules.geometry import parse_cell
    from rules.system import Highlight

    enc = _enc()
    shade = [Highlight(parse_cell("C3"), "obstructed"), Highlight(parse_cell("D3"), "marginal")]
    img = Image.open(io.BytesIO(render_map(enc, cell_px=CELL, highlights=shade))).convert("RGB")
    assert _pixel(img, enc, "C3") == tinted(BOARD, "obstructed") != _pixel(img, enc, "D3") == tinted(BOARD, "marginal")


@pytest.mark.parametrize("room", ["both", "one", "none"])
def test_a_cell_shaded_twice_shows_both_tints(room: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell two kinds shade takes both tints, the second over the first, on walls too; whether
    the palette has room for tinted copies of the board's colours for both kinds, one or none."""
    from bot.maps import layer
    from bot.maps.style import tinted
    from rules.geometry import parse_cell
    from rules.system import Highlight

    enc = _enc(blocked=["E3"])
    shade = [Highlight(parse_cell(c), kind) for c in ("D3", "E3") for kind in ("arc", "threat")]
    base = layer.board(layout(enc, CELL, ["arc", "threat"]))
    one = 256 - len(base.palette) // 3 - len(base.inside)  # leaves room for one kind's copies
    monkeypatch.setattr(layer, "SPARE_COLOURS", {"both": 64, "one": one, "none": 256}[room])
    img = Image.open(io.BytesIO(render_map(enc, cell_px=CELL, highlights=shade))).convert("RGB")
    assert _pixel(img, enc, "D3") == tinted(tinted(BOARD, "arc"), "threat")
    assert _pixel(img, enc, "E3") == tinted(tinted(WALL, "arc"), "threat")


def test_heights_stay_readable_on_shaded_cells() -> None:
    """A height is written over the shading as on a bare cell: the same ink, on a halo of the
    cell's own colour (not tinted)."""
    from rules.geometry import parse_cell
    from rules.system import Highlight

    enc = _enc(heights={"C3": 30})
    x, y = cell_centre_px(enc, "C3", CELL)

    def corner(highlights: list[Highlight]) -> set[tuple[int, int, int]]:
        img = Image.open(io.BytesIO(render_map(enc, cell_px=CELL, highlights=highlights))).convert("RGB")
        return {c for _, c in img.crop((x - CELL // 2, y - CELL // 2, x, y - CELL // 4)).getcolors(1 << 16) or []}

    bare, shaded = corner([]), corner([Highlight(parse_cell("C3"), "danger")])
    assert min(shaded, key=sum) == min(bare, key=sum)
    assert BOARD in shaded


# -- the boards each process keeps ---------------------------------------------------------
def test_a_changed_board_is_drawn_anew() -> None:
    """The board a process keeps is never shown for a map since changed: a wall, terrain or a
    height added shows; the map as it was draws the same picture as the first time."""
    people = [Combatant(name="Borin", side="dwarves", position="C4")]
    bare = _enc(combatants=people)
    first = render_map(bare, cell_px=CELL)
    walled = _enc(combatants=people, blocked=["F6"])
    assert _pixel(_image(walled), walled, "F6") == WALL
    rough = _enc(combatants=people, terrain={"F6": "rough"})
    assert _disc_colour(_image(rough), rough, "F6") == TERRAIN_STYLES["rough"].fill
    high = _enc(combatants=people, heights={"F6": 10})
    x, y = cell_centre_px(high, "F6", CELL)

    def inked(enc: Encounter) -> bool:  # the cell's top-left quarter, where its height is written
        corner = _image(enc).crop((x - CELL // 2 + 2, y - CELL // 2 + 2, x, y))
        return any(sum(c) < 3 * 160 for _, c in corner.getcolors(1 << 16) or [])

    assert inked(high) and not inked(bare)
    assert render_map(bare, cell_px=CELL) == first


def test_two_boards_in_one_process_each_keep_their_own() -> None:
    """Pictures of two encounters on different boards, drawn in turns, each show their own walls."""
    one, two = _enc(blocked=["D4"]), _enc(blocked=["H7"])
    for _ in range(2):
        a, b = _image(one), _image(two)
        assert (_pixel(a, one, "D4"), _pixel(a, one, "H7")) == (WALL, BOARD)
        assert (_pixel(b, two, "D4"), _pixel(b, two, "H7")) == (BOARD, WALL)


def test_boards_are_kept_packed_and_unpacked_for_the_last_drawn_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept board takes a small part of its pixels' bytes; with room to unpack only one board,
    pictures of two boards drawn in turns come out as when each is drawn afresh."""
    from bot.maps import layer

    one, two = _enc(blocked=["D4"], heights={"E5": 10}), _enc(blocked=["H7"])
    fresh = []
    for enc in (one, two):
        monkeypatch.setattr(layer, "_boards", type(layer._boards)())
        fresh.append(render_map(enc, cell_px=CELL))
        [kept] = layer._boards.values()
        assert kept.nbytes * 20 < layer._pixels(kept)  # what it takes unpacked
    monkeypatch.setattr(layer, "UNPACKED_BYTES", 1)
    monkeypatch.setattr(layer, "_unpacked", type(layer._unpacked)())
    for _ in range(2):
        assert [render_map(one, cell_px=CELL), render_map(two, cell_px=CELL)] == fresh
        assert len(layer._unpacked) == 1


def test_forgetting_the_boards_leaves_nothing_of_them_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """`forget_boards` is "as in a new process": no board, no board's unpacked pixels and nothing its
    pictures kept are left (the benchmark's first pictures start from the boards forgotten), and
    the next picture is the same as the first."""
    from bot.maps import layer

    for name in ("_boards", "_unpacked"):
        monkeypatch.setattr(layer, name, type(getattr(layer, name))())
    monkeypatch.setattr(layer, "_keeps", {})
    one, two = _enc(blocked=["D4"], heights={"E5": 10}), _enc(blocked=["H7"])
    first = [render_map(enc, cell_px=CELL) for enc in (one, two)]
    assert layer._boards and layer._unpacked and layer._keeps
    layer.forget_boards()
    assert (len(layer._boards), len(layer._unpacked), len(layer._keeps)) == (0, 0, 0)
    assert [render_map(enc, cell_px=CELL) for enc in (one, two)] == first


def test_a_square_board_without_shades_takes_its_layouts_margins(monkeypatch: pytest.MonkeyPatch) -> None:
    """A square board with walls but no terrain or height is drawn as palette indices alone, its
    margins (the coordinates) cut once for its layout and kept: a board of the same size with other
    walls uses them, and the pictures are those of the board drawn whole in RGB and cut."""
    from PIL import ImageDraw

    from bot.maps import layer
    from bot.maps.style import BACKGROUND

    people = [Combatant(name="Borin", side="dwarves", position="C4")]
    walled = [_enc(combatants=people, blocked=["D4", "D5", "E5"]), _enc(combatants=people, blocked=["H2"]),
              _enc(width=30, height=20, combatants=people, blocked=["A1", "AD20"])]
    monkeypatch.setattr(layer, "_boards", type(layer._boards)())
    monkeypatch.setattr(layer, "_cuts", type(layer._cuts)())
    kept = [_image(enc).tobytes() for enc in walled]
    assert len(layer._cuts) == 2  # two layouts: 12x10 twice, 30x20

    def whole(lay: layer.Layout, boxes: list[layer.Box]) -> object:
        img = Image.new("RGB", (lay.size[0], lay.legend_top + 1), BACKGROUND)
        layer._draw_board(img, ImageDraw.Draw(img), lay)  # its cells, walls and lines too
        return layer._cut(img, boxes)

    monkeypatch.setattr(layer, "_margins", whole)
    monkeypatch.setattr(layer, "_boards", type(layer._boards)())
    assert [_image(enc).tobytes() for enc in walled] == kept


def test_a_layouts_kept_margins_are_each_boxs_part_and_the_palette_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """What is kept of a layout's margins is each margin box's part (P, the box's size), as a board
    pastes it, and the palette up to its last entry used: a board of that layout pastes them, with
    nothing cut apart or measured again."""
    from bot.maps import layer

    monkeypatch.setattr(layer, "_boards", type(layer._boards)())
    monkeypatch.setattr(layer, "_cuts", type(layer._cuts)())
    enc = _enc(combatants=[Combatant(name="Borin", side="dwarves", position="C4")], blocked=["D4"])
    _image(enc)
    [cut] = layer._cuts.values()
    assert cut is not None
    parts, palette = cut
    key = cast(tuple[Any, ...], next(iter(layer._cuts)))  # the layout's figures, its boxes last
    assert [(p.mode, p.size) for p in parts] == [("P", (x1 - x0, y1 - y0)) for x0, y0, x1, y1 in key[-1]]
    used = max(int(p.getextrema()[1]) for p in parts)  # type: ignore[arg-type]  # one band: a number
    assert len(palette) == 3 * max(len(layer._FLAT), used + 1)


def test_a_board_without_shades_is_drawn_again_not_packed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A square board with walls alone is kept without its pixels and drawn again when its
    picture needs it, the same; a board with terrain is packed."""
    from bot.maps import layer

    people = [Combatant(name="Borin", side="dwarves", position="C4")]
    walled, rough = _enc(combatants=people, blocked=["D4", "E4"]), _enc(combatants=people, terrain={"F6": "rough"})
    monkeypatch.setattr(layer, "_boards", type(layer._boards)())
    first = [render_map(enc, cell_px=CELL) for enc in (walled, rough)]
    kept = list(layer._boards.values())
    assert [b.redraw is not None for b in kept] == [True, False]
    assert kept[0].packed == (b"", None, None) and kept[0].nbytes < len(kept[1].packed[0]) < 20_000
    monkeypatch.setattr(layer, "_unpacked", type(layer._unpacked)())
    monkeypatch.setattr(layer, "_keeps", {})
    assert [render_map(enc, cell_px=CELL) for enc in (walled, rough)] == first
    assert list(layer._boards.values()) == kept


def test_kept_boards_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process keeps boards up to CACHE_BYTES (at least the last one), the least recently used
    dropped first; a board dropped is drawn again the same."""
    from bot.maps import layer

    monkeypatch.setattr(layer, "_boards", type(layer._boards)())
    monkeypatch.setattr(layer, "CACHE_BYTES", 1)
    first = render_map(_enc(blocked=["A1"]), cell_px=CELL)
    for cell in ("B1", "C1", "D1"):
        render_map(_enc(blocked=[cell]), cell_px=CELL)
        assert len(layer._boards) == 1
    # room for three boards, not four: their packed sizes differ by a few per cent
    monkeypatch.setattr(layer, "CACHE_BYTES", int(3.5 * next(iter(layer._boards.values())).nbytes))
    for cell in ("E1", "F1", "G1", "H1"):
        render_map(_enc(blocked=[cell]), cell_px=CELL)
    assert len(layer._boards) == 3
    assert sum(b.nbytes for b in layer._boards.values()) <= layer.CACHE_BYTES
    assert render_map(_enc(blocked=["A1"]), cell_px=CELL) == first


@pytest.mark.parametrize("kind", ["square", "hex"])
def test_coordinates_on_all_four_edges(kind: str) -> None:
    """Column letters above and below the board, row numbers left and right of it."""
    enc = _enc(kind, 6, 5)
    img = _image(enc)
    lay = layout(enc, CELL)
    (ax, ay), (fx, _) = cell_centre_px(enc, "A1", CELL), cell_centre_px(enc, "F1", CELL)
    _, by = cell_centre_px(enc, "A5", CELL)
    h = CELL // 2

    def inked(box: tuple[int, int, int, int]) -> bool:
        return any(sum(c) < 3 * 160 for _, c in img.crop(box).getcolors(1 << 16) or [])

    assert inked((ax - h, 0, ax + h, ay - h))  # "A" above
    assert inked((ax - h, by + h + 1, ax + h, lay.legend_top - 2))  # "A" below
    assert inked((0, ay - h // 2, ax - h - 2, ay + h // 2))  # "1" on the left
    assert inked((fx + h + 2, ay - h // 2, img.width - 1, ay + h // 2 + CELL // 2))  # "1" on the right


# -- hexes -----------------------------------------------------------------------------------
def test_hex_centres_follow_the_geometry() -> None:
    """Each hex neighbour the rules name (N NE SE S SW NW) is drawn one hex away in that direction."""
    import math

    from rules.geometry import parse_cell
    from rules.geometry.hex import HEX_FACINGS

    enc = _enc("hex", 8, 8)
    grid = enc.grid()
    assert grid is not None
    for start in ("C3", "D4"):
        x0, y0 = layout(enc, CELL).centre(parse_cell(start))
        for i, direction in enumerate(HEX_FACINGS):
            step = grid.step(parse_cell(start), direction)
            assert step is not None
            x1, y1 = layout(enc, CELL).centre(step)
            assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(CELL, abs=0.01)
            bearing = math.degrees(math.atan2(x1 - x0, y0 - y1)) % 360
            assert bearing == pytest.approx(60 * i, abs=0.01)


@pytest.mark.parametrize("width, height, cell", [(12, 10, 48), (9, 7, 24), (40, 40, 13), (1, 8, 31), (2, 6, 12), (5, 5, 48)])
def test_a_hex_boards_map_drawn_in_bands_is_every_cell_drawn(width: int, height: int, cell: int,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A hex board's cells and grid lines drawn for its first three and last two rows of cells, the
    band of pixels of the second row standing for those below, are every pixel of all its cells
    drawn, and so is each part of it (the pixels of a box) and the map reduced."""
    from PIL import ImageDraw

    from bot.maps import layer

    big = layout(_enc("hex", width, height), cell).scaled(layer.SS)
    size = (big.size[0], big.legend_top + layer.SS)
    drawn: list[int] = []
    draw_cells = layer._draw_cells

    def counted(draw: ImageDraw.ImageDraw, lay: layer.Layout, fill: Any, hexes: Any = None) -> None:
        drawn.append(width * height if hexes is None else len(hexes))
        draw_cells(draw, lay, fill, hexes)

    monkeypatch.setattr(layer, "_draw_cells", counted)
    banded = layer._hex_map(big, size).whole()
    assert drawn == ([3 * width, 2 * width] if height > 5 else [width * height])
    whole = Image.new("L", size, layer._OFF)
    draw = ImageDraw.Draw(whole)
    draw_cells(draw, big, layer._IN)
    layer._draw_lines(draw, big, layer._ON, layer._ON)
    assert banded.tobytes() == whole.tobytes()
    assert banded.getcolors() == whole.getcolors()  # cells, lines and ground all there
    kept = layer._hex_map(big, size)
    for box in [(0, 0, 40, 60), (10, size[1] // 3, size[0] - 7, size[1] - 5), (3, size[1] - 41, 90, size[1])]:
        assert kept.crop(box).tobytes() == whole.crop(box).tobytes()
    lut = list(range(256))
    assert kept.reduced(lut).tobytes() == whole.reduce(layer.SS).tobytes()


def test_a_hex_board_drawn_without_its_map_is_drawn_from_one() -> None:
    """A hex board (walls, terrain) drawn on a blank image is the board drawn on its map's colours."""
    from PIL import ImageDraw

    from bot.maps import layer
    from bot.maps.style import BACKGROUND

    enc = _enc("hex", 9, 8, blocked=["C3", "C4", "A1", "I8"], terrain={"E5": "water", "B2": "rough"})
    big = layout(enc, 24).scaled(layer.SS)
    size = (big.size[0], big.legend_top + layer.SS)
    blank = Image.new("RGB", size, BACKGROUND)
    layer._draw_board(blank, ImageDraw.Draw(blank), big)
    hexes = layer._hex_map(big, size).whole()
    coloured = layer._hex_rgb(hexes)
    layer._draw_board(coloured, ImageDraw.Draw(coloured), big, hexes=hexes)
    assert blank.tobytes() == coloured.tobytes()
    assert WALL in {c for _, c in blank.getcolors(1 << 16) or []}


HEX_BOARDS = [
    (12, 10, 48, {"blocked": ["C3", "C4", "C5", "D5", "A1", "L10", "L9", "F1"]}),
    (9, 8, 24, {"blocked": ["C3", "C4", "I8", "A8"], "terrain": {"E5": "water", "B2": "rough", "C2": "mud", "D3": "difficult"}}),
    (40, 40, 13, {"blocked": [f"{cell_name((c, r))}" for c in range(3, 30, 4) for r in range(40) if r % 9]}),
    (1, 1, 64, {}),
    (3, 2, 20, {"terrain": {"A1": "water", "C2": "rough"}, "blocked": ["B1"]}),
]


def _hex_drawn_whole(lay: Any) -> tuple[bytes, bytes]:
    """The pixels of the hex board of ``lay`` (with its rule) drawn whole at ``SS`` in RGB and
    reduced, and of its interior (255 inside the cells, 0 on the lines, over half)."""
    from PIL import ImageDraw

    from bot.maps import layer
    from bot.maps.style import BACKGROUND, GRID_LINE

    k, big = layer.SS, lay.scaled(layer.SS)
    whole = Image.new("RGB", (big.size[0], (lay.legend_top + 1) * k), BACKGROUND)
    draw = ImageDraw.Draw(whole)
    layer._draw_board(whole, draw, big)
    draw.line([(layer.PAD * k, big.legend_top), (whole.width - layer.PAD * k, big.legend_top)], fill=GRID_LINE, width=k)
    interior = Image.new("L", whole.size)
    layer._draw_cells(ImageDraw.Draw(interior), big, 255)
    layer._draw_lines(ImageDraw.Draw(interior), big, 0, 0)
    return whole.reduce(k).tobytes(), interior.reduce(k).point(layer._HALF).tobytes()


@pytest.mark.parametrize("width, height, cell, map_kw", HEX_BOARDS)
def test_a_hex_board_drawn_in_its_boxes_is_the_board_drawn_whole(width: int, height: int, cell: int, map_kw: dict[str, Any],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A hex board without heights, drawn as its map reduced and, in RGB at twice its size, only the
    boxes of its walls, terrain, coordinates and rule, is every pixel of the board drawn whole at
    twice its size and reduced, and so is its interior."""
    from bot.maps import layer

    monkeypatch.setattr(layer, "_hex_cuts", type(layer._hex_cuts)())
    lay = layout(_enc("hex", width, height, **map_kw), cell)
    image, inner = layer._hex_layer(lay)
    assert (image.tobytes(), inner.whole().tobytes()) == _hex_drawn_whole(lay)
    assert WALL in {c for _, c in image.getcolors(1 << 16) or []} or not map_kw.get("blocked")


def test_a_hex_board_takes_its_layouts_margins(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hex board's margins (its coordinates and the rule) are drawn once for its layout and kept:
    a board of the same size with other walls and terrain takes them, and its pixels are those of
    the board drawn whole; a board of another size draws its own."""
    from bot.maps import layer

    monkeypatch.setattr(layer, "_hex_cuts", type(layer._hex_cuts)())
    drawn: list[int] = []
    margins = layer._hex_margins

    def counted(lay: layer.Layout, size: tuple[int, int]) -> Any:
        drawn.append(lay.grid.width)
        return margins(lay, size)

    monkeypatch.setattr(layer, "_hex_margins", counted)
    boards = [_enc("hex", 12, 10, blocked=["A1", "L10", "F5"]), _enc("hex", 12, 10, blocked=["C3"], terrain={"A10": "water"}),
              _enc("hex", 11, 10, blocked=["C3"])]
    for enc in boards:
        lay = layout(enc, CELL)
        image, inner = layer._hex_layer(lay)
        assert (image.tobytes(), inner.whole().tobytes()) == _hex_drawn_whole(lay)
    assert drawn == [12, 11]
    assert len(layer._hex_cuts) == 2


def test_a_hex_boards_interior_is_kept_in_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hex board keeps its interior as its map's parts reduced, each packed, and unpacks them
    where it is unpacked: a fraction of its pixels, counted with the board, each box of them that
    of the interior drawn whole."""
    from bot.maps import layer

    monkeypatch.setattr(layer, "_boards", type(layer._boards)())
    monkeypatch.setattr(layer, "_unpacked", type(layer._unpacked)())
    lay = layout(_enc("hex", 20, 24, blocked=["C3", "D4"]), 24)
    board = layer.board(lay)
    assert board.packed[1] is None and isinstance(board.lines, layer._PackedMap)
    assert board.lines.pixels < board.size[0] * board.size[1] // 3
    assert board.nbytes == len(board.packed[0]) + board.lines.nbytes
    assert layer._pixels(board) == board.size[0] * board.size[1] + board.lines.pixels
    whole = Image.frombytes("L", board.size, _hex_drawn_whole(lay)[1][: board.size[0] * board.size[1]])
    boxes = [(0, 0, 50, 50), (30, 100, 200, 400), (5, board.size[1] - 90, board.size[0], board.size[1])]
    for unpacked in (True, False):
        if not unpacked:
            layer._unpacked.clear()
        for box in boxes:
            assert board.inner(box).tobytes() == whole.crop(box).tobytes()


@pytest.mark.parametrize("facing", ["N", "NE", "SE", "S", "SW", "NW"])
def test_hex_facing_marks_that_edge(facing: str) -> None:
    """A hex token's facing is a mark on the middle of the edge it faces, and on no other edge."""
    import math

    from bot.maps.style import shade
    from rules.geometry.hex import HEX_FACINGS

    enc = _enc("hex", 8, 8, [Combatant(name="Elf", side="elves", position="D4", facing=facing)])
    img = _image(enc)
    cx, cy = layout(enc, CELL).centre(Cell(3, 3))
    edge = shade(side_colours(enc)["elves"])
    marked = []
    for i, d in enumerate(HEX_FACINGS):
        t = math.radians(60 * i)
        for along in (-0.12, 0.12):  # beside the middle, clear of the arrow's tip
            x = cx + CELL * 0.48 * math.sin(t) + CELL * along * math.cos(t)
            y = cy - CELL * 0.48 * math.cos(t) + CELL * along * math.sin(t)
            if img.getpixel((math.floor(x), math.floor(y))) == edge:
                marked.append(d)
    assert set(marked) == {facing}


# -- /map off the event loop, from a snapshot ------------------------------------------------
async def _big_fight(h):
    """A 100x100 map with 100 combatants (about 0.5 s to draw)."""
    from bot.offline.harness import channel_id_of
    from tests.cogs.fights import GRAK

    await h.run("gm", "/encounter start", system="coup-de-grace", name="Big", map="100x100")
    for row in range(1, 6):
        await h.run("gm", "/combatant add", name=f"Orc{row}", count=20, at=f"A{row * 10}:T{row * 10}", sheet=GRAK, side=f"s{row}")
    live = await h.bot.service.encounter(str(channel_id_of("general")))
    assert live is not None and len(live.combatants) == 100
    return live


def _fresh_picture(enc):
    """``enc``'s PNG as a new process draws it: a picture after others of its board reuses the board's last
    palette (docs/development.md: its small colour error accepted for speed), so a worker's picture is compared
    with the main process's drawn afresh."""
    import bot.maps.image
    import bot.maps.layer
    from rules.registry import get_system

    bot.maps.layer.forget_boards()
    return bot.maps.image.map_picture(get_system(enc.system), enc)[0]


async def test_map_is_drawn_in_another_process_while_the_loop_runs(h) -> None:
    """/map on a 100x100 map with 100 combatants is drawn by a worker process (MAP_WORKERS, by
    default 2 or one per core) while the event loop keeps ticking, and the picture is the encounter's."""
    import asyncio
    import os

    from bot.maps.worker import DEFAULT_WORKERS

    live = await _big_fight(h)
    ticks = 0
    command = asyncio.create_task(h.run("bob", "/map"))
    while not command.done():  # the monitor: it runs only when the loop is free
        ticks += 1
        await asyncio.sleep(0.001)
    sent = command.result()
    assert ticks > 5
    assert h.bot.service.maps.workers == DEFAULT_WORKERS >= 1
    assert h.bot.service.maps.drawn_by not in (None, os.getpid())
    png = [f for s in sent for f in s.files][0][1]
    assert png == _fresh_picture(live)


@pytest.mark.parametrize("workers", [0, 1])
async def test_a_picture_is_drawn_from_the_json_in_a_thread_or_a_process(h, workers) -> None:
    """The renderer draws the encounter its JSON gives, exactly as `map_picture` does; with
    MAP_WORKERS=0 a thread of the bot's own process draws it, else a worker process."""
    import os

    import bot.maps.image
    import bot.maps.layer
    from bot.maps.worker import MapRenderer
    from rules.registry import get_system

    live = await _big_fight(h)
    moved = live.model_copy(deep=True)
    moved.combatants[0].position = "C2"
    bot.maps.image.map_picture(get_system("coup-de-grace"), moved)  # the main process drew the board before
    bot.maps.layer.forget_boards()  # as a new worker has drawn nothing
    renderer = MapRenderer(workers)
    try:
        png, lines = await renderer.picture("coup-de-grace", live.model_dump_json())
    finally:
        renderer.close()
    assert (renderer.drawn_by == os.getpid()) is (workers == 0)
    assert (renderer.worker_cpu > 0) is (workers > 0)  # a worker's drawing is counted apart
    assert png == _fresh_picture(live)
    assert any("Orc1" in line for line in lines)


async def test_a_dead_map_worker_is_replaced() -> None:
    """When a worker process dies, that picture is drawn in a thread and the next one by a new worker."""
    import os

    from bot.maps.worker import MapRenderer
    from rules.models import Encounter, MapState

    enc = Encounter(system="coup-de-grace", map=MapState(kind="square", width=4, height=3))
    renderer = MapRenderer(1)
    try:
        await renderer.start()
        [pid] = renderer.pids()
        os.kill(pid, 9)
        png, _ = await renderer.picture("coup-de-grace", enc.model_dump_json())
        assert png.startswith(b"\x89PNG") and renderer.drawn_by == os.getpid()
        enc.map.width = 5  # another picture (the same one would come from the cache)
        png, _ = await renderer.picture("coup-de-grace", enc.model_dump_json())
        assert png.startswith(b"\x89PNG") and renderer.drawn_by not in (os.getpid(), pid)
        assert renderer.pids() == [renderer.drawn_by]
    finally:
        renderer.close()


async def test_map_reply_says_what_the_picture_shows(h) -> None:
    """/map's text names the board, each side's colour, who stands where, the trail and the shading."""
    from tests.cogs.fights import started_cdg

    await started_cdg(h)
    await h.run("bob", "/move", combatant="Borin", to="D3")
    sent = await h.run("bob", "/map")
    text = "\n".join(s.text for s in sent)
    assert "8x6 squares: columns A-H left to right, rows 1-6 top to bottom." in text
    assert "Borin [Bo] at D3, facing E, unhurt, acting now" in text
    assert "Grak [Gr] at F3, facing W" in text
    assert "Last move (trail): Borin C3 → D3" in text
    assert "Shaded: Borin's front arc" in text
    assert "dwarves (" in text and "orcs (" in text


async def test_effects_show_on_the_map(h) -> None:
    """Running effects are listed in /map's words, and the legend grows a row for them."""
    import io

    from PIL import Image

    from bot.maps.image import render_map
    from bot.offline.harness import channel_id_of
    from tests.cogs.fights import started_cdg

    await started_cdg(h)
    await h.run("bob", "/effect add", name="Bless", target="Borin", rounds="2")
    sent = await h.run("bob", "/map")
    assert "Effects: Bless on Borin (2 left)" in "\n".join(s.text for s in sent)
    enc = await h.bot.service.encounter(str(channel_id_of("general")))
    with_effect = render_map(enc)
    plain = render_map(enc.model_copy(update={"effects": []}))
    assert Image.open(io.BytesIO(with_effect)).height > Image.open(io.BytesIO(plain)).height


async def test_an_unchanged_map_is_not_drawn_again(h) -> None:
    """Two players looking at the same map between turns cost one drawing; a move draws anew,
    and the cached picture is the one drawn for that state."""
    from bot.maps.worker import MapRenderer
    from tests.cogs.fights import started_cdg

    await started_cdg(h)
    maps = h.bot.service.maps = MapRenderer(0)  # its own cache (the process's is shared by every test)
    first = await h.run("bob", "/map")
    drawn = maps.drawn
    again = await h.run("alice", "/map")
    assert maps.drawn == drawn
    assert [f for s in again for f in s.files] == [f for s in first for f in s.files]
    await h.run("bob", "/move", combatant="Borin", to="D3")
    moved = await h.run("bob", "/map")
    assert maps.drawn == drawn + 1
    assert [f for s in moved for f in s.files] != [f for s in first for f in s.files]


async def test_a_channels_pictures_are_drawn_by_one_worker() -> None:
    """Each channel's pictures go to one worker (the one that keeps its board), and the channels
    are shared between the workers."""
    from bot.maps.worker import MapRenderer
    from rules.models import Encounter, MapState

    enc = Encounter(system="coup-de-grace", map=MapState(kind="square", width=3, height=3))
    renderer = MapRenderer(2)
    by: dict[str, set[int | None]] = {}
    try:
        await renderer.start()
        for i, route in enumerate([f"channel-{n}" for n in range(6)] * 2):
            enc.map.width = 3 + i  # a new picture each time (an old one would come from the cache)
            await renderer.picture("coup-de-grace", enc.model_dump_json(), route=route)
            by.setdefault(route, set()).add(renderer.drawn_by)
    finally:
        renderer.close()
    assert all(len(drawn) == 1 for drawn in by.values())
    assert len(set().union(*by.values())) == 2


_KILLED_OWNER = """
import asyncio, os, signal, sys
from bot.maps.worker import MapRenderer

async def main():
    renderer = MapRenderer(2)
    await renderer.start()
    print(" ".join(str(p) for p in renderer.pids()), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # killed: no shutdown, no atexit

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_map_workers_end_when_the_bot_process_is_killed(tmp_path) -> None:
    """A bot process killed with -9 takes its drawing processes with it (a pool's workers wait
    on queues they hold both ends of, so on their own they would wait for ever)."""
    import os
    import subprocess
    import sys
    import time
    from pathlib import Path

    script = tmp_path / "owner.py"
    script.write_text(_KILLED_OWNER)
    root = Path(__file__).resolve().parents[2]
    # the workers share its stdout: read their ids, then wait for the process, not for the pipe
    owner = subprocess.Popen([sys.executable, str(script)], cwd=root, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(root)})
    assert owner.stdout is not None
    with owner.stdout:
        workers = [int(p) for p in owner.stdout.readline().split()]
        owner.wait(timeout=120)
    assert len(workers) == 2 and owner.returncode == -9

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return Path(f"/proc/{pid}/stat").exists() and Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"

    deadline = time.monotonic() + 30  # a liveness wait, not a measure: they go within a second
    while any(alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [p for p in workers if alive(p)]
    for p in left:  # leave nothing behind, whatever the outcome
        os.kill(p, 9)
    assert not left, f"map workers {left} outlived the bot's process"


async def test_map_workers_draw_at_a_lower_priority_than_the_bot() -> None:
    """Drawing yields the CPU to the bot's event loop: the workers run `WORKER_NICENESS` lower."""
    import os

    from bot.maps.worker import WORKER_NICENESS, MapRenderer

    renderer = MapRenderer(1)
    try:
        await renderer.start()
        theirs = await renderer.run(0, os.nice, 0)
    finally:
        renderer.close()
    assert theirs == min(19, os.nice(0) + WORKER_NICENESS)


# -- what a table reads at a glance: conditions, effects, whose activation, shading in words ---
def _token_box(enc: Encounter, cell: str) -> tuple[int, int, int, int]:
    x, y = cell_centre_px(enc, cell, CELL)
    return (x - CELL // 2 + 1, y - CELL // 2 + 1, x + CELL // 2, y + CELL // 2)


@pytest.mark.parametrize("word", ["unhurt", "hurt", "badly hurt"])
def test_a_tokens_bar_shows_its_condition_word(word: str) -> None:
    """The bar under a token is filled in its condition word's colour: green unhurt, amber hurt, red badly hurt."""
    from bot.maps.key import MapView
    from bot.maps.style import CONDITION_BARS

    enc = _enc(combatants=[Combatant(name="Borin", side="dwarves", position="C4")])
    view = MapView({"Borin": word})
    img = Image.open(io.BytesIO(render_map(enc, cell_px=CELL, view=view))).convert("RGB")
    x, y = cell_centre_px(enc, "C4", CELL)
    below = img.crop((x - CELL // 2 + 1, y + CELL // 4, x + CELL // 2, y + CELL // 2))
    colours = {c for _, c in below.getcolors(1 << 16) or []}
    assert CONDITION_BARS[word][0] in colours
    assert not {CONDITION_BARS[w][0] for w in CONDITION_BARS if w not in (word, "down")} - {CONDITION_BARS[word][0]} & colours
    plain = _image(enc).crop((x - CELL // 2 + 1, y + CELL // 4, x + CELL // 2, y + CELL // 2))
    assert CONDITION_BARS[word][0] not in {c for _, c in plain.getcolors(1 << 16) or []}


def test_a_hidden_combatant_shows_only_its_condition_band() -> None:
    """A GM's combatant at 6 or 9 of 10 HP (both `hurt`) draws the same picture; at 4 (`badly hurt`) another."""
    from bot.maps.image import map_picture
    from rules.registry import get_system

    system = get_system("knights-of-valour")

    def picture(hp: int) -> tuple[bytes, list[str]]:
        grak = Combatant(name="Grak", side="orcs", position="D4", hp=hp, sheet={"hp": 10})
        enc = _enc(combatants=[grak])
        assert enc.hidden(grak)
        return map_picture(system, enc)

    assert picture(6) == picture(9)
    assert picture(6)[0] != picture(4)[0]
    assert "Grak [Gr] at D4, badly hurt" in "\n".join(picture(4)[1])


def test_effects_on_a_combatant_are_small_marks_on_its_token() -> None:
    """A token with an effect on it wears a white mark on its top-right edge; another token none."""
    from rules.effects import Effect

    people = [Combatant(name="Borin", side="dwarves", position="C4"), Combatant(name="Grak", side="orcs", position="F4")]
    enc = _enc(combatants=people).model_copy(update={"effects": [Effect(id=1, name="Bless", target="Borin", left=2)]})
    img = _image(enc)
    r = CELL * 0.34 * 0.88  # just inside the disc's edge, where the mark's middle is

    def mark(cell: str) -> tuple[int, int, int]:
        x, y = cell_centre_px(enc, cell, CELL)
        return img.getpixel((round(x + r * 0.707), round(y - r * 0.707)))

    assert min(mark("C4")) > 240  # white (the PNG's palette may take the board's near-white for it)
    assert mark("F4") == side_colours(enc)["orcs"]  # the disc itself


async def test_the_side_to_activate_is_shown(h) -> None:
    """Between activations in Coup-De-Grace, /map names the side to activate and rings the minis that may."""
    import bot.maps.image
    from bot.offline.harness import channel_id_of
    from rules.registry import get_system
    from tests.cogs.fights import started_cdg

    await started_cdg(h)
    enc = await h.bot.service.encounter(str(channel_id_of("general")))
    turn = get_system("coup-de-grace").turn(enc)
    assert turn.current is None and turn.side == "dwarves"
    sent = await h.run("bob", "/map")
    text = "\n".join(s.text for s in sent)
    assert "dwarves (teal) (to activate now): Borin [Bo] at C3, facing E, unhurt, may act now" in text
    png, _ = bot.maps.image.map_picture(get_system("coup-de-grace"), enc)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    lay = layout(enc)
    x, y = lay.centre(Cell(2, 2))
    ring = img.crop((int(x) - 32, int(y) - 32, int(x) + 32, int(y) + 32))
    assert any(c == CURRENT_RING for _, c in ring.getcolors(1 << 16) or [])


def test_shading_is_explained_in_words() -> None:
    """Each shading names whose it is as a table says it: `threatened by Rolf`, `Rolf's front arc`."""
    from bot.maps.key import describe_map, shading_words
    from rules.system import Highlight

    assert shading_words("threat", "Rolf") == "threatened by Rolf"
    assert shading_words("danger", "Rolf") == "in danger from Rolf"
    assert shading_words("arc", "Rolf") == "Rolf's front arc"
    assert shading_words("reach", None) == "reach"
    enc = _enc(combatants=[Combatant(name="Rolf", side="heroes", position="C4")]).model_copy(update={"current": "Rolf"})
    lines = describe_map(enc, [Highlight(Cell(3, 3), "threat"), Highlight(Cell(3, 4), "threat")])
    assert "Shaded: threatened by Rolf, 2 cells" in lines


def test_the_legend_explains_the_tokens_marks() -> None:
    """With conditions, effects and someone acting, the legend grows a row that names each mark."""
    from bot.maps.key import MapView
    from rules.effects import Effect

    people = [Combatant(name="Borin", side="dwarves", position="C4")]
    enc = _enc(combatants=people)
    blessed = enc.model_copy(update={"effects": [Effect(id=1, name="Bless", target="Borin", left=2)]})
    plain = layout(enc, CELL).size[1]
    assert layout(enc, CELL, view=MapView({"Borin": "hurt"}, frozenset(["Borin"]))).size[1] == plain + 30
    assert layout(blessed, CELL).size[1] == plain + 2 * 30  # the marks' key, and the effects' words
