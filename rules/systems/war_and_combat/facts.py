"""What War & Combat's board and turn line show that the rules work out (`WacFacts`): its
presenter words them, and reads the rest from the stored state."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.facts import Facts
from rules.models import Encounter
from rules.systems.war_and_combat.lengthy import busy_with
from rules.systems.war_and_combat.state import WacCombatant, WacEncounter, WoundRecord
from rules.systems.war_and_combat.tables import SEVERITIES, Wound
from rules.systems.war_and_combat.turns import idle_why
from rules.systems.war_and_combat.zones import engaged_with, wielded, zone_of
from rules.text import listing
from rules.turns import Turn

__all__ = ["WacFacts", "facts_of"]


@dataclass(frozen=True)
class WacFacts(Facts):
    """The board's facts, by combatant name (those a fact applies to only):

    ``wounds``: the worst wound at each location wounded, as (location, severity, the text's record:
    "B16", blunt or penetrating and the shock value), in the order first wounded; ``idle``: why those who can take no action cannot (``stunned``, ``surprised``); ``zone_limits``: the hexes a
    polearm's zone of threat is held to (a limit set while wielding another weapon does not
    show); ``busy``: a lengthy action under way, as (``shed`` or ``don``, the armour's name);
    ``to_declare``: whose declaration the flurry awaits now (declaring in turn, the next only);
    ``waiting``: all yet to declare; ``stopped``: why the fighter whose movement step it is may not move
    (``engaged with Grak``, ``in Grak's zone of threat``), or None."""

    wounds: Mapping[str, tuple[tuple[str, str, str], ...]] = field(default_factory=dict)
    idle: Mapping[str, str] = field(default_factory=dict)
    zone_limits: Mapping[str, str] = field(default_factory=dict)
    busy: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    to_declare: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()
    stopped: str | None = None


def facts_of(enc: Encounter, turn: Turn) -> WacFacts:
    """The facts of ``enc`` whose turn is ``turn`` (`WarAndCombatSystem.turn`: declaring, its actors are
    those whose declaration is awaited now): one pass over its combatants."""
    wounds: dict[str, tuple[tuple[str, str, str], ...]] = {}
    limits: dict[str, str] = {}
    busy: dict[str, tuple[str, str]] = {}
    for c in enc.combatants:
        st = WacCombatant.of(c)
        if st.wounds:
            worst: dict[str, WoundRecord] = {}
            for w in st.wounds:
                if w.location not in worst or SEVERITIES.index(w.severity) > SEVERITIES.index(worst[w.location].severity):
                    worst[w.location] = w
            wounds[c.name] = tuple((loc, w.severity, Wound(w.severity, w.penetrating).record) for loc, w in worst.items())
        if st.limit and wielded(c).polearm:
            limits[c.name] = st.limit
        if st.busy:
            busy[c.name] = busy_with(c)
    d = WacEncounter.of(enc).declarations
    waiting = tuple(d.waiting()) if enc.phase == "flurry" and d is not None and not d.revealed else ()
    return WacFacts(turn=turn, wounds=wounds, idle={c.name: why for c in enc.combatants if (why := idle_why(enc, c))},
                    zone_limits=limits, busy=busy, to_declare=turn.actors if turn.phase == "declare" else (),
                    waiting=waiting, stopped=_stopped(enc))


def _stopped(enc: Encounter) -> str | None:
    """Why the fighter whose movement step it is may not move (`movement.move` refuses it): engaged, or standing in
    a zone whose threat the flurry resolves first."""
    c = enc.find(enc.current) if enc.phase == "movement" and enc.current else None
    grid = enc.grid()
    if c is None or grid is None or c.cell is None:
        return None
    if foes := engaged_with(enc, grid, c):
        return f"engaged with {listing([f.name for f in foes])}"
    zone = zone_of(enc, grid, c, c.cell)
    return f"in {zone[0].name}'s zone of {zone[1]}" if zone is not None else None
