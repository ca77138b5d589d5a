"""The harness answers as Discord does: a payload over a documented limit gets HTTP 400 (Invalid Form Body)."""
from __future__ import annotations

import discord
import pytest

from bot.offline.harness import Harness, channel_id_of


async def test_channel_messages_over_a_limit_are_refused_with_400(h: Harness) -> None:
    """A bot-token post or edit over a limit raises discord.HTTPException 400, code 50035, and nothing is recorded."""
    channel = h.bot.get_partial_messageable(channel_id_of("general"))
    ok = await channel.send("fine")
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x" * 2001)
    assert refused.value.status == 400 and refused.value.code == 50035
    with pytest.raises(discord.HTTPException):
        await ok.edit(embed=discord.Embed(title="t", description="x" * 4097))
    assert [s.content for s in h.recorder.sent] == ["fine"]


async def test_interaction_replies_and_autocomplete_over_a_limit_are_refused(h: Harness) -> None:
    """An interaction response, a follow-up and an autocomplete answer past Discord's limits raise 400."""
    payload = h.payload("bob", "/roll", {"dice": "1d6"})
    interaction = discord.Interaction(data=payload, state=h.bot._connection)
    with pytest.raises(discord.HTTPException) as refused:
        await interaction.response.send_message(embeds=[discord.Embed(description="x" * 3000)] * 3)
    assert refused.value.status == 400
    await interaction.response.send_message("ok")
    with pytest.raises(discord.HTTPException):
        await interaction.followup.send("ok", allowed_mentions=discord.AllowedMentions(users=[discord.Object(i) for i in range(1, 102)]))
    typing = discord.Interaction(data=h.payload("bob", "/roll", {"dice": "1d"}, focused="dice"), state=h.bot._connection)
    with pytest.raises(discord.HTTPException):
        await typing.response.autocomplete([discord.app_commands.Choice(name="", value="x")])
    assert [s.content for s in h.recorder.sent] == ["ok"]


async def test_a_route_bucket_answers_429_and_the_request_goes_after_its_retry_after(h: Harness) -> None:
    """With a route bucket of 2 posts per 0.3 s in a channel, the third post is answered 429, waits, and then goes."""
    h.recorder.route_limit = (2, 0.3)
    channel = h.bot.get_partial_messageable(channel_id_of("general"))
    other = h.bot.get_partial_messageable(channel_id_of("other"))
    for text in ("one", "two", "three"):
        await channel.send(text)
    await other.send("elsewhere")  # another channel's bucket is its own
    assert [s.content for s in h.recorder.sent] == ["one", "two", "three", "elsewhere"]
    assert len(h.recorder.rate_limited) == 1 and str(channel_id_of("general")) in h.recorder.rate_limited[0]
