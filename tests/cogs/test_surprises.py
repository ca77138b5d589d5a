"""Replies a new user found misleading, each checked through the real command path."""
from __future__ import annotations

import json
from pathlib import Path

from bot.offline.harness import Harness, Sent
from tests.cogs.fights import BORIN, GRAK, export, started_cdg


def reply(sent: list[Sent]) -> Sent:
    """The reply to the command (not the board or a ping)."""
    return next(s for s in sent if s.kind in ("response", "followup"))


async def test_gm_attacking_the_acting_combatant_names_who_to_pick(h: Harness) -> None:
    """The GM's attack on the combatant whose turn it is asks for the attacker, not "cannot attack itself"."""
    await started_cdg(h)
    sent = await h.run("gm", "/attack", target="Borin", roll="5")
    text = reply(sent).text
    assert sent[0].ephemeral and "itself" not in text
    assert "`combatant`" in text and "Grak" in text and "Borin's turn" in text


async def test_alternating_order_shows_sides_not_a_numbered_list(h: Harness) -> None:
    """`/init order` in Coup-De-Grace shows the order of sides and who may activate, with no numbers."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="B3", facing="E", sheet=BORIN)
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet=GRAK)
    await h.run("gm", "/combatant add", name="Snaga", side="orcs", at="F5", facing="W", sheet=GRAK)
    await h.run("gm", "/init roll")
    text = reply(await h.run("gm", "/init order")).text
    assert text.count("▶️") == 1 and "1." not in text and "2." not in text
    assert " → " in text and "Grak, Snaga" in text


async def test_gm_act_without_actor_is_titled_by_its_action(h: Harness) -> None:
    """The GM's `/act action:distance` in TOTE is titled with the action, never "None: distance"."""
    await h.run("gm", "/encounter start", system="tote", name="Ford")
    await h.run("gm", "/combatant add", name="Ann", owner="@bob", side="heroes", sheet="hawk=2 strike=2")
    await h.run("gm", "/combatant add", name="Grak", side="foes", sheet="rating=2 tohit=3")
    await h.run("gm", "/init roll")
    text = reply(await h.run("gm", "/act", action="distance", options="close")).text
    assert "None" not in text and "distance" in text.splitlines()[0]


async def test_roll_on_a_command_without_dice_says_to_leave_it_out(h: Harness) -> None:
    """A `roll:` on a move that rolls nothing says the command rolls no dice, not "rolled only 0 die/dice"."""
    await started_cdg(h)
    sent = await h.run("bob", "/move", to="D3", roll="3")
    text = sent[0].text
    assert sent[0].ephemeral and "0 die" not in text
    assert "rolled none of your combatants' dice" in text and "leave `roll` out" in text


async def test_roll_off_is_worded_for_a_side(h: Harness) -> None:
    """The initiative roll-off speaks of a side as a side ("the dwarves roll off"), not "dwarves rolls off"."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="B3", facing="E", sheet=BORIN)
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet=GRAK)
    text = reply(await h.run("gm", "/init roll", roll="6,1")).text
    assert "rolls off" not in text and "the **dwarves** roll off" in text


async def test_map_before_initiative_says_the_fight_has_not_started(h: Harness) -> None:
    """`/map` before `/init roll` says the fight has not started instead of "round 0"."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    text = (await h.run("gm", "/map"))[0].text
    assert "round 0" not in text and "not started" in text


async def test_markdown_in_names_is_refused_with_a_clear_message(h: Harness) -> None:
    """Names with Markdown characters are refused (combatant, side, encounter) and nothing is stored."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    for name in ("*Grak*", "__x__", "~~y~~", "||z||"):
        sent = await h.run("gm", "/combatant add", name=name, side="orcs", at="F3", sheet=GRAK)
        assert sent[0].ephemeral and "Markdown" in sent[0].text, name
    sent = await h.run("gm", "/combatant add", name="Grak", side="*orcs*", at="F3", sheet=GRAK)
    assert sent[0].ephemeral and "Markdown" in sent[0].text
    assert (await export(h))["combatants"] == []
    sent = await h.run("gm", "/encounter start", "other", system="coup-de-grace", name="**Big**", map="8x6")
    assert sent[0].ephemeral and "Markdown" in sent[0].text


async def test_ranged_coup_de_grace_says_so(h: Harness, tmp_path: Path) -> None:
    """A ranged `/coupdegrace` on a downed mini says it is a coup-de-grace."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Thrain", owner="@bob", side="dwarves", at="B3", facing="E", sheet="class=light weapons=crossbow")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet=GRAK)
    await h.run("gm", "/init roll", roll="6,1")
    data = await export(h)
    grak = next(c for c in data["combatants"] if c["name"] == "Grak")
    grak.update(status="downed", hp=0, facing=None)
    path = tmp_path / "downed.json"
    path.write_text(json.dumps(data))
    await h.run("gm", "/encounter import", file=str(path), replace="true", confirm="true")
    text = reply(await h.run("bob", "/coupdegrace", target="Grak", weapon="crossbow", roll="6")).text
    assert "shoots" in text and "coup-de-grace" in text
