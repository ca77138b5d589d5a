"""War & Combat's flurry choices and free attacks through the real command tree."""
from __future__ import annotations

from bot.offline.harness import Harness, Sent
from tests.cogs.fights import export

BORIN = "str=14 agl=13 fighter=6 skills=broadsword:3,tactics:2 weapons=broadsword armor=mail shield=small"
GRAK = "str=15 fighter=3 skills=axe:2 weapons=axe armor=leather"


def reply(sent: list[Sent]) -> Sent:
    """The reply to the command (not the board or a ping)."""
    return next(s for s in sent if s.kind in ("response", "followup"))


def said(sent: list[Sent]) -> str:
    """Everything the command's messages say."""
    return "\n".join(s.text for s in sent)


async def to_flurry(h: Harness, *extra: tuple[str, str, str, str]) -> None:
    """Borin (bob's) at D4 facing SE and Grak (the GM's) at E5 facing NW, engaged; the flurry phase begins
    (declarations hidden and all at once, `declare=hidden`, as these tests' dice were written).
    ``extra``: more combatants (name, at, facing, owner) on the dwarves' side, away from the fight."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Ford", map="16x12 hex")
    await h.run("gm", "/encounter settings", options="declare=hidden")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="D4", facing="SE", sheet=BORIN)
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="E5", facing="NW", sheet=GRAK)
    for name, at, facing, owner in extra:
        await h.run("gm", "/combatant add", name=name, owner=owner, side="dwarves", at=at, facing=facing, sheet=BORIN)
    dice = "6,5,4,1,5,5" + ",2,2,2" * len(extra)
    await h.run("gm", "/init roll", roll=dice)
    await h.run("bob", "/init next", confirm="true")
    await h.run("gm", "/init next", confirm="true")
    for _ in extra:
        await h.run("gm", "/init next", confirm="true")


async def grak_spent(h: Harness) -> None:
    """The duel's flurry, in which Grak spends both his actions missing Borin: Borin (1 action left) attacks."""
    await to_flurry(h)
    await h.run("bob", "/act", action="declare", options="intent=kill tactic=hold")
    await h.run("gm", "/act", combatant="Grak", action="declare", options="intent=kill tactic=hold", roll="5,5,5,3,3,3")
    for who, roll in (("bob", "1,1,2"), ("gm", "2,2,2"), ("bob", "1,1,2"), ("gm", "2,2,2")):
        options = {"combatant": "Grak"} if who == "gm" else {}
        await h.run(who, "/attack", target="Borin" if who == "gm" else "Grak", roll=roll, **options)


async def test_a_defender_guards_the_flank_and_forfeits_the_front(h: Harness) -> None:
    """`options:"guard=flank"` is revealed with the declarations, and Borin's front attack meets no defence."""
    await to_flurry(h)
    await h.run("bob", "/act", action="declare", options="intent=kill tactic=hold")
    sent = await h.run("gm", "/act", combatant="Grak", action="declare", options="intent=kill tactic=hold guard=flank", roll="5,5,5,3,3,3")
    assert "guard flank" in said(sent)
    sent = await h.run("bob", "/attack", target="Grak", roll="1,2,2,4,4,3,2,2,2")
    assert "front, forfeited" in reply(sent).text


async def test_a_bad_guard_is_refused_with_what_to_write(h: Harness) -> None:
    """`guard=rear` is refused, ephemeral, naming front and flank."""
    await to_flurry(h)
    sent = await h.run("gm", "/act", combatant="Grak", action="declare", options="guard=rear")
    assert reply(sent).ephemeral and "`guard` must be one of `front`, `flank`, not `rear`" in reply(sent).text


async def test_a_defender_chooses_whom_to_face(h: Harness) -> None:
    """`options:"face=Dwalin"`: Grak, beset by two, turns to face Dwalin at the reveal (-1 Defense)."""
    await to_flurry(h, ("Dwalin", "E6", "N", "@ann"))
    await h.run("bob", "/act", action="declare", options="intent=kill tactic=hold")
    await h.run("ann", "/act", combatant="Dwalin", action="declare", options="intent=kill tactic=hold")
    sent = await h.run("gm", "/act", combatant="Grak", action="declare", options="face=Dwalin", roll="5,5,5,3,3,3,2,2,2")
    assert "face Dwalin" in said(sent) and "**Grak** turns to face S" in said(sent)


async def test_an_onlooker_swipes_at_a_fighter_in_the_flurry(h: Harness) -> None:
    """`/act action:swipe target:Grak` by Alda (ann's), outside the flurry: offered once declarations are revealed; negotiate, then the blow."""
    await to_flurry(h, ("Alda", "E3", "S", "@ann"))
    offered = await h.autocomplete("ann", "/act", "action", "", combatant="Alda")
    assert any("interrupt" in o for o in offered) and not any("swipe" in o for o in offered)
    await h.run("bob", "/act", action="declare", options="intent=kill tactic=hold")
    await h.run("gm", "/act", combatant="Grak", action="declare", options="intent=kill tactic=hold", roll="5,5,5,3,3,3")
    offered = await h.autocomplete("ann", "/act", "action", "", combatant="Alda")
    assert any("swipe" in o for o in offered)
    sent = await h.run("ann", "/act", combatant="Alda", action="swipe", target="Grak", roll="6,5,4,1,1,2")
    text = reply(sent).text
    assert "**Alda** negotiates the space around the flurry" in text and "**Alda** attacks **Grak**" in text
    again = reply(await h.run("ann", "/act", combatant="Alda", action="swipe", target="Grak"))
    assert again.ephemeral and "once a round" in again.text


async def test_an_onlooker_interrupts_the_flurry(h: Harness) -> None:
    """`/act action:interrupt` before the reveal: Alda joins and is one more to declare."""
    await to_flurry(h, ("Alda", "E3", "S", "@ann"))
    sent = await h.run("ann", "/act", combatant="Alda", action="interrupt")
    assert "**Alda** interrupts the flurry" in reply(sent).text
    sent = await h.run("bob", "/act", action="declare", options="intent=kill tactic=hold")
    assert "still to declare: Grak, Alda" in said(sent)


async def test_a_grappled_fighter_breaks_free(h: Harness) -> None:
    """Borin's grapple holds Grak (Restrict-10); with the attack, Grak is offered `break` and wins free with 12."""
    await to_flurry(h)
    await h.run("bob", "/act", action="declare", options="intent=grapple tactic=hold")
    await h.run("gm", "/act", combatant="Grak", action="declare", options="intent=kill tactic=hold", roll="5,5,5,3,3,3")
    sent = await h.run("bob", "/attack", target="Grak", roll="4,4,3,4,4,3,2,2,2")
    assert "is held by a grapple (Restrict-10)" in reply(sent).text
    await h.run("bob", "/act", action="hold")
    offered = await h.autocomplete("gm", "/act", "action", "", combatant="Grak")
    assert any("break" in o for o in offered)
    sent = await h.run("gm", "/act", combatant="Grak", action="break", roll="5,3,3")
    assert "**Grak** breaks free of the hold" in reply(sent).text


async def test_an_opponent_out_of_actions_is_driven_back(h: Harness) -> None:
    """Grak spends his actions missing; Borin is offered drive and withdraw, and `/act action:drive target:Grak` pushes him to F5."""
    await grak_spent(h)
    offered = await h.autocomplete("bob", "/act", "action", "")
    assert any("drive" in o for o in offered) and any("withdraw" in o for o in offered)
    await h.run("bob", "/act", action="drive", target="Grak")
    where = {c["name"]: c["position"] for c in (await export(h))["combatants"]}
    assert where == {"Borin": "E5", "Grak": "F5"}


async def test_the_gm_sets_the_swipe_target(h: Harness) -> None:
    """`/encounter settings options:"swipe_base=8"` lowers the negotiate target to 8 + the flurry's best Fighter rank (6):
    the GM's log gives it; players read it without the number, as the GM's hidden Grak is in the flurry."""
    await to_flurry(h, ("Alda", "E3", "S", "@ann"))
    await h.run("gm", "/encounter settings", options="swipe_base=8")
    await h.run("bob", "/act", action="declare", options="intent=kill tactic=hold")
    await h.run("gm", "/act", combatant="Grak", action="declare", options="intent=kill tactic=hold", roll="5,5,5,3,3,3")
    sent = await h.run("ann", "/act", combatant="Alda", action="swipe", target="Grak", roll="6,5,4,1,1,2")
    assert "vs negotiate: " in reply(sent).text and "vs negotiate 14" not in reply(sent).text
    assert "vs negotiate 14" in reply(await h.run("gm", "/log")).text


async def test_withdraw_steps_away_from_an_opponent_out_of_actions(h: Harness) -> None:
    """`/act action:withdraw target:Grak` steps Borin from D4 to C4, straight away from Grak, who must hold."""
    await grak_spent(h)
    await h.run("bob", "/act", action="withdraw", target="Grak")
    where = {c["name"]: c["position"] for c in (await export(h))["combatants"]}
    assert where == {"Borin": "C4", "Grak": "E5"}


async def test_a_fighter_switches_the_weapon_hand(h: Harness) -> None:
    """`/act action:wield options:"hand=left"` in Borin's step: the weapon goes to the left hand."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Ford", map="16x12 hex")
    await h.run("gm", "/encounter settings", options="declare=hidden")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="D4", facing="SE", sheet=BORIN)
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="J9", facing="NW", sheet=GRAK)
    await h.run("gm", "/init roll", roll="6,5,4,1,5,5")
    sent = await h.run("bob", "/act", action="wield", options="hand=left")
    assert "**Borin** takes its weapon in the left hand" in reply(sent).text


async def test_the_gm_surprises_a_side_and_a_player_cannot(h: Harness) -> None:
    """`/act action:surprise options:"side=orcs"` is the GM's: Grak is surprised for the first round
    (the board says so) and takes no movement step; a player's attempt is refused and changes nothing."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Ambush", map="16x12 hex")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="D4", facing="SE", sheet=BORIN)
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="J8", facing="NW", sheet=GRAK)
    before = await export(h)
    refused = reply(await h.run("bob", "/act", combatant="Borin", action="surprise", options="side=orcs"))
    assert refused.ephemeral and "GM" in refused.text
    assert await export(h) == before
    done = reply(await h.run("gm", "/act", action="surprise", options="side=orcs"))
    assert "surprised" in done.text and "Grak" in done.text
    await h.run("gm", "/init roll", roll="2,2,2,6,6,5")  # Grak would have gone first
    assert (await export(h))["current"] == "Borin"


async def test_a_declared_retreat_is_made_in_the_adjustment_step(h: Harness) -> None:
    """Bob declares `tactic=retreat`; after the flurry, in Borin's adjustment step, `/act
    action:retreat target:Grak` steps him one hex straight back, still facing Grak."""
    await to_flurry(h)
    await h.run("bob", "/act", action="declare", options="intent=kill tactic=retreat")
    await h.run("gm", "/act", combatant="Grak", action="declare", options="intent=kill tactic=hold", roll="6,6,5,1,1,2")
    await h.run("bob", "/attack", target="Grak", roll="4,4,3,4,4,3,1,1,1")  # a hit: Borin wins the exchanges
    for _ in range(4):  # both hold until the flurry ends
        data = await export(h)
        if data["phase"] != "flurry":
            break
        who = data["current"]
        await h.run("bob" if who == "Borin" else "gm", "/act", combatant=who, action="hold")
    while (data := await export(h))["current"] != "Borin":
        await h.run("gm", "/init next", confirm="true")
    assert data["phase"] == "adjustment"
    sent = await h.run("bob", "/act", combatant="Borin", action="retreat", target="Grak")
    assert "retreats NW from Grak" in said(sent)
    borin = [c for c in (await export(h))["combatants"] if c["name"] == "Borin"][0]
    assert (borin["position"], borin["facing"]) == ("C4", "SE")


async def test_a_hold_and_misses_pass_the_attack_back_and_forth(h: Harness) -> None:
    """"may hold it, but doing so allows another to go first"; "If the attack roll fails, the defender becomes
    the attacker ... This continues to the end of the flurry": Borin holds, and Grak's miss gives it back."""
    await to_flurry(h)
    await h.run("bob", "/act", action="declare", options="intent=kill tactic=hold")
    await h.run("gm", "/act", combatant="Grak", action="declare", options="intent=kill tactic=hold", roll="5,5,5,3,3,3")
    sent = await h.run("bob", "/act", action="hold")
    assert "The attack passes to **Grak**" in said(sent)
    sent = await h.run("gm", "/attack", combatant="Grak", target="Borin", roll="2,2,2")
    assert "The attack passes to **Borin**" in said(sent)
    sent = await h.run("bob", "/attack", target="Grak", roll="1,1,2")
    assert "The attack passes to **Grak**" in said(sent)
    sent = await h.run("gm", "/attack", combatant="Grak", target="Borin", roll="2,2,2")
    assert "The attack passes to **Borin**" in said(sent)
    sent = await h.run("bob", "/act", action="hold")  # Grak has no action left to take it: the flurry ends
    assert "The flurry of Borin, Grak ends" in said(sent)


async def test_a_six_round_stun_outlasts_the_shock_checks(h: Harness) -> None:
    """"Stunned characters ... can take no action for 1d6 rounds": Grak, stunned 6 rounds in round 1, takes no
    step and no flurry action through round 6 whatever his shock checks roll, and acts again in round 7."""
    await to_flurry(h)
    await h.run("bob", "/act", action="declare", options="intent=kill tactic=hold")
    await h.run("gm", "/act", combatant="Grak", action="declare", options="intent=kill tactic=hold", roll="5,5,5,3,3,3")
    sent = await h.run("gm", "/attack", combatant="Borin", target="Grak", roll="4,4,3,4,4,3,4,4,3,6")
    assert "serious" in said(sent) and "6" in said(sent)
    shocks = []
    for _ in range(200):  # a bound: a step that stops advancing fails instead of hanging
        data = await export(h)
        if data["round"] == 7 and data["current"] == "Grak":
            break
        assert data["current"] != "Grak", (data["round"], data["phase"])
        assert data["round"] <= 7
        if data["phase"] == "flurry" and data["current"] is None:
            sent = await h.run("gm", "/act", action="force")
        elif data["phase"] == "flurry":
            sent = await h.run("bob", "/act", action="hold")
        else:
            sent = await h.run("bob" if data["current"] == "Borin" else "gm", "/init next", confirm="true")
        shocks += [line for line in said(sent).splitlines() if "shock" in line]
    else:
        raise AssertionError(f"round 7 with Grak to act never came: {data['round']}, {data['phase']}")
    assert len([s for s in shocks if "Grak" in s]) >= 5


async def test_hidden_declarations_are_in_no_players_export(h: Harness) -> None:
    """`declare=hidden`: "all declare at once, hidden until all have": between two players' fighters (nothing
    else hidden), a declaration waiting for the other's is in no export but the GM's, which only the GM sees."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Duel", map="16x12 hex")
    await h.run("gm", "/encounter settings", options="declare=hidden")
    await h.run("bob", "/combatant add", name="Borin", side="dwarves", at="D4", facing="SE", sheet=BORIN)
    await h.run("tess", "/combatant add", name="Rolf", side="raiders", at="E5", facing="NW", sheet=GRAK)
    await h.run("gm", "/init roll", roll="6,5,4,1,5,5")
    await h.run("bob", "/init next", confirm="true")
    await h.run("tess", "/init next", confirm="true")
    await h.run("tess", "/act", action="declare", options="intent=throw tactic=circle")
    for who in ("bob", "eve"):
        refused = reply(await h.run(who, "/encounter export"))
        assert refused.ephemeral and not refused.files and "declarations are hidden" in refused.text
    sent = await h.run("gm", "/encounter export")
    assert [s for s in sent if s.files] and all(s.ephemeral for s in sent if s.files)
    await h.run("bob", "/act", action="declare", options="intent=kill tactic=hold")
    assert (await export(h, who="bob"))["state"]["declarations"]["revealed"] is True


async def test_an_undone_reveal_does_not_tell_the_declarations_hidden_again(h: Harness) -> None:
    """`declare=hidden`: "hidden until all have declared". The GM's `/undo` of the declaration that revealed
    them hides them again (Grak's stands): neither the undo's reply nor the log tells Grak's any more."""
    await to_flurry(h)
    await h.run("gm", "/act", combatant="Grak", action="declare", options="intent=grapple tactic=retreat")
    assert "grapple" in said(await h.run("bob", "/act", action="declare", options="intent=kill tactic=press"))
    sent = await h.run("gm", "/undo")
    public = [s for s in sent if not s.ephemeral]
    assert public and "Undid /act" in said(public) and "grapple" not in said(public)
    assert "declarations are hidden until all have declared" in reply(sent).text
    log = reply(await h.run("bob", "/log", count="5")).text
    assert "Undid /act" in log and "grapple" not in log and "retreat" not in log
