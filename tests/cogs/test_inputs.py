"""Every input goes through the command readers: names and sides without control characters,
lone surrogates or emptiness, server commands refused in direct messages, and one waiting
question per author and command."""
from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.offline.harness import Harness, Sent, buttons_of, channel_id_of
from tests.cogs.fights import GRAK, export, setup_fight


def refusal(sent: list[Sent]) -> str:
    assert len(sent) == 1 and sent[0].ephemeral and "Not done" in sent[0].text, [s.text for s in sent]
    return sent[0].text


@pytest.mark.parametrize("name", ["Gr\x00ak", "Gr\x07ak", "Gr\u0085ak", "Gr\ud800ak", "Grak\x1b[31m"])
async def test_a_name_with_control_characters_or_a_lone_surrogate_is_refused(h: Harness, name: str) -> None:
    """/combatant add refuses a name holding NUL, another control character or half a surrogate pair, and adds nothing."""
    await setup_fight(h)
    assert "control characters" in refusal(await h.run("gm", "/combatant add", name=name, side="orcs", at="E3", sheet=GRAK))
    assert [c["name"] for c in (await export(h))["combatants"]] == ["Borin", "Grak"]


@pytest.mark.parametrize("option", ["side", "name"])
async def test_a_side_or_encounter_name_with_a_nul_is_refused(h: Harness, option: str) -> None:
    """A side (on add) and an encounter's name (on start) go through the same reader: a NUL is refused."""
    if option == "name":
        sent = await h.run("gm", "/encounter start", system="coup-de-grace", name="Bri\x00dge")
    else:
        await setup_fight(h)
        sent = await h.run("gm", "/combatant add", name="Snaga", side="or\x00cs", at="E3", sheet=GRAK)
    assert "control characters" in refusal(sent)


@pytest.mark.parametrize(
    "name",
    ["<@123456789012345678>", "Grak <@!1234>", "<#123>", "<@&55> raid", "at <t:1700000000:R>", "<:orc:987654321>",
     "<a:dance:42>", "</encounter start:123>"],
)
async def test_discord_mention_syntax_in_a_name_is_refused(h: Harness, name: str) -> None:
    """docs/commands.md: names of combatants, sides and encounters "Nor can they hold Discord's mention
    syntax (`<@123>`, `<#123>`, `<@&123>`, `<t:...>`, `<:emoji:123>`): Discord would show a member,
    channel, role, time or emoji instead of the name". Each is refused with what to write, as an
    encounter's, a combatant's and a side's name, and nothing is stored."""
    sent = await h.run("gm", "/encounter start", system="coup-de-grace", name=name, map="8x6")
    text = refusal(sent)
    assert "An encounter's name cannot hold Discord's mention syntax" in text and "write the name in plain words" in text
    await setup_fight(h, "other")
    for option in ("name", "side"):
        given = {"name": "Snaga", "side": "orcs", option: name}
        text = refusal(await h.run("gm", "/combatant add", "other", at="E3", sheet=GRAK, **given))
        what = "A combatant's name" if option == "name" else "A side's name"
        assert f"{what} cannot hold Discord's mention syntax" in text
    assert [c["name"] for c in (await export(h, "other"))["combatants"]] == ["Borin", "Grak"]


async def test_a_name_with_angle_brackets_or_an_at_sign_alone_is_kept(h: Harness) -> None:
    """Only the mention forms are refused: `<Grak>`, `Grak <3` and `@everyone` (which pings nobody) show as typed."""
    await setup_fight(h)
    for name in ("<Grak>", "Grak <3", "@everyone"):
        sent = await h.run("gm", "/combatant add", name=name, side="orcs", sheet=GRAK)
        assert not sent[0].ephemeral, sent[0].text


async def test_a_combatants_or_sides_name_with_a_comma_is_refused(h: Harness) -> None:
    """`/init order set` takes "tied names in order" separated by commas (docs/commands.md): a combatant or a side
    called `x,y` could never be named there, so such a name is refused with what to write, and nothing is stored."""
    await setup_fight(h)
    for option in ("name", "side"):
        given = {"name": "Snaga", "side": "orcs", option: "x,y"}
        text = refusal(await h.run("gm", "/combatant add", at="E3", sheet=GRAK, **given))
        what = "A combatant's name" if option == "name" else "A side's name"
        assert f"{what} cannot hold a comma" in text and "Write it without" in text
    assert [c["name"] for c in (await export(h))["combatants"]] == ["Borin", "Grak"]


async def test_the_refusal_of_an_encounters_name_reads_an_encounter(h: Harness) -> None:
    """The name reader puts "a" or "an" by the noun: "An encounter's name cannot hold the Markdown characters"."""
    text = refusal(await h.run("gm", "/encounter start", system="coup-de-grace", name="**Big**"))
    assert "An encounter's name cannot hold the Markdown characters" in text and "A encounter" not in text


@pytest.mark.parametrize("side", ["   ", ""])
async def test_a_side_given_empty_on_add_is_refused(h: Harness, side: str) -> None:
    """docs/commands.md: "a side is never empty (`side:"   "` is refused)": /combatant add with a blank
    side is refused with what to write and adds nothing (leaving `side` out gives the default side)."""
    await setup_fight(h)
    sent = await h.run("gm", "/combatant add", name="Snaga", side=side, at="E3", sheet=GRAK)
    assert "A side needs a name of 1 to 40 characters" in refusal(sent)
    assert [c["name"] for c in (await export(h))["combatants"]] == ["Borin", "Grak"]
    sent = await h.run("gm", "/combatant add", name="Snaga", at="E3", sheet=GRAK)
    assert not sent[0].ephemeral and "**foes**" in sent[0].text, sent[0].text


@pytest.mark.parametrize("side", ["   ", ""])
async def test_a_side_is_never_empty(h: Harness, side: str) -> None:
    """/combatant edit side:"   " (or an empty side) is refused with what to write, and the side stays."""
    await setup_fight(h)
    sent = await h.run("gm", "/combatant edit", name="Grak", side=side, sheet="hp=2")
    assert "A side needs a name of 1 to 40 characters" in refusal(sent)
    grak = next(c for c in (await export(h))["combatants"] if c["name"] == "Grak")
    assert grak["side"] == "orcs" and grak["hp"] != 2


async def test_guild_only_commands_are_refused_in_direct_messages(h: Harness) -> None:
    """A server command sent from direct messages (as Discord itself never delivers) is refused privately and stores nothing."""
    payload = h.in_direct_messages(h.payload("gm", "/encounter start", {"system": "coup-de-grace", "name": "Alone"}))
    sent = await h.run_payload(payload)
    assert "not in direct messages" in refusal(sent)
    assert await h.store.load_active(payload["channel_id"]) is None
    assert await h.store.count_encounters() == 0


async def test_a_new_question_replaces_the_one_before(h: Harness) -> None:
    """Asking /encounter end again replaces the GM's earlier question: 50 asks keep one question and
    no task each, the old Confirm changes nothing, and the newest ends the fight."""
    await setup_fight(h)
    first = await h.run("gm", "/encounter end")
    old = buttons_of(first[0])[0]["custom_id"]
    tasks = len(asyncio.all_tasks())
    for _ in range(50):
        await h.run("gm", "/encounter end")
    assert len(h.bot.questions) == 1
    await asyncio.sleep(0)  # cancelled tasks finish
    assert len(asyncio.all_tasks()) <= tasks, "each question left a task (its view's timeout) behind"
    assert "asked again" in refusal(await h.press("gm", old))
    assert await h.bot.service.encounter(str(channel_id_of("general"))) is not None
    await setup_fight(h, "other")
    await h.run("gm", "/encounter end", "other")  # another channel's question is its own
    assert len(h.bot.questions) == 2
    sent = await h.press("gm", "Confirm")
    assert "Confirmed" in sent[0].text
    assert await h.bot.service.encounter(str(channel_id_of("general"))) is None


async def test_autocomplete_never_offers_an_empty_choice(h: Harness) -> None:
    """A side stored empty (by an older version) is left out of the side choices: every name offered has 1 to 100 characters."""
    await setup_fight(h)
    with sqlite3.connect(h.store_path) as db:
        db.execute("UPDATE encounters SET state = json_set(state, '$.combatants[1].side', '')")
    h = await h.restart()
    try:
        offered = await h.autocomplete("gm", "/combatant edit", "side", "", name="Grak")
        assert "dwarves" in offered and all(1 <= len(n.strip()) and len(n) <= 100 for n in offered), offered
    finally:
        await h.close()


@pytest.mark.parametrize("option, text", [("sheet", "class=light weapons=axe\x00"), ("sheet", "hp=2\ud800"), ("options", "adv\x07")])
async def test_sheet_and_options_text_with_control_characters_is_refused(h: Harness, option: str, text: str) -> None:
    """Sheet and options text holding NUL, another control character or half a surrogate pair is refused before any rule reads it."""
    await setup_fight(h)
    if option == "sheet":
        sent = await h.run("gm", "/combatant edit", name="Grak", sheet=text)
    else:
        sent = await h.run("gm", "/encounter settings", options=text)
    assert "cannot hold control characters" in refusal(sent)


@pytest.mark.parametrize(("command", "options", "said"), [
    ("/combatant hp", {"combatant": "Grak", "change": "-1001"}, "option change takes a whole number from -1000 to 1000"),
    ("/combatant hp", {"combatant": "Grak", "change": "1001"}, "option change takes a whole number from -1000 to 1000"),
    ("/init set", {"combatant": "Grak", "value": str(2**60)}, "option value takes a whole number from"),
    ("/log", {"count": "0"}, "option count takes a whole number from 1 to 25"),
])
async def test_a_number_out_of_its_options_range_never_reaches_the_bot(h: Harness, command: str, options: dict[str, str],
                                                                       said: str) -> None:
    """An integer option's declared range (`change`: -1000 to 1000) is kept by Discord's client, which never sends a
    value past it: the harness refuses it as well, naming the range, and nothing is sent or stored."""
    from bot.offline.harness import HarnessError
    await setup_fight(h)
    before = await export(h)
    with pytest.raises(HarnessError, match=said):
        await h.run("gm", command, **options)
    assert await export(h) == before


async def test_an_encounter_option_given_twice_is_refused(h: Harness) -> None:
    """docs/commands.md: "A key given twice is refused (give it once)": `/encounter settings
    options:"crit=no fumble=no crit=yes"` is refused as a sheet key given twice is, and changes nothing."""
    await h.run("gm", "/encounter start", system="open", name="Crypt", map="12x10")
    before = await export(h)
    text = refusal(await h.run("gm", "/encounter settings", options="crit=no fumble=no crit=yes"))
    assert "`crit` is given twice in `options`: give it once" in text
    assert await export(h) == before


@pytest.mark.parametrize(("options", "said"), [
    ("crit", "`crit` has no value: write `crit=yes`, `crit=no` or `crit=default` (yes)."),
    ("crit=", "`crit` has no value: write `crit=yes`, `crit=no` or `crit=default` (yes)."),
    ("fumble=no crit", "`crit` has no value: write `crit=yes`, `crit=no` or `crit=default` (yes)."),
    ("crit= no", "`crit` has no value (`no` after a space is a word of its own: write `crit=no`)."),
    ("hidden", "`hidden` has no value: write `hidden=gm`, `hidden=none` or `hidden=default` (gm)."),
    ("diagonals", "`diagonals` has no value: write `diagonals=5`, `diagonals=alternate`, `diagonals=10` or "
                  "`diagonals=default` (5)."),
    ("=no", "`=no` in `options` has no name before `=`: write the option's name, then `=no`."),
])
async def test_an_encounter_option_without_a_value_is_refused(h: Harness, options: str, said: str) -> None:
    """docs/commands.md: `options` (`key=value ...`); "`key=default` puts it back". A bare key (`crit`) or an
    empty value (`crit=`) is refused as a sheet's bare key is, saying the values to write, and changes nothing:
    the option set before stays set (it was put back to its default silently), and no log row is written."""
    await h.run("gm", "/encounter start", system="open", name="Crypt", map="12x10")
    await h.run("gm", "/encounter settings", options="crit=no")
    before, log = await export(h), (await h.run("gm", "/log"))[0].text
    text = refusal(await h.run("gm", "/encounter settings", options=options))
    assert said in text, text
    assert await export(h) == before
    assert (await h.run("gm", "/log"))[0].text == log


async def test_a_long_encounter_name_is_refused_not_cut(h: Harness) -> None:
    """docs/commands.md: "an encounter's at most 100 ...; a longer one is refused, never cut": an
    encounter's name over 100 characters is refused saying the limit and its length, as a combatant's
    name over 40 is, and no encounter starts; 100 fit."""
    text = refusal(await h.run("gm", "/encounter start", system="open", name="a" * 111, map="12x10"))
    assert "An encounter's name is at most 100 characters (this one has 111)" in text
    sent = await h.run("gm", "/encounter status")
    assert sent[0].ephemeral and "a" * 100 not in sent[0].text
    await h.run("gm", "/encounter start", system="open", name="b" * 100, map="12x10")
    assert (await export(h))["name"] == "b" * 100
