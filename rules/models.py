"""The encounter state: pydantic models, pure data. Export and import use these directly."""
from __future__ import annotations

import weakref
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializeAsAny,
    ValidationInfo,
    field_validator,
    model_validator,
)

from rules.effects import MAX_EFFECTS, Effect
from rules.errors import InputError, NotFound
from rules.geometry import MAX_SIDE, Cell, Grid, normal_cell, parse_cell
from rules.state import CombatantState, EncounterState, typed_state

__all__ = [
    "Combatant",
    "MapState",
    "Settings",
    "Encounter",
    "LastMove",
    "MAX_TRAIL",
    "Status",
    "EXPORT_FORMAT",
    "HP_LIMIT",
    "TERRAIN_KINDS",
    "REMINDER_HOURS_FLOOR",
    "REMINDER_HOURS_MAX",
    "MAX_NUDGES_LIMIT",
    "MAX_CELL_HEIGHT",
    "MAX_ENCOUNTER_NAME",
    "INITIATIVE_MIN",
    "INITIATIVE_MAX",
    "reminder_hours_problem",
    "DEADLINE_HOURS_MAX",
    "DEADLINE_POLICIES",
]

EXPORT_FORMAT = "skirmish-encounter/1"
#: what the GM can mark on a map cell with `/encounter terrain`; "wall" cells are listed in
#: ``MapState.blocked``, the others in ``MapState.terrain``; heights (feet) in ``MapState.heights``
TERRAIN_KINDS = ("clear", "wall", "difficult", "rough", "obstacle", "gap", "climb", "treacherous", "uphill", "slick", "water")
Status = Literal["active", "downed", "out"]
#: a map cell's height (elevation) in feet is from -MAX_CELL_HEIGHT to MAX_CELL_HEIGHT
MAX_CELL_HEIGHT = 1000
#: the longest name an encounter may have
MAX_ENCOUNTER_NAME = 100


class MapState(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["square", "hex", "none"] = "none"
    width: int = Field(default=0, ge=0, le=MAX_SIDE)
    height: int = Field(default=0, ge=0, le=MAX_SIDE)
    blocked: list[str] = Field(default_factory=list)
    terrain: dict[str, str] = Field(default_factory=dict)
    heights: dict[str, Annotated[int, Field(ge=-MAX_CELL_HEIGHT, le=MAX_CELL_HEIGHT)]] = Field(default_factory=dict)

    @field_validator("blocked")
    @classmethod
    def _cells(cls, v: list[str]) -> list[str]:
        return [normal_cell(c) for c in v]

    def grid(self) -> Grid | None:
        if self.kind == "none":
            return None
        return _grid(
            self.kind, self.width, self.height, tuple(self.blocked),
            tuple(sorted(self.terrain.items())), tuple(sorted(self.heights.items())),
        )


@lru_cache(maxsize=512)
def _grid(
    kind: str,
    width: int,
    height: int,
    blocked: tuple[str, ...],
    terrain: tuple[tuple[str, str], ...],
    heights: tuple[tuple[str, int], ...],
) -> Grid:
    """Grids are read-only, so one is shared by every encounter with the same map."""
    return Grid(
        kind,
        width,
        height,
        blocked=[parse_cell(c) for c in blocked],
        terrain={parse_cell(k): v for k, v in terrain},
        heights={parse_cell(k): v for k, v in heights},
    )


#: the most hit points, above or below 0, any combatant of any system holds (a file's beyond is refused)
HP_LIMIT = 100_000


class Combatant(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=40, pattern=r"^[^\n\r`]+$")
    side: str = Field(default="", max_length=40)
    owner_id: str | None = None
    position: str | None = None
    facing: str | None = None
    status: Status = "active"
    hp: int | None = Field(default=None, ge=-HP_LIMIT, le=HP_LIMIT)
    initiative: int | None = Field(default=None, ge=-100_000, le=100_000)
    sheet: dict[str, Any] = Field(default_factory=dict)
    #: the system's typed per-combatant state (`rules.state`), read by the encounter's system
    state: SerializeAsAny[CombatantState] = Field(default_factory=CombatantState)

    @property
    def cell(self) -> Cell | None:
        return parse_cell(self.position) if self.position else None

    @property
    def on_board(self) -> bool:
        return self.status != "out" and self.position is not None

    @property
    def in_fight(self) -> bool:
        return self.status != "out"


#: ``reminder_hours`` is 0 (never) or from this floor up to the ceiling
REMINDER_HOURS_FLOOR = 0.25
REMINDER_HOURS_MAX = 24 * 30
#: an initiative number a player or GM types (`/init set`, a delay `to=`)
INITIATIVE_MIN, INITIATIVE_MAX = -99, 999
#: how many nudges a waiting turn may get before the GM alone is told
MAX_NUDGES_LIMIT = 10


def reminder_hours_problem(hours: float, name: str = "`reminder_hours`") -> str | None:
    """Why ``hours`` cannot be an interval between reminders, or None when it can."""
    if hours == 0 or REMINDER_HOURS_FLOOR <= hours <= REMINDER_HOURS_MAX:
        return None
    return (
        f"{name} is 0 (never) or from {REMINDER_HOURS_FLOOR:g} to {REMINDER_HOURS_MAX:g} hours, "
        f"not {hours:g}."
    )


#: ``deadline_hours`` is 0 (none) or from 1 hour to 90 days
DEADLINE_HOURS_MAX = 24 * 90
#: what happens when a turn's deadline passes: the turn ends, the combatant holds, or only the GM is told
DEADLINE_POLICIES = ("pass", "hold", "gm")


#: the most names `Settings.revealed` holds
MAX_REVEALED = 100


class Settings(BaseModel):
    """Encounter settings the GM can change; ``options`` overrides a system's defaults."""

    model_config = ConfigDict(extra="forbid")

    # each bound is checked here once; ``description`` words it for the refusal (`rules.setup`)
    player_rolls: bool = True
    reminder_hours: float = Field(
        default=24.0, ge=0, le=REMINDER_HOURS_MAX,
        description=f"0 (never) or from {REMINDER_HOURS_FLOOR:g} to {REMINDER_HOURS_MAX:g} hours",
    )
    max_nudges: int = Field(default=3, ge=0, le=MAX_NUDGES_LIMIT, description=f"a whole number from 0 to {MAX_NUDGES_LIMIT}")
    #: a waiting turn's deadline in hours (0: none), and what happens then
    deadline_hours: float = Field(
        default=0.0, ge=0, le=DEADLINE_HOURS_MAX, description=f"0 (no deadline) or from 1 to {DEADLINE_HOURS_MAX} hours",
    )
    deadline_policy: Literal["pass", "hold", "gm"] = Field(default="pass", description=f"one of {', '.join(DEADLINE_POLICIES)}")
    options: dict[str, str] = Field(default_factory=dict)
    #: show the numbers of the GM's combatants to everyone (players see a condition word otherwise)
    reveal: bool = False
    #: the GM's combatants whose numbers are shown to everyone
    revealed: list[str] = Field(default_factory=list, max_length=MAX_REVEALED)

    @field_validator("reminder_hours")
    @classmethod
    def _floor(cls, v: float, info: ValidationInfo) -> float:
        # a value given now (`GIVEN`) below the floor is refused; one stored before the floor
        # existed reads back raised to it, never refused
        if v == 0 or v >= REMINDER_HOURS_FLOOR:
            return v
        if (info.context or {}).get("given"):
            raise ValueError("below the floor")
        return REMINDER_HOURS_FLOOR

    @field_validator("deadline_hours")
    @classmethod
    def _deadline_floor(cls, v: float, info: ValidationInfo) -> float:
        if 0 < v < 1 and (info.context or {}).get("given"):  # a deadline of minutes passes turns as they start
            raise ValueError("below an hour")
        return v


#: the most cells of the last move the encounter keeps for the map's trail
MAX_TRAIL = 400


class LastMove(BaseModel):
    """The latest move: who moved and the cells it went through, for the map to draw."""

    model_config = ConfigDict(extra="forbid")

    actor: str = Field(max_length=100)
    path: list[Annotated[str, Field(max_length=12)]] = Field(default_factory=list, max_length=MAX_TRAIL)


class Encounter(BaseModel):
    """One encounter. ``round`` 0 means combat has not started."""

    model_config = ConfigDict(extra="forbid")

    format: str = EXPORT_FORMAT
    system: str
    variant: str | None = None
    name: str = Field(default="Encounter", max_length=MAX_ENCOUNTER_NAME)
    round: int = Field(default=0, ge=0, le=1_000_000)
    phase: str | None = None
    current: str | None = None
    order: list[str] = Field(default_factory=list)
    map: MapState = Field(default_factory=MapState)
    combatants: list[Combatant] = Field(default_factory=list)
    settings: Settings = Field(default_factory=Settings)
    gm_ids: list[str] = Field(default_factory=list)
    #: the GM's last edits made mid-fight (hit points, stats, places...), shown on the board
    gm_edits: list[str] = Field(default_factory=list, max_length=10)
    #: the system's typed per-encounter state (`rules.state`)
    state: SerializeAsAny[EncounterState] = Field(default_factory=EncounterState)
    #: effects with durations (`rules.effects`), the GM's and the systems' own
    effects: list[Effect] = Field(default_factory=list, max_length=MAX_EFFECTS)
    winner: str | None = None
    #: the latest move, drawn as a trail on the map
    last_move: LastMove | None = None
    #: who has done something in the turn under way, and that turn (`RuleSystem.untouched`)
    turn_used: str | None = Field(default=None, max_length=1000)
    #: the names of the GM's combatants removed from the fight: what the log and the board's GM
    #: changes hold of them stays as hidden as theirs was, so no combatant is given such a name again
    removed_hidden: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _typed_state(cls, data: Any, info: ValidationInfo) -> Any:
        return typed_state(data, info)

    # -- look-ups ----------------------------------------------------------------------------
    def find(self, name: str | None) -> Combatant | None:
        """The combatant called ``name``, in any case (names are unique so: `rules.roster`).

        A name as stored is found where `_places` last saw it, checked there: a look-up costs
        the same at 100 combatants as at 4 (the board and the turn order look each one up)."""
        if not name:
            return None
        combatants = self.combatants
        places = _places(self)
        i = places.get(name)
        if i is not None and i < len(combatants) and combatants[i].name == name:
            return combatants[i]
        places.clear()  # moved, renamed, added or removed since: seen afresh
        for i, c in enumerate(combatants):
            places.setdefault(c.name, i)
        i = places.get(name)
        if i is not None:
            return combatants[i]
        key = name.strip().casefold()
        for c in combatants:
            if c.name.casefold() == key:
                return c
        return None

    def get(self, name: str | None, role: str = "combatant") -> Combatant:
        c = self.find(name)
        if c is None:
            known = ", ".join(x.name for x in self.combatants) or "none yet"
            raise NotFound(f"There is no {role} called `{name}` here. Combatants: {known}.")
        return c

    def grid(self) -> Grid | None:
        return self.map.grid()

    def at(self, cell: Cell) -> Combatant | None:
        name = cell.name
        for c in self.combatants:
            if c.position == name and c.status != "out":
                return c
        return None

    def holders(self) -> dict[Cell, Combatant]:
        """Who `at` says stands on each cell, in one look-up (a path search asks it of every cell
        it reaches): the first combatant not out whose position is written as the bot writes that cell."""
        names: dict[str, Combatant] = {}
        for o in self.combatants:
            if o.status != "out" and o.position is not None:
                names.setdefault(o.position, o)
        out: dict[Cell, Combatant] = {}
        for name, o in names.items():
            try:
                cell = parse_cell(name)
            except InputError:
                continue
            if normal_cell(name) == name:
                out[cell] = o
        return out

    def occupied(self, exclude: Combatant | None = None) -> set[Cell]:
        return {cell for c in self.combatants if c.on_board and c is not exclude and (cell := c.cell) is not None}

    def sides(self) -> list[str]:
        seen: list[str] = []
        for c in self.combatants:
            if c.side not in seen:
                seen.append(c.side)
        return seen

    def enemies_of(self, c: Combatant) -> list[Combatant]:
        return [o for o in self.combatants if o.side != c.side and o.in_fight]

    def allies_of(self, c: Combatant) -> list[Combatant]:
        return [o for o in self.combatants if o.side == c.side and o is not c and o.in_fight]

    def hidden(self, c: Combatant) -> bool:
        """Are ``c``'s numbers hidden from players? The GM's combatants are, until revealed."""
        return c.owner_id is None and not self.settings.reveal and c.name not in self.settings.revealed

    def hidden_names(self) -> frozenset[str]:
        """The combatants whose numbers players see only as a condition word (`hidden`, with the
        settings read once for the list). A GM's combatant removed while hidden stays so whatever is
        revealed after (`shown_to_players`)."""
        settings = self.settings
        revealed = settings.revealed
        gone = [n for n in self.removed_hidden if n not in revealed]
        if settings.reveal:
            return frozenset(gone)
        names = [c.name for c in self.combatants if c.owner_id is None and c.name not in revealed]
        return frozenset(names + gone)

    def shown_to_players(self, name: str) -> bool:
        """Whether players see the numbers of the combatant called ``name`` now: a player's
        always; the GM's once revealed. A removed GM's combatant stays as it was when removed
        (`rules.roster`): shown only while its name is among those revealed by name, which a
        reveal of all does not change; any other name no longer in the encounter only if revealed."""
        if name in self.removed_hidden:  # a removed one's name answers for it
            return name in self.settings.revealed
        c = self.find(name)
        if c is not None:
            return not self.hidden(c)
        return self.settings.reveal or name in self.settings.revealed

    def is_gm(self, user_id: str) -> bool:
        return user_id in self.gm_ids

    @property
    def started(self) -> bool:
        return self.round > 0

    def option(self, key: str, default: str | None = None) -> str | None:
        return self.settings.options.get(key, default)


#: where each encounter's combatants stood in its list, by name, when `Encounter.find` last
#: looked (by the encounter's id while it lives): a hint, each place checked before it is used
_PLACES: dict[int, tuple[weakref.ref[Encounter], dict[str, int]]] = {}


def _places(enc: Encounter) -> dict[str, int]:
    """``enc``'s places in `_PLACES` (new and empty the first time)."""
    key = id(enc)
    held = _PLACES.get(key)
    if held is not None and held[0]() is enc:
        return held[1]

    def gone(ref: weakref.ref[Encounter], key: int = key) -> None:
        if _PLACES.get(key, (None,))[0] is ref:
            del _PLACES[key]

    places: dict[str, int] = {}
    _PLACES[key] = (weakref.ref(enc, gone), places)
    return places
