"""Attacks in Knights of Valour: melee and ranged strikes, damage, downed, the coup de grâce.

Reach: the distance between two combatants is the larger of the squares between them (5 ft
each, diagonals too) and the difference of the heights they stand at, so height counts for
melee reach and for Attacks of Opportunity.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from rules.actions import Attack, CoupDeGrace
from rules.dice import Dice
from rules.effects import modifiers
from rules.errors import IllegalAction, InputError
from rules.events import Event, Modifier, Roll, StatusChanged, Term, mod
from rules.geometry import Cell, Grid
from rules.models import Combatant, Encounter, Status
from rules.options import OptionSet, OptionValues, flag_word, int_option
from rules.report import signed
from rules.systems.knights_of_valour import sheet
from rules.systems.knights_of_valour.events import (
    ActionsLeft,
    CoupDeGraceStruck,
    KovAttack,
    KovDamage,
    TurnEnded,
)
from rules.systems.knights_of_valour.state import KovCombatant
from rules.systems.knights_of_valour.tables import (
    DICE_RE,
    SQUARE_FT,
    Weapon,
    effective_range,
    stature_modifier,
)
from rules.systems.knights_of_valour.turns import acting, advance, arrange, spend_combat
from rules.targets import attack_target, cell_of

__all__ = [
    "ground",
    "distance",
    "choose_weapon",
    "attack",
    "strike",
    "coup_de_grace",
    "set_status",
    "end_if_down",
    "left",
]

#: the `options:` words of `/attack`
ATTACK_WORDS = OptionSet(
    flag_word("adv", "Advantage: roll 2d20, keep the higher", modifier=True),
    flag_word("dis", "Disadvantage: roll 2d20, keep the lower"),
    flag_word("throw", "throw the weapon"),
    int_option("atk", None, -20, 20, "a buff to the attack roll", modifier=True),
    int_option("def", None, -20, 20, "a buff to the target's defence", modifier=True),
    int_option("dmg", None, -20, 20, "a buff to the damage", modifier=True),
)


def ground(grid: Grid, opts: OptionValues, cell: Cell) -> int:
    """The height in feet one stands at on ``cell`` (an unmarked obstacle: ``obstacle_height``)."""
    default = opts.obstacle_height if grid.terrain.get(cell) == "obstacle" else 0
    return grid.heights.get(cell, default)


def distance(a: Cell, a_level: int, b: Cell, b_level: int) -> int:
    """Feet between two combatants: squares (5 ft each, diagonals too) or height, the larger."""
    return max(SQUARE_FT * max(abs(a.col - b.col), abs(a.row - b.row)), abs(a_level - b_level))


def _between(grid: Grid, opts: OptionValues, c: Combatant, t: Combatant) -> tuple[Cell, Cell, int]:
    b, a = cell_of(t), cell_of(c)  # the target named first where neither is placed
    return a, b, distance(a, ground(grid, opts, a), b, ground(grid, opts, b))


def left(c: Combatant, lost: int = 0) -> ActionsLeft:
    """What ``c`` has left of its turn; ``lost``: the feet of its move the Combat Action just forfeited."""
    st = KovCombatant.of(c)
    return ActionsLeft(actor=c.name, feet_left=st.feet_left, move_actions=st.move_actions, moves_told=st.moves_told,
                       combat_actions=st.combat_actions, granted=st.granted, lost=lost)


def choose_weapon(opts: OptionValues, c: Combatant, name: str | None) -> Weapon:
    levels, usable = sheet.levels(c), sheet.usable(c)
    if not name:
        held = KovCombatant.of(c).wield
        name = held if levels.get(held or "", 0) > 0 else None
        if name is None and len(usable) == 1:
            name = usable[0]
    if not name and not usable:  # "you may only make Attacks with Weapons that you are Proficient in"
        raise IllegalAction(
            f"{c.name} is proficient in no weapon (P.L. 1 or more), so it cannot attack: it may still move, or the GM "
            f"raises a weapon's P.L. with `/combatant edit`."
        )
    if not name:
        raise InputError(f"Name the weapon in `weapon`: {c.name} is proficient in {', '.join(usable)}.")
    weapon = sheet.weapon(opts, name)
    if weapon is None or weapon.name not in levels:
        raise IllegalAction(
            f"{c.name} has no `{name}`: its weapons are {', '.join(levels) or 'none'} (the sheet's `weapons=name:P.L.`)."
        )
    if levels[weapon.name] < 1:
        raise IllegalAction(
            f"{c.name} is not proficient in {weapon.name} (P.L. 0): attack only with a weapon of "
            f"P.L. 1 or more ({', '.join(usable) or 'none'})."
        )
    return weapon


def attack(enc: Encounter, opts: OptionValues, grid: Grid, action: Attack, dice: Dice, words: Mapping[str, Any]) -> list[Event]:
    """`/attack`; ``words``: its `ATTACK_WORDS`."""
    c = acting(enc, action.actor)
    t = attack_target(enc, c, action.target)
    weapon = choose_weapon(opts, c, action.weapon)
    a, b, dist = _between(grid, opts, c, t)
    if words["throw"] and weapon.ranged and not weapon.melee:  # thrown: a melee weapon with ranges (a spear)
        raise IllegalAction(f"A {weapon.name} shoots: it is not thrown. Leave out `throw`.")
    ranged = not (weapon.melee and dist <= SQUARE_FT and not words["throw"])
    if ranged:
        _check_ranged(opts, c, t, weapon, dist, words["throw"])
        wall = next((x for x in grid.line_cells(a, b) if x in grid.blocked), None)
        if wall is not None:
            raise IllegalAction(
                f"{c.name} has no line of sight to {t.name}: the wall at {wall.name} is in the way: move where it is "
                f"not between {c.name} and {t.name}, or attack another target."
            )
    lost = spend_combat(enc, opts, c)
    return [*strike(enc, opts, c, t, weapon, ranged, dist, dice, words), left(c, lost)]


def _check_ranged(opts: OptionValues, c: Combatant, t: Combatant, weapon: Weapon, dist: int, thrown: bool) -> None:
    """Refuse a ranged attack out of range."""
    if not weapon.ranged:
        others = [n for n in sheet.usable(c) if (w := sheet.weapon(opts, n)) and w.ranged]
        if thrown:
            raise IllegalAction(f"{weapon.name} cannot be thrown: it has no range.")
        instead = f", or use a ranged weapon ({', '.join(others)})" if others else ""
        if distance(cell_of(c), 0, cell_of(t), 0) <= SQUARE_FT:  # beside it: the height is what is too far
            raise IllegalAction(f"{t.name} is beside {c.name} but {dist} ft higher or lower: {weapon.name} reaches 5 ft. "
                                f"Climb or descend to within 5 ft of its height{instead}.")
        raise IllegalAction(f"{t.name} is {dist} ft away: {weapon.name} reaches 5 ft. Move next to {t.name}{instead}.")
    strength = sheet.stat(c, "str")
    far = effective_range(weapon, strength)[1]
    if far == 0:
        melee = thrown and weapon.melee and dist <= SQUARE_FT
        instead = ": leave out `throw` to strike with it in melee" if melee else _instead(opts, c, t, weapon, dist)
        raise IllegalAction(
            f"With Strength {signed(strength)} the effective maximum range of "
            f"{weapon.name} is 0 ft: {c.name} cannot make a ranged attack with it{instead}."
        )
    if dist > far:
        raise IllegalAction(
            f"{t.name} is {dist} ft away, past the effective maximum range of {weapon.name} ({far} ft): move closer."
        )


def _instead(opts: OptionValues, c: Combatant, t: Combatant, weapon: Weapon, dist: int) -> str:
    """``: use longbow instead``: the other weapons of ``c`` that reach ``t`` from ``dist`` ft, or what to do if none."""
    strength, reach, melee = sheet.stat(c, "str"), [], []
    for name in sheet.usable(c):
        w = sheet.weapon(opts, name)
        if w is None or w.name == weapon.name:
            continue
        if w.melee:
            melee.append(w.name)
        if (w.melee and dist <= SQUARE_FT) or (w.ranged and 0 < dist <= effective_range(w, strength)[1]):
            reach.append(w.name)
    if reach:
        return f": use {' or '.join(reach)} instead"
    closer = f": move next to it for the {' or '.join(melee)}" if melee else ""
    return f"; none of {c.name}'s other weapons reaches {t.name} from {dist} ft{closer}"


def _imposed(c: Combatant, weapon: Weapon, ranged: bool, dist: int) -> tuple[list[str], int | None]:
    """Reasons for imposed Disadvantage, and the effective close range where it matters.

    Text: "If the Effective Close Range is 0 feet, then all Attacks made with this Weapon Type
    are made with Disadvantage" (melee strikes with a thrown weapon too)."""
    if not weapon.ranged:
        return [], None
    close = effective_range(weapon, sheet.stat(c, "str"))[0]
    if close == 0:
        return ["close_zero"], close
    if ranged and dist > close:
        return ["past_close"], close
    return [], close


def strike(
    enc: Encounter,
    opts: OptionValues,
    att: Combatant,
    tgt: Combatant,
    weapon: Weapon,
    ranged: bool,
    dist: int,
    dice: Dice,
    words: Mapping[str, Any],
    opportunity: bool = False,
) -> list[Event]:
    """One melee or ranged attack: d20 (two with Advantage/Disadvantage), then damage on a hit."""
    mods = [mod("pl", sheet.levels(att)[weapon.name], weapon.name)]
    mods.append(mod("agility", sheet.stat(att, "agi")) if ranged else mod("strength", sheet.stat(att, "str")))
    if not ranged or opts.ranged_stature == "yes":
        sa, sd = sheet.size(att), sheet.size(tgt)
        mods.append(mod("stature", stature_modifier(sa, sd), sa, sd))
    if words.get("atk"):
        mods.append(mod("buff", words["atk"] or 0))
    mods += modifiers(enc.effects, att.name, "attack")
    defence = _defence(opts, tgt, ranged, words.get("def") or 0) + modifiers(enc.effects, tgt.name, "defence")
    imposed, close = _imposed(att, weapon, ranged, dist)
    adv, dis = bool(words.get("adv")), bool(words.get("dis")) or bool(imposed)
    reasons = (["dis_asked"] if words.get("dis") else []) + (["adv_asked"] if adv else []) + imposed
    if adv and dis:
        reasons.append("cancel")
    with dice.rolling_for(att.name):
        rolls = dice.roll(2 if adv != dis else 1, 20)
    kept = (max if adv else min)(rolls) if adv != dis else rolls[0]
    total = kept + sum(m.value for m in mods)
    against = sum(m.value for m in defence)
    KovCombatant.of(att).wield = weapon.name
    hit = total >= against
    roll = Roll(dice=rolls, label="d20" if adv == dis else "2d20", kept=kept if len(rolls) > 1 else None,
                modifiers=mods, total=total, against=against, versus=Term(code="defence"), success=hit)
    edge: Literal["advantage", "disadvantage"] | None = None if adv == dis else "advantage" if adv else "disadvantage"
    events: list[Event] = [
        KovAttack(actor=att.name, target=tgt.name, weapon=weapon.name, roll=roll, mode="ranged" if ranged else "melee",
                  range=dist, defence=defence, reasons=reasons, close=close, opportunity=opportunity, edge=edge)
    ]
    if hit:
        events += _damage(enc, opts, att, tgt, weapon, dice, words.get("dmg") or 0)
    return events


def _defence(opts: OptionValues, t: Combatant, ranged: bool, buff: int) -> list[Modifier]:
    """Defence Value terms: 10, melee weapon P.L. (melee only), armour, shield, Agility, buff."""
    terms = [mod("base", 10)]
    held = sheet.wielded(opts, t)
    if not ranged and held is not None and held.melee:
        terms.append(mod("pl", sheet.levels(t).get(held.name, 0), held.name))
    (armour, dm), (shield, sm) = sheet.armour(opts, t), sheet.shield(opts, t)
    if dm:
        terms.append(mod("armour", dm, armour) if armour else mod("armour_value", dm))
    if sm:
        terms.append(mod("shield", sm, shield))
    terms.append(mod("agility", sheet.stat(t, "agi")))
    if buff:
        terms.append(mod("buff", buff))
    return terms


def _damage(
    enc: Encounter, opts: OptionValues, att: Combatant, tgt: Combatant, weapon: Weapon, dice: Dice, buff: int
) -> list[Event]:
    m = DICE_RE.match(weapon.damage)
    assert m is not None  # parse_weapon checked it
    with dice.rolling_for(att.name):
        rolls = dice.roll(int(m.group(1)), int(m.group(2))) if m.group(1) else []
    flat = int(m.group(4) or m.group(3) or 0)
    mods: list[Modifier] = [mod("weapon_damage", flat)] if flat else []
    mods.append(mod("strength", sheet.stat(att, "str")))
    if buff:
        mods.append(mod("buff", buff))
    mods += modifiers(enc.effects, att.name, "damage")
    floor = opts.min_damage
    raw = sum(rolls) + sum(x.value for x in mods)
    amount = max(floor, raw)
    before = tgt.hp or 0
    tgt.hp = before - amount
    events: list[Event] = [
        KovDamage(
            actor=tgt.name, by=att.name, weapon=weapon.name, amount=amount, before=before, after=tgt.hp,
            roll=Roll(dice=rolls, label=weapon.damage if rolls else None, modifiers=mods),
            floor=floor if amount != raw else None,
        )
    ]
    if tgt.hp <= 0 and tgt.status == "active":
        events += set_status(enc, tgt, "downed", "zero_hp")
    return events


def coup_de_grace(enc: Encounter, opts: OptionValues, grid: Grid, action: CoupDeGrace) -> list[Event]:
    c = acting(enc, action.actor)
    t = attack_target(enc, c, action.target)
    best = sheet.best_melee(opts, c)
    weapon = choose_weapon(opts, c, action.weapon or (best.name if best else None))
    if t.status != "downed":
        raise IllegalAction(f"{t.name} is not downed: a coup de grâce needs a downed target, so `/attack` it first.")
    if _between(grid, opts, c, t)[2] > SQUARE_FT:
        raise IllegalAction(f"{c.name} is not adjacent to {t.name}: a coup de grâce needs a target within 5 ft.")
    lost = spend_combat(enc, opts, c)
    mode = "melee" if weapon.melee else "ranged"
    struck = CoupDeGraceStruck(actor=c.name, target=t.name, weapon=weapon.name, mode=mode)
    return [struck, *set_status(enc, t, "out", "coup"), left(c, lost)]


def set_status(enc: Encounter, c: Combatant, status: Status, cause: str) -> list[Event]:
    """``cause``: ``zero_hp``, ``coup``, or ``gm_hp``/``player_hp`` (`rules.events.hp_cause`; the presenter names them)."""
    if c.status == status:
        return []
    c.status = status
    if status == "out":
        arrange(enc)
    return [StatusChanged(actor=c.name, status=status, cause=cause)]


def beaten(opts: OptionValues) -> tuple[Status, ...]:
    """The statuses of a beaten side's combatants (option ``victory``): downed or out, or out only."""
    return ("out",) if opts.victory == "out" else ("out", "downed")


def end_if_down(enc: Encounter, opts: OptionValues) -> list[Event]:
    """A combatant downed or taken out during its own turn ends it (and the reply says so); the next turn begins
    unless that fall decided the fight (one side alone is not `beaten`), whose end the reply then announces."""
    current = enc.find(enc.current)
    if current is None or current.status == "active":
        return []
    standing = {c.side for c in enc.combatants if c.status not in beaten(opts)}
    if len(standing) < 2 and len(enc.sides()) > 1:
        return [TurnEnded(actor=current.name)]
    return [TurnEnded(actor=current.name), *advance(enc)]

