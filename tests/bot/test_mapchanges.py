"""Tests for the `/map` pictures that draw only what changed since their board's last picture
(bot.maps.layer.Canvas): the same pixels as the whole picture drawn again."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from typing import Any, Literal

import pytest
from PIL import Image

from bot.maps import layer
from bot.maps.image import render_map
from rules.geometry import parse_cell
from rules.models import Combatant, Encounter, LastMove, MapState
from rules.system import Highlight

Picture = tuple[str, Encounter, tuple[Highlight, ...]]


def _board(kind: Literal["square", "hex"], width: int, height: int, fighters: int, seed: int, **map_kw: Any) -> tuple[Encounter, list[str]]:
    """An encounter of ``fighters`` on three sides, facing every way, one downed, with the
    board's walls, terrain and heights from ``map_kw`` (``"random"``: a few cells of each), and
    the free cells to move to."""
    rnd = random.Random(seed)
    cells = [f"{chr(65 + c)}{r + 1}" for c in range(width) for r in range(height)]
    rnd.shuffle(cells)
    if map_kw.pop("walls", False):
        map_kw["blocked"] = cells[-6:]
    if map_kw.pop("terrain", False):
        map_kw["terrain"] = {c: rnd.choice(["rough", "water", "difficult", "mud"]) for c in cells[-12:-6]}
    if map_kw.pop("heights", False):
        map_kw["heights"] = {c: rnd.choice([5, 10, 20]) for c in cells[-16:-12]}
    people = [
        Combatant(name=f"Fighter {i}", side=("dwarves", "orcs", "elves")[i % 3], position=cells[i],
                  facing=("N", "NE", "E", "S", "SW", None)[i % 6], status="downed" if i == 5 else "active")
        for i in range(fighters)
    ]  # fmt: skip
    enc = Encounter(system="test", name="Changes", round=1, current="Fighter 0",
                    map=MapState(kind=kind, width=width, height=height, **map_kw), combatants=people)
    return enc, cells[fighters:-16]


def _moved(enc: Encounter, name: str, **update: Any) -> Encounter:
    return enc.model_copy(update={"combatants": [c.model_copy(update=update) if c.name == name else c
                                                 for c in enc.combatants]})


def _pictures(enc: Encounter, free: list[str]) -> Iterator[Picture]:
    """A board's pictures in play: the first, tokens moved (onto free cells and back), a token
    turned, cells shaded and a move under them, a trail, a new round (its legend), one downed."""
    yield "first", enc, ()
    for i in range(4):
        enc = _moved(enc, f"Fighter {i}", position=free[i])
        yield f"Fighter {i} moved", enc, ()
    enc = _moved(enc, "Fighter 0", position="A1" if "A1" in free else free[0])
    yield "Fighter 0 moved again", enc, ()
    enc = _moved(enc, "Fighter 1", facing="W")
    yield "turned", enc, ()
    shaded = tuple(Highlight(parse_cell(c), "arc") for c in free[6:12])
    yield "shaded", enc, shaded
    enc = _moved(enc, "Fighter 2", position=free[12])
    yield "moved under the shading", enc, shaded
    start = next(c.position for c in enc.combatants if c.name == "Fighter 3")
    enc = _moved(enc, "Fighter 3", position=free[13]).model_copy(
        update={"last_move": LastMove(actor="Fighter 3", path=[start or free[14], free[13]])})
    yield "a trail", enc, ()
    yield "another move beside the trail", _moved(enc, "Fighter 4", position=free[15]), ()
    enc = enc.model_copy(update={"round": 2})
    yield "round 2", enc, ()
    yield "downed", _moved(enc, "Fighter 6", status="downed"), ()


def _drawn(enc: Encounter, free: list[str], cell: int) -> list[Image.Image]:
    """Each picture of the board, as a worker that has drawn nothing else draws them."""
    layer.forget_boards()
    return [Image.open(io.BytesIO(render_map(e, cell_px=cell, highlights=lit))) for _, e, lit in _pictures(enc, free)]


def _redraws(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pictures drawn only where they changed from now on: the number of boxes each drew."""
    redrawn: list[int] = []
    redraw = layer.Canvas._redrawn

    def counted(canvas: layer.Canvas, last: Any, dirty: list[layer.Box]) -> bytes:
        redrawn.append(len(dirty))
        return redraw(canvas, last, dirty)

    monkeypatch.setattr(layer.Canvas, "_redrawn", counted)
    return redrawn


BOARDS = [
    ("square", 12, 10, 10, {}),
    ("square", 12, 10, 10, {"walls": True}),
    ("square", 9, 7, 8, {"walls": True, "terrain": True}),
    ("square", 9, 7, 8, {"walls": True, "terrain": True, "heights": True}),
    ("square", 20, 20, 60, {"walls": True}),
    ("hex", 12, 10, 10, {"walls": True}),
    ("hex", 9, 7, 8, {"walls": True, "terrain": True, "heights": True}),
]


@pytest.mark.parametrize("kind, width, height, fighters, map_kw", BOARDS)
def test_a_picture_drawn_where_it_changed_is_the_whole_picture(
    monkeypatch: pytest.MonkeyPatch, kind: Literal["square", "hex"], width: int, height: int, fighters: int, map_kw: dict[str, Any]
) -> None:
    """Each picture of a board in play (tokens moved, turned and downed, shading, a trail, a new
    legend), drawn only where it changed since the last, has the palette and every pixel of the
    same picture drawn whole; on a board without heights most pictures are drawn so."""
    monkeypatch.setattr(layer, "_keeps", {})
    enc, free = _board(kind, width, height, fighters, seed=width * height, **dict(map_kw))
    cell = 48 if width < 20 else 24
    redrawn = _redraws(monkeypatch)
    changed = _drawn(enc, free, cell)
    monkeypatch.setattr(layer, "BOXES", False)
    whole = _drawn(enc, free, cell)
    for (label, _, _), a, b in zip(_pictures(enc, free), changed, whole, strict=True):
        assert a.getpalette() == b.getpalette(), label
        assert a.tobytes() == b.tobytes(), label
    if "heights" in map_kw:
        assert not redrawn  # a height's letters are written again over what is laid on them
    else:
        assert len(redrawn) >= 6


def test_something_new_on_the_board_chooses_the_palette_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A picture that draws only what the last picture's palette was chosen for keeps that
    palette; one that draws a token it was not chosen for (a new side) chooses another."""
    monkeypatch.setattr(layer, "_keeps", {})
    enc, free = _board("square", 12, 10, 6, seed=3)
    layer.forget_boards()
    render_map(enc, cell_px=48)
    [keeps] = layer._keeps.values()
    assert keeps.last is not None
    chosen = keeps.last.nearest
    render_map(_moved(enc, "Fighter 1", position=free[0]), cell_px=48)
    assert keeps.last.nearest is chosen
    newcomer = Combatant(name="Troll", side="trolls", position=free[1])
    render_map(enc.model_copy(update={"combatants": [*enc.combatants, newcomer]}), cell_px=48)
    assert keeps.last.nearest is not chosen


def test_pictures_of_one_board_drawn_at_once_in_threads_each_show_their_own_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two channels' encounters on the same board (one kept board, one last picture kept with it)
    drawn at once in threads, their tokens (the same fighter's, so each picture is drawn where it
    differs from the other channel's last) moving: each picture shows its own token where it
    stands and nothing where the other channel's stands."""
    import threading

    from bot.maps.image import cell_centre_px
    from bot.maps.key import side_colours
    from bot.maps.style import BOARD

    monkeypatch.setattr(layer, "_keeps", {})
    layer.forget_boards()
    fights = [Encounter(system="test", name=f"Channel {n}", round=1, map=MapState(kind="square", width=12, height=10),
                        combatants=[Combatant(name=name, side=side, position="C3")])
              for n, (name, side) in enumerate((("Ana", "dwarves"), ("Ana", "dwarves")))]  # fmt: skip
    cells = (["C3", "D3", "E3", "F3"], ["H8", "H7", "H6", "H5"])
    wrong: list[str] = []

    def play(n: int) -> None:
        for i in range(24):
            at = cells[n][i % 4]
            enc = _moved(fights[n], fights[n].combatants[0].name, position=at)
            img = Image.open(io.BytesIO(render_map(enc, cell_px=48))).convert("RGB")
            x, y = cell_centre_px(enc, at, 48)
            disc = max(img.crop((x - 9, y - 9, x + 10, y + 10)).getcolors(4096) or [])[1]
            other = cells[1 - n][i % 4]
            if disc != side_colours(enc)[enc.combatants[0].side] or img.getpixel(cell_centre_px(enc, other, 48)) != BOARD:
                wrong.append(f"{enc.name}, picture {i}")

    redrawn = _redraws(monkeypatch)
    render_map(fights[0], cell_px=48)  # the board, drawn once
    threads = [threading.Thread(target=play, args=(n,)) for n in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(layer._keeps) == 1  # the two channels' pictures shared one board
    assert wrong == [] and len(redrawn) >= 40
