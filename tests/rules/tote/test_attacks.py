"""TOTE: injuries, unconsciousness, coup-de-grace and victory."""

from __future__ import annotations

import pytest

from rules.errors import IllegalAction
from rules.models import Encounter
from tests.rules.tote.build import (
    BORIN,
    GRAK,
    SYSTEM,
    THRAIN,
    fight,
    resolve,
    step,
    text,
    who,
)


# -- injuries, unconsciousness and coup-de-grace --------------------------------------------------------
def test_injury_bars_the_face_in_a_real_attack() -> None:
    """A wounded hero with [5] filled rolls 5 and 2: it keeps the 2, and the reply says the 5 is barred."""
    enc = fight(("Ann", "strike=2", "heroes", 5), ("Grak", "rating=2", "foes", 3))
    enc = step(enc, "next", actor="Ann")
    enc = step(enc, "attack", [6, 1, 2], actor="Grak")  # 8 vs 8: 1 success, fists 1: fills [5]
    assert who(enc, "Ann").state.filled == 1 and enc.round == 2 and enc.current == "Ann"
    res = resolve(enc, "attack", [5, 2, 4], actor="Ann")
    assert "(5 barred by injuries) keep 2" in text(res) and who(res.encounter, "Grak").hp == 6
    assert "injury_bars" in SYSTEM.options_help
    free = Encounter.model_validate({**enc.model_dump(), "settings": {"options": {"injury_bars": "no"}}})
    assert who(resolve(free, "attack", [5, 2, 4], actor="Ann").encounter, "Grak").hp == 5


def test_filling_u_knocks_out_and_coup_de_grace_finishes() -> None:
    """Filling U makes the foe unconscious (downed); attacks are refused; `/coupdegrace` takes it out."""
    foes = (("Grak", "rating=2 track=1,U", "foes", 3), ("Mog", "rating=1", "foes", 1))
    res = resolve(fight(BORIN, *foes), "attack", [2, 3, 6, 3], actor="Borin", target="Grak")
    enc = res.encounter
    grak = who(enc, "Grak")
    assert grak.status == "downed" and grak.hp == 0 and "unconscious" in text(res) and enc.state.engaged == []
    enc = step(enc, "next", actor="Mog")
    assert enc.round == 2
    with pytest.raises(IllegalAction, match="coupdegrace"):
        resolve(enc, "attack", [1, 1, 1, 1], actor="Borin", target="Grak")
    with pytest.raises(IllegalAction, match="not unconscious"):
        resolve(enc, "coupdegrace", actor="Borin", target="Mog")
    enc = step(enc, "coupdegrace", actor="Borin", target="Grak")
    assert who(enc, "Grak").status == "out" and who(enc, "Borin").initiative == 4 - 1


def test_coup_de_grace_waits_for_melee_rounds() -> None:
    """A coup-de-grace is refused in distance rounds."""
    with pytest.raises(IllegalAction, match="melee blow"):
        resolve(fight(distance="far"), "coupdegrace", actor="Borin", target="Grak")


@pytest.mark.parametrize(("victory", "winner"), [(None, "heroes"), ("out", None)])
def test_victory_when_no_foe_is_conscious(victory: str | None, winner: str | None) -> None:
    """By default a side with nobody conscious has lost; `victory=out` waits until all are out."""
    options = {"victory": victory} if victory else {}
    enc = fight(BORIN, ("Grak", "rating=2 track=1,U", "foes", 3), **options)
    assert step(enc, "attack", [2, 3, 6, 3], actor="Borin", target="Grak").winner == winner




def test_a_strike_on_an_ally_or_a_fallen_foe_is_refused_as_in_every_system() -> None:
    """"Make a standard Strike test against a selected foe": an ally, or a foe out of the fight, is refused by the
    target check every system shares."""
    enc = fight(BORIN, THRAIN, GRAK)
    with pytest.raises(IllegalAction, match="Thrain is on Borin's side: pick an enemy"):
        resolve(enc, "attack", [1, 1, 1, 1], actor="Borin", target="Thrain")
    who(enc, "Grak").status = "out"  # taken out (a coup-de-grace)
    with pytest.raises(IllegalAction, match="Grak is already out of the fight: pick another target"):
        resolve(enc, "attack", [1, 1, 1, 1], actor="Borin", target="Grak")
