"""The offline harness: the real discord.py command path with no network.

Interactions are built from gateway payload dicts (``discord.Interaction(data=..., state=...)``)
and run through ``bot.tree._call``, so the real checks, transformers, callbacks and error
handler run. Every response, follow-up and edit goes through a recording
``AsyncWebhookAdapter`` (set in the ``async_context`` ContextVar); channel messages the bot
sends itself (status boards, reminders) go through a recording ``HTTPClient.request``.
Both return plausible message dicts. The console and the tests share this module.

Deferrals are recorded as Discord handles them. A deferral (interaction callback type 5) is
no message: it is kept in ``Recorder.calls`` (every call in order: messages, deferrals and
deletions of the original response) but not in ``Recorder.sent`` nor in what ``run()`` returns,
so a command's result is still ``sent[0]`` and the payload checks see only real messages. The
first follow-up after a deferral replaces the "thinking" message: it gets the deferral's message
id and visibility (whatever flags it asks for) and ``Sent.deferred`` is set. Deleting the original
response (``interaction.delete_original_response()``) is recorded as kind ``delete``; a
follow-up after it is a new message with its own flags.

Button presses (``await h.press("bob", "End turn")``) are type-3 interactions delivered through
``parse_interaction_create`` with the ``custom_id``, ``component_type`` 2 and the message the
button is on (the latest recorded message of the channel carrying it, as last sent or edited),
so the registered ``ui.DynamicItem`` classes run for real. A press that updates its message
(interaction callback type 7) is recorded as an ``edit`` of that message.

Every message and autocomplete answer is read against Discord's documented limits
(`bot.limits`) before it is recorded; one Discord would refuse raises ``discord.HTTPException``
400 (code 50035, Invalid Form Body) as discord.py raises it, and nothing is recorded.
Bot-token requests count against Discord's global bucket (50 a second) and, when
``Recorder.route_limit`` is set, a bucket per route and channel: one over a bucket is answered
429, kept in ``Recorder.rate_limited``, and sent again after its ``retry_after`` as discord.py
sends it. An edit of a message older than an hour (by the tests' clock) past 3 in 20 s in its
channel is answered 400 with code 30046, as Discord answers it. Each interaction carries the
bot's ``app_permissions`` in its channel (`Harness.deny` takes some away), and a channel post or
edit without them is answered 403 (code 50013), kept in ``Recorder.forbidden``.
"""
from __future__ import annotations

import asyncio
import collections
import copy
import functools
import hashlib
import itertools
import json
import os
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import aiohttp
import discord
from discord import app_commands
from discord.enums import AppCommandOptionType
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.app import Skirmish, create_bot
from bot.limits import choice_problems, file_sizes, problems
from bot.outbound import DEFAULT_PER_SECOND
from data.store import Store, open_store

__all__ = ["Clock", "Harness", "Sent", "user_id_of", "channel_id_of", "HarnessError", "GUILD_ID", "APP_ID", "buttons_of", "DM"]

GUILD_ID = 700000000000000001
APP_ID = 700000000000000002
BOT_USER_ID = 700000000000000003
_EPOCH_MS = 1420070400000
#: Discord's global limit of bot-token requests a second
GLOBAL_PER_SECOND = 50
#: a message older than this (seconds) takes only `OLD_EDITS` edits (how many, per seconds) in its channel
OLD_MESSAGE_SECONDS = 3600
OLD_EDITS = (3, 20.0)
#: what the bot may do in a channel unless a test takes some away (`Harness.deny`)
APP_PERMISSIONS = discord.Permissions.text() | discord.Permissions(view_channel=True)


class Clock:
    """A clock that moves only when told to: ``clock.now += 3600``."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


#: the largest whole number Discord takes in a number option, either sign
DISCORD_NUMBER_MOST = 2**53 - 1


def _check_range(param: app_commands.Parameter, value: float) -> None:
    """Refuse a number past its option's declared range (or Discord's own), as Discord's client
    does: it never sends one to the bot."""
    low = -DISCORD_NUMBER_MOST if param.min_value is None else param.min_value
    high = DISCORD_NUMBER_MOST if param.max_value is None else param.max_value
    if not low <= value <= high:
        kind = "a whole number" if param.type is AppCommandOptionType.integer else "a number"
        raise HarnessError(f"option {param.display_name} takes {kind} from {low} to {high}, not {value}")


class HarnessError(Exception):
    """A command line the harness could not turn into an interaction (not a bot reply)."""


@functools.lru_cache(maxsize=4096)  # the same few users and channels, on every payload
def _stable_id(kind: str, name: str) -> int:
    digest = hashlib.sha256(f"{kind}:{name.lower()}".encode()).digest()
    return 100000000000000000 + int.from_bytes(digest[:8], "big") % 800000000000000000


def user_id_of(name: str) -> int:
    return _stable_id("user", name.lstrip("@"))


def channel_id_of(name: str) -> int:
    return _stable_id("channel", name.lstrip("#"))


@dataclass
class Sent:
    """One message the bot sent, edited or followed up with."""

    kind: str  # response | followup | edit | channel | channel_edit | autocomplete; in calls only: defer | delete | channel_delete
    channel: str
    message_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    ephemeral: bool = False
    allowed_mentions: dict[str, Any] | None = None
    to_user: str | None = None
    choices: list[dict[str, Any]] = field(default_factory=list)
    payload: dict[str, Any] = field(default_factory=dict)
    #: a follow-up that replaced a deferral's "thinking" message (and took its visibility)
    deferred: bool = False

    @property
    def text(self) -> str:
        parts = [self.content] if self.content else []
        for e in self.embeds:
            for key in ("title", "description"):
                if e.get(key):
                    parts.append(e[key])
            for f in e.get("fields", []):
                parts.append(f"{f['name']}: {f['value']}")
            if e.get("footer"):
                parts.append(e["footer"].get("text", ""))
        return "\n".join(parts)

    def pinged_users(self) -> list[str]:
        """The users this message can actually notify, by its allowed_mentions."""
        am = self.allowed_mentions
        if am is None:
            return []
        if "users" in (am.get("parse") or []):
            return sorted(set(_mentions(self.content)))
        allowed = {str(u) for u in am.get("users", [])}
        return sorted(u for u in _mentions(self.content) if u in allowed)

    def pings_everyone(self) -> bool:
        am = self.allowed_mentions
        return am is None or "everyone" in (am.get("parse") or [])


def buttons_of(sent: Sent) -> list[dict[str, Any]]:
    """The buttons of a recorded message, in order (each a component dict: label, custom_id, style)."""
    return [
        c for row in sent.payload.get("components") or [] for c in row.get("components", []) if c.get("type") == 2
    ]


def _mentions(text: str) -> list[str]:
    return re.findall(r"<@!?(\d+)>", text or "")


class _Stand:
    """Enough of an aiohttp response for discord.HTTPException: its status and reason."""

    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


def _response(status: int, reason: str) -> aiohttp.ClientResponse:
    """A stand-in response as discord.py's errors take one (they read only its status and reason)."""
    return cast(aiohttp.ClientResponse, _Stand(status, reason))


def refuse_invalid(found: list[str]) -> None:
    """Answer as Discord answers a payload over its limits: HTTP 400, code 50035 (Invalid Form Body)."""
    if found:
        raise discord.HTTPException(
            _response(400, "Bad Request"), {
                "code": 50035, "message": "Invalid Form Body",
                "errors": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": f} for f in found]},
            }
        )


# a snowflake's low 22 bits: the process's own range (as Discord's process and worker bits), so
# two consoles started in the same millisecond never make the same id; one count for the process,
# so a restarted harness on a clock the tests hold still never repeats an id
_SNOWFLAKES = itertools.count(((os.getpid() & 0x3FF) << 12) + 1)


class Recorder:
    """Records every outgoing message and hands out message ids (snowflakes of ``clock``'s time,
    so a message's age is what the tests' clock says)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        #: the messages the bot sent or edited
        self.sent: list[Sent] = []
        #: every call in order: the messages, plus deferrals (``defer``) and deleted originals (``delete``)
        self.calls: list[Sent] = []
        #: deferrals whose "thinking" message no follow-up has replaced yet, by interaction token
        self.thinking: dict[str, Sent] = {}
        self.deleted: set[int] = set()
        #: the next N channel sends fail with a server error (Discord having a bad moment)
        self.fail_sends = 0
        #: channels whose sends hang until the caller gives up (a stalled request)
        self.stalled: set[str] = set()
        #: users whose direct messages are closed to the bot (Discord answers 403, code 50007)
        self.closed_dms: set[str] = set()
        self.channel_of_token: dict[str, str] = {}
        self.user_of_token: dict[str, str] = {}
        #: the message a button press's interaction came from, by interaction token
        self.message_of_token: dict[str, int] = {}
        self.cdn: dict[str, bytes] = {}
        #: direct-message channels the bot opened: channel id -> the user's id
        self.dm_of: dict[str, str] = {}
        #: the channel posts and edits Discord would have refused (403), by channel id
        self.forbidden: list[str] = []
        #: bot-token requests, by the second (of `time.monotonic`) they were made in
        self.per_second: collections.Counter[int] = collections.Counter()
        #: the 429s Discord would have answered: ``"global"`` or the route's bucket, one per refusal
        self.rate_limited: list[str] = []
        #: when the bot-token requests of the last second (global) and of each route bucket were made
        self._bucket_times: dict[str, collections.deque[float]] = collections.defaultdict(collections.deque)
        self._old_edits: dict[str, collections.deque[float]] = collections.defaultdict(collections.deque)
        #: a route's bucket, as Discord's headers give it: (requests, per seconds); None: no route limits.
        #: Discord's channel message routes allow about 5 per 5 s per channel
        self.route_limit: tuple[int, float] | None = None

    def refuse_old_edit(self, channel: str, message_id: int) -> None:
        """Discord limits edits of a message older than an hour (about 3 per 20 s in a channel):
        past that it answers 400 with code 30046."""
        age = self.clock() - discord.utils.snowflake_time(message_id).timestamp()
        if age <= OLD_MESSAGE_SECONDS:
            return
        now = self.clock()
        times = self._old_edits[channel]
        while times and times[0] <= now - OLD_EDITS[1]:
            times.popleft()
        if len(times) >= OLD_EDITS[0]:
            raise discord.HTTPException(
                _response(400, "Bad Request"),
                {"code": 30046, "message": "Maximum number of edits to messages older than 1 hour reached. Try again later"},
            )
        times.append(now)

    def over_limit(self, bucket: str, limit: int, per: float) -> float:
        """Count a request in ``bucket``; 0 when Discord takes it, else the ``retry_after`` of its 429."""
        now = time.monotonic()
        times = self._bucket_times[bucket]
        while times and times[0] <= now - per:
            times.popleft()
        if len(times) >= limit:
            return times[0] + per - now
        times.append(now)
        return 0.0

    def clear(self) -> None:
        """Forget what was recorded (the messages and every call)."""
        self.sent.clear()
        self.calls.clear()

    def snowflake(self) -> int:
        ms = int(self.clock() * 1000) - _EPOCH_MS
        return (ms << 22) + next(_SNOWFLAKES)

    def message(self, channel: str, payload: dict[str, Any], message_id: int | None = None) -> dict[str, Any]:
        mid = message_id or self.snowflake()
        return {
            "id": str(mid),
            "channel_id": str(channel),
            "type": 0,
            "content": payload.get("content") or "",
            "author": {"id": str(BOT_USER_ID), "username": "Skirmish", "discriminator": "0", "avatar": None, "bot": True},
            "embeds": payload.get("embeds") or [],
            "attachments": [],
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "flags": payload.get("flags", 0),
            "components": payload.get("components") or [],
        }

    def record(
        self, kind: str, channel: str, payload: dict[str, Any], files: Any, message_id: int, user: str | None = None,
        *, deferral: Sent | None = None,
    ) -> Sent:
        """Record one call; ``deferral`` is the deferral a follow-up answers (it takes its visibility)."""
        got_files = []
        for f in files or []:
            fp = f.fp
            pos = fp.tell()
            fp.seek(0)
            got_files.append((f.filename, fp.read()))
            fp.seek(pos)
        ephemeral = deferral.ephemeral if deferral is not None else bool((payload.get("flags") or 0) & 64)
        sent = Sent(
            kind=kind,
            channel=channel,
            message_id=deferral.message_id if deferral is not None else message_id,
            content=payload.get("content") or "",
            embeds=payload.get("embeds") or [],
            files=got_files,
            ephemeral=ephemeral,
            allowed_mentions=payload.get("allowed_mentions"),
            to_user=user if ephemeral else None,
            choices=payload.get("choices") or [],
            payload=payload,
            deferred=deferral is not None,
        )
        self.calls.append(sent)
        if kind not in ("defer", "delete", "channel_delete"):
            self.sent.append(sent)
        return sent


def _payload_of(payload: dict[str, Any] | None, multipart: list[dict[str, Any]] | None) -> dict[str, Any]:
    if payload is not None:
        return payload
    for part in multipart or []:
        if part.get("name") == "payload_json":
            found: dict[str, Any] = json.loads(part["value"])
            return found
    return {}


class RecordingAdapter(AsyncWebhookAdapter):
    """Stands in for Discord's webhook endpoints: interaction responses, follow-ups, edits."""

    def __init__(self, recorder: Recorder) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # discord.py's adapter is not annotated
        self.recorder = recorder

    async def request(
        self, route: Route, session: aiohttp.ClientSession, *, payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None, files: Sequence[discord.File] | None = None, **kwargs: Any,
    ) -> Any:
        rec = self.recorder
        body = _payload_of(payload, multipart)
        token = str(route.webhook_token)
        channel = rec.channel_of_token.get(token, "0")
        user = rec.user_of_token.get(token)
        path = route.path
        if path.endswith("/callback"):
            data = body.get("data") or {}
            if body.get("type") == 8:  # autocomplete result
                refuse_invalid(choice_problems(data.get("choices") or []))
                rec.record("autocomplete", channel, data, None, 0, user)
                return {"interaction": {"id": str(route.webhook_id), "type": 4}}
            refuse_invalid(problems(data, file_sizes(files)))
            mid = rec.snowflake()
            if body.get("type") == 5:  # deferred: "thinking" until the first follow-up
                rec.thinking[token] = rec.record("defer", channel, data, files, mid, user)
            elif body.get("type") == 7:  # a button press updates the message it is on
                mid = rec.message_of_token.get(token, mid)
                ephemeral = any(s.message_id == mid and s.ephemeral for s in rec.sent)
                data = {**data, "flags": (data.get("flags") or 0) | (64 if ephemeral else 0)}
                rec.record("edit", channel, data, files, mid, user)
            else:
                rec.record("response", channel, data, files, mid, user)
            return {
                "interaction": {
                    "id": str(route.webhook_id),
                    "type": 2,
                    "response_message_id": str(mid),
                    "response_message_ephemeral": bool((data.get("flags") or 0) & 64),
                    "response_message_loading": body.get("type") == 5,
                },
                "resource": {"type": body.get("type", 4), "message": rec.message(channel, data, mid)},
            }
        if route.method in ("POST", "PATCH"):
            refuse_invalid(problems(body, file_sizes(files)))
        if route.method == "POST":
            deferral = rec.thinking.pop(token, None)
            sent = rec.record("followup", channel, body, files, rec.snowflake(), user, deferral=deferral)
            return rec.message(channel, body, sent.message_id)
        if route.method == "PATCH":
            if path.endswith("/messages/@original"):
                rec.thinking.pop(token, None)  # an edit of the original replaces the thinking message too
            mid = int(route.path.rsplit("/", 1)[-1]) if route.path.rsplit("/", 1)[-1].isdigit() else rec.snowflake()
            rec.record("edit", channel, body, files, mid, user)
            return rec.message(channel, body, mid)
        if route.method == "DELETE" and path.endswith("/messages/@original"):
            deferral = rec.thinking.pop(token, None)
            mid = deferral.message_id if deferral is not None else 0
            rec.deleted.add(mid)
            rec.record("delete", channel, {}, None, mid, user)
            return None
        return None


#: the channel name that stands for a user's direct messages with the bot (``h.press("bob", "No flips", DM)``)
DM = "dm"


class Harness:
    """A bot with a real command tree, a real store, and no network."""

    def __init__(self, bot: Skirmish, store: Store, recorder: Recorder) -> None:
        self.bot = bot
        self.store = store
        self.recorder = recorder
        self._interaction_ids = itertools.count(1)
        #: the database the harness opened (a SQLite path or a PostgreSQL URL), for `restart`
        self.db = ":memory:"

    # -- life cycle -----------------------------------------------------------------------------
    @classmethod
    async def create(
        cls,
        db: str = ":memory:",
        *,
        seed: int | None = None,
        clock: Callable[[], float] = time.time,
        default_reminder_hours: float = 24.0,
        board_delay: float = 0.0,
        outbound_per_second: float = DEFAULT_PER_SECOND,
    ) -> "Harness":
        """A bot on the store at ``db``. With ``board_delay`` 0 each command waits for its status
        board edit (what tests and the console want); above 0, edits are merged as in production."""
        store = await open_store(db)
        rng = random.Random(seed) if seed is not None else random.Random()
        bot = create_bot(
            store, rng=rng, clock=clock, sync_commands=False, board_delay=board_delay,
            default_reminder_hours=default_reminder_hours, outbound_per_second=outbound_per_second,
        )
        recorder = Recorder(clock)
        async_context.set(RecordingAdapter(recorder))
        state = bot._connection
        state.user = discord.ClientUser(
            state=state,
            data={"id": str(BOT_USER_ID), "username": "Skirmish", "discriminator": "0", "avatar": None, "bot": True, "global_name": None},
        )
        state.application_id = APP_ID
        harness = cls(bot, store, recorder)
        harness.db = db
        bot.http.request = bot.outbound.gate(harness._http_request)  # type: ignore[method-assign]  # the offline Discord answers
        bot.http.get_from_cdn = harness._cdn  # type: ignore[method-assign]  # attachments come from the offline store
        await bot._async_setup_hook()
        # the guild is cached as the GUILD_CREATE of the guilds intent would leave it
        state._add_guild_from_data({  # type: ignore[typeddict-item]  # the keys discord.py reads of a GUILD_CREATE
            "id": str(GUILD_ID), "name": "Offline", "owner_id": str(user_id_of("server-owner")), "emojis": [],
            "roles": [{"id": str(GUILD_ID), "name": "@everyone", "permissions": str(APP_PERMISSIONS.value), "position": 0,  # type: ignore[typeddict-item]  # as the guild
                       "color": 0, "hoist": False, "managed": False, "mentionable": False}],
            "stickers": [], "features": [], "channels": [], "threads": [], "member_count": 2,
            "members": [{"user": {"id": str(BOT_USER_ID), "username": "Skirmish", "discriminator": "0", "avatar": None, "bot": True,
                                  "global_name": None},
                         "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0}],
            "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0,
            "preferred_locale": "en-US", "system_channel_flags": 0,
        })
        await bot.setup_hook()
        return harness

    async def close(self) -> None:
        await self.bot.boards.flush()
        await self.store.close()

    async def restart(self) -> "Harness":
        """A new bot process on the same database (state must survive). The channels (direct
        messages too) keep the messages already sent, as Discord does, so their buttons can still
        be pressed."""
        await self.close()
        new = await Harness.create(self.db, clock=self.bot.service.clock)
        new.recorder.sent[:0] = self.recorder.sent
        new.recorder.dm_of.update(self.recorder.dm_of)
        return new

    @property
    def store_path(self) -> str:
        return getattr(self.store, "path", ":memory:")

    # -- channel HTTP (bot token) -----------------------------------------------------------------
    async def _rate_limits(self, route: Any) -> None:
        """Discord's global bucket (50 bot-token requests a second) and, when set, the route's:
        a request over one is answered 429 with its ``retry_after``, recorded, and sent again
        after it, as discord.py does."""
        rec = self.recorder
        buckets = [("global", GLOBAL_PER_SECOND, 1.0)]
        if rec.route_limit is not None:
            buckets.append((f"{route.method} {route.path} {route.channel_id}", *rec.route_limit))
        rec.per_second[int(time.monotonic())] += 1
        for bucket, limit, per in buckets:
            while (retry_after := rec.over_limit(bucket, limit, per)) > 0:
                rec.rate_limited.append(bucket.split(" ")[0] if bucket == "global" else bucket)
                await asyncio.sleep(retry_after)

    async def _http_request(self, route, *, files=None, form=None, **kwargs):  # type: ignore[no-untyped-def]  # HTTPClient.request's own arguments
        rec = self.recorder
        await self._rate_limits(route)
        body = kwargs.get("json") or _payload_of(None, list(form or []))
        channel = str(route.channel_id)
        if route.method in ("POST", "PATCH") and "/messages" in route.path:
            refuse_invalid(problems(body, file_sizes(files)))
        if route.method in ("POST", "PATCH") and "/messages" in route.path:
            self._refuse_forbidden(channel, body)
        if route.method == "POST" and route.path.endswith("/messages"):
            if channel in rec.stalled:
                await asyncio.Event().wait()  # until cancelled
            if rec.dm_of.get(channel) in rec.closed_dms:
                raise discord.Forbidden(_response(403, "Forbidden"), {"code": 50007, "message": "Cannot send messages to this user"})
            if rec.fail_sends > 0:
                rec.fail_sends -= 1
                raise discord.DiscordServerError(_response(503, "Service Unavailable"), "try again")
            mid = rec.snowflake()
            rec.record("channel", channel, body, files, mid)
            return rec.message(channel, body, mid)
        if route.method == "PATCH" and "/messages/" in route.path:
            mid = int(route.url.rsplit("/", 1)[-1])
            if mid in rec.deleted:
                raise discord.NotFound(_response(404, "Not Found"), {"code": 10008, "message": "Unknown Message"})
            rec.refuse_old_edit(channel, mid)
            rec.record("channel_edit", channel, body, files, mid)
            return rec.message(channel, body, mid)
        if route.method == "DELETE" and "/messages/" in route.path:
            mid = int(route.url.rsplit("/", 1)[-1])
            if mid in rec.deleted:
                raise discord.NotFound(_response(404, "Not Found"), {"code": 10008, "message": "Unknown Message"})
            rec.deleted.add(mid)
            rec.record("channel_delete", channel, {}, None, mid)
            return None
        if route.method == "GET" and route.path == "/users/{user_id}":
            uid = str(route.url.rsplit("/", 1)[-1])
            return {"id": uid, "username": f"user{uid[-4:]}", "discriminator": "0", "avatar": None, "global_name": None}
        if route.method == "POST" and route.path == "/users/@me/channels":
            uid = str(body.get("recipient_id"))
            cid = next((c for c, u in rec.dm_of.items() if u == uid), None) or str(rec.snowflake())
            rec.dm_of[cid] = uid
            recipient = {"id": uid, "username": f"user{uid[-4:]}", "discriminator": "0", "avatar": None}
            return {"id": cid, "type": 1, "recipients": [recipient], "last_message_id": None}
        raise HarnessError(f"the offline harness does not serve {route.method} {route.path}")

    def permissions_in(self, channel_id: str) -> discord.Permissions:
        """What the bot may do in the channel, as Discord computes it from the server's roles and
        the channel's overwrites (all a text channel needs, unless a test took some away)."""
        guild = self.bot.get_guild(GUILD_ID)
        channel = guild.get_channel(int(channel_id)) if guild is not None else None
        if channel is None or guild is None or guild.me is None:
            return APP_PERMISSIONS
        return channel.permissions_for(guild.me)

    def deny(self, channel: str, **changed: bool) -> None:
        """Change what the bot may do in ``channel`` with an overwrite for its member, as a server
        admin would (``h.deny("general", send_messages=False)``; True grants it again)."""
        name = channel.lstrip("#")
        cid = channel_id_of(name)
        self._ensure_channel(cid, name)
        guild = self.bot.get_guild(GUILD_ID)
        assert guild is not None
        found = guild.get_channel(cid)
        assert isinstance(found, discord.TextChannel)
        allow, deny = found.overwrites_for(guild.me).pair()
        for perm, value in changed.items():
            setattr(allow, perm, value)
            setattr(deny, perm, not value)
        data = {"id": str(cid), "type": 0, "name": name, "guild_id": str(GUILD_ID), "position": 0, "nsfw": False, "parent_id": None,
                "permission_overwrites": [{"id": str(BOT_USER_ID), "type": 1, "allow": str(allow.value), "deny": str(deny.value)}]}
        found._update(guild, data)  # type: ignore[arg-type]  # a channel payload as the gateway sends it

    def _refuse_forbidden(self, channel: str, body: dict[str, Any]) -> None:
        """A channel post the bot's permissions there do not allow: 403, as Discord answers it."""
        if channel in self.recorder.dm_of:
            return
        allowed = self.permissions_in(channel)
        needs = ["view_channel", "send_messages"] + (["embed_links"] if body.get("embeds") else [])
        if not all(getattr(allowed, n) for n in needs):
            self.recorder.forbidden.append(channel)
            raise discord.Forbidden(_response(403, "Forbidden"), {"code": 50013, "message": "Missing Permissions"})

    def direct_messages(self, user: str) -> list[Sent]:
        """The direct messages the bot sent to ``user``."""
        uid = str(user_id_of(user))
        return [s for s in self.recorder.sent if self.recorder.dm_of.get(s.channel) == uid]

    async def _cdn(self, url: str) -> bytes:
        try:
            return self.recorder.cdn[url]
        except KeyError:
            raise discord.NotFound(_response(404, "Not Found"), "no such attachment") from None

    # -- interactions ---------------------------------------------------------------------------------
    def _member(self, user: str) -> dict[str, Any]:
        uid = user_id_of(user)
        return {
            "user": {"id": str(uid), "username": user.lstrip("@"), "global_name": user.lstrip("@"), "discriminator": "0", "avatar": None},
            "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(discord.Permissions.text().value),
        }

    def _resolve_command(self, words: list[str]) -> tuple[app_commands.Command[Any, ..., Any], list[str]]:
        tree = self.bot.tree
        if not words:
            raise HarnessError("no command given")
        top = tree.get_command(words[0])
        if top is None:
            names = ", ".join(sorted(c.name for c in tree.get_commands()))
            raise HarnessError(f"unknown command /{words[0]} (commands: {names})")
        path = [words[0]]
        node: Any = top
        rest = words[1:]
        while isinstance(node, app_commands.Group):
            if not rest:
                subs = ", ".join(sorted(c.name for c in node.commands))
                raise HarnessError(f"/{' '.join(path)} needs a subcommand: {subs}")
            child = node.get_command(rest[0])
            if child is None:
                subs = ", ".join(sorted(c.name for c in node.commands))
                raise HarnessError(f"/{' '.join(path)} has no subcommand {rest[0]} (it has: {subs})")
            path.append(rest[0])
            node = child
            rest = rest[1:]
        if rest:
            raise HarnessError(f"unexpected words {' '.join(rest)!r}: options are written name:value")
        return node, path

    def _option(self, param: app_commands.Parameter, raw: str, resolved: dict[str, Any]) -> dict[str, Any]:
        t = param.type
        value: Any
        if t is AppCommandOptionType.string:
            value = raw
        elif t is AppCommandOptionType.integer:
            try:
                value = int(raw)
            except ValueError:
                raise HarnessError(f"option {param.display_name} takes a whole number, not {raw!r}") from None
        elif t is AppCommandOptionType.number:
            try:
                value = float(raw)
            except ValueError:
                raise HarnessError(f"option {param.display_name} takes a number, not {raw!r}") from None
        elif t is AppCommandOptionType.boolean:
            low = raw.lower()
            if low not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
                raise HarnessError(f"option {param.display_name} takes true or false, not {raw!r}")
            value = low in ("true", "yes", "1", "on")
        elif t is AppCommandOptionType.user:
            name = raw.lstrip("@")
            uid = str(user_id_of(name))
            member = self._member(name)
            resolved.setdefault("users", {})[uid] = member["user"]
            resolved.setdefault("members", {})[uid] = {k: v for k, v in member.items() if k != "user"}
            value = uid
        elif t is AppCommandOptionType.attachment:
            try:
                with open(raw, "rb") as fh:
                    content = fh.read()
            except OSError as exc:
                raise HarnessError(f"cannot read {raw}: {exc.strerror}") from None
            aid = str(self.recorder.snowflake())
            url = f"https://cdn.invalid/attachments/{aid}/{raw.rsplit('/', 1)[-1]}"
            self.recorder.cdn[url] = content
            resolved.setdefault("attachments", {})[aid] = {
                "id": aid, "filename": raw.rsplit("/", 1)[-1], "size": len(content), "url": url, "proxy_url": url,
            }
            value = aid
        else:
            raise HarnessError(f"option type {t.name} is not supported offline")
        if t in (AppCommandOptionType.integer, AppCommandOptionType.number):
            _check_range(param, value)
        if param.choices and not any(str(c.value) == str(value) for c in param.choices):
            allowed = ", ".join(str(c.value) for c in param.choices)
            raise HarnessError(f"option {param.display_name} takes one of: {allowed}")
        return {"type": t.value, "name": param.display_name, "value": value}

    def _ensure_channel(self, cid: int, name: str) -> None:
        guild = self.bot.get_guild(GUILD_ID)
        if guild is not None and guild.get_channel(cid) is None:
            data = {"id": str(cid), "type": 0, "name": name, "guild_id": str(GUILD_ID), "position": 0,
                    "permission_overwrites": [], "nsfw": False, "parent_id": None}
            guild._add_channel(discord.TextChannel(state=self.bot._connection, guild=guild, data=data))  # type: ignore[arg-type]  # a channel payload as the gateway sends it

    def payload(
        self,
        user: str,
        command: str,
        options: dict[str, str],
        channel: str = "general",
        *,
        focused: str | None = None,
    ) -> dict[str, Any]:
        words = command.strip().lstrip("/").split()
        cmd, path = self._resolve_command(words)
        params = {p.display_name: p for p in cmd.parameters}  # Discord sends the display names
        resolved: dict[str, Any] = {}
        opts: list[dict[str, Any]] = []
        for name, raw in options.items():
            param = params.get(name)
            if param is None:
                known = ", ".join(params) or "none"
                raise HarnessError(f"/{' '.join(path)} has no option {name} (options: {known})")
            if focused == name:
                opts.append({"type": param.type.value, "name": name, "value": raw, "focused": True})
            else:
                opts.append(self._option(param, raw, resolved))
        missing = [p.display_name for p in cmd.parameters if p.required and p.display_name not in options and p.display_name != focused]
        if missing and focused is None:
            raise HarnessError(f"/{' '.join(path)} needs option(s): {', '.join(missing)}")
        if len(path) >= 2:
            opts = [{"type": AppCommandOptionType.subcommand.value, "name": path[-1], "options": opts}]
        if len(path) == 3:
            opts = [{"type": AppCommandOptionType.subcommand_group.value, "name": path[1], "options": opts}]
        data: dict[str, Any] = {"id": str(_stable_id("command", path[0])), "name": path[0], "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        return self._interaction(user, channel, 4 if focused else 2, data)

    def _interaction(self, user: str, channel: str, kind: int, data: dict[str, Any], **extra: Any) -> dict[str, Any]:
        """An INTERACTION_CREATE payload of ``kind`` (2 command, 3 component, 4 autocomplete) by
        ``user`` in ``channel``, with a fresh id and token the recording adapter knows."""
        iid = self.recorder.snowflake()
        token = f"tok-{iid}"
        channel_name = channel.lstrip("#")
        cid = channel_id_of(channel_name)
        self._ensure_channel(cid, channel_name)
        self.recorder.channel_of_token[token] = str(cid)
        self.recorder.user_of_token[token] = str(user_id_of(user))
        return {
            "id": str(iid),
            "application_id": str(APP_ID),
            "token": token,
            "version": 1,
            "type": kind,
            "data": data,
            "guild_id": str(GUILD_ID),
            "channel_id": str(cid),
            "channel": {"id": str(cid), "type": 0, "name": channel_name, "guild_id": str(GUILD_ID), "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None},
            "member": self._member(user),
            "locale": "en-US",
            "guild_locale": "en-US",
            "app_permissions": str(self.permissions_in(str(cid)).value),
            "entitlements": [],
            "authorizing_integration_owners": {},
            "attachment_size_limit": 8 * 1024 * 1024,
            **extra,
        }

    def in_direct_messages(self, payload: dict[str, Any]) -> dict[str, Any]:
        """``payload`` as it comes from the user's direct messages with the bot: no server, no
        member, a DM channel of its own."""
        dm = {k: v for k, v in payload.items() if k not in ("guild_id", "guild_locale", "member")}
        user = payload["member"]["user"]
        cid = str(self.recorder.snowflake())
        self.recorder.dm_of[cid] = user["id"]
        self.recorder.channel_of_token[payload["token"]] = cid
        return {**dm, "user": user, "channel_id": cid, "context": 1,
                "channel": {"id": cid, "type": 1, "recipients": [user]}}

    @staticmethod
    def forged(payload: dict[str, Any], option: str, value: object) -> dict[str, Any]:
        """``payload`` with ``option`` set to ``value``, past what Discord's client sends (a number
        out of its range): what the bot does with a request no real client makes."""
        forged = copy.deepcopy(payload)
        options = forged["data"]["options"]
        while options and options[0]["type"] in (AppCommandOptionType.subcommand.value, AppCommandOptionType.subcommand_group.value):
            options = options[0]["options"]
        for given in options:
            if given["name"] == option:
                given["value"] = value
                return forged
        raise HarnessError(f"the payload has no option {option}")

    async def run_payload(self, payload: dict[str, Any]) -> list[Sent]:
        """Deliver one interaction payload through the real tree; return what the bot sent."""
        start = len(self.recorder.sent)
        interaction = discord.Interaction(data=payload, state=self.bot._connection)  # type: ignore[arg-type]  # a payload as the gateway sends it
        await self.bot.tree._call(interaction)
        if not self.bot.boards.delay:
            await self.bot.boards.flush(str(payload["channel_id"]))
        return self.recorder.sent[start:]

    async def deliver(self, payload: dict[str, Any]) -> list[Sent]:
        """Deliver a payload the way the gateway does (INTERACTION_CREATE), and wait for the bot."""
        start = len(self.recorder.sent)
        tasks_before = asyncio.all_tasks()
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]  # a payload as the gateway sends it
        new = [t for t in asyncio.all_tasks() - tasks_before if t.get_name() == "CommandTree-invoker"]
        await asyncio.gather(*new)
        await self.bot.boards.flush()
        return self.recorder.sent[start:]

    async def run(self, who: str, command: str, channel: str = "general", /, **options: Any) -> list[Sent]:
        """``await h.run("alice", "/combatant add", name="Borin", owner="@bob")``."""
        payload = self.payload(who, command, {k: str(v) for k, v in options.items() if v is not None}, channel)
        return await self.run_payload(payload)

    async def autocomplete(self, who: str, command: str, option: str, current: str = "", channel: str = "general", /, **options: Any) -> list[str]:
        opts = {k: str(v) for k, v in options.items()}
        opts[option] = current
        payload = self.payload(who, command, opts, channel, focused=option)
        sent = await self.run_payload(payload)
        return [c["name"] for s in sent if s.kind == "autocomplete" for c in s.choices]

    # -- buttons ----------------------------------------------------------------------------------------
    def button(self, label_or_custom_id: str, channel: str = "general", user: str | None = None) -> tuple[Sent, dict[str, Any]]:
        """The latest message in ``channel`` (as last sent or edited) carrying that button, and the
        button; ``channel`` ``dm``: in the direct messages the bot sent to ``user``."""
        if channel.lstrip("#") == DM and user is not None:
            uid = str(user_id_of(user))
            cids = {c for c, u in self.recorder.dm_of.items() if u == uid}
        else:
            cids = {str(channel_id_of(channel.lstrip("#")))}
        seen: set[int] = set()
        for sent in reversed(self.recorder.sent):
            if sent.channel not in cids or sent.kind == "autocomplete" or sent.message_id in seen:
                continue
            seen.add(sent.message_id)
            for button in buttons_of(sent):
                if label_or_custom_id in (button.get("label"), button.get("custom_id")):
                    return sent, button
        raise HarnessError(f"no message in #{channel.lstrip('#')} has a button {label_or_custom_id!r}")

    def press_payload(self, user: str, label_or_custom_id: str, channel: str = "general") -> dict[str, Any]:
        """The INTERACTION_CREATE payload (type 3) of ``user`` pressing the button on its latest message."""
        sent, button = self.button(label_or_custom_id, channel, user)
        message = self.recorder.message(sent.channel, sent.payload, sent.message_id)
        message["flags"] = (message.get("flags") or 0) | (64 if sent.ephemeral else 0)
        direct = channel.lstrip("#") == DM
        payload = self._interaction(user, "general" if direct else channel, 3,
                                    {"custom_id": button["custom_id"], "component_type": 2}, message=message)
        if direct:  # pressed in the user's direct messages with the bot, on that message
            payload = self.in_direct_messages(payload)
            payload["channel_id"] = payload["channel"]["id"] = message["channel_id"] = sent.channel
            self.recorder.channel_of_token[payload["token"]] = sent.channel
        self.recorder.message_of_token[payload["token"]] = sent.message_id
        return payload

    async def press(self, who: str, label_or_custom_id: str, channel: str = "general") -> list[Sent]:
        """``await h.press("bob", "End turn")``: ``who`` presses the button on the latest message in
        ``channel`` that carries it, delivered as the gateway delivers it (a type-3 interaction)."""
        return await self.deliver_press(self.press_payload(who, label_or_custom_id, channel))

    async def deliver_press(self, payload: dict[str, Any]) -> list[Sent]:
        """Deliver a button press payload as the gateway does, and wait for the bot."""
        start = len(self.recorder.sent)
        tasks_before = asyncio.all_tasks()
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]  # a payload as the gateway sends it
        new = [t for t in asyncio.all_tasks() - tasks_before if t.get_name().startswith("discord-ui-")]
        await asyncio.gather(*new)
        await self.bot.boards.flush()
        return self.recorder.sent[start:]

    async def reminders(self) -> list[Sent]:
        """Run one reminder pass: the messages it sent (the status board edits a deadline causes
        are in the recorder once done, as after a command)."""
        start = len(self.recorder.sent)
        await self.bot.send_reminders()
        await self.bot.boards.flush()
        return [s for s in self.recorder.sent[start:] if s.kind != "channel_edit"]
