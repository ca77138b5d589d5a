"""TOTE: range bands between foes, distance rounds, moves and Escape Foes."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.actions import Move
from rules.errors import IllegalAction, InputError
from rules.models import Encounter
from rules.systems.tote import DISTANCE_COSTS
from rules.systems.tote.actions import ACTIONS
from rules.systems.tote.movement import band_of
from tests.rules.tote.build import (
    BORIN,
    GRAK,
    SYSTEM,
    act,
    fight,
    resolve,
    setup,
    step,
    text,
    who,
)


# -- bands instead of cells ----------------------------------------------------------------------------
def test_place_takes_a_band_name() -> None:
    """`/combatant add at:` takes far, close or melee; the band is kept in the combatant's state."""
    enc = setup(BORIN, at={"Borin": "Close"}, distance="far")
    assert who(enc, "Borin").state.band == "close" and who(enc, "Borin").position is None


@pytest.mark.parametrize(("at", "facing", "words"), [("C4", None, "not a range band"), (None, "E", "no facing")])
def test_place_refuses_cells_and_facings(at: str | None, facing: str | None, words: str) -> None:
    """A cell or a facing is refused with a message naming the bands."""
    enc = setup()
    with pytest.raises(InputError, match=words) as err:
        resolve(enc, "add", name="Borin", at=at, facing=facing)
    if at:
        assert "far, close or melee" in err.value.message


def test_unplaced_combatants_stand_at_the_encounter_distance() -> None:
    """Without `at`, a combatant stands at the encounter's distance (option `distance`, default melee)."""
    enc = fight(BORIN, GRAK, distance="far")
    assert enc.phase == "distance: far"
    assert "far" in SYSTEM.present.status_line(enc, who(enc, "Grak"), SYSTEM.facts(enc))


# -- distance rounds -------------------------------------------------------------------------------------
def test_gm_sets_the_distance() -> None:
    """The GM sets Far or Close with `/act action:distance`; players may not."""
    res = resolve(fight(), "act", actor="Borin", action="distance", options="far", is_gm=True)
    enc = res.encounter
    assert enc.phase == "distance: far" and all(c.state.band == "far" for c in enc.combatants)
    assert sorted(SYSTEM.actions_for(enc, None)) == sorted([*DISTANCE_COSTS, "distance"])
    assert SYSTEM.actions.get("distance").gm_only and SYSTEM.gm_actions == ("distance",)


def test_distance_move_costs_nothing_and_changes_the_band() -> None:
    """Move (0): one band nearer or farther; the reply shows the bands."""
    res = resolve(fight(distance="far"), "move", actor="Borin", to="close")
    assert who(res.encounter, "Borin").state.band == "close" and who(res.encounter, "Borin").initiative == 5
    assert "far → close" in text(res)


def test_moves_go_one_band_at_a_time() -> None:
    """A move goes one band: Far to Melee is refused."""
    with pytest.raises(IllegalAction, match="one band"):
        resolve(fight(distance="far"), "move", actor="Borin", to="melee")


def test_moving_in_from_close_starts_melee_rounds() -> None:
    """A combatant that moves in from Close brings melee rounds from the next round."""
    enc = step(fight(distance="close", first_round_gain="yes"), "move", actor="Borin", to="in")
    assert enc.phase == "distance: close"
    enc = step(enc, "next", actor="Grak")
    res = resolve(enc, "next", actor="Thrain")
    enc = res.encounter
    assert enc.round == 2 and enc.phase == "melee"
    assert "melee rounds begin" in text(res) and who(enc, "Grak").initiative == 4  # unengaged gain


ANN = ("Ann", "shoot=2 hawk=1 weapon=bow:1:pierce", "heroes", 4)


def _melee_begun(**options: str) -> Encounter:
    """Close: Borin moves in on Grak, Ann stays at Close; round 2 is the first melee round."""
    enc = step(fight(BORIN, ANN, GRAK, distance="close", **options), "move", actor="Borin", to="in")
    enc = step(enc, "next", actor="Ann")
    enc = step(enc, "next", actor="Grak")
    assert enc.round == 2 and enc.phase == "melee"
    return enc


def _band_shown(enc: Encounter, name: str) -> str:
    return SYSTEM.present.status_line(enc, who(enc, name), SYSTEM.facts(enc)).split(" · ")[1]


def test_only_who_moves_in_from_close_goes_into_melee() -> None:
    """"Combatants that move from Close go into Melee Rounds": Ann, who stayed at Close, keeps her band in melee rounds
    (the board shows it), may not Strike Grak from there, and may Shoot ("If you are unengaged, make a Shoot test
    against any one foe") or move in."""
    enc = _melee_begun()
    assert (_band_shown(enc, "Borin"), _band_shown(enc, "Ann")) == ("melee", "close")
    extra = "\n".join(SYSTEM.present.board_extra(enc, SYSTEM.facts(enc)))
    assert "📏 Grak: Borin melee, Ann close" in extra and "🏹 Not in melee: Ann: Shoot (if unengaged) or move (`/move to:in`)" in extra
    enc = step(enc, "next", actor="Borin")
    with pytest.raises(IllegalAction, match="Ann is at Close from Grak"):
        act(enc, "Ann", "strike", [6, 6], target="Grak")
    poor = step(step(enc, "init_set", actor="Ann", value=2, is_gm=True), "next", actor="Grak")
    with pytest.raises(IllegalAction) as refusal:
        act(poor, "Ann", "shoot", [6, 1, 3], target="Grak")
    assert "(defend 0, move 0, intimidate 1, protect 2)" in str(refusal.value)
    assert "strike" not in ACTIONS.legal_now(enc, who(enc, "Ann")) and "move" in ACTIONS.legal_now(enc, who(enc, "Ann"))
    assert "strike" in ACTIONS.legal_now(enc, who(enc, "Borin")) and "move" not in ACTIONS.legal_now(enc, who(enc, "Borin"))
    shot = act(enc, "Ann", "shoot", [6, 1, 3], target="Grak")
    assert who(shot.encounter, "Grak").hp == 5 and who(shot.encounter, "Ann").initiative == 1
    moved = resolve(enc, "move", actor="Ann", to="in")
    assert _band_shown(moved.encounter, "Ann") == "melee" and who(moved.encounter, "Ann").initiative == 4
    assert "melee rounds begin" not in text(moved)


def test_a_move_in_a_melee_round_costs_the_option() -> None:
    """The melee-round table has no Move; one that kept its distance moves at Move's distance-round cost ("Move | 0"),
    or at option `melee_move_cost`."""
    enc = step(_melee_begun(melee_move_cost="2"), "next", actor="Borin")
    moved = act(enc, "Ann", "move", options="in")
    assert who(moved.encounter, "Ann").initiative == 2 and "spends 2 initiative" in text(moved)


def test_in_melee_nobody_moves_between_bands() -> None:
    """In melee rounds one in melee with a foe does not Move: it breaks off with Disengage."""
    enc = _melee_begun()
    with pytest.raises(IllegalAction, match="disengage"):
        resolve(enc, "move", actor="Borin", to="away")


def test_everyone_into_melee_with_the_option() -> None:
    """Option `into_melee=everyone`: once melee rounds begin, every pair of foes is in melee."""
    enc = _melee_begun(into_melee="everyone")
    assert (_band_shown(enc, "Borin"), _band_shown(enc, "Ann")) == ("melee", "melee")


def test_no_initiative_gain_in_distance_rounds() -> None:
    """Distance rounds give nobody initiative at their start."""
    enc = fight(distance="far")
    for name in ("Borin", "Grak", "Thrain"):
        enc = step(enc, "next", actor=name)
    assert enc.round == 2 and [c.initiative for c in enc.combatants] == [5, 2, 3]


def test_shoot_at_distance_is_free() -> None:
    """Shoot (0): `/attack` in a distance round is a Shoot test and costs nothing."""
    res = resolve(fight(distance="far"), "attack", [6, 2], actor="Borin", target="Grak", weapon="bow")
    assert who(res.encounter, "Grak").hp == 5 and who(res.encounter, "Borin").initiative == 5
    assert "Shoot at **Grak** with bow" in text(res)


def test_shoot_and_move_costs_one() -> None:
    """Shoot & Move (1): a Shoot test at the current range, then a move."""
    res = act(fight(distance="far"), "Borin", "shoot-and-move", [6, 2], target="Grak", options="close weapon=bow")
    enc = res.encounter
    assert who(enc, "Borin").initiative == 4 and who(enc, "Borin").state.band == "close" and who(enc, "Grak").hp == 5


def test_melee_actions_are_refused_at_distance() -> None:
    """A melee action in a distance round is refused with the distance actions listed."""
    with pytest.raises(IllegalAction, match="move, shoot or shoot-and-move"):
        act(fight(distance="far"), "Borin", "assault", target="Grak")


@pytest.mark.parametrize(("dice", "escaped"), [([6, 4], True), ([2, 1], False)])
def test_moving_away_from_far_tries_to_escape(dice: list[int], escaped: bool) -> None:
    """Escape Foes: a Move test against 7 + the highest foe Rating; on a failure the escaper stays at Far."""
    enc = fight(
        ("Ann", "move=1", "heroes", 5), ("Grak", "rating=2", "foes", 3), ("Mog", "rating=1", "foes", 1), distance="far"
    )
    res = resolve(enc, "move", dice, actor="Ann", to="away")
    ann = who(res.encounter, "Ann")
    assert "vs 7 + Rating 2 (Grak) = 9" in text(res)
    assert (ann.status == "out") is escaped and band_of(res.encounter, ann) == "far"
    if escaped:
        assert "escaped the fight" in text(res)




def test_moving_in_while_in_melee_with_one_foe_points_to_the_move_on_another() -> None:
    """"Combatant adds to or reduces the distance to the foe": in melee with Grak, Borin cannot come nearer to all his
    foes; the refusal says so and names the move that closes on Mog, at Far, alone."""
    enc = fight(BORIN, GRAK, ("Mog", "rating=1", "foes", 1), distance="far")
    enc.state.ranges = {"Borin": {"Grak": "melee"}}  # as moves left them, the round still a distance round
    with pytest.raises(IllegalAction, match="Borin is already in melee; to close on Mog \\(at Far\\) alone: "
                                            "`/act action:move target:Mog options:in`"):
        resolve(enc, "move", actor="Borin", to="in")


def test_a_move_can_close_on_one_foe_only() -> None:
    """`/act action:move target:X` changes the distance to X alone; both of that pair see the new band."""
    enc = fight(BORIN, GRAK, ("Mog", "rating=1", "foes", 1), distance="far")
    res = act(enc, "Borin", "move", target="Mog", options="close")
    enc = res.encounter
    borin, grak, mog = who(enc, "Borin"), who(enc, "Grak"), who(enc, "Mog")
    assert (SYSTEM.present.status_line(enc, mog, SYSTEM.facts(enc)).split(" · ")[2], SYSTEM.present.status_line(enc, grak, SYSTEM.facts(enc)).split(" · ")[2]) == ("close", "far")
    assert "📏 Borin: Grak far, Mog close" in "\n".join(SYSTEM.present.board_extra(enc, SYSTEM.facts(enc)))
    assert borin.state.band is None and enc.phase == "distance: close"  # no band of its own: not moved from all


def test_the_docs_move_from_one_foe_with_the_command_that_takes_a_target() -> None:
    """`/move` has no `target` option (its action has no such field), so docs/systems/tote.md names `/act action:move
    target:` for a move from one foe (it said "`/move to:` ... or to one foe with `target:`")."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "tote.md").read_text(encoding="utf-8").split())
    assert "target" not in Move.model_fields
    assert "or to one foe with `target:`" not in page and "`/act action:move target:NAME`" in page


def test_a_gm_edit_at_places_the_combatant_from_all_its_foes_again() -> None:
    """`/combatant edit at:far` puts the combatant at Far from every foe, whatever moves set before."""
    enc = step(fight(BORIN, GRAK, distance="far"), "move", actor="Borin", to="close")
    assert SYSTEM.present.status_line(enc, who(enc, "Grak"), SYSTEM.facts(enc)).split(" · ")[2] == "close"
    enc = step(enc, "edit", actor="Borin", at="far", is_gm=True)
    assert SYSTEM.present.status_line(enc, who(enc, "Grak"), SYSTEM.facts(enc)).split(" · ")[2] == "far"
    assert enc.state.ranges == {"Borin": {"Grak": "far"}}


def test_an_escape_that_ends_the_fight_begins_no_round() -> None:
    """"Combatants that move away from Far are attempty to Escape Foes": when the last hero to act escapes and every
    hero has, the fight is over: no next round begins."""
    enc = fight(("Ann", "move=1", "heroes", 1), ("Grak", "rating=2", "foes", 5), ("Mog", "rating=1", "foes", 3), distance="far")
    enc = step(step(enc, "next", actor="Grak"), "next", actor="Mog")
    res = resolve(enc, "move", [6, 4], actor="Ann", to="away")
    assert "escaped: the fight is over" in text(res)
    assert "begins" not in text(res) and res.encounter.round == 1


def test_a_hidden_foes_escape_number_shows_the_public_base() -> None:
    """Escape Foes: "a Move test against 7 + the highest enemy Rating" (shared/rules/README.md): the 7 is the public
    option ``escape_base``, so players read it; the hidden foe's Rating and the total stay hidden."""
    enc = fight(("Ann", "move=1", "heroes", 5), ("Grak", "rating=2", "foes", 3), distance="far")
    res = resolve(enc, "move", [2, 1], actor="Ann", to="away")
    hidden = SYSTEM.present.view(enc, frozenset({"Grak"}))
    (tested,) = [e for e in res.events if e.kind == "check"]
    line = hidden.readable(hidden.marked(tested))
    assert "vs 7 + Rating ? (the highest foe's) = ?" in line and "9" not in line and "Grak" not in line


def test_a_hidden_escape_number_does_not_name_which_hidden_foe_is_highest() -> None:
    """"7 + the highest enemy Rating": with two hidden foes, naming the one whose Rating sets the number would tell
    players which Rating is the higher: the line names neither."""
    enc = fight(("Ann", "move=1", "heroes", 5), ("Orc", "rating=1", "foes", 3), ("Gob", "rating=4", "foes", 1),
                distance="far")
    res = resolve(enc, "move", [6, 2], actor="Ann", to="away")
    hidden = SYSTEM.present.view(enc, frozenset({"Orc", "Gob"}))
    (tested,) = [e for e in res.events if e.kind == "check"]
    line = hidden.readable(hidden.marked(tested))
    assert "Gob" not in line and "Orc" not in line and "Rating ?" in line, line
    shown = SYSTEM.present.view(enc, frozenset()).readable(SYSTEM.present.view(enc, frozenset()).marked(tested))
    assert "vs 7 + Rating 4 (Gob) = 11" in shown, shown  # the GM, or a foe shown: as before
