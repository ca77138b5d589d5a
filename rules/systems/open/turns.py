"""Turns in the open system: each combatant's initiative roll, highest first; ties by the higher
modifier, then a roll-off (a d20 each, higher first; equal dice keep the order they joined, with no
second roll-off). A turn is its speed in feet of movement and one action. A player's combatant
down at 0 HP makes a death save at the start of its turn (option ``death_saves``): its owner rolls
it (`/act action:death-save`, or ending the turn rolls it for them), or with ``death_save_roll=bot``
the bot rolls it as the turn begins; either way its turn then passes on.

Dice order: `/init roll` rolls each combatant's expression in the order they joined (copies
sharing a roll with ``group_init=yes`` roll once, at the first), then a d20 for each combatant of
a tie, one tied group after another (the groups in the order their first combatant joined, each
group's combatants in the order they joined; copies sharing a roll roll one d20, at the first of
them); one joining the fight on a tie rolls its initiative, then the tie's new roll-off d20s; a
death save rolls a d20 (as the turn begins with ``death_save_roll=bot``, else in
`/act action:death-save` or the turn's end).
"""
from __future__ import annotations

import re
from collections.abc import Callable

from rules.dice import Dice, Typed, roll_expression
from rules.effects import Effect, active, pass_turns, total
from rules.errors import IllegalAction, InputError
from rules.events import Event, Roll, StatusChanged
from rules.models import INITIATIVE_MAX, INITIATIVE_MIN, Combatant, Encounter
from rules.options import OptionValues
from rules.systems.open import sheet
from rules.systems.open.conditions import has, setting
from rules.systems.open.events import (
    DeathSave,
    DeathSaveDue,
    OpenInitiative,
    OpenRound,
    Ranked,
    RolledOff,
    TurnBegan,
)
from rules.systems.open.state import OpenCombatant, OpenEncounter
from rules.turns import ordered
from rules.turns.ordered import acting

__all__ = ["DASH", "DISENGAGE", "taken", "arrange", "back_in", "start", "init_one", "set_initiative", "advance", "up_next", "acting",
           "speed_now", "group_of", "takes_turns", "saving", "death_save"]

#: the codes of the effects the dash and disengage actions leave on their combatant until its turn ends
DASH, DISENGAGE = "dash", "disengage"


def group_of(enc: Encounter, c: Combatant) -> str | None:
    """The name copies of ``c`` share (``Goblin`` of ``Goblin 2``), if another combatant shares it."""
    m = re.fullmatch(r"(.+) [0-9]+", c.name)
    if m is None:
        return None
    base = m.group(1)
    return base if any(o is not c and re.fullmatch(re.escape(base) + r" [0-9]+", o.name) for o in enc.combatants) else None


def takes_turns(enc: Encounter, opts: OptionValues, c: Combatant) -> bool:
    """Active, or a player's down combatant still rolling death saves."""
    if c.status == "active":
        return True
    st = OpenCombatant.of(c)
    return c.status == "downed" and opts.death_saves and sheet.is_player(enc, c) and not st.stable


def saving(enc: Encounter, c: Combatant) -> bool:
    """Is it ``c``'s turn, which began with it down, with its death save still to roll (option
    ``death_save_roll=player``)? One that falls in its own turn makes none in it."""
    return enc.current == c.name and c.status == "downed" and OpenCombatant.of(c).save_due


def death_save(enc: Encounter, c: Combatant, dice: Dice, *, ending: bool = False) -> list[Event]:
    """The death save of ``c``, whose turn it is: a natural 20 brings it back up, and its turn goes on
    with its movement and action (unless the save is rolled as the turn is ``ending``)."""
    OpenCombatant.of(c).save_due = False
    events, up = _death_save(enc, c, dice)
    if up and not ending:
        _start_turn(enc, c)
        events.append(_turn_began(enc, c))
    return events


def _number(c: Combatant) -> int:
    """A copy's number (``3`` of ``Goblin 3``)."""
    return int(c.name.rsplit(" ", 1)[1])


def _sharing(enc: Encounter, opts: OptionValues, c: Combatant) -> tuple[str, str] | None:
    """What copies sharing a roll (``group_init=yes``) have in common: their name and their initiative expression
    (a copy whose `init` was edited away from the others' rolls its own); None: ``c`` shares no roll."""
    group = group_of(enc, c) if opts.group_init else None
    return None if group is None else (group, sheet.init_expression(c)[0])


def _ties(enc: Encounter, opts: OptionValues, fighters: list[Combatant]) -> dict[tuple[int, int], list[list[Combatant]]]:
    """``fighters`` by initiative and modifier, each tie as the units that roll off in it: one combatant, or the
    copies sharing a roll (``group_init=yes``) in number order; the units in the order their first joined."""
    ties: dict[tuple[int, int], dict[tuple[bool, str | tuple[str, str]], list[Combatant]]] = {}
    for c in fighters:
        shares = _sharing(enc, opts, c)
        unit: tuple[bool, str | tuple[str, str]] = (True, shares) if shares is not None else (False, c.name)
        ties.setdefault((c.initiative or 0, OpenCombatant.of(c).init_mod), {}).setdefault(unit, []).append(c)
    return {key: [sorted(u, key=_number) if shared else u for (shared, _), u in units.items()]
            for key, units in ties.items()}


def _slots(enc: Encounter, opts: OptionValues) -> list[ordered.Slot]:
    """The order's places: those in the fight, and those out of it that have an initiative, at their place (shown
    there, marked out, taking no turn)."""
    fighters = [c for c in enc.combatants if c.in_fight]
    joined = {c.name: (i, 0) for i, c in enumerate(enc.combatants)}
    if opts.group_init:  # copies sharing a roll: together, at their first's place, in number order
        for unit in (u for units in _ties(enc, opts, fighters).values() for u in units if len(u) > 1):
            first = min(joined[c.name][0] for c in unit)
            joined.update((c.name, (first, _number(c))) for c in unit)
    return [
        ordered.Slot(
            c.name, c.initiative if c.initiative is not None else -99,
            (-OpenCombatant.of(c).init_mod, -OpenCombatant.of(c).roll_off, joined[c.name]),
            takes_turns(enc, opts, c),
        )
        for c in enc.combatants if c.in_fight or c.initiative is not None
    ]


def arrange(enc: Encounter, opts: OptionValues) -> None:
    """The round's order; those who acted in it (or were passed over) stay so while out of the fight,
    so that one brought back takes no second turn in the round. Copies sharing a roll whose turns are under way
    (some acted, some not) take theirs next: one joining ahead of them, or winning their tie, comes after."""
    st = OpenEncounter.of(enc)
    st.acted = [n for n in st.acted if enc.find(n) is not None]
    order = ordered.arrange(_slots(enc, opts), st.acted)
    if opts.group_init:
        fighters = [c for c in enc.combatants if c.in_fight]
        started = [c.name for units in _ties(enc, opts, fighters).values() for u in units if len(u) > 1
                   and any(c.name in st.acted for c in u) for c in u if c.name not in st.acted]
        done = len([n for n in order if n in st.acted])
        order = order[:done] + started + [n for n in order[done:] if n not in started]
    enc.order = order


def back_in(enc: Encounter, opts: OptionValues, c: Combatant) -> None:
    """``c``, out of the fight and brought back mid-round, takes its turn at its place in the order
    (one turn a round): where that place has passed (before the one acting now), it waits for the next round,
    listed in its place among those who have acted."""
    st = OpenEncounter.of(enc)
    places = ordered.arrange(_slots(enc, opts))
    if enc.current in places and c.name in places and c.name not in st.acted:
        place = places.index(c.name)
        if place < places.index(enc.current):
            after = [i for i, n in enumerate(st.acted) if n in places and places.index(n) > place]
            st.acted.insert(after[0] if after else len(st.acted), c.name)
    arrange(enc, opts)


def _ranking(enc: Encounter) -> list[Ranked]:
    """The order a round begins with, of those in the fight."""
    return [Ranked(name=n, initiative=c.initiative or 0) for n in enc.order if (c := enc.get(n)).in_fight]


def _roll(enc: Encounter, c: Combatant, dice: Dice, shared: dict[tuple[str, str], tuple[int, Roll]], opts: OptionValues) -> Event:
    expression, modifier = sheet.init_expression(c)
    OpenCombatant.of(c).init_mod = modifier
    shares = _sharing(enc, opts, c)
    if shares is not None and shares in shared:
        c.initiative, roll = shared[shares]
        return OpenInitiative(actor=c.name, value=c.initiative, roll=roll, group=shares[0])
    with dice.rolling_for(c.name):
        result = roll_expression(expression, dice, words=False)
    value = max(INITIATIVE_MIN, min(INITIATIVE_MAX, result.total))
    roll = Roll(dice=result.marked_dice(), label=expression, total=value)
    c.initiative = value
    if shares is not None:
        shared[shares] = (value, roll)
    return OpenInitiative(actor=c.name, value=value, roll=roll)


def _roll_unit(enc: Encounter, unit: list[Combatant], dice: Dice, number: int, *, again: bool = True) -> RolledOff:
    """The roll-off d20 of one unit of a tie (rolled at its first, unless it has one and not ``again``), shared by all of it."""
    first = OpenCombatant.of(unit[0])
    if again or not first.roll_off:
        with dice.rolling_for(unit[0].name):
            first.roll_off = dice.die(20)
    die = first.roll_off
    for c in unit:
        OpenCombatant.of(c).roll_off = die
    return RolledOff(name=unit[0].name, die=die, typed=isinstance(die, Typed), group=number,
                     shared=group_of(enc, unit[0]) if len(unit) > 1 else None)


def _roll_off(enc: Encounter, opts: OptionValues, dice: Dice) -> list[RolledOff]:
    """A d20 each for combatants tied on initiative and modifier, one for copies sharing a roll."""
    fighters = [c for c in enc.combatants if c.in_fight and c.initiative is not None]
    for c in fighters:
        OpenCombatant.of(c).roll_off = 0
    ties = [units for units in _ties(enc, opts, fighters).values() if len(units) > 1]
    return [_roll_unit(enc, unit, dice, number) for number, units in enumerate(ties) for unit in units]


def _settle_tie(enc: Encounter, opts: OptionValues, c: Combatant, dice: Dice) -> list[RolledOff]:
    """``c``'s initiative, rolled or set in the fight, ties others on initiative and modifier: it (or the copies whose
    roll it now shares) and each unit of the tie with no roll-off d20 yet roll one, in the order they joined; the
    others keep theirs. The tie's d20s (none if ``c`` ties nobody)."""
    OpenCombatant.of(c).roll_off = 0
    fighters = [o for o in enc.combatants if o.in_fight and o.initiative is not None]
    units = _ties(enc, opts, fighters).get((c.initiative or 0, OpenCombatant.of(c).init_mod), [])
    mates = [o for u in units if c in u for o in u if o is not c]
    if mates:  # it takes the roll-off d20 of the copies whose roll it shares
        OpenCombatant.of(c).roll_off = OpenCombatant.of(mates[0]).roll_off
    if len(units) < 2:
        return []
    return [_roll_unit(enc, unit, dice, 0, again=False) for unit in units]


def start(enc: Encounter, opts: OptionValues, dice: Dice) -> list[Event]:
    if enc.started:
        raise IllegalAction(
            f"Combat is already under way (round {enc.round}): `/init set` changes one combatant's initiative, "
            "and `/init roll combatant:` rolls one again."
        )
    fighters = [c for c in enc.combatants if c.in_fight]
    if not fighters:
        raise IllegalAction("There is nobody to fight yet: add combatants with `/combatant add` first.")
    shared: dict[tuple[str, str], tuple[int, Roll]] = {}
    events = [_roll(enc, c, dice, shared, opts) for c in fighters]
    tied = _roll_off(enc, opts, dice)
    enc.round = 1
    OpenEncounter.of(enc).acted = []
    arrange(enc, opts)
    events.append(OpenRound(round=1, order=_ranking(enc), rolled_off=tied))
    return events + advance(enc, opts, dice)


def init_one(enc: Encounter, opts: OptionValues, c: Combatant, dice: Dice) -> list[Event]:
    """`/init roll combatant:X`: X rolls its initiative again (or for the first time, joining)."""
    if not c.in_fight:
        raise IllegalAction(f"{c.name} is out of the fight: it takes no initiative.")
    shared: dict[tuple[str, str], tuple[int, Roll]] = {}
    if (shares := _sharing(enc, opts, c)) is not None:
        mate = next((o for o in enc.combatants if o is not c and _sharing(enc, opts, o) == shares and o.initiative is not None), None)
        if mate is not None:
            shared[shares] = (mate.initiative or 0, Roll(total=mate.initiative))
    event = _roll(enc, c, dice, shared, opts)
    tied = _settle_tie(enc, opts, c, dice)
    arrange(enc, opts)
    return [event.model_copy(update={"rolled_off": tied})]


def set_initiative(enc: Encounter, opts: OptionValues, c: Combatant, value: int | None, dice: Dice) -> list[Event]:
    if not enc.started:
        raise IllegalAction("`/init roll` rolls every initiative and would replace this one: use `/init set` after it.")
    if value is None:
        raise InputError("Give the new initiative in `value`, like `value:15`.")
    if not INITIATIVE_MIN <= value <= INITIATIVE_MAX:
        raise InputError(f"An initiative is a whole number from {INITIATIVE_MIN} to {INITIATIVE_MAX}.")
    c.initiative = value
    OpenCombatant.of(c).init_mod = sheet.init_expression(c)[1]  # ties as a roll would: on its sheet's modifier
    tied = _settle_tie(enc, opts, c, dice)
    arrange(enc, opts)
    return [OpenInitiative(actor=c.name, value=value, by_gm=True, rolled_off=tied)]


def speed_now(enc: Encounter, c: Combatant, effects: list[Effect] | None = None) -> int:
    """Its speed this turn: the sheet's, changed by effects (``effects``: those running, if not all of
    ``enc``'s); 0 while a condition holds it."""
    running = enc.effects if effects is None else effects
    if has(enc, c, "speed_zero", running):
        return 0
    return max(0, sheet.speed(c) + total(running, c.name, "speed"))


def taken(effects: list[Effect], c: Combatant, code: str) -> bool:
    """Is the effect of the action ``code`` (`DASH`, `DISENGAGE`) on ``c``: the action's own, or one of
    that name the GM put on (which gives what the action's gives)?"""
    return active(effects, c.name, code) is not None or any(
        e.target == c.name and e.code is None and e.name.casefold() == code for e in effects)


def feet_left(enc: Encounter, c: Combatant, effects: list[Effect] | None = None) -> int:
    """Its movement left this turn: its speed now (twice over after a dash), less what it spent
    (``effects``: as `speed_now`)."""
    running = enc.effects if effects is None else effects
    dashed = taken(running, c, DASH)
    return max(0, speed_now(enc, c, running) * (1 + dashed) - OpenCombatant.of(c).feet_spent)


def _as_it_begins(enc: Encounter, c: Combatant) -> list[Effect]:
    """The effects as its turn begins: those that run out at the start of its turn no longer count."""
    ending = ("turn_start", c.name)
    return [e for e in enc.effects if not (e.left == 1 and e.counts_at == ending)]


def _turn_began(enc: Encounter, c: Combatant) -> TurnBegan:
    """Its turn begins: its movement, and the conditions that take its actions, as it begins."""
    running = _as_it_begins(enc, c)
    return TurnBegan(actor=c.name, speed=feet_left(enc, c, running), held=sorted(setting(enc, c, "incapacitated", running)))


def _death_save(enc: Encounter, c: Combatant, dice: Dice) -> tuple[list[Event], bool]:
    """d20: 10 or more a success, a natural 1 two failures, a natural 20 back up with 1 HP.
    Three successes: stable, and the counts start again (damage while stable restarts the saves); three failures: out.
    The events, and whether it is back up."""
    st = OpenCombatant.of(c)
    with dice.rolling_for(c.name):
        d = dice.die(20)
    events: list[Event] = []
    if d == 20:
        c.hp, c.status, st.saves_made, st.saves_failed = 1, "active", 0, 0
        result = "revived"
    elif d >= 10:
        st.saves_made += 1
        result = "stable" if st.saves_made >= 3 else "made"
        st.stable = st.saves_made >= 3
    else:
        st.saves_failed = min(3, st.saves_failed + (2 if d == 1 else 1))
        result = "dead" if st.saves_failed >= 3 else "failed"
    events.append(DeathSave(actor=c.name, roll=Roll(dice=[d], label="d20", total=d, against=10, success=d >= 10),
                            made=st.saves_made, failed=st.saves_failed, result=result))
    if result == "stable":
        st.saves_made, st.saves_failed = 0, 0
    if result == "dead":
        c.status = "out"
        events.append(StatusChanged(actor=c.name, status="out", cause="death_saves"))
    elif result == "revived":
        events.append(StatusChanged(actor=c.name, status="active", cause="revived"))
    return events, result == "revived"


def _start_turn(enc: Encounter, c: Combatant) -> None:
    st = OpenCombatant.of(c)
    st.feet_spent, st.diagonals, st.acted, st.reacted, st.save_due = 0, 0, False, False, False
    OpenEncounter.of(enc).area = []


def _pass_over(enc: Encounter, names: list[str]) -> list[Event]:
    """The turns of ``names``, who cannot act, pass all the same: the effects timed by them count down."""
    enc.effects, ended = pass_turns(enc.effects, names)
    return list(ended)


def advance(enc: Encounter, opts: OptionValues, dice: Dice, decided: Callable[[], bool] = lambda: False) -> list[Event]:
    """Pass the turn to the next combatant that takes turns, starting a new round when needed; a
    down one rolls its death save and passes on (unless it is back up), unless that save ``decided``
    the fight. A new round in which nobody acts but the dying whose saves the bot rolls
    (`death_save_roll=bot`) waits for the GM: the GM's `/init next` plays it, one round at a time."""
    enc.current = None
    st = OpenEncounter.of(enc)
    events: list[Event] = []
    for _ in range(2 * len(enc.combatants) + 2):
        able = {c.name for c in enc.combatants if takes_turns(enc, opts, c)}
        if not able:
            return events
        name = ordered.next_to_act(enc.order, st.acted, able)
        ahead = enc.order if name is None else enc.order[:enc.order.index(name)]
        passed = [n for n in ahead if n not in st.acted and n not in able]  # down and not dying: no turn to take
        st.acted += passed
        events += _pass_over(enc, passed)
        if name is None:
            enc.round += 1
            st.acted = []
            arrange(enc, opts)
            events.append(OpenRound(round=enc.round, order=_ranking(enc)))
            if not any(c.status == "active" or opts.death_save_roll == "player" for c in map(enc.get, able)):
                return events  # nobody to act in it but the dying the bot rolls for: it waits for the GM's `/init next`
            continue
        st.acted.append(name)
        c = enc.get(name)
        if c.status == "downed" and opts.death_save_roll == "player":
            enc.current = name
            _start_turn(enc, c)
            OpenCombatant.of(c).save_due = True
            return events + [DeathSaveDue(actor=name)]
        if c.status == "downed":
            saved, up = _death_save(enc, c, dice)
            events += saved
            if not up:
                events += _pass_over(enc, [name])
            if not up and decided():
                return events
            if not up:
                continue
        enc.current = name
        _start_turn(enc, c)
        return events + [_turn_began(enc, c)]
    return events


def up_next(enc: Encounter, opts: OptionValues) -> tuple[str, ...]:
    """Who `advance` names once the turn under way ends, read from the state: the next in the
    order who takes turns, or the first of the next round's; a dying one whose player rolls its
    death save in its turn (`death_save_roll=player`) too, but nobody when the bot rolls that
    save as the turn begins (its roll decides whether it acts), or when nobody active is left (a
    dying one's own turn passes on whatever its save gives)."""
    able = {c.name for c in enc.combatants if takes_turns(enc, opts, c)}
    if not any(enc.get(n).status == "active" for n in able):
        return ()
    name = ordered.up_next(enc.order, OpenEncounter.of(enc).acted, able, lambda: ordered.arrange(_slots(enc, opts)))
    if name is None:
        return ()
    status = enc.get(name).status
    return (name,) if status == "active" or (status == "downed" and opts.death_save_roll == "player") else ()

