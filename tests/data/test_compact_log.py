"""The compact action log on both backends: deltas with periodic snapshots, undo exact over a
long history, rows written before the change, and compaction of ended encounters."""
from __future__ import annotations

import json
import random

from data import Change, Store
from data.delta import SNAPSHOT_EVERY, diff, patch
from rules.models import Encounter
from tests.data.stores import fight, query, step


class Log:
    """Writes changes the way the service does: each on the version it read."""

    def __init__(self, store: Store, encounter_id: int, state: Encounter) -> None:
        self.store, self.id, self.state, self.version, self.n = store, encounter_id, state, 0, 0

    async def write(self, new: Encounter, *, undo_of: int | None = None, active: bool = True) -> None:
        self.n += 1
        await self.store.apply(Change(
            encounter_id=self.id, encounter=new, interaction_id=f"e{self.id}-{self.n}", user_id="u",
            command="/undo" if undo_of else "act", summary="s", dice=[], now=100.0 + self.n,
            state_before=self.state.model_dump_json(), undoable=undo_of is None and active,
            undo_of=undo_of, version=self.version, active=active,
        ))
        self.state, self.version = new, self.version + 1

    async def undo(self) -> Encounter | None:
        """Undo the newest undoable row; the state it restored, or None when none is left."""
        entry = await self.store.last_undoable(self.id)
        if entry is None:
            return None
        assert entry.state_before is not None
        restored = Encounter.model_validate_json(entry.state_before)
        await self.write(restored, undo_of=entry.id)
        return restored


def test_diff_and_patch_round_trip() -> None:
    """A delta turns the state before into the state after, keys added, removed and lists grown or cut."""
    cases = [
        ({"a": 1, "b": [1, 2, 3], "c": {"d": None}}, {"a": 2, "b": [1, 5], "e": "x"}),
        ([1, {"x": [1]}], [1, {"x": [1, 2, 3]}, 4]),
        ({"a": 1}, [1]),
    ]
    for before, after in cases:
        import copy
        assert patch(copy.deepcopy(before), diff(json.dumps(before), json.dumps(after))) == after


def test_a_delta_of_two_texts_keeps_every_number_as_written() -> None:
    """Equal parts are skipped with one comparison, yet ``1``, ``1.0`` and ``true`` (equal in
    Python) stay different: the state rebuilt from the delta is the text after, exactly."""
    import copy

    cases = [
        ({"a": True, "b": [1, 2.5]}, {"a": 1, "b": [1.0, 2.5]}),
        ({"hp": 0, "x": {"y": [1e5, "1"]}}, {"hp": False, "x": {"y": [100000.0, 1]}}),
        ({"same": [{"k": [1, 2]}] * 3, "n": 1}, {"same": [{"k": [1, 2]}] * 3, "n": 2}),
        ({"a": 1}, [1]),
    ]
    for before, after in cases:
        ops = diff(json.dumps(before), json.dumps(after))
        assert ops is not None
        assert json.dumps(patch(copy.deepcopy(before), ops)) == json.dumps(after)
    # an unchanged part costs no operation
    assert diff(json.dumps(cases[2][0]), json.dumps(cases[2][1])) == [[["n"], 2]]
    assert diff("{", "{}") is None


async def test_undo_is_exact_over_a_long_history(store: Store) -> None:
    """Six hundred random moves, hits, turn ends and undos over 60 combatants: every undo restores the state recorded before its action, back to the start."""
    rng = random.Random(11)
    start = fight()
    created = await store.create_encounter("c", "g", start, 1.0)
    log = Log(store, created.id, start)
    history: list[Encounter] = [start]  # the states the undoable actions were applied to, oldest first
    for _ in range(600):
        if rng.random() < 0.15 and len(history) > 1:
            restored = await log.undo()
            assert restored == history.pop()
        else:
            history.append(log.state)
            await log.write(step(log.state, rng))
    snapshots = await query_count(store, created.id)
    assert 600 // SNAPSHOT_EVERY <= snapshots < 600 // 10
    while (restored := await log.undo()) is not None:
        assert restored == history.pop()
    assert history == [start] and log.state == start
    stored = await store.load_active("c")
    assert stored is not None and stored.encounter == start


async def query_count(store: Store, encounter_id: int) -> int:
    """How many log rows of the encounter hold a whole state."""
    url = getattr(store, "path", None) or store.url.replace("***", "")
    rows = await query(url, f"SELECT count(*) FROM actions WHERE encounter_id = {encounter_id} "
                            "AND state_before IS NOT NULL")
    return int(rows[0][0])


async def test_log_rebuilds_every_state_before(store: Store) -> None:
    """`log` gives each row's whole state before it, across snapshots, as it was when the row was written."""
    rng = random.Random(3)
    start = fight(8)
    created = await store.create_encounter("c", "g", start, 1.0)
    log = Log(store, created.id, start)
    befores = []
    for _ in range(2 * SNAPSHOT_EVERY + 7):
        befores.append(log.state)
        await log.write(step(log.state, rng))
    entries = await store.log(created.id, 80)
    assert [Encounter.model_validate_json(e.state_before or "") for e in entries] == befores[-80:]


async def test_old_rows_with_whole_states_still_undo(store: Store, url: str) -> None:
    """Rows written before the compact log (a whole state_before, no delta) undo exactly, and new rows chain on after them."""
    rng = random.Random(5)
    start = fight(4)
    created = await store.create_encounter("c", "g", start, 1.0)
    log = Log(store, created.id, start)
    first = step(start, rng)
    await log.write(first)
    second = step(first, rng)
    await log.write(second)
    await query(url, "UPDATE actions SET delta = NULL, version = NULL, chain = NULL")
    await query(url, f"UPDATE actions SET state_before = '{first.model_dump_json()}' WHERE "
                     f"interaction_id = 'e{created.id}-2'")
    third = step(second, rng)
    await log.write(third)
    assert await log.undo() == second
    assert await log.undo() == first
    assert await log.undo() == start
    assert await log.undo() is None


async def test_bytes_per_action_at_60_combatants(store: Store, url: str) -> None:
    """Three hundred moves, hits and turn ends over 60 combatants store under 1 KB of undo data per action."""
    rng = random.Random(7)
    start = fight()
    created = await store.create_encounter("c", "g", start, 1.0)
    log = Log(store, created.id, start)
    for _ in range(300):
        await log.write(step(log.state, rng))
    [(size, rows)] = await query(url, "SELECT sum(coalesce(length(state_before), 0) + "
                                      "coalesce(length(delta), 0)), count(*) FROM actions")
    assert len(start.model_dump_json()) > 5000
    assert size / rows < 1024


async def test_compact_drops_undo_data_of_old_ended_encounters_only(store: Store, url: str) -> None:
    """compact(now, days) drops snapshots and deltas of encounters ended before the retention; their log text, dice and final state stay, and the rest is untouched."""
    rng = random.Random(9)
    logs = []
    for channel in ("old", "recent", "active"):
        start = fight(4)
        created = await store.create_encounter(channel, "g", start, 1.0)
        log = Log(store, created.id, start)
        for _ in range(5):
            await log.write(step(log.state, rng))
        logs.append(log)
    old, recent, active = logs
    await old.write(old.state, active=False)  # ended at now=107
    recent.n = 86400 * 20
    await recent.write(recent.state, active=False)  # ended 20 days later
    before = await query(url, "SELECT id, summary, dice, command FROM actions ORDER BY id")
    now = 107 + 86400 * 40
    assert await store.compact(now, 0) == 0
    assert await store.compact(now, 30) == 6
    assert await store.compact(now, 30) == 0
    rows = await query(url, "SELECT encounter_id, count(*) FROM actions WHERE state_before IS NOT NULL "
                            "OR delta IS NOT NULL GROUP BY encounter_id ORDER BY encounter_id")
    assert rows == [(recent.id, 6), (active.id, 5)]
    assert await query(url, "SELECT id, summary, dice, command FROM actions ORDER BY id") == before
    [(state,)] = await query(url, f"SELECT state FROM encounters WHERE id = {old.id}")
    assert Encounter.model_validate_json(str(state)) == old.state
    entries = await store.log(old.id, 10)
    assert [e.summary for e in entries] == ["s"] * 6 and all(e.state_before is None for e in entries)
    assert await store.last_undoable(active.id) is not None


async def test_undo_bytes_counts_the_stored_undo_data_of_one_encounter(store: Store, url: str) -> None:
    """`Store.undo_bytes` gives the bytes of snapshots and deltas an encounter's log holds, and its row count."""
    rng = random.Random(3)
    start = fight(8)
    created = await store.create_encounter("c", "g", start, 1.0)
    other = await store.create_encounter("d", "g", start, 1.0)
    log = Log(store, created.id, start)
    for _ in range(20):
        await log.write(step(log.state, rng))
    await Log(store, other.id, start).write(step(start, rng))
    [(size, rows)] = await query(url, "SELECT sum(coalesce(length(state_before), 0) + coalesce(length(delta), 0)), "
                                      f"count(*) FROM actions WHERE encounter_id = {created.id}")
    assert await store.undo_bytes(created.id) == (size, rows) and rows == 20
