"""The entry point: token errors are one clear line, and SIGTERM shuts the bot down cleanly."""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot import __main__ as entry
from bot.app import Skirmish
from bot.settings import Settings, TokenError, check_token

ROOT = Path(__file__).resolve().parents[2]
GOOD = "MTA" + "x" * 21 + ".GhIjKl." + "y" * 30


def run_bot(tmp_path: Path, token: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
    env["DISCORD_TOKEN"] = token
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("token, words", [("", "DISCORD_TOKEN is not set"), ("not-a-token", "does not look like a bot token")])
def test_bad_token_is_one_clear_line(tmp_path: Path, token: str, words: str) -> None:
    """A missing or malformed token exits 2 with one line that says how to fix it, no traceback."""
    result = run_bot(tmp_path, token)
    assert result.returncode == 2
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and words in lines[0]
    assert "Traceback" not in result.stderr


def test_check_token_accepts_a_well_formed_token_and_strips_bot_prefix() -> None:
    """A token of three dot-separated parts passes; a leading 'Bot ' is dropped."""
    assert check_token(Settings(discord_token=GOOD)) == GOOD
    assert check_token(Settings(discord_token="Bot " + GOOD)) == GOOD
    with pytest.raises(TokenError):
        check_token(Settings(discord_token="abc.def"))


def test_blank_dev_guild_is_none() -> None:
    """An empty DEV_GUILD_ID in .env means global sync."""
    assert Settings(dev_guild_id="").dev_guild_id is None
    assert Settings(dev_guild_id="123").dev_guild_id == 123


def test_sigterm_shuts_down_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM while connected closes the bot and the store and returns 0."""
    started = asyncio.Event()

    async def fake_start(self: Skirmish, token: str, *, reconnect: bool = True) -> None:
        started.set()
        while not self.is_closed():
            await asyncio.sleep(0.01)

    monkeypatch.setattr(Skirmish, "start", fake_start)

    async def scenario() -> int:
        settings = Settings(discord_token=GOOD, database_url=str(tmp_path / "s.db"))
        task = asyncio.create_task(entry.run_bot(settings, GOOD))
        await asyncio.wait_for(started.wait(), 10)
        os.kill(os.getpid(), signal.SIGTERM)
        return await asyncio.wait_for(task, 10)

    assert asyncio.run(scenario()) == 0
    assert (tmp_path / "s.db").exists()
