"""Coup-De-Grace rounds: initiative by side size, alternating activation, the GM's order of sides."""

from __future__ import annotations

import pytest

from rules.errors import NotYourTurn, RulesError
from rules.models import Encounter
from tests.rules.coup_de_grace.build import (
    SWORD,
    SYSTEM,
    Mini,
    encounter,
    events_of,
    fight,
    refused,
    resolve,
    run,
    text,
)
from tests.rules.on_deck import on_deck_checked


# -- initiative and activation ----------------------------------------------------------------------------------------
def test_init_roll_gives_the_first_activation_to_the_side_with_most_minis() -> None:
    """The larger side activates first; the order alternates sides; there are no initiative numbers."""
    enc = fight(
        ("Borin", "dwarves", SWORD, "B2", "E"),
        ("Grak", "orcs", SWORD, "H2", "W"),
        ("Snaga", "orcs", SWORD, "H4", "W"),
        first=None,
    )
    turn = SYSTEM.turn(enc)
    assert (enc.round, turn.side, turn.actors, enc.current) == (1, "orcs", ("Grak", "Snaga"), None)
    assert enc.order == ["Grak", "Borin", "Snaga"]
    assert all(c.initiative is None for c in enc.combatants)


def test_undeployed_minis_count_for_initiative_but_do_not_activate() -> None:
    """Minis not yet on the board count for the initiative; only deployed ones activate."""
    enc = fight(
        ("Grak", "orcs", SWORD, "H2", "W"),
        ("Snaga", "orcs", SWORD, "H4", "W"),
        ("Borin", "dwarves", SWORD, "B2", "E"),
        ("Dwalin", "dwarves", SWORD, None, None),
        ("Balin", "dwarves", SWORD, None, None),
        first=None,
    )
    assert SYSTEM.turn(enc).actors == ("Borin",)
    assert "not on the board" in refused(enc, "next", actor="Dwalin")


@pytest.mark.parametrize(("dice", "first"), [((2, 5), "orcs"), ((6, 1), "dwarves"), ((3, 3, 1, 4), "orcs")])
def test_a_tie_is_rolled_off_with_a_d6_per_side(dice: tuple[int, ...], first: str) -> None:
    """Tied sides each roll a d6, highest first, re-rolling ties (the default)."""
    enc = encounter(("Borin", "dwarves", SWORD, "B2", "E"), ("Grak", "orcs", SWORD, "H2", "W"))
    res = resolve(enc, "init_roll", dice)
    assert SYSTEM.turn(res.encounter).side == first
    assert [e.roll.dice[0] for e in events_of(res, "check")] == list(dice)


def test_a_tie_can_go_to_the_side_that_joined_first() -> None:
    """`tie=join` gives a tie to the side that joined first, without dice; other values are refused."""
    enc = encounter(("Borin", "dwarves", SWORD, "B2", "E"), ("Grak", "orcs", SWORD, "H2", "W"), tie="join")
    assert SYSTEM.turn(run(enc, "init_roll")).side == "dwarves"
    enc.settings.options["tie"] = "coin"
    assert "`tie=coin` is not accepted" in refused(enc, "init_roll")


#: 3 dwarves (two of them on 1 HP) against 2 orcs
UNEVEN: tuple[Mini, ...] = (
    ("Borin", "dwarves", "class=heavy weapons=hammer", "B2", "E"),
    ("Thrain", "dwarves", "class=light weapons=axe hp=1", "C6", "E"),
    ("Dwalin", "dwarves", "class=unarmoured weapons=axe hp=1", "C8", "E"),
    ("Snaga", "orcs", "class=light weapons=axe", "D6", "W"),
    ("Grak", "orcs", "class=light weapons=axe", "D8", "W"),
)


def test_initiative_over_two_rounds_with_uneven_sides() -> None:
    """3 dwarves v 2 orcs: sides alternate, orcs pass; round 2 is worked out afresh (downed count, out do not)."""
    enc = fight(
        *UNEVEN,
        first=None,
        tie="roll",
    )
    turn = SYSTEM.turn(enc)
    assert (turn.side, turn.actors) == ("dwarves", ("Borin", "Thrain", "Dwalin"))
    assert enc.order == ["Borin", "Snaga", "Thrain", "Grak", "Dwalin"]
    keys = [turn.key]
    enc = run(enc, "next", actor="Borin")  # activates Borin and does nothing
    keys.append(SYSTEM.turn(enc).key)
    assert SYSTEM.turn(enc).actors == ("Snaga", "Grak")
    enc = run(enc, "attack", [6], actor="Grak", target="Dwalin")  # axe natural 6: 2 damage, out
    assert SYSTEM.turn(enc).key == keys[-1] and SYSTEM.turn(enc).actors == ("Grak",)
    enc = run(enc, "next")
    keys.append(SYSTEM.turn(enc).key)
    assert SYSTEM.turn(enc).actors == ("Thrain",)
    enc = run(enc, "next", actor="Thrain")
    keys.append(SYSTEM.turn(enc).key)
    res = resolve(run(enc, "attack", [4], actor="Snaga", target="Thrain"), "next", [2, 5])
    assert res.encounter.get("Thrain").status == "downed"
    notes = text(res)
    assert "dwarves have no minis left to activate and pass" in notes and "round 1 is over" in notes
    enc = res.encounter
    turn = SYSTEM.turn(enc)
    keys.append(turn.key)
    # round 2: dwarves 2 (Thrain downed counts, Dwalin out does not) v orcs 2: rolled off 2 v 5
    assert (enc.round, turn.side, turn.actors) == (2, "orcs", ("Snaga", "Grak"))
    assert enc.order == ["Snaga", "Borin", "Grak", "Thrain"]
    assert len(set(keys)) == len(keys)
    assert not any(c.state.done for c in enc.combatants if c.in_fight)


def test_the_turn_key_changes_only_when_priority_passes() -> None:
    """Activating a mini keeps the key (no new ping); ending the activation changes it."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "H3", "W"))
    before = SYSTEM.turn(enc)
    enc = run(enc, "move", actor="A", path="E")
    during = SYSTEM.turn(enc)
    ended = run(enc, "next")
    after = SYSTEM.turn(ended)
    assert before.key == during.key != after.key
    assert (during.actors, SYSTEM.present.turn_label(enc, SYSTEM.facts(enc))) == (("A",), "Round 1 · A (a) activating: 5/6 MP left")
    assert (after.actors, SYSTEM.present.turn_label(ended, SYSTEM.facts(ended))) == (("T",), "Round 1 · b to activate: T")


@pytest.mark.parametrize(
    ("steps", "kind", "fields", "message", "error"),
    [
        (
            [],
            "move",
            {"actor": "T", "path": "W"},
            "Priority is with a, who activate one of A, B; T waits",
            NotYourTurn,
        ),
        (
            [("move", {"actor": "A", "path": "E"})],
            "move",
            {"actor": "B", "path": "E"},
            "A is activating now: its activation ends with `/init next`",
            NotYourTurn,
        ),
        (
            [("next", {"actor": "A"}), ("next", {"actor": "T"})],
            "move",
            {"actor": "A", "path": "E"},
            "A has already activated in round 1",
            NotYourTurn,
        ),
        ([], "next", {}, "a must activate a mini before priority passes", NotYourTurn),
    ],
)
def test_activation_order_is_enforced(
    steps: list[tuple[str, dict[str, str]]],
    kind: str,
    fields: dict[str, str],
    message: str,
    error: type[RulesError],
) -> None:
    """Only the side with priority acts, one mini at a time, once a round; a side cannot pass."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("B", "a", SWORD, "C5", "E"), ("T", "b", SWORD, "H3", "W"))
    for step_kind, step_fields in steps:
        enc = run(enc, step_kind, **step_fields)
    assert message in refused(enc, kind, error=error, **fields)


@pytest.mark.parametrize(
    ("setup", "fields", "message"),
    [
        (False, {}, "Combat has not started"),
        (True, {}, "The fight is under way (round 1)"),
        (True, {"actor": "A"}, "no initiative for a single mini"),
    ],
)
def test_init_roll_is_refused_when_it_cannot_start_the_fight(
    setup: bool, fields: dict[str, str], message: str
) -> None:
    """`/init roll` starts the fight once, for every side."""
    enc = (
        fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "H3", "W"))
        if setup
        else encounter(("A", "a", SWORD, "C3", "E"))
    )
    kind = "init_roll" if setup else "next"
    assert message in refused(enc, kind, **fields)
    if not setup:
        assert "needs minis on at least two sides" in refused(enc, "init_roll")


def test_a_side_with_one_mini_left_to_activate_is_named_so() -> None:
    """"Each player activates one mini at a time ... After a mini is activated, priority then passes to another
    player": a mini of the other side is told who has priority; where that side has one mini left, it is named as the
    one to activate, not as "one of" a list."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "H3", "W"), first="a")
    assert "Priority is with a, whose A activates next; T waits until priority passes to b." in refused(
        enc, "move", error=NotYourTurn, actor="T", path="W")


def test_there_are_no_initiative_numbers_to_set() -> None:
    """`/init set` explains how the order is decided."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "H3", "W"))
    assert "no initiative numbers" in refused(enc, "init_set", actor="A", value=5)


def test_the_gm_sets_the_order_of_sides_before_the_first_activation() -> None:
    """`/init order` takes side or mini names, only before anyone has activated this round."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "H3", "W"), first=None)
    assert SYSTEM.turn(run(enc, "init_order", order="T")).side == "b"
    assert "neither a side nor a mini" in refused(enc, "init_order", order="elves")
    moved = run(enc, "move", actor="A", path="E")
    assert "before the round's first activation" in refused(moved, "init_order", order="b")


def test_removing_the_activating_mini_passes_priority() -> None:
    """When the GM removes the mini that is activating, the other side gets priority."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("B", "a", SWORD, "C5", "E"), ("T", "b", SWORD, "H3", "W"))
    enc = run(run(enc, "move", actor="A", path="E"), "remove", actor="A")
    assert (enc.current, SYSTEM.turn(enc).actors) == (None, ("T",))


@pytest.mark.parametrize("edit", [{"hp_change": -5}, {"raw_sheet": {"hp": "1"}, "deltas": {}}])
def test_the_activating_mini_put_out_of_action_by_the_gm_passes_priority_as_its_removal_does(edit: dict[str, object]) -> None:
    """"If a mini is reduced to -1HP or less it is considered to be out of action. Remove the mini from the board, and it
    takes no further part in the battle": A, activating, put out by the GM's `/combatant hp` (or a lower sheet `hp`
    after a wound), leaves the board as a removed mini does: its activation ends and the other side activates next."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("B", "a", SWORD, "C5", "E"), ("T", "b", SWORD, "H3", "W"))
    enc = run(enc, "move", actor="A", path="E")
    if "raw_sheet" in edit:
        enc.get("A").hp = 1  # wounded twice: a sheet of hp=1 (from 3) takes it to -1
    res = resolve(enc, "edit", actor="A", is_gm=True, **edit)
    out = res.encounter
    assert out.get("A").status == "out"
    assert (out.current, SYSTEM.turn(out).actors) == (None, ("T",))
    assert "A's activation ends" in text(res)
    removed = run(enc, "remove", actor="A")
    assert SYSTEM.turn(removed).actors == SYSTEM.turn(out).actors


@pytest.mark.parametrize("edit", [{"hp_change": -5}, {"raw_sheet": {"hp": "1"}, "deltas": {}}])
def test_the_last_mini_of_the_side_with_priority_put_out_by_the_gm_passes_priority(edit: dict[str, object]) -> None:
    """"A player who has run out of minis to activate cannot act, and must pass to the next player. Once all minis
    have been activated, the round is over": A activated, then T; B, side a's last mini to activate, put out of action
    by the GM (`/combatant hp`, or a lower sheet `hp` after a wound) while nobody activates leaves side a nothing to
    activate, so priority passes to side b (U still to activate), as B's removal passes it; the round is not over."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("B", "a", SWORD, "C5", "E"), ("T", "b", SWORD, "H3", "W"),
                ("U", "b", SWORD, "H8", "W"), first="a")
    enc = run(enc, "next", actor="A", is_gm=True)
    enc = run(enc, "next", actor="T", is_gm=True)
    assert SYSTEM.turn(enc).actors == ("B",)
    if "raw_sheet" in edit:
        enc.get("B").hp = 1  # wounded twice: a sheet of hp=1 (from 3) takes it to -1
    res = resolve(enc, "edit", actor="B", is_gm=True, **edit)
    out = res.encounter
    assert out.get("B").status == "out"
    assert (out.round, SYSTEM.turn(out).actors) == (1, ("U",))
    assert "**b** to activate a mini: U" in text(res)
    removed = run(enc, "remove", actor="B")
    assert SYSTEM.turn(removed).actors == SYSTEM.turn(out).actors


@pytest.mark.parametrize("place", [{"at": "E6"}, {"facing": "N"}])
def test_a_mini_out_of_action_is_not_placed_or_turned_again_in_the_fight(place: dict[str, str]) -> None:
    """"If a mini is reduced to -1HP or less it is considered to be out of action. Remove the mini from the board, and it
    takes no further part in the battle": the GM's edit placing or turning A once it is out is refused, and nothing
    changes (it was taken, and listed A on a square another mini could then stand on)."""
    enc = fight(("A", "a", SWORD, "E5", "E"), ("B", "a", SWORD, "A1", "E"), ("T", "b", SWORD, "F5", "W"), first="b")
    enc = run(enc, "edit", actor="A", hp_change=-4, is_gm=True)
    assert enc.get("A").status == "out"
    assert "takes no further part in the battle" in refused(enc, "edit", actor="A", is_gm=True, **place)
    assert run(enc, "edit", actor="B", at="B1", is_gm=True).get("B").position == "B1"  # a mini still in it may be


def test_an_edit_of_hp_mid_fight_shifts_current_hp() -> None:
    """Raising or lowering the sheet's hp moves current HP by the same amount, with the status it means."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "D3", "W"))
    enc = run(enc, "attack", [6], actor="A", target="T")
    res = resolve(enc, "edit", actor="T", raw_sheet={"hp": "1"})
    assert (res.encounter.get("T").hp, res.encounter.get("T").status) == (0, "downed")




def _played(tie: str) -> list[tuple[int, str | None, tuple[str, ...], tuple[str, ...]]]:
    """The fight above played out under ``tie``: at each step the round, the side with priority, who
    may act and who is on deck (`on_deck`, checked against ending the turn for real)."""
    enc = fight(
        *UNEVEN,
        first=None,
        tie=tie,
    )
    steps: list[tuple[str, list[int], dict[str, str]]] = [
        ("next", [], {"actor": "Borin"}),
        ("attack", [6], {"actor": "Grak", "target": "Dwalin"}),  # Dwalin out
        ("next", [], {}),
        ("next", [], {"actor": "Thrain"}),
        ("attack", [4], {"actor": "Snaga", "target": "Thrain"}),  # Thrain downed
        ("next", [2, 5] if tie == "roll" else [], {}),
    ]
    seen = [(enc.round, SYSTEM.turn(enc).side, SYSTEM.turn(enc).actors, on_deck_checked(SYSTEM, enc))]
    for kind, dice, fields in steps:
        enc = run(enc, kind, dice, **fields)
        seen.append((enc.round, SYSTEM.turn(enc).side, SYSTEM.turn(enc).actors, on_deck_checked(SYSTEM, enc)))
    first = SYSTEM.turn(enc).actors[0]
    enc = run(enc, "move", actor=first, path="N")  # its activation begins
    seen.append((enc.round, SYSTEM.turn(enc).side, SYSTEM.turn(enc).actors, on_deck_checked(SYSTEM, enc)))
    return seen


def test_on_deck_read_from_the_state_names_whom_the_activations_end_names() -> None:
    """Over a played fight, `on_deck` (no activation resolved) names whom `/init next` does: "sides then
    take turns activating", the side passing with none left, the out mini never named, and the next round's
    first side (`tie=join`: no roll); with `tie=roll` nobody is named where the round's roll-off decides."""
    joined = _played("join")
    assert joined == [
        (1, "dwarves", ("Borin", "Thrain", "Dwalin"), ("Snaga", "Grak")),
        (1, "orcs", ("Snaga", "Grak"), ("Thrain", "Dwalin")),
        (1, "orcs", ("Grak",), ("Thrain",)),
        (1, "dwarves", ("Thrain",), ("Snaga",)),
        (1, "orcs", ("Snaga",), ("Borin", "Thrain")),
        (1, "orcs", ("Snaga",), ("Borin", "Thrain")),
        (2, "dwarves", ("Borin", "Thrain"), ("Snaga", "Grak")),
        (2, "dwarves", ("Borin",), ("Snaga", "Grak")),
    ]
    rolled = _played("roll")
    assert rolled[5][3] == () and rolled[6][:3] == (2, "orcs", ("Snaga", "Grak"))


def _marked(enc: Encounter, *names: str) -> Encounter:
    """``enc`` with two effects on each of ``names``: one until the start of its turn, one until its end."""
    for name in names:
        enc = run(enc, "effect_add", actor=name, effect=f"Start{name}", rounds=1, ends=f"start of {name}'s turn", is_gm=True)
        enc = run(enc, "effect_add", actor=name, effect=f"End{name}", rounds=1, ends=f"end of {name}'s turn", is_gm=True)
    return enc


def test_a_deadline_pass_of_a_side_activates_each_mini_as_its_own_init_next_does() -> None:
    """"At the deadline the policy applies: `pass` ends the turn as if its owner had used `/init next` (in
    Coup-De-Grace, [...] each of them passes its activation this round" (docs/commands.md): each mini activates
    and its activation ends, as `/init next combatant:` does, and the effects timed by its turn end in its lines."""
    enc = _marked(fight(("Borin", "a", SWORD, "B3", "E"), ("Thrain", "a", SWORD, "B5", "E"), ("Grak", "b", SWORD, "F3", "W")),
                  "Borin", "Thrain")
    res = resolve(enc, "next", actor="Borin", is_gm=True, whole_turn=True)
    assert text(res).splitlines() == [
        "Borin activates with 6 MP",
        "Effect **StartBorin** on **Borin** ends",
        "Borin's activation ends (6 MP unused).",
        "Effect **EndBorin** on **Borin** ends",
        "Thrain activates with 6 MP",
        "Effect **StartThrain** on **Thrain** ends",
        "Thrain's activation ends (6 MP unused).",
        "Effect **EndThrain** on **Thrain** ends",
        "**b** to activate a mini: Grak",
    ]
    assert res.encounter.effects == []
    single = resolve(enc, "next", actor="Thrain", is_gm=True)
    assert text(single).splitlines()[:4] == text(res).splitlines()[4:8]


def test_a_mini_the_gm_passes_passes_its_turn_for_its_effects() -> None:
    """"Effects count down as turns pass" (docs/commands.md), a turn passed unplayed too: the GM's
    `/init next combatant:Snaga` while Grak activates ("**Snaga** is passed by the GM: it loses its coming
    turn") ends Snaga's effects timed by the start and the end of its turn, told after the pass."""
    enc = _marked(fight(("Borin", "a", SWORD, "B3", "E"), ("Grak", "b", SWORD, "F3", "W"), ("Snaga", "b", SWORD, "F5", "W"),
                        first="b"), "Snaga")
    enc = run(enc, "move", actor="Grak", path="W")
    res = resolve(enc, "next", actor="Snaga", is_gm=True)
    assert text(res).splitlines() == [
        "**Snaga** is passed by the GM: it loses its coming turn this round",
        "Effect **StartSnaga** on **Snaga** ends",
        "Effect **EndSnaga** on **Snaga** ends",
    ]
    assert res.encounter.current == "Grak" and res.encounter.effects == []


@pytest.mark.parametrize("whole_turn", [True, False])
def test_a_downed_minis_activation_passed_unplayed_names_no_action_to_take(whole_turn: bool) -> None:
    """"On its activation it takes ONE action" (docs/systems/coup-de-grace.md): the reply offers that action when a
    downed mini's activation begins to be played, not when it passes unplayed at once (a deadline's pass, or the GM's
    `/init next combatant:Grak`): "Grak activates while downed", then its activation ends."""
    enc = fight(("Borin", "a", SWORD, "B3", "E"), ("Grak", "b", SWORD, "F3", "W"), first="b")
    enc = run(enc, "edit", actor="Grak", hp_change=-3, is_gm=True)
    assert enc.get("Grak").status == "downed"
    res = resolve(enc, "next", actor="Grak", is_gm=True, whole_turn=whole_turn)
    assert text(res).splitlines()[:2] == ["Grak activates while downed", "Grak's activation ends."]
    played = resolve(enc, "move", actor="Grak", path="E")
    assert text(played).splitlines()[0].startswith("Grak activates while downed: ONE action (crawl one square")
