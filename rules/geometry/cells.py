"""Cells in chess-board notation, parsed once into typed values.

Cells are written like a chess board: column letters (A..Z, then AA..), rows from 1 at the
top, e.g. ``C4``. A :class:`Cell` is a 0-based ``(col, row)`` pair. :func:`parse_cell` is
cached, so a position string held by a model is read once, not on every access.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from rules.errors import InputError

__all__ = ["Cell", "cell_name", "normal_cell", "parse_cell", "parse_map_spec", "MAX_SIDE"]

#: the widest and highest map
MAX_SIDE = 100
_CELL_RE = re.compile(r"^\s*([A-Za-z]{1,2})\s*(\d{1,3})\s*$")
_MAP_RE = re.compile(r"^\s*(\d{1,3})\s*[xX×]\s*(\d{1,3})\s*(hex|square)?\s*$")


class Cell(NamedTuple):
    col: int
    row: int

    @property
    def name(self) -> str:
        return cell_name(self)

    def __str__(self) -> str:  # pragma: no cover - convenience
        return cell_name(self)


def _col_letters(col: int) -> str:
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def _col_number(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


@lru_cache(maxsize=65536)
def cell_name(cell: Cell | tuple[int, int]) -> str:
    """``C4``: the name of a cell; cached (events, paths and the board name the same few cells over and over)."""
    return f"{_col_letters(cell[0])}{cell[1] + 1}"


@lru_cache(maxsize=65536)
def normal_cell(text: str) -> str:
    """The cell ``text`` names, written as the bot writes it (`` c4`` -> ``C4``): every stored
    encounter's walls are read through it, so it is cached like `parse_cell`."""
    return parse_cell(text).name


@lru_cache(maxsize=65536)
def parse_cell(text: str) -> Cell:
    """Read ``C4`` into ``Cell(2, 3)``, without bounds checks (cached: cells are immutable)."""
    m = _CELL_RE.match(text or "")
    if not m:
        raise InputError(
            f"`{text}` is not a cell: write a column letter and a row number, like `C4` or `AA12`."
        )
    row = int(m.group(2))
    if row < 1:
        raise InputError(f"`{text}` is not a cell: rows are numbered from 1.")
    return Cell(_col_number(m.group(1)), row - 1)


def parse_map_spec(text: str | None) -> tuple[str, int, int]:
    """Read ``"12x10"`` / ``"12x10 hex"`` / ``"none"`` into ``(kind, width, height)``."""
    if text is None or not text.strip() or text.strip().lower() in {"none", "no", "off"}:
        return ("none", 0, 0)
    m = _MAP_RE.match(text)
    if not m:
        raise InputError(
            f"`{text}` is not a map size: write `12x10` for squares, `12x10 hex` for hexes, "
            f"or `none` for no map."
        )
    width, height = int(m.group(1)), int(m.group(2))
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise InputError(f"A map is 1 to {MAX_SIDE} cells wide and high; `{text}` is not.")
    return (m.group(3) or "square").lower(), width, height
