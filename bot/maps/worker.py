"""Where `/map` pictures are drawn: in worker processes, so that drawing never holds the event
loop's interpreter lock (a 60x60 map takes about 20 ms of Pillow, 120 ms for the first picture
of its board; in a thread of the bot's own process it would stall every other channel for much
of that, and slow each command it overlaps). Each process keeps the boards it drew last
(`bot.maps.layer`), and a channel's pictures always go to the same process, so a board costs its
full drawing once, in the one worker of its channel.

``MAP_WORKERS`` processes (default 2, or 1 on a one-core machine), at a lower priority than the
bot's own, draw from the encounter's JSON as it was when asked;
``MAP_WORKERS=0`` draws in a thread of the bot's process instead. One renderer serves every bot
of the process (the console and the tests start many) and is started with the bot. A worker
that dies is replaced, and that picture is drawn in a thread.

The last pictures are kept (``CACHE_PICTURES``), keyed by what they were drawn from: players who
look at an unchanged map (several `/map`s or Map buttons between two turns) cost no drawing.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from rules.models import Encounter
from rules.registry import get_system

__all__ = ["MapRenderer", "DEFAULT_WORKERS", "draw", "shared_renderer"]

log = logging.getLogger("skirmish.maps")
T = TypeVar("T")

#: two drawing processes where there are two cores or more: with one picture in ten commands, a
#: second worker nearly halves how long a `/map` waits at peaks (p99 430 -> 220 ms, 50 channels)
DEFAULT_WORKERS = max(1, min(2, os.cpu_count() or 1))
#: how much lower than the bot's process the workers draw (Unix niceness, added to its own)
WORKER_NICENESS = 10
#: pictures kept, the most recently asked last
CACHE_PICTURES = 64


def draw(system_key: str, enc_json: str) -> tuple[bytes, list[str], int, float]:
    """In a worker: the picture and words of the encounter ``enc_json``, who drew them, and the
    CPU seconds the drawing took (its thread's)."""
    from bot.maps import (
        image,  # here, not above: the bot's own process never loads Pillow
    )

    start = time.thread_time()
    enc = Encounter.model_validate_json(enc_json)
    png, lines = image.map_picture(get_system(system_key), enc)
    return png, lines, os.getpid(), time.thread_time() - start


def _worker_start() -> None:
    """In a worker, as it starts: yield the CPU to the bot's own process, and end when it ends."""
    _yield_cpu()
    _end_with_parent()


def _yield_cpu() -> None:
    """Draw at a lower priority (``WORKER_NICENESS``): where cores are few, the event loop of the
    bot's process gets the CPU first, and a picture waits instead of every channel."""
    try:
        os.nice(WORKER_NICENESS)
    except OSError:  # not allowed here: draw at the bot's own priority
        pass


def _end_with_parent() -> None:
    """End when the bot's process ends, even killed with -9. (A pool's workers wait on queues
    whose both ends they hold, so they would otherwise wait for ever.)"""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="skirmish-map-parent", daemon=True).start()


def _warm() -> int:
    """In a worker: load Pillow, the fonts and the rules once, before the first picture."""
    from bot.maps import image
    from rules.models import MapState

    image.render_map(Encounter.model_validate({"system": "coup-de-grace", "map": MapState(kind="square", width=2, height=2)}))
    return os.getpid()


class MapRenderer:
    """Draws `/map` pictures off the event loop: in ``workers`` processes, or (0) in a thread.

    Each worker is a pool of one process, and a picture goes to the worker its ``route`` (the
    channel) picks: a channel's pictures are drawn by the process that keeps its board, and each
    process keeps only its share of the boards of many busy channels."""

    def __init__(self, workers: int = DEFAULT_WORKERS) -> None:
        if workers < 0:
            raise ValueError("MAP_WORKERS must be 0 (draw in a thread) or more")
        self.workers = workers
        #: the process that drew the last picture (ours when drawn in a thread)
        self.drawn_by: int | None = None
        #: pictures drawn (not taken from the cache)
        self.drawn = 0
        #: CPU seconds the worker processes spent drawing (a thread's drawing is the bot
        #: process's own CPU time, and is not counted here)
        self.worker_cpu = 0.0
        self._pools: list[ProcessPoolExecutor | None] = [None] * workers
        self._guard = threading.Lock()
        self._cache: OrderedDict[bytes, tuple[bytes, list[str]]] = OrderedDict()

    def _executor(self, n: int) -> ProcessPoolExecutor:
        with self._guard:
            pool = self._pools[n]
            if pool is None:
                # spawn, not fork: the bot's process has threads (the database's, the pool's own)
                pool = self._pools[n] = ProcessPoolExecutor(
                    1, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_start
                )
            return pool

    def worker_of(self, route: str) -> int:
        """Which worker draws the pictures of ``route`` (the same one every time)."""
        return zlib.crc32(route.encode()) % self.workers

    async def start(self) -> None:
        """Start the workers now (at the bot's start), so that the first `/map` waits for no import."""
        if not self.workers:
            return
        try:
            await asyncio.gather(*(self.run(n, _warm) for n in range(self.workers)))
        except Exception as exc:  # noqa: BLE001  (e.g. a script without `if __name__ == "__main__":`)
            log.warning("the map workers did not start (%s): maps are drawn in a thread instead", exc)
            self.close()
            self.workers = 0

    async def run(self, n: int, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in worker ``n`` (started if it is not)."""
        return await asyncio.get_running_loop().run_in_executor(self._executor(n), fn, *args)

    async def picture(self, system_key: str, data: str, route: str = "") -> tuple[bytes, list[str]]:
        """The PNG and the words of the encounter whose JSON is ``data``; ``route`` (the channel)
        picks the worker that draws it."""
        key = hashlib.blake2b(f"{system_key}\n{data}".encode(), digest_size=16).digest()
        if (hit := self._cache.get(key)) is not None:
            self._cache.move_to_end(key)
            return hit[0], list(hit[1])
        png, lines = await self._draw(system_key, data, route)
        self.drawn += 1
        self._cache[key] = (png, list(lines))
        while len(self._cache) > CACHE_PICTURES:
            self._cache.popitem(last=False)
        return png, lines

    async def _draw(self, system_key: str, data: str, route: str) -> tuple[bytes, list[str]]:
        if self.workers:
            n = self.worker_of(route)
            pool = self._executor(n)
            try:
                png, lines, self.drawn_by, cpu = await asyncio.get_running_loop().run_in_executor(
                    pool, draw, system_key, data
                )
                self.worker_cpu += cpu
                return png, lines
            except BrokenProcessPool:
                log.warning("a map worker died: starting a new one; this picture is drawn in a thread")
                with self._guard:
                    if self._pools[n] is pool:
                        self._pools[n] = None
                pool.shutdown(wait=False, cancel_futures=True)
        png, lines, self.drawn_by, _ = await asyncio.to_thread(draw, system_key, data)
        return png, lines

    def pids(self) -> list[int]:
        """The worker processes running now."""
        with self._guard:
            pools = [p for p in self._pools if p is not None]
        return [pid for p in pools for pid in p._processes]  # noqa: SLF001  (the pool names none otherwise)

    def close(self) -> None:
        with self._guard:
            pools, self._pools = self._pools, [None] * len(self._pools)
        for pool in pools:
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)


_shared: dict[int, MapRenderer] = {}
_shared_guard = threading.Lock()


def shared_renderer(workers: int = DEFAULT_WORKERS) -> MapRenderer:
    """The process's renderer with ``workers`` workers, made on first use and shared by every
    bot of the process (their pictures come from the same code, so one pool serves them all)."""
    with _shared_guard:
        if workers not in _shared:
            _shared[workers] = MapRenderer(workers)
        return _shared[workers]
