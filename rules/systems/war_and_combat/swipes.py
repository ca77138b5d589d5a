"""Fighters outside a flurry: the free attack (swipe) at a fighter in it, and the interrupt.

The free attack is one thing made at two times: in the flurry phase at the flurry under way
(`swipe`, after its reveal), or in the fighter's own movement step as that phase's quick action
(`free-attack`, "Free Attack" among the quick actions) at a fighter engaged in a flurry to come.

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
  target instead (random location, impact with a low skew die: the pass-through's blow), or where
  the target takes no action (stunned, surprised) by the first fighter in the flurry who can act
  (nobody: no blow);
- the target may defend unless it has no action left or is under an effect with code
  "surprised"; otherwise the swipe is indefensible; only a defence actually made (from the
  front, a guarded flank, fallen or crawling, and not lost to a hold's failed check) spends
  one of its actions; before its flurry (a
  free attack in the movement phase) it has all of its actions, and the one spent is taken off
  its coming flurry's;
- one free attack or swipe a round, whichever comes first;
- a free attack after moving in its movement step: the negotiate task and the blow take the pace's action penalty
  ("Movement rate penalizes actions that require skill rolls"), as a ranged strike does; a swipe in the flurry
  phase takes none (the table is for "Actions During Movement Phase", made "simultaneously with movement");
- an interrupt joins the flurry under way from the same reach + 1 hex, with the same step in: in
  that flurry its blows, and its opponents' at it, reach one hex farther (`flurry_reach`); it
  makes no negotiate task to join; before the reveal it declares with the others, after it its
  declaration is public at once and it rolls its flurry initiative.
"""
from __future__ import annotations

from rules.actions import Act
from rules.dice import Dice
from rules.effects import active
from rules.errors import IllegalAction
from rules.events import Event, Term, mod
from rules.geometry import Grid
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.war_and_combat import flurry, sheet
from rules.systems.war_and_combat.attacks import (
    DEFENDED,
    RESTRICTED_NONE,
    damage,
    defense,
    held_defense,
    moving,
    resolve_hit,
    wielding,
)
from rules.systems.war_and_combat.events import Negotiated
from rules.systems.war_and_combat.rounds import join, settle
from rules.systems.war_and_combat.state import WacCombatant, WacEncounter
from rules.systems.war_and_combat.turns import (
    acting,
    can_act,
    quick_action,
    refuse_if_idle,
    task,
)
from rules.systems.war_and_combat.zones import engaged_with, in_hand, reach_of, wielded
from rules.targets import attack_target

__all__ = ["outside", "within_reach", "swipe", "free_attack", "interrupt"]


def outside(enc: Encounter, c: Combatant | None) -> bool:
    """``c`` may act from outside the flurry under way: standing, neither stunned nor surprised (`refuse_if_idle`), in no
    flurry to come, engaged with nobody."""
    est = WacEncounter.of(enc)
    grid = enc.grid()
    return (c is not None and grid is not None and enc.phase == "flurry" and est.declarations is not None
            and bool(est.flurries) and can_act(enc, c)
            and not any(c.name in g for g in est.flurries) and not engaged_with(enc, grid, c))


def within_reach(enc: Encounter, c: Combatant) -> list[Combatant]:
    """The opponents in the flurry under way within the reach + 1 hex of ``c``'s weapon in hand (none sheathed or
    dropped: it makes no melee attack)."""
    grid = enc.grid()
    held = in_hand(c)
    if grid is None or c.cell is None or held is None:
        return []
    reach = reach_of(held, step_in=True)
    return [o for o in flurry.participants(enc) if o.side != c.side and o.cell is not None
            and grid.distance(c.cell, o.cell) <= reach]


def _outsider(enc: Encounter, grid: Grid, c: Combatant, what: str) -> None:
    if not enc.started:
        raise IllegalAction("Combat has not started: the GM starts it with `/init roll`.")
    est = WacEncounter.of(enc)
    if enc.phase != "flurry" or est.declarations is None or not est.flurries:
        raise IllegalAction(f"{what.capitalize()} is made at a flurry under way, in the flurry phase.")
    if flurry.in_flurry(enc, c):
        raise IllegalAction(f"{c.name} is in the flurry: it fights there with `/attack` when the attack is its.")
    coming = next((g for g in est.flurries[1:] if c.name in g), None)
    if coming is not None:  # engaged in a flurry still to come: it fights there when that flurry begins
        foes = ", ".join(n for n in coming if enc.get(n).side != c.side)
        raise IllegalAction(f"{c.name} is engaged with {foes} (a flurry to come): only a fighter engaged with nobody "
                            f"makes {what}; it fights in its own flurry when that begins.")
    if c.status != "active":
        raise IllegalAction(f"{c.name} cannot act now.")
    refuse_if_idle(enc, c)
    if engaged_with(enc, grid, c):
        raise IllegalAction(f"{c.name} is engaged: only an unengaged fighter makes {what}.")


def swipe(enc: Encounter, opts: OptionValues, grid: Grid, action: Act, words: OptionValues, dice: Dice) -> list[Event]:
    """`/act action:swipe target:X`: the negotiate task, then a free attack (or the target's blow)."""
    c = enc.get(action.actor)
    _outsider(enc, grid, c, "a swipe")
    est = WacEncounter.of(enc)
    assert est.declarations is not None
    if not est.declarations.revealed:
        raise IllegalAction("A swipe comes once the flurry's declarations are revealed.")
    _once(enc, c, "swipe")
    t = attack_target(enc, c, action.target, foe=True)
    if not flurry.in_flurry(enc, t):
        raise IllegalAction(f"{t.name} is not in the flurry under way: swipe at one of "
                            f"{', '.join(o.name for o in flurry.participants(enc) if o.side != c.side)}.")
    events = _strike(enc, opts, grid, c, t, action, words, dice, flurry.participants(enc))
    return events + settle(enc, opts, dice)


def free_attack(enc: Encounter, opts: OptionValues, grid: Grid, action: Act, words: OptionValues, dice: Dice) -> list[Event]:
    """`/act action:free-attack target:X`, the movement phase's quick action: the swipe made in one's own
    step at a fighter engaged in a flurry to come, by one who will be in none."""
    c = acting(enc, action.actor, ("movement",))
    coming = [g for g in flurry.groups(enc) if len({enc.get(n).side for n in g}) > 1]
    if any(c.name in g for g in coming) or engaged_with(enc, grid, c):
        raise IllegalAction(f"{c.name} is engaged: only an unengaged fighter makes a free attack; it fights in the flurry phase.")
    _once(enc, c, "free attack (or swipe)")
    t = attack_target(enc, c, action.target, foe=True)
    group = next((g for g in coming if t.name in g), None)
    if group is None:
        raise IllegalAction(f"{t.name} is engaged in no flurry: a free attack strikes \"a fighter in a flurry\"; "
                            "move into its zone of threat to engage it instead.")
    limit = quick_action(c)
    events = _strike(enc, opts, grid, c, t, action, words, dice, [enc.get(n) for n in group])
    return events + (limit if can_act(enc, c) else [])  # felled or stunned by the blow taken: no points to offer


def _once(enc: Encounter, c: Combatant, what: str) -> None:
    if WacCombatant.of(c).swiped == enc.round:
        raise IllegalAction(f"{c.name} has made its free attack (or swipe) this round: a {what} is once a round.")


def _strike(enc: Encounter, opts: OptionValues, grid: Grid, c: Combatant, t: Combatant, action: Act, words: OptionValues,
            dice: Dice, fighters: list[Combatant]) -> list[Event]:
    """A free attack (or swipe) from outside a flurry at ``t``, one of its ``fighters``: negotiate the space
    (a failure takes ``t``'s blow), then strike; ``t`` defends only with an action left and not surprised."""
    w = wielding(enc, c, action.weapon)
    if w.ranged:
        raise IllegalAction(f"A free attack (or swipe) is a melee blow: a {w.name} shoots with `/attack`.")
    assert c.cell is not None and t.cell is not None
    if grid.distance(c.cell, t.cell) > reach_of(w, step_in=True):
        raise IllegalAction(f"{t.name} is too far: a free attack (or swipe) reaches a fighter within the {w.name}'s "
                            f"reach + 1 hex ({reach_of(w, step_in=True)}); move closer in the movement phase.")
    WacCombatant.of(c).swiped = enc.round
    target = opts.swipe_base + max(sheet.fighter(o) for o in fighters)
    roll = task(c, dice, [mod("named_skill", sheet.skill(c, "tactics"), "tactics"),
                          mod("attribute", sheet.modifier(c, "agl"), "agl"), mod("wounds", sheet.wound_penalty(c)),
                          *moving(enc, c)], target, Term(code="negotiate"))
    # "to avoid being hit": by the target's weapon, or where it takes no action another's swinging in the flurry
    striker = None if roll.success else next((o for o in [t, *fighters] if o.side != c.side and can_act(enc, o)), None)
    other = striker.name if striker is not None and striker is not t else None  # named: not read as the target's
    events: list[Event] = [Negotiated(actor=c.name, what="negotiate", roll=roll, fighters=[o.name for o in fighters],
                                      unswung=not roll.success and striker is None,
                                      striker=other, target=t.name if other else None)]
    if not roll.success:
        return events if striker is None else events + damage(enc, opts, striker, c, wielded(striker), "kill", {}, dice,
                                                                0, low_skew=True)
    defended = _may_defend(enc, opts, t)
    held: list[Event] = []
    level = None
    if defended:
        held, level = held_defense(enc, opts, grid, c, t, False, dice)
        if defense(enc, opts, grid, t, c)[1] in DEFENDED and (level is None or level[1] != RESTRICTED_NONE):
            _spend(enc, t)  # only a defence made spends the action
    return events + held + resolve_hit(enc, opts, grid, c, t, w, "kill", words, dice,
                                       skill=sheet.skill(c, w.name), attr="agl", indefensible=not defended,
                                       target_level=level, extra=moving(enc, c))


def _may_defend(enc: Encounter, opts: OptionValues, t: Combatant) -> bool:
    """"(1) aware of the attack and not surprised; and (2) has not used up all of his actions": whether ``t``
    may defend (in its flurry under way, or before its flurry with the coming flurry's actions)."""
    before = not flurry.in_flurry(enc, t)
    left = flurry.actions_for(enc, opts, t) if before else WacCombatant.of(t).actions
    return left > 0 and active(enc.effects, t.name, "surprised") is None


def _spend(enc: Encounter, t: Combatant) -> None:
    """The action a defence made costs: one of the flurry under way's, or before its flurry one of the coming one's."""
    tst = WacCombatant.of(t)
    if flurry.in_flurry(enc, t):
        tst.actions -= 1
    else:
        tst.lost += 1


def interrupt(enc: Encounter, opts: OptionValues, grid: Grid, action: Act, words: OptionValues, dice: Dice) -> list[Event]:
    """`/act action:interrupt`: join the flurry under way (with `intent=`, `tactic=`... to declare at once)."""
    c = enc.get(action.actor)
    _outsider(enc, grid, c, "an interrupt")
    wielding(enc, c, None)  # a sheathed or dropped weapon joins no flurry, as it makes no swipe
    if not within_reach(enc, c):
        raise IllegalAction(f"{c.name} is too far from the flurry: an interrupt needs an opponent in it within its "
                            f"weapon's reach + 1 hex; move closer in the movement phase.")
    WacCombatant.of(c).interrupted = enc.round  # it steps in to fight: `flurry_reach`
    return join(enc, opts, c, words, dice)
