"""``python -m bot benchmark [--quick] [--profile] [--backends sqlite,postgresql] [--db URL]``:
how fast the bot is, measured offline (DESIGN.md, "Performance and reliability").

For each backend (SQLite on disk; PostgreSQL on a throwaway server that the benchmark starts
itself, or the one ``--db postgresql://...`` names), in a process of its own so its memory is
its own, it prints:

1. the realistic mix through the offline harness (the real discord.py tree, service and
   store): every channel plays a fight of one system in turn (Coup-De-Grace and Knights of
   Valour on a 12x10 map with walls, TOTE with no map); a mover walks `/move to:` around a
   wall to the other side of its foe, attacks that hit and damage (typed `roll:`), the GM
   restores the foe where the system lets an edit heal, an onlooker reads `/encounter status`
   or `/map`, and `/init next` ends the activation (every channel's fight and map its own). The
   share of each command is printed. 1, 50 and 500 busy channels (closed loop: each channel
   sends its next command when the last is answered); commands/s, p50/p95/p99, CPU per
   command of this process and of the map workers (and the rate they allow on this
   machine's cores), and the longest event-loop stall (a probe task sleeping 1 ms records
   its lateness; garbage collections included), with the commands in flight when the loop
   stalled over 20 ms, and the longest garbage collection (its CPU time, its generation);
2. the group-commit floor: the same writes (the mix's encounters, the same state sizes) as
   `Change`s through `Store.apply` from as many tasks, batched as the store batches them, and
   on SQLite the same batches with plain sqlite3 in a loop; the bot's write rate as a
   fraction of the floor's;
3. 10,000 stored encounters, touched: start-up on them, then one activation each for a
   random sample (the first command to each is a cold load);
4. RSS idle and after the commands of the run (their number is printed), bytes of undo
   data per logged action at 60 combatants, and the resident memory (`tracemalloc`) of a
   cached encounter of each script, loaded and after a write, against what the cache counts;
5. the largest map and encounter (the slowest rules step's, below): a turn's commands through
   the harness, each once, for every system with a map, and the loop's longest step then.

Then, once: the slowest rules step (its CPU time, under the bot's collector settings: a far
`/move` on the largest map of every registered system with a grid, walls and 100 combatants),
map render times, and the targets beside the figures of both backends. It never asserts and
always exits 0. ``--quick`` takes under about two minutes, the full run under about fifteen.
``--profile`` also profiles the 50-channel run.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import functools
import gc
import io
import json
import os
import pstats
import random
import resource
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import discord
from discord import app_commands

from bot.app import settle_collector
from bot.offline.harness import GUILD_ID, Harness, Sent, channel_id_of, user_id_of
from bot.outbound import DEFAULT_PER_SECOND
from bot.service import CACHE_BYTES, Service
from bot.service.cache import RESIDENT_PER_JSON_BYTE
from bot.settings import Settings
from data.store import Change, Store, database_backend, open_store
from rules.models import Encounter
from rules.registry import all_systems, get_system

__all__ = ["Config", "QUICK", "FULL", "measure", "targets", "time_rules_steps", "main"]

BOARD_DELAY: float = Settings.model_fields["board_delay_seconds"].default
#: commands that read and write nothing
READS = ("/encounter status", "/map")
#: a stall of the event loop longer than this is counted (and its commands in flight named)
STALL_MS = 20.0
RULES_STEP_TARGET_MS = 20.0

Factory = Callable[[str], Awaitable[str]]


@dataclass(frozen=True)
class Config:
    """How much each part of the run does."""

    name: str
    #: (busy channels, activations each channel plays); the second run is the targets' run
    runs: tuple[tuple[int, int], ...]
    floor_tasks: int
    floor_writes: int  # per task
    stored: int
    touched: int
    log_activations: int
    rules_repeat: int
    map_repeat: int
    #: the largest map's side and its combatants (section 5; the slowest rules step's is 100)
    largest: int = 100
    #: the channels of each script whose cached encounters are measured (section 4)
    cached: int = 20


QUICK = Config("quick", ((1, 12), (50, 6), (500, 2)), 50, 40, 10_000, 200, 40, 2, 10)
#: 1 x 40 + 50 x 40 + 500 x 22 activations of 4-5 commands, and 2,000 touched: over 50,000 commands
FULL = Config("full", ((1, 40), (50, 40), (500, 22)), 50, 200, 10_000, 2_000, 100, 10, 50)


# -- the realistic mix ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Fighter:
    """One fighter of a benchmark fight: a mover walks between its two posts around a wall on
    either side of its foe; an anchor stays and turns to face the mover."""

    name: str
    owner: str
    side: str
    at: str
    foe: str
    posts: tuple[str, str] | None = None


@dataclass(frozen=True)
class Script:
    """How a system's benchmark fight is set up and played."""

    system: str
    map: str | None
    walls: str | None
    sheets: dict[str, str]  # by side
    rolls: dict[str, tuple[str, ...]]  # the `roll:` of an attack, by side, in turn activation by activation
    weapon: str | None = None
    heal: str | None = None  # a GM sheet edit that restores the foe after a hit


#: two pairs, each a mover and an anchor; walls beside each anchor make a mover's way round
FIGHTERS: tuple[Fighter, ...] = (
    Fighter("Borin", "bob", "dwarves", "D5", "Grak", ("D5", "F5")),
    Fighter("Grak", "carol", "orcs", "E5", "Borin"),
    Fighter("Snaga", "carol", "orcs", "D9", "Dain", ("D9", "F9")),
    Fighter("Dain", "bob", "dwarves", "E9", "Snaga"),
)
BY_NAME = {f.name: f for f in FIGHTERS}
WALLS = "E4 E6 E8 E10"
#: cells out of the fighters' way (columns I-L of the 12x10 map), two of which, one from each
#: half, make the map of each channel after the first of its script a map of its own
OWN_WALLS = (tuple(f"{c}{r}" for c in "IJ" for r in range(1, 11)), tuple(f"{c}{r}" for c in "KL" for r in range(1, 11)))
TRACK = "track=6,6,5,5,4,4,3,3,2,1,1,U"
SCRIPTS: tuple[Script, ...] = (
    # 20 HP: a fighter takes one hit per round, so a channel plays at most 19 rounds (76 activations)
    Script("coup-de-grace", "12x10", WALLS, dict.fromkeys(("dwarves", "orcs"), "class=unarmoured weapons=sword hp=20"),
           dict.fromkeys(("dwarves", "orcs"), ("5",)), weapon="sword"),
    Script("knights-of-valour", "12x10", WALLS, dict.fromkeys(("dwarves", "orcs"), "hp=30 move=60 weapons=longsword:1"),
           dict.fromkeys(("dwarves", "orcs"), ("18",)), weapon="longsword", heal="hp=30"),
    # no edit heals in TOTE: the heroes hit (one box) every other activation and the foes miss,
    # so the 12-box tracks last 40 activations
    Script("tote", None, None, {"dwarves": f"weapon=sword:1 {TRACK}", "orcs": f"rating=2 weapon=sword:1 {TRACK}"},
           {"dwarves": ("5 3", "1 1"), "orcs": ("1 1 1",)}),
)


def _script_of(index: int) -> Script:
    return SCRIPTS[index % len(SCRIPTS)]


async def _harness(url: str, seed: int, board_delay: float = 0.0) -> Harness:
    """A harness on ``url``; the garbage of the harnesses before it is collected first (a bot
    freezes what is alive when it starts, as the one bot of a process may)."""
    gc.collect()
    return await Harness.create(url, seed=seed, board_delay=board_delay)


async def _check(h: Harness, user: str, command: str, channel: str, **options: Any) -> None:
    sent = await h.run(user, command, channel, **options)
    kind, text = _classify(sent, str(channel_id_of(channel)))
    if kind != "ok":
        raise RuntimeError(f"set-up command {command} in #{channel} failed: {text}")


async def _setup_channel(h: Harness, channel: str, script: Script) -> None:
    """The script's fight in ``channel``, initiative rolled."""
    start: dict[str, Any] = {"system": script.system, "name": f"Bench {channel}"}
    if script.map:
        start["map"] = script.map
    await _check(h, "gm", "/encounter start", channel, **start)
    if script.walls:
        await _check(h, "gm", "/encounter terrain", channel, cells=script.walls, kind="wall")
    facing = get_system(script.system).uses_facing
    for f in FIGHTERS:
        add: dict[str, Any] = {"name": f.name, "owner": "@" + f.owner, "side": f.side, "sheet": script.sheets[f.side],
                               "at": f.at if script.map else "melee"}
        if facing:
            add["facing"] = "E" if f.posts else "W"
        await _check(h, "gm", "/combatant add", channel, **add)
    if "auto_end" in get_system(script.system).options:  # every turn of the mix ends with /init next
        await _check(h, "gm", "/encounter settings", channel, options="auto_end=no")
    await _check(h, "gm", "/init roll", channel)


def _activation(h: Harness, channel: str, script: Script, enc: Encounter, actor: str, n: int = 0,
                maps: bool = True) -> list[dict[str, Any]]:
    """The payloads of ``actor``'s next activation in ``enc``, the channel's ``n``-th (see `FIGHTERS`);
    without ``maps``, a `/map` of the mix is an `/encounter status` instead."""
    f = BY_NAME[actor]
    rolls = script.rolls[f.side]
    roll = rolls[n % len(rolls)]
    system = get_system(script.system)
    by = {c.name: c for c in enc.combatants}
    me, foe = by[actor], by[f.foe]
    grid = enc.map.grid()
    out: list[dict[str, Any]] = []

    def add(user: str, command: str, **options: str) -> None:
        out.append(h.payload(user, command, options, channel))

    if grid is None:  # no map: strike while initiative lasts, else defend (0 initiative, a strike too)
        if (me.initiative or 0) >= 1:
            add(f.owner, "/attack", combatant=actor, target=f.foe, roll=roll)
        else:
            add(f.owner, "/act", combatant=actor, action="defend", target=f.foe, roll=roll)
    else:
        here, there = grid.parse(me.position or ""), grid.parse(foe.position or "")
        if f.posts:
            to = f.posts[1] if me.position == f.posts[0] else f.posts[0]
            move = {"combatant": actor, "to": to}
            if system.uses_facing:
                move["facing"] = grid.facing_towards(grid.parse(to), there)
            add(f.owner, "/move", **move)
        elif system.uses_facing and me.facing != (face := grid.facing_towards(here, there)):
            add(f.owner, "/move", combatant=actor, facing=face)
        attack = {"combatant": actor, "target": f.foe, "roll": roll}
        if script.weapon:
            attack["weapon"] = script.weapon
        add(f.owner, "/attack", **attack)
    if script.heal:
        add("gm", "/combatant edit", name=f.foe, sheet=script.heal)
    add("dave", "/map" if maps and grid is not None and not f.posts else "/encounter status")
    if grid is not None:
        add(f.owner, "/init next")
    return out


def _command_name(payload: dict[str, Any]) -> str:
    data = payload["data"]
    words = [data["name"]]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # subcommand (group)
        words.append(options[0]["name"])
        options = options[0].get("options") or []
    return "/" + " ".join(words)


# -- results -------------------------------------------------------------------------------------
@dataclass
class LoadResult:
    """What one timed run measured."""

    label: str
    commands: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # this process's CPU time during the run (a database server's is apart)
    harness_cpu_seconds: float = 0.0  # ... of which the harness's and the driver's own (`_HarnessMeter`)
    map_cpu_seconds: float = 0.0  # the map worker processes' CPU time drawing the run's pictures
    latencies: list[float] = field(default_factory=list)
    cold: list[float] = field(default_factory=list)  # the first command to each channel, where it is a cold load
    ok: int = 0
    rejected: int = 0  # ephemeral "Not done" replies: the command was refused
    errors: int = 0  # "Something went wrong" replies, exceptions, or no reply at all
    writes: int = 0  # accepted commands that write (all but `READS`)
    examples: list[str] = field(default_factory=list)  # the first few refusals, for the report
    by_command: dict[str, list[float]] = field(default_factory=dict)
    by_system: dict[str, Counter[str]] = field(default_factory=dict)  # command counts per system
    stall: float = 0.0  # the event loop's longest lag (the probe's lateness), seconds
    callback: float = 0.0  # the longest single step the loop ran (one callback or task step), seconds
    callback_what: str = ""  # the commands in flight during it
    stalls: int = 0  # stalls over STALL_MS
    blame: Counter[str] = field(default_factory=Counter)  # commands in flight during those stalls
    gc_longest: float = 0.0  # the longest garbage collection, seconds
    gc_longest_cpu: float = 0.0  # ... its CPU seconds (the rest: the machine's other work)
    gc_generation: int = -1  # ... the generation it collected
    gc_most_cpu: float = 0.0  # the most CPU seconds one garbage collection took
    gc_counts: list[int] = field(default_factory=lambda: [0, 0, 0])  # collections by generation
    requests: int = 0  # bot-token requests (board posts and edits, reminders, DMs) during the run and its boards' flush
    request_seconds: float = 0.0  # the run and its boards' flush: the time those requests went out in
    requests_peak: int = 0  # the most bot-token requests in any one second
    http_429: int = 0  # the 429s the harness answered (Discord's global bucket)
    staleness: list[float] = field(default_factory=list)  # each board edit: seconds from its first change to the edit

    @property
    def rate(self) -> float:
        return self.commands / self.seconds if self.seconds else 0.0

    @property
    def request_rate(self) -> float:
        """Bot-token requests a second, over the run and its boards' flush."""
        return self.requests / self.request_seconds if self.request_seconds else 0.0

    @property
    def write_rate(self) -> float:
        return self.writes / self.seconds if self.seconds else 0.0

    def pct(self, q: float, data: list[float] | None = None) -> float:
        """The ``q``-th percentile of the latencies (or of ``data``), in milliseconds."""
        return _pct(self.latencies if data is None else data, q)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    data = sorted(values)
    return data[min(len(data) - 1, max(0, round(q / 100 * (len(data) - 1))))] * 1000


def _classify(sent: list[Sent], channel: str) -> tuple[str, str]:
    """``("ok" | "rejected" | "error", text)`` for the replies of one command in ``channel``."""
    replies = [s for s in sent if s.channel == channel and s.kind in ("response", "followup")]
    if not replies:
        return "error", "no reply"
    first = replies[0]
    text = first.text
    if "Something went wrong" in text:
        return "error", text
    title = first.embeds[0].get("title", "") if first.embeds else ""
    if first.ephemeral and "Not done" in title:
        return "rejected", text
    return "ok", text


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def rss_mib() -> float:
    """This process's resident memory now (VmRSS), in MiB; the peak where /proc is missing."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class _Watch:
    """While installed: a probe task that sleeps 1 ms and records how late it wakes (the event
    loop's lag: a blocking step, a garbage collection, or a queue of ready work), the longest
    single step the loop ran (a blocking call shows here; a queue does not), and the longest
    garbage collection."""

    def __init__(self, result: LoadResult, in_flight: Counter[str]) -> None:
        self.result, self.in_flight = result, in_flight
        self._gc_start = self._gc_cpu = 0.0
        self._task: asyncio.Task[None] | None = None

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        r = self.result
        if phase == "start":
            self._gc_start, self._gc_cpu = time.perf_counter(), time.thread_time()
            return
        took, cpu = time.perf_counter() - self._gc_start, time.thread_time() - self._gc_cpu
        r.gc_counts[info["generation"]] += 1
        r.gc_most_cpu = max(r.gc_most_cpu, cpu)
        if took > r.gc_longest:
            r.gc_longest, r.gc_longest_cpu = took, cpu
            r.gc_generation = info["generation"]

    async def _probe(self) -> None:
        r = self.result
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(0.001)
            late = time.perf_counter() - t0 - 0.001
            r.stall = max(r.stall, late)
            if late * 1000 > STALL_MS:
                r.stalls += 1
                r.blame.update(name for name, n in self.in_flight.items() if n)

    def _timed_handle(self) -> Callable[[asyncio.Handle], None]:
        run, r, in_flight = self._run, self.result, self.in_flight

        def timed(handle: asyncio.Handle) -> None:
            t0 = time.perf_counter()
            try:
                run(handle)
            finally:
                took = time.perf_counter() - t0
                if took > r.callback:
                    r.callback = took
                    r.callback_what = ", ".join(sorted(k for k, n in in_flight.items() if n)) or "none"
        return timed

    def __enter__(self) -> "_Watch":
        self._run = asyncio.Handle._run
        asyncio.Handle._run = self._timed_handle()  # type: ignore[method-assign]
        gc.callbacks.append(self._gc)
        self._task = asyncio.get_running_loop().create_task(self._probe())
        return self

    def __exit__(self, *exc: Any) -> None:
        asyncio.Handle._run = self._run  # type: ignore[method-assign]
        gc.callbacks.remove(self._gc)
        assert self._task is not None
        self._task.cancel()


class _HarnessMeter:
    """While installed: this thread's CPU time in the harness's own code, so that the bot's share
    of a run's CPU can be told apart: its stand-ins for Discord (the webhook endpoint, the
    messages it records and answers with) and the driver (building payloads and the next
    activation, reading the replies). Each counted part runs without suspending, so the time
    is its own; a part called inside another is counted once."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._depth = 0
        self._saved: list[tuple[Any, str, Any]] = []

    def _sync(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self._depth += 1
            t0 = time.thread_time() if self._depth == 1 else 0.0
            try:
                return fn(*args, **kwargs)
            finally:
                if self._depth == 1:
                    self.seconds += time.thread_time() - t0
                self._depth -= 1
        return counted

    def _async(self, fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self._depth += 1
            t0 = time.thread_time() if self._depth == 1 else 0.0
            try:
                return await fn(*args, **kwargs)
            finally:
                if self._depth == 1:
                    self.seconds += time.thread_time() - t0
                self._depth -= 1
        return counted

    def __enter__(self) -> "_HarnessMeter":
        from bot.offline.harness import Recorder, RecordingAdapter

        for owner, name, wrap in ((Harness, "payload", self._sync), (Recorder, "record", self._sync),
                                  (Recorder, "message", self._sync), (RecordingAdapter, "request", self._async),
                                  (sys.modules[__name__], "_classify", self._sync),
                                  (sys.modules[__name__], "_activation", self._sync)):
            original = getattr(owner, name)
            self._saved.append((owner, name, original))
            setattr(owner, name, wrap(original))
        return self

    def __exit__(self, *exc: Any) -> None:
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()


class _Window(list):  # type: ignore[type-arg]
    """The harness's list of sent messages, forgetting its head while keeping its indices, so
    that a long run measures the bot's memory and not the harness's record of every reply
    (`Harness.run_payload` slices it from the length it had when the command began)."""

    def __init__(self) -> None:
        super().__init__()
        self.dropped = 0
        self.starts: Counter[int] = Counter()  # where the commands in flight began

    def __len__(self) -> int:
        return self.dropped + super().__len__()

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice) and index.step is None and index.stop is None:
            return super().__getitem__(slice(max(0, (index.start or 0) - self.dropped), None))
        return super().__getitem__(index)

    def begin(self) -> int:
        start = len(self)
        self.starts[start] += 1
        return start

    def end(self, start: int) -> None:
        self.starts[start] -= 1
        if not self.starts[start]:
            del self.starts[start]
        if super().__len__() > 2000:  # now and then, drop what no command in flight will read
            upto = min(self.starts, default=len(self))
            del self[:upto - self.dropped]  # list.__delitem__ with this list's own indices
            self.dropped = upto


def _windowed(h: Harness) -> _Window:
    if not isinstance(h.recorder.sent, _Window):
        h.recorder.sent = _Window()
    return h.recorder.sent


async def _timed(h: Harness, payload: dict[str, Any], cid: str, system: str, result: LoadResult,
                 in_flight: Counter[str]) -> tuple[float, str, str]:
    """Run one command, count it in ``result``; its latency, and how it ended (`_classify`)."""
    name = _command_name(payload)
    window = _windowed(h)
    in_flight[name] += 1
    start = window.begin()
    t0 = time.perf_counter()
    try:
        sent = await h.run_payload(payload)
    except Exception as exc:  # noqa: BLE001  (counted, never raised: the benchmark reports)
        kind, text = "error", repr(exc)
    else:
        kind, text = _classify(sent, cid)
    finally:
        in_flight[name] -= 1
        window.end(start)
    latency = time.perf_counter() - t0
    # what the harness keeps of a finished command: its replies, its calls, its token
    h.recorder.calls.clear()
    h.recorder.channel_of_token.pop(payload["token"], None)
    h.recorder.user_of_token.pop(payload["token"], None)
    result.latencies.append(latency)
    result.by_command.setdefault(name, []).append(latency)
    result.by_system.setdefault(system, Counter())[name] += 1
    if kind == "ok":
        result.ok += 1
        result.writes += name not in READS
    else:
        result.rejected += kind == "rejected"
        result.errors += kind == "error"
        if len(result.examples) < 3:
            result.examples.append(f"{name}: " + text.replace("\n", " ")[:160])
    return latency, kind, text


async def _timed_run(result: LoadResult, work: Callable[[Counter[str]], Awaitable[Any]],
                     profile: cProfile.Profile | None = None, h: Harness | None = None) -> None:
    """Time ``work`` (wall and CPU, and the map workers' CPU of ``h``'s bot) with the stall probe
    running."""
    in_flight: Counter[str] = Counter()
    drawing = h.bot.service.maps.worker_cpu if h is not None else 0.0
    with _Watch(result, in_flight), _HarnessMeter() as meter:
        await asyncio.sleep(0.01)  # let the probe start
        cpu0, t0 = _cpu(), time.perf_counter()
        if profile is not None:
            profile.enable()
        try:
            await work(in_flight)
        finally:
            if profile is not None:
                profile.disable()
            result.seconds = time.perf_counter() - t0
            result.cpu_seconds = _cpu() - cpu0
            result.harness_cpu_seconds = meter.seconds
            if h is not None:
                result.map_cpu_seconds = h.bot.service.maps.worker_cpu - drawing
    result.commands = len(result.latencies)


async def _play(h: Harness, channels: list[tuple[str, Script]], activations: int, result: LoadResult,
                profile: cProfile.Profile | None = None, maps: bool = True) -> None:
    """Play ``activations`` activations in every channel at once, one task per channel."""

    async def one(channel: str, script: Script, in_flight: Counter[str]) -> None:
        cid = str(channel_id_of(channel))
        system = get_system(script.system)
        for n in range(activations):
            # who acts next, and where everyone stands, is read off the clock
            enc = await h.bot.service.encounter(cid)
            actors = system.turn(enc).actors if enc is not None else ()
            if enc is None or not actors:
                result.errors += 1
                if len(result.examples) < 3:
                    result.examples.append(f"#{channel}: nobody to act")
                return
            for payload in _activation(h, channel, script, enc, actors[0], n, maps):
                await _timed(h, payload, cid, script.system, result, in_flight)

    async def work(in_flight: Counter[str]) -> None:
        await asyncio.gather(*(one(ch, script, in_flight) for ch, script in channels))

    await _timed_run(result, work, profile, h)


@dataclass
class Bench:
    """What one backend's run carries from part to part."""

    fresh: Factory
    out: TextIO
    commands: int = 0  # commands this process has run (set-up included)
    templates: dict[str, Encounter] = field(default_factory=dict)  # each script's fight as set up
    played: dict[str, Encounter] = field(default_factory=dict)  # ... and after the targets' run


async def run_load(b: Bench, channels: int, activations: int, *, prefix: str,
                   profile: cProfile.Profile | None = None, maps: bool = True,
                   bot: Callable[[Harness], None] | None = None, label: str = "") -> LoadResult:
    """Set up ``channels`` fights (the scripts in turn) on a fresh database, then time
    ``activations`` activations in each (without ``maps``: `/encounter status` for `/map`);
    ``bot`` changes the harness's bot after the set-up (`floor_bot`), ``label`` names the run."""
    h = await _harness(await b.fresh(prefix), 1, BOARD_DELAY)
    try:
        names = [(f"{prefix}-{i}", _script_of(i)) for i in range(channels)]
        await _setup_channels(h, b, names)
        result = LoadResult(label or f"{channels} busy channel{'s' * (channels != 1)}" + ("" if maps else ", no /map"))
        if bot is not None:
            bot(h)
        await h.bot.boards.flush()
        h.recorder.per_second.clear()
        h.recorder.rate_limited.clear()
        h.bot.boards.staleness = result.staleness
        started = time.perf_counter()
        await _play(h, names, activations, result, profile, maps)
        await h.bot.boards.flush()  # the last changes' edits, outside the timed run
        result.request_seconds = time.perf_counter() - started
        result.requests = sum(h.recorder.per_second.values())
        result.requests_peak = max(h.recorder.per_second.values(), default=0)
        result.http_429 = len(h.recorder.rate_limited)
        for ch, script in names[:len(SCRIPTS)]:
            b.played[script.system] = await _encounter(h, ch)
        b.commands += result.commands
        return result
    finally:
        await h.close()


async def _setup_channels(h: Harness, b: Bench, names: list[tuple[str, Script]]) -> None:
    """The first fight of each script set up through commands (its template); the others
    stored as copies of it, as a busy bot's store holds fights that were set up long ago."""
    for ch, script in names:
        if script.system not in b.templates:
            await _setup_channel(h, ch, script)
            b.templates[script.system] = await _encounter(h, ch)
        else:
            await h.store.create_encounter(str(channel_id_of(ch)), str(GUILD_ID), _own_fight(b, script.system, ch),
                                           time.time())
    h.recorder.clear()


def _own_fight(b: Bench, system: str, channel: str) -> Encounter:
    """The ``system`` template's fight for ``channel`` (``prefix-N``), as every fight of a real bot
    differs: named for it, so no two channels share a `/map` picture from the cache, and on a map
    with two walls of its own out of the fighters' way (`OWN_WALLS`), so that each has its own
    board to draw and keep (the first 400 channels all differ)."""
    fight = b.templates[system].model_copy(update={"name": f"Bench {channel}"})
    if fight.map.kind != "none":
        n = int(channel.rsplit("-", 1)[1])
        walls = [OWN_WALLS[0][n % 20], OWN_WALLS[1][n // 20 % 20]]
        fight.map = fight.map.model_copy(update={"blocked": [*fight.map.blocked, *walls]})
    return fight


async def _encounter(h: Harness, channel: str) -> Encounter:
    enc = await h.bot.service.encounter(str(channel_id_of(channel)))
    if enc is None:
        raise RuntimeError(f"#{channel} has no encounter")
    return enc


# -- the floors: a no-op bot and a store-only bot ---------------------------------------------------
#: a store-only bot's log row: about the bytes a logged action of the mix stores (its summary,
#: dice and undo data)
FLOOR_ROW = ("Borin moves D5 → D4 → D3 → E3 → F3 → F4 → F5 for 7 MP, facing W; attacks Grak with a sword: "
             "hits, 5 damage, Grak is wounded. " * 4)[:480]


def floor_bot(h: Harness, write: bool) -> None:
    """Make ``h``'s bot a floor of the same tree: every command of it answers one line (the no-op
    bot); with ``write``, after one group-committed `Store.apply` of the channel's state as
    stored (its JSON as cached) and a `FLOOR_ROW` log row (the store-only bot). The payloads,
    the discord.py dispatch, its checks and transformers, the harness and the driver stay."""
    service, store = h.bot.service, h.store

    async def answer(interaction: discord.Interaction, **_: Any) -> None:
        if write:
            live = await service._readable(str(interaction.channel_id))
            if live is not None:
                await store.apply(Change(
                    encounter_id=live.id, encounter=live.enc, interaction_id=str(interaction.id),
                    user_id=str(interaction.user.id), command="/floor", summary=FLOOR_ROW, dice=[5],
                    state_before=None, now=time.time(), state_json=live.json, version=live.version, undoable=False,
                ))
                live.version += 1
        await interaction.response.send_message("Done.")

    for command in h.bot.tree.walk_commands():
        if isinstance(command, app_commands.Command):
            command._callback, command.binding = answer, None  # type: ignore[assignment]


@dataclass
class Floors:
    """The floor runs beside the mix without `/map`: each floor before and after it."""

    before: dict[str, LoadResult]
    mix: LoadResult
    after: dict[str, LoadResult]

    def bot_ms(self, r: LoadResult) -> float:
        """The bot's CPU ms per command in ``r``: the process's, less the harness's own."""
        return 1000 * (r.cpu_seconds - r.harness_cpu_seconds) / max(r.commands, 1)

    def floor_ms(self, kind: str) -> float:
        """A floor's bot CPU ms per command: the mean of its runs before and after the mix."""
        return (self.bot_ms(self.before[kind]) + self.bot_ms(self.after[kind])) / 2

    def figures(self) -> dict[str, float]:
        mix = self.bot_ms(self.mix)
        noop, stored = self.floor_ms("no-op"), self.floor_ms("store-only")
        return {"floors.noop_ms": noop, "floors.store_ms": stored, "floors.mix_ms": mix,
                "floors.ratio_store": mix / stored if stored else 0.0, "floors.ratio_noop": mix / noop if noop else 0.0,
                "floors.harness_share": self.mix.harness_cpu_seconds / self.mix.cpu_seconds if self.mix.cpu_seconds else 0.0}

    def table(self) -> str:
        rows = []
        for when, r in [*(("before", r) for r in self.before.values()), ("", self.mix),
                        *(("after", r) for r in self.after.values())]:
            share = r.harness_cpu_seconds / r.cpu_seconds if r.cpu_seconds else 0.0
            rows.append([f"{r.label}" + (f" ({when})" if when else ""), f"{r.commands:,}", f"{r.rate:,.0f}",
                         f"{1000 * r.cpu_seconds / max(r.commands, 1):.3f}", f"{share:.0%}", f"{self.bot_ms(r):.3f}",
                         f"{r.rejected:,}", f"{r.errors:,}"])
        f = self.figures()
        return "\n".join([
            _table("1b. The floors, through the same harness, payloads and driver as the mix without /map (50 busy "
                   "channels): a no-op bot (every command answers one line) and a store-only bot (the no-op plus one "
                   "group-committed write of the channel's state and a 480-byte log row), before and after it",
                   ["run", "commands", "per s", "CPU ms/cmd", "harness", "bot CPU ms/cmd", "refused", "errors"], rows),
            f"bot CPU per command: no-op {f['floors.noop_ms']:.3f} ms, store-only {f['floors.store_ms']:.3f} ms, "
            f"Skirmish {f['floors.mix_ms']:.3f} ms; Skirmish / store-only {f['floors.ratio_store']:.2f}x "
            f"(target <= {FLOOR_TARGET:.1f}x), Skirmish / no-op {f['floors.ratio_noop']:.2f}x; the harness's own share "
            f"of the mix's CPU {f['floors.harness_share']:.0%} (apart from the bot's)",
        ])


#: Skirmish's bot CPU per command on the mix without `/map`, at most this many times the store-only floor's
FLOOR_TARGET = 2.0


async def run_with_floors(b: Bench, channels: int, activations: int) -> Floors:
    """The mix without `/map` on ``channels`` channels, with the no-op and the store-only bot
    played through the same harness and driver before it and after it (the fights as set up)."""
    played = dict(b.played)

    async def floors(when: str) -> dict[str, LoadResult]:
        out = {}
        for kind, write in (("no-op", False), ("store-only", True)):
            out[kind] = await run_load(b, channels, activations, prefix=f"{kind}-{when}", maps=False,
                                       bot=functools.partial(floor_bot, write=write), label=f"{kind} bot")
        return out

    before = await floors("before")
    mix = await run_load(b, channels, activations, prefix="nomap", maps=False)
    after = await floors("after")
    b.played = played
    return Floors(before, mix, after)


# -- the group-commit floor ----------------------------------------------------------------------
def _floor_changes(ids: list[tuple[int, int]], states: list[tuple[Encounter, Encounter]], writes: int,
                   tag: str = "floor") -> list[list[Change]]:
    """For each encounter ``(id, version)``, its ``writes`` changes as the service makes them:
    each from one state of its pair to the other, on the version the last one wrote."""
    out = []
    for n, (enc_id, version) in enumerate(ids):
        pair = states[n % len(states)]
        both = [(pair[0], pair[0].model_dump_json()), (pair[1], pair[1].model_dump_json())]
        changes = []
        for w in range(writes):
            (_, before), (after, after_json) = both[w % 2], both[1 - w % 2]
            changes.append(Change(
                encounter_id=enc_id, encounter=after, interaction_id=f"{tag}-{enc_id}-{w}", user_id="1",
                command="/move", summary="Borin moves D5 → D4 → D3 → E3 → F3 → F4 → F5 for 7 MP, facing W",
                dice=[5], state_before=before, now=time.time(), state_json=after_json, version=version + w,
            ))
        out.append(changes)
    return out


async def _floor_encounters(store: Store, b: Bench, tasks: int) -> list[tuple[int, int]]:
    systems = list(b.templates)
    ids = []
    for n in range(tasks):
        created = await store.create_encounter(f"floor-{n}", str(GUILD_ID), b.templates[systems[n % len(systems)]], time.time())
        ids.append((created.id, created.version))
    return ids


async def run_floor(b: Bench, cfg: Config) -> tuple[LoadResult, LoadResult | None]:
    """``Store.apply`` of the mix's writes from ``cfg.floor_tasks`` tasks at once (batched as the
    store batches them), and on SQLite the same batches with plain sqlite3 in a loop."""
    url = await b.fresh("floor")
    store = await open_store(url)
    pairs = [(b.templates[k], b.played.get(k, b.templates[k])) for k in b.templates]
    try:
        ids = await _floor_encounters(store, b, cfg.floor_tasks)
        plans = _floor_changes(ids, pairs, cfg.floor_writes)
        result = LoadResult("group-commit floor (Store.apply)")

        async def one(changes: list[Change]) -> None:
            for change in changes:
                t0 = time.perf_counter()
                await store.apply(change)
                result.latencies.append(time.perf_counter() - t0)
            result.ok += len(changes)

        async def work(_: Counter[str]) -> None:
            await asyncio.gather(*(one(c) for c in plans))

        await _timed_run(result, work)
        result.writes = result.ok
        batches = getattr(store, "batches", 0)
        if batches:
            result.label += f", {result.writes / batches:.0f} writes a batch"
        versions = [(i, v + cfg.floor_writes) for i, v in ids]
    finally:
        await store.close()
    backend, path = database_backend(url)
    if backend != "sqlite":
        return result, None
    return result, run_plain_sqlite3(path, _floor_changes(versions, pairs, cfg.floor_writes, "plain"))


def run_plain_sqlite3(path: str, plans: list[list[Change]]) -> LoadResult:
    """The floor's batches (one change of each encounter a batch) written with plain sqlite3 in a
    synchronous loop, each batch in one transaction as the store writes it."""
    from data.sqlite import _batch_params, _write_batch

    con = sqlite3.connect(path, isolation_level="IMMEDIATE")
    con.execute("PRAGMA journal_mode = WAL")
    con.executescript("PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;")
    result = LoadResult("plain sqlite3 loop, same batches")
    try:
        cpu0, t0 = _cpu(), time.perf_counter()
        for batch in zip(*plans):
            t1 = time.perf_counter()
            _write_batch(con, _batch_params(list(batch)), [])
            result.latencies.append(time.perf_counter() - t1)
            result.writes += len(batch)
        result.seconds, result.cpu_seconds = time.perf_counter() - t0, _cpu() - cpu0
    finally:
        con.close()
    result.commands = result.ok = result.writes
    return result


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


# -- the slowest rules step ------------------------------------------------------------------------
#: sheets (the mover's, everyone else's) and options that make a known system's mover fast; a
#: system not listed here is measured with its default sheets
FAST_MOVER: dict[str, tuple[tuple[str, str], dict[str, str]]] = {
    "coup-de-grace": (("class=unarmoured weapons=sword", "class=light weapons=sword"), {"tie": "join"}),
    "knights-of-valour": (("agi=3 hp=9 move=200 weapons=longsword:1", "agi=-3 hp=9 weapons=longsword:1"), {}),
    "open": (("hp=9 speed=200 init=+50 weapons=sword:+5:1d6:slashing", "hp=9 weapons=sword:+5:1d6:slashing"),
             {"opportunity": "no"}),
}


def _rules_step_encounter(key: str, kind: str, size: int, count: int) -> Encounter:
    """A started ``key`` encounter on a walled ``kind`` map of ``size`` x ``size`` with ``count``
    combatants; "Mover" at A1 may move now (the initiative is rolled until it may)."""
    from rules.actions import make_action
    from rules.dice import Dice
    from rules.models import MapState
    from rules.sheet import parse_pairs

    system = get_system(key)
    names, walls = _walled_map(size)
    sheets, options = FAST_MOVER.get(key, (("", ""), {}))
    enc = Encounter(system=key, map=MapState(kind=kind, width=size, height=size, blocked=names), gm_ids=["9"])
    enc.settings.options.update(options)
    grid = enc.map.grid()
    facing = grid.facings[0] if grid is not None and system.uses_facing else None
    for i, (col, row) in enumerate([(0, 0), *_crowd(size, count - 1, walls)]):
        action = make_action("add", is_gm=True, name="Mover" if i == 0 else f"F{i}", side="a" if i % 2 == 0 else "b",
                             raw_sheet=parse_pairs(sheets[0 if i == 0 else 1]), at=f"{_col(col)}{row + 1}",
                             facing=facing, owner_id="1")
        enc = system.resolve(enc, action, Dice.fixed([])).encounter
    for seed in range(200):
        started = system.resolve(enc, make_action("init_roll", is_gm=True), Dice(random.Random(seed))).encounter
        if "Mover" in system.turn(started).actors:
            return started
    raise RuntimeError("the initiative never gave Mover the first move")


def _far_move(key: str, enc: Encounter, to: str) -> tuple[float, str]:
    """CPU seconds and outcome of resolving Mover's move to ``to`` (this thread's CPU time: what
    the step costs, garbage collection included, and not the time another process held the core)."""
    from rules.actions import make_action
    from rules.dice import Dice
    from rules.errors import RulesError

    system = get_system(key)
    snapshot = enc.model_dump_json()
    t0 = time.thread_time()
    try:
        system.resolve(enc, make_action("move", is_gm=True, actor="Mover", to=to), Dice(random.Random(1)),
                       snapshot=snapshot)
        outcome = "moved"
    except RulesError as exc:
        outcome = "refused: " + str(exc)[:60]
    return time.thread_time() - t0, outcome


def time_rules_steps(size: int, count: int, repeat: int) -> list[tuple[str, float, float, str]]:
    """``(label, p50 ms, max ms, outcome)`` of ``system.resolve`` for far moves of every registered
    system with a map (hex where it takes hex maps), on a walled ``size`` map with ``count``
    combatants: the farthest reachable cell found along the top row or the left column, the far
    corner (out of reach) and a closed room (walled off). Timed under the bot's collector
    settings (`_as_in_the_bot`)."""
    with _as_in_the_bot():
        return _time_rules_steps(size, count, repeat)


@contextlib.contextmanager
def _as_in_the_bot() -> Any:
    """The garbage collector set as the bot sets it at start (`bot.app.settle_collector`, what is
    alive frozen), the set-up's garbage collected first; as it was afterwards. (With Python's
    defaults a full collection came every hundred young ones, and over the set-up's 100x100
    maps each took about 27 ms: the heap's cost, not the step's.)"""
    before = gc.get_threshold()
    settle_collector()
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def _time_rules_steps(size: int, count: int, repeat: int) -> list[tuple[str, float, float, str]]:
    out = []
    for system in all_systems():
        kind = _map_kind(system.key)
        if kind is None:
            continue
        try:
            enc = _rules_step_encounter(system.key, kind, size, count)
        except Exception as exc:  # noqa: BLE001  (a system the benchmark cannot set up is reported, not fatal)
            out.append((f"{system.key} ({kind}): set-up failed", 0.0, 0.0, repr(exc)[:60]))
            continue
        near = _reachable(system.key, enc, size)
        for what, to in (("reachable", near), ("out of reach", f"{_col(size - 1)}{size}"),
                         ("walled off", f"{_col(size - 5)}{size - 4}")):
            times, outcome = [], ""
            for _ in range(repeat):
                seconds, outcome = _far_move(system.key, enc, to)
                times.append(seconds)
            out.append((f"{system.key} {kind} to {to} ({what})", statistics.median(times) * 1000, max(times) * 1000,
                        outcome))
    return out


def _map_kind(key: str) -> str | None:
    """The map kind the benchmark measures system ``key`` on (hex where it takes hex maps), or
    None for a system without maps."""
    kinds = [k for k in get_system(key).map_kinds if k != "none"]
    return ("hex" if "hex" in kinds else kinds[0]) if kinds else None


def _reachable(key: str, enc: Encounter, size: int) -> str:
    """The farthest cell along the top row or the left column that Mover may move to now."""
    taken = {c.position for c in enc.combatants}
    blocked = set(enc.map.blocked)
    return next((cell for d in (60, 40, 30, 20, 15, 12, 10, 8, 6, 5, 4, 3, 2, 1)
                 for cell in (f"{_col(d)}1", f"A{d + 1}")
                 if d < size and cell not in taken and cell not in blocked
                 and _far_move(key, enc, cell)[1] == "moved"), "B1")


def _walled_map(size: int) -> tuple[list[str], set[tuple[int, int]]]:
    """Walls for a ``size`` x ``size`` board: a vertical wall every 8 columns with a one-square gap
    at alternate ends (a long winding way across), and a closed 3x3 room near the far corner."""
    walls: set[tuple[int, int]] = set()
    for col in range(6, size - 6, 8):
        gap = size - 1 if (col // 8) % 2 == 0 else 0
        walls |= {(col, row) for row in range(size) if row != gap}
    room = (size - 5, size - 5)
    walls |= {(room[0] + dx, room[1] + dy) for dx in range(-2, 3) for dy in range(-2, 3) if max(abs(dx), abs(dy)) == 2}
    return [f"{_col(c)}{r + 1}" for c, r in sorted(walls)], walls



def _crowd(size: int, count: int, walls: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """``count`` free squares spread over the board, away from the mover's corner."""
    spots: list[tuple[int, int]] = []
    for i in range(size * size):  # 7919 is prime: this visits every square once, scattered
        col, row = divmod(i * 7919 % (size * size), size)
        if (col, row) not in walls and col + row > 4 and max(abs(col - size + 5), abs(row - size + 5)) > 2:
            spots.append((col, row))
        if len(spots) == count:
            break
    return spots



# -- the largest map and encounter ---------------------------------------------------------------
#: a turn's commands, as the GM gives them (``to`` is filled in with the far reachable cell)
LARGEST_TURN: tuple[tuple[str, dict[str, str]], ...] = (
    ("/encounter status", {}),
    ("/move", {"combatant": "Mover", "to": ""}),
    ("/map", {}),
    ("/init next", {}),
)


async def _big_fights(h: Harness, size: int, count: int, prefix: str) -> list[tuple[str, str, str]]:
    """The slowest rules step's fight (a walled ``size`` map, ``count`` combatants) of every
    registered system with a map, stored in a channel of its own with the harness's GM as its GM:
    ``(system, channel, the far cell its Mover may reach)``."""
    out = []
    for system in all_systems():
        kind = _map_kind(system.key)
        if kind is None:
            continue
        stored, to = _big_fight(system.key, kind, size, count)
        enc = Encounter.model_validate_json(stored)
        enc.gm_ids = [str(user_id_of("gm"))]
        channel = f"{prefix}-{system.key}"
        await h.store.create_encounter(str(channel_id_of(channel)), str(GUILD_ID), enc, time.time())
        out.append((system.key, channel, to))
    return out


@functools.lru_cache(maxsize=16)
def _big_fight(key: str, kind: str, size: int, count: int) -> tuple[str, str]:
    """`_rules_step_encounter` as JSON and the far cell its Mover may reach, worked out once a
    process (parts 5 and 5b play the same fights)."""
    enc = _rules_step_encounter(key, kind, size, count)
    return enc.model_dump_json(), _reachable(key, enc, size)


async def run_largest(b: Bench, size: int, count: int) -> tuple[list[tuple[str, str, float, str]], LoadResult]:
    """A turn's commands, each once and one after another, through the harness on the largest map
    and encounter of every registered system with a map (the slowest rules step's: a walled
    ``size`` x ``size`` map, ``count`` combatants): `/encounter status`, a far `/move`, `/map` (the
    first picture of its board) and `/init next`. Rows ``(system, command, ms, outcome)``, and the
    run (its longest loop step and lag)."""
    h = await _harness(await b.fresh("largest"), 1)
    rows: list[tuple[str, str, float, str]] = []
    result = LoadResult(f"largest map and encounter ({size}x{size}, {count} combatants)")
    try:
        plans = []
        for key, channel, to in await _big_fights(h, size, count, "largest"):
            payloads = [(name, h.payload("gm", name, {k: v or to for k, v in options.items()}, channel))
                        for name, options in LARGEST_TURN]
            plans.append((key, str(channel_id_of(channel)), payloads))

        async def work(in_flight: Counter[str]) -> None:
            for key, cid, payloads in plans:
                for name, payload in payloads:
                    latency, kind, text = await _timed(h, payload, cid, key, result, in_flight)
                    rows.append((key, name, latency * 1000, "ok" if kind == "ok" else f"{kind}: {text}"[:70]))

        await _timed_run(result, work, h=h)
    finally:
        await h.close()
    return rows, result


# -- growth with the encounter's size -----------------------------------------------------------------
#: a turn's writes measured at each size: a far move, the turn's end, and the undo of each
GROWTH_TURN: tuple[tuple[str, dict[str, str]], ...] = (
    ("/move", {"combatant": "Mover", "to": ""}),
    ("/init next", {}),
    ("/undo", {}),
    ("/undo", {}),
)
#: a write command at the larger size costs at most this many times the same command at the smaller
GROWTH_TARGET = 2.0


async def run_growth(b: Bench, size: int, counts: tuple[int, ...], repeat: int) -> dict[str, dict[int, float]]:
    """The bot's CPU ms (the process's, the harness's own apart) of each write of `GROWTH_TURN`
    through the harness, on the walled ``size`` x ``size`` map of the slowest rules step with
    each of ``counts`` combatants, for every registered system with a map: the mean of
    ``repeat`` turns. ``{command: {count: ms}}``, the systems summed."""
    h = await _harness(await b.fresh("growth"), 1)
    out: dict[str, dict[int, float]] = {}
    try:
        for count in counts:
            for _, channel, to in await _big_fights(h, size, count, f"growth-{count}"):
                await h.run("gm", "/encounter status", channel)  # loaded: the cold load is not a write's
                for _ in range(repeat):
                    for name, options in GROWTH_TURN:
                        payload = h.payload("gm", name, {k: v or to for k, v in options.items()}, channel)
                        with _HarnessMeter() as meter:
                            cpu0 = _cpu()
                            await h.run_payload(payload)
                            spent = _cpu() - cpu0 - meter.seconds
                        by_count = out.setdefault(name, {})
                        by_count[count] = by_count.get(count, 0.0) + 1000 * spent / repeat / (2 if name == "/undo" else 1)
    finally:
        await h.close()
    return out


def growth_report(growth: dict[str, dict[int, float]], size: int) -> tuple[str, dict[str, float]]:
    """The growth table and its figures: each write at each size, and the larger size's over the smaller."""
    counts = sorted({n for by in growth.values() for n in by})
    rows, fig = [], {}
    low, high = counts[0], counts[-1]
    for name, by in growth.items():
        ratio = by[high] / by[low] if by.get(low) else 0.0
        rows.append([name, *(f"{by.get(n, 0.0):.1f}" for n in counts), f"{ratio:.1f}x"])
    total = {n: sum(by.get(n, 0.0) for by in growth.values()) for n in counts}
    fig["growth.ratio"] = total[high] / total[low] if total[low] else 0.0
    rows.append(["a turn's writes", *(f"{total[n]:.1f}" for n in counts), f"{fig['growth.ratio']:.1f}x"])
    table = _table(f"5b. Growth: the bot's CPU ms of a turn's writes through the harness on the {size}x{size} walled map, "
                   f"every system with a map summed (an undo: each of the two), by combatants",
                   ["command", *(f"{n} combatants" for n in counts), f"{high} / {low}"], rows)
    return table + f"\ntarget: a write at {high} combatants at most {GROWTH_TARGET:.1f}x the same at {low}", fig


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



def _col(i: int) -> str:
    name = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        name = chr(ord("A") + r) + name
    return name



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



# -- report ------------------------------------------------------------------------------------------
def _row(cols: list[str], widths: list[int]) -> str:
    return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cols, widths)))


def _table(title: str, header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [title, _row(header, widths), "  ".join("-" * w for w in widths)]
    lines += [_row(r, widths) for r in rows]
    return "\n".join(lines)



def _layer(filename: str) -> str:
    """Which part of the program a profiled function belongs to."""
    path = filename.replace("\\", "/")
    root = str(Path(__file__).resolve().parent.parent).replace("\\", "/") + "/"
    if path.startswith(root):
        rel = path[len(root):]
        return rel.rsplit("/", 1)[0] + "/" + rel.rsplit("/", 1)[-1] if "/" in rel else rel
    for name in ("discord", "aiosqlite", "pydantic_core", "pydantic", "d20", "PIL", "asyncio", "sqlite3", "json"):
        if f"/{name}/" in path:
            return name
    if path.endswith("copy.py"):
        return "copy (deepcopy)"
    if path.startswith(("~", "<")):
        return "builtins (C)"
    return "other stdlib: " + path.rsplit("/", 1)[-1]


#: functions whose cumulative time tells the stages of a command apart
STAGES: list[tuple[tuple[str, str], str]] = [
    (("bot/offline/harness.py", "run_payload"), "the whole command, as the harness runs it"),
    (("discord/interactions.py", "__init__"), "discord.py Interaction objects (the interaction, its response, ...)"),
    (("discord/app_commands/tree.py", "_call"), "discord.py dispatch: checks, transformers, callback"),
    (("bot/service/commands.py", "act"), "service: lock, authorise, resolve, commit"),
    (("rules/system.py", "resolve"), "rules: resolve (deep copy of the encounter included)"),
    (("pydantic/main.py", "model_copy"), "pydantic model_copy (deep copies)"),
    (("rules/report.py", "events_report"), "rules: events to a report"),
    (("bot/service/core.py", "_commit"), "service: build the Change, wait for the group commit"),
    (("data/sqlite.py", "_batch_params"), "store: statement parameters (model_dump_json again)"),
    (("data/sqlite.py", "_commit"), "store: one group-commit transaction (awaits the thread)"),
    (("cogs/_common.py", "reply"), "cog reply: embed, response, ping follow-up"),
    (("bot/app.py", "update"), "status board: report, embed, edit the message"),
    (("rules/report.py", "board_report"), "rules: the board report"),
    (("bot/offline/harness.py", "request"), "harness: fake webhook endpoint (records the message)"),
    (("bot/offline/harness.py", "_http_request"), "harness: fake channel endpoint (records the message)"),
    (("discord/message.py", "__init__"), "discord.py Message objects built from what the fakes return"),
]


def _profile_report(prof: cProfile.Profile, top: int = 25) -> str:
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf)
    layers: dict[str, float] = {}
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = 0.0
    for (filename, _line, _name), (_cc, _nc, tottime, _ct, _callers) in raw.items():
        layers[_layer(filename)] = layers.get(_layer(filename), 0.0) + tottime
        total += tottime
    buf.write("== own time by module (where the CPU goes) ==\n")
    for name, secs in sorted(layers.items(), key=lambda kv: -kv[1])[:top]:
        buf.write(f"{secs:8.3f} s  {100 * secs / total:5.1f}%  {name}\n")
    buf.write("\n== time inside each stage of a command (cumulative CPU, callees included) ==\n")
    for (suffix, func), label in STAGES:
        found = [(k, v) for k, v in raw.items() if k[0].replace("\\", "/").endswith(suffix) and k[2] == func]
        if found:
            calls = sum(v[1] for _, v in found)
            cum = sum(v[3] for _, v in found)
            buf.write(f"{cum:8.3f} s  {100 * cum / total:5.1f}%  {label} ({suffix} {func}, {calls:,} calls)\n")
    stats.strip_dirs()
    buf.write("\n== by own time (tottime) ==\n")
    stats.sort_stats("tottime").print_stats(top)
    buf.write("\n== by cumulative time ==\n")
    stats.sort_stats("cumulative").print_stats(top)
    return buf.getvalue()



def _share(result: LoadResult) -> str:
    """Each command's share of the mix, overall and per system."""
    total = Counter[str]()
    for counts in result.by_system.values():
        total.update(counts)
    n = sum(total.values()) or 1
    lines = ["mix: " + ", ".join(f"{k} {v / n:.0%}" for k, v in total.most_common())]
    for system, counts in sorted(result.by_system.items()):
        m = sum(counts.values()) or 1
        lines.append(f"  {system}: " + ", ".join(f"{k} {v / m:.0%}" for k, v in counts.most_common()))
    return "\n".join(lines)


def _by_command(r: LoadResult) -> str:
    return "; ".join(f"{name} {_pct(lats, 50):.1f}/{_pct(lats, 99):.1f}" for name, lats in sorted(r.by_command.items()))


LOAD_HEADER = ["run", "commands", "seconds", "per s", "p50 ms", "p95 ms", "p99 ms", "CPU ms/cmd", "maps' CPU",
               "lag ms", "step ms", "gc ms", "refused", "errors"]
#: the cores the bot's process and its map workers share
CORES = os.cpu_count() or 1


def _cpu_ms(r: LoadResult) -> tuple[float, float]:
    """CPU ms per command of the run: the bot's process, and the map workers."""
    n = max(r.commands, 1)
    return 1000 * r.cpu_seconds / n, 1000 * r.map_cpu_seconds / n


def _ceiling(r: LoadResult) -> float:
    """The commands/s the run's CPU cost allows on this machine: the bot's process runs on one
    core at most (one event loop), and it and the map workers share ``CORES`` cores."""
    own, maps = _cpu_ms(r)
    return min(1000 / own, CORES * 1000 / (own + maps)) if own else 0.0


def gc_report(runs: list[LoadResult]) -> str:
    """Each run's longest garbage-collection pause: its wall time, its CPU time (the rest is the
    machine's other work), the generation it collected, and the collections by generation."""
    return "\n".join(
        f"{r.label}: the longest garbage collection {r.gc_longest * 1000:.1f} ms ({r.gc_longest_cpu * 1000:.1f} ms CPU, "
        f"generation {r.gc_generation}), the most CPU one took {r.gc_most_cpu * 1000:.1f} ms; collections by "
        f"generation {', '.join(f'{n:,}' for n in r.gc_counts)}"
        for r in runs)


def cache_report(held: dict[str, tuple[float, float, float, float]]) -> tuple[str, dict[str, float]]:
    """`run_cache_memory`'s figures as lines, and the figures: the most resident memory per JSON
    byte loaded and written, and the most a written encounter holds over what the cache counts."""
    lines = [f"the encounter cache (tracemalloc; {RESIDENT_PER_JSON_BYTE}x its JSON counted for each copy "
             f"of a state): a cached encounter's resident memory"]
    for system, (size, loaded, written, counted) in held.items():
        lines.append(f"  {system}: JSON {size:,.0f} B; loaded {loaded / 1024:.1f} KiB ({loaded / size:.1f}x), after a "
                     f"write and a board {written / 1024:.1f} KiB ({written / size:.1f}x); counted {counted / 1024:.1f} KiB")
    most = max(held.values(), key=lambda v: v[2])
    full = CACHE_BYTES * max(w / c for _, _, w, c in held.values())
    lines.append(f"  a full cache (ENCOUNTER_CACHE_MIB {CACHE_BYTES / 2**20:.0f}) holds about "
                 f"{CACHE_BYTES / most[3]:,.0f} written encounters, {full / 2**20:.0f} MiB resident at most")
    return "\n".join(lines), {
        "cache.loaded_x": max(lo / j for j, lo, _, _ in held.values()),
        "cache.written_x": max(w / j for j, _, w, _ in held.values()),
        "cache.over_counted": max(w / c for _, _, w, c in held.values()),
        "cache.full_mib": full / 2**20}


def _load_row(r: LoadResult) -> list[str]:
    own, maps = _cpu_ms(r)
    return [r.label, f"{r.commands:,}", f"{r.seconds:.2f}", f"{r.rate:,.0f}", f"{r.pct(50):.2f}", f"{r.pct(95):.2f}",
            f"{r.pct(99):.2f}", f"{own:.2f}", f"{maps:.2f}", f"{r.stall * 1000:.1f}",
            f"{r.callback * 1000:.1f}", f"{r.gc_longest * 1000:.1f}", f"{r.rejected:,}", f"{r.errors:,}"]


async def measure(fresh: Factory, cfg: Config, out: TextIO, *, profile: bool = False) -> dict[str, float]:
    """Run every per-backend part of the benchmark on databases that ``fresh(name)`` makes; print
    the sections to ``out`` and return the figures (every one a number)."""
    b = Bench(fresh, out)
    fig: dict[str, float] = {"rss.idle_mib": rss_mib()}

    def say(*lines: str) -> None:
        print(*lines, sep="\n", file=out, flush=True)

    runs = []
    prof = cProfile.Profile() if profile else None
    for i, (channels, activations) in enumerate(cfg.runs):
        r = await run_load(b, channels, activations, prefix=f"c{channels}", profile=prof if i == 1 else None)
        runs.append(r)
        fig.update({f"run{i}.{k}": v for k, v in (
            ("map_cpu_ms", _cpu_ms(r)[1]), ("cpu_ceiling", _ceiling(r)),
            ("rate", r.rate), ("p50", r.pct(50)), ("p95", r.pct(95)), ("p99", r.pct(99)), ("stall_ms", r.stall * 1000), ("step_ms", r.callback * 1000),
            ("gc_ms", r.gc_longest * 1000), ("gc_cpu_ms", r.gc_most_cpu * 1000), ("cpu_ms", 1000 * r.cpu_seconds / max(r.commands, 1)),
            ("commands", r.commands), ("refused", r.rejected), ("errors", r.errors),
            ("write_rate", r.write_rate), ("channels", channels), ("requests_peak", r.requests_peak),
            ("requests_rate", r.request_rate), ("http_429", r.http_429),
            ("stale_p50", r.pct(50, r.staleness)), ("stale_p99", r.pct(99, r.staleness)))})
    main_run = runs[1] if len(runs) > 1 else runs[0]
    # the same 50 channels with `/encounter status` for `/map`: the bot's own pace, apart from Pillow's
    played = dict(b.played)  # the fights as the targets' run left them, for the parts below
    floors = await run_with_floors(b, *cfg.runs[1 if len(cfg.runs) > 1 else 0])
    plain_run = floors.mix
    b.played = played
    runs.append(plain_run)
    fig.update(floors.figures())
    fig.update({f"nomap.{k}": v for k, v in (
        ("rate", plain_run.rate), ("p99", plain_run.pct(99)), ("step_ms", plain_run.callback * 1000),
        ("cpu_ms", 1000 * plain_run.cpu_seconds / max(plain_run.commands, 1)))})
    say("", _table("1. The realistic mix through the offline harness (closed loop: each channel sends its next "
                   "command when the last is answered)", LOAD_HEADER, [_load_row(r) for r in runs]))
    say(_share(main_run), f"p50/p99 ms by command, {main_run.label}: {_by_command(main_run)}")
    say("", floors.table())
    for r in runs:
        blame = ", ".join(f"{k} {v}" for k, v in r.blame.most_common(4)) or "none"
        say(f"{r.label}: the loop lagged over {STALL_MS:.0f} ms {r.stalls} times (commands in flight then: {blame}); "
            f"its longest single step {r.callback * 1000:.1f} ms (in flight: {r.callback_what}); "
            f"CPU {r.cpu_seconds:.1f} s of {r.seconds:.1f} s wall, and the map workers' {r.map_cpu_seconds:.1f} s")
        if r.examples:
            say("  first refusals/errors: " + " | ".join(r.examples))
    say(gc_report(runs))
    for r in runs[:-1]:
        say(f"{r.label}: bot-token requests {r.request_rate:.1f}/s, at most "
            f"{r.requests_peak} in one second (OUTBOUND_PER_SECOND {DEFAULT_PER_SECOND:g}; Discord's limit 50), "
            f"{r.http_429} answered 429; the board's staleness (a change to its edit) p50 "
            f"{r.pct(50, r.staleness):,.0f} ms, p99 {r.pct(99, r.staleness):,.0f} ms over {len(r.staleness):,} edits")

    floor, plain = await run_floor(b, cfg)
    ratio = main_run.write_rate / floor.write_rate if floor.write_rate else 0.0
    fig.update({"floor.rate": floor.write_rate, "floor.p99": floor.pct(99), "floor.ratio": ratio,
                "floor.stall_ms": floor.stall * 1000})
    rows = [_load_row(floor)]
    if plain is not None:
        rows.append(_load_row(plain))
        fig["sqlite3.rate"] = plain.rate
    say("", _table(f"2. The group-commit floor: the mix's writes (same encounters, same state sizes), "
                   f"{cfg.floor_tasks} tasks", LOAD_HEADER, rows))
    say(f"bot, {main_run.label}: {main_run.write_rate:,.0f} writes/s ({main_run.writes:,} of {main_run.commands:,} "
        f"commands write) = {ratio:.2f} of the floor's {floor.write_rate:,.0f} writes/s")

    stored, fill, startup = await run_stored(b, cfg)
    fig.update({"stored.count": cfg.stored, "stored.fill_s": fill, "stored.startup_s": startup,
                "stored.rate": stored.rate, "stored.p50": stored.pct(50), "stored.p99": stored.pct(99),
                "stored.cold_p50": stored.pct(50, stored.cold), "stored.cold_p99": stored.pct(99, stored.cold),
                "stored.stall_ms": stored.stall * 1000})
    say("", _table(f"3. {cfg.stored:,} stored encounters (filled in {fill:.1f} s; the bot started on them in "
                   f"{startup:.2f} s), a random sample touched, 50 at a time", LOAD_HEADER, [_load_row(stored)]))
    say(f"first command to each (a cold load): p50 {fig['stored.cold_p50']:.2f} ms, p99 {fig['stored.cold_p99']:.2f} ms")

    fig["rss.after_mib"], fig["rss.commands"] = rss_mib(), b.commands
    per_action, logged, state = await log_bytes_per_action(b, cfg.log_activations)
    fig["undo.bytes_per_action"], fig["undo.actions"] = per_action, logged
    say("", "4. Memory and the action log",
        f"RSS idle {fig['rss.idle_mib']:.1f} MiB; after {b.commands:,} timed commands "
        f"{fig['rss.after_mib']:.1f} MiB",
        f"undo data: {per_action:,.0f} bytes per logged action over {logged} actions "
        f"(60 combatants, state {state:,} bytes)")
    text, held = cache_report(await run_cache_memory(b, cfg.cached))
    fig.update(held)
    say(text)

    rows, largest = await run_largest(b, cfg.largest, cfg.largest)
    worst = max(rows, key=lambda row: row[2])
    fig.update({"largest.worst_ms": worst[2], "largest.step_ms": largest.callback * 1000,
                "largest.stall_ms": largest.stall * 1000, "largest.refused": sum(r[3] != "ok" for r in rows),
                "largest.map_cpu_ms": 1000 * largest.map_cpu_seconds})
    say("", _table(f"5. The {largest.label}: a turn's commands through the harness, each once, for every system "
                   f"with a map", ["system", "command", "ms", "outcome"],
                   [[key, name, f"{ms:.1f}", outcome] for key, name, ms, outcome in rows]),
        f"the worst: {worst[1]} in {worst[0]}, {worst[2]:.1f} ms; the loop's longest single step "
        f"{largest.callback * 1000:.1f} ms (in flight: {largest.callback_what or 'none'}), its longest lag "
        f"{largest.stall * 1000:.1f} ms")
    text, grown = growth_report(await run_growth(b, cfg.largest, (10, cfg.largest), 1), cfg.largest)
    fig.update(grown)
    say("", text)
    if prof is not None:
        say("", f"6. cProfile of the {main_run.label} run", _profile_report(prof))
    return fig


#: (label, figure, the test that passes it, the format of the figure)
TARGETS: tuple[tuple[str, str, Callable[[float], bool], str], ...] = (
    (">= 2,000 commands/s, 50 busy channels, the mix", "run1.rate", lambda v: v >= 2000, "{:,.0f}/s"),
    ("p99 < 50 ms, 50 busy channels", "run1.p99", lambda v: v < 50, "{:.1f} ms"),
    ("no event-loop stall > 20 ms (one step), 50 channels", "run1.step_ms", lambda v: v <= 20, "{:.1f} ms"),
    ("event-loop lag <= 20 ms (probe), 50 channels", "run1.stall_ms", lambda v: v <= 20, "{:.1f} ms"),
    (">= 1/4 of the group-commit floor (writes/s)", "floor.ratio", lambda v: v >= 0.25, "{:.2f}x"),
    ("< 1 KB undo data per action, 60 combatants", "undo.bytes_per_action", lambda v: v < 1024, "{:,.0f} B"),
    (f"bot-token requests <= {DEFAULT_PER_SECOND:g} in any second, 500 channels", "run2.requests_peak",
     lambda v: v <= DEFAULT_PER_SECOND, "{:.0f}"),
    ("no 429 answered, 500 channels", "run2.http_429", lambda v: v == 0, "{:.0f}"),
    ("longest garbage collection <= 50 ms, 500 channels", "run2.gc_ms", lambda v: v <= 50, "{:.1f} ms"),
    ("the most CPU one collection took, 500 channels", "run2.gc_cpu_ms", lambda v: v <= 50, "{:.1f} ms"),
    ("a cached encounter within what the cache counts", "cache.over_counted", lambda v: v <= 1, "{:.2f}x"),
    (f"slowest rules step < {RULES_STEP_TARGET_MS:.0f} ms", "rules.slowest_ms",
     lambda v: v < RULES_STEP_TARGET_MS, "{:.1f} ms"),
)


def targets(figures: dict[str, dict[str, float]]) -> str:
    """The targets table: each target beside its figure for each backend, PASS or MISS."""
    header = ["target"]
    for backend in figures:
        header += [backend, ""]
    rows = []
    for label, key, ok, fmt in TARGETS:
        row = [label]
        for fig in figures.values():
            value = fig.get(key)
            row += ["-", ""] if value is None else [fmt.format(value), "PASS" if ok(value) else "MISS"]
        rows.append(row)
    table = _table("Targets (issues 11 and 23: SQLite, 50 and 500 busy channels, this 2-core machine)", header, rows)
    ceilings = [f"{backend} {fig['run1.cpu_ms']:.2f} + {fig['run1.map_cpu_ms']:.2f} ms, at most "
                f"{fig['run1.cpu_ceiling']:,.0f} commands/s" for backend, fig in figures.items() if "run1.cpu_ceiling" in fig]
    if ceilings:
        table += (f"\nCPU per command at 50 channels (the bot's process + the map workers; a database server's apart) "
                  f"and the rate that allows on {CORES} cores: " + "; ".join(ceilings))
    return table


def floor_targets(figures: dict[str, dict[str, float]]) -> str:
    """Issue 25's floors: the bot's CPU per command against the no-op and store-only bots, by backend."""
    rows = []
    for backend, f in figures.items():
        if "floors.mix_ms" not in f:
            continue
        ratio = f["floors.ratio_store"]
        rows.append([backend, f"{f['floors.noop_ms']:.3f}", f"{f['floors.store_ms']:.3f}", f"{f['floors.mix_ms']:.3f}",
                     f"{f['floors.ratio_noop']:.2f}x", f"{ratio:.2f}x", f"<= {FLOOR_TARGET:.1f}x",
                     "PASS" if ratio <= FLOOR_TARGET else "MISS", f"{f['floors.harness_share']:.0%}"])
    table = _table("Floors (issue 25: bot CPU ms per command, 50 busy channels, the mix without /map)",
                   ["backend", "no-op", "store-only", "Skirmish", "/ no-op", "/ store-only", "target", "",
                    "harness share"], rows)
    grown = [f"{backend} {f['growth.ratio']:.1f}x {'PASS' if f['growth.ratio'] <= GROWTH_TARGET else 'MISS'}"
             for backend, f in figures.items() if "growth.ratio" in f]
    if grown:
        table += (f"\nGrowth (issue 25): a turn's writes at the most combatants over the same at 10, largest map "
                  f"(target <= {GROWTH_TARGET:.1f}x): " + "; ".join(grown))
    return table

def summary(figures: dict[str, dict[str, float]]) -> str:
    """The main figures of each backend side by side (the README's table)."""
    runs = ("run0", "run1", "run2")
    keys = [("busy channels", tuple(f"{r}.channels" for r in runs), "{:,.0f}"),
            ("commands/s", tuple(f"{r}.rate" for r in runs), "{:,.0f}"),
            ("p50 ms", tuple(f"{r}.p50" for r in runs), "{:.1f}"),
            ("p95 ms", tuple(f"{r}.p95" for r in runs), "{:.1f}"),
            ("p99 ms", tuple(f"{r}.p99" for r in runs), "{:.1f}"),
            ("event-loop lag ms (longest)", tuple(f"{r}.stall_ms" for r in runs), "{:.0f}"),
            ("longest single loop step ms", tuple(f"{r}.step_ms" for r in runs), "{:.0f}"),
            ("CPU ms per command", tuple(f"{r}.cpu_ms" for r in runs), "{:.2f}"),
            ("map workers' CPU ms per command", tuple(f"{r}.map_cpu_ms" for r in runs), "{:.2f}"),
            (f"commands/s the CPU allows ({CORES} cores)", tuple(f"{r}.cpu_ceiling" for r in runs), "{:,.0f}"),
            ("bot-token requests/s (mean)", tuple(f"{r}.requests_rate" for r in runs), "{:,.1f}"),
            ("bot-token requests, most in one second", tuple(f"{r}.requests_peak" for r in runs), "{:,.0f}"),
            ("429s answered", tuple(f"{r}.http_429" for r in runs), "{:,.0f}"),
            ("board staleness p50 / p99 ms", tuple(f"{r}.stale_{q}" for r in runs for q in ("p50", "p99")), "{:,.0f}"),
            ("50 channels, /encounter status for /map: commands/s, p99 ms, CPU ms", ("nomap.rate", "nomap.p99", "nomap.cpu_ms"), "{:,.1f}"),
            ("group-commit floor, writes/s", ("floor.rate",), "{:,.0f}"),
            ("plain sqlite3, writes/s", ("sqlite3.rate",), "{:,.0f}"),
            ("bot / floor (writes/s)", ("floor.ratio",), "{:.2f}"),
            ("10,000 stored: start-up s", ("stored.startup_s",), "{:.2f}"),
            ("10,000 stored touched: commands/s, p99 ms", ("stored.rate", "stored.p99"), "{:,.1f}"),
            ("cold first command p50 / p99 ms", ("stored.cold_p50", "stored.cold_p99"), "{:.1f}"),
            ("RSS MiB idle / after the run", ("rss.idle_mib", "rss.after_mib"), "{:.0f}"),
            ("commands in the run", ("rss.commands",), "{:,.0f}"),
            ("undo bytes per action, 60 combatants", ("undo.bytes_per_action",), "{:,.0f}"),
            ("largest map and encounter: worst command ms, longest loop step ms",
             ("largest.worst_ms", "largest.step_ms"), "{:,.1f}")]
    rows = []
    for label, ks, fmt in keys:
        ks = tuple(k for k in ks if any(k in f for f in figures.values()))
        rows.append([label, *(" / ".join(fmt.format(f[k]) if k in f else "-" for k in ks) for f in figures.values())])
    return _table("Summary", ["figure", *figures], rows)


async def _child(args: argparse.Namespace) -> None:
    """One backend's part, in this process: print it, and write its figures to ``args.figures``."""
    cfg = QUICK if args.quick else FULL
    out = sys.stdout
    with tempfile.TemporaryDirectory(prefix="skirmish-bench-") as tmp:
        names = iter(range(10**6))
        made: list[str] = []
        if args.db and database_backend(args.db)[0] == "postgresql":
            from data.pgserver import create_schema, drop_schema

            async def fresh(name: str) -> str:
                schema = f"bench_{os.getpid()}_{next(names)}"
                made.append(schema)
                return await create_schema(args.db, schema)
        else:
            async def fresh(name: str) -> str:
                return str(Path(tmp, f"{name}-{next(names)}.db"))
        try:
            figures = await measure(fresh, cfg, out, profile=args.profile)
        finally:
            for schema in made:
                await drop_schema(args.db, schema)
    Path(args.figures).write_text(json.dumps(figures))


def _run_backend(backend: str, url: str | None, args: argparse.Namespace, tmp: str) -> dict[str, float] | None:
    path = Path(tmp, f"{backend}.json")
    argv = [sys.executable, "-m", "bot.offline.benchmark", "--child", "--figures", str(path)]
    argv += ["--quick"] * args.quick + ["--profile"] * args.profile + (["--db", url] if url else [])
    print(f"\n=== {backend} ===", flush=True)
    subprocess.run(argv, check=False)
    return json.loads(path.read_text()) if path.exists() else None


def _main(args: argparse.Namespace) -> None:
    # stopped with SIGTERM: unwind, so that the child is killed and the throwaway server stopped
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    started = time.perf_counter()
    cfg = QUICK if args.quick else FULL
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    if args.db:
        backends = [database_backend(args.db)[0]]
    print(f"Skirmish benchmark ({cfg.name}): {', '.join(backends)}; Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs, load average {load:.2f} at start (other work on the machine slows every "
          f"figure; the CPU ms per command are what this process spent)", flush=True)
    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="skirmish-bench-") as tmp:
        for backend in backends:
            if backend == "postgresql" and not args.db:
                from data.pgserver import running_server

                try:
                    with running_server() as server:
                        got = _run_backend(backend, server.url("postgres"), args, tmp)
                except RuntimeError as exc:
                    print(f"PostgreSQL part skipped: the server did not start: {exc}", flush=True)
                    continue
            else:
                got = _run_backend(backend, args.db, args, tmp)
            if got is not None:
                figures["SQLite" if backend == "sqlite" else "PostgreSQL"] = got
    steps = time_rules_steps(100, 100, cfg.rules_repeat)
    slowest = max((mx for _, _, mx, _ in steps), default=0.0)
    for fig in figures.values():
        fig["rules.slowest_ms"] = slowest
    print("", _table("Slowest rules step: system.resolve of a far /move, 100x100 walled map (hex where a system "
                     "takes hex maps), 100 combatants", ["move", "p50 CPU ms", "max CPU ms", "outcome"],
                     [[lbl, f"{p50:.1f}", f"{mx:.1f}", what] for lbl, p50, mx, what in steps]), sep="\n")
    maps = time_maps(asyncio.run(_map_encounters()), cfg.map_repeat)
    print("", _table("Map render (bot.maps.image.map_picture, as a /map worker process draws it: the first picture of "
                     "the board, then pictures with one combatant moved each time)",
                     ["map", "first ms", "p50 ms", "p99 ms", "PNG bytes"],
                     [[lbl, f"{first:.1f}", f"{p50:.1f}", f"{p99:.1f}", f"{size:,}"]
                      for lbl, first, p50, p99, size in maps]), sep="\n")
    if figures:
        print("", summary(figures), "", targets(figures), "", floor_targets(figures), sep="\n")
    print(f"benchmark took {time.perf_counter() - started:.1f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bot benchmark", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="a shorter run (under about 2 minutes)")
    p.add_argument("--profile", action="store_true", help="also profile the 50-channel run with cProfile")
    p.add_argument("--backends", default="sqlite,postgresql",
                   help="comma-separated: sqlite, postgresql (a throwaway server; default: both)")
    p.add_argument("--db", help="measure only this PostgreSQL database, postgresql://... "
                                "(the benchmark makes and drops schemas of its own in it)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--figures", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    try:
        if args.child:
            asyncio.run(_child(args))
        else:
            _main(args)
    except Exception as exc:  # noqa: BLE001  (a benchmark reports; it does not fail the caller)
        print(f"benchmark stopped: {exc!r}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
