"""A started, undecided fight in which nobody is acting or able to act waits for the GM, in every system: its turn
message pings the GM with a turn line that says what the GM's `/init next` does, the turn clock reminds the GM, and
the GM's `/init next` moves the fight on (a player's is refused)."""
from __future__ import annotations

import json
from pathlib import Path

from bot.offline.harness import Harness, Sent, user_id_of
from tests.cogs.fights import export

HOUR = 3600


def pings(sent: list[Sent]) -> list[Sent]:
    return [s for s in sent if s.pinged_users()]


async def waits_for_the_gm(h: Harness, sent: list[Sent], line: str, player: str = "bob") -> None:
    """``sent`` posted a turn message pinging the GM alone with ``line`` in it; after `reminder_hours` the GM is nudged,
    and a ``player``'s `/init next` is refused, changing nothing."""
    gm = str(user_id_of("gm"))
    turn = pings(sent)
    assert [s.pinged_users() for s in turn] == [[gm]], [s.text for s in sent]
    assert line in turn[0].text, turn[0].text
    h.bot.service.clock.now += 1.5 * HOUR
    nudges = await h.reminders()
    assert [s.pinged_users() for s in nudges] == [[gm]], [s.text for s in nudges]
    assert line in nudges[0].text
    before = await export(h)
    refused = await h.run(player, "/init next")
    assert refused[0].ephemeral and "Nobody is acting now: the GM moves the fight on with `/init next`" in refused[0].text
    assert await export(h) == before


async def test_knights_of_valour_with_everyone_downed_waits_for_the_gm_who_lets_the_round_pass(h: Harness) -> None:
    """docs/commands.md: "a turn nobody can act in that waits for the GM's `/init next` ... pings the GM"; "When a turn
    has waited longer than the encounter's `reminder_hours`, its players (the GM, for a turn that waits for the GM) are
    nudged"; "With nobody acting (a round or phase to move on ...), only the GM goes on, with `/init next` and no
    `combatant`". docs/systems/knights-of-valour.md: "at 0 HP or less a combatant is downed and skipped in the order.
    Its turn passes all the same". With `victory=out` and both downed the fight hung: no ping, a blank turn line, and
    the GM's `/init next` did nothing. Now the GM is pinged and reminded, and the GM's `/init next` lets the round pass
    (the effect timed by the downed Grak's turn counting down) and the next round waits for the GM in turn."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Dun", map="12x10")
    await h.run("gm", "/encounter settings", reminder_hours="1", options="victory=out")
    await h.run("bob", "/combatant add", name="Borin", side="dwarves", at="C4", sheet="str=1 agi=1 hp=14 weapons=warhammer:2")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="H4", sheet="str=2 agi=2 hp=12 weapons=greataxe:2")
    await h.run("gm", "/effect add", name="Bless", target="Grak", rounds="2")
    await h.run("gm", "/init roll")
    await h.run("gm", "/combatant hp", combatant="Borin", change="-14")
    sent = await h.run("gm", "/combatant hp", combatant="Grak", change="-12")
    line = "Round 1 · nobody can act: the GM's `/init next` lets the round pass"
    await waits_for_the_gm(h, sent, line)
    assert line in (await h.run("bob", "/encounter status"))[0].text
    sent = await h.run("gm", "/init next")
    assert not sent[0].ephemeral and "**Round 2** begins" in sent[0].text, sent[0].text
    data = await export(h)
    assert data["round"] == 2 and [e["left"] for e in data["effects"]] == [1], data["effects"]
    assert "Round 2 · nobody can act" in pings(sent)[0].text
    sent = await h.press("gm", "End turn")
    assert (await export(h))["round"] == 3 and (await export(h))["effects"] == []


async def test_damage_grid_with_nobody_able_to_activate_waits_for_the_gm_who_ends_the_phase(h: Harness) -> None:
    """docs/commands.md: "With nobody acting (a round or phase to move on ...), only the GM goes on, with `/init next`
    and no `combatant`". docs/systems/damage-grid.md: "Every active model on the board activates once a phase"; "An
    inert model (Mind 0) never activates, but its activation passes unplayed as each phase ends". With Meena removed
    and Hera made inert, nobody on the board can activate (Juno and Xul are off it): the GM's `/init next` gave an
    empty reply and changed nothing. Now the turn message pings the GM, the GM is reminded, and the GM's `/init next`
    ends the phase (Hera's activation passing unplayed: the effect timed by it counts down), one phase at a time."""
    await h.run("gm", "/encounter start", system="damage-grid", name="Kestrel", map="12x10")
    await h.run("gm", "/encounter settings", reminder_hours="1")
    await h.run("gm", "/combatant add", name="Meena", owner="@bob", side="crew", at="E8", facing="N",
                sheet="body=2 weapons=gravity-saber:2:4:3:melee")
    await h.run("gm", "/combatant add", name="Juno", owner="@ann", side="crew", facing="N", sheet="body=0 weapons=pistol:6:3:1")
    await h.run("gm", "/combatant add", name="Hera", side="boarders", at="E5", facing="S", sheet="body=2 mind=2 weapons=claw:1:3:1:melee")
    await h.run("gm", "/combatant add", name="Xul", side="boarders", facing="S", sheet="body=3 weapons=claw:1:3:1:melee")
    await h.run("gm", "/init roll")
    await h.run("gm", "/combatant remove", name="Meena")
    await h.run("gm", "/effect add", name="Bless", target="Hera", rounds="2")
    sent = await h.run("gm", "/act", action="damage", target="Hera", options="mind=2")
    await waits_for_the_gm(h, sent, "Round 1 · phase 1/4: nobody can activate: the GM's `/init next` ends the phase", "ann")
    sent = await h.run("gm", "/init next")
    assert not sent[0].ephemeral and "**Phase 2/4** of round 1 begins" in sent[0].text, sent[0].text
    assert "Round 1 · phase 2/4: nobody can activate" in pings(sent)[0].text
    assert [e["left"] for e in (await export(h))["effects"]] == [1]
    for _ in range(3):
        sent = await h.press("gm", "End turn")
    assert "**Round 2** begins" in sent[0].text, sent[0].text
    data = await export(h)
    assert data["round"] == 2 and data["effects"] == []


async def tote_fight(h: Harness, **settings: str) -> None:
    """A TOTE encounter, Borin (bob's) against Grak (the GM's), begun with `/init roll`."""
    await h.run("gm", "/encounter start", system="tote", name="Ford")
    await h.run("gm", "/encounter settings", reminder_hours="1", **settings)
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="heroes", sheet="hawk=2 plan=2 strike=3 weapon=axe:2:slash")
    await h.run("gm", "/combatant add", name="Grak", side="foes", sheet="rating=2 tohit=3 weapon=club:2:bash")
    await h.run("gm", "/init roll")


async def test_tote_with_everyone_unconscious_waits_for_the_gm_who_ends_the_round(h: Harness) -> None:
    """docs/systems/tote.md: "the round ends when nobody is left to act. The turn of one who took none in the round
    (unconscious, out of the fight, escaped) passes all the same as the round ends"; docs/commands.md: "With nobody
    acting (a round or phase to move on ...), only the GM goes on, with `/init next` and no `combatant`". With both
    unconscious (`victory=out`) the turn line sent the GM to `/init roll combatant:NAME`, refused for both, and the
    GM's `/init next` was refused too. Now the line says the GM's `/init next` ends the round, and it does (the effect
    timed by Grak's turn counting down)."""
    await tote_fight(h, options="victory=out")
    await h.run("gm", "/combatant hp", combatant="Borin", change="-6")
    await h.run("gm", "/effect add", name="Bless", target="Grak", rounds="2")
    sent = await h.run("gm", "/combatant hp", combatant="Grak", change="-6")
    await waits_for_the_gm(h, sent, "Round 1 · nobody can act: the GM's `/init next` ends the round")
    sent = await h.press("gm", "End turn")
    assert not sent[0].ephemeral and "**Round 2** begins" in sent[0].text, sent[0].text
    assert "Round 2 · nobody can act" in pings(sent)[0].text
    left = [e["left"] for e in (await export(h))["effects"]]
    sent = await h.run("gm", "/init next")
    data = await export(h)
    assert data["round"] == 3 and [e["left"] for e in data["effects"]] == [n - 1 for n in left if n > 1], (left, data["effects"])


async def test_open_with_everyone_dying_waits_for_the_gm_who_plays_one_round(h: Harness) -> None:
    """docs/commands.md: "a turn nobody can act in that waits for the GM's `/init next` ... pings the GM"; reminders go
    to "the GM, for a turn that waits for the GM". docs/systems/open.md, `death_save_roll` `bot`: "the bot rolls it as
    its turn begins and the turn passes on". With both dying the fight stopped on a blank turn line, pinging and
    reminding nobody, and each GM's `/init next` played two rounds. Now the round nobody but the dying acts in waits for
    the GM, who is pinged and reminded, and the GM's `/init next` plays it (the death saves) and begins the next."""
    await h.run("gm", "/encounter start", system="open", name="Crypt", map="12x10")
    await h.run("gm", "/encounter settings", reminder_hours="1", options="death_save_roll=bot")
    await h.run("bob", "/combatant add", name="Borin", side="heroes", at="C4",
                sheet="hp=24 ac=16 speed=25 init=+1 con=3 weapons=warhammer:+5:1d8+3:bludgeoning")
    await h.run("tess", "/combatant add", name="Cara", side="rivals", at="H4", sheet="hp=20 ac=12 dex=2 weapons=claws:+4:2d6+2:slashing")
    await h.run("gm", "/init roll")
    await h.run("gm", "/combatant hp", combatant="Cara", change="-20")
    sent = await h.run("gm", "/combatant hp", combatant="Borin", change="-24")
    round_ = (await export(h))["round"]
    await waits_for_the_gm(h, sent, f"Round {round_} · nobody can act: the GM's `/init next` lets the round pass")
    sent = await h.run("gm", "/init next")
    text = sent[0].text
    assert text.count("death save") == 2 and text.count("begins") == 1, text
    assert (await export(h))["round"] == round_ + 1
    assert f"Round {round_ + 1} · nobody can act" in pings(sent)[0].text


async def test_an_imported_fight_with_nobodys_turn_pings_the_gm_in_knights_of_valour_and_the_open_system(h: Harness, tmp_path: Path) -> None:
    """docs/commands.md: "An imported fight under way (with or without `replace:true`) comes in as a turn change: whoever
    must act is pinged, and that turn's reminders and deadline count from the import"; "a turn nobody can act in that
    waits for the GM's `/init next` ... pings the GM". An export taken after `/init roll` with `"current": null` came in
    with a blank turn line, pinging and reminding nobody. Now the GM is pinged and reminded with a line that says the
    GM's `/init next` gives the next turn, and it does."""
    sheets = {"knights-of-valour": ("str=1 agi=1 hp=14 weapons=warhammer:2", "str=2 agi=2 hp=12 weapons=greataxe:2"),
              "open": ("hp=24 ac=16 init=+1 weapons=warhammer:+5:1d8+3:bludgeoning", "hp=20 ac=12 dex=2 weapons=claws:+4:2d6+2:slashing")}
    for system, (borin, grak) in sheets.items():
        await h.run("gm", "/encounter start", system=system, name="Dun", map="12x10")
        await h.run("bob", "/combatant add", name="Borin", side="dwarves", at="C4", sheet=borin)
        await h.run("gm", "/combatant add", name="Grak", side="orcs", at="H4", sheet=grak)
        await h.run("gm", "/init roll")
        data = await export(h)
        data["current"] = None
        path = tmp_path / f"{system}.json"
        path.write_text(json.dumps(data))
        sent = await h.run("gm", "/encounter import", file=str(path), replace="true", confirm="true")
        await h.run("gm", "/encounter settings", reminder_hours="1")
        await waits_for_the_gm(h, sent, "Round 1 · nobody is acting: the GM's `/init next` gives the next turn")
        sent = await h.run("gm", "/init next")
        assert pings(sent) and (await export(h))["current"] in ("Borin", "Grak"), system
        await h.run("gm", "/encounter end", confirm="true")


async def test_tote_with_nobody_holding_initiative_tells_player_and_gm_the_same_thing_to_do(h: Harness, tmp_path: Path) -> None:
    """docs/commands.md: "With nobody acting ..., only the GM goes on"; TOTE: "roll for a newcomer with
    `combatant:NAME`". A fight imported under way with no initiative anywhere waits for the GM to roll it: a player's
    `/init next` was told "the GM moves the fight on with `/init next`", which the GM's `/init next` and End turn then
    refused. Now both are told that the GM rolls initiative with `/init roll combatant:NAME`, naming who has none,
    and nothing changes; the GM's roll then gives the turn."""
    await tote_fight(h)
    data = await export(h)
    data["current"] = None
    for c in data["combatants"]:
        c["initiative"] = None
    path = tmp_path / "tnull.json"
    path.write_text(json.dumps(data))
    sent = await h.run("gm", "/encounter import", file=str(path), replace="true", confirm="true")
    assert "the GM rolls initiative with `/init roll combatant:NAME`" in pings(sent)[0].text
    before = await export(h)
    words = "the GM rolls initiative with `/init roll combatant:NAME` (Borin, Grak)"
    for who, how in (("bob", "/init next"), ("gm", "/init next"), ("gm", "End turn")):
        refused = await (h.press(who, how) if how == "End turn" else h.run(who, how))
        assert refused[0].ephemeral and words in refused[0].text, (who, how, refused[0].text)
    assert await export(h) == before
    sent = await h.run("gm", "/init roll", combatant="Grak")
    assert pings(sent) and (await export(h))["current"] == "Grak"


async def test_an_init_next_that_would_move_nothing_on_is_refused_not_logged(h: Harness) -> None:
    """DESIGN: bad input "gets a clear private message that says what to do instead, and changes nothing"; the GM's
    `/init next` in a fight nobody is left to take a turn in (two goblins of one side, both out) gave an empty reply
    that `/undo` then took back as a step, under a turn line that said it let the round pass. Now the turn line and the
    refusal say what to do, and nothing is logged."""
    await h.run("gm", "/encounter start", system="open", name="Crypt", map="12x10")
    for name, at in (("Gob", "C4"), ("Hob", "D4")):
        await h.run("gm", "/combatant add", name=name, side="goblins", at=at, sheet="hp=7 ac=12 weapons=claws:+4:1d6:slashing")
    await h.run("gm", "/init roll")
    for name in ("Gob", "Hob"):
        sent = await h.run("gm", "/combatant hp", combatant=name, change="-7")
    assert "Round 1 · nobody is left to take a turn: bring a combatant back with `/combatant edit name:NAME sheet:\"hp=N\"`, or end the fight with " \
           "`/encounter end`" in pings(sent)[0].text
    before = await export(h)
    sent = await h.run("gm", "/init next")
    assert sent[0].ephemeral and "`/init next` has nothing to move on" in sent[0].text and "`/encounter end`" in sent[0].text
    assert await export(h) == before
    undone = await h.run("gm", "/undo")
    assert "/init next" not in undone[0].text, undone[0].text


async def test_a_deadline_under_pass_that_the_gms_init_next_cannot_pass_warns_and_tells_the_gm_why(h: Harness) -> None:
    """docs/commands.md: at a deadline "`pass` ends the turn as if its owner had used `/init next`", and the GM's own
    turn passes as that `/init next` would; where the GM's `/init next` cannot move it on (nobody left to take a turn:
    bring one back or end the fight), the warning said "(then the turn passes)" and the deadline then told the GM
    "Open d20 has no way to pass it". Now both say what the GM does instead, and nothing is changed."""
    await h.run("gm", "/encounter start", system="open", name="Crypt", map="12x10")
    for name, at in (("Gob", "C4"), ("Hob", "D4")):
        await h.run("gm", "/combatant add", name=name, side="goblins", at=at, sheet="hp=7 ac=12 weapons=claws:+4:1d6:slashing")
    await h.run("gm", "/encounter settings", reminder_hours="0", deadline_hours="4", deadline_policy="pass")
    await h.run("gm", "/init roll")
    for name in ("Gob", "Hob"):
        await h.run("gm", "/combatant hp", combatant=name, change="-7")
    words = "bring a combatant back with `/combatant edit name:NAME sheet:\"hp=N\"`, or end the fight with `/encounter end`"
    h.bot.service.clock.now += 3.5 * HOUR
    [warning] = await h.reminders()
    assert "then the turn passes" not in warning.text and words in warning.text, warning.text
    before = await export(h)
    h.bot.service.clock.now += HOUR
    [notice] = await h.reminders()
    assert "no way to pass" not in notice.text and words in notice.text, notice.text
    assert await export(h) == before


async def test_the_gms_init_next_naming_a_combatant_while_nobody_acts_is_refused(h: Harness) -> None:
    """docs/commands.md: "With nobody acting (a round or phase to move on ...), only the GM goes on, with `/init next`
    and no `combatant`": the GM's `/init next combatant:Grak` while a round nobody can act in waits is refused, saying
    to leave `combatant` out, and changes nothing (it let the round pass, its reply headed "Grak: init next")."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Dun", map="12x10")
    await h.run("gm", "/encounter settings", options="victory=out")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C4", sheet="str=1 agi=1 hp=14 weapons=warhammer:2")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="H4", sheet="str=2 agi=2 hp=12 weapons=greataxe:2")
    await h.run("gm", "/init roll")
    await h.run("gm", "/combatant hp", combatant="Borin", change="-14")
    await h.run("gm", "/combatant hp", combatant="Grak", change="-12")
    before = await export(h)
    refused = await h.run("gm", "/init next", combatant="Grak", confirm="true")
    assert refused[0].ephemeral and "without `combatant`" in refused[0].text, refused[0].text
    assert await export(h) == before
