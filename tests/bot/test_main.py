"""The entry point: every start-up problem is one clear line and exit code 2, and SIGTERM shuts
the bot down cleanly."""
from __future__ import annotations

import asyncio
import ctypes
import os
import signal
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot import __main__ as entry
from bot.app import Skirmish
from bot.settings import Settings, SettingsError, TokenError, check_token, load_settings
from data.sqlite import migrations
from data.store import open_store

ROOT = Path(__file__).resolve().parents[2]
GOOD = "MTA" + "x" * 21 + ".GhIjKl." + "y" * 30
_SETTINGS = ("DISCORD_", "DEV_GUILD", "DATABASE_URL", "LOG_LEVEL", "REMINDER_", "DEFAULT_REMINDER", "BOARD_", "SHARD_")


def _without_file_override() -> None:
    """In the child: drop the capabilities that let root write read-only files (a no-op for
    other users, for whom the file modes apply anyway)."""
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        prctl(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP: exec then leaves them out of the new process


def run_bot(
    tmp_path: Path, token: str = GOOD, preexec: Callable[[], None] | None = None, **env_vars: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_SETTINGS)}
    env["DISCORD_TOKEN"] = token
    env["PYTHONPATH"] = str(ROOT)
    env.update(env_vars)
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=60, preexec_fn=preexec,
    )


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    """The exit code is 2 and stderr is exactly one line without a traceback: that line."""
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize(
    "token, words",
    [
        ("", "DISCORD_TOKEN is not set"),
        ("not-a-token", "has 1 part separated by dots; a bot token has 3"),
        ("abc.def", "has 2 parts separated by dots; a bot token has 3"),
        (GOOD + ".extra", "has 4 parts separated by dots; a bot token has 3"),
        (f'"{GOOD}"', "is wrapped in quotes"),
        (f"'{GOOD}'", "is wrapped in quotes"),
        (GOOD[:30] + " " + GOOD[30:], "has spaces in it"),
        ("A" * 32, "the client secret"),
        ("1234567890123456789", "the application id"),
        ("MTA.Gh.yy", "too short"),
        (GOOD.replace("x", "!", 1), "characters a bot token never has"),
    ],
)
def test_bad_token_says_what_is_wrong(token: str, words: str) -> None:
    """A missing or malformed token is refused with a message naming the actual problem."""
    with pytest.raises(TokenError, match=words) as caught:
        check_token(Settings(discord_token=token))
    text = str(caught.value)
    assert "\n" not in text
    assert not token or token.strip("'\"") not in text  # the message never repeats the token


@pytest.mark.parametrize("token, words", [("", "DISCORD_TOKEN is not set"), ("not-a-token", "has 1 part")])
def test_bad_token_is_one_clear_line(tmp_path: Path, token: str, words: str) -> None:
    """A missing or malformed token exits 2 with one line that says how to fix it, no traceback."""
    assert words in one_line(run_bot(tmp_path, token))


def _corrupt(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "bot.db").write_bytes(b"SQLite format 2, or rather not at all\n" * 100)
    return {"DATABASE_URL": "bot.db"}


def _newer(tmp_path: Path) -> dict[str, str]:
    con = sqlite3.connect(tmp_path / "bot.db")
    con.execute(f"PRAGMA user_version = {len(migrations()) + 1}")
    con.close()
    return {"DATABASE_URL": "bot.db"}


def _read_only_file(tmp_path: Path) -> dict[str, str]:
    asyncio.run(_fresh(tmp_path / "bot.db"))
    (tmp_path / "bot.db").chmod(0o444)
    return {"DATABASE_URL": str(tmp_path / "bot.db")}


def _read_only_folder(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro").chmod(0o555)
    return {"DATABASE_URL": str(tmp_path / "ro" / "bot.db")}


def _folder_under_a_file(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "afile").write_text("not a folder")
    return {"DATABASE_URL": "afile/sub/bot.db"}


async def _fresh(path: Path) -> None:
    await (await open_store(str(path))).close()


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: {"DEV_GUILD_ID": "my-server"}, "DEV_GUILD_ID must be your server's id"),
        (lambda p: {"DEV_GUILD_ID": "12.5"}, "DEV_GUILD_ID must be your server's id"),
        (lambda p: {"LOG_LEVEL": "LOUD"}, "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR"),
        (lambda p: {"DATABASE_URL": "mysql://db/skirmish"}, "Unsupported DATABASE_URL scheme 'mysql'"),
        (lambda p: {"REMINDER_CHECK_SECONDS": "0"}, "REMINDER_CHECK_SECONDS"),
        (lambda p: {"SHARD_COUNT": "2", "SHARD_IDS": "5"}, "SHARD_IDS must be shard numbers from 0 to 1 (SHARD_COUNT is 2)"),
        (lambda p: {"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        (_corrupt, "bot.db is not a SQLite database"),
        (_newer, "newer than this code"),
        (_read_only_file, "Cannot write to"),
        (_read_only_folder, "Cannot write to"),
        (_folder_under_a_file, "Cannot create the folder afile/sub"),
    ],
)
def test_start_up_problems_are_one_line(tmp_path: Path, make, words: str) -> None:
    """Bad settings and unusable databases exit 2 with one line on stderr, before any login."""
    env = make(tmp_path)
    line = one_line(run_bot(tmp_path, preexec=_without_file_override, **env))
    assert words in line and line.startswith("skirmish: ")


async def test_second_bot_on_the_file_is_refused(tmp_path: Path) -> None:
    """A bot started on a file another process holds exits 2 with one line."""
    async with await open_store(str(tmp_path / "bot.db")) as held:
        await held.count_encounters()
        result = await asyncio.to_thread(run_bot, tmp_path, DATABASE_URL="bot.db")
    assert f"Another Skirmish process is using bot.db (process {os.getpid()})" in one_line(result)


def test_load_settings_joins_every_problem_into_one_line() -> None:
    """Several bad settings are one SettingsError line naming each."""
    with pytest.raises(SettingsError) as caught:
        load_settings(dev_guild_id="x", log_level="chatty", _env_file=None)
    text = str(caught.value)
    assert "DEV_GUILD_ID" in text and "LOG_LEVEL" in text and "\n" not in text
    assert load_settings(log_level="debug", dev_guild_id=" 42 ", _env_file=None).log_level == "DEBUG"
    with pytest.raises(SettingsError, match="^Unsupported DATABASE_URL scheme 'mysql'"):  # named once
        load_settings(database_url="mysql://db/x", _env_file=None)


@pytest.mark.parametrize(
    "error",
    [
        aiohttp.ClientConnectionError("Cannot connect to host gateway.discord.gg:443"),
        OSError(101, "Network is unreachable"),
        asyncio.TimeoutError(),
        discord.GatewayNotFound(),
    ],
)
def test_unreachable_gateway_after_login_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], error: Exception
) -> None:
    """Login works but the gateway cannot be reached: 'Cannot reach Discord', exit 2, store closed."""

    async def login(self: Skirmish, token: str) -> None:
        """Login succeeds (no network)."""

    async def ws_connect(self: discord.http.HTTPClient, url: str, *, compress: int = 0) -> None:
        raise error

    monkeypatch.setattr(Skirmish, "login", login)
    monkeypatch.setattr(discord.http.HTTPClient, "ws_connect", ws_connect)
    settings = Settings(discord_token=GOOD, database_url=str(tmp_path / "s.db"))
    assert asyncio.run(asyncio.wait_for(entry.run_bot(settings, GOOD), 30)) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("skirmish: Cannot reach Discord ("), lines
    asyncio.run(_fresh(tmp_path / "s.db"))  # the store was closed: the file opens again


def test_no_route_to_discord_is_the_one_line_the_readme_promises(tmp_path: Path) -> None:
    """`python -m bot` with a well-formed token and Discord out of reach: one `skirmish:` line, exit 2."""
    with socket.socket() as closed:  # bound, never listening: connecting to it is refused at once
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        start = (
            "import sys, discord.http\n"
            f"discord.http.Route.BASE = 'http://127.0.0.1:{port}/api/v10'  # Discord, unreachable\n"
            "from bot.__main__ import main\n"
            "sys.exit(main())\n"
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith(_SETTINGS)}
        env.update(DISCORD_TOKEN=GOOD, PYTHONPATH=str(ROOT), LOG_LEVEL="WARNING")
        result = subprocess.run(
            [sys.executable, "-c", start], cwd=tmp_path, env=env, capture_output=True, text=True,
            timeout=60,
        )
    line = one_line(result)
    assert line.startswith(f"skirmish: Cannot reach Discord (Cannot connect to host 127.0.0.1:{port}"), line
    assert line.endswith("check the network, firewall or proxy, and try again.")


@pytest.mark.parametrize(
    "status, dev_guild, words",
    [
        (403, 1234, "Discord refused the bot access to server 1234 (DEV_GUILD_ID)"),
        (503, None, "Discord answered 503 (upstream overloaded) while the bot started"),
    ],
)
def test_refused_command_sync_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    status: int, dev_guild: int | None, words: str,
) -> None:
    """A sync Discord refuses at start-up (bot not in DEV_GUILD_ID's server, an outage) is one error, exit 2."""
    message = {"code": 50001, "message": "Missing Access"} if status == 403 else "upstream overloaded"
    error_type = discord.Forbidden if status == 403 else discord.DiscordServerError

    async def login(self: Skirmish, token: str) -> None:
        """Login reaches the set-up hook, which syncs the commands."""
        await self.setup_hook()

    async def sync(self: discord.app_commands.CommandTree, *, guild: object = None) -> list[object]:
        raise error_type(SimpleNamespace(status=status, reason="refused"), message)

    monkeypatch.setattr(Skirmish, "login", login)
    monkeypatch.setattr(discord.app_commands.CommandTree, "sync", sync)
    settings = Settings(discord_token=GOOD, database_url=str(tmp_path / "s.db"), dev_guild_id=dev_guild)
    assert asyncio.run(asyncio.wait_for(entry.run_bot(settings, GOOD), 30)) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"skirmish: {words}"), lines


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

    async def fake_login(self: Skirmish, token: str) -> None:
        """Login succeeds (no network)."""

    async def fake_reach(bot: Skirmish) -> None:
        """The gateway answers."""

    async def fake_connect(self: Skirmish, *, reconnect: bool = True) -> None:
        started.set()
        while not self.is_closed():
            await asyncio.sleep(0.01)

    monkeypatch.setattr(Skirmish, "login", fake_login)
    monkeypatch.setattr(entry, "reach_gateway", fake_reach)
    monkeypatch.setattr(Skirmish, "connect", fake_connect)

    async def scenario() -> int:
        settings = Settings(discord_token=GOOD, database_url=str(tmp_path / "s.db"))
        task = asyncio.create_task(entry.run_bot(settings, GOOD))
        await asyncio.wait_for(started.wait(), 10)
        os.kill(os.getpid(), signal.SIGTERM)
        return await asyncio.wait_for(task, 10)

    assert asyncio.run(scenario()) == 0
    assert (tmp_path / "s.db").exists()


@pytest.mark.parametrize("module_args", [["bot", "benchmark"], ["bot.offline.benchmark"]])
def test_benchmark_runs_from_the_entry_point_and_its_module(tmp_path: Path, module_args: list[str]) -> None:
    """`python -m bot benchmark` and `python -m bot.offline.benchmark` both reach the benchmark's options."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", *module_args, "--help"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "usage: python -m bot benchmark" in result.stdout and "--quick" in result.stdout
