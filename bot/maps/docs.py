"""The README's map pictures, drawn by the bot: ``docs/images/map-square.png`` is the last
``/map`` of the Coup-De-Grace example fight and ``docs/images/map-hex.png`` that of the War &
Combat one (``bot/examples/``), each played in the console with seed 3, as a user would.
``python -m bot docs --images`` draws them again into the checkout it runs from, after a
change to the map; ``tests/bot/test_mapdocs.py`` checks that they are what the bot draws now."""

from __future__ import annotations

import argparse
import asyncio
import io
import tempfile
from pathlib import Path

from bot.offline.console import run_console

__all__ = ["EXAMPLES", "IMAGES", "SEED", "draw", "write_images"]

#: the project's folders, as the command finds them
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "bot" / "examples"
IMAGES = ROOT / "docs" / "images"
#: each picture, and the example fight whose last `/map` it is
PICTURES = {"map-square.png": "coup-de-grace.txt", "map-hex.png": "war-and-combat.txt"}
SEED = 3


async def draw(example: str) -> bytes:
    """The last ``/map`` picture of ``example`` (a file in ``bot/examples/``), played in the
    console with seed ``SEED``."""
    with tempfile.TemporaryDirectory() as files:
        args = argparse.Namespace(db=":memory:", seed=SEED, files=files, script=str(EXAMPLES / example))
        out = io.StringIO()
        if await run_console(args, out) != 0 or not (Path(files) / "map.png").exists():
            raise RuntimeError(f"{example} drew no map:\n{out.getvalue()[-2000:]}")
        return (Path(files) / "map.png").read_bytes()


def write_images(folder: Path = IMAGES) -> list[Path]:
    """Draw each picture of ``PICTURES`` into ``folder``; the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, example in PICTURES.items():
        path = folder / name
        path.write_bytes(asyncio.run(draw(example)))
        written.append(path)
    return written
