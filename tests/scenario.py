"""One scenario builder for every system's rules tests: an encounter built through the
system's own `add`, then actions resolved with fixed dice, and refusals checked to change nothing."""
from __future__ import annotations

import shlex
from typing import Any

import pytest

from rules.actions import make_action
from rules.dice import Dice
from rules.errors import RulesError
from rules.geometry import parse_map_spec
from rules.models import Encounter, MapState, Settings
from rules.registry import get_system
from rules.sheet import parse_pairs
from rules.system import Resolution, RuleSystem

__all__ = ["Scenario", "GM", "PLAYER"]

GM = "900000000000000001"
PLAYER = "900000000000000002"


def sheet_pairs(sheet: str) -> dict[str, str]:
    """A test's sheet text as pairs, a later pair overriding an earlier one (`BORIN + " fighter=10"`),
    where the bot refuses a key given twice."""
    out: dict[str, str] = {}
    for word in shlex.split(sheet):
        out.update(parse_pairs(shlex.quote(word)))
    return out


class Scenario:
    """An encounter of system ``key`` under construction and then in play.

    ``Scenario("coup-de-grace", map="8x6").add("Borin", "class=heavy", side="a", at="B3")``;
    ``s.run("attack", [5], actor="Borin", target="Grak")`` resolves with fixed dice and keeps
    the new encounter; ``s.refused("move", to="Z9")`` checks the refusal and returns its text.
    """

    def __init__(
        self,
        key: str,
        *,
        map: str | None = None,
        variant: str | None = None,
        blocked: tuple[str, ...] = (),
        **options: Any,
    ) -> None:
        self.system: RuleSystem = get_system(key)
        kind, width, height = parse_map_spec(map or self.system.default_map or "none")
        self.enc = Encounter(
            system=key,
            variant=variant,
            map=MapState(kind=kind, width=width, height=height, blocked=list(blocked)),
            gm_ids=[GM],
            settings=Settings(options={k: str(v) for k, v in options.items()}),
        )

    def add(
        self,
        name: str,
        sheet: str = "",
        *,
        side: str | None = None,
        at: str | None = None,
        facing: str | None = None,
        owner: str | None = PLAYER,
    ) -> "Scenario":
        self.run("add", name=name, raw_sheet=sheet_pairs(sheet), side=side, at=at, facing=facing, owner_id=owner)
        return self

    def resolve(self, kind: str, dice: tuple[int, ...] | list[int] = (), *, gm: bool = True, **fields: Any) -> Resolution:
        """Resolve one action on the current encounter with fixed dice (the GM's by default)."""
        return self.system.resolve(self.enc, make_action(kind, is_gm=gm, **fields), Dice.fixed(dice))

    def run(self, kind: str, dice: tuple[int, ...] | list[int] = (), **fields: Any) -> Resolution:
        """Resolve and keep the new encounter."""
        res = self.resolve(kind, dice, **fields)
        self.enc = res.encounter
        return res

    def refused(
        self, kind: str, dice: tuple[int, ...] | list[int] = (), error: type[RulesError] = RulesError, **fields: Any
    ) -> str:
        """Resolve an action that must be refused; the encounter must be unchanged. Returns the message."""
        before = self.enc.model_dump_json()
        with pytest.raises(error) as caught:
            self.resolve(kind, dice, **fields)
        assert self.enc.model_dump_json() == before
        return str(caught.value)

    def get(self, name: str) -> Any:
        return self.enc.get(name)

    def text(self, res: Resolution) -> list[str]:
        """The reply lines the events of ``res`` make."""
        return self.system.present.report("", res.events).lines
