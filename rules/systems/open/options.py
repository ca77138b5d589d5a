"""The encounter options of the open system, each declared once (`rules.options`)."""
from __future__ import annotations

from rules.options import (
    AUTO_END,
    AutoEndValues,
    OptionSet,
    choice_option,
    yes_no_option,
)

__all__ = ["OPTIONS", "OpenValues"]


class OpenValues(AutoEndValues):
    """The options' values, typed (`rules.options`)."""

    crit: bool
    fumble: bool
    diagonals: str
    death_saves: bool
    death_save_roll: str
    massive_damage: bool
    victory: str
    gm_at_zero: str
    group_init: bool
    opportunity: bool
    cover: str
    corner: str


OPTIONS = OptionSet(
    yes_no_option("crit", True, "whether a natural 20 always hits and doubles the damage dice"),
    yes_no_option("fumble", True, "whether a natural 1 always misses"),
    choice_option(
        "diagonals", ("5", "alternate", "10"),
        "what a diagonal step costs on a square map: `5` ft, `alternate` (5 ft, then 10 ft, and so on) or `10` ft",
    ),
    yes_no_option("death_saves", True, "whether a player's combatant at 0 HP is down and makes death saves "
                  "(`no`: it is out, like the GM's)"),
    choice_option("death_save_roll", ("player", "bot"),
                  "who rolls a dying player's combatant's death save: `player`: its turn waits for its owner's "
                  "`/act action:death-save` (`roll:` types their own d20), and ending the turn (`/init next`, the End turn "
                  "button, the deadline) rolls it for them; `bot`: the bot rolls it as its turn begins and the turn passes on"),
    yes_no_option("massive_damage", True, "whether damage left over at 0 HP that reaches the combatant's hit point "
                  "maximum kills it outright (no death saves)"),
    choice_option("gm_at_zero", ("out", "down"), "what the GM's combatants are at 0 HP: `out` of the fight, or "
                  "`down` (helpless, no death saves)"),
    choice_option("victory", ("settled", "downed"),
                  "when a side has lost: `settled`: once nobody of it can act and none of it is still making death saves "
                  "(each is stable or dead), the foes acting on meanwhile; `downed`: as soon as nobody of it can act"),
    yes_no_option("group_init", False, "whether numbered copies (`/combatant add count:`) share one initiative roll"),
    yes_no_option("opportunity", True, "whether leaving a hostile's reach provokes an opportunity attack"),
    choice_option(
        "cover", ("corners", "centre"),
        "how walls give cover on a square map: `corners`: lines from the attacker's corner to the target's "
        "(1 line blocked half, 2 three-quarters, 3 total cover); `centre`: the centre line (blocked: total cover; "
        "grazing a wall's corner: half). Hex maps use the centre line",
    ),
    choice_option(
        "corner", ("open", "blocks", "either"),
        "on the centre line, a wall corner it passes exactly through: `open` gives half cover, `blocks` total cover, "
        "`either` total only with walls on both sides",
    ),
    AUTO_END,
    into=OpenValues,
)
