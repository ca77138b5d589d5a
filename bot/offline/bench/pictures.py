"""Map pictures: render times as a `/map` worker draws them."""
from __future__ import annotations

import time
from typing import Any

from bot.offline.bench.mix import (
    _check,
    _col,
)
from bot.offline.bench.results import (
    _pct,
)
from bot.offline.harness import Harness, channel_id_of
from rules.registry import get_system


# -- map renders ---------------------------------------------------------------------------------
async def _map_encounters() -> list[tuple[str, Any]]:
    """Two encounters to draw: 12x10 with 10 combatants, 60x60 with 60."""
    h = await Harness.create(":memory:", seed=1)
    out = []
    try:
        for ch, size, n in (("map-small", (12, 10), 10), ("map-large", (60, 60), 60)):
            await _check(h, "gm", "/encounter start", ch, system="coup-de-grace", name=f"Map {size}", map=f"{size[0]}x{size[1]}")
            w, ht = size
            for i in range(n):
                col, row = (i * 7) % w, (i * 3 + i // w) % ht
                side = "dwarves" if i % 2 else "orcs"
                await _check(h, "gm", "/combatant add", ch, name=f"Fighter {i}", side=side,
                             at=f"{_col(col)}{row + 1}", facing="NESW"[i % 4], sheet="class=heavy weapons=hammer,shield" if i % 2 else "class=light weapons=axe")
            enc = await h.bot.service.encounter(str(channel_id_of(ch)))
            out.append((f"{w}x{ht}, {n} combatants", enc))
    finally:
        await h.close()
    return out




def time_maps(encounters: list[tuple[str, Any]], repeat: int) -> list[tuple[str, float, float, float, int]]:
    """``(label, first ms, p50 ms, p99 ms, PNG bytes)`` for each encounter, drawn as a `/map`
    worker draws it (`map_picture`: with the system's shading): the first picture of its board,
    then ``repeat`` pictures, each after one combatant stepped to a free cell (a new picture on
    the kept board, as in play)."""
    from bot.maps import map_picture
    from bot.maps.layer import forget_boards

    out = []
    for label, enc in encounters:
        system = get_system(enc.system)
        map_picture(system, enc)  # fonts, tiles and token images: loaded once a process
        forget_boards()
        t0 = time.perf_counter()
        png, _ = map_picture(system, enc)
        first = time.perf_counter() - t0
        grid = enc.map.grid()
        taken = {c.position for c in enc.combatants}
        free = [cell.name for cell in grid.cells() if cell.name not in taken and cell.name not in enc.map.blocked]
        times = []
        for i in range(repeat):
            c = enc.combatants[i % len(enc.combatants)]
            c.position, free[i % len(free)] = free[i % len(free)], c.position or free[i % len(free)]
            t0 = time.perf_counter()
            map_picture(system, enc)
            times.append(time.perf_counter() - t0)
        out.append((label, first * 1000, _pct(times, 50), _pct(times, 99), len(png)))
    return out


