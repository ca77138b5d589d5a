"""The board's life: edited in place for its first hour; when Discord refuses edits of the old
message (30046), it is posted anew and the old one deleted, so no change is left off the board."""
from __future__ import annotations

import discord
import pytest

from bot.offline.harness import Clock, Harness, channel_id_of
from tests.cogs.fights import GRAK, setup_fight


def board_calls(h: Harness) -> list[str]:
    cid = str(channel_id_of("general"))
    return [c.kind for c in h.recorder.calls if c.channel == cid and c.kind.startswith("channel")]


async def test_the_harness_refuses_edits_of_messages_over_an_hour_old(tmp_path) -> None:
    """Past an hour (the tests' clock), a fourth edit within 20 s gets 400 with code 30046; a younger message takes them all."""
    clock = Clock()
    h = await Harness.create(str(tmp_path / "b.db"), clock=clock)
    try:
        channel = h.bot.get_partial_messageable(channel_id_of("general"))
        message = await channel.send("board")
        for _ in range(5):
            await message.edit(content="young")
        clock.now += 3601
        for _ in range(3):
            await message.edit(content="old")
        with pytest.raises(discord.HTTPException) as refused:
            await message.edit(content="too many")
        assert refused.value.code == 30046
        clock.now += 21
        await message.edit(content="later")
    finally:
        await h.close()


async def test_an_old_board_refused_is_posted_anew_with_every_change(tmp_path) -> None:
    """Hours into a fight, changes come fast: the refused edit becomes a new board (the old one deleted) that has the last change."""
    clock = Clock()
    h = await Harness.create(str(tmp_path / "b.db"), clock=clock)
    try:
        await setup_fight(h)
        first_board = next(s for s in h.recorder.sent if s.kind == "channel")
        clock.now += 2 * 3600
        h.recorder.clear()
        for i in range(6):
            await h.run("gm", "/combatant add", name=f"Snaga {i}", sheet=GRAK, side="orcs", at=f"A{i + 1}")
        calls = board_calls(h)
        assert calls[:3] == ["channel_edit"] * 3 and "channel" in calls and "channel_delete" in calls
        deleted = next(c for c in h.recorder.calls if c.kind == "channel_delete")
        assert deleted.message_id == first_board.message_id
        boards = [s for s in h.recorder.sent if s.kind.startswith("channel")]
        assert "Snaga 5" in boards[-1].text and boards[-1].message_id != first_board.message_id
        assert str(boards[-1].message_id) == await h.bot.service.board_message(str(channel_id_of("general")))
    finally:
        await h.close()
