"""TOTE set-up through the real command path: a start distance that would drop places given with `at:`."""
from __future__ import annotations

from bot.offline.harness import Harness


async def test_a_melee_start_that_would_drop_a_placed_band_is_refused(h: Harness) -> None:
    """"The GM will determine the Distance (Far or Close)": `distance=melee` after `at:close` is refused, and the fight starts at Dan's Close."""
    await h.run("gm", "/encounter start", system="tote", name="Ford")
    await h.run("gm", "/encounter settings", options="distance=far")
    await h.run("gm", "/combatant add", name="Ann", owner="@ann", side="heroes", sheet="strike=2 hawk=2")
    await h.run("gm", "/combatant add", name="Dan", side="foes", at="close", sheet="rating=1")
    sent = await h.run("gm", "/encounter settings", options="distance=melee")
    assert sent[0].ephemeral and "Dan (close)" in sent[0].text and "at:melee" in sent[0].text, sent[0].text
    shown = (await h.run("gm", "/encounter settings"))[0].text
    assert "`distance` = **far**" in shown, shown
    sent = await h.run("gm", "/init roll", roll="6 6 6 6")
    text = " ".join(s.text for s in sent)
    board = (await h.run("ann", "/encounter status"))[0].text
    assert "melee rounds begin" not in text and "distance: close" in board and "**Ann** · close" in board, text + board
