"""The slowest rules step, the largest map and encounter through the harness, and the growth of a
write command's cost with the encounter's size."""
from __future__ import annotations

import contextlib
import functools
import gc
import random
import statistics
import time
from collections import Counter
from typing import Any

from bot.app import settle_collector
from bot.offline.bench.driver import (
    Bench,
    _HarnessMeter,
    _timed,
    _timed_run,
)
from bot.offline.bench.mix import (
    _col,
    _harness,
)
from bot.offline.bench.results import (
    LoadResult,
    _cpu,
    _table,
)
from bot.offline.harness import GUILD_ID, Harness, channel_id_of, user_id_of
from rules.models import Encounter
from rules.registry import all_systems, get_system

# -- the slowest rules step ------------------------------------------------------------------------
#: sheets (the mover's, everyone else's) and options that make a known system's mover fast; a
#: system not listed here is measured with its default sheets
FAST_MOVER: dict[str, tuple[tuple[str, str], dict[str, str]]] = {
    "coup-de-grace": (("class=unarmoured weapons=sword", "class=light weapons=sword"), {"tie": "join"}),
    "knights-of-valour": (("agi=3 hp=9 move=200 weapons=longsword:1", "agi=-3 hp=9 weapons=longsword:1"), {}),
    "open": (("hp=9 speed=200 init=+50 weapons=sword:+5:1d6:slashing", "hp=9 weapons=sword:+5:1d6:slashing"),
             {"opportunity": "no"}),
}


#: a map's side, or its width and height
Size = int | tuple[int, int]


def _dims(size: Size) -> tuple[int, int]:
    return (size, size) if isinstance(size, int) else size


def _rules_step_encounter(key: str, kind: str, size: Size, count: int) -> Encounter:
    """A started ``key`` encounter on a walled ``kind`` map of ``size`` x ``size`` (or width x height)
    with ``count`` combatants; "Mover" at A1 may move now (the initiative is rolled until it may).
    ``ValueError`` when the map has no room for them."""
    from rules.actions import make_action
    from rules.dice import Dice
    from rules.models import MapState
    from rules.sheet import parse_pairs

    system = get_system(key)
    width, height = _dims(size)
    names, walls = _walled_map(size)
    crowd = _crowd(size, count - 1, walls)
    if len(crowd) < count - 1:
        raise ValueError(f"a {width}x{height} map has no room for {count} combatants")
    sheets, options = FAST_MOVER.get(key, (("", ""), {}))
    enc = Encounter.model_validate({"system": key, "gm_ids": ["9"],
                                    "map": MapState.model_validate({"kind": kind, "width": width, "height": height,
                                                                    "blocked": names})})
    enc.settings.options.update(options)
    grid = enc.map.grid()
    facing = grid.facings[0] if grid is not None and system.uses_facing else None
    for i, (col, row) in enumerate([(0, 0), *crowd]):
        action: Any = make_action("add", is_gm=True, name="Mover" if i == 0 else f"F{i}", side="a" if i % 2 == 0 else "b",
                             raw_sheet=parse_pairs(sheets[0 if i == 0 else 1]), at=f"{_col(col)}{row + 1}",
                             facing=facing, owner_id="1")
        enc = system.resolve(enc, action, Dice.fixed([])).encounter
    roll: Any = make_action("init_roll", is_gm=True)  # `make_action` gives the base type; `resolve` takes each kind
    for seed in range(200):
        started = system.resolve(enc, roll, Dice(random.Random(seed))).encounter
        if "Mover" in system.turn(started).actors:
            return started
    raise RuntimeError("the initiative never gave Mover the first move")


def _far_move(key: str, enc: Encounter, to: str) -> tuple[float, str]:
    """CPU seconds and outcome of resolving Mover's move to ``to`` on a copy of ``enc`` made
    beforehand, as the bot resolves on its cached state in place (this thread's CPU time: what
    the step costs, garbage collection included, and not the time another process held the core)."""
    from rules.actions import make_action
    from rules.dice import Dice
    from rules.errors import RulesError

    system = get_system(key)
    copy = type(enc).model_validate_json(enc.model_dump_json())
    move: Any = make_action("move", is_gm=True, actor="Mover", to=to)  # as `roll` in `_rules_step_encounter`
    t0 = time.thread_time()
    try:
        system.resolve(enc, move, Dice(random.Random(1)), copy=copy)
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
    for key, kind in _mapped_systems():
        try:
            enc = _rules_step_encounter(key, kind, size, count)
        except Exception as exc:  # noqa: BLE001  (a system the benchmark cannot set up is reported, not fatal)
            out.append((f"{key} ({kind}): set-up failed", 0.0, 0.0, repr(exc)[:60]))
            continue
        near = _reachable(key, enc, size)
        for what, to in (("reachable", near), ("out of reach", f"{_col(size - 1)}{size}"),
                         ("walled off", f"{_col(size - 5)}{size - 4}")):
            times, outcome = [], ""
            for _ in range(repeat):
                seconds, outcome = _far_move(key, enc, to)
                times.append(seconds)
            out.append((f"{key} {kind} to {to} ({what})", statistics.median(times) * 1000, max(times) * 1000,
                        outcome))
    return out


def _map_kind(key: str) -> str | None:
    """The map kind the benchmark measures system ``key`` on (hex where it takes hex maps), or
    None for a system without maps."""
    kinds = [k for k in get_system(key).map_kinds if k != "none"]
    return ("hex" if "hex" in kinds else kinds[0]) if kinds else None


def _mapped_systems() -> list[tuple[str, str]]:
    """``(key, map kind)`` of every registered system with a map (`_map_kind`)."""
    return [(s.key, kind) for s in all_systems() if (kind := _map_kind(s.key)) is not None]


def _reachable(key: str, enc: Encounter, size: Size) -> str:
    """The farthest cell along the top row or the left column that Mover may move to now."""
    taken = {c.position for c in enc.combatants}
    blocked = set(enc.map.blocked)
    width, height = _dims(size)
    return next((cell for d in (60, 40, 30, 20, 15, 12, 10, 8, 6, 5, 4, 3, 2, 1)
                 for cell, room in ((f"{_col(d)}1", width), (f"A{d + 1}", height))
                 if d < room and cell not in taken and cell not in blocked
                 and _far_move(key, enc, cell)[1] == "moved"), "B1")


def _walled_map(size: Size) -> tuple[list[str], set[tuple[int, int]]]:
    """Walls for a ``size`` board: a vertical wall every 8 columns with a one-square gap at
    alternate ends (a long winding way across), and a closed 3x3 room near the far corner."""
    width, height = _dims(size)
    walls: set[tuple[int, int]] = set()
    for col in range(6, width - 6, 8):
        gap = height - 1 if (col // 8) % 2 == 0 else 0
        walls |= {(col, row) for row in range(height) if row != gap}
    room = (width - 5, height - 5)
    walls |= {(room[0] + dx, room[1] + dy) for dx in range(-2, 3) for dy in range(-2, 3) if max(abs(dx), abs(dy)) == 2}
    return [f"{_col(c)}{r + 1}" for c, r in sorted(walls)], walls



def _crowd(size: Size, count: int, walls: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """``count`` free squares spread over the board, away from the mover's corner (fewer where
    the board has no room for them)."""
    width, height = _dims(size)
    spots: list[tuple[int, int]] = []
    for i in range(width * height):  # 7919 is prime: this visits every square once, scattered
        col, row = divmod(i * 7919 % (width * height), height)
        if (col, row) not in walls and col + row > 4 and max(abs(col - width + 5), abs(row - height + 5)) > 2:
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


async def _big_fights(h: Harness, size: Size, count: int, prefix: str) -> list[tuple[str, str, str]]:
    """The slowest rules step's fight (a walled ``size`` map, ``count`` combatants) of every
    registered system with a map, stored in a channel of its own with the harness's GM as its GM:
    ``(system, channel, the far cell its Mover may reach)``; none where they do not fit."""
    out = []
    for key, kind in _mapped_systems():
        try:
            stored, to = _big_fight(key, kind, size, count)
        except ValueError:  # no room for them on the map
            continue
        enc = Encounter.model_validate_json(stored)
        enc.gm_ids = [str(user_id_of("gm"))]
        channel = f"{prefix}-{key}"
        await h.store.create_encounter(str(channel_id_of(channel)), str(GUILD_ID), enc, time.time())
        out.append((key, channel, to))
    return out


@functools.lru_cache(maxsize=128)
def _big_fight(key: str, kind: str, size: Size, count: int) -> tuple[str, str]:
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


async def run_growth(b: Bench, sizes: tuple[Size, ...], counts: tuple[int, ...],
                     repeat: int) -> dict[str, dict[str, dict[int, float]]]:
    """The bot's CPU ms (the process's, the harness's own apart) of each write of `GROWTH_TURN`
    through the harness, on the walled map of the slowest rules step of each of ``sizes`` with
    each of ``counts`` combatants that fits on it, for every registered system with a map: the
    median of ``repeat`` turns (each turn's undos give the next the same start; one turn now and
    then takes a collection of the whole heap, or the machine's other work).
    ``{map: {command: {count: ms}}}``, the systems summed."""
    h = await _harness(await b.fresh("growth"), 1)
    out: dict[str, dict[str, dict[int, float]]] = {}
    try:
        for size in sizes:
            width, height = _dims(size)
            by_command = out.setdefault(f"{width}x{height}", {})
            for count in counts:
                for _, channel, to in await _big_fights(h, size, count, f"growth-{width}x{height}-{count}"):
                    await h.run("gm", "/encounter status", channel)  # loaded: the cold load is not a write's
                    turns: dict[str, list[float]] = {}
                    for _ in range(repeat):
                        for name, options in GROWTH_TURN:
                            payload = h.payload("gm", name, {k: v or to for k, v in options.items()}, channel)
                            with _HarnessMeter() as meter:
                                cpu0 = _cpu()
                                await h.run_payload(payload)
                                spent = _cpu() - cpu0 - meter.seconds
                            turns.setdefault(name, []).append(1000 * spent / (2 if name == "/undo" else 1))
                    for name, spent_ms in turns.items():  # a turn's two undos: each counted as half
                        each = len(spent_ms) // repeat
                        per_turn = [sum(spent_ms[i * each:(i + 1) * each]) for i in range(repeat)]
                        by_count = by_command.setdefault(name, {})
                        by_count[count] = by_count.get(count, 0.0) + statistics.median(per_turn)
    finally:
        await h.close()
    return out


def _pair(counts: list[int]) -> tuple[int, int]:
    """The counts the target compares: 100 combatants with 10 where measured, else the most with the fewest."""
    high = 100 if 100 in counts else counts[-1]
    return (10 if 10 in counts and 10 < high else counts[0]), high


def growth_report(growth: dict[str, dict[str, dict[int, float]]]) -> tuple[str, dict[str, float]]:
    """The growth table and its figures: each write on each map with each number of combatants (a
    dash where they do not fit), and 100 combatants' cost over 10's (the most that fit, where 100
    do not) beside the target; ``growth.ratio`` is the largest map's turn."""
    counts = sorted({n for by_command in growth.values() for by in by_command.values() for n in by})
    rows, fig = [], {}
    for board, by_command in growth.items():
        total = {n: sum(by[n] for by in by_command.values()) for n in counts
                 if all(n in by for by in by_command.values()) and by_command}
        low, high = _pair(sorted(total)) if total else (0, 0)
        for name, by in [*by_command.items(), ("a turn's writes", total)]:
            ratio = by[high] / by[low] if by.get(low) and high in by else 0.0
            verdict = f"{ratio:.1f}x" + ("" if high == 100 else f" ({high} / {low})")
            rows.append([board, name, *(f"{by[n]:.1f}" if n in by else "-" for n in counts), verdict])
        fig[f"growth.ratio.{board}"] = total[high] / total[low] if total.get(low) else 0.0
        fig["growth.ratio"] = fig[f"growth.ratio.{board}"]
    table = _table("5b. Growth: the bot's CPU ms of a turn's writes through the harness on walled maps, every system "
                   "with a map summed (an undo: each of the two), by combatants",
                   ["map", "command", *(f"{n} combatants" for n in counts), "100 / 10"], rows)
    return table + f"\ntarget: a write at 100 combatants at most {GROWTH_TARGET:.1f}x the same at 10 (the last map's turn is the figure)", fig
