"""The shared rules core: dice, cells, grids, sheets, options and the system base."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.actions import make_action
from rules.dice import Dice, Typed, parse_given, roll_expression
from rules.errors import DiceError, IllegalAction, InputError, SheetError
from rules.geometry import (
    Cell,
    Grid,
    cell_name,
    cheapest_path,
    normal_cell,
    parse_cell,
    parse_map_spec,
)
from rules.models import Encounter, MapState
from rules.registry import get_system, system_keys
from rules.sheet import SheetKey, parse_options, parse_pairs, read_sheet
from tests.scenario import Scenario


# -- dice -----------------------------------------------------------------------------------
def test_given_results_are_used_in_order_then_the_rng() -> None:
    """Given results come first; the generator rolls the rest; every die is recorded."""
    d = Dice(rng=random.Random(1), given=[5, 2])
    assert d.die(6) == 5 and d.die(6) == 2
    third = d.die(6)
    assert 1 <= third <= 6
    assert [r.given for r in d.rolled] == [True, True, False]
    assert d.values() == [5, 2, third]


def test_given_result_out_of_range_is_refused() -> None:
    """A 7 cannot come from a d6."""
    with pytest.raises(DiceError, match="cannot come from a d6"):
        Dice.fixed([7]).die(6)


def test_fixed_dice_run_out_with_a_clear_message() -> None:
    """Fixed dice with no generator say how many more results are needed."""
    with pytest.raises(DiceError, match="one more d20"):
        Dice.fixed([]).die(20)


def test_unused_given_results_are_refused() -> None:
    """Giving more results than the action rolled is an error."""
    d = Dice.fixed([3, 4])
    d.die(6)
    with pytest.raises(DiceError, match="rolled only 1"):
        d.check_all_used()


@pytest.mark.parametrize("text, values", [("", []), ("5", [5]), ("15,4", [15, 4]), (" 3, 3 ,5 ", [3, 3, 5]), ("1 2", [1, 2])])
def test_parse_given(text: str, values: list[int]) -> None:
    """`roll:` text becomes a list of results."""
    assert parse_given(text) == values


def test_parse_given_refuses_words() -> None:
    """Non-numbers in `roll:` are refused, naming the bad part."""
    with pytest.raises(DiceError, match="`x`"):
        parse_given("4,x")


@pytest.mark.parametrize("text", ["10,,3", "10,3,", ",10"])
def test_parse_given_refuses_an_empty_result_between_commas(text: str) -> None:
    """`roll:"10,,3"` is not taken as `10,3` without a word: the typist meant another number, or one result fewer."""
    with pytest.raises(DiceError, match="empty"):
        parse_given(text)


def test_expression_uses_the_passed_generator() -> None:
    """d20 expressions draw from the Dice passed in: same seed, same result; given results work too."""
    a = roll_expression("4d6kh3+2", Dice(rng=random.Random(9)))
    b = roll_expression("4d6kh3+2", Dice(rng=random.Random(9)))
    assert a.total == b.total and len(a.dice) == 4
    fixed = roll_expression("2d6+1", Dice.fixed([6, 6]))
    assert fixed.total == 13


def test_an_expressions_marked_dice_keep_the_typed_ones_typed() -> None:
    """"Typed dice are marked ✍ in replies (`🎲 15✍ (d20)`)" (docs/commands.md): of `2d6+1` with one die typed,
    `marked_dice` gives the typed one as `Typed` (marked ✍ in a roll's line), the bot's as a plain number."""
    result = roll_expression("2d6+1", Dice(rng=random.Random(1), given=[6]), words=False)
    marked = result.marked_dice()
    assert marked == [6, result.dice[1].value] and result.total == 7 + result.dice[1].value
    assert [type(d) for d in marked] == [Typed, int]


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 99), st.integers(1, 999), st.sampled_from(["", "+", "-"]), st.integers(0, 9999),
       st.integers(0, 10**6), st.lists(st.integers(0, 25), max_size=4))
def test_a_plain_expression_rolls_as_d20_rolls_it(count: int, sides: int, sign: str, number: int, seed: int,
                                                 given_values: list[int]) -> None:
    """A plain expression (`2d6+3`) rolled without words gives d20's own total, dice and refusals."""
    expr = f"{count}d{sides}{sign}{number if sign else ''}"
    outcomes = []
    for words in (True, False):
        dice = Dice(rng=random.Random(seed), given=list(given_values))
        try:
            result = roll_expression(expr, dice, words=words)
            outcomes.append((result.total, result.dice, dice.rolled))
        except DiceError as e:
            outcomes.append((str(e), (), dice.rolled))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("expr", ["", "1d", "hello", "1d6+" * 60 + "1", "1000d6", "(((("])
def test_bad_expressions_are_handled_errors(expr: str) -> None:
    """Empty, malformed, too long or too many dice: a DiceError, never anything else."""
    with pytest.raises(DiceError):
        roll_expression(expr, Dice(rng=random.Random(1)))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789d+-*/()khlr<>=! ", max_size=40))
def test_any_expression_gives_a_result_or_a_handled_error(expr: str) -> None:
    """Hypothesis: every input either rolls or raises DiceError."""
    try:
        result = roll_expression(expr, Dice(rng=random.Random(3)))
    except DiceError:
        return
    assert isinstance(result.total, int)


# -- cells and grids ----------------------------------------------------------------------------
@pytest.mark.parametrize("text, cell", [("A1", Cell(0, 0)), ("c4", Cell(2, 3)), ("Z10", Cell(25, 9)), ("AA1", Cell(26, 0)), ("AB12", Cell(27, 11))])
def test_cells_are_chess_notation(text: str, cell: Cell) -> None:
    """Column letters then row numbers from 1, both ways."""
    assert parse_cell(text) == cell
    assert cell_name(cell) == normal_cell(f" {text} ") == text.upper()


@pytest.mark.parametrize("text", ["", "4C", "C0", "C", "?", "ABC1"])
def test_bad_cells_are_refused(text: str) -> None:
    """Anything that is not a letter-number cell is an InputError."""
    with pytest.raises(InputError):
        parse_cell(text)
    with pytest.raises(InputError):
        normal_cell(text)


def test_off_map_cell_names_the_bounds() -> None:
    """A cell outside the grid says which cells exist."""
    with pytest.raises(InputError, match="A1 to L10"):
        Grid("square", 12, 10).parse("M3")


@pytest.mark.parametrize(
    "text, spec",
    [("12x10", ("square", 12, 10)), ("12x10 hex", ("hex", 12, 10)), ("8X6 square", ("square", 8, 6)), ("none", ("none", 0, 0)), (None, ("none", 0, 0))],
)
def test_map_specs(text: str | None, spec: tuple[str, int, int]) -> None:
    """Map sizes read as kind, width, height."""
    assert parse_map_spec(text) == spec


@pytest.mark.parametrize("text", ["12", "0x5", "101x2", "12x10 octagon"])
def test_bad_map_specs(text: str) -> None:
    """Bad or huge maps are refused."""
    with pytest.raises(InputError):
        parse_map_spec(text)


def test_square_distance_and_adjacency() -> None:
    """4-way distance is Manhattan (a diagonal is 2); 8-way is Chebyshev."""
    g = Grid("square", 12, 10)
    assert g.distance(Cell(3, 3), Cell(4, 3)) == 1
    assert g.distance(Cell(3, 3), Cell(4, 4)) == 2
    assert g.distance(Cell(3, 3), Cell(4, 4), diagonal=True) == 1
    assert g.adjacent(Cell(3, 3), Cell(4, 3)) and not g.adjacent(Cell(3, 3), Cell(4, 4))
    assert g.adjacent(Cell(3, 3), Cell(4, 4), diagonal=True)


def test_front_arc_widens_by_one_each_side_per_row() -> None:
    """Facing N: 3 squares in the first row ahead, 5 in the second, none beside or behind."""
    g = Grid("square", 12, 12)
    o = Cell(5, 5)
    row1 = [c for c in range(12) if g.in_arc(o, "N", Cell(c, 4))]
    row2 = [c for c in range(12) if g.in_arc(o, "N", Cell(c, 3))]
    assert row1 == [4, 5, 6] and row2 == [3, 4, 5, 6, 7]
    assert not g.in_arc(o, "N", Cell(4, 5)) and not g.in_arc(o, "N", Cell(5, 6))
    assert g.in_arc(o, "E", Cell(7, 4)) and not g.in_arc(o, "E", Cell(4, 5))


def test_line_of_sight_between_centres() -> None:
    """A blocker on the centre line blocks; a line that only touches a corner does not."""
    g = Grid("square", 10, 10, blocked=[Cell(2, 0)])
    assert not g.line_of_sight(Cell(0, 0), Cell(4, 0))
    assert g.line_of_sight(Cell(0, 1), Cell(4, 1))
    assert not g.line_of_sight(Cell(0, 0), Cell(2, 2), blockers=[Cell(1, 1)])
    # the diagonal from A1 to C3 touches B2's neighbours only at corners
    assert g.line_of_sight(Cell(0, 0), Cell(2, 2), blockers=[Cell(1, 0), Cell(0, 1)])


def test_hex_neighbours_distance_and_facings() -> None:
    """Flat-topped odd-q hexes: six neighbours, cube distance, six facings."""
    g = Grid("hex", 10, 10)
    assert g.facings == ("N", "NE", "SE", "S", "SW", "NW")
    assert set(g.neighbours(Cell(1, 1))) == {Cell(1, 0), Cell(2, 1), Cell(2, 2), Cell(1, 2), Cell(0, 2), Cell(0, 1)}
    assert g.distance(Cell(0, 0), Cell(3, 3)) == 5
    assert g.direction(Cell(1, 1), Cell(2, 2)) == "SE"
    assert g.opposite("NE") == "SW" and g.turn_steps("N", "SE") == 2


def test_cheapest_path_avoids_walls_and_respects_budget() -> None:
    """Dijkstra finds the way round a wall and gives up past the budget."""
    g = Grid("square", 5, 5, blocked=[Cell(2, 0), Cell(2, 1), Cell(2, 2)])

    def successors(c: Cell):
        for n in g.neighbours(c):
            if n not in g.blocked:
                yield n, 1.0, g.direction(c, n) or "?"

    found = cheapest_path(Cell(0, 0), lambda c: c == Cell(4, 0), successors)
    assert found is not None and found[0] == 10
    assert cheapest_path(Cell(0, 0), lambda c: c == Cell(4, 0), successors, budget=9) is None


# -- sheets and options --------------------------------------------------------------------------
def test_pairs_with_quotes_and_lists() -> None:
    """Values with spaces in quotes, lists with commas."""
    assert parse_pairs('class=heavy weapons=hammer,shield race="hill dwarf"') == {
        "class": "heavy", "weapons": "hammer,shield", "race": "hill dwarf",
    }


@pytest.mark.parametrize("text, words", [("class", "not `key=value`"), ('race="open', "unclosed quote"), ("=3", "no key")])
def test_bad_pairs(text: str, words: str) -> None:
    """A malformed sheet names the problem."""
    with pytest.raises(SheetError, match=words):
        parse_pairs(text)


def test_options_words_and_pairs() -> None:
    """Options mix bare words and key=value pairs."""
    assert parse_options("adv keep=3") == {"adv": "", "keep": "3"}
    assert parse_options("far,close") == {"far": "", "close": ""}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("crit=no fumble=no crit=yes", "`crit` is given twice in `options`: give it once, e.g. `crit=yes`."),
        ("adv keep=3 ADV", "`adv` is given twice in `options`: give it once."),
        ("far,far", "`far` is given twice in `options`: give it once."),
    ],
)
def test_an_option_given_twice_is_refused(text: str, words: str) -> None:
    """docs/commands.md: "A key given twice is refused (give it once)", in `options` as in `sheet`:
    `options:"crit=no fumble=no crit=yes"` is refused rather than the last one winning."""
    with pytest.raises(InputError) as refused:
        parse_options(text)
    assert refused.value.message == words


def test_read_sheet_names_bad_keys_and_values() -> None:
    """Unknown keys list the accepted ones; bad values say what is accepted; required keys are asked for."""
    keys = [
        SheetKey("class", "armour", kind="choice", choices=("light", "heavy"), required=True),
        SheetKey("hp", "hit points", kind="int", default=3, minimum=1, maximum=20),
        SheetKey("weapons", "weapons", kind="list", choices=("axe", "bow")),
    ]
    assert read_sheet({"class": "heavy"}, keys) == {"class": "heavy", "hp": 3}
    with pytest.raises(SheetError, match="takes class, hp, weapons"):
        read_sheet({"class": "heavy", "colour": "red"}, keys)
    with pytest.raises(SheetError, match="from 1 to 20"):
        read_sheet({"class": "heavy", "hp": "99"}, keys)
    with pytest.raises(SheetError, match="use one of light, heavy"):
        read_sheet({"class": "medium"}, keys)
    with pytest.raises(SheetError, match="Known: axe, bow"):
        read_sheet({"class": "light", "weapons": "axe,laser"}, keys)
    with pytest.raises(SheetError, match="`class=...`"):
        read_sheet({}, keys)


# -- the system base -------------------------------------------------------------------------------
def test_registry_has_the_systems() -> None:
    """Every implemented system is registered under its key; unknown keys are a clear error."""
    assert {"coup-de-grace", "knights-of-valour", "tote"} <= set(system_keys())
    with pytest.raises(Exception, match="no rule system `chess`"):
        get_system("chess")


def test_resolve_never_changes_the_encounter_it_is_given() -> None:
    """A rejected add leaves the original encounter as it was; an accepted one returns a new one."""
    system = get_system("coup-de-grace")
    enc = Encounter(system="coup-de-grace", map=MapState(kind="square", width=6, height=6))
    before = enc.model_dump_json()
    res = system.resolve(enc, make_action("add", name="Borin", raw_sheet={"class": "heavy"}, at="B2"), Dice.fixed([]))
    assert enc.model_dump_json() == before and len(res.encounter.combatants) == 1
    with pytest.raises(IllegalAction, match="taken by Borin"):
        system.resolve(res.encounter, make_action("add", name="Grak", raw_sheet={"class": "light"}, at="B2"), Dice.fixed([]))
    with pytest.raises(IllegalAction, match="already a combatant called Borin"):
        system.resolve(res.encounter, make_action("add", name="borin", raw_sheet={"class": "light"}), Dice.fixed([]))


class _Counted(str):
    """A name that counts the comparisons made with it."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        type(self).compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_a_name_is_found_in_a_look_or_two_at_100_combatants_and_rightly_after_changes() -> None:
    """`Encounter.find` of a name as stored compares it with a name or two, not with every one
    before it (the board and the turn order look up each combatant), and finds the right one
    after combatants are renamed, moved in the list, added and removed in place."""
    from rules.models import Combatant

    enc = Encounter(system="open", combatants=[Combatant(name=f"F{i}") for i in range(100)])
    for c in enc.combatants:
        c.name = _Counted(c.name)
    assert enc.find("F0") is enc.combatants[0]
    _Counted.compared = 0
    assert [enc.find(f"F{i}") for i in range(100)] == enc.combatants
    assert _Counted.compared <= 2 * 100
    enc.combatants[5].name = "Five"
    enc.combatants.insert(0, Combatant(name="New"))
    enc.combatants.reverse()
    enc.combatants.remove(enc.get("F90"))
    assert enc.find("F5") is None and enc.find("five") is enc.find("Five") is not None
    for c in enc.combatants:
        assert enc.find(c.name) is c and enc.find(c.name.upper()) is c
    assert enc.find("F90") is None and enc.find("") is None


def test_acting_out_of_turn_says_how_the_turn_comes() -> None:
    """Bad input "gets a clear message that says what to do instead": one acting out of turn is told to wait for its
    turn, and that the GM moves the turn under way on with `/init next` (a GM acting for a monster out of turn is
    not told to wait for a ping of their own)."""
    s = Scenario("open").add("Ann", "hp=9", at="B2").add("Wight", "hp=9", at="D2", owner=None)
    s.run("init_roll", [15, 5])
    message = s.refused("attack", actor="Wight", target="Ann")
    assert "It is Ann's turn, not Wight's" in message and "`/init next`" in message and "ping you" not in message


@pytest.mark.parametrize(("expression", "why"), [("1d0", "0-sided"), ("1d20/0", "divide by zero")])
def test_an_expression_that_cannot_be_rolled_says_why_and_what_to_write(expression: str, why: str) -> None:
    """Bad input "gets a clear message that says what to do instead": `1d0` says it has a 0-sided die, with the forms
    that roll."""
    with pytest.raises(DiceError) as refused:
        roll_expression(expression, Dice(rng=random.Random(1)))
    assert why in refused.value.message and "`1d20+5`" in refused.value.message
