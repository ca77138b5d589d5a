"""Turns in Knights of Valour: Agility initiative through `rules.turns.ordered`, one Move Action
and one Combat Action a turn, delay, and the GM's order of ties."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.actions import ActionBase
from rules.effects import pass_turns, put_off_turn
from rules.errors import IllegalAction, InputError, NotAllowed, NotYourTurn
from rules.events import Event, TurnPassed
from rules.models import INITIATIVE_MIN, Combatant, Encounter
from rules.options import OptionValues
from rules.systems.knights_of_valour import sheet
from rules.systems.knights_of_valour.events import (
    KovInitiative,
    KovRound,
    OrderShown,
    Ranked,
    TieOrdered,
    TurnBegan,
    TurnEnded,
)
from rules.systems.knights_of_valour.state import KovCombatant, KovEncounter
from rules.turns import NOBODY_ACTING, ordered
from rules.turns.ordered import acting

__all__ = [
    "base_init",
    "effective",
    "arrange",
    "ranking",
    "start",
    "init_one",
    "set_initiative",
    "reorder",
    "advance",
    "up_next",
    "end_turn",
    "pass_turn",
    "acting",
    "spend",
    "spend_combat",
    "delay",
    "delay_refusal",
]


def base_init(c: Combatant) -> int:
    override = KovCombatant.of(c).init_set
    return override if override is not None else sheet.stat(c, "agi")


def effective(c: Combatant) -> int:
    return c.initiative if c.initiative is not None else base_init(c)


def _slots(enc: Encounter, fresh: bool = False) -> list[ordered.Slot]:
    """The order's slots now; ``fresh``: as a new round sets them (Agility again, no delay)."""
    ties = KovEncounter.of(enc).tie_order
    return [
        ordered.Slot(
            c.name,
            base_init(c) if fresh else effective(c),
            # on a tie: players before monsters, a delay `after=` someone first and any other delayed combatant
            # last unless the GM has placed it since ("Players with the same Initiative decide, at the start of
            # the Round, which of them goes first"), then the GM's order
            (not sheet.is_pc(enc, c), 1 if fresh else _delayed_rank(c), ties.index(c.name) if c.name in ties else len(ties)),
            c.status == "active",
        )
        for c in enc.combatants
        if c.in_fight
    ]


def _delayed_rank(c: Combatant) -> int:
    """Where ``c`` stands among those it ties with (players and monsters apart): 0, first, after a delay `after=`
    someone (so it acts just after them, not after the others at the number it took: that place would tell players
    whether a hidden number it followed was one above a shown one); 2, last, after any other delay; 1, by the GM's
    order, for the rest and for one the GM has placed since its delay."""
    st = KovCombatant.of(c)
    if not st.delayed or st.tie_placed:
        return 1
    return 0 if st.just_after else 2


def arrange(enc: Encounter) -> None:
    """Sort those who have not acted this round; those who have keep their places."""
    st = KovEncounter.of(enc)
    st.acted = [n for n in st.acted if (c := enc.find(n)) and c.in_fight]
    enc.order = ordered.arrange(_slots(enc), st.acted)


def ranking(enc: Encounter) -> list[Ranked]:
    return [Ranked(name=n, initiative=effective(c), after=KovCombatant.of(c).delay_after) for n in enc.order if (c := enc.get(n))]


def _round(enc: Encounter) -> KovRound:
    players = [s for s in _slots(enc) if sheet.is_pc(enc, enc.get(s.name))]
    return KovRound(round=enc.round, order=ranking(enc), tied=ordered.tied_groups(players))


def _start_turn(c: Combatant) -> None:
    """``c``'s turn begins with one Move and one Combat Action; a turn a delay put off keeps those the GM granted in
    it (the docs: "one turn, played later in the round"; the text: an extra action "can be used in any order")."""
    st = KovCombatant.of(c)
    if not st.put_off:
        st.move_actions, st.combat_actions, st.granted = 1, 1, 0
    st.feet_left, st.spent, st.provoked, st.put_off = 0, False, [], False
    st.moves_told = st.move_actions


def advance(enc: Encounter) -> list[Event]:
    """Pass the turn to the next active combatant, starting a new round when needed. The turns of
    the downed passed over on the way pass all the same: the effects timed by them count down, and
    one healed later in the round waits for the next."""
    enc.current = None
    if not any(c.status == "active" for c in enc.combatants):
        return []
    events: list[Event] = []
    st = KovEncounter.of(enc)
    for _ in range(2):
        active = {c.name for c in enc.combatants if c.status == "active"}
        name = ordered.next_to_act(enc.order, st.acted, active)
        ahead = enc.order if name is None else enc.order[:enc.order.index(name)]
        events += _pass_over(enc, [n for n in ahead if n not in st.acted and n not in active])
        if name is not None:
            st.acted.append(name)
            enc.current = name
            c = enc.get(name)
            _start_turn(c)
            mine = KovCombatant.of(c)
            return events + [TurnBegan(actor=name, movement=sheet.movement(c), move_actions=mine.move_actions,
                                       combat_actions=mine.combat_actions)]
        events.append(_new_round(enc))
    return events


def up_next(enc: Encounter) -> tuple[str, ...]:
    """Who `advance` names once the turn under way ends, read from the state: the next active
    combatant in the order, or the first of the next round's."""
    active = {c.name for c in enc.combatants if c.status == "active"}
    name = ordered.up_next(enc.order, KovEncounter.of(enc).acted, active, lambda: ordered.arrange(_slots(enc, fresh=True)))
    return (name,) if name is not None else ()


def _new_round(enc: Encounter) -> Event:
    enc.round += 1
    st = KovEncounter.of(enc)
    st.acted, st.round_start = [], True
    for c in enc.combatants:
        if c.in_fight:
            c.initiative = base_init(c)
            _undelay(c)
    arrange(enc)
    return _round(enc)


def _undelay(c: Combatant) -> None:
    st = KovCombatant.of(c)
    st.delayed, st.delay_after, st.tie_placed, st.just_after, st.put_off = False, [], False, False, False


def _agility(c: Combatant, cause: str = "agility", *, old: int | None = None, acted: bool = False,
             old_after: list[str] | None = None, lowered: int | None = None) -> KovInitiative:
    agility, after = sheet.stat(c, "agi"), KovCombatant.of(c).delay_after
    return KovInitiative(actor=c.name, value=effective(c), cause=cause, agility=agility, old=old, acted=acted, after=after,
                         old_after=old_after or [], lowered=lowered)


def init_one(enc: Encounter, c: Combatant) -> list[Event]:
    """`/init roll combatant:X`: X's initiative is its Agility again, and any delay is over."""
    if not c.in_fight:
        raise IllegalAction(f"{c.name} is out of the fight: it takes no initiative.")
    KovCombatant.of(c).init_set = None
    _undelay(c)
    c.initiative = base_init(c)
    arrange(enc)
    return [_agility(c)]


def start(enc: Encounter) -> list[Event]:
    if enc.started:
        raise IllegalAction(
            f"Combat is already under way (round {enc.round}): use `/init set` to change one "
            f"combatant's initiative, or `/init order` to order tied players."
        )
    fighters = [c for c in enc.combatants if c.in_fight]
    if not fighters:
        raise IllegalAction("There is nobody to fight yet: add combatants with `/combatant add` first.")
    for c in fighters:
        c.initiative = base_init(c)
        _undelay(c)
    enc.round = 1
    st = KovEncounter.of(enc)
    st.acted, st.round_start = [], True
    arrange(enc)
    events: list[Event] = [
        _agility(c, "agility" if KovCombatant.of(c).init_set is None else "gm") for c in map(enc.get, enc.order)
    ]
    events.append(_round(enc))
    return events + advance(enc)


def set_initiative(enc: Encounter, c: Combatant, value: int | None) -> list[Event]:
    if value is None:
        raise InputError("Give the new initiative in `value`, like `value:3`.")
    if not -20 <= value <= 40:
        raise InputError("An initiative is a whole number from -20 to 40.")
    KovCombatant.of(c).init_set = value
    _undelay(c)
    c.initiative = value
    arrange(enc)
    return [_agility(c, "set", acted=c.name in KovEncounter.of(enc).acted)]


def _split_names(enc: Encounter, text: str) -> list[Combatant]:
    """Names separated by commas, or by spaces (longest matching name first)."""
    if "," in text:
        return [enc.get(n.strip()) for n in text.split(",") if n.strip()]
    words, out = text.split(), []
    while words:
        for n in range(len(words), 0, -1):
            c = enc.find(" ".join(words[:n]))
            if c is not None:
                out.append(c)
                words = words[n:]
                break
        else:
            enc.get(words[0])  # no name starts here: raises NotFound listing the combatants
    return out


def reorder(enc: Encounter, text: str, by_gm: bool) -> list[Event]:
    chosen = _split_names(enc, text)
    if not chosen:
        return [OrderShown(order=ranking(enc))]
    if not by_gm:
        raise NotAllowed("Only the GM sets the order of tied combatants: tell the GM the order you agreed.")
    if len(chosen) < 2 or len({c.name for c in chosen}) < len(chosen):
        raise InputError("Name two or more different tied combatants, in the order they should act.")
    out = [c.name for c in chosen if not c.in_fight]
    if out:
        raise IllegalAction(f"{', '.join(out)} is out of the fight: leave it out of the order.")
    if len({effective(c) for c in chosen}) > 1:
        shown = ", ".join(f"{c.name} {effective(c)}" for c in chosen)
        raise IllegalAction(f"Only tied combatants can be put in order ({shown}): change a number with `/init set`.")
    kinds = [sheet.is_pc(enc, c) for c in chosen]
    if kinds != sorted(kinds, reverse=True):  # a monster named before a player character
        raise IllegalAction(
            "Player characters always act before monsters on a tie: name the players first, then the "
            "monsters (or change a sheet's `pc`)."
        )
    ties = KovEncounter.of(enc).tie_order
    ties.extend(c.name for c in chosen if c.name not in ties)
    for slot, c in zip(sorted(ties.index(c.name) for c in chosen), chosen):
        ties[slot] = c.name
        KovCombatant.of(c).tie_placed = KovCombatant.of(c).delayed
    arrange(enc)
    later = any(c.name in KovEncounter.of(enc).acted for c in chosen)
    names = [c.name for c in chosen]
    return [TieOrdered(initiative=effective(chosen[0]), names=names, later=later, order=ranking(enc))]


def end_turn(enc: Encounter, action: ActionBase) -> list[Event]:
    if not enc.started:
        raise IllegalAction("Combat has not started: the GM starts it with `/init roll`.")
    current, actor = enc.find(enc.current), enc.find(action.actor)
    # a GM override: the GM may end anyone's turn
    if actor is not None and current is not None and actor is not current and not action.is_gm:
        raise NotYourTurn(f"It is {current.name}'s turn, not {actor.name}'s: only they or the GM can end it.")
    if current is None and not any(c.status == "active" for c in enc.combatants):
        if not action.is_gm:  # `FightRules.ending` refuses a player's first: this is its own word
            raise NotYourTurn(NOBODY_ACTING)
        return _pass_round(enc)
    KovEncounter.of(enc).round_start = False
    events: list[Event] = [TurnEnded(actor=current.name)] if current else []
    return events + advance(enc)


def _pass_round(enc: Encounter) -> list[Event]:
    """Nobody can act (everyone downed): the GM's `/init next` lets the round pass. The turns left in it pass all the
    same (the effects timed by them count down), and the next round begins, waiting for the GM in turn unless a heal
    has made someone active by then."""
    acted = KovEncounter.of(enc).acted
    return [*_pass_over(enc, [n for n in enc.order if n not in acted]), _new_round(enc)]


def _pass_over(enc: Encounter, names: list[str]) -> list[Event]:
    """The turns of ``names`` pass unplayed all the same: counted as taken this round, the effects timed by them
    counting down."""
    KovEncounter.of(enc).acted += names
    enc.effects, ended = pass_turns(enc.effects, names)
    return [*ended]


def spend(enc: Encounter, c: Combatant) -> None:
    KovCombatant.of(c).spent = True
    KovEncounter.of(enc).round_start = False


def spend_combat(enc: Encounter, opts: OptionValues, c: Combatant) -> int:
    """Spend ``c``'s Combat Action; the feet of a move under way it forfeits (option ``split_move=no``)."""
    st = KovCombatant.of(c)
    if st.combat_actions < 1:
        raise IllegalAction(
            f"{c.name} has used the Combat Action this turn: move if the Move Action is left, "
            f"or end the turn with `/init next`."
        )
    st.combat_actions -= 1
    lost = 0
    if opts.split_move == "no":
        lost, st.feet_left = st.feet_left, 0
    spend(enc, c)
    return lost


_BEGUN = ("{name}'s turn has already begun: initiative is lowered before one's own turn is announced (the first to "
          "act in a round may still lower it at the start of the round, before doing anything). ")
_DELAY_REFUSALS = {
    "not_allowed": "{name} is not a player character: at the start of a round only players may lower their "
    "initiative (the GM allows anyone with the option `delay=round`).",
    "acted": "{name} has already acted this round: initiative can be lowered before its turn.",
    # `delay=round` names no hint here: it too refuses a delay once one's turn has begun
    "begun": _BEGUN + "End this turn with `/init next`.",
    "not_start": "Initiative can only be lowered at the start of a round, before anyone has acted "
    "(the GM allows it later with the option `delay=round`).",
}
#: the refusals whose reply says `delay=round` would allow the delay
_ROUND_HINTS = ("not_allowed", "not_start")


def delay(enc: Encounter, opts: OptionValues, c: Combatant, words: Mapping[str, Any], is_gm: bool = False) -> list[Event]:
    """Lower ``c``'s initiative for the round (text: "At the start of a Round, Players may elect to
    reduce their Initiative"; option ``delay=round``: anyone, until its own turn has begun). ``is_gm``: the GM
    asks (a player's `to=` is refused while ``c``'s number follows a hidden combatant's: whether it is lower would
    tell theirs)."""
    if not enc.started:
        raise IllegalAction("Combat has not started: the GM starts it with `/init roll`.")
    if c.status != "active":
        raise IllegalAction(f"{c.name} is {c.status}: it does not act this round.")
    refusal = delay_refusal(enc, opts, c)
    if refusal in _ROUND_HINTS:  # its reply names `delay=round`: only where that would allow the delay
        refusal = delay_refusal(enc, opts, c, "round") or refusal
    if refusal is not None:
        raise IllegalAction(_DELAY_REFUSALS[refusal].format(name=c.name))
    st = KovEncounter.of(enc)
    old = effective(c)
    if words["after"]:
        _check_after(enc, c, enc.get(words["after"]))
    elif words["to"] is not None and not is_gm and (keeper := _hidden_ahead(enc, c)) is not None:
        raise InputError(
            f"{c.name}'s initiative follows {keeper}'s, the GM's number, so a delay `to=` a number is not taken: whether "
            f"it is lower would tell {keeper}'s. Lower it `by=` a number (`by=1`), or `after=` someone who acts after "
            f"{c.name} now."
        )
    new = _delay_target(enc, words, old)
    if new >= old:
        raise InputError(_not_lower(c, old, new))
    mine = KovCombatant.of(c)
    before = mine.delay_after
    c.initiative = new
    mine.delayed, mine.tie_placed, mine.just_after = True, False, bool(words["after"])
    if words["after"]:  # its new number tells theirs: the one it follows, and whom that one followed
        ahead = enc.get(words["after"])
        mine.delay_after = list(dict.fromkeys([ahead.name, *KovCombatant.of(ahead).delay_after]))
    elif words["to"] is not None or new == INITIATIVE_MIN:  # a number of its own (`to=`, or the least)
        mine.delay_after = []
    # else `by=`: counted down from the old number, it still tells theirs
    if c.name == enc.current:  # its announced turn is put off: one turn, counted when it is played
        st.acted.remove(c.name)
        mine.put_off = True
        enc.current = None
        enc.effects = put_off_turn(enc.effects, c.name)
    arrange(enc)
    lowered = None if words["after"] or words["to"] is not None else old - new
    events: list[Event] = [_agility(c, "delay", old=old, old_after=before, lowered=lowered)]
    return events + (advance(enc) if enc.current is None else [])


def _hidden_ahead(enc: Encounter, c: Combatant) -> str | None:
    """The hidden combatant whose initiative ``c``'s follows (a delay `after=` it, or after one that did), if any:
    then players do not read ``c``'s number."""
    return next((n for n in KovCombatant.of(c).delay_after if (a := enc.find(n)) and enc.hidden(a)), None)


def _check_after(enc: Encounter, c: Combatant, ahead: Combatant) -> None:
    """Refuse a delay `after=` ``ahead`` that ``c`` cannot take. Whether ``c`` already acts after it is read from the
    order, which players see, not from the numbers: a number a delay after a hidden combatant took is the GM's."""
    if ahead is c:
        raise InputError(f"{c.name} cannot act after itself: give `after=` someone else, or lower it `by=` a number (`by=1`).")
    if ahead.name not in enc.order:
        raise IllegalAction(f"{ahead.name} is out of the fight: give `after=` someone in the order (`/init order`).")
    if enc.order.index(ahead.name) < enc.order.index(c.name):
        raise InputError(f"A delay must lower initiative: {c.name} already acts after {ahead.name}. Give `after=` someone "
                         f"who acts after {c.name} now, or lower it `by=` a number (`by=1`).")


def _not_lower(c: Combatant, old: int, new: int) -> str:
    """The refusal of a delay `to=` or `by=` that lowers nothing, saying what would."""
    head = "A delay must lower initiative"
    if old <= INITIATIVE_MIN:
        return f"{head}: {c.name}'s is already the least there is ({INITIATIVE_MIN}), so it cannot be lowered."
    return f"{head}: {c.name}'s is {old}, and {new} is not lower. Give `to={old - 1}` or less, or `by=` a number (`by=1`)."


def delay_refusal(enc: Encounter, opts: OptionValues, c: Combatant, mode: str | None = None) -> str | None:
    """Why ``c`` may not lower its initiative now (a code of `rules.turns.ordered.delay_refusal`, or
    ``begun``: its turn has been announced, after the start of the round (whatever the option `delay`): the
    text's delay is declared "At the start of a Round", before one's turn); ``mode``: under that value of
    the option `delay` instead of the encounter's."""
    st, mode = KovEncounter.of(enc), mode or opts.delay
    if c.name == enc.current and not st.round_start and not KovCombatant.of(c).spent:
        return "begun"
    window: ordered.DelayWindow = "start" if mode == "start" else "turn"
    return ordered.delay_refusal(
        c.name,
        window=window,
        acted=st.acted,
        current=enc.current,
        turn_used=KovCombatant.of(c).spent,
        round_start=st.round_start,
        may_delay=window != "start" or sheet.is_pc(enc, c),
    )


def _delay_target(enc: Encounter, words: Mapping[str, Any], old: int) -> int:
    """The initiative a delay lowers to: ``words`` are its `by` (or a number alone), `to` and `after`."""
    new = ordered.lowered(
        old,
        floor=INITIATIVE_MIN,
        to=words["to"],
        # one its turn comes before now (one acting now, or raised by the GM since) is followed from its own number
        below=min(effective(enc.get(words["after"])), old) if words["after"] else None,
        by=words["by"],
    )
    if new is None:
        raise InputError(
            "Say how far to lower initiative: `options:\"2\"` (by 2), `options:\"to=0\"` or "
            "`options:\"after=Grak\"`."
        )
    return new


def pass_turn(enc: Encounter, c: Combatant) -> list[Event]:
    """The GM passes ``c`` while another combatant acts: it loses its coming turn this round
    (it counts as having had it, just before the one acting now), which passes unplayed all the
    same (the effects timed by it count down)."""
    st = KovEncounter.of(enc)
    if c.status != "active" or c.name in st.acted:
        raise IllegalAction(f"{c.name} has no turn left this round to pass: nothing was ended.")
    st.acted.insert(max(len(st.acted) - 1, 0), c.name)
    arrange(enc)
    enc.effects, ended = pass_turns(enc.effects, [c.name])
    return [TurnPassed(actor=c.name), *ended]
