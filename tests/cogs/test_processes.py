"""Two bot processes on one database: two `Service` instances, each with its own cache of the same
channels, racing; none of their acknowledged commands is lost or doubled, and the log replays to
the stored state. On PostgreSQL each has its own store (as two processes would); a SQLite file
belongs to one process, so there the two services share its store."""
from __future__ import annotations

import asyncio
import itertools
import random
from collections import Counter
from collections.abc import AsyncIterator

import pytest

from bot.service import Ctx, Service
from data import StaleEncounter, open_store
from data.store import Store, read_state
from rules.actions import make_action
from tests.cogs.fights import GRAK

GM = "100"
NAMES = [f"E{i}" for i in range(6)]


@pytest.fixture
async def services(url: str, backend: str) -> AsyncIterator[tuple[Service, Service]]:
    """Two services on one database: two stores on PostgreSQL, one shared store on SQLite."""
    first = await open_store(url)
    second = await open_store(url) if backend == "postgresql" else first
    try:
        yield Service(first, rng=random.Random(1)), Service(second, rng=random.Random(2))
    finally:
        await first.close()
        if second is not first:
            await second.close()


_ids = itertools.count(1)


def ctx(channel: str, roll: str | None = None) -> Ctx:
    return Ctx(channel_id=channel, user_id=GM, guild_id="g", interaction_id=f"i{next(_ids)}", roll=roll)


async def setup(service: Service, channel: str, names: list[str]) -> None:
    """An encounter in ``channel`` with ``names`` on a 12x10 map, not started (the GM edits freely)."""
    await service.start(ctx(channel), "coup-de-grace", f"Fight {channel}", "12x10", None)
    for i, name in enumerate(names):
        add = make_action("add", name=name, raw_sheet=dict(p.split("=") for p in GRAK.split()), at=f"B{i + 1}", side=f"s{i % 2}")
        await service.act(ctx(channel), add)


def edit(name: str, hp: int) -> object:
    return make_action("edit", actor=name, raw_sheet={"hp": str(hp)})


async def run_edits(
    both: tuple[Service, Service], plan: list[tuple[str, str, int]], reads: int
) -> tuple[dict[str, tuple[str, int]], int]:
    """Run the edits of ``plan`` (channel, combatant, hp) and ``reads`` status reads together,
    alternately through each service. Returns the acknowledged edits by interaction id and how
    many were refused (each refusal a `StaleEncounter`, anything else fails the test)."""
    acknowledged: dict[str, tuple[str, int]] = {}
    refused = 0

    async def one(k: int, channel: str, name: str, hp: int) -> None:
        nonlocal refused
        c = ctx(channel)
        try:
            await both[k % 2].act(c, edit(name, hp))
        except StaleEncounter:
            refused += 1
        else:
            acknowledged[c.interaction_id] = (name, hp)

    channels = sorted({p[0] for p in plan})
    await asyncio.gather(
        *(one(k, *p) for k, p in enumerate(plan)),
        *(both[k % 2].status(ctx(channels[k % len(channels)])) for k in range(reads)),
    )
    return acknowledged, refused


async def check_channel(store: Store, channel: str, acknowledged: dict[str, tuple[str, int]], adds: int) -> int:
    """Every edit in ``channel``'s log was acknowledged and is logged once, each changes exactly
    what it says, and the states chain from the first edit to the stored state (the version
    counts every write); returns how many acknowledged edits the log holds."""
    stored = await store.load_active(channel)
    assert stored is not None and stored.encounter is not None
    log = [e for e in await store.log(stored.id, 10_000) if e.command == "/combatant edit"]
    counts = Counter(e.interaction_id for e in log)
    assert all(n == 1 for n in counts.values()), "an edit was logged twice"
    mine = {i for i in acknowledged if i in counts}
    states = [read_state(e.state_before or "")[0] for e in log] + [stored.encounter]
    for entry, before, after in zip(log, states, states[1:]):
        assert before is not None and after is not None
        name, hp = acknowledged[entry.interaction_id]
        assert after.get(name).hp == hp, "a logged edit is not in the state after it"
        assert [c.hp for c in after.combatants if c.name != name] == [
            c.hp for c in before.combatants if c.name != name
        ], "a state changed more than its logged edit"
    assert stored.version == adds + len(log)
    return len(mine)


async def test_200_commands_on_one_channel_through_two_processes(services: tuple[Service, Service]) -> None:
    """150 hp edits and 50 status reads on one channel, alternately through two services that both cache it: none is refused (a conflict is resolved again until it lands), each is logged once and the log replays to the stored state."""
    a, b = services
    await setup(a, "c1", NAMES)
    assert await b.encounter("c1") is not None  # the second process holds the channel in its cache
    plan = [("c1", NAMES[k % len(NAMES)], 1 + k % 20) for k in range(150)]
    acknowledged, refused = await run_edits(services, plan, reads=50)
    assert refused == 0 and len(acknowledged) == 150, "a command was refused under two processes' load"
    assert a.encounters.conflicts + b.encounters.conflicts > 0, "the two caches did race"
    assert await check_channel(a.store, "c1", acknowledged, len(NAMES)) == len(acknowledged)
    stored = await a.store.load_active("c1")
    assert stored is not None
    assert await b.encounter("c1") is not None
    final = {c.name: c.hp for c in stored.encounter.combatants}
    last: dict[str, int] = {}
    for e in await a.store.log(stored.id, 10_000):
        if e.interaction_id in acknowledged:
            name, hp = acknowledged[e.interaction_id]
            last[name] = hp
    assert final == last


async def test_1000_commands_on_50_channels_through_two_processes(services: tuple[Service, Service]) -> None:
    """1,000 hp edits across 50 channels through two services: none is refused, each is logged once, none lost."""
    a, b = services
    channels = [f"ch{n}" for n in range(50)]
    for channel in channels:
        await setup(a, channel, NAMES[:2])
        await b.encounter(channel)
    plan = [(channels[k % 50], NAMES[k % 2], 1 + k % 20) for k in range(1000)]
    acknowledged, refused = await run_edits(services, plan, reads=0)
    assert refused == 0 and len(acknowledged) == 1000
    logged = 0
    for channel in channels:
        logged += await check_channel(b.store, channel, acknowledged, 2)
    assert logged == len(acknowledged)


async def test_a_conflict_re_resolves_on_the_fresh_state_with_the_typed_dice(services: tuple[Service, Service]) -> None:
    """A roll-off read before another process's edit is resolved again on the edited state, with the die typed with roll: used again."""
    a, b = services
    await setup(a, "c1", NAMES[:2])
    await b.encounter("c1")  # b caches the encounter, then a changes it
    await a.act(ctx("c1"), edit(NAMES[0], 2))
    outcome = await b.act(ctx("c1", roll="6"), make_action("init_roll"))
    assert b.encounters.conflicts == 1 and a.encounters.conflicts == 0
    assert "🎲 6✍" in outcome.report.lines[0]
    stored = await a.store.load_active("c1")
    assert stored is not None and stored.encounter is not None
    assert stored.encounter.get(NAMES[0]).hp == 2, "the other process's edit was kept"
    assert stored.encounter.round == 1
    [last] = await a.store.log(stored.id, 1)
    assert (last.command, last.dice[0], last.dice_typed) == ("/init roll", 6, [0])
    assert read_state(last.state_before or "")[0].get(NAMES[0]).hp == 2


async def test_conflicts_past_the_bound_are_refused_and_change_nothing(services: tuple[Service, Service]) -> None:
    """When the encounter changes again before every retry lands, for longer than the bound, the command is refused with a clear message and nothing of it is stored."""
    a, b = services
    b.encounters.conflict_seconds = 0.3
    await setup(a, "c1", NAMES[:2])
    await b.encounter("c1")
    real_load = b.store.load_active

    async def load_then_race(channel: str):  # another process writes between each load and write
        stored = await real_load(channel)
        await a.act(ctx("c1"), edit(NAMES[1], 1 + (stored.version % 20)))
        return stored

    await a.act(ctx("c1"), edit(NAMES[0], 2))
    b.store.load_active = load_then_race
    c = ctx("c1")
    try:
        with pytest.raises(StaleEncounter, match="^Someone changed this encounter at the same moment: try again.$"):
            await b.act(c, edit(NAMES[0], 9))
    finally:
        b.store.load_active = real_load
    assert b.encounters.conflicts > 2, "the command was resolved again until the bound"
    stored = await a.store.load_active("c1")
    assert stored is not None and stored.encounter.get(NAMES[0]).hp == 2
    assert c.interaction_id not in {e.interaction_id for e in await a.store.log(stored.id, 100)}
