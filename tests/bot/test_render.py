"""Reports to Discord: user references become mentions that ping nobody, except the turn ping."""
from __future__ import annotations

from pathlib import Path

from bot.offline.harness import Harness, user_id_of
from bot.render import discord_text, to_embed
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
