"""Encounter options are checked when the GM sets them, by the same readers the rules play with."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, get_type_hints

import pytest

from bot.offline.harness import Harness
from rules import registry
from rules.errors import RulesError
from rules.models import Encounter, Settings
from rules.options import AutoEndValues, Option, OptionValues
from rules.registry import get_system
from rules.setup import set_options
from rules.sheet import parse_options
from rules.system import RuleSystem

#: a good value for every option of every system
GOOD: dict[str, dict[str, str]] = {
    "coup-de-grace": {
        "tie": "join",
        "range_increment": "8",
        "max_increments": "3",
        "reach": "1",
        "recover_on": "4",
        "downed_adjacent": "no",
        "weapons": "longbow:ranged:8, halberd:melee:2, javelin:versatile",
        "spells": "fireball:2:6, blink, heal:1",
        "sight_corners": "blocked",
        "range_walls": "around",
        "shield_attacks": "no",
        "hammer_push": "optional",
        "diagonal_push": "diagonal",
        "diagonal_squeeze": "yes",
        "turn_in_place": "no",
        "crawl": "any",
    },
    "knights-of-valour": {
        "auto_end": "no",
        "delay": "start",
        "split_move": "yes",
        "victory": "out",
        "aoo": "no",
        "ranged_stature": "no",
        "min_damage": "1",
        "obstacle_height": "4",
        "height_short": "3",
        "height_average": "6",
        "height_tall": "8",
        "small_shield": "2",
        "large_shield": "3",
        "armors": "elven-chain:5, hide:2",
        "weapons": "elven-blade:1d10 melee, rock:1d4 10/20",
    },
    "tote": {
        "distance": "far",
        "init_target": "7",
        "extra_successes": "no",
        "critical_successes": "0",
        "damage_per_success": "2",
        "injury_bars": "no",
        "assault_bonus": "3",
        "defend_penalty": "1",
        "unengaged_gain": "2",
        "first_round_gain": "no",
        "shot_engages": "yes",
        "into_melee": "everyone",
        "melee_move_cost": "1",
        "intimidate_base": "6",
        "escape_base": "8",
        "grapple_damage": "2",
        "coup_de_grace_cost": "2",
        "victory": "out",
    },
}

#: values each system refuses, as (option, value)
BAD: dict[str, list[tuple[str, str]]] = {
    "coup-de-grace": [
        ("tie", "maybe"),
        ("range_increment", "abc"),
        ("range_increment", "0"),
        ("max_increments", "-2"),
        ("reach", "1.5"),
        ("recover_on", "five"),
        ("downed_adjacent", "perhaps"),
        ("weapons", "junk"),
        ("weapons", "longbow:laser"),
        ("weapons", "bow:ranged:0"),
        ("weapons", "a:melee:1:2"),
        ("spells", "fireball:lots"),
        ("spells", "a:1:2:3"),
        # a name given twice, `none` (the word that empties a list), a Markdown character a board would misshow
        ("weapons", "longbow:ranged:8, longbow:melee:2"),
        ("weapons", "none:melee:2"),
        ("weapons", "hal*berd:melee:2"),
        ("spells", "blink:1, Blink:2"),
        ("spells", "fire*ball:2:6"),
        ("spells", "fire_ball:2:6"),
        ("sight_corners", "sometimes"),
        ("range_walls", "through"),
        ("shield_attacks", "maybe"),
        ("hammer_push", "never"),
        ("diagonal_push", "sideways"),
        ("diagonal_squeeze", "perhaps"),
        ("turn_in_place", "2"),
        ("crawl", "roll"),
    ],
    "knights-of-valour": [
        ("auto_end", "sometimes"),
        ("delay", "never"),
        ("split_move", "maybe"),
        ("victory", "dead"),
        ("aoo", "perhaps"),
        ("ranged_stature", "2"),
        ("min_damage", "x"),
        ("min_damage", "-1"),
        ("obstacle_height", "101"),
        ("height_short", "0"),
        ("height_average", "tall"),
        ("height_tall", "61"),
        ("small_shield", "21"),
        ("large_shield", "big"),
        ("armors", "junk"),
        ("armors", "mithril:x"),
        ("armors", "mithril:25"),
        ("weapons", "junk"),
        ("weapons", "elven-blade:xyz"),
        ("weapons", "rock:1d4 20/10"),
        ("weapons", "***:1d4 melee"),
        ("weapons", "axe-two:1d4 melee, Axe Two:1d6 melee"),
        ("weapons", "none:1d4 melee"),
        ("weapons", "hal*berd:1d10 melee"),
        ("armors", "mithril:2, Mithril:3"),
        ("armors", "mith|ril:2"),
    ],
    "tote": [
        ("distance", "near"),
        ("init_target", "abc"),
        ("extra_successes", "perhaps"),
        ("critical_successes", "-1"),
        ("damage_per_success", "x"),
        ("injury_bars", "2"),
        ("assault_bonus", "1.5"),
        ("defend_penalty", "-2"),
        ("unengaged_gain", "100"),
        ("first_round_gain", "sometimes"),
        ("shot_engages", "sometimes"),
        ("into_melee", "all"),
        ("melee_move_cost", "-1"),
        ("intimidate_base", "seven"),
        ("escape_base", "7.0"),
        ("grapple_damage", "-1"),
        ("coup_de_grace_cost", "lots"),
        ("victory", "dead"),
    ],
}


def encounter(system: str, **options: str) -> Encounter:
    return Encounter(system=system, gm_ids=["gm"], settings=Settings(options=options))


@pytest.mark.parametrize("system", sorted(GOOD))
def test_tables_cover_every_option(system: str) -> None:
    """Every option in `options_help` has a good value and at least one bad value here."""
    help_keys = set(get_system(system).options_help)
    assert set(GOOD[system]) == help_keys
    assert {k for k, _ in BAD[system]} == help_keys


@pytest.mark.parametrize("system", sorted(GOOD))
def test_no_options_pass(system: str) -> None:
    """An encounter with no options set passes `check_options` (every default is usable)."""
    assert get_system(system).check_options(encounter(system)) is None


@pytest.mark.parametrize(("system", "key"), [(s, k) for s in sorted(GOOD) for k in GOOD[s]])
def test_each_good_value_passes(system: str, key: str) -> None:
    """A good value of each option passes `check_options` on its own."""
    assert get_system(system).check_options(encounter(system, **{key: GOOD[system][key]})) is None


@pytest.mark.parametrize("system", sorted(GOOD))
def test_all_good_values_pass_together(system: str) -> None:
    """All the good values at once pass `check_options`."""
    assert get_system(system).check_options(encounter(system, **GOOD[system])) is None


@pytest.mark.parametrize(("system", "key", "value"), [(s, k, v) for s in sorted(BAD) for k, v in BAD[s]])
def test_each_bad_value_is_refused_naming_the_option(system: str, key: str, value: str) -> None:
    """A bad value raises a RulesError whose message names the option and the value."""
    with pytest.raises(RulesError) as info:
        get_system(system).check_options(encounter(system, **{key: value}))
    message = str(info.value)
    assert f"`{key}" in message
    assert value.split(":")[0].lower() in message.lower()


@pytest.mark.parametrize(("system", "key", "value"), [(s, k, v) for s in sorted(BAD) for k, v in BAD[s]])
def test_a_bad_value_among_good_ones_is_still_refused(system: str, key: str, value: str) -> None:
    """One bad value among good values of every other option is refused."""
    options = {**GOOD[system], key: value}
    with pytest.raises(RulesError, match=key):
        get_system(system).check_options(encounter(system, **options))


def test_the_rules_read_the_option_with_the_checked_reader() -> None:
    """The value the rules use is what the reader returns, so checking and playing cannot drift."""
    cdg, kov, tote = get_system("coup-de-grace"), get_system("knights-of-valour"), get_system("tote")
    assert cdg.option_values(encounter("coup-de-grace", tie="JOIN")).tie == "join"
    assert cdg.option_values(encounter("coup-de-grace")).range_increment == 6
    assert kov.option_values(encounter("knights-of-valour", min_damage="3")).min_damage == 3
    assert kov.option_values(encounter("knights-of-valour")).height_tall == 7
    assert tote.option_values(encounter("tote", distance=" Far ")).distance == "far"
    assert tote.option_values(encounter("tote", distance="close")).distance == "close"
    assert tote.option_values(encounter("tote")).victory == "downed"


async def test_bad_option_is_refused_through_the_command_and_nothing_is_saved() -> None:
    """`/encounter settings options:"tie=maybe"` is refused privately and the stored option stays."""
    h = await Harness.create()
    try:
        sent = await h.run("gm", "/encounter start", system="coup-de-grace")
        assert not sent[0].ephemeral
        sent = await h.run("gm", "/encounter settings", options="tie=join")
        assert not sent[0].ephemeral and "`tie` = **join**" in sent[0].text
        sent = await h.run("gm", "/encounter settings", options="tie=maybe")
        assert sent[0].ephemeral
        assert "`tie=maybe` is not accepted: use one of roll, join" in sent[0].text
        sent = await h.run("gm", "/encounter settings")
        assert "`tie` = **join**" in sent[0].text
        assert "maybe" not in sent[0].text
    finally:
        await h.close()


@pytest.mark.parametrize(("system", "key"), [(s, k) for s in sorted(GOOD) for k in GOOD[s]])
def test_no_option_keeps_a_nul_or_a_broken_character(system: str, key: str) -> None:
    """Every option refuses a value holding NUL or half a surrogate pair (an import refuses such text), naming the option."""
    for value in ("\x00", f"{GOOD[system][key]}\x00", "\ud800"):
        with pytest.raises(RulesError, match=f"`{key}`"):
            get_system(system).check_options(encounter(system, **{key: value}))


# -- an action's own `options:` words -----------------------------------------------------------------
def test_action_words_are_read_typed_from_their_declaration() -> None:
    """An action's words come typed: a band typed alone, a number, a name; those not given are None."""
    words = get_system("tote").actions.get("shoot-and-move").words
    read = words.read_words({"away": "", "keep": "2", "weapon": "Bow"}, "shoot-and-move")
    assert dict(read) == {"to": "away", "weapon": "Bow", "keep": 2, "bonus": None}
    grant = get_system("knights-of-valour").actions.get("grant").words
    assert dict(grant.read_words({"combat": ""}, "grant")) == {"move": False, "combat": True}


def test_keyed_words_collect_the_keys_the_rules_cannot_list_ahead() -> None:
    """The damage-grid GM's `damage` reads `health=2 rifle=1` (locations and weapons of the target) into one dict."""
    words = get_system("damage-grid").actions.get("damage").words
    assert dict(words.read_words({"health": "2", "rifle": "1"}, "damage")) == {"hits": {"health": 2, "rifle": 1}}
    assert dict(words.read_words({}, "damage")) == {"hits": {}}
    assert words.word_lines().startswith(" `LOCATION=N`: N hits on that location")


@pytest.mark.parametrize(("key", "action", "given", "refusal"), [
    ("tote", "strike", {"far": ""},
     "`strike`: `far` is not one of its `options` words. Type one of `weapon=NAME`, `keep=N`, `bonus=N`."),
    ("tote", "move", {"keep": "9"}, "`move`: `keep` must be a whole number from 1 to 6, not `9`. Type e.g. `options:\"keep=1\"`."),
    ("tote", "move", {"far": "", "close": ""}, "`move`: `to` is given twice in `options`. Type e.g. `options:\"melee\"`."),
    ("tote", "distance", {"to": "near"}, "`distance`: `to` must be one of `melee`, `close`, `far`, not `near`. Type e.g. `options:\"melee\"`."),
    ("tote", "assist", {"ally": ""}, "`assist`: `ally` needs a value. Type e.g. `options:\"ally=NAME\"`."),
    ("tote", "disengage", {"keep": "2"}, "`disengage`: `keep` is not read: it reads no `options` words. Leave `options` out."),
    ("coup-de-grace", "recover", {"x": ""}, "`recover`: `x` is not read: it reads no `options` words. Leave `options` out."),
    ("damage-grid", "lunge", {"far": ""}, "`lunge`: `far` is not one of its `options` words. Type one of `to=CELL`, "
     "`aim=LOCATION`, `flips=5>3,4>1`, `dice=N`, `low`, `force`, `acc=N`, `power=N`, `arsenal=WEAPON`."),
    ("damage-grid", "lunge", {"acc": "30"}, "`lunge`: `acc` must be a whole number from -20 to 20, not `30`. Type e.g. `options:\"acc=-20\"`."),
    ("damage-grid", "damage", {"health": "lots"}, "`damage`: `health` must be a whole number from 1 to 99, not `lots`. Type e.g. `options:\"health=2\"`."),
    ("damage-grid", "heal", {"health": ""}, "`heal`: `health` is not one of its `options` words. Type one of `LOCATION=N`."),
    ("damage-grid", "flips", {"none": "", "least-harm": ""}, "`flips`: `choice` is given twice in `options`. Type e.g. `options:\"choice=ANSWER\"`."),
])
def test_action_words_are_refused_in_one_style(key: str, action: str, given: dict[str, str], refusal: str) -> None:
    """A word not declared, a bad value, a word twice or a missing value: the action, the word, what to type."""
    spec = get_system(key).actions.get(action)
    with pytest.raises(RulesError) as refused:
        spec.words.read_words(given, spec.name)
    assert refused.value.message == refusal


def _declared_types(option: Option) -> list[Any]:
    """The annotations a values class may give ``option``: what its reader returns."""
    if option.kind == "int":
        return [int | None] if option.default is None else [int]
    if option.kind == "bool":
        return [bool]
    if option.kind == "choice":
        return [str, Literal[tuple(option.choices)]]
    assert option.parse is not None, f"{option.name}: a custom option reads with its parse function"
    returns = get_type_hints(option.parse)["return"]
    return [returns | None] if option.default is None else [returns]


@pytest.mark.parametrize("system_class", registry.SYSTEMS, ids=[s.key for s in registry.SYSTEMS])
def test_each_option_is_declared_typed_in_the_systems_values_class(system_class: type[RuleSystem]) -> None:
    """Every option has an annotation of its reader's type in the values class its set reads into
    (int -> int, choice -> str or the Literal of its choices, yes/no -> bool, custom -> what its
    parse returns), no annotation lacks an option, and the values read are of those types."""
    options = system_class.options
    values_class = options.values_class
    assert values_class is not OptionValues, f"{system_class.key} reads its options untyped"
    hints = get_type_hints(values_class)
    assert set(hints) == {o.name for o in options}
    read = options.read({})
    for o in options:
        assert hints[o.name] in _declared_types(o), f"{o.name}: {hints[o.name]} is not one of {_declared_types(o)}"
        assert not hasattr(OptionValues, o.name), f"{o.name} is hidden by a method of OptionValues"
        value = getattr(read, o.name)
        if o.kind == "choice":
            assert value in o.choices
        elif o.kind in ("int", "bool") and value is not None:
            assert type(value) is (int if o.kind == "int" else bool)
    assert isinstance(read, values_class)
    if "auto_end" in options:  # the core ends turns by itself only for a system whose values say so
        assert issubclass(values_class, AutoEndValues)


def test_the_shared_auto_end_option_is_read_typed_by_the_core() -> None:
    """`auto_end=no` read by a system with the shared option is a typed False (`AutoEndValues`)
    that the core reads; a system without it reads values that are no `AutoEndValues`."""
    kov, cdg = get_system("knights-of-valour"), get_system("coup-de-grace")
    values = kov.option_values(Encounter(system=kov.key, settings=Settings(options={"auto_end": "no"})))
    assert isinstance(values, AutoEndValues) and values.auto_end is False
    assert not isinstance(cdg.option_values(Encounter(system=cdg.key)), AutoEndValues)


#: every system's list options: each reads a comma-separated list with its own reader
LISTS = [(s.key, o.name) for s in registry.SYSTEMS for o in s.options if o.kind == "custom"]


@pytest.mark.parametrize(("system", "key"), LISTS)
def test_none_clears_every_list_option(system: str, key: str) -> None:
    """"`none` (any case) is an empty list" (docs/commands.md): every system's list option reads `none` as it
    reads nothing listed (the catalogue alone where the list adds to one), and never as an item called `none`."""
    page = " ".join((Path(__file__).parents[2] / "docs" / "commands.md").read_text(encoding="utf-8").split())
    assert "`none` (any case) is an empty list" in page
    options = get_system(system).options
    parse = options.get(key).parse
    assert parse is not None and options.get(key).listed
    empty = parse("")
    for typed in ("none", "None", " NONE "):
        assert options.read({key: typed})[key] == empty


def test_an_unquoted_list_is_refused_saying_to_quote_it() -> None:
    """`options:"weapons=longbow:ranged:8, halberd:melee:2"` splits the list at its space: the refusal of the
    second half says to quote the list whole."""
    options: dict[str, str] = {}
    with pytest.raises(RulesError) as info:
        set_options(get_system("coup-de-grace"), options, parse_options("weapons=longbow:ranged:8, halberd:melee:2"))
    assert "quote it whole, `weapons='longbow:ranged:8, halberd:melee:2'`" in str(info.value)
