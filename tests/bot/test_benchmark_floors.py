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


def test_growth_compares_each_write_and_the_turn_at_the_most_combatants_with_the_fewest() -> None:
    """The growth table gives each write's CPU at each size, its ratio, and a turn's writes summed; the floors' table marks that ratio against 2.0x."""
    text, fig = growth_report({"/move": {10: 2.0, 100: 5.0}, "/undo": {10: 1.0, 100: 1.0}}, 100)
    assert "2.5x" in text and "1.0x" in text and round(fig["growth.ratio"], 6) == 2.0
    [total] = [ln for ln in text.splitlines() if ln.startswith("a turn's writes")]
    assert total.split()[-3:] == ["3.0", "6.0", "2.0x"]
    base = {"floors.noop_ms": 0.1, "floors.store_ms": 0.2, "floors.mix_ms": 1.0, "floors.ratio_noop": 10.0,
            "floors.ratio_store": 5.0, "floors.harness_share": 0.1}
    table = floor_targets({"SQLite": {**base, **fig}, "PostgreSQL": {**base, "growth.ratio": 2.5}})
    assert "SQLite 2.0x PASS" in table and "PostgreSQL 2.5x MISS" in table
