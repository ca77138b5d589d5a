"""The real discord.py command path, driven offline through the harness (bot/offline/harness.py)."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.offline.harness import Clock, Harness, Sent, channel_id_of, user_id_of
from tests.backends import on_each_backend  # noqa: F401 (the h harness on SQLite and PostgreSQL)
from tests.cogs.fights import BORIN, GRAK, export, setup_fight


def replies(sent: list[Sent]) -> list[Sent]:
    return [s for s in sent if s.kind in ("response", "followup")]


async def test_start_posts_a_reply_and_a_status_board(h: Harness) -> None:
    """/encounter start answers, posts one board message, and names the caller GM."""
    sent = await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    assert sent[0].kind == "response" and "Bridge" in sent[0].text
    assert [s.kind for s in sent].count("channel") == 1
    data = await export(h)
    assert data["map"] == {"kind": "square", "width": 8, "height": 6, "blocked": [], "terrain": {}, "heights": {}}
    assert data["gm_ids"] == [str(user_id_of("gm"))]


async def test_second_encounter_in_a_channel_is_refused_but_a_thread_works(h: Harness) -> None:
    """One active encounter per channel; another channel (a thread) can have its own."""
    await h.run("gm", "/encounter start", system="coup-de-grace")
    sent = await h.run("gm", "/encounter start", system="coup-de-grace")
    assert sent[0].ephemeral and "already has an encounter" in sent[0].text
    sent = await h.run("gm", "/encounter start", "thread-1", system="coup-de-grace")
    assert not sent[0].ephemeral


async def test_board_is_edited_in_place_and_reposted_when_deleted(h: Harness) -> None:
    """Changes edit the board message; a deleted board is posted again on the next change."""
    await setup_fight(h)
    board_posts = [s for s in h.recorder.sent if s.kind == "channel"]
    assert len(board_posts) == 1
    edits = [s for s in h.recorder.sent if s.kind == "channel_edit"]
    assert edits and edits[-1].message_id == board_posts[0].message_id and "Grak" in edits[-1].text
    h.recorder.deleted.add(board_posts[0].message_id)
    sent = await h.run("gm", "/combatant edit", name="Grak", sheet="hp=4")
    assert [s.kind for s in sent if s.kind.startswith("channel")] == ["channel"]
    new_id = sent[-1].message_id
    assert await h.bot.service.board_message(str(channel_id_of("general"))) == str(new_id)


async def test_player_cannot_add_someone_elses_combatant_and_nothing_changes(h: Harness) -> None:
    """A player adding a combatant owned by another is refused, ephemerally, and the state is unchanged."""
    await setup_fight(h)
    before = await export(h)
    sent = await h.run("bob", "/combatant add", name="Thrain", owner="@carol", sheet=BORIN)
    assert sent[0].ephemeral and "only their own" in sent[0].text
    assert await export(h) == before


async def test_player_adds_own_combatant(h: Harness) -> None:
    """A player's /combatant add without owner makes them the owner."""
    await setup_fight(h)
    await h.run("carol", "/combatant add", name="Thrain", side="dwarves", at="B3", sheet=BORIN)
    data = await export(h)
    thrain = next(c for c in data["combatants"] if c["name"] == "Thrain")
    assert thrain["owner_id"] == str(user_id_of("carol"))


async def test_non_gm_cannot_roll_initiative(h: Harness) -> None:
    """/init roll is the GM's; a player gets an ephemeral refusal that says why."""
    await setup_fight(h)
    sent = await h.run("bob", "/init roll")
    assert sent[0].ephemeral and "Only the GM" in sent[0].text


async def test_turn_change_pings_only_the_next_owner(h: Harness) -> None:
    """Starting combat posts a new message that mentions only the owners who must act next."""
    await setup_fight(h)
    await h.run("gm", "/combatant add", name="Thrain", owner="@carol", side="dwarves", at="B3", sheet=BORIN)
    sent = await h.run("gm", "/init roll")
    pings = [s for s in sent if s.pinged_users()]
    assert len(pings) == 1 and pings[0].kind == "followup"
    assert set(pings[0].pinged_users()) == {str(user_id_of("bob")), str(user_id_of("carol"))}
    others = [s for s in sent if s is not pings[0]]
    assert all(s.pinged_users() == [] for s in others)


async def test_combatant_named_everyone_pings_nobody(h: Harness) -> None:
    """Every message goes out with mentions restricted: @everyone in a name pings no one."""
    await h.run("gm", "/encounter start", system="coup-de-grace")
    await h.run("gm", "/combatant add", name="@everyone", sheet=GRAK, at="A1")
    await h.run("gm", "/combatant add", name="<@&123>", sheet=GRAK, at="A2")
    await h.run("gm", "/encounter status")
    for s in h.recorder.sent:
        assert s.allowed_mentions is not None, s
        assert not s.pings_everyone()
        assert not s.allowed_mentions.get("roles")
        assert "roles" not in (s.allowed_mentions.get("parse") or [])


async def test_undo_restores_exactly_and_repeats(h: Harness) -> None:
    """/undo brings back the exact state before each action, one action per call."""
    await setup_fight(h)
    s0 = await export(h)
    await h.run("gm", "/init roll", roll="6,1")
    s1 = await export(h)
    await h.run("gm", "/combatant edit", name="Grak", sheet="hp=5")
    assert await export(h) != s1
    await h.run("gm", "/undo")
    assert await export(h) == s1
    await h.run("gm", "/undo")
    assert await export(h) == s0
    sent = await h.run("bob", "/undo")
    assert sent[0].ephemeral and "Only the GM" in sent[0].text


async def test_log_shows_who_did_what_with_dice(h: Harness) -> None:
    """/log lists the accepted commands, newest last, with the dice rolled."""
    await setup_fight(h)
    await h.run("gm", "/init roll", roll="6,1")
    await h.run("gm", "/move", combatant="Borin", facing="N")
    await h.run("bob", "/move", facing="E")
    await h.run("bob", "/attack", target="Grak", weapon="hammer", roll="6")
    sent = await h.run("bob", "/log", count=3)
    text = sent[0].text
    assert "/attack" in text and "🎲 6" in text
    assert text.index("/move") < text.index("/attack")


async def test_export_import_round_trip(h: Harness, tmp_path: Path) -> None:
    """An exported encounter imported into another channel is the same encounter."""
    await setup_fight(h)
    await h.run("gm", "/init roll", roll="6,1")
    data = await export(h)
    path = tmp_path / "encounter.json"
    path.write_text(json.dumps(data))
    sent = await h.run("gm", "/encounter import", "other", file=str(path))
    assert not sent[0].ephemeral
    assert await export(h, "other") == data


@pytest.mark.parametrize(
    "content, message",
    [
        (b"not json", "not JSON"),
        (b'{"format": "x"}', "not a Skirmish export"),
        (b'{"format": "skirmish-encounter/1", "system": "chess"}', "Unknown system"),
        (b'{"format": "skirmish-encounter/1", "system": "coup-de-grace", "round": "two"}', "round"),
    ],
)
async def test_import_refuses_bad_files(h: Harness, tmp_path: Path, content: bytes, message: str) -> None:
    """A bad encounter.json gets a clear message and creates nothing."""
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    sent = await h.run("gm", "/encounter import", file=str(path))
    assert sent[0].ephemeral and message in sent[0].text
    sent = await h.run("gm", "/encounter status")
    assert "no encounter" in sent[0].text


async def test_import_refuses_overlapping_combatants(h: Harness, tmp_path: Path) -> None:
    """Two combatants on one cell in a file are refused."""
    await setup_fight(h)
    data = await export(h)
    data["combatants"][1]["position"] = data["combatants"][0]["position"]
    path = tmp_path / "e.json"
    path.write_text(json.dumps(data))
    sent = await h.run("gm", "/encounter import", "other", file=str(path))
    assert sent[0].ephemeral and "Two combatants stand at" in sent[0].text


async def test_duplicate_interaction_is_applied_once(h: Harness) -> None:
    """The same interaction delivered twice changes the encounter once."""
    await setup_fight(h)
    payload = h.payload("gm", "/combatant add", {"name": "Orc2", "sheet": GRAK, "side": "orcs", "at": "E5"})
    await h.run_payload(payload)
    await h.run_payload(payload)
    data = await export(h)
    assert [c["name"] for c in data["combatants"]].count("Orc2") == 1


async def test_gateway_delivery_runs_the_command_once(h: Harness) -> None:
    """INTERACTION_CREATE through the connection state runs the command; a second delivery changes nothing."""
    await setup_fight(h)
    payload = h.payload("gm", "/combatant add", {"name": "Orc3", "sheet": GRAK, "side": "orcs", "at": "E4"})
    sent = await h.deliver(payload)
    assert sent and sent[0].kind == "response" and "Orc3" in sent[0].text
    before = await export(h)
    await h.deliver(payload)
    assert await export(h) == before


async def test_state_and_dedupe_survive_a_restart(h: Harness) -> None:
    """After a restart on the same file the encounter is there, and an old interaction is still a duplicate."""
    await setup_fight(h)
    payload = h.payload("gm", "/combatant add", {"name": "Orc2", "sheet": GRAK, "side": "orcs", "at": "E5"})
    await h.run_payload(payload)
    before = await export(h)
    h2 = await h.restart()
    try:
        after = await export(h2)
        assert after == before
        await h2.run_payload(payload)
        assert await export(h2) == before
    finally:
        await h2.close()
        h.store = h2.store  # the fixture closes it again harmlessly


async def test_player_rolls_setting(h: Harness) -> None:
    """With player_rolls off, a player's roll: is refused but the GM's is used."""
    await setup_fight(h)
    await h.run("gm", "/init roll", roll="6,1")
    await h.run("gm", "/encounter settings", player_rolls="false")
    sent = await h.run("bob", "/attack", target="Grak", weapon="hammer", roll="6")
    assert sent[0].ephemeral and "turned off" in sent[0].text
    sent = await h.run("gm", "/attack", combatant="Borin", target="Grak", weapon="hammer", roll="6")
    assert not sent[0].ephemeral and "6" in sent[0].text


async def test_roll_command_limits_abuse(h: Harness) -> None:
    """/roll answers within limits and refuses expressions that roll too many dice."""
    sent = await h.run("amy", "/roll", dice="200d1")
    assert "Total: 200" in sent[0].text
    sent = await h.run("amy", "/roll", dice="1000d6")
    assert sent[0].ephemeral and "more than" in sent[0].text
    sent = await h.run("amy", "/roll", dice="1d6+" * 60 + "1")
    assert sent[0].ephemeral
    for s in h.recorder.sent:
        for e in s.embeds:
            assert len(e.get("description") or "") <= 4096


async def test_autocomplete_suggests_names_from_the_channel(h: Harness) -> None:
    """Target autocomplete lists the channel's combatants; weapon autocomplete the actor's weapons."""
    await setup_fight(h)
    names = await h.autocomplete("bob", "/attack", "target", "")
    assert set(names) == {"Borin", "Grak"}
    assert await h.autocomplete("bob", "/attack", "target", "gr") == ["Grak"]
    weapons = await h.autocomplete("bob", "/attack", "weapon", "", target="Grak")
    assert "hammer" in weapons
    assert await h.autocomplete("bob", "/act", "action", "") == []  # recover is for a downed mini
    await h.run("gm", "/encounter start", "ford", system="tote")
    await h.run("gm", "/combatant add", "ford", name="Ann", owner="@bob", sheet="hawk=2")
    assert await h.autocomplete("bob", "/act", "action", "ass", "ford") == ["assault", "assist"]
    assert await h.autocomplete("bob", "/move", "combatant", "") == ["Borin"]
    assert set(await h.autocomplete("gm", "/move", "combatant", "")) == {"Borin", "Grak"}


async def test_fifty_concurrent_commands_all_apply_once(h: Harness) -> None:
    """50 concurrent /combatant add on one channel: all apply, none twice, none lost."""
    await h.run("gm", "/encounter start", system="coup-de-grace", map="12x10")
    cells = [f"{chr(ord('A') + i % 12)}{i // 12 + 1}" for i in range(50)]
    await asyncio.gather(*(h.run("gm", "/combatant add", name=f"M{i}", sheet=GRAK, at=cells[i]) for i in range(50)))
    data = await export(h)
    assert sorted(c["name"] for c in data["combatants"]) == sorted(f"M{i}" for i in range(50))
    log = await h.store.log((await h.store.load_active(str(channel_id_of("general")))).id, 100)
    assert len(log) == 50


async def test_reminder_nudges_the_waiting_owner_after_the_setting(h: Harness) -> None:
    """A turn left waiting past reminder_hours gets one nudge pinging its owner; it survives a restart."""
    await setup_fight(h)
    await h.run("gm", "/encounter settings", reminder_hours="2")
    await h.run("gm", "/init roll", roll="6,1")
    clock: Clock = h.bot.service.clock
    clock.now += 3600
    assert await h.reminders() == []
    clock.now += 2 * 3600
    h2 = await h.restart()
    try:
        sent = await h2.reminders()
        assert len(sent) == 1 and sent[0].kind == "channel"
        assert sent[0].pinged_users() == [str(user_id_of("bob"))]
        assert await h2.reminders() == []
    finally:
        await h2.close()
        h.store = h2.store


async def test_a_reminder_that_could_not_be_sent_is_tried_again(h: Harness) -> None:
    """When Discord fails the nudge, the next pass sends it; after that it waits a full interval."""
    await setup_fight(h)
    await h.run("gm", "/encounter settings", reminder_hours="1")
    await h.run("gm", "/init roll", roll="6,1")
    clock: Clock = h.bot.service.clock
    clock.now += 2 * 3600
    h.recorder.fail_sends = 1
    assert await h.reminders() == []
    sent = await h.reminders()
    assert len(sent) == 1 and sent[0].pinged_users() == [str(user_id_of("bob"))]
    assert await h.reminders() == []
    clock.now += 3600
    assert len(await h.reminders()) == 1


async def test_encounter_end_is_gm_only_and_frees_the_channel(h: Harness) -> None:
    """Only the GM ends an encounter; afterwards a new one can start."""
    await setup_fight(h)
    sent = await h.run("bob", "/encounter end")
    assert sent[0].ephemeral
    await h.run("gm", "/encounter end", confirm="true")
    sent = await h.run("gm", "/encounter start", system="coup-de-grace")
    assert not sent[0].ephemeral


async def test_co_gm_can_run_the_encounter(h: Harness) -> None:
    """A co-GM added by the GM may use GM commands."""
    await setup_fight(h)
    await h.run("gm", "/encounter gm", user="@ann")
    sent = await h.run("ann", "/init roll")
    assert not sent[0].ephemeral


async def test_a_co_gm_cannot_remove_the_gm_who_made_them_one(h: Harness) -> None:
    """docs/commands.md: "`/encounter gm` ... GM: add or remove co-GMs" (the first GM, who started the
    encounter, is removed only by themselves): the co-GM's attempt is refused privately, saying so,
    and the GM still runs the encounter; the GM may step down once another GM is there."""
    await setup_fight(h)
    await h.run("gm", "/encounter gm", user="@ann")
    sent = await h.run("ann", "/encounter gm", user="@gm", remove="true")
    assert sent[0].ephemeral and "first GM" in sent[0].text and f"Only <@{user_id_of('gm')}> can remove themselves as GM" in sent[0].text
    sent = await h.run("gm", "/init roll")
    assert not sent[0].ephemeral
    sent = await h.run("gm", "/encounter gm", user="@gm", remove="true")
    assert not sent[0].ephemeral and "is no longer a GM here" in sent[0].text


async def test_owner_acts_only_for_own_combatants(h: Harness) -> None:
    """Bob cannot move Grak; the refusal says why."""
    await setup_fight(h)
    await h.run("gm", "/init roll", roll="6,1")
    sent = await h.run("bob", "/move", combatant="Grak", facing="N")
    assert sent[0].ephemeral and "not yours" in sent[0].text


async def test_terrain_marks_walls(h: Harness) -> None:
    """/encounter terrain puts walls in the export's blocked list; players may not mark."""
    await setup_fight(h)
    await h.run("gm", "/encounter terrain", cells="E1 E2", kind="wall")
    assert (await export(h))["map"]["blocked"] == ["E1", "E2"]
    sent = await h.run("bob", "/encounter terrain", cells="F1", kind="wall")
    assert sent[0].ephemeral


async def test_map_is_a_png(h: Harness) -> None:
    """/map replies with map.png."""
    await setup_fight(h)
    sent = await h.run("bob", "/map")
    files = [f for s in sent for f in s.files]
    assert files[0][0] == "map.png" and files[0][1][:8] == b"\x89PNG\r\n\x1a\n"


async def test_help_lists_sheet_keys(h: Harness) -> None:
    """/help system: shows the system's sheet keys, ephemerally."""
    sent = await h.run("amy", "/help", system="coup-de-grace")
    assert sent[0].ephemeral and "class" in sent[0].text and "weapons" in sent[0].text
