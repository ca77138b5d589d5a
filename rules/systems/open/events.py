"""The events of the open system: names, numbers and codes; `present.py` makes the text."""
from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, Field, field_validator

from rules.events import Attacked, Damaged, Event, InitiativeSet, Roll, RoundBegan, Term
from rules.hidden import PUBLIC, Of

__all__ = [
    "Ranked", "RolledOff", "OpenInitiative", "OpenRound", "TurnBegan", "DeathSaveDue", "OpenAttack", "Harmed", "Saved", "AreaStruck",
    "DeathSave", "OpportunityOffered", "OpportunityDeclined", "StoodUp", "FellBack", "StillDying",
]


class Ranked(BaseModel):
    """One place in the order: a name and its initiative."""

    name: str
    initiative: Annotated[int, Of("name")]


class RolledOff(BaseModel):
    """One combatant's roll-off d20 (``typed`` with `roll:`; None in a log written before the dice were
    kept), in the ``group`` of those tied with it (numbered from 0); ``shared``: the copies' name whose
    roll ``name``, the first of them, shares, who roll off as one."""

    name: str
    die: Annotated[int | None, Of("name")] = None
    typed: bool = False
    group: Annotated[int, Of("name")] = 0
    shared: str | None = None


class OpenInitiative(InitiativeSet):
    """``group``: the copies' name whose roll this shares; ``by_gm``: set with `/init set`; ``rolled_off``: the
    roll-off d20s of those it ties, in the fight."""

    group: str | None = None
    by_gm: bool = False
    rolled_off: list[RolledOff] = Field(default_factory=list)


class OpenRound(RoundBegan):
    order: list[Ranked] = Field(default_factory=list)
    #: the roll-off d20s of the combatants tied on initiative and modifier, one tied group after another
    rolled_off: list[RolledOff] = Field(default_factory=list)

    @field_validator("rolled_off", mode="before")
    @classmethod
    def _names_only(cls, v: Any) -> Any:
        """A log written before the dice were kept holds only the names."""
        return [{"name": x} if isinstance(x, str) else x for x in v] if isinstance(v, list) else v


class TurnBegan(Event):
    """``actor``'s turn begins with ``speed`` feet of movement; ``held``: the conditions that take its actions
    (none: it may act)."""

    kind: ClassVar[str] = "turn"
    begins: ClassVar[bool] = True
    speed: int
    held: list[str] = Field(default_factory=list)


class DeathSaveDue(Event):
    """``actor``'s turn begins with the death save its owner rolls (option ``death_save_roll=player``)."""

    kind: ClassVar[str] = "turn"


class OpenAttack(Attacked):
    """An attack roll: ``mode`` (advantage...), the ``reasons`` for it, a critical hit, the target's
    ``cover``, and whether it is an opportunity attack or a coup de grâce."""

    mode: str | None = None
    #: what gave the advantage or disadvantage, as terms (``condition`` with its name, ``long_range``...)
    reasons: list[Term] = Field(default_factory=list)
    critical: bool = False
    cover: str | None = None
    opportunity: bool = False
    coup: bool = False


class Harmed(Damaged):
    """``actor`` took ``amount`` of ``rolled`` ``damage_type`` damage from ``source``: ``why`` is
    ``resist``, ``immune``, ``vulnerable`` or ``save`` (halved by a save); ``temp`` is what its
    temporary hit points took; ``roll`` the damage roll."""

    amount: Annotated[int, Of("actor")]
    source: str | None = None
    damage_type: str = ""
    rolled: Annotated[int, Of("source")] = 0
    why: Annotated[list[str], Of("actor")] = Field(default_factory=list)
    temp: Annotated[int, Of("actor")] = 0
    #: the damage roll (its dice, the effects' named changes, its total) where it had dice or changes
    roll: Annotated[Roll | None, Of("source")] = None


class Saved(Event):
    """``actor`` rolled a ``ability`` save against ``source``'s DC (``automatic``: failed without a roll)."""

    kind: ClassVar[str] = "save"
    source: str
    ability: str
    roll: Annotated[Roll, Of("actor", against="source")]
    mode: str | None = None
    automatic: bool = False


class AreaStruck(Event):
    """``actor`` used the save attack ``weapon``: a ``shape`` of ``size`` ft at ``at``, covering ``cells``."""

    kind: ClassVar[str] = "area"
    weapon: str
    shape: str | None = None
    size: Annotated[int, PUBLIC] = 0
    at: str | None = None
    cells: Annotated[int, PUBLIC] = 0
    caught: list[str] = Field(default_factory=list)


class DeathSave(Event):
    """``actor``, down, rolled a death save: ``result`` is ``made``, ``failed``, ``stable``, ``dead`` or ``revived``."""

    kind: ClassVar[str] = "death_save"
    roll: Roll
    made: int
    failed: int
    result: str


class StoodUp(Event):
    """``actor`` stood up from prone for ``cost`` feet of its movement, ``left`` feet left."""

    kind: ClassVar[str] = "move"
    cost: Annotated[int, Of("actor")]
    left: Annotated[int, Of("actor")]


class StillDying(Event):
    """The fight is decided with ``names`` of the winning side still dying: no more death saves; the GM settles them."""

    kind: ClassVar[str] = "victory"
    names: list[str] = Field(default_factory=list, max_length=1000)


class FellBack(Event):
    """``actor``, struck down at ``at`` while passing ``holder``'s cell, lies on ``to``, the last cell of its
    path it could stop on."""

    kind: ClassVar[str] = "move"
    at: str
    to: str
    holder: str


class OpportunityOffered(Event):
    """``actor`` (a player's) may take an opportunity attack at ``mover``, which waits at ``at``."""

    kind: ClassVar[str] = "opportunity"
    mover: str
    owner: str
    at: str
    #: the turns have a deadline (`/encounter settings deadline_hours`), which answers no
    deadline: bool = True


class OpportunityDeclined(Event):
    kind: ClassVar[str] = "opportunity"
    mover: str
    lapsed: bool = False
