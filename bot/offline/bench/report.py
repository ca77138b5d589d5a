"""The report: the profile's layers and stages, the load tables, and the targets beside the figures."""
from __future__ import annotations

import cProfile
import io
import os
import pstats
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.offline.bench.floors import (
    FLOOR_TARGET,
)
from bot.offline.bench.growth import (
    GROWTH_TARGET,
)
from bot.offline.bench.mix import (
    BOARD_DELAY,
    RULES_STEP_TARGET_MS,
    TYPING,
)
from bot.offline.bench.pictures import PICTURE_TARGETS
from bot.offline.bench.results import (
    LoadResult,
    _pct,
    _table,
)
from bot.outbound import DEFAULT_PER_SECOND
from bot.service import CACHE_BYTES
from bot.service.cache import RESIDENT_PER_JSON_BYTE


def _layer(filename: str) -> str:
    """Which part of the program a profiled function belongs to."""
    path = filename.replace("\\", "/")
    root = str(Path(__file__).resolve().parents[2]).replace("\\", "/") + "/"
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
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]  # pstats keeps it undeclared
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


def autocomplete_report(runs: list[LoadResult]) -> str:
    """Each run's autocomplete requests beside its commands: how many, and their latencies."""
    return "\n".join(
        f"{r.label}: {len(r.autocompletes):,} autocomplete requests beside its {r.commands:,} commands "
        f"({len(r.autocompletes) / max(r.commands, 1):.2f} a command: {TYPING} while each command with an "
        f"autocompleted option is typed), p50 {r.pct(50, r.autocompletes):.2f} ms, p99 {r.pct(99, r.autocompletes):.2f} ms"
        for r in runs)


def requests_report(by_command: dict[str, float], run: LoadResult) -> tuple[str, dict[str, float]]:
    """`requests_by_command`'s table, the same in ``run`` (its boards' edits gathered over
    `BOARD_DELAY`), and the figures."""
    rows = [[name, f"{n:.2f}"] for name, n in by_command.items()]
    per_command = run.requests / max(run.commands, 1)
    table = _table("Bot-token requests each command sends (one channel of each script, a command at a time, each "
                   "board edited as its command ends; replies and pings go through the interaction's webhook)",
                   ["command", "requests"], rows)
    typed = [n for name, n in by_command.items() if name.endswith("(autocomplete)")]
    return (table + f"\n{run.label}, boards edited at most every {BOARD_DELAY:g} s: {run.requests:,} bot-token "
            f"requests for {run.commands:,} commands, {per_command:.2f} a command"), {
        "requests.most_per_command": max(by_command.values(), default=0.0),
        "requests.autocomplete": max(typed, default=0.0),
        "requests.per_command": per_command}


def cache_report(held: dict[str, tuple[float, float, float, float]]) -> tuple[str, dict[str, float]]:
    """`run_cache_memory`'s figures as lines, and the figures: the most resident memory per JSON
    byte loaded and written, and the most a written encounter holds over what the cache counts."""
    lines = [f"the encounter cache (tracemalloc; {RESIDENT_PER_JSON_BYTE}x its JSON counted for its state, once "
             f"more for its parts after a write): a cached encounter's resident memory"]
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


Target = tuple[str, str, Callable[[float], bool], str]


def _verdicts(checks: Sequence[Target], figures: dict[str, dict[str, float]]) -> tuple[list[str], list[list[str]]]:
    """A targets table's header and rows: each target, then its figure and PASS or MISS for each backend."""
    header = ["target"]
    for backend in figures:
        header += [backend, ""]
    rows = []
    for label, key, ok, fmt in checks:
        row = [label]
        for fig in figures.values():
            value = fig.get(key)
            row += ["-", ""] if value is None else [fmt.format(value), "PASS" if ok(value) else "MISS"]
        rows.append(row)
    return header, rows


def targets(figures: dict[str, dict[str, float]]) -> str:
    """The targets table: each target beside its figure for each backend, PASS or MISS."""
    table = _table("Targets (issues 11 and 23: SQLite, 50 and 500 busy channels, this 2-core machine)",
                   *_verdicts(TARGETS, figures))
    ceilings = [f"{backend} {fig['run1.cpu_ms']:.2f} + {fig['run1.map_cpu_ms']:.2f} ms, at most "
                f"{fig['run1.cpu_ceiling']:,.0f} commands/s" for backend, fig in figures.items() if "run1.cpu_ceiling" in fig]
    if ceilings:
        table += (f"\nCPU per command at 50 channels (the bot's process + the map workers; a database server's apart) "
                  f"and the rate that allows on {CORES} cores: " + "; ".join(ceilings))
    return table


#: issue 25's targets: (label, figure, the test that passes it, the format of the figure)
ISSUE25: tuple[tuple[str, str, Callable[[float], bool], str], ...] = (
    (f"bot CPU / the store-only floor's <= {FLOOR_TARGET:.1f}x, the mix without /map", "floors.ratio_store",
     lambda v: v <= FLOOR_TARGET, "{:.2f}x"),
    (f"a first /map <= {PICTURE_TARGETS[0]:g}x the Pillow floor", "pictures.first_x",
     lambda v: v <= PICTURE_TARGETS[0], "{:.1f}x"),
    (f"a picture after a move <= {PICTURE_TARGETS[1]:g}x the Pillow floor", "pictures.repeat_x",
     lambda v: v <= PICTURE_TARGETS[1], "{:.1f}x"),
    ("the longest garbage collection <= 50 ms, 500 busy channels", "run2.gc_ms", lambda v: v <= 50, "{:.1f} ms"),
    ("a cached encounter within what the cache counts", "cache.over_counted", lambda v: v <= 1, "{:.2f}x"),
)


def floor_targets(figures: dict[str, dict[str, float]]) -> str:
    """Issue 25's closing table: the bot's CPU per command against the no-op and store-only bots,
    by backend; then each target beside its figure for each backend, PASS or MISS (growth for
    each map measured), and the resident memory of a full encounter cache."""
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
    boards = sorted({k.split(".", 2)[2] for f in figures.values() for k in f if k.startswith("growth.ratio.")},
                    key=lambda b: [int(n) for n in b.split("x")])
    checks = [*ISSUE25[:1],
              *((f"growth: a turn's writes at 100 combatants <= {GROWTH_TARGET:.1f}x at 10, {board}",
                 f"growth.ratio.{board}", lambda v: v <= GROWTH_TARGET, "{:.1f}x") for board in boards),
              *ISSUE25[1:]]
    header, verdicts = _verdicts(checks, figures)
    verdicts.append(["resident memory of a full encounter cache (MiB, at most)", *(
        item for f in figures.values() for item in (f"{f['cache.full_mib']:.0f}" if "cache.full_mib" in f else "-", ""))])
    return table + "\n\n" + _table("Issue 25's targets", header, verdicts)


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

