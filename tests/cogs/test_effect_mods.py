"""Effects that change numbers: `/effect add mods:"attack+1 defence+1"` through the real command tree.

Each system declares the values effects may change (`RuleSystem.effect_values`); the rules read
the changes where they read the value, as one roll modifier per effect named after it.
"""
from __future__ import annotations

import json

import pytest

from bot.offline.harness import Harness, Sent
from bot.service import Service
from rules.errors import InputError
from tests.cogs.fights import export


def reply(sent: list[Sent]) -> Sent:
    """The reply to the command (not the board or a ping)."""
    return next(s for s in sent if s.kind in ("response", "followup"))


def gm_numbers(sent: list[Sent]) -> str:
    """The GM's private copy with every number, where the reply hides some."""
    return next((s.text for s in sent if "The numbers" in s.text), "")


async def kov_duel(h: Harness) -> None:
    """Knights of Valour: Borin (bob's, Agility 3) next to Grak (the GM's, hidden); Borin's turn."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Ford", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="E3", sheet="agi=3 hp=10 weapons=club:1")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", sheet="agi=2 hp=10 weapons=club:1")
    await h.run("gm", "/init roll")


async def test_kov_bless_adds_to_the_attack_and_the_defence_while_it_lasts(h: Harness) -> None:
    """"if the Attacker Roll equals or exceeds the Defence Value of the Target": Bless's defence+1 turns Grak's 14 against 14 into a miss."""
    await kov_duel(h)
    sent = await h.run("gm", "/effect add", name="Bless", target="Borin", rounds="3", mods="attack+1 defence+1")
    assert "Effect **Bless** on **Borin** (attack +1, defence +1) until the end of Borin's turn (3 times)" in reply(sent).text
    sent = await h.run("bob", "/attack", target="Grak", roll="10")
    # the total counts the hidden Grak's stature: players read the terms without it, the GM's log the total
    assert "+1 Bless vs **Grak**'s defence" in reply(sent).text
    assert "+1 Bless = **12**" in reply(await h.run("gm", "/log", count="1")).text
    await h.run("bob", "/init next")
    sent = await h.run("gm", "/attack", target="Borin", roll="13")
    assert "= **14** vs defence **15** (10 base +1 P.L. club +3 agility +1 Bless): **miss**" in gm_numbers(sent)
    await h.run("gm", "/undo")
    await h.run("gm", "/effect remove", name="Bless")
    sent = await h.run("gm", "/attack", target="Borin", roll="13", combatant="Grak")
    assert "= **14** vs defence **14** (10 base +1 P.L. club +3 agility): **hit**" in gm_numbers(sent)


async def test_kov_damage_change_adds_to_the_hit(h: Harness) -> None:
    """"roll the indicated number of Dice from the Table – this is the Weapon Damage": Might's damage+2 adds to the club's d4."""
    await kov_duel(h)
    await h.run("gm", "/effect add", name="Might", target="Borin", mods="damage+2")
    sent = await h.run("bob", "/attack", target="Grak", roll="19,3")
    text = reply(sent).text
    assert "+2 Might" in text
    grak = next(c for c in (await export(h))["combatants"] if c["name"] == "Grak")
    assert grak["hp"] == 10 - (3 + 2)


async def test_a_value_the_system_does_not_declare_is_refused_naming_the_allowed_ones(h: Harness) -> None:
    """`atk`, an amount out of range, a change on the field and a player's change mid-fight are refused; nothing changes."""
    await kov_duel(h)
    before = await export(h)
    cases = [
        ("gm", {"target": "Borin", "mods": "atk+1"},
         "Bless: 'atk' is not a value effects can change in Knights of Valour; use one of: attack, defence, damage."),
        ("gm", {"target": "Borin", "mods": "attack+11"}, "effects change `attack` by −10 to +10, not +11"),
        ("gm", {"target": "Borin", "mods": "attack+1 please"}, "`please` is not one"),
        ("gm", {"mods": "attack+1", "ends": "end of the round"}, "an effect on the field changes nobody's values"),
        ("bob", {"target": "Borin", "mods": "attack+1"}, "only the GM changes numbers"),
    ]
    for who, options, message in cases:
        r = reply(await h.run(who, "/effect add", name="Bless", **options))
        assert r.ephemeral and message in r.text, r.text
    assert await export(h) == before


async def test_a_player_may_not_remove_an_effect_that_changes_numbers_mid_fight(h: Harness) -> None:
    """A Curse with attack-2 on Borin stays when bob removes it; the GM removes it."""
    await kov_duel(h)
    await h.run("gm", "/effect add", name="Curse", target="Borin", mods="attack-2")
    r = reply(await h.run("bob", "/effect remove", name="Curse"))
    assert r.ephemeral and "changes Borin's numbers" in r.text
    assert [e["name"] for e in (await export(h))["effects"]] == ["Curse"]
    await h.run("gm", "/effect remove", name="Curse")
    assert (await export(h))["effects"] == []


async def test_the_changes_of_a_hidden_combatant_are_the_gms_numbers(h: Harness) -> None:
    """Players read `attack ±?` for Grak's Rage in the reply, on the board, in `/effect list`, `/combatant show` and `/log`; the GM reads +2, and players too once Grak is revealed."""
    await kov_duel(h)
    sent = await h.run("gm", "/effect add", name="Rage", target="Grak", rounds="2", mods="attack+2")
    assert "Rage** on **Grak** (attack ±?)" in reply(sent).text
    assert "(attack +2)" in gm_numbers(sent)
    board = reply(await h.run("bob", "/encounter status", public="true")).text
    assert "Rage on Grak (attack ±?)" in board and "+2" not in board
    assert "Rage on Grak (attack ±?)" in reply(await h.run("bob", "/effect list")).text
    assert "Rage on Grak (attack +2)" in reply(await h.run("gm", "/effect list")).text
    assert "Rage (attack ±?)" in reply(await h.run("bob", "/combatant show", name="Grak")).text
    assert "Rage (attack +2)" in reply(await h.run("gm", "/combatant show", name="Grak")).text
    assert "Rage** on **Grak** (attack ±?)" in reply(await h.run("bob", "/log")).text
    assert "Rage** on **Grak** (attack +2)" in reply(await h.run("gm", "/log")).text
    await h.run("gm", "/encounter reveal", combatant="Grak")
    assert "Rage on Grak (attack +2)" in reply(await h.run("bob", "/effect list")).text


async def test_the_change_ends_with_its_effect_and_undo_brings_it_back(h: Harness) -> None:
    """Bless for one of Borin's turns ends with it, and its change with it; `/undo` restores Bless with its change."""
    await kov_duel(h)
    await h.run("gm", "/effect add", name="Bless", target="Borin", mods="defence+1")
    sent = await h.run("bob", "/init next", confirm="true")
    assert "Effect **Bless** on **Borin** ends" in reply(sent).text
    assert (await export(h))["effects"] == []
    sent = await h.run("gm", "/attack", target="Borin", roll="1")
    assert "vs defence **14** (10 base +1 P.L. club +3 agility): **miss**" in gm_numbers(sent)
    await h.run("gm", "/undo")
    await h.run("gm", "/undo")
    assert [(e["name"], e["mods"]) for e in (await export(h))["effects"]] == [("Bless", {"defence": 1})]


async def test_mods_autocomplete_offers_the_systems_values(h: Harness) -> None:
    """`mods` completes the last word to a declared value, keeping the words before it."""
    await kov_duel(h)
    choices = await h.autocomplete("gm", "/effect add", "mods", "attack+1 de", target="Borin", name="Bless")
    assert choices == ["attack+1 defence+1", "attack+1 defence-1"]


async def test_cdg_haste_changes_the_attack_roll_the_defence_and_the_movement_allowance(h: Harness) -> None:
    """"1d6 >= Defence Value": Haste's attack+1 makes Borin's 3 hit Grak's DV 4, and ma+2 gives his activation 6 MP, not 4."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="E3", facing="E", sheet="class=heavy weapons=hammer,shield")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet="class=light weapons=axe")
    await h.run("gm", "/init roll", roll="6,1")
    await h.run("gm", "/effect add", name="Haste", target="Borin", mods="ma+2 attack+1 defence+1")
    board = reply(await h.run("bob", "/encounter status")).text
    assert "DV 6 (+1 Haste) · MA 6 (+2 Haste)" in board
    sent = await h.run("bob", "/attack", target="Grak", weapon="hammer", roll="3")
    assert "Borin activates with 6 MP" in reply(sent).text
    assert "🎲 3✍ (d6) +1 Haste = **4** vs **Grak**'s DV: **hit**" in reply(sent).text
    await h.run("gm", "/undo")
    await h.run("gm", "/effect remove", name="Haste")
    sent = await h.run("bob", "/attack", target="Grak", weapon="hammer", roll="3")
    assert "Borin activates with 4 MP" in reply(sent).text and "= **3** vs **Grak**'s DV: **miss**" in reply(sent).text


async def tote_duel(h: Harness) -> None:
    """TOTE: Borin (bob's, Strike 1) against Grak (the GM's, Block 9, numbers shown); Borin acts first."""
    await h.run("gm", "/encounter start", system="tote", name="Ford")
    await h.run("gm", "/encounter settings", options="hidden=none")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="heroes", sheet="hawk=2 plan=2 strike=1 weapon=axe:2:slash")
    await h.run("gm", "/combatant add", name="Grak", side="foes", sheet="rating=2 tohit=3 weapon=club:2:bash block=9")
    await h.run("gm", "/init roll")
    await h.run("gm", "/init set", combatant="Borin", value="9")
    await h.run("gm", "/init set", combatant="Grak", value="8")


async def test_tote_bless_adds_to_the_attack_test_and_a_shield_raises_the_block(h: Harness) -> None:
    """A "T8" test must meet its target: Borin's 4 + Paragon 5 misses Block 10 (9 + 1 Shield); Bless's +2 makes it 11, a hit."""
    await tote_duel(h)
    await h.run("gm", "/effect add", name="Shield", target="Grak", mods="block+1")
    sent = await h.run("bob", "/act", action="strike", target="Grak", roll="4,5")
    assert "= **9** vs Block 10: miss" in reply(sent).text
    await h.run("gm", "/undo")
    await h.run("gm", "/effect add", name="Bless", target="Borin", mods="attack+2")
    sent = await h.run("bob", "/act", action="strike", target="Grak", roll="4,5")
    assert "+2 Bless = **11** vs Block 10: hit" in reply(sent).text


async def test_damage_grid_overcharge_adds_a_power_die_and_takes_accuracy(h: Harness) -> None:
    """"the model rolls as many D6 as the Power of the weapon": Overcharge's power+1 rolls 5d6 for a Power 4 gravity-saber, with Accuracy 3 − 1."""
    await h.run("gm", "/encounter start", system="damage-grid", name="Ford", map="10x8")
    await h.run("gm", "/encounter settings", options="hidden=none")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="crew", at="C3", facing="E", sheet="body=2 weapons=gravity-saber:2:4:3:melee")
    await h.run("gm", "/combatant add", name="Grak", side="boarders", at="D3", facing="W", sheet="body=2 weapons=claw:1:3:1:melee")
    await h.run("gm", "/init roll")
    refused = reply(await h.run("gm", "/effect add", name="Overcharge", target="Borin", mods="attack+1"))
    assert "use one of: power, accuracy" in refused.text
    await h.run("gm", "/effect add", name="Overcharge", target="Borin", mods="power+1 accuracy-1")
    sent = await h.run("bob", "/attack", target="Grak", roll="1,2,3,4,5")
    text = reply(sent).text
    assert "Power 4 gravity-saber +1 Overcharge = 5; Accuracy 3 gravity-saber −1 Overcharge = 2" in text
    assert "(5d6)" in text


async def test_war_and_combat_bless_and_a_shield_change_the_attack_and_the_defense(h: Harness) -> None:
    """"3d6 + skill vs Defense": Bless's attack+2 makes Borin's 12 + 4 into 18, and Grak's Shield raises his front Defense from 13 to 14."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Ford", map="16x12 hex")
    await h.run("gm", "/encounter settings", options="declare=hidden hidden=none")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="D4", facing="SE",
                sheet="agl=13 fighter=6 skills=broadsword:3 weapons=broadsword")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="E5", facing="NW", sheet="fighter=3 skills=axe:2 weapons=axe")
    await h.run("gm", "/init roll", roll="6,5,4,1,5,5")
    await h.run("bob", "/init next", confirm="true")
    await h.run("gm", "/init next", confirm="true")  # both engaged: the flurry begins
    await h.run("gm", "/effect add", name="Bless", target="Borin", ends="end of the round", mods="attack+2")
    await h.run("gm", "/effect add", name="Shield", target="Grak", ends="end of the round", mods="defense+1")
    await h.run("bob", "/act", action="declare", options="intent=kill tactic=hold")
    await h.run("gm", "/act", combatant="Grak", action="declare", options="intent=kill tactic=hold", roll="5,5,5,3,3,3")
    sent = await h.run("bob", "/attack", target="Grak", roll="4,4,4,3,5,4")
    assert "+3 skill +1 Agility +2 Bless = **18** vs Defense (front, +1 Shield) 14: hit" in reply(sent).text


async def test_an_imported_effect_changes_only_what_mods_could_change(h: Harness) -> None:
    """An exported Bless imports back; one changing `speed`, or attack by 11, is refused as `/effect add` refuses it."""
    await kov_duel(h)
    await h.run("gm", "/effect add", name="Bless", target="Borin", mods="attack+1")
    data = await export(h)
    assert Service.read_export(json.dumps(data).encode(), "1").effects[0].mods == {"attack": 1}
    for mods, words in (({"speed": 1}, "'speed' is not a value effects can change in Knights of Valour"),
                        ({"attack": 11}, "effects change `attack` by −10 to +10, not +11")):
        data["effects"][0]["mods"] = mods
        with pytest.raises(InputError) as refused:
            Service.read_export(json.dumps(data).encode(), "1")
        assert "The effect Bless in the file is not valid" in refused.value.message and words in refused.value.message
