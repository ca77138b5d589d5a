"""The damage grid: the die faces grouped into locations, each with its hits and transfer arrow.

"Each target has a damage grid. Each square in the grid has one or more numbers that correspond
to a face on a die. ... The top number is the die face that hits this location. The description
of the location is second. The bottom number is the number of hits the location can take before
it is ruined. The direction arrows <, >, v, ^ are used to transfer hits to another location if
that location is ruined (value is 0) or ignored."

**The humanoid grid** as the text draws it (a cross, like a die's net)::

                 1 Mind v
                 2 Health ^
    4 Shield >   3 Body ^    < 5 Arsenal
                 6 Speed ^

so Mind passes its hits down to Health, Health up to Mind, Body up to Health, Shield right to
Body, Arsenal left to Body and Speed up to Body. The text writes every capacity as ``x`` (the
model's own value); where a sheet gives none, the project's defaults are Mind 2, Health 3,
Body 1, Shield 0 and Speed 4 (shared/rules/README.md's Speed). Arsenal has no number of its own:
"When this location is hit the attacker targets one Weapon or Equipment the model is carrying.
Each weapon has its own Health value", so its capacity is the carried weapons' Health (0 here).

**A custom grid** (sheet key ``grid``): "Some models, Artifacts or objects will have different
damage grids or contain just one square. Regardless of the number of squares and shape or the
grid each square will have at least one D6 face location that strikes it and a transference
arrow." Written ``face:location:hits:arrow`` per location, separated by commas or spaces:
``face`` is one or more faces joined by ``/`` (``1/2``); ``hits`` 0..99; ``arrow`` the name of the
location its hits go to when it is ruined, or ``none`` (a grid of one square). Every face 1..6
strikes exactly one location, and a grid needs a ``health`` location ("When Health reaches 0 the
model is killed or destroyed"). The names ``mind health body shield arsenal speed`` carry the
text's meaning wherever they appear; any other name is a plain location.

**Current hits** are plain data: ``dict[str, int]`` from location name to hits left
(:meth:`DamageGrid.start_values`), which a combatant's state stores as it is; Arsenal is not in
it (the weapons' Health is kept by weapon).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from rules.errors import SheetError

__all__ = [
    "MIND",
    "HEALTH",
    "BODY",
    "SHIELD",
    "ARSENAL",
    "SPEED",
    "FACES",
    "Location",
    "DamageGrid",
    "HUMANOID",
    "HUMANOID_DEFAULTS",
    "parse_grid",
]

MIND, HEALTH, BODY, SHIELD, ARSENAL, SPEED = "mind", "health", "body", "shield", "arsenal", "speed"
FACES = (1, 2, 3, 4, 5, 6)
#: the capacities the text leaves as ``x``: project defaults where a sheet gives none
HUMANOID_DEFAULTS: dict[str, int] = {MIND: 2, HEALTH: 3, BODY: 1, SHIELD: 0, SPEED: 4}
MAX_HITS = 99
MAX_GRID_TEXT = 200
_NAME_RE = re.compile(r"^[a-z][a-z0-9-]{0,19}$")
_NO_ARROW = {"none", "-"}
_EXAMPLE = "`grid=humanoid`, or one `face:location:hits:arrow` per location like `grid=1/2/3:health:6:none,4/5/6:body:3:health`"


@dataclass(frozen=True)
class Location:
    """One square of a damage grid: the faces that strike it, its hits, where its hits go when ruined."""

    name: str
    faces: tuple[int, ...]
    hits: int
    arrow: str | None = None

    @property
    def text(self) -> str:
        return f"{'/'.join(map(str, self.faces))}:{self.name}:{self.hits}:{self.arrow or 'none'}"


@dataclass(frozen=True)
class DamageGrid:
    """Faces 1..6 grouped into locations (in the order of their lowest face)."""

    locations: tuple[Location, ...]
    _by_name: dict[str, Location] = field(init=False, repr=False, compare=False, hash=False)
    _by_face: dict[int, str] = field(init=False, repr=False, compare=False, hash=False)
    _names: tuple[str, ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        faces = sorted(f for loc in self.locations for f in loc.faces)
        names = [loc.name for loc in self.locations]
        if tuple(faces) != FACES or len(set(names)) != len(names):
            raise ValueError("a damage grid needs each face 1..6 once and distinct location names")
        if any(loc.arrow is not None and loc.arrow not in names for loc in self.locations):
            raise ValueError("a transfer arrow names a location not on the grid")
        object.__setattr__(self, "_by_name", {loc.name: loc for loc in self.locations})
        object.__setattr__(self, "_by_face", {f: loc.name for loc in self.locations for f in loc.faces})
        object.__setattr__(self, "_names", tuple(loc.name for loc in self.locations))

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    def location(self, name: str) -> Location:
        return self._by_name[name]

    def location_of(self, face: int) -> str:
        """The location a die face strikes."""
        return self._by_face[face]

    def faces_of(self, name: str) -> tuple[int, ...]:
        return self.location(name).faces

    def arrow(self, name: str) -> str | None:
        """Where hits go when ``name`` is ruined (None: nowhere)."""
        return self.location(name).arrow

    def has(self, name: str) -> bool:
        return name in self._by_name

    def start_values(self, overrides: Mapping[str, int] | None = None) -> dict[str, int]:
        """Hits per location at full strength (Arsenal left out: its hits are the weapons' Health);
        ``overrides`` (a sheet's ``mind=3 body=2``) replace the grid's capacities by name."""
        given = dict(overrides or {})
        return {loc.name: int(given.get(loc.name, loc.hits)) for loc in self.locations if loc.name != ARSENAL}

    @property
    def text(self) -> str:
        """The sheet's ``grid`` value that reads back to this grid."""
        return "humanoid" if self == HUMANOID else ",".join(loc.text for loc in self.locations)


HUMANOID = DamageGrid((
    Location(MIND, (1,), HUMANOID_DEFAULTS[MIND], HEALTH),        # v
    Location(HEALTH, (2,), HUMANOID_DEFAULTS[HEALTH], MIND),      # ^
    Location(BODY, (3,), HUMANOID_DEFAULTS[BODY], HEALTH),        # ^
    Location(SHIELD, (4,), HUMANOID_DEFAULTS[SHIELD], BODY),      # >
    Location(ARSENAL, (5,), 0, BODY),                             # <
    Location(SPEED, (6,), HUMANOID_DEFAULTS[SPEED], BODY),        # ^
))


def _bad(item: str, why: str) -> SheetError:
    return SheetError(f"`grid`: `{item[:40]}` {why}. Write {_EXAMPLE}.")


def _faces(text: str, item: str) -> tuple[int, ...]:
    parts = text.split("/")
    if not all(p.strip() in {"1", "2", "3", "4", "5", "6"} for p in parts):
        raise _bad(item, "needs die faces from 1 to 6 first, joined by `/` (like `1/2`)")
    faces = tuple(sorted(int(p) for p in parts))
    if len(set(faces)) != len(faces):
        raise _bad(item, "names a face twice")
    return faces


@lru_cache(maxsize=256)
def parse_grid(text: str | None) -> DamageGrid:
    """Read the sheet key ``grid``: ``humanoid`` (also empty) or a custom list (module docstring)."""
    raw = (text or "").strip().lower()
    if raw in {"", "humanoid"}:
        return HUMANOID
    if len(raw) > MAX_GRID_TEXT:
        raise SheetError(f"`grid` is at most {MAX_GRID_TEXT} characters: write {_EXAMPLE}.")
    items = [x for x in re.split(r"[,\s]+", raw) if x]
    seen_faces: dict[int, str] = {}
    rows: list[tuple[tuple[int, ...], str, int, str | None, str]] = []
    for item in items:
        parts = item.split(":")
        if len(parts) != 4:
            raise _bad(item, "is not `face:location:hits:arrow`")
        faces = _faces(parts[0], item)
        name, hits_text, arrow = parts[1].strip(), parts[2].strip(), parts[3].strip()
        if not _NAME_RE.match(name):
            raise _bad(item, "needs a location name of letters, digits and `-` (up to 20, starting with a letter)")
        if any(name == r[1] for r in rows):
            raise _bad(item, f"repeats the location `{name}`: give it all its faces at once, like `1/2:{name}:...`")
        if not hits_text.isdigit() or int(hits_text) > MAX_HITS:
            raise _bad(item, f"needs the hits the location can take as a whole number from 0 to {MAX_HITS}")
        hits = int(hits_text)
        if name == ARSENAL and hits:
            raise _bad(item, "gives Arsenal hits, but Arsenal hits land on the carried weapons' own Health: write 0")
        for f in faces:
            if f in seen_faces:
                raise _bad(item, f"gives face {f} to `{name}`, but it already strikes `{seen_faces[f]}`")
            seen_faces[f] = name
        rows.append((faces, name, hits, None if arrow in _NO_ARROW else arrow, item))
    missing = [f for f in FACES if f not in seen_faces]
    if missing:
        raise SheetError(
            f"`grid`: no location for face {', '.join(map(str, missing))}: every face 1 to 6 strikes one location. "
            f"Write {_EXAMPLE}."
        )
    names = {r[1] for r in rows}
    for faces, name, hits, arrow, item in rows:
        if arrow is not None and (arrow == name or arrow not in names):
            raise _bad(item, f"points its arrow at `{arrow}`: name another location of this grid, or `none`")
    if HEALTH not in names:
        raise SheetError(f"`grid` needs a `health` location (Health 0 is killed or destroyed). Write {_EXAMPLE}.")
    rows.sort(key=lambda r: r[0][0])
    return DamageGrid(tuple(Location(name, faces, hits, arrow) for faces, name, hits, arrow, _ in rows))
