"""The defender's choices at declaration: guard the flank (`guard=flank`), face one of several attackers (`face=`)."""
from __future__ import annotations

from rules.systems.war_and_combat.attacks import defense
from rules.systems.war_and_combat.events import FacedAttacker
from tests.rules.war_and_combat.build import duel, near, st, wac
from tests.scenario import Scenario


def beset() -> Scenario:
    """Grak (Fighter 6, AGL 13, large shield) at F6 facing N, Front to his N and Flank to his SE, in one flurry."""
    s = wac()
    s.add("Grak", "fighter=6 agl=13 weapons=axe shield=large", side="orcs", at="F6", facing="N", owner=None)
    s.add("Front", "skills=axe:2 weapons=axe", side="dwarves", at=near(s, "F6", "N"), facing="S")
    s.add("Flank", "skills=axe:2 weapons=axe", side="dwarves", at=near(s, "F6", "SE"), facing="NW")
    s.run("init_roll", [6, 6, 5, 2, 2, 3, 2, 2, 4])
    while s.enc.phase == "movement":
        s.run("next", actor=s.enc.current)
    return s


def declare_all(s: Scenario, grak: dict[str, str]) -> None:
    s.run("act", action="declare", actor="Front", options={})
    s.run("act", action="declare", actor="Flank", options={})
    s.run("act", [6, 6, 5, 2, 2, 3, 2, 2, 4], action="declare", actor="Grak", options=grak)


def defenses(s: Scenario) -> tuple[tuple[int, str], tuple[int, str]]:
    grid, opts = s.enc.grid(), s.system.option_values(s.enc)
    grak = s.get("Grak")
    return defense(s.enc, opts, grid, grak, s.get("Front")), defense(s.enc, opts, grid, grak, s.get("Flank"))


def test_flank_attacks_are_undefended_unless_the_flank_is_guarded():
    """"Attacks from the flanks may be defended against at half skill level, but only if the defender forfeits his defenses from the front hexes"."""
    s = beset()
    declare_all(s, {})
    assert defenses(s) == ((10 + 6 + 1 + 2, "front"), (3, "flank_unguarded"))


def test_guarding_the_flank_forfeits_the_front():
    """`guard=flank`: flank attacks meet half the Fighter rank, front attacks no defence at all."""
    s = beset()
    declare_all(s, {"guard": "flank"})
    assert defenses(s) == ((3, "front_forfeited"), (10 + 3 + 1, "flank"))


def test_bad_guard_and_face_are_refused():
    """`guard` is front or flank; `face` names an opponent in the flurry."""
    s = beset()
    assert "`guard` must be one of `front`, `flank`, not `rear`" in s.refused("act", action="declare", actor="Grak", options={"guard": "rear"})
    assert "Front or Flank" in s.refused("act", action="declare", actor="Grak", options={"face": "Grak"})


def test_the_defender_chooses_whom_to_face():
    """"In the case where multiple opponents attack a lone defender, the defender may choose which direction to face" (-1 Defense for turning)."""
    s = beset()
    s.run("act", action="declare", actor="Front", options={})
    s.run("act", action="declare", actor="Flank", options={})
    res = s.run("act", [6, 6, 5, 2, 2, 3, 2, 2, 4], action="declare", actor="Grak", options={"face": "Flank"})
    assert any(isinstance(e, FacedAttacker) and e.actor == "Grak" and e.facing == "SE" for e in res.events)
    assert s.get("Grak").facing == "SE" and st(s, "Grak").turned
    front, flank = defenses(s)
    assert flank == (10 + 6 + 1 + 2 - 1, "front")


def test_facing_one_already_in_front_costs_nothing():
    """Choosing to face an opponent already in the front hexes turns nobody and costs no Defense."""
    s = duel()
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    while s.enc.phase == "movement":
        s.run("next", actor=s.enc.current)
    s.run("act", action="declare", actor="Borin", options={})
    res = s.run("act", [5, 5, 4, 2, 3, 2], action="declare", actor="Grak", options={"face": "borin"})
    assert not any(isinstance(e, FacedAttacker) for e in res.events) and not st(s, "Grak").turned


def _turned_polearm(borin_at: str, borin: str) -> Scenario:
    """Grak with a polearm, his back to Borin (at ``borin_at`` steps from D4, with ``borin``'s weapon), brought to
    the flurry: he is turned to face Borin as it begins."""
    s = wac()
    s.add("Grak", "fighter=3 weapons=polearm", side="orcs", at="D4", facing="NW", owner=None)
    s.add("Borin", f"fighter=6 {borin}", side="dwarves", at=near(s, "D4", *borin_at.split()), facing="NW")
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    while s.enc.phase == "movement":
        s.run("next", actor=s.enc.current)
    return s


def test_a_polearm_turned_to_a_foe_in_its_gap_takes_no_penalty():
    """"A fighter who must turn to place the attacker into his zone of threat receives a -1 penalty to Defense for the
    entire flurry"; "For polearms, the zone of threat leaves a gap between the polearm head and the wielder": Grak,
    turned to face Borin a hex off, does not place him in his zone of threat (the gap), so his Defense is not cut; at
    two hexes the turn places Borin in it, and costs the -1."""
    s = _turned_polearm("SE", "weapons=broadsword")
    assert s.enc.phase == "flurry" and s.get("Grak").facing == "SE" and not st(s, "Grak").turned
    t = _turned_polearm("SE SE", "weapons=spear")
    assert t.enc.phase == "flurry" and t.get("Grak").facing == "SE" and st(t, "Grak").turned


def _turned_without_zone(grak: str, **state: object) -> tuple[Scenario, list[str]]:
    """Grak (``grak``'s sheet, his combat state set to ``state``), his back to Borin a hex off, turned to face him
    as the flurry begins: the flurry's replies."""
    s = wac()
    s.add("Grak", f"fighter=3 {grak}", side="orcs", at="D4", facing="NW", owner=None)
    s.add("Borin", "fighter=6 weapons=broadsword", side="dwarves", at=near(s, "D4", "SE"), facing="NW")
    grak_state = st(s, "Grak")
    for k, v in state.items():
        setattr(grak_state, k, v)
    text = s.text(s.run("init_roll", [5, 5, 4, 2, 3, 2]))
    while s.enc.phase == "movement":
        text += s.text(s.run("next", actor=s.enc.current))
    return s, text


def test_a_fighter_with_no_zone_of_threat_turned_to_face_takes_no_penalty():
    """"A fighter who must turn to place the attacker into his zone of threat receives a -1 penalty to Defense for the
    entire flurry": Grak with a bow in hand, or his axe dropped or sheathed, has no zone of threat, so his turn to
    face Borin places nobody in it: no penalty, and the reply says why, as for a polearm's gap."""
    cases = [("weapons=bow", {}, "a missile weapon in hand"), ("weapons=axe", {"dropped": ["axe"]}, "no weapon in hand"),
             ("weapons=axe", {"sheathed": True}, "no weapon in hand")]
    for grak, state, why in cases:
        s, text = _turned_without_zone(grak, **state)
        assert s.enc.phase == "flurry" and s.get("Grak").facing == "SE" and not st(s, "Grak").turned, grak
        line = next(t for t in text if t.startswith("**Grak** turns to face SE"))
        assert "no Defense penalty" in line and why in line and "no zone of threat" in line, line

