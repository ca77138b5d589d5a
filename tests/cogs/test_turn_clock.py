"""The turn clock's deadline (pass, hold, tell the GM), its warning, and `/notify` quiet hours and DMs."""
from __future__ import annotations

import logging
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.offline.harness import Clock, Harness, Sent, user_id_of
from tests.cogs.fights import BORIN, GRAK, export

HOUR = 3600


def clock_of(h: Harness) -> Clock:
    return h.bot.service.clock


def reply(sent: list[Sent]) -> Sent:
    """The reply to the command (not the board or a ping)."""
    return next(s for s in sent if s.kind in ("response", "followup"))


async def waiting_turn(h: Harness, system: str = "coup-de-grace", **settings: str) -> None:
    """A started fight whose first turn is Borin's (bob's) against Grak (the GM's), with ``settings``."""
    await h.run("gm", "/encounter start", system=system, name="Bridge", map="8x6")
    if system == "coup-de-grace":
        await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=BORIN)
        await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet=GRAK)
    else:
        await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="B2", sheet="agi=3 hp=10")
        await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F5", sheet="agi=0 hp=10")
    await h.run("gm", "/encounter settings", **settings)
    await h.run("gm", "/init roll", **({"roll": "6,1"} if system == "coup-de-grace" else {}))


async def test_a_warning_then_the_deadline_passes_the_turn(h: Harness) -> None:
    """With a 4 h deadline and policy pass, bob is warned 1 h before; at 4 h Borin's turn passes to Grak, pinging the GM."""
    await waiting_turn(h, reminder_hours="0", deadline_hours="4", deadline_policy="pass")
    clock = clock_of(h)
    clock.now += 2 * HOUR
    assert await h.reminders() == []
    clock.now += HOUR
    [warning] = await h.reminders()
    assert warning.pinged_users() == [str(user_id_of("bob"))]
    assert "deadline is in about 1 h (then the turn passes)" in warning.text
    clock.now += HOUR
    sent = await h.reminders()
    deadline = next(s for s in sent if "Deadline" in s.text)
    assert "Borin's turn" in deadline.text and "Grak" in deadline.text
    assert deadline.pinged_users() == [str(user_id_of("gm"))]
    assert "End turn" in str(deadline.payload.get("components")), "the new turn's message carries its buttons"
    log = reply(await h.run("gm", "/log", count="1")).text
    assert "⏰ the turn clock /init next: ⏰ Borin's turn passed its 4 h deadline (pass)" in log
    assert "Borin's activation ends" in log


async def test_a_deadline_that_passes_the_turn_edits_the_status_board(h: Harness) -> None:
    """The board follows the deadline's pass as it follows an `/init next`: edited to the next turn
    with the deadline's post, not left reading "Borin" until the next command."""
    await waiting_turn(h, reminder_hours="0", deadline_hours="4", deadline_policy="pass")
    start = len(h.recorder.sent)
    clock_of(h).now += 4 * HOUR
    await h.reminders()
    [board] = [s for s in h.recorder.sent[start:] if s.kind == "channel_edit"]
    assert "Round 1 · orcs to activate: Grak" in board.text and "**Borin** · C3 E · 3/3 HP · DV 5 · MA 4 · activated" in board.text


async def test_a_warning_less_than_an_hour_before_the_deadline_says_minutes(h: Harness) -> None:
    """"less than an hour before it, in minutes: `about 30 min`" (docs/commands.md): a 2 h deadline warns bob
    half an hour before, in minutes, not `about 0 h`."""
    page = " ".join((Path(__file__).parents[2] / "docs" / "commands.md").read_text(encoding="utf-8").split())
    assert "less than an hour before it, in minutes: `about 30 min`" in page
    await waiting_turn(h, reminder_hours="0", deadline_hours="2", deadline_policy="pass")
    clock_of(h).now += 1.5 * HOUR
    [warning] = await h.reminders()
    assert "⏳ your turn's deadline is in about 30 min (then the turn passes)" in warning.text
    assert "0 h" not in warning.text


async def test_undo_of_a_deadline_gives_the_turn_a_fresh_clock(h: Harness) -> None:
    """`/undo` brings Borin's turn back, and its deadline counts again from the undo."""
    await waiting_turn(h, reminder_hours="0", deadline_hours="4", deadline_policy="pass")
    clock = clock_of(h)
    before = await export(h)
    clock.now += 4 * HOUR
    await h.reminders()
    assert await export(h) != before
    await h.run("gm", "/undo")
    assert await export(h) == before
    clock.now += 2 * HOUR
    assert await h.reminders() == []
    clock.now += 2 * HOUR
    assert any("Deadline" in s.text for s in await h.reminders())


async def test_policy_gm_only_tells_the_gm_and_the_turn_waits(h: Harness) -> None:
    """Policy gm: at the deadline the GM alone is told, the turn stays Borin's, and nothing more is sent."""
    await waiting_turn(h, reminder_hours="0", deadline_hours="2", deadline_policy="gm")
    before = await export(h)
    clock_of(h).now += 2 * HOUR
    [notice] = await h.reminders()
    assert notice.pinged_users() == [str(user_id_of("gm"))]
    assert "passed its 2 h deadline" in notice.text and "it is up to you" in notice.text
    assert await export(h) == before
    clock_of(h).now += 10 * HOUR
    assert await h.reminders() == []


async def test_hold_where_the_system_cannot_hold_tells_the_gm(h: Harness) -> None:
    """Coup-De-Grace has no way to hold an action: the GM is told so, and nothing changes."""
    await waiting_turn(h, reminder_hours="0", deadline_hours="2", deadline_policy="hold")
    before = await export(h)
    clock_of(h).now += 2 * HOUR
    [notice] = await h.reminders()
    assert "Coup-De-Grace has no way to hold it" in notice.text
    assert await export(h) == before


async def test_hold_in_knights_of_valour_delays_after_the_next_combatant(h: Harness) -> None:
    """Knights of Valour holds by a delay: Borin acts after Grak, whose turn it now is."""
    await waiting_turn(h, system="knights-of-valour", reminder_hours="0", deadline_hours="2", deadline_policy="hold")
    clock_of(h).now += 2 * HOUR
    sent = await h.reminders()
    text = "\n".join(s.text for s in sent)
    assert "Deadline" in text and "delay" in text.lower()
    data = await export(h)
    assert data["current"] == "Grak"


async def test_hold_in_knights_of_valour_on_a_later_turn_says_why_this_turn_cannot_hold(h: Harness) -> None:
    """Knights of Valour: "At the start of a Round, Players may elect to reduce their Initiative": it holds by a
    delay, on the round's first turn only. Borin's turn comes after Grak's: the warning and the GM's notice say
    Borin cannot hold this turn, and why (it read "Knights of Valour has no way to hold it"); nothing changes."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="B2", sheet="agi=0 hp=10")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F5", sheet="agi=3 hp=10")
    await h.run("gm", "/encounter settings", reminder_hours="0", deadline_hours="4", deadline_policy="hold",
                options="delay=round")
    await h.run("gm", "/init roll")
    await h.run("gm", "/init next", confirm="true")
    clock_of(h).now += 3 * HOUR
    warning = "\n".join(s.text for s in await h.reminders())
    why = "Borin cannot hold this turn: a delay is made only at the start of a round, before anyone has acted"
    assert why in warning and "holds its action" not in warning, warning
    before = await export(h)
    clock_of(h).now += 1 * HOUR
    notice = "\n".join(s.text for s in await h.reminders())
    assert f"it is up to you ({why})" in notice and "has no way" not in notice, notice
    assert await export(h) == before


async def test_nudges_still_come_and_the_notice_keeps_the_deadline(h: Harness) -> None:
    """With reminders every hour and one nudge, bob is nudged, the GM is told the deadline still applies, then the warning comes."""
    await waiting_turn(h, reminder_hours="1", max_nudges="1", deadline_hours="8")
    clock = clock_of(h)
    texts = []
    for _ in range(6):
        clock.now += HOUR
        texts += [s.text for s in await h.reminders()]
    assert len(texts) == 3
    assert "still your turn" in texts[0]
    assert "Its deadline still applies" in texts[1]
    assert "deadline is in about 2 h" in texts[2]


async def test_a_deadline_set_mid_turn_counts_from_then_and_survives_a_restart(h: Harness) -> None:
    """Setting deadline_hours during a turn arms it from that moment; a restart keeps it."""
    await waiting_turn(h, reminder_hours="0")
    clock = clock_of(h)
    clock.now += 10 * HOUR
    await h.run("gm", "/encounter settings", deadline_hours="3", deadline_policy="gm")
    h2 = await h.restart()
    try:
        clock.now += 2 * HOUR
        assert await h2.reminders() == []
        clock.now += HOUR / 4  # a quarter of the deadline before it
        [warning] = await h2.reminders()
        assert "deadline is in about 45 min" in warning.text
        clock.now += 3 * HOUR / 4
        [notice] = await h2.reminders()
        assert "passed its 3 h deadline" in notice.text
    finally:
        await h2.close()
        h.store = h2.store


@pytest.mark.parametrize("value", ["0.5", "-1", "2161"])
async def test_deadline_hours_outside_the_range_is_refused(h: Harness, value: str) -> None:
    """deadline_hours is 0 or 1 to 2160, and a refusal says so."""
    await waiting_turn(h)
    r = reply(await h.run("gm", "/encounter settings", deadline_hours=value))
    assert r.ephemeral and "`deadline_hours` is 0 (no deadline) or from 1 to 2160 hours" in r.text


def at_utc(*args: int) -> float:
    return datetime(*args, tzinfo=timezone.utc).timestamp()


async def test_a_nudge_in_quiet_hours_waits_until_they_end(h: Harness) -> None:
    """bob is quiet 22:00-08:00 in Paris: a nudge due at 23:30 Paris time goes out at 08:00 Paris time."""
    clock = clock_of(h)
    clock.now = at_utc(2027, 1, 15, 21, 30)  # 22:30 in Paris (UTC+1 in January)
    r = reply(await h.run("bob", "/notify", quiet="22:00-08:00", tz="Europe/Paris"))
    assert r.ephemeral and "22:00-08:00 Europe/Paris" in r.text
    await waiting_turn(h, reminder_hours="1")
    clock.now += HOUR
    assert await h.reminders() == []
    clock.now = at_utc(2027, 1, 16, 6, 59)
    assert await h.reminders() == []
    clock.now = at_utc(2027, 1, 16, 7, 0)  # 08:00 in Paris
    [nudge] = await h.reminders()
    assert nudge.pinged_users() == [str(user_id_of("bob"))] and "still your turn" in nudge.text


async def test_dm_mode_sends_the_nudge_by_direct_message(h: Harness) -> None:
    """mode dm: the nudge reaches bob by DM and the channel message does not ping him; both does both."""
    await h.run("bob", "/notify", mode="dm")
    await waiting_turn(h, reminder_hours="1")
    clock_of(h).now += HOUR
    sent = await h.reminders()
    channel = [s for s in sent if s not in h.direct_messages("bob")]
    assert [s.pinged_users() for s in channel] == [[]]
    [dm] = h.direct_messages("bob")
    assert "still your turn" in dm.text and dm.pinged_users() == []
    await h.run("bob", "/notify", mode="both")
    clock_of(h).now += HOUR
    sent = await h.reminders()
    assert len(h.direct_messages("bob")) == 2
    assert any(s.pinged_users() == [str(user_id_of("bob"))] for s in sent)


async def test_dm_mode_keeps_a_copy_without_a_mention_in_the_channel_for_the_buttons(h: Harness) -> None:
    """`mode:dm` sends nudges "by direct message instead of a channel mention" (docs/commands.md):
    the nudge still shows in the channel, mentioning no one, because it carries the turn's End turn
    and Map buttons, which work only there ("End turn | the turn message, and the reminders and
    deadline warnings of that turn"); the DM has none. The /notify reply says so."""
    r = reply(await h.run("bob", "/notify", mode="dm"))
    assert r.ephemeral and "Nudges reach you by: **a direct message**" in r.text
    assert "also shows in the channel without mentioning you, for its End turn and Map buttons" in r.text
    for mode in ("channel", "both"):
        assert "without mentioning you" not in reply(await h.run("bob", "/notify", mode=mode)).text
    await h.run("bob", "/notify", mode="dm")
    await waiting_turn(h, reminder_hours="1")
    clock_of(h).now += HOUR
    sent = await h.reminders()
    [dm] = h.direct_messages("bob")
    [channel] = [s for s in sent if s is not dm]
    assert channel.pinged_users() == [] and "End turn" in str(channel.payload.get("components"))
    assert "End turn" not in str(dm.payload.get("components"))


async def test_closed_dms_fall_back_to_the_channel_and_log_a_warning(h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """mode dm with direct messages closed to the bot: bob is pinged in the channel instead, and a warning is logged."""
    await h.run("bob", "/notify", mode="dm")
    await waiting_turn(h, reminder_hours="1")
    h.recorder.closed_dms.add(str(user_id_of("bob")))
    clock_of(h).now += HOUR
    with caplog.at_level(logging.INFO):
        sent = await h.reminders()
    assert h.direct_messages("bob") == []
    assert [s.pinged_users() for s in sent] == [[], [str(user_id_of("bob"))]]
    assert all("still your turn" in s.text for s in sent)
    [warning] = [r for r in caplog.records if "direct message" in r.getMessage()]
    assert warning.levelname == "WARNING"


@pytest.mark.parametrize(
    "options, message",
    [
        ({"tz": "Mars/Olympus"}, "is not a time zone name"),
        ({"tz": "Europe"}, "is not a time zone name"),
        ({"tz": "Europe/" + "x" * 293}, "is not a time zone name"),
        ({"tz": "../../etc/passwd"}, "is not a time zone name"),
        ({"quiet": "22:00"}, "a span of the day such as `22:00-08:00`"),
        ({"quiet": "25:00-08:00"}, "run from 00:00 to 23:59"),
        # leaving `quiet` out keeps the quiet hours chosen before: `quiet:none` clears them
        ({"quiet": "08:00-08:00"}, "must start and end at different times (`quiet:none` for no quiet hours)"),
    ],
)
async def test_bad_notify_choices_are_refused_and_change_nothing(h: Harness, options: dict, message: str) -> None:
    """A bad time zone or span is refused with what to write; the earlier choices stay."""
    await h.run("bob", "/notify", quiet="22:00-08:00", tz="Europe/Paris", mode="both")
    r = reply(await h.run("bob", "/notify", **options))
    assert r.ephemeral and message in r.text
    prefs = await h.bot.service.store.player_prefs([str(user_id_of("bob"))])
    assert prefs[str(user_id_of("bob"))].mode == "both" and prefs[str(user_id_of("bob"))].tz == "Europe/Paris"


async def test_notify_reset_and_none(h: Harness) -> None:
    """`quiet:none` clears quiet hours; `reset:true` forgets everything."""
    await h.run("bob", "/notify", quiet="22:00-08:00", mode="dm")
    assert "Quiet hours: **none**" in reply(await h.run("bob", "/notify", quiet="none")).text
    r = reply(await h.run("bob", "/notify", reset="true"))
    assert "a mention in the channel" in r.text and "Quiet hours: **none**" in r.text


async def test_hold_in_war_and_combat_ends_the_step_in_place(h: Harness) -> None:
    """War & Combat holds a movement step where the fighter stands: the next fighter's step begins."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Ford", map="16x12 hex")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="B2", facing="SE", sheet="fighter=6")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="L10", facing="NW", sheet="fighter=3")
    await h.run("gm", "/encounter settings", reminder_hours="0", deadline_hours="2", deadline_policy="hold",
                options="tactics_skew=no")
    await h.run("gm", "/init roll", roll="6,6,6,1,1,1")
    assert (await export(h))["current"] == "Borin"
    clock_of(h).now += 2 * HOUR
    sent = await h.reminders()
    assert "Deadline" in "\n".join(s.text for s in sent)
    data = await export(h)
    assert data["current"] == "Grak"
    assert [c["position"] for c in data["combatants"] if c["name"] == "Borin"] == ["B2"]


async def crews_with_a_deadline(h: Harness, policy: str) -> None:
    """A damage-grid fight begun with a 4 h deadline under ``policy``: the crew (Meena, ann's; Vex, bob's)
    against the GM's boarders (Hera, Xul); the crew activate first."""
    await h.run("gm", "/encounter start", system="damage-grid", name="D", map="10x8")
    await h.run("gm", "/combatant add", name="Meena", owner="@ann", side="crew", at="B2", facing="E")
    await h.run("gm", "/combatant add", name="Vex", owner="@bob", side="crew", at="B6", facing="E")
    await h.run("gm", "/combatant add", name="Hera", side="boarders", at="G2", facing="W")
    await h.run("gm", "/combatant add", name="Xul", side="boarders", at="G6", facing="W")
    await h.run("gm", "/encounter settings", reminder_hours="0", deadline_hours="4", deadline_policy=policy)
    await h.run("gm", "/init roll")


async def test_a_warning_under_hold_where_the_system_cannot_hold_says_the_gm_is_told(h: Harness) -> None:
    """"`hold`: ... where the system has no way to hold, the GM is told" (docs/commands.md): the damage
    grid has no hold, so the warning says what the deadline will do, not that the model holds its action."""
    await crews_with_a_deadline(h, "hold")
    clock_of(h).now += 3 * HOUR
    [warning] = await h.reminders()
    assert "holds its action" not in warning.text
    assert "deadline is in about 1 h (then the GM is told: Damage Grid has no way to hold it)" in warning.text
    clock_of(h).now += HOUR
    [told] = await h.reminders()
    assert "Damage Grid has no way to hold it" in told.text and told.pinged_users() == [str(user_id_of("gm"))]
    assert "Meena, Vex passed their 4 h deadline" in told.text  # two models: "their", as one has "its"


async def test_a_damage_grid_deadline_passes_the_first_model_of_the_side_then_the_other_side_activates(h: Harness) -> None:
    """"in the damage-grid game, where a side's turn with no model activating names all of its models still to
    activate in the phase, the first of them (in the order they joined) passes its activation as
    `/init next combatant:` would, the others keep theirs, and the other side activates next" (docs/commands.md)."""
    page = " ".join((Path(__file__).parents[2] / "docs" / "commands.md").read_text(encoding="utf-8").split())
    assert ("in the damage-grid game, where a side's turn with no model activating names all of its models still to "
            "activate in the phase, the first of them (in the order they joined) passes its activation as "
            "`/init next combatant:` would, the others keep theirs, and the other side activates next") in page
    await crews_with_a_deadline(h, "pass")
    clock_of(h).now += 4 * HOUR
    deadline = next(s for s in await h.reminders() if "Deadline" in s.text)
    assert "**Meena** activates: nothing (passes)" in deadline.text and "**Vex** activates" not in deadline.text
    assert "boarders to activate one of: Hera, Xul" in deadline.text and "On deck: Vex" in deadline.text
    assert deadline.pinged_users() == [str(user_id_of("gm"))]


async def test_a_damage_grid_warning_pings_only_the_owner_of_the_model_the_deadline_passes(h: Harness) -> None:
    """"the owners of what the deadline will pass are warned" (docs/commands.md): in the damage-grid game the
    deadline passes only the side's first model (Meena, ann's), so ann alone is warned, not bob (Vex)."""
    page = " ".join((Path(__file__).parents[2] / "docs" / "commands.md").read_text(encoding="utf-8").split())
    assert "the owners of what the deadline will pass are warned" in page
    await crews_with_a_deadline(h, "pass")
    clock_of(h).now += 3 * HOUR
    [warning] = await h.reminders()
    assert warning.pinged_users() == [str(user_id_of("ann"))]
    assert "deadline is in about 1 h (then Meena's turn passes)" in warning.text
    clock_of(h).now += HOUR
    deadline = next(s for s in await h.reminders() if "Deadline" in s.text)
    assert "Deadline: Meena's turn" in deadline.text


async def two_dwarves_with_a_deadline(h: Harness) -> None:
    """Coup-De-Grace: Borin (bob's) and Thrain (ann's) against Grak (the GM's), `deadline_hours:4 deadline_policy:pass`,
    initiative rolled (the dwarves, with more minis, activate first)."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=BORIN)
    await h.run("gm", "/combatant add", name="Thrain", owner="@ann", side="dwarves", at="C5", facing="E", sheet=BORIN)
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet=GRAK)
    await h.run("gm", "/encounter settings", reminder_hours="0", deadline_hours="4", deadline_policy="pass")
    await h.run("gm", "/init roll")


async def test_a_coup_de_grace_warning_pings_every_owner_of_the_side_it_passes(h: Harness) -> None:
    """"each of them passes its activation this round" (docs/commands.md): in Coup-De-Grace the deadline passes every
    mini the side still has to activate, so the owners of all of them are warned."""
    await two_dwarves_with_a_deadline(h)
    clock_of(h).now += 3 * HOUR
    [warning] = await h.reminders()
    assert sorted(warning.pinged_users()) == sorted([str(user_id_of("bob")), str(user_id_of("ann"))])
    assert "deadline is in about 1 h (then the turn passes)" in warning.text


async def test_a_warning_during_one_minis_activation_pings_only_its_owner(h: Harness) -> None:
    """docs/commands.md: "the owners of what the deadline will pass are warned ... with `pass`, the owners of the
    combatants it passes": once Borin (bob's) has begun his activation, the deadline passes his activation alone
    (Thrain, ann's, keeps hers), so bob alone is warned, though the turn began as the dwarves' (both owners')."""
    await two_dwarves_with_a_deadline(h)
    await h.run("bob", "/move", to="C2", facing="E")
    clock_of(h).now += 3.5 * HOUR
    [warning] = await h.reminders()
    assert warning.pinged_users() == [str(user_id_of("bob"))], warning.text
    assert "(then the turn passes)" in warning.text
    clock_of(h).now += HOUR
    await h.reminders()
    assert next(c for c in (await export(h))["combatants"] if c["name"] == "Thrain")["state"].get("done") is not True


async def test_a_nudge_during_one_minis_activation_pings_only_its_owner(h: Harness) -> None:
    """docs/commands.md: "When a turn has waited longer than the encounter's `reminder_hours`, its players ... are
    nudged": once Borin (bob's) has begun his activation it is his turn alone (Thrain, ann's, waits for it to end),
    so bob alone is nudged, not every owner of the dwarves' side whose turn it was when it began."""
    await two_dwarves_with_a_deadline(h)
    await h.run("gm", "/encounter settings", reminder_hours="1", deadline_hours="0")
    await h.run("bob", "/move", to="C2", facing="E")
    clock_of(h).now += 1.5 * HOUR
    [nudge] = await h.reminders()
    assert nudge.pinged_users() == [str(user_id_of("bob"))], nudge.text
    assert "still your turn" in nudge.text
