"""Each system's example script, through the real command path: every command accepted,
every one undone exactly, export and import round trip, and the no-map system has no map."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.offline.harness import Harness
from tests.cogs.fights import EXAMPLES, commands

READ_ONLY = {"/log", "/map", "/encounter status", "/encounter export", "/help", "/roll", "/combatant show"}


def changes_state(command: str, options: dict[str, str]) -> bool:
    if command == "/init order":
        return "set" in options
    return command not in READ_ONLY


async def state(h: Harness, channel: str = "general") -> dict:
    sent = await h.run("gm", "/encounter export", channel)
    return json.loads(sent[0].files[0][1])


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
async def test_example_runs_and_undoes_exactly(path: Path, tmp_path: Path) -> None:
    """Every command of the example is accepted; then /undo walks back through every state exactly."""
    h = await Harness.create(str(tmp_path / "x.db"), seed=3)
    try:
        history = []
        for user, channel, command, options in commands(path):
            before = await state(h) if command != "/encounter start" else None
            sent = await h.run(user, command, channel, **options)
            refused = [s.text for s in sent if s.ephemeral and "Not done" in s.text]
            assert refused == [], f"{command} {options}: {refused}"
            assert not any("Something went wrong" in s.text for s in sent)
            if before is not None and changes_state(command, options):
                history.append(before)
        final = await state(h)
        assert final["system"] == path.stem
        for before in reversed(history):
            sent = await h.run("gm", "/undo")
            assert not sent[0].ephemeral, sent[0].text
            assert await state(h) == before
        sent = await h.run("gm", "/undo")
        assert "Nothing left to undo" in sent[0].text
    finally:
        await h.close()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
async def test_example_export_imports_back(path: Path, tmp_path: Path) -> None:
    """The state at the end of each example exports and imports into another channel unchanged."""
    h = await Harness.create(seed=3)
    try:
        for user, channel, command, options in commands(path):
            await h.run(user, command, channel, **options)
        data = await state(h)
        f = tmp_path / "encounter.json"
        f.write_text(json.dumps(data))
        sent = await h.run("gm", "/encounter import", "copy", file=str(f))
        assert not sent[0].ephemeral, sent[0].text
        assert await state(h, "copy") == data
    finally:
        await h.close()


async def test_no_map_system_says_so_and_moves_by_band() -> None:
    """TOTE: /map says there is no map; /move changes the band; the board shows bands."""
    h = await Harness.create(seed=1)
    try:
        await h.run("gm", "/encounter start", system="tote", name="Ford")
        sent = await h.run("gm", "/encounter start", "other", system="tote", map="12x10")
        assert sent[0].ephemeral and "leave `map` out" in sent[0].text
        await h.run("gm", "/encounter settings", options="distance=far")
        await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="heroes", sheet="hawk=2")
        await h.run("gm", "/combatant add", name="Grak", side="foes", sheet="rating=1")
        sent = await h.run("gm", "/combatant add", name="Snaga", side="foes", at="C4", sheet="rating=1")
        assert sent[0].ephemeral
        sent = await h.run("bob", "/map")
        assert sent[0].ephemeral and "no map" in sent[0].text
        sent = await h.run("gm", "/init roll", roll="6,6,1,1")
        assert not sent[0].ephemeral, sent[0].text
        sent = await h.run("bob", "/move", to="close")
        assert not sent[0].ephemeral, sent[0].text
        data = await state(h)
        borin = next(c for c in data["combatants"] if c["name"] == "Borin")
        assert borin["state"]["band"] == "close" and borin["position"] is None
        board = [s for s in h.recorder.sent if s.kind.startswith("channel")][-1]
        assert "close" in board.text
    finally:
        await h.close()
