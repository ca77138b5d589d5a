"""The one outbound scheduler: every bot-token request of the process passes through it.

Discord lets a bot make 50 requests a second with its token (posts, edits, DMs, deletes, every
REST call), over all its shards; interaction replies and follow-ups go through the
interaction's webhook and are not counted. `Outbound` keeps the bot under a lower budget
(`OUTBOUND_PER_SECOND`, 40 by default): never more than that many requests start in any one
second. When requests wait, the most urgent goes first: turn pings and deadline notices
(`PING`), then the rest (`FOLLOW_UP`: direct messages, look-ups), then status-board edits
(`BOARD`), which `bot.app.BoardKeeper` merges per channel while they wait; requests of one
urgency go in the order they came. Under the gate discord.py still honours each route's own
bucket from Discord's rate-limit headers.

The bot installs it on its HTTP client (`Outbound.gate`), so nothing can go around it; a
caller marks how urgent its requests are with ``with outbound.urgency(PING): ...``.

A request Discord answers with a server error (5xx), with the bot token or an interaction's
(replies, follow-ups), is sent once more after `SERVER_ERROR_PAUSE` and then given up with
`discord.DiscordServerError` and a WARNING (`retry_server_errors_once`): discord.py alone would
send it five times over 25 s, past an interaction's 3 s, and the user would see nothing.
"""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import logging
import re
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, TypeVar, cast

import aiohttp
import discord
from discord.http import json_or_text

__all__ = ["Outbound", "PING", "FOLLOW_UP", "BOARD", "DEFAULT_PER_SECOND", "SERVER_ERROR_PAUSE",
           "retry_server_errors_once"]

log = logging.getLogger("skirmish")

#: turn pings and deadline notices
PING = 0
#: direct messages, look-ups, anything not marked
FOLLOW_UP = 1
#: status-board posts and edits: the last to go, merged while they wait
BOARD = 2

#: Discord's global limit is 50 a second; this leaves room for what the bot does not plan
DEFAULT_PER_SECOND = 40.0

#: seconds before a request Discord answered with a server error is sent again (once)
SERVER_ERROR_PAUSE = 1.0

#: an HTTP client's request function, gated with its own signature
R = TypeVar("R", bound=Callable[..., Awaitable[Any]])

_urgency: contextvars.ContextVar[int] = contextvars.ContextVar("skirmish_urgency", default=FOLLOW_UP)
#: the turn this task holds for its next request (`Outbound.turn`): when it was taken
_held: contextvars.ContextVar[float | None] = contextvars.ContextVar("skirmish_turn_held", default=None)


class Outbound:
    """A sliding one-second window of at most ``per_second`` request starts, handed out by urgency."""

    def __init__(self, per_second: float = DEFAULT_PER_SECOND, clock: Callable[[], float] = time.monotonic) -> None:
        if per_second <= 0:
            raise ValueError("OUTBOUND_PER_SECOND must be above 0")
        self.per_second = per_second
        self.clock = clock
        self._window: deque[float] = deque()  # when the requests of the last second started
        self._waiting: list[tuple[int, int, asyncio.Future[float]]] = []
        self._order = itertools.count()
        self._wake: asyncio.TimerHandle | None = None
        #: how many turns were handed out, by urgency (for the benchmark and the tests)
        self.sent = [0, 0, 0]

    @contextlib.contextmanager
    def urgency(self, level: int) -> Iterator[None]:
        """Requests made inside go out at ``level`` (`PING`, `FOLLOW_UP` or `BOARD`)."""
        token = _urgency.set(level)
        try:
            yield
        finally:
            _urgency.reset(token)

    def _room(self) -> float:
        """0 when a request may start now, else the seconds until one may."""
        now = self.clock()
        while self._window and self._window[0] <= now - 1.0:
            self._window.popleft()
        if len(self._window) < int(self.per_second):
            return 0.0
        return self._window[0] + 1.0 - now

    async def wait(self, level: int | None = None) -> float:
        """Wait for this task's turn, and take it; when it was taken (the scheduler's clock). A
        turn counts from when the task runs again, not from when it was handed out: a busy event
        loop may resume it a second later, beside the turns of that second."""
        level = _urgency.get() if level is None else level
        order = next(self._order)  # kept if it must queue again: it loses its place to none
        while True:
            if not self._waiting and self._room() == 0:
                return self._take(level)
            future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (level, order, future))
            self._release()
            try:
                taken = await future
            except asyncio.CancelledError:
                if future.done() and not future.cancelled():  # its turn came as it was cancelled: pass it on
                    self._release()
                raise
            used = self._use(taken)
            if used is not None:
                return used

    @contextlib.asynccontextmanager
    async def turn(self, level: int) -> AsyncIterator[None]:
        """Wait for a turn at ``level`` and hold it: the first request made inside goes out on it
        without waiting again (the board reads its newest state only once its turn has come, so
        changes made while it waited go out in one edit)."""
        token = _held.set(await self.wait(level))
        try:
            yield
        finally:
            _held.reset(token)

    def _take(self, level: int) -> float:
        now = self.clock()
        self._window.append(now)
        self.sent[level] += 1
        return now

    def _use(self, taken: float) -> float | None:
        """Count a turn taken at ``taken`` as starting now, when its request goes out (its task
        resumed, or the board read its state, in between); None when its second has passed (a
        new turn is needed); when it counts from."""
        now = self.clock()
        if taken <= now - 1.0 or taken not in self._window:
            return None
        self._window.remove(taken)
        self._window.append(now)
        return now

    def _release(self) -> None:
        """Hand out every turn the window has room for, most urgent first; come back when it frees."""
        while self._waiting:
            level, _, future = self._waiting[0]
            if future.done():  # cancelled while waiting
                heapq.heappop(self._waiting)
                continue
            room = self._room()
            if room > 0:
                if self._wake is None:
                    self._wake = asyncio.get_running_loop().call_later(room, self._woken)
                return
            heapq.heappop(self._waiting)
            future.set_result(self._take(level))

    def _woken(self) -> None:
        self._wake = None
        self._release()

    def gate(self, request: R) -> R:
        """``request`` (an HTTP client's) behind the scheduler, with its own signature."""

        async def gated(*args: Any, **kwargs: Any) -> Any:
            taken = _held.get()
            if taken is not None:  # its turn was taken in `turn`
                _held.set(None)
            if taken is None or self._use(taken) is None:
                await self.wait()
            return await request(*args, **kwargs)

        return cast(R, gated)


#: an interaction's token in a path (``/webhooks/<app>/<token>``, ``/interactions/<id>/<token>/``): kept out of the log
_TOKEN = re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/?]+")


async def _send_twice(request: aiohttp.ClientRequest, handler: Any) -> aiohttp.ClientResponse:
    """aiohttp client middleware: a server error (5xx) is sent again once; a second one raises
    `discord.DiscordServerError`, so that discord.py sends it no more."""
    response: aiohttp.ClientResponse = await handler(request)
    if response.status < 500:
        return response
    where = request.method + " " + _TOKEN.sub(r"\1…", request.url.path)
    response.release()
    await asyncio.sleep(SERVER_ERROR_PAUSE)
    response = await handler(request)
    if response.status < 500:
        return response
    data = await json_or_text(response)
    response.release()
    log.warning("Discord answered %s twice to %s: given up", response.status, where)
    raise discord.DiscordServerError(response, data)


def retry_server_errors_once(http: discord.http.HTTPClient) -> None:
    """Give up a request after one retry of a server error, for every request of ``http``'s
    session: the bot token's and the interactions' replies and follow-ups, which share it (once
    logged in; the offline harness has no session)."""
    session = getattr(http, "_HTTPClient__session", None)
    if isinstance(session, aiohttp.ClientSession) and _send_twice not in session._middlewares:
        session._middlewares = (*session._middlewares, _send_twice)
