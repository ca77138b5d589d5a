"""Who is on deck in the open system (`RuleSystem.on_deck`), read from the state (docs/systems/open.md, "Initiative")."""
from __future__ import annotations

from tests.rules.on_deck import on_deck_checked
from tests.scenario import Scenario

SHEET = "hp=10 ac=10 weapons=club:+2:1d4:bludgeoning"


def test_on_deck_read_from_the_state_names_whom_the_turns_end_names() -> None:
    """Over a played fight, `on_deck` (no turn resolved) names whom `/init next` does: "highest first", the GM's
    combatant out at 0 HP skipped, the next round's first at a round's end, and nobody before a down player's
    turn, whose death save ("a d20, 10 or more") decides whether it acts."""
    s = Scenario("open").add("Ann", SHEET, at="B2").add("Gob", SHEET, at="F2", owner=None)
    s.add("Bo", SHEET, at="B4").add("Cy", SHEET, at="F4", owner=None)
    s.run("init_roll", [15, 12, 8, 5])
    seen = [(s.enc.round, s.enc.current, on_deck_checked(s.system, s.enc))]
    s.run("edit", actor="Gob", hp_change=-10)
    seen.append((s.enc.round, s.enc.current, on_deck_checked(s.system, s.enc)))
    for actor, dice in (("Ann", []), ("Bo", []), ("Cy", []), ("Ann", [12])):
        if actor == "Cy":
            s.run("edit", actor="Bo", hp_change=-10)  # Bo goes down in Cy's turn
            seen.append((s.enc.round, s.enc.current, on_deck_checked(s.system, s.enc)))
        s.run("next", dice, actor=actor)
        seen.append((s.enc.round, s.enc.current, on_deck_checked(s.system, s.enc)))
    assert s.get("Gob").status == s.get("Bo").status == "downed"
    assert seen == [
        (1, "Ann", ("Gob",)),
        (1, "Ann", ("Bo",)),
        (1, "Bo", ("Cy",)),
        (1, "Cy", ("Ann",)),
        (1, "Cy", ("Ann",)),
        (2, "Ann", ()),
        (2, "Cy", ("Ann",)),
    ]
