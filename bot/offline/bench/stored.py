"""Stored encounters touched at random, the encounter cache's resident memory, and undo data per
logged action."""
from __future__ import annotations

import asyncio
import gc
import random
import time
import tracemalloc
from collections import Counter

from bot.offline.bench.driver import (
    Bench,
    _own_fight,
    _timed,
    _timed_run,
)
from bot.offline.bench.mix import (
    BOARD_DELAY,
    SCRIPTS,
    Config,
    Script,
    _activation,
    _check,
    _col,
    _harness,
)
from bot.offline.bench.results import (
    LoadResult,
)
from bot.offline.harness import GUILD_ID, Harness, channel_id_of
from bot.service import Service
from data.store import open_store
from rules.registry import get_system


# -- 10,000 stored encounters, touched -------------------------------------------------------------
async def run_stored(b: Bench, cfg: Config) -> tuple[LoadResult, float, float]:
    """``cfg.stored`` active encounters (the scripts' fights as set up), a bot started on them,
    then one activation in each of ``cfg.touched`` channels picked at random, 50 at a time.
    Returns the run, the seconds filling took and the seconds the bot took to start."""
    url = await b.fresh("stored")
    store = await open_store(url)
    systems = list(b.templates)
    t0 = time.perf_counter()
    try:
        for first in range(0, cfg.stored, 500):
            await asyncio.gather(*(
                store.create_encounter(str(channel_id_of(f"stored-{n}")), str(GUILD_ID),
                                       _own_fight(b, systems[n % len(systems)], f"stored-{n}"), time.time())
                for n in range(first, min(cfg.stored, first + 500))
            ))
    finally:
        await store.close()
    fill = time.perf_counter() - t0
    gc.collect()
    t0 = time.perf_counter()
    h = await Harness.create(url, seed=2, board_delay=BOARD_DELAY)
    startup = time.perf_counter() - t0
    try:
        picked = random.Random(5).sample(range(cfg.stored), min(cfg.touched, cfg.stored))
        queue = [(f"stored-{n}", SCRIPTS[[s.system for s in SCRIPTS].index(systems[n % len(systems)])]) for n in picked]
        result = LoadResult(f"{len(queue):,} of {cfg.stored:,} stored, one activation each")

        async def worker(in_flight: Counter[str]) -> None:
            while queue:
                channel, script = queue.pop()
                enc = b.templates[script.system]  # as stored: who acts is known without loading it
                cid = str(channel_id_of(channel))
                for i, payload in enumerate(_activation(h, channel, script, enc, get_system(script.system).turn(enc).actors[0])):
                    latency, _, _ = await _timed(h, payload, cid, script.system, result, in_flight)
                    if i == 0:
                        result.cold.append(latency)

        async def work(in_flight: Counter[str]) -> None:
            await asyncio.gather(*(worker(in_flight) for _ in range(50)))

        await _timed_run(result, work, h=h)
        b.commands += result.commands
    finally:
        await h.close()
    return result, fill, startup


# -- the encounter cache's resident memory -----------------------------------------------------------
def cache_held(service: Service) -> tuple[int, int, int]:
    """What ``service``'s encounter cache holds, emptying it: its entries' JSON bytes, the bytes
    it counts against its bound, and the memory emptying it frees (`tracemalloc` tracing)."""
    entries = service._cache.values()
    json_bytes, counted = sum(len(e.json) for e in entries), service.cached_bytes
    gc.collect()
    full = tracemalloc.get_traced_memory()[0]
    service._cache.clear()
    service.cached_bytes = 0
    gc.collect()
    return json_bytes, counted, full - tracemalloc.get_traced_memory()[0]


async def fill_cache(h: Harness, b: Bench, channels: list[tuple[str, Script]]) -> None:
    """Store each channel's script's fight (as `run_stored` does), then load it through the
    bot, write it (its activation's first command) and read its board (`/encounter status`)."""
    for ch, script in channels:
        await h.store.create_encounter(str(channel_id_of(ch)), str(GUILD_ID), _own_fight(b, script.system, ch), time.time())
    for ch, script in channels:
        await h.bot.service.encounter(str(channel_id_of(ch)))
    for ch, script in channels:
        enc = b.templates[script.system]
        await h.run_payload(_activation(h, ch, script, enc, get_system(script.system).turn(enc).actors[0])[0])
        await h.run_payload(h.payload("dave", "/encounter status", {}, ch))
        h.recorder.clear()


async def run_cache_memory(b: Bench, per_system: int) -> dict[str, tuple[float, float, float, float]]:
    """Each script's fight in ``per_system`` channels: the memory the bot's encounter cache holds
    for one (what emptying the cache frees, by `tracemalloc`) once loaded, and after a write and a
    read of its board (`fill_cache`). Returns, by system: its JSON bytes, its resident bytes
    loaded and written, and the bytes the cache counts for it written."""
    h = await _harness(await b.fresh("cache"), 3)
    out: dict[str, tuple[float, float, float, float]] = {}
    try:
        service = h.bot.service
        service.cache_bytes = 1 << 40  # nothing evicted while measuring
        for script in SCRIPTS:
            names = [(f"cache-{script.system}-{n}", script) for n in range(per_system)]
            tracemalloc.start()
            try:
                for ch, _ in names:
                    await h.store.create_encounter(str(channel_id_of(ch)), str(GUILD_ID),
                                                   _own_fight(b, script.system, ch), time.time())
                    await service.encounter(str(channel_id_of(ch)))
                json_bytes, _, loaded = cache_held(service)
                await fill_cache(h, b, [(f"cache-{script.system}-w-{n}", script) for n in range(per_system)])
                _, counted, written = cache_held(service)
            finally:
                tracemalloc.stop()
            out[script.system] = (json_bytes / per_system, loaded / per_system, written / per_system, counted / per_system)
    finally:
        await h.close()
    return out


# -- undo data per action ----------------------------------------------------------------------------
async def log_bytes_per_action(b: Bench, activations: int, size: int = 60) -> tuple[float, int, int]:
    """Undo data stored per logged action: ``size`` Coup-De-Grace fighters in two facing lines on
    a 30x12 map, ``activations`` turns of the one acting (each: an attack on the foe opposite, a
    turn in place, a step, /init next). Returns (bytes per action, logged actions, state size)."""
    h = await _harness(await b.fresh("log"), 3)
    try:
        half = size // 2
        await _check(h, "gm", "/encounter start", "log", system="coup-de-grace", name="Big", map="30x12")
        for name, row, facing in (("Dwarf", 5, "S"), ("Orc", 6, "N")):
            for i in range(half):
                await _check(h, "gm", "/combatant add", "log", name=f"{name} {i + 1}", side=name.lower(),
                             at=f"{_col(i)}{row}", facing=facing, sheet="class=heavy weapons=hammer,shield")
        await _check(h, "gm", "/init roll", "log")
        channel = str(channel_id_of("log"))
        [live] = await h.bot.service.store.active_encounters()
        bytes0, rows0 = await h.store.undo_bytes(live.id)
        rng = random.Random(3)
        for _ in range(activations):
            enc = await h.bot.service.encounter(channel)
            actors = get_system(enc.system).turn(enc).actors if enc is not None else []
            if enc is None or not actors:
                break
            kind, _, n = actors[0].partition(" ")
            foe = f"Orc {n}" if kind == "Dwarf" else f"Dwarf {n}"
            for command, options in (
                ("/attack", {"combatant": actors[0], "target": foe, "weapon": "hammer"}),
                ("/move", {"combatant": actors[0], "facing": rng.choice("NESW")}),
                ("/move", {"combatant": actors[0], "path": rng.choice("NESW")}),
                ("/init next", {}),
            ):
                await h.run("gm", command, "log", **options)
        undo, rows = await h.store.undo_bytes(live.id)
        enc = await h.bot.service.encounter(channel)
        state_size = len(enc.model_dump_json()) if enc is not None else 0
    finally:
        await h.close()
    return (undo - bytes0) / max(rows - rows0, 1), rows - rows0, state_size

