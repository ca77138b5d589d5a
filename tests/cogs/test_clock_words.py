"""What the turn clock says: a held nudge tells the real wait, and the GM's notice after the
last nudge still comes when a deadline's warning goes out first."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from bot.offline.harness import Clock, Harness, Sent, user_id_of
from bot.service.clock import duration_text
from tests.cogs.fights import BORIN, GRAK

HOUR = 3600


def clock_of(h: Harness) -> Clock:
    return h.bot.service.clock


async def waiting_turn(h: Harness, **settings: str) -> None:
    """A started Coup-De-Grace fight whose first turn is Borin's (bob's), with ``settings``."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=BORIN)
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet=GRAK)
    await h.run("gm", "/encounter settings", **settings)
    await h.run("gm", "/init roll", roll="6,1")


async def hourly(h: Harness, hours: int) -> list[tuple[int, Sent]]:
    """Move the clock on an hour at a time; what the reminder pass sent, with the hour."""
    out = []
    for hour in range(1, hours + 1):
        clock_of(h).now += HOUR
        out += [(hour, s) for s in await h.reminders()]
    return out


def test_duration_text_reads_as_a_player_would() -> None:
    """Minutes below an hour, half hours below ten, whole hours above."""
    assert [duration_text(x) for x in (0.25, 1, 1.5, 9.2, 10.4, 31)] == ["15 min", "1 h", "1.5 h", "9 h", "10 h", "31 h"]


async def test_a_nudge_held_by_quiet_hours_says_how_long_the_turn_really_waited(h: Harness) -> None:
    """bob is quiet 00:00-08:00 UTC: the 1 h nudge due at 00:00 goes out at 08:00 saying about 9 h, not 1 h."""
    clock_of(h).now = datetime(2027, 1, 15, 23, 0, tzinfo=timezone.utc).timestamp()
    await h.run("bob", "/notify", quiet="00:00-08:00")
    await waiting_turn(h, reminder_hours="1")
    sent = await hourly(h, 9)
    [(hour, nudge)] = sent
    assert hour == 9 and nudge.pinged_users() == [str(user_id_of("bob"))]
    assert "still your turn (waiting about 9 h)" in nudge.text


async def test_the_gms_notice_still_comes_after_the_deadlines_warning(h: Harness) -> None:
    """Nudges at 6 and 12 h, the warning at 18 h (due with the notice): the GM's notice follows it, before the deadline."""
    await waiting_turn(h, reminder_hours="6", max_nudges="2", deadline_hours="24", deadline_policy="gm")
    sent = [(hour, s.text) for hour, s in await hourly(h, 24) if "Bridge ·" not in s.text]
    kinds = [(hour, "notice" if "players were nudged 2 times" in t else "warning" if "deadline is in" in t
              else "nudge" if "still your turn" in t else "deadline" if "passed its 24 h deadline" in t else t)
             for hour, t in sent]
    assert kinds == [(6, "nudge"), (12, "nudge"), (18, "warning"), (19, "notice"), (24, "deadline")]
    assert "has waited 19 h" in sent[3][1]


async def test_a_warning_between_the_last_nudge_and_the_notice_does_not_push_the_notice_back(h: Harness) -> None:
    """Nudges at 5, 10, 15 h, the warning at 18 h: the GM's notice still comes at 20 h, not 5 h after the warning."""
    await waiting_turn(h, reminder_hours="5", max_nudges="3", deadline_hours="24", deadline_policy="gm")
    notices = [hour for hour, s in await hourly(h, 23) if "players were nudged 3 times" in s.text]
    assert notices == [20]


async def test_coup_de_grace_deadline_passes_the_whole_sides_activation_the_warning_named(h: Harness) -> None:
    """Borin and Thrain are warned together; at the deadline both pass their activations, and the orcs act."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=BORIN)
    await h.run("gm", "/combatant add", name="Thrain", owner="@tess", side="dwarves", at="C5", facing="E", sheet="class=light weapons=crossbow")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet=GRAK)
    await h.run("gm", "/encounter settings", reminder_hours="0", deadline_hours="4", deadline_policy="pass")
    await h.run("gm", "/init roll")
    sent = await hourly(h, 4)
    [warning] = [s for _, s in sent if "deadline is in" in s.text]
    assert "Borin, Thrain" in warning.text
    [deadline] = [s for _, s in sent if "Deadline" in s.text]
    assert "⏰ Deadline: Borin, Thrain's turn" in deadline.text
    assert "Borin's activation ends" in deadline.text and "Thrain's activation ends" in deadline.text
    assert "orcs** to activate a mini: Grak" in deadline.text
    board = (await h.run("bob", "/encounter status"))[0]
    assert "**Borin** · C3 E" in board.text and board.text.count("· activated ·") == 2, board.text


async def quarter_hourly(h: Harness, hours: float) -> list[tuple[float, Sent]]:
    """Move the clock on a quarter of an hour at a time; what the reminder pass sent, with the hours passed."""
    out = []
    for step in range(1, int(hours * 4) + 1):
        clock_of(h).now += HOUR / 4
        out += [(step / 4, s) for s in await h.reminders()]
    return out


@pytest.mark.parametrize("policy, then", [("pass", "then the turn passes"), ("gm", "then the GM is told")])
async def test_a_warning_quiet_hours_would_hold_past_the_deadline_reaches_the_player_before_it(
    h: Harness, policy: str, then: str,
) -> None:
    """`/notify quiet` "holds nudges and deadline warnings due in those hours until they end (never
    past the deadline itself)" (docs/commands.md): bob is quiet 04:00-12:00 UTC and his turn, from
    05:00, has a 6 h deadline. The warning is not held past 11:00: it goes out at its time (09:30),
    saying why it comes in his quiet hours; the nudges due at 07:00 and 09:00 give way to it."""
    clock_of(h).now = datetime(2027, 1, 15, 5, 0, tzinfo=timezone.utc).timestamp()
    await h.run("bob", "/notify", quiet="04:00-12:00", tz="UTC")
    await waiting_turn(h, reminder_hours="2", deadline_hours="6", deadline_policy=policy)
    bob = str(user_id_of("bob"))
    sent = await quarter_hourly(h, 9)
    to_bob = [(hours, s) for hours, s in sent if bob in s.pinged_users()]
    [(hours, warning)] = to_bob
    assert hours == 4.5, f"the warning went out {hours} h into the turn"
    assert f"⏳ your turn's deadline is in about 1.5 h ({then})" in warning.text
    assert "quiet hours" in warning.text and "after the deadline" in warning.text
    deadline = [hours for hours, s in sent if "deadline in **Bridge**" in s.text or "Deadline:" in s.text]
    assert deadline == [6], sent


async def test_a_warning_held_by_quiet_hours_that_end_before_the_deadline_goes_out_as_they_end(h: Harness) -> None:
    """Quiet hours 04:00-10:00 UTC and a turn from 05:00 with a 6 h deadline: the warning due at 09:30
    waits until 10:00 ("holds nudges and deadline warnings due in those hours until they end") and
    says the hour left, without a word about quiet hours."""
    clock_of(h).now = datetime(2027, 1, 15, 5, 0, tzinfo=timezone.utc).timestamp()
    await h.run("bob", "/notify", quiet="04:00-10:00", tz="UTC")
    await waiting_turn(h, reminder_hours="2", deadline_hours="6", deadline_policy="pass")
    bob = str(user_id_of("bob"))
    [(hours, warning)] = [(hours, s) for hours, s in await quarter_hourly(h, 6) if bob in s.pinged_users()]
    assert hours == 5 and "⏳ your turn's deadline is in about 1 h (then the turn passes)" in warning.text
    assert "quiet hours" not in warning.text
