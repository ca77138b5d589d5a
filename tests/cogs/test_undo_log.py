"""/undo over the compact action log through the real command path: exact across snapshots, and
the periodic compaction of ended encounters."""
from __future__ import annotations

from typing import Any

from bot.offline.harness import Clock, Harness
from data.delta import SNAPSHOT_EVERY
from tests.backends import on_each_backend  # noqa: F401 (the h harness on SQLite and PostgreSQL)
from tests.cogs.fights import export, started_cdg


async def test_undo_walks_back_across_snapshots_exactly(h: Harness) -> None:
    """After more GM edits than a snapshot interval, repeated /undo gives back every earlier export exactly, to the state before the first edit."""
    await started_cdg(h)
    exports: list[dict[str, Any]] = []
    for n in range(SNAPSHOT_EVERY + 10):
        exports.append(await export(h, who="gm"))
        name, row = ("Borin", 1) if n % 2 else ("Grak", 5)
        sent = await h.run("gm", "/combatant edit", name=name, at=f"{'ABCDEFGH'[n % 8]}{row}")
        assert not sent[0].ephemeral, sent[0].text
    while exports:
        sent = await h.run("gm", "/undo")
        assert not sent[0].ephemeral, sent[0].text
        assert await export(h, who="gm") == exports.pop()


async def test_the_reminder_loop_compacts_ended_encounters_at_most_hourly(h: Harness) -> None:
    """compact_log drops the undo data of an encounter ended over LOG_RETENTION_DAYS ago, runs at most once an hour, and /log-style rows stay."""
    clock = h.bot.service.clock
    assert isinstance(clock, Clock)
    await started_cdg(h)
    await h.run("gm", "/combatant edit", name="Grak", at="F5")
    store = h.bot.service.store
    [live] = await store.active_encounters()
    await h.run("gm", "/encounter end", confirm="true")
    assert await h.bot.compact_log() == 0  # ended just now: kept
    clock.now += 31 * 86400
    assert await h.bot.compact_log() > 0
    entries = await store.log(live.id, 10)
    assert [e.command for e in entries][-2:] == ["/combatant edit", "/encounter end"]
    assert all(e.state_before is None for e in entries)
    assert await h.bot.compact_log() == 0  # within the hour: not run again
