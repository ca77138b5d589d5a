"""The open system's texts for players while the GM's combatants are hidden (docs/commands.md, "Hidden information")."""
from __future__ import annotations

from pathlib import Path

from rules.hidden import for_reader
from rules.report import board_report
from rules.systems.open.events import OpenRound
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
    assert "roll-off: Ann 🎲 4✍, Bo 🎲 17✍" in public(s, res)


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


def test_the_roll_off_d20s_show_in_the_reply_but_a_hidden_combatants() -> None:
    """"The reply to `/init roll` shows each roll-off d20 in the round's line ... (a hidden combatant's d20 reaches the
    GM alone)" (docs/systems/open.md): players read Ann's and Bo's d20s, the GM Wall's too."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "open.md").read_text(encoding="utf-8").split())
    assert "The reply to `/init roll` shows each roll-off d20 in the round's line" in page
    assert "(a hidden combatant's d20 reaches the GM alone)" in page
    s = Scenario("open").add("Ann", "hp=5 init=+3", at="B2").add("Bo", "hp=5 init=+3", at="C2")
    s.add("Wall", "hp=5 init=+3", at="D2", owner=None)
    res = s.run("init_roll", [5, 5, 5, 4, 17, 9])  # all three 8: Ann 4, Bo 17, Wall 9 in the roll-off
    text = public(s, res)
    assert "ties settled by a roll-off: Ann 🎲 4✍, Bo 🎲 17✍\n" in text + "\n"
    gm = s.system.present.view(s.enc, WALL).full().report("", res.events).text()
    assert "ties settled by a roll-off: Ann 🎲 4✍, Bo 🎲 17✍, Wall 🎲 9✍" in for_reader(gm, lambda name: True)


def test_a_log_written_before_the_roll_off_dice_were_kept_still_names_the_tie() -> None:
    """A stored round line holding only the roll-off's names reads back and names them, without dice."""
    s = Scenario("open").add("Ann", "hp=5 init=+3", at="B2").add("Bo", "hp=5 init=+3", at="C2")
    old = OpenRound.model_validate({"round": 1, "order": [{"name": "Bo", "initiative": 8}, {"name": "Ann", "initiative": 8}],
                                    "rolled_off": ["Ann", "Bo"]})
    assert s.system.present.view(s.enc, frozenset()).text(old) == (
        "**Round 1** begins: order Bo 8, Ann 8; ties settled by a roll-off among Ann, Bo")


def test_the_board_line_of_a_hidden_combatant_a_condition_stops_says_it_cannot_act() -> None:
    """"The status board ... say `**Grak** · G3 W · hurt`" for a hidden combatant (docs/commands.md), and its
    conditions are everyone's: the board's effects line and turn line name Wall's `stunned`. So in Wall's turn its
    line says `▶ cannot act` to players as to the GM, with no number of its own; out of its turn, neither line does."""
    s = Scenario("open").add("Ann", "hp=5 init=+0", at="B2")
    s.add("Wall", "hp=30 init=+0", at="D2", owner=None, side="foes")
    s.run("effect_add", effect="stunned", actor="Wall", rounds=3)
    s.run("init_roll", [2, 15])
    assert s.enc.current == "Wall" and "Wall" in s.enc.hidden_names()
    board = board_report(s.system, s.enc).text()
    assert "stunned on Wall" in board and "Wall cannot act (stunned)" in board  # already told to everyone
    line = next(x for x in board.splitlines() if "**Wall**" in x)
    assert line == "foes: **Wall** · D2 · unhurt · ▶ cannot act"
    assert "▶ cannot act" in next(x for x in board_report(s.system, s.enc, numbers=True).text().splitlines() if "**Wall**" in x)
    s.run("next", actor="Wall")
    assert s.enc.current == "Ann"
    assert not any("cannot act" in x for x in board_report(s.system, s.enc).text().splitlines() if "**Wall**" in x)
