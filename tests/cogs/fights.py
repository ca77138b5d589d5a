"""Sheets and set-ups shared by the command-path tests (the `h` fixture is in tests/conftest.py)."""
from __future__ import annotations

import json
from typing import Any

from bot.offline.harness import Harness

BORIN = "class=heavy weapons=hammer,shield"
GRAK = "class=light weapons=axe"


async def setup_fight(h: Harness, channel: str = "general") -> None:
    """A Coup-De-Grace encounter with Borin (bob's) next to Grak (the GM's), not yet started."""
    await h.run("gm", "/encounter start", channel, system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", channel, name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=BORIN)
    await h.run("gm", "/combatant add", channel, name="Grak", side="orcs", at="D3", facing="W", sheet=GRAK)


async def started_cdg(h: Harness) -> None:
    """A started Coup-De-Grace fight: Borin (bob's) at C3, Grak (the GM's) at F3."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=BORIN)
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet=GRAK)
    await h.run("gm", "/init roll", roll="6,1")


async def export(h: Harness, channel: str = "general", who: str = "gm") -> dict[str, Any]:
    """The channel's encounter as `/encounter export` gives it to ``who``."""
    sent = await h.run(who, "/encounter export", channel)
    files = [f for s in sent for f in s.files]
    assert files and files[0][0] == "encounter.json", [s.text for s in sent]
    return json.loads(files[0][1])


def borin(data: dict[str, Any]) -> dict[str, Any]:
    """Borin's entry in an export."""
    return next(c for c in data["combatants"] if c["name"] == "Borin")
