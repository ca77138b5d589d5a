"""Typed numbers through the real command path: a refusal changes nothing and bricks nothing."""
from __future__ import annotations

from pathlib import Path

import pytest

from bot.offline.harness import Clock, Harness, HarnessError
from tests.backends import on_each_backend  # noqa: F401 (the h harness on SQLite and PostgreSQL)


async def test_kov_delay_to_a_huge_negative_is_refused_and_the_channel_survives(tmp_path: Path) -> None:
    """`/act action:delay options:"to=-999999"` is refused with the range; state is unchanged, also after a restart."""
    h = await Harness.create(str(tmp_path / "bot.db"), seed=3, clock=Clock())
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Bridge", map="12x10")
    await h.run("bob", "/combatant add", name="Borin", side="dwarves", at="C4", sheet="agi=1 hp=14 weapons=warhammer:2")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="H4", sheet="agi=3 hp=12 weapons=club:1")
    await h.run("gm", "/init roll")
    before = (await h.run("gm", "/encounter export"))[0].files[0][1]
    sent = await h.run("bob", "/act", action="delay", options="to=-999999")
    assert sent[0].ephemeral and "`to` must be a whole number from -99 to 999" in sent[0].text
    assert (await h.run("gm", "/encounter export"))[0].files[0][1] == before
    h2 = await h.restart()
    try:
        sent = await h2.run("bob", "/act", action="delay", options="to=-5")
        assert not sent[0].ephemeral and "from 1 to -5" in sent[0].text
        assert not (await h2.run("gm", "/encounter status", public="true"))[0].ephemeral
    finally:
        await h2.close()


async def test_terrain_height_is_bounded_and_a_refusal_changes_nothing(tmp_path: Path) -> None:
    """`/encounter terrain height:` below or above -1000..1000 ft is refused with the range (by Discord's client, and by the bot if a client sends it all the same); nothing is marked."""
    h = await Harness.create(str(tmp_path / "bot.db"), seed=3, clock=Clock())
    try:
        await h.run("gm", "/encounter start", system="knights-of-valour", name="Bridge", map="12x10")
        before = (await h.run("gm", "/encounter export"))[0].files[0][1]
        for height in (-1001, 1001, 99999999999):
            with pytest.raises(HarnessError, match="option height takes a whole number from -1000 to 1000"):
                await h.run("gm", "/encounter terrain", cells="D4", kind="obstacle", height=str(height))
            # a client that sent it all the same is refused by the bot too
            payload = h.payload("gm", "/encounter terrain", {"cells": "D4", "kind": "obstacle", "height": "0"})
            sent = await h.run_payload(h.forged(payload, "height", height))
            assert sent[0].ephemeral and "`height` must be a whole number from -1000 to 1000" in sent[0].text
        assert (await h.run("gm", "/encounter export"))[0].files[0][1] == before
        sent = await h.run("gm", "/encounter terrain", cells="D4", kind="obstacle", height="1000")
        assert not sent[0].ephemeral and "height 1000 ft" in sent[0].text
    finally:
        await h.close()
