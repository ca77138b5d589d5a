"""A stand-in for Discord on 127.0.0.1: the REST routes the bot uses and the gateway (HELLO,
IDENTIFY, READY, GUILD_CREATE, heartbeats, RESUME, and the events a test sends), for a test of
the real ``python -m bot`` process (``DISCORD_API_BASE``)."""
from __future__ import annotations

import asyncio
import itertools
import json
import zlib
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from bot.offline.harness import APP_ID, APP_PERMISSIONS, BOT_USER_ID, GUILD_ID, Recorder

__all__ = ["StandIn", "Call"]

BOT_USER = {"id": str(BOT_USER_ID), "username": "Skirmish", "discriminator": "0", "avatar": None, "bot": True,
            "global_name": None, "flags": 0}


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer with the content type exactly as Discord sends it (discord.py compares it whole)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


@dataclass
class Call:
    """One REST request the bot made."""

    method: str
    path: str
    body: dict[str, Any]
    #: the id of the message the stand-in answered with (a post's new message)
    message_id: str | None = None


@dataclass
class StandIn:
    """The stand-in's server and what it saw."""

    channel_id: int
    calls: list[Call] = field(default_factory=list)
    identified: int = 0
    resumed: int = 0
    #: answer the next N requests to a route (method and path prefix) with this status
    faults: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    port: int = 0

    def __post_init__(self) -> None:
        self._ws: web.WebSocketResponse | None = None
        self._zlib: Any = None
        self._seq = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._ids = Recorder()
        self.changed = asyncio.Event()

    # -- life cycle -----------------------------------------------------------------------------
    async def start(self) -> str:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{self.port}"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def wait_for(self, what: Any, timeout: float = 30.0) -> None:
        """Wait until ``what()`` is true (each request or gateway message checks again)."""
        async def until() -> None:
            while not what():
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(until(), timeout)

    def _note(self) -> None:
        self.changed.set()

    # -- the gateway ----------------------------------------------------------------------------
    async def _send(self, data: dict[str, Any]) -> None:
        assert self._ws is not None
        raw = json.dumps(data).encode()
        if self._zlib is not None:
            await self._ws.send_bytes(self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH))
        else:
            await self._ws.send_str(raw.decode())

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a dispatch event (op 0) to the connected bot."""
        await self._send({"op": 0, "t": event, "s": next(self._seq), "d": data})

    async def drop(self) -> None:
        """Close the gateway connection as Discord does when it restarts a node (the bot resumes)."""
        if self._ws is not None:
            await self._ws.close(code=4000)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._ws = ws
        self._zlib = zlib.compressobj() if request.query.get("compress") == "zlib-stream" else None
        await self._send({"op": 10, "d": {"heartbeat_interval": 41250}})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            payload = json.loads(msg.data)
            op = payload.get("op")
            if op == 1:
                await self._send({"op": 11})
            elif op == 2:
                self.identified += 1
                await self.dispatch("READY", {
                    "v": 10, "user": BOT_USER, "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
                    "session_id": "standin-session", "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
                    "application": {"id": str(APP_ID), "flags": 0}, "private_channels": [], "relationships": [],
                })
                await self.dispatch("GUILD_CREATE", self._guild())
            elif op == 6:
                self.resumed += 1
                await self.dispatch("RESUMED", {})
            self._note()
        return ws

    def _guild(self) -> dict[str, Any]:
        return {
            "id": str(GUILD_ID), "name": "Stand-in", "owner_id": "1", "emojis": [], "stickers": [], "features": [],
            "roles": [{"id": str(GUILD_ID), "name": "@everyone", "permissions": str(APP_PERMISSIONS.value), "position": 0,
                       "color": 0, "hoist": False, "managed": False, "mentionable": False}],
            "channels": [{"id": str(self.channel_id), "type": 0, "name": "general", "guild_id": str(GUILD_ID), "position": 0,
                          "permission_overwrites": [], "nsfw": False, "parent_id": None}],
            "threads": [], "member_count": 2, "unavailable": False, "large": False, "joined_at": "2026-01-01T00:00:00+00:00",
            "members": [{"user": BOT_USER, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
                         "mute": False, "flags": 0}],
            "voice_states": [], "presences": [], "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0,
            "premium_tier": 0, "preferred_locale": "en-US", "system_channel_flags": 0,
        }

    # -- REST -----------------------------------------------------------------------------------
    async def _body(self, request: web.Request) -> dict[str, Any]:
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            raw = form.get("payload_json")
            return json.loads(str(raw)) if raw is not None else {}
        if request.can_read_body:
            text = await request.text()
            return json.loads(text) if text else {}
        return {}

    def _message(self, channel: str, body: dict[str, Any], mid: int | None = None) -> dict[str, Any]:
        return self._ids.message(channel, body, mid)

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body = await self._body(request)
        call = Call(request.method, path, body)
        self.calls.append(call)
        self._note()
        for (method, prefix), statuses in self.faults.items():
            if request.method == method and path.startswith(prefix) and statuses:
                status = statuses.pop(0)
                headers = {"Retry-After": "0.2", "X-RateLimit-Scope": "user", "Via": "1.1 google"} if status == 429 else {}
                data = {"message": "You are being rate limited.", "retry_after": 0.2, "global": False} if status == 429 else {
                    "message": "Internal Server Error", "code": 0}
                return _json(data, status=status, headers=headers)
        if path == "/users/@me":
            return _json(BOT_USER)
        if path == "/oauth2/applications/@me":
            return _json({"id": str(APP_ID), "name": "Skirmish", "description": "", "icon": None,
                                      "bot_public": True, "bot_require_code_grant": False, "owner": BOT_USER,
                                      "verify_key": "0" * 64, "flags": 0})
        if path.endswith("/commands") and request.method == "PUT":
            return _json([
                {**c, "id": str(i + 1), "application_id": str(APP_ID), "version": "1"} for i, c in enumerate(body)
            ])
        if path.endswith("/callback"):
            data = body.get("data") or {}
            mid = self._ids.snowflake()
            return _json({
                "interaction": {"id": path.split("/")[2], "type": 2, "response_message_id": str(mid),
                                "response_message_ephemeral": bool((data.get("flags") or 0) & 64),
                                "response_message_loading": body.get("type") == 5},
                "resource": {"type": body.get("type", 4), "message": self._message(str(self.channel_id), data, mid)},
            })
        if path.startswith("/webhooks/") or path.startswith("/channels/"):
            channel = path.split("/")[2] if path.startswith("/channels/") else str(self.channel_id)
            if request.method == "DELETE":
                return web.Response(status=204)
            last = path.rsplit("/", 1)[-1]
            message = self._message(channel, body, int(last) if last.isdigit() else None)
            call.message_id = message["id"]
            return _json(message)
        return _json({"message": "404: Not Found", "code": 0}, status=404)

    def posts(self, prefix: str, method: str = "POST") -> list[Call]:
        """The requests of ``method`` whose path starts with ``prefix``."""
        return [c for c in self.calls if c.method == method and c.path.startswith(prefix)]
