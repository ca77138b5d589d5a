"""War & Combat's movement-phase actions through the real command tree: aiming, free attacks, paces, polearm zones."""
from __future__ import annotations

from typing import Any

from bot.offline.harness import Harness, Sent
from tests.cogs.fights import export


def reply(sent: list[Sent]) -> Sent:
    """The reply to the command (not the board or a ping)."""
    return next(s for s in sent if s.kind in ("response", "followup"))


def said(sent: list[Sent]) -> str:
    """Everything the command's messages say."""
    return "\n".join(s.text for s in sent)


async def fighter(h: Harness, name: str) -> dict[str, Any]:
    """The exported combatant ``name``."""
    return next(c for c in (await export(h))["combatants"] if c["name"] == name)


async def test_an_archer_aims_and_then_cannot_shoot_that_phase(h: Harness) -> None:
    """`/act action:aim options:bow target:Grak` is the "Aim a Weapon" full action: said in the channel, then the
    shot of the same phase is refused with what to do instead, and nothing changes."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Ford", map="16x12 hex")
    await h.run("gm", "/combatant add", name="Alda", owner="@ann", side="dwarves", at="C4", facing="SE",
                sheet="dex=14 fighter=3 skills=bow:3 weapons=bow,dagger")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="L9", facing="NW", sheet="weapons=axe")
    await h.run("gm", "/init roll", roll="6,6,6,1,1,1")
    sent = await h.run("ann", "/act", combatant="Alda", action="aim", options="bow", target="Grak")
    assert "**Alda** aims its bow at Grak" in said(sent)
    before = await export(h)
    refused = reply(await h.run("ann", "/attack", combatant="Alda", target="Grak", weapon="bow", roll="5,5,6"))
    assert refused.ephemeral and "spent this phase aiming (a full action)" in refused.text
    assert await export(h) == before


async def test_a_sprinter_covers_five_hexes_a_phase_and_a_swimmer_two(h: Harness) -> None:
    """`sheet:"pace=sprint"`: five hexes in the movement phase (`sprint_points` 10 a round), a sixth refused;
    the GM sets `pace=swim` for a fighter in deep water: two a phase ("Swim 4")."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Ford", map="16x12 hex")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C2", facing="S",
                sheet="fighter=6 weapons=broadsword pace=sprint")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="L9", facing="NW", sheet="weapons=axe pace=swim")
    await h.run("gm", "/init roll", roll="6,6,6,1,1,1")
    sent = await h.run("bob", "/move", path="S S S S S")
    assert "C2 → C3 → C4 → C5 → C6 → C7" in reply(sent).text, reply(sent).text
    assert (await fighter(h, "Borin"))["position"] == "C7"
    assert reply(await h.run("bob", "/move", path="S")).ephemeral
    await h.run("bob", "/init next")
    refused = reply(await h.run("gm", "/move", combatant="Grak", path="NW NW NW"))
    assert refused.ephemeral and "costs 3 movement point(s) and Grak has 2 left this phase" in refused.text
    await h.run("gm", "/move", combatant="Grak", path="NW NW")
    assert (await fighter(h, "Grak"))["position"] != "L9"


async def test_an_onlooker_makes_a_free_attack_in_its_movement_step(h: Harness) -> None:
    """`/act action:free-attack target:Grak` in Alda's movement step (Borin and Grak engaged): offered there, she
    negotiates and strikes; Grak's defence costs one of his flurry's actions, and a second free attack is refused."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Ford", map="16x12 hex")
    sheet = "str=14 agl=13 fighter=6 skills=broadsword:3,tactics:2 weapons=broadsword armor=mail"
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="D4", facing="SE", sheet=sheet)
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="E5", facing="NW",
                sheet="str=15 fighter=3 skills=axe:2 weapons=axe armor=leather")
    await h.run("gm", "/combatant add", name="Alda", owner="@ann", side="dwarves", at="E3", facing="S", sheet=sheet)
    await h.run("gm", "/init roll", roll="6,5,4,1,5,5,2,2,2")
    await h.run("bob", "/init next", confirm="true")
    await h.run("gm", "/init next", confirm="true")
    offered = await h.autocomplete("ann", "/act", "action", "", combatant="Alda")
    assert any("free-attack" in o for o in offered)
    sent = await h.run("ann", "/act", combatant="Alda", action="free-attack", target="Grak", roll="6,5,4,1,1,2")
    text = reply(sent).text
    assert "**Alda** negotiates the space around the flurry" in text and "**Alda** attacks **Grak**" in text
    grak = await fighter(h, "Grak")
    assert grak["state"]["lost"] == 1
    again = reply(await h.run("ann", "/act", combatant="Alda", action="free-attack", target="Grak"))
    assert again.ephemeral and "once a round" in again.text


async def test_a_pikeman_limits_his_polearms_zone_and_the_map_shows_it(h: Harness) -> None:
    """`/act action:limit options:right`: the board says so, and `/map` shades two threatened hexes and two
    obstructed (the third freed: "the corresponding obstructed hex(es) is considered unobstructed")."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Ford", map="16x12 hex")
    await h.run("gm", "/combatant add", name="Pike", owner="@bob", side="a", at="F6", facing="N",
                sheet="fighter=6 weapons=polearm")
    await h.run("gm", "/combatant add", name="Grak", side="b", at="L9", facing="S", sheet="weapons=axe")
    await h.run("gm", "/init roll", roll="6,6,6,1,1,1")
    text = "\n".join(s.text for s in await h.run("bob", "/map"))
    assert "threatened by Pike, 3 cells" in text and "Pike: obstructed, 3 cells" in text
    sent = await h.run("bob", "/act", action="limit", options="right")
    assert "**Pike** holds its polearm's zone of threat to: right" in said(sent) and "zone of threat: right" in said(sent)
    text = "\n".join(s.text for s in await h.run("bob", "/map"))
    assert "threatened by Pike, 2 cells" in text and "Pike: obstructed, 2 cells" in text
    refused = reply(await h.run("bob", "/act", action="limit", options="sideways"))
    assert refused.ephemeral and "`sideways` is not one of its `options` words. Type one of `ahead|left|right|full`" in refused.text


async def test_the_gm_wounds_and_heals_without_an_attack(h: Harness) -> None:
    """`/act action:damage target:Grak options:"critical left leg"` is the GM's: the wound, its effect and the board;
    a player's attempt is refused and changes nothing; `/act action:heal target:Grak options:"left leg"` takes it away."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Ford", map="16x12 hex")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C4", facing="SE",
                sheet="fighter=6 weapons=broadsword")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="L9", facing="NW", sheet="fighter=3 weapons=axe")
    await h.run("gm", "/init roll", roll="6,6,6,1,1,1")
    before = await export(h)
    refused = reply(await h.run("bob", "/act", combatant="Borin", action="damage", target="Grak", options="light head"))
    assert refused.ephemeral and "GM" in refused.text
    assert await export(h) == before
    offered = await h.autocomplete("gm", "/act", "action", "", combatant="Grak")
    assert any("damage" in o for o in offered) and any("heal" in o for o in offered)
    assert not any("damage" in o for o in await h.autocomplete("bob", "/act", "action", "", combatant="Borin"))
    sent = await h.run("gm", "/act", action="damage", target="Grak", options="critical left leg")
    text = said(sent)
    assert "**Grak** takes a critical wound to the left leg (broken bones)" in text and "Grak** · L9 NW · badly hurt" in text
    grak = await fighter(h, "Grak")
    assert grak["state"]["disabled"] == ["left leg"]
    sent = await h.run("gm", "/act", action="heal", target="Grak", options="left leg")
    assert "**Grak** is healed of its critical left leg wound" in said(sent)
    grak = await fighter(h, "Grak")
    assert grak["state"]["wounds"] == [] and grak["state"]["disabled"] == []
