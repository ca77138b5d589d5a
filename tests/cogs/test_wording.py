"""Wording a GM tripped on, through the real command path: counts, and the log of `/encounter settings`."""
from __future__ import annotations

from bot.offline.harness import Harness
from bot.service.views import settings_changes
from rules.models import Encounter
from rules.registry import get_system


async def test_a_settings_change_is_logged_as_old_to_new(h: Harness) -> None:
    """The `/log` entry of `/encounter settings` names only what changed, `key old → new`, uncut."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/encounter settings", options="spells=blink range_increment=5", reminder_hours="6")
    await h.run("gm", "/encounter settings", options="range_increment=default")
    log = (await h.run("gm", "/log", count=2))[0].text
    lines = [line for line in log.splitlines() if "/encounter settings" in line]
    assert lines[0].endswith("/encounter settings: reminder_hours 24 → 6; range_increment 6 → 5; spells none → blink")
    assert lines[1].endswith("/encounter settings: range_increment 5 → 6")
    assert "Players may give" not in log


async def test_one_combatant_is_one_combatant(h: Harness) -> None:
    """An encounter of one combatant says "1 combatant", not "1 combatants"."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet="class=heavy")
    sent = await h.run("gm", "/encounter export")
    text = " ".join(s.text for s in sent)
    assert "Bridge: 1 combatant, round 0." in text and "1 combatants" not in text


def test_a_long_settings_change_is_cut_between_entries() -> None:
    """A change list longer than the log's room ends after a whole entry with "and N more", never mid-word."""
    system = get_system("coup-de-grace")
    old = Encounter(system="coup-de-grace", gm_ids=["1"])
    new = old.model_copy(deep=True)
    new.settings.options.update({"spells": "fireball:2:6, " * 10, "range_increment": "5", "max_increments": "4"})
    text = settings_changes(system, old, new, limit=180)
    assert text.startswith("range_increment 6 → 5; max_increments 5 → 4") and text.endswith("; and 1 more")


async def test_the_settings_log_shows_values_and_only_what_changed(h: Harness) -> None:
    """The log says `aoo no → yes` and `distance melee → close`, never "default", and leaves out a default typed again."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Keep", map="8x6")
    await h.run("gm", "/encounter settings", options="aoo=no")
    await h.run("gm", "/encounter settings", options="aoo=default")
    await h.run("gm", "/encounter settings", options="aoo=yes")
    await h.run("gm", "/encounter start", "tote-table", system="tote", name="Ford")
    await h.run("gm", "/encounter settings", "tote-table", options="distance=close")
    kov = [line for line in (await h.run("gm", "/log", count=5))[0].text.splitlines() if "/encounter settings" in line]
    assert [line.split("/encounter settings: ")[1] for line in kov] == ["aoo yes → no", "aoo no → yes"], kov
    tote = (await h.run("gm", "/log", "tote-table", count=1))[0].text
    assert tote.rstrip().endswith("/encounter settings: distance melee → close"), tote
