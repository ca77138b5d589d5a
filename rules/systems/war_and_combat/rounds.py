"""The War & Combat round, phase by phase, as the text orders it: check shock -> initiative (3d6 +
Fighter rank, open-ended with option `initiative_open=yes`; with option `tactics_skew`, the text's optional rule, a high skew die for the side with the better Tactics) -> movement phase
in initiative order -> flurry phase -> adjustment phase in reverse initiative order -> morale (the
GM is prompted: the text gives no procedure). Steps that need no choice run by themselves.

The flurry phase, one flurry after another (who forms them and who is in them: `flurry.py`). As
the text orders it (option `declare=public`): flurry initiative (3d6 + Fighter rank) and actions
first, then each participant declares an intention and a manoeuvre tactic openly, in
flurry-initiative order; with `declare=hidden` all declare at once, hidden until all have
(`rules.turns.phases`), and the initiative follows. Attacks in flurry-initiative order. A failed
attack passes the attack to the defender; a fighter out of actions passes it on; a hold passes it
once; the flurry ends when nobody on two sides has actions left (or all have held since the last
attack). Its winner (the most and best successes) decides the net movement. Then the next
flurry, and after the last the adjustment phase.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import Dice
from rules.effects import pass_turns
from rules.errors import IllegalAction, InputError
from rules.events import Checked, Event, Modifier, RoundBegan, Term, mod
from rules.geometry import Cell, Grid
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.war_and_combat import lengthy, sheet, zones
from rules.systems.war_and_combat.events import (
    AttackPassed,
    Declared,
    EffectTaken,
    FacedAttacker,
    FlurryBegan,
    FlurryEnded,
    FlurryInitiative,
    Interrupted,
    MoralePrompt,
    NobodyActs,
    PhaseBegan,
    Revealed,
    WacInitiative,
)
from rules.systems.war_and_combat.flurry import (
    DEFAULT_CHOICE,
    INTENTS,
    actions_for,
    groups,
    opponents,
    participants,
    to_declare,
    winner,
)
from rules.systems.war_and_combat.options import ATTRIBUTES
from rules.systems.war_and_combat.state import WacCombatant, WacEncounter
from rules.systems.war_and_combat.tables import shock_value
from rules.systems.war_and_combat.turns import (
    can_act,
    idle,
    idle_why,
    phase_mp,
    set_status,
    stopped,
    stun,
    stunned,
    task,
)
from rules.turns.ordered import Slot, arrange, next_to_act
from rules.turns.phases import Declarations

__all__ = ["PHASES", "start_round", "begin_phase", "end_step", "phase_order", "order_of", "initiative_modifier",
           "begin_flurries", "declare", "force", "join", "settle", "resume", "after_attack", "hold", "up_next"]


PHASES = ("movement", "flurry", "adjustment", "morale")


def _checks(enc: Encounter, opts: OptionValues, c: Combatant, dice: Dice) -> list[Event]:
    """Round start: the shock check against the worst shock value, then the death check."""
    st = WacCombatant.of(c)
    events: list[Event] = []
    values = [v for w in st.wounds if (v := shock_value(w.severity)) is not None]
    strength = sheet.modifier(c, "str")
    if values and c.status == "active":
        target = max(values)
        roll = task(c, dice, [mod("strength", strength)], target, Term(code="shock"))
        events.append(Checked(actor=c.name, what="shock", roll=roll))
        if not roll.success:
            st.lost += 1
            pending = 1 if enc.round > 1 else 0  # the last round's end, counted after this action
            # one stunned all this round already "has no action": it loses nothing, as `attacks.lose_actions` says
            held: list[str | int] = ["none_left"] if stunned(enc, c, pending) else []
            events.append(EffectTaken(actor=c.name, effect="loses_action", detail="1", args=held))
            if (roll.total or 0) <= target - opts.shock_stun:
                events += stun(enc, opts, c, 1, pending=pending)
                events += stopped(enc, c)
    mortal = sum(1 for w in st.wounds if w.severity == "mortal")
    if mortal and c.status != "out":
        target = opts.death_base + opts.death_step * mortal
        roll = task(c, dice, [mod("strength", strength)], target, Term(code="death"))
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


def initiative_modifier(opts: OptionValues, c: Combatant) -> Modifier:
    """What ``c`` adds to its initiative roll: the Fighter rank, or ("Non-combat Initiative") the
    option `initiative`'s skill, or attribute modifier, "for both sides"."""
    field = opts.initiative
    if field == "fighter":
        return mod("fighter", sheet.fighter(c))
    if field in ATTRIBUTES:
        return mod("attribute", sheet.modifier(c, field), field)
    return mod("named_skill", sheet.skill(c, field), field)


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
        skew = luck.get(c.side, 0)
        roll = task(c, dice, [initiative_modifier(opts, c)], luck=skew, open_ended=opts.initiative_open)
        c.initiative = roll.total
        events.append(WacInitiative(actor=c.name, value=c.initiative or 0, roll=roll, high_skew=skew > 0))
    enc.order = order_of(enc)
    # the round that ended is counted down after this action (`rules.effects.moments`): what it ends is over
    return events + begin_phase(enc, opts, "movement", dice, pending=1 if enc.round > 1 else 0)


def begin_phase(enc: Encounter, opts: OptionValues, phase: str, dice: Dice, pending: int = 0) -> list[Event]:
    """Begin ``phase``; a phase with nobody to act in it passes by itself to the next (``pending``: as
    `turns.can_act`'s)."""
    est = WacEncounter.of(enc)
    enc.phase, est.acted, enc.current = phase, [], None
    if phase == "flurry":
        return begin_flurries(enc, opts, dice)
    if phase == "morale":  # the text gives no procedure: the GM is prompted, and the next round begins
        return [MoralePrompt(round=enc.round), *start_round(enc, opts, dice)]
    order = enc.order[::-1] if phase == "adjustment" else list(enc.order)
    for c in enc.combatants:
        st = WacCombatant.of(c)
        st.mp, st.moved, st.shots, st.quick, st.full = phase_mp(opts, c, phase), False, 0, False, None
        st.spent, st.quick_mp, st.halted = 0, (st.mp + 1) // 2 if opts.quick_movement == "half" else None, False
        if phase == "adjustment" and c.name in est.tactics:
            st.mp = min(st.mp, 2)  # after a flurry: a one-hex adjustment
    events: list[Event] = [PhaseBegan(phase=phase, order=order)]
    if phase == "movement" and not any(can_act(enc, c, pending) for c in enc.combatants):
        # nobody standing can take an action: the round waits for the GM's `/init next`, so that each round's end
        # counts the stuns down (one round end an action), rather than the rounds running on by themselves
        return [*events, NobodyActs(round=enc.round)]
    return events + _advance(enc, opts, order, dice, pending)


def phase_order(enc: Encounter) -> list[str]:
    return enc.order[::-1] if enc.phase == "adjustment" else list(enc.order)


def _advance(enc: Encounter, opts: OptionValues, order: list[str], dice: Dice, pending: int = 0) -> list[Event]:
    est = WacEncounter.of(enc)
    ready = {c.name for c in enc.combatants if can_act(enc, c, pending)}
    enc.current = next_to_act(order, est.acted, ready)
    if enc.current is not None:
        return []
    # the phase ends: the step of each fighter who took none (down, stunned, surprised) passes unplayed
    skipped = [c.name for c in enc.combatants if c.in_fight and c.initiative is not None and c.name not in est.acted]
    enc.effects, ended = pass_turns(enc.effects, skipped)
    nxt = PHASES[PHASES.index(enc.phase or "movement") + 1]
    return [*ended, *begin_phase(enc, opts, nxt, dice)]


def end_step(enc: Encounter, opts: OptionValues, dice: Dice) -> list[Event]:
    """The current combatant's step in a movement or adjustment phase is over: the next one's (with nobody's step
    under way, a round in which nobody could act: the first who can now, or the round passes)."""
    est = WacEncounter.of(enc)
    if enc.current:
        est.acted.append(enc.current)
    return _advance(enc, opts, phase_order(enc), dice)


# -- the flurry phase ----------------------------------------------------------------------------
def begin_flurries(enc: Encounter, opts: OptionValues, dice: Dice) -> list[Event]:
    """The flurry phase begins: form the flurries and open the first one's declarations."""
    est = WacEncounter.of(enc)
    est.flurries = groups(enc)
    return _open(enc, opts, dice)


def _open(enc: Encounter, opts: OptionValues, dice: Dice) -> list[Event]:
    est = WacEncounter.of(enc)
    est.declarations, est.passed, est.successes, enc.current = None, [], {}, None
    while est.flurries and len({c.side for c in participants(enc)}) < 2:
        est.flurries.pop(0)
    if not est.flurries:
        return begin_phase(enc, opts, "adjustment", dice)
    fighters = participants(enc)
    events: list[Event] = [FlurryBegan(participants=[c.name for c in fighters])]
    # "can take no action": the stunned (and the surprised) neither declare nor roll the flurry's initiative
    still = {c.name: why for c in fighters if (why := idle_why(enc, c)) is not None}
    for c in fighters:
        if c.name in still:
            WacCombatant.of(c).actions, WacCombatant.of(c).flurry_init = 0, None
    grid = enc.grid()
    for c in fighters:
        WacCombatant.of(c).turned = False
        WacCombatant.of(c).carry, WacCombatant.of(c).carry_to, WacCombatant.of(c).owed = None, None, 0  # engaged: the step is off
        events += lengthy.break_off(c) + _face_nearest(enc, grid, c)
    est.in_turn = opts.declare == "public"
    declaring = [c for c in fighters if c.name not in still]
    if est.in_turn:  # "1. Roll for Flurry Initiative 2. Declare Intention": the attacker declares first
        events += [_initiative(enc, opts, c, dice) for c in declaring]
        declaring = _by_initiative(declaring)
    est.declarations = Declarations(participants={c.name: c.side for c in declaring})
    events[0] = FlurryBegan(participants=[c.name for c in declaring] + list(still), in_turn=est.in_turn, idle=still)
    if not declaring:  # nobody in it can take an action: nothing to wait for
        est.declarations.revealed = True
        events += _reveal(enc, opts, dice)
    return events


def _face_nearest(enc: Encounter, grid: Grid | None, c: Combatant, step_in: bool = False) -> list[Event]:
    """"If the two engaged figures are not already facing each other, then they are turned to face each other (no
    cost in movement points) as soon as the flurry begins": ``c``, facing none of its opponents in the flurry, is
    turned to the nearest (`_turn_to`: -1 Defense for the flurry where that places it in its zone of threat;
    ``step_in``: an interrupter's, whose blows reach a hex farther in this flurry)."""
    foes = opponents(enc, c)
    if grid is None or c.cell is None or not c.facing or not foes:
        return []
    facing_one = any(o.cell is not None and grid.turn_steps(c.facing, grid.facing_towards(c.cell, o.cell)) <= 1 for o in foes)
    here = c.cell
    placed = [(o, o.cell) for o in foes if o.cell is not None]
    if facing_one or not placed:
        return []
    _, there = min(placed, key=lambda oc: grid.distance(here, oc[1]))
    return [_turn_to(grid, c, there, step_in)]


def _by_initiative(cs: list[Combatant]) -> list[Combatant]:
    """Those declaring in turn, in flurry-initiative order (those with actions first): "The attacker has the
    benefit of declaring his intention first, to which the defender must respond"."""
    return sorted(cs, key=lambda c: (WacCombatant.of(c).actions > 0, WacCombatant.of(c).flurry_init or 0), reverse=True)


def _choice(options: Mapping[str, Any]) -> dict[str, str]:
    intent = (options.get("intent") or "kill").strip().lower().replace("outmaneuver", "outmanoeuvre")
    tactic = (options.get("tactic") or "hold").strip().lower()
    if intent not in INTENTS:
        raise InputError(f"`intent={intent[:20]}` is not an intention: use one of {', '.join(INTENTS)}.")
    guard = (options.get("guard") or "front").strip().lower()
    return {"intent": intent, "tactic": tactic} | ({"guard": guard} if guard != "front" else {})


def _facing_choice(enc: Encounter, c: Combatant, options: Mapping[str, Any]) -> dict[str, str]:
    """`face=<name>`: the opponent in this flurry to turn to (the default: the nearest, as the flurry began)."""
    name = (options.get("face") or "").strip()
    if not name:
        return {}
    foes = opponents(enc, c)
    foe = next((o for o in foes if o.name.lower() == name.lower()), None)
    if foe is None:
        raise InputError(f"`face=` names an opponent in this flurry: {' or '.join(o.name for o in foes)}.")
    return {"face": foe.name}


def declare(enc: Encounter, opts: OptionValues, c: Combatant, options: Mapping[str, Any], dice: Dice) -> list[Event]:
    est = WacEncounter.of(enc)
    d = est.declarations
    if enc.phase != "flurry" or d is None:
        raise IllegalAction("Declarations are made when a flurry begins, in the flurry phase.")
    if c.name not in d.participants and (why := idle_why(enc, c)) is not None:
        raise IllegalAction(f"{c.name} is {why}: no action this round, so it declares nothing; the flurry goes on "
                            "without its declaration.")
    waiting = to_declare(enc)
    if est.in_turn and waiting and c.name not in waiting:
        raise IllegalAction(f"{waiting[0]} declares first (the flurry initiative's order: \"the attacker has the benefit of "
                            f"declaring his intention first, to which the defender must respond\"); {c.name} responds after.")
    choice = _choice(options) | _facing_choice(enc, c, options)
    done = d.declare(c.name, choice)
    events: list[Event] = [Declared(actor=c.name, waiting=to_declare(enc) if not done else [],
                                    choice=choice if est.in_turn else None)]
    return events + (_reveal(enc, opts, dice) if done else [])


def drop_idle(enc: Encounter, opts: OptionValues, dice: Dice) -> list[Event]:
    """A fighter stunned or surprised while its flurry awaits declarations "can take no action": as one that could
    take none as the flurry began (`_open`), it declares nothing (one it made goes), has no flurry initiative and no
    action, and the flurry no longer waits for it; the declarations left complete are revealed (with nobody left
    able to act, the flurry ends at once)."""
    d = WacEncounter.of(enc).declarations
    if enc.phase != "flurry" or d is None or d.revealed:
        return []
    events: list[Event] = []
    for c in participants(enc):
        if c.name in d.participants and (why := idle_why(enc, c)) is not None:
            del d.participants[c.name]
            d.made.pop(c.name, None)
            WacCombatant.of(c).actions, WacCombatant.of(c).flurry_init = 0, None
            events.append(EffectTaken(actor=c.name, effect="no_declaration", detail=why))
    if events and d.complete():
        d.revealed = True
        events += _reveal(enc, opts, dice)
    return events


def force(enc: Encounter, opts: OptionValues, dice: Dice) -> list[Event]:
    est = WacEncounter.of(enc)
    if enc.phase != "flurry" or est.declarations is None or est.declarations.revealed:
        raise IllegalAction("There are no declarations waiting to be forced.")
    est.declarations.force(DEFAULT_CHOICE)
    return _reveal(enc, opts, dice)


def _reveal(enc: Encounter, opts: OptionValues, dice: Dice) -> list[Event]:
    """All declared: show every choice, roll flurry initiative, give actions, pick the attacker."""
    est = WacEncounter.of(enc)
    d = est.declarations
    assert d is not None
    choices = {n: (d.choice(n)["intent"], d.choice(n)["tactic"]) for n in d.participants}
    extra = {n: {k: v for k, v in d.choice(n).items() if k in ("guard", "face")} for n in d.participants}
    events: list[Event] = []
    if choices and (not est.in_turn or d.defaulted):  # declared in turn, each was shown as it was made
        events.append(Revealed(choices=choices, defaulted=list(d.defaulted), extra={n: v for n, v in extra.items() if v}))
    for c in participants(enc):
        events += _face(enc, c, d.choice(c.name).get("face"))
    for c in participants(enc):
        if c.name not in choices:  # it could take no action: it holds where it stands, to be pressed or not
            est.tactics[c.name] = DEFAULT_CHOICE["tactic"]
            continue
        if not est.in_turn:
            events.append(_initiative(enc, opts, c, dice))
        est.tactics[c.name] = choices[c.name][1]
    return events + _next_attacker(enc, opts, dice, None, "first")


def _initiative(enc: Encounter, opts: OptionValues, c: Combatant, dice: Dice) -> FlurryInitiative:
    """``c``'s flurry initiative (3d6 + Fighter rank) and its actions for the flurry."""
    st = WacCombatant.of(c)
    roll = task(c, dice, [mod("fighter", sheet.fighter(c))], open_ended=opts.initiative_open)
    st.flurry_init, st.actions = roll.total, actions_for(enc, opts, c) + _pins(enc, c)
    return FlurryInitiative(actor=c.name, value=st.flurry_init or 0, actions=st.actions, roll=roll)


def join(enc: Encounter, opts: OptionValues, c: Combatant, options: Mapping[str, Any], dice: Dice) -> list[Event]:
    """"Unengaged figures may interrupt flurries": ``c`` joins the flurry under way. Before the reveal
    it is one more to declare; after it, its declaration is public at once, it rolls its flurry
    initiative and its actions count from then."""
    est = WacEncounter.of(enc)
    d = est.declarations
    assert d is not None and est.flurries
    est.flurries[0].append(c.name)
    d.participants[c.name] = c.side
    WacCombatant.of(c).turned = False
    events: list[Event] = [Interrupted(actor=c.name, participants=list(est.flurries[0]), revealed=d.revealed)]
    events += _face_nearest(enc, enc.grid(), c, step_in=True)  # turned as the flurry's fighters were as it began
    if not d.revealed:
        words = any(v is not None for v in options.values())
        ahead: list[str] = []
        if est.in_turn:  # the others have rolled their flurry initiative already: it takes its place in their order
            events.append(_initiative(enc, opts, c, dice))
            d.participants = {o.name: o.side for o in _by_initiative([enc.get(n) for n in d.participants])}
            ahead = d.waiting()[: d.waiting().index(c.name)]
        now = words and not ahead
        events[0] = Interrupted(actor=c.name, participants=list(est.flurries[0]), ahead=ahead, declares=now)
        return events + (declare(enc, opts, c, options, dice) if now else [])
    choice = _choice(options) | _facing_choice(enc, c, options)
    d.made[c.name] = choice
    extra = {k: v for k, v in choice.items() if k in ("guard", "face")}
    events.append(Revealed(choices={c.name: (choice["intent"], choice["tactic"])}, extra={c.name: extra} if extra else {}))
    events += _face(enc, c, choice.get("face"))
    events.append(_initiative(enc, opts, c, dice))
    est.tactics[c.name] = choice["tactic"]
    return events


def settle(enc: Encounter, opts: OptionValues, dice: Dice) -> list[Event]:
    """After a blow from outside the flurry: pass the attack on if its holder can no longer attack."""
    cur = enc.find(enc.current) if enc.current else None
    if cur is not None and cur.status == "active" and WacCombatant.of(cur).actions > 0 and opponents(enc, cur):
        return []
    return _next_attacker(enc, opts, dice, None, "spent")


def _face(enc: Encounter, c: Combatant, name: str | None) -> list[Event]:
    """"the defender may choose which direction to face": turn to ``name`` unless it is in front already
    (turning costs -1 Defense for the flurry, as turning to face at the flurry's start)."""
    foe = enc.find(name) if name else None
    grid = enc.grid()
    if foe is None or grid is None or c.cell is None or foe.cell is None or not c.facing:
        return []
    want = grid.facing_towards(c.cell, foe.cell)
    if grid.turn_steps(c.facing, want) <= 1:
        return []
    return [_turn_to(grid, c, foe.cell)]


def _turn_to(grid: Grid, c: Combatant, there: Cell, step_in: bool = False) -> FacedAttacker:
    """``c`` turned to face the opponent at ``there`` (free). "A fighter who must turn to place the attacker into
    his zone of threat receives a -1 penalty to Defense for the entire flurry": only where the turn places it there,
    or, ``step_in`` (an interrupter, stepping in as a swipe does), the hex past its reach that its blows reach in
    this flurry. A polearm's foe a hex off stays in the gap before its head; one with no zone of threat (a bow in
    hand, a weapon dropped or sheathed) places nobody in it: no penalty, and the event says why (``reason``)."""
    assert c.cell is not None
    c.facing = grid.facing_towards(c.cell, there)
    held = zones.in_hand(c)
    stepped = step_in and held is not None and not held.ranged and grid.distance(c.cell, there) == zones.reach_of(held, True)
    penalty = stepped or there in zones.threat(grid, c)
    WacCombatant.of(c).turned = penalty
    reason = None if penalty else "unarmed" if held is None else "missile" if held.ranged else "gap"
    return FacedAttacker(actor=c.name, facing=c.facing, penalty=penalty, reason=reason)


def _pins(enc: Encounter, c: Combatant) -> int:
    """One extra action for each opponent in this flurry that ``c`` pressed against something impassable."""
    names = {o.name for o in opponents(enc, c)}
    return sum(1 for e in enc.effects if e.code == "pinned" and e.source == c.name and e.target in names)


def resume(enc: Encounter, opts: OptionValues, dice: Dice) -> list[Event]:
    """After a participant left mid-flurry: reveal if the rest have all declared, or pass the attack on."""
    d = WacEncounter.of(enc).declarations
    if enc.phase != "flurry" or d is None:
        return []
    if not d.revealed:
        if d.participants and d.complete():
            d.revealed = True
            return _reveal(enc, opts, dice)
        return [] if d.participants else _close(enc, opts, dice)
    if enc.current is None or enc.find(enc.current) is None:
        return _next_attacker(enc, opts, dice, None, "spent")
    return []


def _attacker(enc: Encounter, passed: list[str], prefer: Combatant | None = None) -> Combatant | None:
    """Who takes the attack: ``prefer`` if it can, else the highest flurry initiative with actions
    and an opponent that has not held (``passed``) since the last attack; None: nobody can."""

    def ready(c: Combatant) -> bool:
        return WacCombatant.of(c).actions > 0 and c.name not in passed and bool(opponents(enc, c))

    pool = [c for c in participants(enc) if ready(c)]
    if prefer is not None and prefer in pool:
        return prefer
    return max(pool, key=lambda c: WacCombatant.of(c).flurry_init or 0, default=None)


def _next_attacker(enc: Encounter, opts: OptionValues, dice: Dice, prefer: Combatant | None, reason: str) -> list[Event]:
    """Give the attack to ``prefer`` if it can take it, else to the highest flurry initiative with
    actions and an opponent; when nobody can, the flurry ends."""
    before = enc.current
    nxt = _attacker(enc, WacEncounter.of(enc).passed, prefer)
    if nxt is None:
        return _close(enc, opts, dice)
    enc.current = nxt.name
    if reason == "first" or nxt.name == before:
        return []
    return [AttackPassed(actor=nxt.name, reason=reason, from_=before)]


def after_attack(enc: Encounter, opts: OptionValues, dice: Dice, attacker: Combatant, target: Combatant, hit: bool) -> list[Event]:
    """After one attack: a miss passes the attack to the defender; out of actions passes it on.
    An attack ends the holds before it: a hold "allows another to go first" once, and the holder
    stays in the flurry, to get the attack back by these same rules."""
    WacEncounter.of(enc).passed = []
    if not hit and target.status == "active" and WacCombatant.of(target).actions > 0:
        return _next_attacker(enc, opts, dice, target, "miss")
    if WacCombatant.of(attacker).actions > 0 and attacker.status == "active" and opponents(enc, attacker):
        return []
    return _next_attacker(enc, opts, dice, None, "spent")


def hold(enc: Encounter, opts: OptionValues, c: Combatant, dice: Dice) -> list[Event]:
    """The attacker holds: the attack passes to the next with actions who has not held since the
    last attack; when all have held, nobody wants the attack and the flurry ends."""
    WacEncounter.of(enc).passed.append(c.name)
    return _next_attacker(enc, opts, dice, None, "hold")


def _close(enc: Encounter, opts: OptionValues, dice: Dice) -> list[Event]:
    est = WacEncounter.of(enc)
    names = est.flurries.pop(0) if est.flurries else []
    if opts.net_movement == "each":
        est.won += names
    elif (top := winner(enc, names)) is not None:
        est.won.append(top)
    for n in names:
        if (c := enc.find(n)) is not None:
            WacCombatant.of(c).actions = 0
            WacCombatant.of(c).restrict, WacCombatant.of(c).restrict_by = None, None  # a hold lasts the flurry
    return [FlurryEnded(participants=names), *_open(enc, opts, dice)]


# -- who is on deck, read from the state ------------------------------------------------------
def up_next(enc: Encounter, opts: OptionValues) -> tuple[str, ...]:
    """Who acts once the step (or the flurry's attack) under way ends, read from the state: the
    next in the phase's order who can act, else the first of the phase after. Nobody where dice
    decide: a flurry's initiative rolled before public declarations, the next round's initiative."""
    if enc.phase == "flurry":
        nxt = _attacker(enc, [*WacEncounter.of(enc).passed, *([enc.current] if enc.current else [])])
        return (nxt.name,) if nxt is not None else _opening(enc, opts, WacEncounter.of(enc).flurries[1:])
    ready = {c.name for c in enc.combatants if can_act(enc, c)}
    acted = [*WacEncounter.of(enc).acted, *([enc.current] if enc.current else [])]
    name = next_to_act(phase_order(enc), acted, ready)
    return (name,) if name is not None else _after_phase(enc, opts, enc.phase or "movement")


def _opening(enc: Encounter, opts: OptionValues, flurries: list[list[str]]) -> tuple[str, ...]:
    """Who acts first once the next of ``flurries`` with two sides standing opens (as `_open`
    does): all its fighters declare; nobody named when each rolls its flurry initiative first
    (``declare=public``); with no flurry left, the adjustment phase's first."""
    for names in flurries:
        fighters = [c for c in enc.combatants if c.name in names and c.status == "active"]
        if len({c.side for c in fighters}) >= 2:
            return () if opts.declare == "public" else tuple(c.name for c in fighters if not idle(enc, c))
    return _after_phase(enc, opts, "flurry")


def _after_phase(enc: Encounter, opts: OptionValues, phase: str) -> tuple[str, ...]:
    """Who acts first once ``phase`` is over, read from the state (as `begin_phase` goes on)."""
    nxt = PHASES[PHASES.index(phase) + 1]
    if nxt == "flurry":
        return _opening(enc, opts, groups(enc))
    if nxt == "adjustment":
        ready = {c.name for c in enc.combatants if can_act(enc, c)}
        name = next_to_act(enc.order[::-1], (), ready)
        return (name,) if name is not None else _after_phase(enc, opts, nxt)
    return ()  # the morale phase, then the next round's initiative rolls
