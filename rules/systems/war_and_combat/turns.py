"""A fighter's part in the War & Combat round: its conditions (stunned, surprised), timed
effects and status, a task roll as an event's roll, the movement points of a phase, the quick
and full actions of a step, and whose step it is. The round itself, phase by phase, is
`rounds.py`.
"""
from __future__ import annotations

from rules.dice import Dice
from rules.effects import Effect, active, next_id
from rules.errors import IllegalAction, NotYourTurn
from rules.events import EffectAdded, Event, Modifier, Roll, StatusChanged, Term, mod
from rules.models import Combatant, Encounter, Status
from rules.options import OptionValues
from rules.systems.war_and_combat import lengthy, sheet
from rules.systems.war_and_combat.events import EffectTaken
from rules.systems.war_and_combat.state import WacCombatant, WacEncounter
from rules.systems.war_and_combat.tables import HELPLESS, STUNNED, DefenseRule
from rules.systems.war_and_combat.tables_movement import pace_points, phase_points
from rules.systems.war_and_combat.task import TaskRoll, exceeds, task_roll

__all__ = ["stunned", "surprised", "idle", "idle_why", "SURPRISED", "surprise", "can_act", "roll_of", "task", "acting", "add_effect",
           "to_declare", "set_status", "stun", "lowered", "phase_mp", "slowed", "fall", "quick_action", "full_action", "done_full",
           "refuse_if_idle", "refuse_if_down", "stopped"]


#: the effect code of the surprised (`turns.surprised`)
SURPRISED = "surprised"


def stunned(enc: Encounter, c: Combatant, pending: int = 0) -> bool:
    """Stunned: "can take no action for 1d6 rounds" (``pending``: round ends this action has passed that the effects'
    countdown, after the action, has yet to count: a stun they end is over)."""
    return _running(enc, c, "stun", pending)


def _running(enc: Encounter, c: Combatant, code: str, pending: int) -> bool:
    """``c`` has the condition ``code`` after ``pending`` round ends more are counted: any of its effects of that code
    (one that those round ends end and the new one that follows it, put on at a round's start, are both there)."""
    return any(e.code == code and e.target == c.name and e.left > pending for e in enc.effects)


def refuse_if_idle(enc: Encounter, c: Combatant) -> None:
    """"Stunned characters ... can take no action for 1d6 rounds": refuse any action of a stunned ``c`` (an attack, a
    shot, a move, a quick, full or lengthy action), saying how long the stun lasts and what is left to do; and any
    of a surprised one, who takes no action in the round it is surprised (`surprised`); first, any of a downed one
    (`refuse_if_down`), whom no stun's end lets act."""
    refuse_if_down(c)
    stun = active(enc.effects, c.name, "stun")
    if stun is not None:
        left = "until the end of this round" if stun.left <= 1 else f"for {stun.left} rounds, this one included"
        # what is left to it: passing on the attack it holds, ending its own step; elsewhere only the wait
        then = "" if enc.current != c.name else (
            "`/act action:hold` passes the attack on, and " if enc.phase == "flurry" else "`/init next` ends its step, and ")
        raise IllegalAction(f"{c.name} is stunned and can take no action {left}: {then}it waits for the stun to "
                            f"end (the GM may end it early with `/effect remove name:stun target:{c.name}`).")
    surprise = active(enc.effects, c.name, SURPRISED)
    if surprise is not None:  # it ends with the round its last round end counts
        raise IllegalAction(f"{c.name} is surprised and takes no action until the end of round "
                            f"{enc.round + max(surprise.left, 1) - 1}: it acts from the round after (the GM may "
                            f"end the surprise early with `/effect remove name:surprised target:{c.name}`).")


def refuse_if_down(c: Combatant) -> None:
    """"Only mortally wounded characters are incapable of performing any action" (and the unconscious): refuse any
    action of a downed ``c``, saying why it is downed."""
    if c.status == "active":
        return
    if c.status == "out":
        raise IllegalAction(f"{c.name} is out of the fight: it takes no action.")
    if WacCombatant.of(c).unconscious:
        raise IllegalAction(f"{c.name} is downed (unconscious): it takes no action, and its steps pass unplayed.")
    raise IllegalAction(f"{c.name} is downed (mortally wounded: \"incapable of performing any action\"): it takes no "
                        "action, and its steps pass unplayed (the GM's `/act action:heal` of the mortal wound makes it "
                        "active again).")


def stopped(enc: Encounter, c: Combatant) -> list[Event]:
    """``c`` can take no action now (stunned, surprised, knocked out, down): its lengthy action under way, a "Full
    Action" of more than one round, stops; nothing changes."""
    if can_act(enc, c) and not WacCombatant.of(c).unconscious:
        return []
    return lengthy.break_off(c, "lengthy_stopped")


def surprised(enc: Encounter, c: Combatant, pending: int = 0) -> bool:
    """Surprised (the GM's `/act action:surprise`): no step, no flurry action, no defence this round (``pending``: as
    `stunned`'s)."""
    return _running(enc, c, SURPRISED, pending)


def idle(enc: Encounter, c: Combatant, pending: int = 0) -> bool:
    """Taking no action now: stunned or surprised (``pending``: as `stunned`'s)."""
    return idle_why(enc, c, pending) is not None


def idle_why(enc: Encounter, c: Combatant, pending: int = 0) -> str | None:
    """Why ``c`` takes no action now: "stunned", "surprised", or None (it may act); ``pending``: as `stunned`'s."""
    return "stunned" if stunned(enc, c, pending) else "surprised" if surprised(enc, c, pending) else None


def can_act(enc: Encounter, c: Combatant, pending: int = 0) -> bool:
    """Able to take a step now: active (not downed or out), neither stunned nor surprised; ``pending``: round ends
    this action has passed that the effects' countdown has yet to count (a round's first phase, begun in the action
    that ended the last round: 1), whose ending conditions are over."""
    return c.status == "active" and not idle(enc, c, pending)


def roll_of(r: TaskRoll, modifiers: list[Modifier], against: int | None = None, versus: Term | None = None) -> Roll:
    """A task roll as an event's `Roll`: every die, the open end, the modifiers (those of 0 left
    out), the outcome against ``against`` (what it is: ``versus``). A roll rolled again for a natural
    18 or 3 carries its open end even when it adds nothing, with how many times 3d6 were rolled again,
    for the presenter to say why the dice after the first throw were rolled."""
    mods: list[Modifier] = []
    if r.rerolls and r.natural == 18:  # "a natural 18 rerolls and adds the new roll minus 10"
        mods.append(mod("open_end_high", r.extra, len(r.rerolls)))
    elif r.rerolls:  # "a natural 3 rerolls and subtracts the shortfall below 10"
        mods.append(mod("open_end_low", r.extra, len(r.rerolls)))
    mods += [m for m in modifiers if m.value]
    total = r.total + sum(m.value for m in modifiers)
    success = None if against is None else exceeds(total, against)
    first = len(r.dice) - 3 * len(r.rerolls)  # the first throw: 3d6 and any skew dice
    return Roll(dice=list(r.dice), label="3d6", kept=len(r.kept) if first > 3 else None, modifiers=mods, total=total,
                against=against, success=success, versus=versus)


def task(c: Combatant, dice: Dice, modifiers: list[Modifier], against: int | None = None,
         versus: Term | None = None, luck: int = 0, open_ended: bool = True) -> Roll:
    """``c``'s task roll (3d6, open-ended unless ``open_ended`` is false; ``luck`` skew dice, which the
    event rolled says) with ``modifiers``, as an event's `Roll`."""
    with dice.rolling_for(c.name):
        r = task_roll(dice, luck, open_ended)
    return roll_of(r, modifiers, against, versus)


def add_effect(enc: Encounter, c: Combatant, code: str, rounds: int, pending: int = 0) -> EffectAdded:
    """A timed condition (stun) on ``c`` for ``rounds`` round ends. One of the same name already
    running is never cut short: the two combine by keeping the longer ("can take no action for
    1d6 rounds" is not ended by a shock check's one-round stun). ``pending``: the round ends the
    action under way has passed before the condition was put on (at a round's start, 1): they will yet
    count it down with the rest as the action ends, so it is stored with them added. One running that
    those round ends end is left to end with them, told as every effect's end; the new one follows it."""
    running = active(enc.effects, c.name, code)
    if running is not None and running.left - pending >= rounds:
        rounds = running.left - pending
    else:
        effect = Effect(id=next_id(enc.effects), name=code, target=c.name, ends="round_end", left=rounds + pending,
                        code=code)
        ending = running is not None and running.left <= pending
        enc.effects = [e for e in enc.effects if ending or not (e.code == code and e.target == c.name)] + [effect]
    if code in ("stun", SURPRISED):  # "can take no action": no flurry action, and no further step of a movement under way
        st = WacCombatant.of(c)
        st.actions, st.mp = 0, 0
    return EffectAdded(actor=c.name, name=code, ends="round_end", left=rounds)


def lowered(rule: DefenseRule, opts: OptionValues, rank: int, agl: int) -> int:
    """A stunned, fallen or crawling fighter's Defense by ``rule``, with the Agility modifier ``agl`` where
    option `down_agility` adds it."""
    return rule.value(rank, agl) + (agl if opts.down_agility else 0)


def stun(enc: Encounter, opts: OptionValues, t: Combatant, rounds: int, pending: int = 0,
         rolled: bool = False) -> list[Event]:
    """``t`` stunned for ``rounds`` (a wound's 1d6 when ``rolled``, a shock check's or a combat option's round, the
    GM's `/effect add name:stun`), put on by `add_effect` (``pending`` as there), after its line: ``rounds``, the
    Defense attacks will use while it lasts and why (``stunned``, ``stunned_agility``; a helpless fighter's lower one:
    ``unconscious``, ``immobile``), and a longer stun running that is kept: its rounds left after ``pending``, so that
    the line says it is shorter and the running one runs on; then its own numbers: that Defense, the Fighter rank's
    half and the Agility modifier."""
    st = WacCombatant.of(t)
    running = active(enc.effects, t.name, "stun")
    left = running.left - pending if running is not None else 0
    kept = [left] if left > rounds else []
    rank, agl = sheet.fighter(t), sheet.modifier(t, "agl")
    if st.unconscious or st.immobile:  # "Unconscious characters have a base Defense of 3": it stays the lower
        value, why = HELPLESS.value(rank, agl), "unconscious" if st.unconscious else "immobile"
    else:
        value = lowered(STUNNED, opts, rank, agl)
        why = "stunned_agility" if opts.down_agility else "stunned"
    line = EffectTaken(actor=t.name, effect="stun", detail=str(rounds), args=[rounds, why, *kept],
                       values=[value, rank // 2, agl], roll=Roll(dice=[rounds], label="1d6") if rolled else None)
    return [line, add_effect(enc, t, "stun", rounds, pending)]


def surprise(enc: Encounter, names: list[str]) -> list[Event]:
    """"2. Check Surprise", before the first round: the GM marks ``names`` surprised for the first
    round (until the end of round 1; set before `/init roll`, it lasts through round 1)."""
    if enc.round > 1 or (enc.round == 1 and enc.phase != "movement"):
        raise IllegalAction("Surprise is checked before the first round's flurries (\"2. Check Surprise\"): "
                            "now `/effect add` can mark anything else.")
    return [e for n in names for e in (add_effect(enc, enc.get(n), SURPRISED, 1), *stopped(enc, enc.get(n)))]


def set_status(c: Combatant, status: Status, cause: str) -> list[Event]:
    if c.status == status or c.status == "out":
        return []
    c.status = status
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
    # the points left are the fighter's own number (its pace shows in them): hidden where its numbers are
    return [] if st.quick_mp is None else [EffectTaken(actor=c.name, effect="quick_limit", values=[st.mp])]


def full_action(c: Combatant, what: str, verb: str) -> None:
    """"Full Actions prohibit movement": ``what`` (to ``verb``) is made in a step in which ``c`` has neither moved
    nor shot, and it moves and shoots no more in that phase; not while a lengthy action runs ("Lengthy Actions are
    Full Actions that take more than one round to perform")."""
    st = WacCombatant.of(c)
    lengthy.refuse_if_busy(c, verb)
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


def acting(enc: Encounter, name: str | None, phases: tuple[str, ...] = ("movement", "adjustment"),
           passing: bool = False) -> Combatant:
    """The combatant whose step it is, named ``name``; refused out of its step or phase, and refused when stunned
    unless it is ``passing`` (ending its step, holding the initiative): a stunned fighter "can take no action"."""
    if not enc.started:
        raise IllegalAction("Combat has not started: the GM starts it with `/init roll`.")
    c = enc.get(name)
    if not passing:
        refuse_if_down(c)
    if enc.phase not in phases:
        raise IllegalAction(f"That is done in the {' or '.join(phases)} phase; this is the {enc.phase} phase.")
    if enc.current != c.name:
        if waiting := to_declare(enc):
            raise NotYourTurn(f"The flurry awaits {' and '.join(waiting)}'s declaration (`/act action:declare`): its "
                              "attacks come after.")
        raise NotYourTurn(f"It is {enc.current or 'nobody'}'s step in the {enc.phase} phase, not {c.name}'s.")
    if not passing:
        refuse_if_idle(enc, c)
    return c


def to_declare(enc: Encounter) -> list[str]:
    """Whose declaration the flurry under way awaits now: all yet to declare, or, declaring in
    turn, the next of them ("The attacker has the benefit of declaring his intention first, to
    which the defender must respond")."""
    est = WacEncounter.of(enc)
    d = est.declarations
    if enc.phase != "flurry" or d is None or d.revealed:
        return []
    return d.waiting()[:1] if est.in_turn else d.waiting()
