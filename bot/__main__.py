"""``python -m bot`` runs the bot; ``python -m bot console`` runs it offline; ``python -m bot benchmark`` measures it;
``python -m bot migrate`` copies a database into another."""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys

import aiohttp
import discord
import yarl
from discord.gateway import DiscordWebSocket

from bot.settings import Settings, SettingsError, TokenError, check_token, load_settings
from data.store import StoreError, database_backend, open_store, redact_url

log = logging.getLogger("skirmish")


def setup_logging(level: str) -> None:
    logging.basicConfig(
        level=getattr(logging, level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        datefmt="%Y-%m-%d %H:%M:%S",
    )
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLogger().level))


#: what a network that does not reach Discord raises, at login or at the gateway
NETWORK_ERRORS = (
    OSError, asyncio.TimeoutError, aiohttp.ClientError, discord.GatewayNotFound,
    discord.ConnectionClosed,
)


def fail(message: str) -> int:
    """A start-up problem: one line on stderr; the exit code is 2."""
    print(f"skirmish: {message}", file=sys.stderr)
    return 2


async def reach_gateway(bot: discord.Client) -> None:
    """Open one connection to Discord's gateway and close it again, so that an unreachable
    gateway is a network error here rather than discord.py's reconnect loop (which would retry
    for ever, then fail inside itself on the first connection)."""
    ws = await asyncio.wait_for(bot.http.ws_connect(str(DiscordWebSocket.DEFAULT_GATEWAY)), 30)
    await ws.close()


def point_at(root: str) -> None:
    """For testing only: send every REST request, interaction reply and the gateway connection
    to a stand-in for Discord at ``root`` (``DISCORD_API_BASE``)."""
    root = root.rstrip("/")
    discord.http.Route.BASE = f"{root}/api/v10"  # interaction replies (discord.webhook) use the same Route
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(root.replace("http", "ws", 1) + "/gateway")


async def run_bot(settings: Settings, token: str) -> int:
    from bot.app import create_bot
    from data.store import open_store

    if settings.discord_api_base:
        point_at(settings.discord_api_base)
    try:
        store = await open_store(settings.database_url)
    except StoreError as exc:
        return fail(str(exc))
    bot = create_bot(
        store,
        dev_guild_id=settings.dev_guild_id,
        board_delay=settings.board_delay_seconds,
        reminder_every=settings.reminder_check_seconds,
        default_reminder_hours=settings.default_reminder_hours,
        log_retention_days=settings.log_retention_days,
        shard_count=settings.shard_count,
        shard_ids=settings.shard_ids,
        map_workers=settings.map_workers,
        outbound_per_second=settings.outbound_per_second,
        cache_bytes=int(settings.encounter_cache_mib * 1024 * 1024),
    )
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    def stop(signame: str) -> None:
        if not stopping.is_set():
            log.info("%s received: shutting down", signame)
            stopping.set()
            loop.create_task(bot.close())

    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop, sig.name)
        except (NotImplementedError, RuntimeError):  # pragma: no cover - not on this platform
            pass
    try:
        async with bot:
            await bot.login(token)
            await reach_gateway(bot)
            await bot.connect(reconnect=True)
    except discord.LoginFailure:
        return fail("Discord refused DISCORD_TOKEN: reset the token in the Developer Portal (Bot -> Reset Token) and put the new one in .env.")
    except discord.PrivilegedIntentsRequired:
        return fail("Discord refused the connection over intents: this bot needs no privileged intents; check the application's settings.")
    except discord.Forbidden as exc:  # at start-up: the command sync to DEV_GUILD_ID's server
        where = f"server {settings.dev_guild_id} (DEV_GUILD_ID)" if settings.dev_guild_id else "the application"
        return fail(
            f"Discord refused the bot access to {where} ({' '.join(exc.text.split()) or exc.status}): "
            "invite the bot to that server with the bot and applications.commands scopes, or "
            "leave DEV_GUILD_ID empty."
        )
    except discord.HTTPException as exc:
        return fail(
            f"Discord answered {exc.status} ({' '.join(exc.text.split()) or 'no details'}) while "
            "the bot started: try again in a few minutes."
        )
    except NETWORK_ERRORS as exc:
        return fail(
            f"Cannot reach Discord ({' '.join(str(exc).split()) or type(exc).__name__}): check "
            "the network, firewall or proxy, and try again."
        )
    finally:
        await store.close()
    log.info("stopped cleanly")
    return 0


def migrate_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bot migrate",
        description="Copy every encounter, log row and reminder into another database (stop the "
                    "bot first). Run twice, it copies nothing more; a destination holding other "
                    "data is refused and left as it is.",
    )
    p.add_argument("--to", required=True, metavar="URL",
                   help="the destination: postgresql://user:password@host:5432/database")
    p.add_argument("--from", dest="source", metavar="URL",
                   help="the source (default: the DATABASE_URL setting, skirmish.db if unset)")
    return p


def migrate_main(argv: list[str]) -> int:
    """``python -m bot migrate --to URL [--from URL]``: copy, check the counts, print them."""
    args = migrate_parser().parse_args(argv)
    source = args.source
    try:
        if source is None:
            source = load_settings().database_url
        kind, target = database_backend(source)
        if database_backend(args.to) == (kind, target):
            return fail("--from and --to name the same database: give another destination.")
    except (SettingsError, StoreError) as exc:
        return fail(str(exc))
    if kind == "sqlite" and not os.path.isfile(target):
        return fail(f"There is no database file {target} to migrate from: give --from the bot's file.")
    return asyncio.run(_migrate(source, args.to))


async def _migrate(source_url: str, dest_url: str) -> int:
    from data.migrate import migrate

    try:
        source = await open_store(source_url)
    except StoreError as exc:
        return fail(str(exc))
    try:
        dest = await open_store(dest_url)
    except StoreError as exc:
        await source.close()
        return fail(str(exc))
    try:
        report = await migrate(source, dest)
    except StoreError as exc:
        return fail(str(exc))
    finally:
        await dest.close()
        await source.close()
    copied = sum(t.copied for t in report)
    where = f"{redact_url(source_url)} -> {redact_url(dest_url)}"
    print(f"Copied {copied} rows: {where}" if copied else
          f"Nothing to copy: the destination already holds every row ({where})")
    for t in report:
        print(f"  {t.table}: {t.rows} in both (copied {t.copied}, already there {t.present})")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "console":
        from bot.offline.console import main as console_main

        return console_main(argv[1:])
    if argv and argv[0] == "benchmark":
        from bot.offline.benchmark import main as benchmark_main

        return benchmark_main(argv[1:])
    if argv and argv[0] == "migrate":
        return migrate_main(argv[1:])
    if argv and argv[0] == "docs":
        from bot.docs import main as docs_main

        return docs_main(argv[1:])
    if argv and argv[0] in ("-h", "--help"):
        print("usage: python -m bot            run the bot (settings from .env)\n"
              "       python -m bot console    run commands offline (see --help there)\n"
              "       python -m bot benchmark  measure speed offline [--quick] [--profile]\n"
              "       python -m bot docs       print the generated parts of README.md and docs/\n"
              "                                [--write: put them in place | --images: draw the README's map pictures]\n"
              "       python -m bot migrate    copy the database: --to postgresql://... [--from skirmish.db]")
        return 0
    try:
        settings = load_settings()
        token = check_token(settings)
    except (SettingsError, TokenError) as exc:
        return fail(str(exc))
    setup_logging(settings.log_level)
    return asyncio.run(run_bot(settings, token))


if __name__ == "__main__":
    sys.exit(main())
