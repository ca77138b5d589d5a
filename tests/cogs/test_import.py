"""/encounter import: sizes and ids checked first, options as /encounter settings reads them,
replace:true over an active encounter, and one application per interaction."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.offline.harness import Harness, channel_id_of, user_id_of
from bot.service import Ctx, Service
from bot.service.porting import MAX_VALUES
from data.store import DuplicateInteraction, Store
from rules.errors import InputError, RulesError
from rules.system import MAX_COMBATANTS
from tests.backends import on_each_backend  # noqa: F401 (the h harness on SQLite and PostgreSQL)
from tests.cogs.fights import ADDS, BORIN, GRAK, MAPS, export

HOUR = 3600


async def _fight(h: Harness, channel: str = "general") -> dict[str, Any]:
    await h.run("gm", "/encounter start", channel, system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", channel, name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=BORIN)
    await h.run("gm", "/combatant add", channel, name="Grak", side="orcs", at="D3", facing="W", sheet=GRAK)
    exported = (await h.bot.service.export(Ctx(str(channel_id_of(channel)), str(user_id_of("gm"))))).file
    assert exported is not None
    return json.loads(exported[1])


def _refusal(data: Any, importer: str = "1") -> str:
    """The message with which read_export refuses ``data`` (fails if it is accepted)."""
    with pytest.raises(InputError) as info:
        Service.read_export(json.dumps(data).encode() if not isinstance(data, bytes) else data, importer)
    return info.value.message


async def test_twenty_thousand_combatants_are_refused_by_count_before_validation(h: Harness) -> None:
    """20,000 combatants (one of them invalid far down the list) are refused by their count, naming the limit."""
    data = await _fight(h)
    data["combatants"] = [{"name": f"Orc{i}"} for i in range(20_000)]
    data["combatants"][5000]["hp"] = "lots"
    data["order"] = []
    message = _refusal(data)
    assert "20000 combatants" in message and f"at most {MAX_COMBATANTS}" in message


async def test_deep_nesting_is_refused_not_a_recursion_error(h: Harness) -> None:
    """A file nested 100,000 deep, or 30 deep in a state, is refused with the depth limit."""
    data = await _fight(h)
    assert "nested" in _refusal(b"[" * 100_000 + b"]" * 100_000)
    deep: Any = 1
    for _ in range(30):
        deep = [deep]
    data["state"]["junk"] = deep
    assert "nested more than 20" in _refusal(data)


@pytest.mark.parametrize(
    "path, value, words",
    [
        (("map", "blocked"), ["A1"] * 49, "at most 48 walls"),
        (("combatants", 0, "name"), "B" * 2000, "at most 1000 characters"),
        (("combatants", 0, "sheet"), {f"k{i}": 1 for i in range(200)}, "at most 100 keys"),
        (("combatants", 0, "hp"), 10**40, "too large"),
        (("round",), 1e300, "too large"),
        (("round",), float("inf"), "`Infinity`"),
        (("order",), ["Borin"] * (MAX_COMBATANTS + 1), f"at most {MAX_COMBATANTS} names"),
        (("gm_ids",), [str(i) for i in range(30)], "at most 25"),
        (("state", "junk"), [[0] * 3000 for _ in range(MAX_VALUES // 3000 + 1)], f"more than {MAX_VALUES} values"),
    ],
    ids=["walls", "long-name", "sheet-keys", "huge-int", "huge-float", "infinity", "long-order", "many-gms", "values"],
)
async def test_sizes_are_refused_naming_the_limit(h: Harness, path: tuple[Any, ...], value: Any, words: str) -> None:
    """Each list, key count, string and number over its bound is refused with a message naming the bound."""
    data = await _fight(h)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    assert words in _refusal(data)


@pytest.mark.parametrize("field", ["owner", "gm"])
@pytest.mark.parametrize("bad", ["carol", "", "-1", "1" * 21, str(2**64), "12 34", "１２３"])
async def test_user_ids_must_be_snowflakes(h: Harness, field: str, bad: str) -> None:
    """An owner or GM id that is not a Discord snowflake is refused, naming the field."""
    data = await _fight(h)
    if field == "owner":
        data["combatants"][0]["owner_id"] = bad
        assert "combatants.0.owner_id" in _refusal(data)
    else:
        data["gm_ids"] = [data["gm_ids"][0], bad]
        assert "gm_ids.1" in _refusal(data)


async def test_a_snowflake_at_the_edge_of_64_bits_is_accepted(h: Harness) -> None:
    """The largest 64-bit id is a valid owner."""
    data = await _fight(h)
    data["combatants"][0]["owner_id"] = str(2**64 - 1)
    enc = Service.read_export(json.dumps(data).encode(), "1")
    assert enc.combatants[0].owner_id == str(2**64 - 1)


@pytest.mark.parametrize(
    "options, words",
    [
        ({"bogus": "1"}, "`bogus` is not an option of Coup-De-Grace"),
        ({"recover_on": "9"}, "recover_on"),
        ({"weapons": "x" * 501}, "at most 500 characters"),
    ],
)
async def test_options_are_read_as_settings_reads_them(h: Harness, options: dict[str, str], words: str) -> None:
    """Unknown keys, unusable values and over-long values in the file's options are refused as /encounter settings refuses them."""
    data = await _fight(h)
    data["settings"]["options"] = options
    assert words in _refusal(data)


async def test_import_over_an_active_encounter_needs_replace(h: Harness, tmp_path: Path) -> None:
    """The GM's import over a live encounter says to add replace:true and changes nothing; with it and Confirm, it replaces."""
    data = await _fight(h)
    data["name"] = "Second bridge"
    path = tmp_path / "e.json"
    path.write_text(json.dumps(data))
    before = await h.store.load_active(str(channel_id_of("general")))
    sent = await h.run("gm", "/encounter import", file=str(path))
    assert sent[0].ephemeral and "replace:true" in sent[0].text
    after = await h.store.load_active(str(channel_id_of("general")))
    assert before is not None and after is not None and after.encounter == before.encounter
    sent = await h.run("bob", "/encounter import", file=str(path), replace="true")
    assert sent[0].ephemeral and "Only the GM" in sent[0].text
    sent = await h.run("gm", "/encounter import", file=str(path), replace="true")
    assert sent[-1].ephemeral and "Replace the encounter?" in sent[-1].text
    sent = await h.press("gm", "Confirm")
    result = [s for s in sent if s.kind == "followup"]
    assert not result[0].ephemeral and "Imported Second bridge" in result[0].text
    enc = await h.bot.service.encounter(str(channel_id_of("general")))
    assert enc is not None and enc.name == "Second bridge"


async def test_import_into_an_empty_channel_delivered_twice_is_applied_once(h: Harness, tmp_path: Path) -> None:
    """The first import into an empty channel is logged with its interaction id; its second delivery changes nothing."""
    data = await _fight(h)
    path = tmp_path / "e.json"
    path.write_text(json.dumps(data))
    payload = h.payload("gm", "/encounter import", {"file": str(path), "replace": "true"}, "other")
    sent = await h.run_payload(payload)
    assert not sent[0].ephemeral
    cid = str(channel_id_of("other"))
    stored = await h.store.load_active(cid)
    assert stored is not None
    log = await h.store.log(stored.id, 10)
    assert [e.interaction_id for e in log] == [str(payload["id"])]
    sent = await h.run_payload(payload)
    assert sent[0].ephemeral and "already applied" in sent[0].text
    again = await h.store.load_active(cid)
    assert again is not None and again.encounter == stored.encounter and len(await h.store.log(again.id, 10)) == 1


async def test_a_repeated_first_import_after_a_restart_is_still_a_duplicate(store: Store) -> None:
    """A first import's interaction id is refused by the store even with nothing cached, and nothing is created."""
    service = Service(store)
    await service.start(Ctx("10", "1", interaction_id="100"), "tote", None, None, None)
    raw = (await service.export(Ctx("10", "1"))).file
    assert raw is not None
    ctx = Ctx("20", "1", interaction_id="200")
    await service.import_(ctx, raw[1])
    await service.end(Ctx("20", "1", interaction_id="201"))
    fresh = Service(store)
    with pytest.raises(DuplicateInteraction):
        await fresh.import_(ctx, raw[1])
    assert await store.load_active("20") is None


async def test_the_imported_state_reads_back_as_a_load_reads_it(h: Harness) -> None:
    """What read_export returns is what a load of its JSON gives."""
    data = await _fight(h)
    enc = Service.read_export(json.dumps(data).encode(), str(user_id_of("gm")))
    assert type(enc).model_validate_json(enc.model_dump_json()) == enc
    with pytest.raises(RulesError):
        Service.read_export(json.dumps(dict(data, winner=5)).encode(), "1")


@pytest.mark.parametrize(
    "key, value, words",
    [
        ("deadline_hours", 0.001, "`deadline_hours` is 0 (no deadline) or from 1 to"),
        ("reminder_hours", 0.01, "`reminder_hours` is 0 (never) or from 0.25 to"),
        ("reminder_hours", 10_000, "`reminder_hours` is 0 (never) or from 0.25 to"),
    ],
)
async def test_the_turn_clock_is_read_as_settings_reads_it(h: Harness, key: str, value: float, words: str) -> None:
    """A deadline or reminder interval outside the ranges /encounter settings takes is refused, not stored."""
    data = await _fight(h)
    data["settings"][key] = value
    assert words in _refusal(data)


@pytest.mark.parametrize(
    "where, value, words",
    [
        ("name", "Gr\x00ak", "`combatants.1.name` in the file holds a NUL"),
        ("name", "Gr\x07ak", "control characters"),
        ("side", "   ", "A side needs a name of 1 to 40 characters"),
        ("side", "", "A side needs a name of 1 to 40 characters"),
        ("side", "orcs\x1b", "control characters"),
    ],
)
async def test_names_and_sides_are_read_as_the_commands_read_them(h: Harness, where: str, value: str, words: str) -> None:
    """A combatant's name or side that /combatant add would refuse (control characters, an empty side) is refused in a file too."""
    data = await _fight(h)
    data["combatants"][1][where] = value
    assert words in _refusal(data)


async def test_nul_and_lone_surrogates_anywhere_are_refused(h: Harness) -> None:
    """A NUL or half a surrogate pair in any text of a file (here the encounter's name and a sheet key) is refused, naming where."""
    data = await _fight(h)
    raw = json.dumps(data).replace('"name": "Bridge"', '"name": "Bri\\ud800dge"').encode()
    assert "`name` in the file holds a NUL or a broken character" in _refusal(raw)
    data["combatants"][0]["sheet"]["x\u0000"] = 1
    assert "combatants.0.sheet` in the file holds a NUL" in _refusal(data)


async def _clocked_file(h: Harness, tmp_path: Path) -> Path:
    """A started fight in #general whose first turn is Borin's (bob's), with a 2 h reminder and a 4 h deadline
    (policy pass), exported to a file."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=BORIN)
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet=GRAK)
    await h.run("gm", "/encounter settings", reminder_hours="2", deadline_hours="4", deadline_policy="pass")
    await h.run("gm", "/init roll", roll="6,1")
    exported = (await h.bot.service.export(Ctx(str(channel_id_of("general")), str(user_id_of("gm"))))).file
    assert exported is not None
    path = tmp_path / "encounter.json"
    path.write_bytes(exported[1])
    return path


async def _clock_runs_from_the_import(h: Harness, sent: list[Any], channel: str) -> None:
    """The import pinged bob (Borin's turn) once, and that turn's nudge (2 h), warning (3 h) and deadline (4 h)
    count from the import."""
    bob = str(user_id_of("bob"))
    pings = [s for s in sent if s.pinged_users()]
    assert [s.pinged_users() for s in pings] == [[bob]], "the import pings whoever must act, once"
    assert "your turn" in pings[0].text and pings[0].channel == str(channel_id_of(channel))
    clock = h.bot.service.clock
    start = clock.now
    clock.now = start + 2 * HOUR - 60
    assert await h.reminders() == []
    clock.now = start + 2 * HOUR
    [nudge] = await h.reminders()
    assert nudge.pinged_users() == [bob] and nudge.channel == str(channel_id_of(channel))
    clock.now = start + 3 * HOUR
    [warning] = await h.reminders()
    assert "deadline is in about 1 h" in warning.text
    clock.now = start + 4 * HOUR - 60
    assert await h.reminders() == []
    clock.now = start + 4 * HOUR
    sent = await h.reminders()
    assert any("Deadline" in s.text and "Borin's turn" in s.text for s in sent), "the deadline passes the turn"


async def test_an_import_of_a_fight_under_way_pings_the_turn_and_starts_its_clock(h: Harness, tmp_path: Path) -> None:
    """"An imported fight under way (with or without `replace:true`) comes in as a turn change: whoever must act
    is pinged, and that turn's reminders and deadline count from the import" (docs/commands.md): here into
    another channel (a thread), the fight's own channel having ended it."""
    path = await _clocked_file(h, tmp_path)
    await h.run("gm", "/encounter end", confirm="true")
    h.bot.service.clock.now += 10 * HOUR
    sent = await h.run("gm", "/encounter import", "thread", file=str(path))
    assert "Imported Bridge" in sent[0].text
    await _clock_runs_from_the_import(h, sent, "thread")


async def test_an_import_with_replace_restarts_the_turn_clock_from_the_import(h: Harness, tmp_path: Path) -> None:
    """A backup of the same turn imported with replace:true over the fight: the turn is pinged again and its
    deadline counts from the import, not from when the turn began."""
    path = await _clocked_file(h, tmp_path)
    h.bot.service.clock.now += 3 * HOUR
    [warning] = await h.reminders()
    assert "deadline is in about 1 h" in warning.text
    sent = await h.run("gm", "/encounter import", file=str(path), replace="true", confirm="true")
    assert any("Imported Bridge" in s.text for s in sent)
    await _clock_runs_from_the_import(h, sent, "general")


async def _open_fight(h: Harness) -> dict[str, Any]:
    """An Open d20 fight under way: Borin (bob's, 24 HP) and the GM's Goblin 1 (7 HP), exported."""
    await h.run("gm", "/encounter start", system="open", name="Crypt", map="12x10")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", at="C4", sheet="hp=24 ac=16")
    await h.run("gm", "/combatant add", name="Goblin 1", at="H4", sheet="hp=7 ac=15")
    await h.run("gm", "/init roll")
    return await export(h)


@pytest.mark.parametrize(
    "name, changes, words",
    [
        ("Goblin 1", {"hp": 50000}, "Goblin 1's `hp` in the file is 50000, above its most (7): write an `hp` from 1 to 7."),
        ("Borin", {"hp": -50}, "Borin's `hp` in the file is -50, below the least Open d20 counts (0): write an `hp` from 1 to 24."),
        ("Borin", {"hp": 0}, "Borin is `active` in the file with 0 HP, which Open d20 does not allow: write an `hp` from 1 "
                             "to 24 or `status` `downed`."),
        ("Borin", {"hp": 10, "status": "downed"}, "Borin is `downed` in the file with 10 HP, which Open d20 does not allow: "
                                                  "write an `hp` of 0 or `status` `active`."),
    ],
)
async def test_hit_points_the_sheet_would_not_give_are_refused_naming_what_to_write(
    h: Harness, tmp_path: Path, name: str, changes: dict[str, Any], words: str
) -> None:
    """"An import takes back exactly what an export wrote, checked"; "an `hp` above its most, below the least the
    system counts, or one its `status` does not have ... is refused, naming the combatant and what to write"
    (docs/commands.md): privately, and nothing is imported."""
    data = await _open_fight(h)
    next(c for c in data["combatants"] if c["name"] == name).update(changes)
    path = tmp_path / "hp.json"
    path.write_text(json.dumps(data))
    sent = await h.run("gm", "/encounter import", "thread", file=str(path))
    assert sent[0].ephemeral and words in sent[0].text
    assert await h.store.load_active(str(channel_id_of("thread"))) is None


@pytest.mark.parametrize(
    "system, name, changes, words",
    [
        ("coup-de-grace", "Grak", {"hp": 99}, "Grak's `hp` in the file is 99, above its most ("),
        ("coup-de-grace", "Grak", {"hp": -1}, "Grak is `active` in the file with -1 HP, which Coup-De-Grace does not "
                                              "allow: write an `hp` from 1 to"),
        ("knights-of-valour", "Borin", {"hp": -5}, "Borin is `active` in the file with -5 HP, which Knights of Valour does "
                                                   "not allow: write an `hp` from 1 to 10 or `status` `downed`."),
        ("knights-of-valour", "Borin", {"hp": 11}, "Borin's `hp` in the file is 11, above its most (10)"),
        ("tote", "Grak", {"hp": 9}, "Grak's `hp` in the file is 9, but its Injury Track has 6 of 6 boxes free (`state.filled` 0): "
                                    "write `hp` 6."),
        ("tote", "Grak", {"hp": 4}, "Grak's `hp` in the file is 4, but its Injury Track has 6 of 6 boxes free (`state.filled` 0): "
                                    "write `hp` 6, or mark 2 boxes with `state.filled` 2."),
        ("tote", "Grak", {"hp": 0, "status": "downed"}, "Grak's `hp` in the file is 0, but its Injury Track has 6 of 6 "
                                                         "boxes free (`state.filled` 0): write `hp` 6, or mark 6 boxes with `state.filled` 6."),
        ("tote", "Grak", {"hp": 6, "status": "downed"}, "Grak is `downed` in the file with 6 boxes of its Injury Track "
                                                         "free: write `status` `active`, or mark every box (`state.filled` 6, `hp` 0)."),
    ],
)
async def test_each_system_checks_hit_points_against_its_own_rules(
    h: Harness, system: str, name: str, changes: dict[str, Any], words: str
) -> None:
    """Each system with hit points checks a file's `hp` and `status` as its rules leave them."""
    await h.run("gm", "/encounter start", system=system, name="Ford", **({"map": MAPS[system]} if system in MAPS else {}))
    for add in ADDS[system]:
        await h.run("gm", "/combatant add", **add)
    data = await export(h)
    Service.read_export(json.dumps(data).encode(), "1")  # the file as exported imports; only the change is refused
    next(c for c in data["combatants"] if c["name"] == name).update(changes)
    assert words in _refusal(data)


async def test_a_file_whose_system_was_changed_says_whose_state_it_holds(h: Harness) -> None:
    """"a file whose `system` was changed is told which system its state is for" (docs/commands.md), not which
    inner key the validator stopped at."""
    data = await _open_fight(h)
    message = _refusal(dict(data, system="knights-of-valour"))
    assert "This file's state is for Open d20, not Knights of Valour: set its `system` back to `open`" in message
    assert "`area`" not in message and "Extra inputs" not in message


async def test_hit_points_beyond_any_sheet_name_the_combatant_and_the_range(h: Harness) -> None:
    """An `hp` beyond what any combatant holds names the combatant and the range, not the validator's words."""
    data = await _open_fight(h)
    data["combatants"][1]["hp"] = 200_000
    message = _refusal(data)
    assert "Goblin 1's `hp` in the file is 200000: a combatant's `hp` is from -100000 to 100000" in message
    assert "Input should be" not in message and "combatants.1" not in message


async def test_a_replace_confirmed_after_its_encounter_ended_replaces_nothing(h: Harness, tmp_path: Path) -> None:
    """docs/commands.md: "An `/encounter end` or import question is about the encounter it names: its Confirm once
    that encounter has ended says so and changes nothing": the GM's import asks to replace Bridge; Bridge is ended
    and another encounter started; the old question's Confirm replaces nothing (it replaced the new one)."""
    data = await _fight(h)
    data["name"] = "Second bridge"
    path = tmp_path / "e.json"
    path.write_text(json.dumps(data))
    sent = await h.run("gm", "/encounter import", file=str(path), replace="true")
    assert "Replace the encounter?" in sent[-1].text
    await h.run("gm", "/encounter end", confirm="true")
    await h.run("gm", "/encounter start", system="tote", name="New")
    sent = await h.press("gm", "Confirm")
    assert [s.text for s in sent if s.ephemeral][0].splitlines()[1].startswith("That fight has ended")
    enc = await h.bot.service.encounter(str(channel_id_of("general")))
    assert enc is not None and enc.name == "New"
