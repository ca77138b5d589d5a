"""Who is on deck in the open system (`RuleSystem.on_deck`), read from the state (docs/systems/open.md, "Initiative")."""
from __future__ import annotations

import pytest

from tests.rules.on_deck import on_deck_checked
from tests.scenario import Scenario

SHEET = "hp=10 ac=10 weapons=club:+2:1d4:bludgeoning"


def _played(**options: str) -> tuple[Scenario, list[tuple[int, str | None, tuple[str, ...]]]]:
    """Ann, Gob, Bo, Cy by initiative; Gob (the GM's) out at 0 HP, Bo (the player's) down in Cy's turn."""
    s = Scenario("open", **options).add("Ann", SHEET, at="B2").add("Gob", SHEET, at="F2", owner=None)
    s.add("Bo", SHEET, at="B4").add("Cy", SHEET, at="F4", owner=None)
    s.run("init_roll", [15, 12, 8, 5])
    seen = [(s.enc.round, s.enc.current, on_deck_checked(s.system, s.enc))]
    s.run("edit", actor="Gob", hp_change=-10)
    seen.append((s.enc.round, s.enc.current, on_deck_checked(s.system, s.enc)))
    for actor in ("Ann", "Bo", "Cy"):
        if actor == "Cy":
            s.run("edit", actor="Bo", hp_change=-10)  # Bo goes down in Cy's turn
            seen.append((s.enc.round, s.enc.current, on_deck_checked(s.system, s.enc)))
        s.run("next", actor=actor)
        seen.append((s.enc.round, s.enc.current, on_deck_checked(s.system, s.enc)))
    assert s.get("Gob").status == "out" and s.get("Bo").status == "downed"
    return s, seen


ROUND_1 = [(1, "Ann", ("Gob",)), (1, "Ann", ("Bo",)), (1, "Bo", ("Cy",)), (1, "Cy", ("Ann",)), (1, "Cy", ("Ann",))]


@pytest.mark.parametrize("roll", ["player", "bot"])
def test_on_deck_read_from_the_state_names_whom_the_turns_end_names(roll: str) -> None:
    """Over a played fight, `on_deck` (no turn resolved) names whom `/init next` does: "highest first", the GM's
    combatant out at 0 HP skipped, the next round's first at a round's end; a dying player's combatant whose owner
    rolls its death save in its turn is named, and so is the one after it while it rolls (the turn passes on
    whatever the save gives); nobody where a death save's roll ("a d20, 10 or more") decides who acts: the bot
    rolling it as the turn begins (`death_save_roll=bot`)."""
    s, seen = _played(death_save_roll=roll)
    if roll == "player":
        s.run("next", actor="Ann")
        seen.append((s.enc.round, s.enc.current, on_deck_checked(s.system, s.enc, [12])))  # Bo's save, whatever it gives
        s.run("next", [12], actor="Bo")
        seen.append((s.enc.round, s.enc.current, on_deck_checked(s.system, s.enc)))
        assert seen == [*ROUND_1, (2, "Ann", ("Bo",)), (2, "Bo", ("Cy",)), (2, "Cy", ("Ann",))]
    else:
        s.run("next", [12], actor="Ann")
        seen.append((s.enc.round, s.enc.current, on_deck_checked(s.system, s.enc)))
        assert seen == [*ROUND_1, (2, "Ann", ()), (2, "Cy", ("Ann",))]
