"""TOTE: the starting initiative and the initiative pool's order and turns."""

from __future__ import annotations

import pytest

from rules.errors import IllegalAction, InputError, NotYourTurn
from rules.events import EffectEnded
from rules.models import Encounter
from tests.rules.on_deck import on_deck_checked
from tests.rules.tote.build import (
    BORIN,
    GRAK,
    SYSTEM,
    THRAIN,
    act,
    fight,
    pass_round,
    resolve,
    setup,
    started,
    step,
    text,
    who,
)


# -- starting initiative -------------------------------------------------------------------------------
def test_hero_initiative_is_t8_plan_successes_plus_hawk() -> None:
    """Heroes: a T8 Plan test's successes + Hawk. Plan 2 rolls 6, 5 and Paragon 3: 2 successes + Hawk 2 = 4."""
    enc = setup(("Ann", "plan=2 hawk=2", "heroes", None), ("Grak", "rating=1", "foes", 0), first_round_gain="no")
    enc = step(enc, "init_roll", [6, 5, 3], is_gm=True)
    assert who(enc, "Ann").initiative == 4 and enc.round == 1 and enc.phase == "melee"


def test_enemy_initiative_is_t8_successes_plus_rating() -> None:
    """Enemies: a T8 test on Rating dice, successes + Rating: 1, 2, 4 and Paragon 4 is 1 success + critical + 3."""
    enc = setup(("Ann", "hawk=2", "heroes", 0), ("Grak", "rating=3", "foes", None), first_round_gain="no")
    res = resolve(enc, "init_roll", [1, 2, 4, 4], is_gm=True)
    assert who(res.encounter, "Grak").initiative == 5
    assert "Rating 3" in text(res) and "critical" in text(res)


def test_failed_initiative_test_gives_the_base_value() -> None:
    """A failed T8 test adds nothing: the hero starts at its Hawk totem."""
    enc = setup(("Ann", "plan=1 hawk=3", "heroes", None), ("Grak", "rating=1", "foes", 0), first_round_gain="no")
    assert who(step(enc, "init_roll", [1, 2], is_gm=True), "Ann").initiative == 3


def test_initiative_target_is_a_gm_option() -> None:
    """`init_target=10` makes the starting test a T10."""
    enc = setup(("Ann", "plan=1 hawk=0", "heroes", None), ("Grak", "rating=1", "foes", 0), init_target="10", first_round_gain="no")
    assert who(step(enc, "init_roll", [4, 5], is_gm=True), "Ann").initiative == 0


def test_init_roll_for_one_combatant_does_not_start_combat() -> None:
    """`/init roll combatant:X` rolls for that one only; the fight starts with the roll for everyone."""
    enc = setup(("Ann", "plan=1 hawk=1", "heroes", None), ("Grak", "rating=1", "foes", None), first_round_gain="no")
    enc = step(enc, "init_roll", [6, 2], actor="Ann", is_gm=True)
    assert who(enc, "Ann").initiative == 2 and not enc.started
    enc = step(enc, "init_roll", [1, 1], is_gm=True)  # only Grak is still unrolled
    assert enc.round == 1 and who(enc, "Grak").initiative == 1 and who(enc, "Ann").initiative == 2


def test_init_roll_for_everyone_twice_is_refused() -> None:
    """Once started, `/init roll` without a combatant is refused with what to do instead."""
    with pytest.raises(IllegalAction, match="combatant:NAME"):
        resolve(fight(), "init_roll", is_gm=True)


def test_init_roll_needs_two_sides() -> None:
    """A fight needs foes before it starts."""
    with pytest.raises(IllegalAction, match="two sides"):
        resolve(setup(BORIN), "init_roll", is_gm=True)


def test_init_set_sets_initiative_points() -> None:
    """`/init set` sets a combatant's initiative points, and the order is re-read."""
    enc = step(fight(), "init_set", actor="Thrain", value=9, is_gm=True)
    assert who(enc, "Thrain").initiative == 9 and enc.current == "Thrain" and enc.order[0] == "Thrain"


# -- order and ties ----------------------------------------------------------------------------------------
def test_highest_initiative_acts_first() -> None:
    """Actions resolve in initiative order, highest first: Borin 5, Grak 3, Thrain 2."""
    enc = fight()
    assert enc.order == ["Borin", "Grak", "Thrain"] and enc.current == "Borin"
    assert SYSTEM.turn(enc).actors == ("Borin",)


def test_heroes_win_ties_against_foes() -> None:
    """A hero and a foe on equal initiative: the hero acts first."""
    enc = fight(("Grak", "rating=5", "foes", 3), ("Ann", "hawk=1", "heroes", 3))
    assert enc.order == ["Ann", "Grak"]


def test_heroes_break_ties_by_hawk_then_by_the_gm() -> None:
    """Tied heroes go by Hawk; remaining ties follow the GM's `/init order`."""
    enc = fight(("Ann", "hawk=1", "heroes", 3), ("Bea", "hawk=3", "heroes", 3), ("Cid", "hawk=1", "heroes", 3), GRAK)
    assert enc.order[:3] == ["Bea", "Ann", "Cid"]
    enc = step(enc, "init_order", order="Cid, Ann", is_gm=True)
    assert enc.order[:3] == ["Bea", "Cid", "Ann"]


def test_the_gms_tie_order_of_hidden_foes_names_none_of_them_to_players() -> None:
    """"heroes win ties against foes": which foes the GM orders tells players their hidden initiatives are equal, so
    players read that the GM set the order without the names; names typed without commas are told to use them."""
    enc = fight(BORIN, ("Orc", "rating=1", "foes", 2), ("Gob", "rating=1", "foes", 2))
    res = resolve(enc, "init_order", order="Gob, Orc", is_gm=True)
    (ordered,) = [e for e in res.events if e.kind == "ties"]
    hidden = SYSTEM.present.view(enc, frozenset({"Orc", "Gob"}))
    public = hidden.readable(hidden.marked(ordered))
    assert "Gob" not in public and "Orc" not in public and "The GM sets the order ties break in" in public, public
    assert "Gob, Orc" in SYSTEM.present.view(enc, frozenset()).text(ordered)
    with pytest.raises(InputError, match="separate the names with commas: `Gob, Orc`"):
        resolve(enc, "init_order", order="Gob Orc", is_gm=True)


def test_acting_out_of_order_is_refused() -> None:
    """Only the combatant with the highest initiative still to act may act."""
    with pytest.raises(NotYourTurn, match="Borin's turn"):
        act(fight(), "Thrain", "defend")


def test_order_is_reread_after_intimidate() -> None:
    """Intimidate lowers the foe's initiative at once: Grak drops from 3 to 1 and Thrain (2) acts before it."""
    res = act(fight(), "Borin", "intimidate", [6, 6, 3], target="Grak")
    enc = res.encounter
    assert who(enc, "Borin").initiative == 4 and who(enc, "Grak").initiative == 1
    assert enc.current == "Thrain"
    assert "vs 7 + Rating 2 = 9" in text(res)


def test_turn_key_changes_when_the_turn_passes() -> None:
    """The turn key changes exactly when someone new is to act."""
    enc = fight()
    before = SYSTEM.turn(enc)
    ended = step(enc, "next", actor="Borin")
    after = SYSTEM.turn(ended)
    assert before.key != after.key and after.actors == ("Grak",) and "Grak to act" in SYSTEM.present.turn_label(ended, SYSTEM.facts(ended))


def test_next_passes_and_keeps_initiative() -> None:
    """`/init next` passes the turn; the passer keeps its initiative points."""
    enc = step(fight(), "next", actor="Borin")
    assert who(enc, "Borin").initiative == 5 and enc.current == "Grak"


def test_next_by_someone_else_is_refused() -> None:
    """A player cannot pass another combatant's turn."""
    with pytest.raises(NotYourTurn, match="Borin's turn"):
        resolve(fight(), "next", actor="Thrain")


def test_round_ends_when_everyone_has_acted_or_passed() -> None:
    """When nobody is left to act, the next round starts at once with the highest initiative."""
    enc = fight()
    for name in ("Borin", "Grak", "Thrain"):
        assert enc.round == 1 and enc.current == name
        enc = step(enc, "next", actor=name)
    assert enc.round == 2 and enc.current == "Borin"


def test_an_action_uses_the_round() -> None:
    """Each combatant takes one action a round."""
    enc = step(fight(), "act", actor="Borin", action="defend")
    with pytest.raises(NotYourTurn, match="already acted"):
        act(enc, "Borin", "defend")




def _deck(enc: Encounter) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    return enc.round, SYSTEM.turn(enc).actors, on_deck_checked(SYSTEM, enc)


def test_on_deck_read_from_the_state_names_whom_the_turns_end_names() -> None:
    """Over a played fight, `on_deck` (no turn resolved) names whom `/init next` does: "the highest pool acts",
    the unconscious foe skipped, and at a round's end the top pool after "the unengaged gain" (Borin, who
    dealt melee damage, does not in round 2; everyone does in round 3)."""
    foes = (("Grak", "rating=2 track=1,U", "foes", 3), ("Mog", "rating=1", "foes", 1))
    enc = fight(BORIN, THRAIN, *foes)
    seen = [_deck(enc)]
    enc = step(enc, "attack", [2, 3, 6, 3], actor="Borin", target="Grak")  # Grak unconscious
    seen.append(_deck(enc))
    for _ in range(5):
        enc = step(enc, "next", actor=enc.current)
        seen.append(_deck(enc))
    assert who(enc, "Grak").status == "downed"
    assert [who(enc, n).initiative for n in ("Borin", "Thrain", "Mog")] == [5, 4, 3]
    assert seen == [
        (1, ("Borin",), ("Grak",)),
        (1, ("Thrain",), ("Mog",)),
        (1, ("Mog",), ("Borin",)),
        (2, ("Borin",), ("Thrain",)),
        (2, ("Thrain",), ("Mog",)),
        (2, ("Mog",), ("Borin",)),
        (3, ("Borin",), ("Thrain",)),
    ]


def test_on_deck_after_a_return_attack_names_the_next_pool() -> None:
    """While Grak may return Borin's Assault, `on_deck` names whom letting it go names (Grak acts next, so nobody)."""
    s = started(("Grak", "rating=2", 3), ("Mog", "rating=1", 1), hero=("Borin", BORIN[1], 5))
    s.run("act", [2, 3, 6, 3], actor="Borin", action="assault", target="Grak")
    assert SYSTEM.turn(s.enc).phase == "return" and on_deck_checked(SYSTEM, s.enc) == ()
    s.run("next", actor="Grak")
    assert (SYSTEM.turn(s.enc).actors, on_deck_checked(SYSTEM, s.enc)) == (("Grak",), ("Mog",))


def test_the_turn_of_an_unconscious_combatant_passes_for_its_effects_as_the_round_ends() -> None:
    """"Each combatant takes one action a round or passes with `/init next` ...; the round ends
    when nobody is left to act" (docs/systems/tote.md), and "effects count down as turns pass"
    (docs/commands.md): an unconscious foe takes no turn, so its turn passes all the same as the
    round ends, and an effect timed by it ends after as many rounds as it runs."""
    foes = (("Grak", "rating=2 track=1,U", "foes", 3), ("Mog", "rating=1", "foes", 1))
    enc = step(fight(BORIN, *foes), "attack", [2, 3, 6, 3], actor="Borin", target="Grak")
    assert who(enc, "Grak").status == "downed"
    enc = step(enc, "effect_add", actor="Grak", effect="Hex", rounds=2, ends="end of Grak's turn", is_gm=True)
    res = resolve(enc, "next", actor="Mog")  # the round ends: Grak's turn passed once
    assert res.encounter.round == 2 and [(e.name, e.left) for e in res.encounter.effects] == [("Hex", 1)]
    assert not [e for e in res.events if isinstance(e, EffectEnded)]
    enc, events = res.encounter, []
    while enc.round == 2:  # everyone able passes: as round 2 ends, Grak's turn passes again
        res = resolve(enc, "next", actor=enc.current)
        enc, events = res.encounter, events + res.events
    assert enc.effects == []
    assert [(e.actor, e.name) for e in events if isinstance(e, EffectEnded)] == [("Grak", "Hex")]


def test_an_effect_of_one_knocked_out_after_its_turn_does_not_count_that_round_twice() -> None:
    """A combatant unconscious after it "takes one action a round" (docs/systems/tote.md) had its
    turn that round: as the round ends its turn does not pass again, and from the next round on it
    passes once a round."""
    grak = ("Grak", "rating=2 track=1,U", "foes", 6)
    enc = fight(BORIN, grak, ("Mog", "rating=1", "foes", 1))
    assert enc.current == "Grak"
    enc = step(enc, "next", actor="Grak")  # its turn, taken
    enc = step(enc, "effect_add", actor="Grak", effect="Hex", rounds=2, ends="end of Grak's turn", is_gm=True)
    enc = step(enc, "attack", [2, 3, 6, 3], actor="Borin", target="Grak")
    assert who(enc, "Grak").status == "downed" and enc.current == "Mog"
    enc = step(enc, "next", actor="Mog")  # round 1 ends: Grak's turn was taken, it does not pass again
    assert enc.round == 2 and [(e.name, e.left) for e in enc.effects] == [("Hex", 2)]
    enc = pass_round(enc)  # round 2 ends: Grak took no turn, so it passes
    assert enc.round == 3 and [(e.name, e.left) for e in enc.effects] == [("Hex", 1)]


def test_a_combatant_down_in_its_own_turn_had_that_turn() -> None:
    """Knocked out in its own turn before acting, a combatant's turn started and ended then ("each
    combatant takes one action a round", docs/systems/tote.md): as the round ends its turn does
    not pass a second time, so an effect "2 times" is still running once in round 2."""
    grak = ("Grak", "rating=2 track=1,U", "foes", 6)
    enc = fight(BORIN, grak, ("Mog", "rating=1", "foes", 1))
    enc = step(enc, "effect_add", actor="Grak", effect="Hex", rounds=2, ends="end of Grak's turn", is_gm=True)
    assert enc.current == "Grak"
    enc = step(enc, "edit", actor="Grak", hp_change=-2, is_gm=True)  # down in its own turn: that turn ends
    assert who(enc, "Grak").status == "downed" and [(e.name, e.left) for e in enc.effects] == [("Hex", 1)]
    while enc.round == 1:
        enc = step(enc, "next", actor=SYSTEM.turn(enc).current)
    assert [(e.name, e.left) for e in enc.effects] == [("Hex", 1)]


def test_a_combatant_the_gm_passes_out_of_turn_has_its_turn_pass() -> None:
    """"Each combatant takes one action a round or passes with `/init next`" (docs/systems/tote.md):
    one the GM passes out of turn has passed its turn, so an effect timed by it counts down."""
    enc = fight()
    enc = step(enc, "effect_add", actor="Grak", effect="Hex", rounds=1, ends="end of Grak's turn", is_gm=True)
    assert enc.current == "Borin"
    res = resolve(enc, "next", actor="Grak", is_gm=True)
    assert res.encounter.effects == [] and [e.name for e in res.events if isinstance(e, EffectEnded)] == ["Hex"]


def test_a_gm_pass_that_finds_no_turn_says_why() -> None:
    """The GM's `/init next combatant:X` "passes X (out of turn if need be), or is refused"
    (docs/systems/tote.md): the refusal says why X has no turn to pass and what comes instead."""
    foes = (("Grak", "rating=2 track=1,U", "foes", 3), ("Mog", "rating=1", "foes", 1))
    enc = step(fight(BORIN, *foes), "attack", [2, 3, 6, 3], actor="Borin", target="Grak")
    assert enc.current != "Borin"
    with pytest.raises(IllegalAction) as err:
        resolve(enc, "next", actor="Grak", is_gm=True)
    assert err.value.message == "Grak is unconscious and takes no turn (its turn passes as the round ends): nothing to pass."
    with pytest.raises(IllegalAction) as err:
        resolve(enc, "next", actor="Borin", is_gm=True)
    assert err.value.message == "Borin has acted this round: its next turn comes in round 2."


def test_a_gm_pass_out_of_turn_says_the_gm_passed_it() -> None:
    """The GM's `/init next combatant:X` while another acts: "X is passed (it loses its coming turn or activation
    this round, and the log says so" (docs/commands.md): in TOTE's terms, "Each combatant takes one action a round or
    passes" (docs/systems/tote.md), Grak loses its action this round and keeps its initiative points; a hidden
    Grak's points are left out, not shown as "?"."""
    enc = fight()
    res = resolve(enc, "next", actor="Grak", is_gm=True)
    points = res.encounter.get("Grak").initiative
    assert SYSTEM.present.report("", res.events).lines[0] == (
        f"**Grak** is passed by the GM: it loses its action this round, keeping {points} initiative points"
    )
    hidden = SYSTEM.present.view(enc, frozenset({"Grak"}))
    assert hidden.readable(hidden.marked(res.events[0])) == (
        "**Grak** is passed by the GM: it loses its action this round, keeping its initiative points"
    )
