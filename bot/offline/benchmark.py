"""``python -m bot benchmark [--quick] [--profile]``: how fast the bot is, measured offline.

Prints one plain table (DESIGN.md, "Performance and reliability: how they are measured"):

- commands per second and p50/p99 latency of commands driven through the offline harness
  (the real discord.py tree, the real service, the real SQLite store on disk), with 50
  channels busy at once: one task per channel, each playing a Coup-De-Grace fight on its own
  encounter with a realistic mix (``/combatant edit``, ``/move`` turning in place,
  ``/encounter status``, ``/attack`` with ``roll:``, ``/init next``); payloads are built
  before the clock starts, and rejected commands and errors are counted apart; status-board
  edits are merged per channel as the running bot merges them (``BOARD_DELAY_SECONDS``);
- the same figures for a bare aiosqlite transaction on the same tables (one connection, 50
  tasks, each: SELECT a row, UPDATE it, INSERT a log row, COMMIT) and the plain sqlite3 rate
  of that transaction in a loop (the floor), and the ratio bot / aiosqlite;
- the cost with 10 and with 10,000 stored encounters (10 live channels either way);
- map render time (12x10 with 10 combatants, 60x60 with 60) and peak memory;
- the slowest rules step: ``system.resolve`` of a far ``/move`` (reachable, out of reach, and
  walled off) on a 100x100 map with walls and 100 combatants, Coup-De-Grace and Knights of
  Valour, p50 and max beside the 20 ms target;
- the targets of the performance issue beside the figures, PASS or MISS.

It never asserts and always exits 0. ``--quick`` runs in about 20 s, the full run in under
two minutes. ``--profile`` also runs the 50-channel load under cProfile and prints where the
time goes.
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import os
import pstats
import random
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from bot.offline.harness import Harness, Sent, channel_id_of
from bot.settings import Settings
from data.delta import SNAPSHOT_EVERY
from data.store import open_store
from rules.system import get_system

BOARD_DELAY: float = Settings.model_fields["board_delay_seconds"].default

__all__ = ["LoadResult", "main", "run_aiosqlite", "run_bot_load", "run_sqlite3"]

BORIN = "class=heavy weapons=hammer,shield"
GRAK = "class=light weapons=axe"

#: the two fighters of every benchmark encounter, and how each one's activation is played
FIGHTERS: dict[str, dict[str, str]] = {
    "Borin": {"owner": "bob", "side": "dwarves", "at": "C3", "toward": "E", "away": "N",
              "target": "Grak", "weapon": "hammer", "sheet": BORIN},
    "Grak": {"owner": "carol", "side": "orcs", "at": "D3", "toward": "W", "away": "S",
             "target": "Borin", "weapon": "axe", "sheet": GRAK},
}
#: commands in one activation (see `_activation`)
PER_ACTIVATION = 6


# -- results -------------------------------------------------------------------------------------
@dataclass
class LoadResult:
    """What one timed run measured."""

    label: str
    commands: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    ok: int = 0
    rejected: int = 0  # ephemeral "Not done" replies: the command was refused
    errors: int = 0  # "Something went wrong" replies, exceptions, or no reply at all
    examples: list[str] = field(default_factory=list)  # the first few refusals, for the report
    gc_pauses: list[float] = field(default_factory=list)  # full (generation 2) collections, seconds
    round_trip: float = 0.0  # bare aiosqlite only: median SELECT 1 round trip to its thread, seconds
    by_command: dict[str, list[float]] = field(default_factory=dict)  # latencies per command name

    @property
    def rate(self) -> float:
        return self.commands / self.seconds if self.seconds else 0.0

    def pct(self, q: float) -> float:
        """The ``q``-th percentile of the latencies, in milliseconds."""
        if not self.latencies:
            return float("nan")
        data = sorted(self.latencies)
        k = min(len(data) - 1, max(0, round(q / 100 * (len(data) - 1))))
        return data[k] * 1000


class _FullCollections:
    """Times every full (generation 2) garbage collection while installed in `gc.callbacks`."""

    def __init__(self, into: list[float]) -> None:
        self.into = into
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.into.append(time.perf_counter() - self._start)


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


# -- the bot under load --------------------------------------------------------------------------
async def _check(h: Harness, user: str, command: str, channel: str, **options: Any) -> None:
    sent = await h.run(user, command, channel, **options)
    kind, text = _classify(sent, str(channel_id_of(channel)))
    if kind != "ok":
        raise RuntimeError(f"set-up command {command} in #{channel} failed: {text}")


async def _setup_channel(h: Harness, channel: str) -> None:
    """An encounter with one fighter per side, combat started."""
    await _check(h, "gm", "/encounter start", channel, system="coup-de-grace", name=f"Bench {channel}", map="12x10")
    for name, f in FIGHTERS.items():
        await _check(h, "gm", "/combatant add", channel, name=name, owner="@" + f["owner"], side=f["side"],
                     at=f["at"], facing=f["away"], sheet=f["sheet"])
    await _check(h, "gm", "/init roll", channel)


def _activation(h: Harness, channel: str, actor: str) -> list[dict[str, Any]]:
    """The payloads of one activation of ``actor``: 5 writes and 1 read.

    The fighter starts facing away from its foe, turns to face it, attacks with a natural 1
    (a miss whatever the modifiers), turns away again and ends its activation; the GM
    rewrites its hit points first, and an onlooker looks at the status.
    """
    f = FIGHTERS[actor]
    owner = f["owner"]
    return [
        h.payload("gm", "/combatant edit", {"name": actor, "sheet": "hp=3"}, channel),
        h.payload(owner, "/move", {"combatant": actor, "facing": f["toward"]}, channel),
        h.payload("dave", "/encounter status", {}, channel),
        h.payload(owner, "/attack", {"combatant": actor, "target": f["target"], "weapon": f["weapon"], "roll": "1"}, channel),
        h.payload(owner, "/move", {"combatant": actor, "facing": f["away"]}, channel),
        h.payload(owner, "/init next", {}, channel),
    ]


def _command_name(payload: dict[str, Any]) -> str:
    data = payload["data"]
    words = [data["name"]]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # subcommand (group)
        words.append(options[0]["name"])
        options = options[0].get("options") or []
    return "/" + " ".join(words)


def _by_command(r: LoadResult) -> str:
    parts = []
    for name, lats in sorted(r.by_command.items()):
        data = sorted(lats)
        parts.append(f"{name} {data[len(data) // 2] * 1000:.1f}/{data[min(len(data) - 1, round(0.99 * (len(data) - 1)))] * 1000:.1f}")
    return "; ".join(parts)


async def _current_actor(h: Harness, channel_id: str) -> str | None:
    enc = await h.bot.service.encounter(channel_id)
    if enc is None:
        return None
    actors = get_system(enc.system).turn(enc).actors
    return actors[0] if actors and actors[0] in FIGHTERS else None


async def _drive(h: Harness, channels: list[str], rounds: int, result: LoadResult,
                 profile: cProfile.Profile | None = None, pace: float | None = None) -> None:
    """Play ``rounds`` rounds in every channel at once, one task per channel; fill ``result``.

    Without ``pace`` each channel sends its next command as soon as the last one is answered
    (closed loop: the most the bot can do). With ``pace`` each channel sends one command every
    ``pace`` seconds on a fixed schedule (open loop), and a latency counts from the time the
    command was due, so a bot that falls behind is charged for the wait.
    """
    plans = {
        ch: {actor: [_activation(h, ch, actor) for _ in range(rounds)] for actor in FIGHTERS}
        for ch in channels
    }
    latencies = result.latencies
    start = 0.0

    async def one_channel(index: int, ch: str) -> None:
        cid = str(channel_id_of(ch))
        queues = plans[ch]
        due = start + (pace or 0.0) * index / len(channels)  # spread the channels over one period
        while True:
            # who acts next is decided by the dice of the last round: read it, off the clock
            actor = await _current_actor(h, cid)
            if actor is None or not queues[actor]:
                return
            for payload in queues[actor].pop():
                if pace is not None:
                    wait = due - time.perf_counter()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    t0 = due
                    due += pace
                else:
                    t0 = time.perf_counter()
                try:
                    sent = await h.run_payload(payload)
                except Exception as exc:  # noqa: BLE001  (counted, never raised: the script reports)
                    latencies.append(time.perf_counter() - t0)
                    result.errors += 1
                    if len(result.examples) < 3:
                        result.examples.append(f"{payload['data']['name']}: {exc!r}")
                    continue
                latencies.append(time.perf_counter() - t0)
                result.by_command.setdefault(_command_name(payload), []).append(latencies[-1])
                kind, text = _classify(sent, cid)
                if kind == "ok":
                    result.ok += 1
                    continue
                if kind == "rejected":
                    result.rejected += 1
                else:
                    result.errors += 1
                if len(result.examples) < 3:
                    result.examples.append(text.replace("\n", " ")[:160])

    # the prebuilt payloads are the benchmark's, not the bot's: keep them out of the collector
    gc.collect()
    gc.freeze()
    watch = _FullCollections(result.gc_pauses)
    gc.callbacks.append(watch)
    if profile is not None:
        profile.enable()
    start = t0 = time.perf_counter()
    try:
        await asyncio.gather(*(one_channel(i, ch) for i, ch in enumerate(channels)))
    finally:
        result.seconds = time.perf_counter() - t0
        if profile is not None:
            profile.disable()
        gc.callbacks.remove(watch)
        gc.unfreeze()
    result.commands = len(latencies)


async def run_bot_load(path: str, channels: int, rounds: int, label: str, *, prefix: str = "bench",
                       profile: cProfile.Profile | None = None, pace: float | None = None) -> LoadResult:
    """Set up ``channels`` fights on the store at ``path``, then time ``rounds`` rounds of each
    (``pace``: seconds between a channel's commands, see `_drive`)."""
    # status boards are merged per channel as the running bot does (BOARD_DELAY_SECONDS default)
    h = await Harness.create(path, seed=1, board_delay=BOARD_DELAY)
    try:
        names = [f"{prefix}-{i}" for i in range(channels)]
        for ch in names:
            await _setup_channel(h, ch)
        await _drive(h, names, 1, LoadResult("warm-up"))  # warm every cache, off the clock
        h.recorder.clear()
        result = LoadResult(label)
        await _drive(h, names, rounds, result, profile, pace)
        return result
    finally:
        await h.close()

async def log_bytes_per_action(path: str, size: int = 60, activations: int = 100) -> tuple[float, int, int]:
    """Undo data stored per logged action: ``size`` Coup-De-Grace fighters in two facing lines
    on a 30x12 map, ``activations`` turns of the one acting (each: an attack on the foe
    opposite, a turn in place, a step, /init next) through the harness on a SQLite file.
    Returns (bytes per action, logged actions, the encounter's JSON size)."""
    h = await Harness.create(path, seed=3)
    try:
        half = size // 2
        await _check(h, "gm", "/encounter start", "log", system="coup-de-grace", name="Big", map="30x12")
        for name, row, facing, sheet in (("Dwarf", 5, "S", BORIN), ("Orc", 6, "N", GRAK)):
            for i in range(half):
                await _check(h, "gm", "/combatant add", "log", name=f"{name} {i + 1}", side=name.lower(),
                             at=f"{_col(i)}{row}", facing=facing, sheet=sheet)
        await _check(h, "gm", "/init roll", "log")
        channel = str(channel_id_of("log"))
        rng = random.Random(3)
        for _ in range(activations):
            enc = await h.bot.service.encounter(channel)
            actors = get_system(enc.system).turn(enc).actors if enc is not None else []
            if enc is None or not actors:
                break
            kind, _, n = actors[0].partition(" ")
            foe, weapon = (f"Orc {n}", "hammer") if kind == "Dwarf" else (f"Dwarf {n}", "axe")
            for command, options in (
                ("/attack", {"combatant": actors[0], "target": foe, "weapon": weapon}),
                ("/move", {"combatant": actors[0], "facing": rng.choice("NESW")}),
                ("/move", {"combatant": actors[0], "path": rng.choice("NESW")}),
                ("/init next", {}),
            ):
                await h.run("gm", command, "log", **options)
        [live] = await h.bot.service.store.active_encounters()
        state_size = len(live.raw_state)
    finally:
        await h.close()
    with sqlite3.connect(path) as con:
        [(undo_bytes, actions)] = con.execute(
            "SELECT sum(coalesce(length(state_before), 0) + coalesce(length(delta), 0)), count(*) "
            "FROM actions WHERE command NOT IN ('/encounter start', '/combatant add')"
        ).fetchall()
    return (undo_bytes or 0) / max(actions, 1), actions, state_size



# -- the floor: bare aiosqlite and sqlite3 ---------------------------------------------------------
async def _sample_state() -> str:
    """The JSON of a benchmark encounter, so the bare transactions write rows of the same size."""
    h = await Harness.create(":memory:", seed=1)
    try:
        await _setup_channel(h, "sample")
        enc = await h.bot.service.encounter(str(channel_id_of("sample")))
        assert enc is not None
        return enc.model_dump_json()
    finally:
        await h.close()


async def _fresh_db(path: str) -> None:
    """An empty database with the store's own schema (its migrations) and pragmas."""
    store = await open_store(path)
    await store.close()


def _seed_rows(con: sqlite3.Connection, rows: int, state: str) -> list[int]:
    """``rows`` active encounters for the bare transactions to work on; their ids."""
    now = time.time()
    con.executemany(
        "INSERT INTO encounters (channel_id, guild_id, system, name, state, active, created_at, updated_at) "
        "VALUES (?, '1', 'coup-de-grace', 'Bare', ?, 1, ?, ?)",
        [(f"bare-{i}", state, now, now) for i in range(rows)],
    )
    con.commit()
    return [r[0] for r in con.execute("SELECT id FROM encounters ORDER BY id DESC LIMIT ?", (rows,))]


_SELECT = "SELECT state FROM encounters WHERE id = ?"
_UPDATE = "UPDATE encounters SET state = ?, updated_at = ? WHERE id = ?"
_INSERT = (
    "INSERT INTO actions (encounter_id, interaction_id, user_id, command, summary, dice, state_before, created_at) "
    "VALUES (?, ?, '1', '/bare', 'a bare transaction', '[1]', ?, ?)"
)


async def run_aiosqlite(path: str, state: str, tasks: int, per_task: int) -> LoadResult:
    """One aiosqlite connection set up like the store's; ``tasks`` tasks, each ``per_task`` times:
    SELECT a row, UPDATE it, INSERT a log row, COMMIT (a lock keeps each transaction whole)."""
    await _fresh_db(path)
    con = sqlite3.connect(path)
    try:
        ids = _seed_rows(con, tasks, state)
    finally:
        con.close()
    db = await aiosqlite.connect(path, isolation_level="IMMEDIATE")
    await db.execute("PRAGMA journal_mode = WAL")
    await db.executescript("PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;")
    lock = asyncio.Lock()
    result = LoadResult("bare aiosqlite")
    trips = []
    for _ in range(300):  # one hop to aiosqlite's thread and back: what every await costs
        t0 = time.perf_counter()
        await db.execute_fetchall("SELECT 1")
        trips.append(time.perf_counter() - t0)
    result.round_trip = statistics.median(trips)
    counter = iter(range(10**9))

    async def one(row_id: int) -> None:
        for _ in range(per_task):
            t0 = time.perf_counter()
            async with lock:
                [(before,)] = await db.execute_fetchall(_SELECT, (row_id,))
                now = time.time()
                await db.execute(_UPDATE, (state, now, row_id))
                await db.execute(_INSERT, (row_id, f"bare-{next(counter)}", before, now))
                await db.commit()
            result.latencies.append(time.perf_counter() - t0)
            result.ok += 1

    try:
        t0 = time.perf_counter()
        await asyncio.gather(*(one(i) for i in ids))
        result.seconds = time.perf_counter() - t0
    finally:
        await db.close()
    result.commands = len(result.latencies)
    return result


def run_sqlite3(path: str, state: str, count: int) -> LoadResult:
    """The same transaction with the plain sqlite3 module in a synchronous loop (on a database
    that `_fresh_db` made)."""
    con = sqlite3.connect(path, isolation_level="IMMEDIATE")
    con.execute("PRAGMA journal_mode = WAL")
    con.executescript("PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;")
    ids = _seed_rows(con, 50, state)
    result = LoadResult("plain sqlite3 loop")
    try:
        t0 = time.perf_counter()
        for i in range(count):
            row_id = ids[i % len(ids)]
            t1 = time.perf_counter()
            (before,) = con.execute(_SELECT, (row_id,)).fetchone()
            now = time.time()
            con.execute(_UPDATE, (state, now, row_id))
            con.execute(_INSERT, (row_id, f"sync-{i}", before, now))
            con.commit()
            result.latencies.append(time.perf_counter() - t1)
        result.seconds = time.perf_counter() - t0
    finally:
        con.close()
    result.commands = result.ok = len(result.latencies)
    return result


# -- 10 versus 10,000 stored encounters ----------------------------------------------------------------
def fill_encounters(path: str, count: int, state: str, log_rows: int = 3) -> float:
    """Insert ``count`` encounters (one in five still active) with a few log rows each, fast."""
    t0 = time.perf_counter()
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA synchronous = OFF")
        now = time.time()
        con.execute("BEGIN")
        con.executemany(
            "INSERT INTO encounters (channel_id, guild_id, system, name, state, active, created_at, updated_at) "
            "VALUES (?, '1', 'coup-de-grace', ?, ?, ?, ?, ?)",
            ((f"stored-{i}", f"Stored {i}", state, int(i % 5 == 0), now - i, now - i) for i in range(count)),
        )
        first = con.execute("SELECT min(id) FROM encounters WHERE channel_id LIKE 'stored-%'").fetchone()[0]
        con.executemany(
            "INSERT INTO actions (encounter_id, interaction_id, user_id, command, summary, dice, state_before, created_at) "
            "VALUES (?, ?, '1', '/combatant edit', 'stored history', '[]', ?, ?)",
            ((first + i, f"stored-{i}-{j}", state if j == 0 else None, now) for i in range(count) for j in range(log_rows)),
        )
        con.commit()
    finally:
        con.close()
    return time.perf_counter() - t0


async def run_stored(path: str, stored: int, state: str, channels: int, rounds: int) -> tuple[LoadResult, float]:
    await _fresh_db(path)
    fill = fill_encounters(path, stored, state) if stored else 0.0
    result = await run_bot_load(path, channels, rounds, f"{stored} stored", prefix=f"live{stored}")
    return result, fill


async def cold_load(path: str, actions: int, state: str, repeat: int = 5) -> float:
    """Best seconds of `Store.load_active` right after opening a store whose one active
    encounter has ``actions`` logged actions (the first load after a restart)."""
    await _fresh_db(path)
    fill_encounters(path, 1, state, log_rows=actions)
    best = float("inf")
    for _ in range(repeat):
        async with await open_store(path) as store:
            t0 = time.perf_counter()
            await store.load_active("stored-0")
            best = min(best, time.perf_counter() - t0)
    return best


# -- map and memory -----------------------------------------------------------------------------------------
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
                             at=f"{_col(col)}{row + 1}", facing="NESW"[i % 4], sheet=BORIN if i % 2 else GRAK)
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


def time_maps(encounters: list[tuple[str, Any]], repeat: int) -> list[tuple[str, float, float, int]]:
    """``(label, median ms, best ms, PNG bytes)`` for each encounter."""
    from bot.mapimage import render_map

    out = []
    for label, enc in encounters:
        png = render_map(enc)  # warm fonts and tiles
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            render_map(enc)
            times.append(time.perf_counter() - t0)
        out.append((label, statistics.median(times) * 1000, min(times) * 1000, len(png)))
    return out


# -- the slowest rules step ------------------------------------------------------------------------------
RULES_STEP_TARGET_MS = 20.0


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


def _rules_step_encounter(key: str, size: int, count: int) -> Any:
    """A started ``key`` encounter on a walled ``size`` map with ``count`` combatants; "Mover" at A1
    (fast: unarmoured, or 200 ft of movement) may move now."""
    from rules.dice import Dice
    from rules.models import Encounter, MapState
    from rules.sheet import parse_pairs
    from rules.actions import make_action

    system = get_system(key)
    names, walls = _walled_map(size)
    enc = Encounter(system=key, map=MapState(kind="square", width=size, height=size, blocked=names), gm_ids=["9"])
    if key == "coup-de-grace":
        enc.settings.options["tie"] = "join"
        sheets = ("class=unarmoured weapons=sword", "class=light weapons=sword")
    else:
        sheets = ("agi=3 hp=9 move=200 weapons=longsword:1", "agi=-3 hp=9 weapons=longsword:1")
    spots = [(0, 0), *_crowd(size, count - 1, walls)]
    for i, (col, row) in enumerate(spots):
        action = make_action("add", is_gm=True, name="Mover" if i == 0 else f"F{i}", side="a" if i % 2 == 0 else "b",
                        raw_sheet=parse_pairs(sheets[0 if i == 0 else 1]), at=f"{_col(col)}{row + 1}",
                        facing="E" if system.uses_facing else None, owner_id="1")
        enc = system.resolve(enc, action, Dice.fixed([])).encounter
    enc = system.resolve(enc, make_action("init_roll", is_gm=True), Dice(random.Random(1))).encounter
    if key == "coup-de-grace":
        enc = system.resolve(enc, make_action("init_order", is_gm=True, name="a"), Dice.fixed([])).encounter
    return enc


def time_rules_steps(size: int, count: int, repeat: int) -> list[tuple[str, float, float, str]]:
    """``(label, p50 ms, max ms, outcome)`` of ``system.resolve`` for far moves on a walled map."""
    from rules.dice import Dice
    from rules.errors import RulesError
    from rules.actions import make_action

    last = f"{_col(size - 1)}{size}"
    room = f"{_col(size - 5)}{size - 4}"
    out = []
    for key, reach in (("coup-de-grace", (4, 4)), ("knights-of-valour", (5, 38))):
        system = get_system(key)
        enc = _rules_step_encounter(key, size, count)
        taken = {c.position for c in enc.combatants}
        near = next(n for i in range(size) if (n := f"{_col(reach[0])}{reach[1] + 1 - i}") not in taken)
        snapshot = enc.model_dump_json()
        for what, to in (("reachable", near), ("out of reach", last), ("walled off", room)):
            times, outcome = [], ""
            for _ in range(repeat):
                t0 = time.perf_counter()
                try:
                    system.resolve(enc, make_action("move", is_gm=True, actor="Mover", to=to), Dice(random.Random(1)),
                                   snapshot=snapshot)
                    outcome = "moved"
                except RulesError as exc:
                    outcome = "refused: " + str(exc)[:60]
                times.append(time.perf_counter() - t0)
            out.append((f"{key} to {to} ({what})", statistics.median(times) * 1000, max(times) * 1000, outcome))
    return out


# -- report ----------------------------------------------------------------------------------------------------
def _verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def _row(cols: list[str], widths: list[int]) -> str:
    return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cols, widths)))


def _table(title: str, header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [title, _row(header, widths), "  ".join("-" * w for w in widths)]
    lines += [_row(r, widths) for r in rows]
    return "\n".join(lines)


def _load_row(r: LoadResult) -> list[str]:
    return [r.label, f"{r.commands:,}", f"{r.seconds:.2f}", f"{r.rate:,.0f}", f"{r.pct(50):.2f}",
            f"{r.pct(99):.2f}", f"{r.ok:,}", f"{r.rejected:,}", f"{r.errors:,}"]


LOAD_HEADER = ["run", "commands", "seconds", "per s", "p50 ms", "p99 ms", "ok", "refused", "errors"]


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


async def _main(args: argparse.Namespace) -> None:
    quick = args.quick
    rounds_50 = 6 if quick else 30  # 12 commands a round a channel: 3,600 or 18,000 commands
    rounds_10 = 15 if quick else 40  # 10 channels: 1,800 or 4,800 commands a run
    rounds_paced = 3 if quick else 8  # 1,800 or 4,800 commands at 1,000 a second
    bare_per_task = 60 if quick else 300
    stored_count = 10_000
    map_repeat = 3 if quick else 8
    out = sys.stdout
    started = time.perf_counter()

    with tempfile.TemporaryDirectory(prefix="skirmish-bench-") as tmp:
        tmpdir = Path(tmp)
        state = await _sample_state()
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"Skirmish benchmark ({'quick' if quick else 'full'}): SQLite on disk in {tmp}, Python "
              f"{sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load:.2f} at start "
              f"(other work on the machine makes every figure noisier)", file=out, flush=True)
        print(f"stored encounter JSON: {len(state):,} bytes; mix per activation: /combatant edit, /move (turn), "
              f"/encounter status, /attack roll:1, /move (turn), /init next", file=out, flush=True)

        bot = await run_bot_load(str(tmpdir / "bot.db"), 50, rounds_50, "bot, 50 channels flat out")
        paced = await run_bot_load(str(tmpdir / "paced.db"), 50, rounds_paced, "bot, 50 ch at 1,000/s offered",
                                   prefix="paced", pace=50 / 1000)
        bare = await run_aiosqlite(str(tmpdir / "bare.db"), state, 50, bare_per_task)
        await _fresh_db(str(tmpdir / "floor.db"))
        floor = run_sqlite3(str(tmpdir / "floor.db"), state, 50 * bare_per_task)
        print(file=out)
        print(_table("1. Commands through the offline harness vs the bare transaction (50 concurrent tasks)",
                     LOAD_HEADER, [_load_row(bot), _load_row(paced), _load_row(bare), _load_row(floor)]), file=out)
        ratio = bot.rate / bare.rate if bare.rate else 0.0
        print(f"ratio bot / bare aiosqlite = {ratio:.2f}x;  bare aiosqlite / plain sqlite3 = "
              f"{bare.rate / floor.rate if floor.rate else 0:.2f}x;  one aiosqlite round trip (SELECT 1) = "
              f"{bare.round_trip * 1e6:.0f} us (the bare transaction makes 4, one after another; the bot's "
              f"group commit makes 1 per batch)", file=out)
        if bot.examples:
            print("first refusals/errors: " + " | ".join(bot.examples), file=out)
        print(f"p50/p99 ms by command, flat out: {_by_command(bot)}", file=out)
        print(f"p50/p99 ms by command, at 1,000/s: {_by_command(paced)}", file=out)
        pauses = bot.gc_pauses
        print(f"bot run: mean latency {statistics.fmean(bot.latencies) * 1000:.1f} ms (50 in flight / rate = "
              f"{50 / bot.rate * 1000 if bot.rate else 0:.1f} ms, Little's law); {len(pauses)} full garbage "
              f"collections, longest {max(pauses, default=0) * 1000:.0f} ms, {sum(pauses) * 1000:.0f} ms in all; "
              f"{sum(1 for x in bot.latencies if x > 0.020) / max(1, bot.commands):.0%} of commands over 20 ms",
              file=out)
        out.flush()

        # 10 versus 10,000 stored encounters, measured twice in turn to even out the disk cache
        small: list[LoadResult] = []
        large: list[LoadResult] = []
        fill_s = 0.0
        for rep in range(1 if quick else 3):
            r, _ = await run_stored(str(tmpdir / f"s10-{rep}.db"), 0, state, 10, rounds_10)
            small.append(r)
            r, fill_s = await run_stored(str(tmpdir / f"s10k-{rep}.db"), stored_count, state, 10, rounds_10)
            large.append(r)
        s10 = max(small, key=lambda r: r.rate)
        s10.label = "10 stored (10 live)"
        s10k = max(large, key=lambda r: r.rate)
        s10k.label = f"{stored_count:,} stored + 10 live"
        stored_ratio = s10k.rate / s10.rate if s10.rate else 0.0
        print(file=out)
        print(_table(f"2. Stored encounters: 10 live channels (best of {len(small)}; filling {stored_count:,} "
                     f"took {fill_s:.2f} s)", LOAD_HEADER, [_load_row(s10), _load_row(s10k)]), file=out)
        print(f"ratio {stored_count:,} stored / 10 stored = {stored_ratio:.2f}x", file=out)
        cold = [await cold_load(str(tmpdir / f"cold-{n}.db"), n, state) for n in (10, 100_000)]
        print(f"cold load (first load_active after opening): {cold[0] * 1000:.2f} ms at 10 logged "
              f"actions, {cold[1] * 1000:.2f} ms at 100,000", file=out)
        out.flush()

        # map renders, then peak memory of a burst of commands and the renders
        encs = await _map_encounters()
        maps = time_maps(encs, map_repeat)
        print(file=out)
        print(_table("3. Map render (bot.mapimage.render_map)", ["map", "median ms", "best ms", "PNG bytes"],
                     [[lbl, f"{med:.1f}", f"{best:.1f}", f"{size:,}"] for lbl, med, best, size in maps]), file=out)

        steps = time_rules_steps(100, 100, 3 if quick else 10)
        slowest = max(mx for _, _, mx, _ in steps)
        print(file=out)
        print(_table(f"3b. Slowest rules step: system.resolve of a far /move, 100x100 walled map, 100 combatants "
                     f"(target < {RULES_STEP_TARGET_MS:.0f} ms)", ["move", "p50 ms", "max ms", "outcome"],
                     [[lbl, f"{p50:.1f}", f"{mx:.1f}", what] for lbl, p50, mx, what in steps]), file=out)

        gc.collect()
        tracemalloc.start()
        burst = await run_bot_load(str(tmpdir / "mem.db"), 50, 1, "memory burst", prefix="mem")
        time_maps(encs, 1)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        maxrss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(file=out)
        print("4. Memory", file=out)
        print(f"tracemalloc peak: {peak / 2**20:.1f} MiB (50 channels set up and a {burst.commands}-command "
              f"burst, plus both map renders, traced)", file=out)
        print(f"getrusage maxrss: {maxrss_kb / 1024:.1f} MiB (the whole benchmark process)", file=out)

        per_action, logged, big_state = await log_bytes_per_action(str(tmpdir / "log.db"))
        print(f"action log: {per_action:,.0f} bytes of undo data per logged action over {logged} actions "
              f"(60 combatants, state {big_state:,} bytes; a snapshot every {SNAPSHOT_EVERY} rows)", file=out)

        print(file=out)
        failed = sum(r.rejected + r.errors for r in (bot, paced, s10, s10k))
        targets = [
            [">= 1,000 commands/s, 50 channels busy", f"{bot.rate:,.0f}/s", _verdict(bot.rate >= 1000)],
            ["p99 < 20 ms, 50 channels at 1,000 commands/s", f"{paced.pct(99):.2f} ms", _verdict(paced.pct(99) < 20)],
            ["p99 < 20 ms, 50 channels flat out (closed loop)", f"{bot.pct(99):.2f} ms", _verdict(bot.pct(99) < 20)],
            [">= 0.5 x bare aiosqlite rate", f"{ratio:.2f}x", _verdict(ratio >= 0.5)],
            ["10,000 stored no slower than 10 (>= 0.9x)", f"{stored_ratio:.2f}x", _verdict(stored_ratio >= 0.9)],
            [f"slowest rules step < {RULES_STEP_TARGET_MS:.0f} ms (far /move, 100x100, 100 combatants)",
             f"{slowest:.1f} ms", _verdict(slowest < RULES_STEP_TARGET_MS)],
            ["< 1 KB undo data per logged action, 60 combatants", f"{per_action:,.0f} B",
             _verdict(per_action < 1024)],
            ["no refused or failed command in the mix", f"{failed:,}", _verdict(failed == 0)],
        ]
        print(_table("5. Targets", ["target", "measured", "verdict"], targets), file=out)
        out.flush()

        if args.profile:
            prof = cProfile.Profile()
            await run_bot_load(str(tmpdir / "profile.db"), 50, max(2, rounds_50 // 2), "profiled", prefix="prof",
                               profile=prof)
            print(file=out)
            print("6. cProfile of the 50-channel load (commands only, set-up excluded)", file=out)
            print(_profile_report(prof), file=out)

    print(f"benchmark took {time.perf_counter() - started:.1f} s", file=out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bot benchmark", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="a shorter run (about 20 s)")
    p.add_argument("--profile", action="store_true", help="also profile the 50-channel load with cProfile")
    args = p.parse_args(argv)
    try:
        asyncio.run(_main(args))
    except Exception as exc:  # noqa: BLE001  (a benchmark reports; it does not fail the caller)
        print(f"benchmark stopped: {exc!r}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
