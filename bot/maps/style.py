"""The pieces the ``/map`` picture is drawn with (`bot.maps.image` puts them together): the
colours, the terrain styles and their hatched tiles, the shading tints, a combatant's token and
a move's trail, each drawn the same on the board and in the legend."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.maps.key import RGB, text_width
from bot.maps.key import font as _font

__all__ = [
    "BACKGROUND",
    "BOARD",
    "CONDITION_BARS",
    "CROSS",
    "MAX_MARKS",
    "CURRENT_RING",
    "DOWNED",
    "GRID_LINE",
    "HEIGHT_INK",
    "HIGHLIGHT_TINTS",
    "INK",
    "MUTED",
    "TERRAIN_STYLES",
    "TerrainStyle",
    "WALL",
    "WALL_STYLE",
    "WHITE",
    "OTHER_TERRAIN",
    "contrast",
    "draw_token",
    "draw_trail",
    "shade",
    "shading_tint",
    "small_text",
    "tile",
    "tinted",
]

WALL: RGB = (52, 56, 66)
DOWNED: RGB = (165, 165, 165)
BACKGROUND: RGB = (238, 235, 227)
BOARD: RGB = (252, 251, 247)
GRID_LINE: RGB = (190, 184, 170)
INK: RGB = (38, 38, 42)
MUTED: RGB = (105, 100, 92)
WHITE: RGB = (255, 255, 255)
CURRENT_RING: RGB = (255, 186, 0)
CROSS: RGB = (150, 18, 18)
HEIGHT_INK: RGB = (90, 60, 30)
EMPTY_BAR: RGB = (226, 222, 214)
#: a token's condition bar: the colour and how many of its three segments are filled, by the
#: condition word (`RuleSystem.condition`): a band, never a fraction of the numbers behind it
CONDITION_BARS: dict[str, tuple[RGB, int]] = {
    "unhurt": ((40, 165, 70), 3),
    "hurt": ((240, 165, 0), 2),
    "badly hurt": ((215, 30, 30), 1),
    "down": ((215, 30, 30), 0),
}
#: the small marks on a token, one for each effect on it (at most ``MAX_MARKS``)
MAX_MARKS = 3
#: the tint and its strength (0-255) of each kind of shaded cell; other kinds take ``_OTHER_TINT``
HIGHLIGHT_TINTS: dict[str, tuple[RGB, int]] = {
    "arc": ((255, 200, 40), 80),
    "reach": ((255, 150, 30), 90),
    "threat": ((230, 60, 40), 60),
    "danger": ((200, 0, 0), 110),
    "obstructed": ((60, 90, 130), 90),
}
_OTHER_TINT: tuple[RGB, int] = ((150, 80, 220), 70)


@dataclass(frozen=True)
class TerrainStyle:
    fill: RGB
    ink: RGB
    pattern: str  # "/", "\\", "x" (cross-hatch), "-", "|", "." (dots), several together, or "" (plain)


TERRAIN_STYLES: dict[str, TerrainStyle] = {
    "difficult": TerrainStyle((240, 224, 186), (200, 160, 90), "/"),
    "rough": TerrainStyle((222, 235, 200), (120, 155, 80), "."),
    "obstacle": TerrainStyle((214, 218, 224), (130, 138, 150), "x"),
    "gap": TerrainStyle((205, 226, 246), (100, 145, 200), "-"),
    "climb": TerrainStyle((247, 218, 200), (205, 130, 90), "|"),
    "treacherous": TerrainStyle((244, 210, 210), (200, 80, 80), "x."),
    "uphill": TerrainStyle((236, 222, 206), (160, 110, 70), "/|"),
    "slick": TerrainStyle((214, 240, 240), (70, 165, 170), "\\"),
    "water": TerrainStyle((196, 216, 240), (60, 110, 190), "-."),
}


#: a terrain kind with no style of its own
OTHER_TERRAIN = TerrainStyle((232, 230, 226), (165, 160, 150), "\\")


#: a wall, as the legend's swatch shows it
WALL_STYLE = TerrainStyle(WALL, WALL, "")


def shade(c: RGB, f: float = 0.55) -> RGB:
    return (int(c[0] * f), int(c[1] * f), int(c[2] * f))


def contrast(c: RGB) -> RGB:
    return INK if 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] > 160 else WHITE


@lru_cache(maxsize=64)
def tile(style: TerrainStyle, size: tuple[int, int], step: float, width: int) -> Image.Image:
    """A rectangle of terrain: its fill and its hatch (the image's edge clips the lines). Kept
    and shared: paste it, never draw on it."""
    img = Image.new("RGB", size, style.fill)
    draw, ink = ImageDraw.Draw(img), style.ink
    w, h = size
    ticks = [i * step for i in range(int((w + h) / step) + 2)]
    for p in style.pattern:
        for t in ticks:
            if p in "/x":
                draw.line([(t - h, h), (t, 0)], fill=ink, width=width)
            if p in "\\x":
                draw.line([(t - h, 0), (t, h)], fill=ink, width=width)
            if p == "-":
                draw.line([(0, t + step / 2), (w, t + step / 2)], fill=ink, width=width)
            if p == "|":
                draw.line([(t + step / 2, 0), (t + step / 2, h)], fill=ink, width=width)
        if p == ".":
            r = max(1.0, width * 0.9)
            for j, y in enumerate(ticks):
                for x in ticks:
                    px, py = x + (step / 2 if j % 2 else step / 4), y + step / 4
                    draw.ellipse([px - r, py - r, px + r, py + r], fill=ink)
    return img


def draw_token(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    u: float,
    colour: RGB,
    label: str,
    *,
    downed: bool = False,
    current: bool = False,
    facing: float | None = None,
    r: float | None = None,
    side_mark: list[tuple[float, float]] | None = None,
    condition: str | None = None,
    marks: int = 0,
) -> None:
    """A combatant's disc of radius ``r``, ``u`` being the size of the cell it stands in;
    ``side_mark``: the two ends of the bar drawn on the cell's edge it faces; ``condition``: the
    word its bar shows (none without one); ``marks``: the effects on it, a small mark each."""
    r = u * 0.34 if r is None else r
    edge = shade(colour)
    if side_mark is not None:
        draw.line(side_mark, fill=edge, width=max(2, round(u * 0.09)))
    if current:
        g = r + u * 0.11
        draw.ellipse(
            [cx - g, cy - g, cx + g, cy + g],
            fill=CURRENT_RING,
            outline=INK,
            width=max(1, round(u * 0.02)),
        )
    fill = DOWNED if downed else colour
    draw.ellipse(
        [cx - r, cy - r, cx + r, cy + r], fill=fill, outline=edge, width=max(1, round(u * 0.045))
    )
    if facing is not None:
        dx, dy = math.sin(math.radians(facing)), -math.cos(math.radians(facing))
        tip, base, half = max(u * 0.495, r + u * 0.13), r - u * 0.02, u * 0.14
        draw.polygon(
            [
                (cx + dx * tip, cy + dy * tip),
                (cx + dx * base - dy * half, cy + dy * base + dx * half),
                (cx + dx * base + dy * half, cy + dy * base - dx * half),
            ],
            fill=edge,
        )
    if downed:
        d, w = r * 0.62, max(1, round(u * 0.06))
        draw.line([(cx - d, cy - d), (cx + d, cy + d)], fill=CROSS, width=w)
        draw.line([(cx - d, cy + d), (cx + d, cy - d)], fill=CROSS, width=w)
    size = round(r * {1: 1.1, 2: 0.9}.get(len(label), 0.72))
    while size > 6 and text_width(label, size) > r * 1.6:  # long labels shrink to fit the disc
        size -= 1
    ink, halo = (INK, DOWNED) if downed else (contrast(fill), fill)
    _text(draw, (cx, cy), label, size, ink, "mm", round(u * 0.025), halo)
    line = max(1, round(u * 0.025))
    for n in range(min(marks, MAX_MARKS)):  # along the disc's edge, from its top right
        t, m = math.radians(45 - 34 * n), r * 0.25
        x, y = cx + r * math.sin(t), cy - r * math.cos(t)
        draw.ellipse([x - m, y - m, x + m, y + m], fill=WHITE, outline=INK, width=line)
    if condition in CONDITION_BARS:
        _condition_bar(draw, cx, cy + r, r * 1.5, max(4.0, r * 0.4), condition, line)


def _condition_bar(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, condition: str, line: int
) -> None:
    """The bar of ``condition``, ``w`` x ``h`` centred at ``cx``, ``cy``: three segments, as many
    filled in its colour as the word's band (3 unhurt, 2 hurt, 1 badly hurt, none down)."""
    colour, filled = CONDITION_BARS[condition]
    x0, y0 = cx - w / 2, cy - h / 2
    draw.rectangle([x0, y0, x0 + w, y0 + h], fill=INK)
    step = (w - line) / 3
    for i in range(3):
        left = x0 + line + i * step
        draw.rectangle([left, y0 + line, left + step - line - 1, y0 + h - line - 1], fill=colour if i < filled else EMPTY_BAR)


@lru_cache(maxsize=1024)
def _glyphs(text: str, size: int, anchor: str, stroke: int) -> tuple[tuple[int, int], Image.Image, Image.Image | None]:
    """``text`` in the bundled font at ``size`` as masks: its letters, and its letters with a
    halo ``stroke`` wide (None without one); and where the masks' corner is from the anchor."""
    font = _font(size)
    x0, y0, x1, y1 = (int(v) for v in font.getbbox(text, anchor=anchor, stroke_width=stroke))

    def mask(width: int) -> Image.Image:
        img = Image.new("L", (x1 - x0, y1 - y0), 0)
        ImageDraw.Draw(img).text((-x0, -y0), text, fill=255, font=font, anchor=anchor, stroke_width=width)
        return img

    return (x0, y0), mask(0), (mask(stroke) if stroke else None)


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    anchor: str = "la",
    stroke: int = 0,
    halo: RGB | None = None,
) -> None:
    """``draw.text`` in the bundled font at ``size``, at ``xy`` rounded to a whole pixel, with a
    halo ``stroke`` wide in ``halo``: each text's masks are drawn once and kept, since every
    picture writes the same labels again."""
    if not text:
        return
    (dx, dy), letters, ring = _glyphs(text, size, anchor, stroke)
    at = (round(xy[0]) + dx, round(xy[1]) + dy)
    if ring is not None:
        draw.bitmap(at, ring, fill=halo)
    draw.bitmap(at, letters, fill=fill)


@lru_cache(maxsize=1024)
def _reduced_glyphs(
    text: str, size: int, anchor: str, k: int, phase: tuple[int, int]
) -> tuple[tuple[int, int], Image.Image]:
    """The mask of ``text`` at ``size`` (scale ``k``) reduced to scale 1, when its anchor falls
    ``phase`` px into a block of ``k`` x ``k``; and where the mask's corner is from the anchor's
    pixel at scale 1."""
    (x0, y0), letters, _ = _glyphs(text, size, anchor, 0)
    px, py = (x0 + phase[0]) % k, (y0 + phase[1]) % k  # where the letters start in their block
    w, h = letters.size
    block = Image.new("L", (-(-(px + w) // k) * k, -(-(py + h) // k) * k), 0)
    block.paste(letters, (px, py))
    return ((x0 + phase[0] - px) // k, (y0 + phase[1] - py) // k), block.reduce(k)


def small_text(
    img: Image.Image, xy: tuple[float, float], text: str, size: int, fill: RGB, anchor: str, k: int
) -> tuple[int, int, int, int]:
    """Write ``text`` on ``img`` as :func:`_text` would at scale ``k`` (``xy`` and ``size``) on an
    image reduced ``k`` times afterwards: the same anti-aliasing, with no large image to reduce;
    the box it wrote in (left, top, right, bottom)."""
    x, y = round(xy[0]), round(xy[1])
    if not text:
        return (x // k, y // k, x // k, y // k)
    (dx, dy), mask = _reduced_glyphs(text, size, anchor, k, (x % k, y % k))
    at = (x // k + dx, y // k + dy)
    img.paste(fill, at, mask)
    return (*at, at[0] + mask.width, at[1] + mask.height)


def shading_tint(kind: str) -> tuple[RGB, int]:
    return HIGHLIGHT_TINTS.get(kind, _OTHER_TINT)


def tinted(base: RGB, kind: str) -> RGB:
    """``base`` under the tint of ``kind``: the colour a shaded empty cell shows."""
    colour, alpha = shading_tint(kind)
    return tuple(round(b + (c - b) * alpha / 255) for b, c in zip(base, colour))  # type: ignore[return-value]  # zip of two RGB triples: three values


def draw_trail(draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], u: float, colour: RGB) -> None:
    """A move's trail: a line through the cells' centres, a dot on each cell passed, a ring at the start."""
    ink = shade(colour, 0.8)
    draw.line(points, fill=ink, width=max(2, round(u * 0.07)), joint="curve")
    d = max(2.0, u * 0.09)
    for x, y in points[1:-1]:
        draw.ellipse([x - d, y - d, x + d, y + d], fill=ink)
    (x, y), d = points[0], d * 1.6
    draw.ellipse([x - d, y - d, x + d, y + d], fill=BOARD, outline=ink, width=max(2, round(u * 0.05)))
