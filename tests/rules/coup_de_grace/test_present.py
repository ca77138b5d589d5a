"""Coup-De-Grace's words: replies and the board."""

from __future__ import annotations

import pytest

from rules.report import board_report
from rules.systems.coup_de_grace.facts import CdgFacts
from rules.systems.coup_de_grace.present import CdgPresenter
from tests.rules.coup_de_grace.build import (
    SWORD,
    SYSTEM,
    fight,
    refused,
    resolve,
    run,
    text,
)


# -- presentation ---------------------------------------------------------------------------------------------------
def test_the_attack_reply_shows_dice_modifiers_total_defence_and_result() -> None:
    """The reply names every die, modifier, the total, the DV with its bonuses, the result and the HP change."""
    enc = fight(
        ("A", "a", "class=light weapons=sword", "C3", "E"),
        ("T", "b", "class=light weapons=sword,shield", "D3", "W"),
        ("B", "a", SWORD, "D2", "S"),
    )
    lines = text(resolve(enc, "attack", [4], actor="A", target="T"))
    assert (
        "**A** attacks **T** with sword: 🎲 4✍ (d6) +1 co-ordinated attack (B) = **5** vs DV 4 +1 shield (Block) "
        "= **5**: **hit**"
    ) in lines
    assert "**T** takes 1 damage (3 → 2)" in lines


def test_the_move_reply_shows_cost_and_points_left() -> None:
    """A move reply shows the path, the cost with doubled steps, the facing and the MP left."""
    enc = fight(("M", "a", "class=unarmoured", "E5", "W"), ("O", "b", SWORD, "F5", "W"))
    assert text(resolve(enc, "move", actor="M", path="W W")) == (
        "M activates with 8 MP\n**M** moves E5 → D5 → C5 for 3 MP (2+1), facing W · 5 MP left"
    )


def test_the_board_shows_points_and_sides() -> None:
    """The board shows HP, DV, MA, the MP left of the activating mini and the order of sides."""
    enc = run(
        fight(("A", "a", "class=heavy weapons=hammer race=dwarf", "C3", "E"), ("T", "b", SWORD, "H3", "W")),
        "move",
        actor="A",
        path="E",
    )
    board = board_report(SYSTEM, enc).text()
    assert "**A** · D3 E · 3/3 HP · DV 5 · MA 4 · ▶ 3 MP left · hammer · dwarf" in board
    assert "Order of sides this round: a → b" in board


def test_bad_encounter_options_are_refused() -> None:
    """A numeric option that is not a positive whole number is refused with a clear message."""
    enc = fight(("S", "a", "class=unarmoured weapons=bow", "A2", "E"), ("T", "b", SWORD, "E2", "W"))
    enc.settings.options["range_increment"] = "six"
    assert "`range_increment` must be a whole number from 1 to 99, not `six`" in refused(
        enc, "attack", [6], actor="S", target="T"
    )




def test_every_event_of_the_system_has_its_words() -> None:
    """Each of Coup-De-Grace's event types is shown by its presenter (no event falls back to a bare kind)."""
    from rules.events import Event
    from rules.systems.coup_de_grace import events

    types = [getattr(events, n) for n in events.__all__ if isinstance(getattr(events, n), type)]
    shown = CdgPresenter.formats
    assert [t.__name__ for t in types if issubclass(t, Event) and t not in shown] == []


# -- where the words are made ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("armour", "dv", "ma"), [("unarmoured", 3, 8), ("light", 4, 6), ("heavy", 5, 4)])
def test_the_facts_carry_the_defence_value_and_movement_allowance_the_board_shows(armour: str, dv: int, ma: int) -> None:
    """"''Unarmoured'' minis have a ''defence value'' of 3 and a ''movement allowance'' of 8" (light 4
    and 6, heavy 5 and 4): the facts hold each mini's, a running effect's change included."""
    enc = fight(("M", "a", f"class={armour}", "C3", "E"), ("O", "b", SWORD, "H3", "W"))
    facts = SYSTEM.facts(enc)
    assert isinstance(facts, CdgFacts) and (facts.dv["M"], facts.ma["M"]) == (dv, ma)
    enc = run(enc, "effect_add", effect="Bless", actor="M", rounds=2, mods="defence+1 ma-1", is_gm=True)
    facts = SYSTEM.facts(enc)
    assert (facts.dv["M"], facts.ma["M"]) == (dv + 1, ma - 1)
    assert f"**M** · C3 E · 3/3 HP · DV {dv + 1} (+1 Bless) · MA {ma - 1} (−1 Bless)" in board_report(SYSTEM, enc).text()


def test_the_facts_carry_the_order_of_sides_and_who_is_still_to_activate() -> None:
    """"Once all minis have been activated, the round is over": the facts hold this round's order of
    sides and each side's minis still to activate, as `/init order` lists them."""
    enc = fight(("A1", "a", SWORD, "C3", "E"), ("A2", "a", SWORD, "C5", "E"), ("T", "b", SWORD, "H3", "W"), first="b")
    assert (SYSTEM.facts(enc).sides, SYSTEM.facts(enc).waiting) == (("b", "a"), {"b": ("T",), "a": ("A1", "A2")})
    enc = run(run(enc, "next", actor="T"), "next", actor="A2")
    facts = SYSTEM.facts(enc)
    assert facts.waiting == {"b": (), "a": ("A1",)}
    assert SYSTEM.present.order_lines(enc, facts) == [
        "Order of sides this round: b → a", "**b**: all activated", "▶️ **a**: to activate: A1"]


def test_a_sides_turn_line_keeps_its_words_when_a_hidden_minis_name_holds_a_number() -> None:
    """"Sides then alternate one mini at a time" (docs/systems/coup-de-grace.md): the GM's hidden minis added with
    `count:` are called `Orc 1`, `Orc 2`, and the turn line players read stays `orcs to activate: ...` (a digit in a
    name read as a hidden number, and the line became `Grak, Orc 1, Orc 2 to act`, as if all of them acted now)."""
    from rules.hidden import turn_line
    from tests.scenario import Scenario

    s = Scenario("coup-de-grace", map="12x10", tie="join")
    s.add("Borin", SWORD, side="dwarves", at="C4", facing="E")
    for name, at in (("Grak", "D4"), ("Orc 1", "K9"), ("Orc 2", "K10")):
        s.add(name, SWORD, side="orcs", at=at, facing="W", owner=None)
    s.run("init_roll")
    s.run("init_order", order="orcs")
    assert s.enc.hidden_names() == {"Grak", "Orc 1", "Orc 2"}
    facts = SYSTEM.facts(s.enc)
    label = SYSTEM.present.turn_label(s.enc, facts)
    assert label == "Round 1 · orcs to activate: Grak, Orc 1, Orc 2"
    assert turn_line(s.enc, label, facts.turn.actors) == label
