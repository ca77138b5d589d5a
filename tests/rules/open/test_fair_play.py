"""Effects and conditions mid-fight are the GM's (docs/commands.md, "Fair play" and "Effects")."""
from __future__ import annotations

from rules.errors import NotAllowed
from tests.scenario import Scenario


def started() -> Scenario:
    """Ann (the player's) and Grak (the GM's) in a started fight."""
    s = Scenario("open").add("Ann", "hp=20 init=+10", at="B2").add("Grak", "hp=20", at="C2", owner=None, side="foes")
    s.run("init_roll", [10, 2])
    return s


def test_a_player_removes_no_effect_the_gm_put_on() -> None:
    """"the systems use the same mechanism for their own timed conditions, which only the GM may remove by hand":
    a condition or reminder the GM put on Ann stays when her owner removes it; the refusal says to ask the GM."""
    s = started()
    s.run("effect_add", effect="paralysed", actor="Ann", rounds=3)
    s.run("effect_add", effect="Cursed", actor="Ann", rounds=3)
    for name in ("paralysed", "Cursed"):
        text = s.refused("effect_remove", error=NotAllowed, effect=name, actor="Ann", gm=False)
        assert "ask the GM" in text
    s.run("effect_remove", effect="paralysed", actor="Ann")
    assert [e.name for e in s.enc.effects] == ["Cursed"]


def test_a_player_adds_no_condition_once_the_fight_has_started() -> None:
    """"once the fight has started only the GM adds or removes an effect that changes numbers": a condition the rules
    read is refused to a player mid-fight (before it, and a reminder of another name, are theirs)."""
    s = Scenario("open").add("Ann", "hp=20 init=+10", at="B2").add("Grak", "hp=20", at="C2", owner=None, side="foes")
    s.run("effect_add", effect="dodging", actor="Ann", gm=False)
    s.run("init_roll", [10, 2])
    for name in ("invisible", "Paralyzed", "dodging"):
        text = s.refused("effect_add", error=NotAllowed, effect=name, actor="Ann", rounds=10, gm=False)
        assert "ask the GM" in text.casefold() or "Ask the GM" in text
    s.refused("effect_remove", error=NotAllowed, effect="dodging", actor="Ann", gm=False)
    s.run("effect_add", effect="Inspired", actor="Ann", gm=False)
    s.run("effect_remove", effect="Inspired", actor="Ann", gm=False)
    s.run("effect_add", effect="invisible", actor="Ann")
    assert [e.name for e in s.enc.effects] == ["dodging", "invisible"]


def test_a_player_adds_no_dash_or_disengage_by_hand() -> None:
    """Dash and disengage are the rules' effects (`/act action:dash`, `/act action:disengage`): one a player typed
    by hand would look the same on the board and do nothing, so mid-fight it is refused as a condition is."""
    s = started()
    for name in ("dash", "Disengage"):
        text = s.refused("effect_add", error=NotAllowed, effect=name, actor="Ann", rounds=1, gm=False)
        assert "ask the GM" in text.casefold() or "Ask the GM" in text
