"""Lists of cells as players write them: ``"D4 D5, E5"``, ranges ``A1-A4`` (along one row or
column, either way round) and rectangles ``B2:D4`` (row by row), read once into cells."""
from __future__ import annotations

import re

from rules.errors import InputError
from rules.geometry.cells import Cell, cell_name, parse_cell

__all__ = ["parse_cell_list", "cell_list_text", "MAX_LISTED_CELLS"]

#: the most cells one list may name (ranges and rectangles counted cell by cell)
MAX_LISTED_CELLS = 400
_SEPARATORS = re.compile(r"[\s,]+")


def parse_cell_list(text: str, width: int, height: int, limit: int = MAX_LISTED_CELLS) -> list[Cell]:
    """The cells ``text`` names on a ``width`` x ``height`` map, in the order written, each once."""
    cells: list[Cell] = []
    for token in _tokens(text):
        cells += _expand(token, width, height, limit - len(cells))
    if not cells:
        raise InputError('Give the cells to mark, like `cells:"D4 D5 E5"`, a range `A1-A4` or a rectangle `B2:D4`.')
    return list(dict.fromkeys(cells))


def cell_list_text(text: str) -> str:
    """A cell list as written, each cell spelt as the map names it: ``"a1-a3, f2:g3"`` ->
    ``"A1-A3 F2:G3"`` (a reply echoes a range, not the 120 cells in it); ``text`` is one
    `parse_cell_list` has read."""
    return " ".join((sep or "").join(parse_cell(end).name for end in ends) for sep, ends in map(_ends, _tokens(text)))


def _tokens(text: str) -> list[str]:
    """The words of a cell list: cells, ranges and rectangles."""
    return [token for token in _SEPARATORS.split(text or "") if token]


def _ends(token: str) -> tuple[str | None, list[str]]:
    """A word's separator (``:`` a rectangle, ``-`` a range, None a cell) and the cells it names at its ends."""
    sep = ":" if ":" in token else "-" if "-" in token else None
    return sep, token.split(sep) if sep else [token]


def _expand(token: str, width: int, height: int, room: int) -> list[Cell]:
    sep, ends = _ends(token)
    if sep is None:
        corners = [_on_map(token, width, height)]
    else:
        if len(ends) != 2 or not all(ends):
            raise InputError(f"`{token}` is not a range or rectangle: write `A1-A4` or `B2:D4`.")
        corners = [_on_map(end, width, height) for end in ends]
    a, b = corners[0], corners[-1]
    if sep == "-" and a.col != b.col and a.row != b.row:
        raise InputError(
            f"`{token}` is not a range: a range runs along one row or column; "
            f"write `{a.name}:{b.name}` for the rectangle between them."
        )
    cols = _span(a.col, b.col)
    rows = _span(a.row, b.row)
    if len(cols) * len(rows) > room:
        raise InputError(f"Mark at most {MAX_LISTED_CELLS} cells at a time.")
    return [Cell(col, row) for row in rows for col in cols]


def _span(a: int, b: int) -> list[int]:
    """From ``a`` to ``b`` inclusive, either way round."""
    return list(range(a, b + 1)) if a <= b else list(range(a, b - 1, -1))


def _on_map(text: str, width: int, height: int) -> Cell:
    cell = parse_cell(text)
    if not (0 <= cell.col < width and 0 <= cell.row < height):
        raise InputError(f"{cell.name} is off the map: cells run from A1 to {cell_name(Cell(width - 1, height - 1))}.")
    return cell
