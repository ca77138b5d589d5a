"""The damage-grid game's rounds (the text's Sequence page is missing: shared/rules/README.md's default).

A round has 4 phases (option ``phases``). In each phase the sides alternate activating one model
at a time, through `rules.turns.alternating`: the side with the most models in the fight first
(ties: the order the sides joined), and a side with no model left to activate in the phase
passes. Every active model on the board activates once a phase; inert (Mind 0) models do not, but
their activations pass unplayed as each phase ends (the effects timed by their turns count down).
An activation is a Move, a Combat activation or a Lunge (or a Grapple, which is a Combat
activation); it begins with the model's first action and ends with ``/init next``
(``/init next combatant:NAME`` activates a model and does nothing with it). Each model has 2
Combat Points a round (option ``combat_points``), given back when the round begins.
"""
from __future__ import annotations

from collections.abc import Callable

from rules.dice import Dice
from rules.effects import end_turn, pass_turns, start_turn
from rules.errors import IllegalAction, NotYourTurn
from rules.events import Event
from rules.models import Combatant, Encounter
from rules.system import Turn
from rules.systems.damage_grid.events import (
    Activated,
    ActivationEnded,
    NewRound,
    Passed,
    PhaseBegan,
    Priority,
)
from rules.systems.damage_grid.grid import HUMANOID_DEFAULTS
from rules.systems.damage_grid.options import values
from rules.systems.damage_grid.state import DgCombatant, DgEncounter
from rules.text import possessive
from rules.turns import alternating

__all__ = [
    "now",
    "pool",
    "waiting",
    "start",
    "activate",
    "next_turn",
    "marked_out",
    "on_removed",
    "turn",
    "up_next",
    "speed",
]

#: what each kind of activation is called in refusals
#: what else happens as a phase begins (clouds drift, pulses spread: `blasts.phase_begins`, which builds
#: on the attacks, which build on this module): the system passes it to :func:`next_turn`
PhaseBegins = Callable[[Encounter, Dice], list[Event]]

KINDS = {"move": "a Move", "combat": "a Combat activation", "lunge": "a Lunge", "grapple": "a Grapple", "pass": "a pass",
         "break": "an attempt to break a grapple",
         "lunged": "a Lunge already made"}


def now(enc: Encounter) -> int:
    """The phase under way, counted from the fight's first (0)."""
    phases: int = values(enc).phases
    return max(enc.round - 1, 0) * phases + DgEncounter.of(enc).phase


def speed(c: Combatant) -> int:
    """Speed points: the Speed location's value now (each hit on Speed takes one away); a custom grid
    with no Speed location moves at the sheet's ``speed`` (default 4)."""
    values = DgCombatant.of(c).values
    if "speed" in values:
        return max(values["speed"], 0)
    given = c.sheet.get("speed")
    return int(given) if given is not None else HUMANOID_DEFAULTS["speed"]


def _ready(enc: Encounter, c: Combatant, phase: int) -> bool:
    return c.status == "active" and c.position is not None and DgCombatant.of(c).acted < phase


def pool(enc: Encounter, side: str | None, phase: int | None = None) -> list[Combatant]:
    """The side's models that may still activate in ``phase`` (default: the phase under way)."""
    p = now(enc) if phase is None else phase
    return [c for c in enc.combatants if c.side == side and _ready(enc, c, p)]


def _standing(enc: Encounter) -> list[str]:
    return [s for s in enc.sides() if any(c.status == "active" for c in enc.combatants if c.side == s)]


def _phase_name(enc: Encounter) -> str:
    return f"phase {DgEncounter.of(enc).phase + 1}/{values(enc).phases}"


def _counts(enc: Encounter) -> dict[str, int]:
    """The sides' active models, for the order of sides."""
    counts = {s: sum(1 for c in enc.combatants if c.side == s and c.status == "active") for s in enc.sides()}
    return {s: n for s, n in counts.items() if n}


def new_round(enc: Encounter, begins: Callable[[Encounter], list[Event]] | None = None) -> list[Event]:
    """Begin the next round: Combat Points back, the order of sides worked out afresh."""
    enc.round += 1
    enc.current = None
    opts = values(enc)
    for c in enc.combatants:
        st = DgCombatant.of(c)
        st.cp, st.forced, st.activation, st.speed_left, st.weapon = opts.combat_points, 0, None, 0, None
    sides, _ = alternating.order_sides(_counts(enc), "join")
    state = DgEncounter.of(enc)
    state.sides, state.phase, state.priority = sides, 0, None
    enc.phase = _phase_name(enc)
    enc.order = alternating.interleave([[c.name for c in pool(enc, s)] for s in sides])
    return [NewRound(round=enc.round, sides=sides), *_drift(enc, begins), *_pass_priority(enc, None)]


def _pass_priority(enc: Encounter, after: str | None, begins: Callable[[Encounter], list[Event]] | None = None) -> list[Event]:
    state = DgEncounter.of(enc)
    phases = values(enc).phases
    first = max(enc.round - 1, 0) * phases
    nxt = alternating.next_turn(
        alternating.rotation(state.sides, enc.sides()),
        after,
        lambda side, p: bool(pool(enc, side, first + p)),
        phase=state.phase,
        phases=phases,
        standing=set(_standing(enc)).__contains__,
    )
    if nxt.side is None:
        if not any(_ready(enc, c, now(enc) + 1) for c in enc.combatants):
            state.priority = None  # nobody can act any more: the fight waits for the GM
            return []
        return _pass_inert(enc) + new_round(enc, begins)
    events: list[Event] = []
    if nxt.phase != state.phase:
        events += _pass_inert(enc)
        state.phase = nxt.phase
        enc.phase = _phase_name(enc)
        events.append(PhaseBegan(round=enc.round, phase=nxt.phase + 1, phases=phases))
        events += _drift(enc, begins)
    events += [Passed(side=s) for s in nxt.passed]
    state.priority = nxt.side
    state.slot += 1
    return events + [Priority(side=nxt.side, models=[c.name for c in pool(enc, nxt.side)])]


def _pass_inert(enc: Encounter) -> list[Event]:
    """The phase under way ends: the activation each inert model on the board had in it passes
    unplayed. Inert (Mind 0) it "can no longer perform Actions", yet it is not destroyed and a `heal`
    makes it active again, so the effects timed by its turn count down as a skipped turn's do."""
    here = now(enc)
    names = [c.name for c in enc.combatants if c.status == "downed" and c.position is not None and DgCombatant.of(c).acted < here]
    enc.effects, ended = pass_turns(enc.effects, names)
    return list(ended)


def _drift(enc: Encounter, begins: Callable[[Encounter], list[Event]] | None) -> list[Event]:
    """What happens as each phase begins (`PhaseBegins`), while a cloud or a pulse is on the map."""
    if begins is None or not any(e.code in ("cloud", "pulse") for e in enc.effects):
        return []
    return begins(enc)


def start(enc: Encounter, actor: str | None) -> list[Event]:
    """`/init roll`: the fight begins with round 1, phase 1."""
    if actor:
        raise IllegalAction(
            "The damage-grid game has no initiative for one model: `/init roll` without a combatant starts "
            "the fight, and the side with the most models activates first."
        )
    if enc.started:
        raise IllegalAction(f"The fight is under way (round {enc.round}): `/init next` ends the activation under way.")
    if len([s for s in enc.sides() if any(c.on_board for c in enc.combatants if c.side == s)]) < 2:
        raise IllegalAction("A fight needs models on the board on at least two sides: add some with `/combatant add`.")
    return new_round(enc)


def need_started(enc: Encounter) -> None:
    if not enc.started:
        raise IllegalAction("Combat has not started: the GM starts it with `/init roll`.")


def activate(enc: Encounter, c: Combatant, how: str) -> list[Event]:
    """Make ``c`` the activating model with a ``how`` activation (or go on with the one under way)."""
    need_started(enc)
    st = DgCombatant.of(c)
    if st.grappled_by and how not in ("break", "pass"):
        # "to stop it from moving and performing any other activation that to break the grapple"
        raise IllegalAction(
            f"{c.name} is held in a grapple by {', '.join(st.grappled_by)}: it can only try to break it "
            f"(`/act action:break`, 1 Combat Point) or do nothing (`/init next combatant:{c.name}`)."
        )
    if enc.current == c.name:
        if st.activation != how:
            raise IllegalAction(
                f"{c.name} is in {KINDS[st.activation or 'pass']}, so it cannot begin {KINDS[how]} now: a model cannot "
                f"both move and attack in one activation (a Lunge does both). `/init next` ends the activation."
            )
        return []
    if c.status == "out":
        raise IllegalAction(f"{c.name} is destroyed and takes no further part in the fight.")
    if c.status == "downed":
        raise IllegalAction(f"{c.name} is inert (Mind 0) and cannot perform actions.")
    if enc.current:
        raise NotYourTurn(f"{enc.current} is activating now: its activation ends with `/init next` before {c.name} can act.")
    side = DgEncounter.of(enc).priority
    waiting = ", ".join(x.name for x in pool(enc, side)) or "none"
    if c.position is None:
        raise IllegalAction(f"{c.name} is not on the board: the GM places it with `/combatant edit name:{c.name} at:CELL`.")
    if st.acted >= now(enc):
        raise NotYourTurn(
            f"{c.name} has already activated in this phase ({enc.phase}): each model activates once a phase. "
            f"Still to activate for {side}: {waiting}."
        )
    if c.side != side:
        raise NotYourTurn(f"{side} activate a model now (one of {waiting}); {c.name} waits until it is the {possessive(c.side or '')} turn.")
    enc.current = c.name
    enc.effects, ended = start_turn(enc.effects, c.name)  # what ends as its turn starts no longer counts in it
    st.activation, st.acted, st.weapon = how, now(enc), None
    st.speed_left = speed(c) if how in ("move", "lunge") else 0
    if how not in ("move", "lunge"):
        st.run = 0
    return [Activated(actor=c.name, how=how, speed=st.speed_left, cp=st.cp), *ended]


def _end(enc: Encounter) -> list[Event]:
    c = enc.get(enc.current)
    st = DgCombatant.of(c)
    st.activation, st.speed_left, st.weapon = None, 0, None
    enc.current = None
    enc.effects, ended = end_turn(enc.effects, c.name)  # told with the activation's end
    return [ActivationEnded(actor=c.name), *ended]


def _begins(dice: Dice | None, phase_begins: PhaseBegins | None) -> Callable[[Encounter], list[Event]] | None:
    """``phase_begins`` rolling ``dice`` (None without either)."""
    if dice is None or phase_begins is None:
        return None
    return lambda enc: phase_begins(enc, dice)


def next_turn(enc: Encounter, actor: str | None, dice: Dice | None = None,
              phase_begins: PhaseBegins | None = None) -> list[Event]:
    """`/init next`: end the activation under way (activating ``actor`` first, doing nothing, if none is);
    ``phase_begins`` runs with ``dice`` as each phase it reaches begins."""
    need_started(enc)
    begins = _begins(dice, phase_begins)
    events: list[Event] = []
    if enc.current is None:
        side = DgEncounter.of(enc).priority
        if side is None or not pool(enc, side):
            return _pass_priority(enc, side, begins) or _end_phase(enc, begins)
        if not actor:
            raise NotYourTurn(
                f"{side} must activate a model first: act with one, or `/init next combatant:NAME` to activate it "
                f"and do nothing."
            )
        events += activate(enc, enc.get(actor), "pass")
    side = enc.get(enc.current).side
    return events + _end(enc) + _pass_priority(enc, side, begins)


def _end_phase(enc: Encounter, begins: Callable[[Encounter], list[Event]] | None) -> list[Event]:
    """Nobody on the board can activate any more (the GM's `/init next`): the phase under way ends, the activations
    of the inert passing unplayed, and the next begins (the last one's end begins a new round), waiting for the GM in
    turn unless a model can activate in it."""
    state = DgEncounter.of(enc)
    phases = values(enc).phases
    events = _pass_inert(enc)
    if state.phase + 1 >= phases:
        return events + new_round(enc, begins)
    state.phase += 1
    enc.phase = _phase_name(enc)
    events.append(PhaseBegan(round=enc.round, phase=state.phase + 1, phases=phases))
    return events + _drift(enc, begins) + _pass_priority(enc, None, begins)


def end_if_out(enc: Encounter, c: Combatant) -> list[Event]:
    """The activating model was made inert or destroyed: its activation ends, priority passes."""
    if enc.current != c.name or c.status == "active" or len(_standing(enc)) < 2:
        return []
    return _end(enc) + _pass_priority(enc, c.side)


def marked_out(enc: Encounter, c: Combatant, dice: Dice, phase_begins: PhaseBegins) -> list[Event]:
    """``c`` was made inert or destroyed by the GM's marks: activating, its activation ends and priority passes
    (`end_if_out`); the last model of the side to activate while nobody activates, that side has nothing left to
    activate and passes, as when it is removed (`on_removed`)."""
    if enc.current == c.name:
        return end_if_out(enc, c)
    if c.status == "active" or len(_standing(enc)) < 2:
        return []
    return on_removed(enc, c, dice, phase_begins)


def on_removed(enc: Encounter, c: Combatant, dice: Dice | None = None, phase_begins: PhaseBegins | None = None) -> list[Event]:
    """``c`` left the fight: if it was activating, that activation is used and the other side activates
    next ("the sides alternate activating one model"); priority also passes on when its side has nothing
    left to activate. A phase it reaches begins as with `next_turn` (``phase_begins`` with ``dice``)."""
    if not enc.started or enc.winner:
        return []
    passes, after = alternating.after_removal(c.side, DgCombatant.of(c).activation is not None, enc.current is None,
                                              DgEncounter.of(enc).priority, lambda side: bool(pool(enc, side)))
    return _pass_priority(enc, after, _begins(dice, phase_begins)) if passes else []


def up_next(enc: Encounter, turn: Turn) -> tuple[str, ...]:
    """Who may activate once ``turn`` ends (the activation under way, or else the first of the
    side's models activating and doing nothing), read from the state: the next side with models
    left in this phase or a later one, else the next round's first side. Nothing when clouds and
    pulses drift as the next phase begins (dice decide where), or when nobody can act any more."""
    state = DgEncounter.of(enc)
    ending = enc.get(turn.current or turn.actors[0])
    phases = values(enc).phases
    first, here = max(enc.round - 1, 0) * phases, now(enc)

    def left(side: str, phase: int) -> list[str]:  # the ending model has activated in the phase under way
        return [c.name for c in pool(enc, side, first + phase) if not (c is ending and first + phase <= here)]

    standing = set(_standing(enc)).__contains__
    nxt = alternating.next_turn(alternating.rotation(state.sides, enc.sides()), ending.side,
                                lambda side, phase: bool(left(side, phase)), phase=state.phase, phases=phases, standing=standing)
    drifting = any(e.code in ("cloud", "pulse") for e in enc.effects)
    if nxt.side is not None:
        return () if drifting and nxt.phase != state.phase else tuple(left(nxt.side, nxt.phase))
    if drifting or not any(_ready(enc, c, here + 1) for c in enc.combatants):
        return ()
    sides, _ = alternating.order_sides(_counts(enc), "join")

    def fresh(side: str) -> list[str]:
        return [c.name for c in enc.combatants if c.side == side and c.status == "active" and c.position is not None]

    start = alternating.next_turn(alternating.rotation(sides, enc.sides()), None, lambda side, _phase: bool(fresh(side)),
                                  standing=standing)
    return tuple(fresh(start.side)) if start.side is not None else ()


def waiting(enc: Encounter) -> dict[str, tuple[str, ...]]:
    """The sides in this round's order, each with its models still to activate in the phase (none before the fight)."""
    if not enc.started or enc.winner:
        return {}
    return {side: tuple(c.name for c in pool(enc, side) if c.name != enc.current)
            for side in alternating.rotation(DgEncounter.of(enc).sides, enc.sides())}


def turn(enc: Encounter) -> Turn:
    if not enc.started or enc.winner:
        return Turn()
    state = DgEncounter.of(enc)
    key = (enc.round, state.phase, state.slot)
    cur = enc.find(enc.current)
    if cur is not None:
        return Turn((cur.name,), key, cur.name, cur.side, phase=enc.phase)
    side = state.priority
    names = tuple(c.name for c in pool(enc, side)) if side else ()
    if not names:
        return Turn((), (*key, "gm"), phase=enc.phase, over=True, gm=True)  # a key of its own: the GM is pinged
    return Turn(names, key, None, side, phase=enc.phase)
