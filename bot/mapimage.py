"""The ``/map`` picture: an encounter's grid drawn as a PNG with Pillow.

Square boards and flat-topped "odd-q" hex boards drawn as hexes, labelled on all four edges
with the cell names players type (column letters, row numbers from 1 at the top). Walls are
dark; terrain cells get a light fill and a hatch; heights (feet) sit in a corner; cells the
system shades (:meth:`rules.system.RuleSystem.highlights`: the acting combatant's front arc or
reach, zones of threat) get a tint; the last move is a trail of dots in the mover's colour. Each
combatant on the board is a disc in its side's colour with its label (``bot.mapkey.labels``)
and a mark on the cell's edge it faces; a downed one is grey with a cross; the current one
wears a gold ring. A legend strip below gives the encounter, the round, each side's colour and
who is who, the trail, the shading and the terrain shown. Text is drawn in the bundled font.

Everything is drawn at ``SS`` times the final size and reduced once, which anti-aliases hexes,
discs and text cheaply. The PNG is cut to a 256-colour palette in which the flat colours stay
exact: a third the size of an optimised RGB PNG. Geometry comes from
:meth:`rules.geometry.Grid.centre`; :func:`layout` and :func:`cell_centre_px` give pixel positions
to callers and tests.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw, ImageFont

from bot.mapkey import HIGHLIGHT_WORDS, PALETTE, board_cell, describe_map, effect_words, initials, labels, side_colours
from bot.mapkey import font as _font
from bot.mapstyle import (
    _OTHER,
    _WALL_STYLE,
    BACKGROUND,
    BOARD,
    CURRENT_RING,
    DOWNED,
    GRID_LINE,
    HEIGHT_INK,
    HIGHLIGHT_TINTS,
    INK,
    MUTED,
    RGB,
    TERRAIN_STYLES,
    WALL,
    TerrainStyle,
    _contrast,
    _tile,
    _tint,
    _tinted,
    _token,
    _trail,
)
from rules.geometry import Cell, Grid, cell_name, parse_cell
from rules.models import Combatant, Encounter
from rules.system import Highlight, RuleSystem

__all__ = [
    "BOARD",
    "CURRENT_RING",
    "DOWNED",
    "MAX_PX",
    "PALETTE",
    "TERRAIN_STYLES",
    "WALL",
    "DEFAULT_CELL_PX",
    "HIGHLIGHT_TINTS",
    "Layout",
    "TerrainStyle",
    "cell_centre_px",
    "initials",
    "labels",
    "layout",
    "map_picture",
    "render_map",
    "side_colours",
]

Font = ImageFont.FreeTypeFont
Op = Callable[[Image.Image, ImageDraw.ImageDraw, float], None]  # a legend item, drawn at a y offset

MAX_PX = 2000  #: neither side of the image is larger
#: a cell's side by default: a 12x10 board is about 830 px wide, sharp in Discord's preview
DEFAULT_CELL_PX = 64
MIN_WIDTH = 440  #: room for the legend under a tiny map
MIN_CELL_PX = 12
SS = 2  #: supersampling factor
#: zlib level of the palette PNG: Pillow's ``optimize`` (level 9) costs 5x the time here for a
#: file ~7% smaller, and the palette already makes it about a third of an optimised RGB PNG
PNG_LEVEL = 6
PAD = 10


_HEX_R = 1 / math.sqrt(3)  # circumradius of a hex whose flat-to-flat height is 1
_COMPASS = {"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}


# -- names and colours ---------------------------------------------------------------------
def _fit(text: str, font: Font, width: float) -> str:
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "...") > width:
        text = text[:-1]
    return text.rstrip() + "..."


def _facing_angle(grid: Grid, facing: str | None) -> float | None:
    f = (facing or "").strip().upper()
    if f in grid.facings:
        return grid.facings.index(f) * 360 / len(grid.facings)
    return _COMPASS.get(f)


# -- layout ---------------------------------------------------------------------------------
def _bounds(grid: Grid) -> tuple[float, float, float, float]:
    """The board's extent in board units (``Grid.centre`` coordinates)."""
    if grid.kind == "square":
        return 0.0, 0.0, float(grid.width), float(grid.height)
    right = (grid.width - 1) * math.sqrt(3) / 2 + 0.5 + _HEX_R
    return 0.5 - _HEX_R, 0.0, right, grid.height + (0.5 if grid.width > 1 else 0.0)


def _label_size(unit: float) -> int:
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
        r = self.unit * _HEX_R
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


def layout(enc: Encounter, cell_px: int = DEFAULT_CELL_PX, shaded: Sequence[str] = ()) -> Layout:
    """Size the picture: ``cell_px`` per cell, less when the image would pass ``MAX_PX``;
    ``shaded``: the kinds of shaded cells the legend names."""
    grid = enc.grid()
    if grid is None:
        raise ValueError("this encounter has no map")
    bx0, by0, bx1, by1 = _bounds(grid)
    bw, bh = bx1 - bx0, by1 - by0
    unit = max(MIN_CELL_PX, int(cell_px))
    while True:
        fs = _label_size(unit)
        side = PAD + _font(fs).getlength(str(grid.height)) + PAD * 0.6  # row numbers, left and right
        top = PAD + fs + PAD * 0.6  # column letters above and below
        below = fs + PAD * 1.1
        width = max(MIN_WIDTH, math.ceil(2 * side + bw * unit))
        legend_h = math.ceil(_legend(enc, grid, width * SS, SS, shaded)[1] / SS)
        board_bottom = math.ceil(top + bh * unit + below)
        if max(width, board_bottom + legend_h) <= MAX_PX or unit <= MIN_CELL_PX:
            break
        fit = min((MAX_PX - 2 * side) / bw, (MAX_PX - top - below - legend_h) / bh)
        unit = max(MIN_CELL_PX, min(unit - 1, math.floor(fit)))
    shift = (width - (2 * side + bw * unit)) / 2  # centre a narrow board over the legend
    origin = (side + shift - bx0 * unit, top - by0 * unit)
    return Layout(grid, float(unit), origin, (width, board_bottom + legend_h), board_bottom)


def cell_centre_px(enc: Encounter, cell: str | Cell, cell_px: int = DEFAULT_CELL_PX) -> tuple[int, int]:
    """The pixel at the centre of ``cell`` in ``render_map(enc, cell_px=cell_px)``."""
    x, y = layout(enc, cell_px).centre(parse_cell(cell) if isinstance(cell, str) else cell)
    return math.floor(x), math.floor(y)


# -- drawing pieces -------------------------------------------------------------------------


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
    return _tile(style, size, max(3.0, lay.unit / 5), lay.scale), mask


def _legend(
    enc: Encounter, grid: Grid, width: float, k: int, shaded: Sequence[str] = ()
) -> tuple[list[Op], float]:
    """The legend strip's drawing operations and height, in pixels at scale ``k``; ``shaded``:
    the kinds of shaded cells on the board."""
    ops: list[Op] = []
    pad, row, tok = PAD * k, 30 * k, 34 * k  # tok: the cell size a legend token is drawn for
    title_f, text_f = _font(17 * k), _font(14 * k)
    colours, names = side_colours(enc), labels(enc)
    x: float = pad  # the flow's cursor: items run left to right and wrap to ``indent``
    y: float = pad + row / 2
    indent = pad + 22 * k

    def text(x: float, y: float, s: str, font: Font = text_f, fill: RGB = INK) -> None:
        def op(img: Image.Image, d: ImageDraw.ImageDraw, oy: float) -> None:
            d.text((x, y + oy), s, font=font, fill=fill, anchor="lm")

        ops.append(op)

    def token(cx: float, y: float, u: float, colour: RGB, label: str = "", **kw: bool) -> None:
        def op(img: Image.Image, d: ImageDraw.ImageDraw, oy: float) -> None:
            _token(d, cx, y + oy, u, colour, label, **kw)

        ops.append(op)

    def swatch(x: float, y: float, style: TerrainStyle) -> None:
        def op(img: Image.Image, d: ImageDraw.ImageDraw, oy: float) -> None:
            box = (round(x), round(y + oy - 8 * k))
            img.paste(_tile(style, (16 * k, 16 * k), 4 * k, k), box)
            d.rectangle([*box, box[0] + 16 * k - 1, box[1] + 16 * k - 1], outline=MUTED, width=k)

        ops.append(op)

    def trail(x: float, y: float, colour: RGB) -> None:
        def op(img: Image.Image, d: ImageDraw.ImageDraw, oy: float) -> None:
            _trail(d, [(x + 2 * k, y + oy + 5 * k), (x + 10 * k, y + oy - 5 * k), (x + 20 * k, y + oy - 5 * k)], 16 * k, colour)

        ops.append(op)

    def place(w: float) -> float:
        """Where the next item of width ``w`` goes, wrapping to a new row when it must."""
        nonlocal x, y
        if x + w > width - pad and x > indent:
            x, y = indent, y + row
        at, x = x, x + w + 16 * k
        return at

    if enc.round > 0:
        bits = [f"Round {enc.round}"] + ([f"{enc.current}'s turn"] if enc.current else [])
    else:
        bits = ["not started"]
    bits += [f"won by {enc.winner}"] if enc.winner else []
    text(pad, y, _fit(" · ".join([enc.name, *bits]), title_f, width - 2 * pad), title_f)
    for side, colour in colours.items():
        name = (side or "no side") + ":"
        y += row
        token(pad + 8 * k, y, 24 * k, colour)
        text(indent, y, name)
        x = indent + text_f.getlength(name) + 12 * k
        for c in (c for c in enc.combatants if c.side == side):
            off = c.status != "out" and board_cell(c.position, grid) is None
            note = {"downed": " (downed)", "out": " (out)"}.get(
                c.status, " (off map)" if off else ""
            )
            label = c.name
            at = place(tok + text_f.getlength(label + note))
            token(
                at + tok / 2,
                y,
                tok,
                colour,
                names[c.name],
                downed=c.status != "active",
                current=c.name == enc.current,
            )
            text(at + tok + 2 * k, y, label)
            if note:
                text(at + tok + 2 * k + text_f.getlength(label), y, note, fill=MUTED)
    mover = _mover(enc, grid)
    if mover is not None or shaded:
        y += row
        text(pad, y, "Shown:")
        x = pad + text_f.getlength("Shown:") + 12 * k
        if mover is not None:
            words = f"{mover.name}'s last move"
            at = place(26 * k + text_f.getlength(words))
            trail(at, y, colours[mover.side])
            text(at + 26 * k, y, words)
        for kind in shaded:
            words = HIGHLIGHT_WORDS.get(kind, kind) + (f" of {enc.current}" if enc.current else "")
            at = place(22 * k + text_f.getlength(words))
            swatch(at, y, TerrainStyle(_tinted(BOARD, kind), _tinted(BOARD, kind), ""))
            text(at + 22 * k, y, words)
    if enc.effects:
        y += row
        text(pad, y, "Effects:")
        x = pad + text_f.getlength("Effects:") + 12 * k
        for words in effect_words(enc):
            at = place(text_f.getlength(words))
            text(at, y, words)
    kinds = (["wall"] if grid.blocked else []) + sorted(set(grid.terrain.values()))
    if kinds:
        y += row
        text(pad, y, "Terrain:")
        x = pad + text_f.getlength("Terrain:") + 12 * k
        for kind in kinds:
            at = place(22 * k + text_f.getlength(kind))
            swatch(at, y, _WALL_STYLE if kind == "wall" else TERRAIN_STYLES.get(kind, _OTHER))
            text(at + 22 * k, y, kind)
    return ops, y + row / 2 + pad


# -- the picture ----------------------------------------------------------------------------
def _draw_board(
    img: Image.Image, draw: ImageDraw.ImageDraw, enc: Encounter, lay: Layout, highlights: Sequence[Highlight] = ()
) -> None:
    grid, u, k = lay.grid, lay.unit, lay.scale
    bx0, by0, bx1, by1 = _bounds(grid)
    ox, oy = lay.origin
    hexes, line = grid.kind == "hex", max(1, k)
    if hexes:
        for cell in grid.cells():
            draw.polygon(lay.outline(cell), fill=BOARD)
    else:
        draw.rectangle([ox, oy, ox + bx1 * u, oy + by1 * u], fill=BOARD)
    tiles: dict[str, tuple[Image.Image, Image.Image]] = {}
    for cell, kind in grid.terrain.items():
        if grid.contains(cell) and cell not in grid.blocked:
            if kind not in tiles:
                tiles[kind] = _terrain_tile(lay, TERRAIN_STYLES.get(kind, _OTHER))
            pts = lay.outline(cell)
            img.paste(
                tiles[kind][0], (round(min(p[0] for p in pts)), round(pts[1][1])), tiles[kind][1]
            )
    for cell in grid.blocked:
        if grid.contains(cell):
            draw.polygon(lay.outline(cell), fill=WALL)
    _draw_shading(img, lay, highlights)
    if hexes:
        for cell in grid.cells():  # lines: a wide polygon outline costs a full-size mask
            pts = lay.outline(cell)
            draw.line([*pts, pts[0]], fill=GRID_LINE, width=line)
    else:
        for c in range(grid.width + 1):
            draw.line([(ox + c * u, oy), (ox + c * u, oy + by1 * u)], fill=GRID_LINE, width=line)
        for r in range(grid.height + 1):
            draw.line([(ox, oy + r * u), (ox + bx1 * u, oy + r * u)], fill=GRID_LINE, width=line)
        draw.rectangle([ox, oy, ox + bx1 * u, oy + by1 * u], outline=MUTED, width=line)
    font = _font(_label_size(u / k) * k)  # coordinates on all four edges, as players type them
    gap = 0.6 * PAD * k
    last_col, last_row = grid.width - 1, grid.height - 1
    for c in range(grid.width):
        letters, x = cell_name((c, 0))[:-1], lay.centre(Cell(c, 0))[0]
        draw.text((x, oy + by0 * u - gap), letters, font=font, fill=MUTED, anchor="md")
        bottom = lay.centre(Cell(c, last_row))[1] + u / 2 + gap
        draw.text((x, bottom), letters, font=font, fill=MUTED, anchor="ma")
    for r in range(grid.height):
        left, right = lay.centre(Cell(0, r)), lay.centre(Cell(last_col, r))
        draw.text((ox + bx0 * u - gap, left[1]), str(r + 1), font=font, fill=MUTED, anchor="rm")
        draw.text((ox + bx1 * u + gap, right[1]), str(r + 1), font=font, fill=MUTED, anchor="lm")


def _draw_shading(img: Image.Image, lay: Layout, highlights: Sequence[Highlight]) -> None:
    """Tint the cells a system shades, one kind at a time, over the terrain and under the lines."""
    by_kind: dict[str, list[Cell]] = {}
    for h in highlights:
        if lay.grid.contains(h.cell):
            by_kind.setdefault(h.kind, []).append(h.cell)
    for kind, cells in by_kind.items():
        shapes = [lay.outline(cell) for cell in cells]
        x0 = math.floor(min(x for pts in shapes for x, _ in pts))
        y0 = math.floor(min(y for pts in shapes for _, y in pts))
        x1 = math.ceil(max(x for pts in shapes for x, _ in pts))
        y1 = math.ceil(max(y for pts in shapes for _, y in pts))
        colour, alpha = _tint(kind)
        mask = Image.new("L", (x1 - x0 + 1, y1 - y0 + 1), 0)
        draw = ImageDraw.Draw(mask)
        for pts in shapes:
            draw.polygon([(x - x0, y - y0) for x, y in pts], fill=alpha)
        img.paste(Image.new("RGB", mask.size, colour), (x0, y0), mask)


def _mover(enc: Encounter, grid: Grid) -> Combatant | None:
    """Who made the last move, when its trail is on the board and it is still here."""
    move = enc.last_move
    if move is None or len([x for x in move.path if board_cell(x, grid)]) < 2:
        return None
    return enc.find(move.actor)


def _draw_trail(draw: ImageDraw.ImageDraw, enc: Encounter, lay: Layout) -> None:
    mover = _mover(enc, lay.grid)
    if mover is None or enc.last_move is None:
        return
    cells = [cell for x in enc.last_move.path if (cell := board_cell(x, lay.grid)) is not None]
    _trail(draw, [lay.centre(cell) for cell in cells], lay.unit, side_colours(enc)[mover.side])


def _side_mark(lay: Layout, cx: float, cy: float, angle: float | None) -> list[tuple[float, float]] | None:
    """The middle of the cell edge at ``angle`` (degrees clockwise from north), as a bar's two ends;
    None between two edges (a square's diagonal facing)."""
    if angle is None:
        return None
    hexes = lay.grid.kind == "hex"
    half, radius = (30.0, lay.unit * _HEX_R) if hexes else (45.0, lay.unit / math.sqrt(2))
    if not hexes and angle % 90:
        return None
    ends = []
    for a in (angle - half * 0.6, angle + half * 0.6):  # the middle 60% of the edge
        t = math.radians(a)
        reach = radius * math.cos(math.radians(half)) / math.cos(math.radians(half * 0.6))
        ends.append((cx + reach * math.sin(t), cy - reach * math.cos(t)))
    return ends


def _draw_tokens(draw: ImageDraw.ImageDraw, enc: Encounter, lay: Layout) -> None:
    colours, names = side_colours(enc), labels(enc)
    grow = min(1.0, max(0.0, (44 - lay.unit / lay.scale) / 20))  # bigger discs in small cells
    r = lay.unit * (0.34 + 0.1 * grow)
    for c in enc.combatants:
        cell = board_cell(c.position, lay.grid) if c.status != "out" else None
        if cell is not None:
            cx, cy = lay.centre(cell)
            _token(
                draw,
                cx,
                cy,
                lay.unit,
                colours[c.side],
                names[c.name],
                downed=c.status == "downed",
                current=c.name == enc.current,
                facing=_facing_angle(lay.grid, c.facing),
                r=r,
                side_mark=_side_mark(lay, cx, cy, _facing_angle(lay.grid, c.facing)),
            )


def _draw_heights(draw: ImageDraw.ImageDraw, lay: Layout) -> None:
    grid, u = lay.grid, lay.unit
    font = _font(max(7 * lay.scale, round(u * 0.22)))
    for cell, feet in grid.heights.items():
        if not feet or not grid.contains(cell):
            continue
        x, y = lay.outline(cell)[0 if grid.kind == "square" else 1]  # the top-left corner
        if cell in grid.blocked:
            under, ink = WALL, _contrast(WALL)
        else:
            kind = grid.terrain.get(cell)
            under, ink = (
                BOARD if kind is None else TERRAIN_STYLES.get(kind, _OTHER).fill,
                HEIGHT_INK,
            )
        draw.text(
            (x + u * 0.05, y + u * 0.03),
            f"{feet}'",
            font=font,
            fill=ink,
            anchor="la",
            stroke_width=max(1, round(u * 0.025)),
            stroke_fill=under,
        )


def _png(img: Image.Image) -> bytes:
    """PNG bytes of ``img`` cut to 256 colours, each palette entry being the commonest colour of
    the pixels it stands for (not their mean), so that flat areas keep their exact colour. The
    commonest colours are counted on every other pixel of every other row: a quarter of the work,
    and a flat area is far wider than two pixels."""
    quant = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    half = (max(1, img.width // 2), max(1, img.height // 2))
    sample = img.resize(half, Image.Resampling.NEAREST)
    index = Image.frombytes("L", half, quant.resize(half, Image.Resampling.NEAREST).tobytes())
    counts = Image.merge("RGBA", (*sample.split(), index)).getcolors(half[0] * half[1]) or []
    palette = quant.getpalette() or []
    best: dict[int, int] = {}
    for n, (r, g, b, i) in counts:  # type: ignore[misc]
        if n > best.get(i, 0):
            best[i] = n
            palette[3 * i : 3 * i + 3] = (r, g, b)
    quant.putpalette(palette)
    buf = io.BytesIO()
    quant.save(buf, "PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()


def _kinds(highlights: Sequence[Highlight]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(h.kind for h in highlights))


def render_map(
    enc: Encounter, *, cell_px: int = DEFAULT_CELL_PX, highlights: Sequence[Highlight] = ()
) -> bytes:
    """The encounter's map as PNG bytes, ``highlights`` shaded; ``ValueError`` when the encounter
    has no map. Reads ``enc`` throughout: give it a copy no one changes meanwhile."""
    lay = layout(enc, cell_px, _kinds(highlights)).scaled(SS)
    img = Image.new("RGB", lay.size, BACKGROUND)
    draw = ImageDraw.Draw(img)
    _draw_board(img, draw, enc, lay, highlights)
    _draw_trail(draw, enc, lay)
    _draw_tokens(draw, enc, lay)
    _draw_heights(draw, lay)
    y0 = lay.legend_top
    draw.line([(PAD * SS, y0), (lay.size[0] - PAD * SS, y0)], fill=GRID_LINE, width=SS)
    for op in _legend(enc, lay.grid, lay.size[0], SS, _kinds(highlights))[0]:
        op(img, draw, y0)
    return _png(img.reduce(SS))


def map_picture(system: RuleSystem, enc: Encounter) -> tuple[bytes, list[str]]:
    """``/map``: the picture of ``enc`` with what ``system`` shades, and the words describing it.
    Slow on large maps: run it in a thread, on a copy of the encounter (see `bot.service`)."""
    highlights = system.highlights(enc)
    return render_map(enc, highlights=highlights), describe_map(enc, highlights)
