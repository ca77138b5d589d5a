"""Turn control in every system: only the acting combatant's owner or the GM ends a turn (typed
`/init next`, End turn, the deadline's `pass`), the GM naming another combatant never ends the turn
under way, and a typed `/init next` asks before ending a turn in which nothing was done yet."""
from __future__ import annotations

import pytest

from bot.offline.harness import Clock, Harness, Sent, channel_id_of
from rules.registry import get_system
from tests.cogs.fights import ADDS, MAPS, SYSTEMS, borins_turn, export

HOUR = 3600

#: who acts after Borin: one combatant, or the side whose minis may activate
AFTER_BORIN = {"coup-de-grace": ("Grak", "Snaga"), "damage-grid": ("Grak", "Snaga"), "knights-of-valour": ("Grak",),
               "tote": ("Grak",), "war-and-combat": ("Grak",)}
#: one thing Borin does that leaves his turn going on
BORIN_ACTS = {"coup-de-grace": ("/move", dict(path="E")), "damage-grid": ("/move", dict(path="E")),
              "knights-of-valour": ("/move", dict(to="C3")), "war-and-combat": ("/move", dict(path="SE"))}


async def borin_acting(h: Harness, system: str) -> None:
    """Borin's turn, in which Borin has done something (where his turn goes on after an action)."""
    await borins_turn(h, system)
    command, options = BORIN_ACTS[system]
    sent = await h.run("bob", command, **options)
    assert not sent[0].ephemeral, sent[0].text


async def borin_acts_now(h: Harness, system: str) -> None:
    """Borin's turn, his alone (in the alternating systems, once he has begun his activation)."""
    if system in BORIN_ACTS:
        await borin_acting(h, system)
    else:
        await borins_turn(h, system)


async def acting(h: Harness) -> tuple[str, ...]:
    """Who may act now."""
    enc = await h.bot.service.encounter(str(h.payload("gm", "/roll", {"dice": "1"})["channel_id"]))
    assert enc is not None
    return get_system(enc.system).turn(enc).actors


def refusal(sent: list[Sent]) -> str:
    assert len(sent) == 1 and sent[0].ephemeral and "Not done" in sent[0].text, [s.text for s in sent]
    return sent[0].text


def question(sent: list[Sent]) -> str:
    assert len(sent) == 1 and sent[0].ephemeral and "End the turn?" in sent[0].text, [s.text for s in sent]
    return sent[0].text


@pytest.mark.parametrize("system", SYSTEMS)
async def test_a_player_cannot_end_another_players_turn(h: Harness, system: str) -> None:
    """While Borin (bob's) acts, tess's `/init next`, with or without `combatant:Thrain`, is refused privately and ends nothing."""
    await borin_acts_now(h, system)
    for options in ({}, {"combatant": "Thrain"}):
        text = refusal(await h.run("tess", "/init next", **options))
        assert "It is Borin's turn now, not Thrain's" in text
        assert await acting(h) == ("Borin",)


@pytest.mark.parametrize("system", SYSTEMS)
async def test_end_turn_is_the_owners_or_the_gms_and_asks_nothing(h: Harness, system: str) -> None:
    """Tess's End turn on Borin's turn is refused; bob's ends it at once, with no question, even before Borin did anything."""
    await borin_acts_now(h, system)
    assert "not yours" in refusal(await h.press("tess", "End turn"))
    assert await acting(h) == ("Borin",)
    sent = await h.press("bob", "End turn")
    assert not sent[0].ephemeral and "End the turn?" not in sent[0].text
    assert await acting(h) == AFTER_BORIN[system]


#: the systems in which the GM can pass a combatant before its turn (the others refuse, saying why)
PASSING = ("coup-de-grace", "knights-of-valour", "tote")


@pytest.mark.parametrize("system", SYSTEMS)
async def test_the_gm_naming_another_combatant_never_ends_the_turn_under_way(h: Harness, system: str) -> None:
    """The GM's `/init next combatant:Snaga` while Borin acts passes Snaga, logged, or is refused with the reason; Borin's turn goes on."""
    await borin_acts_now(h, system)
    sent = await h.run("gm", "/init next", combatant="Snaga")
    if system in PASSING:
        text = sent[0].text
        assert not sent[0].ephemeral and "Snaga" in text and "Borin" not in text.split("\n", 1)[1]
        assert "Snaga" in (await h.run("gm", "/log", count="1"))[0].text
        assert "Snaga" in refusal(await h.run("gm", "/init next", combatant="Snaga")), "passed once, it has no turn left to pass"
    else:
        text = refusal(sent)
        assert "Snaga is not acting now (Borin is)" in text and "nothing was ended" in text
    assert await acting(h) == ("Borin",)


@pytest.mark.parametrize("system", ["coup-de-grace", "knights-of-valour"])
async def test_a_passed_combatant_loses_its_coming_turn(h: Harness, system: str) -> None:
    """Snaga, passed by the GM while Borin acts, is skipped this round: after Borin come Grak and Thrain, then round 2."""
    await borin_acts_now(h, system)
    sent = await h.run("gm", "/init next", combatant="Snaga")
    assert "**Snaga** is passed by the GM: it loses its coming turn this round" in sent[0].text
    await h.run("bob", "/init next")
    await h.run("gm", "/init next", combatant="Grak", confirm="true")
    assert await acting(h) == ("Thrain",)
    await h.run("tess", "/init next", confirm="true")
    assert (await export(h))["round"] == 2


@pytest.mark.parametrize("system", SYSTEMS)
async def test_a_players_next_ends_only_their_own_combatants_turn(h: Harness, system: str) -> None:
    """Once Borin's turn has ended, bob's `/init next` says whose turn it is now, privately, and ends nothing."""
    await borins_turn(h, system)
    await h.run("bob", "/init next", confirm="true")
    after = AFTER_BORIN[system]
    assert await acting(h) == after
    text = refusal(await h.run("bob", "/init next"))
    whose = "Grak's" if len(after) == 1 else ("orcs'" if system == "coup-de-grace" else "boarders'")
    assert f"It is {whose} turn now, not Borin's" in text
    assert await acting(h) == after


@pytest.mark.parametrize("system", [*SYSTEMS, "open"])
async def test_the_gms_next_before_the_fight_says_it_has_not_started(h: Harness, system: str) -> None:
    """docs/commands.md: "Errors are shown only to you and change nothing." The GM's `/init next`
    before `/init roll`, with or without `combatant`, says "Combat has not started: the GM starts it
    with `/init roll`." (not to name a combatant, which cannot help)."""
    await h.run("gm", "/encounter start", system=system, name="Ford", **({"map": MAPS[system]} if system in MAPS else {}))
    for add in ADDS.get(system, [dict(name="Grak", side="orcs", sheet="hp=20 ac=12"), dict(name="Snaga", side="orcs", sheet="hp=7 ac=12")]):
        await h.run("gm", "/combatant add", **add)
    before = await export(h)
    for options in ({}, {"combatant": "Grak"}):
        text = refusal(await h.run("gm", "/init next", **options))
        assert "Combat has not started: the GM starts it with `/init roll`." in text and "Name the combatant" not in text
    assert await export(h) == before


@pytest.mark.parametrize("system", SYSTEMS)
async def test_a_typed_next_on_a_turn_with_nothing_done_asks_first(h: Harness, system: str) -> None:
    """Bob's `/init next` before Borin did anything asks Confirm / Cancel (Cancel changes nothing); `confirm:true` ends it at once."""
    await borins_turn(h, system)
    before = await acting(h)
    assert "**Borin** has done nothing yet this turn" in question(await h.run("bob", "/init next"))
    sent = await h.press("bob", "Cancel")
    assert "Nothing was changed" in sent[0].text
    assert await acting(h) == before
    question(await h.run("gm", "/init next", combatant="Borin"))
    sent = await h.run("bob", "/init next", confirm="true")
    assert not sent[0].ephemeral and "Borin" in sent[0].text
    assert await acting(h) == AFTER_BORIN[system]


@pytest.mark.parametrize("system", SYSTEMS)
async def test_a_typed_next_that_would_be_refused_is_refused_before_any_question(h: Harness, system: str) -> None:
    """A `/init next` with dice typed that ending the turn would not use is refused at once, with
    what to do instead, on a turn with nothing done too: no "End the turn?" first, nothing changed."""
    await borins_turn(h, system)
    before = await export(h)
    text = refusal(await h.run("gm", "/init next", combatant="Borin", roll=",".join(["1"] * 40)))
    assert "End the turn?" not in text and "`roll`" in text
    assert await export(h) == before
    question(await h.run("gm", "/init next", combatant="Borin"))


@pytest.mark.parametrize("system", SYSTEMS)
async def test_confirm_ends_the_turn_that_was_asked_about(h: Harness, system: str) -> None:
    """Confirm on the question ends Borin's turn, logged as `/init next`."""
    await borins_turn(h, system)
    question(await h.run("bob", "/init next"))
    sent = await h.press("bob", "Confirm")
    assert any("Borin" in s.text and not s.ephemeral for s in sent)
    assert await acting(h) == AFTER_BORIN[system]
    log = await h.run("gm", "/log", count="1")
    assert "/init next" in log[0].text


@pytest.mark.parametrize("system", SYSTEMS)
async def test_a_confirm_after_the_turn_asked_about_has_passed_changes_nothing(h: Harness, system: str) -> None:
    """docs/commands.md: a typed `/init next` "that would end a turn in which that combatant has done
    nothing yet asks first (the player may own the next combatant too, and the GM may not have seen
    the turn change)", and "A turn's End turn pressed after that turn has passed says "This turn has
    passed" and changes nothing": the GM's question about Borin's turn, confirmed after bob ended
    that turn, ends (or passes) nobody."""
    await borins_turn(h, system)
    question(await h.run("gm", "/init next", combatant="Borin"))
    await h.run("bob", "/init next", confirm="true")
    before = await export(h)
    text = refusal(await h.press("gm", "Confirm"))
    assert "This turn has passed" in text and "nothing was changed" in text
    assert await export(h) == before
    assert await acting(h) == AFTER_BORIN[system]


async def test_a_confirm_after_the_gms_own_next_changes_nothing(h: Harness) -> None:
    """docs/commands.md: "A `/init next` question is about one turn: its Confirm once that turn has
    passed (ended by anyone meanwhile) says "This turn has passed" and changes nothing." The open
    system: the GM's `/init next` asks about Alda's turn; once the GM ends it with `confirm:true`,
    Confirm on the first question ends nothing and Grak's turn goes on."""
    await h.run("gm", "/encounter start", system="open", name="N")
    await h.run("ann", "/combatant add", name="Alda", side="heroes", sheet="hp=18 ac=14 init=+30")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", sheet="hp=20 ac=12 init=+20")
    await h.run("gm", "/combatant add", name="Gob", side="orcs", sheet="hp=7 ac=12")
    await h.run("gm", "/init roll")
    question(await h.run("gm", "/init next"))
    await h.run("gm", "/init next", confirm="true")
    assert await acting(h) == ("Grak",)
    before = await export(h)
    text = refusal(await h.press("gm", "Confirm"))
    assert "This turn has passed (it is Grak's turn now)" in text
    assert await export(h) == before


@pytest.mark.parametrize("system", sorted(BORIN_ACTS))
async def test_a_typed_next_after_an_action_asks_nothing(h: Harness, system: str) -> None:
    """Once Borin has done something, bob's `/init next` ends his turn with no question."""
    await borin_acting(h, system)
    sent = await h.run("bob", "/init next")
    assert not sent[0].ephemeral and "End the turn?" not in sent[0].text
    assert await acting(h) == AFTER_BORIN[system]


@pytest.mark.parametrize("system", SYSTEMS)
async def test_the_deadlines_pass_ends_the_waiting_turn_only(h: Harness, system: str) -> None:
    """Policy `pass`: at the deadline Borin's turn passes (no question is asked) and the next turn is untouched."""
    await borins_turn(h, system, reminder_hours="0", deadline_hours="4", deadline_policy="pass")
    clock: Clock = h.bot.service.clock
    clock.now += 4 * HOUR
    sent = await h.reminders()
    deadline = next(s for s in sent if "Deadline" in s.text)
    assert "Borin" in deadline.text and "End the turn?" not in deadline.text
    assert await acting(h) == AFTER_BORIN[system]


async def test_auto_end_then_next_leaves_the_next_turn_alone(h: Harness) -> None:
    """Knights of Valour: the attack that spends Borin's last action ends his turn by itself without
    suggesting `/init next`; bob's `/init next` after it is refused and Grak's turn goes on."""
    await borins_turn(h, "knights-of-valour")
    await h.run("gm", "/combatant edit", name="Grak", at="C3")
    await h.run("bob", "/move", to="B2")
    sent = await h.run("bob", "/attack", target="Grak", roll="10")
    text = sent[0].text
    assert "ends by itself" in text and "`/init next` ends the turn" not in text
    assert await acting(h) == ("Grak",)
    assert "It is Grak's turn now, not Borin's" in refusal(await h.run("bob", "/init next"))
    assert await acting(h) == ("Grak",)


async def test_init_next_takes_the_round_start_roll_off_dice(h: Harness) -> None:
    """Coup-De-Grace: the `/init next` that ends round 1 takes the tied sides' d6 roll-off with `roll:`, in the order of sides."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    for add in (ADDS["coup-de-grace"][0], ADDS["coup-de-grace"][2]):
        await h.run("gm", "/combatant add", **add)
    await h.run("gm", "/init roll", roll="6,1")
    await h.run("bob", "/init next", confirm="true")
    text = (await h.run("gm", "/init next", confirm="true", roll="2,5"))[0].text
    assert "**dwarves** roll off for the initiative: 🎲 2✍" in text and "**orcs** roll off for the initiative: 🎲 5✍" in text
    assert "**Round 2** begins: orcs have the initiative" in text


async def test_init_next_takes_the_new_rounds_initiative_dice(h: Harness) -> None:
    """War & Combat: the `/init next` that begins round 2 takes each fighter's initiative 3d6 with `roll:`, in joining order."""
    await h.run("gm", "/encounter start", system="war-and-combat", name="Ford", map="12x10 hex")
    await h.run("gm", "/encounter settings", options="hidden=none")  # Grak's initiative read in the reply
    for add in (ADDS["war-and-combat"][0], ADDS["war-and-combat"][2]):
        await h.run("gm", "/combatant add", **add)
    await h.run("gm", "/init roll", roll="4,4,4,4,4,4")
    for _ in range(3):  # Borin's and Grak's movement steps, Grak's adjustment step
        await h.run("gm", "/init next", confirm="true")
    text = "\n".join(s.text for s in await h.run("gm", "/init next", confirm="true", roll="4,4,4,3,3,3"))  # with the GM's own follow-up
    assert "**Round 2** begins" in text
    assert "**Borin** initiative **18** (🎲 4✍, 4✍, 4✍" in text and "**Grak** initiative **14** (🎲 3✍, 3✍, 3✍" in text


async def test_an_end_confirmed_after_its_encounter_ended_ends_nothing(h: Harness) -> None:
    """docs/commands.md: "An `/encounter end` or import question is about the encounter it names: its Confirm once
    that encounter has ended says so and changes nothing": the GM's question about ending Old, confirmed after Old
    was ended and New started, leaves New as it is (it ended New, which nothing undoes)."""
    await h.run("gm", "/encounter start", system="open", name="Old")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", sheet="hp=5")
    await h.run("gm", "/init roll")
    asked = await h.run("gm", "/encounter end")
    assert asked[0].ephemeral and "End **Old**" in asked[0].text, [s.text for s in asked]
    await h.run("gm", "/encounter end", confirm="true")
    await h.run("gm", "/encounter start", system="open", name="New")
    text = refusal(await h.press("gm", "Confirm"))
    assert "That fight has ended" in text and "nothing was changed" in text
    enc = await h.bot.service.encounter(str(channel_id_of("general")))
    assert enc is not None and enc.name == "New"
