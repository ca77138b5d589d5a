"""Attacks: the strike in a flurry, what every blow and shot shares (Defense, the weapon in hand, the hit, damage,
wounds and their effects, the combat options), and the coup-de-grâce; ranged strikes are `missiles.py`.

Resolution of an attack: 3d6 + weapon skill + Agility modifier + action penalties must EXCEED
the Defense (Fighter rank + Agility modifier + 10, + shield from the front; -1 when the
defender had to turn to face; half the Fighter rank from a flank; no defense from the rear or
against an indefensible attack). 5 or more over is critical, with an extra impact die per 5.
Then the hit location (3d6), the impact dice of the Impact Cap (Strength + the weapon's impact
modifier), absorption and penetration, the severity against the size's thresholds, and the
wound's effect with its roll. Dice in that order.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.actions import Attack, CoupDeGrace
from rules.dice import Dice
from rules.effects import active, modifiers
from rules.errors import IllegalAction, InputError
from rules.events import Checked, Event, Modifier, Roll, Term, mod
from rules.geometry import Grid
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.war_and_combat import flurry, limbs, sheet
from rules.systems.war_and_combat.catalogue import Weapon
from rules.systems.war_and_combat.catalogue import weapon as catalogue_weapon
from rules.systems.war_and_combat.events import EffectTaken, Struck, WacAttacked
from rules.systems.war_and_combat.options import LIMB_SIDES
from rules.systems.war_and_combat.rounds import after_attack
from rules.systems.war_and_combat.state import LIMBS, WacCombatant, WoundRecord
from rules.systems.war_and_combat.tables import (
    FALLEN,
    HELPLESS,
    STUNNED,
    hit_location,
    impact_dice,
    wound,
    wound_effect,
)
from rules.systems.war_and_combat.tables_missile import (
    missile_hit_location,
)
from rules.systems.war_and_combat.tables_movement import pace_penalty
from rules.systems.war_and_combat.tables_options import combat_option, secondary_effect
from rules.systems.war_and_combat.turns import (
    acting,
    fall,
    lowered,
    quick_action,
    set_status,
    slowed,
    stopped,
    stun,
    stunned,
    surprised,
    task,
)
from rules.systems.war_and_combat.zones import engaged_with, in_hand, reach_of, wielded
from rules.targets import attack_target

#: the Defenses (``defense``'s rule) of a defence actually made: the others are no defence (rear, unguarded
#: flank, surprised, helpless, indefensible) or a stunned one's, who takes no action
DEFENDED = frozenset({"front", "flank", "fallen", "crawling"})

#: the Defenses ``defense`` adjusts (turned, pinned, effects); the others are fixed numbers
ADJUSTED = frozenset({"front", "flank", "stunned", "fallen", "crawling"})

#: what an attack is against where it is a Defense: ``defense`` (its rule in ``args``), the Defense of a
#: held fighter who won its Restrict check, a held fighter's whose check failed (no defence), and a
#: point-blank shot's at an aware target (option `close_missile`)
DEFENSE_TERMS = frozenset({"defense", "defense_restricted", "restricted_none", "defense_aware", "defense_aware_melee"})

#: what a held fighter whose Restrict check failed defends with: no defence
RESTRICTED_NONE = Term(code="restricted_none")

#: how far short of the Defense a missed strike is a parry, block or dodge ("within three points or so")
PARRIED_WITHIN = 2

__all__ = ["DEFENDED", "DEFENSE_TERMS", "RESTRICTED_NONE", "PARRIED_WITHIN", "moving", "defense", "attack", "coup_de_grace", "cdg_ready", "damage", "inflict", "downed", "restricted", "restrict_check", "held_defense", "break_free", "resolve_hit", "carried", "wielding", "defense_term"]


def _arc(grid: Grid, defender: Combatant, attacker: Combatant) -> str:
    if defender.cell is None or attacker.cell is None or not defender.facing:
        return "front"
    steps = grid.turn_steps(defender.facing, grid.facing_towards(defender.cell, attacker.cell))
    return "front" if steps <= 1 else "flank" if steps == 2 else "rear"


def defense(enc: Encounter, opts: OptionValues, grid: Grid, target: Combatant, attacker: Combatant | None,
            indefensible: bool = False) -> tuple[int, str]:
    """The target's Defense against ``attacker`` and the rule it came from (a code: ``front``,
    ``flank_unguarded``...)."""
    st = WacCombatant.of(target)
    rank, agl = sheet.fighter(target), sheet.modifier(target, "agl")
    if st.unconscious or st.immobile:
        return HELPLESS.value(rank, agl), "helpless"
    down = stunned(enc, target)
    if indefensible and not down:  # a stunned fighter's Defense is its own rule: "lose half their Defense"
        return opts.rear_defense, "indefensible"
    if surprised(enc, target):  # "can only be defended against if the target is ... not surprised"
        return opts.rear_defense, "surprised"
    arc = _arc(grid, target, attacker) if attacker is not None else "front"
    if arc == "rear":
        return opts.rear_defense, "rear"
    guard = flurry.guard_of(enc, target)  # "only if the defender forfeits his defenses from the front hexes"
    if arc == "flank" and guard != "flank":
        return opts.rear_defense, "flank_unguarded"
    if arc == "front" and guard == "flank":
        return opts.rear_defense, "front_forfeited"
    lowered = down_defense(enc, opts, target)
    if lowered is not None:
        value, why = lowered
    elif arc == "flank":
        value, why = 10 + rank // 2 + agl, "flank"
    else:
        value, why = 10 + rank + agl + limbs.shield(enc, target), "front"
    return value + sum(n for _, n in _adjustments(enc, target)), why


def down_defense(enc: Encounter, opts: OptionValues, target: Combatant) -> tuple[int, str] | None:
    """The Defense of a stunned, fallen or crawling ``target`` (that rule's code), or None: stunned "Base 5 + half
    Fighter rank", fallen or crawling "a base Defense of 5, then adds Fighter rank"; with the Agility modifier
    too where option `down_agility` adds it."""
    st = WacCombatant.of(target)
    down = stunned(enc, target)
    if not (down or st.fallen or limbs.crawling(target)):
        return None
    rank, agl = sheet.fighter(target), sheet.modifier(target, "agl")
    return lowered(STUNNED if down else FALLEN, opts, rank, agl), "stunned" if down else "fallen" if st.fallen else "crawling"


def _adjustments(enc: Encounter, target: Combatant) -> list[tuple[str, int]]:
    """What changes a Defense made (front, flank, stunned, fallen, crawling): turned to face an attacker (-1 for the
    flurry), pinned against something impassable (-1), and effects (`defense+2`: ``+2 Shield``), each a code (or the
    words) and its amount."""
    out = [("turned", -1)] if WacCombatant.of(target).turned else []
    if active(enc.effects, target.name, "pinned") is not None:
        out.append(("pinned", -1))
    for m in modifiers(enc.effects, target.name, "defense"):  # each effect by its name, as an attack's are
        out.append((f"{'−' if m.value < 0 else '+'}{abs(m.value)} {m.args[0]}", m.value))  # the presenter's minus
    return out


def defense_term(enc: Encounter, target: Combatant, why: str, restricted: bool = False) -> Term:
    """The `Term` of a Defense from its rule ``why`` (a held fighter's who won its Restrict check when
    ``restricted``), naming the adjustments in it ("Defense (front, -1 turned to face) 12")."""
    args: list[str | int] = [why, *(name for name, _ in (_adjustments(enc, target) if why in ADJUSTED else []))]
    return Term(code="defense_restricted", args=args) if restricted else Term(code="defense", args=args)


def carried(c: Combatant, name: str | None) -> Weapon:
    """The weapon ``c`` strikes with: the one named (it must carry it, unbroken), else the one in hand."""
    w = catalogue_weapon(name) if name else wielded(c)
    if WacCombatant.of(c).sheathed and not w.ranged:
        raise IllegalAction(f"{c.name}'s {w.name} is sheathed: draw it with `/act action:wield options:\"{w.name}\"` "
                            "in a movement or adjustment step (a quick action).")
    if w.name in WacCombatant.of(c).dropped:
        where = WacCombatant.of(c).dropped_at.get(w.name)
        raise IllegalAction(f"{c.name} has dropped its {w.name}{f' (it lies at {where})' if where else ''}: pick it up "
                            f"with `/act action:pickup options:\"{w.name}\"` standing there in a movement or adjustment "
                            "step, or draw another in one (`/act action:wield`).")
    if not name:
        return w
    if w.name not in {x.name for x in sheet.weapons(c)}:
        raise InputError(f"{c.name} carries no {w.name}: it has {', '.join(x.name for x in sheet.weapons(c))}.")
    if w.name in WacCombatant.of(c).broken:
        raise IllegalAction(f"{c.name}'s {w.name} is broken: attack with another weapon.")
    return w


def wielding(enc: Encounter, c: Combatant, name: str | None, *, melee: bool = True, doing: str = "striking with it") -> Weapon:
    """The weapon ``c`` strikes with now (named, or the one in hand), refused when it lies on the ground (that
    first: no other hand takes it up there) or its arms cannot wield it. A blow, a shot, an aim or a load (``doing``)
    is made only with the weapon in hand: another carried is drawn first ("Draw Weapon", a quick action of a movement
    phase). A ``melee`` blow named with a missile weapon passes here: its caller refuses it for what it is."""
    w = carried(c, name)
    held = in_hand(c)
    if not (melee and w.ranged) and (held is None or w.name != held.name):
        now = f"has the {held.name} in hand, not the {w.name}" if held is not None else f"does not have the {w.name} in hand"
        raise IllegalAction(f"{c.name} {now}: draw it with `/act action:wield "
                            f"options:\"{w.name}\"` in a movement or adjustment step (a quick action) before {doing}.")
    limbs.arm_ready(enc, c)
    limbs.hands_ready(enc, c, w)
    return w


def moving(enc: Encounter, c: Combatant) -> list[Modifier]:
    """"Movement rate penalizes actions that require skill rolls" (ACTION PENALTY BY PACE): the pace's penalty,
    once ``c`` has moved in this movement or adjustment phase (a ranged strike, a free attack's negotiate task and its
    blow). The table is under "Actions During Movement Phase" ("Actions of non-engaged combatants occur simultaneously
    with movement"): a swipe in the flurry phase is made standing, whatever the fighter walked before it."""
    moved = enc.phase in ("movement", "adjustment") and WacCombatant.of(c).moved
    return [mod("moving", pace_penalty(sheet.pace(c)))] if moved else []


def _side(opts: OptionValues, words: Mapping[str, Any]) -> str:
    side = str(words.get("side") or opts.limb_side).lower()
    if side not in LIMB_SIDES:
        raise InputError("`side` is `left` or `right` (the arm or leg an arm or leg hit strikes).")
    return side


def attack(enc: Encounter, opts: OptionValues, grid: Grid, action: Attack, words: OptionValues, dice: Dice) -> list[Event]:
    """`/attack` in the flurry phase: a strike (in the movement or adjustment phase, a ranged strike:
    `missiles.shoot`)."""
    c = acting(enc, action.actor, ("flurry",))
    return _strike(enc, opts, grid, c, action, words, dice)


def _strike(enc: Encounter, opts: OptionValues, grid: Grid, c: Combatant, action: Attack, words: OptionValues,
            dice: Dice) -> list[Event]:
    t = attack_target(enc, c, action.target, foe=True)
    if not flurry.in_flurry(enc, t):
        raise IllegalAction(f"{t.name} is not in this flurry: attack one of {', '.join(o.name for o in flurry.opponents(enc, c))}.")
    w = wielding(enc, c, action.weapon)
    if w.ranged:
        raise IllegalAction(f"A {w.name} shoots in the movement and adjustment phases, not in a flurry: strike with a melee weapon.")
    reach = flurry_reach(enc, c, t, w)
    if c.cell is not None and t.cell is not None and grid.distance(c.cell, t.cell) > reach:
        raise IllegalAction(f"{t.name} is beyond the {w.name}'s reach of {reach} hex(es).")
    gap = _in_gap(opts, grid, c, t, w)
    st, tst = WacCombatant.of(c), WacCombatant.of(t)
    indefensible = tst.actions == 0 and st.actions >= 2
    events, free = restrict_check(enc, c, dice)
    if free is False:  # "If he fails, he loses an action": the attack it was to be
        return events + after_attack(enc, opts, dice, c, t, True)
    st.actions -= 1
    extra = [mod("restricted", -1)] if free else []
    extra += gap
    held, level = held_defense(enc, opts, grid, c, t, indefensible, dice)
    events += held
    events += resolve_hit(enc, opts, grid, c, t, w, flurry.intent_of(enc, c), words, dice,
                          skill=sheet.skill(c, w.name), attr="agl", indefensible=indefensible, extra=extra,
                          target_level=level)
    roll = next((e.roll for e in events if isinstance(e, WacAttacked) and e.actor == c.name), None)
    hit = roll is not None and bool(roll.success)
    if hit and roll is not None:
        flurry.success(enc, c, (roll.total or 0) - (roll.against or 0))
    return events + after_attack(enc, opts, dice, c, t, hit)


def flurry_reach(enc: Encounter, c: Combatant, t: Combatant, w: Weapon) -> int:
    """How far ``c``'s ``w`` strikes ``t`` in the flurry: its reach, with a step in between an interrupter (which
    joined from its reach + 1 hex) and its opponents, its blows and theirs at it."""
    stepping = any(WacCombatant.of(x).interrupted == enc.round for x in (c, t))
    return reach_of(w, stepping)


def _in_gap(opts: OptionValues, grid: Grid, c: Combatant, t: Combatant, w: Weapon) -> list[Modifier]:
    """A polearm's blow at a foe a hex away, in "the space between the zone of threat and the fighter [that] is
    considered obstructed": refused (option `polearm_gap=refused`), or at the text's "+5 to task target level if
    the target is obstructed" (`obstructed`). Nothing for another weapon or a foe farther off."""
    if not w.polearm or c.cell is None or t.cell is None or grid.distance(c.cell, t.cell) > 1:
        return []
    if opts.polearm_gap == "refused":
        raise IllegalAction(f"{t.name} stands in the gap before the {w.name}'s head, which strikes only at its zone of "
                            f"threat {w.reach} hexes off: hold, and draw another weapon (`/act action:wield`) in a movement or "
                            "adjustment step.")
    return [mod("obstructed", -5)]


def break_free(enc: Encounter, opts: OptionValues, c: Combatant, dice: Dice) -> list[Event]:
    """`/act action:break`: the held fighter spends an action on a Strength task against the
    Restrict level (the text gives no way out of a hold; this is the project's): a win frees it."""
    level = restricted(enc, c)
    if level is None:
        raise IllegalAction(f"{c.name} is not held: `break` frees a fighter from a grapple's hold.")
    st = WacCombatant.of(c)
    check = _check(c, "break free", "str", level, dice)
    st.actions = max(0, st.actions - 1)
    events: list[Event] = [check]
    if check.roll.success:
        st.restrict, st.restrict_by = None, None
        events.append(EffectTaken(actor=c.name, effect="breaks_free"))
    return events + after_attack(enc, opts, dice, c, c, True)


def held_defense(enc: Encounter, opts: OptionValues, grid: Grid, c: Combatant, t: Combatant, indefensible: bool,
                 dice: Dice) -> tuple[list[Event], tuple[int, Term] | None]:
    """A defence the victim of a hold must first win (its Restrict check): the check's events and
    the Defense it leaves (-1, or none on a failure); None when ``t`` is not held or does not defend."""
    against, why = defense(enc, opts, grid, t, c, indefensible)
    if why not in DEFENDED:
        return [], None
    events, free = restrict_check(enc, t, dice)
    if free is None:
        return events, None
    return events, (against - 1, defense_term(enc, t, why, restricted=True)) if free else (opts.rear_defense, RESTRICTED_NONE)


def restricted(enc: Encounter, c: Combatant) -> int | None:
    """The Restrict level of the hold on ``c``, while its grappler still stands in the flurry with it."""
    st = WacCombatant.of(c)
    by = enc.find(st.restrict_by) if st.restrict_by else None
    if st.restrict is None or by is None or by.status != "active" or not flurry.in_flurry(enc, by):
        return None
    return st.restrict


def restrict_check(enc: Encounter, c: Combatant, dice: Dice) -> tuple[list[Event], bool | None]:
    """"Restrict: The victim rolls a strength task vs. stated target level before attempting any
    action. If he fails, he loses an action, otherwise he may act at -1." (None: not held.)"""
    level = restricted(enc, c)
    if level is None:
        return [], None
    code = f"restrict-{level}"
    check = _check(c, code, "str", level, dice)
    outcome = secondary_effect(code, level - (check.roll.total or 0))
    if outcome is not None and outcome.actions_lost:
        WacCombatant.of(c).actions = max(0, WacCombatant.of(c).actions - outcome.actions_lost)
        return [check, EffectTaken(actor=c.name, effect="loses_action", detail=str(outcome.actions_lost))], False
    return [check], True


def resolve_hit(enc: Encounter, opts: OptionValues, grid: Grid, c: Combatant, t: Combatant, w: Weapon, intent: str,
                words: Mapping[str, Any], dice: Dice, *, skill: int, attr: str, indefensible: bool = False,
                target_level: tuple[int, Term] | None = None, extra: list[Modifier] | None = None,
                missile: bool = False, aimed: str | None = None) -> list[Event]:
    """One attack roll and, on a hit, its damage. ``target_level`` replaces the Defense (missiles)."""
    if target_level is None:
        value, why = defense(enc, opts, grid, t, c, indefensible)
        target_level = value, defense_term(enc, t, why)
    against, versus = target_level
    ability = mod("agility", sheet.modifier(c, attr)) if attr == "agl" else mod("dexterity", sheet.modifier(c, attr))
    mods = [mod("skill", skill), ability, mod("wounds", sheet.wound_penalty(c)), *(extra or []),
            *modifiers(enc.effects, c.name, "attack")]
    roll = task(c, dice, mods, against, versus)
    # "within three points or so ... a parry, block, or dodge": a miss that close to a Defense
    parried = (not roll.success and versus.code in DEFENSE_TERMS
               and (roll.total or 0) >= against - PARRIED_WITHIN)
    events: list[Event] = [WacAttacked(actor=c.name, target=t.name, weapon=w.name, roll=roll, parried=parried)]
    if not roll.success:
        return events
    over = (roll.total or 0) - against
    crit = over // opts.critical_every if over >= opts.critical_every else 0
    return events + damage(enc, opts, c, t, w, intent, words, dice, crit, missile=missile, aimed=aimed)


def damage(enc: Encounter, opts: OptionValues, c: Combatant, t: Combatant, w: Weapon, intent: str,
           words: Mapping[str, Any], dice: Dice, crit: int, *, missile: bool = False, aimed: str | None = None,
           low_skew: bool = False) -> list[Event]:
    """Hit location, impact, absorption, penetration, severity, and the wound's effects."""
    with dice.rolling_for(c.name):
        loc_roll = None
        if aimed:
            location = aimed
        else:
            loc_dice = dice.roll(3, 6)
            loc_roll = Roll(dice=loc_dice, label="3d6", total=sum(loc_dice))
            location = (missile_hit_location if missile else hit_location)(sum(loc_dice))
    option = None if intent in ("kill", "outmanoeuvre") else intent
    cap = sheet.attr(c, "str") + (0 if option else w.impact)
    spec = impact_dice(cap)
    with dice.rolling_for(c.name):
        rolled = dice.roll(spec.count + (1 if low_skew and spec.count else 0), spec.sides)
        kept = sorted(rolled)[: spec.count] if low_skew and spec.count else rolled
        extra = dice.roll(crit, 6) if crit else []
    impact = sum(kept) + spec.modifier + sum(extra)
    armour = sheet.worn(t, location)
    if crit or option == "tackle":
        absorbed, effective, penetrating = 0, impact, bool(crit)
    else:
        absorbed = min(armour.absorb, impact)  # "blows with an impact less than this value is ignored"
        effective = impact - absorbed
        penetrating = effective > 0 and effective > armour.threshold - w.penetration
    hurt = wound(effective, sheet.size(t), penetrating)
    where = location
    if location in ("arm", "leg"):
        where = f"{_side(opts, words)} {location}"
    skewed = low_skew and spec.count > 0  # "add a low skew die": the worst of one die more are kept
    impact_roll = Roll(dice=[*rolled, *extra], label=spec.expression, kept=spec.count if skewed else None,
                       modifiers=[mod("table", spec.modifier)] if spec.modifier else [], total=impact)
    events: list[Event] = [Struck(actor=t.name, by=c.name, location=where, cap=cap, dice=spec.expression, impact=impact_roll,
                                  critical_dice=crit, absorbed=max(0, absorbed), effective=effective,
                                  penetrating=penetrating, severity=hurt.severity if hurt else None, option=option,
                                  location_roll=loc_roll, low_skew=skewed,
                                  armour=None if option == "tackle" else armour.absorb)]  # a critical's too: see `Struck`
    if option:
        column = hurt.severity if hurt else "superficial"
        return events + _option_effect(enc, opts, c, t, w, option, column, dice) + stopped(enc, t)
    if hurt is None:
        return events
    return events + inflict(enc, opts, t, where, hurt.severity, penetrating, dice)


def inflict(enc: Encounter, opts: OptionValues, t: Combatant, where: str, severity: str, penetrating: bool,
            dice: Dice) -> list[Event]:
    """A wound of ``severity`` at ``where`` (``head``, ``left arm``...) on ``t``: recorded, then the wound
    effects table's effects for its general location."""
    record = WoundRecord.model_validate({"location": where, "severity": severity, "penetrating": penetrating})
    WacCombatant.of(t).wounds.append(record)
    return _wound_effects(enc, opts, t, where, where.split()[-1], severity, dice) + stopped(enc, t)


def _check(c: Combatant, what: str, attr: str, target: int, dice: Dice) -> Checked:
    """A check the text gives as a task (fumble?, stumble?, a combat option's Fumble-XX, Stumble-XX or Shock-XX,
    the Restrict "strength task"): 3d6 + the attribute's modifier + the wound penalties ("Action penalties are
    applied against any task roll the character attempts"), with the wound just taken."""
    mods = [mod("attribute", sheet.modifier(c, attr), attr), mod("wounds", sheet.wound_penalty(c))]
    return Checked(actor=c.name, what=what, roll=task(c, dice, mods, target))


def _wound_effects(enc: Encounter, opts: OptionValues, t: Combatant, where: str, location: str, severity: str, dice: Dice) -> list[Event]:
    st = WacCombatant.of(t)
    events: list[Event] = []
    if severity == "mortal":
        events.append(EffectTaken(actor=t.name, effect="mortal"))
    effect = wound_effect(location, severity)
    if effect is not None:
        if effect.check is not None:
            check = _check(t, effect.name, effect.check.attribute, effect.check.target, dice)
            events.append(check)
            if check.roll.success:
                return events + downed(t)
        if effect.actions_lost:
            events.append(lose_actions(enc, t, effect.actions_lost))
        drops, falls = effect.drops, effect.falls
        if effect.limb in ("disabled", "both legs disabled") and opts.disabled_limbs == "unusable":
            # "can no longer be used": an arm holds nothing (an impaired one "may still carry"), a leg bears no weight
            drops, falls = ("at feet", falls) if where.endswith("arm") else (drops, True)
        if drops:  # "any item carried is dropped": what that arm holds, if anything
            held, item = in_hand(t), None
            if held is not None and (where == sheet.weapon_arm(t) or held.name in limbs.TWO_HANDED):
                item = held.name
            elif where == sheet.shield_arm(t) and sheet.shield_bonus(t) and "shield" not in st.dropped:
                item = "shield"
            if item is not None:
                events.append(_drop(enc, t, item, drops, dice))
        if falls and not st.fallen:
            fall(enc, opts, t)
            events.append(EffectTaken(actor=t.name, effect="falls"))
        if effect.unconscious:
            st.unconscious = True
            events.append(EffectTaken(actor=t.name, effect="knockout"))
        if effect.immobile:
            st.immobile = True
            events.append(EffectTaken(actor=t.name, effect="immobile"))
        if effect.no_action_rounds:  # after a knockout or immobility: its line gives the lower Defense that follows
            with dice.rolling_for(t.name):
                rounds = dice.roll(1, 6)[0]
            events += stun(enc, opts, t, rounds, rolled=True)
        if (effect.limb == "unusable this round" or effect.this_round) and where in LIMBS:
            events.append(limbs.make_unusable(enc, t, where))
        hurt_limbs = [where] if effect.limb in ("disabled", "impaired") else []
        if effect.limb == "both legs disabled":
            hurt_limbs = ["left leg", "right leg"]
        for limb in hurt_limbs:
            bucket = st.impaired if effect.limb == "impaired" else st.disabled
            if limb in LIMBS and limb not in bucket:
                bucket.append(limb)
                events.append(EffectTaken(actor=t.name, effect="impaired" if bucket is st.impaired else "disabled", detail=limb))
        if any(limb.endswith("leg") for limb in hurt_limbs):
            slowed(enc, opts, t)  # "reduce movement rate by 1/2 if one leg is so injured", from that moment
    return events + downed(t)


def _drop(enc: Encounter, t: Combatant, item: str, how: str, dice: Dice) -> EffectTaken:
    """"any item carried is dropped": the weapon (or the shield) that arm held, until picked up. Where
    it lands (``how``, the table's words): "1d6-1 m" (a 1d6, less 1, in metres: two to a hex; then a
    1d6 for the direction if it leaves the hex), "at feet", or "1d6 hexes, random direction" (a 1d6
    for the hexes, one for the direction). It stops short of a wall or the map's edge. The event
    names the item, ``how``, the hex it lies in, the hexes the dice gave, those it went and the
    direction, and carries the dice. A shield, a term of the fighter's Defense, is named as its ``item`` (hidden
    where the fighter's numbers are, as shed armour is), the arm that held it in its place."""
    st = WacCombatant.of(t)
    if item not in st.dropped:
        st.dropped.append(item)
    named, own = (sheet.shield_arm(t), item) if item == "shield" else (item, None)
    grid, at = enc.grid(), t.cell
    if grid is None or at is None:
        return EffectTaken(actor=t.name, effect="drops", args=[named, how], item=own)
    hexes, rolled, way = 0, [], grid.facings[0]
    with dice.rolling_for(t.name):
        if how == "1d6-1 m":
            rolled = dice.roll(1, 6)
            hexes = (rolled[0] - 1) // 2
        elif how != "at feet":
            rolled = dice.roll(1, 6)
            hexes = rolled[0]
        if hexes:
            rolled += dice.roll(1, 6)
            way = grid.facings[rolled[-1] - 1]
    moved = 0
    for _ in range(hexes):
        nxt = grid.step(at, way)
        if nxt is None or nxt in grid.blocked:
            break
        at, moved = nxt, moved + 1
    st.dropped_at[item] = at.name
    roll = Roll(dice=rolled) if rolled else None  # the distance's die, then the direction's: the presenter says so
    return EffectTaken(actor=t.name, effect="drops", args=[named, how, at.name, hexes, moved, way], roll=roll, item=own)


def lose_actions(enc: Encounter, t: Combatant, n: int) -> EffectTaken:
    """"one action is lost this round": ``t`` loses ``n``, from the flurry under way, or from its coming flurry's
    when that has not begun. One whose flurry has begun with no action left, or whose round has no flurry left (the
    adjustment phase), loses nothing, and the event says so (``args`` ``none_left``); so does one stunned in the
    flurry, which "has no action"."""
    st = WacCombatant.of(t)
    nothing = (enc.phase == "adjustment" or (st.flurry_init is not None and st.actions == 0)
               or (enc.phase == "flurry" and stunned(enc, t)))
    st.lost += n
    st.actions = max(0, st.actions - n)
    return EffectTaken(actor=t.name, effect="loses_action", detail=str(n), args=["none_left"] if nothing else [])


def downed(t: Combatant) -> list[Event]:
    """Unconscious or mortally wounded is downed: "Only mortally wounded characters are incapable of performing any
    action", and the unconscious none; one "conscious but immobile" still acts where it lies."""
    st = WacCombatant.of(t)
    if st.unconscious:
        return set_status(t, "downed", "unconscious")
    if any(w.severity == "mortal" for w in st.wounds):
        return set_status(t, "downed", "mortal")
    return []


def _option_effect(enc: Encounter, opts: OptionValues, c: Combatant, t: Combatant, w: Weapon, option: str, column: str, dice: Dice) -> list[Event]:
    """A combat option's secondary effect (COMBAT OPTIONS by the hit's severity)."""
    effect = combat_option(option, column)
    st = WacCombatant.of(t)
    events: list[Event] = []
    if effect.name == "restrict":  # a lasting hold: its check comes before each of the victim's actions
        st.restrict, st.restrict_by = effect.target, c.name
        return [EffectTaken(actor=t.name, effect="restricted", detail=str(effect.target))]
    miss_by = None
    if effect.target is not None and effect.attribute:
        check = _check(t, effect.code, effect.attribute, effect.target, dice)
        events.append(check)
        miss_by = effect.target - (check.roll.total or 0)
    outcome = secondary_effect(effect.code, miss_by)
    if outcome is None:
        return events
    if outcome.breaks:
        held = wielded(t)
        st.broken.append(held.name)
        events.append(EffectTaken(actor=t.name, effect="break", detail=held.name))
    if miss_by == 0 and effect.name in ("stumble", "fumble"):  # "0 You slip, but catch yourself" / "Item slips, but is caught"
        events.append(EffectTaken(actor=t.name, effect="slips",
                                  args=[effect.name, effect.target or 0, wielded(t).name, "down" if st.fallen else ""]))
    if outcome.actions_lost:
        events.append(lose_actions(enc, t, outcome.actions_lost))
    if outcome.drop:
        events.append(_drop(enc, t, wielded(t).name, outcome.drop, dice))
    if outcome.falls and st.fallen:  # "On a failure, fall down": one down already stays so
        events.append(EffectTaken(actor=t.name, effect="stays_fallen", detail=outcome.text.rstrip(".")))
    elif outcome.falls:
        fall(enc, opts, t)
        events.append(EffectTaken(actor=t.name, effect="falls", detail=outcome.falls))
    if outcome.stunned_rounds:
        events += stun(enc, opts, t, outcome.stunned_rounds)
    return events


def cdg_ready(c: Combatant) -> bool:
    """"any three limbs disabled, all four limbs disabled, unconscious, or mortally wounded"."""
    st = WacCombatant.of(c)
    return len(st.disabled) >= 3 or st.unconscious or any(w.severity == "mortal" for w in st.wounds)


def coup_de_grace(enc: Encounter, opts: OptionValues, grid: Grid, action: CoupDeGrace, dice: Dice) -> list[Event]:
    phases = ("movement", "adjustment", "flurry")
    c = acting(enc, action.actor, phases)
    t = attack_target(enc, c, action.target, foe=True)
    if not cdg_ready(t):
        raise IllegalAction(
            f"{t.name} is not helpless: a coup-de-grâce needs three or four limbs disabled, unconscious, or mortally wounded."
        )
    w = wielding(enc, c, action.weapon)
    if c.cell is None or t.cell is None or grid.distance(c.cell, t.cell) > max(1, w.reach):
        raise IllegalAction(f"{c.name} must stand within reach of {t.name} to deliver the coup-de-grâce.")
    others = [e for e in engaged_with(enc, grid, c) if e.name != t.name]
    if others:
        raise IllegalAction(f"{c.name} is engaged with {others[0].name}: the coup-de-grâce needs no other opponent engaged.")
    limit = quick_action(c) if enc.phase != "flurry" else []
    events = set_status(t, "out", "coup")
    if enc.phase == "flurry":
        WacCombatant.of(c).actions = max(0, WacCombatant.of(c).actions - 1)
        events += after_attack(enc, opts, dice, c, t, True)
    return events + limit
