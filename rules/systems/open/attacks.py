"""Attacks in the open system: an attack roll (d20 + the weapon's bonus against AC), save attacks
and their areas, damage with its type, and the coup de grâce.

Attack roll. A d20 (two, keeping the higher, with advantage; the lower with disadvantage; both
cancel) plus the weapon's bonus and the attack effects must reach the target's AC, plus its
effects and its cover. A natural 20 hits and is a critical hit, doubling the damage dice (option
``crit``); a natural 1 misses (option ``fumble``). A hit from within 5 ft on a helpless target
(paralysed, unconscious, or down) is a critical hit. Advantage and disadvantage come from the
words ``adv`` and ``dis`` and from conditions (`conditions.py`); a ranged attack past its normal
range, or with a hostile able to act within 5 ft, has disadvantage; past its long range it cannot
be made. A melee attack reaches the weapon's ``reach=`` or the sheet's ``reach`` (5 ft).

Damage. The weapon's dice (doubled on a critical hit) and the damage effects; immunity takes
none of a type, resistance half (rounded down), vulnerability double. Temporary hit points take it
first. At 0 HP a player's combatant is down and makes death saves (option ``death_saves``), the
GM's is out (option ``gm_at_zero``); damage to a combatant already down is a failed death save
(two on a critical hit), or takes it out where it makes none. Massive damage (option
``massive_damage``): damage that leaves over, once the combatant is at 0 HP, at least its hit point
maximum kills it outright, with no death saves (at 0 HP already, all of the damage is left over).

Save attacks. The damage dice are rolled once; each combatant caught rolls a d20 plus its
modifier of the ability and its save effects against the DC: a success takes half (``half``) or
nothing. Paralysed, stunned and unconscious combatants fail Strength and Dexterity saves;
restrained ones roll Dexterity saves with disadvantage; cover adds to Dexterity saves.

Dice order: the attack's d20 (two with advantage or disadvantage), then the damage dice on a hit.
A save attack rolls its damage dice, then each caught combatant's d20 in the order they joined.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rules.dice import Dice, roll_expression
from rules.effects import modifiers, total
from rules.errors import IllegalAction, InputError
from rules.events import Event, Roll, StatusChanged, Term, mod
from rules.geometry import Cell, Grid
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.open import sheet
from rules.systems.open.conditions import conditions, has, setting
from rules.systems.open.events import AreaStruck, Harmed, OpenAttack, Saved
from rules.systems.open.sheet import Weapon
from rules.systems.open.space import COVER_AC, area_cells, cover, feet
from rules.systems.open.state import OpenCombatant, OpenEncounter
from rules.systems.open.turns import acting, saving
from rules.targets import attack_target

__all__ = ["attack", "check_turn", "strike", "coup_de_grace", "harm", "save_attack", "d20", "mode_of"]


def mode_of(adv: Sequence[object], dis: Sequence[object]) -> str | None:
    if adv and dis:
        return "cancel"
    return "advantage" if adv else "disadvantage" if dis else None


def d20(dice: Dice, mode: str | None) -> tuple[list[int], int]:
    """The d20s rolled and the one kept."""
    if mode in ("advantage", "disadvantage"):
        rolled = dice.roll(2, 20)
        return rolled, max(rolled) if mode == "advantage" else min(rolled)
    rolled = dice.roll(1, 20)
    return rolled, rolled[0]


def _damage_expression(w: Weapon, critical: bool) -> str:
    """What a hit with ``w`` rolls: on a critical hit its first dice doubled, the modifier once."""
    return re.sub(r"^([0-9]+)d", lambda m: f"{2 * int(m.group(1))}d", w.damage) if critical else w.damage


def _damage(enc: Encounter, c: Combatant, w: Weapon, critical: bool, dice: Dice) -> Roll:
    """The damage of ``c``'s hit with ``w``: its dice, the running effects' changes to it (named, as
    an attack roll's), and its total (0 or more); a flat damage has no dice, and its number is a
    change only where effects change it too."""
    expression = _damage_expression(w, critical)
    with dice.rolling_for(c.name):
        result = roll_expression(expression, dice, words=False)
    mods = modifiers(enc.effects, c.name, "damage")
    amount = max(0, max(0, result.total) + sum(m.value for m in mods))
    if not result.dice:  # a flat damage: the weapon's number, then the effects'
        return Roll(modifiers=[mod("weapon", result.total, w.name), *mods], total=amount) if mods else Roll(total=amount)
    return Roll(dice=result.marked_dice(), label=expression, modifiers=mods, total=amount)


def _damage_faces(w: Weapon, critical: bool) -> list[int]:
    """The sides of each damage die a hit with ``w`` rolls, in order."""
    return [int(sides) for count, sides in re.findall(r"([0-9]+)d([0-9]+)", _damage_expression(w, critical))
            for _ in range(int(count))]


def check_turn(enc: Encounter, c: Combatant) -> OpenCombatant:
    """``c``'s state, once sure its action is still to take and nothing takes it."""
    st = OpenCombatant.of(c)
    if saving(enc, c):
        raise IllegalAction(f"{c.name} is dying: `/act action:death-save` rolls its death save, or end the turn with "
                            "`/init next` and the bot rolls it.")
    if st.acted:
        raise IllegalAction(f"{c.name} has used its action this turn: move, or end the turn with `/init next`.")
    if has(enc, c, "incapacitated"):
        raise IllegalAction(f"{c.name} cannot act: a condition on it ({', '.join(setting(enc, c, 'incapacitated'))}) takes its "
                            "actions. End the turn with `/init next`.")
    return st


def _reach_and_range(enc: Encounter, opts: OptionValues, grid: Grid | None, c: Combatant, t: Combatant,
                     w: Weapon, dis: list[Term]) -> tuple[int, bool]:
    """The distance in feet, and whether the attack is a melee one (a thrown weapon's within its reach); refusing a
    target out of reach or range (noting long range)."""
    far, reach = feet(grid, opts, c.cell, t.cell), sheet.reach(c, w)
    if w.melee and (not w.ranged or far <= reach):
        if far > reach:
            raise IllegalAction(f"{t.name} is {far} ft away, beyond {c.name}'s {reach} ft reach with the {w.name}: move "
                                "closer first.")
        return far, True
    if w.long is not None and far > w.long:
        raise IllegalAction(f"{t.name} is {far} ft away, beyond the {w.name}'s long range of {w.long} ft: move closer "
                            "first, or pick a nearer target.")
    if w.normal is not None and far > w.normal:
        dis.append(Term(code="long_range"))
    if w.save is None and any(o.status == "active" and not has(enc, o, "incapacitated") and
                              feet(grid, opts, c.cell, o.cell) <= 5 for o in enc.enemies_of(c) if o.cell):
        dis.append(Term(code="hostile_near"))
    return far, False


def strike(enc: Encounter, opts: OptionValues, grid: Grid | None, c: Combatant, t: Combatant, w: Weapon,
           dice: Dice, adv: list[Term], dis: list[Term], *, opportunity: bool = False, coup: bool = False) -> list[Event]:
    """One attack roll of ``c`` at ``t`` with ``w``, and its damage on a hit."""
    far, melee = _reach_and_range(enc, opts, grid, c, t, w, dis)
    shelter = cover(grid, opts, c.cell, t.cell)
    if shelter == "total":
        raise IllegalAction(f"{t.name} has total cover from {c.name} behind the walls: it cannot be targeted.")
    for name, k in conditions(enc, c).items():
        (adv if k.attacks == "adv" else dis if k.attacks == "dis" else []).append(Term(code="condition", args=[name]))
    for name, k in conditions(enc, t).items():
        why = Term(code="target_condition", args=[t.name, name])
        if k.against == "prone":
            (adv if far <= 5 and melee else dis).append(why)
        elif k.against:
            (adv if k.against == "adv" else dis).append(why)
    mode = mode_of(adv, dis)
    with dice.rolling_for(c.name):
        rolled, kept = d20(dice, mode)
    mods = [mod("weapon", w.bonus or 0, w.name), *modifiers(enc.effects, c.name, "attack")]
    score = kept + sum(m.value for m in mods)
    armour = sheet.ac(t) + COVER_AC[shelter] + total(enc.effects, t.name, "ac")
    hit = score >= armour
    if kept == 20 and opts.crit:
        hit = True
    if kept == 1 and opts.fumble:
        hit = False
    would_crit = (kept == 20 and opts.crit) or coup or (has(enc, t, "helpless") and far <= 5)
    critical = hit and would_crit
    roll = Roll(dice=rolled, label="d20", kept=kept if len(rolled) > 1 else None, modifiers=mods, total=score,
                against=armour, versus=Term(code="AC"), success=hit)
    events: list[Event] = [OpenAttack(actor=c.name, target=t.name, weapon=w.name, roll=roll, mode=mode,
                                      reasons=adv + dis, critical=critical,
                                      cover=shelter if shelter != "none" else None, opportunity=opportunity, coup=coup)]
    # on a miss the damage dice typed for a hit are left unused, not refused: a refusal would tell a hidden AC
    dice.spare([] if hit else _damage_faces(w, would_crit))
    if hit:
        damage = _damage(enc, c, w, critical, dice)
        events += harm(enc, opts, t, damage.total or 0, w.kind, c.name, critical=critical, roll=damage)
    return events


def harm(enc: Encounter, opts: OptionValues, t: Combatant, amount: int, kind: str, source: str | None,
         *, critical: bool = False, halved: bool = False, roll: Roll | None = None) -> list[Event]:
    """``t`` takes ``amount`` ``kind`` damage (see the module; ``roll``: the damage roll it came from), and what
    it does to it."""
    why = ["save"] if halved else []
    rolled = amount
    if kind in sheet.damage_types(t, "immune"):
        amount, why = 0, why + ["immune"]
    elif kind in sheet.damage_types(t, "resist"):
        amount, why = amount // 2, why + ["resist"]
    elif kind in sheet.damage_types(t, "vulnerable"):
        amount, why = amount * 2, why + ["vulnerable"]
    temp = min(int(t.sheet.get("temp_hp", 0)), amount)
    if temp:
        t.sheet["temp_hp"] = int(t.sheet["temp_hp"]) - temp
    before = t.hp or 0
    t.hp = max(0, before - (amount - temp))
    events: list[Event] = [Harmed(actor=t.name, amount=amount, before=before, after=t.hp, source=source,
                                  damage_type=kind, rolled=rolled, why=why, temp=temp,
                                  roll=roll if roll is not None and (roll.dice or roll.modifiers) else None)]
    if amount - temp <= 0:
        return events
    st = OpenCombatant.of(t)
    if opts.massive_damage and t.status != "out" and amount - temp - before >= sheet.max_hp(t):
        t.status = "out"
        return events + [StatusChanged(actor=t.name, status="out", cause="massive_damage")]
    if t.status == "downed":
        if sheet.is_player(enc, t) and opts.death_saves and not _out_at_zero(enc, opts, t):
            st.stable = False
            st.saves_failed = min(3, st.saves_failed + (2 if critical else 1))
            if st.saves_failed < 3:
                cause = "failed_saves" if critical else "failed_save"
                return events + [StatusChanged(actor=t.name, status="downed", cause=cause)]
        t.status = "out"
        third = sheet.is_player(enc, t) and opts.death_saves and st.saves_failed >= 3  # the damage was its third failure
        return events + [StatusChanged(actor=t.name, status="out", cause="death_saves" if third else "harmed_down")]
    if t.hp <= 0 and t.status == "active":
        if _out_at_zero(enc, opts, t):
            t.status = "out"
            return events + [StatusChanged(actor=t.name, status="out", cause="zero_hp")]
        t.status = "downed"
        st.saves_made, st.saves_failed, st.stable = 0, 0, False
        saves = sheet.is_player(enc, t) and opts.death_saves
        events.append(StatusChanged(actor=t.name, status="downed", cause="death_saves" if saves else "helpless"))
    return events


def _out_at_zero(enc: Encounter, opts: OptionValues, t: Combatant) -> bool:
    if sheet.is_player(enc, t):
        return not opts.death_saves
    return bool(opts.gm_at_zero == "out")


def attack(enc: Encounter, opts: OptionValues, grid: Grid | None, action: Any, dice: Dice,
           words: Mapping[str, Any]) -> list[Event]:
    c = acting(enc, action.actor)
    st = check_turn(enc, c)
    w = sheet.weapon(c, action.weapon)
    asked = [k for k in ("adv", "dis") if words[k]]
    if w.save is not None and asked:
        raise InputError(f"The {w.name} is a save attack: those caught roll saves, and no attack d20 is rolled for "
                         f"`{asked[0]}` to change: leave `{asked[0]}` out.")
    if w.save is None and words["at"]:
        raise InputError(f"The {w.name} is a weapon attack on its `target`: `at=` aims only a save attack's area: "
                         "leave `at=` out.")
    if w.save is not None:
        events = save_attack(enc, opts, grid, c, w, action.target, words["at"], dice)
    else:
        adv = [Term(code="adv_asked")] if words["adv"] else []
        dis = [Term(code="dis_asked")] if words["dis"] else []
        events = strike(enc, opts, grid, c, attack_target(enc, c, action.target, on_map=grid is not None), w, dice,
                        adv, dis)
    st.acted = True
    return events


def save_attack(enc: Encounter, opts: OptionValues, grid: Grid | None, c: Combatant, w: Weapon,
                target: str | None, at: str | None, dice: Dice) -> list[Event]:
    """A save attack on ``target``, or on the area at ``at`` (a cell) or around the target."""
    aim: Cell | None = None
    around_self = w.area == "burst" and w.normal is None  # like a 5e self-centred area: the attacker is left out
    if at:
        if grid is None:
            raise InputError("This encounter has no map, so `at` takes no cell: name a `target`.")
        aim = grid.parse(at)
        if around_self and aim != c.cell:
            raise InputError(f"The {w.name} has no range: it bursts around {c.name}. Leave `at` out (and `target`).")
    if around_self and target:  # a target named anyway must at least be one
        enc.get(target, "target")
    t = attack_target(enc, c, target, on_map=grid is not None) if target and not around_self else None
    if around_self:  # no target or cell to name: it is centred on the attacker
        aim = c.cell
    if w.area in ("cone", "line") and aim is not None and aim == c.cell:
        raise InputError(f"A {w.area} goes out from {c.name} towards a cell: aim the {w.name} with `target` or "
                         f"`options:\"at=E5\"` at another cell than its own.")
    if t is not None and aim is None:
        aim = t.cell
    if w.area is None:
        if t is None:
            raise InputError(f"The {w.name} affects one combatant: name it with `target`.")
        _reach_and_range(enc, opts, grid, c, t, w, [])
        if cover(grid, opts, c.cell, t.cell) == "total":
            raise IllegalAction(f"{t.name} has total cover from {c.name} behind the walls: it cannot be targeted.")
        caught, cells = [t], []
    else:
        if grid is None or c.cell is None or aim is None:
            raise InputError(f"The {w.name} fills an area: it needs a map, and a `target` or `options:\"at=E5\"` to aim at.")
        far = feet(grid, opts, c.cell, aim)
        reach = w.normal if w.normal is not None else (0 if w.area == "burst" else w.size)
        if far > reach:
            raise IllegalAction(f"{aim.name} is {far} ft away, beyond the {w.name}'s range of {reach} ft: move closer "
                                "first, or aim nearer.")
        if w.area == "burst" and not grid.line_of_sight(c.cell, aim, corner=opts.corner):
            raise IllegalAction(f"{c.name} has no clear line to {aim.name}: walls are in the way.")
        cells = area_cells(grid, opts, w.area, w.size, c.cell, aim)
        caught = [o for o in enc.combatants if o.in_fight and o.cell in set(cells) and not (around_self and o is c)]
    OpenEncounter.of(enc).area = [x.name for x in cells]
    damage = _damage(enc, c, w, False, dice)
    origin = aim if w.area == "burst" else c.cell
    events: list[Event] = [AreaStruck(actor=c.name, weapon=w.name, shape=w.area, size=w.size,
                                      at=aim.name if aim else None, cells=len(cells), caught=[o.name for o in caught])]
    for o in caught:
        events += _save(enc, opts, grid, c, o, w, origin, damage, dice)
    return events


def _save(enc: Encounter, opts: OptionValues, grid: Grid | None, c: Combatant, o: Combatant, w: Weapon,
          origin: Cell | None, damage: Roll, dice: Dice) -> list[Event]:
    assert w.save is not None and w.dc is not None
    amount = damage.total or 0
    kinds = conditions(enc, o)
    automatic = w.save in ("str", "dex") and any(k.fails_str_dex for k in kinds.values())
    dis = [n for n, k in kinds.items() if k.dex_dis] if w.save == "dex" else []
    mode = mode_of([], dis)
    mods = [mod("ability", sheet.ability(o, w.save), w.save), *modifiers(enc.effects, o.name, "save")]
    shelter = cover(grid, opts, origin, o.cell) if w.save == "dex" and origin != o.cell else "none"
    if COVER_AC.get(shelter):
        mods.append(mod("cover", COVER_AC[shelter], shelter))
    if automatic:
        roll = Roll(modifiers=[], against=w.dc, versus=Term(code="DC"), success=False)
    else:
        with dice.rolling_for(o.name):
            rolled, kept = d20(dice, mode)
        score = kept + sum(m.value for m in mods)
        roll = Roll(dice=rolled, label="d20", kept=kept if len(rolled) > 1 else None, modifiers=mods, total=score,
                    against=w.dc, versus=Term(code="DC"), success=score >= w.dc)
    events: list[Event] = [Saved(actor=o.name, source=c.name, ability=w.save, roll=roll, mode=mode, automatic=automatic)]
    taken = (amount // 2 if w.half else 0) if roll.success else amount
    if taken > 0 or not roll.success:
        events += harm(enc, opts, o, taken, w.kind, c.name, halved=bool(roll.success), roll=damage)
    return events


def coup_de_grace(enc: Encounter, opts: OptionValues, grid: Grid | None, action: Any, dice: Dice) -> list[Event]:
    """An attack from within 5 ft on a helpless target (paralysed, unconscious or down): a hit is a critical hit."""
    c = acting(enc, action.actor)
    st = check_turn(enc, c)
    t = attack_target(enc, c, action.target, verb="strike", on_map=grid is not None)
    if not has(enc, t, "helpless"):
        raise IllegalAction(f"{t.name} is not helpless (paralysed, unconscious or down): attack it with `/attack`.")
    w = sheet.weapon(c, action.weapon, melee_only=True)
    if not w.melee:
        raise IllegalAction(f"A coup de grâce is a melee attack: the {w.name} is not a melee weapon.")
    if feet(grid, opts, c.cell, t.cell) > 5:
        raise IllegalAction(f"{t.name} is {feet(grid, opts, c.cell, t.cell)} ft away: a coup de grâce is struck from "
                            "within 5 ft.")
    events = strike(enc, opts, grid, c, t, w, dice, [], [], coup=True)
    st.acted = True
    return events
