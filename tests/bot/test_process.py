"""The real ``python -m bot`` process against a stand-in for Discord on 127.0.0.1 (tests/bot/standin.py)."""
from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from bot.offline.harness import APP_ID, Harness, channel_id_of
from bot.settings import Settings
from tests.bot.standin import StandIn

ROOT = Path(__file__).resolve().parents[2]
#: a well-formed bot token (the stand-in takes any)
TOKEN = "MTA" + "x" * 21 + ".GhIjKl." + "y" * 30

SHEET = "class=heavy weapons=hammer,shield"


@dataclass
class Running:
    """The bot process, the stand-in it talks to, and a way to send it commands."""

    proc: asyncio.subprocess.Process
    standin: StandIn
    command: Callable[..., Awaitable[None]]
    log: Path

    def callbacks(self) -> int:
        return len(self.standin.posts("/interactions/"))

    async def stop(self) -> None:
        """SIGTERM: the process ends cleanly with code 0."""
        self.proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(self.proc.wait(), 30) == 0
        assert "stopped cleanly" in self.log.read_text()


@contextlib.asynccontextmanager
async def running_bot(tmp_path: Path) -> AsyncIterator[Running]:
    """``python -m bot`` started against a fresh stand-in, logged in with its commands synced."""
    builder = await Harness.create()  # builds the interactions' payloads from the same command tree
    standin = StandIn(channel_id_of("general"))
    root = await standin.start()
    env = {k: v for k, v in os.environ.items() if k.lower() not in Settings.model_fields}
    env.update(DISCORD_TOKEN=TOKEN, DISCORD_API_BASE=root, DATABASE_URL=str(tmp_path / "bot.db"), MAP_WORKERS="0",
               PYTHONPATH=str(ROOT), BOARD_DELAY_SECONDS="0.1")
    log_path = tmp_path / "bot.log"
    log = open(log_path, "w")
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdout=log, stderr=log)

    async def command(who: str, command: str, /, **options: str) -> None:
        await standin.dispatch("INTERACTION_CREATE", builder.payload(who, command, options))

    try:
        await standin.wait_for(lambda: standin.identified == 1 and standin.posts(f"/applications/{APP_ID}/commands", "PUT"))
        yield Running(proc, standin, command, log_path)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        log.close()
        await standin.stop()
        await builder.close()
        print(log_path.read_text()[-3000:], [(c.method, c.path) for c in standin.calls])


async def test_the_bot_process_logs_in_answers_resumes_and_stops_cleanly(tmp_path: Path) -> None:
    """Login, command sync, replies through the callback route, the board and a turn ping; a dropped
    gateway is resumed with nothing lost; a 429 is waited out and a 500 sent again; SIGTERM ends it with code 0."""
    async with running_bot(tmp_path) as bot:
        standin, command, callbacks = bot.standin, bot.command, bot.callbacks
        cid = standin.channel_id
        synced = standin.posts(f"/applications/{APP_ID}/commands", "PUT")[0].body
        assert "encounter" in {c["name"] for c in synced}
        await command("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
        await standin.wait_for(lambda: callbacks() == 1 and standin.posts(f"/channels/{cid}/messages"))
        assert "Bridge" in str(standin.posts("/interactions/")[0].body)

        await standin.drop()  # Discord restarts a gateway node: the bot resumes its session
        await standin.wait_for(lambda: standin.resumed == 1)
        standin.faults[("POST", "/interactions/")] = [429]  # the first reply is answered 429: waited out
        await command("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=SHEET)
        await command("gm", "/combatant add", name="Grak", side="orcs", at="D3", facing="W", sheet="class=light weapons=axe")
        await command("gm", "/init roll", roll="6,1")
        # four commands answered, the one refused with 429 sent again after its retry_after
        await standin.wait_for(lambda: callbacks() == 5 and standin.posts(f"/webhooks/{APP_ID}/"))
        answered = [c.path for c in standin.posts("/interactions/")]
        assert len(set(answered)) == 4 and answered.count(answered[1]) == 2
        await standin.wait_for(lambda: standin.posts(f"/channels/{cid}/messages/", "PATCH"))  # the board, edited
        standin.faults[("POST", "/interactions/")] = [500]  # a bad moment at Discord: the bot sends it again
        await command("bob", "/encounter status")
        await standin.wait_for(lambda: callbacks() == 7)
        assert standin.posts("/interactions/")[-1].path == standin.posts("/interactions/")[-2].path
        ping = standin.posts(f"/webhooks/{APP_ID}/")[-1].body
        assert "<@" in ping["content"] and ping["allowed_mentions"]["users"]
        assert standin.identified == 1  # resumed, never identified again
        await bot.stop()


def _private_text(body: dict) -> tuple[str, bool]:
    """A reply's (or follow-up's) text and whether it is private, from its request body."""
    data = body.get("data", body)
    return str(data.get("content") or "") + str(data.get("embeds") or ""), bool((data.get("flags") or 0) & 64)


async def test_repeated_server_errors_are_sent_once_more_then_told_to_the_user(tmp_path: Path) -> None:
    """A reply, a follow-up and a board edit each answered 500 twice: each is sent once more, no
    more; the user is told privately that the change is saved and Discord did not show it, the log
    says so without the interaction's token, and the saved change reaches the board."""
    async with running_bot(tmp_path) as bot:
        standin, command, callbacks = bot.standin, bot.command, bot.callbacks
        cid = standin.channel_id
        await command("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
        await standin.wait_for(lambda: callbacks() == 1 and standin.posts(f"/channels/{cid}/messages"))

        # the reply itself: refused twice, then the interaction answered with what happened
        standin.faults[("POST", "/interactions/")] = [500, 500]
        await command("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=SHEET)
        await standin.wait_for(lambda: callbacks() == 4)
        tries = standin.posts("/interactions/")[1:]
        assert len({c.path for c in tries}) == 1
        text, private = _private_text(tries[-1].body)
        assert private and "Discord refused to show this reply" in text and "saved" in text
        await standin.wait_for(lambda: any("Borin" in str(c.body) for c in standin.posts(f"/channels/{cid}/messages/", "PATCH")))

        # a follow-up (the turn ping after the reply): refused twice, then a private follow-up says so
        await command("gm", "/combatant add", name="Grak", side="orcs", at="D3", facing="W", sheet="class=light weapons=axe")
        await standin.wait_for(lambda: callbacks() == 5)
        await asyncio.sleep(0.5)
        before = len(standin.posts(f"/webhooks/{APP_ID}/"))
        standin.faults[("POST", f"/webhooks/{APP_ID}/")] = [500, 500]
        await command("gm", "/init roll", roll="6,1")
        await standin.wait_for(lambda: callbacks() == 6 and len(standin.posts(f"/webhooks/{APP_ID}/")) == before + 3)
        await asyncio.sleep(0.5)
        followups = standin.posts(f"/webhooks/{APP_ID}/")[before:]
        assert len(followups) == 3 and "<@" in followups[0].body["content"] == followups[1].body["content"]
        text, private = _private_text(followups[-1].body)
        assert private and "Discord refused to show this reply" in text

        # a bot-token request (the board's edit): refused twice and given up; the next change edits it
        edits = len(standin.posts(f"/channels/{cid}/messages/", "PATCH"))
        standin.faults[("PATCH", f"/channels/{cid}/messages/")] = [500, 500]
        await command("gm", "/combatant add", name="Snaga", side="orcs", at="E3", facing="W", sheet="class=light weapons=axe")
        await standin.wait_for(lambda: callbacks() == 7 and len(standin.posts(f"/channels/{cid}/messages/", "PATCH")) == edits + 2)
        await asyncio.sleep(1.0)
        assert len(standin.posts(f"/channels/{cid}/messages/", "PATCH")) == edits + 2  # given up, not sent for ever
        await command("gm", "/combatant add", name="Ugluk", side="orcs", at="E4", facing="W", sheet="class=light weapons=axe")
        await standin.wait_for(lambda: any("Ugluk" in str(c.body) for c in standin.posts(f"/channels/{cid}/messages/", "PATCH")))

        log = bot.log.read_text()
        assert log.count("Discord answered 500 twice to POST /api/v10/interactions/") == 1
        assert log.count(f"Discord answered 500 twice to POST /api/v10/webhooks/{APP_ID}/") == 1
        assert log.count("Discord answered 500 twice to PATCH /api/v10/channels/") == 1
        assert "tok-" not in log
        await bot.stop()


async def test_a_board_whose_edits_keep_answering_429_is_posted_anew(tmp_path: Path) -> None:
    """Edits of the board answered 429 past discord.py's retries: the board is posted anew with
    the change, the old message deleted, and the next change edits the new one."""
    async with running_bot(tmp_path) as bot:
        standin, command, callbacks = bot.standin, bot.command, bot.callbacks
        cid = standin.channel_id
        await command("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
        await standin.wait_for(lambda: callbacks() == 1 and standin.posts(f"/channels/{cid}/messages"))
        first = standin.posts(f"/channels/{cid}/messages")[0]
        old = f"/channels/{cid}/messages/{first.message_id}"

        standin.faults[("PATCH", old)] = [429] * 5  # every try discord.py makes is refused
        await command("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=SHEET)
        await standin.wait_for(lambda: len(standin.posts(f"/channels/{cid}/messages")) == 2 and standin.posts(old, "DELETE"))
        assert len(standin.posts(old, "PATCH")) == 5
        board = standin.posts(f"/channels/{cid}/messages")[1]
        assert "Borin" in str(board.body)

        await command("gm", "/combatant add", name="Grak", side="orcs", at="D3", facing="W", sheet="class=light weapons=axe")
        new = f"/channels/{cid}/messages/{board.message_id}"
        await standin.wait_for(lambda: any("Grak" in str(c.body) for c in standin.posts(new, "PATCH")))
        assert len(standin.posts(old, "PATCH")) == 5 and len(standin.posts(f"/channels/{cid}/messages")) == 2
        await bot.stop()
