"""The settings reply's line for each option reads as the value set means."""
from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.views import settings_lines
from rules.registry import all_systems
from rules.system import RuleSystem
from tests.scenario import Scenario


def test_a_yes_no_option_set_to_no_reads_as_what_no_means():
    """War & Combat's "Optional: the side with the higher tactics skill gets a high skew die for the roll", turned
    off (`tactics_skew=no`), does not read as if the skew die were rolled; set to `yes`, it reads as the rule."""
    off = Scenario("war-and-combat", tactics_skew="no")
    line = next(x for x in settings_lines(off.system, off.enc) if x.startswith("`tactics_skew`"))
    assert line.startswith("`tactics_skew` = **no**: off") and "when `yes`: the side with the better Tactics" in line
    on = Scenario("war-and-combat", tactics_skew="yes")
    line = next(x for x in settings_lines(on.system, on.enc) if x.startswith("`tactics_skew`"))
    assert line.startswith("`tactics_skew` = **yes**: the side with the better Tactics")


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_hold_at_a_system_with_no_hold_says_the_gm_is_told(system) -> None:
    """docs/commands.md: `deadline_policy` `hold` in a system with no hold tells the GM at the deadline, "and the
    warning says so": the settings reply says so at once, when the GM sets it; the docs name every such system (a
    system that holds answers `hold_action`)."""
    s = Scenario(system.key)
    s.enc.settings.deadline_hours, s.enc.settings.deadline_policy = 4, "hold"
    line = next(x for x in settings_lines(s.system, s.enc) if x.startswith("Turn deadline"))
    told = f"{system.title} has no hold: at the deadline the GM is told"
    assert (told in line) is (not system.can_hold)
    assert (type(system).hold_action is not RuleSystem.hold_action) is system.can_hold
    docs = " ".join((Path(__file__).parents[2] / "docs" / "commands.md").read_text(encoding="utf-8").split())
    assert (system.title in docs.split("have no hold", 1)[0][-60:]) is (not system.can_hold)


def test_a_yes_no_option_set_to_no_reads_once_whatever_its_help_says():
    """docs/commands.md: "a yes/no option set to `no` reads "off (when `yes`: ...)"": a help that asks "whether ..."
    reads as what `yes` does, and one that already says what `yes` and `no` do is not told "when `yes`" again."""
    off = Scenario("open", massive_damage="no", auto_end="no")
    lines = settings_lines(off.system, off.enc)
    massive = next(x for x in lines if x.startswith("`massive_damage`"))
    assert massive.startswith("`massive_damage` = **no**: off (when `yes`: damage left over at 0 HP")
    auto = next(x for x in lines if x.startswith("`auto_end`"))
    assert auto.startswith("`auto_end` = **no**: off (`yes`: a turn ends by itself") and "when `yes`" not in auto
