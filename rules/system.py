"""The rule-system protocol, the actions it resolves, and the registry of systems.

``system.resolve(encounter, action, dice)`` returns a NEW encounter and the events that
happened, or raises a :class:`~rules.errors.RulesError`; the encounter passed in is never
changed, so a rejected action changes nothing.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from rules.dice import Dice
from rules.errors import IllegalAction, InputError, NotFound
from rules.events import Event
from rules.grid import Grid
from rules.models import Combatant, Encounter
from rules.sheet import SheetKey, read_sheet

__all__ = [
    "Action",
    "ActionKind",
    "Turn",
    "Resolution",
    "RuleSystem",
    "register",
    "get_system",
    "system_keys",
    "all_systems",
    "MAX_COMBATANTS",
]

MAX_COMBATANTS = 100

ActionKind = Literal[
    "add",
    "edit",
    "remove",
    "init_roll",
    "init_set",
    "init_order",
    "next",
    "move",
    "attack",
    "coupdegrace",
    "act",
]


class Action(BaseModel):
    """One command, already parsed and checked for permission by the service.

    ``actor`` is the acting combatant's name (the service fills it in when the player left
    it out). ``raw_sheet`` holds ``key=value`` pairs for add/edit.
    """

    kind: ActionKind
    user_id: str = "0"
    is_gm: bool = False
    actor: str | None = None
    target: str | None = None
    weapon: str | None = None
    to: str | None = None
    path: str | None = None
    facing: str | None = None
    name: str | None = None
    options: dict[str, str] = Field(default_factory=dict)
    value: int | None = None
    raw_sheet: dict[str, str] = Field(default_factory=dict)
    side: str | None = None
    owner_id: str | None = None
    at: str | None = None


@dataclass(frozen=True)
class Turn:
    """Who may act now.

    ``actors``: combatants that may act now; ``key`` changes exactly when the turn passes to
    someone new (the bot then pings the owners of ``actors``); ``label`` is a line for the board.
    """

    actors: tuple[str, ...] = ()
    key: tuple[Any, ...] = ()
    label: str = ""
    current: str | None = None
    side: str | None = None


@dataclass
class Resolution:
    encounter: Encounter
    events: list[Event] = field(default_factory=list)


class RuleSystem:
    """Base class of every rule system. Subclasses set the class attributes and override the
    action handlers they support; each handler mutates the private copy it is given."""

    key: ClassVar[str] = ""
    title: ClassVar[str] = ""
    variants: ClassVar[tuple[str, ...]] = ()
    map_kinds: ClassVar[tuple[str, ...]] = ("square",)
    default_map: ClassVar[str | None] = "12x10"
    act_actions: ClassVar[tuple[str, ...]] = ()
    default_side_player: ClassVar[str] = "party"
    default_side_gm: ClassVar[str] = "foes"
    has_initiative_numbers: ClassVar[bool] = True
    #: `/act` actions that belong to the GM and to no combatant (the service passes actor=None)
    gm_actions: ClassVar[tuple[str, ...]] = ()
    #: GM-overridable encounter options: name -> one line of help (see ``/encounter settings``)
    options_help: ClassVar[dict[str, str]] = {}

    # -- sheets ------------------------------------------------------------------------------
    def sheet_keys(self, variant: str | None = None) -> Sequence[SheetKey]:
        return ()

    def read_sheet(
        self, enc: Encounter, raw: dict[str, str], base: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        return read_sheet(raw, self.sheet_keys(enc.variant), base)

    def setup_combatant(self, enc: Encounter, c: Combatant, new: bool) -> list[Event]:
        """Derive hp and state from the sheet (on add, and again after an edit)."""
        return []

    def check_options(self, enc: Encounter) -> None:
        """Raise a RulesError naming the first value in ``enc.settings.options`` the rules cannot use.

        Called when the GM changes options, so a bad value is refused at once, not at the next action.
        """

    # -- turn order ----------------------------------------------------------------------------
    def turn(self, enc: Encounter) -> Turn:
        return Turn()

    def weapons_of(self, enc: Encounter, c: Combatant) -> list[str]:
        return []

    def actions_for(self, enc: Encounter, c: Combatant | None) -> list[str]:
        return list(self.act_actions)

    # -- handlers --------------------------------------------------------------------------------
    def roll_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        raise IllegalAction(f"{self.title} has no initiative roll.")

    def set_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        raise IllegalAction(
            f"{self.title} has no initiative number to set: the order comes from its own procedure."
        )

    def reorder_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        """GM sets the order of tied combatants; ``action.name`` holds the names, comma separated."""
        raise IllegalAction(f"{self.title} has no initiative order for the GM to change.")

    def next_turn(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        raise IllegalAction("There are no turns to end in this system.")

    def move(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        raise IllegalAction(f"{self.title} has no move action.")

    def attack(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        raise IllegalAction(f"{self.title} has no attack action.")

    def coup_de_grace(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        raise IllegalAction(f"{self.title} has no coup-de-grace.")

    def act(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        known = ", ".join(self.act_actions) or "none"
        raise IllegalAction(f"`{action.name}` is not an action here. Actions: {known}.")

    # -- presentation hooks -------------------------------------------------------------------------
    def status_line(self, enc: Encounter, c: Combatant) -> str:
        bits = [f"**{c.name}**"]
        if c.position:
            bits.append(c.position + (f" {c.facing}" if c.facing else ""))
        if c.hp is not None:
            bits.append(f"{c.hp} HP")
        if c.initiative is not None:
            bits.append(f"init {c.initiative}")
        if c.status != "active":
            bits.append(c.status)
        return " · ".join(bits)

    def board_extra(self, enc: Encounter) -> list[str]:
        return []

    def describe(self, event: Event) -> str | None:
        """System-specific event text; None falls back to the core formatters."""
        return None

    def sheet_summary(self, c: Combatant) -> str:
        parts = []
        for k, v in c.sheet.items():
            if isinstance(v, list):
                v = ",".join(str(x) for x in v)
            parts.append(f"{k}={v}")
        return " ".join(parts)

    # -- victory ---------------------------------------------------------------------------------------
    def side_defeated(self, enc: Encounter, side: str) -> bool:
        return all(c.status == "out" for c in enc.combatants if c.side == side)

    def check_victory(self, enc: Encounter) -> list[Event]:
        if not enc.started or enc.winner:
            return []
        sides = enc.sides()
        if len(sides) < 2:
            return []
        standing = [s for s in sides if not self.side_defeated(enc, s)]
        if len(standing) == 1:
            enc.winner = standing[0]
            enc.current = None
            return [Event(kind="victory", after=standing[0], note="every other side is defeated")]
        if not standing:
            enc.winner = "nobody"
            enc.current = None
            return [Event(kind="victory", after="nobody", note="no side is left standing")]
        return []

    # -- generic encounter edits ------------------------------------------------------------------------
    def place(self, enc: Encounter, c: Combatant, at: str | None, facing: str | None) -> None:
        """Put ``c`` on the map at ``at`` (a cell), checking the cell; no map takes no cell."""
        grid = enc.grid()
        if grid is None:
            if at:
                raise InputError("This encounter has no map, so `at` takes no cell: leave it out.")
            if facing:
                raise InputError("This encounter has no map, so there is no facing: leave it out.")
            return
        if at:
            cell = grid.parse(at)
            if cell in grid.blocked:
                raise IllegalAction(f"{cell.name} is a wall or obstacle: pick an open cell.")
            other = enc.at(cell)
            if other is not None and other is not c:
                raise IllegalAction(f"{cell.name} is taken by {other.name}: pick a free cell.")
            c.position = cell.name
        if facing:
            c.facing = grid.parse_facing(facing)
        elif c.position and not c.facing:
            c.facing = grid.facings[0]

    def add(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        name = (action.name or "").strip()
        if not name or len(name) > 40:
            raise InputError("A combatant needs a name of 1 to 40 characters.")
        if any(ch in name for ch in "\n\r`"):
            raise InputError("A combatant's name cannot hold line breaks or backticks.")
        existing = enc.find(name)
        if existing is not None:
            raise IllegalAction(f"There is already a combatant called {existing.name}: pick another name.")
        if len(enc.combatants) >= MAX_COMBATANTS:
            raise IllegalAction(f"An encounter holds at most {MAX_COMBATANTS} combatants.")
        if enc.winner:
            raise IllegalAction("This fight is over: start a new encounter.")
        sheet = self.read_sheet(enc, action.raw_sheet)
        owner = action.owner_id
        side = (action.side or "").strip()
        if not side:
            side = self.default_side_gm if (owner is None or owner in enc.gm_ids) else self.default_side_player
        if len(side) > 40:
            raise InputError("A side's name is at most 40 characters long.")
        c = Combatant(name=name, side=side, owner_id=owner, sheet=sheet)
        self.place(enc, c, action.at, action.facing)
        enc.combatants.append(c)
        events = [Event(kind="added", actor=name, note=self.sheet_summary(c) or None)]
        events += self.setup_combatant(enc, c, new=True)
        return events

    def edit(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        c = enc.get(action.actor)
        if not action.raw_sheet and not action.at and not action.facing and not action.side:
            raise InputError("Nothing to change: give `sheet` (key=value pairs) to edit.")
        if action.raw_sheet:
            c.sheet = self.read_sheet(enc, action.raw_sheet, base=c.sheet)
        if action.side:
            c.side = action.side.strip()[:40]
        if action.at or action.facing:
            self.place(enc, c, action.at, action.facing)
        events = [Event(kind="edited", actor=c.name, note=self.sheet_summary(c) or None)]
        events += self.setup_combatant(enc, c, new=False)
        return events

    def remove(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        c = enc.get(action.actor)
        enc.combatants.remove(c)
        enc.order = [n for n in enc.order if n != c.name]
        if enc.current == c.name:
            enc.current = None
        return [Event(kind="removed", actor=c.name), *self.on_removed(enc, c, dice)]

    def on_removed(self, enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
        """Tidy system state after a combatant left (e.g. pass the turn on); say what changed."""
        return []

    # -- the one entry point ---------------------------------------------------------------------------
    def resolve(self, enc: Encounter, action: Action, dice: Dice, snapshot: str | None = None) -> Resolution:
        """Resolve ``action`` on a copy of ``enc``; ``snapshot`` is ``enc`` as JSON if the caller has it."""
        # a deep copy through JSON: three times faster than deepcopy
        new = type(enc).model_validate_json(snapshot if snapshot is not None else enc.model_dump_json())
        handlers: dict[str, Callable[[Encounter, Action, Dice], list[Event]]] = {
            "add": self.add,
            "edit": self.edit,
            "remove": self.remove,
            "init_roll": self.roll_initiative,
            "init_set": self.set_initiative,
            "init_order": self.reorder_initiative,
            "next": self.next_turn,
            "move": self.move,
            "attack": self.attack,
            "coupdegrace": self.coup_de_grace,
            "act": self.act,
        }
        if new.winner and action.kind not in ("edit", "remove"):
            raise IllegalAction(f"This fight is over ({new.winner} won): `/encounter end` to close it.")
        events = handlers[action.kind](new, action, dice)
        events += self.check_victory(new)
        dice.check_all_used()
        return Resolution(new, events)

    # -- helpers for subclasses ---------------------------------------------------------------------------
    @staticmethod
    def need_grid(enc: Encounter) -> Grid:
        grid = enc.grid()
        if grid is None:
            raise IllegalAction("This encounter has no map: this action needs one.")
        return grid

    @staticmethod
    def need_started(enc: Encounter) -> None:
        if not enc.started:
            raise IllegalAction("Combat has not started: the GM starts it with `/init roll`.")

    def check_variant(self, variant: str | None) -> str | None:
        if variant in (None, "", "default"):
            return None
        if variant not in self.variants:
            known = ", ".join(self.variants) or "none"
            raise InputError(f"{self.title} has no variant `{variant}`. Variants: {known}.")
        return variant


_REGISTRY: dict[str, RuleSystem] = {}
#: the system modules, in the order the `/encounter start` choice lists them
SYSTEM_MODULES: tuple[str, ...] = (
    "rules.systems.coup_de_grace",
    "rules.systems.knights_of_valour",
    "rules.systems.tote",
)


def register(cls: type[RuleSystem]) -> type[RuleSystem]:
    """Class decorator: add a system to the registry under its ``key``."""
    if not cls.key:
        raise ValueError("a rule system needs a key")
    _REGISTRY[cls.key] = cls()
    return cls


def _load() -> None:
    if len(_REGISTRY) < len(SYSTEM_MODULES):
        for mod in SYSTEM_MODULES:
            importlib.import_module(mod)


def all_systems() -> list[RuleSystem]:
    _load()
    return list(_REGISTRY.values())


def system_keys() -> list[str]:
    return [s.key for s in all_systems()]


def get_system(key: str) -> RuleSystem:
    _load()
    try:
        return _REGISTRY[key]
    except KeyError:
        raise NotFound(f"There is no rule system `{key}`. Systems: {', '.join(_REGISTRY)}.") from None


