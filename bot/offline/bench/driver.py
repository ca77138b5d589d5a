"""Driving the mix through the offline harness: the timed runs, the event-loop watch, the harness's
own CPU told apart (`_HarnessMeter`), and `run_load`, which every part plays its channels with."""
from __future__ import annotations

import asyncio
import cProfile
import gc
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from bot.offline.bench.mix import (
    BOARD_DELAY,
    OWN_WALLS,
    READS,
    SCRIPTS,
    STALL_MS,
    TYPING,
    Factory,
    Script,
    _activation,
    _actors,
    _command_name,
    _harness,
    _script_of,
    _setup_channel,
)
from bot.offline.bench.results import (
    AUTOCOMPLETE,
    LoadResult,
    _classify,
    _cpu,
)
from bot.offline.harness import GUILD_ID, Harness, channel_id_of
from rules.models import Encounter
from rules.registry import get_system


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
        setattr(asyncio.Handle, "_run", self._timed_handle())  # the loop's handles, timed
        gc.callbacks.append(self._gc)
        self._task = asyncio.get_running_loop().create_task(self._probe())
        return self

    def __exit__(self, *exc: Any) -> None:
        setattr(asyncio.Handle, "_run", self._run)
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
                                  (Recorder, "message", self._sync), (RecordingAdapter, "request", self._async)):
            original = getattr(owner, name)
            self._saved.append((owner, name, original))
            setattr(owner, name, wrap(original))
        # the driver's own functions, wherever a module of the benchmark calls them from
        for fn in (_classify, _activation, _actors):
            wrapped = self._sync(fn)
            for module in [m for key, m in sys.modules.items() if key.startswith(__package__ + ".")]:
                if getattr(module, fn.__name__, None) is fn:
                    self._saved.append((module, fn.__name__, fn))
                    setattr(module, fn.__name__, wrapped)
        return self

    def __exit__(self, *exc: Any) -> None:
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()


class _Window(list):  # type: ignore[type-arg]  # holds what the recorder holds (`Sent`), as its list did
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
    """Run one command (or an autocomplete request: counted apart, `LoadResult.autocompletes`), count
    it in ``result``; its latency, and how it ended (`_classify`)."""
    typed = payload["type"] == AUTOCOMPLETE
    name = _command_name(payload) + " (autocomplete)" * typed
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
    if typed:
        result.autocompletes.append(latency)
        if kind != "ok":
            result.errors += 1
            if len(result.examples) < 3:
                result.examples.append(f"{name}: " + text.replace("\n", " ")[:160])
        return latency, kind, text
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
                profile: cProfile.Profile | None = None, maps: bool = True, typing: int = TYPING) -> None:
    """Play ``activations`` activations in every channel at once, one task per channel, each
    command typed with ``typing`` autocomplete requests where it has an autocompleted option."""

    async def one(channel: str, script: Script, in_flight: Counter[str]) -> None:
        cid = str(channel_id_of(channel))
        for n in range(activations):
            # who acts next, and where everyone stands, is read off the clock
            enc = await h.bot.service.encounter(cid)
            actors = _actors(enc)
            if enc is None or not actors:
                result.errors += 1
                if len(result.examples) < 3:
                    result.examples.append(f"#{channel}: nobody to act")
                return
            for payload in _activation(h, channel, script, enc, actors[0], n, maps, typing):
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
                   bot: Callable[[Harness], None] | None = None, label: str = "", typing: int = TYPING) -> LoadResult:
    """Set up ``channels`` fights (the scripts in turn) on a fresh database, then time
    ``activations`` activations in each (without ``maps``: `/encounter status` for `/map`), each
    command typed with ``typing`` autocomplete requests where it has an autocompleted option;
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
        await _play(h, names, activations, result, profile, maps, typing)
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


async def requests_by_command(b: Bench, activations: int = 2) -> dict[str, float]:
    """The bot-token requests each command of the mix sends (its autocomplete requests apart): one
    channel of each script plays ``activations`` activations one command at a time, each board
    edited as its command ends (no delay to gather edits, as `BOARD_DELAY` does in the runs).
    ``{command: requests, the mean}``."""
    h = await _harness(await b.fresh("requests"), 1)
    counts: dict[str, list[int]] = {}
    try:
        names = [(f"requests-{i}", _script_of(i)) for i in range(len(SCRIPTS))]
        await _setup_channels(h, b, names)
        for channel, script in names:
            for n in range(activations):
                enc = await _encounter(h, channel)
                actor = get_system(script.system).turn(enc).actors[0]
                for payload in _activation(h, channel, script, enc, actor, n, typing=TYPING):
                    sent = sum(h.recorder.per_second.values())
                    await h.run_payload(payload)
                    name = _command_name(payload) + " (autocomplete)" * (payload["type"] == AUTOCOMPLETE)
                    counts.setdefault(name, []).append(sum(h.recorder.per_second.values()) - sent)
    finally:
        await h.close()
    return {name: sum(n) / len(n) for name, n in sorted(counts.items())}


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

