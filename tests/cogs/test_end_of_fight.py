"""One end-of-fight rule in every system: when one side alone has combatants able to act, the
result is announced once; then only finishing blows, the GM's edits, `/undo`, `/log`, export and
`/encounter end` remain, and anything else gets one line saying the fight is decided."""
from __future__ import annotations

import pytest

from bot.offline.harness import Harness, Sent
from tests.cogs.fights import SYSTEMS, borins_turn, export, started_cdg

DECIDED = "The fight is decided"


def refusal(sent: list[Sent]) -> str:
    [reply] = [s for s in sent if s.ephemeral]
    assert "Not done" in reply.text and len(reply.text.splitlines()) == 2, reply.text
    return reply.text


def accepted(sent: list[Sent]) -> str:
    assert not sent[0].ephemeral, sent[0].text
    return sent[0].text


async def status_of(h: Harness, name: str) -> str:
    return next(c["status"] for c in (await export(h))["combatants"] if c["name"] == name)


async def test_damage_grid_finishes_the_last_inert_foe_after_the_win(h: Harness) -> None:
    """The mind hit that leaves the last boarder inert wins, once; the coup de grâce on her then works; a move is refused in one line."""
    await h.run("gm", "/encounter start", system="damage-grid", map="12x10")
    await h.run("gm", "/combatant add", name="Meena", owner="@bob", side="crew", at="E8", facing="N",
                sheet="body=2 weapons=gravity-saber:2:4:3:melee")
    await h.run("gm", "/combatant add", name="Juno", owner="@tess", side="crew", at="C8", facing="N", sheet="body=2")
    await h.run("gm", "/combatant add", name="Hera", side="boarders", at="E7", facing="S", sheet="body=2 mind=2")
    await h.run("gm", "/init roll")
    text = accepted(await h.run("bob", "/attack", target="Hera", weapon="gravity-saber", options="aim=mind", roll="1,3,4,4"))
    assert "**crew** win" in text and "`/coupdegrace` may still finish Hera" in text
    assert DECIDED in refusal(await h.run("tess", "/move", path="N"))
    text = accepted(await h.run("tess", "/coupdegrace", target="Hera"))
    assert "**Juno** finishes **Hera**" in text and "win" not in text
    assert await status_of(h, "Hera") == "out"
    assert "not a helpless foe" in refusal(await h.run("bob", "/coupdegrace", target="Hera"))
    # `/init order` of the decided fight says so (it said "No combatants yet": nobody is left to activate)
    order = accepted(await h.run("bob", "/init order"))
    assert "🏆 Over: **crew** won." in order and "No combatants yet" not in order


async def test_war_and_combat_decides_when_the_last_foe_falls_unconscious(h: Harness) -> None:
    """The knockout that leaves Grak unconscious decides the fight (it stayed open before); "An automatic killing stroke" then takes him out."""
    await h.run("gm", "/encounter start", system="war-and-combat", map="12x10 hex")
    await h.run("gm", "/encounter settings", options="declare=hidden")  # the dice below are in that order
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="D4", facing="SE",
                sheet="str=14 agl=13 fighter=6 skills=broadsword:3,tactics:0 weapons=broadsword armor=mail")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="E5", facing="NW",
                sheet="str=15 fighter=3 skills=axe:2 weapons=axe armor=leather")
    await h.run("gm", "/init roll", roll="5,5,4,2,3,2")
    await h.run("gm", "/init next", confirm="true")
    await h.run("gm", "/init next", confirm="true")
    await h.run("bob", "/act", action="declare", options="intent=kill tactic=hold")
    await h.run("gm", "/act", combatant="Grak", action="declare", options="intent=kill tactic=press", roll="5,5,4,2,3,2")
    text = accepted(await h.run("bob", "/attack", target="Grak", roll="4,4,3,1,1,2,6,6,5"))
    assert "unconscious" in text and "**dwarves** win" in text
    assert DECIDED in refusal(await h.run("gm", "/init next"))
    assert "finishes **Grak**" in accepted(await h.run("bob", "/coupdegrace", target="Grak"))
    assert await status_of(h, "Grak") == "out"


async def test_after_the_win_the_gm_edits_undoes_logs_exports_and_ends(h: Harness) -> None:
    """Knights of Valour: after the GM's edit downs the last foe, GM edits, undo, log, export and end still work; effects do not."""
    await borins_turn(h, "knights-of-valour")
    await h.run("gm", "/combatant remove", name="Snaga")
    text = accepted(await h.run("gm", "/combatant edit", name="Grak", sheet="hp=0"))
    assert "**dwarves** win" in text
    assert DECIDED in refusal(await h.run("bob", "/effect add", name="Bless", target="Borin"))
    assert DECIDED in refusal(await h.run("tess", "/attack", target="Grak"))
    accepted(await h.run("gm", "/combatant edit", name="Borin", sheet="hp=9"))
    assert "Undone" in accepted(await h.run("gm", "/undo"))
    assert "/combatant edit" in (await h.run("gm", "/log", count="2"))[0].text
    assert (await export(h))["winner"] == "dwarves"
    sent = await h.run("gm", "/encounter end")
    assert "End the encounter?" not in sent[0].text


@pytest.mark.parametrize("system", SYSTEMS)
async def test_removing_the_last_foe_decides_the_fight(h: Harness, system: str) -> None:
    """`/combatant remove` of the last foe announces the win once; no new round starts and `/init next` says the fight is decided."""
    await borins_turn(h, system)
    await h.run("gm", "/combatant remove", name="Snaga")
    round_before = (await export(h))["round"]
    text = accepted(await h.run("gm", "/combatant remove", name="Grak"))
    assert text.count("win") == 1 and "no other side has anyone able to act" in text
    data = await export(h)
    assert data["winner"] == ADDS_SIDE[system] and data["round"] == round_before
    assert DECIDED in refusal(await h.run("gm", "/init next"))
    assert DECIDED in refusal(await h.run("bob", "/init next"))


async def test_init_next_after_a_coup_de_grace_win_says_the_fight_is_decided(h: Harness) -> None:
    """Coup-De-Grace: once Grak is out, the GM's `/init next` says the fight is decided instead of asking which combatant acts."""
    await started_cdg(h)
    await h.run("gm", "/combatant edit", name="Grak", sheet="hp=1")
    await h.run("gm", "/combatant edit", name="Grak", at="D3")
    await h.run("bob", "/attack", target="Grak", weapon="shield", roll="6")
    await h.run("bob", "/coupdegrace", target="Grak", weapon="hammer", roll="6")
    assert (await export(h))["winner"] == "dwarves"
    text = refusal(await h.run("gm", "/init next"))
    assert DECIDED in text and "Name the combatant" not in text


#: the side Borin is on in each system's fight (tests.cogs.test_turn_control)
ADDS_SIDE = {"coup-de-grace": "dwarves", "damage-grid": "crew", "knights-of-valour": "dwarves", "tote": "heroes",
             "war-and-combat": "dwarves"}


async def test_a_victory_option_changed_mid_fight_decides_the_fight_at_once(h: Harness) -> None:
    """Knights of Valour: "option `victory=out`: only out" kept a downed side fighting; switching to `victory=downed` decides it in the settings reply, not at the next action."""
    await h.run("gm", "/encounter start", system="knights-of-valour", map="8x6")
    await h.run("gm", "/encounter settings", options="victory=out")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="B3", sheet="agi=3 hp=10 weapons=club:1")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="C3", sheet="agi=2 hp=10 weapons=club:1")
    await h.run("gm", "/init roll")
    await h.run("gm", "/combatant hp", combatant="Grak", change=-10)
    assert "win" not in accepted(await h.run("gm", "/encounter settings", options="victory=out"))
    text = accepted(await h.run("gm", "/encounter settings", options="victory=downed"))
    assert "**dwarves** win" in text, text
    assert DECIDED in refusal(await h.run("bob", "/move", path="E"))
    log = "\n".join(s.text for s in await h.run("gm", "/log"))
    assert "dwarves** win" in log or "dwarves win" in log, log
    await h.run("gm", "/undo")
    assert "Not done" not in (await h.run("bob", "/move", path="S"))[0].text


async def test_a_victory_option_changed_after_the_fight_is_decided_says_it_stays_decided(h: Harness) -> None:
    """Knights of Valour: "A side with everyone downed or out is beaten (option `victory=out`: only out)"
    (docs/systems/knights-of-valour.md): once Grak's fall decided the fight, `victory=out` is taken, and the reply
    says the fight stays decided and how to reopen it (`/undo`), rather than nothing."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="K", map="8x6")
    await h.run("gm", "/combatant add", name="Alda", owner="@ann", side="heroes", at="B2", sheet="hp=9 agi=3 weapons=longsword:1")
    await h.run("gm", "/combatant add", name="Grak", side="foes", at="G3", sheet="hp=6 agi=-2 weapons=longsword:1")
    await h.run("gm", "/init roll")
    await h.run("gm", "/combatant hp", combatant="Grak", change=-6)
    [answer, *_] = await h.run("gm", "/encounter settings", options="victory=out")
    assert "The fight stays decided (heroes won): `/undo` back to what decided it to reopen it." in answer.text.splitlines(), answer.text


async def test_a_command_on_an_ended_fight_says_it_has_ended(h: Harness) -> None:
    """docs/commands.md: "The ended fight's `/log` and `/encounter export` (its final state) still work in the channel
    until a new encounter starts there": a command that needs a fight under way (`/encounter reveal`, `/undo`,
    `/encounter settings`, `/init next`) says this channel's fight has ended and what still works, and changes
    nothing (it said "There is no encounter in this channel", while `/log` still showed it)."""
    await started_cdg(h)
    await h.run("gm", "/encounter end", confirm="true")
    for command, options in (("/encounter reveal", {}), ("/undo", {}), ("/encounter settings", {"reminder_hours": "2"}),
                             ("/init next", {})):
        refused = (await h.run("gm", command, **options))[0]
        assert refused.ephemeral and "has ended" in refused.text and "/encounter start" in refused.text, (command, refused.text)
        assert "There is no encounter" not in refused.text
    assert not (await h.run("gm", "/log"))[0].text.startswith("⚠️")


async def test_an_ended_fights_end_and_export_say_it_has_ended(h: Harness) -> None:
    """docs/commands.md: an ended fight "takes no `/encounter reveal`": the GM's export of it no longer suggests one,
    and `/encounter end` once more says the fight has ended, as other commands there do (it said there was no
    encounter)."""
    await started_cdg(h)
    await h.run("gm", "/encounter end", confirm="true")
    exported = (await h.run("gm", "/encounter export"))[0]
    assert exported.files and "/encounter reveal" not in exported.text, exported.text
    again = (await h.run("gm", "/encounter end", confirm="true"))[0]
    assert again.ephemeral and "has ended" in again.text and "There is no encounter" not in again.text, again.text


async def test_an_ended_fights_words_offer_a_player_no_export_that_is_refused(h: Harness) -> None:
    """docs/commands.md: an ended fight's `/encounter export` is "only its GM" while it hides anything from players:
    the words that say what still shows an ended fight (the end summary, the refusal of a command that needs a fight
    under way) say so, not offering a player an export that is then refused."""
    await started_cdg(h)
    summary = "\n".join(s.text for s in await h.run("gm", "/encounter end", confirm="true"))
    refused = (await h.run("bob", "/encounter status"))[0]
    for text in (summary, refused.text):
        assert "only the GM's while it hides anything from players" in text, text
    assert "Only the GM" in (await h.run("bob", "/encounter export"))[0].text
