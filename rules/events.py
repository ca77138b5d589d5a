"""Events: what a resolved action did, as typed data. Text is made by a `rules.present.Presenter`.

Each event is a small pydantic model; the core ones below are shared by every system, and a
system declares its own beside its rules (``rules/systems/<key>/events.py``) and shows them in
its ``present.py``. Evaluation never builds display strings: an event carries names, numbers
and codes, and the presenter turns them into a sentence.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.dice import Typed
from rules.hidden import PUBLIC, Of

__all__ = [
    "Event",
    "Term",
    "Modifier",
    "mod",
    "said",
    "Roll",
    "Added",
    "Edited",
    "JoinedFight",
    "Removed",
    "RoundBegan",
    "InitiativeSet",
    "Moved",
    "Turned",
    "Attacked",
    "Damaged",
    "HitPointsChanged",
    "StatusChanged",
    "hp_cause",
    "Victory",
    "Checked",
    "EffectAdded",
    "EffectEnded",
    "TurnDone",
    "Finished",
    "TurnPassed",
]


class Term(BaseModel):
    """A game term as a fact: a ``code`` the system's presenter words (`rules.present.Presenter.terms`)
    and what it names (a weapon's or a helper's name, a number), in ``args``. ``said`` is a term
    given in words as they are (an effect's name, or an old log's modifier)."""

    model_config = ConfigDict(extra="forbid")

    code: str
    args: list[str | int] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _from_words(cls, data: Any) -> Any:
        """Logs and exports written before terms were codes name them in words: ``said``."""
        if isinstance(data, str):
            return {"code": "said", "args": [data]}
        if isinstance(data, dict) and "name" in data and "code" not in data:
            data = {k: v for k, v in data.items() if k != "name"} | {"code": "said", "args": [data["name"]]}
        return data


class Modifier(Term):
    """A term that changes a roll by ``value``: ``+1 backstab``. Frozen: one is shared by every
    roll it changes (`mod`)."""

    model_config = ConfigDict(frozen=True)

    value: int


def mod(code: str, value: int, *args: str | int) -> Modifier:
    """The modifier ``code`` (worded by the presenter, with ``args``) of ``value``: made once for
    each code, value and args (an attack adds several, the same from one attack to the next)."""
    return _modifier(code, value, args)


@lru_cache(maxsize=4096)
def _modifier(code: str, value: int, args: tuple[str | int, ...]) -> Modifier:
    return Modifier(code=code, value=value, args=list(args))


def said(words: str, value: int) -> Modifier:
    """A modifier named in words that are data, not the rules' (an effect's name)."""
    return Modifier(code="said", value=value, args=[words])


def _typed_indexes(data: Any) -> Any:
    """Fill ``typed`` from the dice themselves: a `Typed` result was typed with `roll:`."""
    if isinstance(data, dict) and "typed" not in data and data.get("dice"):
        data = {**data, "typed": [i for i, d in enumerate(data["dice"]) if isinstance(d, Typed)]}
    return data


class Roll(BaseModel):
    """A roll checked against a number: dice, modifiers, the total, the target and the outcome."""

    model_config = ConfigDict(extra="forbid")

    dice: list[int] = Field(default_factory=list)
    #: indexes into ``dice`` of the results the caller typed with `roll:`
    typed: list[int] = Field(default_factory=list)
    label: str | None = None
    kept: int | None = None
    modifiers: list[Modifier] = Field(default_factory=list)
    total: int | None = None
    #: the number to beat: the opponent's where the containing field names an ``against`` role
    against: Annotated[int | None, Of("against")] = None
    #: what ``against`` is (AC, a Defense and the rule it came from...), worded by the presenter:
    #: a name, not a number, shown as the rules' own words are (a hidden roller's "vs AC 14")
    versus: Annotated[Term | None, PUBLIC] = None
    success: bool | None = None

    @model_validator(mode="before")
    @classmethod
    def _fill_typed(cls, data: Any) -> Any:
        if isinstance(data, dict) and "against_label" in data:  # logs written before `versus`
            label = data["against_label"]
            data = {k: v for k, v in data.items() if k != "against_label"} | ({"versus": label} if label else {})
        return _typed_indexes(data)


class Event(BaseModel):
    """Base of every event: whom it is about. ``kind`` names the type in a word (for filters).

    A value that is a combatant's number says whose with `rules.hidden.Of` where the event names
    more than one combatant; an unmarked number is hidden from players whenever the event names
    a hidden combatant (`rules.hidden.public_copy`)."""

    model_config = ConfigDict(extra="forbid")
    kind: ClassVar[str] = "event"
    #: it tells a new round, phase or turn beginning: effects that ended as the last one ended are told before it
    begins: ClassVar[bool] = False

    actor: str | None = None


class Added(Event):
    """A combatant joined; ``summary`` is its sheet as shown (`RuleSystem.sheet_summary`)."""

    kind: ClassVar[str] = "added"
    summary: Annotated[str | None, Of("actor")] = None
    side: str | None = None
    owner_id: str | None = None
    #: where it stands (a cell, or a band where there is no map); None: not placed yet
    at: str | None = None
    facing: str | None = None
    #: the encounter has a map (so a combatant off it is not placed yet)
    on_map: bool = False
    #: the system uses facings, so the text says which way it faces
    faces: bool = False
    #: how it joins when not able to act (its hit points at the least, say): ``down``, ``out``
    status: str | None = None


class Edited(Event):
    kind: ClassVar[str] = "edited"
    summary: Annotated[str | None, Of("actor")] = None
    by_gm: bool = False
    #: where the edit put it, the way it faces and its side now, where the edit gave them (the board shows them all)
    at: Annotated[str | None, PUBLIC] = None
    facing: Annotated[str | None, PUBLIC] = None
    side: Annotated[str | None, PUBLIC] = None


class JoinedFight(Event):
    """``actor`` was added to a fight under way in ``round``, and acts at ``initiative`` (if the system counts one)."""

    kind: ClassVar[str] = "joined_fight"
    round: Annotated[int, PUBLIC]
    initiative: Annotated[int | None, Of("actor")] = None


class Removed(Event):
    kind: ClassVar[str] = "removed"


class RoundBegan(Event):
    kind: ClassVar[str] = "round"
    begins: ClassVar[bool] = True
    round: Annotated[int, PUBLIC]


class InitiativeSet(Event):
    """``actor``'s initiative ``value`` and the ``roll`` that made it: its own numbers, also where the
    event names others (those it ties with)."""

    kind: ClassVar[str] = "initiative"
    value: Annotated[int, Of("actor")]
    roll: Annotated[Roll | None, Of("actor")] = None


class Moved(Event):
    kind: ClassVar[str] = "move"
    path: list[str]
    cost: Annotated[float | None, Of("actor")] = None
    unit: str = "MP"
    left: Annotated[float | None, Of("actor")] = None
    facing: str | None = None


class Turned(Event):
    kind: ClassVar[str] = "face"
    facing: str
    cost: float | None = None


class Attacked(Event):
    kind: ClassVar[str] = "attack"
    target: str
    weapon: str | None = None
    roll: Annotated[Roll, Of("actor", against="target")]


class Damaged(Event):
    """``actor`` took ``amount`` damage: ``before`` -> ``after`` (the system's health number)."""

    kind: ClassVar[str] = "damage"
    amount: int
    before: Annotated[int | None, Of("actor")] = None
    after: Annotated[int | None, Of("actor")] = None


class HitPointsChanged(Event):
    """The GM (``by_gm``) or its player changed ``actor``'s hit points by ``change`` (`/combatant hp`):
    ``before`` -> ``after``."""

    kind: ClassVar[str] = "hp_change"
    change: int
    before: int
    after: int
    by_gm: bool = True
    #: the change asked, where the most (a heal) or the least (a loss) stopped it at ``change``
    asked: int | None = None

    @model_validator(mode="after")
    def _asked_only_where_cut(self) -> "HitPointsChanged":
        if self.asked == self.change:  # applied whole: nothing to say
            self.asked = None
        return self


def hp_cause(by_gm: bool) -> str:
    """The `StatusChanged` cause of hit points set by hand: ``gm_hp`` (the GM's), ``player_hp`` (an owner's own, before the fight)."""
    return "gm_hp" if by_gm else "player_hp"


class StatusChanged(Event):
    """``actor`` is now ``status`` (active, downed, out); ``cause`` is a code the presenter names."""

    kind: ClassVar[str] = "status"
    status: str
    cause: str | None = None


class Victory(Event):
    """The fight is decided: ``side`` won (None: nobody is left standing); ``helpless`` are the
    foes left on the field whom a finishing blow may still take out."""

    kind: ClassVar[str] = "victory"
    side: str | None = None
    helpless: list[str] = Field(default_factory=list)


class TurnPassed(Event):
    """The GM passed ``actor`` out of turn: it loses its coming turn (or activation) this round."""

    kind: ClassVar[str] = "turn_passed"


class Finished(Event):
    """After the fight was decided, ``actor`` finished the helpless ``target`` with a coup de grâce."""

    kind: ClassVar[str] = "finished"
    target: str


class Checked(Event):
    """A roll that is not an attack: ``what`` is a code the presenter names (``recover``...)."""

    kind: ClassVar[str] = "check"
    what: str
    roll: Roll


class EffectAdded(Event):
    """An effect begins: ``actor`` is its target (None: on the field); it counts down ``left``
    times at ``ends`` (of ``of``'s turn for the turn moments)."""

    kind: ClassVar[str] = "effect"
    name: str
    ends: str
    left: Annotated[int, PUBLIC]
    of: str | None = None
    #: the changes it makes to its target's values (the target's numbers: hidden with it, whoever's turn times it)
    mods: Annotated[dict[str, int], Of("actor")] = Field(default_factory=dict)


class EffectEnded(Event):
    """An effect ran out (or was removed: ``removed``); ``actor`` is its target."""

    kind: ClassVar[str] = "effect"
    name: str
    removed: bool = False


class TurnDone(Event):
    """``actor`` has nothing left to do this turn, so the turn ends by itself (option ``auto_end``)."""

    kind: ClassVar[str] = "turn_done"
