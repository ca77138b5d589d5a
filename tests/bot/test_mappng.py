"""Tests for the `/map` picture's PNG, written in bands kept from one picture to the next
(bot.maps.png, bot.maps.layer)."""

from __future__ import annotations

import io
import random
import zlib
from collections.abc import Iterator
from typing import Any, Literal

import pytest
from PIL import Image

from bot.maps import layer
from bot.maps import png as bands_png
from bot.maps.image import layout, render_map
from bot.maps.png import (
    BAND_BYTES,
    BAND_ROWS,
    Bands,
    adler32_combine,
    band_rows,
    palette_png,
)
from rules.geometry import parse_cell
from rules.models import Combatant, Encounter, MapState
from rules.system import Highlight

CELL = 48


def _enc(kind: Literal["square", "hex"] = "square", width: int = 12, height: int = 10, at: str = "C4", **map_kw: Any) -> Encounter:
    people = [
        Combatant(name="Borin", side="dwarves", position=at, facing="N"),
        Combatant(name="Grub", side="orcs", position="H8", status="downed"),
        Combatant(name="Ugg", side="orcs", position="B9"),
    ]
    state = MapState(kind=kind, width=width, height=height, **map_kw)
    return Encounter(system="test", name="Test fight", round=2, current="Borin", map=state, combatants=people)


class _Written:
    """Each PNG the pictures write, with the palette image it was written from."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: list[tuple[bytes, Image.Image, set[int]]] = []
        write = bands_png.palette_png

        def spy(size: tuple[int, int], pixels: bytes, palette: list[int], level: int, bands: Bands | None = None,
                drawn: Any = lambda n: True) -> bytes:
            png = write(size, pixels, palette, level, bands, drawn)
            image = Image.frombytes("P", size, pixels)
            image.putpalette(palette)
            rows = -(-size[1] // band_rows(size[0]))
            self.seen.append((png, image, {n for n in range(rows) if drawn(n)}))
            return png

        monkeypatch.setattr(layer, "palette_png", spy)

    def __iter__(self) -> Iterator[tuple[bytes, Image.Image, set[int]]]:
        return iter(self.seen)


def _pillows(image: Image.Image) -> Image.Image:
    """``image`` as Pillow's own PNG writer saves it, read back."""
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=layer.PNG_LEVEL)
    return Image.open(io.BytesIO(buf.getvalue()))


def _stream(png: bytes, image: Image.Image) -> None:
    """Check ``png`` byte by byte: each chunk's CRC, and its pixels' zlib stream (its Adler-32
    checked by zlib) holding ``image``'s rows, each after a filter byte of 0."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, kinds, data = 8, [], b""
    while at < len(png):
        n, kind = int.from_bytes(png[at : at + 4], "big"), png[at + 4 : at + 8]
        body = png[at + 8 : at + 8 + n]
        assert int.from_bytes(png[at + 8 + n : at + 12 + n], "big") == zlib.crc32(kind + body)
        kinds.append(kind)
        data += body if kind == b"IDAT" else b""
        at += 12 + n
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    width, pixels = image.width, image.tobytes()
    assert zlib.decompress(data) == b"".join(b"\0" + pixels[y : y + width] for y in range(0, len(pixels), width))


def test_adler32_combine_gives_the_checksum_of_the_bytes_joined() -> None:
    """The Adler-32 of two byte strings joined, from each one's: as zlib.adler32 of the whole,
    for short, empty and long strings (past the checksum's modulus, 65,521)."""
    rnd = random.Random(7)
    for a, b in [(0, 0), (1, 0), (0, 5), (13, 65521), (70000, 3), (200_000, 131_042), (65520, 65522)]:
        one, two = rnd.randbytes(a), bytes([255]) * b if b % 2 else rnd.randbytes(b)
        assert adler32_combine(zlib.adler32(one), zlib.adler32(two), len(two)) == zlib.adler32(one + two)


@pytest.mark.parametrize(
    "enc, shade",
    [
        (_enc(blocked=["D4", "D5"], terrain={"F6": "rough"}, heights={"E5": 10}), ["C3", "D3"]),
        (_enc("hex", 9, 7, at="C3", blocked=["D4"], heights={"E5": 5}), ["C2"]),
        (_enc(width=60, height=60, at="AB30", blocked=[f"J{r}" for r in range(1, 40)]), []),
        (_enc(width=3, height=2, at="A1"), []),
    ],
    ids=["square", "hex", "large", "tiny"],
)
def test_a_picture_written_in_bands_reads_as_pillows_own_save(
    enc: Encounter, shade: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each picture's PNG (its first, then after moves, its bands kept between them) reads back
    as the same pixels and palette as Pillow's own save of the same palette image."""
    written = _Written(monkeypatch)
    highlights = [Highlight(parse_cell(c), "arc") for c in shade]
    for cell in ("E2", "E3", "A1", "E3"):
        render_map(enc, cell_px=CELL, highlights=highlights)
        enc = enc.model_copy(update={"combatants": [enc.combatants[0].model_copy(update={"position": cell}),
                                                    *enc.combatants[1:]]})
    assert len(written.seen) == 4
    for png, image, _ in written:
        _stream(png, image)
        ours, pillows = Image.open(io.BytesIO(png)), _pillows(image)
        assert (ours.mode, ours.size) == (pillows.mode, pillows.size) == ("P", image.size)
        assert ours.tobytes() == pillows.tobytes() == image.tobytes()
        assert ours.getpalette() == pillows.getpalette()


def test_a_move_compresses_only_the_bands_it_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a token moves, the bands away from its two cells are the ones the picture before
    kept (the same bytes, not compressed again: what is drawn over the board keeps its palette
    entries); the bands of its two cells are new, and the picture reads as Pillow's save."""
    monkeypatch.setattr(layer, "_unpacked", type(layer._unpacked)())
    monkeypatch.setattr(layer, "_keeps", {})
    monkeypatch.setattr(bands_png, "BAND_BYTES", 0)  # bands of BAND_ROWS rows: a few a cell
    written = _Written(monkeypatch)
    before = _enc(at="C2")
    render_map(before, cell_px=CELL)
    [bands] = [keeps.bands for keeps in layer._keeps.values()]
    kept = {**bands.board, **bands.last}
    after = before.model_copy(update={"combatants": [before.combatants[0].model_copy(update={"position": "C6"}),
                                                     *before.combatants[1:]]})
    render_map(after, cell_px=CELL)
    now = {**bands.board, **bands.last}
    redone = {n for n in now if now[n] is not kept.get(n)}
    rows = [layout(before, CELL).centre(parse_cell(c))[1] for c in ("C2", "C6")]
    step = band_rows(layout(before, CELL).size[0])
    assert step == BAND_ROWS
    near = {n for y in rows for n in range(int(y - CELL) // step, int(y + CELL) // step + 1)}
    assert redone and redone <= near
    assert len(redone) < len(now) // 4
    png, image, _ = written.seen[-1]
    _stream(png, image)
    assert Image.open(io.BytesIO(png)).tobytes() == _pillows(image).tobytes()


def test_the_kept_bands_are_counted_as_they_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a board's kept bands take, counted as each band is kept, replaced or dropped (not
    summed again for every picture), is what they hold after pictures with tokens moved: their
    compressed bytes and the last picture's pixels."""
    monkeypatch.setattr(layer, "_keeps", {})
    for at in ("C4", "D5", "J2", "C4"):
        render_map(_enc(at=at), cell_px=CELL)
    [keeps] = layer._keeps.values()
    bands = keeps.bands
    held = sum(len(b.deflated) for kept in (bands.board, bands.last) for b in kept.values())
    assert bands.nbytes == held + len(bands.pixels) and held > 0 and len(bands.pixels) == keeps.last.size[0] * keeps.last.size[1]


def test_bands_are_kept_with_the_boards_kept_unpacked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board's kept bands are counted with it unpacked and dropped with it: with room to unpack
    one board, pictures of two boards in turns keep the bands of one, and come out as when each
    is drawn afresh."""
    one, two = _enc(blocked=["D4"]), _enc(blocked=["H7"])
    monkeypatch.setattr(layer, "_keeps", {})
    monkeypatch.setattr(layer, "_unpacked", type(layer._unpacked)())
    monkeypatch.setattr(layer, "UNPACKED_BYTES", 1)
    fresh = [render_map(enc, cell_px=CELL) for enc in (one, two)]
    [kept] = layer._keeps
    assert layer._keeps[kept].nbytes > 0
    assert kept.redraw is not None  # a square board without terrain or heights: no pixels of its own kept
    assert layer._pixels(kept) == layer._keeps[kept].nbytes
    for _ in range(2):
        assert [render_map(one, cell_px=CELL), render_map(two, cell_px=CELL)] == fresh
        assert list(layer._keeps) == list(layer._unpacked)


def test_a_board_drawn_again_keeps_no_pixels_and_draws_each_part_as_the_whole() -> None:
    """A square board without terrain or heights keeps no pixels of its own once its first picture
    took the pixels it was drawn with: any part of it asked again (within it or over its edges) is
    drawn again as the same pixels the whole board has there."""
    rng = random.Random(5)
    for cell in (17, 48, 64):
        enc = _enc(blocked=["D4", "E4", "E5", "A1", "L10"])
        render_map(enc, cell_px=cell)
        lay = layout(enc, cell)
        base = layer.board(lay)
        assert base.redraw is not None and not base.fresh
        assert layer._unpacked[base] == (None, None, None)
        whole = layer._square_layer(lay, None)[0]  # the whole board, drawn at once
        assert whole.size == base.size and base.index.tobytes() == whole.tobytes()
        for _ in range(60):
            x0, y0 = rng.randrange(-5, lay.size[0]), rng.randrange(-5, lay.size[1])
            box = (x0, y0, x0 + rng.randrange(1, 120), y0 + rng.randrange(1, 120))
            assert base.part(box).tobytes() == whole.crop(box).tobytes(), (cell, box)


def test_palette_entries_keep_their_places() -> None:
    """A picture's palette cut anew keeps each colour the last one had at its place, and every
    entry's colour: an index moved is moved with its colour."""
    before = [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    new = [3, 3, 3, 9, 9, 9, 1, 1, 1, 2, 2, 2]
    place, palette = layer._in_place(new, before)
    assert palette == [1, 1, 1, 2, 2, 2, 3, 3, 3, 9, 9, 9]
    assert all(palette[3 * place[i] : 3 * place[i] + 3] == new[3 * i : 3 * i + 3] for i in range(4))
    assert place[4:] == list(range(4, 256))
    assert layer._in_place(new, []) == (list(range(256)), new)


@pytest.mark.parametrize("width", [3, 440, 641, 832, 1732, 2000, 4000])
def test_a_band_holds_the_rows_its_bytes_take_within_zlibs_window(width: int) -> None:
    """A band holds as many rows (each with its filter byte) as ``BAND_BYTES`` take, ``BAND_ROWS``
    at least, and ``BAND_BYTES`` stay below the bytes after which zlib slides its window."""
    rows = band_rows(width)
    assert BAND_BYTES <= bands_png._WINDOW_SLIDES
    assert rows >= BAND_ROWS
    assert rows == BAND_ROWS or rows * (width + 1) <= BAND_BYTES < (rows + 1) * (width + 1)


def test_a_palette_png_without_kept_bands_compresses_every_band() -> None:
    """Written without bands to keep, a palette image reads back as written, palette included."""
    rnd = random.Random(3)
    size = (37, 3 * band_rows(37) + 5)
    pixels = bytes(rnd.randrange(4) for _ in range(size[0] * size[1]))
    palette = [rnd.randrange(256) for _ in range(12)]
    png = palette_png(size, pixels, palette, layer.PNG_LEVEL)
    img = Image.open(io.BytesIO(png))
    _stream(png, img)
    assert img.tobytes() == pixels and img.getpalette() == palette


@pytest.mark.parametrize("size, cell", [((12, 10), 48), ((7, 7), 33), ((5, 4), 48), ((13, 11), 33), ((3, 2), 64)])
def test_the_legend_drawn_on_its_strip_is_as_drawn_on_the_picture(size: tuple[int, int], cell: int) -> None:
    """The legend drawn on a strip of its own (to be kept) has the pixels it has drawn straight on
    the whole picture, on boards whose legend starts at an odd row and an even one."""
    from bot.maps import image
    from bot.maps.key import MapView
    from bot.maps.style import BACKGROUND

    enc = _enc(width=size[0], height=size[1], at="A1", terrain={"B1": "rough"}, blocked=["A2"])
    enc = enc.model_copy(update={"last_move": None})
    lay, ops = image._sized(enc, cell, ("arc",), MapView.of(enc))
    assert lay.legend_top % 2 == (0 if size in ((7, 7), (13, 11)) else 1)  # rows 278 and 410: even
    whole = Image.new("RGB", lay.size, BACKGROUND)
    for _, op in ops:
        op(whole, lay.legend_top * layer.SS)
    canvas = layer.Canvas(layer.board(lay), lay.size)
    image._draw_legend(canvas, lay, ops)
    box = (0, lay.legend_top + 1, *lay.size)
    assert canvas.legend is not None and canvas.legend.box == box
    assert canvas.legend.pixels(box).tobytes() == whole.crop(box).tobytes()
    # its items' boxes hold every pixel not of its ground: the rest of it is cut as the ground
    ground = Image.new("RGB", whole.size, BACKGROUND)
    for part in canvas.legend.parts:
        ground.paste(whole.crop(part), part[:2])
    assert ground.crop(box).tobytes() == whole.crop(box).tobytes()
    assert sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in canvas.legend.parts) < (box[2] - box[0]) * (box[3] - box[1]) / 2


def test_a_legend_is_kept_while_it_shows_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """A picture whose legend shows what the last one's did (a token moved on the board) uses
    the legend kept with the board; a new round draws it anew, and the picture shows it."""
    monkeypatch.setattr(layer, "_keeps", {})
    enc = _enc(at="C2")
    first = Image.open(io.BytesIO(render_map(enc, cell_px=CELL))).convert("RGB")
    [keeps] = layer._keeps.values()
    assert keeps.legend is not None
    pieces = keeps.legend[1]
    moved = enc.model_copy(update={"combatants": [enc.combatants[0].model_copy(update={"position": "C6"}),
                                                  *enc.combatants[1:]]})
    render_map(moved, cell_px=CELL)
    assert keeps.legend[1] is pieces
    later = Image.open(io.BytesIO(render_map(moved.model_copy(update={"round": 3}), cell_px=CELL))).convert("RGB")
    assert keeps.legend[1] is not pieces
    top = layout(enc, CELL).legend_top + 1
    assert later.crop((0, top, *later.size)).tobytes() != first.crop((0, top, *first.size)).tobytes()


def test_a_kept_legend_holds_its_items_pixels_not_its_strips(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a board keeps of its legend is its items' boxes, each with its pixels (less than
    half the strip's), counted so with the board; the strip's other pixels are its ground."""
    monkeypatch.setattr(layer, "_keeps", {})
    enc = _enc(at="C2")
    render_map(enc, cell_px=CELL)
    [keeps] = layer._keeps.values()
    assert keeps.legend is not None
    lay = layout(enc, CELL)
    strip = lay.size[0] * (lay.size[1] - lay.legend_top - 1)
    pieces = keeps.legend[1]
    assert all(im.size == (x1 - x0, y1 - y0) for (x0, y0, x1, y1), im in pieces)
    held = sum(im.width * im.height for _, im in pieces)
    assert 0 < held < strip / 2
    assert keeps.legend_bytes == 4 * held  # counted as it was kept
    assert keeps.nbytes == keeps.bands.nbytes + 4 * held + (0 if keeps.last is None else keeps.last.nbytes)


def test_the_streams_first_bytes_are_isals_own() -> None:
    """The two bytes that open the pixels' stream are those ISA-L writes at each of its levels."""
    from isal import isal_zlib

    from bot.maps.png import _zlib_header

    assert [_zlib_header(level) for level in range(4)] == [isal_zlib.compress(b"", level)[:2] for level in range(4)]


def test_a_pictures_colours_are_counted_with_a_small_table_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Choosing a first picture's palette counts its sampled colours with a table for
    ``_COUNTED`` colours (not one for every sampled pixel), and comes out as when counted with
    a table too small for them (counted again with one for every pixel)."""
    asked: list[int] = []
    count = Image.Image.getcolors

    def spy(image: Image.Image, maxcolors: int = 256) -> Any:
        asked.append(maxcolors)
        return count(image, maxcolors)

    monkeypatch.setattr(Image.Image, "getcolors", spy)
    enc = _enc(blocked=["D4", "D5"])
    layer.forget_boards()
    first = render_map(enc, cell_px=CELL)
    assert asked and max(asked) == layer._COUNTED
    monkeypatch.setattr(layer, "_COUNTED", 1)
    layer.forget_boards()
    asked.clear()
    assert render_map(enc, cell_px=CELL) == first
    assert max(asked) > 1000


def test_a_first_picture_keeps_its_palette_without_its_nearest_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board's first picture keeps the palette it cut what it drew to as an image of one pixel
    (Pillow's table of each colour's nearest entry, made as the pixels were cut, is left with the
    image they were cut with, not kept with the board); the board's next pictures, cut to that
    palette, are those drawn where the table is kept."""
    enc = _enc(blocked=["D4", "D5"])
    moves = [enc] + [enc.model_copy(update={"combatants": [enc.combatants[0].model_copy(update={"position": cell}),
                                                          *enc.combatants[1:]]}) for cell in ("E2", "F3", "C4")]

    def pictures() -> list[bytes]:
        monkeypatch.setattr(layer, "_keeps", {})
        layer.forget_boards()
        drawn = [render_map(e, cell_px=CELL) for e in moves[:1]]
        [keeps] = layer._keeps.values()
        assert keeps.last is not None
        kept.append(keeps.last.nearest.size)
        assert len(keeps.last.nearest.getpalette() or []) == len(keeps.last.colours)
        return drawn + [render_map(e, cell_px=CELL) for e in moves[1:]]

    kept: list[tuple[int, int]] = []
    ours = pictures()
    monkeypatch.setattr(layer, "_untabled", lambda palette: palette)
    assert pictures() == ours
    assert kept[0] == (1, 1) and kept[1][0] * kept[1][1] > 1000
