"""The open system's movement and opportunity attacks (docs/systems/open.md, "Movement", "Opportunity attacks")."""
from __future__ import annotations

import pytest

from rules.dice import Dice
from rules.events import EffectAdded, EffectEnded, Moved
from rules.facts import Question
from rules.systems.open import turns
from rules.systems.open.events import (
    OpenAttack,
    OpportunityDeclined,
    OpportunityOffered,
    TurnBegan,
)
from rules.systems.open.state import OpenCombatant, OpenEncounter
from tests.rules.wording import sentences
from tests.scenario import Scenario

SWORD = "weapons=sword:+5:1d6:slashing"


def walker(at: str = "B2", sheet: str = "hp=20", map: str = "12x10", foe_at: str = "L10", foe_owner: str | None = None,
           blocked: tuple[str, ...] = (), **options: str) -> Scenario:
    """Ann (the player's) moves first; Grak (the GM's unless ``foe_owner``) stands at ``foe_at``."""
    s = Scenario("open", map=map, blocked=blocked, **options).add("Ann", f"{sheet} init=+10 {SWORD}", at=at)
    s.add("Grak", f"hp=20 ac=10 {SWORD}", at=foe_at, owner=foe_owner, side="foes")
    s.run("init_roll", [10, 1])
    return s


def feet_left(s: Scenario, name: str = "Ann") -> int:
    return turns.feet_left(s.enc, s.get(name))


@pytest.mark.parametrize("rule, cost", [("5", 20), ("alternate", 30), ("10", 40)])
def test_diagonals_cost_as_the_option_says(rule: str, cost: int) -> None:
    """"on a square map a diagonal step costs as option `diagonals` says (`5`, `alternate`: 5 then 10 ft, or `10`)"."""
    s = walker(sheet="hp=20 speed=40", diagonals=rule)
    s.run("move", actor="Ann", path="SE SE SE SE")
    assert s.get("Ann").position == "F6" and feet_left(s) == 40 - cost


def test_difficult_ground_costs_double_and_walls_block() -> None:
    """"`difficult` or `rough` ground costs the step once more ... Walls block and their corners cannot be cut"."""
    s = walker(blocked=("C2",))
    assert "wall" in s.refused("move", actor="Ann", path="E")
    assert "corner" in s.refused("move", actor="Ann", path="NE") or "corner" in s.refused("move", actor="Ann", path="SE")
    s.enc.map.terrain["B3"] = "difficult"
    s.run("move", actor="Ann", path="S")
    assert feet_left(s) == 20


def test_a_diagonal_into_difficult_ground_costs_double_its_10_ft() -> None:
    """"`difficult` or `rough` ground costs the step once more (a 10 ft diagonal 20 ft)"."""
    s = walker(diagonals="10")
    s.enc.map.terrain["C3"] = "difficult"
    s.run("move", actor="Ann", path="SE")
    assert feet_left(s) == 30 - 20


def test_move_to_finds_the_cheapest_path_within_the_speed() -> None:
    """"`/move to:` finds the cheapest path"; a cell past the speed is refused and nothing moves."""
    s = walker(blocked=("C1", "C2", "C3"))
    assert "cannot reach" in s.refused("move", actor="Ann", to="L2")
    res = s.run("move", actor="Ann", to="D2")
    moved = next(e for e in res.events if isinstance(e, Moved))
    assert moved.path[0] == "B2" and moved.path[-1] == "D2" and "C4" in moved.path


def test_hex_maps_move_5_ft_a_hex() -> None:
    """"on a square or hex map of 5 ft cells"."""
    s = walker(map="10x8 hex", foe_at="J8")
    s.run("move", actor="Ann", to="B5")
    assert feet_left(s) == 30 - 15


def test_conditions_holding_speed_and_prone_crawling() -> None:
    """"**grappled** (speed 0)"; prone: "moving costs double"."""
    s = walker()
    s.run("effect_add", effect="grappled", actor="Ann", rounds=1)
    assert "speed 0" in s.refused("move", actor="Ann", path="E")
    s = walker()
    s.run("effect_add", effect="prone", actor="Ann", rounds=1)
    s.run("move", actor="Ann", path="E")
    assert feet_left(s) == 20


def test_the_movement_left_follows_the_speed_now() -> None:
    """"The movement left follows its speed now: a `speed` effect added during its turn counts at once, and one that ends
    at the start of its turn no longer counts in that turn"."""
    s = walker()
    s.run("move", actor="Ann", path="E E")
    s.run("effect_add", effect="Haste", actor="Ann", rounds=2, mods="speed+10")
    assert feet_left(s) == 40 - 10
    s.run("effect_add", effect="Slow", actor="Ann", rounds=1, mods="speed-20", ends="start of Ann's turn")
    s.run("next", actor="Ann")
    res = s.run("next", actor="Grak")  # Ann's turn begins: Slow ends, Haste (to the end of her turn) still runs
    assert s.enc.current == "Ann" and feet_left(s) == 40
    assert next(e for e in res.events if isinstance(e, TurnBegan)).speed == 40
    assert "40 ft" in s.system.present.view(s.enc).turn_label(s.enc, s.system.facts(s.enc))


def test_leaving_a_gm_hostiles_reach_provokes_the_bots_opportunity_attack() -> None:
    """"a step out of the reach of a hostile able to act that has its reaction provokes one melee attack from it ...
    The bot takes the GM's at once"."""
    s = walker(foe_at="C3")
    res = s.run("move", [15, 4], actor="Ann", path="W")
    oa = next(e for e in res.events if isinstance(e, OpenAttack))
    assert oa.opportunity and oa.actor == "Grak" and s.get("Ann").hp == 16 and s.get("Ann").position == "A2"
    assert OpenCombatant.of(s.get("Grak")).reacted
    again = s.run("move", actor="Ann", path="E S S S")  # its reaction is spent: no second attack this round
    assert not any(isinstance(e, OpenAttack) for e in again.events)


def test_no_opportunity_attack_with_the_option_off_or_after_disengage() -> None:
    """"(option `opportunity`)"; "`/act action:disengage` spends the action so the turn's moves provoke none"."""
    s = walker(foe_at="C3", opportunity="no")
    assert not any(isinstance(e, OpenAttack) for e in s.run("move", actor="Ann", path="N").events)
    s = walker(foe_at="C3")
    s.run("act", actor="Ann", action="disengage")
    assert not any(isinstance(e, OpenAttack) for e in s.run("move", actor="Ann", path="N").events)


def test_a_disengage_that_ends_the_turn_ends_with_it() -> None:
    """"Dash and disengage are effects on the combatant until the end of its turn": one whose action spends the
    last of the turn (option `auto_end`) ends with that turn, and the next turn's moves provoke again."""
    s = walker(sheet="hp=20 speed=5", foe_at="D2")
    s.run("move", actor="Ann", path="E")  # C2, beside Grak: all its movement
    res = s.run("act", actor="Ann", action="disengage")
    assert s.enc.current == "Grak" and s.enc.effects == []
    assert [e for e in res.events if isinstance(e, EffectEnded)] == [EffectEnded(actor="Ann", name="disengage")]
    lines = s.text(res)  # told as it happened: the turn, and the disengage with it, ends before Grak's begins
    assert lines.index("Effect **disengage** on **Ann** ends") < lines.index("**Grak** to act: 30 ft of movement and one action")
    s.run("next", actor="Grak")
    assert any(isinstance(e, OpenAttack) for e in s.run("move", [15, 4], actor="Ann", path="W").events)


def test_a_dodge_that_ends_the_turn_lasts_until_the_start_of_the_next() -> None:
    """"`dodging` until the start of its next": a dodge whose action ends the turn (option `auto_end`) lasts
    through the foe's turn, its attack at disadvantage, and ends as the dodger's next turn starts."""
    s = walker(sheet="hp=20 speed=5 ac=10", foe_at="D2")
    s.run("move", actor="Ann", path="E")
    s.run("act", actor="Ann", action="dodge")
    assert s.enc.current == "Grak" and [e.name for e in s.enc.effects] == ["dodging"]
    s.run("attack", [15, 4], actor="Grak", target="Ann")  # keeps the 4: 9 vs AC 10
    assert s.get("Ann").hp == 20
    res = s.run("next", actor="Grak")
    assert s.enc.current == "Ann" and s.enc.effects == []
    assert [e for e in res.events if isinstance(e, EffectEnded)] == [EffectEnded(actor="Ann", name="dodging")]


def test_a_players_opportunity_attack_is_asked_and_the_move_waits() -> None:
    """"A player's is asked of its owner privately ... the move waits on the cell before the step (every other rule
    action waits too) and goes on after the answer"."""
    s = Scenario("open").add("Ann", f"hp=20 ac=10 init=+1 {SWORD}", at="C3")
    s.add("Grak", f"hp=20 ac=10 init=+10 {SWORD}", at="B2", owner=None, side="foes")
    s.run("init_roll", [10, 1])
    res = s.run("move", actor="Grak", path="E E E E")
    assert any(isinstance(e, OpportunityOffered) for e in res.events)
    waiting = OpenEncounter.of(s.enc).waiting
    assert waiting is not None and s.get("Grak").position == "D2" and waiting.rest == ["E2", "F2"]
    prompt = s.system.prompt(s.enc)
    assert prompt is not None and prompt.actor == "Ann" and [c[1] for c in prompt.choices] == ["yes", "no"]
    assert "waits" in s.refused("next", actor="Grak")
    s.run("act", [15, 4], actor="Ann", action="opportunity", options={"choice": "yes", "tag": waiting.tag})
    assert s.get("Grak").hp == 16 and s.get("Grak").position == "F2" and s.system.prompt(s.enc) is None


def test_the_opportunity_question_is_facts_the_presenter_words() -> None:
    """"A player's is asked of its owner privately": the rules give who is asked, the mover, the attacker, the cell
    and the answers as codes; the presenter makes the question's words, buttons and log notes."""
    s = Scenario("open").add("Ann", f"hp=20 ac=10 init=+1 {SWORD}", at="C3")
    s.add("Grak", f"hp=20 ac=10 init=+10 {SWORD}", at="B2", owner=None, side="foes")
    s.run("init_roll", [10, 1])
    s.run("move", actor="Grak", path="E E E E")
    q = s.system.question(s.enc)
    assert isinstance(q, Question) and sentences(q) == []
    assert (q.kind, q.actor, q.action, q.mover, q.attacker, q.at, q.answers) == (
        "opportunity", "Ann", "opportunity", "Grak", "Ann", "D2", ("yes", "no"))
    asked = s.system.present.prompt(q)
    assert (asked.user_id, asked.tag, asked.actor, asked.action) == (q.user_id, q.tag, "Ann", "opportunity")
    assert asked.title == "⚔️ Ann: opportunity attack?" and asked.lines == [
        "**Grak** is leaving **Ann**'s reach at D2: take an opportunity attack with your reaction?",
        "The move waits for your answer (there is no turn deadline: meanwhile a GM can answer for you or take the "
        "move back with `/undo`)."]
    assert asked.choices == [("Strike", "yes"), ("Let it go", "no")]
    assert (asked.waiting, asked.lapse) == ("Grak's move", "no opportunity attack")
    assert s.system.prompt(s.enc) == asked


def test_the_opportunity_question_says_the_turns_deadline_answers_no_where_there_is_one() -> None:
    """"The turn's deadline answers no" (docs/systems/open.md): said to the player and in the channel where the turns
    have a deadline (`deadline_hours`); with none (the default), nothing would answer: both say a GM can."""
    s = Scenario("open").add("Ann", f"hp=20 ac=10 init=+1 {SWORD}", at="C3")
    s.add("Grak", f"hp=20 ac=10 init=+10 {SWORD}", at="B2", owner=None, side="foes")
    s.enc.settings.deadline_hours = 48
    s.run("init_roll", [10, 1])
    res = s.run("move", actor="Grak", path="E E E E")
    assert "(the buttons sent to them; the turn's deadline answers no). The move waits." in s.text(res)[-1]
    q = s.system.question(s.enc)
    assert q is not None and s.system.present.prompt(q).lines[-1] == (
        "The move waits for your answer; the turn's deadline answers no.")
    s = Scenario("open").add("Ann", f"hp=20 ac=10 init=+1 {SWORD}", at="C3")
    s.add("Grak", f"hp=20 ac=10 init=+10 {SWORD}", at="B2", owner=None, side="foes")
    s.run("init_roll", [10, 1])
    res = s.run("move", actor="Grak", path="E E E E")
    assert "(the buttons sent to them; no turn deadline: meanwhile a GM can answer for them)." in s.text(res)[-1]


def test_the_deadline_answers_no() -> None:
    """"the turn's deadline answers no"."""
    s = Scenario("open").add("Ann", f"hp=20 ac=10 init=+1 {SWORD}", at="C3")
    s.add("Grak", f"hp=20 ac=10 init=+10 {SWORD}", at="B2", owner=None, side="foes")
    s.run("init_roll", [10, 1])
    s.run("move", actor="Grak", path="E E E")
    lapse = s.system.lapse(s.enc)
    assert lapse is not None
    res = s.system.resolve(s.enc, lapse, Dice.fixed(()))
    assert any(isinstance(e, OpportunityDeclined) and e.lapsed for e in res.events)
    assert res.encounter.get("Grak").position == "E2" and res.encounter.get("Grak").hp == 20


def test_an_older_state_with_the_feet_left_is_read() -> None:
    """A state written when the turn kept its feet left reads back with nothing spent."""
    st = OpenCombatant.model_validate({"feet_left": 10, "acted": True})
    assert st.feet_spent == 0 and st.acted


def test_an_older_state_counting_dashes_is_read() -> None:
    """A state written when the turn counted its dashes and disengaging (the effects of those actions hold them now) reads back."""
    st = OpenCombatant.model_validate({"dashes": 1, "disengaged": True, "acted": True})
    assert st.acted and "dashes" not in st.model_dump()


def test_a_held_combatant_has_no_feet_left_on_the_board() -> None:
    """"**grappled** (speed 0)": while it holds, the turn shows no movement left."""
    s = walker()
    s.run("effect_add", effect="grappled", actor="Ann", rounds=1)
    assert feet_left(s) == 0 and " ft" not in s.system.present.view(s.enc).turn_label(s.enc, s.system.facts(s.enc))


def test_dash_is_an_effect_the_encounter_keeps_and_the_board_shows() -> None:
    """"`/act action:dash` (movement again)": the dash the log announces is the effect the encounter keeps, shown on the
    board, and its movement goes with it when its turn ends."""
    s = walker()
    res = s.run("act", actor="Ann", action="dash")
    added = next(e for e in res.events if isinstance(e, EffectAdded))
    kept = [e for e in s.enc.effects if e.target == "Ann"]
    assert [(e.name, e.ends, e.left) for e in kept] == [(added.name, added.ends, added.left)] == [("dash", "turn_end", 1)]
    assert added.mods == kept[0].mods == {}
    assert feet_left(s) == 60
    assert any("dash on Ann" in line for line in s.system.present.board(s.enc, s.system.facts(s.enc)).lines)
    assert any("dash" in line for line in s.text(res))
    s.run("next", actor="Ann")
    assert not s.enc.effects


def test_disengage_is_an_effect_the_encounter_keeps() -> None:
    """"`/act action:disengage` spends the action so the turn's moves provoke none": the effect announced is kept."""
    s = walker(foe_at="C3")
    res = s.run("act", actor="Ann", action="disengage")
    added = next(e for e in res.events if isinstance(e, EffectAdded))
    assert [(e.name, e.target) for e in s.enc.effects] == [(added.name, added.actor)] == [("disengage", "Ann")]
    s.run("move", actor="Ann", path="N")
    s.run("next", actor="Ann")
    assert not s.enc.effects


@pytest.mark.parametrize("action, name", [("dash", "dash"), ("disengage", "disengage"), ("dodge", "dodging")])
def test_an_action_taken_again_tells_the_end_of_the_effect_it_replaces(action: str, name: str) -> None:
    """"Dash and disengage are effects on the combatant until the end of its turn (`dodging` until the start of its
    next), listed on the board like any other" (docs/systems/open.md): taken while one of that name is on Ann (the
    GM's, for three turns), the old one's end is told before the new one begins, and one is left."""
    s = walker()
    s.run("effect_add", effect=name, actor="Ann", rounds=3)
    res = s.run("act", actor="Ann", action=action)
    told = [(type(e).__name__, e.name) for e in res.events if isinstance(e, (EffectEnded, EffectAdded))]
    assert told == [("EffectEnded", name), ("EffectAdded", name)]
    text = " ".join(s.text(res))
    assert text.index(f"Effect **{name}** on **Ann** ends") < text.index(f"Effect **{name}** on **Ann** until")
    assert [(e.name, e.left) for e in s.enc.effects if e.target == "Ann"] == [(name, 1)]


def test_move_to_prefers_a_longer_path_that_provokes_no_opportunity_attack() -> None:
    """"`/move to:` takes, of the paths its movement left allows, one that provokes fewest opportunity attacks, and of those
    the cheapest". Ann (A) goes to E1 past Grak (G, reach 5 ft), who holds C1:

        A B C D E
      1 A . G . *
      2 . . . . .
      3 . . . . .

    a 20 ft path (A1 B2 C2 D2 E1) leaves Grak's reach; the 30 ft one A1 A2 B3 C3 D3 E2 E1 never enters it."""
    s = walker(at="A1", map="5x3", foe_at="C1", sheet="hp=20 speed=30")
    res = s.run("move", actor="Ann", to="E1")
    assert next(e for e in res.events if isinstance(e, Moved)).path == ["A1", "A2", "B3", "C3", "D3", "E2", "E1"]
    assert not any(isinstance(e, OpenAttack) for e in res.events) and feet_left(s) == 0
    s = walker(at="A1", map="5x3", foe_at="C1", sheet="hp=20 speed=25")  # too slow to go around: the short way
    res = s.run("move", [1], actor="Ann", to="E1")
    moved = [e for e in res.events if isinstance(e, Moved)]
    assert sum(e.cost for e in moved) == 20 and moved[-1].path == ["D2", "E1"]
    assert any(isinstance(e, OpenAttack) and e.opportunity for e in res.events)


def test_move_to_takes_the_shortest_of_the_equally_safe_paths() -> None:
    """"and of those the cheapest": with the opportunity attacks off every path is as safe, and the shortest is taken."""
    s = walker(at="A1", map="5x3", foe_at="C1", sheet="hp=20 speed=30", opportunity="no")
    res = s.run("move", actor="Ann", to="E1")
    assert next(e for e in res.events if isinstance(e, Moved)).cost == 20 and feet_left(s) == 10


CORRIDOR = ("A1", "B1", "C1", "A3", "B3", "C3")


def test_a_creature_two_sizes_apart_moves_through_a_hostiles_space() -> None:
    """"a creature may move through a hostile creature's space only if it is at least two sizes larger or smaller
    (otherwise hostile spaces block movement)". Grak (G, medium) holds the corridor:

        A B C
      1 # # #
      2 P G .
      3 # # #
    """
    for size, through in (("tiny", True), ("small", False), ("medium", False), ("large", False), ("huge", True)):
        s = walker(at="A2", map="3x3", foe_at="B2", sheet=f"hp=20 size={size}", blocked=CORRIDOR)
        if through:
            s.run("move", actor="Ann", path="E E")
            assert s.get("Ann").position == "C2", size
            s = walker(at="A2", map="3x3", foe_at="B2", sheet=f"hp=20 size={size}", blocked=CORRIDOR)
            s.run("move", actor="Ann", to="C2")
            assert s.get("Ann").position == "C2", size
            continue
        assert "held by Grak" in s.refused("move", actor="Ann", path="E E"), size
        assert "cannot reach" in s.refused("move", actor="Ann", to="C2"), size


def test_passing_through_is_not_stopping() -> None:
    """"allies and the fallen can be passed but not stopped on": nor can a hostile's space a small enough creature passes."""
    s = walker(at="A2", map="3x3", foe_at="B2", sheet="hp=20 size=tiny", blocked=CORRIDOR)
    assert "cannot stop on B2" in s.refused("move", actor="Ann", path="E")


@pytest.mark.parametrize(("rule", "map", "path", "cost"), [
    ("5", "12x10", ["B2", "C2", "D2", "E3", "F4"], 20),
    ("alternate", "12x10", ["B2", "C2", "D2", "E2", "E3", "F4"], 25),
    ("10", "12x10", ["B2", "C2", "D2", "E2", "E3", "F3", "F4"], 30),
    ("5", "12x10 hex", ["B2", "C3", "D3", "E4", "F4"], 20),
])
def test_move_to_among_paths_of_equal_cost_takes_the_straightest_first_found(rule: str, map: str, path: list[str],
                                                                             cost: int) -> None:
    """"`/move to:` takes, of the paths its movement left allows, one that provokes fewest ..., and of those the
    cheapest"; of those the fewest diagonal steps, then the first the search finds (`rules.geometry.paths`): the
    trail drawn is always the same one."""
    s = walker(map=map, diagonals=rule)
    res = s.run("move", actor="Ann", to="F4")
    moved = next(e for e in res.events if isinstance(e, Moved))
    assert moved.path == path and moved.cost == cost


def test_move_to_a_walled_off_cell_is_refused() -> None:
    """"Walls block": a cell walled off from the mover is refused as out of reach, a wall as a wall, and nothing
    moves."""
    s = walker(at="A1", map="6x6", blocked=("D3", "D4", "D5", "E3", "F3", "E5", "F5"), foe_at="A6", sheet="hp=20 speed=200")
    assert "cannot reach" in s.refused("move", actor="Ann", to="E4")
    assert "D4 is a wall" in s.refused("move", actor="Ann", to="D4")
    res = s.run("move", actor="Ann", to="C4")
    assert next(e for e in res.events if isinstance(e, Moved)).path[-1] == "C4"


@pytest.mark.parametrize(("to", "says"), [
    ("D2", "Ann cannot stop on D2: Grak is there. Pick a free cell."),
    ("C3", "C3 is a wall: Ann cannot stand there. Pick an open cell."),
])
def test_a_move_to_a_hostiles_cell_or_a_wall_says_why(to: str, says: str) -> None:
    """"Walls block ... hostiles not down or out block ...; allies and the fallen can be passed but not stopped on";
    docs/commands.md: "Bad input gets a clear message that says what to do instead": `/move to:` a hostile's cell or a
    wall says so, as it does for an ally's cell, not that the cell is too far or walled off."""
    s = walker(foe_at="D2", blocked=("C3",))
    assert s.refused("move", actor="Ann", to=to) == says


def two_guards() -> Scenario:
    """The s33 set-up: bob's Borin (C4) and ann's Alda (C5) both have the GM's Orc (D4, acting first) in reach."""
    s = Scenario("open", map="12x10").add("Borin", f"hp=30 init=+0 {SWORD}", at="C4", owner="bob")
    s.add("Alda", f"hp=30 init=+0 {SWORD}", at="C5", owner="ann")
    s.add("Orc", f"hp=40 ac=5 init=+20 {SWORD}", at="D4", owner=None, side="foes")
    s.run("init_roll", [5, 3, 10])
    s.run("move", actor="Orc", path="E")
    return s


def answer(s: Scenario, choice: str, dice: tuple[int, ...] = ()) -> str:
    """Answer the waiting question as the GM; whose it was."""
    waiting = OpenEncounter.of(s.enc).waiting
    assert waiting is not None
    s.run("act", dice, actor=waiting.attacker, action="opportunity", options={"choice": choice, "tag": waiting.tag})
    return waiting.attacker


def test_a_step_out_of_two_players_reach_asks_each_once_and_goes_on_when_both_decline() -> None:
    """"a step out of the reach of a hostile able to act that has its reaction provokes one melee attack from it
    ... the move waits on the cell before the step ... and goes on after the answer": each hostile is asked once
    for that step, and after both let the mover go it steps on."""
    s = two_guards()
    asked = [answer(s, "no")]
    assert s.get("Orc").position == "D4"
    asked.append(answer(s, "no"))
    assert sorted(asked) == ["Alda", "Borin"]
    assert OpenEncounter.of(s.enc).waiting is None and s.get("Orc").position == "E4"


def test_one_who_declined_is_not_asked_again_after_the_other_strikes() -> None:
    """"provokes one melee attack from it": one who let the mover go is not asked again for that step when the
    other strikes."""
    s = two_guards()
    first = answer(s, "no")
    second = answer(s, "yes", (3, 1))  # a miss
    assert second != first
    assert OpenEncounter.of(s.enc).waiting is None and s.get("Orc").position == "E4"


def test_the_deadline_answers_no_for_every_hostile_the_waiting_move_passes() -> None:
    """"the turn's deadline answers no; being the mover's turn's deadline, it then also does to that turn what
    `deadline_policy` says": the deadline answers for each hostile the step leaves, so the move ends and the
    turn can pass."""
    s = two_guards()
    lapse = s.system.lapse(s.enc)
    assert lapse is not None
    res = s.system.resolve(s.enc, lapse, Dice.fixed(()))
    s.enc = res.encounter
    declined = [e for e in res.events if isinstance(e, OpportunityDeclined)]
    assert sorted(e.actor for e in declined) == ["Alda", "Borin"] and all(e.lapsed for e in declined)
    assert OpenEncounter.of(s.enc).waiting is None and s.get("Orc").position == "E4"
    s.run("next", actor="Orc")
    assert s.enc.current == "Borin"


def test_a_player_cannot_give_the_deadlines_answer() -> None:
    """"the turn's deadline answers no": only the deadline (the bot, as the GM) gives that answer, which answers for
    every player the move passes; a player's `deadline` is refused and changes nothing."""
    s = two_guards()
    waiting = OpenEncounter.of(s.enc).waiting
    assert waiting is not None
    text = s.refused("act", gm=False, user_id=waiting.owner, actor=waiting.attacker, action="opportunity",
                     options={"choice": "no", "tag": waiting.tag, "deadline": "yes"})
    assert 'options:"no"' in text


def test_a_mover_downed_on_an_allys_cell_lies_on_the_last_cell_it_could_stop_on() -> None:
    """"allies and the fallen can be passed but not stopped on": the GM's Orc, passing through Gob's cell (D5), is
    struck down there by Borin's opportunity attack; it falls on the last cell of its path it could stop on (E4,
    a project default), never sharing Gob's cell, and the reply says so."""
    s = Scenario("open", map="12x10", gm_at_zero="down")
    s.add("Borin", "hp=50 init=+0 weapons=axe:+5:25:slashing", at="C4", owner="bob")
    s.add("Orc", "hp=20 ac=5 init=+20", at="E4", owner=None, side="foes")
    s.add("Gob", "hp=10 ac=5 init=+0", at="D5", owner=None, side="foes")
    s.run("init_roll", [1, 10, 2])
    s.run("move", actor="Orc", path="SW SW")
    waiting = OpenEncounter.of(s.enc).waiting
    assert waiting is not None and waiting.at == "D5"
    res = s.run("act", [15], actor="Borin", action="opportunity", options={"choice": "yes", "tag": waiting.tag})
    assert s.get("Orc").status == "downed"
    assert s.get("Orc").position == "E4" and s.get("Gob").position == "D5"
    assert any("**Orc** falls on E4" in line for line in s.text(res))
    # the map's trail of the move ends where the Orc lies, not on Gob's cell
    assert s.enc.last_move is not None and s.enc.last_move.path[-1] == "E4"


def test_a_mover_the_gms_attack_downs_on_an_allys_cell_lies_on_the_last_cell_it_could_stop_on() -> None:
    """"allies and the fallen can be passed but not stopped on": a player's mover struck down by the GM's
    opportunity attack (taken at once) while passing an ally's cell lies on the last cell it could stop on."""
    s = Scenario("open", map="12x10")
    s.add("Ann", "hp=5 init=+20 weapons=axe:+5:1d8:slashing", at="E4")
    s.add("Bo", "hp=10 init=+0", at="D5")
    s.add("Grak", "hp=20 ac=5 init=+0 weapons=axe:+5:6:slashing", at="C4", owner=None, side="foes")
    s.run("init_roll", [10, 1, 2])
    s.run("move", [15], actor="Ann", path="SW SW")
    assert s.get("Ann").status == "downed" and s.get("Ann").position == "E4"
    assert s.enc.last_move is not None and s.enc.last_move.path[-1] == "E4"  # the map's trail ends where Ann lies


def test_a_dash_or_disengage_the_gm_puts_on_gives_what_the_action_gives() -> None:
    """"Dash and disengage are effects on the combatant until the end of its turn ..., listed on the board like any
    other; the GM removing one takes back what it gives. Taken while an effect of that name is on the combatant (one
    the GM put on, say)": one the GM puts on gives what the action's does, as a GM-put `dodging` does."""
    s = walker(foe_at="C3")
    s.run("effect_add", effect="Disengage", actor="Ann")
    assert not any(isinstance(e, OpenAttack) for e in s.run("move", actor="Ann", path="N").events)
    s = walker()
    s.run("effect_add", effect="dash", actor="Ann")
    assert feet_left(s) == 60
    s.run("move", actor="Ann", path="E E E E E E E")
    assert s.get("Ann").position == "I2" and feet_left(s) == 25
