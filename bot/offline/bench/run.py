"""``python -m bot benchmark [--quick] [--profile] [--backends sqlite,postgresql] [--db URL]``:
how fast the bot is, measured offline; one backend's parts (`measure`), each backend in a process
of its own, and the parts measured once."""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TextIO

from bot.offline.bench.driver import (
    Bench,
    requests_by_command,
    run_load,
)
from bot.offline.bench.floors import (
    run_floor,
    run_with_floors,
)
from bot.offline.bench.growth import (
    growth_report,
    run_growth,
    run_largest,
    time_rules_steps,
)
from bot.offline.bench.mix import (
    FULL,
    QUICK,
    STALL_MS,
    Config,
    Factory,
)
from bot.offline.bench.pictures import _map_encounters, pictures_report, time_maps
from bot.offline.bench.report import (
    LOAD_HEADER,
    _by_command,
    _ceiling,
    _cpu_ms,
    _load_row,
    _profile_report,
    _share,
    autocomplete_report,
    cache_report,
    floor_targets,
    gc_report,
    requests_report,
    summary,
    targets,
)
from bot.offline.bench.results import (
    _table,
    rss_mib,
)
from bot.offline.bench.state import largest_pair, state_report, write_costs
from bot.offline.bench.stored import (
    log_bytes_per_action,
    run_cache_memory,
    run_stored,
)
from bot.outbound import DEFAULT_PER_SECOND
from data.store import database_backend


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
    say(autocomplete_report(runs))
    text, sent = requests_report(await requests_by_command(b), main_run)
    fig.update(sent)
    fig.update({f"run{i}.autocompletes": len(r.autocompletes) for i, r in enumerate(runs[:-1])})
    say("", text)

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
    costs = write_costs({k: (b.templates[k], b.played.get(k, b.templates[k])) for k in b.templates}, 50 * cfg.rules_repeat)
    costs += write_costs({"largest": largest_pair(cfg.largest, cfg.largest)}, 2 * cfg.rules_repeat)
    text, work = state_report(costs)
    fig.update(work)
    say("", text)

    turn, largest = await run_largest(b, cfg.largest, cfg.largest)
    worst = max(turn, key=lambda row: row[2])
    fig.update({"largest.worst_ms": worst[2], "largest.step_ms": largest.callback * 1000,
                "largest.stall_ms": largest.stall * 1000, "largest.refused": sum(r[3] != "ok" for r in turn),
                "largest.map_cpu_ms": 1000 * largest.map_cpu_seconds})
    say("", _table(f"5. The {largest.label}: a turn's commands through the harness, each once, for every system "
                   f"with a map", ["system", "command", "ms", "outcome"],
                   [[key, name, f"{ms:.1f}", outcome] for key, name, ms, outcome in turn]),
        f"the worst: {worst[1]} in {worst[0]}, {worst[2]:.1f} ms; the loop's longest single step "
        f"{largest.callback * 1000:.1f} ms (in flight: {largest.callback_what or 'none'}), its longest lag "
        f"{largest.stall * 1000:.1f} ms")
    text, grown = growth_report(await run_growth(b, cfg.growth, cfg.growth_counts, cfg.growth_repeat))
    fig.update(grown)
    say("", text)
    if prof is not None:
        say("", f"6. cProfile of the {main_run.label} run", _profile_report(prof))
    return fig



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
    argv = [sys.executable, "-m", "bot.offline.bench", "--child", "--figures", str(path)]
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
    text, drawn = pictures_report(time_maps(asyncio.run(_map_encounters()), cfg.map_repeat))
    for fig in figures.values():
        fig.update(drawn)
    print("", text, sep="\n")
    if figures:
        print("", summary(figures), "", targets(figures), "", floor_targets(figures), sep="\n")
    print(f"benchmark took {time.perf_counter() - started:.1f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bot benchmark", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="a shorter run (a few minutes)")
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

