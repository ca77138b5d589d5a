"""Coup-De-Grace's words: replies and the board."""

from __future__ import annotations

from rules.report import board_report
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
    from rules.systems.coup_de_grace.present import CdgPresenter

    types = [getattr(events, n) for n in events.__all__ if isinstance(getattr(events, n), type)]
    shown = CdgPresenter.formats
    assert [t.__name__ for t in types if issubclass(t, Event) and t not in shown] == []
