"""The service keeps every acknowledged change, never stores what it cannot read back, lets a
damaged channel be recovered, and keeps its in-memory maps bounded."""
from __future__ import annotations

import asyncio
import io
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.offline.harness import Clock, Harness, Sent, channel_id_of, user_id_of
from bot.service import Ctx, Service
from bot.service.cache import RESIDENT_PER_JSON_BYTE, resident_bytes
from data.sqlite import SqliteStore
from data.store import read_state
from rules.errors import IllegalAction, NotFound
from rules.registry import get_system
from tests.cogs import fights
from tests.cogs.fights import setup_fight


async def export(h: Harness, channel: str = "general") -> dict[str, Any]:
    """The channel's encounter as its GM exports it."""
    return await fights.export(h, channel, who="gm")


def reply_of(sent: list[Sent]) -> Sent:
    return next(s for s in sent if s.kind in ("response", "followup"))


def refused(s: Sent) -> bool:
    return s.ephemeral and any("Not done" in (e.get("title") or "") for e in s.embeds)


def cid(channel: str = "general") -> str:
    return str(channel_id_of(channel))


async def grak_side_everywhere(h: Harness, channel: str = "general") -> tuple[str, str]:
    """Grak's side as the service serves it (the cache) and as the store holds it."""
    enc = await h.bot.service.encounter(cid(channel))
    stored = await h.store.load_active(cid(channel))
    assert enc is not None and stored is not None and stored.encounter is not None
    return enc.get("Grak").side, stored.encounter.get("Grak").side


async def race(h: Harness, value: int, channel: str = "general") -> None:
    """An edit (/combatant edit) and a read (/encounter status) delivered together, in either order."""
    edit = h.payload("gm", "/combatant edit", {"name": "Grak", "side": f"orcs{value}"}, channel)
    status = h.payload("bob", "/encounter status", {}, channel)
    first, second = (edit, status) if value % 2 else (status, edit)
    sent = await asyncio.gather(h.run_payload(first), h.run_payload(second))
    assert not any(refused(s) for batch in sent for s in batch), [s.text for b in sent for s in b]


async def grak_side_after_a_restart(h: Harness) -> str:
    """Grak's side as a new bot process on the same database reads it."""
    h = await h.restart()
    try:
        return (await export(h))["combatants"][1]["side"]
    finally:
        await h.close()


# -- 1. an acknowledged edit survives a cold cache ---------------------------------------------------
async def test_edit_and_read_together_after_a_restart_lose_nothing(h: Harness) -> None:
    """100 times: a new Service on the same store, an edit and a read together; the edit is in the cache, the store and after a restart."""
    await setup_fight(h)
    old = h.bot.service
    for value in range(1, 101):
        h.bot.service = Service(h.store, rng=old.rng, clock=old.clock, maps=old.maps)
        await race(h, value)
        assert await grak_side_everywhere(h) == (f"orcs{value}", f"orcs{value}"), f"trial {value}"
    assert await grak_side_after_a_restart(h) == "orcs100"


async def test_edit_and_read_together_after_an_eviction_lose_nothing(h: Harness) -> None:
    """100 times: the channel falls out of a small cache, then an edit and a read together; nothing is lost."""
    await setup_fight(h)
    await setup_fight(h, "other")
    size = len((await h.store.load_active(cid())).raw_state)
    old = h.bot.service
    service = h.bot.service = Service(h.store, rng=old.rng, clock=old.clock, cache_bytes=size * 3 // 2, maps=old.maps)
    for value in range(1, 101):
        await service.status(Ctx(cid("other"), str(user_id_of("bob"))))
        assert cid() not in service.encounters.cache.entries  # evicted by the other channel's load
        await race(h, value)
        assert await grak_side_everywhere(h) == (f"orcs{value}", f"orcs{value}"), f"trial {value}"
    assert await grak_side_after_a_restart(h) == "orcs100"


# -- 2. no state that cannot be read back ---------------------------------------------------------------
async def test_a_rules_result_that_cannot_be_read_back_is_refused_and_changes_nothing(
    h: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A resolve that sets hit points below the model's floor is refused, logged, changes nothing, and the channel keeps working."""
    await setup_fight(h)
    before = await export(h)
    system = get_system("coup-de-grace")
    resolve = system.resolve

    def crafted(enc, action, dice, copy=None, turn=None):
        res = resolve(enc, action, dice, copy, turn)
        res.encounter.get("Grak").hp = -999_999
        return res

    monkeypatch.setattr(system, "resolve", crafted)
    with caplog.at_level(logging.ERROR):
        sent = await h.run("gm", "/combatant edit", name="Grak", side="ogres")
    assert refused(sent[0]) and "cannot be saved: nothing was changed" in sent[0].text
    assert any(r.levelno == logging.ERROR and "cannot be read back" in r.getMessage() for r in caplog.records)
    monkeypatch.undo()
    assert await export(h) == before
    sent = await h.run("gm", "/combatant edit", name="Grak", side="trolls")
    assert not refused(sent[0])
    h = await h.restart()
    try:
        sent = await h.run("bob", "/encounter status")
        assert not refused(sent[0]) and "Grak" in sent[0].text
        assert (await export(h))["combatants"][1]["side"] == "trolls"
    finally:
        await h.close()


async def test_an_action_resolves_in_place_and_reads_back_only_what_changed(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a write, the next action changes the cached encounter itself (no copy), and its
    read-back check parses only what changed: the other fields and the one combatant edited."""
    import json

    from rules.models import Encounter

    await setup_fight(h)
    await h.run("gm", "/combatant edit", name="Grak", side="ogres")
    live = h.bot.service.encounters.cache.entries[cid()]
    enc = live.enc
    parsed: list[dict[str, Any]] = []
    real = Encounter.model_validate_json.__func__

    def counted(cls, data, **kw):
        parsed.append(json.loads(data))
        return real(cls, data, **kw)

    monkeypatch.setattr(Encounter, "model_validate_json", classmethod(counted))
    sent = await h.run("gm", "/combatant edit", name="Grak", side="trolls")
    assert not refused(sent[0])
    assert live.enc is enc and enc.get("Grak").side == "trolls"
    assert len(parsed) == 1
    assert [c["name"] for c in parsed[0]["combatants"]] == ["Grak"] and "map" not in parsed[0]
    monkeypatch.undo()
    assert (await export(h))["combatants"][1]["side"] == "trolls"


async def test_an_undo_of_a_recent_write_parses_only_what_differs_from_the_state_now(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """`/undo` of one of the last writes rebuilds the state before it from the parts the cache
    still holds: it parses only what differs from the state now (a map, a combatant, the other
    fields), never the whole state, and rebuilds nothing from the log; each undo gives back
    exactly the state before its write, three in a row."""
    import json

    import data.sqlite
    from rules.models import Encounter

    await fights.started_cdg(h)
    states = [await export(h)]
    for user, command, options in (
        ("gm", "/move", {"combatant": "Borin", "to": "D3"}),
        ("gm", "/combatant edit", {"name": "Grak", "side": "trolls"}),
        ("gm", "/encounter terrain", {"cells": "A1", "kind": "wall"}),
    ):
        assert not refused((await h.run(user, command, **options))[0])
        states.append(await export(h))
    assert len({json.dumps(s, sort_keys=True) for s in states}) == 4
    parsed: list[dict[str, Any]] = []
    real = Encounter.model_validate_json.__func__

    def counted(cls, data, **kw):
        parsed.append(json.loads(data))
        return real(cls, data, **kw)

    def rebuilt(*args: Any) -> Any:
        raise AssertionError("the state before was rebuilt from the log")

    for expected in reversed(states[:-1]):
        parsed.clear()
        with monkeypatch.context() as m:
            m.setattr(Encounter, "model_validate_json", classmethod(counted))
            m.setattr(data.sqlite, "entries_with_states", rebuilt)
            sent = await h.run("gm", "/undo")
        assert not refused(sent[0]), sent[0].text
        assert parsed and all(len(p["combatants"]) < 2 for p in parsed), [[c["name"] for c in p["combatants"]] for p in parsed]
        assert await export(h) == expected


async def test_a_state_kept_for_undo_is_the_state_the_log_rebuilds_in_every_system(h: Harness) -> None:
    """Through the benchmark's fights of every system (set up, then three activations each: moves,
    attacks, edits, turns), each state before a write that the cache keeps rebuilds, from the
    parts that differ from the state now, into the very state the full JSON reads back as."""
    from bot.offline.bench.driver import _encounter
    from bot.offline.bench.mix import SCRIPTS, _activation, _setup_channel
    from bot.service.cache import LiveEntry

    encounters = h.bot.service.encounters
    compared = 0
    for i, script in enumerate(SCRIPTS):
        channel = f"kept-{i}"
        await _setup_channel(h, channel, script)
        for n in range(3):
            enc = await _encounter(h, channel)
            actor = get_system(script.system).turn(enc).actors[0]
            for payload in _activation(h, channel, script, enc, actor, n):
                await h.run_payload(payload)
                live = encounters.cache.entries[cid(channel)]
                assert isinstance(live, LiveEntry) and live.parts is not None
                for parts, _ in live.history.values():
                    kept, whole = encounters._held_state(live, parts), read_state(parts.whole())[0]
                    assert kept is not None and kept == whole and kept.model_dump_json() == parts.whole()
                    compared += 1
    assert compared > 60 * len(SCRIPTS)


async def test_a_loaded_encounter_reads_back_only_what_changed_if_stored_as_the_bot_writes_it(
    h: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a restart, the first write reads back only what changed when the stored JSON is
    exactly what the bot writes of the state it loaded (the load read that very text back);
    stored otherwise (here indented), the whole state."""
    import json

    from rules.models import Encounter

    parsed: list[dict[str, Any]] = []
    real = Encounter.model_validate_json.__func__

    def counted(cls, data, **kw):
        parsed.append(json.loads(data))
        return real(cls, data, **kw)

    await setup_fight(h)
    await h.run("gm", "/combatant edit", name="Grak", side="ogres")
    h = await h.restart()
    try:
        await h.run("gm", "/encounter status")  # loaded
        monkeypatch.setattr(Encounter, "model_validate_json", classmethod(counted))
        sent = await h.run("gm", "/combatant edit", name="Grak", side="trolls")
        assert not refused(sent[0])
        assert [[c["name"] for c in p["combatants"]] for p in parsed] == [["Grak"]]
        monkeypatch.undo()
    finally:
        await h.close()
    stored = json.dumps(json.loads(read_raw(tmp_path)), indent=1)
    h, _ = await damaged(h, tmp_path, stored)
    try:
        await h.run("gm", "/encounter status")  # loaded from JSON the bot does not write so
        parsed.clear()
        monkeypatch.setattr(Encounter, "model_validate_json", classmethod(counted))
        sent = await h.run("gm", "/combatant edit", name="Grak", side="ogres")
        assert not refused(sent[0])
        assert [[c["name"] for c in p["combatants"]] for p in parsed] == [["Borin", "Grak"]]
        monkeypatch.undo()
        assert (await export(h))["combatants"][1]["side"] == "ogres"
    finally:
        await h.close()


async def test_a_refused_action_leaves_no_spoiled_copy_behind(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """An action refused after it changed the encounter changes nothing: the cached state is put
    back in place (whoever holds it sees it as stored), and the next action starts from it."""
    from rules.errors import IllegalAction

    await setup_fight(h)
    await h.run("gm", "/combatant edit", name="Grak", side="ogres")
    system = get_system("coup-de-grace")
    resolve = system.resolve

    def spoiling(enc, action, dice, copy=None, turn=None):
        if copy is not None:
            copy.get("Grak").side = "spoiled"
        raise IllegalAction("Refused after a change.")

    monkeypatch.setattr(system, "resolve", spoiling)
    held = h.bot.service.encounters.cache.entries[cid()].enc
    sent = await h.run("gm", "/combatant edit", name="Grak", side="trolls")
    assert refused(sent[0])
    assert h.bot.service.encounters.cache.entries[cid()].enc is held and held.get("Grak").side == "ogres"
    monkeypatch.setattr(system, "resolve", resolve)
    sent = await h.run("gm", "/combatant edit", name="Grak", facing="N")
    assert not refused(sent[0])
    exported = await export(h)
    assert [c["side"] for c in exported["combatants"] if c["name"] == "Grak"] == ["ogres"]


async def test_the_status_board_is_drawn_once_a_change_for_each_view(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The board is drawn once per version of the encounter and per view (the GM's with every
    number, the players' with conditions), whoever reads it: `/encounter status` and the
    channel's status board message share it, and a change draws it anew."""
    from bot.service import cache

    await setup_fight(h)
    drawn: list[bool] = []
    real = cache.board_report

    def counted(system, enc, numbers=False, facts=None):
        drawn.append(numbers)
        return real(system, enc, numbers, facts)

    monkeypatch.setattr(cache, "board_report", counted)

    async def board(who: str) -> str:
        return reply_of(await h.run(who, "/encounter status")).text

    gm, player = await board("gm"), await board("bob")
    assert gm != player  # the GM's own view shows Grak's numbers
    assert await board("gm") == gm and await board("bob") == player and await board("alice") == player
    assert drawn == [True]  # the players' view was drawn already, for the status board message
    await h.run("gm", "/combatant edit", name="Grak", side="ogres")  # the board message is redrawn
    after = await board("bob")
    assert after != player and "ogres" in after
    assert drawn == [True, False]


async def test_a_turn_change_works_its_facts_out_once_for_its_ping_and_its_board(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the board and the turn line show (the system's facts) is worked out once a version:
    the turn ping of `/init next` and the status board after it share it, and a write that
    changes no turn leaves it to the board."""
    await setup_fight(h)
    await h.run("gm", "/init roll")
    system = get_system("coup-de-grace")
    worked: list[int] = []
    real = system.facts

    def counted(enc):
        worked.append(len(enc.combatants))
        return real(enc)

    monkeypatch.setattr(system, "facts", counted)
    sent = await h.run("gm", "/init next", confirm=True)
    assert any(s.pinged_users() for s in sent), [s.text for s in sent]  # the turn's ping
    await h.run("bob", "/encounter status")
    await h.run("gm", "/encounter status")
    assert worked == [2]
    await h.run("gm", "/combatant edit", name="Grak", side="ogres")
    await h.run("bob", "/encounter status")
    assert worked == [2, 2]


async def test_knights_of_valour_delay_far_below_the_floor_leaves_the_channel_working(h: Harness) -> None:
    """`/act action:delay options:"to=-999999"` is refused, changes nothing, and the channel works after a restart."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Dunmere", map="12x10")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C4", sheet="hp=14 weapons=warhammer:2")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="H4", sheet="hp=12 weapons=warhammer:2")
    await h.run("gm", "/init roll")
    before = await export(h)
    sent = await h.run("gm", "/act", combatant=before["current"], action="delay", options="to=-999999")
    assert refused(reply_of(sent))
    assert await export(h) == before
    h = await h.restart()
    try:
        sent = await h.run("bob", "/encounter status")
        assert not refused(sent[0])
        assert await export(h) == before
    finally:
        await h.close()


# -- 3. a damaged channel can be recovered ------------------------------------------------------------------
def read_raw(tmp_path: Path) -> str:
    """The stored JSON of #general's active encounter (the bot closed)."""
    with sqlite3.connect(str(tmp_path / "bot.db")) as conn:
        [(raw,)] = conn.execute("SELECT state FROM encounters WHERE channel_id = ? AND active = 1", (cid(),)).fetchall()
    return str(raw)


async def damaged(h: Harness, tmp_path: Path, state: str | None = None) -> tuple[Harness, str]:
    """Restart the bot on a store whose row for #general was damaged behind its back; return the raw row."""
    await h.close()
    path = str(tmp_path / "bot.db")
    with sqlite3.connect(path) as conn:
        if state is None:
            conn.execute(
                "UPDATE encounters SET state = json_set(state, '$.combatants[1].initiative', -999999) WHERE channel_id = ?",
                (cid(),),
            )
        else:
            conn.execute("UPDATE encounters SET state = ? WHERE channel_id = ?", (state, cid()))
        [(raw,)] = conn.execute("SELECT state FROM encounters WHERE channel_id = ? AND active = 1", (cid(),)).fetchall()
    return await Harness.create(path, seed=7, clock=h.bot.service.clock), raw


async def test_a_damaged_encounter_says_so_and_the_gm_can_export_and_undo_it(h: Harness, tmp_path: Path) -> None:
    """Every command in a damaged channel answers in one line; export gives the stored JSON; /undo restores; other channels work."""
    await setup_fight(h)
    await setup_fight(h, "other")
    await h.run("gm", "/combatant edit", name="Grak", side="ogres")
    h, raw = await damaged(h, tmp_path)
    try:
        for who, command, options in [
            ("bob", "/encounter status", {}),
            ("gm", "/combatant edit", {"name": "Grak", "sheet": "hp=3"}),
            ("gm", "/init next", {}),
            ("bob", "/log", {}),
            ("bob", "/map", {}),
            ("gm", "/encounter start", {"system": "tote"}),
        ]:
            sent = await h.run(who, command, **options)
            text = reply_of(sent).text
            assert refused(reply_of(sent)) and "encounter could not be read (" in text, (command, text)
            assert "/encounter export" in text and "/undo" in text and "/encounter end" in text
        sent = await h.run("bob", "/encounter status", "other")
        assert not refused(sent[0]) and "Grak" in sent[0].text
        h.bot.service.clock.now += 3 * 24 * 3600
        await h.reminders()  # a damaged encounter does not break the reminder pass
        sent = await h.run("gm", "/encounter export")
        assert [f for s in sent for f in s.files][0][1].decode() == raw
        for command in ("/undo", "/encounter end"):
            sent = await h.run("bob", command)
            assert refused(sent[0]) and "Only the GM" in sent[0].text
        sent = await h.run("gm", "/undo")
        assert not refused(sent[0]), sent[0].text
        data = await export(h)
        assert data["combatants"][1]["side"] == "orcs" and data["combatants"][1]["initiative"] is None
        sent = await h.run("gm", "/combatant edit", name="Grak", side="trolls")
        assert not refused(sent[0])
    finally:
        await h.close()


async def test_a_damaged_encounter_that_is_not_json_can_be_ended(h: Harness, tmp_path: Path) -> None:
    """A row that is not even JSON: export gives it as stored, the GM ends it, and a new one starts."""
    await setup_fight(h)
    h, raw = await damaged(h, tmp_path, state='{"format": "skirmish-encounter/1", broken')
    try:
        sent = await h.run("gm", "/encounter export")
        assert [f for s in sent for f in s.files][0][1].decode() == raw
        sent = await h.run("gm", "/encounter end")
        assert refused(sent[0]) is False and "End the encounter?" in sent[0].text
        sent = await h.press("gm", "Confirm")
        assert "has ended" in sent[-1].text, [s.text for s in sent]
        sent = await h.run("gm", "/encounter start", system="tote")
        assert not refused(sent[0]), sent[0].text
    finally:
        await h.close()


async def test_undo_of_a_damaged_encounter_whose_earlier_state_is_damaged_too_is_refused(h: Harness, tmp_path: Path) -> None:
    """If the last log row's state_before cannot be read either, /undo says so and changes nothing; /encounter end still works."""
    await setup_fight(h)
    await h.run("gm", "/combatant edit", name="Grak", side="ogres")
    await h.close()
    with sqlite3.connect(str(tmp_path / "bot.db")) as conn:
        conn.execute("UPDATE actions SET state_before = 'not json'")
    h, raw = await damaged(h, tmp_path, state="not json either")
    try:
        sent = await h.run("gm", "/undo")
        assert refused(sent[0]) and "could not be read" in sent[0].text
        sent = await h.run("gm", "/encounter export")
        assert [f for s in sent for f in s.files][0][1].decode() == raw
        sent = await h.run("gm", "/encounter end", confirm="true")
        assert not refused(sent[0]), sent[0].text
    finally:
        await h.close()


# -- 4. bounded memory ---------------------------------------------------------------------------------------
class CountingStore(SqliteStore):
    """A real SQLite store that counts the encounter loads it serves."""

    loads = 0

    async def load_active(self, channel_id: str):
        self.loads += 1
        return await super().load_active(channel_id)


async def test_channel_locks_are_released_when_idle(h: Harness) -> None:
    """After commands in 40 channels, some of them concurrent, no channel lock is kept."""
    for i in range(40):
        await h.run("gm", "/encounter start", f"c{i}", system="coup-de-grace")
    payloads = [h.payload("bob", "/encounter status", {}, f"c{i}") for i in range(40)]
    payloads += [h.payload("gm", "/encounter settings", {"player_rolls": "false"}, f"c{i}") for i in range(40)]
    payloads += [h.payload("bob", "/encounter status", {}, f"empty{i}") for i in range(40)]
    await asyncio.gather(*(h.run_payload(p) for p in payloads))
    assert len(h.bot.service.encounters.locks) == 0
    assert not h.bot.boards._tasks and not h.bot.boards._dirty


async def test_a_channel_lock_is_held_by_one_task_taken_again_by_it_and_forgotten_by_a_cancelled_waiter() -> None:
    """A channel's lock: a second task waits while the first holds it, the holder takes it again
    at once (and still holds it after), a waiter cancelled while waiting leaves no trace, and a
    lock nobody holds or waits for is forgotten."""
    from bot.service.locks import ChannelLocks

    locks, order = ChannelLocks(), []

    async def first() -> None:
        async with locks.hold("c"):
            order.append("first in")
            async with locks.hold("c"):  # again, in the task that holds it
                order.append("again")
            await asyncio.sleep(0.01)
            order.append("first out")

    async def second() -> None:
        async with locks.hold("c"):
            order.append("second")

    one = asyncio.ensure_future(first())
    await asyncio.sleep(0)
    waiter = asyncio.ensure_future(second())
    gone = asyncio.ensure_future(second())
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.gather(one, waiter, return_exceptions=True)
    assert gone.cancelled()
    assert order == ["first in", "again", "first out", "second"]
    assert len(locks) == 0


async def test_status_in_many_empty_channels_does_not_evict_a_live_encounter(tmp_path: Path) -> None:
    """10,000 status calls in empty channels leave a live encounter cached: it is not loaded again."""
    store = await CountingStore.open(str(tmp_path / "bot.db"))
    try:
        service = Service(store, clock=Clock())
        gm = str(user_id_of("gm"))
        await service.start(Ctx("1", gm), "coup-de-grace", "Bridge", "8x6", None)
        service = Service(store, clock=Clock())  # a restart: nothing cached
        store.loads = 0
        await service.status(Ctx("1", gm))
        assert store.loads == 1
        for i in range(10_000):
            with pytest.raises(NotFound):
                await service.status(Ctx(str(10_000 + i), gm))
        assert store.loads == 10_001
        await service.status(Ctx("1", gm))
        assert store.loads == 10_001
        await service.start(Ctx("10000", gm), "tote", None, None, None)  # an empty channel seen before
        assert (await service.status(Ctx("10000", gm))).report.title
    finally:
        await store.close()


async def test_the_encounter_cache_is_bounded_in_bytes(tmp_path: Path) -> None:
    """The cache's byte total (each entry's measured size) stays within its bound as encounters grow and multiply."""
    store = await SqliteStore.open(str(tmp_path / "bot.db"))
    try:
        bound = 6_000 * RESIDENT_PER_JSON_BYTE * 2
        service = Service(store, clock=Clock(), cache_bytes=bound)
        gm = str(user_id_of("gm"))
        for i in range(30):
            await service.start(Ctx(str(i), gm), "coup-de-grace", "x" * 90, "8x6", None)
            assert service.cached_bytes == sum(resident_bytes(live) for live in service.encounters.cache.entries.values())
            assert service.cached_bytes <= bound
        assert 0 < len(service.encounters.cache.entries) < 30
        for i in range(30):
            await service.settings(Ctx(str(i), gm), False, None, {})
            await service.status(Ctx(str(i), gm))
            assert service.cached_bytes == sum(resident_bytes(live) for live in service.encounters.cache.entries.values())
            assert service.cached_bytes <= bound
    finally:
        await store.close()


async def test_the_encounter_cache_holds_no_more_memory_than_its_bound(h: Harness, tmp_path: Path) -> None:
    """Filled past its bound with the benchmark's fights of every system, each loaded, written and read, the memory the cache holds (tracemalloc) is within its bound."""
    import tracemalloc

    from bot.offline.benchmark import (
        SCRIPTS,
        Bench,
        _setup_channel,
        cache_held,
        fill_cache,
    )

    async def fresh(name: str) -> str:
        return str(tmp_path / f"{name}.db")

    b = Bench(fresh, io.StringIO())
    for i, script in enumerate(SCRIPTS):
        await _setup_channel(h, f"set-{i}", script)
        b.templates[script.system] = await h.bot.service.encounter(cid(f"set-{i}"))
    service = h.bot.service
    bound = service.cache_bytes = 400_000  # about eight written fights of 2 KiB
    tracemalloc.start()
    try:
        await fill_cache(h, b, [(f"fill-{n}", SCRIPTS[n % len(SCRIPTS)]) for n in range(30)])
        assert 0 < service.cached_bytes <= bound
        cached = len(service.encounters.cache.entries)
        json_bytes, counted, freed = cache_held(service)
    finally:
        tracemalloc.stop()
    assert 5 <= cached < 30  # full, the least recently used gone
    assert counted <= bound and freed <= counted
    assert freed > 10 * json_bytes  # what it held is its encounters' models, many times their JSON


@pytest.mark.parametrize("system", fights.SYSTEMS)
async def test_a_state_the_bot_writes_is_read_back_without_the_upgrades_of_old_data(
    h: Harness, monkeypatch: pytest.MonkeyPatch, system: str
) -> None:
    """A command's new state is read back without the upgrades of data older code wrote (they
    run on loads), and reads back equal with them; so is a state before kept for undo, while
    one rebuilt from the log (older code may have written it) is upgraded."""
    from rules.registry import get_system

    calls: list[str] = []
    for key in fights.SYSTEMS:  # every system's upgrade counts its calls (TOTE's also upgrades)
        cls = type(get_system(key))
        old = cls.upgrade_state
        monkeypatch.setattr(cls, "upgrade_state", lambda self, data, old=old, key=key: calls.append(key) or old(self, data))
    await fights.borins_turn(h, system)
    calls.clear()
    await h.run("gm", "/combatant edit", name="Grak", side="orcs2")
    await h.run("gm", "/combatant edit", name="Grak", side="orcs3")
    assert calls == []  # the write's new state reads back without them
    await h.run("gm", "/undo")
    assert calls == []  # the state before, kept by the cache as this code wrote it
    h.bot.service.encounters.cache.drop(cid())
    await h.run("gm", "/undo")
    assert calls == [system] * 2  # the load, and the state before from the log (older code may have written it)
    enc = await h.bot.service.encounter(cid())
    assert enc is not None
    raw = enc.model_dump_json()
    current, upgraded = read_state(raw, current=True)[0], read_state(raw)[0]
    assert current == upgraded and current is not None and current.model_dump() == enc.model_dump()
    h = await h.restart()
    await h.run("gm", "/encounter status")
    assert calls == [system] * 4  # read_state(raw) above, and this load


async def test_every_young_every_th_encounter_cached_collects_the_young_generations(h: Harness) -> None:
    """Each YOUNG_EVERY-th encounter cached (loaded or written) collects the young generation, every YOUNG_MIDDLE-th time the middle one too."""
    import gc

    from bot.service.cache import YOUNG_EVERY, YOUNG_MIDDLE, StoredEntry

    service = h.bot.service
    generations: list[int] = []

    def seen(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop":
            generations.append(info["generation"])

    service.encounters.cache.puts = 0
    gc.callbacks.append(seen)
    gc.disable()  # only the cache's collections
    try:
        for n in range(2 * YOUNG_EVERY * YOUNG_MIDDLE):
            service.encounters.cache.put(StoredEntry(n, str(n % 7), "{}", None))
            assert len(generations) == (n + 1) // YOUNG_EVERY
    finally:
        gc.enable()
        gc.callbacks.remove(seen)
    assert generations == ([0] * (YOUNG_MIDDLE - 1) + [1]) * 2


async def test_the_service_is_composed_of_parts_given_their_dependencies(tmp_path: Path) -> None:
    """The service is no stack of base classes: its encounters (store, cache, locks) and its reminders (over the
    same encounters, dice and clock) are parts built once; without a map renderer `/map` is refused clearly."""
    store = await SqliteStore.open(str(tmp_path / "parts.db"))
    try:
        service = Service(store, clock=Clock(), cache_bytes=12345)
        assert Service.__mro__ == (Service, object)
        assert service.encounters.store is store and service.encounters.cache.bound == 12345
        assert service.reminders.encounters is service.encounters and service.reminders.rng is service.rng
        ctx = Ctx("c1", "1")
        await service.start(ctx, "coup-de-grace", "Bridge", None, None)
        with pytest.raises(IllegalAction, match="draws no map pictures"):
            await service.map_image(ctx)
    finally:
        await store.close()
