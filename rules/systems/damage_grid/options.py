"""The encounter options of the damage-grid game, each declared once (`rules.options`).

Every default of shared/rules/README.md (4 phases a round, 2 Combat Points, the -2 Accuracy per
forced Combat Point) and every choice made where the text is silent is an option here; the rules
read them as ``values(enc).name``.
"""
from __future__ import annotations

import re

from rules.errors import InputError
from rules.geometry.cell_lists import parse_cell_list
from rules.models import Encounter
from rules.options import (
    OptionSet,
    OptionValues,
    choice_option,
    int_option,
    text_option,
)

__all__ = ["OPTIONS", "DgValues", "ENVIRONMENTS", "values"]

#: the text's environmental factors, each changing Reach ("Factors are cumulative")
ENVIRONMENTS = ("darkness", "total-darkness", "brightness", "extreme-brightness", "poor-visibility", "abysmal-visibility")

#: the largest board the cells of ``cover_body`` are read against (the map's own size limits them in play)
_BOARD = 99


def _cover_body(text: str) -> dict[str, int]:
    """``C6/14, D6-D8/5``: the Body of each listed wall or obstacle square, by the square's name."""
    out: dict[str, int] = {}
    for item in (x.strip() for x in re.split(r",\s*|\s+(?=[A-Za-z])", text or "") if x.strip()):
        cells, _, body = item.rpartition("/")
        if not cells or not body.isdigit() or int(body) > 99:
            raise InputError(f"`cover_body`: `{item[:20]}` is not `CELLS/BODY`: write squares and a Body 0-99, like "
                             f"`cover_body=C6/14,D6-D8/5`.")
        for cell in parse_cell_list(cells, _BOARD, _BOARD):
            out[cell.name] = int(body)
    return out


def _squares(text: str) -> frozenset[str]:
    return frozenset(c.name for c in parse_cell_list(text, _BOARD, _BOARD)) if text.strip() else frozenset()


class DgValues(OptionValues):
    """The options' values, typed (`rules.options`)."""

    phases: int
    combat_points: int
    forced_penalty: int
    stand_cost: int
    rough_cost: int
    diagonal: str
    obstacle_body: int
    wall_body: int
    cover_body: dict[str, int]
    environment: str
    haze: str
    smoke: str
    lit: str
    lit_squares: frozenset[str] | None
    area_obstructed: str
    target_flips: str
    gravity: int
    extended_reach: str
    protection: str


OPTIONS = OptionSet(
    int_option("phases", 4, 1, 12, "phases in a round; in each phase the sides alternate activating one model"),
    int_option("combat_points", 2, 0, 20, "Combat Points each model has per round"),
    int_option("forced_penalty", 2, 0, 10, "Accuracy lost per forced Combat Point, cumulative over the round"),
    int_option("stand_cost", 1, 0, 20, "Speed points a prone model spends to stand up at the start of a move"),
    int_option("rough_cost", 1, 0, 20, "extra Speed points to enter a rough, difficult or debris square"),
    choice_option("diagonal", ("yes", "no"), "whether a step may be diagonal (1 Speed point, like a straight step)"),
    int_option("obstacle_body", 5, 0, 99, "Body of an `obstacle` square as cover (soft cover: 4-6)"),
    int_option("wall_body", 10, 0, 99, "Body of a `wall` square as cover (hard cover: 7-12, impenetrable: 13+)"),
    text_option(
        "cover_body", _cover_body, {},
        "the Body of single wall or obstacle squares as cover, overriding `wall_body` and `obstacle_body` there "
        "(soft 4-6, hard 7-12, impenetrable 13+)", "`CELLS/BODY`, comma separated, e.g. `C6/14,D6-D8/5`",
    ),
    choice_option(
        "environment",
        ("clear", *ENVIRONMENTS),
        "the environment's visibility, which changes Reach (`/encounter settings options:\"environment=darkness\"`)",
    ),
    choice_option(
        "haze",
        ("clear", "poor-visibility", "abysmal-visibility"),
        "a second, cumulative factor over `environment` (rain or smoke in the dark)",
    ),
    choice_option(
        "smoke",
        ("poor-visibility", "abysmal-visibility", "blocks"),
        "what a cloud on the attacker's square, the target's or a square a corner line touches does: the text's "
        "`poor-visibility` (\"Rain, smoke or some kind of interference\": Reach +50 % rounded up), thick "
        "`abysmal-visibility` (Reach doubled), or `blocks`: its squares obstruct the corner lines as walls do",
    ),
    choice_option("lit", ("no", "yes"), "whether targets are illuminated (darkness doubles Reach only for unlit targets)"),
    text_option(
        "lit_squares", _squares, None,
        "the illuminated squares: a target on one is lit (darkness doubles Reach only for unlit targets)",
        "cells, e.g. `C4:F6 H2`",
    ),
    choice_option(
        "area_obstructed",
        ("hidden", "partial", "blocked"),
        "which squares an area leaves out behind obstructions, seen from its centre (or, for a corridor or fan, "
        "the attacker): `hidden` two corner lines or more (the text calls A \"obstructed\" so), `partial` one or "
        "more, `blocked` all three",
    ),
    choice_option(
        "target_flips",
        ("sheet", "ask"),
        "who chooses the target's flips when an attack on it has a negative Accuracy: `sheet`, its sheet's `flips=` "
        "(the least harm without one), or `ask`: a player's model whose sheet keeps `flips=least-harm` asks its owner "
        "privately with buttons, and the attack waits for the answer (the turn's reminders go to the owner; a deadline, "
        "if set, takes the least harm)",
    ),
    int_option("gravity", 0, -6, 6, "Gravity X: added to the Power of every attack"),
    choice_option(
        "extended_reach",
        ("no", "yes"),
        "the optional rule: non-melee weapons attack past their Reach at -1 Accuracy per further multiple of it",
    ),
    choice_option(
        "protection",
        ("attack", "location"),
        "how Shield and Body stop hits: `attack`, each stops its value in hits once an attack (the text's "
        "\"damage will be = faces - (Shield + Body)\"), the hits that would harm the target most; `location`, each "
        "stops its value on every location's hits (\"remove as many faces from all grid squares\" read as from each). "
        "Either way Shield stops none on the Shield square and the target's own Body none on the Body square (\"other grid squares\"); cover's Body stops hits there too",
    ),
    into=DgValues,
)


def values(enc: Encounter) -> DgValues:
    """The encounter's options as the rules use them."""
    return OPTIONS.read(enc.settings.options)
