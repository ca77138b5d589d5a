"""What a fighter may do at all in its step or its turn to attack: a stunned one nothing ("can take no action
for 1d6 rounds"), a full action's phase no lengthy action, a weapon in hand drawn again changes nothing."""
from __future__ import annotations

import pytest

from rules.systems.war_and_combat import zones
from tests.rules.war_and_combat.build import alone, duel, fight, st, wac
from tests.scenario import Scenario

STUN_TEXT = "Stunned characters lose half their Defense (i.e., Base 5 + half Fighter rank) and can take no action for 1d6 rounds."


def _stun(s: Scenario, name: str, rounds: int = 6) -> None:
    """The GM's serious head wound on ``name``: stunned for ``rounds`` rounds (the 1d6)."""
    s.run("act", [rounds], action="damage", target=name, options={"serious": "", "head": ""})


def test_a_stunned_fighter_with_the_initiative_attacks_no_more_but_holds():
    """"Stunned characters ... can take no action for 1d6 rounds": Borin, stunned as he has the initiative in the
    flurry, may not attack; the refusal names the stun and its rounds and says what to do; holding passes the attack."""
    s = duel()
    fight(s)
    assert s.enc.current == "Borin"
    _stun(s, "Borin")
    msg = s.refused("attack", [5, 5, 5], actor="Borin", target="Grak")
    assert "Borin is stunned" in msg and "6 rounds" in msg and "/act action:hold" in msg and "/effect remove" in msg
    s.run("act", action="hold", actor="Borin")
    assert s.enc.current != "Borin"


def test_the_flurry_line_offers_a_stunned_fighter_only_the_hold():
    """"can take no action": the turn line does not tell a stunned fighter with the initiative to attack."""
    s = duel()
    fight(s)
    _stun(s, "Borin")
    label = s.system.present.turn_label(s.enc, s.system.facts(s.enc))
    assert "attacks" not in label and "stunned" in label and "/act action:hold" in label


@pytest.mark.parametrize(("kind", "fields"), [
    ("attack", {"target": "Grak", "weapon": "bow"}),
    ("act", {"action": "shed"}),
    ("act", {"action": "wield", "options": {"dagger": ""}}),
    ("act", {"action": "aim", "options": {"bow": ""}}),
    ("act", {"action": "sheathe"}),
    ("move", {"path": "N"}),
])
def test_a_fighter_stunned_in_its_own_step_takes_no_action_in_it(kind: str, fields: dict[str, object]):
    """"can take no action for 1d6 rounds": stunned in her own movement step, Alda neither shoots nor sheds, draws,
    aims, sheathes or moves: each is refused by the stun, and `/init next` still ends her step."""
    s = wac()
    s.add("Alda", "dex=14 fighter=3 skills=bow:3 weapons=bow,dagger armor=leather", side="dwarves", at="F9", facing="N")
    s.add("Grak", "weapons=axe", side="orcs", at="F3", facing="S", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    assert s.enc.current == "Alda"
    _stun(s, "Alda", 3)
    msg = s.refused(kind, [5, 5, 5] if kind == "attack" else [], actor="Alda", **fields)
    assert "Alda is stunned" in msg and "3 rounds" in msg and "/init next" in msg
    assert "stunned: no action" in s.system.present.turn_label(s.enc, s.system.facts(s.enc))
    assert not set(s.system.actions_for(s.enc, s.get("Alda"))) & {"shed", "wield", "aim", "sheathe", "stand", "free-attack"}
    s.run("next", actor="Alda")
    assert s.enc.current != "Alda"


def test_a_lengthy_action_is_refused_after_a_shot_in_the_same_phase():
    """"Full Actions prohibit movement; Lengthy Actions are Full Actions that take more than one round to perform":
    after shooting (a full action) in this phase, shedding armour waits for the next phase, as aiming does."""
    s = wac()
    s.add("Alda", "dex=14 fighter=3 skills=bow:3 weapons=bow armor=leather", side="dwarves", at="F9", facing="N")
    s.add("Grak", "weapons=axe", side="orcs", at="F3", facing="S", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    s.run("attack", [2, 2, 2], actor="Alda", target="Grak", weapon="bow")
    msg = s.refused("act", action="shed", actor="Alda")
    assert "spent this phase shooting (a full action)" in msg and "next movement step" in msg
    assert st(s, "Alda").busy is None


def test_drawing_the_weapon_already_in_hand_is_refused():
    """"Draw Weapon", a quick action: drawing the broadsword Borin already holds draws nothing; it is refused and his
    quick action is left for another."""
    s = alone("weapons=broadsword,dagger")
    msg = s.refused("act", action="wield", actor="Borin", options={"broadsword": ""})
    assert "Borin already has the broadsword in hand" in msg
    s.run("act", action="wield", actor="Borin", options={"dagger": ""})
    assert st(s, "Borin").wield == "dagger"


@pytest.mark.parametrize(("weapons", "other"), [("bow,short-sword", "short-sword"), ("crossbow,dagger", "dagger")])
def test_the_first_weapon_listed_is_in_hand_even_a_missile_weapon(weapons: str, other: str):
    """The sheet's `weapons`: "catalogue weapons carried, the first in hand"; a fighter with "a bow in hand" has no
    zone of threat; "A character may perform one quick action during each movement phase ... These include ...
    drawing weapons": the bow or crossbow listed first is in hand, the melee weapon after it is carried and drawn
    with `wield` (not refused as already in hand), and only then does it threaten."""
    s = alone(f"weapons={weapons}")
    borin = s.get("Borin")
    assert zones.wielded(borin).name == weapons.split(",")[0]
    assert zones.threat(s.enc.grid(), borin) == frozenset()
    s.run("act", action="wield", actor="Borin", options={other: ""})
    borin = s.get("Borin")
    assert zones.wielded(borin).name == other.replace("-", " ")
    assert zones.threat(s.enc.grid(), borin) != frozenset()
