"""Sheets and set-ups shared by the command-path tests (the `h` fixture is in tests/conftest.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.offline.console import parse_line
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


#: the five systems' keys, for tests that check a rule in each
SYSTEMS = ("coup-de-grace", "damage-grid", "knights-of-valour", "tote", "war-and-combat")

#: each system's four combatants: Borin (bob's) and Thrain (tess's) against the GM's Grak and Snaga
ADDS: dict[str, list[dict[str, str]]] = {
    "coup-de-grace": [
        dict(name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet="class=heavy weapons=hammer,shield"),
        dict(name="Thrain", owner="@tess", side="dwarves", at="C4", facing="E", sheet="class=heavy weapons=hammer,shield"),
        dict(name="Grak", side="orcs", at="F3", facing="W", sheet="class=light weapons=axe"),
        dict(name="Snaga", side="orcs", at="F4", facing="W", sheet="class=light weapons=axe"),
    ],
    "damage-grid": [
        dict(name="Borin", owner="@bob", side="crew", at="C3", facing="E", sheet="body=2 weapons=gravity-saber:2:4:3:melee"),
        dict(name="Thrain", owner="@tess", side="crew", at="C5", facing="E", sheet="body=2 weapons=gravity-saber:2:4:3:melee"),
        dict(name="Grak", side="boarders", at="H3", facing="W", sheet="body=2 weapons=claw:1:3:1:melee"),
        dict(name="Snaga", side="boarders", at="H5", facing="W", sheet="body=2 weapons=claw:1:3:1:melee"),
    ],
    "knights-of-valour": [
        dict(name="Borin", owner="@bob", side="dwarves", at="B3", sheet="agi=3 hp=10 weapons=club:1"),
        dict(name="Thrain", owner="@tess", side="dwarves", at="B4", sheet="agi=1 hp=10 weapons=club:1"),
        dict(name="Grak", side="orcs", at="F3", sheet="agi=2 hp=10 weapons=club:1"),
        dict(name="Snaga", side="orcs", at="F4", sheet="agi=0 hp=10 weapons=club:1"),
    ],
    "tote": [
        dict(name="Borin", owner="@bob", side="heroes", sheet="hawk=2 plan=2 strike=3 weapon=axe:2:slash"),
        dict(name="Thrain", owner="@tess", side="heroes", sheet="hawk=1 plan=2 strike=2 weapon=axe:2:slash"),
        dict(name="Grak", side="foes", sheet="rating=2 tohit=3 weapon=club:2:bash"),
        dict(name="Snaga", side="foes", sheet="rating=1 tohit=3 weapon=club:2:bash"),
    ],
    "war-and-combat": [
        dict(name="Borin", owner="@bob", side="dwarves", at="C4", facing="SE", sheet="fighter=6 skills=axe:2 weapons=axe"),
        dict(name="Thrain", owner="@tess", side="dwarves", at="C6", facing="SE", sheet="fighter=4 skills=axe:2 weapons=axe"),
        dict(name="Grak", side="orcs", at="H4", facing="NW", sheet="fighter=5 skills=axe:2 weapons=axe"),
        dict(name="Snaga", side="orcs", at="H6", facing="NW", sheet="fighter=3 skills=axe:2 weapons=axe"),
    ],
}
MAPS = {"coup-de-grace": "8x6", "damage-grid": "10x8", "knights-of-valour": "8x6", "war-and-combat": "12x10 hex"}


async def borins_turn(h: Harness, system: str, **settings: str) -> None:
    """A started fight of ``system`` whose first turn is Borin's (in Coup-De-Grace and the damage-grid
    game, his side's: Borin or Thrain may activate), with ``settings``."""
    await h.run("gm", "/encounter start", system=system, name="Ford", **({"map": MAPS[system]} if system in MAPS else {}))
    for add in ADDS[system]:
        await h.run("gm", "/combatant add", **add)
    if settings:
        await h.run("gm", "/encounter settings", **settings)
    if system == "coup-de-grace":
        await h.run("gm", "/init roll", roll="6,1")
    elif system == "war-and-combat":  # 3d6 of 12 each: Borin 18, Grak 17, Thrain 16, Snaga 15
        await h.run("gm", "/init roll", roll=",".join(["4"] * 12))
    elif system == "tote":
        await h.run("gm", "/init roll")
        for name, value in (("Borin", 9), ("Grak", 8), ("Thrain", 7), ("Snaga", 6)):
            await h.run("gm", "/init set", combatant=name, value=str(value))
    else:
        await h.run("gm", "/init roll")


#: the example fights (bot/examples), each played by the tests through the real command path
EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "bot" / "examples").glob("*.txt"))


def commands(path: Path) -> list[tuple[str, str, str, dict[str, str]]]:
    """An example's commands: (user, channel, command, options) per line that is not a comment."""
    return [parse_line(ln) for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
