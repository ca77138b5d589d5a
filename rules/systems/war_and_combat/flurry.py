"""The flurry, as the round's other steps read it: who forms one (engaged fighters, and those
standing in an engaged fighter's zone of danger), who is in the one under way and against whom,
the actions each has (2, +1 per 5 Fighter ranks, less those lost this round), what each declared
(intention, manoeuvre tactic, guard), whose declaration is awaited, the successes scored and the
winner. The flurry phase's procedure (declarations, flurry initiative, the passing attack) is
`rounds.py`; driving back or withdrawing from an opponent out of actions, `movement.py`.
"""
from __future__ import annotations

from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.war_and_combat import sheet
from rules.systems.war_and_combat.state import WacCombatant, WacEncounter
from rules.systems.war_and_combat.turns import idle, to_declare
from rules.systems.war_and_combat.zones import actively_engaged, danger, engaging

__all__ = ["INTENTS", "TACTICS", "GUARDS", "DEFAULT_CHOICE", "participants", "in_flurry", "opponents", "actions_for",
           "groups", "to_declare", "guard_of", "intent_of", "success", "winner", "actionless"]

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
    return max(0, 2 + sheet.fighter(c) // int(opts.action_every) - WacCombatant.of(c).lost)


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

    reach = {c.name: engaging(grid, c) for c in fighters}
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


def guard_of(enc: Encounter, c: Combatant) -> str:
    """The guard ``c`` declared for the flurry under way: front unless it chose the flank."""
    d = WacEncounter.of(enc).declarations
    return (d.choice(c.name).get("guard") if d is not None and d.revealed else None) or "front"


def intent_of(enc: Encounter, c: Combatant) -> str:
    d = WacEncounter.of(enc).declarations
    return (d.choice(c.name).get("intent") if d is not None and d.revealed else None) or "kill"


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


def actionless(enc: Encounter, c: Combatant) -> list[Combatant]:
    """The opponents next to ``c`` in the flurry that have run out of actions."""
    grid = enc.grid()
    if grid is None or c.cell is None:
        return []
    return [o for o in opponents(enc, c) if WacCombatant.of(o).actions == 0 and o.cell is not None
            and grid.distance(c.cell, o.cell) == 1]


