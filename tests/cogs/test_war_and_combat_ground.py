"""War & Combat's ground and round through the commands: terrain marks, tactics, surprise, holds."""
from __future__ import annotations

from bot.offline.harness import Harness, user_id_of
from tests.cogs.fights import export

HOUR = 3600


async def start_wac(h: Harness, **settings: str) -> None:
    """A War & Combat encounter on its hex map: Borin (bob's) at C4 and Grak (the GM's) far off at L9."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Ford", map="16x12 hex")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C4", facing="SE",
                sheet="str=14 agl=13 fighter=6 skills=broadsword:3 weapons=broadsword armor=mail")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="L9", facing="NW",
                sheet="str=15 fighter=3 skills=axe:2 weapons=axe armor=leather")
    if settings:
        await h.run("gm", "/encounter settings", **settings)


async def test_the_terrain_charts_marks_are_accepted_and_named_on_the_map(h: Harness) -> None:
    """`/encounter terrain kind:uphill` (and treacherous, slick, water) marks War & Combat's map, and `/map` names them."""
    await start_wac(h)
    for cells, kind in (("E5", "uphill"), ("F5", "treacherous"), ("G5", "slick"), ("H5 H6", "water")):
        sent = await h.run("gm", "/encounter terrain", cells=cells, kind=kind)
        assert not sent[0].ephemeral, sent[0].text
    assert (await export(h))["map"]["terrain"] == {"E5": "uphill", "F5": "treacherous", "G5": "slick",
                                                   "H5": "water", "H6": "water"}
    text = "\n".join(s.text for s in await h.run("bob", "/map"))
    assert "Marked cells: slick 1, treacherous 1, uphill 1, water 2" in text


async def test_a_system_without_uphill_refuses_it(h: Harness) -> None:
    """Damage Grid reads no slopes: `kind:uphill` is refused, naming the kinds it accepts, and nothing changes."""
    await h.run("gm", "/encounter start", system="damage-grid", name="Hall", map="8x6")
    before = await export(h)
    sent = await h.run("gm", "/encounter terrain", cells="B2", kind="uphill")
    assert sent[0].ephemeral and "`uphill`" in sent[0].text and "clear, wall, obstacle, rough, difficult" in sent[0].text
    assert await export(h) == before


async def test_moving_onto_treacherous_ground_prompts_the_gm(h: Harness) -> None:
    """Borin's step onto treacherous ground costs 1, rolls his footing (a walk exceeds its creep) and asks the GM about a collapse."""
    await start_wac(h)
    await h.run("gm", "/encounter terrain", cells="D4", kind="treacherous")
    await h.run("gm", "/init roll", roll="5,5,4,2,3,2")
    sent = await h.run("bob", "/move", path="SE", roll="5,5,5")
    text = "\n".join(s.text for s in sent)
    assert "tries to keep its footing" in text and "treacherous ground at D4: it may collapse" in text
    assert (await export(h))["combatants"][0]["position"] == "D4"


async def test_shedding_armour_through_the_commands(h: Harness) -> None:
    """`/act action:shed` begins the lengthy action: the reply says when it is done, a `/move` is
    refused meanwhile with what to do instead, and nothing moves."""
    await start_wac(h)
    await h.run("gm", "/init roll", roll="5,5,4,2,3,2")
    sent = await h.run("bob", "/act", combatant="Borin", action="shed")
    assert "shedding its mail, done at the start of round 3" in "\n".join(s.text for s in sent)
    refused = await h.run("bob", "/move", path="SE")
    assert refused[0].ephemeral and "`/init next` ends its step" in refused[0].text
    assert (await export(h))["combatants"][0]["position"] == "C4"


async def test_a_crawler_crosses_rough_ground_over_two_phases(h: Harness) -> None:
    """"If the character does not have enough movement points to negotiate an obstacle during a phase or round,
    then that movement action is carried over to the next phase or round": crawling Borin (1 point a phase) begins
    the step into rough C5 in the movement phase and enters it with his next `/move` in the adjustment phase."""
    await start_wac(h, options="tactics_skew=no")
    await h.run("gm", "/combatant edit", name="Borin", sheet="pace=crawl")
    await h.run("gm", "/encounter terrain", cells="C5", kind="rough")
    await h.run("gm", "/init roll", roll="6,6,6,1,1,1")
    sent = await h.run("bob", "/move", path="S")
    assert "begins the step into C5" in sent[0].text and "1 point(s) carried over" in sent[0].text
    borin = [c for c in (await export(h))["combatants"] if c["name"] == "Borin"][0]
    assert borin["position"] == "C4" and borin["state"]["owed"] == 1
    await h.run("bob", "/init next")
    await h.run("gm", "/init next", confirm="true")  # Grak's untouched step
    data = await export(h)
    assert (data["phase"], data["current"]) == ("adjustment", "Grak")
    await h.run("gm", "/init next", confirm="true")
    sent = await h.run("bob", "/move")
    assert "C4 → C5" in sent[0].text, sent[0].text
    borin = [c for c in (await export(h))["combatants"] if c["name"] == "Borin"][0]
    assert borin["position"] == "C5" and borin["state"]["owed"] == 0


async def test_a_round_nobody_can_act_in_waits_for_the_gms_init_next(h: Harness) -> None:
    """"Stunned characters ... can take no action for 1d6 rounds": with both fighters stunned, round 1 stops at its
    start and says so; the GM's plain `/init next` (no combatant named) lets it pass, and round 2 begins; a player's
    is refused, saying the GM moves the fight on."""
    await start_wac(h)
    for name in ("Borin", "Grak"):
        await h.run("gm", "/act", action="damage", target=name, options="serious head", roll="2")
    sent = await h.run("gm", "/init roll", roll="1,1,1,1,1,1,5,5,4,2,3,2")  # shock checks, then initiative
    assert "Nobody standing can take an action in round 1" in "\n".join(s.text for s in sent)
    refused = await h.run("bob", "/init next")
    assert refused[0].ephemeral and "the GM moves the fight on with `/init next`" in refused[0].text
    sent = await h.run("gm", "/init next", roll="1,1,1,1,1,1,5,5,4,2,3,2")
    assert not sent[0].ephemeral, sent[0].text
    assert (await export(h))["round"] == 2


async def test_a_round_nobody_can_act_in_pings_the_gm_and_the_clock_reminds_the_gm(h: Harness) -> None:
    """"Only whoever must choose next is pinged"; "A round that begins with nobody standing able to act (all stunned or
    surprised) waits for the GM: the turn line says so, and the GM's `/init next` lets it pass"; and "When a turn has
    waited longer than the encounter's `reminder_hours`, its players are nudged": bob's `/init next` starts round 2,
    in which Borin (his) and Grak are both stunned: the turn message pings the GM, not bob, with the turn line, and
    after `reminder_hours` the GM is nudged, then told once ("at the next interval the GM alone is told once"); bob's
    End turn is refused as his `/init next` is, and the GM's passes the round as the GM's `/init next` does."""
    await start_wac(h, reminder_hours="1", max_nudges="1")
    await h.run("gm", "/init roll", roll="6,6,6,1,1,1")
    await h.run("gm", "/effect add", name="stun", target="Grak", rounds="3")
    await h.run("gm", "/effect add", name="stun", target="Borin", rounds="2")
    sent = await h.run("bob", "/init next", confirm="true")
    gm, bob = str(user_id_of("gm")), str(user_id_of("bob"))
    assert "Nobody standing can take an action in round 2" in "\n".join(s.text for s in sent)
    pings = [s for s in sent if s.pinged_users()]
    assert [s.pinged_users() for s in pings] == [[gm]], [s.text for s in sent]
    assert "nobody standing can take an action: the GM's `/init next` lets the round pass" in pings[0].text
    assert ": ." not in pings[0].text
    h.bot.service.clock.now += 1.5 * HOUR
    nudges = await h.reminders()
    assert [s.pinged_users() for s in nudges] == [[gm]] and bob not in nudges[0].content
    assert "still your turn" in nudges[0].text
    h.bot.service.clock.now += HOUR
    notice = await h.reminders()
    assert [s.pinged_users() for s in notice] == [[gm]]
    assert "⏰ the turn has waited 2.5 h; you were nudged 1 time in **Ford**" in notice[0].text, notice[0].text
    refused = await h.press("bob", "End turn")
    assert refused[0].ephemeral and "the GM moves the fight on with `/init next`" in refused[0].text
    assert (await export(h))["round"] == 2
    sent = await h.press("gm", "End turn")
    assert not sent[0].ephemeral, sent[0].text
    assert (await export(h))["round"] == 3


async def test_a_round_nobody_can_act_in_passes_at_its_deadline_under_pass(h: Harness) -> None:
    """docs/commands.md: "`pass` ends the turn as if its owner had used `/init next`", and the owner of a round nobody
    standing can act in is the GM ("the GM's `/init next` (or End turn) lets it pass", docs/systems/war-and-combat.md):
    its warning goes to the GM ("then the turn passes") and at the deadline the round passes, as the GM's `/init next`
    would (the GM was told "it is up to you (War & Combat has no way to pass it)" and the round stayed)."""
    await start_wac(h, reminder_hours="0", deadline_hours="4", deadline_policy="pass")
    await h.run("gm", "/effect add", name="stun", target="Borin", rounds="2")
    await h.run("gm", "/effect add", name="surprised", target="Grak", rounds="1")
    await h.run("gm", "/init roll", roll="6,6,6,1,1,1")
    assert (await export(h))["round"] == 1
    h.bot.service.clock.now += 3.5 * HOUR
    [warning] = await h.reminders()
    assert warning.pinged_users() == [str(user_id_of("gm"))]
    assert "(then the turn passes)" in warning.text
    h.bot.service.clock.now += HOUR
    sent = await h.reminders()
    text = "\n".join(s.text for s in sent)
    assert "Deadline" in text and "up to you" not in text, text
    assert (await export(h))["round"] == 2
