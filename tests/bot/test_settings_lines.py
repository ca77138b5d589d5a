"""The settings reply's line for each option reads as the value set means."""
from __future__ import annotations

from bot.service.views import settings_lines
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
