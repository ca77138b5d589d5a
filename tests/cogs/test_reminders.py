"""The turn clock through the harness: each reminder on its own, a floor, and a nudge limit."""
from __future__ import annotations

import asyncio
import sqlite3

import pytest
from pydantic import ValidationError

from bot.offline.harness import Clock, Harness, channel_id_of, user_id_of
from bot.settings import Settings as BotSettings
from rules.models import Settings as EncounterSettings
from rules.registry import get_system
from tests.cogs.fights import BORIN, GRAK

HOUR = 3600


def clock_of(h: Harness) -> Clock:
    return h.bot.service.clock


async def waiting_turn(h: Harness, channel: str = "general", **settings: str) -> None:
    """A started fight whose first turn is Borin's (owned by bob), with the given settings."""
    await h.run("gm", "/encounter start", channel, system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", channel, name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=BORIN)
    await h.run("gm", "/combatant add", channel, name="Grak", side="orcs", at="D3", facing="W", sheet=GRAK)
    await h.run("gm", "/encounter settings", channel, **settings)
    await h.run("gm", "/init roll", channel, roll="6,1")


async def test_one_broken_reminder_does_not_stop_the_others(h: Harness) -> None:
    """A stored reminder that cannot be read (its start a word, not a time) is logged and skipped; another channel's
    still goes out."""
    await waiting_turn(h, "general", reminder_hours="1")
    await waiting_turn(h, "other", reminder_hours="1")
    with sqlite3.connect(h.store_path) as db:
        db.execute(
            "UPDATE reminders SET since = ? WHERE channel_id = ?", ("carol", str(channel_id_of("general")))
        )
    clock_of(h).now += 2 * HOUR
    sent = await h.reminders()
    assert [s.channel for s in sent] == [str(channel_id_of("other"))]
    assert sent[0].pinged_users() == [str(user_id_of("bob"))]


async def test_a_stalled_channel_holds_no_other_reminder_back(h: Harness) -> None:
    """A channel whose send stalls does not hold back another channel's reminder (due later), and
    is given up after the send timeout and sent on the next pass."""
    await waiting_turn(h, "stuck", reminder_hours="1")
    clock_of(h).now += 60  # the other channel's reminder falls due a minute after the stuck one's
    await waiting_turn(h, "other", reminder_hours="1")
    clock_of(h).now += 2 * HOUR
    stuck, other = str(channel_id_of("stuck")), str(channel_id_of("other"))
    h.recorder.stalled.add(stuck)
    h.bot.reminder_timeout = 2.0
    async with asyncio.timeout(30):
        passing = asyncio.create_task(h.reminders())
        while not any(s.channel == other for s in h.recorder.sent) and not passing.done():
            await asyncio.sleep(0.01)
        assert not passing.done(), "the other channel's reminder waited for the stalled one"
        first = await passing
    assert [s.channel for s in first] == [other]
    h.recorder.stalled.clear()
    assert [s.channel for s in await h.reminders()] == [stuck]


@pytest.mark.parametrize("value", ["0.0001", "0.2", "721", "-1"])
async def test_reminder_hours_outside_the_range_is_refused(h: Harness, value: str) -> None:
    """reminder_hours is 0 or 0.25..720: anything else is refused with the range, and nothing changes."""
    await waiting_turn(h, reminder_hours="2")
    sent = await h.run("gm", "/encounter settings", reminder_hours=value)
    assert sent[0].ephemeral and "0.25" in sent[0].text and "720" in sent[0].text
    shown = await h.run("gm", "/encounter settings")
    assert "2 h" in shown[0].text


async def test_reminder_hours_at_the_floor_and_zero_are_accepted(h: Harness) -> None:
    """0.25 h and 0 (never) are both accepted."""
    await waiting_turn(h, reminder_hours="0.25")
    assert "0.25 h" in (await h.run("gm", "/encounter settings"))[0].text
    sent = await h.run("gm", "/encounter settings", reminder_hours="0")
    assert not sent[0].ephemeral and "Reminders: **off**" in sent[0].text


def test_default_reminder_hours_setting_has_the_same_floor() -> None:
    """DEFAULT_REMINDER_HOURS below 0.25 (but not 0) is refused at start; 0 and 0.25 are fine."""
    with pytest.raises(ValidationError, match="0.25"):
        BotSettings(default_reminder_hours=0.0001)
    assert BotSettings(default_reminder_hours=0).default_reminder_hours == 0
    assert BotSettings(default_reminder_hours=0.25).default_reminder_hours == 0.25


async def test_a_turn_gets_max_nudges_then_the_gm_alone_is_told_once(h: Harness) -> None:
    """With max_nudges 2, bob is nudged twice, then only the GM hears once, and then nothing, across a restart."""
    await waiting_turn(h, reminder_hours="1", max_nudges="2")
    bob, gm = str(user_id_of("bob")), str(user_id_of("gm"))
    clock = clock_of(h)
    pinged = []
    for _ in range(2):
        clock.now += HOUR
        sent = await h.reminders()
        assert len(sent) == 1
        pinged.append(sent[0].pinged_users())
    assert pinged == [[bob], [bob]]
    h2 = await h.restart()
    try:
        clock.now += HOUR
        sent = await h2.reminders()
        assert len(sent) == 1 and sent[0].pinged_users() == [gm]
        assert "Borin's turn has waited 3 h; players were nudged 2 times" in sent[0].text
        assert bob not in sent[0].content
        for _ in range(5):
            clock.now += HOUR
            assert await h2.reminders() == []
    finally:
        await h2.close()
        h.store = h2.store


async def test_max_nudges_defaults_to_three(h: Harness) -> None:
    """Without the setting, three nudges go to the player and the fourth due reminder goes to the GM."""
    await waiting_turn(h, reminder_hours="1")
    targets = []
    for _ in range(6):
        clock_of(h).now += HOUR
        targets += [s.pinged_users() for s in await h.reminders()]
    bob, gm = str(user_id_of("bob")), str(user_id_of("gm"))
    assert targets == [[bob], [bob], [bob], [gm]]
    assert "max_nudges" in (await h.run("gm", "/encounter settings"))[0].text


async def test_a_new_turn_gets_its_own_nudges(h: Harness) -> None:
    """After the GM was told, the next turn is nudged again from zero."""
    await waiting_turn(h, reminder_hours="1", max_nudges="0")
    clock_of(h).now += HOUR
    assert [s.pinged_users() for s in await h.reminders()] == [[str(user_id_of("gm"))]]
    await h.run("bob", "/init next", confirm="true")
    clock_of(h).now += HOUR
    assert len(await h.reminders()) == 1


@pytest.mark.parametrize("value", ["-1", "11"])
async def test_max_nudges_outside_the_range_is_refused(h: Harness, value: str) -> None:
    """max_nudges is 0..10: anything else is refused with the range, and nothing changes."""
    await waiting_turn(h, reminder_hours="1")
    sent = await h.run("gm", "/encounter settings", max_nudges=value)
    assert sent[0].ephemeral and "0 to 10" in sent[0].text
    assert "`max_nudges`: **3**" in (await h.run("gm", "/encounter settings"))[0].text


def test_a_stored_interval_below_the_floor_reads_back_raised_to_it() -> None:
    """An encounter saved with reminder_hours 0.0001 before the floor existed loads with 0.25, not an error."""
    assert EncounterSettings.model_validate({"reminder_hours": 0.0001}).reminder_hours == 0.25
    assert EncounterSettings.model_validate({"reminder_hours": 0}).reminder_hours == 0


async def test_a_nudge_carries_the_turns_buttons(h: Harness) -> None:
    """A nudge offers End turn (and Map on a map): the player pressing it from the reminder ends
    the turn; the GM's notice after the last nudge carries none."""
    from bot.offline.harness import buttons_of

    await waiting_turn(h, reminder_hours="1", max_nudges="1")
    clock_of(h).now += HOUR
    [nudge] = await h.reminders()
    assert [b["label"] for b in buttons_of(nudge)] == ["End turn", "Map"]
    clock_of(h).now += HOUR
    [notice] = await h.reminders()
    assert buttons_of(notice) == []
    await h.press("bob", "End turn")  # the latest message with it: the nudge
    enc = await h.bot.service.encounter(str(channel_id_of("general")))
    assert enc is not None and get_system(enc.system).turn(enc).actors == ("Grak",)


async def test_an_undone_init_roll_leaves_no_turn_to_remind(h: Harness) -> None:
    """docs/commands.md: "Every accepted command goes into the log, so `/undo` restores the state before it exactly";
    a fight that has not started has no turn, and no reminder goes out before `/init roll` ("When a turn has waited
    longer than the encounter's `reminder_hours`, its players ... are nudged"): the undone `/init roll` takes its
    turn's reminder and deadline with it (they went on nudging the GM in a fight not started)."""
    await waiting_turn(h, reminder_hours="1", deadline_hours="4")
    await h.run("gm", "/undo")
    clock_of(h).now += 25 * HOUR
    assert await h.reminders() == []
    with sqlite3.connect(h.store_path) as db:
        assert db.execute("SELECT count(*) FROM reminders").fetchone() == (0,)
