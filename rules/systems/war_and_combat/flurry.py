"""The flurry phase: flurries form from engaged fighters (and those standing in an engaged
fighter's zone of danger). As the text orders it (option `declare=public`): flurry initiative
(3d6 + Fighter rank) and actions (2, +1 per 5 Fighter ranks, less those lost this round) first,
then each participant declares an intention and a manoeuvre tactic openly, in flurry-initiative
order; with `declare=hidden` all declare at once, hidden until all have (`rules.turns.phases`),
and the initiative follows. Attacks in flurry-initiative order. A failed attack passes the
attack to the defender; a fighter out of actions passes it on; a hold passes it once; the
flurry ends when nobody on two sides has actions left (or all have held since the last
attack). Its winner (the most and best successes) decides the net movement. Then the next
flurry, and after the last the adjustment phase.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import Dice
from rules.errors import IllegalAction, InputError
from rules.events import Event, Moved
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.war_and_combat import lengthy, sheet
from rules.systems.war_and_combat.events import (
    AttackPassed,
    Declared,
    FacedAttacker,
    FlurryBegan,
    FlurryEnded,
    FlurryInitiative,
    Interrupted,
    Revealed,
)
from rules.systems.war_and_combat.state import WacCombatant, WacEncounter
from rules.systems.war_and_combat.task import task_roll
from rules.systems.war_and_combat.turns import after_phase, begin_phase, idle, roll_of
from rules.systems.war_and_combat.zones import (
    actively_engaged,
    danger,
    marginal,
    threat,
)
from rules.turns.phases import Declarations

__all__ = ["INTENTS", "TACTICS", "DEFAULT_CHOICE", "begin", "declare", "force", "participants", "after_attack",
           "hold", "opponents", "in_flurry", "actions_for", "resume", "guard_of", "join", "settle",
           "drive", "withdraw", "actionless", "to_declare", "success", "winner", "groups"]

#: declared intentions ("outmanoeuvre" strikes as "kill" when it attacks)
INTENTS = ("kill", "subdue", "disarm", "grapple", "entangle", "tackle", "throw", "outmanoeuvre")
#: manoeuvre tactics, applied in the adjustment phase
TACTICS = ("hold", "press", "retreat", "circle")
DEFAULT_CHOICE = {"intent": "kill", "tactic": "hold"}
#: the defender's guard: the front (the default), or the flanks at half, forfeiting the front
GUARDS = ("front", "flank")


def participants(enc: Encounter) -> list[Combatant]:
    """The flurry under way's fighters still standing."""
    est = WacEncounter.of(enc)
    names = set(est.flurries[0]) if est.flurries else set()
    return [c for c in enc.combatants if c.name in names and c.status == "active"]


def in_flurry(enc: Encounter, c: Combatant) -> bool:
    est = WacEncounter.of(enc)
    return enc.phase == "flurry" and bool(est.flurries) and c.name in est.flurries[0]


def opponents(enc: Encounter, c: Combatant) -> list[Combatant]:
    return [o for o in participants(enc) if o.side != c.side]


def actions_for(enc: Encounter, opts: OptionValues, c: Combatant) -> int:
    """"equal to 2, +1 every fifth Fighter rank", less the actions lost this round."""
    if idle(enc, c):  # stunned: "can take no action"; surprised: none in the first round
        return 0
    return max(0, 2 + sheet.fighter(c) // opts.action_every - WacCombatant.of(c).lost)


def groups(enc: Encounter) -> list[list[str]]:
    """The engaged fighters, grouped into flurries, in initiative order of their best member."""
    grid = enc.grid()
    if grid is None:
        return []
    rank = {n: i for i, n in enumerate(enc.order)}
    fighters = [c for c in enc.combatants if c.status == "active" and c.cell is not None]
    parent = {c.name: c.name for c in fighters}

    def root(n: str) -> str:
        while parent[n] != n:
            n = parent[n]
        return n

    reach = {c.name: threat(grid, c) | marginal(grid, c) for c in fighters}
    linked: set[str] = set()

    def link(c: Combatant, e: Combatant) -> None:
        parent[root(e.name)] = root(c.name)
        linked.update((c.name, e.name))

    for c in fighters:
        for e in fighters:
            if e.side != c.side and c.cell in reach[e.name]:  # each pair is seen from both ends
                link(c, e)
    engaged, active = set(linked), actively_engaged(enc, grid)
    for c in fighters:  # "must stop upon entering a hex covered by the zone, and resolve the threat during the flurry phase"
        for e in fighters:
            if e is not c and e.name in active and c.cell in danger(grid, e) and (e.side != c.side or c.name not in engaged):
                link(c, e)  # an ally's zone of danger too: "any fighter that is actively engaged"
    groups: dict[str, list[str]] = {}
    for c in fighters:
        if c.name in linked:
            groups.setdefault(root(c.name), []).append(c.name)
    out = [sorted(g, key=lambda n: rank.get(n, 999)) for g in groups.values()]
    return sorted(out, key=lambda g: rank.get(g[0], 999))


def begin(enc: Encounter, opts: OptionValues, dice: Dice) -> list[Event]:
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
    grid = enc.grid()
    for c in fighters:
        WacCombatant.of(c).turned = False
        WacCombatant.of(c).carry, WacCombatant.of(c).carry_to, WacCombatant.of(c).owed = None, None, 0  # engaged: the step is off
        events += lengthy.break_off(c)
        foes = opponents(enc, c)
        if grid is None or c.cell is None or not c.facing or not foes:
            continue
        facing_one = any(o.cell is not None and grid.turn_steps(c.facing, grid.facing_towards(c.cell, o.cell)) <= 1 for o in foes)
        if not facing_one:
            nearest = min(foes, key=lambda o: grid.distance(c.cell, o.cell))  # type: ignore[arg-type]
            c.facing = grid.facing_towards(c.cell, nearest.cell)  # type: ignore[arg-type]
            WacCombatant.of(c).turned = True
            events.append(FacedAttacker(actor=c.name, facing=c.facing))
    est.in_turn = opts.declare == "public"
    if est.in_turn:  # "1. Roll for Flurry Initiative 2. Declare Intention": the attacker declares first
        events += [_initiative(enc, opts, c, dice) for c in fighters]
        fighters = sorted(fighters, key=lambda c: (WacCombatant.of(c).actions > 0, WacCombatant.of(c).flurry_init or 0), reverse=True)
    est.declarations = Declarations(participants={c.name: c.side for c in fighters})
    events[0] = FlurryBegan(participants=[c.name for c in fighters], in_turn=est.in_turn)
    return events


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


def to_declare(enc: Encounter) -> list[str]:
    """Whose declaration the flurry under way awaits now: all yet to declare, or, declaring in
    turn, the next of them ("The attacker has the benefit of declaring his intention first, to
    which the defender must respond")."""
    est = WacEncounter.of(enc)
    d = est.declarations
    if enc.phase != "flurry" or d is None or d.revealed:
        return []
    return d.waiting()[:1] if est.in_turn else d.waiting()


def declare(enc: Encounter, opts: OptionValues, c: Combatant, options: Mapping[str, Any], dice: Dice,
            in_order: bool = True) -> list[Event]:
    est = WacEncounter.of(enc)
    d = est.declarations
    if enc.phase != "flurry" or d is None:
        raise IllegalAction("Declarations are made when a flurry begins, in the flurry phase.")
    waiting = to_declare(enc)
    if in_order and est.in_turn and waiting and c.name not in waiting:
        raise IllegalAction(f"{waiting[0]} declares first (the flurry initiative's order: \"the attacker has the benefit of "
                            f"declaring his intention first, to which the defender must respond\"); {c.name} responds after.")
    choice = _choice(options) | _facing_choice(enc, c, options)
    done = d.declare(c.name, choice)
    events: list[Event] = [Declared(actor=c.name, waiting=to_declare(enc) if not done else [],
                                    choice=choice if est.in_turn else None)]
    return events + (_reveal(enc, opts, dice) if done else [])


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
    extra = {n: ", ".join(f"{k} {v}" for k, v in d.choice(n).items() if k in ("guard", "face")) for n in d.participants}
    events: list[Event] = []
    if not est.in_turn or d.defaulted:  # declared in turn, each was shown as it was made
        events.append(Revealed(choices=choices, defaulted=list(d.defaulted), extra={n: v for n, v in extra.items() if v}))
    for c in participants(enc):
        events += _face(enc, c, d.choice(c.name).get("face"))
    for c in participants(enc):
        if not est.in_turn:
            events.append(_initiative(enc, opts, c, dice))
        est.tactics[c.name] = choices[c.name][1]
    return events + _next_attacker(enc, opts, dice, None, "first")


def _initiative(enc: Encounter, opts: OptionValues, c: Combatant, dice: Dice) -> FlurryInitiative:
    """``c``'s flurry initiative (3d6 + Fighter rank) and its actions for the flurry."""
    st = WacCombatant.of(c)
    with dice.rolling_for(c.name):
        r = task_roll(dice)
    roll = roll_of(r, "3d6", [("Fighter", sheet.fighter(c))])
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
    if not d.revealed:
        if est.in_turn:  # the others have rolled their flurry initiative already
            events.append(_initiative(enc, opts, c, dice))
        return events + (declare(enc, opts, c, options, dice, in_order=False) if any(v is not None for v in options.values()) else [])
    choice = _choice(options) | _facing_choice(enc, c, options)
    d.made[c.name] = choice
    extra = ", ".join(f"{k} {v}" for k, v in choice.items() if k in ("guard", "face"))
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
    c.facing = want
    WacCombatant.of(c).turned = True
    return [FacedAttacker(actor=c.name, facing=want)]


def guard_of(enc: Encounter, c: Combatant) -> str:
    """The guard ``c`` declared for the flurry under way: front unless it chose the flank."""
    d = WacEncounter.of(enc).declarations
    return (d.choice(c.name).get("guard") if d is not None and d.revealed else None) or "front"


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


def intent_of(enc: Encounter, c: Combatant) -> str:
    d = WacEncounter.of(enc).declarations
    return (d.choice(c.name).get("intent") if d is not None and d.revealed else None) or "kill"


def _attacker(enc: Encounter, passed: list[str], prefer: Combatant | None = None) -> Combatant | None:
    """Who takes the attack: ``prefer`` if it can, else the highest flurry initiative with actions
    and an opponent that has not held (``passed``) since the last attack; None: nobody can."""

    def ready(c: Combatant) -> bool:
        return WacCombatant.of(c).actions > 0 and c.name not in passed and bool(opponents(enc, c))

    pool = [c for c in participants(enc) if ready(c)]
    if prefer is not None and prefer in pool:
        return prefer
    return max(pool, key=lambda c: WacCombatant.of(c).flurry_init or 0, default=None)


def up_next(enc: Encounter, opts: OptionValues) -> tuple[str, ...]:
    """Who acts once the attacker under way holds (`hold`), read from the state: the next attacker,
    else those declaring in the next flurry (`opening`)."""
    nxt = _attacker(enc, [*WacEncounter.of(enc).passed, *([enc.current] if enc.current else [])])
    return (nxt.name,) if nxt is not None else opening(enc, opts, WacEncounter.of(enc).flurries[1:])


def opening(enc: Encounter, opts: OptionValues, flurries: list[list[str]]) -> tuple[str, ...]:
    """Who acts first once the next of ``flurries`` with two sides standing opens (as `_open`
    does): all its fighters declare; nobody named when each rolls its flurry initiative first
    (``declare=public``); with no flurry left, the adjustment phase's first."""
    for names in flurries:
        fighters = [c for c in enc.combatants if c.name in names and c.status == "active"]
        if len({c.side for c in fighters}) >= 2:
            return () if opts.declare == "public" else tuple(c.name for c in fighters)
    return after_phase(enc, opts, "flurry")


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


def success(enc: Encounter, c: Combatant, margin: int) -> None:
    """Count a successful attack of ``c`` in the flurry under way, ``margin`` over the Defense."""
    hits, best = WacEncounter.of(enc).successes.get(c.name, [0, 0])
    WacEncounter.of(enc).successes[c.name] = [hits + 1, max(best, margin) if hits else margin]


def winner(enc: Encounter, names: list[str]) -> str | None:
    """"The character winning the most and best successes determines the net movement": the most
    successful attacks, then the best margin; a tie (or no success at all) has no winner."""
    scored = sorted(((tuple(WacEncounter.of(enc).successes[n]), n) for n in names if n in WacEncounter.of(enc).successes), reverse=True)
    if not scored or (len(scored) > 1 and scored[0][0] == scored[1][0]):
        return None
    return scored[0][1]


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


def actionless(enc: Encounter, c: Combatant) -> list[Combatant]:
    """The opponents next to ``c`` in the flurry that have run out of actions."""
    grid = enc.grid()
    if grid is None or c.cell is None:
        return []
    return [o for o in opponents(enc, c) if WacCombatant.of(o).actions == 0 and o.cell is not None
            and grid.distance(c.cell, o.cell) == 1]


def _spent_foe(enc: Encounter, c: Combatant, name: str | None) -> Combatant:
    if not name:
        raise InputError("Name the opponent out of actions in `target`.")
    t = enc.get(name, "target")
    if t.name not in {o.name for o in opponents(enc, c)}:
        raise IllegalAction(f"{t.name} is not {c.name}'s opponent in this flurry.")
    if WacCombatant.of(t).actions > 0:
        raise IllegalAction(f"{t.name} still has actions: attack it or hold; drive and withdraw are for an opponent out of actions.")
    if t.name not in {o.name for o in actionless(enc, c)}:
        raise IllegalAction(f"{t.name} is not next to {c.name}: drive and withdraw are against an adjacent opponent.")
    return t


def drive(enc: Encounter, opts: OptionValues, c: Combatant, name: str | None, dice: Dice) -> list[Event]:
    """"Running Out of Actions: ... he must retreat one step for every action his opponent wishes to
    press": one action, one hex straight back (``c`` follows; into a wall or a taken hex it is pinned)."""
    from rules.systems.war_and_combat.movement import (
        push_back,  # movement reads the flurry's tactics
    )

    t = _spent_foe(enc, c, name)
    grid = enc.grid()
    assert grid is not None
    events, free = _held(enc, c, dice)
    if free is False:
        return events + after_attack(enc, opts, dice, c, t, True)
    WacCombatant.of(c).actions -= 1
    events += push_back(enc, grid, c, t)
    if not any(isinstance(e, Moved) for e in events):  # pinned: "one extra action (for that flurry only)"
        WacCombatant.of(c).actions += 1
        enc.effects = [e.model_copy(update={"left": 1}) if e.code == "pinned" and e.target == t.name else e
                       for e in enc.effects]
    return events + after_attack(enc, opts, dice, c, t, True)


def withdraw(enc: Encounter, opts: OptionValues, c: Combatant, name: str | None, dice: Dice) -> list[Event]:
    """"Alternatively, the opponent may wish to withdraw as many steps as he has actions and the
    actionless fighter must hold": one action, one hex straight away from it."""
    t = _spent_foe(enc, c, name)
    grid = enc.grid()
    assert grid is not None and c.cell is not None and t.cell is not None
    way = grid.direction(t.cell, c.cell)
    dest = grid.step(c.cell, way) if way is not None else None
    if dest is None or dest in grid.blocked or dest in enc.occupied(exclude=c):
        raise IllegalAction(f"{c.name} has no room to withdraw straight away from {t.name}: attack, drive it back or hold.")
    events, free = _held(enc, c, dice)
    if free is False:
        return events + after_attack(enc, opts, dice, c, t, True)
    WacCombatant.of(c).actions -= 1
    start = c.cell
    c.position = dest.name
    return events + [Moved(actor=c.name, path=[start.name, dest.name])] + after_attack(enc, opts, dice, c, t, True)


def _held(enc: Encounter, c: Combatant, dice: Dice) -> tuple[list[Event], bool | None]:
    """A held fighter's Restrict check "before attempting any action" (False: the action is lost)."""
    from rules.systems.war_and_combat.attacks import (
        restrict_check,  # attacks builds on the flurry
    )

    return restrict_check(enc, c, dice)
