"""The turn clock's arithmetic: a new turn's reminder row, a turn's deadline and its warning,
and players' quiet hours.

Times are Unix timestamps in seconds; the service passes its clock in. Quiet hours are minutes
after midnight in the player's IANA time zone, and may wrap past midnight (22:00-08:00).
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from bot.service.turntext import turn_key_json, turn_users
from data.store import NotifyPrefs, Reminder
from rules.errors import InputError
from rules.models import Encounter
from rules.system import Turn

__all__ = [
    "WARNING_SHARE", "WARNING_MAX_HOURS", "deadline_times", "duration_text", "quiet_until", "parse_quiet",
    "quiet_text", "zone", "zone_names", "turn_reminder",
]

#: the warning goes out when this share of the deadline is left...
WARNING_SHARE = 0.25
#: ...but never more than this many hours before it
WARNING_MAX_HOURS = 24.0

_QUIET = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*-\s*(\d{1,2})(?::(\d{2}))?\s*$")


def deadline_times(deadline_hours: float, since: float | None) -> tuple[float, float] | None:
    """(when the warning goes out, when the deadline passes) for a turn waiting since ``since``;
    None without a deadline."""
    if deadline_hours <= 0 or since is None:
        return None
    deadline = since + deadline_hours * 3600
    lead = min(deadline_hours * WARNING_SHARE, WARNING_MAX_HOURS) * 3600
    return deadline - lead, deadline


def turn_reminder(enc: Encounter, turn: Turn, encounter_id: int, channel_id: str, now: float) -> Reminder | None:
    """A new turn's reminder: its first nudge, or its deadline's warning if that is sooner (None:
    nothing to remind, as when reminders are off and there is no deadline)."""
    hours = enc.settings.reminder_hours
    users = turn_users(enc, turn)
    clock = deadline_times(enc.settings.deadline_hours, now)
    if enc.winner or not users or (hours <= 0 and clock is None):
        return None
    due = min([now + hours * 3600] if hours > 0 else [], default=float("inf"))
    return Reminder(
        encounter_id=encounter_id,
        channel_id=channel_id,
        due_at=min(due, clock[0]) if clock else due,
        user_ids=list(users),
        turn_key=turn_key_json(turn),
        nudges=0,
        since=now,
    )


def duration_text(hours: float) -> str:
    """``15 min``, ``1.5 h``, ``9 h``, ``31 h``: a wait as a player reads it (to the minute
    below an hour, the half hour below 10, the hour above)."""
    if hours < 1:
        return f"{max(1, round(hours * 60))} min"
    if hours < 10:
        return f"{round(hours * 2) / 2:g} h"
    return f"{round(hours)} h"


@cache
def zone_names() -> frozenset[str]:
    """The names of the zone database (read once: it walks the whole database)."""
    return frozenset(available_timezones())


def zone(name: str | None) -> ZoneInfo | timezone:
    """The time zone called ``name`` (UTC when None); a name that is not a key of the zone
    database (a folder such as ``Europe``, a 300-character text) is refused with examples."""
    if not name:
        return timezone.utc
    if name not in zone_names():
        shown = name[:40].replace("`", "'") + ("…" if len(name) > 40 else "")
        raise InputError(
            f"`{shown}` is not a time zone name: use an IANA name such as `Europe/Paris`, "
            "`America/New_York` or `Asia/Tokyo` (the `tz` option suggests them as you type)."
        )
    return ZoneInfo(name)


def parse_quiet(text: str) -> tuple[int, int]:
    """``22:00-08:00`` (or ``22-8``) as minutes after midnight: (start, end)."""
    found = _QUIET.match(text)
    if found is None:
        raise InputError(f"`quiet` is a span of the day such as `22:00-08:00`, not `{text[:40]}`.")
    h1, m1, h2, m2 = (int(g) if g else 0 for g in found.groups())
    if h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59:
        raise InputError(f"`quiet` times run from 00:00 to 23:59, not `{text[:40]}`.")
    start, end = h1 * 60 + m1, h2 * 60 + m2
    if start == end:
        raise InputError("`quiet` must start and end at different times (`quiet:none` for no quiet hours).")
    return start, end


def quiet_text(prefs: NotifyPrefs) -> str:
    """``22:00-08:00 Europe/Paris``, or ``none``."""
    if prefs.quiet_start is None or prefs.quiet_end is None:
        return "none"
    def hm(minutes: int) -> str:
        return f"{minutes // 60:02d}:{minutes % 60:02d}"
    return f"{hm(prefs.quiet_start)}-{hm(prefs.quiet_end)} {prefs.tz or 'UTC'}"


def quiet_until(prefs: NotifyPrefs, now: float) -> float | None:
    """If ``now`` falls in the player's quiet hours, when they end (a timestamp); else None."""
    if prefs.quiet_start is None or prefs.quiet_end is None:
        return None
    local = datetime.fromtimestamp(now, zone(prefs.tz))
    minute = local.hour * 60 + local.minute
    start, end = prefs.quiet_start, prefs.quiet_end
    inside = start <= minute < end if start < end else (minute >= start or minute < end)
    if not inside:
        return None
    ends = local.replace(hour=end // 60, minute=end % 60, second=0, microsecond=0)
    if ends <= local:
        ends += timedelta(days=1)
    return ends.timestamp()
