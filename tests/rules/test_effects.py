"""Effects with durations: the moments a turn passes, the count-down, and the tick after every action."""
from __future__ import annotations

import pytest

from rules.actions import make_action
from rules.dice import Dice
from rules.effects import (
    Effect,
    active,
    modifiers,
    moments,
    next_id,
    parse_ends,
    parse_mods,
    tick,
    total,
)
from rules.errors import InputError
from rules.events import EffectEnded
from rules.registry import all_systems
from tests.scenario import Scenario


def _effect(**kw) -> Effect:
    return Effect(**{"id": 1, "name": "Bless", "target": "Grak", **kw})


def test_moments_of_a_turn_passing_within_a_round():
    """Grak's turn ends and Borin's starts: no round or phase ends."""
    assert moments((1, None, (1, 0), "Grak"), (1, None, (1, 1), "Borin")) == [("turn_end", "Grak"), ("turn_start", "Borin")]


def test_moments_of_a_new_round_and_phase():
    """A new round ends the last turn, the phase and the round, then the first turn starts."""
    assert moments((1, "flurry", (1,), "Grak"), (2, "movement", (2,), "Borin")) == [
        ("turn_end", "Grak"), ("phase_end", None), ("round_end", None), ("turn_start", "Borin"),
    ]


def test_the_same_combatant_again_next_round_ends_and_starts_a_turn():
    """Alone on the field, Grak's turn still ends and starts again when the round turns."""
    assert moments((1, None, (1,), "Grak"), (2, None, (2,), "Grak")) == [
        ("turn_end", "Grak"), ("round_end", None), ("turn_start", "Grak"),
    ]


def test_a_side_activation_that_starts_and_ends_in_one_action():
    """With a side to act and nobody current, the actor who passes the turn had a whole turn in one action."""
    assert moments((1, None, (1, 0), None), (1, None, (1, 1), None), actor="Borin") == [
        ("turn_start", "Borin"), ("turn_end", "Borin"),
    ]
    # an activation that begins (nobody current -> Borin, same key) only starts Borin's turn
    assert moments((1, None, (1, 0), None), (1, None, (1, 0), "Borin"), actor="Borin") == [("turn_start", "Borin")]


def test_nothing_passes_when_the_turn_stays_or_combat_starts():
    """The same point passes nothing; the first round's start ends no round and no turn."""
    assert moments((1, None, (1,), "Grak"), (1, None, (1,), "Grak")) == []
    assert moments((0, None, (), None), (1, None, (1,), "Grak")) == [("turn_start", "Grak")]


def test_tick_counts_down_only_at_its_own_moment():
    """An effect lasting 2 ends of Grak's turn survives Borin's turn end and one of Grak's."""
    e = _effect(ends="turn_end", left=2)
    kept, ended = tick([e], [("turn_end", "Borin")])
    assert kept == [e] and ended == []
    kept, ended = tick(kept, [("turn_end", "Grak")])
    assert kept[0].left == 1 and ended == []
    kept, ended = tick(kept, [("turn_end", "Grak"), ("turn_start", "Borin")])
    assert kept == [] and [x.name for x in ended] == ["Bless"]


def test_of_names_whose_turn_counts():
    """"Until the end of Borin's turn" on Grak counts Borin's turns, not Grak's."""
    e = _effect(ends="turn_end", of="Borin")
    assert tick([e], [("turn_end", "Grak")]) == ([e], [])
    assert tick([e], [("turn_end", "Borin")])[1] == [e]


def test_round_and_phase_effects_and_lookups():
    """A round effect ends at the round's end; `active` finds a system's coded condition."""
    stun = _effect(name="Stunned", code="stun", ends="round_end")
    cloud = Effect(id=2, name="Cloud", ends="phase_end", left=4, cells=["C3"])
    assert active([stun, cloud], "Grak", "stun") is stun and active([cloud], "Grak", "stun") is None
    kept, ended = tick([stun, cloud], [("phase_end", None), ("round_end", None)])
    assert ended == [stun] and kept[0].left == 3
    assert next_id([stun, cloud]) == 3 and next_id([]) == 1


def test_resolve_ticks_effects_when_the_turn_passes():
    """After `/init next` an effect ending at the end of the acting combatant's turn is gone, logged as ended."""
    s = Scenario("knights-of-valour", map="8x6")
    s.add("Borin", "agi=3 hp=10", side="heroes", at="B2").add("Grak", "agi=0 hp=10", side="foes", at="F5")
    s.run("init_roll")
    first = s.enc.current
    s.enc.effects = [Effect(id=1, name="Bless", target=first, ends="turn_end")]
    res = s.run("next", actor=first)
    assert s.enc.effects == []
    assert [e for e in res.events if isinstance(e, EffectEnded)] == [EffectEnded(actor=first, name="Bless")]


def test_a_gm_effect_whose_whole_life_passes_in_one_action_ends_in_it():
    """"`/effect add target:Grak name:Haste ends:"start of Grak's turn"`" put on in Borin's turn lasts until
    Grak's turn starts: the one `/init next` that ends Borin's turn and starts Grak's ends it, saying so."""
    s = Scenario("knights-of-valour", map="8x6")
    s.add("Borin", "agi=3 hp=10", side="heroes", at="B2").add("Grak", "agi=0 hp=10", side="foes", at="F5")
    s.run("init_roll")
    s.run("effect_add", actor="Grak", effect="Haste", rounds=1, ends="start of Grak's turn")
    res = s.run("next", actor="Borin")
    assert s.enc.current == "Grak" and s.enc.effects == []
    assert [e for e in res.events if isinstance(e, EffectEnded)] == [EffectEnded(actor="Grak", name="Haste")]


def _two(key: str) -> Scenario:
    """A started fight of two in system ``key``, with no dice left to give until a round ends."""
    if key == "tote":
        s = Scenario(key, first_round_gain="no").add("Ann", "strike=1 hawk=1", side="heroes")
        s.add("Grak", "rating=2", side="foes").run("init_set", actor="Ann", value=2)
        s.run("init_set", actor="Grak", value=1)
    elif key == "war-and-combat":
        s = Scenario(key).add("Borin", "fighter=6 skills=tactics:2", side="dwarves", at="B2", facing="S")
        s.add("Grak", "fighter=3", side="orcs", at="L10", facing="N", owner=None)
    elif key == "open":
        s = Scenario(key, map="12x10").add("Ann", "hp=20 init=+10", at="B2").add("Grak", "hp=20", at="L10", side="foes")
    else:
        sheets = {"coup-de-grace": ("class=heavy", "class=light"), "knights-of-valour": ("agi=3 hp=10", "agi=0 hp=10"),
                  "damage-grid": ("", "")}[key]
        s = Scenario(key, map="12x10", tie="join") if key == "coup-de-grace" else Scenario(key, map="12x10")
        s.add("Borin", sheets[0], side="a", at="B3").add("Grak", sheets[1], side="b", at="F3")
    s.run("init_roll", {"war-and-combat": [2, 3, 4, 5, 6, 4], "open": [10, 1]}.get(key, []))
    return s


@pytest.mark.parametrize("key", [s.key for s in all_systems()])
def test_an_effect_ending_with_the_round_is_told_before_the_next_round_begins(key: str):
    """Effects "end with a line in the reply of the action that ended them" (docs/commands.md), told as it happened:
    one that lasts `ends:"end of the round"` ends before the next round begins, so its line comes first."""
    s = _two(key)
    s.run("effect_add", effect="Fog", rounds=1, ends="end of the round")
    while s.enc.round == 1:
        turn = s.system.turn(s.enc)
        # War & Combat's last adjustment ends the round, rolling the next one's initiative
        last = key == "war-and-combat" and (s.enc.phase, s.enc.current) == ("adjustment", "Grak")
        res = s.run("next", [3, 3, 3, 4, 4, 4] if last else [], actor=turn.current or turn.actors[0])
    ended = next(i for i, e in enumerate(res.events) if isinstance(e, EffectEnded))
    assert s.enc.effects == [] and ended < next(i for i, e in enumerate(res.events) if e.begins)
    lines = s.text(res)
    assert lines.index("Effect **Fog** ends") < next(i for i, x in enumerate(lines) if x.startswith("**Round 2** begins"))


@pytest.mark.parametrize("key", [s.key for s in all_systems()])
def test_an_effect_ending_with_a_turn_is_told_before_the_next_turn_begins(key: str):
    """Effects "end with a line in the reply of the action that ended them" (docs/commands.md), told as it happened:
    one lasting until the end of Borin's turn ends before the next turn (a side's activation) is told, where the reply
    tells it (TOTE's and War & Combat's replies leave the next turn to the ping)."""
    s = _two(key)
    turn = s.system.turn(s.enc)
    first = turn.current or turn.actors[0]
    s.run("effect_add", actor=first, effect="Bless", rounds=1)
    res = s.run("next", actor=first)
    assert s.enc.effects == [] and [e for e in res.events if isinstance(e, EffectEnded)] == [EffectEnded(actor=first, name="Bless")]
    lines = s.text(res)
    other = next(c.name for c in s.enc.combatants if c.name != first)
    assert all(i > lines.index(f"Effect **Bless** on **{first}** ends") for i, x in enumerate(lines) if other in x)


def test_the_turn_a_caller_gives_counts_effects_down_as_the_one_worked_out():
    """"Effects count down as turns pass" (docs/commands.md), from the turn the caller has worked out (the bot's
    cached one) exactly as from the one `resolve` works out itself: the same events and the same state."""
    s = _two("open")
    s.run("effect_add", actor="Ann", effect="Bless", rounds=1)
    end = make_action("next", actor="Ann", is_gm=True)
    given = s.system.resolve(s.enc, end, Dice.fixed(()), turn=s.system.turn(s.enc))
    worked_out = s.system.resolve(s.enc, end, Dice.fixed(()))
    assert given == worked_out and given.encounter.effects == []
    assert EffectEnded(actor="Ann", name="Bless") in given.events


def test_effects_on_a_removed_combatant_end_with_it():
    """Removing a combatant ends the effects on it."""
    s = Scenario("knights-of-valour", map="8x6")
    s.add("Borin", "agi=3 hp=10", side="heroes", at="B2").add("Grak", "agi=0 hp=10", side="foes", at="F5")
    s.enc.effects = [Effect(id=1, name="Bless", target="Grak", left=3)]
    s.run("remove", actor="Grak")
    assert s.enc.effects == []


def test_an_effect_timed_by_a_removed_combatants_turn_ends_with_it():
    """"so does an effect timed by a combatant's turn when that combatant is removed" (docs/commands.md): Haste on
    Borin until the end of Grak's turn ends, with its line, when Grak leaves; Borin's own Bless and the round's Fog run on."""
    s = Scenario("knights-of-valour", map="8x6")
    s.add("Borin", "agi=3 hp=10", side="heroes", at="B2").add("Grak", "agi=0 hp=10", side="foes", at="F5")
    s.add("Snaga", "agi=0 hp=10", side="foes", at="F3").run("init_roll")
    s.run("effect_add", actor="Borin", effect="Haste", rounds=2, ends="end of Grak's turn")
    s.run("effect_add", actor="Borin", effect="Ward", rounds=2, ends="start of grak's turn")
    s.run("effect_add", actor="Borin", effect="Bless", rounds=2)
    s.run("effect_add", effect="Fog", rounds=2, ends="end of the round")
    res = s.run("remove", actor="Grak")
    assert [e.name for e in s.enc.effects] == ["Bless", "Fog"]
    assert [e for e in res.events if isinstance(e, EffectEnded)] == [
        EffectEnded(actor="Borin", name="Haste"), EffectEnded(actor="Borin", name="Ward"),
    ]
    assert "Effect **Haste** on **Borin** ends" in s.text(res)


def test_mods_are_read_against_the_systems_declared_values():
    """Every system's `mods` reader takes its own values with a sign, and refuses another system's, naming its own."""
    for system in all_systems():
        first = system.effect_values[0]
        assert parse_mods(f"{first.name}+1", "Bless", system.effect_values, system.title) == {first.name: 1}
        assert parse_mods(f"{first.name} -2", "Bless", system.effect_values, system.title) == {first.name: -2}
        try:
            parse_mods("flight+1", "Bless", system.effect_values, system.title)
        except InputError as e:
            assert str(e) == (f"Bless: 'flight' is not a value effects can change in {system.title}; use one of: "
                              + ", ".join(v.name for v in system.effect_values) + ".")
        else:
            raise AssertionError(f"{system.key} took flight+1")


def test_the_mods_refusal_gives_an_example_its_own_system_takes():
    """In every system a `mods` text that is not changes is refused with an example of that system's values, which it accepts."""
    for system in all_systems():
        first = system.effect_values[0]
        with pytest.raises(InputError) as refused:
            parse_mods(f"{first.name}+1 oops", "Bless", system.effect_values, system.title)
        example = str(refused.value).split("changes like `", 1)[1].split("`")[0]
        assert len(parse_mods(example, "Bless", system.effect_values, system.title)) == min(len(system.effect_values), 2)


def test_modifiers_name_each_running_effect_on_the_target_and_add_up():
    """Bless and Rage on Grak both change attack: two modifiers, summed; Borin's effect and a reminder change nothing of Grak's."""
    effects = [
        _effect(mods={"attack": 1, "defence": 1}),
        _effect(id=2, name="Rage", mods={"attack": 2}),
        _effect(id=3, name="Bless", target="Borin", mods={"attack": 5}),
        _effect(id=4, name="Watch"),
    ]
    assert [(m.args, m.value) for m in modifiers(effects, "Grak", "attack")] == [(["Bless"], 1), (["Rage"], 2)]
    assert total(effects, "Grak", "attack") == 3 and total(effects, "Grak", "damage") == 0


def test_an_effect_ending_at_an_activations_start_no_longer_counts_in_its_first_action():
    """"An activation starts with the model's first action, so an effect that ends at the start of its turn no
    longer counts in it" (docs/commands.md): an `attack+3` ending at the start of the attacker's turn is gone from the
    attack that activates it, and its end is told right after "X activates", before the attack."""
    s = Scenario("coup-de-grace", map="12x10", tie="join")
    s.add("Borin", "class=heavy weapons=hammer", side="dwarves", at="C4", facing="E")
    s.add("Grak", "class=light weapons=axe", side="orcs", at="D4", facing="W")
    s.run("init_roll")
    first = s.system.turn(s.enc).actors[0]
    other = "Borin" if first == "Grak" else "Grak"
    s.run("effect_add", actor=first, effect="Boost", rounds=1, ends=f"start of {first}'s turn", mods="attack+3")
    res = s.run("attack", [1], actor=first, target=other)
    lines = s.text(res)
    assert s.enc.effects == [] and not any("Boost" in x for x in lines if "attacks" in x)
    start = next(i for i, x in enumerate(lines) if x.startswith(f"{first} activates"))
    assert lines[start + 1] == f"Effect **Boost** on **{first}** ends"


def test_an_effect_lasting_two_activation_starts_counts_the_first_once():
    """"An activation starts with the model's first action" (docs/commands.md): the start of Grak's turn is counted
    once as it begins, not again when the action is done, so an effect for 2 starts of Grak's turn outlives the first."""
    s = _two("coup-de-grace")
    first = s.system.turn(s.enc).actors[0]
    s.run("effect_add", actor=first, effect="Haste", rounds=2, ends=f"start of {first}'s turn")
    s.run("next", actor=first)
    assert [(e.name, e.left) for e in s.enc.effects] == [("Haste", 1)]


def test_a_pass_tells_the_effect_ending_at_its_start_before_the_next_side_activates():
    """"An activation starts with the model's first action" (docs/commands.md): a model that passes
    (`/init next combatant:Grak`) starts its activation, so an effect ending at the start of its turn is told
    right after its activation starts, before the next side is told to activate."""
    s = _two("damage-grid")
    first = s.system.turn(s.enc).actors[0]
    s.run("effect_add", actor=first, effect="Haste", rounds=1, ends=f"start of {first}'s turn")
    res = s.run("next", actor=first)
    lines = s.text(res)
    start = next(i for i, x in enumerate(lines) if x.startswith(f"**{first}** activates"))
    assert lines[start + 1] == f"Effect **Haste** on **{first}** ends"


#: the systems whose rounds have phases: "each of which consists of three phases: movement, flurries, and adjustment"
#: (war-and-combat.txt); "A round has 4 phases" (the damage grid's default, docs/systems/damage-grid.md)
PHASED = {"war-and-combat", "damage-grid"}


@pytest.mark.parametrize("key", [s.key for s in all_systems()])
def test_end_of_the_phase_only_where_rounds_have_phases(key: str):
    """`ends` takes `"end of the phase"` "in the damage grid and War & Combat, whose rounds have phases"
    (docs/commands.md); elsewhere it would never come, so it is refused naming the endings the system has, changing nothing."""
    s = _two(key)
    if key in PHASED:
        s.run("effect_add", effect="Fog", rounds=1, ends="end of the phase")
        assert [(e.name, e.ends) for e in s.enc.effects] == [("Fog", "phase_end")]
        return
    message = s.refused("effect_add", effect="Fog", rounds=1, ends="end of the phase")
    assert message == (
        f"{s.system.title} has no phases, so an effect cannot end at the end of the phase: say "
        "\"end of Grak's turn\", \"start of Grak's turn\" or \"end of the round\"."
    )
    assert s.enc.effects == []


def test_its_turn_is_the_targets_own():
    """`ends` "may name anyone's turn" and "`"start of its turn"` or `"end of its turn"` is the target's own"
    (docs/commands.md): Haste on Grak until the start of its turn counts Grak's turns; the named forms still read."""
    s = Scenario("knights-of-valour", map="8x6")
    s.add("Borin", "agi=3 hp=10", side="heroes", at="B2").add("Grak", "agi=0 hp=10", side="foes", at="F5")
    s.run("init_roll")
    s.run("effect_add", actor="Grak", effect="Haste", rounds=1, ends="start of its turn")
    s.run("effect_add", actor="Grak", effect="Rage", rounds=1, ends="End of its next turn")
    assert [(e.name, e.counts_at) for e in s.enc.effects] == [("Haste", ("turn_start", "Grak")), ("Rage", ("turn_end", "Grak"))]
    names = ["Borin", "Grak"]
    assert parse_ends("at the end of their turn", "Grak", names) == ("turn_end", "Grak")
    assert parse_ends("start of Borin's turn", "Grak", names) == ("turn_start", "Borin")
    assert parse_ends("end of borin’s next turn", "Grak", names) == ("turn_end", "Borin")
    assert parse_ends("end of turn", "Grak", names) == ("turn_end", "Grak")
    with pytest.raises(InputError, match="An effect on the field counts rounds"):
        parse_ends("start of its turn", None, names)


def test_an_effect_ending_as_an_answered_attacks_activation_starts_no_longer_counts_in_it():
    """"An activation starts with the model's first action, so an effect that ends at the start of its turn no
    longer counts in it: its end is told right after the activation starts" (docs/commands.md), also when the attack
    waits for its target's owner to choose the flips (damage grid, `target_flips=ask`): the activation starts with the
    answer, so a `power+1` ending then neither counts in the declared attack nor in the one the answer resolves."""
    from tests.rules.damage_grid.build import duel

    s = duel(a_sheet="weapons=gun:4:12:-10", b_sheet="health=9 body=9", b_at="E6", target_flips="ask")
    s.run("effect_add", actor="Meena", effect="Boost", rounds=1, ends="start of Meena's turn", mods="power+1")
    asked = s.run("attack", [1] * 12, actor="Meena", target="Hera")
    assert [e.name for e in s.enc.effects] == ["Boost"] and not any("Boost" in x for x in s.text(asked))
    lines = s.text(s.run("act", action="flips", actor="Hera", options={"choice": "least-harm"}))
    start = lines.index("**Meena** activates: a Combat activation (2 CP to spend)")
    assert lines[start + 1] == "Effect **Boost** on **Meena** ends"
    assert "\nPower 12 gun = 12; Accuracy -10 gun = -10\n" in lines[start + 2]
    assert s.enc.effects == []


def test_ends_naming_nobody_here_quotes_the_name_as_typed():
    """"`ends` may name anyone's turn (`"start of Borin's turn"`)" (docs/commands.md): one naming nobody in the
    encounter is refused quoting the name as typed ("Nobody", not "nobody"), and the words it expects."""
    with pytest.raises(InputError) as refusal:
        parse_ends("end of Nobody's turn", "Alda", ["Alda", "Grak"])
    assert str(refusal.value).startswith('`ends` names "Nobody", who is not in this encounter: name a combatant')
    assert parse_ends("END OF GRAK'S TURN", "Alda", ["Alda", "Grak"]) == ("turn_end", "Grak")


def test_removing_an_effect_the_target_has_not_lists_the_targets_effects_only() -> None:
    """Bad input "gets a clear message that says what to do instead": `/effect remove name:prone target:Borin` when
    Borin is not prone lists Borin's effects, not the others' (which read as if Borin had them); with no target, each
    effect is listed with whom it is on."""
    s = Scenario("open").add("Borin", "hp=9", at="B2").add("Ann", "hp=9", at="C2")
    s.run("effect_add", effect="blessed", actor="Ann", rounds=2)
    message = s.refused("effect_remove", effect="prone", actor="Borin", error=InputError)
    assert message == "No effect called prone on Borin. Borin's effects: none."
    assert s.refused("effect_remove", effect="prone", error=InputError) == "No effect called prone. Effects now: blessed on Ann."
