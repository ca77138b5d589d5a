"""TOTE's typed state: per combatant (injuries, the round it acted, where it stands) and per
encounter (round type, distances between foes, engagements, a pending return attack, the GM's
tie order); Defend and Protect are effects (`DEFEND`, `PROTECT`).

Distance is kept **between two combatants**: ``ranges`` holds the pairs whose distance a move
or an ``at:`` set; any other pair is at the nearer of the two combatants' own bands (``band``:
where ``at:`` or its last move put it; none for one never placed), or at the encounter's distance. Encounters stored before the
pairs existed kept only the per-combatant ``band``; they read back with that as each pair's
distance.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from rules.effects import by
from rules.state import CombatantState, EncounterState

__all__ = ["Band", "Pending", "ToteCombatant", "ToteEncounter", "DEFEND", "PROTECT", "upgrade"]

Band = Literal["melee", "close", "far"]
#: a round number as stored (an import's text is read into a number, so it is bounded)
RoundNo = Annotated[int, Field(ge=0, le=100_000)]
Name = Annotated[str, Field(min_length=1, max_length=40)]


class Pending(BaseModel):
    """A foe (``by``) may return ``against``'s Assault now."""

    model_config = ConfigDict(extra="forbid")
    by: Name
    against: Name


class ToteCombatant(CombatantState):
    #: injury boxes filled from the left
    filled: int = Field(0, ge=0, le=12)
    #: where ``at:`` or its last move put it: the distance of its pairs that no move has set
    band: Band | None = None
    #: the round it last acted in
    acted: RoundNo | None = None
    #: the last round it dealt or received melee damage
    melee_round: RoundNo | None = None
    #: it counts as disengaged until the end of this round (the round after its Disengage)
    disengaged: RoundNo | None = None
    escaped: bool = False

    @model_validator(mode="before")
    @classmethod
    def _old_shapes(cls, data: Any) -> Any:
        """Stored encounters wrote empty values as null or an empty dict (`protect: {}`)."""
        if isinstance(data, dict):
            data = {k: v for k, v in data.items() if v is not None and v != {}}
        return data


class ToteEncounter(EncounterState):
    #: the round type once the fight started: melee, or far/close for distance rounds
    distance: Band | None = None
    #: pairs of foes whose distance a move or an ``at:`` set: ``{a: {b: band}}`` with a before b in sorted order
    ranges: dict[Name, dict[Name, Band]] = Field(default_factory=dict)
    #: engaged pairs, names in sorted order
    engaged: list[tuple[Name, Name]] = Field(default_factory=list)
    pending_return: Pending | None = None
    #: the GM's order for ties left after initiative, heroes-first and Hawk/Rating
    tiebreak: list[Name] = Field(default_factory=list)
    #: ``ranges`` by pair, built again whenever ``ranges`` is replaced (it is never changed in place)
    _index: tuple[dict[Name, dict[Name, Band]], dict[tuple[str, str], str]] | None = PrivateAttr(default=None)

    def range_index(self) -> dict[tuple[str, str], str]:
        """(a, b) in sorted order -> the band a move set between them."""
        if self._index is None or self._index[0] is not self.ranges:
            self._index = (self.ranges, {(a, b): band for a, row in self.ranges.items() for b, band in row.items()})
        return self._index[1]

    @model_validator(mode="before")
    @classmethod
    def _old_shapes(cls, data: Any) -> Any:
        """Stored encounters wrote pairs as two-item lists in any order and a null return."""
        if isinstance(data, dict):
            data = {k: v for k, v in data.items() if v is not None}
            if isinstance(data.get("engaged"), list):
                data["engaged"] = [tuple(sorted(p)) if isinstance(p, (list, tuple)) else p for p in data["engaged"]]
        return data


#: the effect code of Defend, on the defender: "attacks against you take -2 this round"
DEFEND = "defend"
#: the effect code of Protect, on the ally, put on by the protector (its ``source``): attacks on the ally hit it instead
PROTECT = "protect"


def _unnamed(effect: Any) -> bool:
    """A stored Protect effect not yet named after its protector (`rules.effects.by`)."""
    return (isinstance(effect, dict) and effect.get("code") == PROTECT and effect.get("name") == "Protect"
            and isinstance(effect.get("source"), str))


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """Encounters stored before Defend and Protect became effects kept them on the combatant
    (Defend a round number, Protect the ally and the round): one of the current round becomes
    the effect; an older one is dropped. A Protect effect stored before each was named after
    its protector (`Protect (by Thrain)`) is named so."""
    effects = data.get("effects")
    if isinstance(effects, list) and any(_unnamed(e) for e in effects):
        data = {**data, "effects": [{**e, "name": by("Protect", e["source"])} if _unnamed(e) else e for e in effects]}
    combatants = data.get("combatants")
    if not isinstance(combatants, list) or not any(
        isinstance(c, dict) and isinstance(c.get("state"), dict) and ("defend" in c["state"] or "protect" in c["state"])
        for c in combatants
    ):
        return data
    effects = list(data.get("effects") or [])

    def add(name: str, target: str, code: str, source: str) -> None:
        effects.append({
            "id": max((e.get("id", 0) for e in effects if isinstance(e, dict)), default=0) + 1,
            "name": name, "target": target, "ends": "round_end", "code": code, "source": source,
        })

    fixed = []
    for c in combatants:
        if isinstance(c, dict) and isinstance(c.get("state"), dict) and ("defend" in c["state"] or "protect" in c["state"]):
            state = dict(c["state"])
            name = c.get("name")
            if state.pop("defend", None) == data.get("round") and isinstance(name, str):
                add("Defend", name, DEFEND, name)
            guard = state.pop("protect", None)
            if (isinstance(guard, dict) and guard.get("round") == data.get("round") and isinstance(name, str)
                    and isinstance(guard.get("ally"), str)):
                add(by("Protect", name), guard["ally"], PROTECT, name)
            c = {**c, "state": state}
        fixed.append(c)
    return {**data, "combatants": fixed, "effects": effects}
