"""War & Combat's movement tables, row by row as shared/rules/war-and-combat.txt prints them."""
from __future__ import annotations

import pytest

from rules.errors import InputError
from rules.systems.war_and_combat.tables_movement import (
    ACTION_KINDS,
    MOVEMENT_ACTIONS,
    OBSTACLE_COST,
    OBSTACLES,
    PACE_PENALTIES,
    PACES,
    TERRAIN,
    entry_cost,
    exceeds_max_pace,
    max_pace,
    movement_action,
    obstacle,
    pace_penalty,
    pace_points,
    phase_points,
    terrain,
)

# MOVEMENT RATE BY PACE, flattened as the text prints it: "PaceFull Move"
PACE_ROWS = ["Walk4", "Jog6", "Run8", "Crawl2", "Swim4"]


@pytest.mark.parametrize("row", PACE_ROWS)
def test_movement_rate_row(row):
    """The pace's name followed by its full move is the text's row."""
    name = row.rstrip("0123456789")
    assert f"{name}{pace_points(name)}" == row


def test_movement_rate_table_has_the_texts_paces():
    """Five paces, no more."""
    assert list(PACES) == [r.rstrip("0123456789").lower() for r in PACE_ROWS]


@pytest.mark.parametrize("pace, phases", [("walk", (2, 2)), ("jog", (3, 3)), ("run", (4, 4)), ("crawl", (1, 1)), ("swim", (2, 2))])
def test_half_the_points_in_each_phase(pace, phases):
    """"During each phase, the fighter can spend up to half his movement points"."""
    assert phase_points(pace) == phases


def test_unknown_pace_is_refused():
    """A pace the table does not know is an input error listing the five."""
    with pytest.raises(InputError, match="walk, jog, run, crawl, swim"):
        pace_points("gallop")


# TERRAIN EFFECTS CHART as the text prints it: Terrain, Movement Cost, Max Pace
TERRAIN_ROWS = [
    ("Open", "1", "Max"),
    ("Rough", "2", "Run"),
    ("Treacherous", "**", "Creep"),
    ("Uphill", "×2", "***"),
    ("Slick", "2", "Walk or Slide"),
    ("Water/Mired/Sandy", "2", "Jog"),
]


@pytest.mark.parametrize("names, cost, pace", TERRAIN_ROWS)
def test_terrain_row(names, cost, pace):
    """Each terrain's cost and maximum pace on open dominant ground are the text's row."""
    for name in names.split("/"):
        row = terrain(name)
        shown_cost = "**" if row.cost is None and not row.doubles else ("×2" if row.doubles else str(row.cost))
        shown_pace = {None: "Max", "dominant": "***", "walk": "Walk or Slide"}.get(row.max_pace, str(row.max_pace).title())
        assert (shown_cost, shown_pace) == (cost, pace)


def test_terrain_chart_has_the_texts_kinds():
    """Open, rough, treacherous, uphill, slick and water (with mired and sandy as water)."""
    assert set(TERRAIN) == {"open", "rough", "treacherous", "uphill", "slick", "water", "mired", "sandy"}
    assert terrain("Sandy") is terrain("water")


@pytest.mark.parametrize(
    "kind, dominant, cost",
    [("open", "open", 1), ("rough", "open", 2), ("treacherous", "open", 1), ("treacherous", "rough", 2),
     ("uphill", "open", 2), ("uphill", "rough", 4), ("uphill", "treacherous", 2), ("slick", "open", 2), ("mired", "open", 2)],
)
def test_entry_cost(kind, dominant, cost):
    """"** as per dominant terrain"; "*** movement costs are double that of dominant terrain"."""
    assert entry_cost(kind, dominant) == cost


@pytest.mark.parametrize(
    "kind, dominant, limit",
    [("open", "open", None), ("rough", "open", "run"), ("treacherous", "rough", "creep"), ("uphill", "open", None),
     ("uphill", "slick", "walk"), ("uphill", "water", "jog"), ("slick", "open", "walk"), ("water", "open", "jog")],
)
def test_max_pace(kind, dominant, limit):
    """Uphill: "maximum pace is the same as dominant terrain"; the others their own row."""
    assert max_pace(kind, dominant) == limit


@pytest.mark.parametrize(
    "kind, pace, exceeded",
    [("open", "run", False), ("rough", "run", False), ("slick", "walk", False), ("slick", "jog", True),
     ("water", "jog", False), ("water", "run", True), ("treacherous", "crawl", False), ("treacherous", "walk", True),
     ("slick", "swim", False)],
)
def test_exceeding_the_max_pace(kind, pace, exceeded):
    """"If the maximum pace is exceeded, an agility roll ... must be made": creep lets only a crawl through."""
    assert exceeds_max_pace(kind, pace) is exceeded


# ACTION PENALTY BY PACE as the text prints it: Movement Type, Penalty
PENALTY_ROWS = [("Walk", -1), ("Jog", -2), ("Run", -3), ("Sprint", -5), ("Jump or Dive", -5), ("Swing (1-H)", -4)]


@pytest.mark.parametrize("kind, penalty", PENALTY_ROWS)
def test_action_penalty_by_pace_row(kind, penalty):
    """Each movement type of the table takes the text's penalty ("Jump or Dive" both)."""
    for name in kind.removesuffix(" (1-H)").split(" or "):
        assert pace_penalty(name) == penalty


@pytest.mark.parametrize("pace", ["crawl", "swim", "still"])
def test_paces_the_penalty_table_leaves_out(pace):
    """Crawl, swim and standing still are not in the table: no penalty."""
    assert pace_penalty(pace) == 0


def test_penalty_table_size():
    """Seven movement types of the text (jump and dive apart) plus the three without penalty."""
    assert len(PACE_PENALTIES) == 10


# The obstacles table as the text prints it, flattened: "Action Skill Attrib"
OBSTACLE_ROWS = [
    "Climb a rope, ladder, or tree ClimbingSTR",
    "Dive over a counter AcrobaticsAGL",
    "Dive through a window AcrobaticsAGL",
    "Dive under a table AcrobaticsAGL",
    "Jump across a gap Acrobatics and JumpingSTR",
    "Jump down a flight of stairs AcrobaticsAGL",
    "Jump from a balcony to the ground AcrobaticsAGL",
    "Jump on top of a table JumpingSTR",
    "Jump up a flight of stairs JumpingSTR",
    "Slide down a balustrade BalanceAGL",
    "Slide down a rope or ladder AcrobaticsAGL",
    "Swing across a gap AcrobaticsAGL",
    "Tumble down a flight of stairs AcrobaticsAGL",
    "Tumble over a table AcrobaticsAGL",
    "Tumble under a table AcrobaticsAGL",
]


@pytest.mark.parametrize("row", OBSTACLE_ROWS)
def test_obstacle_row(row):
    """The action, its skill(s) and attribute, written as the text writes them, are the row."""
    action = next(name for name in OBSTACLES if row.lower().startswith(name + " "))
    found = obstacle(action)
    written = f"{found.action} {' and '.join(s.title() for s in found.skills)}{found.attribute.upper()}"
    assert written.lower() == row.lower()


def test_obstacles_table_has_the_texts_fifteen_actions():
    """Fifteen actions, each costing one movement point more than the terrain."""
    assert len(OBSTACLES) == len(OBSTACLE_ROWS) == 15
    assert OBSTACLE_COST == 1


def test_unknown_obstacle_is_refused():
    """An obstacle action the table does not know is an input error."""
    with pytest.raises(InputError, match="No obstacle action"):
        obstacle("fly over the moat")


# Actions During Movement Phase as the text prints them: the four columns' items, one a line
MOVEMENT_ACTION_ITEMS = """Crouch
Draw Weapon
Drop Item
Kick Away Small Object
Pivot/Turn
Talk
Coup-de-Grâce
Drink
Fall prone
Free Attack
Kneel
Open/Close a door
Pick Up Small Item
Sit down
Stand up
Aim a Weapon
Concentrate
Engage Opponent
Load Weapon
Launch/Shoot/Throw
Sheathe weapon
Don/Shed Armor/Clothing
Heavy Lift
Read/Write
Search""".splitlines()
# column by column: the first six free, the next nine quick, six full, four lengthy; Draw
# Weapon is quick, as the prose says ("drawing weapons")
MOVEMENT_ACTION_KINDS = ["free"] * 6 + ["quick"] * 9 + ["full"] * 6 + ["lengthy"] * 4
MOVEMENT_ACTION_KINDS[1] = "quick"


@pytest.mark.parametrize("action, kind", list(zip(MOVEMENT_ACTION_ITEMS, MOVEMENT_ACTION_KINDS)))
def test_movement_action_row(action, kind):
    """Each action the text lists has the kind of its column."""
    assert movement_action(action) == kind


def test_movement_actions_are_the_texts_twenty_five():
    """Twenty-five actions of four kinds, no more."""
    assert sorted(MOVEMENT_ACTIONS) == sorted(a.lower() for a in MOVEMENT_ACTION_ITEMS)
    assert set(MOVEMENT_ACTIONS.values()) == set(ACTION_KINDS) == {"free", "quick", "full", "lengthy"}


@pytest.mark.parametrize("typed, kind", [("pivot", "free"), ("Turn", "free"), ("shoot", "full"), ("coup-de-grace", "quick"), ("write", "lengthy")])
def test_movement_action_as_typed(typed, kind):
    """One alternative of a slashed action, or Coup-de-Grâce without its accent, is read too."""
    assert movement_action(typed) == kind


def test_unknown_movement_action_is_refused():
    """An action the list does not have is an input error."""
    with pytest.raises(InputError, match="No movement action"):
        movement_action("juggle")
