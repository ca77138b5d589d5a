"""Coup-De-Grace's rules tests: the builders every test file here uses (on `tests.scenario`'s pattern)."""
from __future__ import annotations

from typing import Any

import pytest

from rules.actions import make_action
from rules.dice import Dice
from rules.errors import RulesError
from rules.events import Event
from rules.models import Encounter
from rules.system import Resolution
from rules.systems.coup_de_grace import CoupDeGraceSystem
from tests.scenario import Scenario

KEY = "coup-de-grace"
SYSTEM = CoupDeGraceSystem()
# a mini: (name, side, sheet, at, facing)
Mini = tuple[str, str, str, str | None, str | None]



# -- builders -------------------------------------------------------------------------------------
def resolve(enc: Encounter, kind: str, dice: tuple[int, ...] | list[int] = (), **fields: Any) -> Resolution:
    return SYSTEM.resolve(enc, make_action(kind, **fields), Dice.fixed(dice))


def run(enc: Encounter, kind: str, dice: tuple[int, ...] | list[int] = (), **fields: Any) -> Encounter:
    return resolve(enc, kind, dice, **fields).encounter


def refused(
    enc: Encounter,
    kind: str,
    dice: tuple[int, ...] | list[int] = (),
    error: type[RulesError] = RulesError,
    **fields: Any,
) -> str:
    """Resolve an action that must be refused; check that the encounter is unchanged."""
    before = enc.model_dump()
    with pytest.raises(error) as caught:
        resolve(enc, kind, dice, **fields)
    assert enc.model_dump() == before
    return str(caught.value)


def encounter(
    *minis: Mini,
    size: tuple[int, int] = (12, 10),
    variant: str | None = None,
    blocked: tuple[str, ...] = (),
    **options: Any,
) -> Encounter:
    """An encounter of ``minis`` (name, side, sheet, at, facing) built by `tests.scenario.Scenario`."""
    s = Scenario(KEY, map=f"{size[0]}x{size[1]}", variant=variant, blocked=blocked, **options)
    for name, side, sheet, at, facing in minis:
        s.add(name, sheet, side=side, at=at, facing=facing, owner="1")
    return s.enc


def fight(*minis: Mini, first: str | None = "a", dice: tuple[int, ...] = (), **kw: Any) -> Encounter:
    """An encounter in round 1; ``first`` (a side) is given the first activation by the GM."""
    kw.setdefault("tie", "join")
    enc = run(encounter(*minis, **kw), "init_roll", dice)
    return run(enc, "init_order", order=first) if first else enc


def events_of(res: Resolution, kind: str) -> list[Event]:
    return [e for e in res.events if e.kind == kind]


def one(res: Resolution, kind: str) -> Event:
    found = events_of(res, kind)
    assert len(found) == 1, [e.kind for e in res.events]
    return found[0]


def mods(event: Event) -> dict[str, int]:
    return {SYSTEM.present.term(m): m.value for m in event.roll.modifiers}


def text(res: Resolution) -> str:
    return "\n".join(SYSTEM.present.text(e) for e in res.events)


SWORD = "class=light weapons=sword"  # DV 4, MA 6, no special rule


def foes(*cells: str) -> list[Mini]:
    """Side b: a mini on each cell, facing N, plus one far away in the corner."""
    return [(f"O{i}", "b", SWORD, at, "N") for i, at in enumerate(cells)] + [("Far", "b", SWORD, "L10", "N")]


