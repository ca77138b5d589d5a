"""The open system's texts for players while the GM's combatants are hidden (docs/commands.md, "Hidden information")."""
from __future__ import annotations

from rules.hidden import for_reader
from tests.scenario import Scenario

WALL = frozenset({"Wall"})


def public(s: Scenario, res: object) -> str:
    """The reply to ``res`` as players read it while Wall is hidden."""
    view = s.system.present.view(s.enc, WALL)
    return for_reader(view.report("", res.events).text(), lambda name: name not in WALL)


def test_a_roll_off_never_names_a_hidden_combatants_tie() -> None:
    """"No other number of a hidden combatant reaches players ... initiative": the roll-off line names only ties
    between shown combatants."""
    s = Scenario("open").add("Ann", "hp=5 init=+3", at="B2").add("Bo", "hp=5 init=+3", at="C2")
    s.add("Wall", "hp=5 init=+3", at="D2", owner=None)
    res = s.run("init_roll", [10, 5, 5, 4, 17])  # Ann 13; Bo and Wall 8 each, a roll-off
    text = public(s, res)
    assert "roll-off" not in text and "Bo 8" in text
    s = Scenario("open").add("Ann", "hp=5 init=+3", at="B2").add("Bo", "hp=5 init=+3", at="C2")
    s.add("Wall", "hp=5 init=+3", at="D2", owner=None)
    res = s.run("init_roll", [5, 5, 9, 4, 17])  # Ann and Bo 8 each, a roll-off; Wall 12
    assert "roll-off among Ann, Bo" in public(s, res)


def test_a_hidden_targets_resistance_stays_hidden() -> None:
    """"No other number of a hidden combatant reaches players ... resists": players read the damage their combatant
    rolled, never whether the hidden target resists it or what it took."""
    for trait in ("vulnerable", "resist", "immune"):
        s = Scenario("open").add("Ann", "hp=20 init=+10 weapons=sword:+5:1d8:slashing", at="B2")
        s.add("Wall", f"hp=40 ac=10 {trait}=slashing", at="C2", owner=None, side="foes")
        s.run("init_roll", [10, 1])
        text = public(s, s.run("attack", [15, 6], actor="Ann", target="Wall"))
        assert "of 6 rolled slashing damage" in text
        assert not any(word in text for word in ("vulnerable", "resistant", "immune", "12", "3"))
