"""TOTE: skill tests, initiative as a resource, range bands, engagement, the injury track."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import Dice
from rules.errors import IllegalAction, InputError, NotAllowed, NotYourTurn, RulesError, SheetError
from rules.events import mod
from rules.models import Combatant, Encounter, MapState, Settings
from rules.report import board_report, events_report
from rules.sheet import parse_options, parse_pairs
from rules.actions import make_action
from rules.system import Action, Resolution
from rules.systems.tote import (
    DISTANCE_COSTS,
    MELEE_COSTS,
    ToteSystem,
    Weapon,
    parse_tohit,
    skill_test,
)

SYSTEM = ToteSystem()
BORIN = ("Borin", "strike=3 hawk=2 brawl=2 impress=2 weapon=axe:2:slash,bow:1:pierce", "heroes", 5)
THRAIN = ("Thrain", "strike=2 hawk=1", "heroes", 2)
GRAK = ("Grak", "rating=2 weapon=club:2:bash", "foes", 3)
Spec = tuple[str, str, str, int | None]


# -- builders ------------------------------------------------------------------------------------
def resolve(enc: Encounter, kind: str, dice: list[int] | tuple[int, ...] = (), **fields: object) -> Resolution:
    """Resolve one action with fixed dice; ``options`` may be given as option text."""
    if isinstance(fields.get("options"), str):
        fields["options"] = parse_options(fields["options"])  # type: ignore[arg-type]
    return SYSTEM.resolve(enc, make_action(kind, **fields), Dice.fixed(dice))  # type: ignore[arg-type]


def step(enc: Encounter, kind: str, dice: list[int] | tuple[int, ...] = (), **fields: object) -> Encounter:
    return resolve(enc, kind, dice, **fields).encounter


def setup(*specs: Spec, at: dict[str, str] | None = None, **options: str) -> Encounter:
    """An encounter with no map; each spec is (name, sheet, side, initiative set by the GM or None)."""
    enc = Encounter(system="tote", map=MapState(kind="none"), gm_ids=["gm"], settings=Settings(options=options))
    for i, (name, sheet, side, init) in enumerate(specs):
        enc = step(
            enc, "add", name=name, raw_sheet=parse_pairs(sheet), side=side, owner_id=str(i + 1), at=(at or {}).get(name)
        )
        if init is not None:
            enc = step(enc, "init_set", actor=name, value=init, is_gm=True)
    return enc


def fight(*specs: Spec, at: dict[str, str] | None = None, **options: str) -> Encounter:
    """A started fight (round 1) with the GM's initiative values: no dice needed."""
    return step(setup(*(specs or (BORIN, THRAIN, GRAK)), at=at, **options), "init_roll", is_gm=True)


def act(enc: Encounter, actor: str, name: str, dice: list[int] | tuple[int, ...] = (), **fields: object) -> Resolution:
    return resolve(enc, "act", dice, actor=actor, name=name, **fields)


def who(enc: Encounter, name: str) -> Combatant:
    return enc.get(name)


def text(res: Resolution) -> str:
    return events_report("t", res.events, SYSTEM).text()


def pass_round(enc: Encounter) -> Encounter:
    """Everyone still to act passes with `/init next`, in turn order."""
    start = enc.round
    while enc.round == start:
        enc = step(enc, "next", actor=enc.current)
    return enc


def engaged_round_two() -> Encounter:
    """Round 2 after Borin hit Grak in round 1 (they are engaged): Borin 4, Thrain 3 (+1), Grak 3."""
    enc = step(fight(), "attack", [2, 3, 6, 3], actor="Borin", target="Grak")
    return pass_round(enc)


# -- the skill test ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("plain", "paragon", "target", "bonus", "barred", "kept", "total", "successes", "critical"),
    [
        ([2, 5, 3], 4, 8, 0, (), 5, 9, 1, False),  # keep the best, add the Paragon die
        ([6, 5, 1], 3, 8, 0, (), 6, 9, 2, False),  # 5 + 3 also meets 8: one more success
        ([6, 6, 6], 2, 8, 0, (), 6, 8, 3, False),  # every other die meets it too
        ([2, 1], 3, 8, 0, (), 2, 5, 0, False),  # failure: no successes
        ([4, 2], 4, 8, 0, (), 4, 8, 2, True),  # kept die = Paragon die: a critical adds a success
        ([3, 3], 3, 12, 0, (), 3, 6, 0, True),  # a critical on a failure changes nothing
        ([], 6, 8, 2, (), None, 8, 1, False),  # skill 0: only the Paragon die and the bonus
        ([5, 4, 2], 3, 8, 0, (5, 4), 2, 5, 0, False),  # filled boxes 5 and 4 bar those faces
        ([5, 5], 5, 8, 0, (5,), None, 5, 0, False),  # the Paragon die always counts, even a 5
        ([3, 1], 4, 8, 1, (), 3, 8, 1, False),  # a bonus counts for the total and the extra dice
    ],
)
def test_skill_test_table(plain, paragon, target, bonus, barred, kept, total, successes, critical) -> None:
    """A skill test keeps one keepable plain die, adds the Paragon die and bonuses, and counts successes."""
    mods = [mod("bonus", bonus)] if bonus else []
    r = skill_test(Dice.fixed([*plain, paragon]), len(plain), target, mods, barred=frozenset(barred))
    assert (r.kept, r.total, r.successes, r.critical) == (kept, total, successes, critical)
    assert r.dice == plain and r.paragon == paragon


def test_keep_option_picks_a_lower_die_for_a_critical() -> None:
    """`keep=N` keeps the chosen face: here a 5 matching the Paragon 5 gives a critical."""
    best = skill_test(Dice.fixed([5, 6, 2, 5]), 3, 8)
    chosen = skill_test(Dice.fixed([5, 6, 2, 5]), 3, 8, keep=5)
    assert (best.kept, best.successes, best.critical) == (6, 2, False)
    assert (chosen.kept, chosen.total, chosen.successes, chosen.critical) == (5, 10, 3, True)


def test_keep_option_for_a_face_not_rolled_keeps_the_best_and_says_so() -> None:
    """Asking to keep a face that was not rolled (or is barred) keeps the best instead, with a note."""
    r = skill_test(Dice.fixed([2, 6, 3]), 2, 8, keep=4)
    assert r.kept == 6 and r.keep_note is not None and "best" in r.keep_note


def test_given_dice_are_plain_first_then_paragon() -> None:
    """With `roll:`, the plain dice come first in the order given and the Paragon die last."""
    dice = Dice.fixed([1, 2, 3, 6])
    r = skill_test(dice, 3, 8)
    assert r.dice == [1, 2, 3] and r.paragon == 6 and dice.values() == [1, 2, 3, 6]


def test_extra_successes_and_criticals_are_gm_options() -> None:
    """`extra_successes=no` caps successes at one; `critical_successes=0` turns criticals off."""
    assert skill_test(Dice.fixed([6, 6, 2]), 2, 8, extra_successes=False).successes == 1
    assert skill_test(Dice.fixed([4, 2, 4]), 2, 8, critical_successes=0).successes == 1


@given(
    plain=st.lists(st.integers(1, 6), max_size=5),
    paragon=st.integers(1, 6),
    target=st.integers(2, 16),
    bonus=st.integers(-3, 3),
    barred=st.sets(st.integers(1, 6)),
)
def test_skill_test_properties(plain: list[int], paragon: int, target: int, bonus: int, barred: set[int]) -> None:
    """Property: the kept die is the best keepable one; successes are 0 exactly when the total misses."""
    mods = [mod("bonus", bonus)] if bonus else []
    r = skill_test(Dice.fixed([*plain, paragon]), len(plain), target, mods, barred=frozenset(barred))
    keepable = [d for d in plain if d not in barred]
    assert r.kept == max(keepable, default=None)
    assert r.total == (r.kept or 0) + paragon + bonus
    assert (r.successes == 0) == (r.total < target)
    assert r.successes <= len(keepable) + 1 + int(r.critical)


# -- sheets -------------------------------------------------------------------------------------------
def test_hero_sheet_defaults() -> None:
    """A sheet without `rating` is a hero: totems 1, skills 1, Block 8, fists and a 5-4-3-2-1-U track."""
    c = who(setup(("Ann", "", "heroes", None)), "Ann")
    assert not SYSTEM.is_enemy(c)
    assert c.sheet["hawk"] == 1 and c.sheet["strike"] == 1 and c.sheet["block"] == 8
    assert c.sheet["track"] == ["5", "4", "3", "2", "1", "U"] and c.hp == 6 and c.initiative is None


def test_a_sheet_with_rating_is_an_enemy() -> None:
    """A sheet with `rating` is an enemy with its own keys (tohit, resist, group)."""
    c = who(setup(("Grak", "rating=3 tohit=2d+1 resist=pierce:2,slash group=yes", "foes", None)), "Grak")
    assert SYSTEM.is_enemy(c)
    assert (c.sheet["tohit"], c.sheet["resist"], c.sheet["group"]) == ("2d+1", ["pierce:2", "slash:1"], True)
    assert "hawk" not in c.sheet


@pytest.mark.parametrize(
    ("sheet", "words"),
    [
        ("rating=2 hawk=3", ["`hawk`", "enemy"]),
        ("strike=2 tohit=3", ["`tohit`", "hero"]),
        ("strike=6", ["strike", "0 to 5"]),
        ("weapon=sword", ["name:damage"]),
        ("weapon=sword:2:slash:bash", ["two kinds"]),
        ("track=5,4,3", ["ending with one `U`"]),
        ("rating=2 tohit=9", ["skill dice (0-5)"]),
        ("rating=2 resist=fire", ["bash, pierce, slash or all"]),
        ("colour=red", ["Unknown sheet key", "colour"]),
    ],
)
def test_bad_sheet_values_are_named(sheet: str, words: list[str]) -> None:
    """A bad key or value gets a message that names it and says what is accepted."""
    with pytest.raises(SheetError) as err:
        setup(("X", sheet, "a", None))
    assert all(w in err.value.message for w in words)


def test_a_hero_cannot_be_turned_into_an_enemy_by_edit() -> None:
    """Editing `rating` onto a hero is refused: heroes and enemies have different sheets."""
    enc = setup(BORIN)
    with pytest.raises(SheetError, match="is a hero"):
        resolve(enc, "edit", actor="Borin", raw_sheet={"rating": "2"})


@pytest.mark.parametrize(
    ("given_text", "normal"),
    [("3", "3d"), ("3d6", "3d"), ("+2", "+2"), ("2d+1", "2d+1"), ("4-1", "4d-1"), ("+0", "+0")],
)
def test_tohit_normal_form(given_text: str, normal: str) -> None:
    """`tohit` takes skill dice and/or a bonus and is stored in one normal form."""
    assert parse_tohit(given_text) == normal


def test_weapons_parse_and_list() -> None:
    """Weapons are `name:damage[:effect][:kind]`; `weapons_of` lists their names."""
    assert Weapon.parse("maul:3:bash:1") == Weapon("maul", 3, 1, "bash")
    enc = setup(BORIN)
    assert SYSTEM.weapons_of(enc, who(enc, "Borin")) == ["axe", "bow"]


def test_enemy_to_hit_dice_default_to_rating_and_take_a_bonus() -> None:
    """An enemy rolls Rating dice (at most 5) to hit unless `tohit` says otherwise; a bonus is a named modifier."""
    enc = fight(BORIN, ("Grak", "rating=2 tohit=+1", "foes", 9))
    res = resolve(enc, "attack", [1, 2, 5], actor="Grak", target="Borin")
    attack = next(e for e in res.events if e.kind == "attack")
    assert attack.dice == [1, 2] and attack.data["paragon"] == 5
    assert [(m.name, m.value) for m in attack.modifiers] == [("to-hit bonus", 1)] and attack.total == 8


# -- bands instead of cells ----------------------------------------------------------------------------
def test_place_takes_a_band_name() -> None:
    """`/combatant add at:` takes far, close or melee; the band is kept in the combatant's state."""
    enc = setup(BORIN, at={"Borin": "Close"})
    assert who(enc, "Borin").state["band"] == "close" and who(enc, "Borin").position is None


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
    assert "far" in SYSTEM.status_line(enc, who(enc, "Grak"))


# -- starting initiative -------------------------------------------------------------------------------
def test_hero_initiative_is_t8_plan_successes_plus_hawk() -> None:
    """Heroes: a T8 Plan test's successes + Hawk. Plan 2 rolls 6, 5 and Paragon 3: 2 successes + Hawk 2 = 4."""
    enc = setup(("Ann", "plan=2 hawk=2", "heroes", None), ("Grak", "rating=1", "foes", 0))
    enc = step(enc, "init_roll", [6, 5, 3], is_gm=True)
    assert who(enc, "Ann").initiative == 4 and enc.round == 1 and enc.phase == "melee"


def test_enemy_initiative_is_t8_successes_plus_rating() -> None:
    """Enemies: a T8 test on Rating dice, successes + Rating: 1, 2, 4 and Paragon 4 is 1 success + critical + 3."""
    enc = setup(("Ann", "hawk=2", "heroes", 0), ("Grak", "rating=3", "foes", None))
    res = resolve(enc, "init_roll", [1, 2, 4, 4], is_gm=True)
    assert who(res.encounter, "Grak").initiative == 5
    assert "Rating 3" in text(res) and "critical" in text(res)


def test_failed_initiative_test_gives_the_base_value() -> None:
    """A failed T8 test adds nothing: the hero starts at its Hawk totem."""
    enc = setup(("Ann", "plan=1 hawk=3", "heroes", None), ("Grak", "rating=1", "foes", 0))
    assert who(step(enc, "init_roll", [1, 2], is_gm=True), "Ann").initiative == 3


def test_initiative_target_is_a_gm_option() -> None:
    """`init_target=10` makes the starting test a T10."""
    enc = setup(("Ann", "plan=1 hawk=0", "heroes", None), ("Grak", "rating=1", "foes", 0), init_target="10")
    assert who(step(enc, "init_roll", [4, 5], is_gm=True), "Ann").initiative == 0


def test_init_roll_for_one_combatant_does_not_start_combat() -> None:
    """`/init roll combatant:X` rolls for that one only; the fight starts with the roll for everyone."""
    enc = setup(("Ann", "plan=1 hawk=1", "heroes", None), ("Grak", "rating=1", "foes", None))
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
    enc = step(enc, "init_order", name="Cid, Ann", is_gm=True)
    assert enc.order[:3] == ["Bea", "Cid", "Ann"]


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
    after = SYSTEM.turn(step(enc, "next", actor="Borin"))
    assert before.key != after.key and after.actors == ("Grak",) and "Grak to act" in after.label


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
    enc = step(fight(), "act", actor="Borin", name="defend")
    with pytest.raises(NotYourTurn, match="already acted"):
        act(enc, "Borin", "defend")


# -- melee round costs (the text's table) ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "target", "options", "dice", "cost"),
    [
        ("assault", "Grak", "", [1, 1, 1, 1], 2),
        ("assist", "Grak", "ally=Thrain", [1, 1, 1, 1], 1),
        ("defend", None, "", [], 0),
        ("grapple", "Grak", "", [1, 1, 1], 0),
        ("intimidate", "Grak", "", [1, 1, 1], 1),
        ("protect", "Thrain", "", [], 2),
        ("shoot", "Grak", "", [1, 1], 3),
        ("strike", "Grak", "", [1, 1, 1, 1], 1),
    ],
)
def test_melee_action_costs(name: str, target: str | None, options: str, dice: list[int], cost: int) -> None:
    """Each melee action spends its initiative cost from the text's table, and the reply says so."""
    res = act(fight(), "Borin", name, dice, target=target, options=options)
    gained = 1 if name == "defend" else 0
    assert MELEE_COSTS[name] == cost
    assert who(res.encounter, "Borin").initiative == 5 - cost + gained
    assert f"(5 → **{5 - cost}**)" in text(res) if cost else "free" in text(res)


def test_disengage_costs_three() -> None:
    """Disengage costs 3 and ends the engagement."""
    res = act(engaged_round_two(), "Borin", "disengage")
    enc = res.encounter
    assert who(enc, "Borin").initiative == 1 and enc.state["engaged"] == []
    assert "Borin disengages from Grak" in text(res)


def test_cannot_spend_initiative_it_does_not_have() -> None:
    """A combatant cannot spend initiative it does not have; 0-cost actions stay open at 0."""
    enc = fight(("Ann", "hawk=1", "heroes", 0), ("Grak", "rating=1", "foes", 0))
    with pytest.raises(IllegalAction, match="0 initiative points and strike costs 1") as err:
        resolve(enc, "attack", [1, 1, 1], actor="Ann", target="Grak")
    assert "defend, grapple cost 0" in err.value.message
    assert who(step(enc, "act", actor="Ann", name="defend"), "Ann").initiative == 1


# -- melee actions: effects -------------------------------------------------------------------------------
def test_attack_is_a_strike_against_block() -> None:
    """`/attack` in a melee round is a Strike (1) against the foe's Block 8; damage = weapon damage."""
    res = resolve(fight(), "attack", [2, 3, 6, 3], actor="Borin", target="Grak")
    enc = res.encounter
    assert who(enc, "Grak").hp == 4 and who(enc, "Grak").state["filled"] == 2
    line = text(res)
    for part in (
        "Strike [2✍, 3✍, 6✍]",
        "keep 6",
        "Paragon 3✍",
        "= **9** vs Block 8: hit, 1 success",
        "fills [5] [4]",
        "(5 → **4**)",
    ):
        assert part in line


def test_extra_successes_add_damage() -> None:
    """Each success beyond the first adds one box: 6 + 4 with others 5 and 4 also meeting 8 is 3 successes."""
    enc = step(fight(), "attack", [5, 4, 6, 4], actor="Borin", target="Grak")
    assert who(enc, "Grak").hp == 6 - (2 + 2)


def test_resist_and_critical_effect_change_damage() -> None:
    """A resisted kind marks fewer boxes; a weapon's effect adds on a critical."""
    foe = ("Grak", "rating=2 resist=slash", "foes", 3)
    enc = step(fight(BORIN, foe), "attack", [6, 1, 1, 3], actor="Borin", target="Grak")
    assert who(enc, "Grak").hp == 6 - (2 - 1)
    maul = ("Ann", "strike=1 weapon=maul:2:1:bash", "heroes", 5)
    res = resolve(fight(maul, GRAK), "attack", [4, 4], actor="Ann", target="Grak")
    assert who(res.encounter, "Grak").hp == 6 - (2 + 1 + 1)  # 1 extra success (critical) + effect 1
    assert "effect (critical)" in text(res)


def test_damage_engages_the_pair_and_restricts_targets() -> None:
    """Melee damage engages the pair; an engaged combatant must target that foe."""
    two_foes = (BORIN, THRAIN, GRAK, ("Mog", "rating=1", "foes", 1))
    enc = step(fight(*two_foes), "attack", [2, 3, 6, 3], actor="Borin", target="Grak")
    assert enc.state["engaged"] == [["Borin", "Grak"]]
    enc = pass_round(enc)
    with pytest.raises(IllegalAction, match="engaged with Grak: its actions must target that foe"):
        resolve(enc, "attack", [1, 1, 1, 1], actor="Borin", target="Mog")
    assert (
        who(step(enc, "attack", [1, 1, 1, 1], actor="Borin"), "Borin").state["acted"] == 2
    )  # the target defaults to Grak


def test_unengaged_combatants_gain_one_initiative_each_melee_round() -> None:
    """At a melee round's start, those that neither dealt nor took melee damage last round gain 1."""
    enc = engaged_round_two()
    assert (who(enc, "Borin").initiative, who(enc, "Grak").initiative, who(enc, "Thrain").initiative) == (4, 3, 3)
    enc = pass_round(enc)
    # nobody dealt melee damage in round 2: all gain, engaged or not
    assert (who(enc, "Borin").initiative, who(enc, "Grak").initiative, who(enc, "Thrain").initiative) == (5, 4, 4)


def test_first_round_has_no_gain_and_the_gain_is_a_gm_option() -> None:
    """The starting initiative counts as round 1's; `unengaged_gain=2` changes the gain."""
    enc = fight(unengaged_gain="2")
    assert who(enc, "Borin").initiative == 5
    assert who(pass_round(enc), "Borin").initiative == 7


def test_assault_gets_plus_two_and_offers_a_free_return() -> None:
    """Assault (2): +2 to hit; the foe may return an attack at +2 for free, and that is its action."""
    res = act(fight(), "Borin", "assault", [2, 3, 6, 3], target="Grak")
    enc = res.encounter
    assert "+2 Assault" in text(res) and who(enc, "Grak").hp == 3  # 11 vs 8: 2 successes, axe 2 + 1
    assert SYSTEM.turn(enc).actors == ("Grak",) and enc.current == "Grak"
    back = resolve(enc, "attack", [6, 1, 1], actor="Grak")
    enc = back.encounter
    assert "+2 Assault return" in text(back) and who(enc, "Borin").hp == 4
    assert who(enc, "Grak").initiative == 3 and who(enc, "Grak").state["acted"] == 1
    assert enc.current == "Thrain"


def test_assault_return_can_be_declined() -> None:
    """`/init next` lets the Assault go unanswered: the foe keeps its action for later in the round."""
    enc = step(fight(), "act", [1, 1, 1, 1], actor="Borin", name="assault", target="Grak")
    enc = step(enc, "next", actor="Grak")
    assert "pending_return" not in enc.state and enc.current == "Grak" and who(enc, "Grak").state.get("acted") is None


def test_no_return_from_a_foe_that_already_acted() -> None:
    """A foe that has already acted this round cannot return the Assault."""
    enc = step(fight(), "next", actor="Borin")
    enc = step(enc, "next", actor="Grak")
    res = act(enc, "Thrain", "assault", [1, 1, 1], target="Grak")
    assert "no return attack" in text(res) and res.encounter.round == 2


def test_only_the_return_is_open_while_it_is_pending() -> None:
    """While a return is pending, others wait and the foe may only return or decline."""
    enc = step(fight(), "act", [1, 1, 1, 1], actor="Borin", name="assault", target="Grak")
    with pytest.raises(NotYourTurn, match="answers Borin's Assault"):
        act(enc, "Thrain", "defend")
    with pytest.raises(IllegalAction, match="only return"):
        act(enc, "Grak", "defend")


def test_assist_gives_the_ally_one_initiative_and_strikes() -> None:
    """Assist (1): the ally gains 1 initiative and the assister makes a Strike test."""
    res = act(fight(), "Borin", "assist", [2, 3, 6, 3], target="Grak", options="ally=Thrain")
    assert who(res.encounter, "Thrain").initiative == 3 and who(res.encounter, "Grak").hp == 4
    assert "Assist strike" in text(res)
    with pytest.raises(InputError, match="needs an ally"):
        act(fight(), "Borin", "assist", [1, 1, 1, 1], target="Grak")


def test_defend_gains_one_and_makes_attacks_harder() -> None:
    """Defend (0): +1 initiative, and attacks against the defender take −2 this round (To-Hit 8 acts as 10)."""
    enc = fight(("Ann", "hawk=1", "heroes", 5), ("Grak", "rating=2", "foes", 3))
    enc_plain = step(enc, "next", actor="Ann")
    assert who(step(enc_plain, "attack", [6, 1, 3], actor="Grak"), "Ann").hp == 5  # 9 vs 8: hit, fists 1
    enc_def = step(enc, "act", actor="Ann", name="defend")
    assert who(enc_def, "Ann").initiative == 6
    res = resolve(enc_def, "attack", [6, 1, 3], actor="Grak")
    assert who(res.encounter, "Ann").hp == 6 and "−2 Defend" in text(res)  # 9 − 2 = 7: a miss


def test_defend_may_strike_a_named_foe() -> None:
    """Defend with a `target` also makes a Strike test at that foe."""
    res = act(fight(), "Borin", "defend", [2, 3, 6, 3], target="Grak")
    assert who(res.encounter, "Grak").hp == 4 and who(res.encounter, "Borin").initiative == 6


def test_disengaged_counts_as_unengaged_next_round() -> None:
    """A combatant that disengaged gains initiative next round even if it took melee damage after."""
    enc = step(engaged_round_two(), "act", actor="Borin", name="disengage")  # 4 -> 1
    enc = step(enc, "next", actor="Thrain")
    enc = step(enc, "attack", [6, 1, 3], actor="Grak", target="Borin")  # 3 -> 2, hits and re-engages
    assert enc.round == 3 and enc.state["engaged"] == [["Borin", "Grak"]]
    assert (who(enc, "Borin").initiative, who(enc, "Grak").initiative, who(enc, "Thrain").initiative) == (2, 2, 4)


def test_disengage_needs_an_engagement() -> None:
    """Disengaging while unengaged is refused."""
    with pytest.raises(IllegalAction, match="not engaged"):
        act(fight(), "Borin", "disengage")


def test_grapple_is_a_brawl_attack() -> None:
    """Grapple (0): a Brawl test against Block; a hit marks 1 box and engages."""
    res = act(fight(), "Borin", "grapple", [5, 2, 4], target="Grak")
    enc = res.encounter
    assert "Brawl [5✍, 2✍]" in text(res) and who(enc, "Grak").hp == 5 and enc.state["engaged"] == [["Borin", "Grak"]]
    assert who(enc, "Borin").initiative == 5


def test_intimidate_against_a_hero_uses_stag() -> None:
    """An enemy's Intimidate targets 7 + the hero's Stag; each success lowers its initiative by 1."""
    enc = fight(("Ann", "stag=3", "heroes", 2), ("Grak", "rating=2", "foes", 4))
    res = act(enc, "Grak", "intimidate", [6, 4, 1], target="Ann")
    assert "vs 7 + Stag 3 = 10" in text(res) and who(res.encounter, "Ann").initiative == 2
    res = act(enc, "Grak", "intimidate", [6, 4, 6], target="Ann")
    assert who(res.encounter, "Ann").initiative == 0  # 12: 2 successes + critical 1 = 3, floored at 0


def test_protect_redirects_attacks_on_the_ally() -> None:
    """Protect (2): attacks on the ally hit the protector instead this round."""
    enc = fight(BORIN, ("Thrain", "strike=2 hawk=1", "heroes", 4), GRAK)
    enc = step(enc, "next", actor="Borin")
    enc = step(enc, "act", actor="Thrain", name="protect", target="Borin")
    res = resolve(enc, "attack", [6, 1, 3], actor="Grak", target="Borin")
    assert "Thrain protects Borin" in text(res)
    assert who(res.encounter, "Thrain").hp == 4 and who(res.encounter, "Borin").hp == 6


def test_protect_and_shoot_need_an_unengaged_combatant() -> None:
    """Protect and the melee-round Shoot are refused to an engaged combatant."""
    enc = engaged_round_two()
    with pytest.raises(IllegalAction, match="only an unengaged combatant can Protect"):
        act(enc, "Borin", "protect", target="Thrain")
    with pytest.raises(IllegalAction, match="only an unengaged combatant can Shoot"):
        act(enc, "Borin", "shoot", [6, 6], target="Grak")


def test_shoot_in_melee_does_not_engage() -> None:
    """Shoot (3) hits any foe; its damage is not melee damage and engages nobody."""
    res = act(fight(), "Borin", "shoot", [6, 3], target="Grak", weapon="bow")
    assert who(res.encounter, "Grak").hp == 5 and res.encounter.state.get("engaged", []) == []


def test_distance_actions_are_refused_in_melee() -> None:
    """In melee rounds `/move` is refused with what to do instead."""
    with pytest.raises(IllegalAction, match="disengage"):
        resolve(fight(), "move", actor="Borin", to="close")


# -- distance rounds -------------------------------------------------------------------------------------
def test_gm_sets_the_distance() -> None:
    """The GM sets Far or Close with `/act action:distance`; players may not."""
    res = resolve(fight(), "act", actor="Borin", name="distance", options="far", is_gm=True)
    enc = res.encounter
    assert enc.phase == "distance: far" and all(c.state["band"] == "far" for c in enc.combatants)
    assert SYSTEM.actions_for(enc, None) == [*DISTANCE_COSTS, "distance"]
    with pytest.raises(NotAllowed):
        resolve(fight(), "act", actor="Borin", name="distance", options="far")


def test_distance_move_costs_nothing_and_changes_the_band() -> None:
    """Move (0): one band nearer or farther; the reply shows the bands."""
    res = resolve(fight(distance="far"), "move", actor="Borin", to="close")
    assert who(res.encounter, "Borin").state["band"] == "close" and who(res.encounter, "Borin").initiative == 5
    assert "far → close" in text(res)


def test_moves_go_one_band_at_a_time() -> None:
    """A move goes one band: Far to Melee is refused."""
    with pytest.raises(IllegalAction, match="one band"):
        resolve(fight(distance="far"), "move", actor="Borin", to="melee")


def test_moving_in_from_close_starts_melee_rounds() -> None:
    """A combatant that moves in from Close brings melee rounds from the next round."""
    enc = step(fight(distance="close"), "move", actor="Borin", to="in")
    assert enc.phase == "distance: close"
    enc = step(enc, "next", actor="Grak")
    res = resolve(enc, "next", actor="Thrain")
    enc = res.encounter
    assert enc.round == 2 and enc.phase == "melee" and all(c.state["band"] == "melee" for c in enc.combatants)
    assert "melee rounds begin" in text(res) and who(enc, "Grak").initiative == 4  # unengaged gain


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
    assert who(enc, "Borin").initiative == 4 and who(enc, "Borin").state["band"] == "close" and who(enc, "Grak").hp == 5


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
    assert (ann.status == "out") is escaped and ann.state["band"] == "far"
    if escaped:
        assert res.encounter.winner == "foes"


# -- injuries, unconsciousness and coup-de-grace --------------------------------------------------------
def test_injury_bars_the_face_in_a_real_attack() -> None:
    """A wounded hero with [5] filled rolls 5 and 2: it keeps the 2, and the reply says the 5 is barred."""
    enc = fight(("Ann", "strike=2", "heroes", 5), ("Grak", "rating=2", "foes", 3))
    enc = step(enc, "next", actor="Ann")
    enc = step(enc, "attack", [6, 1, 2], actor="Grak")  # 8 vs 8: 1 success, fists 1: fills [5]
    assert who(enc, "Ann").state["filled"] == 1 and enc.round == 2 and enc.current == "Ann"
    res = resolve(enc, "attack", [5, 2, 4], actor="Ann")
    assert "(5 barred by injuries) keep 2" in text(res) and who(res.encounter, "Grak").hp == 6
    assert "injury_bars" in SYSTEM.options_help
    free = Encounter.model_validate({**enc.model_dump(), "settings": {"options": {"injury_bars": "no"}}})
    assert who(resolve(free, "attack", [5, 2, 4], actor="Ann").encounter, "Grak").hp == 5


def test_filling_u_knocks_out_and_coup_de_grace_finishes() -> None:
    """Filling U makes the foe unconscious (downed); attacks are refused; `/coupdegrace` takes it out."""
    foes = (("Grak", "rating=2 track=1,U", "foes", 3), ("Mog", "rating=1", "foes", 1))
    res = resolve(fight(BORIN, *foes), "attack", [2, 3, 6, 3], actor="Borin", target="Grak")
    enc = res.encounter
    grak = who(enc, "Grak")
    assert grak.status == "downed" and grak.hp == 0 and "unconscious" in text(res) and enc.state["engaged"] == []
    enc = step(enc, "next", actor="Mog")
    assert enc.round == 2
    with pytest.raises(IllegalAction, match="coupdegrace"):
        resolve(enc, "attack", [1, 1, 1, 1], actor="Borin", target="Grak")
    with pytest.raises(IllegalAction, match="not unconscious"):
        resolve(enc, "coupdegrace", actor="Borin", target="Mog")
    enc = step(enc, "coupdegrace", actor="Borin", target="Grak")
    assert who(enc, "Grak").status == "out" and who(enc, "Borin").initiative == 4 - 1


def test_coup_de_grace_waits_for_melee_rounds() -> None:
    """A coup-de-grace is refused in distance rounds."""
    with pytest.raises(IllegalAction, match="melee blow"):
        resolve(fight(distance="far"), "coupdegrace", actor="Borin", target="Grak")


@pytest.mark.parametrize(("victory", "winner"), [(None, "heroes"), ("out", None)])
def test_victory_when_no_foe_is_conscious(victory: str | None, winner: str | None) -> None:
    """By default a side with nobody conscious has lost; `victory=out` waits until all are out."""
    options = {"victory": victory} if victory else {}
    enc = fight(BORIN, ("Grak", "rating=2 track=1,U", "foes", 3), **options)
    assert step(enc, "attack", [2, 3, 6, 3], actor="Borin", target="Grak").winner == winner


# -- every error leaves the encounter unchanged ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "fields", "dice"),
    [
        ("attack", {"actor": "Thrain", "target": "Grak"}, [1, 1, 1]),
        ("attack", {"actor": "Borin", "target": "Thrain"}, [1, 1, 1, 1]),
        ("attack", {"actor": "Borin", "target": "Grak", "weapon": "spear"}, [1, 1, 1, 1]),
        ("attack", {"actor": "Borin", "target": "Grak", "options": "kepp=3"}, [1, 1, 1, 1]),
        ("attack", {"actor": "Borin", "target": "Grak"}, [1, 1, 1]),
        ("attack", {"actor": "Borin", "target": "Grak"}, [1, 1, 1, 9]),
        ("act", {"actor": "Borin", "name": "dance"}, []),
        ("act", {"actor": "Borin", "name": "assist", "target": "Grak", "options": "ally=Grak"}, [1, 1, 1, 1]),
        ("act", {"actor": "Borin", "name": "distance", "options": "near", "is_gm": True}, []),
        ("move", {"actor": "Borin", "path": "N N E"}, []),
        ("init_set", {"actor": "Borin", "value": 200}, []),
        ("init_order", {"name": "Nobody"}, []),
        ("coupdegrace", {"actor": "Borin", "target": "Grak"}, []),
    ],
)
def test_rejected_actions_change_nothing(kind: str, fields: dict[str, object], dice: list[int]) -> None:
    """A rejected action raises a player-facing error and leaves the encounter passed in untouched."""
    enc = fight()
    before = enc.model_dump()
    with pytest.raises(RulesError) as err:
        resolve(enc, kind, dice, **fields)
    assert err.value.message and enc.model_dump() == before


# -- presentation and export ----------------------------------------------------------------------------------
def test_status_line_and_board_show_bands_initiative_track_and_engagements() -> None:
    """The board shows the round type, engagements, and per combatant band, initiative and injury track."""
    enc = engaged_round_two()
    line = SYSTEM.status_line(enc, who(enc, "Grak"))
    for part in ("rating 2", "melee", "init 3", "[x][x][3][2][1][U] 4 left", "engaged: Borin"):
        assert part in line
    board = board_report(SYSTEM, enc).text()
    assert "Melee round" in board and "Engaged: Borin ⇄ Grak" in board and "Borin to act (4 initiative)" in board


def test_export_fields_follow_the_design() -> None:
    """`hp` is the unfilled boxes (U included), `initiative` the points; no cell, no facing."""
    data = engaged_round_two().model_dump()
    grak = next(c for c in data["combatants"] if c["name"] == "Grak")
    assert (grak["hp"], grak["initiative"], grak["status"], grak["position"], grak["facing"]) == (
        4,
        3,
        "active",
        None,
        None,
    )
    assert (data["round"], data["phase"], data["current"], data["order"]) == (
        2,
        "melee",
        "Borin",
        ["Borin", "Thrain", "Grak"],
    )


def test_options_help_lists_every_option_read() -> None:
    """Every encounter option the module reads is documented in `options_help`."""
    source = Path(__file__).parents[2].joinpath("rules/systems/tote.py").read_text()
    tree = ast.parse(source)
    read = {
        node.args[1].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("_int_option", "_yes_option")
        and isinstance(node.args[1], ast.Constant)
    }
    read |= {"distance", "victory"}
    assert read == set(SYSTEM.options_help)


def test_module_stays_pure() -> None:
    """The rules module imports nothing from discord, aiosqlite, bot, cogs or data, nor random or time."""
    source = Path(__file__).parents[2].joinpath("rules/systems/tote.py").read_text()
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    assert not names & {"discord", "aiosqlite", "bot", "cogs", "data", "random", "time"}


# -- property: random play never corrupts the state -------------------------------------------------------------
_NAMES = ("Borin", "Thrain", "Grak", "Mog")
_STEPS = st.tuples(
    st.sampled_from(("attack", "act", "move", "next", "coupdegrace", "init_set")),
    st.sampled_from(_NAMES),
    st.sampled_from((None, *_NAMES)),
    st.sampled_from((*MELEE_COSTS, *DISTANCE_COSTS, "distance")),
    st.sampled_from(("", "far", "close", "in", "away", "ally=Thrain", "keep=6", "bonus=2")),
    st.integers(0, 2**16),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_STEPS, max_size=30))
def test_random_play_keeps_the_state_sound(steps: list[tuple[str, str, str | None, str, str, int]]) -> None:
    """Property: any sequence of commands either applies or raises a RulesError without touching the input."""
    enc = fight(BORIN, THRAIN, GRAK, ("Mog", "rating=1 track=2,1,U", "foes", 1))
    for kind, actor, target, name, options, seed in steps:
        before = enc.model_dump()
        action = make_action(
            kind,
            lenient=True,
            actor=actor,
            target=target,
            name=name,
            options=parse_options(options),
            value=seed % 6,
            is_gm=seed % 2 == 0,
        )  # type: ignore[arg-type]
        try:
            enc = SYSTEM.resolve(enc, action, Dice(rng=random.Random(seed))).encounter
        except RulesError:
            assert enc.model_dump() == before
            continue
        for c in enc.combatants:
            assert c.initiative is None or c.initiative >= 0
            assert c.hp == len(c.sheet["track"]) - c.state["filled"]
            assert c.hp > 0 if c.status == "active" else c.status == "out" or c.hp == 0
        for a, b in enc.state.get("engaged", []):
            assert (
                enc.get(a).status == "active" and enc.get(b).status == "active" and enc.get(a).side != enc.get(b).side
            )
        if enc.started and not enc.winner and enc.current:
            assert enc.current in enc.order and enc.get(enc.current).status == "active"
