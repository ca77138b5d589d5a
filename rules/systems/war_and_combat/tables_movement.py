"""War & Combat's movement tables (shared/rules/war-and-combat.txt): MOVEMENT RATE BY PACE,
the TERRAIN EFFECTS CHART, ACTION PENALTY BY PACE and the obstacles, with one pure lookup each.

Where the text is ambiguous, the reading chosen:

- "Creep", the treacherous terrain's maximum pace, is no pace of the movement table; it is
  read as slower than a walk, so only a crawl keeps within it. "Walk or Slide" (slick) is
  read as walk: sliding is its own mode of locomotion, which the table does not rate.
- A terrain whose cost is "as per dominant terrain" (treacherous) or "double that of dominant
  terrain" (uphill) needs the dominant terrain; it is open ground unless given. Uphill's
  maximum pace is the dominant terrain's.
- Paces the ACTION PENALTY table leaves out (crawl, swim) and standing still take no penalty.
- A sprint is a pace (the sheet's `pace=sprint`) with the table's -5; the MOVEMENT RATE table
  gives it no rate, so it moves `SPRINT_POINTS` (10) a round, the option `sprint_points`.
- The table of actions during movement is printed as four columns run together; it is read
  column by column where each alphabetical run starts again (Crouch...Talk free, Coup-de-Grâce
  ...Stand up quick, Aim a Weapon...Sheathe weapon full, the rest lengthy), except Draw Weapon,
  which the prose names a quick action ("drawing weapons") and the run would make free: the
  prose wins.
- Movement points split evenly between the two movement phases, an odd point going to the
  first ("During each phase, the fighter can spend up to half his movement points").
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.errors import InputError
from rules.systems.war_and_combat.tables import norm, pick

__all__ = [
    "PACES",
    "SPRINT_POINTS",
    "pace_points",
    "phase_points",
    "PACE_ORDER",
    "Terrain",
    "TERRAIN",
    "terrain",
    "entry_cost",
    "max_pace",
    "exceeds_max_pace",
    "PACE_PENALTIES",
    "pace_penalty",
    "obstacle_penalty",
    "Obstacle",
    "OBSTACLES",
    "OBSTACLE_COST",
    "obstacle",
    "obstacle_named",
    "ACTION_KINDS",
    "MOVEMENT_ACTIONS",
    "movement_action",
]

#: MOVEMENT RATE BY PACE: pace -> full move (two-metre hexes per 5-second round)
PACES: dict[str, int] = {"walk": 4, "jog": 6, "run": 8, "crawl": 2, "swim": 4}

#: a sprint's full move: the text rates no sprint (ACTION PENALTY BY PACE alone names it, at -5);
#: faster than a run's 8 (the option `sprint_points` changes it)
SPRINT_POINTS = 10


def pace_points(pace: str, sprint: int = SPRINT_POINTS) -> int:
    """MOVEMENT RATE BY PACE: "Walk 4, Jog 6, Run 8, Crawl 2, Swim 4" - "Rate for a human on
    foot in two-meter hexes per 5-sec round". A sprint, which only ACTION PENALTY BY PACE names,
    moves ``sprint`` points (the option `sprint_points`)."""
    if norm(pace) == "sprint":
        return sprint
    return pick(PACES, pace, "pace")


def phase_points(pace: str, sprint: int = SPRINT_POINTS) -> tuple[int, int]:
    """The points of one round for (the movement phase, the adjustment phase): "During each
    phase, the fighter can spend up to half his movement points" (an odd point goes first)."""
    full = pace_points(pace, sprint)
    return (full - full // 2, full // 2)


#: paces from slowest to fastest, for the terrain chart's maximum paces ("creep" < walk;
#: swim rates as walk; a sprint is faster than a run, so over the rough ground's "Run" too)
PACE_ORDER: dict[str, int] = {"crawl": 0, "creep": 1, "walk": 2, "swim": 2, "jog": 3, "run": 4, "sprint": 5}


@dataclass(frozen=True)
class Terrain:
    """A row of the TERRAIN EFFECTS CHART: ``cost`` to enter a hex (None: the dominant
    terrain's), ``doubles`` (twice the dominant terrain's cost), ``max_pace`` (None: no limit,
    "Max"; "dominant": the dominant terrain's)."""

    name: str
    cost: int | None
    doubles: bool
    max_pace: str | None
    description: str


#: TERRAIN EFFECTS CHART, with the Terrain Descriptions
TERRAIN: dict[str, Terrain] = {
    "open": Terrain("open", 1, False, None, "clear, uncluttered ground"),
    "rough": Terrain("rough", 2, False, "run", "rubble, fallen bodies, stairs"),
    "treacherous": Terrain("treacherous", None, False, "creep", "weak, collapsing stairs or floorboards"),
    "uphill": Terrain("uphill", None, True, "dominant", "not described by the text"),
    "slick": Terrain("slick", 2, False, "walk", "icy, greasy, or slick wet surface"),
    "water": Terrain("water", 2, False, "jog", "stuff to wade or slosh through"),
}
for _alias in ("mired", "sandy"):
    TERRAIN[_alias] = TERRAIN["water"]


def terrain(kind: str) -> Terrain:
    """TERRAIN EFFECTS CHART: Open 1 Max; Rough 2 Run; Treacherous ** Creep; Uphill ×2 ***;
    Slick 2 Walk or Slide; Water/Mired/Sandy 2 Jog."""
    return pick(TERRAIN, kind, "terrain")


def entry_cost(kind: str, dominant: str = "open") -> int:
    """Movement points to enter a hex of ``kind``: "** - as per dominant terrain"; "*** -
    movement costs are double that of dominant terrain" (uphill on rough ground costs 4)."""
    row = terrain(kind)
    base = row.cost if row.cost is not None else entry_cost(dominant)
    return 2 * base if row.doubles else base


def max_pace(kind: str, dominant: str = "open") -> str | None:
    """The fastest pace the terrain allows without a stumble roll (None: any pace). "***
    maximum pace is the same as dominant terrain"."""
    row = terrain(kind)
    if row.max_pace == "dominant":
        return max_pace(dominant)
    return row.max_pace


def exceeds_max_pace(kind: str, pace: str, dominant: str = "open") -> bool:
    """"If the maximum pace is exceeded, an agility roll (or some applicable skill roll) must be
    made or the character stumbles": whether ``pace`` over this terrain calls for that roll."""
    limit = max_pace(kind, dominant)
    return limit is not None and pick(PACE_ORDER, pace, "pace") > PACE_ORDER[limit]


#: ACTION PENALTY BY PACE: movement type -> penalty to skill rolls
PACE_PENALTIES: dict[str, int] = {
    "walk": -1,
    "jog": -2,
    "run": -3,
    "sprint": -5,
    "jump": -5,
    "dive": -5,
    "swing": -4,
    "crawl": 0,
    "swim": 0,
    "still": 0,
}


def pace_penalty(movement: str) -> int:
    """ACTION PENALTY BY PACE: "Movement rate penalizes actions that require skill rolls":
    Walk -1, Jog -2, Run -3, Sprint -5, Jump or Dive -5, Swing (1-H) -4. Crawl, swim and
    standing still: 0 (not in the table)."""
    return pick(PACE_PENALTIES, movement, "movement")


@dataclass(frozen=True)
class Obstacle:
    """An obstacle action, the skill(s) it rolls and the attribute that modifies it."""

    action: str
    skills: tuple[str, ...]
    attribute: str


#: "All such forms of movement, if successful, cost +1 movement point over and above normal
#: costs of terrain; a failed action halts movement, and possibly causes injury."
OBSTACLE_COST = 1

#: the obstacles table: Action, Skill, Attrib
OBSTACLES: dict[str, Obstacle] = {
    o.action: o
    for o in (
        Obstacle("climb a rope, ladder, or tree", ("climbing",), "str"),
        Obstacle("dive over a counter", ("acrobatics",), "agl"),
        Obstacle("dive through a window", ("acrobatics",), "agl"),
        Obstacle("dive under a table", ("acrobatics",), "agl"),
        Obstacle("jump across a gap", ("acrobatics", "jumping"), "str"),
        Obstacle("jump down a flight of stairs", ("acrobatics",), "agl"),
        Obstacle("jump from a balcony to the ground", ("acrobatics",), "agl"),
        Obstacle("jump on top of a table", ("jumping",), "str"),
        Obstacle("jump up a flight of stairs", ("jumping",), "str"),
        Obstacle("slide down a balustrade", ("balance",), "agl"),
        Obstacle("slide down a rope or ladder", ("acrobatics",), "agl"),
        Obstacle("swing across a gap", ("acrobatics",), "agl"),
        Obstacle("tumble down a flight of stairs", ("acrobatics",), "agl"),
        Obstacle("tumble over a table", ("acrobatics",), "agl"),
        Obstacle("tumble under a table", ("acrobatics",), "agl"),
    )
}


def obstacle_penalty(ob: Obstacle, pace: str) -> tuple[str, int]:
    """ACTION PENALTY BY PACE for an obstacle action: a jump or a dive takes the "Jump or Dive -5"
    row and a swing the "Swing (1-H) -4" row (the movement type of that action, in place of the
    pace's row); a climb, slide or tumble takes the pace's row. Returns the row's name and penalty."""
    kind = ob.action.split()[0]
    return (kind, PACE_PENALTIES[kind]) if kind in ("jump", "dive", "swing") else ("pace", pace_penalty(pace))


def obstacle(action: str) -> Obstacle:
    """Obstacles: "Moving past these sometimes requires the character to move under, over, or
    through": the skill and attribute an obstacle action rolls (e.g. "Jump across a gap:
    Acrobatics and Jumping, STR")."""
    return pick(OBSTACLES, action, "obstacle action")


def obstacle_named(words: str) -> Obstacle:
    """The obstacle action whose name holds every word of ``words`` (``dive-under``, ``jump gap``,
    ``climb``), or an InputError naming the candidates."""
    wanted = norm(words.replace("-", " ")).split()
    found = [o for o in OBSTACLES.values() if wanted and all(w in o.action.split() for w in wanted)]
    exact = [o for o in found if o.action == " ".join(wanted)]
    if len(exact) == 1 or len(found) == 1:
        return (exact or found)[0]
    choices = found or list(OBSTACLES.values())
    raise InputError(f"`via={words[:40]}` names {'several' if found else 'no'} obstacle action(s): say which, e.g. "
                     + ", ".join(o.action.replace(" ", "-") for o in choices) + ".")


#: the four kinds of action during the movement phase, as the text defines them
ACTION_KINDS: dict[str, str] = {
    "free": "can be done with full movement",
    "quick": "can be done with limited movement (one quick action each movement phase)",
    "full": "prohibits movement",
    "lengthy": "a full action that takes more than one round",
}

#: Actions During Movement Phase: action -> kind ("Free Actions: Quick Actions: Full Actions:
#: Lengthy Actions:")
MOVEMENT_ACTIONS: dict[str, str] = {
    "crouch": "free",
    "drop item": "free",
    "kick away small object": "free",
    "pivot/turn": "free",
    "talk": "free",
    "draw weapon": "quick",
    "coup-de-grâce": "quick",
    "drink": "quick",
    "fall prone": "quick",
    "free attack": "quick",
    "kneel": "quick",
    "open/close a door": "quick",
    "pick up small item": "quick",
    "sit down": "quick",
    "stand up": "quick",
    "aim a weapon": "full",
    "concentrate": "full",
    "engage opponent": "full",
    "load weapon": "full",
    "launch/shoot/throw": "full",
    "sheathe weapon": "full",
    "don/shed armor/clothing": "lengthy",
    "heavy lift": "lengthy",
    "read/write": "lengthy",
    "search": "lengthy",
}

#: the names players may type for an action written with alternatives or an accent
_ACTION_ALIASES: dict[str, str] = {
    "coup-de-grace": "coup-de-grâce",
    **{
        part: action
        for action in MOVEMENT_ACTIONS
        if "/" in action and action.count(" ") == 0
        for part in action.split("/")
    },
}


def movement_action(action: str) -> str:
    """Actions During Movement Phase: "Free Actions can be done with full movement; Quick
    Actions can be done with limited movement; Full Actions prohibit movement; Lengthy Actions
    are Full Actions that take more than one round to perform": the kind of ``action``
    ("pivot", "shoot" and "coup-de-grace" as typed are read too)."""
    key = norm(action)
    return pick(MOVEMENT_ACTIONS, _ACTION_ALIASES.get(key, key), "movement action")
