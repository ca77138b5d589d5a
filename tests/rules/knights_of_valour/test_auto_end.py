"""A turn with nothing left to do ends by itself (`RuleSystem.turn_done`, option `auto_end`), and
who is on deck (`RuleSystem.on_deck`)."""
from __future__ import annotations

import pytest

from rules.events import TurnDone
from rules.registry import get_system
from tests.rules.knights_of_valour.build import (
    SYSTEM,
    add,
    duel,
    of,
    run,
    step,
    text,
    three_way,
)
from tests.rules.on_deck import on_deck_checked


def test_move_then_attack_ends_the_turn_by_itself() -> None:
    """Both actions spent: the attack also ends Borin's turn, and Grak's begins."""
    enc = step(duel("C4", "E4"), kind="move", actor="Borin", to="D4")
    res = run(enc, [1], kind="attack", actor="Borin", target="Grak")
    assert res.encounter.current == "Grak"
    done = [e for e in res.events if isinstance(e, TurnDone)]
    assert [e.actor for e in done] == ["Borin"]
    assert "nothing left to do" in text(done[0])
    assert of(res.events, "turn")[-1].actor == "Grak"


def test_attack_then_full_move_ends_the_turn_by_itself() -> None:
    """The Move Action spent to its last foot after the Combat Action ends the turn too."""
    enc = duel("C4", "D4")
    enc.settings.options["aoo"] = "no"
    enc = step(enc, [1], kind="attack", actor="Borin", target="Grak")
    assert enc.current == "Borin"
    enc = step(enc, kind="move", actor="Borin", path="S S S S S S")
    assert enc.current == "Grak"


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "move", "actor": "Borin", "to": "D4"},  # the Combat Action is left
        {"kind": "attack", "actor": "Borin", "target": "Grak"},  # the Move Action is left
    ],
)
def test_a_turn_with_something_left_goes_on(fields: dict) -> None:
    """One action spent: the turn is still Borin's."""
    enc = duel("C4", "E4" if fields["kind"] == "move" else "D4")
    assert step(enc, [1] if fields["kind"] == "attack" else [], **fields).current == "Borin"


def test_split_move_leaves_feet_to_walk() -> None:
    """With `split_move=yes`, feet left of a Move Action under way keep the turn open."""
    enc = duel("C4", "E4")
    enc.settings.options["split_move"] = "yes"
    enc = step(step(enc, kind="move", actor="Borin", to="D4"), [1], kind="attack", actor="Borin", target="Grak")
    assert enc.current == "Borin"


def test_auto_end_no_waits_for_init_next() -> None:
    """`auto_end=no`: the spent turn waits for `/init next`."""
    enc = duel("C4", "E4")
    enc.settings.options["auto_end"] = "no"
    enc = step(step(enc, kind="move", actor="Borin", to="D4"), [1], kind="attack", actor="Borin", target="Grak")
    assert enc.current == "Borin"
    assert not SYSTEM.option_values(enc).auto_end


def test_other_systems_never_end_a_turn_by_themselves() -> None:
    """The hook's default is False, and systems without it do not declare `auto_end`."""
    for key in ("coup-de-grace", "tote"):
        system = get_system(key)
        assert "auto_end" not in system.options
    assert "auto_end" in SYSTEM.options


def test_on_deck_is_the_next_to_act() -> None:
    """Borin acts, Grak is next, then Thrain; after Thrain, the next round's Borin."""
    enc = three_way()
    assert enc.current == "Borin" and SYSTEM.on_deck(enc) == ("Grak",)
    enc = step(enc, kind="next", actor="Borin")
    assert SYSTEM.on_deck(enc) == ("Thrain",)
    enc = step(step(enc, kind="next", actor="Grak"), kind="next", actor="Thrain")
    assert enc.current == "Borin" and enc.round == 2


def test_on_deck_changes_nothing_and_is_empty_when_over() -> None:
    """Looking ahead leaves the encounter as it was; a won fight has nobody on deck."""
    enc = three_way()
    before = enc.model_dump_json()
    SYSTEM.on_deck(enc)
    assert enc.model_dump_json() == before
    enc.winner = "party"
    assert SYSTEM.on_deck(enc) == ()


def test_on_deck_read_from_the_state_names_whom_the_turns_end_names() -> None:
    """Over a played fight, `on_deck` (no turn resolved) names whom `/init next` does: "Initiative
    ... in descending order", a downed knight skipped, and the next round's first at a round's end."""
    enc = add(three_way(), "Ulf", "agi=-1 hp=9 weapons=club:1", "H3", "orcs", owner=None)
    enc = step(enc, kind="init_roll", actor="Ulf", gm=True)
    seen = [(enc.round, enc.current, on_deck_checked(SYSTEM, enc))]
    for actor in ("Borin", "Grak", "Ulf", "Borin", "Grak"):
        if actor == "Grak" and enc.round == 1:
            enc = step(enc, kind="edit", actor="Thrain", hp_change=-9, gm=True)  # Thrain is downed in Grak's turn
            seen.append((enc.round, enc.current, on_deck_checked(SYSTEM, enc)))
        enc = step(enc, kind="next", actor=actor, gm=True)
        seen.append((enc.round, enc.current, on_deck_checked(SYSTEM, enc)))
    assert seen == [
        (1, "Borin", ("Grak",)),
        (1, "Grak", ("Thrain",)),
        (1, "Grak", ("Ulf",)),
        (1, "Ulf", ("Borin",)),
        (2, "Borin", ("Grak",)),
        (2, "Grak", ("Ulf",)),
        (2, "Ulf", ("Borin",)),
    ]
