"""Map pictures: render times as a `/map` worker draws them, against the Pillow floor (a minimal
drawing of the same board)."""
from __future__ import annotations

import io
import time
from dataclasses import dataclass
from typing import Any

from bot.offline.bench.growth import _walled_map
from bot.offline.bench.mix import (
    _check,
    _col,
)
from bot.offline.bench.results import _pct, _table
from bot.offline.harness import Harness, channel_id_of
from rules.models import Encounter
from rules.registry import get_system

# -- map renders ---------------------------------------------------------------------------------
#: the boards drawn: channel, size, combatants, map kind (square ones in Coup-De-Grace, with
#: facings; hex ones in the open system)
MAP_BOARDS = (("map-small", (12, 10), 10, "square"), ("map-large", (60, 60), 60, "square"),
              ("map-hex", (12, 10), 10, "hex"), ("map-hex-large", (40, 40), 40, "hex"))


async def _map_encounters() -> list[tuple[str, Any]]:
    """The encounters to draw (`MAP_BOARDS`): 12x10 with 10 combatants and 60x60 with 60, square;
    12x10 with 10 and 40x40 with 40, hex; each on the walled map of the slowest rules step
    (`_walled_map`: its walls where no combatant stands)."""
    h = await Harness.create(":memory:", seed=1)
    out = []
    try:
        for ch, size, n, kind in MAP_BOARDS:
            w, ht = size
            hexes = " hex" if kind == "hex" else ""
            await _check(h, "gm", "/encounter start", ch, system="open" if hexes else "coup-de-grace",
                         name=f"Map {size}{hexes}", map=f"{w}x{ht}{hexes}")
            for i in range(n):
                col, row = (i * 7) % w, (i * 3 + i // w) % ht
                side = "dwarves" if i % 2 else "orcs"
                how = {"sheet": "hp=10"} if hexes else {
                    "facing": "NESW"[i % 4], "sheet": "class=heavy weapons=hammer,shield" if i % 2 else "class=light weapons=axe"}
                await _check(h, "gm", "/combatant add", ch, name=f"Fighter {i}", side=side, at=f"{_col(col)}{row + 1}", **how)
            enc = await h.bot.service.encounter(str(channel_id_of(ch)))
            assert enc is not None
            taken = {c.position for c in enc.combatants}
            enc.map.blocked = [cell for cell in _walled_map(size)[0] if cell not in taken]
            out.append((f"{w}x{ht}{hexes}, {n} combatants, {len(enc.map.blocked)} walls", enc))
    finally:
        await h.close()
    return out


#: the Pillow floor's palette: background, grid lines, walls, then the sides' colours
FLOOR_PALETTE = [255, 255, 255, 90, 90, 90, 40, 40, 40, 200, 60, 60, 60, 90, 200, 60, 160, 60, 200, 160, 40]


def pillow_floor(enc: Encounter) -> bytes:
    """A minimal Pillow drawing of ``enc``'s board, the size of its `/map` picture: the grid's lines
    (each hex's outline on a hex map), the walls filled, each combatant a disc in its side's
    colour, drawn straight into a palette image and saved as PNG by Pillow at zlib's level
    ``FLOOR_LEVEL``."""
    from PIL import Image, ImageDraw

    from bot.maps.image import layout

    lay = layout(enc)
    grid, u = lay.grid, lay.unit
    img = Image.new("P", lay.size, 0)
    img.putpalette(FLOOR_PALETTE)
    draw = ImageDraw.Draw(img)
    if grid.kind == "square":
        (x0, y0), (x1, y1) = lay.outline(grid.parse("A1"))[0], lay.outline(grid.parse(f"{_col(grid.width - 1)}{grid.height}"))[2]
        for c in range(grid.width + 1):
            draw.line([(x0 + c * u, y0), (x0 + c * u, y1)], fill=1)
        for r in range(grid.height + 1):
            draw.line([(x0, y0 + r * u), (x1, y0 + r * u)], fill=1)
    else:
        for cell in grid.cells():
            draw.polygon(lay.outline(cell), outline=1)
    for name in enc.map.blocked:
        draw.polygon(lay.outline(grid.parse(name)), fill=2)
    sides = sorted({c.side for c in enc.combatants})
    for fighter in enc.combatants:
        if fighter.position:
            x, y = lay.centre(grid.parse(fighter.position))
            radius = u * 0.4
            draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=3 + sides.index(fighter.side) % 4, outline=1)
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=FLOOR_LEVEL)
    return buf.getvalue()


#: the zlib level of the Pillow floor's PNG: the level the pictures were written at with zlib (they
#: are now deflated by ISA-L, `bot.maps.png`, and smaller for it), kept so the floor stays the same
FLOOR_LEVEL = 3
#: a board's first picture at most this many times its Pillow floor; a picture after a move, this many
PICTURE_TARGETS = (3.0, 1.5)
#: a board's first picture is timed this many times (each after the boards are forgotten), the median kept
FIRSTS = 5


@dataclass(frozen=True)
class Pictures:
    """One board's picture times (CPU ms of this thread) against its Pillow floor."""

    label: str
    first: float  # the median of `FIRSTS`
    p50: float
    p99: float
    png: int
    floor: float  # the Pillow floor's p50
    floor_png: int

    @property
    def first_x(self) -> float:
        return self.first / self.floor if self.floor else 0.0

    @property
    def repeat_x(self) -> float:
        return self.p50 / self.floor if self.floor else 0.0


def time_maps(encounters: list[tuple[str, Any]], repeat: int) -> list[Pictures]:
    """Each encounter drawn as a `/map` worker draws it (`map_picture`: with the system's shading):
    the first picture of its board (`FIRSTS` times, the boards forgotten before each, as in a
    worker that has drawn that size before), then ``repeat`` pictures, each after one combatant
    stepped to a free cell (a new picture on the kept board, as in play); and its Pillow floor
    (`pillow_floor`) as many times. Timed by this thread's CPU, so that other work on the
    machine is not counted."""
    from bot.maps import map_picture
    from bot.maps.layer import forget_boards

    out = []
    for label, enc in encounters:
        system = get_system(enc.system)
        map_picture(system, enc)  # fonts, tiles and token images: loaded once a process
        firsts = []
        for _ in range(FIRSTS):
            forget_boards()
            t0 = time.thread_time()
            png, _ = map_picture(system, enc)
            firsts.append(time.thread_time() - t0)
        grid = enc.map.grid()
        taken = {c.position for c in enc.combatants}
        free = [cell.name for cell in grid.cells() if cell.name not in taken and cell.name not in enc.map.blocked]
        times, floors = [], []
        floor_png = pillow_floor(enc)
        for i in range(repeat):
            c = enc.combatants[i % len(enc.combatants)]
            c.position, free[i % len(free)] = free[i % len(free)], c.position or free[i % len(free)]
            t0 = time.thread_time()
            map_picture(system, enc)
            times.append(time.thread_time() - t0)
            t0 = time.thread_time()
            pillow_floor(enc)
            floors.append(time.thread_time() - t0)
        out.append(Pictures(label, _pct(firsts, 50), _pct(times, 50), _pct(times, 99), len(png), _pct(floors, 50),
                            len(floor_png)))
    return out


def pictures_report(pictures: list[Pictures]) -> tuple[str, dict[str, float]]:
    """The picture table against the Pillow floor, each ratio beside its target, and the figures:
    the worst square board's ratios (issue 25's targets), and the worst hex board's apart."""
    first_target, repeat_target = PICTURE_TARGETS
    rows = [[p.label, f"{p.first:.1f}", f"{p.p50:.1f}", f"{p.p99:.1f}", f"{p.png:,}", f"{p.floor:.1f}", f"{p.floor_png:,}",
             f"{p.first_x:.1f}x", f"{p.repeat_x:.1f}x"] for p in pictures]
    table = _table("Map pictures (bot.maps.image.map_picture, as a /map worker draws it: the first picture of the board, "
                   "then pictures with one combatant moved each time; CPU ms) against the Pillow floor (a minimal drawing "
                   "of the same board: grid, walls, tokens, palette PNG)",
                   ["map", "first ms", "p50 ms", "p99 ms", "PNG bytes", "floor ms", "floor PNG bytes",
                    f"first / floor (<= {first_target:g}x)", f"p50 / floor (<= {repeat_target:g}x)"], rows)
    figures = {}
    for name, boards in (("pictures", [p for p in pictures if " hex" not in p.label]),
                         ("pictures.hex", [p for p in pictures if " hex" in p.label])):
        figures[f"{name}.first_x"] = max((p.first_x for p in boards), default=0.0)
        figures[f"{name}.repeat_x"] = max((p.repeat_x for p in boards), default=0.0)
    return table, figures
