"""The rules name terms and effects by code and work out what the board shows (`WacFacts`); the presenter words
them and computes nothing: a code it has no words for, or a rules module it imports, is caught here."""
from __future__ import annotations

import ast
from pathlib import Path

import rules.systems.war_and_combat as package
from rules.events import InitiativeSet, Roll, Term, mod
from rules.system import Resolution
from rules.systems.war_and_combat.events import (
    EffectTaken,
    Revealed,
    Struck,
    WacAttacked,
    WacInitiative,
)
from rules.systems.war_and_combat.facts import WacFacts
from rules.systems.war_and_combat.present import TERM_ARGS, WacPresenter
from rules.systems.war_and_combat.state import WoundRecord
from rules.systems.war_and_combat.turns import add_effect
from tests.rules.war_and_combat.build import (
    SYSTEM,
    adjusting,
    alone,
    duel,
    fight,
    st,
    wac,
)

FOLDER = Path(package.__file__).parent
#: what the presenter may import: the core's events, facts, hidden, present, report, text, models and
#: turns, and its own system's events, state, facts and constants
PRESENTER_IMPORTS = {"__future__", "typing", "collections.abc", "rules.events", "rules.facts", "rules.hidden",
                     "rules.present", "rules.report", "rules.text", "rules.models", "rules.turns",
                     f"{package.__name__}.events", f"{package.__name__}.state", f"{package.__name__}.facts"}


def _term_calls() -> list[tuple[str, int, ast.expr | None]]:
    """Every ``mod(...)``, ``Term(...)`` and ``Modifier(...)`` of the rules (not the presenter): file, line, code given."""
    found = []
    for path in sorted(FOLDER.glob("*.py")):
        if path.name == "present.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("mod", "Term", "Modifier"):
                code = next((k.value for k in node.keywords if k.arg == "code"), node.args[0] if node.args else None)
                found.append((path.name, node.lineno, code))
    return found


def test_a_defenses_rule_is_a_code_the_presenter_words():
    """"Attacks from the flank are defended at half the Fighter rank" only where the flank is guarded: the rule a
    Defense came from is a code (``flank_unguarded``), worded as players read it."""
    present = SYSTEM.present
    assert present.term(Term(code="defense", args=["flank_unguarded"])) == "Defense (flank, unguarded)"
    assert present.term(Term(code="defense_restricted", args=["front"])) == "Defense (front, restricted)"
    assert present.term(Term(code="defense_aware", args=["front_forfeited"])) == "Defense (front, forfeited), point blank, aware"
    assert present.term(Term(code="range", args=["point blank", "evading"])) == "point blank range, evading"
    assert present.term(mod("attribute", 1, "agl")) == "AGL"
    assert set(TERM_ARGS) <= set(WacPresenter._term_words())


def test_the_skew_die_is_a_fact_of_the_initiative_not_its_label():
    """"Optional: the side with the higher tactics skill gets a high skew die for the roll": the roll's label
    stays its dice, the event says the skew die, and the text reads as it did (the GM turns the optional rule on)."""
    s = wac(tactics_skew="yes")
    s.add("Borin", "fighter=6 skills=tactics:2", side="dwarves", at="B2", facing="S")
    s.add("Grak", "fighter=3", side="orcs", at="L10", facing="N", owner=None)
    res = s.run("init_roll", [2, 3, 4, 1, 5, 6, 6])
    inits = {e.actor: e for e in res.events if isinstance(e, InitiativeSet)}
    borin, grak = inits["Borin"], inits["Grak"]
    assert isinstance(borin, WacInitiative) and borin.high_skew and borin.roll is not None and borin.roll.label == "3d6"
    assert isinstance(grak, WacInitiative) and not grak.high_skew
    assert borin.roll.modifiers == [mod("fighter", 6)]
    assert ("**Borin** initiative **15** (🎲 2✍, 3✍, 4✍, 1✍ (3d6 + a high skew die, the best 3 kept: the side with the "
            "better Tactics) +6 Fighter = **15**)") in s.text(res)


def test_critical_dice_are_a_fact_of_the_blow_not_the_impact_label():
    """"every 5 points over the target gives the attacker an additional die of impact": the impact roll's label is
    its dice (3d6-2), the critical dice are the event's, and the text names them as it did; the table's -2 is shown
    once, in the dice (the IMPACT CAP table gives them with it: "8-12 2d6-1")."""
    s = duel(borin="skills=broadsword:9")
    fight(s)
    res = s.run("attack", [5, 5, 4, 4, 4, 3, 2, 2, 2, 3, 1, 2], actor="Borin", target="Grak")  # 24 vs 13: 11 over
    hit = next(e for e in res.events if isinstance(e, Struck))
    assert hit.impact.label == "3d6-2" and hit.critical_dice == 2
    line = next(t for t in s.text(res) if "impact" in t)
    assert "impact 🎲 2✍, 2✍, 2✍, 3✍, 1✍ (3d6-2 +2d6 critical) = **8**" in line and "table" not in line


def test_an_old_logs_impact_roll_with_its_critical_dice_in_the_label_reads_as_it_did():
    """A blow logged when the impact label named the critical dice reads back with the label its dice only."""
    old = {"actor": "Grak", "location": "chest", "by": "Borin", "cap": 16, "dice": "3d6-2", "critical_dice": 1,
           "impact": {"dice": [2, 2, 2, 3], "label": "3d6-2 +1d6 critical", "modifiers": [{"name": "table", "value": -2}],
                      "total": 7}, "effective": 7, "penetrating": True}
    hit = Struck.model_validate(old)
    assert hit.impact.label == "3d6-2"
    assert "(3d6-2 +1d6 critical) = **7**" in SYSTEM.present.text(hit)


def test_a_near_miss_is_a_parry_the_rules_say():
    """"If the attack roll is close to hitting (within three points or so), but not quite, then it indicates a parry,
    block, or dodge": the rules mark the miss (12 vs 13) parried, not the wide one (6 vs 17), nor a hit."""
    s = duel()
    fight(s)
    near_miss = next(e for e in s.run("attack", [2, 3, 3], actor="Borin", target="Grak").events if isinstance(e, WacAttacked))
    assert near_miss.parried and near_miss.roll.versus == Term(code="defense", args=["front"])
    wide = next(e for e in s.run("attack", [1, 1, 2], actor="Grak", target="Borin").events if isinstance(e, WacAttacked))
    assert not wide.parried and not wide.roll.success


def test_a_parry_is_not_told_where_the_numbers_are_hidden():
    """How close a miss came is told by its numbers: with the total hidden, the text says a miss only."""
    roll = Roll(dice=[2, 3, 3], label="3d6", total=12, against=13, versus=Term(code="defense", args=["front"]), success=False)
    e = WacAttacked(actor="Grak", target="Borin", weapon="axe", roll=roll, parried=True)
    assert SYSTEM.present.text(e).endswith(": miss, parried, blocked or dodged")
    hidden = SYSTEM.present.view(duel().enc, frozenset({"Grak"})).marked(e)
    assert "the GM's roll" in hidden and hidden.endswith(": miss⟦/h⟧")


def test_the_facts_carry_the_worst_wound_of_each_location_and_the_stunned():
    """"Injured characters receive an action penalty according to the worst wound suffered for each hit location"
    and "Stunned characters ... can take no action for 1d6 rounds": the facts hold, per fighter, the worst wound
    of each location (first wounded first) and who is stunned; the status line shows them."""
    s = duel()
    fight(s)
    st(s, "Grak").wounds = [WoundRecord(location="left leg", severity="serious", penetrating=False),
                            WoundRecord(location="chest", severity="light", penetrating=False),
                            WoundRecord(location="left leg", severity="light", penetrating=True),
                            WoundRecord(location="chest", severity="critical", penetrating=False)]
    add_effect(s.enc, s.get("Grak"), "stun", 2)
    facts = SYSTEM.facts(s.enc)
    assert isinstance(facts, WacFacts)
    assert facts.wounds == {"Grak": (("left leg", "serious", "B16"), ("chest", "critical", "B19"))}
    assert facts.idle == {"Grak": "stunned"}
    line = SYSTEM.present.status_line(s.enc, s.get("Grak"), facts)
    assert "wounds left leg serious B16, chest critical B19" in line and "stunned" in line
    assert "stunned" not in SYSTEM.present.status_line(s.enc, s.get("Borin"), facts)


def test_the_facts_carry_a_polearms_zone_limit_only_while_it_is_wielded():
    """"If the polearm wielder limits the zone of threat to one or two hexes": the limit is a fact while the
    polearm is in hand; taking another weapon in hand leaves it unshown."""
    s = alone("weapons=polearm,dagger")
    s.run("act", action="limit", actor="Borin", options={"right": ""})
    facts = SYSTEM.facts(s.enc)
    assert facts.zone_limits == {"Borin": "right"}
    assert "zone of threat: right" in SYSTEM.present.status_line(s.enc, s.get("Borin"), facts)
    s.run("act", action="wield", actor="Borin", weapon="dagger")
    assert st(s, "Borin").limit == "right" and SYSTEM.facts(s.enc).zone_limits == {}


def test_the_facts_carry_a_lengthy_action_under_way():
    """"Lengthy Actions are Full Actions that take more than one round to perform" (Don/Shed Armor): the facts
    say what is under way and with which armour, and the status line words it."""
    s = alone("armor=mail")
    s.run("act", action="shed", actor="Borin")
    facts = SYSTEM.facts(s.enc)
    assert facts.busy == {"Borin": ("shed", "mail")}
    assert "shedding its mail (done at round 3)" in SYSTEM.present.status_line(s.enc, s.get("Borin"), facts)
    t = alone()
    t.run("act", action="don", actor="Borin", options={"plate": ""})
    assert SYSTEM.facts(t.enc).busy == {"Borin": ("don", "plate")}


def test_the_facts_say_who_is_to_declare_and_who_next():
    """"The attacker has the benefit of declaring his intention first, to which the defender must respond":
    declaring in turn, the facts name all yet to declare and the one whose declaration is awaited now."""
    s = duel(declare="public")
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    s.run("next", actor="Borin")
    s.run("next", [1, 1, 2, 6, 6, 5], actor="Grak")  # the flurry begins: Borin 4 + 6 = 10, Grak 17 + 3 = 20
    facts = SYSTEM.facts(s.enc)
    assert set(facts.waiting) == {"Borin", "Grak"} and facts.to_declare == ("Grak",)
    assert "(Grak next)" in SYSTEM.present.board(s.enc, facts).text()
    s.run("act", action="declare", actor="Grak", options={"intent": "kill"})
    facts = SYSTEM.facts(s.enc)
    assert facts.waiting == ("Borin",) and facts.to_declare == ("Borin",)
    s.run("act", action="declare", actor="Borin", options={"intent": "kill"})
    facts = SYSTEM.facts(s.enc)
    assert facts.waiting == () and facts.to_declare == ()


def _effects(res: Resolution) -> list[EffectTaken]:
    return [e for e in res.events if isinstance(e, EffectTaken)]


def test_a_lengthy_actions_events_name_the_armour_and_the_round_not_words():
    """"Lengthy Actions are Full Actions that take more than one round to perform": its event names what (shed or
    don), the armour and the round it is done; the presenter makes the sentence."""
    s = alone("armor=mail")
    res = s.run("act", action="shed", actor="Borin")
    assert [(e.effect, e.args, e.item, e.detail) for e in _effects(res)] == [("lengthy", ["shed", 3], "mail", None)]
    assert ("**Borin** begins a lengthy action: shedding its mail, done at the start of round 3; no moving or "
            "shooting meanwhile") in s.text(res)
    # as logged before the armour had a field of its own: the same sentence
    logged = EffectTaken(actor="Borin", effect="lengthy", args=["shed", "mail", 3])
    assert s.system.present.report("", [logged]).lines == [line for line in s.text(res) if "lengthy" in line]


def test_a_hidden_fighters_lengthy_action_keeps_its_armour_from_players():
    """A hidden fighter's sheet is the GM's: its lengthy action ("Lengthy Actions are Full Actions that take more than
    one round to perform") is told to players without the armour it sheds or dons, begun, done or broken off; the
    round it is done is everyone's."""
    from rules.hidden import public_copy
    from rules.systems.war_and_combat import lengthy

    s = alone("armor=mail")
    events = s.run("act", action="shed", actor="Borin").events
    done, broken = s.enc.model_copy(deep=True), s.enc.model_copy(deep=True)
    done.round = 3
    events += lengthy.finish(done, done.get("Borin")) + lengthy.break_off(broken.get("Borin"))
    gm = s.system.present.report("", events).lines
    players = s.system.present.report("", [public_copy(e, frozenset({"Borin"})) for e in events]).lines
    assert [x for x in gm if "mail" in x] == [
        "**Borin** begins a lengthy action: shedding its mail, done at the start of round 3; no moving or shooting "
        "meanwhile", "**Borin** has shed its mail", "**Borin** is drawn into a fight: it stops shedding its mail (a "
        "lengthy action broken off)"]
    assert [x for x in players if "armour" in x] == [x.replace("mail", "armour") for x in gm if "mail" in x], players


def test_a_tactics_step_names_the_tactic_its_way_and_the_opponent():
    """"Circle: ... in a circle around the opponent" and retreat: the event names the tactic, the way and the
    opponent; the words are the presenter's."""
    s = adjusting("circle")
    res = s.run("act", action="circle", actor="Borin", target="Grak", options={"way": "ccw"})
    assert [(e.effect, e.args) for e in _effects(res)] == [("tactic", ["circle", "ccw", "Grak"])]
    assert "**Borin** circles counter-clockwise round Grak (its manoeuvre tactic)" in s.text(res)
    s = adjusting("retreat")
    res = s.run("act", action="retreat", actor="Borin", target="Grak")
    assert [(e.effect, e.args) for e in _effects(res)] == [("tactic", ["retreat", "NW", "Grak"])]
    assert "**Borin** retreats NW from Grak (its manoeuvre tactic)" in s.text(res)


def test_the_gms_wound_and_healing_name_severity_and_place_not_words():
    """The GM's `damage` names the wound's severity, its place and what the text calls it ("broken bones"), and
    `heal` the place and the severities healed; the presenter words both as before."""
    s = duel()
    res = s.run("act", action="damage", target="Grak", options={"critical": "", "left": "", "arm": ""})
    assert _effects(res)[0].args == ["critical", "left arm", "broken bones"]
    assert "**Grak** takes a critical wound to the left arm (broken bones)" in s.text(res)[0]
    res = s.run("act", action="heal", target="Grak", options={"left": "", "arm": ""})
    assert _effects(res)[0].args == ["left arm", "critical"]
    assert "**Grak** is healed of its critical left arm wound" in s.text(res)[0]


def test_effects_and_reveals_logged_in_words_read_as_they_did():
    """An effect logged with its words in ``detail``, and a reveal with a fighter's other choices in words, still
    read as they did."""
    present = SYSTEM.present
    old = EffectTaken.model_validate({"actor": "Borin", "effect": "tactic", "detail": "retreats NW from Grak"})
    assert present.text(old) == "**Borin** retreats NW from Grak (its manoeuvre tactic)"
    reveal = Revealed.model_validate({"choices": {"Grak": ["kill", "hold"]}, "extra": {"Grak": "guard flank"}})
    assert present.text(reveal) == "Declarations revealed: **Grak** kill, hold, guard flank"
    new = Revealed(choices={"Grak": ("kill", "hold")}, extra={"Grak": {"guard": "flank", "face": "Borin"}})
    assert present.text(new) == "Declarations revealed: **Grak** kill, hold, guard flank, face Borin"
