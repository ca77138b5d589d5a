"""Fighters outside a flurry: the free attack (swipe) at a fighter in it, and the interrupt.

"Unengaged figures may interrupt flurries, or attempt to make a free attack (or swipe) at a
fighter in a flurry without entering the flurry himself. ... The unengaged fighter must
negotiate the space around the combatants to avoid being hit. This is a task modified by the
tactics skill and agility. A strike against an engaged fighter from someone outside the flurry
can only be defended against if the target is (1) aware of the attack and not surprised; and
(2) has not used up all of his actions."

Where the text is silent (the project's defaults):
- who: a fighter in no flurry this round and engaged with nobody, whose target in the flurry
  under way stands within its melee weapon's reach + 1 hex (a step in, a blow, a step out);
  a swipe once its declarations are revealed, one a round;
- the negotiate task: 3d6 + Tactics + Agility modifier + wound penalties must exceed
  `swipe_base` (10) + the highest Fighter rank in the flurry; a failure is struck by the
  target instead (random location, impact with a low skew die: the pass-through's blow);
- the target defends (spending one of its actions) unless it has none left or is under an
  effect with code "surprised"; otherwise the swipe is indefensible;
- an interrupt joins the flurry under way: before the reveal it declares with the others,
  after it its declaration is public at once and it rolls its flurry initiative.
"""
from __future__ import annotations

from rules.actions import Act
from rules.dice import Dice
from rules.effects import active
from rules.errors import IllegalAction
from rules.events import Checked, Event
from rules.geometry import Grid
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.war_and_combat import flurry, sheet
from rules.systems.war_and_combat.attacks import damage, foe, held_defense, resolve_hit, wielding
from rules.systems.war_and_combat.rounds import enc_state, roll_of, stunned
from rules.systems.war_and_combat.task import task_roll
from rules.systems.war_and_combat.zones import engaged_with, wielded

__all__ = ["outside", "within_reach", "swipe", "interrupt"]


def outside(enc: Encounter, c: Combatant | None) -> bool:
    """``c`` may act from outside the flurry under way: standing, not stunned, in no flurry to come, engaged with nobody."""
    est = enc_state(enc)
    grid = enc.grid()
    return (c is not None and grid is not None and enc.phase == "flurry" and est.declarations is not None
            and bool(est.flurries) and c.status == "active" and not stunned(enc, c)
            and not any(c.name in g for g in est.flurries) and not engaged_with(enc, grid, c))


def within_reach(enc: Encounter, c: Combatant) -> list[Combatant]:
    """The opponents in the flurry under way within ``c``'s weapon reach + 1 hex."""
    grid = enc.grid()
    reach = wielded(c).reach + 1
    if grid is None or c.cell is None:
        return []
    return [o for o in flurry.participants(enc) if o.side != c.side and o.cell is not None
            and grid.distance(c.cell, o.cell) <= reach]


def _outsider(enc: Encounter, grid: Grid, c: Combatant, what: str) -> None:
    if not enc.started:
        raise IllegalAction("Combat has not started: the GM starts it with `/init roll`.")
    est = enc_state(enc)
    if enc.phase != "flurry" or est.declarations is None or not est.flurries:
        raise IllegalAction(f"A {what} is made at a flurry under way, in the flurry phase.")
    if any(c.name in g for g in est.flurries):
        raise IllegalAction(f"{c.name} is in the flurry: it fights there with `/attack` when the attack is its.")
    if c.status != "active" or stunned(enc, c):
        raise IllegalAction(f"{c.name} cannot act now.")
    if engaged_with(enc, grid, c):
        raise IllegalAction(f"{c.name} is engaged: only an unengaged fighter makes a {what}.")


def swipe(enc: Encounter, opts: OptionValues, grid: Grid, action: Act, dice: Dice) -> list[Event]:
    """`/act action:swipe target:X`: the negotiate task, then a free attack (or the target's blow)."""
    c = enc.get(action.actor)
    _outsider(enc, grid, c, "swipe")
    est, st = enc_state(enc), sheet.state(c)
    assert est.declarations is not None
    if not est.declarations.revealed:
        raise IllegalAction("A swipe comes once the flurry's declarations are revealed.")
    if st.swiped == enc.round:
        raise IllegalAction(f"{c.name} has made its swipe this round: a swipe is once a round.")
    t = foe(enc, c, action.target)
    if not flurry.in_flurry(enc, t):
        raise IllegalAction(f"{t.name} is not in the flurry under way: swipe at one of "
                            f"{', '.join(o.name for o in flurry.participants(enc) if o.side != c.side)}.")
    w = wielding(enc, c, action.weapon)
    if w.ranged:
        raise IllegalAction(f"A swipe is a melee blow: a {w.name} shoots in the movement and adjustment phases.")
    assert c.cell is not None and t.cell is not None
    if grid.distance(c.cell, t.cell) > w.reach + 1:
        raise IllegalAction(f"{t.name} is too far: a swipe reaches a fighter within the {w.name}'s reach + 1 hex "
                            f"({w.reach + 1}); move closer in the movement phase.")
    st.swiped = enc.round
    target = opts.swipe_base + max(sheet.fighter(o) for o in flurry.participants(enc))
    with dice.rolling_for(c.name):
        r = task_roll(dice)
    roll = roll_of(r, "3d6", [("tactics", sheet.skill(c, "tactics")), ("AGL", sheet.modifier(c, "agl")),
                              ("wounds", sheet.wound_penalty(c))], target, "negotiate")
    events: list[Event] = [Checked(actor=c.name, what="negotiate", roll=roll)]
    if not roll.success:  # "to avoid being hit"
        events += damage(enc, opts, t, c, wielded(t), "kill", {}, dice, 0, low_skew=True)
        return events + flurry.settle(enc, opts, dice)
    tst = sheet.state(t)
    defended = tst.actions > 0 and active(enc.effects, t.name, "surprised") is None
    held: list[Event] = []
    level = None
    if defended:
        tst.actions -= 1
        held, level = held_defense(enc, opts, grid, c, t, False, dice)
    events += held + resolve_hit(enc, opts, grid, c, t, w, "kill", action.options, dice, skill=sheet.skill(c, w.name),
                                 attr="agl", indefensible=not defended, target_level=level)
    return events + flurry.settle(enc, opts, dice)


def interrupt(enc: Encounter, opts: OptionValues, grid: Grid, action: Act, dice: Dice) -> list[Event]:
    """`/act action:interrupt`: join the flurry under way (with `intent=`, `tactic=`... to declare at once)."""
    c = enc.get(action.actor)
    _outsider(enc, grid, c, "interrupt")
    if not within_reach(enc, c):
        raise IllegalAction(f"{c.name} is too far from the flurry: an interrupt needs an opponent in it within its "
                            f"weapon's reach + 1 hex; move closer in the movement phase.")
    return flurry.join(enc, opts, c, action.options, dice)
