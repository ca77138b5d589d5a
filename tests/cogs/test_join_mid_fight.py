"""`/combatant add ... init:` through the real command path: one command places a newcomer in a
fight under way, announced as joining."""
from __future__ import annotations

from bot.offline.harness import Harness
from tests.cogs.fights import export


async def test_gm_adds_a_newcomer_at_an_initiative_in_one_command(h: Harness) -> None:
    """Knights of Valour: `/combatant add ... init:12` mid-fight; the reply announces it, the order has it, one undo removes it."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="K", map="8x6")
    await h.run("gm", "/encounter settings", options="hidden=none")  # the GM's numbers open to the table
    await h.run("bob", "/combatant add", name="Borin", side="dwarves", at="C4", sheet="str=1 agi=1 hp=14 weapons=warhammer:2")
    await h.run("gm", "/combatant add", name="Gob", side="orcs", at="E4", sheet="agi=1 hp=7 weapons=warhammer:1")
    await h.run("gm", "/init roll")
    [answer, *_] = await h.run("gm", "/combatant add", name="Orc", side="orcs", at="F4", sheet="agi=2 hp=7 weapons=warhammer:1", init=12)
    assert "**Orc** joins the fight in round 1, at initiative 12" in answer.text
    [order] = await h.run("bob", "/init order")
    assert "**Orc** (12)" in order.text
    await h.run("gm", "/undo")
    assert "Orc" not in [c["name"] for c in (await export(h))["combatants"]]
