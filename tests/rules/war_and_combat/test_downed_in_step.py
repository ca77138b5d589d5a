"""A fighter downed in its own step, or while it holds the flurry's initiative, takes no action in it: "Only mortally
wounded characters are incapable of performing any action" (the unconscious none either)."""
from __future__ import annotations

import pytest

from tests.rules.war_and_combat.build import BORIN, GRAK, duel, near, wac
from tests.scenario import Scenario


def _alda_to_step() -> Scenario:
    """Borin and Grak engaged (a flurry to come); Alda (dwarves) unengaged two hexes N of Grak, at her movement step."""
    s = wac(tactics_skew="no")
    s.add("Borin", BORIN, side="dwarves", at="D4", facing="SE")
    s.add("Grak", GRAK, side="orcs", at=near(s, "D4", "SE"), facing="NW", owner=None)
    s.add("Alda", "fighter=3 size=2 skills=axe:2 weapons=axe,bow", side="dwarves", at="E3", facing="S")
    s.run("init_roll", [5, 5, 4, 1, 1, 2, 5, 5, 5])
    s.run("next", actor="Borin")
    assert s.enc.current == "Alda"
    return s


@pytest.mark.parametrize(("kind", "fields"), [
    ("move", {"path": "S"}),
    ("act", {"action": "sheathe"}),
    ("act", {"action": "wield", "options": {"bow": ""}}),
])
def test_a_fighter_mortally_wounded_by_its_own_free_attack_s_blow_takes_no_more_of_its_step(kind: str, fields: dict[str, object]):
    """Docs: "unconscious or mortally wounded is `downed` ("Only mortally wounded characters are incapable of
    performing any action")": Alda's free attack fails its negotiate and Grak's blow mortally wounds her: her step ends there
    (Grak's comes), and a move, a sheathe or a draw of hers is refused as the downed's, not by whose step it is."""
    s = _alda_to_step()
    s.run("act", [1, 1, 2, 6, 6, 6, 6, 6, 6, 6, 6], action="free-attack", actor="Alda", target="Grak")
    assert s.get("Alda").status == "downed"
    assert s.enc.current == "Grak" and "Alda" in s.enc.state.acted
    msg = s.refused(kind, actor="Alda", **fields)
    assert "Alda is downed (mortally wounded" in msg and "takes no action" in msg


def test_a_fighter_the_gm_wounds_mortally_in_its_step_takes_no_more_of_it():
    """Docs: "unconscious or mortally wounded is `downed` ("Only mortally wounded characters are incapable of
    performing any action")": the GM's mortal wound in Alda's own step ends it; her move is refused, and her player's `/init next`
    ends nobody else's step."""
    s = _alda_to_step()
    s.run("act", action="damage", target="Alda", options={"mortal": "", "left": "", "leg": ""})
    assert s.enc.current == "Grak"
    assert "downed" in s.refused("move", actor="Alda", path="S")
    s.refused("next", actor="Alda")
    assert s.enc.current == "Grak"


def test_a_fighter_knocked_out_in_its_step_is_refused_as_downed_not_as_waiting_for_its_stun():
    """A critical head wound knocks Alda out (unconscious, and stunned 1d6 rounds): her step ends, and the refusal
    says she is downed, not that she "waits for the stun to end" (its end would not let her act)."""
    s = _alda_to_step()
    s.run("act", [3], action="damage", target="Alda", options={"critical": "", "head": ""})
    assert s.get("Alda").status == "downed" and s.enc.current == "Grak"
    msg = s.refused("move", actor="Alda", path="S")
    assert "Alda is downed (unconscious)" in msg and "stun" not in msg


def test_a_fighter_downed_while_holding_the_flurry_s_initiative_attacks_no_more():
    """Docs: "unconscious or mortally wounded is `downed` ("Only mortally wounded characters are incapable of
    performing any action")": Borin, mortally wounded by the GM as he holds the flurry's initiative, makes no attack: the
    attack passes on as after a blow from outside the flurry (here nobody is left to fight: the flurry ends)."""
    s = duel()
    s.add("Alda", "fighter=1 weapons=axe", side="dwarves", at="P12", facing="N")
    s.run("init_roll", [5, 5, 4, 2, 3, 2, 1, 1, 1])
    while s.enc.phase == "movement":
        s.run("next", actor=s.enc.current)
    s.run("act", action="declare", actor="Borin", options={"intent": "kill", "tactic": "hold"})
    s.run("act", [5, 5, 4, 2, 3, 2], action="declare", actor="Grak", options={"intent": "kill", "tactic": "press"})
    assert s.enc.current == "Borin"
    s.run("act", action="damage", target="Borin", options={"mortal": "", "left": "", "leg": ""})
    assert s.enc.current != "Borin" and not s.enc.winner
    msg = s.refused("attack", [5, 5, 5], actor="Borin", target="Grak")
    assert "Borin is downed (mortally wounded" in msg
