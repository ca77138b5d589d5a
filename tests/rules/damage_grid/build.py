"""Damage-grid encounters for the rules tests: two sides on a 12x10 board, the fight started."""
from __future__ import annotations

from typing import Any

from rules.registry import get_system
from tests.scenario import Scenario

#: the system, for its presenter's words
SYSTEM = get_system("damage-grid")

SABER = "gravity-saber:2:4:2:melee"
RING = "pulse-ring:4:3:1"


def duel(a_sheet: str = f"weapons={SABER},{RING}", b_sheet: str = "", *, a_at: str = "E8", b_at: str = "E7",
         a_facing: str = "N", b_facing: str = "S", start: bool = True, blocked: tuple[str, ...] = (),
         **options: Any) -> Scenario:
    """Meena (side a) and Hera (side b); side a (added first, equal numbers) activates first."""
    s = Scenario("damage-grid", map="12x10", blocked=blocked, **options)
    s.add("Meena", a_sheet, side="a", at=a_at, facing=a_facing)
    s.add("Hera", b_sheet, side="b", at=b_at, facing=b_facing)
    if start:
        s.run("init_roll")
    return s


def events(res: Any, kind: type) -> list[Any]:
    return [e for e in res.events if isinstance(e, kind)]
