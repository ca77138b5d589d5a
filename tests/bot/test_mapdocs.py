"""The README's map pictures (bot.maps.docs): there, shown by the README, and what the bot draws now."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.maps.docs import IMAGES, PICTURES, draw

ROOT = Path(__file__).resolve().parents[2]
#: a pixel differs when a channel is more than ``SHADE`` apart (a Pillow or FreeType release may
#: anti-alias the text's edges a few shades apart); ``TOLERANCE``: the share of the pixels that may
#: differ, below what one word changed in the legend moves (about 0.08 % of the hex picture)
SHADE = 64
TOLERANCE = 0.0005


@pytest.mark.parametrize("name", sorted(PICTURES))
async def test_a_readme_picture_is_what_the_bot_draws_now(name: str) -> None:
    """docs/images/<name> has the size of the example's last /map drawn now, and at most 0.05 % of its pixels differ."""
    kept = Image.open(IMAGES / name).convert("RGB")
    fresh = Image.open(io.BytesIO(await draw(PICTURES[name]))).convert("RGB")
    assert kept.size == fresh.size, "run `python -m bot docs --images`"
    r, g, b = ImageChops.difference(kept, fresh).split()
    changed = ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v > SHADE else 0)
    share = changed.histogram()[255] / (kept.width * kept.height)
    assert share <= TOLERANCE, f"{share:.1%} of {name} differs: run `python -m bot docs --images`"


def test_the_readme_shows_a_square_and_a_hex_map() -> None:
    """README.md shows both pictures, a square map and a hex map, from docs/images/."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("map-square.png", "map-hex.png"):
        assert f"(docs/images/{name})" in readme
        assert (IMAGES / name).is_file()
    assert {Image.open(IMAGES / n).size[0] > 400 for n in PICTURES} == {True}
