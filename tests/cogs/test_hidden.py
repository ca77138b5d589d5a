"""Hidden information: players see the GM's combatants' health as a condition word until the GM reveals it."""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from bot.offline.harness import Harness, Sent, channel_id_of
from rules.models import Combatant
from rules.registry import get_system
from tests.cogs.fights import BORIN, GRAK, export, started_cdg


def system_state(system, **fields):
    """A combatant state of ``system`` with ``fields``."""
    return system.combatant_state(**fields)


def reply(sent: list[Sent]) -> Sent:
    """The reply to the command (not the board or a ping)."""
    return next(s for s in sent if s.kind in ("response", "followup"))


def board(sent: list[Sent]) -> str:
    """The status board as last posted or edited in ``sent``."""
    return [s for s in sent if s.kind in ("channel", "channel_edit") and s.text.startswith("⚔️")][-1].text


async def hit_grak(h: Harness, who: str = "bob") -> list[Sent]:
    """Borin steps next to Grak and hits him with the hammer for 1 (Grak: 3 -> 2 HP, bashed back to G3)."""
    await started_cdg(h)
    await h.run("bob", "/move", to="E3")
    return await h.run(who, "/attack", combatant="Borin", target="Grak", weapon="hammer", roll="5")


async def test_a_players_hit_shows_the_gms_combatant_as_a_condition(h: Harness) -> None:
    """The public reply and the board say Grak is hurt, never his hit points; Borin's stay in numbers."""
    sent = await hit_grak(h)
    text = reply(sent).text
    assert "**Grak** takes 1 damage (now hurt)" in text and "3 → 2" not in text
    shown = board(sent)
    assert "**Grak** · G3 W · hurt" in shown and "2/3 HP" not in shown
    assert "**Borin** · E3 E · 3/3 HP" in shown
    assert not [s for s in sent if s.kind == "followup" and s.ephemeral]


async def test_the_gm_gets_the_numbers_privately(h: Harness) -> None:
    """When the GM resolves the hit, the numbers follow in a reply only the GM sees."""
    sent = await hit_grak(h, who="gm")
    assert "(now hurt)" in reply(sent).text
    private = [s for s in sent if s.kind == "followup" and s.ephemeral]
    assert len(private) == 1 and "**Grak** takes 1 damage (3 → 2)" in private[0].text


async def test_status_is_numbers_for_the_gm_and_conditions_for_players(h: Harness) -> None:
    """`/encounter status`: the GM's private copy has every number; a player's, and a public one, do not."""
    await hit_grak(h)
    assert "**Grak** · G3 W · 2/3 HP" in reply(await h.run("gm", "/encounter status")).text
    assert "**Grak** · G3 W · hurt" in reply(await h.run("bob", "/encounter status")).text
    assert "**Grak** · G3 W · hurt" in reply(await h.run("gm", "/encounter status", public="true")).text


async def test_show_of_a_hidden_combatant_shows_players_only_what_is_public(h: Harness) -> None:
    """`/combatant show Grak` gives a player his place and condition, no sheet; the GM sees the sheet."""
    await hit_grak(h)
    text = reply(await h.run("bob", "/combatant show", name="Grak")).text
    assert "hurt" in text and "Sheet" not in text and "HP" not in text and "axe" not in text
    assert "Sheet: hp=3 class=light weapons=axe" in reply(await h.run("gm", "/combatant show", name="Grak")).text


async def test_reveal_one_then_all_then_hide_again_and_undo(h: Harness) -> None:
    """The GM reveals Grak, hides him again, reveals everyone; `/undo` steps back; players cannot reveal."""
    await hit_grak(h)
    refused = reply(await h.run("bob", "/encounter reveal", combatant="Grak"))
    assert refused.ephemeral and "Only the GM" in refused.text
    sent = await h.run("gm", "/encounter reveal", combatant="Grak")
    assert "Grak's numbers are shown to everyone." in reply(sent).text and "**Grak** · G3 W · 2/3 HP" in board(sent)
    sent = await h.run("gm", "/encounter reveal", combatant="Grak", hide="true")
    assert "**Grak** · G3 W · hurt" in board(sent)
    await h.run("gm", "/encounter reveal")
    assert "2/3 HP" in reply(await h.run("bob", "/encounter status")).text
    await h.run("gm", "/undo")
    assert "**Grak** · G3 W · hurt" in reply(await h.run("bob", "/encounter status")).text
    mine = reply(await h.run("gm", "/encounter reveal", combatant="Borin"))
    assert mine.ephemeral and "players' combatants always show their numbers" in mine.text


async def test_players_export_only_when_nothing_is_hidden(h: Harness) -> None:
    """A player's export would show hidden numbers, so it is the GM's until every combatant is revealed."""
    await started_cdg(h)
    refused = reply(await h.run("bob", "/encounter export"))
    assert refused.ephemeral and "hidden from players" in refused.text
    await h.run("gm", "/encounter reveal")
    assert (await export(h, who="bob"))["settings"]["reveal"] is True


@pytest.mark.parametrize(
    "hp, status, word",
    [(3, "active", "unhurt"), (2, "active", "hurt"), (1, "active", "badly hurt"), (0, "downed", "down"), (-1, "out", "out")],
)
def test_condition_words_follow_the_share_of_health_left(hp: int, status: str, word: str) -> None:
    """unhurt at full health, hurt above half, badly hurt at half or less, then down and out."""
    system = get_system("coup-de-grace")
    c = Combatant(name="Grak", hp=hp, status=status, sheet={"hp": 3})
    c.state = system_state(system, hp_max=3)
    assert system.condition(c) == word


def gm_private(sent: list[Sent]) -> str:
    """The follow-up only the GM sees (the numbers behind the public reply)."""
    return "\n".join(s.text for s in sent if s.kind == "followup" and s.ephemeral)


def public_texts(sent: list[Sent]) -> str:
    """Every message of ``sent`` that is not ephemeral: what the whole channel reads."""
    return "\n".join(s.text for s in sent if not s.ephemeral)


async def test_adding_a_hidden_combatant_shows_players_no_sheet(h: Harness) -> None:
    """`/combatant add` (one, or `count:`) says who joined where; the sheet goes to the GM alone."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    sent = await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet="class=light weapons=axe hp=17")
    assert "**Grak** joins **orcs** at F3 facing W, the GM's" in reply(sent).text
    assert "hp=17" not in public_texts(sent) and "hp=17" in gm_private(sent)
    sent = await h.run("gm", "/combatant add", name="Orc", count="2", at="E2 E4", sheet="class=light weapons=axe hp=13")
    assert "**Orc 2** joins" in reply(sent).text and "hp=13" not in public_texts(sent)
    assert gm_private(sent).count("hp=13") == 2


async def test_a_gm_edit_mid_fight_says_only_that_the_gm_changed_it(h: Harness) -> None:
    """The reply and the board's GM changes line name Grak, not his new numbers; the GM sees them."""
    await started_cdg(h)
    sent = await h.run("gm", "/combatant edit", name="Grak", sheet="hp=17 dv=9")
    assert "The GM changed **Grak**" in reply(sent).text
    assert "hp=17" not in public_texts(sent) and "dv=9" not in public_texts(sent)
    assert "round 1: the GM changed Grak" in board(sent)
    assert "hp=17" in gm_private(sent)
    assert "round 1: Grak hp=17 dv=9" in reply(await h.run("gm", "/encounter status")).text


async def test_undo_replies_hide_the_undone_numbers(h: Harness) -> None:
    """Undoing a hidden combatant's add repeats what players saw; the GM gets the numbers privately."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Orc", count="3", at="E2 E3 E4", sheet="class=light weapons=axe hp=13")
    sent = await h.run("gm", "/undo")
    assert "Undid /combatant add" in reply(sent).text and "hp=13" not in public_texts(sent)
    assert gm_private(sent).count("hp=13") == 3


async def test_log_is_read_per_reader_and_follows_reveal_and_hide(h: Harness) -> None:
    """A player's `/log` has the public text, the GM's every number; revealing Grak opens his
    earlier entries too, and hiding him again hides them again."""
    await started_cdg(h)
    await h.run("gm", "/combatant edit", name="Grak", sheet="hp=17")

    def logged(sent: list[Sent]) -> str:
        return reply(sent).text

    assert "hp=17" not in logged(await h.run("bob", "/log"))
    assert "hp=17" not in logged(await h.run("gm", "/log", public="true"))
    assert "hp=17" in logged(await h.run("gm", "/log"))
    await h.run("gm", "/encounter reveal", combatant="Grak")
    assert "hp=17" in logged(await h.run("bob", "/log"))
    await h.run("gm", "/encounter reveal", combatant="Grak", hide="true")
    assert "hp=17" not in logged(await h.run("bob", "/log"))
    await h.run("gm", "/encounter end", confirm="true")
    assert "hp=17" not in logged(await h.run("bob", "/log"))
    assert "hp=17" in logged(await h.run("gm", "/log"))


async def test_a_players_attack_does_not_show_the_hidden_targets_defence(h: Harness) -> None:
    """Borin's reply shows his own die and the hit, and names Grak's DV without its value."""
    sent = await hit_grak(h)
    text = reply(sent).text
    assert "🎲 5✍ (d6) = **5** vs **Grak**'s DV: **hit**" in text and "DV 4" not in text
    assert "DV 4" in reply(await h.run("gm", "/log")).text


async def test_a_hidden_attackers_roll_shows_players_only_the_outcome(h: Harness) -> None:
    """Grak's attack on Borin: players read the miss against Borin's DV, not Grak's die or MP."""
    await started_cdg(h)
    await h.run("gm", "/init next", combatant="Borin", confirm="true")
    moved = await h.run("gm", "/move", combatant="Grak", to="D3")
    assert "**Grak** moves F3 → E3 → D3, facing W" in reply(moved).text and "MP" not in public_texts(moved)
    assert "MP left" in gm_private(moved)
    sent = await h.run("gm", "/attack", combatant="Grak", target="Borin", weapon="axe", roll="2")
    assert "**Grak** attacks **Borin** with axe: 🎲 the GM's roll vs DV 5 +1 shield (Block) = **6**: **miss**" in reply(sent).text
    assert "🎲 2✍ (d6) = **2**" in gm_private(sent)


async def test_a_hidden_attackers_axe_bonus_does_not_name_its_die_to_players(h: Harness) -> None:
    """Grak's axe hits Borin on a 6: Dolorous Blow ("+1 damage on a natural 6") adds to the damage
    players read, but "(natural 6)" is Grak's die, hidden from players in the reply and the log
    as the roll itself is; the GM's numbers name it."""
    await started_cdg(h)
    await h.run("gm", "/init next", combatant="Borin", confirm="true")
    await h.run("gm", "/move", combatant="Grak", to="D3")
    sent = await h.run("gm", "/attack", combatant="Grak", target="Borin", weapon="axe", roll="6")
    assert "**Borin** takes 2 damage (3 → 1): 1 +1 axe Dolorous Blow" in reply(sent).text
    assert "natural" not in public_texts(sent)
    assert "1 +1 axe Dolorous Blow (natural 6)" in gm_private(sent)
    logged = reply(await h.run("bob", "/log", count="1")).text
    assert "+1 axe Dolorous Blow" in logged and "natural" not in logged
    assert "+1 axe Dolorous Blow (natural 6)" in reply(await h.run("gm", "/log", count="1")).text


async def test_a_hidden_attackers_roll_names_what_it_is_against(h: Harness) -> None:
    """The open system: Grak's die, modifiers and total are the GM's, but Alda's AC is a player's
    number and "AC" the rules' word: players read `the GM's roll vs AC 14`, not `vs ? 14`."""
    await h.run("gm", "/encounter start", system="open", name="Road", map="8x6")
    await h.run("gm", "/combatant add", name="Alda", owner="@bob", side="heroes", at="C3",
                sheet="hp=12 ac=14 init=+20 weapons=longsword:+5:1d8+3:slashing")
    await h.run("gm", "/combatant add", name="Grak", side="foes", at="D3", sheet="hp=15 ac=13 weapons=club:+4:1d6+2:bludgeoning")
    await h.run("gm", "/init roll")
    await h.run("bob", "/init next", confirm="true")
    sent = await h.run("gm", "/attack", combatant="Grak", target="Alda", roll="13,5")
    assert "**Grak** attacks **Alda** with the club: 🎲 the GM's roll vs AC 14: **hit**" in reply(sent).text
    assert "🎲 13✍ (d20) +4 club = **17** vs AC 14" in gm_private(sent)
    assert "vs AC 14" in reply(await h.run("bob", "/log", count="1")).text


async def test_a_hidden_crossbows_reroll_does_not_name_its_die_to_players(h: Harness) -> None:
    """Coup-De-Grace's crossbow ("reroll a 2 once per round"): Grak's reroll is told to players
    without the 2 it rerolled (his die), to the GM with it."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="B3", facing="E",
                sheet="class=light hp=9 weapons=hammer")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet="class=unarmoured hp=6 weapons=crossbow")
    await h.run("gm", "/init roll", roll="1,6")  # the orcs win the roll-off
    sent = await h.run("gm", "/attack", combatant="Grak", target="Borin", roll="2,5")
    assert "**hit** (crossbow Accuracy: a die is rerolled, once a round)" in reply(sent).text
    assert "2" not in public_texts(sent).split("crossbow Accuracy")[1].split(")")[0]
    assert "(crossbow Accuracy: the missing 2 is rerolled, once a round)" in gm_private(sent)


async def test_a_hidden_damage_grid_attackers_reach_is_left_out_not_shown_as_a_question_mark(h: Harness) -> None:
    """The damage grid: where Grak's Reach counted differs from the distance, the count is his
    number; players read "(Reach 2, melee)" as the GM's own line has no count either, not
    "(Reach 2, counted ?, melee)"."""
    await h.run("gm", "/encounter start", system="damage-grid", name="Yard", map="8x6")
    sheet = "body=2 weapons=gravity-saber:2:4:3:melee,pulse-ring:4:3:1"
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="pcs", at="C3", sheet=sheet)
    await h.run("gm", "/combatant add", name="Thrain", owner="@tess", side="pcs", at="C4", sheet=sheet)
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="D3", sheet=sheet)
    await h.run("gm", "/init roll")
    enc = await h.bot.service.encounter(str(channel_id_of("general")))
    assert enc is not None
    first = get_system(enc.system).turn(enc).actors[0]
    if first != "Grak":  # the players' side acts first: Borin attacks and ends his activation
        await h.run("bob", "/attack", combatant="Borin", target="Grak", weapon="gravity-saber")
        await h.run("bob", "/init next", confirm="true")
    sent = await h.run("gm", "/attack", combatant="Grak", target="Borin", weapon="gravity-saber")
    text = reply(sent).text
    assert "**Grak** attacks **Borin** with gravity-saber (Reach" in text
    assert "counted ?" not in public_texts(sent)


async def test_init_order_and_turn_labels_keep_a_hidden_combatants_numbers(h: Harness) -> None:
    """Knights of Valour: players' `/init order`, the board and the turn ping leave out Grak's
    initiative and movement; the GM's order follows with them privately."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Ford", map="12x10")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C4", sheet="agi=1 hp=14 weapons=warhammer:2")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="H4", sheet="agi=3 hp=12 move=55 weapons=club:2")
    sent = await h.run("gm", "/init roll")
    shown = public_texts(sent)
    assert "Grak to act" in shown and "55" not in shown and "Grak 3" not in shown
    order = await h.run("bob", "/init order")
    assert "**Grak** ·" in reply(order).text and "(3)" not in reply(order).text
    assert "**Grak** (3)" in gm_private(await h.run("gm", "/init order"))
    assert "Order: Grak 3, Borin 1" in reply(await h.run("gm", "/encounter status")).text


async def test_hidden_numbers_follow_from_the_deadline_notice(h: Harness) -> None:
    """A deadline that passes Borin's turn to Grak posts the public text: Grak's turn, not his movement."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Ford", map="12x10")
    await h.run("gm", "/encounter settings", deadline_hours="2", deadline_policy="pass")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C4", sheet="agi=3 hp=14 weapons=warhammer:2")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="H4", sheet="agi=-2 hp=12 move=55 weapons=club:2")
    await h.run("gm", "/init roll")
    clock = h.bot.service.clock
    clock.now += 3 * 3600
    sent = await h.reminders()
    notice = "\n".join(s.text for s in sent)
    assert "Deadline" in notice and "**Grak** to act" in notice and "55" not in notice
    assert "55 ft" in reply(await h.run("gm", "/log")).text


async def test_hidden_none_opens_every_number_and_hidden_gm_closes_them_again(h: Harness) -> None:
    """`options:"hidden=none"` shows players the GM's numbers, earlier log entries too; `hidden=gm` hides them again."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet="class=light weapons=axe hp=17")
    sent = await h.run("gm", "/encounter settings", options="hidden=none")
    assert "`hidden`: **none**" in reply(sent).text and "17/17 HP" in board(sent)
    assert "hp=17" in reply(await h.run("bob", "/log")).text
    sent = await h.run("gm", "/combatant add", name="Snaga", side="orcs", at="F4", facing="W", sheet="class=light weapons=axe hp=13")
    assert "hp=13" in reply(sent).text
    refused = reply(await h.run("gm", "/encounter settings", options="hidden=maybe"))
    assert refused.ephemeral and "`hidden` is `gm`" in refused.text
    await h.run("gm", "/encounter settings", options="hidden=gm")
    logged = reply(await h.run("bob", "/log")).text
    assert "hp=17" not in logged and "hp=13" in logged  # Snaga's add was made while every number was shown
    assert "17/17" not in reply(await h.run("bob", "/encounter status")).text


async def test_a_players_own_combatant_keeps_its_numbers(h: Harness) -> None:
    """Borin is bob's: his HP change, sheet and MP show to everyone while Grak's are hidden."""
    await started_cdg(h)
    sent = await h.run("bob", "/move", to="E3")
    assert "MP left" in reply(sent).text
    await h.run("bob", "/init next")
    await h.run("gm", "/attack", combatant="Grak", target="Borin", weapon="axe", roll="6")
    text = reply(await h.run("tess", "/log")).text
    assert "**Borin** takes 1 damage (3 → 2)" in text or "**Borin** takes 2 damage (3 → 1)" in text


async def test_tote_hit_on_a_hidden_enemy_shows_no_block_resist_or_track(h: Harness) -> None:
    """TOTE: Borin's shot at Grak shows his own test and the hit, not Grak's Block, resist or boxes."""
    await h.run("gm", "/encounter start", system="tote", name="Ford")
    await h.run("gm", "/encounter settings", options="distance=far")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="heroes", sheet="hawk=3 shoot=3 weapon=bow:3:pierce")
    await h.run("gm", "/combatant add", name="Grak", side="foes", sheet="rating=1 block=5 resist=pierce:1 track=6,6,U")
    await h.run("gm", "/init roll", roll="6,6,1,1")
    sent = await h.run("bob", "/attack", target="Grak", weapon="bow", roll="6,6")
    text = public_texts(sent)
    assert "🎲 Shoot [6✍, 6✍," in text and "vs **Grak**'s Block: hit" in text
    assert "Block 5" not in text and "resist" not in text and "[6]" not in text and "**Grak** is hit: bow 3" in text
    logged = reply(await h.run("gm", "/log")).text
    assert "Block 5" in logged and "resist pierce" in logged


async def test_war_and_combat_wound_on_a_hidden_fighter_shows_no_armour(h: Harness) -> None:
    """War & Combat: a hidden fighter's wound says where and how bad, not the impact or what its armour absorbed."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Ford", map="16x12 hex")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="D4", facing="SE",
                sheet="str=14 agl=13 fighter=6 skills=broadsword:3 weapons=broadsword")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="E5", facing="NW", sheet="fighter=3 weapons=axe armor=mail")
    await h.run("gm", "/encounter settings", options="declare=hidden")  # the dice below are in that order
    await h.run("gm", "/init roll", roll="6,5,4,1,5,5")
    await h.run("bob", "/init next", confirm="true")
    await h.run("gm", "/init next", confirm="true")  # engaged: the flurry begins
    await h.run("bob", "/act", action="declare", options="intent=kill tactic=press")
    await h.run("gm", "/act", combatant="Grak", action="declare", options="intent=kill tactic=hold", roll="5,5,5,3,3,3")
    sent = await h.run("bob", "/attack", target="Grak", roll="4,4,4,1,1,2,6,6,5")
    text = public_texts(sent)
    struck = [line for line in text.splitlines() if "is struck in the" in line]
    assert struck and all("absorbed" not in line and "impact" not in line for line in struck)
    assert "impact 🎲" in reply(await h.run("gm", "/log")).text


async def test_a_players_log_does_not_list_a_hidden_combatants_dice(h: Harness) -> None:
    """An entry whose text hides Grak's initiative roll lists its raw dice to the GM's `/log` only (they would tell his roll)."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Ford", map="16x12 hex")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C4", facing="SE",
                sheet="fighter=6 skills=broadsword:3 weapons=broadsword")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="D5", facing="NW", sheet="fighter=3 weapons=axe")
    await h.run("gm", "/init roll")
    played = [line for line in reply(await h.run("bob", "/log")).text.splitlines() if "/init roll" in line]
    assert played and "the GM's roll" in played[0] and not played[0].rstrip().endswith(tuple("123456"))
    gm = [line for line in reply(await h.run("gm", "/log")).text.splitlines() if "/init roll" in line]
    assert re.search(r"Order: \w+, \w+\. 🎲 (\d, ){5}\d$", gm[0])


async def tote_melee(h: Harness, hero: str, owner: str) -> None:
    """A TOTE fight in melee rounds: ``hero`` (``owner``'s) against Grak (the GM's, hidden), initiative rolled."""
    await h.run("gm", "/encounter start", system="tote", name="Ford")
    await h.run("gm", "/encounter settings", options="distance=melee")
    await h.run("gm", "/combatant add", name=hero, owner=f"@{owner}", side="dwarves", sheet="hawk=1 strike=2 impress=2")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="melee", sheet="rating=9 block=9 weapon=club:2:bash")
    await h.run("gm", "/init roll")


async def test_tote_out_of_turn_refusal_does_not_tell_a_hidden_foes_initiative(h: Harness) -> None:
    """TOTE: a player who acts before Grak's turn is told it is Grak's turn, not Grak's initiative."""
    await tote_melee(h, "Thrain", "tess")
    text = reply(await h.run("tess", "/act", combatant="Thrain", action="intimidate", target="Grak")).text
    assert "It is Grak's turn: Thrain (" in text and "initiative" not in text.split("Thrain")[0]


async def test_tote_gm_injury_change_on_a_hidden_foe_says_neither_how_many_nor_the_wrong_way(h: Harness) -> None:
    """TOTE: the GM marking two of Grak's boxes tells players his Injury Track changed and his condition, not "clears ? boxes"."""
    await h.run("gm", "/encounter start", system="tote", name="Ford")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="melee", sheet="rating=9 block=9 weapon=club:2:bash")
    sent = await h.run("gm", "/combatant hp", combatant="Grak", change="-2")
    assert "GM: **Grak**'s Injury Track changed (now " in reply(sent).text and "clears" not in public_texts(sent)
    assert "marks 2 boxes" in gm_private(sent)


async def test_tote_a_hidden_foes_hit_reads_as_a_hit(h: Harness) -> None:
    """TOTE: Grak's Assault that wounds Borin reads "the GM's roll +2 Assault vs Block 8: hit" to players (it
    read "miss", its successes hidden), Borin's Block his own number and named (it read "the GM's
    roll: hit")."""
    await tote_melee(h, "Borin", "bob")
    sent = await h.run("gm", "/act", combatant="Grak", action="assault", target="Borin", roll="6,6,6,6,6,6")
    text = reply(sent).text
    assert "**Borin** takes" in text and "🎲 the GM's roll +2 Assault vs Block 8: hit" in text and ": miss" not in text


async def test_tote_the_return_offered_to_a_player_shows_the_players_own_bonus(h: Harness) -> None:
    """TOTE: Grak's missed Assault offers Borin a return at +2, Borin's own bonus (it read "±?")."""
    await tote_melee(h, "Borin", "bob")
    sent = await h.run("gm", "/act", combatant="Grak", action="assault", target="Borin", roll="1,1,1,1,1,1")
    assert "(free, +2;" in reply(sent).text


async def test_tote_a_hidden_foes_defend_and_return_show_the_encounters_numbers(h: Harness) -> None:
    """TOTE: the Defend penalty and the return attack's bonus are the encounter's options, not Grak's own numbers
    ("No other number of a hidden combatant reaches players", docs/commands.md): players read "−2" and "+2" (they read "−?", "±?")."""
    await tote_melee(h, "Borin", "bob")
    await h.run("gm", "/init set", combatant="Grak", value="0")
    sent = await h.run("bob", "/act", action="assault", target="Grak", roll="1,1,1")
    assert "Grak may return the Assault now: `/attack target:Borin` (free, +2;" in reply(sent).text
    await h.run("gm", "/init next", combatant="Grak", confirm="true")
    sent = await h.run("gm", "/act", combatant="Grak", action="defend")
    assert "Grak defends: attacks against Grak take −2 this round." in reply(sent).text


async def test_tote_a_hidden_foes_rolls_show_the_rules_numbers_but_not_its_own(h: Harness) -> None:
    """TOTE: "with the rules' own numbers in it, which are the encounter's options and not the combatant's" (docs/commands.md,
    "Hidden information"): players read Grak's return at +2 and his Strike at −2 against defending Borin, never his dice."""
    page = " ".join((Path(__file__).parents[2] / "docs" / "commands.md").read_text(encoding="utf-8").split())
    assert ("with the rules' own numbers in it, which are the encounter's options and not the combatant's (TOTE: the "
            "Assault bonus, the return attack's and a defending hero's penalty: `🎲 the GM's roll +2 Assault return vs "
            "Block 8: hit`, `🎲 the GM's roll −2 Defend vs Block 8: hit`)") in page
    await tote_melee(h, "Borin", "bob")
    await h.run("gm", "/init set", combatant="Grak", value="0")
    await h.run("gm", "/init next", combatant="Grak", confirm="true")
    await h.run("gm", "/init next", confirm="true")
    await h.run("bob", "/act", action="assault", target="Grak", roll="1,1,1")
    sent = await h.run("gm", "/attack", combatant="Grak", target="Borin", roll="5,1,5,1,4,3")
    assert "Return attack at **Borin** with club: 🎲 the GM's roll +2 Assault return vs Block 8: hit\n" in reply(sent).text
    assert "To-Hit" not in public_texts(sent)
    await h.run("bob", "/act", action="defend")
    sent = await h.run("gm", "/act", combatant="Grak", action="strike", target="Borin", roll="5,2,2,6,4,5")
    assert "Strike at **Borin** with club: 🎲 the GM's roll −2 Defend vs Block 8: hit\n" in reply(sent).text
    assert "−2 Defend = **9** vs Block 8" in gm_private(sent) and "To-Hit" not in public_texts(sent)


async def test_kov_a_hidden_foes_actions_left_are_told_as_they_are(h: Harness) -> None:
    """Knights of Valour: after Grak's attack players read "Grak: Move Action left", as the GM does, not "both actions used"."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Ford", map="12x10")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C4", sheet="agi=1 hp=14 weapons=warhammer:2")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="D4", sheet="agi=3 hp=40 move=45 weapons=club:2")
    await h.run("gm", "/init roll")
    sent = await h.run("gm", "/attack", combatant="Grak", target="Borin", weapon="club")
    assert "Grak: Move Action left" in reply(sent).text and "both actions used" not in public_texts(sent)


async def test_kov_the_page_tells_a_hidden_foes_actions_left_as_the_bot_prints_them(h: Harness) -> None:
    """docs/systems/knights-of-valour.md quotes what players read of a hidden Grak's actions left: after attacking
    before it moves, `Grak: Move Action left`; after moving, `Grak: Combat Action left` (no feet); after moving and
    attacking, in either order, `Grak: Combat Action used` (the page gave only this one, for any attack)."""
    page = " ".join((Path(__file__).parents[2] / "docs" / "systems" / "knights-of-valour.md").read_text(encoding="utf-8").split())
    assert ("after an attack before it moves they read `Grak: Move Action left`; after a move, `Grak: Combat Action "
            "left`; and after both, in either order, `Grak: Combat Action used`") in page
    seen = []
    for first, channel in (("attack", "a"), ("move", "m")):
        await h.run("gm", "/encounter start", channel, system="knights-of-valour", name="Ford", map="12x10")
        await h.run("gm", "/combatant add", channel, name="Borin", owner="@bob", side="dwarves", at="C4", sheet="agi=1 hp=14 weapons=warhammer:2")
        await h.run("gm", "/combatant add", channel, name="Grak", side="orcs", at="D4", sheet="agi=3 hp=40 weapons=club:2")
        await h.run("gm", "/encounter settings", channel, options="split_move=yes")
        await h.run("gm", "/init roll", channel)
        for step in (first, "move" if first == "attack" else "attack"):
            if step == "attack":
                sent = await h.run("gm", "/attack", channel, combatant="Grak", target="Borin", weapon="club")
            else:
                sent = await h.run("gm", "/move", channel, combatant="Grak", path="S")
            seen.append(next((line for line in reply(sent).text.split("\n") if line.startswith("Grak: ") and "Action" in line), reply(sent).text))
    assert seen == ["Grak: Move Action left", "Grak: Combat Action used", "Grak: Combat Action left", "Grak: Combat Action used"]


async def test_a_hidden_newcomer_joins_in_its_round_without_its_initiative(h: Harness) -> None:
    """A hidden Orc added mid-fight at init:12 joins "in round 1" for players (it read "round ?, at initiative ?"); the GM reads the 12."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="K", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C4", sheet="agi=1 hp=14 weapons=warhammer:2")
    await h.run("gm", "/init roll")
    sent = await h.run("gm", "/combatant add", name="Orc", side="orcs", at="F4", sheet="agi=2 hp=7 weapons=warhammer:1", init="12")
    assert "**Orc** joins the fight in round 1\n" in reply(sent).text + "\n" and "initiative ?" not in public_texts(sent)
    assert "**Orc** joins the fight in round 1, at initiative 12" in gm_private(sent)


async def kov_alda_and_hidden_grak(h: Harness, grak_agi: str = "-2", **settings: str) -> None:
    """Knights of Valour: Alda (@ann, agi 3) and the GM's hidden Grak, combat started (Alda first)."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="K", map="8x6")
    if settings:
        await h.run("gm", "/encounter settings", **settings)
    await h.run("gm", "/combatant add", name="Alda", owner="@ann", side="heroes", at="B2", sheet="hp=9 agi=3 weapons=longsword:1")
    await h.run("gm", "/combatant add", name="Grak", side="foes", at="G3", sheet=f"hp=6 agi={grak_agi} weapons=longsword:1")
    await h.run("gm", "/init roll")


async def test_kov_a_delay_after_a_hidden_foe_does_not_tell_players_its_initiative(h: Harness) -> None:
    """docs/commands.md, Hidden information: "No other number of a hidden combatant reaches players … initiative":
    Alda's delay `after=Grak` (3 to -3) reads "until after Grak" for players (the -3 tells Grak's -2) in the reply,
    the board, `/init order`, `/combatant show` and `/log`; the GM reads the -3."""
    await kov_alda_and_hidden_grak(h)
    sent = await h.run("ann", "/act", action="delay", options="after=Grak")
    shown = public_texts(sent)
    assert "**Alda** delays for this round, from 3 until after Grak" in shown and "-3" not in shown
    assert "delayed until after Grak" in board(sent) and "Order: Grak, Alda\n" in board(sent) + "\n"
    order = reply(await h.run("ann", "/init order")).text
    assert "**Alda** · heroes" in order and "-3" not in order
    assert "**Alda** (-3)" in gm_private(await h.run("gm", "/init order"))
    assert "-3" not in reply(await h.run("ann", "/combatant show", name="Alda")).text
    assert "-3" not in reply(await h.run("ann", "/log")).text
    assert "from 3 to -3" in reply(await h.run("gm", "/log")).text


async def test_kov_a_deadline_hold_before_a_hidden_foe_does_not_tell_players_its_initiative(h: Harness) -> None:
    """docs/commands.md, Hidden information: "No other number of a hidden combatant reaches players … initiative":
    the deadline's hold delays Alda after Grak (agi 2): players read "until after Grak", not "from 3 to 1"."""
    await kov_alda_and_hidden_grak(h, grak_agi="2", reminder_hours="0", deadline_hours="2", deadline_policy="hold")
    h.bot.service.clock.now += 3 * 3600
    notice = "\n".join(s.text for s in await h.reminders() if not s.ephemeral)
    assert "until after Grak" in notice and "to 1" not in notice


async def test_a_players_initiative_tied_with_a_hidden_combatant_stays_shown(h: Harness) -> None:
    """The open system: Ava's initiative is her player's number. Set or rolled level with the GM's
    hidden Grak, the tie's roll-off is Grak's too: players read Ava's number without the tie (which
    would tell them Grak's), and only the GM reads the roll-off's dice."""
    await h.run("gm", "/encounter start", system="open", name="Road", map="8x6")
    await h.run("gm", "/combatant add", name="Ava", owner="@bob", side="heroes", at="C3",
                sheet="hp=12 ac=14 init=+0 weapons=longsword:+5:1d8+3:slashing")
    await h.run("gm", "/combatant add", name="Grak", side="foes", at="F3", sheet="hp=15 ac=13 init=+0")
    await h.run("gm", "/init roll")
    await h.run("gm", "/init set", combatant="Grak", value="11")
    sent = await h.run("gm", "/init set", combatant="Ava", value="11")
    public = public_texts(sent)
    assert "**Ava** initiative **11**: set by the GM" in public
    assert "the GM keeps the number" not in public and "roll-off" not in public
    assert "**Ava** initiative **11**: set by the GM; tied with others: a roll-off: " in gm_private(sent)
    logged = reply(await h.run("bob", "/log", count="1")).text
    assert "**Ava** initiative **11**: set by the GM" in logged and "roll-off" not in logged
    sent = await h.run("gm", "/combatant add", name="Bea", owner="@bob", side="heroes", at="C4",
                       sheet="hp=12 ac=14 init=+0", init="11")
    public = public_texts(sent)  # Bea ties Ava too: that roll-off is the players' own to read
    assert "the GM keeps the number" not in public and "Grak 🎲" not in public
    assert "**Bea** initiative **11**: set by the GM; tied with others: a roll-off: Ava 🎲 3, Bea 🎲 18" in public
    assert "a roll-off: Ava 🎲 3, Grak 🎲 2, Bea 🎲 18" in gm_private(sent)


async def test_typed_dice_against_a_hidden_target_do_not_tell_whether_it_would_hit(h: Harness) -> None:
    """Knights of Valour: Alda's hit rolls her damage die, a miss does not. A `roll:` with more
    results than a miss uses was refused with "rolled only 1 die" and taken on a hit, so a player
    could try dice against the GM's hidden Grak, change nothing, and learn his defence. Against a
    hidden combatant the results an action did not need are left unused instead; against one
    whose numbers players see, they are still refused as a slip."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Keep", map="8x6")
    await h.run("gm", "/combatant add", name="Alda", owner="@bob", at="B3", sheet="str=1 agi=2 hp=10 weapons=longsword:2")
    await h.run("gm", "/combatant add", name="Grak", at="C3", sheet="agi=1 hp=9 weapons=greataxe:2")
    await h.run("gm", "/init roll")
    for dice in ("1,1,1", "19,1,1"):  # a miss (one die used) and a hit (two), each with a spare result
        sent = await h.run("bob", "/attack", target="Grak", roll=dice)
        texts = "\n".join(s.text for s in sent)
        assert "**Alda** attacks **Grak**" in reply(sent).text and "rolled only" not in texts
        assert "undone" in reply(await h.run("gm", "/undo")).text.lower()
    await h.run("gm", "/encounter reveal", combatant="Grak")
    sent = await h.run("bob", "/attack", target="Grak", roll="1,1,1")
    assert "`roll` gave 3 results but this action rolled only 1 die: give at most 1 (the bot rolls the rest)." in reply(sent).text


async def kov_alda_grak_zug(h: Harness, grak: str = "agi=1 hp=9 size=tall weapons=greataxe:2",
                            zug: str = "agi=0 hp=9 weapons=greataxe:2", **settings: str) -> None:
    """Knights of Valour: Alda (@bob, agi 2) at B3 beside the GM's hidden Grak at C3, and hidden Zug at F5; combat started."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="K", map="8x6")
    if settings:
        await h.run("gm", "/encounter settings", **settings)
    await h.run("gm", "/combatant add", name="Alda", owner="@bob", side="heroes", at="B3",
                sheet="str=1 agi=2 hp=10 weapons=longsword:2")
    await h.run("gm", "/combatant add", name="Grak", side="foes", at="C3", sheet=grak)
    await h.run("gm", "/combatant add", name="Zug", side="foes", at="F5", sheet=zug)
    await h.run("gm", "/init roll")


async def test_kov_a_players_attack_does_not_tell_the_hidden_targets_stature(h: Harness) -> None:
    """Knights of Valour: "the Attack Dice roll is modified by the Player's Size relative to the Target"; the
    target's size is Grak's number: Alda's attack on the hidden, tall Grak reads without the stature term (and without
    the total, which would tell it), in the reply and `/log`; the GM's `/log` reads "+1 stature average vs tall"."""
    await kov_alda_grak_zug(h)
    sent = await h.run("bob", "/attack", target="Grak", weapon="longsword", roll="10")
    public = public_texts(sent)
    assert "🎲 10✍ (d20) +2 P.L. longsword +1 strength vs **Grak**'s defence: **hit**" in public
    assert "stature" not in public and "tall" not in public and "**14**" not in public
    logged = reply(await h.run("bob", "/log", count="1")).text
    assert "stature" not in logged and "tall" not in logged
    assert "+1 stature average vs tall = **14**" in reply(await h.run("gm", "/log", count="1")).text


async def test_kov_a_further_delay_after_a_hidden_foe_does_not_tell_players_its_initiative(h: Harness) -> None:
    """docs/commands.md, Hidden information: "No other number of a hidden combatant reaches players … initiative":
    Alda (2) delays `after=Zug` (the GM's, -1) to -2, which tells Zug's; then `after=Grak` (3) is refused and `by=1`
    lowers her to -3: neither the refusal nor the reply nor `/init order` tells players -2 or -3; the GM reads them.
    A player's `to=` is refused then whatever its number (see below); the GM's names Alda's -3."""
    await kov_alda_grak_zug(h, grak="agi=3 hp=9 weapons=greataxe:2", zug="agi=-1 hp=9 weapons=greataxe:2")
    await h.run("bob", "/act", action="delay", options="after=Zug")
    refused = reply(await h.run("bob", "/act", action="delay", options="after=Grak")).text
    assert "Alda already acts after Grak" in refused and "-2" not in refused
    sent = await h.run("bob", "/act", action="delay", options="by=1")
    public = public_texts(sent)
    assert "**Alda** delays for this round: 1 lower, still after Zug" in public
    assert "-3" not in public and "-2" not in public
    assert "-3" not in reply(await h.run("bob", "/init order")).text
    assert "from -2 to -3" in reply(await h.run("gm", "/log", count="1")).text
    refused = reply(await h.run("bob", "/act", action="delay", options="to=1")).text
    assert "Alda's initiative follows Zug's, the GM's number, so a delay `to=` a number is not taken" in refused
    assert "-3" not in refused
    refused = reply(await h.run("gm", "/act", action="delay", combatant="Alda", options="to=1")).text
    assert "Alda's is -3, and 1 is not lower" in refused


async def test_kov_a_refused_delay_after_a_hidden_delayed_foe_does_not_tell_players_its_initiative(h: Harness) -> None:
    """As above, with `delay=round`: the GM delays Grak (3) after Zug (-1), then Alda after Grak (-3): her refused
    `to=1` does not print -3, which tells Grak's -2 and Zug's -1."""
    await kov_alda_grak_zug(h, grak="agi=3 hp=9 weapons=greataxe:2", zug="agi=-1 hp=9 weapons=greataxe:2",
                            options="delay=round")
    await h.run("gm", "/act", action="delay", combatant="Grak", options="after=Zug")
    await h.run("bob", "/act", action="delay", options="after=Grak")
    refused = reply(await h.run("bob", "/act", action="delay", options="to=1")).text
    assert "Alda's initiative follows Grak's" in refused and "-3" not in refused


async def kov_two_players_two_foes(h: Harness) -> None:
    """Knights of Valour: Alda (@bob) and Bren (@ann), both agi 2, and the GM's hidden Grak and Zug, both agi 1; started."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="K", map="8x6")
    await h.run("gm", "/combatant add", name="Alda", owner="@bob", side="heroes", at="B3", sheet="str=1 agi=2 hp=10 weapons=longsword:2")
    await h.run("gm", "/combatant add", name="Bren", owner="@ann", side="heroes", at="B4", sheet="str=1 agi=2 hp=10 weapons=longsword:2")
    await h.run("gm", "/combatant add", name="Grak", side="foes", at="E3", sheet="agi=1 hp=9 weapons=greataxe:2")
    await h.run("gm", "/combatant add", name="Zug", side="foes", at="F5", sheet="agi=1 hp=9 weapons=greataxe:2")
    await h.run("gm", "/init roll")


async def test_kov_the_gms_order_of_hidden_combatants_does_not_tell_players_they_tie(h: Harness) -> None:
    """docs/commands.md, Hidden information: "No other number of a hidden combatant reaches players … initiative":
    the GM ordering Zug and Grak tells players only that the GM set their order (a tie would tell their numbers
    are equal); the GM reads "the tie at 1"."""
    await kov_two_players_two_foes(h)
    sent = await h.run("gm", "/init order", set="Zug, Grak")
    public = public_texts(sent)
    assert "The GM sets the order of Zug, then Grak. Order: Alda 2, Bren 2, Zug, Grak" in public
    assert "tie" not in public and "?" not in public
    assert "The GM orders the tie at 1: Zug, then Grak" in gm_private(sent)
    assert "tie" not in reply(await h.run("bob", "/log", count="1")).text


async def test_kov_the_gms_order_of_tied_players_shows_their_number(h: Harness) -> None:
    """Players' initiatives are theirs to read: the GM ordering Bren and Alda, tied at 2, says "the tie at 2"
    (it read "the tie at ?" whenever a hidden combatant was in the order)."""
    await kov_two_players_two_foes(h)
    sent = await h.run("gm", "/init order", set="Bren, Alda")
    assert "The GM orders the tie at 2: Bren, then Alda" in public_texts(sent) and "at ?" not in public_texts(sent)
    assert "The GM orders the tie at 2: Bren, then Alda" in reply(await h.run("bob", "/log", count="1")).text


async def test_kov_a_hidden_attackers_damage_to_a_player_shows_the_damage_taken(h: Harness) -> None:
    """The damage a player's combatant takes is its own number (its HP change shows it): Grak's hit on Alda reads
    "Alda takes **4** damage (10 → 6 HP)" (it read "= **?** damage"), without Grak's dice or modifiers; the GM
    reads the dice."""
    await kov_alda_grak_zug(h, grak="str=2 agi=3 hp=9 weapons=greataxe:2")
    sent = await h.run("gm", "/attack", combatant="Grak", target="Alda", roll="19,2")
    public = public_texts(sent)
    assert "**Alda** takes **4** damage (10 → 6 HP)" in public
    assert "?" not in public and "strength" not in public.split("takes", 1)[1].split("\n", 1)[0]
    assert "**Alda** takes 🎲 2✍ (1d12) +2 strength = **4** damage (10 → 6 HP)" in gm_private(sent)


async def test_kov_a_hidden_foe_that_moved_then_attacked_is_not_told_as_done(h: Harness) -> None:
    """With `split_move=yes` ("the rest of the movement may follow the Combat Action"), Grak moves 10 ft, then attacks:
    it still has 20 ft of its Move Action (the GM reads "Move Action (20 ft) left"), so players do not read the false
    "both actions used", nor how far it may still go; Grak then moves on."""
    await kov_alda_grak_zug(h, grak="str=2 agi=3 hp=9 weapons=greataxe:2", options="split_move=yes")
    await h.run("gm", "/move", combatant="Grak", to="D3")
    await h.run("gm", "/move", combatant="Grak", to="C3")
    sent = await h.run("gm", "/attack", combatant="Grak", target="Alda", roll="2")
    public = public_texts(sent)
    assert "Grak: Combat Action used" in public and "both actions used" not in public and "25 ft" not in public
    assert "Move Action (20 ft) left" in gm_private(sent)
    assert "**Grak** moves" in reply(await h.run("gm", "/move", combatant="Grak", to="C4")).text


async def test_tote_escape_foes_does_not_tell_a_hidden_foes_rating(h: Harness) -> None:
    """TOTE: "Escape Foes: a Move test against 7 + the highest enemy Rating" (shared/rules/README.md): the 7 is the
    public option ``escape_base``, so the target number would tell Zug's hidden Rating. Players read ``vs 7 + Rating ? (the highest
    foe's) = ?`` (naming no hidden foe: which one's Rating is the highest is theirs), as for
    Intimidate (it read ``vs ? + Rating ? (Zug) = 10``); the GM's `/log` keeps the numbers."""
    await h.run("gm", "/encounter start", system="tote", name="T", map="none")
    await h.run("gm", "/encounter settings", options="distance=far")
    await h.run("gm", "/combatant add", name="Thrain", owner="@bob", sheet="hawk=3 move=2 weapon=bow:2:ranged")
    await h.run("gm", "/combatant add", name="Zug", sheet="rating=3 weapon=club:2")
    await h.run("gm", "/init roll", roll="6,6,1,1,1,1")
    await h.run("bob", "/attack", target="Zug", roll="1,1")
    await h.run("gm", "/init next", combatant="Zug", confirm="true")
    sent = await h.run("bob", "/act", action="move", options="escape", roll="1,1,1")
    text = public_texts(sent)
    assert "Escape Foes: 🎲 Move [1✍, 1✍] keep 1 + Paragon 1✍ = **2** vs 7 + Rating ? (the highest foe's) = ?: failure" in text
    assert "= 10" not in text and "Rating 3" not in text
    assert "vs 7 + Rating 3 (Zug) = 10: failure" in reply(await h.run("gm", "/log")).text
    assert "(Zug) = 10" not in reply(await h.run("bob", "/log")).text


async def test_tote_the_board_shows_a_hidden_foes_band(h: Harness) -> None:
    """TOTE: "Combatants that move from Close go into Melee Rounds": where each combatant stands (a band, no number of
    its own) is on the board for every combatant, the GM's hidden Zug too (his line read "**Zug** · unhurt")."""
    await h.run("gm", "/encounter start", system="tote", name="T", map="none")
    await h.run("gm", "/encounter settings", options="distance=far")
    await h.run("gm", "/combatant add", name="Thrain", owner="@bob", sheet="hawk=3 move=2 weapon=bow:2:ranged")
    await h.run("gm", "/combatant add", name="Zug", sheet="rating=3 weapon=club:2")
    sent = await h.run("gm", "/init roll", roll="6,6,1,1,1,1")
    assert "foes: **Zug** · far · unhurt" in board(sent) and "rating 3" not in board(sent)


async def dg_shot_past_hidden_hera(h: Harness, who: str) -> list[Sent]:
    """The damage grid: bob's Meena (B4) shoots ann's Juno (H4) with a Power 3 rifle; the GM's hidden Hera stands
    at E4, on the line of fire, as cover of Body 10 (size 4 + Body 6): +7 to Juno's Body, which stops all 3 hits."""
    await h.run("gm", "/encounter start", system="damage-grid", name="Hold", map="10x8")
    await h.run("gm", "/combatant add", name="Meena", owner="@bob", side="crew", at="B4", facing="E",
                sheet="body=2 weapons=rifle:6:3:1")
    await h.run("gm", "/combatant add", name="Juno", owner="@ann", side="rebels", at="H4", facing="W",
                sheet="body=1 weapons=rifle:6:3:1")
    await h.run("gm", "/combatant add", name="Hera", side="boarders", at="E4", facing="N",
                sheet="mind=3 health=4 body=6 size=4 weapons=claw:2:5:2:melee")
    await h.run("gm", "/init roll")
    return await h.run(who, "/attack", combatant="Meena", target="Juno", weapon="rifle", roll="2,2,2")


async def test_a_shot_between_players_covered_by_a_hidden_model_shows_the_players_numbers_only(h: Harness) -> None:
    """The damage grid: "Other models can be in the way of a model's target just like an obstructing providing
    cover ... and creates a cover of Body the sum of the models size and Body attributes." Hera's cover is her
    numbers (size and Body), hidden; Meena's Power and Accuracy are her player's, and stay shown."""
    sent = await dg_shot_past_hidden_hera(h, "bob")
    public = public_texts(sent)
    assert "Power 3 rifle = 3; Accuracy 1 rifle = 1" in public
    assert "cover (Hera): the GM keeps its Body hidden" in public
    assert "Body 10" not in public and "+7" not in public and "Body stops" not in public
    assert "**Juno**: no hit gets through" in public and "Health ×3" not in public
    logged = reply(await h.run("gm", "/log", count="1")).text
    assert "cover of Body 10 (Hera): +7 Body" in logged and "Health ×3 (Body stops 3)" in logged
    players_log = reply(await h.run("ann", "/log", count="1")).text
    assert "Power 3 rifle = 3" in players_log and "Body 10" not in players_log and "Body stops" not in players_log


async def test_the_gm_resolving_a_shot_covered_by_a_hidden_model_gets_the_cover_privately(h: Harness) -> None:
    """The damage grid: the GM resolves Meena's shot past the hidden Hera: the public reply has Meena's Power and
    Accuracy, the GM's private copy the cover's Body ("the difference is added to the Body of the target")."""
    sent = await dg_shot_past_hidden_hera(h, "gm")
    assert "Power 3 rifle = 3; Accuracy 1 rifle = 1" in public_texts(sent) and "Body 10" not in public_texts(sent)
    private = gm_private(sent)
    assert "cover of Body 10 (Hera): +7 Body" in private and "Health ×3 (Body stops 3)" in private


async def kov_alda_bren_hidden_grak(h: Harness, channel: str, grak_agi: str) -> None:
    """Knights of Valour in ``channel``: Alda (@ann, agi 3), Bren (@bob, agi 0) and the GM's hidden Grak; started."""
    await h.run("gm", "/encounter start", channel, system="knights-of-valour", name="K", map="8x6")
    await h.run("gm", "/combatant add", channel, name="Alda", owner="@ann", side="heroes", at="B2", sheet="hp=9 agi=3 weapons=longsword:1")
    await h.run("gm", "/combatant add", channel, name="Bren", owner="@bob", side="heroes", at="B3", sheet="hp=9 agi=0 weapons=longsword:1")
    await h.run("gm", "/combatant add", channel, name="Grak", side="foes", at="G3", sheet=f"hp=6 agi={grak_agi} weapons=longsword:1")
    await h.run("gm", "/init roll", channel)


async def test_kov_a_to_delay_from_a_number_following_a_hidden_foes_is_refused_whatever_it_is(h: Harness) -> None:
    """Knights of Valour: "At the start of a Round, Players may elect to reduce their Initiative by any amount".
    Alda (3) delays `after=Grak` (the GM's), so her initiative is Grak's less one, which players do not read. With
    Grak at 1 `to=0` was refused ("not lower") and `to=-1` taken, telling Grak's: a refusal changes nothing, so it
    could be tried until taken. Now any `to=` is refused alike for every Grak, saying to use `by=` or `after=`; the
    GM's own `to=` is still taken."""
    replies = []
    for grak_agi in ("1", "2"):
        await kov_alda_bren_hidden_grak(h, f"to{grak_agi}", grak_agi)
        await h.run("ann", "/act", f"to{grak_agi}", action="delay", options="after=Grak")
        for to in ("1", "0", "-1", "-50"):
            sent = await h.run("ann", "/act", f"to{grak_agi}", action="delay", options=f"to={to}")
            refused = reply(sent).text
            assert "Not done" in refused and "Alda's initiative follows Grak's" in refused, refused
            assert "`by=`" in refused and "`after=`" in refused and "is not lower" not in refused
            assert not public_texts(sent)
            replies.append(refused)
    assert len(set(replies)) == 1  # one refusal, whatever the number and whatever Grak's
    sent = await h.run("gm", "/act", "to2", action="delay", combatant="Alda", options="to=-50")
    assert "**Alda** initiative **-50**" in reply(sent).text


async def test_kov_an_after_delay_from_a_number_following_a_hidden_foes_does_not_tell_it(h: Harness) -> None:
    """Knights of Valour: Alda (3) delays `after=Grak` (the GM's) then `by=2`, behind Bren (a player's, 0) in the
    order either way; her `after=Bren` was taken with Grak at 3 (Alda at 0, tied with Bren) and refused with Grak at 2
    (Alda at -1), telling Grak's. Now whether it is taken follows the order players read: Alda already acts after
    Bren, so it is refused alike, in the same words."""
    replies = []
    for grak_agi in ("2", "3"):
        await kov_alda_bren_hidden_grak(h, f"after{grak_agi}", grak_agi)
        await h.run("ann", "/act", f"after{grak_agi}", action="delay", options="after=Grak")
        sent = await h.run("ann", "/act", f"after{grak_agi}", action="delay", options="by=2")
        assert "Order: Grak, Bren 0, Alda\n" in board(sent) + "\n"
        replies.append(reply(await h.run("ann", "/act", f"after{grak_agi}", action="delay", options="after=Bren")).text)
    assert replies[0] == replies[1] and "Alda already acts after Bren" in replies[0], replies


async def test_kov_the_gms_order_of_a_tie_with_a_hidden_number_and_a_shown_one_names_neither(h: Harness) -> None:
    """Knights of Valour: "Players with the same Initiative decide, at the start of the Round, which of them goes
    first." Borin (2) delays `after=Grak` (the GM's, 0), so players do not read his -1; the GM orders him before
    Thrain (-1). The order takes effect (it did not: a delayed combatant stayed after those it tied with), and the
    public line does not name the two (only tied combatants can be ordered, so it told players Borin's -1, and so
    Grak's 0); the GM reads the tie."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="K", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="heroes", at="B2", sheet="hp=9 agi=2 weapons=longsword:1")
    await h.run("gm", "/combatant add", name="Thrain", owner="@ann", side="heroes", at="B3", sheet="hp=9 agi=-1 weapons=longsword:1")
    await h.run("gm", "/combatant add", name="Grak", side="foes", at="G3", sheet="hp=6 agi=0 weapons=longsword:1")
    await h.run("gm", "/init roll")
    await h.run("bob", "/act", action="delay", options="after=Grak")
    sent = await h.run("gm", "/init order", set="Borin, Thrain")
    public = public_texts(sent)
    assert "The GM sets the order of tied combatants. Order: Grak, Borin, Thrain -1" in public
    assert "Borin, then" not in public and "tie" not in public.replace("tied combatants", "")
    assert "The GM orders the tie at -1: Borin, then Thrain" in gm_private(sent)
    assert "Borin, then" not in reply(await h.run("bob", "/log", count="1")).text


async def test_kov_the_gms_order_of_hidden_and_shown_monsters_does_not_name_them(h: Harness) -> None:
    """Knights of Valour: the GM orders hidden Zug and Grak with Snaga, revealed, all at 1: the public line does not
    name them (it told players the hidden two are at Snaga's 1)."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="K", map="8x6")
    await h.run("gm", "/combatant add", name="Alda", owner="@bob", side="heroes", at="B2", sheet="hp=9 agi=2 weapons=longsword:1")
    for name, at in (("Grak", "G2"), ("Zug", "G3"), ("Snaga", "G4")):
        await h.run("gm", "/combatant add", name=name, side="foes", at=at, sheet="hp=6 agi=1 weapons=longsword:1")
    await h.run("gm", "/encounter reveal", combatant="Snaga")
    await h.run("gm", "/init roll")
    sent = await h.run("gm", "/init order", set="Zug, Snaga, Grak")
    public = public_texts(sent)
    assert "The GM sets the order of tied combatants. Order: Alda 2, Zug, Snaga 1, Grak" in public
    assert "Zug, then" not in public
    assert "The GM orders the tie at 1: Zug, then Snaga, then Grak" in gm_private(sent)


async def test_kov_a_delay_after_a_hidden_foe_stands_in_the_order_alike_whatever_its_number(h: Harness) -> None:
    """Knights of Valour: Borin (2) delays `after=Grak` (the GM's) with Thrain (a player's, -1) in the fight. With Grak at
    0, Borin's -1 tied Thrain's and the delay put him after Thrain; with Grak at 1 he stood before Thrain: the order
    told players Grak's number. A delay `after=` acts first of those at its number, so both read alike."""
    boards = []
    for grak_agi in ("0", "1"):
        channel = f"g{grak_agi}"
        await h.run("gm", "/encounter start", channel, system="knights-of-valour", name="K", map="8x6")
        await h.run("gm", "/combatant add", channel, name="Borin", owner="@bob", side="heroes", at="B2", sheet="hp=9 agi=2 weapons=longsword:1")
        await h.run("gm", "/combatant add", channel, name="Thrain", owner="@ann", side="heroes", at="B3", sheet="hp=9 agi=-1 weapons=longsword:1")
        await h.run("gm", "/combatant add", channel, name="Grak", side="foes", at="G3", sheet=f"hp=6 agi={grak_agi} weapons=longsword:1")
        await h.run("gm", "/init roll", channel)
        sent = await h.run("bob", "/act", channel, action="delay", options="after=Grak")
        boards.append(next(line for line in board(sent).split("\n") if line.startswith("Order:")))
    assert boards == ["Order: Grak, Borin, Thrain -1"] * 2


async def test_the_gms_export_is_private_while_anything_is_hidden(h: Harness) -> None:
    """docs/commands.md: "While anything is hidden only the GM can `/encounter export`": the file holds the
    hidden combatant's sheet, so the GM's export goes to the GM alone; once all is revealed it is posted."""
    await started_cdg(h)
    sent = await h.run("gm", "/encounter export")
    given = [s for s in sent if s.files]
    assert given and all(s.ephemeral for s in given)
    await h.run("gm", "/encounter reveal")
    assert [s for s in await h.run("gm", "/encounter export") if s.files and not s.ephemeral]


async def removed_after_an_edit(h: Harness) -> list[Sent]:
    """Grak (the GM's, hidden) edited mid-fight and removed; Snaga (the GM's, revealed by name) fights on."""
    await started_cdg(h)
    await h.run("gm", "/combatant add", name="Snaga", side="orcs", at="G5", facing="W", sheet=GRAK)
    await h.run("gm", "/encounter reveal", combatant="Snaga")
    await h.run("gm", "/combatant edit", name="Grak", sheet="dv=6 hp+2")
    return await h.run("gm", "/combatant remove", name="Grak")


async def test_a_removed_hidden_combatants_gm_changes_stay_hidden(h: Harness) -> None:
    """An edited hidden combatant's "board's GM changes say `the GM changed Grak`", and still do once
    it is removed: on the board, in a player's status, and no player's export holds the numbers."""
    sent = await removed_after_an_edit(h)
    assert "the GM changed Grak" in board(sent) and "dv=6" not in board(sent)
    status = reply(await h.run("bob", "/encounter status")).text
    assert "the GM changed Grak" in status and "dv=6" not in status
    refused = reply(await h.run("bob", "/encounter export"))
    assert refused.ephemeral and "hidden from players" in refused.text and not refused.files
    assert "dv=6" in reply(await h.run("gm", "/encounter status")).text


async def test_a_removed_hidden_combatants_name_is_not_given_again(h: Harness) -> None:
    """`/log` entries made while a combatant was hidden "hide them again when it is hidden again": a new
    combatant under a removed hidden one's name would show them, so the name is refused (any case)."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet=GRAK + " hp=5 dv=6")
    await h.run("gm", "/combatant remove", name="Grak")
    for who, name in (("bob", "Grak"), ("gm", "grak")):
        refused = reply(await h.run(who, "/combatant add", name=name, side="dwarves", at="B3", facing="E", sheet=BORIN))
        assert refused.ephemeral and "pick another name" in refused.text
    log = reply(await h.run("bob", "/log", count="4")).text
    assert "dv=6" not in log and "hp=5" not in log


async def test_an_encounter_that_does_not_read_back_is_exported_to_its_gm_alone(h: Harness) -> None:
    """Stored as it is, the file holds the GM's hidden combatants' sheets ("While anything is hidden only
    the GM can `/encounter export`"): its GMs (read from the stored text) get it privately, players not at all."""
    await started_cdg(h)
    with sqlite3.connect(h.store_path) as db:
        db.execute("UPDATE encounters SET state = json_set(state, '$.round', -5)")
    h = await h.restart()
    try:
        refused = reply(await h.run("bob", "/encounter export"))
        assert refused.ephemeral and not refused.files and "Only the GM" in refused.text
        given = [s for s in await h.run("gm", "/encounter export") if s.files]
        assert given and all(s.ephemeral for s in given)
    finally:
        await h.close()


async def test_a_players_export_of_an_ended_fight_with_hidden_numbers_says_to_ask_the_gm(h: Harness) -> None:
    """An ended fight can no longer be revealed: the refusal asks the GM rather than suggesting `/encounter reveal`."""
    await started_cdg(h)
    await h.run("gm", "/encounter end", confirm="true")
    refused = reply(await h.run("bob", "/encounter export"))
    assert refused.ephemeral and not refused.files and "ask" in refused.text
    assert "/encounter reveal" not in refused.text and "ended" in refused.text


async def test_a_players_roll_left_over_on_a_move_says_the_same_whatever_a_hidden_foes_reach(h: Harness) -> None:
    """"No other number of a hidden combatant reaches players either, on any path": a player's `/move ... roll:5`
    past Grak (the GM's, hidden) is refused in the same words whether Grak's reach of 10 ft makes the move provoke
    his opportunity attack (his dice, the GM's to type) or his reach of 5 ft does not (no dice at all); the refusal
    changes nothing, so different words would let a player probe his reach move after move."""
    async def refusal(grak: str) -> str:
        await h.run("gm", "/encounter end", confirm="true")
        await h.run("gm", "/encounter start", system="open", map="12x10")
        await h.run("ann", "/combatant add", name="Alda", at="D6", sheet="hp=18 ac=14 init=+40 weapons=sword:+5:1d6+3:piercing")
        await h.run("gm", "/combatant add", name="Grak", side="orcs", at="D4", sheet=f"hp=30 ac=13 {grak}")
        await h.run("gm", "/combatant add", name="Snot", side="orcs", at="J1", sheet="hp=30 ac=13 weapons=axe:+4:1d12+2:slashing")
        await h.run("gm", "/init roll")
        sent = await h.run("ann", "/move", to="D9", roll="5")
        assert reply(sent).ephemeral and h.bot.service is not None
        return reply(sent).text
    far = await refusal("weapons=glaive:+4:1d10+2:slashing:reach=10")
    near = await refusal("weapons=axe:+4:1d12+2:slashing")
    assert far == near and "leave `roll` out" in far


async def test_combatant_show_gives_a_players_sheet_to_anyone_and_a_hidden_ones_to_the_gm_alone(h: Harness) -> None:
    """"`/combatant show` gives its board line, side, owner, effects and its sheet (a hidden combatant's to the GM
    alone; any other's to anyone, as its `/combatant add` reply showed it)" (docs/commands.md)."""
    await started_cdg(h)
    assert "weapons=hammer,shield" in reply(await h.run("carol", "/combatant show", name="Borin")).text
    assert "weapons=axe" not in reply(await h.run("bob", "/combatant show", name="Grak")).text
    assert "weapons=axe" in reply(await h.run("gm", "/combatant show", name="Grak")).text


async def test_war_and_combat_a_hidden_fighters_effect_on_its_defense_is_not_told_to_players(h: Harness) -> None:
    """docs/commands.md: effects' changes "a hidden combatant's are the GM's numbers (`attack ±?` for players)", and
    "No other number of a hidden combatant reaches players either, on any path: ... its defence and the terms of it":
    a player's attack on a hidden fighter under `defense+3` names the effect, not its +3, in the reply and the
    player's `/log`; the GM's `/log` keeps the number."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Eff", map="16x12 hex")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="H4", facing="S",
                sheet="str=14 agl=13 fighter=3 skills=broadsword:3 weapons=broadsword")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="H6", facing="N",
                sheet="str=10 agl=10 fighter=3 skills=axe:2 weapons=axe")
    await h.run("gm", "/init roll", roll="6,6,5,1,1,2")
    await h.run("gm", "/effect add", name="Ward", target="Grak", rounds="2", ends="end of the round", mods="defense+3")
    await h.run("bob", "/move", path="S")
    await h.run("bob", "/init next")
    await h.run("gm", "/init next", confirm="true", roll="6,6,6,1,1,1")
    await h.run("bob", "/act", action="declare", options="intent=kill tactic=press")
    await h.run("gm", "/act", combatant="Grak", action="declare", options="intent=kill tactic=hold")
    sent = await h.run("bob", "/attack", target="Grak", roll="3,3,4")
    players = public_texts(sent) + reply(await h.run("bob", "/log", count="1")).text
    assert "vs Defense (front, ±? Ward)" in players and "+3 Ward" not in players
    assert "vs Defense (front, +3 Ward) 16" in reply(await h.run("gm", "/log", count="1")).text


async def test_war_and_combat_a_hidden_fighters_dropped_shield_is_not_named_to_players(h: Harness) -> None:
    """docs/commands.md: "No other number of a hidden combatant reaches players either, on any path: ... its defence
    and the terms of it"; docs/systems/war-and-combat.md: Defense "= 10 + Fighter rank + Agility modifier + shield
    (from the front)". A hidden fighter's shield is a term of its Defense: players read that it drops what its left
    arm held (and where it lands) and picks up what it dropped, as its shed armour goes unnamed; the GM reads the
    shield."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="HD", map="16x12 hex")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C4", facing="S",
                sheet="fighter=3 weapons=broadsword")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="N10", facing="N",
                sheet="str=15 agl=14 dex=14 fighter=3 weapons=axe shield=large")
    await h.run("gm", "/init roll", roll="1,1,2,6,6,5")  # Grak moves first
    sent = await h.run("gm", "/act", action="damage", target="Grak", options="light left arm", roll="3,3,4,1")
    sent += await h.run("gm", "/act", combatant="Grak", action="pickup", options="shield")  # it landed at its feet
    players = public_texts(sent) + reply(await h.run("bob", "/log", count="2")).text
    assert "**Grak** drops what its left arm held: 🎲" in players and "**Grak** picks up what it dropped" in players
    assert "shield" not in players
    gm = reply(await h.run("gm", "/log", count="2")).text
    assert "**Grak** drops its shield: 🎲" in gm and "**Grak** picks up its shield" in gm


async def test_kov_a_hidden_foes_move_on_a_granted_move_action_reads_alike_whatever_its_movement(h: Harness) -> None:
    """docs/systems/knights-of-valour.md: "Of a hidden combatant whose Move Action is under way players are not told the
    feet left, nor whether any are: ... after a move, `Grak: Combat Action left`". With a Move Action granted, Grak's
    35 ft move began the granted one too where its Movement is 30 ft, not where it is 40 ft: players read the same
    line either way (they read which one it began, so Grak's Movement); a Move Action granted after the move is told."""
    seen = []
    for move in ("30", "40"):
        channel = f"m{move}"
        await h.run("gm", "/encounter start", channel, system="knights-of-valour", name="K", map="16x10")
        await h.run("gm", "/combatant add", channel, name="Borin", owner="@bob", side="dwarves", at="A1", sheet="agi=-1 hp=40 weapons=warhammer:2")
        await h.run("gm", "/combatant add", channel, name="Grak", side="orcs", at="B8", sheet=f"agi=1 hp=90 move={move} weapons=warhammer:2")
        await h.run("gm", "/init roll", channel)
        granted = public_texts(await h.run("gm", "/act", channel, action="grant", options="move"))
        sent = await h.run("gm", "/move", channel, combatant="Grak", path="E E E E E E E")
        again = public_texts(await h.run("gm", "/act", channel, action="grant", options="move"))
        seen.append((granted, public_texts(sent), again))
        assert "Move Action (" in gm_private(sent)
    assert seen[0] == seen[1]
    assert "Grak: Move Action ×2 and Combat Action left" in seen[0][0]
    assert "Grak: Combat Action left" in seen[0][1]
    assert "Grak: Move Action and Combat Action left" in seen[0][2]


async def test_war_and_combat_a_hidden_fighters_quick_action_does_not_tell_players_its_movement_left(h: Harness) -> None:
    """docs/commands.md: "No other number of a hidden combatant reaches players either, on any path: ... movement and
    initiative": a hidden fighter's quick action (`wield`) with its movement cut to half the phase's tells players
    the points left as `?` (as its `/move` does), and the GM the number."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Quick", map="16x12 hex")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C4", facing="SE",
                sheet="fighter=6")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="L8", facing="NW",
                sheet="fighter=3 weapons=axe,dagger pace=run")
    await h.run("gm", "/init roll", roll="6,6,6,1,1,1")
    await h.run("bob", "/init next", confirm="true")
    sent = await h.run("gm", "/act", combatant="Grak", action="wield", options="dagger")
    players = public_texts(sent) + reply(await h.run("bob", "/log", count="1")).text
    assert "**Grak** has ? movement point(s) left this phase" in players
    assert "has 2 movement point(s)" not in players
    assert "**Grak** has 2 movement point(s) left this phase" in reply(await h.run("gm", "/log", count="1")).text


async def test_war_and_combat_a_shot_at_a_hidden_aware_fighter_names_its_defense_effect_without_its_number(h: Harness) -> None:
    """docs/systems/war-and-combat.md: "The reply names what changed the Defense (`vs Defense (front, −1 turned to
    face, +3 Ward)`); a hidden fighter's effects read `±? Ward` to players": a point-blank shot at an aware hidden
    fighter under `defense+3` names Ward to players without its +3, and to the GM with it."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Shot", map="16x12 hex")
    await h.run("gm", "/combatant add", name="Alda", owner="@ann", side="dwarves", at="B7", facing="SE",
                sheet="dex=14 fighter=3 skills=bow:3 weapons=bow")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="D7", facing="NW",
                sheet="str=15 agl=13 fighter=3 skills=axe:2 weapons=axe armor=leather shield=large")
    await h.run("gm", "/effect add", target="Grak", name="Ward", mods="defense+3", rounds="20")
    await h.run("gm", "/init roll", roll="6,6,6,1,1,1")
    sent = await h.run("ann", "/attack", target="Grak", weapon="bow", options="target=evading", roll="3,3,4")
    players = public_texts(sent) + reply(await h.run("ann", "/log", count="1")).text
    assert "vs Defense (front, ±? Ward), point blank, aware" in players and "+3 Ward" not in players
    assert "vs Defense (front, +3 Ward), point blank, aware 19" in reply(await h.run("gm", "/log", count="1")).text


@pytest.mark.parametrize("reveal", [("/encounter reveal", {}), ("/encounter settings", {"options": "hidden=none"})])
async def test_a_combatant_removed_while_hidden_stays_hidden_whatever_is_revealed_after(h: Harness, reveal) -> None:
    """docs/commands.md: "A GM's combatant that is removed stays hidden in what was logged of it ... as it was
    before", and `/encounter export` is "only the GM" while anything is hidden, "a removed one's too"."""
    await started_cdg(h)
    await h.run("gm", "/combatant add", name="Snaga", side="orcs", at="F5", facing="W", sheet=GRAK + " hp=4")
    await h.run("gm", "/move", combatant="Snaga", path="W W")
    await h.run("gm", "/combatant remove", name="Snaga")
    before = reply(await h.run("bob", "/log", count="6")).text
    # Grak is hidden too, but no reveal would make the file everyone's: its words do not offer one
    refused = reply(await h.run("bob", "/encounter export"))
    assert "/encounter reveal" not in refused.text and "removed while hidden" in refused.text, refused.text
    command, options = reveal
    await h.run("gm", command, **options)
    after = reply(await h.run("bob", "/log", count="6")).text
    assert "hp=4" not in after and "MP" not in after.split("/combatant remove")[0]
    assert [line for line in after.split("\n") if "Snaga" in line and "remove" not in line] == [
        line for line in before.split("\n") if "Snaga" in line and "remove" not in line]
    refused = reply(await h.run("bob", "/encounter export"))
    assert refused.ephemeral and not refused.files and "Only the GM" in refused.text
    assert "/encounter reveal" not in refused.text and "removed while hidden" in refused.text  # a reveal would not do
    assert "hp=4" in reply(await h.run("gm", "/log", count="6")).text


async def test_a_combatant_removed_while_revealed_stays_shown(h: Harness) -> None:
    """A GM's combatant removed while its numbers were shown stays "as it was before": its rows keep them."""
    await started_cdg(h)
    await h.run("gm", "/encounter reveal")
    await h.run("gm", "/combatant add", name="Snaga", side="orcs", at="F5", facing="W", sheet=GRAK + " hp=4")
    await h.run("gm", "/combatant remove", name="Snaga")
    assert "hp=4" in reply(await h.run("bob", "/log", count="4")).text


@pytest.mark.parametrize("command,options,hidden", [
    ("/encounter reveal", {"combatant": "Grak"}, "Grak's numbers are hidden from players again"),
    ("/encounter reveal", {}, "every combatant's numbers are hidden from players again"),
    ("/encounter settings", {"options": "hidden=none"}, "every combatant's numbers are hidden from players again"),
])
async def test_an_undone_reveal_says_the_numbers_are_hidden_again(h: Harness, command, options, hidden) -> None:
    """docs/commands.md: "An undo that hides something again ... says so instead of what it undid": the undo
    of a reveal tells everyone the numbers are hidden again, in its reply and in players' `/log`."""
    await hit_grak(h)
    await h.run("gm", command, **options)
    text = reply(await h.run("gm", "/undo")).text
    assert hidden in text and "shown to everyone" not in text and "gm → none" not in text
    log = reply(await h.run("bob", "/log", count="1")).text
    assert hidden in log and "shown to everyone" not in log
    assert "**Grak** · G3 W · hurt" in reply(await h.run("bob", "/encounter status")).text


async def test_an_undone_hide_says_the_numbers_are_shown_again(h: Harness) -> None:
    """An undo that shows numbers again says so, as one that hides them again does: the undo of
    `/encounter reveal hide:true` repeated the hide's own words ("Grak's numbers are hidden from players again"),
    which read as if the undo had hidden them."""
    await hit_grak(h)
    await h.run("gm", "/encounter reveal", combatant="Grak")
    await h.run("gm", "/encounter reveal", combatant="Grak", hide="true")
    text = reply(await h.run("gm", "/undo")).text
    assert "Undid /encounter reveal by" in text and "Grak's numbers are shown to everyone again" in text, text
    assert "hidden from players again" not in text
    assert "2/3 HP" in reply(await h.run("bob", "/encounter status")).text
