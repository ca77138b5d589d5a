"""TOTE's initiative: the starting T8 test, then a pool of points (`rules.turns.pool`).

Heroes win ties against foes, then Hawk/Rating, then the GM's ``/init order``. At the start
of each melee round the unengaged gain (``unengaged_gain``); distance rounds gain nothing.
"""
from __future__ import annotations

from rules.actions import InitOrder, InitRoll, InitSet, Next
from rules.dice import Dice
from rules.effects import pass_turns
from rules.errors import IllegalAction, InputError, NotYourTurn
from rules.events import Event
from rules.models import Combatant, Encounter
from rules.system import Turn
from rules.systems.tote.events import (
    InitiativeChanged,
    InitiativeRolled,
    Passed,
    ReturnDeclined,
    TiesOrdered,
    ToteRound,
)
from rules.systems.tote.movement import (
    all_at,
    disengaged,
    distance_now,
    engaged_with,
    hold_pairs,
    is_melee,
    nearest_band,
)
from rules.systems.tote.options import opts
from rules.systems.tote.sheet import is_enemy, items, level
from rules.systems.tote.skill import run_test
from rules.systems.tote.state import ToteCombatant, ToteEncounter
from rules.turns import NOBODY_ACTING, pool

__all__ = ["entries", "ready", "waiting", "turn", "up_next", "settle", "roll_first", "roll_initiative", "set_initiative", "reorder", "next_turn", "over",
           "defeated", "defeated_sides"]


def _active(enc: Encounter) -> list[Combatant]:
    return [c for c in enc.combatants if c.status == "active"]


def entries(enc: Encounter) -> list[pool.Entry]:
    """The pool's view of the active combatants: points, acted this round, the tie key."""
    ties = ToteEncounter.of(enc).tiebreak
    ranks: dict[str, int] = {}
    for i, name in enumerate(ties):  # a name's first place, as `list.index` reads it
        ranks.setdefault(name, i)
    unranked, now = len(ties), enc.round
    out = []
    for i, c in enumerate(_active(enc)):
        key = (int(is_enemy(c)), -level(c), ranks.get(c.name, unranked), i)
        out.append(pool.Entry(c.name, c.initiative, ToteCombatant.of(c).acted == now, key))
    return out


def ready(enc: Encounter) -> list[Combatant]:
    by_name = {c.name: c for c in enc.combatants}
    return [by_name[e.name] for e in pool.ready(entries(enc))]


def waiting(enc: Encounter, now: list[pool.Entry] | None = None) -> list[Combatant]:
    """Who is still to act this round, in acting order; ``now``: the `entries` of ``enc`` as it is, if worked out already."""
    by_name = {c.name: c for c in enc.combatants}
    return [by_name[e.name] for e in pool.waiting(entries(enc) if now is None else now)]


def turn(enc: Encounter, now: list[pool.Entry] | None = None) -> Turn:
    """Whose turn it is; ``now``: the `entries` of ``enc`` as it is, if worked out already."""
    if not enc.started or enc.winner:
        return Turn()
    pending = ToteEncounter.of(enc).pending_return
    if pending:
        foe = enc.get(pending.by)
        return Turn((foe.name,), (enc.round, "return", foe.name), foe.name, foe.side, phase="return")
    pools = entries(enc) if now is None else now
    left = pool.waiting(pools)
    if not left and pools:  # those still able to act have no initiative yet: the GM rolls it
        return Turn(key=(enc.round, "initiative"), phase="initiative", over=True, gm=True)
    if not left:  # nobody is able to act (unconscious, out, escaped): the GM's `/init next` ends the round
        return Turn(key=(enc.round, "over"), over=True, gm=True)
    c = enc.get(left[0].name)
    return Turn((c.name,), (enc.round, c.name), c.name, c.side, queue=tuple(o.name for o in left[1:]))


def defeated(enc: Encounter, side: str) -> bool:
    """Everyone of ``side`` still in the fight is down; escaped heroes left it and are not defeated."""
    return side in defeated_sides(enc)


def defeated_sides(enc: Encounter) -> set[str]:
    """The sides `defeated` names, worked out in one pass over the combatants."""
    down = ("out",) if opts(enc).victory == "out" else ("out", "downed")
    standing: dict[str, bool] = {}  # a side with someone staying -> is one of them up
    for c in enc.combatants:
        if not ToteCombatant.of(c).escaped:
            standing[c.side] = standing.get(c.side, False) or c.status not in down
    return {side for side, up in standing.items() if not up}


def over(enc: Encounter) -> bool:
    """At most one side is still in the fight: the others are defeated or every one of them escaped."""
    sides = enc.sides()
    if len(sides) < 2:
        return False
    beaten = defeated_sides(enc)
    staying = {c.side for c in enc.combatants if not ToteCombatant.of(c).escaped}
    return sum(s in staying and s not in beaten for s in sides) <= 1


def settle(enc: Encounter) -> list[Event]:
    """Start the next round when nobody is left to act, then refresh phase, order and current.
    The turns of those who took none in the round that ends (unconscious, out of the fight or
    escaped) pass all the same as it ends: the effects timed by them count down. One that went
    down in its own turn had it (its turn ended then)."""
    events: list[Event] = []
    st = ToteEncounter.of(enc)
    acting = enc.find(enc.current) if not st.pending_return else None
    if acting is not None and acting.status != "active":  # down in its own turn: that turn ended, it had it
        ToteCombatant.of(acting).acted = enc.round
    if st.pending_return and enc.get(st.pending_return.by).status != "active":
        st.pending_return = None
    live = enc.started and not enc.winner and not over(enc) and not st.pending_return
    pools = entries(enc)  # read again only if a new round changed them
    if live and pool.round_over(pools):
        events += _end_round(enc)
        pools = entries(enc)
    enc.order = pool.order(pools)
    if enc.started:
        now = distance_now(enc)
        enc.phase = now if now == "melee" else f"distance: {now}"
    enc.current = turn(enc, pools).current
    return events


def _end_round(enc: Encounter) -> list[Event]:
    """The round ends and the next begins: the turns of those who took none in it pass all the same."""
    passed = [c.name for c in enc.combatants if c.status != "active" and ToteCombatant.of(c).acted != enc.round]
    enc.effects, ended = pass_turns(enc.effects, passed)
    return [*ended, *start_round(enc, enc.round + 1)]


def roll_first(enc: Encounter) -> str:
    """What the GM does where those able to act have no initiative yet (`/init next` is refused then)."""
    names = ", ".join(c.name for c in _active(enc) if c.initiative is None)
    return f"the GM rolls initiative with `/init roll combatant:NAME` ({names})."


def up_next(enc: Encounter, turn: Turn) -> tuple[str, ...]:
    """Who acts once ``turn`` ends (the one acting passes, or the foe lets the return attack go),
    read from the state: the highest pool still to act, else the top of the next round's pools
    after its gain step; nobody when no one has points."""
    pending = ToteEncounter.of(enc).pending_return
    now = pool.waiting(entries(enc))
    left = now if pending else [e for e in now if e.name != turn.current]
    if left:
        return (left[0].name,)
    if not pool.ready(entries(enc)) or over(enc):
        return ()
    number = enc.round + 1
    melee = is_melee(enc) or nearest_band(enc) == "melee"
    gains = {g.name: g.after for g in _gains(enc, number, not is_melee(enc))} if melee else {}
    fresh = [e._replace(acted=False, points=gains.get(e.name, e.points)) for e in entries(enc)]
    top = pool.up_next(fresh)
    return (top.name,) if top is not None else ()


def _unengaged(enc: Encounter, c: Combatant, number: int) -> bool:
    """"An unengaged combatant is one that neither dealt nor received melee damage in the
    previous round"; one that disengaged counts as disengaged for the next round, unless it
    is still engaged with another foe."""
    if ToteCombatant.of(c).melee_round != number - 1:
        return True
    return disengaged(enc, c, number) and not engaged_with(enc, c.name)


def _gains(enc: Encounter, number: int, begins: bool) -> list[pool.Gain]:
    """The gain step of melee round ``number`` (``begins``: the round melee begins in)."""
    values = opts(enc)
    if (number == 1 or begins) and not values.first_round_gain:
        return []
    by_name = {c.name: c for c in enc.combatants}
    return pool.gains(entries(enc), values.unengaged_gain, lambda e: _unengaged(enc, by_name[e.name], number))


def start_round(enc: Encounter, number: int) -> list[Event]:
    """Begin round ``number``: switch to melee when a pair of foes is in Melee, then the unengaged gain.

    ``first_round_gain=no`` skips the gain of the first melee round: round 1, or the round
    melee begins in after distance rounds. A combatant still engaged with a foe that gains
    (no melee damage last round) gains as ``quiet``, not as ``unengaged``."""
    enc.round = number
    st = ToteEncounter.of(enc)
    st.pending_return = None
    begins = False
    if not is_melee(enc):
        if nearest_band(enc) != "melee":
            return [ToteRound(round=number, melee=False)]
        if opts(enc).into_melee == "everyone":
            all_at(enc, "melee")
        else:
            hold_pairs(enc)
        st.distance = "melee"
        begins = True
    elif number == 1:
        all_at(enc, "melee")
    events: list[Event] = [ToteRound(round=number, melee=True, melee_begins=begins)]
    by_name = {c.name: c for c in enc.combatants}
    for g in _gains(enc, number, begins):
        by_name[g.name].initiative = g.after
        cause = "quiet" if engaged_with(enc, g.name) else "unengaged"
        events.append(InitiativeChanged(actor=g.name, before=g.before, after=g.after, cause=cause))
    return events


# -- the initiative commands -------------------------------------------------------------------------
def roll_initiative(enc: Encounter, action: InitRoll, dice: Dice) -> list[Event]:
    if action.actor is None and enc.started:
        raise IllegalAction(
            f"Combat has already started (round {enc.round}): roll for a newcomer with `combatant:NAME`, "
            f"or set a value with `/init set`."
        )
    if action.actor is not None:
        who = [enc.get(action.actor)]
        if who[0].status != "active":
            raise IllegalAction(f"{who[0].name} is {who[0].status} and does not take part in initiative.")
    else:
        if len(enc.sides()) < 2:
            raise IllegalAction("A fight needs two sides: add the foes (sheets with `rating`) before `/init roll`.")
        who = [c for c in _active(enc) if c.initiative is None]
    target = opts(enc).init_target
    events: list[Event] = []
    for c in who:
        r, test = run_test(enc, c, "plan", target, dice, {})
        c.initiative = r.successes + level(c)
        events.append(InitiativeRolled(actor=c.name, test=test, base=level(c), value=c.initiative))
    if action.actor is None:
        ToteEncounter.of(enc).distance = opts(enc).distance
        events += start_round(enc, 1)
    return events + settle(enc)


def set_initiative(enc: Encounter, action: InitSet) -> list[Event]:
    if not action.actor:
        raise InputError("Name the `combatant` whose initiative points you set.")
    c = enc.get(action.actor)
    if action.value is None or not 0 <= action.value <= 99:
        raise InputError("`/init set` needs a `value`: initiative points from 0 to 99.")
    before, c.initiative = c.initiative, action.value
    return [InitiativeChanged(actor=c.name, before=before, after=c.initiative, cause="gm"), *settle(enc)]


def reorder(enc: Encounter, action: InitOrder) -> list[Event]:
    typed = items(action.order or "")
    for item in typed:  # `Gob Orc`: two names, not one
        words = item.split()
        if enc.find(item) is None and len(words) > 1 and all(enc.find(w) is not None for w in words):
            raise InputError(f"`{item[:40]}` names {len(words)} combatants: separate the names with commas: "
                             f"`{', '.join(words)}`.")
    names = [enc.get(n).name for n in typed]
    if not names:
        raise InputError("Give the names in the order ties should break, comma separated: `Borin, Thrain`.")
    st = ToteEncounter.of(enc)
    st.tiebreak = names + [n for n in st.tiebreak if n not in names]
    return [TiesOrdered(names=names), *settle(enc)]


def next_turn(enc: Encounter, action: Next) -> list[Event]:
    """Pass the turn: the named combatant passes (keeping its points), or declines a return attack.

    A player may pass only the combatant whose turn it is. The GM may pass a combatant out of
    turn (a GM override of turn order, the one place the rules read ``action.is_gm``): the one
    named, never someone else; one that cannot pass now is refused.
    """
    if not enc.started:
        raise IllegalAction("Combat has not started: the GM starts it with `/init roll`.")
    now = turn(enc)
    if now.phase == "initiative":
        raise IllegalAction(f"Nobody is ready to act: {roll_first(enc)}")
    if now.current is None:  # nobody is able to act: the round ends ("when nobody is left to act")
        if not action.is_gm:  # `FightRules.ending` refuses a player's first: this is its own word
            raise NotYourTurn(NOBODY_ACTING)
        return _end_round(enc) + settle(enc)
    c = enc.get(action.actor) if action.actor else enc.get(now.current)
    st = ToteEncounter.of(enc)
    if c.name != now.current:
        if not action.is_gm:
            raise NotYourTurn(f"It is {now.current}'s turn, not {c.name}'s: only they or the GM can pass it.")
        if st.pending_return:
            raise NotYourTurn(
                f"{st.pending_return.by} first answers {st.pending_return.against}'s Assault: pass {st.pending_return.by}."
            )
        if c.status != "active":
            state = "unconscious" if c.status == "downed" else "out of the fight"
            raise IllegalAction(f"{c.name} is {state} and takes no turn (its turn passes as the round ends): nothing to pass.")
        if c.initiative is None:
            raise IllegalAction(f"{c.name} has no initiative yet: roll it with `/init roll combatant:{c.name}`.")
        if ToteCombatant.of(c).acted == enc.round:
            raise IllegalAction(f"{c.name} has acted this round: its next turn comes in round {enc.round + 1}.")
    if st.pending_return and c.name == st.pending_return.by:
        against = st.pending_return.against
        st.pending_return = None
        events: list[Event] = [ReturnDeclined(actor=c.name, against=against)]
    else:
        ToteCombatant.of(c).acted = enc.round
        events = [Passed(actor=c.name, points=c.initiative or 0, by_gm=c.name != now.current)]
        if c.name != now.current:  # passed out of turn by the GM: its turn passes all the same
            enc.effects, ended = pass_turns(enc.effects, [c.name])
            events += ended
    return events + settle(enc)


