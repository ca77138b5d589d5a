"""The actions a rule system resolves, one typed model each, and the declared `/act` tables.

An action is a discriminated union on ``kind``: each command carries exactly the fields it
uses (`Move` has ``to``/``path``, `Attack` has ``target``/``weapon``...). The service fills in
``actor`` when the caller left it out and decides who may do what from the system's
:class:`ActionTable`; the rules never check permissions.

``make_action(kind, **fields)`` builds the right model from a kind name (tests, the harness).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from rules.dice import Dice
from rules.errors import IllegalAction
from rules.events import Event
from rules.geometry import Grid
from rules.options import NO_WORDS, OptionSet, OptionValues

if TYPE_CHECKING:  # pragma: no cover
    from rules.models import Combatant, Encounter

__all__ = [
    "Action",
    "ActionBase",
    "Add",
    "Edit",
    "Remove",
    "InitRoll",
    "InitSet",
    "InitOrder",
    "Next",
    "Move",
    "Attack",
    "CoupDeGrace",
    "Act",
    "EffectAdd",
    "EffectRemove",
    "ActionKind",
    "ACTION_KINDS",
    "make_action",
    "ActionContext",
    "Handler",
    "ActionSpec",
    "ActionTable",
    "action_name",
]


class ActionBase(BaseModel):
    """What every action carries: who sent it, and the acting combatant (if any)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    user_id: str = "0"
    #: the caller is a GM of the encounter: GM overrides (acting out of turn) are allowed
    is_gm: bool = False
    actor: str | None = None


class _Sheet(ActionBase):
    raw_sheet: dict[str, str] = Field(default_factory=dict)
    side: str | None = None
    at: str | None = None
    facing: str | None = None


class Add(_Sheet):
    kind: Literal["add"] = "add"
    name: str
    owner_id: str | None = None
    #: add this many copies, named ``name 1`` .. ``name n`` (``at`` then lists their cells)
    count: int | None = None
    #: joining a fight under way: its initiative (None: the system's rule gives or rolls it)
    init: int | None = None


class Edit(_Sheet):
    kind: Literal["edit"] = "edit"
    #: relative changes of numeric sheet values (``sheet:"hp-7 str+1"``): key -> amount
    deltas: dict[str, int] = Field(default_factory=dict)
    #: `/combatant hp change:`: the hit points gained (or lost, negative)
    hp_change: int | None = None


class Remove(ActionBase):
    kind: Literal["remove"] = "remove"


class InitRoll(ActionBase):
    kind: Literal["init_roll"] = "init_roll"


class InitSet(ActionBase):
    kind: Literal["init_set"] = "init_set"
    value: int | None = None


class InitOrder(ActionBase):
    kind: Literal["init_order"] = "init_order"
    #: names (or sides) in the order wanted, comma separated; empty shows the order
    order: str | None = None


class Next(ActionBase):
    kind: Literal["next"] = "next"
    #: pass every combatant the turn names, not only ``actor`` (a deadline passing a side's
    #: activation in Coup-De-Grace); a turn of one combatant is the same either way
    whole_turn: bool = False


class _Options(ActionBase):
    options: dict[str, str] = Field(default_factory=dict)


class Move(_Options):
    kind: Literal["move"] = "move"
    to: str | None = None
    path: str | None = None
    facing: str | None = None


class _Strike(_Options):
    target: str | None = None
    weapon: str | None = None


class Attack(_Strike):
    kind: Literal["attack"] = "attack"


class CoupDeGrace(_Strike):
    kind: Literal["coupdegrace"] = "coupdegrace"


class Act(_Strike):
    kind: Literal["act"] = "act"
    #: the action's name in the system's table (`/act action:`)
    action: str
    facing: str | None = None


class EffectAdd(ActionBase):
    """`/effect add`: ``actor`` is the target (None: an effect on the field, the GM's)."""

    kind: Literal["effect_add"] = "effect_add"
    #: the effect's name (a condition's, or the GM's own)
    effect: str
    rounds: int = 1
    #: when it counts down, as typed ("end of Grak's turn"); None: the end of the target's turn
    ends: str | None = None
    #: changes to the target's values while it runs, as typed ("attack+1 defence+1")
    mods: str | None = None


class EffectRemove(ActionBase):
    """`/effect remove`: the effect called ``effect`` (on ``actor`` if named)."""

    kind: Literal["effect_remove"] = "effect_remove"
    effect: str


Action = Annotated[
    Union[Add, Edit, Remove, InitRoll, InitSet, InitOrder, Next, Move, Attack, CoupDeGrace, Act, EffectAdd, EffectRemove],
    Field(discriminator="kind"),
]
ActionKind = Literal[
    "add", "edit", "remove", "init_roll", "init_set", "init_order", "next", "move", "attack", "coupdegrace", "act",
    "effect_add", "effect_remove",
]
ACTION_KINDS: tuple[str, ...] = get_args(ActionKind)

_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


_MODELS: dict[str, type[ActionBase]] = {
    m.model_fields["kind"].default: m
    for m in (Add, Edit, Remove, InitRoll, InitSet, InitOrder, Next, Move, Attack, CoupDeGrace, Act, EffectAdd, EffectRemove)
}


def make_action(kind: str, *, lenient: bool = False, **fields: Any) -> Action:
    """The action model of ``kind`` with ``fields``; a field it does not have is an error, or
    with ``lenient`` is left out (property tests send every field to every kind)."""
    if lenient and kind in _MODELS:
        known = _MODELS[kind].model_fields
        fields = {k: v for k, v in fields.items() if k in known}
    return _ADAPTER.validate_python({"kind": kind, **fields})


@dataclass(frozen=True)
class ActionContext:
    """What an `/act` handler works with: the encounter it changes (the private copy of this
    resolution), its map, the encounter's options as the rules use them, the dice, and the
    acting combatant (None where the action names none, such as a GM's)."""

    encounter: Encounter
    grid: Grid | None
    options: OptionValues
    dice: Dice
    actor: Combatant | None = None
    #: the action's own ``options:`` words, read by its declaration (`ActionSpec.words`)
    words: OptionValues = field(default_factory=lambda: OptionValues({}))

    def need_grid(self) -> Grid:
        """The map; an action that needs one is refused on an encounter without."""
        if self.grid is None:
            raise IllegalAction("This encounter has no map: this action needs one.")
        return self.grid


#: the one signature of an `/act` handler
Handler = Callable[[ActionContext, Act], list[Event]]


@lru_cache(maxsize=1024)
def action_name(name: str | None) -> str:
    """An action's name as typed, in the form the tables use: ``Shoot & Move`` -> ``shoot-and-move``
    (cached: every action asks its table by the same few names)."""
    name = (name or "").strip().lower().replace("&", "and").replace("_", "-").replace(" ", "-")
    return re.sub("-+", "-", name)


@dataclass(frozen=True)
class ActionSpec:
    """One `/act` action of a system, declared once.

    ``cost`` is shown in ``/help`` ("1 initiative", "4 MP"); ``gm_only`` actions belong to the
    GM and to no combatant; ``words`` declares the ``options:`` words it reads (`rules.options`:
    ``/help``, autocomplete and the one reader come from it); ``legal`` says whether a combatant
    may take it now (autocomplete offers only those); ``handler`` resolves it
    (`RuleSystem.act` calls it with an :class:`ActionContext`, whose ``words`` hold them typed).
    """

    name: str
    help: str
    cost: str = ""
    gm_only: bool = False
    target: bool = False
    #: the ``options:`` words, declared
    words: OptionSet = field(default=NO_WORDS, compare=False)
    legal: Callable[["Encounter", "Combatant | None"], bool] | None = field(default=None, compare=False)
    #: resolves the `/act` action (a command's entry in `RuleSystem.commands` declares only words)
    handler: Handler | None = field(default=None, compare=False)

    def line(self) -> str:
        """One line for ``/help`` and the docs: ``**assault** (2): ... Options: ...``."""
        cost = f" ({self.cost})" if self.cost else ""
        who = " GM only." if self.gm_only else ""
        return f"`{self.name}`{cost}: {self.help}.{who}{self.words.word_lines()}"


class ActionTable:
    """A system's `/act` actions, in the order ``/help`` lists them."""

    def __init__(self, *specs: ActionSpec) -> None:
        self.specs: tuple[ActionSpec, ...] = specs
        self._by_name = {s.name: s for s in specs}

    def __iter__(self) -> Iterator[ActionSpec]:
        return iter(self.specs)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __len__(self) -> int:
        return len(self.specs)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    @property
    def gm_only(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.specs if s.gm_only)

    def get(self, name: str | None) -> ActionSpec:
        spec = self._by_name.get(action_name(name))
        if spec is None:
            known = ", ".join(self._by_name) or "none"
            raise IllegalAction(f"`{name}` is not an action here. Actions: {known}.")
        return spec

    def legal_now(self, enc: "Encounter", c: "Combatant | None") -> list[str]:
        """The actions ``c`` may take now (every action where no ``legal`` test is declared)."""
        return [s.name for s in self.specs if s.legal is None or s.legal(enc, c)]

    def lines(self) -> Sequence[str]:
        return [s.line() for s in self.specs]

    def command_lines(self) -> Sequence[str]:
        """The words of each command this table declares (`RuleSystem.commands`), for ``/help`` and the docs."""
        return [f"`/{s.name}`:{s.words.word_lines()}" for s in self.specs if len(s.words)]
