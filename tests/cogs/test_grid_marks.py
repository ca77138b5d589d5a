"""The damage grid's own damage and healing for the GM: `/act action:damage` and `action:heal` mark
or clear hits on a location of a model's grid (or a carried weapon's Health) without an attack,
declared in the action table like the system's other actions; through the harness's real commands."""
from __future__ import annotations

from typing import Any

from bot.offline.harness import Harness, Sent
from tests.cogs.fights import export


async def crew_fight(h: Harness) -> None:
    """Juno (ann's) and Meena (bob's) against the GM's Xul, started."""
    await h.run("gm", "/encounter start", system="damage-grid", name="Boarding", map="12x10")
    await h.run("gm", "/encounter settings", options="hidden=none")
    await h.run("gm", "/combatant add", name="Juno", owner="@ann", side="crew", at="C8", facing="N", sheet="body=0 weapons=pistol:6:3:1")
    await h.run("gm", "/combatant add", name="Meena", owner="@bob", side="crew", at="E8", facing="N", sheet="weapons=saber:2:4:3:melee")
    await h.run("gm", "/combatant add", name="Xul", side="boarders", at="C4", facing="S", sheet="body=3 weapons=rifle:6:3:3")
    await h.run("gm", "/init roll")


async def model_of(h: Harness, name: str) -> dict[str, Any]:
    return next(c for c in (await export(h))["combatants"] if c["name"] == name)


def text(sent: list[Sent]) -> str:
    return sent[0].text


async def test_the_gm_marks_hits_on_a_location_and_a_weapon(h: Harness) -> None:
    """`damage` takes hits off the named locations (no Shield, Body or arrows) and off a weapon's Health."""
    await crew_fight(h)
    sent = text(await h.run("gm", "/act", action="damage", target="Juno", options="health=1 pistol=1"))
    assert "GM: **Juno**'s Health: 1 hit marked (3 → 2)" in sent and "Pistol: 1 hit marked (2 → 1)" in sent
    juno = await model_of(h, "Juno")
    assert juno["state"]["values"]["health"] == 2 and juno["state"]["weapon_health"]["pistol"] == 1
    assert juno["status"] == "active"


async def test_the_gms_damage_is_headed_as_the_gms_on_its_target(h: Harness) -> None:
    """`/act action:damage` is the GM's, whichever combatant is named with it: the reply is headed "GM: damage on
    Juno", not "Meena: damage" (Meena does nothing)."""
    await crew_fight(h)
    for named in ({"combatant": "Meena"}, {}):
        sent = text(await h.run("gm", "/act", action="damage", target="Juno", options="health=1", **named))
        assert sent.splitlines()[0] == "GM: damage on Juno" and "Meena" not in sent


async def test_mind_zero_is_inert_and_heal_brings_it_back(h: Harness) -> None:
    """Marking Mind to 0 makes the model inert; clearing a hit of Mind makes it active again."""
    await crew_fight(h)
    sent = text(await h.run("gm", "/act", action="damage", target="Juno", options="mind=2"))
    assert "**Juno** is now **downed**: Mind 0, inert" in sent
    assert (await model_of(h, "Juno"))["status"] == "downed"
    sent = text(await h.run("gm", "/act", action="heal", target="Juno", options="mind=1"))
    assert "Mind: 1 hit cleared (0 → 1)" in sent and "**Juno** is now **active**" in sent
    assert (await model_of(h, "Juno"))["status"] == "active"


async def test_health_zero_destroys_and_decides_the_fight(h: Harness) -> None:
    """Marking the last foe's Health to 0 destroys it, and the fight is decided."""
    await crew_fight(h)
    sent = text(await h.run("gm", "/act", action="damage", target="Xul", options="health=3"))
    assert "**Xul** is now **out**: Health 0, destroyed" in sent and "**crew** win" in sent


async def test_bad_marks_are_refused_and_change_nothing(h: Harness) -> None:
    """Too many hits, too much healing, an unknown location, or a player's try: refused with the way to do it."""
    await crew_fight(h)
    before = await export(h)
    cases = [
        ("gm", "damage", "health=4", "Juno's Health has 3 left: mark at most 3."),
        ("gm", "heal", "health=1", "Juno's Health has 3 of 3: there is nothing to clear."),
        ("gm", "damage", "elbow=1", "use mind, health, body, shield, speed, pistol"),
        ("gm", "damage", "", "Say where and how many hits to mark"),
        ("ann", "damage", "health=1", "Only the GM"),
    ]
    for who, action, options, words in cases:
        sent = await h.run(who, "/act", action=action, target="Juno", **({"options": options} if options else {}))
        assert sent[0].ephemeral and words in sent[0].text, (action, options, sent[0].text)
    assert await export(h) == before


async def test_combatant_hp_points_to_the_grid_s_own_words(h: Harness) -> None:
    """`/combatant hp` on the damage grid says how to mark and clear hits instead."""
    await crew_fight(h)
    sent = await h.run("gm", "/combatant hp", combatant="Juno", change="-2")
    assert sent[0].ephemeral and "/act action:damage target:Juno" in sent[0].text
