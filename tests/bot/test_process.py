"""The real ``python -m bot`` process against a stand-in for Discord on 127.0.0.1 (tests/bot/standin.py)."""
from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from bot.offline.harness import APP_ID, Harness, channel_id_of
from bot.settings import Settings
from tests.bot.standin import StandIn

ROOT = Path(__file__).resolve().parents[2]
#: a well-formed bot token (the stand-in takes any)
TOKEN = "MTA" + "x" * 21 + ".GhIjKl." + "y" * 30

SHEET = "class=heavy weapons=hammer,shield"


async def test_the_bot_process_logs_in_answers_resumes_and_stops_cleanly(tmp_path: Path) -> None:
    """Login, command sync, replies through the callback route, the board and a turn ping; a dropped
    gateway is resumed with nothing lost; a 429 is waited out and a 500 sent again; SIGTERM ends it with code 0."""
    builder = await Harness.create()  # builds the interactions' payloads from the same command tree
    cid = channel_id_of("general")
    standin = StandIn(cid)
    root = await standin.start()
    env = {k: v for k, v in os.environ.items() if k.lower() not in Settings.model_fields}
    env.update(DISCORD_TOKEN=TOKEN, DISCORD_API_BASE=root, DATABASE_URL=str(tmp_path / "bot.db"), MAP_WORKERS="0",
               PYTHONPATH=str(ROOT), BOARD_DELAY_SECONDS="0.1")
    log = open(tmp_path / "bot.log", "w")
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdout=log, stderr=log)

    async def command(who: str, command: str, /, **options: str) -> None:
        await standin.dispatch("INTERACTION_CREATE", builder.payload(who, command, options))

    def callbacks() -> int:
        return len(standin.posts("/interactions/"))

    try:
        await standin.wait_for(lambda: standin.identified == 1 and standin.posts(f"/applications/{APP_ID}/commands", "PUT"))
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
        standin.faults[("POST", "/interactions/")] = [500]  # a bad moment at Discord: discord.py sends it again
        await command("bob", "/encounter status")
        await standin.wait_for(lambda: callbacks() == 7)
        assert standin.posts("/interactions/")[-1].path == standin.posts("/interactions/")[-2].path
        ping = standin.posts(f"/webhooks/{APP_ID}/")[-1].body
        assert "<@" in ping["content"] and ping["allowed_mentions"]["users"]
        assert standin.identified == 1  # resumed, never identified again

        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 30) == 0
        assert "stopped cleanly" in (tmp_path / "bot.log").read_text()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        log.close()
        await standin.stop()
        await builder.close()
        print((tmp_path / "bot.log").read_text()[-3000:], [(c.method, c.path) for c in standin.calls])
