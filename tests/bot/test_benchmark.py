"""The benchmark's report, through the same code on a tiny configuration: its structure and that
every figure is a number (timings are the benchmark's to print, never a test's to assert)."""
from __future__ import annotations

import io
import itertools
import math
from pathlib import Path

import pytest

from bot.offline.bench import driver, growth, mix, stored
from bot.offline.bench.driver import Bench
from bot.offline.bench.growth import time_rules_steps
from bot.offline.bench.mix import Config
from bot.offline.bench.report import TARGETS, summary, targets
from bot.offline.bench.run import measure
from bot.outbound import DEFAULT_PER_SECOND
from rules.registry import all_systems
from tests.backends import PgServer

TINY = Config("tiny", runs=((1, 4), (3, 4), (4, 2)), floor_tasks=3, floor_writes=3, stored=30, touched=6,
              log_activations=4, rules_repeat=1, map_repeat=1, largest=12, cached=2, growth=((12, 10), (12, 12)),
              growth_counts=(2, 10, 100))


@pytest.fixture
def fresh(backend: str, tmp_path: Path, request: pytest.FixtureRequest):
    """A factory of empty databases of the backend under test."""
    names = itertools.count()
    if backend == "postgresql":
        server: PgServer = request.getfixturevalue("pg_server")

        async def pg(name: str) -> str:
            return await server.fresh_url()
        return pg

    async def sqlite(name: str) -> str:
        return str(tmp_path / f"{name}-{next(names)}.db")
    return sqlite


async def test_tiny_run_prints_every_section_with_numbers(fresh, backend: str) -> None:
    """A tiny run prints the mix, the floor, the stored encounters and memory, and every figure is a finite number."""
    from bot.maps.worker import shared_renderer

    shared_renderer()._cache.clear()  # the other backend's run drew the same pictures in this process
    out = io.StringIO()
    figures = await measure(fresh, TINY, out)
    text = out.getvalue()
    for section in ("1. The realistic mix", "2. The group-commit floor", "3. 30 stored encounters", "4. Memory",
                    "5. The largest map and encounter (12x12, 12 combatants)"):
        assert section in text
    for command in ("/move", "/attack", "/init next", "/encounter status", "/map", "/combatant edit"):
        assert command in text.split("mix: ")[1].splitlines()[0]
    assert all(isinstance(v, (int, float)) and math.isfinite(v) for v in figures.values()), figures
    for i, (channels, _) in enumerate(TINY.runs):
        assert figures[f"run{i}.channels"] == channels and figures[f"run{i}.commands"] > 0
        assert figures[f"run{i}.refused"] == 0 and figures[f"run{i}.errors"] == 0
    assert figures["floor.rate"] > 0 and figures["stored.count"] == 30 and figures["undo.actions"] > 0
    # every system with a map plays a turn on the largest map: 4 commands each, none refused
    largest = text.split("5. The largest map")[1]
    for system in all_systems():
        if set(system.map_kinds) - {"none"}:
            assert sum(line.startswith(system.key + " ") for line in largest.splitlines()) == 4, system.key
    assert figures["largest.refused"] == 0 and figures["largest.worst_ms"] > 0
    assert figures["largest.map_cpu_ms"] > 0  # its `/map`s drawn by the workers, counted there too
    assert figures["nomap.rate"] > 0 and "busy channels, no /map" in text  # the bot's pace apart from drawing
    # the floors beside it: a no-op and a store-only bot, before and after it, the harness's CPU apart
    assert "1b. The floors" in text and text.count("no-op bot (before)") == text.count("store-only bot (after)") == 1
    assert 0 < figures["floors.noop_ms"] and 0 < figures["floors.store_ms"] and figures["floors.ratio_store"] > 0
    assert 0 < figures["floors.harness_share"] < 1
    # a turn's writes on each map with 2 and 10 combatants; 100 do not fit on either: a dash, and 10 over 2
    growth = text.split("5b. Growth")[1].split("target:")[0]
    assert figures["growth.ratio"] > 0 and figures["growth.ratio.12x10"] > 0 and figures["growth.ratio.12x12"] > 0
    [turn] = [ln for ln in growth.splitlines() if ln.startswith("12x10") and "a turn's writes" in ln]
    assert turn.split()[-5] == "-" and turn.endswith("(10 / 2)")
    # the map workers' CPU is counted, and the rate the CPU allows is within what one core allows the bot
    assert figures["run1.map_cpu_ms"] > 0 and "and the map workers'" in text
    assert 0 < figures["run1.cpu_ceiling"] <= 1000 / figures["run1.cpu_ms"]
    # bot-token requests (the boards' edits) are counted, within the budget and never answered 429
    assert all(0 < figures[f"run{i}.requests_peak"] <= DEFAULT_PER_SECOND for i in range(len(TINY.runs)))
    assert figures["run1.http_429"] == 0 and figures["run1.stale_p99"] >= figures["run1.stale_p50"] > 0
    assert "the board's staleness" in text
    assert ("sqlite3.rate" in figures) == (backend == "sqlite")
    # each run's longest garbage collection, and the cached encounters' resident memory against its count
    assert text.count("the longest garbage collection") == len(TINY.runs) + 1
    assert 1 < figures["cache.loaded_x"] < figures["cache.written_x"] and 0 < figures["cache.over_counted"] <= 1
    assert "a full cache (ENCOUNTER_CACHE_MIB" in text
    # a write's work on the whole state, beside what was tried in place of the hook and the delta
    assert "4b. A write's work on the whole state" in text and "largest, 12 combatants" in text
    assert all(figures[f"state.{k}_us"] > 0 for k in ("serialise", "read_back", "states_one_by_one",
                                                       "states_in_one_call", "undo_delta", "two_json.loads"))
    # the autocomplete requests typed beside the commands, and the bot-token requests each command sends
    assert all(figures[f"run{i}.autocompletes"] > 0 for i in range(len(TINY.runs)))
    assert "autocomplete requests beside its" in text and "Bot-token requests each command sends" in text
    assert figures["requests.most_per_command"] >= 1 and figures["requests.autocomplete"] == 0


def test_targets_and_summary_list_every_backend_with_a_verdict() -> None:
    """The targets table has each target with a figure and PASS or MISS for each backend; the summary names both."""
    fig = {"run1.rate": 2500.0, "run1.p99": 60.0, "run1.stall_ms": 5.0, "run1.step_ms": 3.0, "floor.ratio": 0.3,
           "undo.bytes_per_action": 400.0, "rules.slowest_ms": 25.0, "run0.channels": 1.0, "run0.rate": 900.0,
           "run1.cpu_ms": 1.0, "run1.map_cpu_ms": 0.5, "run1.cpu_ceiling": 1000.0,
           "run2.requests_peak": 40.0, "run2.http_429": 0.0, "run2.gc_ms": 85.0, "run2.gc_cpu_ms": 8.0,
           "cache.over_counted": 0.9}
    table = targets({"SQLite": fig, "PostgreSQL": fig})
    lines = table.splitlines()
    for label, *_ in TARGETS:
        [line] = [ln for ln in lines if ln.startswith(label)]
        assert line.count("PASS") + line.count("MISS") == 2
    assert "2,500/s  PASS" in table and "60.0 ms  MISS" in table and "85.0 ms  MISS" in table
    assert "SQLite 1.00 + 0.50 ms, at most 1,000 commands/s" in table  # what the CPU allows, beside the targets
    assert "SQLite" in summary({"SQLite": fig, "PostgreSQL": fig}).splitlines()[1]


def test_rules_step_covers_every_registered_system_with_a_map() -> None:
    """The slowest-rules-step table has a reachable, an out-of-reach and a walled-off far move for every system with a map."""
    rows = time_rules_steps(100, 10, 1)
    for system in all_systems():
        mine = [r for r in rows if r[0].startswith(system.key + " ")]
        if set(system.map_kinds) == {"none"}:
            assert not mine
            continue
        kinds = {label.split(" (")[-1].rstrip(")"): outcome for label, _p50, _max, outcome in mine}
        assert set(kinds) == {"reachable", "out of reach", "walled off"}
        assert kinds["reachable"] == "moved"
        assert kinds["out of reach"].startswith("refused") and kinds["walled off"].startswith("refused")



async def test_no_two_channels_of_the_mix_hold_the_same_fight(tmp_path: Path) -> None:
    """Channels that play the same script hold fights of their own (a real bot's fights all
    differ): no `/map` of the mix is answered with another channel's picture from the cache, and
    each map is a board of its own for the workers to draw and keep."""
    h = await mix._harness(str(tmp_path / "own.db"), 1)
    try:
        names = [(f"own-{i}", mix._script_of(i)) for i in range(3 * len(mix.SCRIPTS))]  # three channels of each script
        await driver._setup_channels(h, Bench(lambda name: None, io.StringIO()), names)
        encounters = [await driver._encounter(h, ch) for ch, _ in names]
    finally:
        await h.close()
    fights = [enc.model_dump_json() for enc in encounters]
    assert len(set(fights)) == len(fights)
    # the first channel of each script is its template, set up through commands on the scripts' map
    scripts = len(mix.SCRIPTS)
    templates = {frozenset(enc.map.blocked) for enc in encounters[:scripts] if enc.map.kind != "none"}
    copies = [frozenset(enc.map.blocked) for enc in encounters[scripts:] if enc.map.kind != "none"]
    with_maps = sum(script.map is not None for script in mix.SCRIPTS)
    assert len(copies) == 2 * with_maps and len(set(copies)) == len(copies) and not templates & set(copies)


async def test_the_mix_plays_the_open_system_beside_the_others_without_a_refusal(tmp_path: Path) -> None:
    """A channel of each script plays its activations, the open system's and the damage-grid game's too: moves round the wall, attacks, heals, turn ends, none refused."""
    names = iter(range(100))

    async def fresh(name: str) -> str:
        return str(tmp_path / f"{name}-{next(names)}.db")

    r = await driver.run_load(Bench(fresh, io.StringIO()), len(mix.SCRIPTS), 12, prefix="all", maps=False)
    assert set(r.by_system) == {script.system for script in mix.SCRIPTS} and "open" in r.by_system
    assert {"/move", "/attack", "/combatant edit", "/init next", "/encounter status"} <= set(r.by_system["open"])
    assert {"/move", "/attack", "/init next"} <= set(r.by_system["damage-grid"])  # a move in one activation, an attack in another
    assert r.commands > 0 and r.ok == r.commands and r.rejected == r.errors == 0, r.examples


async def test_the_mix_plays_war_and_combat_round_after_round_without_a_refusal(tmp_path: Path) -> None:
    """The mix has a fight of every registered system; War & Combat's channels play rounds of phases and flurries (a step into contact, declarations, attacks, the GM's heals, a retreat), none refused."""
    from bot.offline.bench.results import LoadResult
    from rules.systems.war_and_combat import WacCombatant

    assert {script.system for script in mix.SCRIPTS} == {system.key for system in all_systems()}
    [script] = [script for script in mix.SCRIPTS if script.system == "war-and-combat"]
    h = await mix._harness(str(tmp_path / "wac.db"), 1)
    try:
        names = [("wac-0", script), ("wac-1", script)]  # its fight set up through commands, and a copy on a map of its own
        await driver._setup_channels(h, Bench(lambda name: None, io.StringIO()), names)
        r = LoadResult("war and combat")
        await driver._play(h, names, 56, r)  # a round is 20-22 steps
        encounters = [await driver._encounter(h, ch) for ch, _ in names]
    finally:
        await h.close()
    assert r.commands > 0 and r.ok == r.commands and r.rejected == r.errors == 0, r.examples
    counts = r.by_system["war-and-combat"]
    assert {"/move", "/act", "/attack", "/init next", "/encounter status", "/map"} <= set(counts)
    assert len(r.autocompletes) > 0
    for enc in encounters:  # two rounds over: each mover stepped in, won its flurry, retreated, stepped in again
        assert enc.round >= 3, (enc.round, enc.phase)
        assert all(c.status == "active" and not WacCombatant.of(c).wounds for c in enc.combatants)
    assert counts["/move"] >= 2 * 2 * 3  # two channels, two movers, three movement phases
    assert counts["/attack"] >= 2 * 2 * 2 * 4  # two channels, two rounds, two flurries a round, four attacks each


async def test_no_two_stored_encounters_are_the_same_fight(tmp_path: Path) -> None:
    """The stored encounters of part 3 are fights of their own too."""
    from data.store import open_store

    urls: list[str] = []

    async def fresh(name: str) -> str:
        urls.append(str(tmp_path / f"{name}-{len(urls)}.db"))
        return urls[-1]

    b = Bench(fresh, io.StringIO())
    await driver.run_load(b, len(mix.SCRIPTS), 1, prefix="templates")  # the scripts' fights, as part 1 sets them up
    cfg = Config("t", runs=((1, 1),), floor_tasks=1, floor_writes=1, stored=9, touched=0, log_activations=1,
                 rules_repeat=1, map_repeat=1)
    await stored.run_stored(b, cfg)
    async with await open_store(urls[-1]) as store:
        states = [stored.raw_state for stored in await store.active_encounters()]
    assert len(states) == 9 and len(set(states)) == 9


def test_a_rules_step_is_timed_by_its_cpu_not_the_wall_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The slowest rules step is what the step costs: time the core spent elsewhere (another
    process, here a sleep) is not the step's."""
    import time

    from rules.system import RuleSystem

    enc = growth._rules_step_encounter("coup-de-grace", "square", 12, 2)
    monkeypatch.setattr(RuleSystem, "resolve", lambda *a, **k: time.sleep(0.05))
    seconds, outcome = growth._far_move("coup-de-grace", enc, "C3")
    assert outcome == "moved" and seconds < 0.02


def test_rules_steps_are_timed_under_the_bots_collector_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules step runs under the collector settings the bot runs with, and the process's own
    come back afterwards."""
    import gc

    from bot.app import GC_THRESHOLDS

    seen = []
    far_move = growth._far_move

    def watched(*args, **kwargs):
        seen.append(gc.get_threshold())
        return far_move(*args, **kwargs)

    monkeypatch.setattr(growth, "_far_move", watched)
    kept = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # Python's defaults, as in a process that started no bot
    try:
        growth.time_rules_steps(12, 4, 1)
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*kept)
    assert seen and set(seen) == {GC_THRESHOLDS}


def test_the_benchmark_is_a_package_of_small_modules_with_its_old_entry_point() -> None:
    """bot/offline/bench/ holds the benchmark in modules under 600 lines each; `bot.offline.benchmark` keeps its names."""
    from bot.offline import benchmark

    package = Path(driver.__file__).parent
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in package.glob("*.py")}
    assert {"mix.py", "floors.py", "growth.py", "pictures.py", "report.py", "run.py"} <= set(sizes)
    assert {name: n for name, n in sizes.items() if n >= 600} == {}
    assert len(Path(benchmark.__file__).read_text(encoding="utf-8").splitlines()) < 40
    assert benchmark.main is __import__("bot.offline.bench.run", fromlist=["main"]).main


def test_pictures_are_measured_against_a_pillow_floor_of_the_same_board() -> None:
    """The Pillow floor draws the `/map` picture's board at its size in a palette PNG (grid, walls, tokens in their sides' colours), and the table gives each ratio beside its target."""
    import asyncio

    from PIL import Image

    from bot.maps.image import layout
    from bot.offline.bench.pictures import (
        _map_encounters,
        pictures_report,
        pillow_floor,
        time_maps,
    )

    boards = asyncio.run(_map_encounters())
    label, enc = boards[0]
    assert "12x10" in label and enc.map.blocked  # the slowest rules step's walls, where no one stands
    picture = Image.open(io.BytesIO(pillow_floor(enc)))
    lay = layout(enc)
    assert picture.mode == "P" and picture.size == lay.size
    wall = lay.centre(lay.grid.parse(enc.map.blocked[0]))
    assert picture.getpixel((int(wall[0]), int(wall[1]))) == 2
    sides = sorted({c.side for c in enc.combatants})
    for c in enc.combatants[:4]:
        x, y = lay.centre(lay.grid.parse(c.position or ""))
        assert picture.getpixel((int(x), int(y))) == 3 + sides.index(c.side)
    drawn = time_maps(boards[:1], 2)
    text, fig = pictures_report(drawn)
    assert drawn[0].floor > 0 and drawn[0].first > 0 and fig["pictures.first_x"] == drawn[0].first_x > 0
    assert "first / floor (<= 3x)" in text and "p50 / floor (<= 1.5x)" in text


async def test_the_growth_tables_figure_is_the_median_of_its_turns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each write's figure in the growth table is the median of the turns played (a turn that
    took a collection of the whole heap, or the machine's other work, does not move it): here the
    first /move counts 100 ms more CPU than it took and the table does not show it."""
    names = itertools.count()

    async def fresh(name: str) -> str:
        return str(tmp_path / f"{name}-{next(names)}.db")

    ticks = itertools.count()
    monkeypatch.setattr(growth, "_cpu", lambda: (n := next(ticks)) * 0.001 + (0.1 if n >= 1 else 0.0))
    out = await growth.run_growth(Bench(fresh, io.StringIO()), ((12, 10),), (2,), 3)
    systems = len(growth._mapped_systems())
    assert set(out["12x10"]) == {"/move", "/init next", "/undo"}
    for name, by_count in out["12x10"].items():
        assert by_count[2] <= systems * 1.0 + 1e-9, (name, by_count)  # 1 ms a write (less the harness's own)


def test_hex_boards_have_picture_rows_of_their_own_against_a_floor_drawing_hexes() -> None:
    """The pictures are timed on hex boards too, each against a floor that draws its hexes (each
    hex's outline, the walls filled); their ratios are figures of their own, apart from the
    square boards' that issue 25's targets read."""
    import asyncio

    from PIL import Image

    from bot.maps.image import layout
    from bot.offline.bench.pictures import (
        _map_encounters,
        pictures_report,
        pillow_floor,
        time_maps,
    )

    boards = asyncio.run(_map_encounters())
    hexes = [(label, enc) for label, enc in boards if enc.map.kind == "hex"]
    assert [label.split(",")[0] for label, _ in hexes] == ["12x10 hex", "40x40 hex"]
    label, enc = hexes[0]
    picture = Image.open(io.BytesIO(pillow_floor(enc)))
    lay = layout(enc)
    assert picture.mode == "P" and picture.size == lay.size
    wall = lay.centre(lay.grid.parse(enc.map.blocked[0]))
    assert picture.getpixel((int(wall[0]), int(wall[1]))) == 2
    x, y = lay.outline(lay.grid.parse("B2"))[0]  # a hex's left corner, on its outline (no wall near)
    near = {picture.getpixel((round(x) + dx, round(y) + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    cx, cy = lay.centre(lay.grid.parse("B2"))
    assert 1 in near and picture.getpixel((int(cx), int(cy))) != 1
    drawn = time_maps([boards[0], hexes[0]], 2)
    text, fig = pictures_report(drawn)
    assert "12x10 hex" in text
    assert fig["pictures.first_x"] == drawn[0].first_x and fig["pictures.hex.first_x"] == drawn[1].first_x > 0
    assert fig["pictures.hex.repeat_x"] == drawn[1].repeat_x > 0


def test_the_drivers_reading_of_who_acts_next_is_counted_as_the_harnesss_own() -> None:
    """Before each activation the driver asks the rules who acts next: that CPU is the driver's,
    counted apart from the bot's as its payloads and its reading of the replies are."""
    import time

    from tests.data.stores import fight

    enc = fight(30)
    with driver._HarnessMeter() as meter:
        t0 = time.thread_time()
        for _ in range(300):
            driver._actors(enc)
        spent = time.thread_time() - t0
    assert spent > 0 and meter.seconds >= 0.5 * spent  # (the rest: the loop and the counting itself)
