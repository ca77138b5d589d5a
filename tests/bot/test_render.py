"""Reports to Discord: user references become mentions that ping nobody, except the turn ping."""
from __future__ import annotations

import re
from pathlib import Path

from bot.limits import problems
from bot.offline.harness import Harness, user_id_of
from bot.render import discord_text, to_embed, to_messages
from rules.report import Report, user_ref
from tests.cogs.fights import setup_fight

ROOT = Path(__file__).resolve().parents[2]


def test_no_service_module_writes_discord_mention_syntax() -> None:
    """No module under bot/service/ contains `<@`: the service writes `user_ref(id)` and bot/render.py renders it."""
    found = [p.name for p in (ROOT / "bot" / "service").glob("*.py") if "<@" in p.read_text(encoding="utf-8")]
    assert found == []


def test_a_user_reference_renders_as_a_discord_mention() -> None:
    """`user_ref("42")` in a line, a field and a title becomes `<@42>` in the embed."""
    report = Report(f"GMs {user_ref('7')}", [f"ask {user_ref('42')} now"], [("Owner", user_ref("9"))], footer=user_ref("1"))
    embed = to_embed(report)
    assert embed.title == "GMs <@7>" and embed.description == "ask <@42> now"
    assert embed.fields[0].value == "<@9>" and embed.footer.text == "<@1>"
    assert discord_text(f"{user_ref('5')}: your turn") == "<@5>: your turn"


async def test_replies_still_name_users_as_mentions_that_ping_nobody(h: Harness) -> None:
    """`/encounter settings` names the GM as `<@id>` with no user allowed to be pinged; the turn ping still pings the owner."""
    await setup_fight(h)
    sent = await h.run("gm", "/encounter settings")
    gm = str(user_id_of("gm"))
    assert f"GMs: <@{gm}>" in sent[0].text and sent[0].pinged_users() == []
    sent = await h.run("gm", "/init roll", roll="6,1")
    pings = [s for s in sent if s.pinged_users()]
    bob = str(user_id_of("bob"))
    assert len(pings) == 1 and pings[0].pinged_users() == [bob] and f"<@{bob}>" in pings[0].text


def test_an_embed_gives_the_dict_of_one_made_by_discord_pys_calls_key_for_key_in_its_order() -> None:
    """`to_embed`'s embed gives what `discord.Embed.to_dict` gives of it, and of an embed of its parts made by `discord.Embed`, `add_field` and `set_footer`, the keys in the same order, with and without fields, footer or colour."""
    import json

    import discord

    reports = [
        Report("⚔️ Bridge · Open", ["Round **2**", "Borin to act"], [("heroes", "**Borin** · D5"), ("orcs", "")], colour=0x3498DB),
        Report("Log", ["one line"], footer="(`/log page:2` shows older)", colour=0),
        Report("", [], [("a", "b")], footer="hint", more="(see /log)", colour=1),
        Report("x", ["y" * 5000], [(f"side {i}", "z" * 300) for i in range(30)]),
    ]
    for report in reports:
        embed = to_embed(report)
        made = discord.Embed(title=embed.title, description=embed.description, colour=report.colour)
        for field in embed.fields:
            made.add_field(name=field.name, value=field.value, inline=False)
        if embed.footer.text:
            made.set_footer(text=embed.footer.text)
        assert json.dumps(embed.to_dict()) == json.dumps(discord.Embed.to_dict(embed)) == json.dumps(made.to_dict())


def test_a_log_row_longer_than_a_message_keeps_whole_parts_and_counts_the_rest() -> None:
    """docs/commands.md: "**Nothing is cut silently.**": a `/log` row over its room keeps its first part and whole
    parts from its end, counting those between; a first part alone too long is cut with "…" and the count."""
    from bot.service.views import ENTRY_MORE, fit_entry
    parts = [f"part {i:03}" for i in range(400)]
    fitted = fit_entry(" · ".join(parts), 1000)
    assert len(fitted) <= 1000 and fitted.startswith("part 000 · ") and fitted.endswith(" · part 399")
    kept = [p for p in parts if re.search(rf"(^|· ){p}( ·|$| …)", fitted)]
    left = re.search(r"… and (\d+) more ", fitted)
    assert left and len(kept) + int(left.group(1)) == 400 and ENTRY_MORE in fitted
    long_first = fit_entry("x" * 2000 + " · tail", 1000)
    assert len(long_first) <= 1000 and long_first.startswith("x" * 100) and long_first.endswith(f"x… and 1 more {ENTRY_MORE}")
    assert fit_entry("y" * 2000, 1000).endswith(f"y… {ENTRY_MORE}")
    assert fit_entry("short · row", 1000) == "short · row"


def test_a_report_that_shows_every_line_goes_on_in_more_embeds_and_messages_within_the_limits() -> None:
    """A `Report.whole` of 300 lines (about 30,000 characters, with fields and a footer) keeps every line whole and in
    order, over embeds and messages Discord takes; the title once, the fields and footer after the last line."""
    lines = [f"line {i} " + "x" * (i % 170) for i in range(300)]
    report = Report(f"All of it {user_ref('7')}", lines, [("Owner", user_ref("9"))], footer="a hint", whole=True)
    messages = to_messages(report)
    assert len(messages) > 4
    for embeds in messages:
        assert problems({"embeds": [e.to_dict() for e in embeds]}) == []
    embeds = [e for m in messages for e in m]
    shown = [line for e in embeds if e.description for line in e.description.split("\n")]
    assert shown == lines
    assert [e.title for e in embeds if e.title] == ["All of it <@7>"] and embeds[0].title
    assert embeds[-1].fields[0].value == "<@9>" and embeds[-1].footer.text == "a hint"
    (cut,), = to_messages(Report("Cut", lines))  # any other report: one embed, the rest counted
    assert (cut.description or "").split("\n")[-1].startswith("… and ")
