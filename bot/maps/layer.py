"""What the ``/map`` picture keeps from one picture to the next, and how a picture becomes a PNG.

Most of a picture is its board: the background, the cells, terrain, walls, grid lines, the
coordinates and the heights. They change only when the GM edits the map, while a picture is
usually asked for because a combatant moved or was hit. So a process keeps its last boards
(:func:`board`, ``CACHE_BYTES`` at most), each drawn at ``SS`` times its size and reduced (a
square one at its size, see :func:`_draw_board`), cut to a palette of at most ``BOARD_COLOURS``
colours; only the palette indices are kept, packed
(:class:`Board`), not the RGB pixels. A picture is a :class:`Canvas`: it records what is
drawn over its board (the shading's tints, the trail and the tokens laid over it, the legend)
and draws it when the PNG is made. Shading tints the palette entries of the cells it covers (a
lookup table, no colour search); what is laid over the board and the legend's items are drawn
in RGB only in their boxes (the board's pixels under them, from its palette) and only those are
cut to the palette's remaining entries. The board's last picture is kept (:class:`_Last`): a
picture that draws nothing that picture's palette was not chosen for cuts its pixels to the
same palette, and draws only the boxes where it differs from that picture (a token moved, a new
legend). The PNG is written in bands of rows (:mod:`bot.maps.png`): the bands where the picture
shows its board alone are compressed once for the board, and the others are kept from the
board's last picture and compressed again only where their pixels changed (what is drawn over
the board keeps its palette entries from one picture to the next, :func:`_in_place`, so the
pixels that did not change keep their indices). So a picture costs what changed, not the whole
image.

Palettes keep flat colours exact: each entry is the commonest colour of the pixels it stands for
(not their mean), and the PNG is about a third the size of an optimised RGB one.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from isal import isal_zlib
from PIL import Image, ImageChops, ImageDraw

from bot.maps.key import RGB
from bot.maps.key import font as _font
from bot.maps.png import Bands, band_rows, palette_png
from bot.maps.style import (
    BACKGROUND,
    BOARD,
    GRID_LINE,
    HEIGHT_INK,
    MUTED,
    OTHER_TERRAIN,
    TERRAIN_STYLES,
    WALL,
    TerrainStyle,
    contrast,
    shading_tint,
    small_text,
    tile,
    tinted,
)
from rules.geometry import Cell, Grid, cell_name

__all__ = [
    "BOARD_COLOURS",
    "CACHE_BYTES",
    "MARGINS_KEPT",
    "UNPACKED_BYTES",
    "PAD",
    "PNG_LEVEL",
    "SS",
    "Board",
    "Box",
    "Canvas",
    "Keeps",
    "Layout",
    "HEX_R",
    "board",
    "bounds",
    "columns",
    "forget_boards",
    "label_size",
    "overlap",
    "quantize",
]

Box = tuple[int, int, int, int]  #: left, top, right, bottom (exclusive), in pixels

SS = 2  #: supersampling factor
_HEX_RUN = 6  #: hexes a shape of :func:`columns` joins, one below another: a longer zigzag fills slower
PAD = 10
HEX_R = 1 / math.sqrt(3)  #: circumradius of a hex whose flat-to-flat height is 1

#: palette entries the board takes at most; the others go to what each picture draws over it
BOARD_COLOURS = 128
#: palette entries kept for what a picture draws over its board, beyond the tints of its cells
SPARE_COLOURS = 64
_HALF = [0] * 128 + [255] * 128  #: a mask's pixels over half set, as a point() table
#: pixels a palette is chosen from, at most: an even sample of the image
SAMPLE = 1 << 14
#: boards kept per process, packed: a 12x10 square board takes about 6 KB (so about 2,800 of
#: them), a 60x60 one about 30 KB; a hex board (its interior kept too, as its map's parts) 36 KB
#: at 12x10 and 132 KB at 40x40; a square board without terrain or heights about 2 KB, as it is
#: drawn again, not packed
CACHE_BYTES = 16 * 1024 * 1024
#: ... and unpacked, the last drawn on (at least one), with what their last pictures keep
#: (:class:`Keeps`): a 12x10 square board takes 0.6 MB and what its pictures keep 1.4 MB (the last
#: picture's pixels and bands 0.7, the legend's items 0.1, the palette's nearest entries 0.5: so
#: the boards of a worker's share of 40 busy channels), a 60x60 one 3 MB and 4.6 MB; a hex
#: board's own pixels 0.8 MB at 12x10 and 3 MB at 40x40 (its index and its interior's parts).
#: Drawing a large hex board's first picture takes about 20 MB more for a moment (a 40x40 one:
#: 21 MB; 75 MB while its board was drawn whole at ``SS``)
UNPACKED_BYTES = 48 * 1024 * 1024
#: layouts whose square boards' margins (their coordinates) are kept cut to the palette, 84 KB
#: for a 12x10 board's, 155 KB for a 60x60 one's
MARGINS_KEPT = 16
#: ISA-L's deflate level of the PNG (`bot.maps.png`, 0 to 3): 1 is about 4x as fast as zlib's
#: level 3 and writes about a tenth fewer bytes; 0 is twice as fast again for a fifth more
#: bytes, 3 as slow as zlib's level 3
PNG_LEVEL = 1
#: a picture draws only the boxes drawn over its board, and of those only the ones that changed since
#: its board's last picture, where it can (else the whole picture: the same pixels, the tests
#: compare the two)
BOXES = True


# -- where things go ----------------------------------------------------------------------
def bounds(grid: Grid) -> tuple[float, float, float, float]:
    """The board's extent in board units (``Grid.centre`` coordinates)."""
    if grid.kind == "square":
        return 0.0, 0.0, float(grid.width), float(grid.height)
    right = (grid.width - 1) * math.sqrt(3) / 2 + 0.5 + HEX_R
    return 0.5 - HEX_R, 0.0, right, grid.height + (0.5 if grid.width > 1 else 0.0)


def label_size(unit: float) -> int:
    """The coordinates' font size for cells ``unit`` px wide."""
    return max(9, min(15, round(unit * 0.3)))


@dataclass(frozen=True)
class Layout:
    """Where the board sits in the image, in pixels of the final image (``scale`` 1)."""

    grid: Grid
    unit: float  # px per board unit: a square's side, or a hex's flat-to-flat height
    origin: tuple[float, float]  # the pixel of board point (0, 0)
    size: tuple[int, int]  # the whole image
    legend_top: int
    scale: int = 1

    def centre(self, cell: Cell) -> tuple[float, float]:
        bx, by = self.grid.centre(cell)
        return self.origin[0] + bx * self.unit, self.origin[1] + by * self.unit

    def outline(self, cell: Cell) -> list[tuple[float, float]]:
        cx, cy = self.centre(cell)
        h = self.unit / 2
        if self.grid.kind == "square":
            return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
        r = self.unit * HEX_R
        return [
            (cx - r, cy),
            (cx - r / 2, cy - h),
            (cx + r / 2, cy - h),
            (cx + r, cy),
            (cx + r / 2, cy + h),
            (cx - r / 2, cy + h),
        ]

    def scaled(self, k: int) -> Layout:
        (ox, oy), (w, h) = self.origin, self.size
        return replace(
            self,
            unit=self.unit * k,
            origin=(ox * k, oy * k),
            size=(w * k, h * k),
            legend_top=self.legend_top * k,
            scale=self.scale * k,
        )



# -- the board, kept -----------------------------------------------------------------------
@dataclass
class Keeps:
    """What the pictures of a board keep from one to the next: their PNG's bands
    (:mod:`bot.maps.png`) and the last legend drawn, with what it shows (its key)."""

    bands: Bands = field(default_factory=Bands)
    #: the last legend: what it shows, and its items' boxes (of its strip) with their pixels (RGB;
    #: the rest of the strip is its ground, ``BACKGROUND``, not kept)
    legend: tuple[Hashable, list[tuple[Box, Image.Image]]] | None = None
    last: _Last | None = None  #: the last picture, for the next to draw only what changed
    #: held while a picture of the board reads and replaces what the last one kept (pictures of
    #: two channels with the same board may be drawn at once in threads)
    lock: threading.Lock = field(default_factory=threading.Lock)
    legend_bytes: int = 0  #: what ``legend``'s pieces take, counted as it is kept (:meth:`keep_legend`)

    def keep_legend(self, key: Hashable, pieces: list[tuple[Box, Image.Image]]) -> tuple[Hashable, list[tuple[Box, Image.Image]]]:
        """Keep the legend showing ``key``, its items' ``pieces``, counted once here (each piece the
        size of its box, RGB: read from the box), not at each count of the boards kept unpacked."""
        self.legend = key, pieces
        self.legend_bytes = sum(4 * (x1 - x0) * (y1 - y0) for (x0, y0, x1, y1), _ in pieces)
        return self.legend

    @property
    def nbytes(self) -> int:
        return self.bands.nbytes + self.legend_bytes + (0 if self.last is None else self.last.nbytes)


@dataclass(frozen=True, eq=False)
class Board:
    """A board drawn at its final size, to be copied, never drawn on.

    It is kept packed (:func:`_pack`: about 6 KB for a 12x10 square board, whose pixels take
    0.6 MB), so a process keeps the boards of hundreds of channels. The boards drawn
    on last are kept unpacked too (``UNPACKED_BYTES``): a picture of a busy channel unpacks
    nothing, one of a board not drawn on lately about 0.5 ms. A square board without terrain or
    heights is neither packed nor kept unpacked: the parts of it a picture reads are drawn again
    (``redraw``: its cells, walls and lines in that box, and its layout's kept margins), and its
    first picture draws on the pixels it was drawn with."""

    size: tuple[int, int]
    palette: list[int]  #: the entries ``index`` uses, as R, G, B values
    inside: tuple[int, ...]  #: the palette entries found inside the cells
    packed: tuple[bytes, bytes | None, bytes | None]  #: ``index``, ``interior`` and ``heights``, packed
    #: a square board's layout, its interior drawn from it where asked (:meth:`inner`), not kept; or
    #: a hex board's interior in parts (:class:`_HexMap`), each part packed
    lines: Layout | _PackedMap | None = None
    #: how a box of ``index`` is drawn again, in place of its packed pixels (``packed`` then holds
    #: none) and of its pixels kept unpacked
    redraw: Callable[[Box], Image.Image] | None = None
    #: a board drawn again: the pixels it was just drawn with (a picture's size), for its first
    #: picture to draw on (:meth:`picture`), taken once
    fresh: list[Image.Image] = field(default_factory=list)

    @staticmethod
    def pack(index: Image.Image, palette: list[int], interior: Image.Image | Layout | _HexMap, inside: tuple[int, ...],
             heights: Image.Image | None, redraw: Callable[[Box], Image.Image] | None = None,
             size: tuple[int, int] | None = None) -> Board:
        """The board of these images packed, and kept unpacked for its first picture; ``interior``:
        its image, the layout of a square board it is drawn from, or a hex board's in parts; ``redraw``: how a box of
        ``index`` is drawn again, which it is in place of being packed and unpacked (``index`` then
        a picture's size, the board's own ``size`` given, and kept for its first picture alone)."""
        lines = _PackedMap.of(interior) if isinstance(interior, _HexMap) else None if isinstance(interior, Image.Image) else interior
        images = (index, interior if isinstance(interior, Image.Image) else None, heights)
        packed = (b"", None, None) if redraw else tuple(None if im is None else _pack(im) for im in images)
        made = Board(size or index.size, palette, inside, packed, lines, redraw)  # type: ignore[arg-type]  # three images: a triple
        index.putpalette(palette)
        if redraw:
            made.fresh.append(index)
        kept = (index, interior, heights) if isinstance(interior, _HexMap) else images
        made._keep((None, None, None) if redraw else kept)  # its first picture follows: nothing to unpack
        return made

    @property
    def nbytes(self) -> int:
        """What it takes kept (packed; one drawn again about what its palette and layout take)."""
        if self.redraw:  # (the pixels it was drawn with are its first picture's, which follows at once)
            return 1024 + 8 * len(self.palette)
        return sum(len(b) for b in self.packed if b is not None) + self._parts

    @property
    def _parts(self) -> int:
        """What a hex board's interior takes packed in parts."""
        return self.lines.nbytes if isinstance(self.lines, _PackedMap) else 0

    @property
    def index(self) -> Image.Image:
        """P, with ``palette``: the picture's rows down to the rule above the legend."""
        if self.redraw:
            return self.part((0, 0, *self.size))
        return self._unpacked()[0]  # type: ignore[return-value]  # the index is always there

    def part(self, box: Box) -> Image.Image:
        """P, with ``palette``: the pixels of ``box`` (0 beyond the board's rows), a copy."""
        if self.redraw is None:
            return self.index.crop(box)
        self._unpacked()  # among the boards drawn on last, with what its pictures keep
        image = self.redraw(box)
        image.putpalette(self.palette)
        return image

    def picture(self, size: tuple[int, int]) -> Image.Image:
        """P, with ``palette``: the board as a picture of ``size`` starts, to draw on (its own)."""
        if self.redraw is None:
            return self.index.crop((0, 0, *size))
        with _guard:
            fresh = self.fresh.pop() if self.fresh else None
        return fresh if fresh is not None and fresh.size == size else self.part((0, 0, *size))

    def inner(self, box: Box) -> Image.Image:
        """L, the part ``box`` of the board: 255 inside the cells, 0 on the grid lines (over half)
        and off the board."""
        if self.lines is None or isinstance(self.lines, _PackedMap):
            return self._unpacked()[1].crop(box)  # type: ignore[union-attr]  # kept when not drawn
        return _interior(self.lines, box)

    @property
    def heights(self) -> Image.Image | None:
        """L: where the heights are written (letters and halo), if any."""
        return None if self.packed[2] is None else self._unpacked()[2]  # type: ignore[return-value]  # an image: packed as one

    def _unpacked(self) -> tuple[Image.Image | _HexMap | None, ...]:
        with _guard:
            if (kept := _unpacked.get(self)) is not None:
                _unpacked.move_to_end(self)
                return kept
        images: tuple[Image.Image | _HexMap | None, ...] = (None, None, None)  # drawn again: no pixels kept
        if not self.redraw:
            images = tuple(None if b is None else _unpack(b, mode, self.size)
                           for mode, b in zip(("P", "L", "L"), self.packed))
            images[0].putpalette(self.palette)  # type: ignore[union-attr]  # the index is always there
            if isinstance(self.lines, _PackedMap):
                images = (images[0], self.lines.unpacked(), images[2])
        self._keep(images)
        return images

    def keeps(self) -> Keeps:
        """What its pictures keep between them, while it is among the boards kept unpacked (and
        counted with them)."""
        if self.redraw:
            self._unpacked()  # among them without its pixels
        with _guard:
            return _keeps.setdefault(self, Keeps())

    def _keep(self, images: tuple[Image.Image | _HexMap | None, ...]) -> None:
        """Keep ``images`` as the board unpacked, among the last drawn on (``UNPACKED_BYTES``)."""
        with _guard:
            _unpacked[self] = images
            _trim(_unpacked, lambda board, _: _pixels(board), UNPACKED_BYTES)
            for gone in [b for b in _keeps if b not in _unpacked]:
                del _keeps[gone]


def _pack(image: Image.Image) -> bytes:
    """``image``'s pixels (P or L: a byte each) packed: a byte a row, 1 where the row is the one
    above it again (a board's rows repeat down each cell), then the other rows deflated by ISA-L
    (as the PNG's bands), without zlib's wrapper (no checksum of bytes that never leave the process)."""
    data, width = image.tobytes(), image.width
    rows = [data[at : at + width] for at in range(0, len(data), width)]
    again = bytes([0] + [row == above for row, above in zip(rows[1:], rows)])
    packer = isal_zlib.compressobj(PNG_LEVEL, isal_zlib.DEFLATED, -15)
    return again + packer.compress(b"".join([row for row, same in zip(rows, again) if not same])) + packer.flush()


def _unpack(packed: bytes, mode: str, size: tuple[int, int]) -> Image.Image:
    """The image :func:`_pack` packed, of ``mode`` and ``size``."""
    (width, height), at = size, 0
    again, data = packed[:height], isal_zlib.decompress(packed[height:], -15)
    rows, row = [], b""
    for same in again:
        if not same:
            row, at = data[at : at + width], at + width
        rows.append(row)
    return Image.frombytes(mode, size, b"".join(rows))


def _pixels(board: Board) -> int:
    """What ``board`` takes unpacked: a byte a pixel of each image, and its pictures' bands."""
    kept = _keeps.get(board)
    images = 0 if board.redraw else sum(b is not None for b in board.packed)  # one drawn again keeps none
    parts = board.lines.pixels if isinstance(board.lines, _PackedMap) else 0  # a hex board's interior
    return board.size[0] * board.size[1] * images + parts + (kept.nbytes if kept else 0)


_boards: OrderedDict[Hashable, Board] = OrderedDict()
_unpacked: OrderedDict[Board, tuple[Image.Image | _HexMap | None, ...]] = OrderedDict()
_keeps: dict[Board, Keeps] = {}  #: what the pictures of the boards kept unpacked keep
_guard = threading.Lock()


def _kept(key: Hashable, draw: Callable[[], Board]) -> Board:
    """The board ``key`` names (all it is drawn from), drawn by ``draw`` unless kept; the least
    recently used are dropped beyond ``CACHE_BYTES``, the one just drawn being kept in any case."""
    with _guard:
        if (kept := _boards.get(key)) is not None:
            _boards.move_to_end(key)
            return kept
    made = draw()
    with _guard:
        _boards[key] = made
        _trim(_boards, lambda _, board: board.nbytes, CACHE_BYTES)
    return made


def forget_boards() -> None:
    """Drop the kept boards, their pixels kept unpacked and what their pictures keep, as in a new
    process: the next picture of each draws its board. (Leaving the unpacked pixels and the keeps
    of boards no picture can reach again made each first picture after it take new memory, as a
    worker does only until its unpacked boards fill ``UNPACKED_BYTES``.)"""
    with _guard:
        _boards.clear()
        _unpacked.clear()
        _keeps.clear()


def _trim(kept: OrderedDict[Any, Any], size: Callable[[Any, Any], int], limit: int) -> None:
    """Drop the least recently used entries of ``kept`` while their ``size(key, value)`` bytes
    are over ``limit``, the newest kept in any case (called under ``_guard``)."""
    total = sum(size(k, v) for k, v in kept.items())
    while total > limit and len(kept) > 1:
        total -= size(*kept.popitem(last=False))


def _terrain_tile(lay: Layout, style: TerrainStyle) -> tuple[Image.Image, Image.Image]:
    """One cell of terrain and the cell's shape as a mask, to paste on each such cell."""
    pts = lay.outline(Cell(0, 0))
    x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
    size = (math.ceil(max(p[0] for p in pts) - x0) + 1, math.ceil(lay.unit) + 1)
    mask = Image.new("L", size, 0)
    shape = [(x - x0, y - y0) for x, y in pts]
    draw = ImageDraw.Draw(mask)
    draw.polygon(shape, fill=255)
    draw.line([*shape, shape[0]], fill=0, width=lay.scale)  # the grid line covers the edge
    return tile(style, size, max(3.0, lay.unit / 5), lay.scale), mask


def _draw_cells(draw: ImageDraw.ImageDraw, lay: Layout, fill: int | RGB, hexes: Sequence[Cell] | None = None) -> None:
    """The board's cells filled with ``fill``; ``hexes``: of a hex board, only these."""
    if lay.grid.kind == "hex":
        for cell in lay.grid.cells() if hexes is None else hexes:
            draw.polygon(lay.outline(cell), fill=fill)
    else:
        (ox, oy), (_, _, bx1, by1) = lay.origin, bounds(lay.grid)
        draw.rectangle([ox, oy, ox + bx1 * lay.unit, oy + by1 * lay.unit], fill=fill)


def _draw_lines(draw: ImageDraw.ImageDraw, lay: Layout, fill: int | RGB, edge: int | RGB,
                within: tuple[int, int] | None = None, hexes: Sequence[Cell] | None = None) -> None:
    """The grid lines in ``fill``, a square board's outline in ``edge``; ``within``: the width and
    height of the image drawn on, a square board's lines outside it left out (a part of a board);
    ``hexes``: of a hex board, only these cells' outlines."""
    grid, u, line = lay.grid, lay.unit, max(1, lay.scale)
    (ox, oy), (_, _, bx1, by1) = lay.origin, bounds(grid)
    if grid.kind == "hex":
        for cell in grid.cells() if hexes is None else hexes:  # lines: a wide polygon outline costs a full-size mask
            pts = lay.outline(cell)
            draw.line([*pts, pts[0]], fill=fill, width=line)
        return
    cols, rows = range(grid.width + 1), range(grid.height + 1)
    if within is not None:  # a line more than a pixel outside the image touches none of it
        cols = range(max(0, math.floor((-2 - ox) / u)), min(grid.width, math.ceil((within[0] + 2 - ox) / u)) + 1)
        rows = range(max(0, math.floor((-2 - oy) / u)), min(grid.height, math.ceil((within[1] + 2 - oy) / u)) + 1)
    for c in cols:
        draw.line([(ox + c * u, oy), (ox + c * u, oy + by1 * u)], fill=fill, width=line)
    for r in rows:
        draw.line([(ox, oy + r * u), (ox + bx1 * u, oy + r * u)], fill=fill, width=line)
    draw.rectangle([ox, oy, ox + bx1 * u, oy + by1 * u], outline=edge, width=line)


def columns(lay: Layout, cells: Sequence[Cell]) -> list[list[tuple[float, float]]]:
    """The outlines of ``cells``, a run of cells one below another in a column as one shape (a
    large shaded area or a long wall takes a few shapes, not one per cell)."""
    hexes = lay.grid.kind == "hex"
    longest = _HEX_RUN if hexes else lay.grid.height
    runs: list[list[Cell]] = []
    for cell in sorted(set(cells)):
        if runs and runs[-1][-1] == (cell.col, cell.row - 1) and len(runs[-1]) < longest:
            runs[-1].append(cell)
        else:
            runs.append([cell])
    shapes = []
    for run in runs:
        first, last = lay.outline(run[0]), lay.outline(run[-1])
        if not hexes:
            shapes.append([first[0], first[1], last[2], last[3]])
            continue
        sides = [lay.outline(cell) for cell in run]  # a zigzag on each side
        right, left = [p[i] for p in sides for i in (3, 4)], [p[i] for p in sides[::-1] for i in (5, 0)]
        shapes.append(first[1:3] + right + left)
    return shapes


def _interior(lay: Layout, box: Box) -> Image.Image:
    """L, the part ``box`` of the board of ``lay``: 255 inside the cells, 0 on the grid lines and
    off the board."""
    at = replace(lay, origin=(lay.origin[0] - box[0], lay.origin[1] - box[1]))
    img = Image.new("L", (box[2] - box[0], box[3] - box[1]), 0)
    _draw_cells(ImageDraw.Draw(img), at, 255)
    _draw_lines(ImageDraw.Draw(img), at, 0, 0)
    return img


#: a hex board's map (:func:`_hex_map`, L): its values off the board, inside a cell and on a grid
#: line, chosen so that a pixel of the map reduced by ``SS`` tells how many of each it stands for
#: (the inside ones and five times the line ones: :data:`_REDUCED`); and its colours on the board
_OFF, _IN, _ON = 0, 4, 20
_HEX_COLOURS = [v for i in range(256) for v in {_OFF: BACKGROUND, _IN: BOARD, _ON: GRID_LINE, 1: WALL, 255: GRID_LINE}.get(i, (0, 0, 0))]


def _reduced() -> tuple[list[int], list[int]]:
    """Of each pixel of a hex board's map reduced by ``SS`` (:func:`_hex_map`, 2 x 2 pixels): the
    colour the board's pixels reduce to there (its palette entry, R, G, B values) and whether its
    interior does (255 or 0), reduced by Pillow as the board and interior drawn whole are."""
    colours, inner = [0] * 3 * 256, [0] * 256
    for cells in range(5):
        for lines in range(5 - cells):
            block = [_IN] * cells + [_ON] * lines + [_OFF] * (4 - cells - lines)
            code = (cells * _IN + lines * _ON) // 4
            rgb = Image.new("RGB", (2, 2))
            rgb.putdata([{_OFF: BACKGROUND, _IN: BOARD, _ON: GRID_LINE}[v] for v in block])
            colours[3 * code : 3 * code + 3] = rgb.reduce(2).getpixel((0, 0))  # type: ignore[assignment]  # RGB: three values
            mask = Image.new("L", (2, 2))
            mask.putdata([255 if v == _IN else 0 for v in block])
            inner[code] = _HALF[int(mask.reduce(2).getpixel((0, 0)))]  # type: ignore[arg-type]  # L: one value
    return colours, inner


#: :func:`_reduced`, when ``SS`` is 2
_REDUCED = _reduced() if SS == 2 else None


@dataclass(frozen=True)
class _HexMap:
    """A hex board's map (:func:`_hex_map`), kept in three parts: its rows down to the end of the
    second band (``top``), that band (``band``, rows ``band_at`` on, ``step`` high) which every band
    below repeats down to the rows ``bottom`` holds from ``bottom_at`` on; or whole in ``top``."""

    size: tuple[int, int]
    top: Image.Image
    band: Image.Image | None = None
    band_at: int = 0
    step: int = 0
    bottom: Image.Image | None = None
    bottom_at: int = 0

    def _runs(self, y0: int, y1: int) -> list[tuple[Image.Image, int, int, int]]:
        """Rows ``y0`` to ``y1`` (not included) as runs of rows of the parts: the part, its first
        row, the run's length and its first row in the map."""
        out, y = [], y0
        while y < y1:
            if self.band is None or self.bottom is None or y < self.band_at + self.step:
                run = y1 - y if self.band is None else min(y1, self.band_at + self.step) - y
                out.append((self.top, y, run, y))
            elif y >= self.bottom_at:
                out.append((self.bottom, y - self.bottom_at, y1 - y, y))
                run = y1 - y
            else:
                inside = (y - self.band_at) % self.step
                run = min(y1, self.bottom_at, y + self.step - inside) - y
                out.append((self.band, inside, run, y))
            y += run
        return out

    def crop(self, box: Box) -> Image.Image:
        """L: the map's pixels of ``box``."""
        x0, y0, x1, y1 = box
        if self.band is None:
            return self.top.crop(box)
        out = Image.new("L", (x1 - x0, y1 - y0))
        for part, row, run, y in self._runs(y0, y1):
            out.paste(part.crop((x0, row, x1, row + run)), (0, y - y0))
        return out

    def whole(self) -> Image.Image:
        """L: the whole map."""
        return self.crop((0, 0, *self.size))

    @property
    def nbytes(self) -> int:
        """What its parts take (a byte a pixel)."""
        return sum(im.width * im.height for im in (self.top, self.band, self.bottom) if im is not None)

    def scaled(self, lut: Sequence[int]) -> _HexMap:
        """The map reduced by ``SS``, each pixel through ``lut``, in parts."""
        top, band, bottom = (None if im is None else im.reduce(SS).point(lut) for im in (self.top, self.band, self.bottom))
        assert top is not None
        return _HexMap((self.size[0] // SS, self.size[1] // SS), top, band, self.band_at // SS, self.step // SS,
                       bottom, self.bottom_at // SS)

    def reduced(self, lut: Sequence[int], palette: Sequence[int] | None = None) -> Image.Image:
        """The map reduced by ``SS``, each pixel through ``lut`` (L), or, with ``palette``, in its
        colours (RGB); each part reduced once, and the band pasted down."""
        def made(part: Image.Image) -> Image.Image:
            small = part.reduce(SS)
            if palette is None:
                return small.point(lut)
            coloured = Image.frombytes("P", small.size, small.tobytes())
            coloured.putpalette(palette)
            return coloured.convert("RGB")

        if self.band is None or self.bottom is None:
            return made(self.top)
        out = Image.new("L" if palette is None else "RGB", (self.size[0] // SS, self.size[1] // SS))
        out.paste(made(self.top), (0, 0))
        band, step = made(self.band), self.step // SS
        for y in range((self.band_at + self.step) // SS, self.bottom_at // SS, step):
            out.paste(band, (0, y))
        out.paste(made(self.bottom), (0, self.bottom_at // SS))
        return out


@dataclass(frozen=True)
class _PackedMap:
    """A :class:`_HexMap` packed, each part by :func:`_pack` (with its size), to keep with a board."""

    size: tuple[int, int]
    parts: tuple[tuple[tuple[int, int], bytes] | None, ...]  #: ``top``, ``band`` and ``bottom``
    band_at: int
    step: int
    bottom_at: int

    @staticmethod
    def of(hexes: _HexMap) -> _PackedMap:
        parts = tuple(None if im is None else (im.size, _pack(im)) for im in (hexes.top, hexes.band, hexes.bottom))
        return _PackedMap(hexes.size, parts, hexes.band_at, hexes.step, hexes.bottom_at)

    def unpacked(self) -> _HexMap:
        top, band, bottom = (None if p is None else _unpack(p[1], "L", p[0]) for p in self.parts)
        assert top is not None
        return _HexMap(self.size, top, band, self.band_at, self.step, bottom, self.bottom_at)

    @property
    def nbytes(self) -> int:
        """What it takes packed."""
        return sum(len(p[1]) for p in self.parts if p is not None)

    @property
    def pixels(self) -> int:
        """What it takes unpacked (a byte a pixel)."""
        return sum(w * h for (w, h), _ in (p for p in self.parts if p is not None))


def _hex_map(lay: Layout, size: tuple[int, int]) -> _HexMap:
    """L, ``size``: the hex board of ``lay`` (at its scale) as :func:`_draw_cells` and then
    :func:`_draw_lines` draw it, its cells ``_IN``, its grid lines ``_ON``, the rest ``_OFF``.
    Where a cell is a whole even number of pixels high (``lay.unit``), each band of that many rows
    from the top of the board (from an even row) down is the one above it again but at the
    board's top and bottom (the pixels of a band are those of the cells of three rows, the same
    cells a row lower a band lower): only the first three rows of cells are drawn, to the end of
    the second band, and the last two, from the start of the last band; the second band stands
    for the others (a board of 40 rows draws an eighth of its cells, and keeps as many pixels)."""
    grid, step = lay.grid, lay.unit
    if not (step.is_integer() and step >= 10 and int(step) % SS == 0 and grid.height > 5):
        img = Image.new("L", size, _OFF)
        draw = ImageDraw.Draw(img)
        _draw_cells(draw, lay, _IN)
        _draw_lines(draw, lay, _ON, _ON)
        return _HexMap(size, img)
    rows_px = int(step)
    band_at = math.floor(lay.origin[1]) // SS * SS + rows_px
    bottom_at = band_at + (grid.height - 2) * rows_px
    parts = []
    for rows, y0, y1 in (((0, 1, 2), 0, band_at + rows_px), ((grid.height - 2, grid.height - 1), bottom_at, size[1])):
        img = Image.new("L", (size[0], y1 - y0), _OFF)
        draw = ImageDraw.Draw(img)
        at = replace(lay, origin=(lay.origin[0], lay.origin[1] - y0))
        hexes = [Cell(col, row) for row in rows for col in range(grid.width)]
        _draw_cells(draw, at, _IN, hexes)
        _draw_lines(draw, at, _ON, _ON, hexes=hexes)
        parts.append(img)
    top, bottom = parts
    return _HexMap(size, top, top.crop((0, band_at, size[0], band_at + rows_px)), band_at, rows_px, bottom, bottom_at)


def _hex_rgb(hexes: Image.Image) -> Image.Image:
    """RGB: the hex board's map ``hexes`` (:func:`_hex_map`, or a part of it) in the board's colours."""
    coloured = Image.frombytes("P", hexes.size, hexes.tobytes())
    coloured.putpalette(_HEX_COLOURS)
    return coloured.convert("RGB")


def _hex_board(img: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, hexes: Image.Image, paste: bool) -> None:
    """The hex board of ``lay`` on ``img`` (RGB, at ``lay``'s scale) from its map ``hexes``
    (:func:`_hex_map`; ``paste``: pasted on ``img`` first, else ``img`` is its colours): its terrain
    and walls over the cells, and the grid lines over them again, as drawn last."""
    if paste:
        img.paste(_hex_rgb(hexes), (0, 0), hexes.point([0] + [255] * 255))
    terrain, walls = _hex_parts(lay)
    for _, cell, kind in terrain:
        _draw_terrain(img, lay, cell, kind)
    for _, shape in walls:
        draw.polygon(shape, fill=WALL)
    img.paste(GRID_LINE, (0, 0), hexes.point(_LINES))


def _hex_parts(lay: Layout) -> tuple[list[tuple[Box, Cell, str]], list[tuple[Box, list[tuple[float, float]]]]]:
    """What is drawn over the cells of the hex board of ``lay`` (at its scale, ``lay.size`` the
    image's) before its grid lines are drawn over them again, in order, each with its box: its
    terrain (each cell and its kind), then its walls (:func:`columns`)."""
    grid, size = lay.grid, lay.size
    terrain = [(_around(lay.outline(cell), size), cell, kind)
               for cell, kind in grid.terrain.items() if grid.contains(cell) and cell not in grid.blocked]
    walls = [(_around(shape, size), shape) for shape in columns(lay, [cell for cell in grid.blocked if grid.contains(cell)])]
    return terrain, walls


#: in a hex board's map (:func:`_hex_map`): a wall drawn over it, and a grid line drawn over that again
_WALL_AT, _LINE_AT = 1, 255
#: a table (``point``) of the map's pixels: 255 on a grid line, else 0
_LINES = [255 if i in (_ON, _LINE_AT) else 0 for i in range(256)]


def _hex_layer(lay: Layout) -> tuple[Image.Image, _HexMap]:
    """The hex board of ``lay`` without heights, with the rule under it (RGB, at its size), and its
    interior (L: 255 inside the cells, 0 on the grid lines (over half) and off the board), as
    :func:`_draw_board` draws it at ``SS`` and as reduced, with no RGB image of that size: its map
    (:func:`_hex_map`) reduced, each pixel's colour and interior looked up (``_REDUCED``); then in
    the box of each thing drawn over its cells and lines (a cell of terrain, a run of walls, a
    row or column of coordinates, the rule) the map's pixels, all that is drawn over them there
    (walls as palette entries, with the lines over them again), in RGB, reduced and put in place."""
    assert _REDUCED is not None
    big = lay.scaled(SS)
    size = (big.size[0], (lay.legend_top + 1) * SS)
    hexes = _hex_map(big, size)
    image = hexes.reduced(_REDUCED[1], _REDUCED[0])
    terrain, walls = _hex_parts(replace(big, size=size))
    margins = _hex_edges(big, size, hexes)
    over = [_even(b, size) for b in [*(b for b, _, _ in terrain), *(b for b, _ in walls)]]
    for box, _, pixels in margins:
        if not any(overlap(box, b) for b in over):  # as kept for the layout
            image.paste(pixels, (box[0] // SS, box[1] // SS))
        else:
            over.append(box)
    for box in over:
        at = (-box[0], -box[1])
        index = hexes.crop(box)
        if near := [shape for b, shape in walls if overlap(b, box)]:
            draw = ImageDraw.Draw(index)
            for shape in near:
                draw.polygon([(x + at[0], y + at[1]) for x, y in shape], fill=_WALL_AT)
            index = ImageChops.lighter(index, hexes.crop(box).point([_LINE_AT if i == _ON else 0 for i in range(256)]))
        part = _hex_rgb(index)
        for b, cell, kind in terrain:
            if (inside := overlap(b, box)) is not None:  # the terrain's tile, under the walls and lines
                _draw_terrain(part, replace(big, origin=(big.origin[0] + at[0], big.origin[1] + at[1])), cell, kind)
                inside = _moved(inside, at)
                covers = index.crop(inside)
                part.paste(WALL, inside, covers.point([255 if i == _WALL_AT else 0 for i in range(256)]))
                part.paste(GRID_LINE, inside, covers.point(_LINES))
        draw = ImageDraw.Draw(part)
        for b, paint, _ in margins:
            if overlap(b, box) is not None:
                paint(draw, at)
        image.paste(part.reduce(SS), (box[0] // SS, box[1] // SS))
    return image, hexes.scaled(_REDUCED[1])


def _hex_edges(lay: Layout, size: tuple[int, int], hexes: _HexMap) -> list[tuple[Box, _Margin, Image.Image]]:
    """The margins of the hex board of ``lay`` (:func:`_hex_margins`), each box grown to even
    pixels, with its pixels drawn from the board's map ``hexes`` and reduced (RGB): the same for
    every board of its layout, so drawn once for it (the last ``MARGINS_KEPT`` layouts kept)."""
    key = ("hex", lay.grid.width, lay.grid.height, lay.unit, lay.origin, size)
    with _guard:
        if key in _hex_cuts:
            _hex_cuts.move_to_end(key)
            return _hex_cuts[key]
    margins = [(_even(box, size), paint) for box, paint in _hex_margins(lay, size)]
    made = []
    for box, paint in margins:
        part = _hex_rgb(hexes.crop(box))
        draw = ImageDraw.Draw(part)
        for other, also in margins:
            if overlap(box, other) is not None:
                also(draw, (-box[0], -box[1]))
        made.append((box, paint, part.reduce(SS)))
    with _guard:
        _hex_cuts[key] = made
        while len(_hex_cuts) > MARGINS_KEPT:
            _hex_cuts.popitem(last=False)
    return made


#: how a margin of a hex board is drawn on an image, moved by a number of pixels (:func:`_hex_margins`)
_Margin = Callable[[ImageDraw.ImageDraw, tuple[int, int]], None]
#: the margins of hex boards by layout (:func:`_hex_edges`): each one's box, how it is drawn, its
#: pixels reduced (about 0.5 MB for a 40x40 board's, 0.2 MB for a 12x10 one's)
_hex_cuts: OrderedDict[Hashable, list[tuple[Box, _Margin, Image.Image]]] = OrderedDict()


def _hex_margins(lay: Layout, size: tuple[int, int]) -> list[tuple[Box, _Margin]]:
    """The coordinates of the hex board of ``lay`` (at ``SS``) by edge, and the rule under it, as
    :func:`_draw_board` and :func:`_draw_layer` draw them on an image of ``size``: each one's box,
    and how it is drawn moved by a number of pixels."""
    out: list[tuple[Box, _Margin]] = []
    font = _font(label_size(lay.unit / lay.scale) * lay.scale)
    scratch = ImageDraw.Draw(Image.new("L", (1, 1)))
    written = _coordinates(lay)
    for edge in range(4):
        texts = [(xy, text, anchor) for side, xy, text, anchor in written if side == edge]
        boxes = [scratch.textbbox(xy, text, font=font, anchor=anchor) for xy, text, anchor in texts]
        if boxes:
            out.append((_around([p for b in boxes for p in ((b[0], b[1]), (b[2], b[3]))], size), partial(_texts_at, font, texts)))
    k, top = lay.scale, lay.legend_top
    rule = [(PAD * k, top), (size[0] - PAD * k, top)]
    out.append((_around(rule, size), partial(_rule_at, rule, k)))
    return out


def _texts_at(font: Any, texts: Sequence[tuple[tuple[float, float], str, str]], draw: ImageDraw.ImageDraw,
              by: tuple[int, int]) -> None:
    """The coordinates ``texts`` (where, what, anchor) on ``draw``'s image, moved ``by`` pixels."""
    for (x, y), text, anchor in texts:
        draw.text((x + by[0], y + by[1]), text, font=font, fill=MUTED, anchor=anchor)


def _rule_at(rule: Sequence[tuple[float, float]], width: int, draw: ImageDraw.ImageDraw, by: tuple[int, int]) -> None:
    """The rule under the board from ``rule``'s first point to its last, on ``draw``'s image, moved ``by`` pixels."""
    draw.line([(x + by[0], y + by[1]) for x, y in rule], fill=GRID_LINE, width=width)


def _around(points: Sequence[tuple[float, float]], size: tuple[int, int]) -> Box:
    """The box of ``points`` with two pixels round it, within an image of ``size``."""
    return (max(0, math.floor(min(x for x, _ in points)) - 2), max(0, math.floor(min(y for _, y in points)) - 2),
            min(size[0], math.ceil(max(x for x, _ in points)) + 3), min(size[1], math.ceil(max(y for _, y in points)) + 3))


def _even(box: Box, size: tuple[int, int]) -> Box:
    """``box`` grown to even pixels (whole pixels of the board reduced by ``SS``), within ``size``."""
    return (box[0] - box[0] % SS, box[1] - box[1] % SS, min(size[0], box[2] + (-box[2]) % SS),
            min(size[1], box[3] + (-box[3]) % SS))


def _draw_board(img: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, cells: bool = True,
                hexes: Image.Image | None = None) -> None:
    """The board of ``lay`` on ``img``: at scale ``SS`` (to be reduced), or at scale 1 for a square
    board, whose cells, walls and lines lie on whole pixels; then its hatches and letters are
    drawn at ``SS`` on enlarged parts of ``img`` (:func:`_smoothed`) and its coordinates as
    :func:`small_text` writes them, so they look as they would on a board reduced from ``SS``.
    ``cells`` false: the coordinates alone (a square board of which no cell is read from ``img``,
    :func:`_square_layer`); ``hexes``: a hex board's :func:`_hex_map`, ``img`` already its colours
    (else it is drawn, and pasted on ``img``)."""
    grid, u, k = lay.grid, lay.unit, lay.scale
    if cells and grid.kind == "hex":
        _hex_board(img, draw, lay, _hex_map(lay, img.size).whole() if hexes is None else hexes, hexes is None)
    elif cells:
        _draw_cells(draw, lay, BOARD)
        for cell, kind in grid.terrain.items():
            if grid.contains(cell) and cell not in grid.blocked:
                if k == 1:
                    _smoothed(img, lay, cell, partial(_draw_terrain, cell=cell, kind=kind))
                else:
                    _draw_terrain(img, lay, cell, kind)
        for shape in columns(lay, [cell for cell in grid.blocked if grid.contains(cell)]):
            draw.polygon(shape, fill=WALL)
        _draw_lines(draw, lay, GRID_LINE, MUTED)
    size = label_size(u / k) * k  # coordinates on all four edges, as players type them
    for _, xy, text, anchor in _coordinates(lay):
        if k == 1:
            small_text(img, (xy[0] * SS, xy[1] * SS), text, size * SS, MUTED, anchor, SS)
        else:
            draw.text(xy, text, font=_font(size), fill=MUTED, anchor=anchor)


#: a coordinate written on a board's edge: the edge (0 top, 1 bottom, 2 left, 3 right), where, the
#: text and its anchor
_Text = tuple[int, tuple[float, float], str, str]


def _coordinates(lay: Layout) -> list[_Text]:
    """The coordinates on all four edges of the board of ``lay``, as players type them, in the
    order they are written: each column's letters above and below, then each row's number left
    and right."""
    grid, u, gap = lay.grid, lay.unit, 0.6 * PAD * lay.scale
    bx0, by0, bx1, _ = bounds(grid)
    ox, oy = lay.origin
    last_col, last_row = grid.width - 1, grid.height - 1
    out: list[_Text] = []
    for c in range(grid.width):
        letters, x = cell_name((c, 0))[:-1], lay.centre(Cell(c, 0))[0]
        out.append((0, (x, oy + by0 * u - gap), letters, "md"))
        out.append((1, (x, lay.centre(Cell(c, last_row))[1] + u / 2 + gap), letters, "ma"))
    for r in range(grid.height):
        left, right = lay.centre(Cell(0, r)), lay.centre(Cell(last_col, r))
        out.append((2, (ox + bx0 * u - gap, left[1]), str(r + 1), "rm"))
        out.append((3, (ox + bx1 * u + gap, right[1]), str(r + 1), "lm"))
    return out


def _draw_terrain(img: Image.Image, lay: Layout, cell: Cell, kind: str) -> None:
    """The terrain of ``kind`` on ``cell``: its tile, pasted inside the cell's grid lines."""
    pic, mask = _terrain_tile(lay, TERRAIN_STYLES.get(kind, OTHER_TERRAIN))
    pts = lay.outline(cell)
    img.paste(pic, (round(min(p[0] for p in pts)), round(pts[1][1])), mask)


def _smoothed(img: Image.Image, lay: Layout, cell: Cell, paint: Callable[[Image.Image, Layout], None]) -> None:
    """``paint`` the part of ``img`` (scale 1, laid out by ``lay``) around ``cell`` at scale ``SS``:
    the part enlarged, painted with the layout scaled to it, and reduced back in place, which
    anti-aliases what ``paint`` draws as on a board drawn at ``SS`` and keeps the rest."""
    pts = lay.outline(cell)
    box = (
        max(0, math.floor(min(x for x, _ in pts)) - 1), max(0, math.floor(min(y for _, y in pts)) - 1),
        min(img.width, math.ceil(max(x for x, _ in pts)) + 2), min(img.height, math.ceil(max(y for _, y in pts)) + 2),
    )  # fmt: skip
    part = img.crop(box).resize(((box[2] - box[0]) * SS, (box[3] - box[1]) * SS), Image.Resampling.NEAREST)
    big = lay.scaled(SS)
    paint(part, replace(big, origin=(big.origin[0] - box[0] * SS, big.origin[1] - box[1] * SS)))
    img.paste(part.reduce(SS), box[:2])


def _draw_heights(draw: ImageDraw.ImageDraw, lay: Layout, mask: bool = False, only: Cell | None = None) -> None:
    """Each marked height in its cell's top-left corner, with a halo; ``mask``: both in 255;
    ``only``: that cell's alone."""
    grid, u = lay.grid, lay.unit
    font = _font(max(7 * lay.scale, round(u * 0.22)))
    for cell, feet in grid.heights.items():
        if not feet or not grid.contains(cell) or only not in (None, cell):
            continue
        x, y = lay.outline(cell)[0 if grid.kind == "square" else 1]  # the top-left corner
        if cell in grid.blocked:
            under, ink = WALL, contrast(WALL)
        else:
            kind = grid.terrain.get(cell)
            under, ink = (
                BOARD if kind is None else TERRAIN_STYLES.get(kind, OTHER_TERRAIN).fill,
                HEIGHT_INK,
            )
        draw.text(
            (x + u * 0.05, y + u * 0.03),
            f"{feet}'",
            font=font,
            fill=255 if mask else ink,
            anchor="la",
            stroke_width=max(1, round(u * 0.025)),
            stroke_fill=255 if mask else under,
        )


def _heights_on(img: Image.Image, lay: Layout, mask: bool = False) -> None:
    """:func:`_draw_heights` on ``img`` at its scale ``lay.scale``, each height drawn at ``SS``
    on its cell when that is 1."""
    if lay.scale > 1:
        _draw_heights(ImageDraw.Draw(img), lay, mask)
        return
    for cell, feet in lay.grid.heights.items():
        if feet and lay.grid.contains(cell):
            _smoothed(img, lay, cell, partial(_height_of, cell=cell, mask=mask))


def _height_of(img: Image.Image, lay: Layout, cell: Cell, mask: bool) -> None:
    _draw_heights(ImageDraw.Draw(img), lay, mask, cell)


#: a square board's flat colours, the first entries of its palette, drawn straight as them
_FLAT = (BACKGROUND, BOARD, GRID_LINE, MUTED, WALL)


def _square_layer(lay: Layout, img: Image.Image | None, box: Box | None = None,
                  walls: Mapping[int, Sequence[Cell]] | None = None) -> tuple[Image.Image, list[int], tuple[int, ...]]:  # fmt: skip
    """The palette image of the square board ``img`` (RGB, scale 1, drawn by :func:`_draw_board`),
    its palette and the entries inside its cells (all those of a cell with terrain or a height).
    Its cells, walls and lines lie on whole pixels: they are drawn again straight as palette
    indices (``_FLAT``), and only the parts with shades (the coordinates' margins, the cells with
    terrain or a height) are cut to the other entries. ``img`` None: a board without terrain or
    heights, whose only shades are its margins, the same on every board of its layout
    (:func:`_margins`); ``box``: of such a board, only the pixels of ``box`` (its index 0 beyond
    the board's rows), drawn with its layout moved by the box's corner; ``walls``: its walls by
    column (:func:`_walls`), where known."""
    grid, (ox, oy) = lay.grid, lay.origin
    _, _, bx1, by1 = bounds(grid)
    cells_, line, edge, wall = (_FLAT.index(c) for c in (BOARD, GRID_LINE, MUTED, WALL))
    w, h = lay.size[0], lay.legend_top
    (x, y), size, at = (0, 0), (w, h + 1), lay
    if box is not None:
        (x, y), size = box[:2], (box[2] - box[0], box[3] - box[1])
        at = replace(lay, origin=(ox - x, oy - y))
    index = Image.new("P", size, _FLAT.index(BACKGROUND))
    draw = ImageDraw.Draw(index)
    _draw_cells(draw, at, cells_)
    if box is None:
        near = [cell for cell in grid.blocked if grid.contains(cell)]
    else:  # the walls in the box's columns and rows of cells, and a cell round them
        by_col = _walls(grid) if walls is None else walls
        c0, c1 = math.floor((x - ox) / lay.unit) - 1, math.ceil((box[2] - ox) / lay.unit) + 1
        r0, r1 = math.floor((y - oy) / lay.unit) - 1, math.ceil((box[3] - oy) / lay.unit) + 1
        near = [cell for col in range(c0, c1 + 1) for cell in by_col.get(col, ()) if r0 <= cell.row <= r1]
    for shape in columns(at, near):
        draw.polygon(shape, fill=wall)
    _draw_lines(draw, at, line, edge, None if box is None else size)
    draw.line([(PAD - x, lay.legend_top - y), (w - PAD - x, lay.legend_top - y)], fill=line, width=1)
    left, top, right, bottom = math.floor(ox) - 1, math.floor(oy) - 1, math.ceil(ox + bx1 * lay.unit) + 2, math.ceil(oy + by1 * lay.unit) + 2
    margins: list[Box] = [(0, 0, w, top), (0, bottom, w, h), (0, top, left, bottom), (right, top, w, bottom)]
    cells: list[Box] = []
    for cell in {*grid.terrain, *(c for c, feet in grid.heights.items() if feet)}:
        if grid.contains(cell):
            pts = lay.outline(cell)
            cells.append((math.floor(min(x for x, _ in pts)) - 1, math.floor(min(y for _, y in pts)) - 1,
                          math.ceil(max(x for x, _ in pts)) + 2, math.ceil(max(y for _, y in pts)) + 2))
    boxes = [b for b in (overlap(b, (0, 0, w, h)) for b in margins + cells) if b is not None]
    palette, inside = [v for c in _FLAT for v in c], {cells_, wall}
    if (cut := _margins(lay, boxes) if img is None else _cut(img, boxes)) is not None:
        parts, palette = cut
        for n, ((x0, y0, x1, y1), part) in enumerate(zip(boxes, parts)):
            if box is None or overlap((x0, y0, x1, y1), box) is not None:
                index.paste(part, (x0 - x, y0 - y))
            if n >= len(margins):  # a cell's part
                inside.update(i for i, count in enumerate(part.histogram()) if count)
    return index, palette, tuple(sorted(inside))


def _walls(grid: Grid) -> dict[int, list[Cell]]:
    """The walls on ``grid``, by column."""
    out: dict[int, list[Cell]] = {}
    for cell in grid.blocked:
        if grid.contains(cell):
            out.setdefault(cell.col, []).append(cell)
    return out


def _square_part(lay: Layout, walls: Mapping[int, Sequence[Cell]], box: Box) -> Image.Image:
    """The pixels of ``box`` of the square board of ``lay`` without terrain or heights (P, no
    palette), whose ``walls`` are these by column, drawn again (:func:`_square_layer`)."""
    return _square_layer(lay, None, box, walls)[0]


def _cut(img: Image.Image, boxes: Sequence[Box]) -> tuple[list[Image.Image], list[int]] | None:
    """The pixels of ``boxes`` in ``img`` (RGB) cut together to a palette beside ``_FLAT``: each
    box's part (P), and the palette's entries up to the last used; None without pixels."""
    pixels = b"".join(img.crop(b).tobytes() for b in boxes)
    if not pixels:
        return None
    shades, palette = quantize(Image.frombytes("RGB", (len(pixels) // 3, 1), pixels), BOARD_COLOURS, _FLAT)
    data, at, parts = shades.tobytes(), 0, []
    for x0, y0, x1, y1 in boxes:
        parts.append(Image.frombytes("P", (x1 - x0, y1 - y0), data[at : at + (x1 - x0) * (y1 - y0)]))
        at += (x1 - x0) * (y1 - y0)
    high = shades.getextrema()[1]  # one band: the highest palette index used
    return parts, palette[: 3 * max(len(_FLAT), int(high) + 1)]  # type: ignore[arg-type]  # one band: a number


def _margins(lay: Layout, boxes: Sequence[Box]) -> tuple[list[Image.Image], list[int]] | None:
    """:func:`_cut` of the margins ``boxes`` of a square board of ``lay`` without terrain or
    heights: its coordinates, the same for every board of its layout, so cut once for it (the
    last ``MARGINS_KEPT`` layouts kept), and a board of another's size (or its walls changed)
    draws only its cells, walls and lines."""
    key = (lay.grid.width, lay.grid.height, lay.unit, lay.origin, lay.size[0], lay.legend_top, tuple(boxes))
    with _guard:
        if key in _cuts:
            _cuts.move_to_end(key)
            return _cuts[key]
    img = Image.new("RGB", (lay.size[0], lay.legend_top + 1), BACKGROUND)
    _draw_board(img, ImageDraw.Draw(img), lay, cells=False)
    made = _cut(img, boxes)
    with _guard:
        _cuts[key] = made
        while len(_cuts) > MARGINS_KEPT:
            _cuts.popitem(last=False)
    return made


#: the margins of square boards cut to their palettes, by layout (:func:`_margins`): each box's part
#: and the palette, kept as pasted, so a board of a layout drawn before only pastes them
_cuts: OrderedDict[Hashable, tuple[list[Image.Image], list[int]] | None] = OrderedDict()


def _draw_layer(lay: Layout) -> Board:
    """The board of ``lay`` (scale 1) and the rule under it, as every picture of it starts: drawn
    at ``SS`` and reduced, a square board at scale 1 (see :func:`_draw_board`)."""
    k = 1 if lay.grid.kind == "square" else SS
    # a square board's cells are read in RGB only where they have terrain or a height
    if k == 1 and not any(lay.grid.contains(c) for c in [*lay.grid.terrain, *(c for c, f in lay.grid.heights.items() if f)]):
        index, palette, inside = _square_layer(lay, None, (0, 0, *lay.size))  # as its first picture starts
        redraw = partial(_square_part, lay, _walls(lay.grid))
        return Board.pack(index, palette, lay, inside, None, redraw, (lay.size[0], lay.legend_top + 1))
    heights = None
    inner: Image.Image | _HexMap
    if k > 1 and _REDUCED is not None and not any(feet and lay.grid.contains(cell) for cell, feet in lay.grid.heights.items()):
        image, inner = _hex_layer(lay)  # no RGB image at SS
    else:
        big = lay.scaled(k)
        size = (big.size[0], (lay.legend_top + 1) * k)
        hexes = _hex_map(big, size).whole() if k > 1 else None
        img = Image.new("RGB", size, BACKGROUND) if hexes is None else _hex_rgb(hexes)
        draw = ImageDraw.Draw(img)
        _draw_board(img, draw, big, hexes=hexes)
        draw.line([(PAD * k, big.legend_top), (size[0] - PAD * k, big.legend_top)], fill=GRID_LINE, width=k)
        if any(feet and lay.grid.contains(cell) for cell, feet in lay.grid.heights.items()):
            _heights_on(img, big)
            heights = Image.new("L", size, 0)
            _heights_on(heights, big, mask=True)
            heights = heights.reduce(k) if k > 1 else heights
        if hexes is None:  # a square board, at scale 1
            index, palette, inside = _square_layer(lay, img)
            return Board.pack(index, palette, lay, inside, heights)
        image = img.reduce(k)
        inner = hexes.point([255 if i == _IN else 0 for i in range(256)]).reduce(k).point(_HALF)
    index, palette = quantize(image, BOARD_COLOURS)
    high = index.getextrema()[1]  # one band: the highest palette index used
    if not isinstance(high, (int, float)):
        raise TypeError(f"a palette image has one band, not {index.getbands()}")
    used = 3 * (int(high) + 1)
    inside = tuple(i for i, n in enumerate(index.histogram(inner.whole() if isinstance(inner, _HexMap) else inner)) if n)
    return Board.pack(index, palette[:used], inner, inside, heights)


def board(lay: Layout) -> Board:
    """The kept board of ``lay``, keyed by all it is drawn from."""
    grid = lay.grid
    key = (
        grid.kind, grid.width, grid.height, grid.blocked,
        frozenset(grid.terrain.items()), frozenset(grid.heights.items()),
        lay.unit, lay.origin, lay.size[0], lay.legend_top,
    )  # fmt: skip
    return _kept(key, lambda: _draw_layer(lay))


# -- the PNG --------------------------------------------------------------------------------
def quantize(img: Image.Image, colours: int, fixed: tuple[RGB, ...] = ()) -> tuple[Image.Image, list[int]]:
    """``img`` (RGB) cut to a palette of at most ``colours`` entries: a P image and the palette
    (R, G, B values). The entries are chosen from an even sample of at most ``SAMPLE`` pixels and
    each pixel takes the nearest; then each entry is set to the commonest colour of the sampled
    pixels it stands for (not their mean), so that flat areas keep their exact colour. ``fixed``:
    the palette's first entries, kept as they are (the others are chosen beside them)."""
    out, palette, _ = _quantized(img, colours, fixed)
    return out, palette


#: the sampled colours are counted with a table for this many first (one for every sampled pixel
#: takes 0.9 MB of new pages each picture), with one that large only where there are more
_COUNTED = 4096


def _quantized(img: Image.Image, colours: int, fixed: tuple[RGB, ...] = ()) -> tuple[Image.Image, list[int], Image.Image]:
    """:func:`quantize`, and the P image whose palette each pixel took the nearest entry of (to
    cut more pixels as these were: :func:`_nearest`)."""
    (w, h), part = img.size, min(1.0, SAMPLE / (img.width * img.height))
    if h == 1:
        size = (max(1, round(w * part)), 1)
    else:
        size = (max(1, round(w * math.sqrt(part))), max(1, round(h * math.sqrt(part))))
    sample = img.resize(size, Image.Resampling.NEAREST)
    chosen = sample.quantize(colours - len(fixed), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette = [v for c in fixed for v in c] + (chosen.getpalette() or [])
    if fixed:
        chosen = Image.new("P", (1, 1))
        chosen.putpalette(palette)
    out = img.quantize(palette=chosen, dither=Image.Dither.NONE)
    index = Image.frombytes("L", size, out.resize(size, Image.Resampling.NEAREST).tobytes())
    merged = Image.merge("RGBA", (*sample.split(), index))
    counts = merged.getcolors(_COUNTED) or merged.getcolors(size[0] * size[1]) or []
    best: dict[int, tuple[int, int, int, int]] = {}
    for n, (r, g, b, i) in counts:  # type: ignore[misc]  # an RGBA image's colours: four bands
        if i >= len(fixed) and (n, r, g, b) > best.get(i, (0, 0, 0, 0)):  # a tie: the larger colour, in any order
            best[i] = (n, r, g, b)
            palette[3 * i : 3 * i + 3] = (r, g, b)
    return out, palette, chosen


def overlap(a: Box, b: Box) -> Box | None:
    """The part of box ``a`` within box ``b``, if any."""
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _in_place(palette: list[int], before: Sequence[int]) -> tuple[list[int], list[int]]:
    """``palette``'s entries reordered so that each colour ``before`` had keeps its place there (a
    picture's unchanged pixels keep their indices, and so their PNG bands): where each entry goes
    (256 of them, the others left in place) and the palette reordered."""
    n = len(palette) // 3
    if not before or palette == before[: 3 * n]:  # nothing to keep: each entry where it is
        return list(range(256)), palette
    flat, old = bytes(palette), bytes(before[: 3 * n])
    colours = [flat[at : at + 3] for at in range(0, 3 * n, 3)]
    spots: dict[bytes, list[int]] = {}
    for i in range(len(old) // 3 - 1, -1, -1):
        spots.setdefault(old[3 * i : 3 * i + 3], []).append(i)
    place = [spots[c].pop() if spots.get(c) else -1 for c in colours]
    free = iter(sorted(set(range(n)) - set(place)))
    place = [p if p >= 0 else next(free) for p in place]
    out = bytearray(3 * n)
    for c, p in zip(colours, place):
        out[3 * p : 3 * p + 3] = c
    return place + list(range(n, 256)), list(out)


@dataclass
class _Tint:
    """Cells tinted in a picture: in the palette at once, in its pixels only under what is laid
    over them (nothing else reads those pixels)."""

    box: Box
    mask: Image.Image  #: L, the size of ``box``: 255 where tinted, else 0
    colour: RGB
    alpha: int
    done: Image.Image  #: L, the size of ``box``: 255 where its pixels are tinted


@dataclass(frozen=True)
class _Laid:
    """A layer (RGBA) laid over a picture's board, where its top-left corner goes, and what it is
    drawn from (``source``: the same source, the same colours; None where not known)."""

    layer: Image.Image
    at: tuple[int, int]
    source: Hashable

    @property
    def box(self) -> Box:
        return (*self.at, self.at[0] + self.layer.width, self.at[1] + self.layer.height)

    def same(self, other: _Laid) -> bool:
        """The same pixels laid at the same place."""
        return self.at == other.at and (self.layer is other.layer or (
            self.layer.size == other.layer.size and self.layer.tobytes() == other.layer.tobytes()))


#: what Pillow keeps with a palette once pixels were cut to it: each colour's nearest entry
#: (64 x 64 x 64 two-byte entries), made as pixels are cut to it (about 0.4 ms for a picture's)
_NEAREST_TABLE = 2 * 64**3


@dataclass(frozen=True)
class _Last:
    """What a board's last picture keeps for the next: what it drew, the palette it cut what it
    drew to (and what that palette was chosen for: ``sources``); its palette indices are kept with
    its PNG's bands (`Bands.pixels`). The next picture of the board that draws nothing new cuts its
    pixels to the same palette, and one that differs only where layers moved (tokens, the trail)
    or in its legend draws and cuts only those boxes (:meth:`Canvas.png`)."""

    size: tuple[int, int]
    palette: list[int]  #: the board's entries and its tints', before what is drawn over the board
    tints: list[tuple[Box, str, bytes]]  #: each tint's box, kind and mask
    laid: list[_Laid]
    legend: Hashable
    sources: frozenset[Hashable]  #: what the entries for the pixels drawn over were chosen for
    nearest: Image.Image  #: P: each pixel drawn over took the nearest of its palette's entries
    lut: list[int]  #: ... and that entry's place in the picture's palette (from ``palette`` on)
    colours: list[int]  #: the entries from ``palette`` on
    under: Image.Image | None  #: P: the indices under what was laid (tinted), if not the board's

    @property
    def nbytes(self) -> int:  # its pixels are kept with the bands (`Bands.pixels`)
        return _NEAREST_TABLE + (0 if self.under is None else self.under.width * self.under.height)


@dataclass(frozen=True)
class _Legend:
    """A picture's legend: what it shows (``key``), its items' boxes of the picture with their
    pixels (``pieces``, RGB; the rest of its strip is ``BACKGROUND``) and where its strip goes
    (``box``), what it is drawn from (``sources``), the boxes of the picture cut to the palette
    with the layers (``parts``) and the board's entry of its ground (``BACKGROUND``), which the
    rest of it takes (None: none, and ``parts`` is the whole strip)."""

    key: Hashable
    pieces: list[tuple[Box, Image.Image]]
    box: Box
    sources: frozenset[Hashable]
    parts: list[Box]
    ground: int | None

    def pixels(self, box: Box) -> Image.Image:
        """The strip's pixels of ``box`` (RGB): its ground, and its items' where they are."""
        rgb = Image.new("RGB", (box[2] - box[0], box[3] - box[1]), BACKGROUND)
        for at, piece in self.pieces:
            if (part := overlap(box, at)) is not None:
                pixels = piece if part == at else piece.crop(_moved(part, (-at[0], -at[1])))
                rgb.paste(pixels, (part[0] - box[0], part[1] - box[1]))
        return rgb

    def inside(self, box: Box) -> Image.Image | None:
        """The strip's pixels of ``box``, if within it (else None)."""
        x0, y0, x1, y1 = self.box
        if box[0] < x0 or box[1] < y0 or box[2] > x1 or box[3] > y1:
            return None
        piece = next((piece for at, piece in self.pieces if at == box), None)  # an item's box, as cut
        return self.pixels(box) if piece is None else piece

    def ground_under(self, index: Image.Image, at: tuple[int, int]) -> None:
        """Give the pixels of ``index`` (its corner at ``at`` in the picture) within the legend
        its ground's entry."""
        if self.ground is not None and (part := overlap(self.box, (*at, at[0] + index.width, at[1] + index.height))):
            index.paste(self.ground, _moved(part, (-at[0], -at[1])))


def _entry(palette: Sequence[int], colour: RGB) -> int | None:
    """The first entry of ``palette`` (R, G, B values) that is ``colour``, if any."""
    for i in range(len(palette) // 3):
        if tuple(palette[3 * i : 3 * i + 3]) == colour:
            return i
    return None


class Canvas:
    """A picture being drawn over its board: what is tinted, laid over it and the legend, in
    order, drawn when the PNG is made (:meth:`png`): the whole picture (:class:`_Whole`), or,
    where the board's last picture shows the same but where layers moved, only those boxes."""

    def __init__(self, base: Board, size: tuple[int, int]) -> None:
        self.base, self.size = base, size
        self.tints: list[tuple[Box, Image.Image, str]] = []
        self.laid: list[_Laid] = []
        self.legend: _Legend | None = None

    def tint(self, box: Box, mask: Image.Image, kind: str) -> None:
        """Tint the pixels of ``box`` where ``mask`` is 255 (else 0) as cells of ``kind`` are shaded."""
        self.tints.append((box, mask, kind))

    def lay(self, layer: Image.Image, at: tuple[int, int], source: Hashable = None) -> None:
        """Lay ``layer`` (RGBA) over the picture, its top-left corner at ``at``; ``source``: what
        it is drawn from, whose colours it has (None: not known)."""
        self.laid.append(_Laid(layer, at, source))

    def strip(self, key: Hashable, pieces: list[tuple[Box, Image.Image]], box: Box, sources: frozenset[Hashable]) -> None:
        """The legend: a strip at ``box``, showing what ``key`` names, drawn from ``sources``, its
        items' ``pieces`` (their boxes of the strip and pixels, RGB; the rest is ``BACKGROUND``)."""
        ground = _entry(self.base.palette, BACKGROUND)
        placed = [(_moved(b, (box[0], box[1])), im) for b, im in pieces]
        self.legend = _Legend(key, placed, box, sources, [box] if ground is None else [b for b, _ in placed], ground)

    def png(self) -> bytes:
        """The PNG. Where no height is written over what is drawn and the palette has room for the
        tints, only the boxes drawn over the board are drawn (:meth:`_boxes`), and of those only
        the ones that changed since the board's last picture where that can be (:func:`_changed`);
        else the whole picture (:class:`_Whole`). The pixels drawn over the board are cut to the
        last picture's palette where this one draws nothing that palette was not chosen for, else
        to a palette chosen for them."""
        keeps = self.base.keeps()
        with keeps.lock:
            return self._made(keeps)

    def _made(self, keeps: Keeps) -> bytes:
        """:meth:`png`, ``keeps`` held."""
        last, legend = keeps.last, self.legend
        sources = frozenset([*(item.source for item in self.laid), *(legend.sources if legend else ())])
        tints = [(box, kind, mask.tobytes()) for box, mask, kind in self.tints]
        palette, luts = _tint_palette(self.base, [kind for _, _, kind in self.tints])
        keep = last if (last is not None and last.size == self.size and last.palette == palette
                        and None not in sources and sources <= last.sources) else None  # fmt: skip
        if BOXES and luts is not None and self.base.heights is None:
            if keep is not None and keep.tints == tints and (dirty := _changed(keep, self.laid)) is not None:
                return self._redrawn(keep, dirty + ([] if legend is None or legend.key == keep.legend else [legend.box]))
            return self._boxes(palette, luts, keep, tints, sources)
        whole = _Whole(self.base, self.size)
        for box, mask, kind in self.tints:
            whole.tint(box, mask, kind)
        for item in self.laid:
            whole.lay(item.layer, item.at)
        whole.heights()
        if legend is not None:
            whole.image.paste(legend.pixels(legend.box), legend.box[:2])
            whole.drawn += legend.parts
            legend.ground_under(whole.index, (0, 0))
        png, made = whole.png(keep)
        self._keep_last(whole.palette, tints, sources, keep, made, whole.under)
        return png

    def _legend_key(self) -> Hashable:
        """What this picture's legend shows (None: it has none)."""
        return None if self.legend is None else self.legend.key

    def _keep_last(self, palette: list[int], tints: list[tuple[Box, str, bytes]], sources: frozenset[Hashable],
                   keep: _Last | None, cut: tuple[Image.Image, list[int], list[int]], under: Image.Image | None) -> None:
        """Keep this picture for its board's next (`Keeps.last`): ``palette`` (the board's entries
        and the tints'), its ``tints``, layers and legend, what the entries for the pixels drawn
        over were chosen for (``sources``; ``keep``'s, where they were cut to its palette), ``cut``
        (`_cut_over`'s nearest entries, their places and colours) and the indices ``under`` what
        was laid, where tinted."""
        self.base.keeps().last = _Last(self.size, palette, tints, self.laid, self._legend_key(),
                                       sources if keep is None else keep.sources, *cut, under)

    def _drawn(self) -> list[Box]:
        """The boxes drawn over the board (each layer's, the legend's) within the picture."""
        whole = (0, 0, *self.size)
        boxes = [item.box for item in self.laid] + ([] if self.legend is None else self.legend.parts)
        return [b for b in (overlap(box, whole) for box in boxes) if b is not None]

    def _rgb(self, boxes: Sequence[Box], board: Callable[[Box], Image.Image]) -> list[Image.Image]:
        """The pixels of each of ``boxes`` (RGB), as the whole picture has them: the board (``board``
        of a box: its pixels, P), its tints, the layers laid over it and the legend."""
        rows: dict[int, list[int]] = {}  # the layers by the rows of _ROWS pixels they touch
        for i, item in enumerate(self.laid):
            _, y0, _, y1 = item.box
            for n in range(y0 // _ROWS, (y1 - 1) // _ROWS + 1):
                rows.setdefault(n, []).append(i)
        out, legend = [], self.legend
        for box in boxes:
            if legend is not None and (inside := legend.inside(box)) is not None:  # pasted last, whole
                out.append(inside)
                continue
            (_, y0, _, y1), at = box, (-box[0], -box[1])
            rgb = board(box).convert("RGB")
            for tbox, mask, kind in self.tints:
                if (part := overlap(box, tbox)) is not None:
                    colour, alpha = shading_tint(kind)
                    rel = (part[0] - tbox[0], part[1] - tbox[1], part[2] - tbox[0], part[3] - tbox[1])
                    rgb.paste(colour, _moved(part, at), mask.crop(rel).point([0] * 255 + [alpha]))
            near = sorted({i for n in range(y0 // _ROWS, (y1 - 1) // _ROWS + 1) for i in rows.get(n, ())})
            for item in (self.laid[i] for i in near):
                if overlap(box, item.box) is not None:
                    rgb.paste(item.layer, (item.at[0] + at[0], item.at[1] + at[1]), item.layer)
            if legend is not None and (part := overlap(box, legend.box)) is not None:
                rgb.paste(legend.pixels(part), _moved(part, at)[:2])
            out.append(rgb)
        return out

    def _boxes(self, palette: list[int], luts: list[list[int]], keep: _Last | None,
               tints: list[tuple[Box, str, bytes]], sources: frozenset[Hashable]) -> bytes:
        """The picture drawn only where something is drawn over the board (no RGB image of the
        whole picture): the board's indices, tinted, and the boxes drawn over it, cut to ``keep``'s
        palette where given, else to one chosen for them; ``palette``: the board's entries and the
        tints' (``luts``: each tint's, from the board's entries to its own)."""
        index = self.base.picture(self.size)
        boxes = self._drawn()
        pixels = [im.tobytes() for im in self._rgb(boxes, index.crop)]  # the board's pixels: index's, as yet
        if self.legend is not None:
            self.legend.ground_under(index, (0, 0))
        for (box, mask, _), lut in zip(self.tints, luts):
            index.paste(index.crop(box).point(lut), box, mask)
        under = index.copy() if self.tints else None
        cut = _cut_over(index, boxes, pixels, len(palette) // 3, keep, self.base.keeps().bands)
        colours = cut[2]  # the entries the pixels drawn over were cut to
        self._keep_last(palette, tints, sources, keep, cut, under)
        return self._png(index, palette + colours, boxes)

    def _png(self, index: Image.Image, palette: list[int], boxes: Sequence[Box]) -> bytes:
        """The PNG of ``index``, the bands with rows of ``boxes`` or of a tint compared with the
        last picture's, the others the board's."""
        return _picture_png(self.size, index, palette, self.base, [*boxes, *(b for b, _, _ in self.tints)])

    def _redrawn(self, last: _Last, dirty: list[Box]) -> bytes:
        """The picture as ``last`` with the boxes ``dirty`` drawn again (the board under them,
        tinted, what is laid over them and the legend) and cut to its palette."""
        whole = (0, 0, *self.size)
        dirty = [b for b in (overlap(d, whole) for d in dirty) if b is not None]
        drawn = self._drawn()
        parts: dict[Box, Image.Image] = {}  # the board's pixels of each box, drawn again or cut once

        def board(box: Box) -> Image.Image:
            if box not in parts:
                parts[box] = self.base.part(box)
            return parts[box]

        under = (lambda box: board(box).copy()) if last.under is None else last.under.crop  # each drawn on
        index = Image.frombytes("P", self.size, self.base.keeps().bands.pixels)
        for box, rgb in zip(dirty, self._rgb(dirty, board)):
            over = Image.new("L", rgb.size, 0)
            for b in drawn:
                if (part := overlap(box, b)) is not None:
                    over.paste(255, _moved(part, (-box[0], -box[1])))
            pixels = under(box)
            if self.legend is not None:
                self.legend.ground_under(pixels, box[:2])
            pixels.paste(_nearest(rgb, last.nearest, last.lut), (0, 0), over)
            index.paste(pixels, box[:2])
        self.base.keeps().last = replace(last, laid=self.laid, legend=self._legend_key())
        return self._png(index, last.palette + last.colours, drawn)


def _cut_over(index: Image.Image, boxes: Sequence[Box], pixels: Sequence[bytes], first: int, keep: _Last | None,
              bands: Bands) -> tuple[Image.Image, list[int], list[int]]:  # fmt: skip
    """Cut the ``pixels`` (RGB) of ``boxes``, drawn over the board, together to the palette's
    entries from ``first`` on, ``keep``'s where given (else chosen for them and placed where
    ``bands`` had the last picture's colours), and write them into ``index``; the palette they
    were cut to, as :class:`_Last` keeps it."""
    strip = b"".join(pixels)
    over = Image.frombytes("RGB", (max(1, len(strip) // 3), 1), strip or bytes(3))
    if keep is not None:
        nearest, lut, colours = keep.nearest, keep.lut, keep.colours
        over = _nearest(over, nearest, lut)
    else:
        over, colours, nearest = _quantized(over, 256 - first)
        nearest = _untabled(nearest)  # its table made for the next picture that cuts to it, if one does
        place, colours = _in_place(colours, bands.colours if bands.first == first else [])
        bands.first, bands.colours = first, colours
        lut = [min(255, p + first) for p in place]
        over = over.point(lut)
    data, at = over.tobytes(), 0
    for x0, y0, x1, y1 in boxes:
        n = (x1 - x0) * (y1 - y0)
        index.paste(Image.frombytes("P", (x1 - x0, y1 - y0), data[at : at + n]), (x0, y0))
        at += n
    return nearest, lut, colours


#: rows of pixels in which :meth:`Canvas._rgb` looks for the layers over a box
_ROWS = 64


def _moved(box: Box, by: tuple[int, int]) -> Box:
    return (box[0] + by[0], box[1] + by[1], box[2] + by[0], box[3] + by[1])


def _tint_palette(base: Board, kinds: Sequence[str]) -> tuple[list[int], list[list[int]] | None]:
    """The palette of a picture of ``base`` whose cells of ``kinds`` are tinted: the board's
    entries, then each kind's tinted copies of those inside the cells (and of the earlier
    kinds'); and each kind's lookup table from an index to its tinted copy's. None for the tables
    when the palette has no room for them (:meth:`_Whole.tint`)."""
    palette, luts = list(base.palette), []
    for kind in kinds:
        first = len(palette) // 3
        used = [*base.inside, *range(len(base.palette) // 3, first)]  # earlier tints too
        if first + len(used) > 256 - SPARE_COLOURS:
            return palette, None
        lut = list(range(256))
        for n, i in enumerate(used):
            lut[i] = first + n
            palette += tinted(tuple(palette[3 * i : 3 * i + 3]), kind)  # type: ignore[arg-type]  # a palette entry: three values
        luts.append(lut)
    return palette, luts


def _changed(last: _Last, laid: Sequence[_Laid]) -> list[Box] | None:
    """The boxes where ``laid`` differs from what ``last`` laid: those of the layers either lays
    and the other does not (a layer laid by both, at the same place, is the same); None where the
    layers both lay are not laid in the same order (where two overlap, the picture differs)."""
    pool: dict[tuple[int, int], list[tuple[int, _Laid]]] = {}
    for i, old in enumerate(last.laid):
        pool.setdefault(old.at, []).append((i, old))
    dirty, before = [], -1
    for item in laid:
        kept = pool.get(item.at, [])
        found = next((j for j, (_, old) in enumerate(kept) if item.same(old)), None)
        if found is None:
            dirty.append(item.box)
            continue
        i, _ = kept.pop(found)
        if i < before:
            return None
        before = i
    return dirty + [old.box for kept in pool.values() for _, old in kept]


def _untabled(palette: Image.Image) -> Image.Image:
    """A P image of one pixel with ``palette``'s palette, without the nearest-entry table Pillow
    keeps with a palette once pixels were cut to it (``_NEAREST_TABLE``): a board's first picture
    cuts its pixels with the table and leaves it, so the memory is the next picture's to use again
    (a table kept with each board kept unpacked is new memory to the process, 128 new pages); the
    board's next picture that cuts pixels to this palette makes its table again, and keeps it."""
    bare = Image.new("P", (1, 1))
    bare.putpalette(palette.getpalette() or [])
    return bare


def _nearest(rgb: Image.Image, nearest: Image.Image, lut: Sequence[int]) -> Image.Image:
    """``rgb``'s pixels as the entries of ``nearest``'s palette nearest them, placed by ``lut``."""
    return rgb.quantize(palette=nearest, dither=Image.Dither.NONE).point(lut)


def _picture_png(size: tuple[int, int], index: Image.Image, palette: list[int], base: Board, boxes: Sequence[Box]) -> bytes:
    """The PNG of a picture of ``size`` (``index``, cut to ``palette``) over the board ``base``: the
    bands with rows of ``boxes`` (drawn over the board, or tinted) and those under the board
    compared with the last picture's, the others the board's own (`palette_png`)."""
    drawn = _bands((0, 0, *size), boxes)
    below = base.size[1] // band_rows(size[0])  # the first band with rows under the board
    return palette_png(size, index.tobytes(), palette, PNG_LEVEL, base.keeps().bands, lambda n: n in drawn or n >= below)


def _bands(whole: Box, boxes: Sequence[Box]) -> set[int]:
    """The PNG bands with rows of ``boxes`` (within ``whole``, the picture)."""
    rows = band_rows(whole[2])
    return {n for box in boxes if (b := overlap(box, whole)) is not None
            for n in range(b[1] // rows, (b[3] - 1) // rows + 1)}


class _Whole:
    """A whole picture drawn over a copy of its board: its pixels, and each pixel's palette entry
    where it is known (the board's, and their tints). What else is drawn is recorded as boxes,
    cut to the palette's remaining entries when the PNG is made (:meth:`png`)."""

    def __init__(self, base: Board, size: tuple[int, int]) -> None:
        self.base = base
        self.index = base.picture(size)
        self.image = self.index.convert("RGB")
        self.palette = list(base.palette)
        self.drawn: list[Box] = []  #: where the index is not known
        self.tinted: list[Box] = []
        self._tints: list[_Tint] = []
        self.under: Image.Image | None = None  #: the indices under what was drawn, if tinted

    def tint(self, box: Box, mask: Image.Image, kind: str) -> None:
        """Tint the pixels of ``box`` where ``mask`` is 255 (else 0) as cells of ``kind`` are
        shaded: their palette entries become tinted copies, while the palette has room."""
        colour, alpha = shading_tint(kind)
        self.tinted.append(box)
        first = len(self.palette) // 3
        used = [*self.base.inside, *range(len(self.base.palette) // 3, first)]  # earlier tints too
        if first + len(used) > 256 - SPARE_COLOURS:  # no room: cut to the palette with the rest
            self._tint_under(box)
            self.image.paste(colour, box, mask.point([0] * 255 + [alpha]))
            self.drawn.append(box)
            return
        lut = list(range(256))
        for n, i in enumerate(used):
            lut[i] = first + n
            self.palette += tinted(tuple(self.palette[3 * i : 3 * i + 3]), kind)  # type: ignore[arg-type]  # a palette entry: three values
        self.index.paste(self.index.crop(box).point(lut), box, mask)
        self._tints.append(_Tint(box, mask, colour, alpha, Image.new("L", mask.size, 0)))

    def lay(self, layer: Image.Image, at: tuple[int, int]) -> None:
        """Lay ``layer`` (RGBA) over the picture, its top-left corner at ``at``."""
        box = (*at, at[0] + layer.width, at[1] + layer.height)
        self._tint_under(box)
        self.image.paste(layer, at, layer)
        self.drawn.append(box)

    def _tint_under(self, box: Box) -> None:
        """Tint the pixels of ``box`` as its palette entries are, where not done yet."""
        for t in self._tints:
            if (part := overlap(box, t.box)) is not None:
                rel = (part[0] - t.box[0], part[1] - t.box[1], part[2] - t.box[0], part[3] - t.box[1])
                todo = ImageChops.subtract(t.mask.crop(rel), t.done.crop(rel))
                self.image.paste(t.colour, part, todo.point([0] * 255 + [t.alpha]))
                t.done.paste(255, rel)

    def heights(self) -> None:
        """Write the board's heights again over all that was tinted or drawn so far."""
        if self.base.heights is None:  # unpacks nothing
            return
        for box in self.tinted + self.drawn:
            mask = self.base.heights.crop(box)
            board = self.base.part(box)
            self.image.paste(board.convert("RGB"), box, mask)
            self.index.paste(board, box, mask.point(_HALF))

    def png(self, keep: _Last | None) -> tuple[bytes, tuple[Image.Image, list[int], list[int]]]:
        """The PNG: the pixels drawn over cut together to the entries the palette has left (to
        ``keep``'s, where given); and the palette they were cut to (as :class:`_Last` keeps it)."""
        whole = (0, 0, *self.image.size)
        boxes = [b for b in (overlap(b, whole) for b in self.drawn) if b is not None]
        if self._tints:
            self.under = self.index.copy()
        kept = self.base.keeps().bands
        nearest, lut, palette = _cut_over(self.index, boxes, [self.image.crop(b).tobytes() for b in boxes],
                                          len(self.palette) // 3, keep, kept)  # fmt: skip
        png = _picture_png(self.image.size, self.index, self.palette + palette, self.base, [*boxes, *self.tinted])
        return png, (nearest, lut, palette)
