"""The manoeuvre tactics retreat and circle, applied in the adjustment phase: "These net effect
movements are made during the adjustment phase, after the flurry ... (though the winner must
also maintain relative position)"."""
from __future__ import annotations

from tests.rules.war_and_combat.build import adjusting, near


def test_retreat_steps_straight_back_still_facing_the_opponent():
    """Retreat: one hex straight away from the opponent (Grak is SE of Borin, so Borin goes NW), facing him."""
    s = adjusting("retreat")
    grak = s.get("Grak").position
    res = s.run("act", action="retreat", actor="Borin", target="Grak")
    borin = s.get("Borin")
    assert borin.position == near(s, "D4", "NW") and borin.facing == "SE" and s.get("Grak").position == grak
    assert any("retreats" in line for line in s.text(res))
    assert "one hex" in s.refused("act", action="retreat", actor="Borin", target="Grak")


def test_retreat_into_a_wall_is_refused_and_changes_nothing():
    """No room behind: the retreat cannot be made; the step can still end with `/init next`."""
    s = adjusting("retreat", blocked=("NW",))
    assert "NW" in s.refused("act", action="retreat", actor="Borin", target="Grak")


def test_circle_goes_round_the_opponent_clockwise_or_as_asked():
    """Circle: to the next hex round the opponent, still beside him and facing him (clockwise unless `way=ccw`)."""
    s = adjusting("circle")
    grak = s.get("Grak").position
    s.run("act", action="circle", actor="Borin", target="Grak")
    borin = s.get("Borin")
    assert borin.position == near(s, grak, "N") and borin.facing == "S"
    s = adjusting("circle")
    s.run("act", action="circle", actor="Borin", target="Grak", options={"way": "ccw"})
    assert s.get("Borin").position == near(s, grak, "SW")


def test_a_tactic_not_declared_is_refused():
    """Only the tactic declared in the flurry is applied: one who declared hold neither retreats nor circles."""
    s = adjusting("hold")
    assert "retreat" in s.refused("act", action="retreat", actor="Borin", target="Grak")
    assert "circle" in s.refused("act", action="circle", actor="Borin", target="Grak")
