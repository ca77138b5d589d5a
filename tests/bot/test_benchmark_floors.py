"""The benchmark's floors (issue 25): a no-op and a store-only bot through the mix's own harness,
payloads and driver, and the harness's own CPU told apart from the bot's. Structure and counts
only: timings are the benchmark's to print, never a test's to assert."""
from __future__ import annotations

import io
from pathlib import Path

from bot.offline.bench import floors, mix, results
from bot.offline.bench.driver import Bench, run_load
from bot.offline.bench.floors import Floors
from bot.offline.bench.growth import growth_report
from bot.offline.bench.report import floor_targets
from bot.offline.bench.results import LoadResult
from data.store import open_store


async def _floor_run(tmp_path: Path, write: bool, activations: int = 2) -> tuple[LoadResult, list[tuple[int, int]]]:
    """A floor bot's run of ``activations`` in 3 channels (one of each script), and each stored
    encounter's (version, log rows) afterwards."""
    made: list[str] = []

    async def fresh(name: str) -> str:
        made.append(str(tmp_path / f"{name}-{len(made)}.db"))
        return made[-1]

    r = await run_load(Bench(fresh, io.StringIO()), 3, activations, prefix="floor", maps=False,
                       bot=lambda h: floors.floor_bot(h, write), label="floor")
    async with await open_store(made[-1]) as store:
        rows = [(s.version, await store.count_log(s.id)) for s in await store.active_encounters()]
    return r, rows


async def test_no_op_bot_answers_every_command_of_the_mix_and_writes_nothing(tmp_path: Path) -> None:
    """The no-op bot answers each command of the mix with one line and leaves every stored encounter as set up."""
    r, played = await _floor_run(tmp_path, write=False)
    _, set_up = await _floor_run(tmp_path / "set-up", write=False, activations=0)
    assert r.commands > 6 and r.ok == r.commands and r.errors == r.rejected == 0
    assert {"/attack", "/init next", "/encounter status"} <= set(r.by_command)  # the mix's commands, writes too
    assert played == set_up


async def test_store_only_bot_writes_the_state_and_a_log_row_per_command(tmp_path: Path) -> None:
    """The store-only bot commits one version and one log row per command of the mix, on top of the set-up's."""
    _, untouched = await _floor_run(tmp_path / "noop", write=False)
    r, written = await _floor_run(tmp_path / "store", write=True)
    assert r.ok == r.commands > 6
    added_versions = sum(v for v, _ in written) - sum(v for v, _ in untouched)
    added_rows = sum(n for _, n in written) - sum(n for _, n in untouched)
    assert added_versions == added_rows == r.commands


async def test_harness_cpu_is_counted_apart_from_the_bots(tmp_path: Path) -> None:
    """A run counts the harness's own CPU (payloads, replies, the stand-in endpoints) as a part of the process's, and the counted functions are restored after it."""
    before = (results._classify, mix._activation)
    r, _ = await _floor_run(tmp_path, write=False)
    assert 0 < r.harness_cpu_seconds < r.cpu_seconds
    assert (results._classify, mix._activation) == before


def test_floor_ratios_and_their_target_are_printed_for_each_backend() -> None:
    """The floors' figures give both ratios of the bot's CPU (the process's less the harness's), and the table marks the 2.0x target PASS or MISS."""
    def run(label: str, cpu: float, harness: float) -> LoadResult:
        return LoadResult(label, commands=1000, cpu_seconds=cpu, harness_cpu_seconds=harness)

    floor_runs = Floors({"no-op": run("no-op bot", 0.2, 0.1), "store-only": run("store-only bot", 0.3, 0.1)},
                    run("mix", 1.1, 0.1),
                    {"no-op": run("no-op bot", 0.2, 0.1), "store-only": run("store-only bot", 0.3, 0.1)})
    f = floor_runs.figures()
    assert (round(f["floors.noop_ms"], 6), round(f["floors.store_ms"], 6), round(f["floors.mix_ms"], 6)) == (0.1, 0.2, 1.0)
    assert round(f["floors.ratio_store"], 6) == 5.0 and round(f["floors.ratio_noop"], 6) == 10.0
    assert "Skirmish / store-only 5.00x (target <= 2.0x)" in floor_runs.table()
    fast = {**f, "floors.mix_ms": 0.3, "floors.ratio_store": 1.5}
    table = floor_targets({"SQLite": f, "PostgreSQL": fast})
    [sqlite] = [ln for ln in table.splitlines() if ln.startswith("SQLite")]
    [pg] = [ln for ln in table.splitlines() if ln.startswith("PostgreSQL")]
    assert "5.00x" in sqlite and "MISS" in sqlite and "1.50x" in pg and "PASS" in pg


def test_growth_compares_each_write_and_the_turn_at_100_combatants_with_10_on_each_map() -> None:
    """The growth table gives each write's CPU on each map with each number of combatants (a dash where they do not fit), 100 over 10 (the most that fit over 10 where 100 do not), and a turn's writes summed; the targets table marks each map's ratio against 2.0x."""
    text, fig = growth_report({
        "12x10": {"/move": {2: 1.0, 10: 2.0, 60: 3.0}, "/undo": {2: 1.0, 10: 1.0, 60: 1.0}},
        "100x100": {"/move": {2: 1.0, 10: 2.0, 60: 3.0, 100: 5.0}, "/undo": {2: 1.0, 10: 1.0, 60: 1.0, 100: 1.0}},
    })
    assert round(fig["growth.ratio.12x10"], 6) == round(4 / 3, 6) and round(fig["growth.ratio.100x100"], 6) == 2.0
    assert fig["growth.ratio"] == fig["growth.ratio.100x100"]  # the largest map's is the figure
    [small] = [ln for ln in text.splitlines() if ln.startswith("12x10") and "a turn's writes" in ln]
    assert small.endswith("1.3x (60 / 10)")
    assert small.split()[4:8] == ["2.0", "3.0", "4.0", "-"]
    [large] = [ln for ln in text.splitlines() if ln.startswith("100x100") and "a turn's writes" in ln]
    assert large.split()[-5:] == ["2.0", "3.0", "4.0", "6.0", "2.0x"]
    base = {"floors.noop_ms": 0.1, "floors.store_ms": 0.2, "floors.mix_ms": 1.0, "floors.ratio_noop": 10.0,
            "floors.ratio_store": 5.0, "floors.harness_share": 0.1}
    table = floor_targets({"SQLite": {**base, **fig}, "PostgreSQL": {**base, "growth.ratio.100x100": 2.5}})
    [line] = [ln for ln in table.splitlines() if "100x100" in ln]
    assert "2.0x  PASS" in line and "2.5x  MISS" in line
    [line] = [ln for ln in table.splitlines() if "12x10" in ln]
    assert "1.3x  PASS" in line and line.rstrip().endswith("-")


def test_issue_25s_targets_stand_beside_their_figures_for_each_backend() -> None:
    """Issue 25's table puts the pictures against the Pillow floor (3x, 1.5x), the longest collection at 500 channels (50 ms) and a full cache's memory beside each backend's figures."""
    base = {"floors.noop_ms": 0.1, "floors.store_ms": 0.2, "floors.mix_ms": 0.3, "floors.ratio_noop": 3.0,
            "floors.ratio_store": 1.5, "floors.harness_share": 0.1, "pictures.first_x": 4.2, "pictures.repeat_x": 1.2,
            "run2.gc_ms": 60.0, "cache.over_counted": 0.9, "cache.full_mib": 236.0}
    table = floor_targets({"SQLite": base, "PostgreSQL": {**base, "run2.gc_ms": 20.0}})
    lines = table.splitlines()

    def row(start: str) -> str:
        [line] = [ln for ln in lines if ln.startswith(start)]
        return line

    assert "1.50x  PASS" in row("bot CPU / the store-only")
    assert row("a first /map").count("4.2x  MISS") == 2 and row("a picture after a move").count("1.2x  PASS") == 2
    assert "60.0 ms  MISS" in row("the longest garbage collection") and "20.0 ms  PASS" in row("the longest garbage collection")
    assert row("resident memory of a full encounter cache").split()[-2:] == ["236", "236"]
