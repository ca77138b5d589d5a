"""The one end-of-fight rule (`RuleSystem.check_victory`, `decide`, `check_decided`, `finish`), the
same in every system: DESIGN.md "End of the fight"."""
from __future__ import annotations

import random

import pytest

from rules.actions import make_action
from rules.dice import Dice
from rules.errors import IllegalAction
from rules.events import Finished, Victory
from tests.scenario import Scenario

#: per system: Borin's sheet and Grak's, and where they stand (no map in TOTE)
FIGHTS = {
    "coup-de-grace": ("class=heavy weapons=hammer", "class=light weapons=axe", "C3", "D3"),
    "damage-grid": ("body=2 weapons=gravity-saber:2:4:3:melee", "body=2", "C3", "D3"),
    "knights-of-valour": ("hp=10 weapons=club:1", "hp=10 weapons=club:1", "C3", "D3"),
    "tote": ("hawk=2 plan=2 strike=3 weapon=axe:2:slash", "rating=2 tohit=3 weapon=club:2:bash", None, None),
    "war-and-combat": ("fighter=6 skills=axe:2 weapons=axe", "fighter=3 skills=axe:2 weapons=axe", "C4", "D4"),
}


def fight(key: str) -> Scenario:
    """Borin (a player's, side `a`) against Grak (the GM's, side `b`), started."""
    borin, grak, b_at, g_at = FIGHTS[key]
    s = Scenario(key)
    facing = {"facing": "N"} if s.system.uses_facing else {}
    s.add("Borin", borin, side="a", at=b_at, **facing)
    s.add("Grak", grak, side="b", at=g_at, owner=None, **facing)
    s.enc = s.system.resolve(s.enc, make_action("init_roll", is_gm=True), Dice(rng=random.Random(1))).encounter
    assert s.enc.started and not s.enc.winner
    return s


@pytest.mark.parametrize("key", ["damage-grid", "knights-of-valour", "tote", "war-and-combat"])
def test_a_helpless_last_foe_decides_the_fight_once_and_a_coup_de_grace_finishes_it(key: str) -> None:
    """"When one side alone has combatants able to act, the bot announces the result once; then only
    finishing blows (coup de grâce on the helpless), GM edits, undo, end, log and export are allowed.\""""
    s = fight(key)
    s.enc.get("Grak").status = "downed"  # what each system's rules mark helpless
    assert s.system.check_victory(s.enc) == [Victory(side="a", helpless=["Grak"])]
    assert s.system.check_victory(s.enc) == []  # announced once
    assert "The fight is decided (a won)" in s.refused("next", actor="Borin", error=IllegalAction)
    assert "The fight is decided" in s.refused("effect_add", effect="Bless", actor="Borin", gm=False)
    s.run("edit", actor="Borin", side="a")  # the GM's edits go on
    assert "not a helpless foe" in s.refused("coupdegrace", actor="Borin", target="Borin")
    res = s.run("coupdegrace", actor="Borin", target="Grak", gm=False)
    assert res.events == [Finished(actor="Borin", target="Grak")] and s.enc.get("Grak").status == "out"


def test_a_downed_mini_still_acts_in_coup_de_grace() -> None:
    """Coup-De-Grace: "you win the game if all other players combatants have been taken ''out of action''": a downed mini still acts."""
    s = fight("coup-de-grace")
    s.enc.get("Grak").status = "downed"
    assert s.system.check_victory(s.enc) == []
    s.enc.get("Grak").status = "out"
    assert s.system.check_victory(s.enc) == [Victory(side="a", helpless=[])]


@pytest.mark.parametrize("key", sorted(FIGHTS))
def test_removing_the_last_foe_decides_the_fight(key: str) -> None:
    """"Removing the last foe decides the fight the same way": no round goes on without a foe."""
    s = fight(key)
    res = s.run("remove", actor="Grak")
    assert s.enc.winner == "a" and s.enc.current is None
    assert [e for e in res.events if isinstance(e, Victory)] == [Victory(side="a")]
