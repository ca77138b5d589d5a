"""The target checks every system makes before its own, written once in rules/targets.py."""
from __future__ import annotations

import pytest

from rules.errors import IllegalAction, InputError
from rules.models import Combatant, Encounter
from rules.targets import attack_target


def _enc() -> Encounter:
    enc = Encounter(system="open")
    enc.combatants = [Combatant(name="Ann", side="players", position="A1"),
                      Combatant(name="Bo", side="players", position="B1"),
                      Combatant(name="Orc", side="monsters", position="C1"),
                      Combatant(name="Imp", side="monsters", status="out"),
                      Combatant(name="Ghost", side="monsters")]
    return enc


def test_a_target_must_be_named() -> None:
    """No `target`: the refusal says which option names it."""
    enc = _enc()
    with pytest.raises(InputError, match="in `target`"):
        attack_target(enc, enc.get("Ann"), None)


def test_no_attack_on_oneself() -> None:
    """A combatant cannot be its own target."""
    enc = _enc()
    with pytest.raises(IllegalAction, match="cannot attack itself"):
        attack_target(enc, enc.get("Ann"), "Ann")


def test_a_combatant_out_of_the_fight_is_refused_in_the_systems_word() -> None:
    """A combatant out of the fight is refused, in the word the system passes."""
    enc = _enc()
    with pytest.raises(IllegalAction, match="Imp is already destroyed"):
        attack_target(enc, enc.get("Ann"), "Imp", gone="destroyed")


def test_own_side_refused_only_where_the_system_says() -> None:
    """An ally is a target unless the system passes ``foe``."""
    enc = _enc()
    assert attack_target(enc, enc.get("Ann"), "Bo").name == "Bo"
    with pytest.raises(IllegalAction, match="on Ann's side"):
        attack_target(enc, enc.get("Ann"), "Bo", foe=True)


def test_on_map_names_who_is_missing() -> None:
    """With ``on_map``, a target off the map is refused, naming it."""
    enc = _enc()
    assert attack_target(enc, enc.get("Ann"), "Orc", on_map=True).name == "Orc"
    with pytest.raises(IllegalAction, match="Ghost is not on the map"):
        attack_target(enc, enc.get("Ann"), "Ghost", on_map=True)
