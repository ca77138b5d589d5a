"""An initiative order: highest first, ties broken the way the system says, one turn each per round.

The system passes in one :class:`Slot` per combatant still in the fight: its initiative, its
``tiebreak`` (compared in ascending order on equal initiative: Knights of Valour puts player
characters before monsters, then the order the GM set) and whether it can act now (downed
combatants are skipped). Those who have had their turn this round keep their places; the rest
are sorted. ``reverse=True`` runs the same order lowest first (a War & Combat adjustment phase).
:func:`turn` is whose turn it is, and :func:`up_next` who acts once it ends.

Delay: a combatant lowers its initiative for the round. :func:`delay_refusal` says why it may
not (as a code the system turns into words) under the window the system supplies, and
:func:`lowered` works out the new number.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rules.errors import IllegalAction, NotYourTurn
from rules.models import Combatant, Encounter
from rules.system import Turn
from rules.turns import NOBODY_ACTING

__all__ = ["Slot", "arrange", "next_to_act", "up_next", "tied_groups", "DelayWindow", "delay_refusal", "lowered", "turn", "acting"]


@dataclass(frozen=True)
class Slot:
    """One combatant in the order."""

    name: str
    initiative: int
    #: compared (ascending) between combatants of equal initiative
    tiebreak: tuple[Any, ...] = ()
    #: able to take a turn now (False: downed, skipped)
    can_act: bool = True


def _sorted(slots: Sequence[Slot], reverse: bool) -> list[Slot]:
    ranked = sorted(slots, key=lambda s: (-s.initiative, s.tiebreak))
    return ranked[::-1] if reverse else ranked


def arrange(slots: Sequence[Slot], acted: Sequence[str] = (), *, reverse: bool = False) -> list[str]:
    """The round's order: those in ``acted`` first, as they acted, then the others by initiative."""
    names = {s.name for s in slots}
    done = [n for n in acted if n in names]
    return done + [s.name for s in _sorted([s for s in slots if s.name not in done], reverse)]


def next_to_act(order: Sequence[str], acted: Collection[str], can_act: Collection[str]) -> str | None:
    """The first in ``order`` who has not had a turn this round and can act; None: the round is over."""
    return next((n for n in order if n not in acted and n in can_act), None)


def up_next(order: Sequence[str], acted: Collection[str], can_act: Collection[str],
            next_round: Callable[[], Sequence[str]]) -> str | None:
    """Who acts once the turn under way ends (its combatant is in ``acted``): the next in ``order``
    who has not acted and can; when the round is over, the first who can in ``next_round()`` (the
    order the new round starts with, worked out only then). None: nobody can act."""
    name = next_to_act(order, acted, can_act)
    return name if name is not None else next_to_act(next_round(), (), can_act)


def tied_groups(slots: Sequence[Slot]) -> list[list[str]]:
    """Names sharing an initiative (groups of two or more), in order."""
    groups: dict[int, list[str]] = {}
    for s in _sorted(slots, False):
        groups.setdefault(s.initiative, []).append(s.name)
    return [g for g in groups.values() if len(g) > 1]


#: ``start``: only before anyone has acted in the round; ``turn``: until one's own turn has been used
DelayWindow = Literal["start", "turn"]


def delay_refusal(
    name: str,
    *,
    window: DelayWindow,
    acted: Collection[str],
    current: str | None,
    turn_used: bool,
    round_start: bool,
    may_delay: bool = True,
) -> str | None:
    """Why ``name`` may not lower its initiative now, or None when it may.

    Codes: ``not_allowed`` (the system does not let it delay), ``acted`` (its turn is over or
    under way), ``not_start`` (the window is the start of the round and that has passed).
    """
    if not may_delay:
        return "not_allowed"
    if name in acted and not (name == current and not turn_used):
        return "acted"
    if window == "start" and not round_start:
        return "not_start"
    return None


def lowered(
    old: int, *, floor: int, to: int | None = None, by: int | None = None, below: int | None = None
) -> int | None:
    """The initiative after a delay: ``to`` a number, ``by`` an amount (not under ``floor``), or
    just ``below`` another's; None when none is given."""
    if to is not None:
        return to
    if below is not None:
        return min(old, below - 1)
    if by is not None:
        return max(old - by, floor)
    return None


def turn(enc: Encounter, points: Callable[[Combatant], tuple[int, ...]] | None = None,
         takes_turns: Callable[[Combatant], bool] | None = None) -> Turn:
    """Whose turn it is in an order of one turn each: the current combatant (nobody before the
    fight starts or once it is decided); ``points`` gives the presenter its allowance. A fight under
    way with nobody acting (nobody active is left to take a turn, or an import came in between turns)
    waits for the GM, whose `/init next` goes on (``gm``; ``over`` too where nobody can act: the round passes;
    ``phase`` ``idle`` where nobody ``takes_turns`` at all, when the system says who does: nothing is left to pass)."""
    if not enc.started or enc.winner:
        return Turn()
    c = enc.find(enc.current)
    if c is None:
        stuck = not any(x.status == "active" for x in enc.combatants)
        idle = takes_turns is not None and not any(takes_turns(x) for x in enc.combatants)
        return Turn(key=(enc.round,), phase="idle" if idle else None, over=stuck, gm=True)
    return Turn(actors=(c.name,), key=(enc.round, c.name), current=c.name, side=c.side,
                points=points(c) if points is not None else ())


def acting(enc: Encounter, name: str | None) -> Combatant:
    """The combatant ``name``, which must be the one whose turn it is (an order of one turn each)."""
    if not enc.started:
        raise IllegalAction("Combat has not started: the GM starts it with `/init roll`.")
    c = enc.get(name)
    if enc.current is None:
        raise NotYourTurn(NOBODY_ACTING)
    if c.name != enc.current:
        raise NotYourTurn(f"It is {enc.current}'s turn, not {c.name}'s: {c.name} acts when its turn comes (the bot pings "
                          f"its owner), or the GM ends {enc.current}'s turn first with `/init next`.")
    return c
