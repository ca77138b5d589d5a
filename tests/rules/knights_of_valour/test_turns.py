"""Knights of Valour: initiative, delay, and the Move and Combat Actions of a turn."""
from __future__ import annotations

import pytest

from rules.errors import IllegalAction, InputError, NotAllowed, NotYourTurn, RulesError
from rules.models import Encounter
from rules.report import board_report
from rules.sheet import parse_options
from tests.rules.knights_of_valour.build import (
    GM,
    KNIGHT,
    ORC,
    SYSTEM,
    add,
    duel,
    encounter,
    of,
    one,
    run,
    start,
    step,
    text,
    three_way,
)
from tests.scenario import Scenario


# -- initiative ------------------------------------------------------------------------------------
def test_initiative_is_agility_highest_first() -> None:
    """Initiative = Agility; combatants act in descending order (text: +2 acts before +1)."""
    enc = encounter()
    for name, agi in (("Ann", 1), ("Bob", 2), ("Cid", -1)):
        enc = add(enc, name, f"agi={agi} hp=5", f"A{agi + 3}", "party")
    res = run(enc, kind="init_roll")
    assert res.encounter.order == ["Bob", "Ann", "Cid"]
    assert [(e.actor, e.value) for e in of(res.events, "initiative")] == [("Bob", 2), ("Ann", 1), ("Cid", -1)]
    assert (res.encounter.round, res.encounter.current) == (1, "Bob")


@pytest.mark.parametrize(("player_sheet", "owner", "monster_sheet", "monster_owner", "first"), [
    ("agi=1 hp=5", "1", "agi=1 hp=5", None, "Hero"),        # player owner beats unowned monster
    ("agi=1 hp=5", "1", "agi=1 hp=5", GM, "Hero"),          # a GM's combatant is a monster
    ("agi=1 hp=5 pc=no", "1", "agi=1 hp=5 pc=yes", None, "Beast"),  # `pc` overrides
    ("agi=0 hp=5", "1", "agi=1 hp=5", None, "Beast"),       # no tie: agility decides
])
def test_players_win_ties_against_monsters(
    player_sheet: str, owner: str, monster_sheet: str, monster_owner: str | None, first: str
) -> None:
    """On a tie players act before monsters; `pc` on the sheet says who is a player."""
    enc = add(encounter(), "Beast", monster_sheet, "A1", "monsters", owner=monster_owner)
    enc = start(add(enc, "Hero", player_sheet, "B1", "party", owner=owner))
    assert enc.order[0] == first


def tied_party() -> Encounter:
    enc = add(encounter(), "Borin", "agi=1 hp=5 weapons=club:1", "A1", "party", owner="1")
    enc = add(enc, "Old Tom", "agi=1 hp=5", "A2", "party", owner="2")
    return start(add(enc, "Grak", "agi=1 hp=5", "A3", "orcs", owner=None))


def test_tied_players_keep_join_order_until_the_gm_changes_it() -> None:
    """Tied players act in the order they joined; `/init order` (GM) changes it for later rounds too."""
    enc = tied_party()
    assert enc.order == ["Borin", "Old Tom", "Grak"]
    res = run(enc, kind="init_order", order="Old Tom Borin", gm=True)
    assert "from the next round" in text(one(res.events, "order"))
    enc = step(res.encounter, kind="next", actor="Borin")
    enc = step(step(enc, kind="next", actor="Old Tom"), kind="next", actor="Grak")
    assert (enc.round, enc.order, enc.current) == (2, ["Old Tom", "Borin", "Grak"], "Old Tom")


def test_gm_order_applies_at_once_before_anyone_acts() -> None:
    """Reordering tied players who have not acted changes the order now (comma separated names)."""
    enc = add(encounter(), "Grak", "agi=3 hp=5", "A3", "orcs", owner=None)
    enc = add(add(enc, "Borin", "agi=1 hp=5", "A1", "party"), "Thrain", "agi=1 hp=5", "A2", "party")
    enc = step(start(enc), kind="init_order", order="Thrain, Borin", gm=True)
    assert enc.order == ["Grak", "Thrain", "Borin"]


def test_gm_order_of_a_tie_a_delay_made_applies_to_the_delayed_one_too() -> None:
    """"Players with the same Initiative decide, at the start of the Round, which of them goes first." Borin (2)
    delays `to=-1`, tying Thrain (-1): by default the delayed one acts after those it ties with, but the order the
    GM sets for the tie (Borin first, then Thrain first) takes effect."""
    enc = add(encounter(), "Grak", "agi=0 hp=5", "A3", "orcs", owner=None)
    enc = add(add(enc, "Borin", "agi=2 hp=5", "A1", "party"), "Thrain", "agi=-1 hp=5", "A2", "party")
    enc = step(start(enc), kind="act", actor="Borin", action="delay", options=parse_options("to=-1"))
    assert enc.order == ["Grak", "Thrain", "Borin"]
    enc = step(enc, kind="init_order", order="Borin, Thrain", gm=True)
    assert enc.order == ["Grak", "Borin", "Thrain"]
    enc = step(enc, kind="init_order", order="Thrain, Borin", gm=True)
    assert enc.order == ["Grak", "Thrain", "Borin"]


def test_a_delay_after_someone_acts_first_of_those_at_the_number_it_takes() -> None:
    """"At the start of a Round, Players may elect to reduce their Initiative by any amount ... e.g. to ensure that
    they act after another character"; "Where there is a tie for Initiative between Players & Monsters, Players always
    go first." `after=Borin` (0) takes -1 and acts first of those at -1 (it acted after them all), after the
    players there when it is a monster: Thrain (-1, a player), then Grak, then Zug (-1, a monster); Alda's `after=Borin`
    puts her just after Borin, before Thrain. A `by=` or `to=` delay still acts after those at its number."""
    enc = add(encounter(delay="round"), "Grak", "agi=2 hp=5", "A3", "orcs", owner=None)
    enc = add(enc, "Zug", "agi=-1 hp=5", "A4", "orcs", owner=None)
    enc = add(add(enc, "Borin", "agi=0 hp=5", "A1", "party"), "Thrain", "agi=-1 hp=5", "A2", "party")
    enc = add(enc, "Alda", "agi=1 hp=5", "A5", "party", owner="2")
    enc = step(start(enc), kind="act", actor="Grak", action="delay", options=parse_options("after=Borin"), gm=True)
    assert enc.order == ["Alda", "Borin", "Thrain", "Grak", "Zug"]
    enc = step(enc, kind="act", actor="Alda", action="delay", options=parse_options("after=Borin"))
    assert enc.order == ["Borin", "Alda", "Thrain", "Grak", "Zug"]
    enc = step(enc, kind="act", actor="Alda", action="delay", options=parse_options("by=1"))
    assert enc.order == ["Borin", "Thrain", "Grak", "Zug", "Alda"]


@pytest.mark.parametrize(("names", "gm", "error", "message"), [
    ("Grak, Borin", True, IllegalAction, "Player characters always act before monsters on a tie: name the players first"),
    ("Borin", True, InputError, "two or more different"),
    ("Borin Borin", True, InputError, "two or more different"),
    ("Borin, Nobody", True, RulesError, "no combatant called `Nobody`"),
    ("Old Tom, Borin", False, NotAllowed, "Only the GM"),
])
def test_reorder_errors(names: str, gm: bool, error: type[Exception], message: str) -> None:
    """Only the GM orders ties, only between tied combatants, players before monsters."""
    with pytest.raises(error, match=message):
        run(tied_party(), kind="init_order", order=names, gm=gm)


def test_reorder_takes_players_then_monsters_in_one_order() -> None:
    """"Where there is a tie for Initiative between Players & Monsters, Players always go first": an order that names
    the tied players, then the tied monsters, already keeps that, so it is taken (it was refused for naming both)."""
    res = run(tied_party(), kind="init_order", order="Old Tom, Borin, Grak", gm=True)
    assert [e.names for e in res.events if e.kind == "order"][0] == ["Old Tom", "Borin", "Grak"]


def test_reorder_refuses_untied_combatants() -> None:
    """Combatants with different initiatives cannot be reordered: `/init set` changes numbers."""
    enc = step(tied_party(), kind="init_set", actor="Old Tom", value=0)
    with pytest.raises(IllegalAction, match="Only tied combatants.*Old Tom 0, Borin 1"):
        run(enc, kind="init_order", order="Old Tom, Borin", gm=True)


def test_init_order_without_names_shows_the_order() -> None:
    """`/init order` with no names changes nothing and lists the order."""
    res = run(tied_party(), kind="init_order")
    assert text(one(res.events, "order")) == "Initiative order: Borin 1, Old Tom 1, Grak 1"


def test_init_set_overrides_agility_for_later_rounds() -> None:
    """`/init set` replaces Agility as the initiative and reorders those still to act."""
    enc = step(duel(), kind="init_set", actor="Grak", value=5, gm=True)
    assert enc.order == ["Borin", "Grak"]  # Borin is already acting this round
    enc = step(step(enc, kind="next", actor="Borin"), kind="next", actor="Grak")
    assert (enc.round, enc.order, enc.get("Grak").initiative) == (2, ["Grak", "Borin"], 5)


def test_init_set_needs_a_value() -> None:
    """`/init set` without a value says what to give."""
    with pytest.raises(InputError, match="value:3"):
        run(duel(), kind="init_set", actor="Grak")


def test_init_roll_for_one_combatant_resets_it_to_agility() -> None:
    """`/init roll combatant:X` gives X its Agility as initiative again."""
    enc = step(duel(), kind="init_set", actor="Grak", value=5)
    res = run(enc, kind="init_roll", actor="Grak")
    assert (res.encounter.get("Grak").initiative, text(one(res.events, "initiative"))) == (0, "**Grak** initiative **0**: Agility +0")


def test_init_roll_twice_is_refused() -> None:
    """Rolling for everyone again mid-fight is refused with what to do instead."""
    with pytest.raises(IllegalAction, match="already under way"):
        run(duel(), kind="init_roll")


def test_init_roll_needs_combatants() -> None:
    """Combat cannot start with nobody in it."""
    with pytest.raises(IllegalAction, match="add combatants"):
        run(encounter(), kind="init_roll")


def test_delay_lowers_initiative_for_the_round_only() -> None:
    """A combatant may lower its initiative at the start of a round; it comes back next round."""
    enc = three_way()
    res = run(enc, kind="act", actor="Borin", action="delay", options=parse_options("to=0"))
    enc = res.encounter
    assert text(one(res.events, "initiative")).endswith(": delays for this round, from 2 to 0")
    assert (enc.order, enc.current) == (["Grak", "Thrain", "Borin"], "Grak")
    assert one(res.events, "turn").actor == "Grak"
    for name in ("Grak", "Thrain", "Borin"):
        enc = step(enc, kind="next", actor=name)
    assert (enc.round, enc.order, enc.get("Borin").initiative) == (2, ["Borin", "Grak", "Thrain"], 2)


def test_a_put_off_turn_keeps_the_actions_granted_in_it() -> None:
    """docs/systems/knights-of-valour.md: the first to act "may still delay then, before doing anything; its turn is
    then one turn, played later in the round". The actions the GM granted in it (the text: an extra action "can be
    used in any order") are still there when it is played, and its turn line says so; the next round's turn has
    only its own."""
    enc = three_way()
    enc = step(enc, kind="act", actor="Borin", action="grant", options={"move": "", "combat": ""}, gm=True)
    enc = step(enc, kind="act", actor="Borin", action="grant", options={"move": ""}, gm=True)
    enc = step(enc, kind="act", actor="Borin", action="delay", options=parse_options("to=-1"))
    assert enc.current == "Grak"
    enc = step(enc, kind="next", actor="Grak")
    res = run(enc, kind="next", actor="Thrain")
    st = res.encounter.get("Borin").state
    assert (res.encounter.current, st.move_actions, st.combat_actions, st.granted) == ("Borin", 3, 2, 3)
    assert text(one(res.events, "turn")) == "**Borin** to act: Move Action ×3 (30 ft each) and Combat Action ×2"
    enc = step(res.encounter, kind="move", actor="Borin", path="S S E E E E E E E E E E E")  # 65 ft: into the third
    assert enc.get("Borin").state.move_actions == 0
    enc = step(enc, kind="next", actor="Borin")
    st = enc.get("Borin").state
    assert (enc.round, enc.current, st.move_actions, st.combat_actions, st.granted) == (2, "Borin", 1, 1, 0)


@pytest.mark.parametrize(("options", "expected"), [
    ({"2": ""}, 0), ({"by": "1"}, 1), ({"3": ""}, -1), ({"after": "Grak"}, 0),
])
def test_delay_amount_forms(options: dict[str, str], expected: int) -> None:
    """`options:"N"` and `by=N` lower by N; `after=NAME` drops below NAME."""
    enc = step(three_way(), kind="act", actor="Borin", action="delay", options=options)
    assert enc.get("Borin").initiative == expected


@pytest.mark.parametrize(("options", "message"), [({}, "Say how far"), ({"to": "5"}, "is not lower")])
def test_delay_amount_errors(options: dict[str, str], message: str) -> None:
    """A delay needs an amount that lowers the initiative."""
    with pytest.raises(InputError, match=message):
        run(three_way(), kind="act", actor="Thrain", action="delay", options=options)


@pytest.mark.parametrize(("options", "message"), [
    ({"to": "5"}, "Thrain's is 0, and 5 is not lower. Give `to=-1` or less, or `by=` a number (`by=1`)."),
    ({"after": "Borin"}, "Thrain already acts after Borin. Give `after=` someone who acts after Thrain now, or lower it `by=`"),
])
def test_a_delay_that_lowers_nothing_says_what_would(options: dict[str, str], message: str) -> None:
    """A refusal says what to do instead: the `to=` or `by=` that would lower the initiative."""
    with pytest.raises(InputError) as refused:
        run(three_way(), kind="act", actor="Thrain", action="delay", options=options)
    assert message in str(refused.value)


def test_delay_refused_after_acting() -> None:
    """Once its turn has been used, a combatant cannot lower its initiative this round."""
    enc = step(three_way(), kind="move", actor="Borin", path="E")
    with pytest.raises(IllegalAction, match="already acted this round"):
        run(enc, kind="act", actor="Borin", action="delay", options={"1": ""})


@pytest.mark.parametrize(("mode", "allowed"), [("round", True), ("start", False)])
def test_delay_window_option(mode: str, allowed: bool) -> None:
    """`delay=start` keeps delays to the start of the round; the default allows them until one's turn."""
    enc = three_way()
    enc.settings.options["delay"] = mode
    enc = step(enc, kind="move", actor="Borin", path="E")
    if allowed:
        assert step(enc, kind="act", actor="Thrain", action="delay", options={"1": ""}).get("Thrain").initiative == -1
    else:
        with pytest.raises(IllegalAction, match="start of a round"):
            run(enc, kind="act", actor="Thrain", action="delay", options={"1": ""})


# -- turns -----------------------------------------------------------------------------------------
def test_turn_key_and_label() -> None:
    """The turn names the acting combatant, its actions left, and its key changes with the turn."""
    enc = duel()
    turn = SYSTEM.turn(enc)
    assert (turn.actors, SYSTEM.present.turn_label(enc, SYSTEM.facts(enc))) == (("Borin",), "Round 1 · Borin to act: Move Action and Combat Action left")
    after = step(enc, kind="next", actor="Borin")
    assert SYSTEM.turn(after).actors == ("Grak",) and SYSTEM.turn(after).key != turn.key
    again = step(after, kind="next", actor="Grak")
    assert (again.round, SYSTEM.turn(again).actors) == (2, ("Borin",))


def test_move_then_attack_and_attack_then_move() -> None:
    """A turn is one Move Action and one Combat Action, in either order."""
    enc = duel("C4", "E4")
    after_move = step(enc, kind="move", actor="Borin", to="D4")
    assert one(run(after_move, [1], kind="attack", actor="Borin", target="Grak").events, "attack").roll.success is False
    enc = duel("C4", "D4")
    after_attack = step(enc, [1], kind="attack", actor="Borin", target="Grak")
    assert step(after_attack, kind="move", actor="Borin", path="N").get("Borin").position == "C3"


def test_one_combat_action_per_turn() -> None:
    """A second attack in the same turn is refused."""
    enc = step(duel(), [1], kind="attack", actor="Borin", target="Grak")
    with pytest.raises(IllegalAction, match="used the Combat Action"):
        run(enc, [1], kind="attack", actor="Borin", target="Grak")


@pytest.mark.parametrize(("split", "allowed"), [("no", False), ("yes", True)])
def test_combat_action_ends_a_move_under_way(split: str, allowed: bool) -> None:
    """Taking the Combat Action ends a started Move Action unless `split_move=yes`."""
    enc = duel("C4", "E4")
    enc.settings.options.update(split_move=split, auto_end="no")
    enc = step(step(enc, kind="move", actor="Borin", to="D4"), [1], kind="attack", actor="Borin", target="Grak")
    if allowed:
        assert step(enc, kind="move", actor="Borin", path="N").get("Borin").position == "D3"
    else:
        with pytest.raises(IllegalAction, match="no movement left"):
            run(enc, kind="move", actor="Borin", path="N")


def test_reply_and_board_show_actions_left() -> None:
    """The reply and the status board say which of the two actions is left; "one Move Action and one Combat Action, in
    any order": with `split_move=no` (the default) the Combat Action ends the move, and the reply says the feet left
    are lost and how to keep them."""
    enc = duel("C4", "E4")
    res = run(enc, kind="move", actor="Borin", path="E")
    assert text(one(res.events, "left")) == "Borin: Move Action (25 ft) and Combat Action left"
    board = board_report(SYSTEM, res.encounter, numbers=True).text()
    assert "▶ Move Action (25 ft) and Combat Action left" in board
    assert "Move and Combat Action to come" in board
    done = run(res.encounter, [1], kind="attack", actor="Borin", target="Grak")
    # the turn ends by itself: no `/init next` to suggest
    assert text(one(done.events, "left")) == ("Borin: both actions used (25 ft of the move were left: lost, as option "
                                              "`split_move=no` has it; `split_move=yes` keeps them)")


def test_acting_out_of_turn_is_refused() -> None:
    """Only the combatant whose turn it is may move, attack or act."""
    with pytest.raises(NotYourTurn, match="It is Borin's turn, not Grak's"):
        run(duel(), [1], kind="attack", actor="Grak", target="Borin")


def test_next_naming_another_never_ends_the_turn_under_way() -> None:
    """Only the acting combatant's owner or the GM ends a turn; the GM naming another combatant passes it, and Borin's turn goes on."""
    with pytest.raises(NotYourTurn):
        run(duel(), kind="next", actor="Grak")
    passed = run(duel(), kind="next", actor="Grak", gm=True)
    assert passed.encounter.current == "Borin" and [e.kind for e in passed.events] == ["turn_passed"]
    assert step(passed.encounter, kind="next", actor="Borin", gm=True).round == 2  # Grak's turn is gone: a new round
    assert step(duel(), kind="next", actor="Borin", gm=True).current == "Grak"


def test_gm_grants_an_extra_combat_action() -> None:
    """An extra Combat Action granted by the GM (item, buff, spell) can be used in the same turn."""
    enc = step(duel(), kind="act", actor="Borin", action="grant", options={"combat": ""}, gm=True)
    enc = step(enc, [1], kind="attack", actor="Borin", target="Grak")
    assert step(enc, [1], kind="attack", actor="Borin", target="Grak").get("Borin").state.combat_actions == 0
    assert SYSTEM.actions.get("grant").gm_only  # the service lets only the GM use it


@pytest.mark.parametrize("name", ["shove", "grapple", "throw", "release", "cast", "search", "use"])
def test_listed_combat_actions_use_the_combat_action(name: str) -> None:
    """The text's other Combat Actions are recorded for the GM to rule on and use the Combat Action."""
    res = run(duel(), kind="act", actor="Borin", action=name, target="Grak")
    assert "the GM rules on the outcome" in text(res.events[0])
    assert res.encounter.get("Borin").state.combat_actions == 0


def test_unknown_act_lists_the_actions() -> None:
    """An unknown /act name lists the system's actions."""
    with pytest.raises(IllegalAction, match="delay, wield, grant, shove"):
        run(duel(), kind="act", actor="Borin", action="dance")


# -- corrections: who may delay and when ------------------------------------------------------------------
def test_by_default_only_players_delay_and_only_at_the_start_of_the_round() -> None:
    """Text: "At the start of a Round, Players may elect to reduce their Initiative": a monster may not,
    and a player may not once someone has acted."""
    enc = three_way()
    with pytest.raises(IllegalAction, match="Grak is not a player character"):
        run(enc, kind="act", actor="Grak", action="delay", options={"1": ""}, gm=True)
    assert step(enc, kind="act", actor="Thrain", action="delay", options={"1": ""}).get("Thrain").initiative == -1
    moved = step(enc, kind="move", actor="Borin", path="E")
    with pytest.raises(IllegalAction, match="only be lowered at the start of a round"):
        run(moved, kind="act", actor="Thrain", action="delay", options={"1": ""})


def test_delay_round_option_lets_anyone_delay_until_its_turn() -> None:
    """"option `delay=round`: any combatant, until its own turn has begun" (docs/systems/knights-of-valour.md): a
    monster may lower its initiative while another acts, after the start of the round."""
    enc = three_way()
    enc.settings.options["delay"] = "round"
    enc = step(step(enc, kind="move", actor="Borin", path="E"), kind="act", actor="Grak", action="delay", options={"2": ""}, gm=True)
    assert (enc.get("Grak").initiative, enc.current) == (-1, "Borin")
    assert step(enc, kind="next", actor="Borin").current == "Thrain"


@pytest.mark.parametrize("mode", ["start", "round"])
def test_delay_is_refused_once_the_delayers_turn_has_begun(mode: str) -> None:
    """"At the start of a Round, Players may elect to reduce their Initiative" (knights-of-valour.txt); with
    `delay=round` "until its own turn has begun": once the bot has announced Thrain's turn (after the start of the
    round) a delay is refused, saying when one can be declared; the first to act may still delay at the start.
    The reply names no option that would allow it: `delay=round` refuses it as well."""
    enc = three_way()
    enc.settings.options["delay"] = mode
    enc = step(enc, kind="act", actor="Borin", action="delay", options={"to": "-5"})
    assert enc.current == "Grak"
    enc = step(enc, kind="next", actor="Grak", gm=True)
    assert enc.current == "Thrain"
    with pytest.raises(IllegalAction) as refusal:
        run(enc, kind="act", actor="Thrain", action="delay", options={"1": ""})
    assert str(refusal.value) == (
        "Thrain's turn has already begun: initiative is lowered before one's own turn is announced (the first to "
        "act in a round may still lower it at the start of the round, before doing anything). End this turn with "
        "`/init next`."
    )  # no hint of `delay=round` under `delay=start`: it refuses a delay once the turn has begun too


def test_init_roll_for_a_delayed_combatant_clears_its_delay() -> None:
    """`/init roll combatant:X` gives X its Agility back and ends its delay (no longer shown as delayed)."""
    enc = step(three_way(), kind="act", actor="Borin", action="delay", options={"to": "0"})
    assert enc.get("Borin").state.delayed
    enc = step(enc, kind="init_roll", actor="Borin", gm=True)
    borin = enc.get("Borin")
    assert (borin.initiative, borin.state.delayed) == (2, False)
    assert "(delayed)" not in SYSTEM.present.status_line(enc, borin, SYSTEM.facts(enc))


def test_autocomplete_offers_delay_only_when_it_is_allowed() -> None:
    """The actions offered now follow the delay rule: a player at the start of the round, not a monster, not later."""
    enc = three_way()
    assert "delay" in SYSTEM.actions_for(enc, enc.get("Thrain"))
    assert "delay" not in SYSTEM.actions_for(enc, enc.get("Grak"))
    moved = step(enc, kind="move", actor="Borin", path="E")
    assert "delay" not in SYSTEM.actions_for(moved, moved.get("Thrain"))
    assert "wield" in SYSTEM.actions_for(moved, moved.get("Borin")) and "shove" not in SYSTEM.actions_for(moved, moved.get("Thrain"))


def test_the_turn_of_a_downed_combatant_passes_for_its_effects() -> None:
    """"Down and out: at 0 HP or less a combatant is downed and skipped in the order"
    (docs/systems/knights-of-valour.md), and "effects count down as turns pass" (docs/commands.md):
    the skipped turn passes all the same, so an effect timed by it ends, and it is not taken later
    in the round if the downed combatant is healed."""
    s = Scenario("knights-of-valour", map="12x10")
    s.add("Borin", KNIGHT, side="dwarves", at="C4").add("Mira", "agi=0 hp=6 weapons=dagger:1", side="dwarves", at="C6")
    s.add("Grak", ORC, side="orcs", at="J4", owner=None)
    s.run("init_roll")
    assert s.enc.order == ["Borin", "Mira", "Grak"] and s.enc.current == "Borin"
    s.run("edit", actor="Mira", hp_change=-6)
    assert s.get("Mira").status == "downed"
    s.run("effect_add", actor="Mira", effect="Bless", rounds=1, ends="end of Mira's turn")
    s.run("next", actor="Borin")  # Mira's turn passes over her: Grak's turn, her effect ended
    assert s.enc.current == "Grak" and [e.name for e in s.enc.effects] == []
    s.run("edit", actor="Mira", hp_change=3)  # healed during Grak's turn: her turn this round has passed
    assert s.get("Mira").status == "active"
    s.run("next", actor="Grak")
    assert (s.enc.round, s.enc.current) == (2, "Borin")


def test_a_combatant_downed_in_its_own_turn_is_told_its_turn_ends() -> None:
    """A combatant downed during its own turn ("skipped in the order") ends it: the reply says so
    before the next combatant's turn, as `/init next` does."""
    s = Scenario("knights-of-valour", map="12x10")
    s.add("Borin", KNIGHT, side="dwarves", at="C4").add("Mira", "agi=0 hp=6 weapons=dagger:1", side="dwarves", at="C6")
    s.add("Grak", ORC, side="orcs", at="J4", owner=None)
    s.run("init_roll")
    res = s.run("edit", actor="Borin", hp_change=-12)
    assert s.get("Borin").status == "downed" and s.enc.current == "Mira"
    assert [e.kind for e in res.events if e.kind in ("turn_end", "turn")] == ["turn_end", "turn"]
    assert "**Borin** ends the turn" in s.text(res)


def test_a_turn_the_gm_passes_passes_for_its_effects() -> None:
    """A downed combatant's turn "passes all the same: the effects timed by it count down"
    (docs/systems/knights-of-valour.md); so does a turn the GM passes unplayed (`/init next combatant:Bren`
    while Borin acts): "end of Bren's turn" and "start of Bren's turn" end, told after the pass."""
    s = Scenario("knights-of-valour", map="12x10")
    s.add("Borin", KNIGHT, side="dwarves", at="C4").add("Bren", "agi=0 hp=6 weapons=dagger:1", side="dwarves", at="C6")
    s.add("Grak", ORC, side="orcs", at="J4", owner=None)
    s.run("init_roll")
    s.run("effect_add", actor="Bren", effect="Bless", rounds=1, ends="end of Bren's turn")
    s.run("effect_add", actor="Grak", effect="Mark", rounds=1, ends="start of Bren's turn")
    passed = s.run("next", actor="Bren")
    assert s.text(passed) == [
        "**Bren** is passed by the GM: it loses its coming turn this round",
        "Effect **Bless** on **Bren** ends",
        "Effect **Mark** on **Grak** ends",
    ]
    assert s.enc.current == "Borin" and s.enc.effects == []


def test_a_delayed_turn_counts_once_for_the_effects_timed_by_it() -> None:
    """"At the start of a Round, Players may elect to reduce their Initiative" (knights-of-valour.txt): a delay moves
    the turn, it takes no second one. Alda, whose turn was announced as round 1 began, delays after Grak: her turn
    starts and ends once in round 1, when she plays it, so Ward ("start of Alda's turn") and Hex ("end of Alda's
    turn"), two turns each, still run in round 2 and end with her turn there (by the deadline's hold too)."""
    s = Scenario("knights-of-valour", map="8x6")
    s.add("Alda", "hp=9 agi=3 weapons=longsword:1", side="heroes", at="B2")
    s.add("Grak", "hp=6 agi=-2 weapons=longsword:1", side="foes", at="G3", owner=None)
    s.run("effect_add", actor="Grak", effect="Hex", rounds=2, ends="end of Alda's turn")
    s.run("effect_add", actor="Grak", effect="Ward", rounds=2, ends="start of Alda's turn")
    s.run("init_roll")
    hold = SYSTEM.hold_action(s.enc, "Alda")
    assert hold is not None
    delayed = s.run(hold.kind, **hold.model_dump(exclude={"kind", "is_gm"}))
    assert "Effect **Hex** on **Grak** ends" not in s.text(delayed) and s.enc.current == "Grak"
    s.run("next", actor="Grak")
    s.run("next", actor="Alda")
    assert (s.enc.round, s.enc.current) == (2, "Alda")
    assert [(e.name, e.left) for e in s.enc.effects] == [("Hex", 1)]
    s.run("next", actor="Alda")
    assert s.enc.effects == []


def test_a_delay_refusal_names_delay_round_only_where_it_would_allow_the_delay() -> None:
    """"option `delay=round`: any combatant, until its own turn has begun" (docs/systems/knights-of-valour.md): Grak,
    a monster whose turn is over, is told it has acted, not that `delay=round` would let it delay (it would not);
    Thrain, still to act after Borin moved, is told `delay=round` would."""
    enc = step(step(three_way(), kind="move", actor="Borin", path="E"), kind="next", actor="Borin")
    enc = step(enc, kind="next", actor="Grak", gm=True)
    with pytest.raises(IllegalAction) as refusal:
        run(enc, kind="act", actor="Grak", action="delay", options={"1": ""}, gm=True)
    assert str(refusal.value) == "Grak has already acted this round: initiative can be lowered before its turn."
    moved = step(three_way(), kind="move", actor="Borin", path="E")
    with pytest.raises(IllegalAction, match="allows it later with the option `delay=round`"):
        run(moved, kind="act", actor="Thrain", action="delay", options={"1": ""})


def granted(walked: str) -> Scenario:
    """M (30 ft a Move Action) has walked ``walked`` and is granted an extra Move Action."""
    s = Scenario("knights-of-valour", map="20x10")
    s.add("M", "hp=40 agi=3 weapons=longsword:1", side="a", at="B5")
    s.add("E1", "hp=20 weapons=longsword:1", side="b", at="T10", owner=None)
    s.run("init_roll")
    s.run("move", actor="M", path=walked)
    s.run("act", actor="M", action="grant", options={"move": ""})
    return s


def test_a_move_past_what_is_left_of_a_move_action_goes_on_into_the_next() -> None:
    """"A Move Action can consist of one or more sub-actions that the player can string together. Each sub-action
    uses a portion of the characters Movement", and "If an Item, Buff or Spell grants a Player an Extra Move Action
    or Combat Action, this can be used in any order": M (30 ft a Move Action) walks 20 ft, is granted an extra Move
    Action, and walks 25 ft: the 10 ft left of the first and 15 of the second (15 ft left), however the path is cut
    (its 10 ft were lost without a word); after 10 ft and the grant, a path past both is refused, naming the 50 ft
    left."""
    s = granted("E E E E")
    res = s.run("move", actor="M", path="E E E E E")
    st = s.get("M").state
    assert (s.get("M").position, st.feet_left, st.move_actions) == ("K5", 15, 0)
    assert "M: Move Action (15 ft) and Combat Action left" in s.text(res)
    assert "has 50 ft of movement left" in granted("E E").refused("move", actor="M", path=" ".join(["E"] * 11))


def test_with_granted_actions_all_used_the_reply_and_board_say_so() -> None:
    """"every reply and the status board say which are left" (docs/systems/knights-of-valour.md): M, granted an extra
    Move Action and an extra Combat Action, uses all four; the reply and the board say all actions are used, not
    "both", and M's next turn, with no grant, says "both" again."""
    s = Scenario("knights-of-valour", map="20x10", auto_end="no")
    s.add("M", "hp=40 agi=3 weapons=longsword:1", side="a", at="B5")
    s.add("E1", "hp=20 weapons=longsword:1", side="b", at="T10", owner=None)
    s.run("init_roll")
    s.run("act", actor="M", action="grant", options={"move": "", "combat": ""})
    s.run("move", actor="M", path=" ".join(["E"] * 12))
    s.run("act", actor="M", action="search")
    res = s.run("act", actor="M", action="search")
    assert "M: all actions used" in s.text(res) and not any("both" in line for line in s.text(res))
    board = board_report(SYSTEM, s.enc).text()
    assert "M to act: all actions used, `/init next` ends the turn" in board and "both" not in board
    s.run("next", actor="M")
    s.run("next", actor="E1")
    s.run("move", actor="M", path="E")
    res = s.run("act", actor="M", action="search")
    assert "M: both actions used" in "\n".join(s.text(res))


def test_a_fall_in_ones_own_turn_that_decides_the_fight_begins_no_next_turn() -> None:
    """"A side with everyone downed or out is beaten" (docs/systems/knights-of-valour.md) and "When one side alone has
    combatants able to act ... the bot announces the result once" (docs/commands.md): X, the last of side b able to
    act, downed by the GM in its own turn, ends it, and the win is announced with no "Round 2 begins" or "to act"
    before it; the fight stays in round 1."""
    s = Scenario("knights-of-valour", map="20x10")
    s.add("A", "hp=20 agi=2 weapons=longsword:1", side="a", at="B1")
    s.add("Z", "hp=0 max_hp=20 weapons=club:1", side="b", at="C1")
    s.add("X", "hp=10 max_hp=20 weapons=club:1", side="b", at="C2")
    s.run("init_roll")
    s.run("next", actor="A")
    assert s.enc.current == "X"
    res = s.run("edit", actor="X", hp_change=-10)
    lines = s.text(res)
    assert s.enc.winner == "a" and s.enc.round == 1
    assert lines[-2:] == ["**X** ends the turn", "🏆 **a** win: no other side has anyone able to act. The fight is "
                          "decided; `/coupdegrace` may still finish Z, X"]


def test_with_both_actions_used_a_move_is_refused_naming_only_the_end_of_the_turn() -> None:
    """"On a Turn a creature can take one Move Action and one Combat Action": with both used, a further move is
    refused saying to end the turn, not to "use the Combat Action" already used; with the Combat Action left, it
    says that too (option `auto_end=no`: the turn waits for `/init next`)."""
    s = Scenario("knights-of-valour", map="20x10", auto_end="no")
    s.add("A", "hp=40 agi=3 weapons=shortbow:1", side="a", at="B5")
    s.add("G", "hp=20 weapons=club:1", side="b", at="T5", owner=None)
    s.run("init_roll")
    s.run("move", actor="A", path="E E E E E E")
    assert s.refused("move", actor="A", path="E").endswith("use the Combat Action or end the turn with `/init next`.")
    s.run("attack", [1], actor="A", target="G")
    assert s.refused("move", actor="A", path="E") == "A has no movement left this turn: end the turn with `/init next`."


def test_the_help_says_an_attack_of_opportunity_comes_from_moving_more_than_5_ft_away() -> None:
    """"If you re engaged in Combat, and use a Move Action that takes you more than 5" away from an adjacent enemy,
    then you suffer an immediate Attack Of Opportunity": `/help`'s line says so (it said leaving a square next to an
    enemy provokes, which a step to another square beside it does not)."""
    s = Scenario("knights-of-valour")
    assert any("to more than 5 ft from it provokes an Attack of Opportunity" in line for line in s.system.rules_summary)
