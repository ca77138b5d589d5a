"""What the service needs to draw `/map` pictures: the app passes in `bot.maps.MapRenderer` (its
drawing processes), so the service itself starts no process and loads no Pillow."""
from __future__ import annotations

from typing import Protocol

from rules.errors import IllegalAction

__all__ = ["Pictures", "NoPictures"]


class Pictures(Protocol):
    """Draws an encounter's map from its stored JSON: the PNG and the lines that describe it."""

    #: CPU seconds the drawing took outside the bot's process
    worker_cpu: float

    async def start(self) -> None: ...

    async def picture(self, system_key: str, data: str, route: str = "") -> tuple[bytes, list[str]]: ...


class NoPictures:
    """The pictures of a service built without a renderer: `/map` is refused, saying what works instead."""

    worker_cpu = 0.0

    async def start(self) -> None:
        return None

    async def picture(self, system_key: str, data: str, route: str = "") -> tuple[bytes, list[str]]:
        raise IllegalAction("This bot draws no map pictures: `/encounter status` shows who is where.")
