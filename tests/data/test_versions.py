"""Every save checks the encounter's version, on both backends; PostgreSQL reminders are claimed
by one process at a time."""
from __future__ import annotations

import asyncio

import pytest

from data import Reminder, StaleEncounter, Store, open_store
from data.postgres import REMINDER_LEASE
from rules.errors import NotFound, RulesError
from tests.backends import PgServer
from tests.data.stores import change, enc, query


async def test_new_encounter_is_at_version_zero_and_each_apply_adds_one(store: Store) -> None:
    """A new encounter reads back at version 0; every apply, logged or not, adds one."""
    created = await store.create_encounter("c1", "g", enc(), 1.0)
    assert created.version == 0
    assert (await store.load_active("c1")).version == 0
    await store.apply(change(created.id, "i1", round=1, version=0))
    await store.apply(change(created.id, None, round=2, version=1, log=False))
    await store.apply(change(created.id, "i3", round=3))  # a write that does not say what it read
    loaded = await store.load_active("c1")
    assert loaded is not None and (loaded.version, loaded.encounter.round) == (3, 3)
    assert [e.version for e in await store.active_encounters()] == [3]


async def test_stale_write_is_refused_and_changes_nothing(store: Store, url: str) -> None:
    """A change that read an older version raises StaleEncounter: state, log and reminder stay as they were."""
    created = await store.create_encounter("c1", "g", enc(), 1.0)
    reminder = Reminder(created.id, "c1", 50.0, ["u1"], "t1")
    await store.apply(change(created.id, "first", round=1, version=0, reminder=reminder))
    with pytest.raises(StaleEncounter) as caught:
        await store.apply(change(
            created.id, "second", round=9, version=0, active=False,
            reminder=None, clear_reminder=True,
        ))
    assert isinstance(caught.value, RulesError)
    assert str(caught.value) == "Someone changed this encounter at the same moment: try again."
    loaded = await store.load_active("c1")
    assert loaded is not None and (loaded.version, loaded.encounter.round) == (1, 1)
    assert [e.interaction_id for e in await store.log(created.id, 10)] == ["first"]
    assert await store.due_reminders(60.0) == [Reminder(created.id, "c1", 50.0, ["u1"], "t1", 0)]
    assert await query(url, "SELECT count(*) FROM actions") == [(1,)]


async def test_stale_change_fails_alone_in_its_batch(store: Store) -> None:
    """Within one group-committed batch a stale change fails alone; the others land, in order."""
    a = await store.create_encounter("a", "g", enc(), 1.0)
    b = await store.create_encounter("b", "g", enc(), 1.0)
    results = await asyncio.gather(
        store.apply(change(a.id, "a1", round=1, version=0)),
        store.apply(change(b.id, "b1", round=1, version=0)),
        store.apply(change(a.id, "a2", round=2, version=1)),
        store.apply(change(b.id, "b-stale", round=7, version=5)),
        store.apply(change(b.id + 100, "ghost", round=1, version=0)),
        return_exceptions=True,
    )
    assert [type(r).__name__ for r in results] == [
        "NoneType", "NoneType", "NoneType", "StaleEncounter", "NotFound",
    ]
    assert isinstance(results[4], NotFound) and not isinstance(results[4], StaleEncounter)
    assert [e.interaction_id for e in await store.log(a.id, 10)] == ["a1", "a2"]
    assert [e.interaction_id for e in await store.log(b.id, 10)] == ["b1"]
    la, lb = await store.load_active("a"), await store.load_active("b")
    assert la is not None and (la.version, la.encounter.round) == (2, 2)
    assert lb is not None and (lb.version, lb.encounter.round) == (1, 1)


async def test_two_stores_racing_on_one_version_one_wins(pg_server: PgServer) -> None:
    """Two PostgreSQL stores (two processes) write the same version of one encounter 20 times: one of each pair lands."""
    url = await pg_server.fresh_url()
    first, second = await open_store(url), await open_store(url)
    try:
        created = await first.create_encounter("c1", "g", enc(), 1.0)
        for v in range(20):
            results = await asyncio.gather(
                first.apply(change(created.id, f"a{v}", round=2 * v + 1, version=v)),
                second.apply(change(created.id, f"b{v}", round=2 * v + 2, version=v)),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["NoneType", "StaleEncounter"]
        log = await second.log(created.id, 100)
        assert len(log) == 20
        loaded = await first.load_active("c1")
        assert loaded is not None and loaded.version == 20
        assert loaded.encounter.round == int(log[-1].summary.split()[-1])
    finally:
        await first.close()
        await second.close()


async def test_due_reminders_are_claimed_by_one_process(pg_server: PgServer) -> None:
    """Two PostgreSQL stores asking together get each due reminder once; an unsent one is due again after the lease."""
    url = await pg_server.fresh_url()
    first, second = await open_store(url), await open_store(url)
    try:
        ids = []
        for k in range(30):
            created = await first.create_encounter(f"c{k}", "g", enc(), 1.0)
            reminder = Reminder(created.id, f"c{k}", 10.0 + k, ["u"], "t")
            await first.apply(change(created.id, f"i{k}", reminder=reminder))
            ids.append(created.id)
        got = await asyncio.gather(*(s.due_reminders(100.0) for s in (first, second, first, second)))
        claimed = [r.encounter_id for batch in got for r in batch]
        assert sorted(claimed) == sorted(ids), "each due reminder is claimed exactly once"
        for batch in got:  # soonest first, as stored before the claim
            assert [r.due_at for r in batch] == sorted(r.due_at for r in batch)
            assert all(r.due_at == 10.0 + ids.index(r.encounter_id) for r in batch)
        assert await second.due_reminders(100.0 + REMINDER_LEASE - 1) == []
        again = await second.due_reminders(100.0 + REMINDER_LEASE)
        assert sorted(r.encounter_id for r in again) == sorted(ids)
    finally:
        await first.close()
        await second.close()


async def test_a_released_reminder_is_due_again_at_once_for_any_process(pg_server: PgServer) -> None:
    """A claimed reminder that could not be sent, given back, is due again at its old time for the other process; one bumped meanwhile is not moved back."""
    url = await pg_server.fresh_url()
    first, second = await open_store(url), await open_store(url)
    try:
        for k in range(2):
            created = await first.create_encounter(f"c{k}", "g", enc(), 1.0)
            await first.apply(change(created.id, f"i{k}", reminder=Reminder(created.id, f"c{k}", 10.0 + k, ["u"], "t")))
        failed, sent = await first.due_reminders(100.0)
        await first.bump_reminder(sent.encounter_id, 5000.0)
        await first.release_reminder(failed)
        await first.release_reminder(sent)  # too late: it was nudged, and stays where the bump put it
        again = await second.due_reminders(100.0)
        assert [(r.encounter_id, r.due_at) for r in again] == [(failed.encounter_id, 10.0)]
        assert [r.encounter_id for r in await second.due_reminders(4999.0)] == [failed.encounter_id]
    finally:
        await first.close()
        await second.close()
