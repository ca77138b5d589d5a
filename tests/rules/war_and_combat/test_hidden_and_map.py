"""War & Combat on the board and the map: condition words for hidden fighters, and the zones the map shades."""
from __future__ import annotations

import pytest

from rules.models import Combatant
from rules.registry import get_system
from rules.systems.war_and_combat.state import WacCombatant, WoundRecord
from tests.rules.war_and_combat.build import near, wac

SYSTEM = get_system("war-and-combat")


@pytest.mark.parametrize(
    "wounds, status, word",
    [((), "active", "unhurt"), (("light",), "active", "hurt"), (("light", "serious"), "active", "badly hurt"),
     (("critical",), "active", "badly hurt"), (("mortal",), "downed", "down"), ((), "out", "out")],
)
def test_condition_words_follow_the_worst_wound(wounds: tuple[str, ...], status: str, word: str) -> None:
    """No wound: unhurt; light wounds only: hurt; a serious or critical one: badly hurt; then down and out."""
    c = Combatant(name="Grak", status=status)
    WacCombatant.of(c).wounds = [WoundRecord(location="chest", severity=s) for s in wounds]
    assert SYSTEM.condition(c) == word


def test_the_map_shades_the_acting_fighters_zones() -> None:
    """The acting fighter's zone of threat is shaded as threat; not engaged, it has no zone of danger ("any hex
    that is in range of a weapon held by any fighter that is actively engaged")."""
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
    assert danger == set()


def test_the_map_shades_danger_while_engaged_and_marginal_zones() -> None:
    """Engaged, the acting fighter's zone of danger is shaded; a spear's marginal zone ("the two hexes to either
    side of the zone of threat") is shaded as marginal."""
    from rules.systems.war_and_combat import zones

    s = wac(map="16x12 hex")
    s.add("Borin", "fighter=3 weapons=spear", side="heroes", at="D5", facing="N")
    s.add("Grak", "fighter=3 weapons=broadsword", side="foes", at=near(s, "D5", "N", "N"), facing="S")
    s.run("init_roll", [5, 5, 4, 2, 2, 1])
    c = SYSTEM.acting_on_map(s.enc)
    assert c is not None and c.name == "Borin"
    marks = SYSTEM.highlights(s.enc)
    grid = s.enc.grid()
    threat = set(zones.threat(grid, c))
    assert {h.cell for h in marks if h.kind == "marginal"} == set(zones.marginal(grid, c)) and zones.marginal(grid, c)
    assert {h.cell for h in marks if h.kind == "danger"} == set(zones.danger(grid, c)) - threat
