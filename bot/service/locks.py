"""One command at a time per channel: a re-entrant lock per channel, forgotten when idle."""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ChannelLocks"]


@dataclass
class _ChannelLock:
    """A channel's lock, how many tasks hold or wait for it, and which task holds it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    owner: asyncio.Task[Any] | None = None


class ChannelLocks:
    """The channels' locks: a channel's commands run one at a time, and the task that holds a
    channel's lock takes it again at no cost."""

    def __init__(self) -> None:
        self._locks: dict[str, _ChannelLock] = {}

    def __len__(self) -> int:
        """How many channels have a command running or waiting."""
        return len(self._locks)

    @contextlib.asynccontextmanager
    async def hold(self, channel_id: str) -> AsyncIterator[None]:
        """Hold the channel's lock (again, at no cost, in the task that holds it already).

        The lock is forgotten once no task holds or waits for it, so idle channels cost nothing.
        """
        task = asyncio.current_task()
        entry = self._locks.get(channel_id)
        if entry is not None and entry.owner is task:
            yield
            return
        if entry is None:
            entry = self._locks[channel_id] = _ChannelLock()
        entry.users += 1
        try:
            async with entry.lock:
                entry.owner = task
                try:
                    yield
                finally:
                    entry.owner = None
        finally:
            entry.users -= 1
            if entry.users == 0 and self._locks.get(channel_id) is entry:
                del self._locks[channel_id]
