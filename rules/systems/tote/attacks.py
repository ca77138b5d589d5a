"""TOTE attacks: choosing the foe (engagement restricts it), the weapon (a Shoot needs one
that shoots and reaches), the attack test against Block, Protect, damage on the injury track,
and what damage does: melee damage engages the pair (a Shoot's too with option
``shot_engages``) and counts for the next round's initiative gain."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.dice import Dice
from rules.effects import active, modifiers, total
from rules.errors import IllegalAction, InputError
from rules.events import Event, Modifier, mod
from rules.models import Combatant, Encounter
from rules.systems.tote.events import Engaged, Redirected, Struck, Wounded
from rules.systems.tote.movement import (
    disengaged,
    engage,
    engaged_with,
    is_melee,
    pair_band,
    take_out,
)
from rules.systems.tote.options import opts
from rules.systems.tote.sheet import Weapon, weapon, weapons
from rules.systems.tote.skill import TestResult, run_test
from rules.systems.tote.state import DEFEND, PROTECT, ToteCombatant
from rules.targets import attack_target

__all__ = ["foe", "ally", "in_melee", "attack", "strike", "shoot", "shooting_weapon"]


def foe(enc: Encounter, c: Combatant, name: str | None, *, downed: bool = False) -> Combatant:
    """The foe ``c`` targets: named, or the only engaged/standing one; engagement restricts the choice."""
    engaged = engaged_with(enc, c.name)
    if not name:
        standing = [o.name for o in enc.enemies_of(c) if o.status == ("downed" if downed else "active")]
        choices = engaged or standing
        if len(choices) == 1:
            name = choices[0]
        else:
            raise InputError(f"Name a `target`: {', '.join(choices) or 'there is no foe to target'}.")
    t = attack_target(enc, c, name, foe=True)
    if downed and t.status != "downed":
        raise IllegalAction(f"{t.name} is not unconscious: a coup-de-grace needs an unconscious foe. Strike instead.")
    if not downed and t.status == "downed":
        raise IllegalAction(f"{t.name} is unconscious: `/coupdegrace target:{t.name}` takes them out of the fight.")
    if engaged and t.name not in engaged:
        raise IllegalAction(
            f"{c.name} is engaged with {', '.join(engaged)}: its actions must target "
            f"{'that foe' if len(engaged) == 1 else 'one of them'} until it disengages "
            f"(`/act action:disengage`, 3 initiative) or the foe is defeated."
        )
    return t


def ally(enc: Encounter, c: Combatant, name: str | None, action_name: str) -> Combatant:
    if not name:
        raise InputError(f"{action_name.capitalize()} needs an ally: name one (e.g. `options:ally=NAME`).")
    a = enc.get(name)
    if a.side != c.side or a is c or a.status != "active":
        raise IllegalAction(f"{a.name} is not a conscious ally of {c.name}: {action_name} needs one.")
    return a


def in_melee(enc: Encounter, c: Combatant, t: Combatant) -> None:
    """A melee attack (Strike, Assault, Assist, Defend, Grapple, a coup-de-grace) needs ``t`` in melee
    with ``c``: in melee rounds one that did not move in from Close keeps its distance."""
    band = pair_band(enc, c, t)
    if band != "melee":
        raise IllegalAction(
            f"{c.name} is at {band.capitalize()} from {t.name}: a melee attack needs a foe in melee. "
            f"Shoot (`/act action:shoot`, if unengaged) or move in first (`/move to:in`)."
        )


def shooting_weapon(enc: Encounter, c: Combatant, t: Combatant, name: str | None) -> Weapon:
    """"Makes a Shoot test, if a target is in range": the named weapon, or the first that shoots
    as far as ``t`` is; refused when it cannot shoot or does not reach."""
    band = pair_band(enc, c, t)
    if name:
        w = weapon(c, name)
        if w.reach is None:
            raise IllegalAction(
                f"{c.name}'s {w.name} cannot shoot: Shoot with a bow, crossbow, sling, gun, javelin or dart, "
                f"or a weapon marked `:thrown` (to Close) or `:ranged` (to Far) on the sheet."
            )
        candidates = [w]
    else:
        candidates = [w for w in weapons(c) if w.reach is not None]
        if not candidates:
            instead = (
                "or Strike" if is_melee(enc)
                else "or Move instead, the other distance-round action (`/move to:in`, or `to:away`)"
            )
            raise IllegalAction(
                f"{c.name} has no weapon that can shoot: give it one (a bow, sling, javelin..., or a weapon marked "
                f"`:thrown` or `:ranged`), {instead}."
            )
    for w in candidates:
        if w.reaches(band):
            return w
    reach = " and ".join(sorted({f"{w.name} to {w.reach.capitalize()}" for w in candidates if w.reach}))
    raise IllegalAction(
        f"{t.name} is at {band.capitalize()} from {c.name}, out of range ({reach}): move nearer first."
    )


def attack(
    enc: Encounter,
    c: Combatant,
    target: Combatant,
    action: object,
    dice: Dice,
    *,
    words: Mapping[str, Any],
    skill: str,
    what: str,
    melee: bool,
    extra: Sequence[Modifier] = (),
    arm: Weapon | None = None,
) -> tuple[list[Event], Combatant]:
    """One attack test and its damage; Protect redirects it. Returns the events and who was attacked.
    ``words``: the action's words (`weapon`, `keep`, `bonus`; those it has)."""
    if melee:
        in_melee(enc, c, target)
    events: list[Event] = []
    guards = {e.source for e in enc.effects if e.code == PROTECT and e.target == target.name}
    for p in enc.combatants if guards else ():
        if p.status == "active" and p.name in guards and p is not c:
            events.append(Redirected(actor=p.name, ally=target.name))
            target = p
            break
    arm = arm or weapon(c, getattr(action, "weapon", None) or words.get("weapon"))
    mods = [*extra, *modifiers(enc.effects, c.name, "attack")]
    if active(enc.effects, target.name, DEFEND) is not None:
        mods.append(mod("defend", -opts(enc).defend_penalty))
    block = int(target.sheet["block"]) + total(enc.effects, target.name, "block")
    r, test = run_test(enc, c, skill, block, dice, words, mods)
    events.append(Struck(actor=c.name, target=target.name, weapon=arm.name, action=what, test=test))
    if r.success:
        events += _wound(enc, c, target, arm, r, melee)
    return events, target


def _wound(enc: Encounter, c: Combatant, t: Combatant, arm: Weapon, r: TestResult, melee: bool) -> list[Event]:
    extra = (r.successes - 1) * opts(enc).damage_per_success
    effect = arm.effect if r.critical else 0
    resists = []
    for entry in t.sheet.get("resist") or []:
        kind, _, boxes = entry.partition(":")
        if kind == "all" or kind == arm.kind:
            resists.append((kind, int(boxes)))
    amount = max(arm.damage + extra + effect - sum(b for _, b in resists), 0)
    before, track, ts = t.hp or 0, t.sheet["track"], ToteCombatant.of(t)
    newly = track[ts.filled : ts.filled + amount]
    ts.filled += len(newly)
    t.hp = len(track) - ts.filled
    events: list[Event] = [
        Wounded(
            actor=t.name,
            by=c.name,
            weapon=arm.name,
            damage=arm.damage,
            extra=extra,
            extra_successes=r.successes - 1,
            effect=effect,
            resists=resists,
            amount=amount,
            boxes=newly,
            before=before,
            after=t.hp,
        )
    ]
    if newly:
        engaged = _engage_by_damage(enc, c, t, melee)
        events += engaged if t.hp else [e for e in engaged if not isinstance(e, Engaged)]  # one unconscious engages nobody
    if t.hp == 0:
        events += take_out(enc, t, "downed", "unconscious")
    return events


def _engage_by_damage(enc: Encounter, c: Combatant, t: Combatant, melee: bool) -> list[Event]:
    """"Once a foe has done damage to you or you have done damage to a foe, you are engaged with
    that foe", read with "An unengaged combatant is one that neither dealt nor received melee
    damage": melee damage engages (a Shoot's too with option ``shot_engages``), except damage
    taken while counting as disengaged (damage dealt then re-engages and ends the
    disengagement). Only melee damage counts for the gain."""
    if melee:
        ToteCombatant.of(c).melee_round = ToteCombatant.of(t).melee_round = enc.round
    elif not opts(enc).shot_engages:
        return []
    if disengaged(enc, c):
        ToteCombatant.of(c).disengaged = None
    if disengaged(enc, t):
        return []
    return [Engaged(actor=c.name, other=t.name)] if engage(enc, c.name, t.name) else []


def strike(
    enc: Encounter, c: Combatant, action: object, dice: Dice, words: Mapping[str, Any], what: str,
    extra: Sequence[Modifier] = (),
) -> tuple[list[Event], Combatant]:
    target = foe(enc, c, getattr(action, "target", None))
    return attack(enc, c, target, action, dice, words=words, skill="strike", what=what, melee=True, extra=extra)


def shoot(enc: Encounter, c: Combatant, action: object, dice: Dice, words: Mapping[str, Any]) -> list[Event]:
    """Shoot: in melee rounds only an unengaged combatant; a weapon that shoots and a target in range."""
    engaged = engaged_with(enc, c.name)
    if engaged and is_melee(enc):
        raise IllegalAction(
            f"{c.name} is engaged with {', '.join(engaged)}: only an unengaged combatant can Shoot. "
            "Strike or Disengage."
        )
    target = foe(enc, c, getattr(action, "target", None))
    arm = shooting_weapon(enc, c, target, getattr(action, "weapon", None) or words.get("weapon"))
    return attack(enc, c, target, action, dice, words=words, skill="shoot", what="shoot", melee=False, arm=arm)[0]
