"""Coup-De-Grace's rounds: alternating activation by side (`rules.turns.alternating`).

Initiative goes to the side with the most minis in the battle (deployed or not, downed
included, out of action excluded); ties by a d6 roll-off (``tie=join``: joining order). Sides
then take turns activating one mini on the board at a time; a mini's activation starts with its
first move, attack or act and ends with ``/init next`` (a downed mini's one action ends it).
"""
from __future__ import annotations

from rules.dice import Dice
from rules.effects import end_turn, pass_turns, start_turn
from rules.errors import IllegalAction, InputError, NotFound, NotYourTurn
from rules.events import Checked, Event, Roll, TurnPassed
from rules.models import Combatant, Encounter
from rules.system import Turn
from rules.systems.coup_de_grace.events import (
    Activated,
    ActivationEnded,
    NewRound,
    OrderSet,
    Passed,
    Priority,
    RoundOver,
)
from rules.systems.coup_de_grace.options import values
from rules.systems.coup_de_grace.sheet import movement
from rules.systems.coup_de_grace.state import CdgCombatant, CdgEncounter
from rules.turns import alternating

__all__ = [
    "activate",
    "refuse_if_out",
    "advance",
    "finish",
    "taken_out",
    "new_round",
    "next_turn",
    "on_removed",
    "pass_mini",
    "pool",
    "reorder",
    "side_order",
    "standing_sides",
    "start",
    "turn",
    "up_next",
]


def pool(enc: Encounter, side: str | None) -> list[Combatant]:
    """The side's minis that may still activate this round (on the board, not yet activated)."""
    return [c for c in enc.combatants if c.side == side and c.on_board and not CdgCombatant.of(c).done]


def side_order(enc: Encounter) -> list[str]:
    return alternating.rotation(CdgEncounter.of(enc).sides, enc.sides())


def standing_sides(enc: Encounter) -> list[str]:
    return [s for s in enc.sides() if any(c.status != "out" for c in enc.combatants if c.side == s)]


def _counts(enc: Encounter) -> dict[str, int]:
    """The sides' minis in the battle (deployed or not, downed included), for the order of sides."""
    counts = {s: sum(1 for c in enc.combatants if c.side == s and c.in_fight) for s in enc.sides()}
    return {s: n for s, n in counts.items() if n}


def new_round(enc: Encounter, dice: Dice) -> list[Event]:
    """Start the next round: reset activations, work the initiative out afresh."""
    enc.round += 1
    enc.current = None
    for c in enc.combatants:
        s = CdgCombatant.of(c)
        s.done, s.mp, s.used, s.reroll = False, None, {}, False
    counts = _counts(enc)

    def roll(side: str) -> int:
        with dice.rolling_for(*(c.name for c in enc.combatants if c.side == side)):
            return dice.die(6)

    sides, rolls = alternating.order_sides(counts, values(enc).tie, roll)
    events: list[Event] = [
        Checked(actor=r.side, what="roll_off", roll=Roll(dice=[r.value], label="d6", total=r.value)) for r in rolls
    ]
    state = CdgEncounter.of(enc)
    state.sides, state.priority, state.slot = sides, None, 0
    enc.order = alternating.interleave([[c.name for c in pool(enc, s)] for s in sides])
    events.append(NewRound(round=enc.round, sides=sides, counts={s: counts[s] for s in sides}))
    return events + pass_priority(enc, None)


def pass_priority(enc: Encounter, after: str | None) -> list[Event]:
    """Give priority to the next side (after ``after``) that has a mini left to activate."""
    state = CdgEncounter.of(enc)
    standing = set(standing_sides(enc))
    nxt = alternating.next_turn(
        side_order(enc), after, lambda side, _phase: bool(pool(enc, side)), standing=standing.__contains__
    )
    events: list[Event] = [Passed(side=s) for s in nxt.passed]
    state.priority = nxt.side
    if nxt.side is not None:
        state.slot += 1
        events.append(Priority(side=nxt.side, minis=[c.name for c in pool(enc, nxt.side)]))
    return events


def advance(enc: Encounter, after: str | None, dice: Dice) -> list[Event]:
    """Pass priority on; when nobody has a mini left, the round is over and the next begins."""
    events = pass_priority(enc, after)
    if CdgEncounter.of(enc).priority is None:
        events.append(RoundOver(round=enc.round))
        events += new_round(enc, dice)
    return events


def need_started(enc: Encounter) -> None:
    if not enc.started:
        raise IllegalAction("Combat has not started: the GM starts it with `/init roll`.")


def refuse_if_out(c: Combatant) -> None:
    """"Remove the mini from the board, and it takes no further part in the battle": refuse any action of ``c`` once out."""
    if c.status == "out":
        raise IllegalAction(f"{c.name} is out of action and takes no further part in the battle.")


def activate(enc: Encounter, c: Combatant, passing: bool = False) -> list[Event]:
    """Make ``c`` the activating mini (its first action this activation), or refuse; ``passing``:
    only to end its activation at once, unplayed (`next_turn`)."""
    need_started(enc)
    if enc.current == c.name:
        return []
    refuse_if_out(c)
    if enc.current:
        raise NotYourTurn(
            f"{enc.current} is activating now: its activation ends with `/init next` before {c.name} can act."
        )
    side = CdgEncounter.of(enc).priority
    if side is None:
        raise NotYourTurn(f"Round {enc.round} is over: `/init next` starts round {enc.round + 1}.")
    minis = [x.name for x in pool(enc, side)]
    waiting = ", ".join(minis)
    s = CdgCombatant.of(c)
    if s.done:
        raise NotYourTurn(
            f"{c.name} has already activated in round {enc.round}: each mini activates once a "
            f"round. Still to activate for {side}: {waiting or 'none'}."
        )
    if c.side != side:
        raise NotYourTurn(
            f"Priority is with {side}, " + (f"whose {waiting} activates next" if len(minis) == 1 else f"who activate one of {waiting}")
            + f"; {c.name} waits until priority passes to {c.side}."
        )
    if c.position is None:
        raise IllegalAction(
            f"{c.name} is not on the board: the GM deploys it with `/combatant edit name:{c.name} at:CELL`."
        )
    enc.current = c.name
    enc.effects, ended = start_turn(enc.effects, c.name)  # what ends as its turn starts no longer counts in it
    downed = c.status == "downed"
    s.done, s.mp = True, 0 if downed else movement(enc, c)
    return [Activated(actor=c.name, mp=s.mp, downed=downed, passing=passing), *ended]


def end_activation(enc: Encounter) -> list[Event]:
    c = enc.get(enc.current)
    s = CdgCombatant.of(c)
    left = s.mp or 0
    s.mp = None
    enc.current = None
    enc.effects, ended = end_turn(enc.effects, c.name)  # told with the activation's end
    return [ActivationEnded(actor=c.name, unused=left if c.status == "active" else 0), *ended]


def finish(enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
    """End a downed mini's activation after its one action (unless the fight is won)."""
    if len(standing_sides(enc)) < 2 or enc.current != c.name:
        return []
    return end_activation(enc) + advance(enc, c.side, dice)


def taken_out(enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
    """``c`` was put out of action (by the GM's edit of its HP): "Remove the mini from the board, and it takes no
    further part in the battle", so priority moves as when it is removed (`on_removed`): activating, its activation
    ends, used, and priority passes on from its side; the last mini of the side with priority while nobody
    activates, that side "has run out of minis to activate" and passes."""
    if c.status != "out" or len(standing_sides(enc)) < 2:
        return []
    return finish(enc, c, dice) if enc.current == c.name else on_removed(enc, c, dice)


def turn(enc: Encounter) -> Turn:
    if not enc.started or enc.winner:
        return Turn()
    state = CdgEncounter.of(enc)
    key = (enc.round, state.slot)
    cur = enc.find(enc.current)
    if cur is not None:
        points = () if cur.status == "downed" else (CdgCombatant.of(cur).mp or 0, movement(enc, cur))
        return Turn((cur.name,), key, cur.name, cur.side, points=points)
    side = state.priority
    waiting = pool(enc, side) if side else []
    if not waiting:
        return Turn((), (enc.round, "over"), over=True, gm=True)
    return Turn(tuple(c.name for c in waiting), key, None, side)


def up_next(enc: Encounter, turn: Turn) -> tuple[str, ...]:
    """Who may activate once ``turn`` ends (the activation under way, or else the first of the
    side's minis activating and doing nothing), read from the state: the next side with minis
    left, else the next round's first side; nothing when the new round's order needs a roll-off."""
    ending = enc.get(turn.current or turn.actors[0])

    def left(side: str) -> list[str]:
        return [c.name for c in pool(enc, side) if c is not ending]

    standing = set(standing_sides(enc)).__contains__
    nxt = alternating.next_turn(side_order(enc), ending.side, lambda side, _phase: bool(left(side)), standing=standing)
    if nxt.side is not None:
        return tuple(left(nxt.side))
    counts = _counts(enc)
    if values(enc).tie == "roll" and len(set(counts.values())) < len(counts):
        return ()  # a roll-off orders the tied sides
    sides, _ = alternating.order_sides(counts, "join")

    def fresh(side: str) -> list[str]:
        return [c.name for c in enc.combatants if c.side == side and c.on_board]

    first = alternating.next_turn(alternating.rotation(sides, enc.sides()), None, lambda side, _phase: bool(fresh(side)),
                                  standing=standing)
    return tuple(fresh(first.side)) if first.side is not None else ()


def start(enc: Encounter, actor: str | None, title: str, dice: Dice) -> list[Event]:
    """`/init roll`: the fight begins with round 1."""
    if actor:
        raise IllegalAction(
            f"{title} has no initiative for a single mini: `/init roll` without a combatant "
            f"starts the fight, and the side with the most minis activates first."
        )
    if enc.started:
        raise IllegalAction(
            f"The fight is under way (round {enc.round}): initiative is worked out afresh at the "
            f"start of each round. `/init next` ends the activation under way."
        )
    if len([s for s in enc.sides() if any(c.in_fight for c in enc.combatants if c.side == s)]) < 2:
        raise IllegalAction("A fight needs minis on at least two sides: add some with `/combatant add`.")
    return new_round(enc, dice)


def reorder(enc: Encounter, names: str | None) -> list[Event]:
    """GM: set this round's order of sides (side names, or minis standing for their side)."""
    need_started(enc)
    if enc.current or any(CdgCombatant.of(c).done for c in enc.combatants):
        raise IllegalAction(
            "The order of sides can only change before the round's first activation: "
            "it is worked out afresh at the start of the next round."
        )
    order = side_order(enc)
    wanted: list[str] = []
    for raw in (x.strip() for x in (names or "").split(",")):
        if not raw:
            continue
        mini = enc.find(raw)
        side = mini.side if mini else next((s for s in order if s.casefold() == raw.casefold()), None)
        if side is None:
            raise NotFound(f"`{raw}` is neither a side nor a mini here. Sides: {', '.join(order)}.")
        if side not in wanted:
            wanted.append(side)
    if not wanted:
        raise InputError(f"Give the sides in the order they act, comma separated: {', '.join(order)}.")
    CdgEncounter.of(enc).sides = wanted + [s for s in order if s not in wanted]
    return [OrderSet(sides=list(CdgEncounter.of(enc).sides)), *pass_priority(enc, None)]


def next_turn(enc: Encounter, actor: str | None, dice: Dice, whole_side: bool = False) -> list[Event]:
    """`/init next`: end the activation under way (activating ``actor`` first if none is).
    ``whole_side`` (a deadline): when no mini is activating, every mini the side still had to
    activate this round passes its activation, not ``actor`` alone: each activates and ends in
    turn, as its own `/init next` would."""
    need_started(enc)
    events: list[Event] = []
    others: list[Combatant] = []
    if enc.current is None:
        side = CdgEncounter.of(enc).priority
        if side is None or not pool(enc, side):  # round over (or priority owed after a removal)
            return advance(enc, side, dice)
        if not actor:
            raise NotYourTurn(
                f"{side} must activate a mini before priority passes (a side cannot pass while it "
                f"has minis to activate): act with one, or `/init next combatant:NAME` to activate "
                f"it and do nothing."
            )
        others = [c for c in pool(enc, side) if c.name != actor] if whole_side else []
        events += activate(enc, enc.get(actor), passing=True)
    side = enc.get(enc.current).side
    events += end_activation(enc)
    for c in others:
        events += activate(enc, c, passing=True) + end_activation(enc)
    return events + advance(enc, side, dice)


def on_removed(enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
    if not enc.started or enc.winner:
        return []
    passes, after = alternating.after_removal(c.side, CdgCombatant.of(c).mp is not None, enc.current is None,
                                              CdgEncounter.of(enc).priority, lambda side: bool(pool(enc, side)))
    return advance(enc, after, dice) if passes else []


def pass_mini(enc: Encounter, c: Combatant) -> list[Event]:
    """The GM passes ``c`` while another mini activates: it loses its activation this round, which
    passes unplayed all the same (the effects timed by its turn count down)."""
    refuse_if_out(c)
    if c not in pool(enc, c.side):
        raise IllegalAction(
            f"{c.name} has no activation left this round to pass (it has activated, or is not on the board): nothing was ended."
        )
    CdgCombatant.of(c).done = True
    enc.effects, ended = pass_turns(enc.effects, [c.name])
    return [TurnPassed(actor=c.name), *ended]
