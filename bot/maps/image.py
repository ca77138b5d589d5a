"""The ``/map`` picture: an encounter's grid drawn as a PNG with Pillow.

Square boards and flat-topped "odd-q" hex boards drawn as hexes, labelled on all four edges
with the cell names players type (column letters, row numbers from 1 at the top). Walls are
dark; terrain cells get a light fill and a hatch; heights (feet) sit in a corner; cells the
system shades (:meth:`rules.system.RuleSystem.highlights`: the acting combatant's front arc or
reach, zones of threat) get a tint; the last move is a trail of dots in the mover's colour. Each
combatant on the board is a disc in its side's colour with its label (``bot.maps.key.labels``)
and a mark on the cell's edge it faces; a downed one is grey with a cross; whoever may act now
wears a gold ring; a bar of three shows its condition word and small marks the effects on it
(`bot.maps.key.MapView`: what the rules add). A legend strip below gives the encounter, the round, each side's colour and
who is who, the trail, the shading and the terrain shown. Text is drawn in the bundled font.

Everything is drawn at ``SS`` times the final size and reduced, which anti-aliases hexes, discs
and text cheaply; a square board's cells, walls and lines lie on whole pixels and are drawn at
the final size, only its hatches and letters at ``SS``. The board (cells, terrain, walls, grid lines, coordinates, heights) is drawn
once per process and kept (`bot.maps.layer`); a picture tints the shaded cells' insides, lays
over it the trail and the tokens (each drawn at ``SS`` on a clear layer of its own, a token kept
while it looks the same), writes the heights again over them and draws the legend (on a strip
of its own, kept with the board while the legend shows the same), each drawn only in its own box
and, after the board's first picture, only where it changed (`bot.maps.layer.Canvas`). The PNG
is cut to a 256-colour palette in which the flat colours stay exact. Geometry comes from
:meth:`rules.geometry.Grid.centre`; :func:`layout` and :func:`cell_centre_px` give pixel positions
to callers and tests.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from bot.maps.key import (
    CONDITIONS,
    RGB,
    MapView,
    board_cell,
    describe_map,
    effect_words,
    labels,
    map_view,
    shading_words,
    side_colours,
    text_width,
)
from bot.maps.layer import (
    HEX_R,
    PAD,
    SS,
    Box,
    Canvas,
    Layout,
    board,
    bounds,
    columns,
    label_size,
    overlap,
)
from bot.maps.style import (
    BACKGROUND,
    BOARD,
    CONDITION_BARS,
    DOWNED,
    INK,
    MUTED,
    OTHER_TERRAIN,
    TERRAIN_STYLES,
    WALL_STYLE,
    TerrainStyle,
    draw_token,
    draw_trail,
    small_text,
    tile,
    tinted,
)
from rules.geometry import Cell, Grid, parse_cell
from rules.models import Combatant, Encounter
from rules.system import Highlight, RuleSystem

__all__ = ["DEFAULT_CELL_PX", "MAX_PX", "cell_centre_px", "layout", "map_picture", "render_map"]

Placed = tuple[Image.Image, tuple[int, int]]  #: an RGBA layer, and where its top-left corner goes
#: a legend item: what it draws (its kind and figures, to compare) and how, on a picture at a y offset
#: (it returns the box of the picture it drew in)
Op = tuple[tuple[Hashable, ...], Callable[[Image.Image, float], Box]]

MAX_PX = 2000  #: neither side of the image is larger
#: a cell's side by default: a 12x10 board is about 830 px wide, sharp in Discord's preview
DEFAULT_CELL_PX = 64
MIN_WIDTH = 440  #: room for the legend under a tiny map
MIN_CELL_PX = 12
_COMPASS = {"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}


# -- names and colours ---------------------------------------------------------------------
def _fit(text: str, size: int, width: float) -> str:
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "...", size) > width:
        text = text[:-1]
    return text.rstrip() + "..."


def _facing_angle(grid: Grid, facing: str | None) -> float | None:
    f = (facing or "").strip().upper()
    if f in grid.facings:
        return grid.facings.index(f) * 360 / len(grid.facings)
    return _COMPASS.get(f)


# -- layout ---------------------------------------------------------------------------------
def layout(
    enc: Encounter, cell_px: int = DEFAULT_CELL_PX, shaded: Sequence[str] = (), view: MapView | None = None
) -> Layout:
    """Size the picture: ``cell_px`` per cell, less when the image would pass ``MAX_PX``;
    ``shaded``: the kinds of shaded cells the legend names; ``view``: what the rules add."""
    return _sized(enc, cell_px, shaded, MapView.of(enc) if view is None else view)[0]


def _sized(enc: Encounter, cell_px: int, shaded: Sequence[str], view: MapView) -> tuple[Layout, list[Op]]:
    """:func:`layout`, and the legend's drawing operations at scale ``SS`` for its width."""
    grid = enc.grid()
    if grid is None:
        raise ValueError("this encounter has no map")
    bx0, by0, bx1, by1 = bounds(grid)
    bw, bh = bx1 - bx0, by1 - by0
    unit = max(MIN_CELL_PX, int(cell_px))
    while True:
        fs = label_size(unit)
        side = PAD + text_width(str(grid.height), fs) + PAD * 0.6  # row numbers, left and right
        top = PAD + fs + PAD * 0.6  # column letters above and below
        below = fs + PAD * 1.1
        width = max(MIN_WIDTH, math.ceil(2 * side + bw * unit))
        ops, height = _legend(enc, grid, width * SS, SS, shaded, view)
        legend_h = math.ceil(height / SS)
        board_bottom = math.ceil(top + bh * unit + below)
        if max(width, board_bottom + legend_h) <= MAX_PX or unit <= MIN_CELL_PX:
            break
        fit = min((MAX_PX - 2 * side) / bw, (MAX_PX - top - below - legend_h) / bh)
        unit = max(MIN_CELL_PX, min(unit - 1, math.floor(fit)))
    shift = (width - (2 * side + bw * unit)) / 2  # centre a narrow board over the legend
    origin = (side + shift - bx0 * unit, top - by0 * unit)
    return Layout(grid, float(unit), origin, (width, board_bottom + legend_h), board_bottom), ops


def cell_centre_px(enc: Encounter, cell: str | Cell, cell_px: int = DEFAULT_CELL_PX) -> tuple[int, int]:
    """The pixel at the centre of ``cell`` in ``render_map(enc, cell_px=cell_px)``."""
    x, y = layout(enc, cell_px).centre(parse_cell(cell) if isinstance(cell, str) else cell)
    return math.floor(x), math.floor(y)


# -- drawing pieces -------------------------------------------------------------------------


def _legend(
    enc: Encounter, grid: Grid, width: float, k: int, shaded: Sequence[str], view: MapView
) -> tuple[list[Op], float]:
    """The legend strip's drawing operations and height, in pixels at scale ``k``; ``shaded``:
    the kinds of shaded cells on the board; ``view``: what the rules add to it."""
    ops: list[Op] = []
    pad, row, tok = PAD * k, 30 * k, 34 * k  # tok: the cell size a legend token is drawn for
    title_s, text_s = 17 * k, 14 * k  # font sizes
    colours, names = side_colours(enc), labels(enc)
    x: float = pad  # the flow's cursor: items run left to right and wrap to ``indent``
    y: float = pad + row / 2
    indent = pad + 22 * k

    def text(x: float, y: float, s: str, size: int = text_s, fill: RGB = INK) -> None:
        ops.append((("text", x, y, s, size, fill), lambda img, oy: small_text(img, (x, y + oy), s, size, fill, "lm", k)))

    def token(cx: float, y: float, u: float, colour: RGB, label: str = "", **kw: Any) -> None:
        def op(img: Image.Image, oy: float) -> Box:
            return _lay(img, _token_layer(cx / k, (y + oy) / k, u / k, u * 0.34 / k, colour, label, **kw)[:2])

        ops.append((("token", cx, y, u, colour, label, *sorted(kw.items())), op))

    def swatch(x: float, y: float, style: TerrainStyle) -> None:
        def op(img: Image.Image, oy: float) -> Box:
            at, tile = (round(x / k), round((y + oy) / k) - 8), _swatch(style, k)
            img.paste(tile, at)
            return (*at, at[0] + tile.width, at[1] + tile.height)

        ops.append((("swatch", x, y, style), op))

    def trail(x: float, y: float, colour: RGB) -> None:
        def op(img: Image.Image, oy: float) -> Box:
            x0, y1 = x / k, (y + oy) / k
            return _lay(img, _trail_layer([(x0 + 2, y1 + 5), (x0 + 10, y1 - 5), (x0 + 20, y1 - 5)], 16, colour))

        ops.append((("trail", x, y, colour), op))

    def place(w: float) -> float:
        """Where the next item of width ``w`` goes, wrapping to a new row when it must."""
        nonlocal x, y
        if x + w > width - pad and x > indent:
            x, y = indent, y + row
        at, x = x, x + w + 16 * k
        return at

    if enc.round > 0:
        bits = [f"Round {enc.round}"] + ([f"{enc.current}'s turn"] if enc.current else [])
        bits += [f"{view.side} to activate"] if view.side and not enc.current else []
    else:
        bits = ["not started"]
    bits += [f"won by {enc.winner}"] if enc.winner else []
    text(pad, y, _fit(" · ".join([enc.name, *bits]), title_s, width - 2 * pad), title_s)
    for side, colour in colours.items():
        name = (side or "no side") + ":"
        y += row
        token(pad + 8 * k, y, 24 * k, colour, current=side == view.side)
        text(indent, y, name)
        x = indent + text_width(name, text_s) + 12 * k
        for c in (c for c in enc.combatants if c.side == side):
            off = c.status != "out" and board_cell(c.position, grid) is None
            note = {"downed": " (downed)", "out": " (out)"}.get(
                c.status, " (off map)" if off else ""
            )
            label = c.name
            at = place(tok + text_width(label + note, text_s))
            token(
                at + tok / 2,
                y,
                tok,
                colour,
                names[c.name],
                downed=c.status != "active",
                current=c.name in view.acting,
            )
            text(at + tok + 2 * k, y, label)
            if note:
                text(at + tok + 2 * k + text_width(label, text_s), y, note, fill=MUTED)
    mover = _mover(enc, grid)
    if mover is not None or shaded:
        y += row
        text(pad, y, "Shown:")
        x = pad + text_width("Shown:", text_s) + 12 * k
        if mover is not None:
            words = f"{mover.name}'s last move"
            at = place(26 * k + text_width(words, text_s))
            trail(at, y, colours[mover.side])
            text(at + 26 * k, y, words)
        for kind in shaded:
            words = shading_words(kind, enc.current)
            at = place(22 * k + text_width(words, text_s))
            swatch(at, y, TerrainStyle(tinted(BOARD, kind), tinted(BOARD, kind), ""))
            text(at + 22 * k, y, words)
    on_board = [c for c in enc.combatants if c.status != "out" and board_cell(c.position, grid)]
    key: list[tuple[str, dict[str, Any]]] = [
        (word, {"condition": word, "downed": word == "down"})
        for word in CONDITIONS
        if any(view.conditions.get(c.name) == word for c in on_board)
    ]
    key += [("effect on it", {"marks": 1})] if any(e.target == c.name for e in enc.effects for c in on_board) else []
    key += [("may act now", {"current": True})] if any(c.name in view.acting for c in on_board) else []
    if key:
        y += row
        text(pad, y, "Tokens:")
        x = pad + text_width("Tokens:", text_s) + 12 * k
        for words, kw in key:
            at = place(tok + text_width(words, text_s))
            token(at + tok / 2, y, tok, DOWNED, **kw)
            text(at + tok + 2 * k, y, words)
    if enc.effects:
        y += row
        text(pad, y, "Effects:")
        x = pad + text_width("Effects:", text_s) + 12 * k
        for words in effect_words(enc):
            at = place(text_width(words, text_s))
            text(at, y, words)
    kinds = (["wall"] if grid.blocked else []) + sorted(set(grid.terrain.values()))
    if kinds:
        y += row
        text(pad, y, "Terrain:")
        x = pad + text_width("Terrain:", text_s) + 12 * k
        for kind in kinds:
            at = place(22 * k + text_width(kind, text_s))
            swatch(at, y, WALL_STYLE if kind == "wall" else TERRAIN_STYLES.get(kind, OTHER_TERRAIN))
            text(at + 22 * k, y, kind)
    return ops, y + row / 2 + pad


# -- what each picture draws over it --------------------------------------------------------
def _layer(width: int, height: int, paint: Callable[[ImageDraw.ImageDraw], None]) -> Image.Image:
    """``paint`` on a clear layer ``SS`` times ``width`` x ``height``, reduced: RGBA to lay over
    a picture, its edges anti-aliased against whatever lies under it."""
    layer = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    paint(ImageDraw.Draw(layer))
    return layer.reduce(SS)


def _draw_shading(canvas: Canvas, lay: Layout, highlights: Sequence[Highlight]) -> None:
    """Tint the insides of the cells a system shades, one kind at a time (the grid lines stay)."""
    by_kind: dict[str, list[Cell]] = {}
    for h in highlights:
        if lay.grid.contains(h.cell):
            by_kind.setdefault(h.kind, []).append(h.cell)
    for kind, cells in by_kind.items():
        shapes = columns(lay, cells)
        x0 = math.floor(min(x for pts in shapes for x, _ in pts))
        y0 = math.floor(min(y for pts in shapes for _, y in pts))
        x1 = math.ceil(max(x for pts in shapes for x, _ in pts)) + 1
        y1 = math.ceil(max(y for pts in shapes for _, y in pts)) + 1
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        draw = ImageDraw.Draw(mask)
        for pts in shapes:
            draw.polygon([(x - x0, y - y0) for x, y in pts], fill=255)
        box = (x0, y0, x1, y1)
        canvas.tint(box, ImageChops.darker(mask, canvas.base.inner(box)), kind)


def _mover(enc: Encounter, grid: Grid) -> Combatant | None:
    """Who made the last move, when its trail is on the board and it is still here."""
    move = enc.last_move
    if move is None or len([x for x in move.path if board_cell(x, grid)]) < 2:
        return None
    return enc.find(move.actor)


def _lay(img: Image.Image, placed: Placed) -> Box:
    """Lay a layer over ``img`` where it goes (the legend's; the board's go through the Canvas),
    and the box it covers."""
    layer, (x, y) = placed
    img.paste(layer, (x, y), layer)
    return (x, y, x + layer.width, y + layer.height)


def _trail_layer(points: list[tuple[float, float]], u: float, colour: RGB) -> Placed:
    """A trail through ``points`` for cells ``u`` px wide, and where it goes."""
    reach = u * 0.2 + 2  # the ring at the start, and the line's width
    x0, y0 = math.floor(min(x for x, _ in points) - reach), math.floor(min(y for _, y in points) - reach)
    x1, y1 = math.ceil(max(x for x, _ in points) + reach), math.ceil(max(y for _, y in points) + reach)
    at = [((x - x0) * SS, (y - y0) * SS) for x, y in points]
    return _layer(x1 - x0, y1 - y0, lambda d: draw_trail(d, at, u * SS, colour)), (x0, y0)


def _draw_trail(canvas: Canvas, enc: Encounter, lay: Layout) -> None:
    mover = _mover(enc, lay.grid)
    if mover is not None and enc.last_move is not None:
        cells = [cell for x in enc.last_move.path if (cell := board_cell(x, lay.grid)) is not None]
        points = [lay.centre(cell) for cell in cells]
        colour = side_colours(enc)[mover.side]
        canvas.lay(*_trail_layer(points, lay.unit, colour), ("trail", colour))


def _side_mark(lay: Layout, cx: float, cy: float, angle: float | None) -> list[tuple[float, float]] | None:
    """The middle of the cell edge at ``angle`` (degrees clockwise from north), as a bar's two ends;
    None between two edges (a square's diagonal facing)."""
    if angle is None:
        return None
    hexes = lay.grid.kind == "hex"
    half, radius = (30.0, lay.unit * HEX_R) if hexes else (45.0, lay.unit / math.sqrt(2))
    if not hexes and angle % 90:
        return None
    ends = []
    for a in (angle - half * 0.6, angle + half * 0.6):  # the middle 60% of the edge
        t = math.radians(a)
        reach = radius * math.cos(math.radians(half)) / math.cos(math.radians(half * 0.6))
        ends.append((cx + reach * math.sin(t), cy - reach * math.cos(t)))
    return ends


@lru_cache(maxsize=512)
def _sprite(
    u: float, r: float, reach: int, colour: RGB, label: str, downed: bool, current: bool,
    facing: float | None, mark: tuple[tuple[float, float], ...] | None, dx: float, dy: float,
    condition: str | None, marks: int,
) -> Placed:  # fmt: skip
    """A token drawn on a clear square ``2 * reach + 1`` px wide, its centre ``dx``, ``dy`` px
    right of and below the middle pixel's top-left corner, cut to what it covers; and where the
    cut's corner is in the square. ``mark``: the facing bar's ends from the centre. Kept: most
    tokens look the same from one picture to the next, wherever they stand."""
    cx, cy = (reach + dx) * SS, (reach + dy) * SS
    bar = None if mark is None else [(cx + x * SS, cy + y * SS) for x, y in mark]
    layer = _layer(
        2 * reach + 1,
        2 * reach + 1,
        lambda d: draw_token(
            d, cx, cy, u * SS, colour, label,
            downed=downed, current=current, facing=facing, r=r * SS, side_mark=bar,
            condition=condition, marks=marks,
        ),  # fmt: skip
    )
    box = layer.getbbox() or (0, 0, 1, 1)
    return layer.crop(box), (box[0], box[1])


def _token_layer(
    cx: float, cy: float, u: float, r: float, colour: RGB, label: str, *,
    downed: bool = False, current: bool = False, facing: float | None = None,
    mark: list[tuple[float, float]] | None = None, condition: str | None = None, marks: int = 0,
) -> tuple[Image.Image, tuple[int, int], Hashable]:  # fmt: skip
    """A token (see :func:`draw_token`) centred at ``cx``, ``cy``, where it goes and what it is
    drawn from (its sprite's figures but where it falls in a pixel: the same, the same colours);
    ``mark``: the
    facing bar's ends from the centre; ``condition``: the word its bar shows; ``marks``: its
    effects."""
    x, y = math.floor(cx), math.floor(cy)
    reach = math.ceil(u * 0.62) + 2  # the facing bar's ends, and the arrow's tip
    drawn = (
        u, r, reach, colour, label, downed, current, facing, None if mark is None else tuple(mark),
        round((cx - x) * 4) / 4, round((cy - y) * 4) / 4, condition if condition in CONDITION_BARS else None, marks,
    )  # fmt: skip
    sprite, (left, top) = _sprite(*drawn)
    return sprite, (x - reach + left, y - reach + top), drawn[:9] + drawn[11:]  # its colours wherever it stands


def _draw_tokens(canvas: Canvas, enc: Encounter, lay: Layout, view: MapView) -> None:
    colours, names = side_colours(enc), labels(enc)
    marks: dict[str, int] = {}
    for e in enc.effects:
        marks[e.target or ""] = marks.get(e.target or "", 0) + 1
    grow = min(1.0, max(0.0, (44 - lay.unit / lay.scale) / 20))  # bigger discs in small cells
    r = lay.unit * (0.34 + 0.1 * grow)
    for c in enc.combatants:
        cell = board_cell(c.position, lay.grid) if c.status != "out" else None
        if cell is not None:
            cx, cy = lay.centre(cell)
            angle = _facing_angle(lay.grid, c.facing)
            canvas.lay(*_token_layer(
                cx, cy, lay.unit, r, colours[c.side], names[c.name],
                downed=c.status == "downed", current=c.name in view.acting, facing=angle,
                mark=_side_mark(lay, 0.0, 0.0, angle), condition=view.conditions.get(c.name),
                marks=marks.get(c.name, 0),
            ))  # fmt: skip


def _draw_legend(canvas: Canvas, lay: Layout, ops: Sequence[Op]) -> None:
    """The legend below the rule under the board: drawn on a strip of its own, its items' boxes
    (the rest is its ground) kept with the board while the next picture's legend is the same."""
    box = (0, lay.legend_top + 1, *lay.size)
    key = (lay.size, lay.legend_top, tuple(what for what, _ in ops))
    keeps = canvas.base.keeps()
    if (kept := keeps.legend) is None or kept[0] != key:
        # drawn from an even row of the picture, where each item's pixels fall as on the picture
        top = box[1] - box[1] % 2
        strip = Image.new("RGB", (lay.size[0], lay.size[1] - top), BACKGROUND)
        parts = [op(strip, (lay.legend_top - top) * SS) for _, op in ops]
        if top != box[1]:
            strip = strip.crop((0, 1, *strip.size))
            parts = [(x0, y0 - 1, x1, y1 - 1) for x0, y0, x1, y1 in parts]
        whole = (0, 0, *strip.size)
        joined = _joined([b for b in (overlap(p, whole) for p in parts) if b is not None])
        kept = keeps.keep_legend(key, [(b, strip.crop(b)) for b in joined])
    canvas.strip(kept[0], kept[1], box, frozenset(map(_source, key[2])))


#: a gap between two legend items of a row narrower than this joins them in one box
_GAP = 16


def _joined(boxes: list[Box]) -> list[Box]:
    """``boxes`` (a legend's items) joined where two side by side in a row (their rows
    overlapping) are less than ``_GAP`` px apart: a box for each run of items, not for each."""
    out: list[Box] = []
    for box in sorted(boxes, key=lambda b: (b[1], b[0])):
        for n, (x0, y0, x1, y1) in enumerate(out):
            if box[1] < y1 and y0 < box[3] and box[0] - x1 < _GAP and x0 - box[2] < _GAP:
                out[n] = (min(x0, box[0]), min(y0, box[1]), max(x1, box[2]), max(y1, box[3]))
                break
        else:
            out.append(box)
    return out


def _source(what: tuple[Hashable, ...]) -> Hashable:
    """What a legend item (its kind and figures, see :func:`_legend`) is drawn from, wherever it
    stands: its words' size and colour, a token's figures, a swatch's style, a trail's colour."""
    kind = what[0]
    return (kind, *what[4:]) if kind == "text" else (kind, *what[3:])


@lru_cache(maxsize=32)
def _swatch(style: TerrainStyle, k: int) -> Image.Image:
    """A legend's 16 px square of terrain or shading, outlined, drawn at scale ``k`` and reduced."""
    img = tile(style, (16 * k, 16 * k), 4 * k, k).copy()
    ImageDraw.Draw(img).rectangle([0, 0, 16 * k - 1, 16 * k - 1], outline=MUTED, width=k)
    return img.reduce(k)


def _kinds(highlights: Sequence[Highlight]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(h.kind for h in highlights))


def render_map(
    enc: Encounter,
    *,
    cell_px: int = DEFAULT_CELL_PX,
    highlights: Sequence[Highlight] = (),
    view: MapView | None = None,
) -> bytes:
    """The encounter's map as PNG bytes, ``highlights`` shaded, with what the rules add
    (``view``: conditions and turn; :meth:`MapView.of` without); ``ValueError`` when the
    encounter has no map. Reads ``enc`` throughout: give it a copy no one changes meanwhile."""
    view = MapView.of(enc) if view is None else view
    lay, legend = _sized(enc, cell_px, _kinds(highlights), view)
    canvas = Canvas(board(lay), lay.size)
    _draw_shading(canvas, lay, highlights)
    _draw_trail(canvas, enc, lay)
    _draw_tokens(canvas, enc, lay, view)
    _draw_legend(canvas, lay, legend)
    return canvas.png()


def map_picture(system: RuleSystem, enc: Encounter) -> tuple[bytes, list[str]]:
    """``/map``: the picture of ``enc`` with what ``system`` shades, and the words describing it.
    Slow on large maps: run it in a thread, on a copy of the encounter (see `bot.service`)."""
    highlights, view = system.highlights(enc), map_view(system, enc)
    return render_map(enc, highlights=highlights, view=view), describe_map(enc, highlights, view)
