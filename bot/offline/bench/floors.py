"""The floors: a no-op bot and a store-only bot through the mix's own harness, payloads and driver
(issue 25), and the group-commit floor of the store (`Store.apply`, and plain sqlite3)."""
from __future__ import annotations

import asyncio
import dataclasses
import functools
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.offline.bench.driver import (
    Bench,
    _timed_run,
    run_load,
)
from bot.offline.bench.mix import (
    Config,
)
from bot.offline.bench.results import (
    LoadResult,
    _cpu,
    _table,
)
from bot.offline.harness import GUILD_ID, Harness
from data.store import Change, Store, database_backend, open_store
from rules.models import Encounter

# -- the floors: a no-op bot and a store-only bot ---------------------------------------------------
#: a store-only bot's log row: about the bytes a logged action of the mix stores (its summary,
#: dice and undo data)
FLOOR_ROW = ("Borin moves D5 → D4 → D3 → E3 → F3 → F4 → F5 for 7 MP, facing W; attacks Grak with a sword: "
             "hits, 5 damage, Grak is wounded. " * 4)[:480]


def floor_bot(h: Harness, write: bool) -> None:
    """Make ``h``'s bot a floor of the same tree: every command of it answers one line and every
    autocomplete request one choice, what is typed (the no-op bot); with ``write``, a command
    answers after one group-committed `Store.apply` of the channel's state as stored (its JSON as
    cached) and a `FLOOR_ROW` log row (the store-only bot). The payloads, the discord.py
    dispatch, its checks and transformers, the harness and the driver stay."""
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

    async def choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=current or "-", value=current or "-")]

    for command in h.bot.tree.walk_commands():
        if isinstance(command, app_commands.Command):
            command._callback, command.binding = answer, None
            command._params = {name: dataclasses.replace(param, autocomplete=choices) if param.autocomplete else param
                               for name, param in command._params.items()}


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

