"""The ``/map`` picture, as a package whose modules read bottom-up: ``key`` (the font, the side
colours, the token labels and the words describing a picture), ``style`` (colours, terrain
styles, tokens and trails), ``layer`` (the boards a drawing process keeps, and the PNG),
``image`` (the picture), ``worker`` (the processes that draw it) and ``docs`` (the README's
pictures).

The bot's own process draws nothing when ``MAP_WORKERS`` is above 0, so importing this package
loads only ``worker``; the drawing names load Pillow when first used.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from bot.maps.worker import DEFAULT_WORKERS, MapRenderer, shared_renderer

if TYPE_CHECKING:
    from bot.maps.docs import write_images
    from bot.maps.image import map_picture, render_map

__all__ = ["DEFAULT_WORKERS", "MapRenderer", "map_picture", "render_map", "shared_renderer", "write_images"]

#: the public names that load Pillow (or the console), and the module each comes from
_LATER = {"map_picture": "image", "render_map": "image", "write_images": "docs"}


def __getattr__(name: str) -> Any:
    if name in _LATER:
        return getattr(import_module(f"{__name__}.{_LATER[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
