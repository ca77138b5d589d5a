"""Permissions read, not guessed: where the bot may not post, it sends nothing Discord would
refuse, and tells a GM once, privately, what to grant."""
from __future__ import annotations

from bot.offline.harness import Clock, Harness, user_id_of
from tests.cogs.fights import GRAK, setup_fight, started_cdg


async def test_no_board_post_where_the_bot_may_not_send_and_the_gm_is_told_once(h: Harness) -> None:
    """Without Send Messages: commands still answer, no channel post is tried (no 403), the GM is told once what to grant."""
    h.deny("general", send_messages=False)
    await setup_fight(h)
    for i in range(5):
        await h.run("gm", "/combatant add", name=f"Snaga {i}", sheet=GRAK, side="orcs", at=f"A{i + 1}")
    await h.run("bob", "/encounter status")
    assert h.recorder.forbidden == []
    assert not [s for s in h.recorder.sent if s.kind.startswith("channel")]
    told = [s for s in h.recorder.sent if "needs a permission" in s.text]
    assert len(told) == 1 and told[0].ephemeral and told[0].to_user == str(user_id_of("gm"))
    assert "**Send Messages**" in told[0].text  # and Embed Links, which Discord takes away with it
    assert all("Not done" not in s.text for s in h.recorder.sent)


async def test_once_granted_the_board_comes_back(h: Harness) -> None:
    """Without Embed Links the GM is told that one; once granted, the next change posts the board."""
    h.deny("general", embed_links=False)
    await setup_fight(h)
    told = [s for s in h.recorder.sent if "needs a permission" in s.text]
    assert len(told) == 1 and "**Embed Links**" in told[0].text
    h.deny("general", embed_links=True)
    await h.run("gm", "/combatant add", name="Snaga", sheet=GRAK, side="orcs", at="A1")
    boards = [s for s in h.recorder.sent if s.kind == "channel"]
    assert len(boards) == 1 and "Snaga" in boards[0].text


async def test_a_refused_background_post_is_not_repeated(tmp_path) -> None:
    """A permission taken away with no interaction since: the channel's own permissions say so, and no reminder is tried."""
    clock = Clock()
    h = await Harness.create(str(tmp_path / "p.db"), clock=clock)
    try:
        await started_cdg(h)
        await h.run("gm", "/encounter settings", reminder_hours="1", options="")
        h.deny("general", view_channel=False)
        for _ in range(3):
            clock.now += 3700
            await h.reminders()
        assert h.recorder.forbidden == []
        assert not [s for s in h.recorder.sent[-3:] if s.kind == "channel"]
    finally:
        await h.close()


async def test_a_commands_board_check_reads_the_permissions_its_interaction_carries(h: Harness) -> None:
    """After a command, what the bot lacks for the board is what Discord sent with it (`app_permissions`), not worked out again."""
    await setup_fight(h)
    h.deny("general", embed_links=False)
    payload = h.payload("gm", "/combatant add", {"name": "Snaga", "sheet": GRAK, "side": "orcs", "at": "A1"})
    h.deny("general", embed_links=True)  # granted again before the reply: the interaction still says it lacked it
    sent = await h.run_payload(payload)
    told = [s for s in sent if "needs a permission" in s.text]
    assert len(told) == 1 and "**Embed Links**" in told[0].text and told[0].ephemeral
