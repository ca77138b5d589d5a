"""The encounter options of the damage-grid game, each declared once (`rules.options`).

Every default of shared/rules/README.md (4 phases a round, 2 Combat Points, the -2 Accuracy per
forced Combat Point) and every choice made where the text is silent is an option here; the rules
read them as ``values(enc).name``.
"""
from __future__ import annotations

from rules.models import Encounter
from rules.options import OptionSet, OptionValues, choice_option, int_option

__all__ = ["OPTIONS", "ENVIRONMENTS", "values"]

#: the text's environmental factors, each changing Reach ("Factors are cumulative")
ENVIRONMENTS = ("darkness", "total-darkness", "brightness", "extreme-brightness", "poor-visibility", "abysmal-visibility")

OPTIONS = OptionSet(
    int_option("phases", 4, 1, 12, "phases in a round; in each phase the sides alternate activating one model"),
    int_option("combat_points", 2, 0, 20, "Combat Points each model has per round"),
    int_option("forced_penalty", 2, 0, 10, "Accuracy lost per forced Combat Point, cumulative over the round"),
    int_option("stand_cost", 1, 0, 20, "Speed points a prone model spends to stand up at the start of a move"),
    int_option("rough_cost", 1, 0, 20, "extra Speed points to enter a rough, difficult or debris square"),
    choice_option("diagonal", ("yes", "no"), "whether a step may be diagonal (1 Speed point, like a straight step)"),
    int_option("obstacle_body", 5, 0, 99, "Body of an `obstacle` square as cover (soft cover: 4-6)"),
    int_option("wall_body", 10, 0, 99, "Body of a `wall` square as cover (hard cover: 7-12, impenetrable: 13+)"),
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
    choice_option("lit", ("no", "yes"), "whether targets are illuminated (darkness doubles Reach only for unlit targets)"),
    choice_option(
        "area_obstructed",
        ("hidden", "partial", "blocked"),
        "which squares an area leaves out behind obstructions, seen from its centre (or, for a corridor or fan, "
        "the attacker): `hidden` two corner lines or more (the text calls A \"obstructed\" so), `partial` one or "
        "more, `blocked` all three",
    ),
    int_option("gravity", 0, -6, 6, "Gravity X: added to the Power of every attack"),
    choice_option(
        "extended_reach",
        ("no", "yes"),
        "the optional rule: non-melee weapons attack past their Reach at -1 Accuracy per further multiple of it",
    ),
)


def values(enc: Encounter) -> OptionValues:
    """The encounter's options as the rules use them."""
    return OPTIONS.read(enc.settings.options)
