"""Knights of Valour: movement, terrain, heights and Attacks of Opportunity."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules.actions import make_action
from rules.dice import Dice
from rules.errors import DiceError, IllegalAction, InputError
from rules.models import Encounter
from rules.report import board_report
from tests.rules.knights_of_valour.build import (
    KNIGHT,
    ORC,
    SYSTEM,
    add,
    cost_of,
    duel,
    encounter,
    moved,
    of,
    one,
    run,
    shown_path,
    start,
    step,
)
from tests.scenario import Scenario


# -- movement ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("path", "end", "cost"), [("E", "D4", 5), ("SE", "D5", 5), ("NE E SE", "F4", 15)])
def test_path_steps_cost_five_feet_even_diagonally(path: str, end: str, cost: int) -> None:
    """Each step, diagonal or not, costs 5 ft."""
    enc, events = moved(duel("C4", "J9"), path=path)
    assert (enc.get("Borin").position, cost_of(events)) == (end, cost)
    assert one(events, "move").left == 30 - cost


def test_difficult_terrain_halves_movement() -> None:
    """Entering difficult (or rough) terrain costs 10 ft a square."""
    enc = duel("C4", "J9", enc=encounter(terrain={"D4": "difficult", "E4": "rough"}))
    _, events = moved(enc, path="E E")
    assert cost_of(events) == 20 and shown_path(one(events, "move")) == ["C4", "D4 (difficult)", "E4 (difficult)"]


def test_move_to_takes_the_cheapest_path() -> None:
    """`/move to:` goes around difficult terrain when that is cheaper."""
    enc = duel("C4", "J9", enc=encounter(terrain={"D4": "difficult"}))
    enc, events = moved(enc, to="E4")
    assert cost_of(events) == 10 and enc.get("Borin").position == "E4"


def test_move_to_out_of_reach() -> None:
    """A square beyond the movement left is refused with its cost."""
    enc = duel("C4", "J9", knight="agi=1 hp=9 move=10")
    with pytest.raises(IllegalAction, match="F4 is 15 ft of movement away but Borin has 10 ft"):
        moved(enc, to="F4")


def test_movement_is_shared_between_moves() -> None:
    """Several /move commands share one Move Action's movement."""
    enc, _ = moved(duel("C4", "J9"), path="E E E")
    enc, events = moved(enc, path="E E E")
    assert one(events, "move").left == 0
    with pytest.raises(IllegalAction, match="no movement left"):
        moved(enc, path="E")


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"path": "E"}, IllegalAction, "D4 is a wall"),
    ({"path": "NE"}, IllegalAction, "cut the corner of a wall"),
    ({"path": "S E"}, IllegalAction, "D5 is held by an enemy"),
    ({"path": "Q"}, InputError, "not a direction"),
    ({"to": "D4"}, IllegalAction, "D4 is a wall"),
    ({"to": "D5"}, IllegalAction, "D5 is taken by an enemy"),
    ({"to": "C4"}, InputError, "already at C4"),
    ({"to": "C4", "path": "E"}, InputError, "not both"),
    ({}, InputError, "Give `to`"),
])
def test_move_errors(kwargs: dict[str, str], error: type[Exception], message: str) -> None:
    """Walls, enemies and bad input stop a move with a reason."""
    enc = duel("C4", "D5", enc=encounter(blocked=("D4",)))
    with pytest.raises(error, match=message):
        moved(enc, **kwargs)


def test_allies_can_be_passed_but_not_stopped_on() -> None:
    """A mover passes through an ally's square but cannot end there."""
    enc = add(encounter(), "Thrain", "hp=9", "D4", "dwarves", owner="2")
    enc = duel("C4", "J9", enc=enc)
    assert moved(enc, path="E E")[0].get("Borin").position == "E4"
    with pytest.raises(IllegalAction, match="cannot stop at D4"):
        moved(enc, path="E")


def test_facings_are_refused_and_not_shown() -> None:
    """Knights of Valour has no facing rules: `facing` is refused on add, edit and move, and never shown."""
    with pytest.raises(InputError, match="no facings"):
        moved(duel(), facing="S")
    with pytest.raises(InputError, match="no facings"):
        run(encounter(), kind="add", name="Borin", raw_sheet={"hp": "5"}, at="C4", facing="E")
    with pytest.raises(InputError, match="no facings"):
        run(duel(), kind="edit", actor="Borin", at="C3", facing="E", gm=True)
    enc = duel()
    assert enc.get("Borin").facing is None
    enc.get("Borin").facing = "E"  # stored by an earlier version
    enc = Encounter.model_validate_json(enc.model_dump_json())
    assert " E " not in board_report(SYSTEM, enc).text() and "C4 E" not in board_report(SYSTEM, enc).text()


@pytest.mark.parametrize(("sheet", "obstacle", "path", "cost", "label", "end"), [
    ("hp=9", 3, "E E", 10, "vault", "E4"),            # 3 ft obstacle, 6 ft knight: vault
    ("hp=9", 6, "E E", 10, "vault", "E4"),            # up to its own height
    ("hp=9", 8, "E", 5 + 16, "climb 8 ft", "D4"),     # higher: climb onto it
    ("hp=9 size=short", 5, "E", 5 + 10, "climb 5 ft", "D4"),
    ("hp=9 size=short height=5", 5, "E E", 10, "vault", "E4"),  # sheet height overrides size
])
def test_vault_or_climb_an_obstacle(sheet: str, obstacle: int, path: str, cost: int, label: str, end: str) -> None:
    """Vault (5 ft) over an obstacle up to one's own height; a higher one must be climbed."""
    enc = duel("C4", "J9", knight=sheet + " agi=1", enc=encounter(terrain={"D4": "obstacle"}, heights={"D4": obstacle}))
    enc, events = moved(enc, path=path)
    move = one(events, "move")
    assert (cost_of(events), shown_path(move)[1], enc.get("Borin").position) == (cost, f"D4 ({label})", end)


@pytest.mark.parametrize(("sheet", "obstacle"), [("hp=9 move=60", 7), ("hp=9 move=60 size=short", 5)])
def test_a_step_across_the_top_of_an_obstacle_is_a_plain_step(sheet: str, obstacle: int) -> None:
    """Standing on an obstacle higher than the mover (climbed onto: the text, higher than you, "they must use a Climb
    sub-action"), a level step onto its next square vaults nothing: it costs 5 ft and the mover may stop there, as on
    the first; the step off it descends (it was a "vault" over an obstacle higher than the mover)."""
    tall = encounter(terrain={"D4": "obstacle", "E4": "obstacle"}, heights={"D4": obstacle, "E4": obstacle})
    enc, events = moved(duel("C4", "J9", knight=sheet + " agi=1", enc=tall), path="E E")
    climb = 5 + 2 * obstacle
    assert (enc.get("Borin").position, cost_of(events), shown_path(one(events, "move"))[1:]) == (
        "E4", climb + 5, [f"D4 (climb {obstacle} ft)", "E4"])
    on_top, events = moved(duel("D4", "J9", knight=sheet + " agi=1", enc=tall), to="E4")
    assert (on_top.get("Borin").position, cost_of(events)) == ("E4", 5)
    _, events = moved(duel("D4", "J9", knight=sheet + " agi=1", enc=tall), path="E E")
    assert shown_path(one(events, "move"))[1:] == ["E4", f"F4 (descend {obstacle} ft)"]


def test_vault_cannot_stop_on_the_obstacle_and_goes_straight() -> None:
    """A vault lands beyond the obstacle, straight on; the refusal to stop on it says that, not that the square
    is occupied (nobody stands there), and one two squares deep says a vault clears one square and what the GM can
    mark instead."""
    enc = duel("C4", "J9", enc=encounter(terrain={"D4": "obstacle"}))
    with pytest.raises(IllegalAction, match="cannot stop at D4") as stopped:
        moved(enc, path="E")
    assert "Borin cannot stop at D4: a vault lands beyond it." in str(stopped.value) and "occupied" not in str(stopped.value)
    deep = duel("C4", "J9", enc=encounter(terrain={"D4": "obstacle", "E4": "obstacle"}))
    with pytest.raises(IllegalAction, match="a vault clears one square of an obstacle no higher than Borin .*`climb`"):
        moved(deep, path="E E E")
    with pytest.raises(IllegalAction, match="a vault goes straight on: keep going E"):
        moved(enc, path="E N")


def test_a_path_stopping_on_an_obstacle_no_step_can_clear_says_why() -> None:
    """A vault lands "on the square beyond it, so one two squares deep is not crossed", and errors "say what to do":
    a path stopping on an obstacle whose square beyond is off the map, or a second square of obstacle, says that
    instead of "Add steps to a free square" (no added step lands); where a step would, it still says to add one."""
    edge = duel("K4", "A9", enc=encounter(terrain={"L4": "obstacle"}))
    with pytest.raises(IllegalAction) as stopped:
        moved(edge, path="E")
    assert str(stopped.value) == ("Borin cannot stop at L4: a vault lands beyond it, and going E from L4 leaves the map. "
                                  "Go another way (`/move to:` a square finds one).")
    deep = duel("C4", "J9", enc=encounter(terrain={"D4": "obstacle", "E4": "obstacle"}))
    with pytest.raises(IllegalAction) as stopped:
        moved(deep, path="E")
    assert str(stopped.value) == (
        "Borin cannot stop at D4: a vault lands beyond it, and Borin cannot land on the obstacle at E4: a vault clears "
        "one square of an obstacle no higher than Borin (a deeper one is climbed only where the GM marks its squares "
        "`climb`). Go another way (`/move to:` a square finds one).")
    one_deep = duel("C4", "J9", enc=encounter(terrain={"D4": "obstacle"}))
    with pytest.raises(IllegalAction, match=r"a vault lands beyond it\. Add steps to a free square\.$"):
        moved(one_deep, path="E")


def test_move_to_says_why_an_obstacle_bars_the_square() -> None:
    """"**Vault** over an `obstacle` no higher than you costs 5 ft (...), landing on the square beyond it, so one two
    squares deep is not crossed (...; mark such squares `climb` with their `height:` to let them be climbed onto)":
    `/move to:` a square that every way onto vaults, or past such an obstacle two squares deep, gives the reason
    `path:` gives, not that the square is too far."""
    enc = duel("C4", "J9", enc=encounter(terrain={"D4": "obstacle"}))
    with pytest.raises(IllegalAction) as stopped:
        moved(enc, to="D4")
    assert "Borin cannot stop at D4: a vault lands beyond it." in str(stopped.value)
    assert "nearer" not in str(stopped.value) and "too far" not in str(stopped.value)
    assert enc.get("Borin").position == "C4"
    wall = {f"{col}{row}": "obstacle" for col in "ABCDEFGHIJKL" for row in (6, 7)}  # two deep, all across the map
    for goal, at in (("C8", "C7"), ("E9", "E7")):
        deep = duel("C4", "J2", enc=encounter(terrain=wall))
        with pytest.raises(IllegalAction) as barred:
            moved(deep, to=goal)
        assert (f"Borin cannot land on the obstacle at {at}: a vault clears one square of an obstacle no higher than "
                f"Borin (a deeper one is climbed only where the GM marks its squares `climb`)") in str(barred.value)
        assert "nearer" not in str(barred.value) and "too far" not in str(barred.value)
    # a tall obstacle is climbed onto, and a square out of reach for other reasons keeps the general words
    tall = duel("C4", "J9", enc=encounter(terrain={"D4": "obstacle"}, heights={"D4": 8}))
    assert moved(tall, to="D4")[0].get("Borin").position == "D4"
    far = duel("C4", "J9", knight="agi=1 hp=9 move=10", enc=encounter(terrain={"D4": "obstacle"}))
    with pytest.raises(IllegalAction, match="cannot reach H4 with 10 ft of movement: walls, enemies"):
        moved(far, to="H4")


def test_obstacle_height_option() -> None:
    """`obstacle_height` sets the height of unmarked obstacles (default 3 ft)."""
    enc = duel("C4", "J9", knight="agi=1 hp=9 size=short", enc=encounter(terrain={"D4": "obstacle"}, obstacle_height="6"))
    assert "climb 6 ft" in shown_path(one(moved(enc, path="E")[1], "move"))[1]


@pytest.mark.parametrize(("size", "gaps", "allowed"), [
    ("short", 1, True), ("short", 2, False), ("average", 2, True), ("average", 3, False), ("tall", 2, True),
])
def test_leap_up_to_twice_own_height(size: str, gaps: int, allowed: bool) -> None:
    """A Leap crosses a gap as wide as twice the leaper's height, paying the distance leaped."""
    cells = ["D4", "E4", "F4"][:gaps]
    enc = duel("C4", "J9", knight=f"agi=1 hp=9 size={size}", enc=encounter(terrain={c: "gap" for c in cells}))
    path = " ".join(["E"] * (gaps + 1))
    if allowed:
        enc, events = moved(enc, path=path)
        assert cost_of(events) == 5 * (gaps + 1) and enc.get("Borin").position == f"{'EFG'[gaps - 1]}4"
        assert shown_path(one(events, "move"))[1] == "D4 (leap)"
    else:
        with pytest.raises(IllegalAction, match="leaps at most"):
            moved(enc, path=path)


def test_height_option_widens_leaps() -> None:
    """`height_short` changes the height (and so the leap) of short combatants."""
    enc = duel("C4", "J9", knight="agi=1 hp=9 size=short",
               enc=encounter(terrain={"D4": "gap", "E4": "gap"}, height_short="5"))
    assert moved(enc, path="E E E")[0].get("Borin").position == "F4"


def test_nobody_stops_in_a_gap() -> None:
    """A leaper cannot end its move in a gap."""
    enc = duel("C4", "J9", enc=encounter(terrain={"D4": "gap"}))
    with pytest.raises(IllegalAction, match="cannot stop at D4"):
        moved(enc, path="E")


@pytest.mark.parametrize(("terrain", "rise", "cost"), [
    (None, 4, 5 + 8),        # up to own height: scramble up at half speed
    ("climb", 10, 5 + 20),   # a climbable surface of any height
])
def test_climb_is_half_speed(terrain: str | None, rise: int, cost: int) -> None:
    """Climbing costs 2 ft of movement per foot climbed."""
    enc = encounter(terrain={"D4": terrain} if terrain else None, heights={"D4": rise})
    enc, events = moved(duel("C4", "J9", enc=enc), path="E")
    assert cost_of(events) == cost and enc.get("Borin").position == "D4"


def test_high_wall_without_climb_mark_is_refused() -> None:
    """A rise above one's height needs a square marked `climb`."""
    enc = duel("C4", "J9", enc=encounter(heights={"D4": 10}))
    with pytest.raises(IllegalAction, match="only a square marked `climb` can be climbed"):
        moved(enc, path="E")


@pytest.mark.parametrize(("drop", "cost"), [(6, 5), (10, 5 + 20)])
def test_descend_free_up_to_own_height(drop: int, cost: int) -> None:
    """Descending up to one's height is free; further descends at half speed."""
    enc = duel("C4", "J9", enc=encounter(heights={"C4": drop}))
    _, events = moved(enc, path="E")
    assert cost_of(events) == cost and shown_path(one(events, "move"))[1] == f"D4 (descend {drop} ft)"


@pytest.mark.parametrize(("rise", "cost"), [(-7, 19), (-6, 5), (4, 13), (7, 19)])
def test_the_docs_worked_example_of_climb_and_descend_is_what_the_bot_charges(rise: int, cost: int) -> None:
    """Text: "A character can descend a distance equal to its own height without using any Movement points. If the
    distance is greater than the models height then the character descends as though it were Difficult Terrain
    (1/2 Movement)": the whole drop at 2 ft per foot. docs/systems/knights-of-valour.md works the example of an
    average (6 ft) knight stepping 5 ft across: 7 ft down costs 19 ft, 6 ft down 5 ft, 4 ft up 13 ft, 7 ft up a `climb` square 19 ft."""
    docs = (Path(__file__).parents[3] / "docs" / "systems" / "knights-of-valour.md").read_text()
    assert "5 + 2 × 7 = 19 ft" in docs and "6 ft down costs 5 ft" in docs and "5 + 2 × 4 = 13 ft" in docs
    heights = {"C4": -rise} if rise < 0 else {"D4": rise}
    terrain = {"D4": "climb"} if rise > 6 else None
    _, events = moved(duel("C4", "J9", enc=encounter(terrain=terrain, heights=heights)), path="E")
    assert cost_of(events) == cost


# -- attacks of opportunity ------------------------------------------------------------------------------
def test_leaving_an_engaged_enemy_provokes() -> None:
    """Moving more than 5 ft away from an adjacent enemy provokes its free attack first."""
    res = run(duel(), [17, 3], kind="move", actor="Borin", path="W W")
    attack = one(res.events, "attack")
    assert (attack.actor, attack.target, attack.weapon, attack.roll.success) == ("Grak", "Borin", "greataxe", True)
    assert attack.opportunity
    assert [e.kind for e in res.events] == ["attack", "damage", "move", "left"]
    assert res.encounter.get("Borin").position == "A4" and res.encounter.get("Borin").hp == 12 - 5
    assert res.encounter.get("Grak").state.combat_actions == 0  # a free attack: Grak's own turn is untouched


def test_an_enemy_with_only_a_ranged_weapon_shoots_its_attack_of_opportunity() -> None:
    """"any enemy so engaged can make a free Combat Attack Action against you": a shot is a Combat Attack Action, so
    an archer with no melee weapon next to the mover shoots it (Agility, the ranged Defence), as it may shoot a foe
    5 ft away on its own turn."""
    archer = "str=0 agi=0 hp=9 weapons=longbow:2"
    res = run(duel(orc=archer), [17, 3], kind="move", actor="Borin", path="W W")
    attack = one(res.events, "attack")
    assert (attack.actor, attack.weapon, attack.mode, attack.opportunity) == ("Grak", "longbow", "ranged", True)
    assert [m.code for m in attack.roll.modifiers][:2] == ["pl", "agility"]


def test_staying_within_reach_does_not_provoke() -> None:
    """Stepping to another square next to the enemy provokes nothing."""
    res = run(duel(), kind="move", actor="Borin", path="N")
    assert not of(res.events, "attack") and res.encounter.get("Borin").position == "C3"


def test_mover_dropped_by_an_attack_of_opportunity_stops() -> None:
    """A combatant dropped by an Attack of Opportunity stops where it was and its turn ends."""
    enc = add(encounter(), "Thrain", "agi=-3 hp=9", "J9", "dwarves", owner="2")
    res = run(duel(enc=enc), [17, 12], kind="move", actor="Borin", path="W W")
    borin = res.encounter.get("Borin")
    assert (borin.position, borin.status, borin.hp) == ("C4", "downed", 12 - 14)
    assert not of(res.events, "move") and res.encounter.current == "Grak"


def test_attacks_of_opportunity_dice_order() -> None:
    """Provoked enemies strike in initiative order, each rolling d20 then damage on a hit."""
    enc = add(encounter(), "Snaga", "agi=2 hp=5 weapons=dagger:1", "D5", "orcs", owner=None)
    enc = add(add(enc, "Borin", KNIGHT, "C4", "dwarves"), "Grak", ORC, "D4", "orcs", owner=None)
    enc = start(step(enc, kind="init_set", actor="Borin", value=5, gm=True))
    res = run(enc, [20, 2, 1], kind="move", actor="Borin", path="W")
    attacks = of(res.events, "attack")
    assert [(a.actor, a.roll.dice, a.roll.success) for a in attacks] == [("Snaga", [20], True), ("Grak", [1], False)]
    assert one(res.events, "damage").roll.dice == [2]


def test_one_attack_of_opportunity_per_enemy_per_turn() -> None:
    """An enemy strikes a mover at most once a turn."""
    enc = step(duel(), [1], kind="move", actor="Borin", path="W")
    enc = step(enc, kind="move", actor="Borin", path="E")
    res = run(enc, kind="move", actor="Borin", path="W")
    assert not of(res.events, "attack")


def test_attacks_of_opportunity_can_be_turned_off() -> None:
    """`aoo=no` lets combatants leave without free attacks."""
    enc = duel()
    enc.settings.options["aoo"] = "no"
    assert not of(run(enc, kind="move", actor="Borin", path="W").events, "attack")


def test_missing_dice_for_an_attack_of_opportunity_changes_nothing() -> None:
    """A move whose free attack lacks given dice is refused whole."""
    enc = duel()
    before = enc.model_dump()
    with pytest.raises(DiceError):
        SYSTEM.resolve(enc, make_action("move", actor="Borin", path="W"), Dice.fixed([]))
    assert enc.model_dump() == before


# -- corrections: every square left, the path that provokes least, height ---------------------------------
def kov_scenario(grak_at: str, **options: str) -> Scenario:
    """Borin (the knight, a player) at C4 against Grak (the orc) at ``grak_at``; Borin acts first."""
    s = Scenario("knights-of-valour", map="12x10", **options)
    return s.add("Borin", KNIGHT, side="dwarves", at="C4").add("Grak", ORC, side="orcs", at=grak_at, owner=None)


def test_attack_of_opportunity_from_a_square_passed_in_an_allys_space() -> None:
    """Text: "a Move Action that takes you more than 5 ft away from an adjacent enemy": leaving D4,
    passed in an ally's space next to Grak, provokes him."""
    s = kov_scenario("E3").add("Thrain", "hp=9", side="dwarves", at="D4")
    s.run("init_roll")
    res = s.run("move", [1], actor="Borin", path="E S")
    attack = one(res.events, "attack")
    assert (attack.actor, attack.opportunity, s.get("Borin").position) == ("Grak", True, "D5")


def test_attack_of_opportunity_from_a_square_vaulted() -> None:
    """Text: "more than 5 ft away from an adjacent enemy": the obstacle square of a vault counts too."""
    s = kov_scenario("C6")
    s.enc.map.terrain["D5"] = "obstacle"
    s.run("init_roll")
    res = s.run("move", [1], actor="Borin", path="SE SE")
    assert one(res.events, "attack").actor == "Grak" and s.get("Borin").position == "E6"
    assert shown_path(one(res.events, "move")) == ["C4", "D5 (vault)", "E6"]


def test_move_to_prefers_the_path_that_provokes_fewer_attacks() -> None:
    """`/move to:` takes, of the paths of equal cost, one that leaves no enemy's reach: E4 for 10 ft
    past D3 would provoke Grak at D2 ("more than 5 ft away from an adjacent enemy"), past D4 it does not."""
    s = kov_scenario("D2")
    s.run("init_roll")
    res = s.run("move", actor="Borin", to="E4")
    assert not of(res.events, "attack") and cost_of(res.events) == 10
    assert s.get("Borin").position == "E4"


def test_move_to_says_when_its_path_provokes() -> None:
    """When every path of that cost provokes, the reply says so before the Attack of Opportunity."""
    s = kov_scenario("D4")
    s.run("init_roll")
    res = s.run("move", [1], actor="Borin", to="A4")
    assert [e.kind for e in res.events][:2] == ["provokes", "attack"]
    assert s.text(res)[0] == "Borin's path to A4 provokes an Attack of Opportunity from Grak: no path as cheap avoids them"


def test_height_counts_for_attacks_of_opportunity() -> None:
    """An enemy standing 10 ft above is not adjacent ("within 5 ft"), so leaving it provokes nothing."""
    s = kov_scenario("D4")
    s.enc.map.heights["D4"] = 10
    s.run("init_roll")
    res = s.run("move", actor="Borin", path="W W")
    assert not of(res.events, "attack") and s.get("Borin").position == "A4"


def test_move_to_among_paths_of_equal_cost_takes_the_first_found() -> None:
    """"`/move to:` finds the cheapest path" and "takes, at equal cost, the path that provokes fewest"; among paths
    that tie on both, the first the search finds (`rules.geometry.paths`): the squares listed are always the same."""
    enc, events = moved(duel("C4", "J9"), to="G6")
    assert one(events, "move").path == ["C4", "D3", "E4", "F5", "G6"] and cost_of(events) == 20


def test_a_path_too_long_names_where_the_movement_left_reaches() -> None:
    """A refusal says what to do instead: a path of 40 ft with 30 ft left names the last square of it Borin may
    stop on within 30 ft, for `/move to:`."""
    enc = duel("A1", "J9")
    with pytest.raises(IllegalAction) as refused:
        moved(enc, path="E E E E E E E E")
    assert "That path costs 40 ft but Borin has 30 ft of movement left" in str(refused.value)
    assert "`/move to:G1`" in str(refused.value) and "shorter path" in str(refused.value)


def test_a_leap_too_wide_says_to_go_around() -> None:
    """A refusal says what to do instead: a gap too wide to leap is gone around (`/move to:` finds the way)."""
    enc = duel("C4", "J9", knight="agi=1 hp=9 size=short", enc=encounter(terrain={"D4": "gap", "E4": "gap"}))
    with pytest.raises(IllegalAction) as refused:
        moved(enc, path="E E E")
    assert "leaps at most 8 ft" in str(refused.value) and "go around the gap" in str(refused.value)
