"""Fair play in the rules: whose dice a typed `roll:` stands for, typed dice marked, cosmetic sheet keys."""
from __future__ import annotations

import random

import pytest

from rules.actions import make_action
from rules.dice import Dice
from rules.errors import DiceError
from rules.events import Checked, Roll
from rules.models import Encounter, MapState, Settings
from rules.registry import get_system
from rules.report import events_report
from rules.sheet import parse_pairs

KNIGHT = "str=1 agi=1 hp=12 armor=chain-mail shield=small weapons=longsword:2"
ORC = "str=2 agi=0 hp=9 size=tall armor=leather weapons=greataxe:2"
SWORD = "class=light weapons=sword"


def build(system: str, *adds: dict, map_kind: str = "square", **options: str) -> Encounter:
    """An encounter of ``system`` with the given `/combatant add` fields, resolved with no dice."""
    width, height = (12, 10) if map_kind != "none" else (0, 0)
    enc = Encounter(system=system, map=MapState(kind=map_kind, width=width, height=height),
                    gm_ids=["9"], settings=Settings(options=options))
    for fields in adds:
        fields = dict(fields)
        fields["raw_sheet"] = parse_pairs(fields.pop("sheet"))
        enc = get_system(system).resolve(enc, make_action("add", is_gm=True, **fields), Dice.fixed([])).encounter
    return enc


def resolve(enc: Encounter, dice: Dice, **fields: object):
    return get_system(enc.system).resolve(enc, make_action(**fields), dice)


def test_given_results_stand_only_for_the_combatants_the_caller_may_type() -> None:
    """Dice for a combatant outside `may_type` come from the generator; the caller's own take the typed results."""
    dice = Dice(rng=random.Random(1), given=[6, 5], may_type=frozenset({"Borin"}))
    with dice.rolling_for("Grak"):
        theirs = dice.roll(3, 6)
    with dice.rolling_for("Borin"):
        mine = dice.roll(2, 6)
    assert mine == [6, 5] and [r.given for r in dice.rolled] == [False] * 3 + [True, True]
    assert len(theirs) == 3
    dice.check_all_used()


def test_any_caller_types_every_die_when_may_type_is_none() -> None:
    """With `may_type=None` (the GM) typed results stand for anyone's dice, in order."""
    dice = Dice.fixed([4, 2])
    with dice.rolling_for("Grak"):
        assert dice.die(6) == 4
    with dice.rolling_for("Borin", "Thrain"):
        assert dice.die(6) == 2


def test_results_left_over_because_they_were_someone_elses_are_refused_with_the_reason() -> None:
    """A typed result with no die of the caller's own to stand for is refused, saying the rest are the bot's."""
    dice = Dice(rng=random.Random(1), given=[20], may_type=frozenset({"Borin"}))
    with dice.rolling_for("Grak"):
        dice.die(20)
    with pytest.raises(DiceError, match="none of your combatants' dice .*the bot's to roll.*leave `roll` out"):
        dice.check_all_used()


def kov_duel() -> Encounter:
    enc = build("knights-of-valour",
                {"name": "Borin", "sheet": KNIGHT, "at": "C4", "side": "dwarves", "owner_id": "1"},
                {"name": "Grak", "sheet": ORC, "at": "D4", "side": "orcs", "owner_id": None})
    return resolve(enc, Dice.fixed([]), kind="init_roll", is_gm=True).encounter


def test_knights_of_valour_attack_of_opportunity_is_rolled_by_the_bot_for_a_player() -> None:
    """A moving player's typed d20 does not become the enemy's Attack of Opportunity roll."""
    dice = Dice(rng=random.Random(3), given=[1], may_type=frozenset({"Borin"}))
    with pytest.raises(DiceError):
        resolve(kov_duel(), dice, kind="move", actor="Borin", path="W W", user_id="1")
    dice = Dice(rng=random.Random(3), given=[], may_type=frozenset({"Borin"}))
    res = resolve(kov_duel(), dice, kind="move", actor="Borin", path="W W", user_id="1")
    attack = next(e for e in res.events if e.kind == "attack")
    assert attack.actor == "Grak" and attack.roll.typed == []
    assert not any(r.given for r in dice.rolled)


def test_knights_of_valour_gm_types_the_attack_of_opportunity_and_it_is_marked() -> None:
    """The GM's typed d20 is the AoO roll, and the attack line marks it typed."""
    res = resolve(kov_duel(), Dice.fixed([1]), kind="move", actor="Borin", path="W W", is_gm=True)
    attack = next(e for e in res.events if e.kind == "attack")
    assert attack.roll.dice == [1] and attack.roll.typed == [0]
    assert "1✍" in get_system("knights-of-valour").present.text(attack)


def test_coup_de_grace_roll_off_dice_belong_to_each_side() -> None:
    """A new round's roll-off: a player's typed d6 stands for their own side only; the other side's is rolled."""
    system = get_system("coup-de-grace")
    enc = build("coup-de-grace",
                {"name": "Borin", "sheet": SWORD, "at": "B2", "facing": "E", "side": "dwarves", "owner_id": "1"},
                {"name": "Grak", "sheet": SWORD, "at": "H2", "facing": "W", "side": "orcs", "owner_id": "2"},
                tie="roll")
    enc = resolve(enc, Dice.fixed([6, 1]), kind="init_roll", is_gm=True).encounter
    enc = resolve(enc, Dice.fixed([]), kind="next", actor="Borin").encounter
    assert system.turn(enc).actors == ("Grak",)
    dice = Dice(rng=random.Random(5), given=[3], may_type=frozenset({"Grak"}))
    res = resolve(enc, dice, kind="next", actor="Grak")
    checks = {e.actor: e for e in res.events if e.kind == "check"}
    assert checks["orcs"].roll.dice == [3] and checks["orcs"].roll.typed == [0]
    assert checks["dwarves"].roll.typed == []


def test_tote_tests_are_tagged_with_the_combatant_who_rolls() -> None:
    """TOTE initiative tests: typed results stand only for the caller's own combatant's test."""
    enc = build("tote",
                {"name": "Hero", "sheet": "plan=1", "side": "heroes", "owner_id": "1"},
                {"name": "Brute", "sheet": "rating=2", "side": "foes", "owner_id": None},
                map_kind="none")
    dice = Dice(rng=random.Random(2), given=[6, 6], may_type=frozenset({"Hero"}))
    res = resolve(enc, dice, kind="init_roll", is_gm=False)
    tests = {e.actor: e.test for e in res.events if e.kind == "initiative"}
    assert tests["Hero"].dice == [6] and tests["Hero"].typed == [0]
    assert tests["Hero"].paragon_typed is True
    assert tests["Brute"].typed == [] and tests["Brute"].paragon_typed is False


def test_typed_dice_look_different_from_rolled_ones() -> None:
    """A check shows typed results with ✍ and rolled ones bare; the marks follow the event through copies."""
    dice = Dice(rng=random.Random(4), given=[5])
    first, second = dice.die(6), dice.die(6)
    roll = Roll(dice=[first, second], label="2d6")
    assert roll.typed == [0]
    assert get_system("coup-de-grace").present.roll_text(roll).startswith(f"🎲 5✍, {second} (2d6)")
    event = Checked(actor="Borin", what="recover", roll=roll)
    assert "5✍" in events_report("t", [event.model_copy()], get_system("coup-de-grace")).lines[0]
    assert Roll(dice=[5]).typed == []


def test_player_rolls_off_refuses_a_players_own_roll_modifiers() -> None:
    """Fair play: "Once the fight has started, only the GM changes sheets ... owners change them only through rule
    actions" (DESIGN.md). With `player_rolls` off the GM decides the numbers: a player's typed buffs (Knights of
    Valour's `atk=20 dmg=20 def=-20`, from "[+ Attacker Buff Modifiers]") are refused with their `roll:`, changing
    nothing; the GM's are taken, and with `player_rolls` on a player's are too."""
    from rules.errors import NotAllowed
    from tests.rules.knights_of_valour.build import SYSTEM, duel

    enc = duel()
    enc.settings.player_rolls = False
    before = enc.model_dump_json()
    attack = {"kind": "attack", "actor": "Borin", "target": "Grak", "options": {"atk": "20", "dmg": "20", "def": "-20"}}
    with pytest.raises(NotAllowed, match="`atk`, `def`, `dmg`"):
        SYSTEM.resolve(enc, make_action(**attack), Dice.fixed([5, 3]))
    assert enc.model_dump_json() == before
    plain = SYSTEM.resolve(enc, make_action(**{**attack, "options": {"dis": ""}}), Dice(rng=random.Random(1)))
    assert plain.events  # a word that is no buff of one's own: taken
    assert SYSTEM.resolve(enc, make_action(**attack, is_gm=True), Dice(rng=random.Random(1))).events
    enc.settings.player_rolls = True
    assert SYSTEM.resolve(enc, make_action(**attack), Dice(rng=random.Random(1))).events


def test_results_past_what_the_action_rolled_are_refused_saying_fewer_may_be_given() -> None:
    """"If you give fewer results than the action rolls, the bot rolls the rest ...; more results than the action
    uses ... is refused" (docs/commands.md): the refusal of six results for five dice says to give at most five (the
    bot rolls the rest), not exactly five, which fewer would not need to be."""
    dice = Dice(rng=random.Random(1), given=[1] * 6)
    for _ in range(5):
        dice.die(6)
    with pytest.raises(DiceError) as refused:
        dice.check_all_used()
    assert str(refused.value) == "`roll` gave 6 results but this action rolled only 5 dice: give at most 5 (the bot rolls the rest)."
