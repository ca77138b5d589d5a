"""The War & Combat options: the defaults of shared/rules/README.md and the project's readings
where the text is silent, each overridable by the GM (`/encounter settings options:"..."`)."""
from __future__ import annotations

from rules.options import (
    OptionSet,
    OptionValues,
    choice_option,
    int_option,
    yes_no_option,
)
from rules.systems.war_and_combat.catalogue import SKILLS

__all__ = ["OPTIONS", "WacValues", "MISSILE_TARGETS", "INITIATIVE_FIELDS", "ATTRIBUTES", "LIMB_SIDES"]

#: what `initiative` may add in place of the Fighter rank (non-combat initiative)
ATTRIBUTES = ("str", "agl", "dex")
INITIATIVE_FIELDS = ("fighter", *SKILLS, *ATTRIBUTES)

#: the sides an arm or leg is on: an arm or leg hit strikes one (`limb_side`, `side=`)
LIMB_SIDES = ("left", "right")

#: the `missile_target` words -> the rows of MOVING TARGET MODIFIERS
MISSILE_TARGETS = {
    "moving": "unaware, moving",
    "unmoving": "unaware and unmoving",
    "erratic": "unaware, moving erratically",
    "evading": "aware, evading",
}

class WacValues(OptionValues):
    """The options' values, typed (`rules.options`)."""

    tactics_skew: bool
    limb_side: str
    missile_target: str
    rear_defense: int
    shock_stun: int
    death_base: int
    death_step: int
    action_every: int
    check_target: int
    critical_every: int
    initiative: str
    swipe_base: int
    armour_rounds: int
    close_missile: str
    declare: str
    net_movement: str
    sprint_points: int
    polearm_limit: str
    quick_movement: str
    collapse: bool
    down_agility: bool
    polearm_gap: str
    disabled_limbs: str
    initiative_open: bool


OPTIONS = OptionSet(
    yes_no_option("tactics_skew", False, "the side with the better Tactics rolls initiative with a high skew die (the text's optional rule, off unless the GM turns it on)"),
    choice_option("limb_side", LIMB_SIDES, "the side an arm or leg hit strikes unless the attacker says (`side=right`): a right-hander's blow hits the left"),
    choice_option("missile_target", tuple(MISSILE_TARGETS), "how a missile's target moves unless the shooter says (`target=...`): the moving target table's row"),
    int_option("rear_defense", 3, 0, 30, "the Defense of a fighter attacked from the rear or with an indefensible attack (\"no defense\"; 3 as the helpless)"),
    int_option("shock_stun", 5, 1, 30, "failing the shock check by this much or more also stuns for 1 round"),
    int_option("death_base", 10, 0, 40, "a death check (3d6 + Strength modifier) must beat this + `death_step` per mortal wound"),
    int_option("death_step", 3, 0, 20, "added to the death check's target per mortal wound"),
    int_option("action_every", 5, 1, 30, "a flurry's actions are 2, +1 for every this many Fighter ranks"),
    int_option("check_target", 10, 0, 40, "the target of obstacle, stumble and pass-through rolls, where the text gives none"),
    int_option("critical_every", 5, 1, 20, "an attack this much over Defense is critical, with an extra impact die per this much"),
    choice_option("initiative", INITIATIVE_FIELDS, "what each round's initiative adds to 3d6 for both sides: the Fighter rank, or for non-combat initiative a skill or an attribute's modifier"),
    int_option("swipe_base", 10, 0, 40, "a swipe's negotiate task (3d6 + Tactics + Agility modifier) must beat this + the highest Fighter rank in the flurry"),
    int_option("armour_rounds", 2, 2, 20, "rounds to don or shed armour, a lengthy action (\"more than one round\"): done at the start of the round this many later"),
    choice_option("close_missile", ("defense", "archery"), "a shot at point blank range at an aware (`target=evading`) target: `defense`, \"confrontational just like a mêlée attack\" (3d6 + skill + DEX must exceed its Defense); `archery`: the moving target table (15 + Defense + range) as at any range"),
    choice_option("declare", ("public", "hidden"), "the flurry's procedure: `public` as the text orders it (\"1. Roll for Flurry Initiative 2. Declare Intention\": the attacker declares first, openly, and each defender responds in flurry-initiative order); `hidden`: all declare at once, hidden until all have, then initiative"),
    choice_option("net_movement", ("winner", "each"), "who applies a manoeuvre tactic after a flurry: `winner`, the one \"winning the most and best successes\" (most hits, then the best margin; a tie: nobody); `each`: every fighter its own declared tactic"),
    int_option("sprint_points", 10, 9, 30, "a sprint's movement points a round (`pace=sprint`): the text gives a sprint its action penalty (−5) but no rate; more than a run's 8"),
    choice_option("polearm_limit", ("dropped", "kept"), "a polearm wielder limiting its zone of threat (`/act action:limit`): which obstructed hexes \"the corresponding obstructed hex(es) is considered unobstructed\" frees: `dropped`, those on the side of the threat hexes given up (the shaft still lies before the kept); `kept`, those before the hexes still threatened"),
    choice_option("quick_movement", ("half", "full"), "how far a fighter moves in a phase with a quick action (`stand`, `wield`, `pickup`, `free-attack`, a coup-de-grâce), which \"can be done with limited movement\": `half`, at most half the phase's movement points (rounded up; one who has spent more takes it in the next phase, and after it the points left are cut to what is left of the half); `full`: no limit"),
    yes_no_option("collapse", True, "a step onto `treacherous` ground asks the GM whether it collapses (\"according to GM's design\"); `no`: it never does"),
    yes_no_option("down_agility", False, "the Agility modifier is added to the Defense of a stunned (\"Base 5 + half Fighter rank\"), fallen or crawling (\"base Defense of 5, then adds Fighter rank\") fighter: `no`, the parts the text names only"),
    choice_option("polearm_gap", ("refused", "obstructed"), "a polearm's blow at a foe one hex off, in the gap its zone of threat leaves (\"The space between the zone of threat and the fighter is considered obstructed\"): `refused`, the head strikes only its zone of threat; `obstructed`: allowed at the text's \"+5 to task target level if the target is obstructed\" (−5 on the roll)"),
    choice_option("disabled_limbs", ("unusable", "table"), "what a disabled limb (a critical arm, leg or belly wound) does at once: `unusable`, \"can no longer be used\": a disabled arm drops what it holds at its feet and a disabled leg fells the fighter (milder wounds already do so); `table`: only what the wound effects table's row names"),
    yes_no_option("initiative_open", False, "the text's plain \"rolls 3d6 and adds his Fighter rank\"; `yes`: a natural 18 (or 3) on initiative or flurry initiative rolls 3d6 again and adds the excess over 10 (takes off the shortfall below 10), as every task roll"),
    into=WacValues,
)
