"""War & Combat on the board and the map: condition words for hidden fighters, and the zones the map shades."""
from __future__ import annotations

import pytest

from rules.models import Combatant
from rules.state import state_as
from rules.system import get_system
from rules.systems.war_and_combat.state import WacCombatant, WoundRecord
from tests.rules.war_and_combat.build import wac

SYSTEM = get_system("war-and-combat")


@pytest.mark.parametrize(
    "wounds, status, word",
    [((), "active", "unhurt"), (("light",), "active", "hurt"), (("light", "serious"), "active", "badly hurt"),
     (("critical",), "active", "badly hurt"), (("mortal",), "downed", "down"), ((), "out", "out")],
)
def test_condition_words_follow_the_worst_wound(wounds: tuple[str, ...], status: str, word: str) -> None:
    """No wound: unhurt; light wounds only: hurt; a serious or critical one: badly hurt; then down and out."""
    c = Combatant(name="Grak", status=status)
    state_as(c, WacCombatant).wounds = [WoundRecord(location="chest", severity=s) for s in wounds]
    assert SYSTEM.condition(c) == word


def test_the_map_shades_the_acting_fighters_zones() -> None:
    """The acting fighter's zone of threat is shaded as threat and the rest of its zone of danger as danger."""
    from rules.systems.war_and_combat import zones

    s = wac(map="16x12 hex")
    s.add("Borin", "fighter=3 weapons=broadsword", side="heroes", at="D5", facing="N")
    s.add("Grak", "fighter=3 weapons=broadsword", side="foes", at="L9", facing="S")
    s.run("init_roll", [5, 5, 4, 2, 2, 1])
    c = SYSTEM.acting_on_map(s.enc)
    assert c is not None
    marks = SYSTEM.highlights(s.enc)
    threat = {h.cell for h in marks if h.kind == "threat"}
    danger = {h.cell for h in marks if h.kind == "danger"}
    grid = s.enc.grid()
    assert threat == set(zones.threat(grid, c)) and threat
    assert danger == set(zones.danger(grid, c)) - threat
