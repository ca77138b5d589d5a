"""TOTE's encounter options, declared once (`rules.options`)."""
from __future__ import annotations

from typing import Literal

from rules.models import Encounter
from rules.options import (
    OptionSet,
    OptionValues,
    choice_option,
    int_option,
    yes_no_option,
)
from rules.systems.tote.tables import BANDS

__all__ = ["OPTIONS", "ToteValues", "opts"]


class ToteValues(OptionValues):
    """The options' values, typed (`rules.options`)."""

    #: the bands, as `tables.BANDS` lists them
    distance: Literal["melee", "close", "far"]
    init_target: int
    extra_successes: bool
    critical_successes: int
    damage_per_success: int
    injury_bars: bool
    assault_bonus: int
    defend_penalty: int
    unengaged_gain: int
    first_round_gain: bool
    shot_engages: bool
    into_melee: str
    melee_move_cost: int
    intimidate_base: int
    escape_base: int
    grapple_damage: int
    coup_de_grace_cost: int
    victory: str


OPTIONS = OptionSet(
    choice_option(
        "distance",
        BANDS,
        "the starting distance: melee, close or far; the GM changes it in a fight with `/act action:distance`",
    ),
    int_option("init_target", 8, 0, 99, "target of the starting initiative test (a T8 Plan test)"),
    yes_no_option(
        "extra_successes", True, "yes: each other keepable skill die that also meets the target adds a success; no: one at most"
    ),
    int_option("critical_successes", 1, 0, 99, "successes a critical (kept die = Paragon die) adds to a passed test (0 turns it off)"),
    int_option("damage_per_success", 1, 0, 99, "boxes each success beyond the first adds to damage"),
    yes_no_option("injury_bars", True, "yes: the number of a filled injury box cannot be kept on a skill die; no: injuries never bar dice"),
    int_option("assault_bonus", 2, 0, 99, "to-hit bonus of an Assault and of the foe's return attack"),
    int_option("defend_penalty", 2, 0, 99, "penalty on attacks against a defender that round (2: To-Hit 8 becomes 10)"),
    int_option("unengaged_gain", 1, 0, 99, "initiative every unengaged combatant gains at the start of a melee round"),
    yes_no_option(
        "first_round_gain",
        True,
        "yes: the unengaged gain also comes at the start of the first melee round, as the text says; "
        "no: the starting initiative counts as the first round's",
    ),
    yes_no_option(
        "shot_engages",
        False,
        "yes: a Shoot's damage engages the pair too (\"once a foe has done damage to you\"); "
        "no: only melee damage engages, as an unengaged combatant is one that \"neither dealt nor received melee damage\"",
    ),
    choice_option(
        "into_melee",
        ("movers", "everyone"),
        "movers: when melee rounds begin, only the pairs a move brought into melee are in it, the others keep their "
        "distance (\"Combatants that move from Close go into Melee Rounds\"); everyone: every pair of foes is in melee",
    ),
    int_option(
        "melee_move_cost", 0, 0, 99,
        "initiative a Move costs in a melee round, for one not in melee with any foe (the melee-round table has no Move)",
    ),
    int_option("intimidate_base", 7, 0, 99, "Intimidate target: this + the foe's Rating, or a hero's Stag"),
    int_option("escape_base", 7, 0, 99, "Escape Foes target: this + the highest foe Rating, a hero counting its Hawk"),
    int_option("grapple_damage", 1, 0, 99, "boxes a successful Grapple marks before extra successes"),
    int_option("coup_de_grace_cost", 1, 0, 99, "initiative a coup-de-grace costs; it takes an unconscious foe out of the fight"),
    choice_option(
        "victory", ("downed", "out"), "downed: a side with nobody conscious has lost; out: only when all of it is out"
    ),
    into=ToteValues,
)


def opts(enc: Encounter) -> ToteValues:
    """The encounter's options as the rules use them (read once per distinct set of values)."""
    return OPTIONS.read(enc.settings.options)
