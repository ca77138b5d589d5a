"""Ranged strikes: a shot in the movement or adjustment phase ("Launch/Shoot/Throw", a full action) with the
missile weapon in hand, its target level from the range band and how the target moves (its Defense where it is
aware at point blank range), a called shot, a missed shot's accidental attack on one standing between, and
loading a crossbow again. The hit itself and its damage are every blow's (`attacks.resolve_hit`)."""
from __future__ import annotations

from rules.actions import Attack
from rules.dice import Dice
from rules.errors import IllegalAction, InputError
from rules.events import Event, Modifier, Term, mod
from rules.geometry import Grid
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.war_and_combat import sheet
from rules.systems.war_and_combat.attacks import (
    carried,
    defense,
    defense_term,
    moving,
    resolve_hit,
    wielding,
)
from rules.systems.war_and_combat.catalogue import Weapon
from rules.systems.war_and_combat.events import EffectTaken, WacAttacked
from rules.systems.war_and_combat.lengthy import refuse_if_busy
from rules.systems.war_and_combat.options import MISSILE_TARGETS
from rules.systems.war_and_combat.state import WacCombatant
from rules.systems.war_and_combat.tables_missile import (
    FIRING_INTO_MELEE,
    GENERAL_LOCATIONS,
    MISSED_SHOT_SKILL,
    SUB_LOCATIONS,
    called_shot,
    moving_target,
    range_band,
)
from rules.systems.war_and_combat.turns import acting, done_full, full_action
from rules.systems.war_and_combat.zones import engaged_with, in_hand
from rules.targets import attack_target

__all__ = ["RELOADED", "missile_default", "shoot", "load"]

#: the missile weapons that must be loaded again after each shot ("Load Weapon"; the project's list: a
#: bow or sling is made ready as it shoots)
RELOADED = frozenset({"crossbow"})


def missile_default(c: Combatant) -> str | None:
    """The weapon a shot or an aim without ``weapon:`` takes: the missile weapon in hand, else the first carried
    (refused until `wield` draws it); None: ``c`` carries none."""
    held = in_hand(c)
    return held.name if held is not None and held.ranged else next((x.name for x in sheet.weapons(c) if x.ranged), None)


def shoot(enc: Encounter, opts: OptionValues, grid: Grid, action: Attack, words: OptionValues, dice: Dice) -> list[Event]:
    """`/attack` in the movement or adjustment phase: a ranged strike, once in each."""
    c = acting(enc, action.actor)
    refuse_if_busy(c, "shoot")
    t = attack_target(enc, c, action.target, foe=True)
    named = carried(c, action.weapon or missile_default(c))
    if not named.ranged or named.missile is None:
        raise IllegalAction(f"Melee weapons strike in the flurry phase: in the {enc.phase} phase, shoot with a missile weapon.")
    w = wielding(enc, c, named.name, melee=False, doing="shooting it")
    st = WacCombatant.of(c)
    if st.shots >= 1:
        raise IllegalAction(f"{c.name} has made its ranged strike of this phase: the next is in the next phase.")
    done_full(c, "its next shot is in the next phase")
    if w.name in st.unloaded:
        raise IllegalAction(f"{c.name}'s {w.name} is not loaded: `/act action:load` (a full action: no moving or "
                            "shooting in that phase) reloads it.")
    if engaged_with(enc, grid, c):
        raise IllegalAction(f"{c.name} is engaged: it fights in the flurry phase, not with missiles.")
    if c.cell is None or t.cell is None:
        raise IllegalAction("Both must be on the map.")
    kind = (words.target or opts.missile_target).lower()
    if kind not in MISSILE_TARGETS:
        raise InputError(f"`target=` is one of {', '.join(MISSILE_TARGETS)}.")
    name, level, versus = _shot_level(enc, opts, grid, c, t, w, kind)
    extra: list[Modifier] = []
    aimed = words.aim
    if aimed is not None:
        aimed = aimed.strip().lower()
        if aimed not in GENERAL_LOCATIONS and aimed not in SUB_LOCATIONS:
            raise InputError(f"`aim={aimed[:20]}` is no location to call: a general one ({', '.join(GENERAL_LOCATIONS)}) "
                             f"or a sub-location ({', '.join(SUB_LOCATIONS)}).")
        call = called_shot(name, aimed in SUB_LOCATIONS)
        if call is None:
            raise IllegalAction(f"{t.name} is at {name} range: a called shot is only at point blank or short range "
                                "(\"Otherwise hit locations are random\"); shoot without `aim=`.")
        extra.append(mod("called_shot_at", call, aimed) if aimed in SUB_LOCATIONS else mod("called_shot", call))
        aimed = SUB_LOCATIONS.get(aimed, aimed)
    extra += moving(enc, c)
    st.shots += 1
    st.mp, st.full = 0, "shooting"  # "Launch/Shoot/Throw" is a full action: "Full Actions prohibit movement"
    if w.name in RELOADED:
        st.unloaded.append(w.name)
    events = resolve_hit(enc, opts, grid, c, t, w, "kill", words, dice, skill=sheet.skill(c, w.name), attr="dex",
                         target_level=(level, versus), extra=extra, missile=True, aimed=aimed)
    shot = events[0]
    if isinstance(shot, WacAttacked) and shot.roll.success:
        return events
    return events + _stray(enc, opts, grid, c, t, w, dice)


def _shot_level(enc: Encounter, opts: OptionValues, grid: Grid, c: Combatant, t: Combatant, w: Weapon,
                kind: str) -> tuple[str, int, Term]:
    """(range band, target level, its term) of ``c``'s shot with ``w`` at ``t``, moving as ``kind`` says: the
    moving target row + the range band's modifier of ``t``'s own distance (+5 into a mêlée), or, an aware target
    at point blank range, its Defense ("confrontational just like a mêlée attack"). Refused beyond extreme range."""
    assert c.cell is not None and t.cell is not None and w.missile is not None
    hexes = grid.distance(c.cell, t.cell)
    band = range_band(w.missile, hexes)
    if band is None:
        raise IllegalAction(f"{t.name} is {hexes} hexes away, beyond the {w.name}'s extreme range of {w.missile * 5}.")
    name, range_mod = band
    against, why = defense(enc, opts, grid, t, c)
    confront = kind == "evading" and name == "point blank" and opts.close_missile == "defense"
    level = against if confront else moving_target(MISSILE_TARGETS[kind], range_mod, against if kind == "evading" else 0)
    melee = [str(FIRING_INTO_MELEE)] if engaged_with(enc, grid, t) else []
    level += FIRING_INTO_MELEE if melee else 0
    named = defense_term(enc, t, why).args  # its rule and what changed it, as a mêlée attack's Defense names them
    if confront:
        return name, level, Term(code="defense_aware_melee", args=[*named, *melee]) if melee else Term(code="defense_aware", args=named)
    if kind == "evading":  # "15 + Target's Defense + Range Mod.": the Defense named too
        return name, level, (Term(code="range_evading_melee", args=[name, *named, *melee]) if melee
                             else Term(code="range_evading", args=[name, *named]))
    return name, level, Term(code="range_melee", args=[name, kind, *melee]) if melee else Term(code="range", args=[name, kind])


def load(enc: Encounter, c: Combatant, name: str | None) -> list[Event]:
    """"Load Weapon", a full action ("Full Actions prohibit movement"): reload a weapon that was shot,
    in a step in which ``c`` has neither moved nor shot; it moves no more in that phase."""
    st = WacCombatant.of(c)
    w = carried(c, name).name if name else None  # refused when it carries no such weapon
    if not st.unloaded:
        reloaded = sorted(RELOADED & {x.name for x in sheet.weapons(c)})
        if not reloaded:
            raise IllegalAction(f"{c.name} has no {' or '.join(sorted(RELOADED))} to load: a bow or a sling is made "
                                "ready as it shoots.")
        raise IllegalAction(f"{c.name} has nothing to load: its {', '.join(reloaded)} is loaded again after it shoots.")
    w = w or st.unloaded[0]
    if w not in st.unloaded:
        raise IllegalAction(f"{c.name}'s {w} is loaded already.")
    full_action(c, "loading", "load")
    wielding(enc, c, w, melee=False, doing="loading it")
    st.unloaded.remove(w)
    return [EffectTaken(actor=c.name, effect="loads", detail=w)]


def _stray(enc: Encounter, opts: OptionValues, grid: Grid, c: Combatant, t: Combatant, w: Weapon,
           dice: Dice) -> list[Event]:
    """"Missed Shots: Treat accidental attacks against random targets in the missile's flight path as if
    the attacker had a skill level of -5": one of those standing between, picked with a die. Only the skill
    changes: the shot is judged at the one struck, its own range band and mêlée, moving as the option
    `missile_target` says (the shooter's `target=` told how the one aimed at moves), with the shooter's pace."""
    assert c.cell is not None and t.cell is not None
    path = grid.line_cells(c.cell, t.cell)
    between = [x for cell in path if (x := enc.at(cell)) is not None and x is not c and x is not t]
    if not between:
        return []
    with dice.rolling_for(c.name):
        pick = dice.roll(1, len(between))[0] if len(between) > 1 else 1
    victim = between[pick - 1]
    _, level, versus = _shot_level(enc, opts, grid, c, victim, w, opts.missile_target.lower())
    return resolve_hit(enc, opts, grid, c, victim, w, "kill", {}, dice, skill=MISSED_SHOT_SKILL, attr="dex",
                       target_level=(level, versus), extra=moving(enc, c), missile=True)
