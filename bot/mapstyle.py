"""The pieces the ``/map`` picture is drawn with (`bot.mapimage` puts them together): the
colours, the terrain styles and their hatched tiles, the shading tints, a combatant's token and
a move's trail, each drawn the same on the board and in the legend."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.mapkey import font as _font

__all__ = [
    "BACKGROUND",
    "BOARD",
    "CROSS",
    "CURRENT_RING",
    "DOWNED",
    "GRID_LINE",
    "HEIGHT_INK",
    "HIGHLIGHT_TINTS",
    "INK",
    "MUTED",
    "RGB",
    "TERRAIN_STYLES",
    "TerrainStyle",
    "WALL",
    "WHITE",
]

RGB = tuple[int, int, int]
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
#: the tint and its strength (0-255) of each kind of shaded cell; other kinds take ``_OTHER_TINT``
HIGHLIGHT_TINTS: dict[str, tuple[RGB, int]] = {
    "arc": ((255, 200, 40), 80),
    "reach": ((255, 150, 30), 90),
    "threat": ((230, 60, 40), 60),
    "danger": ((200, 0, 0), 110),
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


_OTHER = TerrainStyle((232, 230, 226), (165, 160, 150), "\\")


_WALL_STYLE = TerrainStyle(WALL, WALL, "")


def _shade(c: RGB, f: float = 0.55) -> RGB:
    return (int(c[0] * f), int(c[1] * f), int(c[2] * f))


def _contrast(c: RGB) -> RGB:
    return INK if 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] > 160 else WHITE


def _tile(style: TerrainStyle, size: tuple[int, int], step: float, width: int) -> Image.Image:
    """A rectangle of terrain: its fill and its hatch (the image's edge clips the lines)."""
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


def _token(
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
) -> None:
    """A combatant's disc of radius ``r``, ``u`` being the size of the cell it stands in;
    ``side_mark``: the two ends of the bar drawn on the cell's edge it faces."""
    r = u * 0.34 if r is None else r
    edge = _shade(colour)
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
    while size > 6 and _font(size).getlength(label) > r * 1.6:  # long labels shrink to fit the disc
        size -= 1
    font = _font(size)
    ink, halo = (INK, DOWNED) if downed else (_contrast(fill), fill)
    draw.text(
        (cx, cy),
        label,
        font=font,
        anchor="mm",
        fill=ink,
        stroke_width=round(u * 0.025),
        stroke_fill=halo,
    )


def _tint(kind: str) -> tuple[RGB, int]:
    return HIGHLIGHT_TINTS.get(kind, _OTHER_TINT)


def _tinted(base: RGB, kind: str) -> RGB:
    """``base`` under the tint of ``kind``: the colour a shaded empty cell shows."""
    colour, alpha = _tint(kind)
    return tuple(round(b + (c - b) * alpha / 255) for b, c in zip(base, colour))  # type: ignore[return-value]


def _trail(draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], u: float, colour: RGB) -> None:
    """A move's trail: a line through the cells' centres, a dot on each cell passed, a ring at the start."""
    ink = _shade(colour, 0.8)
    draw.line(points, fill=ink, width=max(2, round(u * 0.07)), joint="curve")
    d = max(2.0, u * 0.09)
    for x, y in points[1:-1]:
        draw.ellipse([x - d, y - d, x + d, y + d], fill=ink)
    (x, y), d = points[0], d * 1.6
    draw.ellipse([x - d, y - d, x + d, y + d], fill=BOARD, outline=ink, width=max(2, round(u * 0.05)))
