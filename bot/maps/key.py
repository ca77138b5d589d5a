"""What the ``/map`` picture says, apart from drawing it: the bundled font, each side's colour,
each combatant's token label, the shading kinds, and the text that describes the picture.

The font is WenQuanYi Micro Hei (Apache 2.0, ``bot/fonts/``), cut to the scripts players type:
Latin, Greek, Cyrillic, CJK ideographs, kana and hangul, so every machine draws the same letters.
A side's colour comes from its name (CRC-32 of the case-folded name, clashes moved on to the
next free colour in name order), so it never depends on the order the sides joined.
"""

from __future__ import annotations

import unicodedata
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from PIL import ImageFont

from rules.errors import InputError
from rules.geometry import Cell, Grid, cell_name, parse_cell
from rules.models import Encounter
from rules.report import plural
from rules.system import Highlight, RuleSystem, Turn

__all__ = [
    "FONT_FILE",
    "effect_words",
    "CONDITIONS",
    "MapView",
    "map_view",
    "shading_words",
    "PALETTE",
    "RGB",
    "COLOUR_NAMES",
    "HIGHLIGHT_WORDS",
    "font",
    "text_width",
    "initials",
    "labels",
    "side_colours",
    "board_cell",
    "describe_map",
]

RGB = tuple[int, int, int]  #: a colour's red, green and blue, 0-255

#: the bundled font, inside the installed package
FONT_FILE = str(resources.files("bot") / "fonts" / "WenQuanYiMicroHei.ttf")

#: side colours; a side takes the one its name picks (see :func:`side_colours`)
PALETTE: tuple[RGB, ...] = (
    (37, 99, 235),  # blue
    (214, 40, 40),  # red
    (22, 150, 70),  # green
    (230, 130, 0),  # amber
    (140, 60, 220),  # violet
    (0, 150, 175),  # teal
    (215, 45, 125),  # pink
    (125, 85, 55),  # brown
    (110, 160, 10),  # lime
    (75, 85, 105),  # slate
)
COLOUR_NAMES = ("blue", "red", "green", "amber", "violet", "teal", "pink", "brown", "lime", "slate")
#: the default sides of every system keep the two clearest colours
_PREFERRED = {RuleSystem.default_side_player: 0, RuleSystem.default_side_gm: 1}

#: how the legend and the description name each kind of shaded cell
HIGHLIGHT_WORDS = {"arc": "front arc", "reach": "reach", "threat": "threatened", "danger": "danger"}
#: how the legend and the description say whose shading a cell shows (``{}``: the acting one)
_SHADING_BY = {"arc": "{}'s front arc", "reach": "{}'s reach", "threat": "threatened by {}", "danger": "in danger from {}"}

#: the condition words (`RuleSystem.condition`) a token's bar shows, best first
CONDITIONS = ("unhurt", "hurt", "badly hurt", "down")

#: the longest number kept whole on a token (``Goblin 100`` → ``G100``)
_NUMBER_DIGITS = 3


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled font at ``size`` pixels, laid out by Pillow's basic engine (a third of the
    time of Raqm's; names need no shaping in the scripts the font covers)."""
    return ImageFont.truetype(FONT_FILE, max(6, size), layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> float:
    """How wide ``text`` is in the bundled font at ``size`` pixels; kept, since every picture
    measures the same names and labels again."""
    return font(size).getlength(text)


def _wide(ch: str) -> bool:
    """CJK and other full-width letters: one of them says as much as two Latin letters."""
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _upper(ch: str) -> str:
    up = ch.upper()
    return up if len(up) == 1 else ch


def initials(name: str) -> str:
    """A token's label: the first letters of two words (``Grak the Bold`` → ``GT``), else the
    first two letters (``Borin`` → ``Bo``), one full-width letter (``中文`` → ``中``), and a
    closing number kept whole (``Goblin 3`` → ``G3``, ``Goblin Archer 12`` → ``GA12``)."""
    words = [w for w in ("".join(ch for ch in x if ch.isalnum()) for x in name.split()) if w]
    if not words:
        return name.strip()[:2] or "?"
    number = ""
    if len(words) > 1 and words[-1].isdecimal() and len(words[-1]) <= _NUMBER_DIGITS:
        number = words.pop()
    first = words[0]
    if _wide(first[0]):
        head = first[0]
    elif len(words) >= 2 and not _wide(words[1][0]):
        head = _upper(first[0]) + _upper(words[1][0])
    elif number:
        head = _upper(first[0])
    else:
        head = _upper(first[0]) + first[1:2]
    return head + number


def labels(enc: Encounter) -> dict[str, str]:
    """Each combatant's token label, distinct within the encounter: its initials, else the first
    letter and a later one of its name (``Borin`` ``Bo``, ``Bofur`` ``Bf``), else a number added."""
    return dict(_labels(tuple(c.name for c in enc.combatants)))


@lru_cache(maxsize=1024)
def _labels(names: tuple[str, ...]) -> dict[str, str]:
    """:func:`labels` of the combatants ``names``, in their order; kept, since every picture of an
    encounter labels the same names again (a copy is handed out)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        label = initials(name)
        if label in used:
            letters = [ch for ch in name if ch.isalnum()]
            label = next((label[0] + ch.lower() for ch in letters[1:] if label[0] + ch.lower() not in used), label)
        n = 2
        base = label
        while label in used:
            label, n = f"{base[:2]}{n}", n + 1
        out[name] = label
        used.add(label)
    return out


def _colour_index(side: str) -> int:
    key = side.casefold()
    return _PREFERRED.get(key, zlib.crc32(key.encode()) % len(PALETTE))


def side_colours(enc: Encounter) -> dict[str, RGB]:
    """Each side's colour, from its name alone (stable across runs, processes and join order);
    two sides that would share one are told apart, in name order, by the next free colour."""
    sides = enc.sides()
    taken: set[int] = set()
    chosen: dict[str, int] = {}
    for side in sorted(sides, key=lambda s: (_colour_index(s), s.casefold(), s)):
        want = _colour_index(side)
        free = [(want + i) % len(PALETTE) for i in range(len(PALETTE)) if (want + i) % len(PALETTE) not in taken]
        chosen[side] = free[0] if free else want
        taken.add(chosen[side])
    return {side: PALETTE[chosen[side]] for side in sides}


def board_cell(text: str | None, grid: Grid) -> Cell | None:
    """A stored cell name read leniently: None when unreadable or off the board."""
    try:
        cell = parse_cell(text or "")
    except InputError:
        return None
    return cell if grid.contains(cell) else None


def effect_words(enc: Encounter) -> list[str]:
    """``Bless on Ægir (2 left)``: each running effect, short enough for the legend."""
    return [
        f"{e.name}" + (f" on {e.target}" if e.target else "") + (f" ({e.left} left)" if e.left > 1 else "")
        for e in enc.effects
    ]


@dataclass(frozen=True)
class MapView:
    """What the rules add to the picture of an encounter: each combatant's condition word (the
    band players see of a hidden combatant, shown alike for every combatant since the picture is
    posted to all), who may act now, and the side whose activation it is when no one is acting."""

    conditions: Mapping[str, str] = field(default_factory=dict)
    acting: frozenset[str] = frozenset()
    side: str | None = None

    @classmethod
    def of(cls, enc: Encounter) -> MapView:
        """No rules at hand: no conditions, the encounter's current combatant acting."""
        return cls(acting=frozenset([enc.current] if enc.current else []))


def map_view(system: RuleSystem, enc: Encounter) -> MapView:
    """What ``system`` adds to the picture of ``enc`` (its condition words and its turn)."""
    turn = system.turn(enc) if enc.started else Turn()
    acting = [turn.current] if turn.current else list(turn.actors)
    return MapView(
        {c.name: system.condition(c) for c in enc.combatants},
        frozenset(acting),
        turn.side if turn.current is None else None,
    )


def shading_words(kind: str, who: str | None) -> str:
    """``threatened by Rolf``: a kind of shaded cell and whose it is, in words."""
    if who is None:
        return HIGHLIGHT_WORDS.get(kind, kind)
    return _SHADING_BY.get(kind, "{}: " + kind).format(who)


def describe_map(enc: Encounter, highlights: Sequence[Highlight] = (), view: MapView | None = None) -> list[str]:
    """What the picture shows, in words (for screen readers and the `/map` reply)."""
    view = MapView.of(enc) if view is None else view
    grid = enc.grid()
    if grid is None:
        return ["No map: distances are range bands."]
    last_col = cell_name((grid.width - 1, 0))[:-1]
    lines = [
        f"{grid.width}x{grid.height} {'hexes' if grid.kind == 'hex' else 'squares'}: "
        f"columns A-{last_col} left to right, rows 1-{grid.height} top to bottom."
    ]
    colours, names = side_colours(enc), labels(enc)
    for side, colour in colours.items():
        people = []
        for c in (c for c in enc.combatants if c.side == side):
            cell = board_cell(c.position, grid) if c.status != "out" else None
            where = f"at {cell.name}" if cell else ("out" if c.status == "out" else "off the map")
            bits = [where]
            if cell and c.facing:
                bits.append(f"facing {c.facing}")
            condition = view.conditions.get(c.name)
            if c.status == "downed":
                bits.append("downed")
            elif cell and condition:
                bits.append(condition)
            if cell and any(e.target == c.name for e in enc.effects):
                bits.append("marked with effects")
            if c.name == enc.current:
                bits.append("acting now")
            elif c.name in view.acting:
                bits.append("may act now")
            people.append(f"{c.name} [{names[c.name]}] {', '.join(bits)}")
        activating = " (to activate now)" if side == view.side else ""
        lines.append(f"{side} ({COLOUR_NAMES[PALETTE.index(colour)]}){activating}: {'; '.join(people)}")
    if enc.effects:
        lines.append("Effects: " + "; ".join(effect_words(enc)))
    move = enc.last_move
    if move and len(move.path) > 1:
        lines.append(f"Last move (trail): {move.actor} {' → '.join(move.path)}")
    kinds: dict[str, int] = {}
    for h in highlights:
        kinds[h.kind] = kinds.get(h.kind, 0) + 1
    for kind, n in kinds.items():
        lines.append(f"Shaded: {shading_words(kind, enc.current)}, {plural(n, 'cell')}")
    marks = [plural(len(grid.blocked), "wall")] if grid.blocked else []
    terrain: dict[str, int] = {}
    for kind in grid.terrain.values():
        terrain[kind] = terrain.get(kind, 0) + 1
    marks += [f"{kind} {n}" for kind, n in sorted(terrain.items())]
    if grid.heights:
        marks.append(plural(len(grid.heights), "marked height"))
    if marks:
        lines.append(f"Marked cells: {', '.join(marks)}")
    return lines
