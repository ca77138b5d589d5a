"""Who is on deck in the damage-grid game (`RuleSystem.on_deck`), read from the state (shared/rules/README.md's default rounds)."""
from __future__ import annotations

from rules.models import Encounter
from rules.registry import get_system
from tests.rules.on_deck import on_deck_checked
from tests.scenario import Scenario

SYSTEM = get_system("damage-grid")


def _deck(enc: Encounter) -> tuple[int, str | None, tuple[str, ...], tuple[str, ...]]:
    return enc.round, enc.phase, SYSTEM.turn(enc).actors, on_deck_checked(SYSTEM, enc)


def test_on_deck_read_from_the_state_names_whom_the_activations_end_names() -> None:
    """Over a played fight, `on_deck` (no activation resolved) names whom `/init next` does: "in each phase sides
    alternate activating one model", the larger side first, the next phase's and the next round's first side ("ties: the order the sides joined"),
    and an inert model never named."""
    s = Scenario("damage-grid", phases="2")
    s.add("Meena", side="a", at="B2").add("Mika", side="a", at="B4")
    s.add("Hera", side="b", at="H2").add("Hugo", side="b", at="H4").add("Hal", side="b", at="H6")
    s.run("init_roll")
    seen = [_deck(s.enc)]
    s.run("move", actor="Hera", to="G2")  # Hera's activation begins
    seen.append(_deck(s.enc))
    s.get("Hugo").status = "downed"  # inert (Mind 0): it activates no more
    for _ in range(9):
        turn = SYSTEM.turn(s.enc)
        s.run("next", actor=turn.current or turn.actors[0])
        seen.append(_deck(s.enc))
    assert seen == [
        (1, "phase 1/2", ("Hera", "Hugo", "Hal"), ("Meena", "Mika")),
        (1, "phase 1/2", ("Hera",), ("Meena", "Mika")),
        (1, "phase 1/2", ("Meena", "Mika"), ("Hal",)),
        (1, "phase 1/2", ("Hal",), ("Mika",)),
        (1, "phase 1/2", ("Mika",), ("Hera", "Hal")),
        (1, "phase 2/2", ("Hera", "Hal"), ("Meena", "Mika")),
        (1, "phase 2/2", ("Meena", "Mika"), ("Hal",)),
        (1, "phase 2/2", ("Hal",), ("Mika",)),
        (1, "phase 2/2", ("Mika",), ("Meena",)),  # round 2: two models a side now, so the side that joined first
        (2, "phase 1/2", ("Meena", "Mika"), ("Hera", "Hal")),
        (2, "phase 1/2", ("Hera", "Hal"), ("Mika",)),
    ]
