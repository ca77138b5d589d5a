"""The War & Combat round, as the text orders it: check shock -> initiative (3d6 + Fighter
rank, open-ended; a high skew die for the side with the better Tactics) -> movement phase in
initiative order -> flurry phase -> adjustment phase in reverse initiative order -> morale (the
GM is prompted: the text gives no procedure). Steps that need no choice run by themselves.
"""
from __future__ import annotations

from rules.dice import Dice
from rules.effects import Effect, active, next_id
from rules.errors import IllegalAction, NotYourTurn
from rules.events import (
    Checked,
    EffectAdded,
    Event,
    InitiativeSet,
    Roll,
    RoundBegan,
    StatusChanged,
    mod,
)
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.war_and_combat import sheet
from rules.systems.war_and_combat.events import EffectTaken, MoralePrompt, PhaseBegan
from rules.systems.war_and_combat.options import ATTRIBUTES
from rules.systems.war_and_combat.state import WacCombatant, WacEncounter
from rules.systems.war_and_combat.tables import shock_value
from rules.systems.war_and_combat.tables_movement import pace_points, phase_points
from rules.systems.war_and_combat.task import TaskRoll, exceeds, task_roll
from rules.turns.ordered import Slot, arrange, next_to_act

__all__ = [
    "stunned",
    "surprised",
    "idle",
    "SURPRISED",
    "surprise",
    "can_act",
    "roll_of",
    "start_round",
    "up_next",
    "after_phase",
    "begin_phase",
    "end_step",
    "acting",
    "add_effect",
    "set_status",
    "phase_mp",
    "slowed",
    "fall",
    "quick_action",
    "full_action",
    "done_full",
]

PHASES = ("movement", "flurry", "adjustment", "morale")



#: the effect code of the surprised (`turns.surprised`)
SURPRISED = "surprised"


def stunned(enc: Encounter, c: Combatant) -> bool:
    return active(enc.effects, c.name, "stun") is not None


def surprised(enc: Encounter, c: Combatant) -> bool:
    """Surprised (the GM's `/act action:surprise`): no step, no flurry action, no defence this round."""
    return active(enc.effects, c.name, SURPRISED) is not None


def idle(enc: Encounter, c: Combatant) -> bool:
    """Taking no action now: stunned or surprised."""
    return stunned(enc, c) or surprised(enc, c)


def can_act(enc: Encounter, c: Combatant) -> bool:
    """Able to take a step now: active (not downed or out), neither stunned nor surprised."""
    return c.status == "active" and not idle(enc, c)


def roll_of(r: TaskRoll, label: str, modifiers: list[tuple[str, int]], against: int | None = None,
            against_label: str | None = None) -> Roll:
    """A task roll as an event's `Roll`: every die, the open end, the modifiers, the outcome."""
    mods = [mod("open end", r.extra)] if r.extra else []
    mods += [mod(n, v) for n, v in modifiers if v]
    total = r.total + sum(v for _, v in modifiers)
    success = None if against is None else exceeds(total, against)
    return Roll(dice=list(r.dice), label=label, kept=len(r.kept) if len(r.dice) > 3 and not r.rerolls else None,
                modifiers=mods, total=total, against=against, against_label=against_label, success=success)


def add_effect(enc: Encounter, c: Combatant, code: str, rounds: int, pending: int = 0) -> EffectAdded:
    """A timed condition (stun) on ``c`` for ``rounds`` round ends. One of the same name already
    running is never cut short: the two combine by keeping the longer ("can take no action for
    1d6 rounds" is not ended by a shock check's one-round stun). ``pending``: the round ends the
    action under way has passed, which will yet count the running one down (at a round's start, 1)."""
    running = active(enc.effects, c.name, code)
    if running is not None and running.left - pending >= rounds:
        rounds = running.left - pending
    else:
        effect = Effect(id=next_id(enc.effects), name=code, target=c.name, ends="round_end", left=rounds, code=code)
        enc.effects = [e for e in enc.effects if not (e.code == code and e.target == c.name)] + [effect]
    if code == "stun":  # "can take no action"
        WacCombatant.of(c).actions = 0
    return EffectAdded(actor=c.name, name=code, ends="round_end", left=rounds)


def surprise(enc: Encounter, names: list[str]) -> list[Event]:
    """"2. Check Surprise", before the first round: the GM marks ``names`` surprised for the first
    round (until the end of round 1; set before `/init roll`, it lasts through round 1)."""
    if enc.round > 1 or (enc.round == 1 and enc.phase != "movement"):
        raise IllegalAction("Surprise is checked before the first round's flurries (\"2. Check Surprise\"): "
                            "now `/effect add` can mark anything else.")
    return [add_effect(enc, enc.get(n), SURPRISED, 1) for n in names]


def set_status(c: Combatant, status: str, cause: str) -> list[Event]:
    if c.status == status or c.status == "out":
        return []
    c.status = status  # type: ignore[assignment]
    return [StatusChanged(actor=c.name, status=status, cause=cause)]


def phase_mp(opts: OptionValues, c: Combatant, phase: str) -> int:
    """Movement points for ``phase``: half the pace's (an odd one first; a sprint's rate is the
    option `sprint_points`); one impaired leg halves the rate, two make it a crawl; a fallen
    fighter crawls; an immobile one, or one busy with a lengthy action, does not move."""
    st = WacCombatant.of(c)
    if st.immobile or st.busy:
        return 0
    legs = {x for x in st.impaired + st.disabled if x.endswith("leg")}
    pace = "crawl" if (st.fallen or len(legs) >= 2) else sheet.pace(c)
    first, second = phase_points(pace, opts.sprint_points)
    if len(legs) == 1 and pace != "crawl":
        full = pace_points(pace, opts.sprint_points) // 2
        first, second = full - full // 2, full // 2
    return first if phase == "movement" else second


def fall(enc: Encounter, opts: OptionValues, c: Combatant) -> None:
    """``c`` falls: from that moment it crawls, so the points left this phase are at most a crawl's."""
    WacCombatant.of(c).fallen = True
    slowed(enc, opts, c)


def slowed(enc: Encounter, opts: OptionValues, c: Combatant) -> None:
    """After a fall or a leg impaired or disabled mid-phase: the points left this phase are at most
    what the rate from that moment gives (a crawl's, half the pace's)."""
    st = WacCombatant.of(c)
    if enc.phase in ("movement", "adjustment"):
        st.mp = min(st.mp, phase_mp(opts, c, enc.phase))


def _checks(enc: Encounter, opts: OptionValues, c: Combatant, dice: Dice) -> list[Event]:
    """Round start: the shock check against the worst shock value, then the death check."""
    st = WacCombatant.of(c)
    events: list[Event] = []
    values = [v for w in st.wounds if (v := shock_value(w.severity)) is not None]
    strength = sheet.modifier(c, "str")
    if values and c.status == "active":
        target = max(values)
        with dice.rolling_for(c.name):
            r = task_roll(dice)
        roll = roll_of(r, "3d6", [("Strength", strength)], target, "shock")
        events.append(Checked(actor=c.name, what="shock", roll=roll))
        if not roll.success:
            st.lost += 1
            if (roll.total or 0) <= target - opts.shock_stun:
                events.append(add_effect(enc, c, "stun", 1, pending=1 if enc.round > 1 else 0))  # the last round's end
    mortal = sum(1 for w in st.wounds if w.severity == "mortal")
    if mortal and c.status != "out":
        target = opts.death_base + opts.death_step * mortal
        with dice.rolling_for(c.name):
            r = task_roll(dice)
        roll = roll_of(r, "3d6", [("Strength", strength)], target, "death")
        events.append(Checked(actor=c.name, what="death", roll=roll))
        if not roll.success:
            events += set_status(c, "out", "death")
    return events


def _luck(enc: Encounter, opts: OptionValues) -> dict[str, int]:
    """Side -> skew dice on initiative: the side with the strictly best Tactics gets one."""
    if not opts.tactics_skew:
        return {}
    best = {s: max((sheet.skill(c, "tactics") for c in enc.combatants if c.side == s and c.in_fight), default=0)
            for s in enc.sides()}
    if len(best) < 2:
        return {}
    top = max(best.values())
    leaders = [s for s, v in best.items() if v == top]
    return {leaders[0]: 1} if len(leaders) == 1 and top > 0 else {}


def initiative_modifier(opts: OptionValues, c: Combatant) -> tuple[str, int]:
    """What ``c`` adds to its initiative roll: the Fighter rank, or ("Non-combat Initiative") the
    option `initiative`'s skill, or attribute modifier, "for both sides"."""
    field = opts.initiative
    if field == "fighter":
        return "Fighter", sheet.fighter(c)
    if field in ATTRIBUTES:
        return field.upper(), sheet.modifier(c, field)
    return field, sheet.skill(c, field)


def order_of(enc: Encounter) -> list[str]:
    slots = [Slot(c.name, c.initiative or 0, (-sheet.fighter(c), i))
             for i, c in enumerate(enc.combatants) if c.status == "active" and c.initiative is not None]
    return arrange(slots)


def start_round(enc: Encounter, opts: OptionValues, dice: Dice) -> list[Event]:
    """A new round: shock and death checks, initiative, then the movement phase."""
    enc.round += 1
    events: list[Event] = [RoundBegan(round=enc.round)]
    est = WacEncounter.of(enc)
    est.tactics, est.won = {}, []
    from rules.systems.war_and_combat import (
        lengthy,  # a round's start finishes what is due
    )

    for c in enc.combatants:
        st = WacCombatant.of(c)
        st.lost, st.turned, st.actions, st.flurry_init = 0, False, 0, None
        events += lengthy.finish(enc, c)
        if c.in_fight:
            events += _checks(enc, opts, c, dice)
    luck = _luck(enc, opts)
    for c in enc.combatants:
        if c.status != "active":  # the downed take no part in the round
            c.initiative = None
            continue
        with dice.rolling_for(c.name):
            r = task_roll(dice, luck.get(c.side, 0))
        roll = roll_of(r, "3d6" + (" high skew" if luck.get(c.side) else ""), [initiative_modifier(opts, c)])
        c.initiative = roll.total
        events.append(InitiativeSet(actor=c.name, value=c.initiative or 0, roll=roll))
    enc.order = order_of(enc)
    return events + begin_phase(enc, opts, "movement", dice)


def begin_phase(enc: Encounter, opts: OptionValues, phase: str, dice: Dice) -> list[Event]:
    """Begin ``phase``; a phase with nobody to act in it passes by itself to the next."""
    from rules.systems.war_and_combat import (
        flurry,  # the flurry phase runs its own steps
    )

    est = WacEncounter.of(enc)
    enc.phase, est.acted, enc.current = phase, [], None
    if phase == "flurry":
        return flurry.begin(enc, opts, dice)
    if phase == "morale":  # the text gives no procedure: the GM is prompted, and the next round begins
        return [MoralePrompt(round=enc.round), *start_round(enc, opts, dice)]
    order = enc.order[::-1] if phase == "adjustment" else list(enc.order)
    for c in enc.combatants:
        st = WacCombatant.of(c)
        st.mp, st.moved, st.shots, st.quick, st.full = phase_mp(opts, c, phase), False, 0, False, None
        st.spent, st.quick_mp = 0, (st.mp + 1) // 2 if opts.quick_movement == "half" else None
        if phase == "adjustment" and c.name in est.tactics:
            st.mp = min(st.mp, 2)  # after a flurry: a one-hex adjustment
    events: list[Event] = [PhaseBegan(phase=phase, order=order)]
    return events + _advance(enc, opts, order, dice)


def phase_order(enc: Encounter) -> list[str]:
    return enc.order[::-1] if enc.phase == "adjustment" else list(enc.order)


def _advance(enc: Encounter, opts: OptionValues, order: list[str], dice: Dice) -> list[Event]:
    est = WacEncounter.of(enc)
    ready = {c.name for c in enc.combatants if can_act(enc, c)}
    enc.current = next_to_act(order, est.acted, ready)
    if enc.current is not None:
        return []
    nxt = PHASES[PHASES.index(enc.phase or "movement") + 1]
    return begin_phase(enc, opts, nxt, dice)


def up_next(enc: Encounter, opts: OptionValues) -> tuple[str, ...]:
    """Who acts once the step (or the flurry's attack) under way ends, read from the state: the
    next in the phase's order who can act, else the first of the phase after. Nobody where dice
    decide: a flurry's initiative rolled before public declarations, the next round's initiative."""
    from rules.systems.war_and_combat import (
        flurry,  # the flurry phase runs its own steps
    )

    if enc.phase == "flurry":
        return flurry.up_next(enc, opts)
    ready = {c.name for c in enc.combatants if can_act(enc, c)}
    acted = [*WacEncounter.of(enc).acted, *([enc.current] if enc.current else [])]
    name = next_to_act(phase_order(enc), acted, ready)
    return (name,) if name is not None else after_phase(enc, opts, enc.phase or "movement")


def after_phase(enc: Encounter, opts: OptionValues, phase: str) -> tuple[str, ...]:
    """Who acts first once ``phase`` is over, read from the state (as `begin_phase` goes on)."""
    from rules.systems.war_and_combat import (
        flurry,  # the flurry phase runs its own steps
    )

    nxt = PHASES[PHASES.index(phase) + 1]
    if nxt == "flurry":
        return flurry.opening(enc, opts, flurry.groups(enc))
    if nxt == "adjustment":
        ready = {c.name for c in enc.combatants if can_act(enc, c)}
        name = next_to_act(enc.order[::-1], (), ready)
        return (name,) if name is not None else after_phase(enc, opts, nxt)
    return ()  # the morale phase, then the next round's initiative rolls


def end_step(enc: Encounter, opts: OptionValues, dice: Dice) -> list[Event]:
    """The current combatant's step in a movement or adjustment phase is over: the next one's."""
    est = WacEncounter.of(enc)
    if enc.current:
        est.acted.append(enc.current)
    return _advance(enc, opts, phase_order(enc), dice)


#: why the points left are fewer after a quick action (option `quick_movement=half`)
QUICK_LIMIT = "a quick action limits movement to half the phase's"


def quick_action(c: Combatant) -> list[Event]:
    """"A character may perform one quick action during each movement phase": spend it, or refuse a second;
    "Quick Actions can be done with limited movement": with option `quick_movement=half` the phase's
    movement is at most half its points (refused after more, and the points left cut after it, which
    the event returned says)."""
    st = WacCombatant.of(c)
    if st.quick:
        raise IllegalAction(f"{c.name} has taken its quick action of this phase: the next is in the next phase.")
    if st.quick_mp is not None:  # "Quick Actions can be done with limited movement" (option `quick_movement`)
        if st.spent > st.quick_mp:
            raise IllegalAction(f"{c.name} has spent {st.spent} movement point(s) this phase: a quick action \"can be "
                                f"done with limited movement\", at most {st.quick_mp} (half the phase's): take it in the "
                                "next phase, or move less before it.")
        st.mp = min(st.mp, st.quick_mp - st.spent)
    st.quick = True
    return [] if st.quick_mp is None else [EffectTaken(actor=c.name, effect="quick_limit", detail=str(st.mp))]


def full_action(c: Combatant, what: str) -> None:
    """"Full Actions prohibit movement": ``what`` is made in a step in which ``c`` has neither moved
    nor shot, and it moves and shoots no more in that phase."""
    st = WacCombatant.of(c)
    done_full(c, f"{what} is a full action too: make it in the next phase")
    if st.moved:
        raise IllegalAction(f"{c.name} has moved this phase: {what} is a full action, made in a phase without moving "
                            "or shooting.")
    st.mp, st.full = 0, what


def done_full(c: Combatant, then: str) -> None:
    """Refuse what a full action made this phase forbids (``then``: what that is, for the message)."""
    made = WacCombatant.of(c).full
    if made:
        raise IllegalAction(f"{c.name} has spent this phase {made} (a full action): {then}.")


def acting(enc: Encounter, name: str | None, phases: tuple[str, ...] = ("movement", "adjustment")) -> Combatant:
    """The combatant whose step it is, named ``name``; refused out of its step or phase."""
    if not enc.started:
        raise IllegalAction("Combat has not started: the GM starts it with `/init roll`.")
    c = enc.get(name)
    if enc.phase not in phases:
        raise IllegalAction(f"That is done in the {' or '.join(phases)} phase; this is the {enc.phase} phase.")
    if enc.current != c.name:
        raise NotYourTurn(f"It is {enc.current or 'nobody'}'s step in the {enc.phase} phase, not {c.name}'s.")
    return c
