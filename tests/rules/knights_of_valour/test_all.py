"""Knights of Valour: every rule of shared/rules/knights-of-valour.txt, with fixed dice."""
from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import Dice
from rules.errors import (
    DiceError,
    IllegalAction,
    InputError,
    NotAllowed,
    NotYourTurn,
    RulesError,
    SheetError,
)
from rules.events import Event
from rules.models import Encounter, MapState
from rules.report import board_report, events_report
from rules.sheet import parse_options, parse_pairs
from rules.actions import make_action
from rules.system import Action, Resolution, get_system
from rules.systems.knights_of_valour import (
    SIZES,
    WEAPONS,
    KnightsOfValour,
    effective_range,
    parse_weapon,
    stature_modifier,
)

SYSTEM = KnightsOfValour()
KEY = SYSTEM.key
GM = "9"
KNIGHT = "str=1 agi=1 hp=12 armor=chain-mail shield=small weapons=longsword:2,longbow:1"
ORC = "str=2 agi=0 hp=9 size=tall armor=leather weapons=greataxe:2"


# -- builders ---------------------------------------------------------------------------------
def encounter(
    blocked: tuple[str, ...] = (),
    terrain: dict[str, str] | None = None,
    heights: dict[str, int] | None = None,
    **options: str,
) -> Encounter:
    enc = Encounter(
        system=KEY,
        map=MapState(kind="square", width=12, height=10, blocked=list(blocked),
                     terrain=terrain or {}, heights=heights or {}),
        gm_ids=[GM],
    )
    enc.settings.options.update(options)
    return enc


def run(enc: Encounter, dice: list[int] | tuple[int, ...] = (), *, gm: bool = False, **fields: object) -> Resolution:
    """Resolve one action with fixed dice."""
    return SYSTEM.resolve(enc, make_action(is_gm=gm, **fields), Dice.fixed(dice))  # type: ignore[arg-type]


def step(enc: Encounter, dice: list[int] | tuple[int, ...] = (), **fields: object) -> Encounter:
    return run(enc, dice, **fields).encounter


def add(enc: Encounter, name: str, sheet: str, at: str, side: str, owner: str | None = "1") -> Encounter:
    return step(enc, kind="add", name=name, raw_sheet=parse_pairs(sheet), at=at, side=side, owner_id=owner)


def start(enc: Encounter) -> Encounter:
    return step(enc, kind="init_roll")


def duel(knight_at: str = "C4", orc_at: str = "D4", knight: str = KNIGHT, orc: str = ORC,
         enc: Encounter | None = None) -> Encounter:
    """Borin (player, agility +1) against Grak (monster, agility 0); Borin acts first."""
    enc = add(enc or encounter(), "Borin", knight, knight_at, "dwarves", owner="1")
    return start(add(enc, "Grak", orc, orc_at, "orcs", owner=None))


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def one(events: list[Event], kind: str) -> Event:
    found = of(events, kind)
    assert len(found) == 1, [e.kind for e in events]
    return found[0]


def moved(enc: Encounter, dice: tuple[int, ...] = (), **fields: object) -> tuple[Encounter, list[Event]]:
    res = run(enc, dice, kind="move", actor="Borin", **fields)
    return res.encounter, res.events


def cost_of(events: list[Event]) -> float:
    return sum(e.cost or 0 for e in of(events, "move"))


def text(e: Event) -> str:
    """The line the system shows for ``e``."""
    return SYSTEM.present.text(e)


def defence(attack: Event) -> list[list[object]]:
    """An attack's Defence Value terms as ``[name, value]`` pairs."""
    return [[m.name, m.value] for m in attack.defence]  # type: ignore[attr-defined]


def shown_path(move: Event) -> list[str]:
    """A move's squares as the reply shows them, with how each was entered."""
    return SYSTEM.present.text(move).split(" moves ", 1)[1].split(" for ")[0].split(" → ")


# -- the tables of the text -----------------------------------------------------------------------
STATURE_TABLE = [  # (defender, attacker, modifier) exactly as the text's table
    ("short", "short", 0), ("short", "average", -1), ("short", "tall", -2),
    ("average", "short", 1), ("average", "average", 0), ("average", "tall", -1),
    ("tall", "short", 2), ("tall", "average", 1), ("tall", "tall", 0),
]


@pytest.mark.parametrize(("defender", "attacker", "expected"), STATURE_TABLE)
def test_stature_table(defender: str, attacker: str, expected: int) -> None:
    """The Attacker/Defender Relative-Size modifier matches every cell of the text's table."""
    assert stature_modifier(attacker, defender) == expected


def test_stature_example_tall_attacker_short_defender() -> None:
    """Text example: a Tall attacker against a Short defender applies -2 to the attack roll."""
    enc = duel(knight="agi=1 hp=10 size=tall weapons=longsword:1", orc="hp=9 size=short weapons=club:1")
    attack = one(run(enc, [1], kind="attack", actor="Borin", target="Grak").events, "attack")
    assert ("stature tall vs short", -2) in [(m.name, m.value) for m in attack.roll.modifiers]


def test_throwing_spear_example() -> None:
    """Text example: Throwing Spear 20/60 ft with Strength +2 has effective ranges 30 and 70 ft."""
    assert effective_range(WEAPONS["throwing-spear"], 2) == (30, 70)


@pytest.mark.parametrize(("target_at", "dice", "disadvantage"), [
    ("I4", [1], False),   # 30 ft: within effective close range
    ("J4", [12, 1], True),  # 35 ft: past close range, Disadvantage
    ("Q4", [12, 1], True),  # 70 ft: at effective maximum range
])
def test_throwing_spear_example_in_play(target_at: str, dice: list[int], disadvantage: bool) -> None:
    """The Throwing Spear example decides Disadvantage by the effective ranges in play."""
    enc = encounter()
    enc.map.width = 20
    enc = duel("C4", target_at, knight="str=2 agi=1 hp=10 weapons=throwing-spear:1", enc=enc)
    attack = one(run(enc, dice, kind="attack", actor="Borin", target="Grak").events, "attack")
    assert attack.mode == "ranged"
    assert len(attack.roll.dice) == (2 if disadvantage else 1)
    assert attack.roll.kept == (1 if disadvantage else None)


def test_throwing_spear_past_maximum_range_is_refused() -> None:
    """No attack past the effective maximum range (75 ft > 70 ft)."""
    enc = encounter()
    enc.map.width = 20
    enc = duel("C4", "R4", knight="str=2 agi=1 hp=10 weapons=throwing-spear:1", enc=enc)
    with pytest.raises(IllegalAction, match="past the effective maximum range of throwing-spear \\(70 ft\\)"):
        run(enc, [12], kind="attack", actor="Borin", target="Grak")


@pytest.mark.parametrize(("strength", "expected"), [(-3, (0, 5)), (-2, (0, 10)), (0, (10, 20)), (3, (25, 35))])
def test_effective_range_never_below_zero(strength: int, expected: tuple[int, int]) -> None:
    """Effective range = range + Strength x 5 ft, and a negative result counts as zero."""
    assert effective_range(parse_weapon("rock", "1d4 10/20"), strength) == expected


def test_zero_close_range_always_has_disadvantage() -> None:
    """An effective close range of 0 ft makes every attack with the weapon a Disadvantage roll."""
    enc = encounter(weapons="rock:1d4 10/20")
    enc = duel("C4", "D4", knight="str=-2 agi=1 hp=10 weapons=rock:1", enc=enc)
    attack = one(run(enc, [15, 2], kind="attack", actor="Borin", target="Grak").events, "attack")
    assert (attack.roll.dice, attack.roll.kept) == ([15, 2], 2)
    assert "close_zero" in attack.reasons


def test_zero_maximum_range_cannot_attack() -> None:
    """An effective maximum range of 0 ft forbids ranged attacks with the weapon."""
    enc = encounter(weapons="rock:1d4 10/15")
    enc = duel("C4", "D4", knight="str=-3 agi=1 hp=10 weapons=rock:1", enc=enc)
    with pytest.raises(IllegalAction, match="effective maximum range of rock is 0 ft"):
        run(enc, [15], kind="attack", actor="Borin", target="Grak")


# -- sheets ----------------------------------------------------------------------------------------
def test_sheet_defaults_and_weapons() -> None:
    """A sheet fills its defaults and reads `name:P.L.` weapon lists in any spelling."""
    enc = add(encounter(), "Borin", "hp=10 weapons=\"Long Sword:2, light_crossbow:1\" armor=\"Chain Mail\"", "C4", "d")
    c = enc.get("Borin")
    assert c.sheet["weapons"] == {"longsword": 2, "light-crossbow": 1}
    assert (c.sheet["str"], c.sheet["agi"], c.sheet["size"], c.sheet["move"]) == (0, 0, "average", 30)
    assert (c.sheet["armor"], c.sheet["shield"], c.hp) == ("chain-mail", "none", 10)


@pytest.mark.parametrize(("sheet", "message"), [
    ("agi=1", "needs `hp=...`"),
    ("hp=5 str=4", "str is a whole number from -3 to 3"),
    ("hp=5 weapons=lightsaber:2", "`lightsaber` is not a known weapon"),
    ("hp=5 weapons=longsword", "name:P.L. with a P.L. from 0 to 10"),
    ("hp=5 weapons=longsword:11", "name:P.L. with a P.L. from 0 to 10"),
    ("hp=5 armor=mithril", "use a number or one of none, padded"),
    ("hp=5 size=huge", "use one of short, average, tall"),
    ("hp=5 shield=tower", "use one of none, small, large"),
    ("hp=5 class=knight", "Unknown sheet key `class`"),
])
def test_sheet_errors_name_the_bad_value(sheet: str, message: str) -> None:
    """A bad sheet key or value gets a message that names it and what is accepted."""
    with pytest.raises(SheetError, match=message):
        add(encounter(), "Borin", sheet, "C4", "d")


def test_gm_options_add_weapons_and_armour() -> None:
    """The `weapons` and `armors` encounter options extend the SRD tables."""
    enc = encounter(weapons="elven-blade:1d10 melee, rock:1d4 10/20", armors="Elven Chain:5")
    enc = duel(knight="agi=1 hp=10 weapons=elven-blade:1", orc="hp=9 armor=elven-chain weapons=club:1", enc=enc)
    attack = one(run(enc, [1], kind="attack", actor="Borin", target="Grak").events, "attack")
    assert ["elven-chain", 5] in defence(attack)


@pytest.mark.parametrize("spec", ["2d6 fast", "melee", "1d6 60/20", "1d6"])
def test_bad_weapon_option_is_refused(spec: str) -> None:
    """A malformed weapon in the `weapons` option explains the accepted form."""
    with pytest.raises(InputError, match="is not a weapon"):
        parse_weapon("odd", spec)


@pytest.mark.parametrize(("option", "value", "fields", "message"), [
    ("weapons", "junk", {"kind": "attack"}, "`junk` is not `name:value`"),
    ("weapons", "rock:1d4 far", {"kind": "attack"}, "`rock:1d4 far` is not a weapon"),
    ("armors", "mithril:lots", {"kind": "attack"}, "`armors` must be a whole number from 0 to 20, not `lots`; in the entry `mithril:lots`"),
    ("height_short", "tall", {"kind": "move", "path": "E"}, "`height_short` must be a whole number from 1 to 60, not `tall`"),
    ("victory", "maybe", {"kind": "attack"}, "use one of downed, out"),
])
def test_bad_encounter_options_are_named(option: str, value: str, fields: dict[str, str], message: str) -> None:
    """A bad encounter option is refused with its name and the accepted form."""
    enc = duel("C4", "D4", knight="hp=9 agi=1 size=short weapons=club:1")
    enc.settings.options[option] = value
    with pytest.raises(InputError, match=message):
        run(enc, [20, 1], actor="Borin", **({"target": "Grak"} if fields["kind"] == "attack" else {}), **fields)


def test_options_help_names_every_option() -> None:
    """Every encounter option the system reads is documented for `/encounter settings`."""
    assert set(SYSTEM.options_help) == {
        "delay", "split_move", "victory", "aoo", "ranged_stature", "min_damage", "obstacle_height",
        "height_short", "height_average", "height_tall", "small_shield", "large_shield", "armors", "weapons",
    }


def test_shield_option_changes_its_defence_modifier() -> None:
    """`large_shield` sets the Defence Modifier of a large shield."""
    enc = duel(orc="hp=9 shield=large weapons=club:1")
    enc.settings.options["large_shield"] = "3"
    attack = one(run(enc, [1], kind="attack", actor="Borin", target="Grak").events, "attack")
    assert ["large shield", 3] in defence(attack)


def test_registered_under_its_key() -> None:
    """The registry serves this system under `knights-of-valour`."""
    assert isinstance(get_system("knights-of-valour"), KnightsOfValour)


def test_numeric_armour_is_its_defence_modifier() -> None:
    """`armor=N` gives a Defence Modifier of N."""
    enc = duel(orc="hp=9 armor=3 weapons=club:1")
    attack = one(run(enc, [1], kind="attack", actor="Borin", target="Grak").events, "attack")
    assert ["armour", 3] in defence(attack)


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
    res = run(enc, kind="init_order", name="Old Tom Borin", gm=True)
    assert "from the next round" in text(one(res.events, "order"))
    enc = step(res.encounter, kind="next", actor="Borin")
    enc = step(step(enc, kind="next", actor="Old Tom"), kind="next", actor="Grak")
    assert (enc.round, enc.order, enc.current) == (2, ["Old Tom", "Borin", "Grak"], "Old Tom")


def test_gm_order_applies_at_once_before_anyone_acts() -> None:
    """Reordering tied players who have not acted changes the order now (comma separated names)."""
    enc = add(encounter(), "Grak", "agi=3 hp=5", "A3", "orcs", owner=None)
    enc = add(add(enc, "Borin", "agi=1 hp=5", "A1", "party"), "Thrain", "agi=1 hp=5", "A2", "party")
    enc = step(start(enc), kind="init_order", name="Thrain, Borin", gm=True)
    assert enc.order == ["Grak", "Thrain", "Borin"]


@pytest.mark.parametrize(("names", "gm", "error", "message"), [
    ("Borin, Grak", True, IllegalAction, "Player characters always act before monsters"),
    ("Borin", True, InputError, "two or more different"),
    ("Borin Borin", True, InputError, "two or more different"),
    ("Borin, Nobody", True, RulesError, "no combatant called `Nobody`"),
    ("Old Tom, Borin", False, NotAllowed, "Only the GM"),
])
def test_reorder_errors(names: str, gm: bool, error: type[Exception], message: str) -> None:
    """Only the GM orders ties, only between tied combatants of the same kind."""
    with pytest.raises(error, match=message):
        run(tied_party(), kind="init_order", name=names, gm=gm)


def test_reorder_refuses_untied_combatants() -> None:
    """Combatants with different initiatives cannot be reordered: `/init set` changes numbers."""
    enc = step(tied_party(), kind="init_set", actor="Old Tom", value=0)
    with pytest.raises(IllegalAction, match="Only tied combatants.*Old Tom 0, Borin 1"):
        run(enc, kind="init_order", name="Old Tom, Borin", gm=True)


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


def three_way() -> Encounter:
    """Borin (agi 2, player), Grak (agi 1, monster), Thrain (agi 0, player)."""
    enc = add(encounter(), "Borin", "agi=2 hp=9 weapons=club:1", "A1", "party")
    enc = add(enc, "Grak", "agi=1 hp=9 weapons=club:1", "H1", "orcs", owner=None)
    return start(add(enc, "Thrain", "agi=0 hp=9", "A2", "party", owner="2"))


def test_delay_lowers_initiative_for_the_round_only() -> None:
    """A combatant may lower its initiative at the start of a round; it comes back next round."""
    enc = three_way()
    res = run(enc, kind="act", actor="Borin", name="delay", options=parse_options("to=0"))
    enc = res.encounter
    assert text(one(res.events, "initiative")).endswith(": delays for this round, from 2 to 0")
    assert (enc.order, enc.current) == (["Grak", "Thrain", "Borin"], "Grak")
    assert one(res.events, "turn").actor == "Grak"
    for name in ("Grak", "Thrain", "Borin"):
        enc = step(enc, kind="next", actor=name)
    assert (enc.round, enc.order, enc.get("Borin").initiative) == (2, ["Borin", "Grak", "Thrain"], 2)


@pytest.mark.parametrize(("options", "expected"), [
    ({"2": ""}, 0), ({"by": "1"}, 1), ({"3": ""}, -1), ({"after": "Grak"}, 0),
])
def test_delay_amount_forms(options: dict[str, str], expected: int) -> None:
    """`options:"N"` and `by=N` lower by N; `after=NAME` drops below NAME."""
    enc = step(three_way(), kind="act", actor="Borin", name="delay", options=options)
    assert enc.get("Borin").initiative == expected


@pytest.mark.parametrize(("options", "message"), [({}, "Say how far"), ({"to": "5"}, "is not lower")])
def test_delay_amount_errors(options: dict[str, str], message: str) -> None:
    """A delay needs an amount that lowers the initiative."""
    with pytest.raises(InputError, match=message):
        run(three_way(), kind="act", actor="Thrain", name="delay", options=options)


def test_delay_refused_after_acting() -> None:
    """Once its turn has been used, a combatant cannot lower its initiative this round."""
    enc = step(three_way(), kind="move", actor="Borin", path="E")
    with pytest.raises(IllegalAction, match="already acted this round"):
        run(enc, kind="act", actor="Borin", name="delay", options={"1": ""})


@pytest.mark.parametrize(("mode", "allowed"), [("round", True), ("start", False)])
def test_delay_window_option(mode: str, allowed: bool) -> None:
    """`delay=start` keeps delays to the start of the round; the default allows them until one's turn."""
    enc = three_way()
    enc.settings.options["delay"] = mode
    enc = step(enc, kind="move", actor="Borin", path="E")
    if allowed:
        assert step(enc, kind="act", actor="Thrain", name="delay", options={"1": ""}).get("Thrain").initiative == -1
    else:
        with pytest.raises(IllegalAction, match="start of a round"):
            run(enc, kind="act", actor="Thrain", name="delay", options={"1": ""})


# -- turns -----------------------------------------------------------------------------------------
def test_turn_key_and_label() -> None:
    """The turn names the acting combatant, its actions left, and its key changes with the turn."""
    enc = duel()
    turn = SYSTEM.turn(enc)
    assert (turn.actors, turn.label) == (("Borin",), "Round 1 · Borin to act: Move Action and Combat Action left")
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
    enc.settings.options["split_move"] = split
    enc = step(step(enc, kind="move", actor="Borin", to="D4"), [1], kind="attack", actor="Borin", target="Grak")
    if allowed:
        assert step(enc, kind="move", actor="Borin", path="N").get("Borin").position == "D3"
    else:
        with pytest.raises(IllegalAction, match="no movement left"):
            run(enc, kind="move", actor="Borin", path="N")


def test_reply_and_board_show_actions_left() -> None:
    """The reply and the status board say which of the two actions is left."""
    enc = duel("C4", "E4")
    res = run(enc, kind="move", actor="Borin", path="E")
    assert text(one(res.events, "left")) == "Borin: Move Action (25 ft left) and Combat Action left"
    board = board_report(SYSTEM, res.encounter).text()
    assert "▶ Move Action (25 ft left) and Combat Action left" in board
    assert "Move and Combat Action to come" in board
    done = run(res.encounter, [1], kind="attack", actor="Borin", target="Grak")
    assert text(one(done.events, "left")) == "Borin: both actions used, `/init next` ends the turn"


def test_acting_out_of_turn_is_refused() -> None:
    """Only the combatant whose turn it is may move, attack or act."""
    with pytest.raises(NotYourTurn, match="It is Borin's turn, not Grak's"):
        run(duel(), [1], kind="attack", actor="Grak", target="Borin")


def test_next_by_another_player_is_refused_but_the_gm_may() -> None:
    """Only the acting combatant's side or the GM ends a turn."""
    with pytest.raises(NotYourTurn):
        run(duel(), kind="next", actor="Grak")
    assert step(duel(), kind="next", actor="Grak", gm=True).current == "Grak"


def test_gm_grants_an_extra_combat_action() -> None:
    """An extra Combat Action granted by the GM (item, buff, spell) can be used in the same turn."""
    enc = step(duel(), kind="act", actor="Borin", name="grant", options={"combat": ""}, gm=True)
    enc = step(enc, [1], kind="attack", actor="Borin", target="Grak")
    assert step(enc, [1], kind="attack", actor="Borin", target="Grak").get("Borin").state.combat_actions == 0
    assert SYSTEM.actions.get("grant").gm_only  # the service lets only the GM use it


@pytest.mark.parametrize("name", ["shove", "grapple", "throw", "release", "cast", "search", "use"])
def test_listed_combat_actions_use_the_combat_action(name: str) -> None:
    """The text's other Combat Actions are recorded for the GM to rule on and use the Combat Action."""
    res = run(duel(), kind="act", actor="Borin", name=name, target="Grak")
    assert "the GM rules on the outcome" in text(res.events[0])
    assert res.encounter.get("Borin").state.combat_actions == 0


def test_unknown_act_lists_the_actions() -> None:
    """An unknown /act name lists the system's actions."""
    with pytest.raises(IllegalAction, match="delay, wield, grant, shove"):
        run(duel(), kind="act", actor="Borin", name="dance")


# -- attacks -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("d20", "hit"), [(9, True), (8, False)])
def test_melee_attack_formula(d20: int, hit: bool) -> None:
    """Melee: d20 + P.L. + Strength + stature vs 10 + melee P.L. + armour + shield + Agility; ties hit."""
    res = run(duel(), [d20, 5] if hit else [d20], kind="attack", actor="Borin", target="Grak", weapon="longsword")
    attack = one(res.events, "attack")
    assert [(m.name, m.value) for m in attack.roll.modifiers] == [
        ("P.L. longsword", 2), ("strength", 1), ("stature average vs tall", 1)]
    assert defence(attack) == [["base", 10], ["P.L. greataxe", 2], ["leather", 1], ["agility", 0]]
    assert (attack.roll.total, attack.roll.against, attack.roll.success) == (d20 + 4, 13, hit)


def test_melee_defence_counts_armour_shield_and_agility() -> None:
    """The defender's wielded melee P.L., armour, shield and Agility all raise its Defence Value."""
    enc = step(duel(), kind="next", actor="Borin")
    attack = one(run(enc, [1], kind="attack", actor="Grak", target="Borin").events, "attack")
    assert defence(attack) == [["base", 10], ["P.L. longsword", 2], ["chain-mail", 6],
                                      ["small shield", 1], ["agility", 1]]
    assert (attack.roll.against, attack.roll.total) == (20, 1 + 2 + 2 - 1)


def test_defender_wielding_a_ranged_weapon_gets_no_pl() -> None:
    """The target's Weapon P.L. counts only when the weapon it wields is a melee weapon."""
    enc = duel(orc="hp=9 weapons=longbow:3,club:1")
    attack = one(run(enc, [1], kind="attack", actor="Borin", target="Grak").events, "attack")
    assert defence(attack) == [["base", 10], ["agility", 0]]


def test_wield_switches_the_defending_weapon() -> None:
    """`/act action:wield` takes up another weapon from the sheet for free."""
    enc = step(duel(), kind="act", actor="Borin", name="wield", options={"longbow": ""})
    enc = step(enc, kind="next", actor="Borin")
    attack = one(run(enc, [1], kind="attack", actor="Grak", target="Borin").events, "attack")
    assert ["P.L. longsword", 2] not in defence(attack)
    with pytest.raises(InputError, match="Name a weapon from the sheet"):
        run(duel(), kind="act", actor="Borin", name="wield", options={"maul": ""})


def test_ranged_attack_formula() -> None:
    """Ranged: d20 + P.L. + Agility + stature vs 10 + Defence Modifier + Agility (no weapon P.L.)."""
    res = run(duel("C4", "K4"), [10, 4], kind="attack", actor="Borin", target="Grak", weapon="longbow")
    attack = one(res.events, "attack")
    assert attack.mode == "ranged" and attack.range == 40
    assert [(m.name, m.value) for m in attack.roll.modifiers] == [
        ("P.L. longbow", 1), ("agility", 1), ("stature average vs tall", 1)]
    assert (attack.roll.total, attack.roll.against, attack.roll.success) == (13, 11, True)


def test_ranged_stature_option() -> None:
    """`ranged_stature=no` keeps the size table to melee attacks."""
    enc = duel("C4", "K4")
    enc.settings.options["ranged_stature"] = "no"
    attack = one(run(enc, [1], kind="attack", actor="Borin", target="Grak", weapon="longbow").events, "attack")
    assert [m.name for m in attack.roll.modifiers] == ["P.L. longbow", "agility"]


def test_thrown_weapon_strikes_in_melee_unless_thrown() -> None:
    """A thrown weapon next to its target strikes in melee; `options:"throw"` throws it."""
    enc = duel(knight="agi=1 hp=9 weapons=spear:1")
    assert one(run(enc, [1], kind="attack", actor="Borin", target="Grak").events, "attack").mode == "melee"
    thrown = run(enc, [1], kind="attack", actor="Borin", target="Grak", options={"throw": ""})
    assert one(thrown.events, "attack").mode == "ranged"


def test_ranged_attack_needs_line_of_sight() -> None:
    """A wall between attacker and target blocks a ranged attack."""
    enc = duel("C4", "K4", enc=encounter(blocked=("F4",)))
    with pytest.raises(IllegalAction, match="no line of sight to Grak: the wall at F4"):
        run(enc, [10], kind="attack", actor="Borin", target="Grak", weapon="longbow")


def test_melee_reach_is_five_feet() -> None:
    """A melee weapon needs a target within 5 ft (diagonals count as 5 ft)."""
    with pytest.raises(IllegalAction, match="Grak is 10 ft away: longsword reaches 5 ft.*longbow"):
        run(duel("C4", "E4"), [10], kind="attack", actor="Borin", target="Grak", weapon="longsword")
    diagonal = run(duel("C4", "D5"), [1], kind="attack", actor="Borin", target="Grak", weapon="longsword")
    assert one(diagonal.events, "attack").range == 5


@pytest.mark.parametrize(("weapon", "message", "error"), [
    ("longbow", "not proficient in longbow \\(P.L. 0\\)", IllegalAction),
    ("maul", "has no `maul`", IllegalAction),
])
def test_only_proficient_weapons_attack(weapon: str, message: str, error: type[Exception]) -> None:
    """Only weapons with P.L. greater than 0 can attack."""
    enc = duel(knight="agi=1 hp=9 weapons=longsword:2,longbow:0")
    with pytest.raises(error, match=message):
        run(enc, [10], kind="attack", actor="Borin", target="Grak", weapon=weapon)


@pytest.mark.parametrize(("options", "dice", "d20s", "kept", "label"), [
    ("adv", [4, 17, 1], [4, 17], 17, "2d20 Advantage"),
    ("dis", [4, 17], [4, 17], 4, "2d20 Disadvantage"),
    ("adv dis", [4], [4], 4, "d20"),
])
def test_advantage_and_disadvantage(options: str, dice: list[int], d20s: list[int], kept: int, label: str) -> None:
    """Advantage keeps the higher of 2d20, Disadvantage the lower; together they cancel."""
    attack = one(run(duel(), dice, kind="attack", actor="Borin", target="Grak",
                     options=parse_options(options)).events, "attack")
    assert (attack.roll.dice, attack.roll.label, attack.roll.total - 4) == (d20s, label, kept)  # type: ignore[operator]


def test_advantage_cancels_imposed_disadvantage() -> None:
    """Advantage asked cancels the Disadvantage of a long-range shot."""
    enc = duel("C4", "L10", knight="str=1 agi=1 hp=9 weapons=sling:1")  # 45 ft, close range 35 ft
    attack = one(run(enc, [7], kind="attack", actor="Borin", target="Grak", options={"adv": ""}).events, "attack")
    assert attack.roll.dice == [7] and attack.reasons == ["adv_asked", "past_close", "cancel"]
    assert "(d20: Advantage asked; 45 ft is past close range 35 ft; they cancel)" in SYSTEM.present.text(attack)


@pytest.mark.parametrize(("options", "message"), [({"flank": ""}, "`flank` is not an option"),
                                                  ({"atk": "x"}, "must be a whole number from -20 to 20")])
def test_unknown_attack_option_is_refused(options: dict[str, str], message: str) -> None:
    """Attack options are checked and listed."""
    with pytest.raises(InputError, match=message):
        run(duel(), [1], kind="attack", actor="Borin", target="Grak", options=options)


def test_buff_options_modify_attack_defence_and_damage() -> None:
    """`atk=`, `def=` and `dmg=` add the text's bracketed buff modifiers."""
    res = run(duel(), [9, 3], kind="attack", actor="Borin", target="Grak",
              options=parse_options("atk=2 def=1 dmg=3"))
    attack, damage = one(res.events, "attack"), one(res.events, "damage")
    assert (attack.roll.total, attack.roll.against) == (15, 14)
    assert damage.amount == 3 + 1 + 3


@pytest.mark.parametrize(("roll", "floor", "amount"), [(5, None, 6), (1, None, 2)])
def test_damage_is_weapon_dice_plus_strength(roll: int, floor: str | None, amount: int) -> None:
    """Damage on a hit = the weapon's dice + Strength."""
    res = run(duel(), [20, roll], kind="attack", actor="Borin", target="Grak", weapon="longsword")
    damage = one(res.events, "damage")
    assert (damage.roll.dice, damage.roll.label, damage.amount) == ([roll], "1d8", amount)
    assert (damage.before, damage.after, res.encounter.get("Grak").hp) == (9, 9 - amount, 9 - amount)


@pytest.mark.parametrize(("option", "amount"), [(None, 0), ("1", 1)])
def test_damage_floor(option: str | None, amount: int) -> None:
    """Strength cannot make damage negative; `min_damage` raises the floor."""
    enc = duel(knight="str=-3 agi=1 hp=9 weapons=dagger:1")
    if option:
        enc.settings.options["min_damage"] = option
    assert one(run(enc, [20, 1], kind="attack", actor="Borin", target="Grak").events, "damage").amount == amount


def test_two_dice_weapon() -> None:
    """A 2d6 weapon rolls two damage dice."""
    enc = duel(knight="str=0 agi=1 hp=9 weapons=greatsword:1")
    assert one(run(enc, [20, 2, 6], kind="attack", actor="Borin", target="Grak").events, "damage").amount == 8


def test_attack_errors() -> None:
    """Attacks need a target other than oneself that is still in the fight."""
    enc = duel()
    with pytest.raises(InputError, match="Name the combatant"):
        run(enc, [1], kind="attack", actor="Borin")
    with pytest.raises(IllegalAction, match="cannot attack itself"):
        run(enc, [1], kind="attack", actor="Borin", target="Borin")


def test_weapon_must_be_named_when_unclear() -> None:
    """With no weapon wielded and several to choose from, the attacker must name one."""
    enc = duel()
    enc.get("Borin").state.wield = None
    with pytest.raises(InputError, match="proficient in longsword, longbow"):
        run(enc, [1], kind="attack", actor="Borin", target="Grak")


# -- downed, coup de grace, victory ---------------------------------------------------------------------
def downed_grak(**options: str) -> Encounter:
    """Grak drops to 0 HP in round 1 while a second orc keeps the fight going."""
    enc = add(encounter(**options), "Snaga", "agi=-2 hp=5 weapons=club:1", "J9", "orcs", owner=None)
    enc = duel(enc=enc)
    return step(enc, [20, 8], kind="attack", actor="Borin", target="Grak")  # 8 + 1 = 9 damage


def test_zero_hp_is_downed() -> None:
    """At 0 HP or less a combatant is downed and its turns are skipped."""
    enc = downed_grak()
    assert (enc.get("Grak").hp, enc.get("Grak").status, enc.winner) == (0, "downed", None)
    enc = step(enc, kind="next", actor="Borin")
    assert enc.current == "Snaga"


def test_coup_de_grace_takes_a_downed_adjacent_target_out() -> None:
    """A coup de grâce on an adjacent downed combatant hits automatically and takes it out."""
    enc = step(step(downed_grak(), kind="next", actor="Borin"), kind="next", actor="Snaga")
    res = run(enc, kind="coupdegrace", actor="Borin", target="Grak")
    assert "an automatic hit on a downed target" in text(one(res.events, "coupdegrace"))
    assert one(res.events, "status").status == "out"
    assert res.encounter.get("Grak").status == "out" and "Grak" not in res.encounter.order
    assert res.encounter.get("Borin").state.combat_actions == 0


def test_coup_de_grace_errors() -> None:
    """A coup de grâce needs a downed target within 5 ft and the Combat Action."""
    with pytest.raises(IllegalAction, match="Grak is not downed"):
        run(duel(), kind="coupdegrace", actor="Borin", target="Grak")
    with pytest.raises(IllegalAction, match="used the Combat Action"):
        run(downed_grak(), kind="coupdegrace", actor="Borin", target="Grak")
    enc = step(step(downed_grak(), kind="next", actor="Borin"), kind="next", actor="Snaga")
    enc = step(enc, kind="move", actor="Borin", path="W")
    with pytest.raises(IllegalAction, match="not adjacent to Grak"):
        run(enc, kind="coupdegrace", actor="Borin", target="Grak")


@pytest.mark.parametrize(("option", "winner"), [(None, "dwarves"), ("out", None)])
def test_victory_when_every_enemy_is_down(option: str | None, winner: str | None) -> None:
    """A side whose combatants are all downed or out is beaten (`victory=out`: only out)."""
    enc = duel()
    if option:
        enc.settings.options["victory"] = option
    res = run(enc, [20, 8], kind="attack", actor="Borin", target="Grak")
    assert res.encounter.winner == winner
    assert bool(of(res.events, "victory")) == bool(winner)


def test_gm_edit_of_hp_sets_current_hp_and_revives() -> None:
    """Editing `hp` sets the current HP; a downed combatant above 0 HP is active again."""
    enc = step(downed_grak(), kind="edit", actor="Grak", raw_sheet={"hp": "4"})
    assert (enc.get("Grak").hp, enc.get("Grak").status) == (4, "active")
    assert step(enc, kind="edit", actor="Grak", raw_sheet={"str": "1"}).get("Grak").hp == 4


def test_gm_dropping_the_acting_combatant_passes_the_turn() -> None:
    """A combatant downed during its own turn (here by the GM setting its HP) ends that turn."""
    enc = add(encounter(), "Thrain", "agi=-3 hp=9", "J9", "dwarves", owner="2")
    res = run(duel(enc=enc), kind="edit", actor="Borin", raw_sheet={"hp": "0"}, gm=True)
    assert res.encounter.get("Borin").status == "downed" and res.encounter.current == "Grak"
    assert [e.kind for e in res.events][-2:] == ["status", "turn"]


def test_removing_the_acting_combatant_passes_the_turn() -> None:
    """When the acting combatant is removed the next one acts."""
    enc = step(duel(enc=add(encounter(), "Snaga", "agi=-2 hp=5", "J9", "orcs", owner=None)), kind="remove", actor="Borin")
    assert enc.current == "Grak" and enc.order == ["Grak", "Snaga"]


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
    assert (cost_of(events), shown_path(move)[1], enc.get("Borin").position) == (cost, f"D4 ({label})", end)  # type: ignore[index]


def test_vault_cannot_stop_on_the_obstacle_and_goes_straight() -> None:
    """A vault lands beyond the obstacle, straight on."""
    enc = duel("C4", "J9", enc=encounter(terrain={"D4": "obstacle"}))
    with pytest.raises(IllegalAction, match="cannot stop at D4"):
        moved(enc, path="E")
    with pytest.raises(IllegalAction, match="a vault goes straight on: keep going E"):
        moved(enc, path="E N")


def test_obstacle_height_option() -> None:
    """`obstacle_height` sets the height of unmarked obstacles (default 3 ft)."""
    enc = duel("C4", "J9", knight="agi=1 hp=9 size=short", enc=encounter(terrain={"D4": "obstacle"}, obstacle_height="6"))
    assert "climb 6 ft" in shown_path(one(moved(enc, path="E")[1], "move"))[1]  # type: ignore[index]


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
        assert shown_path(one(events, "move"))[1] == "D4 (leap)"  # type: ignore[index]
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
    assert cost_of(events) == cost and shown_path(one(events, "move"))[1] == f"D4 (descend {drop} ft)"  # type: ignore[index]


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


# -- reports -----------------------------------------------------------------------------------------------
def test_reply_shows_dice_modifiers_defence_and_damage() -> None:
    """The reply names both d20s, every modifier, the Defence Value terms, the damage dice and the HP change."""
    res = run(duel("C4", "K4"), [4, 15, 3], kind="attack", actor="Borin", target="Grak", weapon="longbow",
              options={"adv": ""})
    text = events_report("attack", res.events, SYSTEM).text()
    assert ("**Borin** attacks **Grak** with longbow (ranged, 40 ft): 🎲 4✍, 15✍ (2d20 Advantage: Advantage asked) "
            "keep 15 +1 P.L. longbow +1 agility +1 stature average vs tall = **18** vs defence **11** "
            "(10 base +1 leather +0 agility): **hit**") in text
    assert "**Grak** takes 🎲 3✍ (1d8) +1 strength = **4** damage (9 → 5 HP)" in text


def test_status_board_lines() -> None:
    """The board shows position, HP, initiative, weapon in hand and the order."""
    board = board_report(SYSTEM, duel()).text()
    assert "**Borin** · C4 · 12/12 HP · init 1 · longsword · ▶ Move Action and Combat Action left" in board
    assert "Order: Borin 1, Grak 0" in board


# -- safety and properties ------------------------------------------------------------------------------------
ILLEGAL = [  # each raises on the started duel, given the single die result 10
    {"kind": "attack", "actor": "Grak", "target": "Borin"},  # not Grak's turn
    {"kind": "attack", "actor": "Borin", "target": "Grak", "weapon": "longbow"},  # hits: no damage die
    {"kind": "attack", "actor": "Borin", "target": "Grak", "options": {"bogus": ""}},
    {"kind": "move", "actor": "Borin", "path": "E"},  # into Grak's square
    {"kind": "move", "actor": "Borin", "to": "L10", "path": "E"},
    {"kind": "coupdegrace", "actor": "Borin", "target": "Grak"},  # Grak is not downed
    {"kind": "act", "actor": "Borin", "name": "delay", "options": {"to": "9"}},  # not lower
    {"kind": "init_order", "name": "Borin, Grak", "is_gm": True},  # untied
    {"kind": "init_roll"},  # already started
]


@pytest.mark.parametrize("fields", ILLEGAL)
def test_rejected_actions_change_nothing(fields: dict[str, object]) -> None:
    """resolve never changes the encounter it is given when it raises."""
    enc = duel()
    before = enc.model_dump()
    with pytest.raises(RulesError):
        SYSTEM.resolve(enc, make_action(**fields), Dice.fixed([10]))  # type: ignore[arg-type]
    assert enc.model_dump() == before


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.booleans()), min_size=1, max_size=8))
def test_order_property(fighters: list[tuple[int, bool]]) -> None:
    """The order is by initiative, highest first, and players precede monsters on ties."""
    enc = encounter()
    for i, (agi, pc) in enumerate(fighters):
        enc = add(enc, f"F{i}", f"agi={agi} hp=5", f"A{i + 1}", "s", owner="1" if pc else None)
    order = [enc.get(n) for n in start(enc).order]
    keys = [(-c.sheet["agi"], c.owner_id is None) for c in order]
    assert keys == sorted(keys)


@settings(max_examples=80, deadline=None)
@given(
    d20=st.integers(1, 20), seed=st.integers(0, 1000),
    strength=st.integers(-3, 3), agility=st.integers(-3, 3), level=st.integers(1, 10),
    size=st.sampled_from(SIZES), target_size=st.sampled_from(SIZES),
)
def test_attack_property(d20: int, seed: int, strength: int, agility: int, level: int, size: str,
                         target_size: str) -> None:
    """An attack's total is its die plus its named modifiers, it hits exactly when it reaches the
    defence, a hit does its damage die + Strength (at least 0), and the input is never changed."""
    enc = duel(knight=f"str={strength} agi={agility} size={size} hp=9 weapons=longsword:{level}",
               orc=f"agi=-3 hp=30 size={target_size} armor=plate weapons=club:2")
    before = enc.model_dump()
    res = SYSTEM.resolve(enc, make_action("attack", actor="Borin", target="Grak"),
                         Dice(rng=random.Random(seed), given=[d20]))
    attack, damage = one(res.events, "attack"), of(res.events, "damage")
    assert attack.roll.total == d20 + sum(m.value for m in attack.roll.modifiers)
    assert attack.roll.against == 10 + 2 + 8 - 3 and attack.roll.success == (attack.roll.total >= attack.roll.against)  # type: ignore[operator]
    assert bool(damage) == attack.roll.success
    hurt = max(0, damage[0].roll.dice[0] + strength) if damage else 0
    assert res.encounter.get("Grak").hp == 30 - hurt
    assert enc.model_dump() == before


def test_rules_module_is_pure() -> None:
    """The system imports nothing from discord, aiosqlite, bot, cogs or data, and no randomness."""
    package = Path(__file__).parents[3] / "rules" / "systems" / "knights_of_valour"
    roots = {
        (node.module or "").split(".")[0] if isinstance(node, ast.ImportFrom) else alias.name.split(".")[0]
        for path in sorted(package.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert "rules" in roots
    assert not roots & {"discord", "aiosqlite", "bot", "cogs", "data", "random", "time", "datetime"}
