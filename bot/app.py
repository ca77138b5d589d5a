"""The bot factory: settings, store, service and cogs wired once, explicitly."""
from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import discord
from discord.ext import commands

from bot.access import BOARD_NEEDS, TEXT_NEEDS, ChannelAccess
from bot.limits import checked
from bot.maps import DEFAULT_WORKERS, shared_renderer
from bot.outbound import (
    BOARD,
    DEFAULT_PER_SECOND,
    PING,
    Outbound,
    retry_server_errors_once,
)
from bot.render import NO_MENTIONS, discord_text, mentions_for, to_embed
from bot.service import CACHE_BYTES, LogPage, Nudge, Service
from bot.tree import SkirmishTree, release
from data.store import ShardSlice, Store, StoreUnavailable

__all__ = ["Skirmish", "ShardedSkirmish", "BoardKeeper", "EXTENSIONS", "create_bot", "settle_collector"]

log = logging.getLogger("skirmish")

#: the collector's thresholds. Most garbage with cycles is discord.py's (each interaction, its
#: response and member, each view and its buttons), and a collection's pause grows with the
#: garbage it frees (about 5 µs an object): young collections every 3,000 allocations and the
#: middle one every 5 of them keep each pause near 5-15 ms at 50 busy channels (10,000 and 20
#: gave 15-50 ms); full collections stay rare
GC_THRESHOLDS = (3_000, 5, 1_000)


def settle_collector() -> None:
    """Set the garbage collector as the bot runs with it: what is alive now (everything loaded so
    far) lives as long as the process, so it is kept out of the collector's scans, and
    collections come at `GC_THRESHOLDS`."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)

#: reminders sent at once in a pass, and the seconds each send may take
REMINDER_SENDS = 50
REMINDER_TIMEOUT = 15.0

EXTENSIONS: tuple[str, ...] = (
    "cogs.encounter",
    "cogs.combatants",
    "cogs.initiative",
    "cogs.actions",
    "cogs.tools",
    "cogs.effects",
    "cogs.notify",
    "cogs.buttons",
)


#: Discord limits edits of a message older than an hour (error 30046, near 3 edits in 20 s in a channel)
OLD_BOARD_SECONDS = 3600
EDITS_OF_OLD_MESSAGES = 30046
#: an older board is edited this many times less often (with the 1 s default: every 10 s at most)
OLD_BOARD_SLOWER = 10


class BoardKeeper:
    """One status-board message per encounter, edited in place and re-posted if deleted.

    Edits that come within ``delay`` seconds of each other are merged into one; once the board
    is an hour old, within ``delay`` times `OLD_BOARD_SLOWER`. When Discord refuses an edit of
    the old message (30046, or 429 after discord.py's own retries), the board is posted anew and
    the old message deleted.
    """

    def __init__(self, bot: "Skirmish", delay: float) -> None:
        self.bot = bot
        self.delay = delay
        self._dirty: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        #: when set (the benchmark), each edit's staleness is appended: the seconds from the first
        #: change it carries to the edit done; `_since` holds that first change, while one waits
        self.staleness: list[float] | None = None
        self._since: dict[str, float] = {}

    def touch(self, channel_id: str) -> None:
        if not self.bot.runs_channel(channel_id):  # another process runs its guild's shard
            return
        self._dirty.add(channel_id)
        if self.staleness is not None:
            self._since.setdefault(channel_id, time.perf_counter())
        task = self._tasks.get(channel_id)
        if task is None or task.done():
            self._tasks[channel_id] = asyncio.create_task(self._run(channel_id))

    async def flush(self, channel_id: str | None = None) -> None:
        """Wait until every pending board edit (of one channel, or all) has gone out."""
        while True:
            tasks = self._tasks.values() if channel_id is None else [self._tasks.get(channel_id)]
            pending = [t for t in tasks if t is not None and not t.done()]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)

    async def _run(self, channel_id: str) -> None:
        try:
            pause = self.delay
            while channel_id in self._dirty:
                if pause:
                    await asyncio.sleep(pause)
                # while the budget is spent on more urgent requests, changes keep coming: the
                # board is read only when its turn has come, so they make one edit
                async with self.bot.outbound.turn(BOARD):
                    self._dirty.discard(channel_id)
                    since = self._since.pop(channel_id, None)
                    try:
                        old = await self.update(channel_id)
                        if since is not None and self.staleness is not None:
                            self.staleness.append(time.perf_counter() - since)
                        pause = self.delay * (OLD_BOARD_SLOWER if old else 1)
                    except StoreUnavailable:  # the store logged the outage once; the next change redraws it
                        pass
                    except discord.DiscordServerError:  # sent twice and given up (logged): the next change redraws it
                        log.warning("the status board in %s waits for the next change (Discord's server error)", channel_id)
                    except Exception:  # the board is a convenience: never let it break a command
                        log.exception("could not update the status board in %s", channel_id)
        finally:  # nothing is kept for a channel whose board is up to date
            if self._tasks.get(channel_id) is asyncio.current_task():
                del self._tasks[channel_id]
            self._dirty.discard(channel_id)  # only a cancelled run leaves it there

    async def update(self, channel_id: str) -> bool:
        """Edit the channel's board (or post it); whether the message edited is over an hour old."""
        service = self.bot.service
        board = await service.board(channel_id)
        if board is None:
            return False
        report, _, encounter_id = board
        if self.bot.access.missing(channel_id, BOARD_NEEDS):  # Discord would refuse it: not sent
            return False
        kwargs: dict[str, Any] = {"embed": to_embed(report), "allowed_mentions": NO_MENTIONS}
        if self.bot.board_view is not None:
            kwargs["view"] = self.bot.board_view(encounter_id)
        checked(**kwargs)
        channel = self.bot.get_partial_messageable(int(channel_id))
        message_id = await service.board_message(channel_id)
        try:
            with self.bot.outbound.urgency(BOARD):
                message = await self._post(channel, message_id, kwargs)
        except discord.Forbidden:
            self.bot.access.refused(channel_id, BOARD_NEEDS)
            log.warning("no permission to post the status board in %s: nothing more is sent there until it is granted", channel_id)
            return False
        finally:
            release(view=kwargs.get("view"))
        if message is None:
            age = service.clock() - discord.utils.snowflake_time(int(message_id or 0)).timestamp()
            return age > OLD_BOARD_SECONDS
        await service.set_board_message(channel_id, str(message.id))
        return False

    async def _post(self, channel: discord.PartialMessageable, message_id: str | None, kwargs: dict[str, Any]) -> discord.Message | None:
        """Edit the board's message, or post it (again, the old one deleted): the new message,
        None when edited."""
        if not message_id:
            return await channel.send(**kwargs)
        old = channel.get_partial_message(int(message_id))
        try:
            await old.edit(**kwargs)
            return None
        except discord.NotFound:
            log.info("status board in %s was deleted: posting it again", channel.id)
            return await channel.send(**kwargs)
        except discord.HTTPException as exc:
            if exc.code != EDITS_OF_OLD_MESSAGES and exc.status != 429:
                raise
            log.info("Discord refuses edits of the status board in %s (%s): posting it anew", channel.id, exc.code or exc.status)
        message = await channel.send(**kwargs)
        with contextlib.suppress(discord.HTTPException):  # already gone: nothing to do
            await old.delete()
        return message


# Skirmish never joins voice: no warnings about voice libraries at start-up
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


class Skirmish(commands.Bot):
    def __init__(
        self,
        service: Service,
        *,
        dev_guild_id: int | None = None,
        sync_commands: bool = True,
        board_delay: float = 1.0,
        reminder_every: float = 60.0,
        log_retention_days: float = 30.0,
        outbound_per_second: float = DEFAULT_PER_SECOND,
        **sharding: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=SkirmishTree,
            allowed_mentions=NO_MENTIONS,
            help_command=None,
            **sharding,
        )
        #: the shards this process runs when it runs only some (`run_shards`); None: all
        self.shard_slice: ShardSlice | None = None
        self.service = service
        #: every bot-token request of the process goes through it (all shards share the client)
        self.outbound = Outbound(outbound_per_second)
        self.http.request = self.outbound.gate(self.http.request)  # type: ignore[method-assign]  # every bot-token request waits for the outbound scheduler
        self.boards = BoardKeeper(self, board_delay)
        #: what the bot may post in each channel, as Discord says
        self.access = ChannelAccess(self)
        self.dev_guild_id = dev_guild_id
        self.sync_commands = sync_commands
        self.reminder_every = reminder_every
        #: seconds a reminder's send may take before it is given up (and tried on a later pass)
        self.reminder_timeout = REMINDER_TIMEOUT
        self.log_retention_days = log_retention_days
        self._compacted_at = float("-inf")  # when `compact_log` last ran
        #: the buttons of a turn-change message and of the status board, and the questions waiting
        #: for Confirm or Cancel: set by the `cogs.buttons` extension
        self.turn_view: Callable[[int, str, bool], discord.ui.View] | None = None
        self.board_view: Callable[[int], discord.ui.View] | None = None
        #: the ◀ ▶ buttons of a `/log` page: set by the `cogs.buttons` extension too
        self.log_view: Callable[[LogPage], discord.ui.View | None] | None = None
        self.questions: Any = None
        #: sends a question the rules ask one player (`cogs.buttons.send_prompt`)
        self.send_prompt: Callable[..., Awaitable[None]] | None = None
        self._reminders: asyncio.Task[None] | None = None

    def run_shards(self, shards: ShardSlice | None) -> None:
        """Run only ``shards`` (None: all): the store claims only their guilds' reminders, and
        boards of other guilds are left to the processes that run those."""
        self.shard_slice = shards
        self.service.store.shards = shards

    def runs_channel(self, channel_id: str) -> bool:
        """Whether this process runs the shard of the channel's guild (a channel it does not
        know came to it by a command, so it is its own)."""
        if self.shard_slice is None:
            return True
        guild = getattr(self.get_channel(int(channel_id)), "guild", None)
        return guild is None or self.shard_slice.owns(guild.id)

    async def setup_hook(self) -> None:
        retry_server_errors_once(self.http)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        settle_collector()
        await self.service.maps.start()
        if self.sync_commands:
            if self.dev_guild_id:
                guild = discord.Object(self.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                log.info("synced %d commands to server %s", len(synced), self.dev_guild_id)
            else:
                synced = await self.tree.sync()
                log.info("synced %d commands globally (they can take up to an hour to appear)", len(synced))
            self._reminders = asyncio.create_task(self._remind_forever())

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d server(s)", self.user, getattr(self.user, "id", "?"), len(self.guilds))

    async def send_reminders(self) -> int:
        """Send every due reminder, side by side (at most `REMINDER_SENDS` at once), each on its
        own: one that fails or stalls holds no other back."""
        room = asyncio.Semaphore(REMINDER_SENDS)

        async def one(nudge: Nudge) -> bool:
            async with room:
                try:
                    return await self._send_reminder(nudge)
                except Exception:
                    log.exception("the reminder in %s failed; the others still go out", nudge.reminder.channel_id)
                    return False

        return sum(await asyncio.gather(*(one(n) for n in await self.service.reminders.due_reminders())))

    async def _send_reminder(self, nudge: Nudge) -> bool:
        """Send one nudge. It counts as given unless Discord may take it later (a passing error)."""
        where = nudge.reminder.channel_id
        given = False
        try:
            if self.access.missing(where, TEXT_NEEDS):  # Discord would refuse it: not sent
                log.info("no permission to remind in %s: the reminder is not sent", where)
                await self.service.reminders.reminded(nudge)
                return False
            channel = self.get_partial_messageable(int(where))
            extra: dict[str, Any] = {}
            ping = nudge.ping
            if ping is not None and ping.encounter_id is not None and self.turn_view is not None:
                extra["view"] = self.turn_view(ping.encounter_id, ping.turn, ping.has_map)
            async with asyncio.timeout(self.reminder_timeout):
                with self.outbound.urgency(PING):
                    await channel.send(**checked(content=discord_text(nudge.text), allowed_mentions=mentions_for(nudge.user_ids), **extra))
            given = True
            await self._direct(nudge)
        except discord.Forbidden:
            self.access.refused(where, TEXT_NEEDS)
            log.warning("cannot remind in %s (no permission to post there)", where)
        except discord.NotFound:
            log.warning("cannot remind in %s (the channel is gone)", where)
        except (discord.HTTPException, TimeoutError) as error:
            stalled = f"no answer within {self.reminder_timeout:g} s" if isinstance(error, TimeoutError) else "an error"
            log.warning("could not send a reminder to %s (%s); trying again later", where, stalled,
                        exc_info=not isinstance(error, TimeoutError))
            await self.service.store.release_reminder(nudge.reminder)
            return False
        except Exception:  # a bad stored id, a bug: it waits one interval like a sent one, never every pass
            log.exception("cannot send the reminder in %s", where)
        await self.service.reminders.reminded(nudge)
        if nudge.kind == "deadline":
            self.boards.touch(where)
        return given

    async def _direct(self, nudge: Nudge) -> None:
        """Send the nudge by direct message to those who asked for it (`/notify`); those whose
        direct messages are closed (or fail) are nudged in the channel instead."""
        failed = await self.send_direct(nudge.dm_ids, content=discord_text(nudge.text))
        missed = [user_id for user_id in failed if user_id not in nudge.user_ids]
        if missed:
            channel = self.get_partial_messageable(int(nudge.reminder.channel_id))
            async with asyncio.timeout(self.reminder_timeout):
                await channel.send(**checked(content=discord_text(nudge.text), allowed_mentions=mentions_for(tuple(missed))))

    async def send_direct(self, user_ids: Iterable[str], **message: Any) -> list[str]:
        """Send ``message`` (``content``, ``embed``) by direct message to each of ``user_ids``,
        mentions disabled, each within the reminders' send time; returns those it could not
        reach (direct messages closed to the bot, or no answer), logged at WARNING."""
        failed: list[str] = []
        for user_id in user_ids:
            try:
                async with asyncio.timeout(self.reminder_timeout):
                    user = await self.fetch_user(int(user_id))
                    await user.send(**checked(allowed_mentions=NO_MENTIONS, **message))
            except (discord.HTTPException, TimeoutError):
                log.warning("cannot send a direct message to %s (closed to the bot?)", user_id)
                failed.append(user_id)
        return failed

    async def compact_log(self) -> int:
        """Drop the undo data of encounters ended over ``log_retention_days`` ago, at most once
        an hour (the first call runs at once); how many log rows it compacted."""
        now = self.service.clock()
        if now - self._compacted_at < 3600:
            return 0
        self._compacted_at = now
        return await self.service.store.compact(now, self.log_retention_days)

    async def _remind_forever(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.send_reminders()
                await self.compact_log()
            except StoreUnavailable:  # the store logged the outage once; the next pass tries again
                pass
            except Exception:  # keep the loop alive; the next pass tries again
                log.exception("reminder pass failed")
            await asyncio.sleep(self.reminder_every)

    async def close(self) -> None:
        if self._reminders is not None:
            self._reminders.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reminders
        with contextlib.suppress(Exception):
            await self.boards.flush()
        await super().close()


class ShardedSkirmish(Skirmish, commands.AutoShardedBot):
    """The bot over several shards (``SHARD_COUNT``), or a slice of them (``SHARD_IDS``)."""


def create_bot(
    store: Store,
    *,
    rng: random.Random | None = None,
    clock: Callable[[], float] = time.time,
    dev_guild_id: int | None = None,
    sync_commands: bool = True,
    board_delay: float = 1.0,
    reminder_every: float = 60.0,
    default_reminder_hours: float = 24.0,
    log_retention_days: float = 30.0,
    shard_count: int | None = None,
    shard_ids: tuple[int, ...] | None = None,
    map_workers: int = DEFAULT_WORKERS,
    outbound_per_second: float = DEFAULT_PER_SECOND,
    cache_bytes: int = CACHE_BYTES,
) -> Skirmish:
    """The bot on ``store``; with ``shard_count``, an `AutoShardedBot` over ``shard_ids`` of
    them (None: all), that leaves other shards' guilds to the processes that run them."""
    service = Service(store, rng=rng, clock=clock, default_reminder_hours=default_reminder_hours,
                      cache_bytes=cache_bytes, maps=shared_renderer(map_workers))
    options: dict[str, Any] = dict(
        dev_guild_id=dev_guild_id,
        sync_commands=sync_commands,
        board_delay=board_delay,
        reminder_every=reminder_every,
        log_retention_days=log_retention_days,
        outbound_per_second=outbound_per_second,
    )
    if shard_count is None:
        bot = Skirmish(service, **options)
    else:
        ids = None if shard_ids is None else list(shard_ids)
        bot = ShardedSkirmish(service, shard_count=shard_count, shard_ids=ids, **options)
    bot.run_shards(None if shard_count is None or shard_ids is None else ShardSlice(shard_count, tuple(shard_ids)))
    return bot
