"""TOTE's rules name terms by code and work out what the board shows (`ToteFacts`); its presenter
words both and works nothing out."""
from __future__ import annotations

from dataclasses import replace

from rules.models import Encounter
from rules.systems.tote import events
from rules.systems.tote.events import Struck
from rules.systems.tote.facts import ToteFacts
from rules.systems.tote.tables import DISTANCE_COSTS, MELEE_COSTS
from tests.rules.tote.build import (
    BORIN,
    GRAK,
    SYSTEM,
    act,
    engaged_round_two,
    fight,
    resolve,
    setup,
    step,
    text,
    who,
)

MOG = ("Mog", "rating=1", "foes", 1)


def _facts(enc: Encounter) -> ToteFacts:
    """The system's facts of ``enc``, as its own type."""
    facts = SYSTEM.facts(enc)
    assert isinstance(facts, ToteFacts)
    return facts


def test_assault_and_its_return_are_terms_by_code() -> None:
    """"Assault ... with a +2 bonus for the To-Hit roll. The foe may immediately make a return attack with the same +2 bonus"."""
    res = act(fight(), "Borin", "assault", [2, 3, 6, 3], target="Grak")
    (struck,) = [e for e in res.events if isinstance(e, Struck)]
    assert [(m.code, m.value) for m in struck.test.modifiers] == [("assault", 2)] and "+2 Assault =" in text(res)
    back = resolve(res.encounter, "attack", [6, 1, 1], actor="Grak")
    (returned,) = [e for e in back.events if isinstance(e, Struck)]
    assert [(m.code, m.value) for m in returned.test.modifiers] == [("return", 2)] and "+2 Assault return =" in text(back)


def test_defend_is_a_term_by_code() -> None:
    """"Defend: All attacks against you suffer a -2 penalty this round"."""
    enc = step(fight(("Ann", "hawk=1", "heroes", 5), ("Grak", "rating=2", "foes", 3)), "act", actor="Ann", action="defend")
    res = resolve(enc, "attack", [6, 1, 3], actor="Grak")
    (struck,) = [e for e in res.events if isinstance(e, Struck)]
    assert [(m.code, m.value) for m in struck.test.modifiers] == [("defend", -2)] and "−2 Defend =" in text(res)


def test_the_facts_carry_each_combatants_distance_and_the_distance_round() -> None:
    """"Move 0: Combatant adds to or reduces the distance to the foe"; the distance round's costs "Move 0, Shoot 0, Shoot & Move 1"."""
    enc = act(fight(BORIN, GRAK, MOG, distance="far"), "Borin", "move", target="Mog", options="close").encounter
    facts = _facts(enc)
    assert facts.band == {"Borin": "close", "Grak": "far", "Mog": "close"}
    assert facts.foe_bands == {"Borin": {"Grak": "far", "Mog": "close"}}
    assert (facts.distance, dict(facts.costs)) == ("close", DISTANCE_COSTS) == ("close", {"move": 0, "shoot": 0, "shoot-and-move": 1})
    assert facts.enemies == {"Grak", "Mog"}
    extra = SYSTEM.present.board_extra(enc, facts)
    assert extra[0].startswith("🏹 Distance round (distance: close): no initiative gain. Costs: move 0, shoot 0, shoot-and-move 1;")
    assert "📏 Borin: Grak far, Mog close" in extra


def test_the_facts_carry_the_melee_rounds_engagements_and_costs() -> None:
    """"Engaged: Once a foe has done damage to you or you have done damage to a foe, you are engaged with that foe"; the melee round's costs."""
    enc = engaged_round_two()
    facts = _facts(enc)
    assert dict(facts.engaged) == {"Borin": ("Grak",), "Grak": ("Borin",)}
    assert (facts.distance, dict(facts.costs), facts.foe_bands) == ("melee", MELEE_COSTS, {})
    assert facts.costs["assault"] == 2 and facts.costs["disengage"] == 3
    assert "engaged: Borin" in SYSTEM.present.status_line(enc, who(enc, "Grak"), facts)


def test_the_facts_say_who_defends_protects_and_has_acted_this_round() -> None:
    """"Defend: All attacks against you suffer a -2 penalty this round"; "Protect: ... nominate an ally": this round's, on the board."""
    enc = fight(BORIN, ("Thrain", "strike=2 hawk=1", "heroes", 4), GRAK)
    enc = step(enc, "act", actor="Borin", action="defend")
    enc = step(enc, "act", actor="Thrain", action="protect", target="Borin")
    facts = _facts(enc)
    assert (facts.defending, dict(facts.protecting), facts.acted) == ({"Borin"}, {"Thrain": "Borin"}, {"Borin", "Thrain"})
    assert SYSTEM.present.status_line(enc, who(enc, "Thrain"), facts).endswith(" · protecting Borin · acted")
    assert " · defending · " in SYSTEM.present.status_line(enc, who(enc, "Borin"), facts)


def test_the_facts_say_who_counts_as_disengaged() -> None:
    """"Disengage: Move away from a foe. You will count as disengaged for the next round"."""
    enc = step(engaged_round_two(), "act", actor="Borin", action="disengage")
    facts = _facts(enc)
    assert facts.disengaged == {"Borin"} and "Borin" not in facts.engaged
    assert "disengaged until round 3's end" in SYSTEM.present.status_line(enc, who(enc, "Borin"), facts)


def test_before_the_fight_the_facts_carry_the_starting_distance() -> None:
    """"The GM will determine the Distance (Far or Close)": before `/init roll`, the option's."""
    enc = setup(BORIN, GRAK, distance="far")
    facts = _facts(enc)
    assert facts.distance == "far" and not (facts.acted or facts.defending or facts.disengaged or facts.foe_bands)
    assert SYSTEM.present.board_extra(enc, facts)[0].startswith("Starting distance: far ")


def test_the_presenter_words_the_facts_it_is_handed() -> None:
    """The status line shows the band and the engagements of the facts as given: it works out none of its own."""
    enc = engaged_round_two()
    facts = replace(_facts(enc), band={"Grak": "far"}, engaged={}, enemies=frozenset())
    line = SYSTEM.present.status_line(enc, who(enc, "Grak"), facts)
    assert line.startswith("**Grak** · far · init 3") and "engaged" not in line and "rating" not in line


def test_the_sheet_summary_leaves_out_the_defaults_it_is_given() -> None:
    """The summary leads with hero or enemy and leaves out the sheet's default values."""
    enc = setup(BORIN, GRAK)
    assert SYSTEM.sheet_summary(who(enc, "Grak")) == "enemy: weapon=club:2:bash rating=2"
    grak = who(enc, "Grak")
    given = {k: v for k, v in grak.sheet.items() if k != "weapon"}
    assert SYSTEM.present.sheet_summary(grak, False, given) == "hero: weapon=club:2:bash"


def test_the_order_marks_who_has_acted_this_round() -> None:
    """`/init order` lists those who acted this round after the one acting: each says "acted",
    as the status board does, and the one acting does not."""
    enc = fight(BORIN, ("Thrain", "strike=2 hawk=1", "heroes", 4), GRAK)
    enc = step(enc, "act", actor="Borin", action="defend")
    facts = _facts(enc)
    lines = SYSTEM.present.order_lines(enc, facts)
    borin = next(line for line in lines if "**Borin**" in line)
    assert borin.endswith(" · acted") and "▶️" not in borin
    acting = [line for line in lines if line.startswith("▶️")]
    assert acting and not any(line.endswith("acted") for line in acting)


def test_an_escape_stored_before_names_its_target_number_as_the_foes() -> None:
    """Escape Foes: "a Move test against 7 + the highest enemy Rating": an escape stored naming only the foe whose
    Rating set the number (``level_from``) reads back with that foe as its ``target``, so a hidden foe's number stays hidden."""
    stored = {"actor": "Thrain", "what": "escape", "base": 7, "level": 3, "level_of_enemy": True, "level_from": "Zug",
              "test": {"skill": "move", "paragon": 1, "target": 10, "total": 2, "successes": 0}}
    assert events.Tested.model_validate(stored).target == "Zug"


def test_a_foe_of_the_second_side_shows_its_foes_distances_too() -> None:
    """"Combatants that move from Close go into Melee Rounds": when one hero moves in and the other
    keeps its distance, the foe they face has foes at two distances, and the board says so."""
    enc = fight(("Ann", "hawk=5", "heroes", 5), ("Cid", "hawk=4", "heroes", 4), GRAK, distance="close")
    enc = act(enc, "Ann", "move", target="Grak", options="melee").encounter
    facts = _facts(enc)
    assert facts.foe_bands["Grak"] == {"Ann": "melee", "Cid": "close"}
    assert "📏 Grak: Ann melee, Cid close" in SYSTEM.present.board_extra(enc, facts)
