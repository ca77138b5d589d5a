"""The damage grid's `target_flips=ask`: "A negative Accuracy allows the target to flip that many
faces" (shared/rules/damage-grid.txt), and the target's owner chooses them by buttons sent to them
privately; the attack waits, the deadline takes the least harm, and the buttons survive a restart.
Slash commands and presses go through the harness as real interactions."""
from __future__ import annotations

from bot.offline.harness import DM, Clock, Harness, Sent, buttons_of, user_id_of
from tests.cogs.fights import export

HOUR = 3600
#: the rule text this file checks
TEXT = "A negative Accuracy allows the target to flip that many faces"
#: Xul's attack on Juno: rifle Accuracy 3, ability -5: the target flips 2
ATTACK = {"combatant": "Xul", "target": "Juno", "weapon": "rifle", "options": "acc=-5", "roll": "2,2,3"}


async def asked_fight(h: Harness, juno: str = "body=0 weapons=pistol:6:3:1", passes: bool = True, hidden: str = "none",
                     **settings: str) -> None:
    """Juno (ann's) faces the GM's Xul with `target_flips=ask`; Juno passes (``passes``), so Xul activates."""
    await h.run("gm", "/encounter start", system="damage-grid", name="Boarding", map="12x10")
    await h.run("gm", "/encounter settings", options=f"target_flips=ask hidden={hidden}", **settings)
    await h.run("gm", "/combatant add", name="Juno", owner="@ann", side="crew", at="C8", facing="N", sheet=juno)
    await h.run("gm", "/combatant add", name="Xul", side="boarders", at="C4", facing="S", sheet="body=3 weapons=rifle:6:3:3")
    await h.run("gm", "/init roll")
    if passes:
        await h.run("ann", "/init next", confirm="true")


def juno(data: dict) -> dict:
    return next(c for c in data["combatants"] if c["name"] == "Juno")


def reply(sent: list[Sent]) -> Sent:
    return next(s for s in sent if s.kind in ("response", "followup"))


def labels(sent: Sent) -> list[str]:
    return [b["label"] for b in buttons_of(sent)]


async def test_the_attack_waits_for_the_owner_whose_button_resolves_it(h: Harness) -> None:
    """The target's owner gets the dice and the flips as buttons by DM; nothing is applied until she presses."""
    await asked_fight(h)
    before = await export(h)
    sent = await h.run("gm", "/attack", **ATTACK)
    assert "waits for <@" in reply(sent).text and "choose Juno's 2 flips" in reply(sent).text
    [prompt] = h.direct_messages("ann")
    assert "you may make **2** flips" in prompt.text and "**2, 2, 3**" in prompt.text
    choices = labels(prompt)
    assert choices[0].startswith("Least harm") and "No flips" in choices and "Onto body: 2→3, 2→3" in choices
    assert 2 < len(choices) <= 25 and all(len(b["custom_id"]) <= 100 for b in buttons_of(prompt))
    after = await export(h)
    assert juno(after)["state"] == juno(before)["state"], "nothing of the attack is applied yet"
    moved = await h.run("gm", "/move", combatant="Xul", path="W")
    assert moved[0].ephemeral and "waits for" in moved[0].text and "/act action:flips" in moved[0].text
    assert 'options:"least-harm"`' in moved[0].text  # how a GM answers: the deadline's own answer
    status = (await h.run("gm", "/encounter status"))[0].text
    assert "Not done" not in status and "⏳ Xul's attack on Juno waits for" in status, "reading the fight goes on"
    pressed = await h.press("ann", "Onto body: 2→3, 2→3", DM)
    edited = next(s for s in pressed if s.kind == "edit" or "Answered" in s.text)
    assert "Answered" in edited.text and not buttons_of(edited), "the prompt loses its buttons"
    posted = next(s for s in pressed if "the target flips: 2→3, 2→3" in s.text)
    assert posted.channel == str(h.payload("gm", "/roll", {"dice": "1"})["channel_id"])
    assert juno(await export(h))["state"] != juno(before)["state"]
    assert "waits for" not in (await h.run("gm", "/move", combatant="Xul", path="W"))[0].text


async def test_a_hidden_attacker_s_dice_and_flips_reach_only_the_target_s_owner(h: Harness) -> None:
    """With Xul hidden the reply and the players' log say "the GM's roll" and no count of flips; ann's question has both."""
    await asked_fight(h, hidden="gm")
    sent = await h.run("gm", "/attack", **ATTACK)
    public = reply(sent).text
    assert "🎲 the GM's roll" in public and "choose Juno's flips" in public and "2, 2, 3" not in public
    assert "2 flips" not in public
    for who in ("ann", "bob"):
        log = reply(await h.run(who, "/log", count="1")).text
        assert "the GM's roll" in log and "2, 2, 3" not in log and "2 flips" not in log
    assert "2, 2, 3" in reply(await h.run("gm", "/log", count="1")).text
    [prompt] = h.direct_messages("ann")
    assert "you may make **2** flips" in prompt.text and "**2, 2, 3**" in prompt.text


async def test_a_hidden_attacker_s_dice_count_stays_out_of_the_target_s_grid_line(h: Harness) -> None:
    """"Each face on a D6 corresponds to a hit location on the target": with Xul hidden, players read where Juno was hit
    and the harm taken but no count of dice per location (their sum is Xul's Power); the GM's log keeps the counts."""
    await h.run("gm", "/encounter start", system="damage-grid", name="Boarding", map="12x10")
    await h.run("gm", "/encounter settings", options="target_flips=sheet hidden=gm")
    await h.run("gm", "/combatant add", name="Juno", owner="@ann", side="crew", at="C8", facing="N", sheet="body=0 weapons=pistol:6:3:1")
    await h.run("gm", "/combatant add", name="Xul", side="boarders", at="C4", facing="S", sheet="body=3 weapons=rifle:6:3:3")
    await h.run("gm", "/init roll")
    await h.run("ann", "/init next", confirm="true")
    public = reply(await h.run("gm", "/attack", **ATTACK)).text
    assert "**Juno**'s grid: Health, 1 passed on to it, takes 1 (3 → 2); Body, passes 1 on by its arrow; Speed, takes 2 (4 → 2)" in public
    assert "×" not in public
    for who in ("ann", "bob"):
        log = reply(await h.run(who, "/log", count="1")).text
        assert "**Juno**'s grid: Health" in log and "×" not in log
    assert "Body ×1, passes 1 on by its arrow; Speed ×2, takes 2 (4 → 2)" in reply(await h.run("gm", "/log", count="1")).text
    undone = "\n".join(s.text for s in await h.run("gm", "/undo") if not s.ephemeral)
    assert "Juno" in undone and "×" not in undone


async def test_the_question_labels_single_flips_and_shows_how_to_type_a_combination(h: Harness) -> None:
    """Single flips are labelled **Only**; the question gives a typed combination, which is accepted as written."""
    await asked_fight(h)
    await h.run("gm", "/attack", **ATTACK)
    [prompt] = h.direct_messages("ann")
    assert "Only 2→1" in labels(prompt) and "2→1" not in labels(prompt)
    assert "an **Only** button makes that one flip and no other" in prompt.text
    typed = prompt.text.split('options:"', 1)[1].split('"', 1)[0]
    assert typed == "2>1,2>1"
    sent = await h.run("ann", "/act", action="flips", combatant="Juno", options=typed)
    assert "the target flips: 2→1, 2→1" in reply(sent).text


async def test_only_the_target_owner_may_press(h: Harness) -> None:
    """With her DMs closed the question comes in the channel; the GM and bob pressing are refused privately."""
    await asked_fight(h)
    h.recorder.closed_dms.add(str(user_id_of("ann")))
    await h.run("gm", "/attack", **ATTACK)
    prompt = h.button("No flips")[0]
    assert prompt.pinged_users() == [str(user_id_of("ann"))] and "closed" in prompt.text
    before = await export(h)
    for who in ("bob", "gm"):
        [refused] = await h.press(who, "No flips")
        assert refused.ephemeral and "Only <@" in refused.text and "who plays Juno" in refused.text
    assert await export(h) == before
    sent = await h.press("ann", "No flips")
    assert any("Xul** attacks **Juno" in s.text for s in sent)


async def test_the_deadline_takes_the_least_harm(h: Harness) -> None:
    """A question left open at the turn's deadline is answered with the least harm, then the policy applies."""
    await asked_fight(h, reminder_hours="0", deadline_hours="4", deadline_policy="pass")
    clock: Clock = h.bot.service.clock
    await h.run("gm", "/attack", **ATTACK)
    clock.now += 3 * HOUR
    await h.reminders()
    clock.now += HOUR
    sent = await h.reminders()
    text = " ".join(s.text for s in sent)
    assert "not answered: the least harm" in text and "the target flips" in text
    log = reply(await h.run("gm", "/log", count="3")).text
    assert "the deadline answered for the player (the least harm)" in log
    [stale] = await h.press("ann", "No flips", DM)
    assert "answered or taken back" in stale.text


async def test_with_no_deadline_the_reminders_ping_the_player_who_must_answer(h: Harness) -> None:
    """No deadline: the question says the GM can answer or `/undo`; the nudge pings ann alone, the GM's notice names the answer."""
    await asked_fight(h, reminder_hours="1", max_nudges="1")
    clock: Clock = h.bot.service.clock
    await h.run("gm", "/attack", **ATTACK)
    [prompt] = h.direct_messages("ann")
    assert "no turn deadline" in prompt.text and "`/undo`" in prompt.text and "least harm is taken" not in prompt.text
    clock.now += HOUR
    [nudge] = await h.reminders()
    assert nudge.pinged_users() == [str(user_id_of("ann"))] and "waiting for your answer" in nudge.text
    assert "/act action:flips combatant:Juno" in nudge.text and not buttons_of(nudge)
    clock.now += HOUR
    [notice] = await h.reminders()
    assert notice.pinged_users() == [str(user_id_of("gm"))] and "a GM can answer for them" in notice.text


async def test_with_a_deadline_the_question_and_the_warning_say_so_to_the_player(h: Harness) -> None:
    """With a 4 h deadline the question says the least harm is taken then, and the warning before it pings ann saying so too."""
    await asked_fight(h, reminder_hours="0", deadline_hours="4", deadline_policy="pass")
    clock: Clock = h.bot.service.clock
    await h.run("gm", "/attack", **ATTACK)
    [prompt] = h.direct_messages("ann")
    assert "at the turn's deadline, 4 h after the turn began, the least harm is taken" in prompt.text
    clock.now += 3 * HOUR
    [warning] = await h.reminders()
    assert warning.pinged_users() == [str(user_id_of("ann"))] and "deadline is in about 1 h" in warning.text
    assert "(then the deadline answers for you: the least harm, and the turn passes)" in warning.text


async def test_a_restart_between_the_question_and_the_answer(h: Harness) -> None:
    """A new process takes the answer to the question the old one sent."""
    await asked_fight(h)
    await h.run("gm", "/attack", **ATTACK)
    h2 = await h.restart()
    try:
        sent = await h2.press("ann", "No flips", DM)
        assert any("Xul** attacks **Juno" in s.text for s in sent)
        assert "waits" not in reply(await h2.run("gm", "/encounter status")).text
    finally:
        await h2.close()


async def test_undo_takes_the_waiting_attack_back(h: Harness) -> None:
    """`/undo` of the waiting attack clears the question: its buttons then change nothing."""
    await asked_fight(h)
    before = await export(h)
    await h.run("gm", "/attack", **ATTACK)
    await h.run("gm", "/undo")
    assert await export(h) == before
    [stale] = await h.press("ann", "No flips", DM)
    assert stale.ephemeral and "answered or taken back" in stale.text


async def test_undo_of_the_answer_asks_the_owner_again_with_live_buttons(h: Harness) -> None:
    """`/undo` of ann's answer brings the waiting attack back, so she gets "the dice by direct message with a button
    per answer" (docs/systems/damage-grid.md) afresh: a new question, whose press resolves the attack."""
    await asked_fight(h)
    await h.run("gm", "/attack", **ATTACK)
    await h.press("ann", "No flips", DM)
    undone = await h.run("gm", "/undo")
    assert "waits for" in (await h.run("gm", "/encounter status"))[0].text
    first, again = [s for s in h.direct_messages("ann") if buttons_of(s)]
    assert again in undone and "**2, 2, 3**" in again.text
    assert labels(again) == labels(first), "the same choices, on live buttons"
    pressed = await h.press("ann", "Onto body: 2→3, 2→3", DM)
    assert any("the target flips: 2→3, 2→3" in s.text for s in pressed)
    assert "waits for" not in (await h.run("gm", "/encounter status"))[0].text


async def test_an_undo_that_leaves_the_question_waiting_does_not_ask_again(h: Harness) -> None:
    """An undo of something done while the attack waits (a GM's setting) leaves the question as it was: not sent twice."""
    await asked_fight(h)
    await h.run("gm", "/attack", **ATTACK)
    await h.run("gm", "/encounter settings", reminder_hours="12")
    assert "Undid /encounter settings" in reply(await h.run("gm", "/undo")).text
    assert "waits for" in (await h.run("gm", "/encounter status"))[0].text
    assert len([s for s in h.direct_messages("ann") if buttons_of(s)]) == 1


async def test_a_gm_may_answer_by_typing_a_player_may_not_for_another(h: Harness) -> None:
    """`/act action:flips` typed: the GM answers for the player; bob, who does not play Juno, is refused."""
    await asked_fight(h)
    await h.run("gm", "/attack", **ATTACK)
    refused = await h.run("bob", "/act", action="flips", combatant="Juno", options="none")
    assert refused[0].ephemeral
    sent = await h.run("gm", "/act", action="flips", combatant="Juno", options="3>1")
    assert "the target flips: 3→1" in reply(sent).text


async def test_a_typed_answer_reads_repeated_flips_and_refuses_too_many(h: Harness) -> None:
    """`options:"2>1,2>1"` typed turns both 2s, as the button and `flips=` do; three flips with two allowed are refused with the costs."""
    await asked_fight(h)
    await h.run("gm", "/attack", **{**ATTACK, "roll": "2,2,2"})
    before = await export(h)
    [refused] = await h.run("ann", "/act", action="flips", combatant="Juno", options="2>1,2>1,2>1")
    assert refused.ephemeral and "costs 3 flips (2>1: 1, 2>1: 1, 2>1: 1" in refused.text
    assert "the target may make 2" in refused.text and await export(h) == before
    sent = await h.run("ann", "/act", action="flips", combatant="Juno", options="2>1,2>1")
    assert "the target flips: 2→1, 2→1 → 1, 1, 2" in reply(sent).text


async def test_the_refusals_of_an_answer_give_an_example_that_is_accepted(h: Harness) -> None:
    """An empty answer and flips costing 4 of 2 are refused with the cost, the allowance and an example; the example is accepted."""
    await asked_fight(h)
    await h.run("gm", "/attack", **ATTACK)
    [empty] = await h.run("ann", "/act", action="flips", combatant="Juno")
    [dear] = await h.run("ann", "/act", action="flips", combatant="Juno", options="2>5,3>4")
    assert "2 flips, a connected face costs 1, the opposite face 2" in empty.text
    assert "costs 4 flips (2>5: 2, 3>4: 2" in dear.text and "the target may make 2" in dear.text
    examples = {t.rsplit("like `", 1)[1].split("`")[0].removeprefix('options:"').removesuffix('"') for t in (empty.text, dear.text)}
    assert examples == {"2>1"}
    sent = await h.run("ann", "/act", action="flips", combatant="Juno", options="2>1")
    assert "the target flips: 2→1" in reply(sent).text


async def test_the_log_records_the_answer_as_the_answer_to_the_attack(h: Harness) -> None:
    """After ann's press the log's row reads as Xul's attack answered by her, and `/undo` names it so."""
    await asked_fight(h)
    await h.run("gm", "/attack", **ATTACK)
    await h.press("ann", "No flips", DM)
    log = reply(await h.run("bob", "/log", count="1")).text
    assert "/act flips (the answer to Xul's attack on Juno): **Xul** activates" in log
    undone = reply(await h.run("gm", "/undo")).text
    assert "Undid /act flips (the answer to Xul's attack on Juno) by <@" in undone


async def test_a_standing_preference_or_the_gm_s_model_is_not_asked(h: Harness) -> None:
    """A sheet's own `flips=` answers in advance: the attack resolves at once and nobody is asked."""
    await asked_fight(h, juno="body=0 flips=body weapons=pistol:6:3:1")
    sent = await h.run("gm", "/attack", **ATTACK)
    assert "the target flips" in reply(sent).text and h.direct_messages("ann") == []


async def test_a_lunge_waits_too_and_moves_only_once_answered(h: Harness) -> None:
    """A Lunge at a negative Accuracy waits like an attack: the lunger has not moved until the answer."""
    await asked_fight(h)
    await h.run("gm", "/combatant edit", name="Xul", at="C6", facing="S")
    await h.run("gm", "/act", action="lunge", combatant="Xul", target="Juno", weapon="rifle", options="acc=-5", roll="2,2,3")
    assert next(c for c in (await export(h))["combatants"] if c["name"] == "Xul")["position"] == "C6"
    sent = await h.press("ann", "No flips", DM)
    assert any("**Xul** lunges at **Juno**" in s.text for s in sent)
    assert next(c for c in (await export(h))["combatants"] if c["name"] == "Xul")["position"] == "C7"


async def test_an_attack_on_the_gm_s_model_is_not_asked(h: Harness) -> None:
    """The GM's models keep the least harm: Juno's attack on Xul resolves at once and nobody is asked."""
    await asked_fight(h, passes=False)
    sent = await h.run("ann", "/attack", target="Xul", weapon="pistol", options="acc=-5", roll="2,2,3")
    assert "**Xul**'s grid" in reply(sent).text and "waits" not in reply(sent).text
    assert h.direct_messages("gm") == [] and h.direct_messages("ann") == []
