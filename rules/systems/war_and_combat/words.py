"""The `options:` words of War & Combat's actions and commands, each declared once (`rules.options`):
`/help`, autocomplete and the one reader (`OptionSet.read_words`) come from these."""
from __future__ import annotations

from rules.options import OptionSet, choice_option, flag_word, name_word
from rules.systems.war_and_combat.flurry import GUARDS, TACTICS
from rules.systems.war_and_combat.options import LIMB_SIDES, MISSILE_TARGETS
from rules.systems.war_and_combat.tables import LOCATIONS, SEVERITIES
from rules.systems.war_and_combat.zones import LIMITS

__all__ = ["DECLARE", "WAY", "ARMOUR", "WIELD", "ITEM", "WEAPON", "LIMIT", "SIDE", "ATTACK", "MOVE", "WOUND", "HEAL",
           "SURPRISE"]

#: `declare` and `interrupt`: the intention, the manoeuvre tactic, the guard and the opponent to face
DECLARE = OptionSet(
    name_word("intent", "kill, subdue, disarm, grapple, entangle (as a grapple), tackle, throw or outmanoeuvre",
              accepts="INTENT"),
    choice_option("tactic", TACTICS, "the manoeuvre tactic, applied in the adjustment phase (the default: hold)"),
    choice_option("guard", GUARDS, "front (the default) or flank: defend flank attacks at half the Fighter rank and "
                  "forfeit the front"),
    name_word("face", "the opponent to turn to when several attack you (the default: as you stand, else the nearest; "
              "turning costs -1 Defense)"),
)
WAY = OptionSet(choice_option("way", ("cw", "ccw"), "cw (clockwise, the default) or ccw"))
ARMOUR = OptionSet(name_word("armour", "padded, leather, scale, mail or plate", bare=True, accepts="ARMOUR"))
WIELD = OptionSet(
    name_word("weapon", "the weapon", bare=True, accepts="WEAPON"),
    name_word("hand", "right or left: the hand to hold it in", accepts="right|left"),
)
ITEM = OptionSet(name_word("item", "the item: a weapon, or shield", bare=True, accepts="ITEM"))
WEAPON = OptionSet(name_word("weapon", "the weapon (the one in hand by default)", bare=True, accepts="WEAPON"))
LIMIT = OptionSet(choice_option("limit", (*LIMITS, "full"), "the hexes of the zone of threat kept", bare=True))
#: the arm or leg an arm or leg hit strikes (the default: option `limb_side`)
SIDE = OptionSet(choice_option("side", LIMB_SIDES, "the arm or leg an arm or leg hit strikes (the default: option `limb_side`)"))
#: `/attack` and `/coupdegrace`
ATTACK = OptionSet(
    *SIDE.options,
    choice_option("target", tuple(MISSILE_TARGETS), "a missile's target: how it moves and what it knows "
                  "(the default: option `missile_target`)"),
    name_word("aim", "a called shot at a location or sub-location, at point blank or short range", accepts="LOCATION"),
)
#: `/move`
MOVE = OptionSet(
    flag_word("keep", "keep the facing while stepping into a flank or rear hex"),
    flag_word("pass", "try to pass through an enemy's zone of threat to a hex outside every zone"),
    name_word("via", "another of the obstacles table's actions for the obstacle on the way, e.g. `via=dive-under`",
              accepts="ACTION"),
)
#: the GM's `damage`: a wound
WOUND = OptionSet(
    choice_option("severity", SEVERITIES, "how bad the wound is", bare=True),
    choice_option("location", LOCATIONS, "where", bare=True),
    choice_option("side", LIMB_SIDES, "an arm's or leg's side (the default: option `limb_side`)", bare=True),
    choice_option("nature", ("blunt", "penetrating"), "blunt (the default) or penetrating: the text's B or P", bare=True),
)
#: the GM's `heal`
HEAL = OptionSet(
    choice_option("location", LOCATIONS, "where", bare=True),
    choice_option("side", LIMB_SIDES, "an arm's or leg's side (the default: option `limb_side`)", bare=True),
    choice_option("severity", SEVERITIES, "only a wound this bad (the default: the worst)", bare=True),
    flag_word("all", "every wound there"),
)
SURPRISE = OptionSet(name_word("side", "every fighter of this side", accepts="SIDE"))
