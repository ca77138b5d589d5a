"""The open system's opportunity attack offered to a player: "A player's is asked of its owner privately,
with a Strike and a Let it go button; the move waits on the cell before the step (every other rule action waits
too) and goes on after the answer ... the turn's deadline answers no" (docs/systems/open.md). Slash commands and
presses go through the harness as real interactions."""
from __future__ import annotations

from bot.offline.harness import DM, Clock, Harness, Sent, buttons_of
from tests.cogs.fights import export

HOUR = 3600


async def guarded_door(h: Harness, **settings: str) -> None:
    """Borin (bob's) guards C3; the GM's Grak, acting first, stands beside him at B2."""
    await h.run("gm", "/encounter start", system="open", name="Door", map="12x10")
    if settings:
        await h.run("gm", "/encounter settings", **settings)
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="heroes", at="C3",
                sheet="hp=20 ac=10 init=+1 weapons=axe:+5:1d8+3:slashing")
    await h.run("gm", "/combatant add", name="Grak", side="foes", at="B2",
                sheet="hp=30 ac=10 init=+20 weapons=club:+4:1d6+2:bludgeoning")
    await h.run("gm", "/init roll")


def grak(data: dict) -> dict:
    return next(c for c in data["combatants"] if c["name"] == "Grak")


def reply(sent: list[Sent]) -> Sent:
    return next(s for s in sent if s.kind in ("response", "followup"))


async def test_the_move_waits_for_the_players_strike(h: Harness) -> None:
    """Leaving Borin's reach sends bob a private question with two buttons; the move waits; Strike attacks, then
    the move goes on."""
    await guarded_door(h)
    sent = await h.run("gm", "/move", combatant="Grak", path="E E E E")
    assert "may take an opportunity attack" in reply(sent).text
    [prompt] = h.direct_messages("bob")
    assert "leaving **Borin**'s reach" in prompt.text
    assert [b["label"] for b in buttons_of(prompt)] == ["Strike", "Let it go"]
    assert grak(await export(h))["position"] == "D2"
    refused = await h.run("gm", "/init next", confirm="true")
    assert refused[0].ephemeral and "waits for" in refused[0].text
    assert '`/act action:opportunity combatant:Borin options:"no"`' in refused[0].text  # the deadline's own answer
    pressed = await h.press("bob", "Strike", DM)
    assert any("Opportunity attack: **Borin** attacks **Grak**" in s.text for s in pressed)
    assert grak(await export(h))["position"] == "F2"


async def test_let_it_go_lets_the_mover_pass(h: Harness) -> None:
    """Let it go lets the mover pass unharmed, and the move goes on."""
    await guarded_door(h)
    await h.run("gm", "/move", combatant="Grak", path="E E E")
    await h.press("bob", "Let it go", DM)
    data = await export(h)
    assert grak(data)["position"] == "E2" and grak(data)["hp"] == 30 and data["state"]["waiting"] is None


async def test_the_deadline_answers_no(h: Harness) -> None:
    """A question left open at the turn's deadline is answered no, and the warning and notice say so: the mover goes on unharmed."""
    await guarded_door(h, reminder_hours="0", deadline_hours="4", deadline_policy="pass")
    clock: Clock = h.bot.service.clock
    await h.run("gm", "/move", combatant="Grak", path="E E E")
    clock.now += 3 * HOUR
    [warning] = [s for s in await h.reminders() if "deadline" in s.text]
    assert "answers for you: no opportunity attack" in warning.text and "least harm" not in warning.text
    clock.now += HOUR
    notices = " ".join(s.text for s in await h.reminders())
    assert "not answered: no opportunity attack" in notices and "least harm" not in notices
    data = await export(h)
    assert grak(data)["position"] == "E2" and grak(data)["hp"] == 30 and data["state"]["waiting"] is None
    [stale] = await h.press("bob", "Strike", DM)
    assert "answered or taken back" in stale.text


async def two_guards(h: Harness, **settings: str) -> None:
    """bob's Borin (C4) and ann's Alda (C5) both have the GM's Orc (D4, acting first) in reach; the Orc steps E."""
    await h.run("gm", "/encounter start", system="open", name="Opp3", map="12x10")
    await h.run("gm", "/encounter settings", options="hidden=none", **settings)
    await h.run("bob", "/combatant add", name="Borin", at="C4", sheet="hp=30 init=+0 weapons=axe:+5:1d8+3:slashing")
    await h.run("ann", "/combatant add", name="Alda", at="C5", sheet="hp=30 init=+0 weapons=axe:+5:1d8+3:slashing")
    await h.run("gm", "/combatant add", name="Orc", at="D4", sheet="hp=40 ac=5 init=+20 weapons=axe:+5:9:slashing")
    await h.run("gm", "/init roll", roll="5,3,10")
    await h.run("gm", "/move", combatant="Orc", path="E")


def orc(data: dict) -> dict:
    return next(c for c in data["combatants"] if c["name"] == "Orc")


async def test_the_next_players_question_is_sent_after_a_button_answer(h: Harness) -> None:
    """"A player's is asked of its owner privately, with a Strike and a Let it go button": after bob's button answers
    his question, ann's question about the same step comes to her with its buttons, and her press answers it."""
    await two_guards(h)
    [first] = h.direct_messages("bob")
    assert [b["label"] for b in buttons_of(first)] == ["Strike", "Let it go"]
    await h.press("bob", "Let it go", DM)
    [second] = h.direct_messages("ann")
    assert "leaving **Alda**'s reach" in second.text
    assert [b["label"] for b in buttons_of(second)] == ["Strike", "Let it go"]
    await h.press("ann", "Let it go", DM)
    data = await export(h)
    assert orc(data)["position"] == "E4" and data["state"]["waiting"] is None
    assert len([m for m in h.direct_messages("bob") if "reach" in m.text]) == 1  # bob, who let the Orc go, is not asked again about the step


async def test_a_deadline_on_a_step_two_players_may_strike_answers_both_and_passes_the_turn(h: Harness) -> None:
    """"the turn's deadline answers no; being the mover's turn's deadline, it then also does to that turn what
    `deadline_policy` says, as any deadline": the Orc's move ends unharmed and its turn passes."""
    await two_guards(h, reminder_hours="0", deadline_hours="2", deadline_policy="pass")
    clock: Clock = h.bot.service.clock
    clock.now += 3 * HOUR
    said = " ".join(s.text for s in await h.reminders())
    assert "up to you" not in said
    data = await export(h)
    assert orc(data)["position"] == "E4" and orc(data)["hp"] == 40 and data["state"]["waiting"] is None
    assert data["current"] == "Borin"
