"""Who is on deck in War & Combat (`RuleSystem.on_deck`), read from the state (docs/systems/war-and-combat.md, "Rounds")."""
from __future__ import annotations

from tests.rules.on_deck import on_deck_checked
from tests.rules.war_and_combat.build import duel
from tests.scenario import Scenario


def _deck(s: Scenario) -> tuple[str | None, tuple[str, ...], tuple[str, ...]]:
    return s.enc.phase, s.system.turn(s.enc).actors, on_deck_checked(s.system, s.enc)


def test_on_deck_read_from_the_state_names_whom_the_steps_end_names() -> None:
    """Over a played round, `on_deck` (no step resolved) names whom `/init next` does: "Movement Phase: Initiative
    Order", the flurry's fighters (not those acting now), the attack passing on a hold, "Adjustment Phase: Reverse
    Initiative Order" with the downed skipped, and nobody before "Check Morale" and the next round's initiative roll."""
    s = duel()
    s.add("Dwalin", "fighter=2", side="dwarves", at="J8", facing="N")
    s.add("Snaga", "fighter=1", side="orcs", at="N8", facing="N", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2, 3, 3, 3, 3, 3, 3])
    assert s.enc.order == ["Borin", "Dwalin", "Grak", "Snaga"]
    s.get("Snaga").status = "downed"  # takes no further step
    seen = [_deck(s)]
    for _ in range(3):
        s.run("next", actor=s.enc.current)
        seen.append(_deck(s))
    s.run("act", action="declare", actor="Borin", options={"intent": "kill", "tactic": "hold"})
    s.run("act", [5, 5, 4, 2, 3, 2], action="declare", actor="Grak", options={"intent": "kill", "tactic": "hold"})
    seen.append(_deck(s))
    for _ in range(4):
        s.run("next", actor=s.enc.current)
        seen.append(_deck(s))
    assert seen == [
        ("movement", ("Borin",), ("Dwalin",)),
        ("movement", ("Dwalin",), ("Grak",)),
        ("movement", ("Grak",), ("Borin",)),
        ("flurry", ("Borin", "Grak"), ()),  # the flurry waits for both declarations
        ("flurry", ("Borin",), ("Grak",)),
        ("flurry", ("Grak",), ()),  # both held: the flurry ends, and Grak is first to adjust
        ("adjustment", ("Grak",), ("Dwalin",)),
        ("adjustment", ("Dwalin",), ("Borin",)),
        ("adjustment", ("Borin",), ()),
    ]
