"""One command at a time per channel: a re-entrant lock per channel, forgotten when idle."""
from __future__ import annotations

import asyncio
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

    def hold(self, channel_id: str) -> _Hold:
        """Hold the channel's lock (``async with``; again, at no cost, in the task that holds it
        already).

        The lock is forgotten once no task holds or waits for it, so idle channels cost nothing.
        """
        return _Hold(self._locks, channel_id)


class _Hold:
    """`ChannelLocks.hold`: the channel's lock, held from entering to leaving unless the task
    entering holds it already (a context manager of its own class: a command takes it two or
    three times)."""

    __slots__ = ("_locks", "_channel_id", "_entry")

    def __init__(self, locks: dict[str, _ChannelLock], channel_id: str) -> None:
        self._locks, self._channel_id = locks, channel_id
        self._entry: _ChannelLock | None = None  # the lock this took, to release on leaving

    async def __aenter__(self) -> None:
        task = asyncio.current_task()
        entry = self._locks.get(self._channel_id)
        if entry is not None and entry.owner is task:
            return
        if entry is None:
            entry = self._locks[self._channel_id] = _ChannelLock()
        entry.users += 1
        try:
            await entry.lock.acquire()
        except BaseException:
            self._leave(entry)
            raise
        entry.owner, self._entry = task, entry

    async def __aexit__(self, *exc: object) -> None:
        entry, self._entry = self._entry, None
        if entry is not None:
            entry.owner = None
            entry.lock.release()
            self._leave(entry)

    def _leave(self, entry: _ChannelLock) -> None:
        """One task fewer holds or waits for ``entry``: forgotten when none does."""
        entry.users -= 1
        if entry.users == 0 and self._locks.get(self._channel_id) is entry:
            del self._locks[self._channel_id]
