"""Effects with durations: "Bless until the end of Grak's turn, 3 rounds", a stun for 2 rounds,
a cloud for 4 phases.

An :class:`Effect` lives on the encounter (``Encounter.effects``) and counts down at one kind of
moment: the start or the end of a named combatant's turn, the end of a round, or the end of a
phase. :func:`moments` reads which moments passed between two snapshots of the turn
(``round``, ``phase``, ``current``), and :func:`tick` counts the effects down; the one entry
point ``RuleSystem.resolve`` does both after every action, so every system's timed conditions
expire the same way, are logged with the action that ended them, and are undone exactly with it.

A system keeps its own timed conditions here too: it adds an effect with a ``code`` (``"stun"``)
and asks :func:`active` whether a combatant is under it. The GM's effects (`/effect add`) have no
code and change no rule: they are reminders shown on the board.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.errors import InputError

__all__ = ["Effect", "Ends", "Moment", "TurnPoint", "MAX_EFFECTS", "MAX_DURATION", "moments", "tick", "active", "next_id", "parse_ends", "ENDS_HELP"]

#: the moments an effect can count down at
Ends = Literal["turn_start", "turn_end", "round_end", "phase_end"]
#: at most this many effects on one encounter
MAX_EFFECTS = 100
#: at most this many rounds (or turns, or phases) an effect lasts
MAX_DURATION = 1000


class Effect(BaseModel):
    """One effect. ``left`` counts the ``ends`` moments still to pass: at 0 it is gone.

    ``of`` is whose turn counts for ``turn_start`` / ``turn_end`` (by default the target's);
    ``target`` is a combatant's name, or None for an effect on the field (a cloud on ``cells``).
    """

    model_config = ConfigDict(extra="forbid")

    id: int = Field(ge=1)
    name: str = Field(min_length=1, max_length=40, pattern=r"^[^\n\r`]+$")
    target: str | None = None
    ends: Ends = "turn_end"
    of: str | None = None
    left: int = Field(1, ge=1, le=MAX_DURATION)
    #: a system's code for a condition its rules read (None: a GM's reminder that changes no rule)
    code: str | None = Field(None, max_length=40)
    #: cells an effect on the field covers (a cloud), as players write them
    cells: list[str] = Field(default_factory=list, max_length=400)
    #: who added it (a combatant's name, or None for the GM)
    source: str | None = None

    @property
    def counts_at(self) -> tuple[str, str | None]:
        """The moment this effect counts down at: (kind, whose turn or None)."""
        if self.ends in ("turn_start", "turn_end"):
            return self.ends, self.of or self.target
        return self.ends, None


#: one moment that passed: (kind, combatant whose turn it was or None)
Moment = tuple[str, str | None]
#: where the turn stands: (round, phase, the turn's key, the combatant whose turn it is or None)
TurnPoint = tuple[int, str | None, tuple, str | None]


def moments(before: TurnPoint, after: TurnPoint, actor: str | None = None) -> list[Moment]:
    """The moments that passed between two turn points, in order.

    The turn of ``before``'s combatant ended when the turn passed on (another combatant, a new
    key, round or phase). In systems where a side's turn lets any of its models act, nobody's
    turn is current until one acts: when ``actor`` (who did the action) made the turn pass from
    there, its turn both started and ended in this action. A new round ends the old one (and
    its phase); the new combatant's turn starts.
    """
    round0, phase0, key0, cur0 = before
    round1, phase1, key1, cur1 = after
    if before == after or round1 < round0:
        return []
    passed = key0 != key1 or round0 != round1 or phase0 != phase1
    out: list[Moment] = []
    if round0 > 0:
        if cur0 is not None and (cur0 != cur1 or passed):
            out.append(("turn_end", cur0))
        elif cur0 is None and passed and actor is not None and actor != cur1:
            out += [("turn_start", actor), ("turn_end", actor)]
    if phase0 is not None and (phase1 != phase0 or round1 != round0):
        out.append(("phase_end", None))
    if round1 > round0 and round0 > 0:
        out.append(("round_end", None))
    if cur1 is not None and (cur1 != cur0 or passed):
        out.append(("turn_start", cur1))
    return out


def tick(effects: list[Effect], passed: list[Moment]) -> tuple[list[Effect], list[Effect]]:
    """Count ``effects`` down by the moments ``passed``: (still running, ended now), in order."""
    if not effects or not passed:
        return effects, []
    kept: list[Effect] = []
    ended: list[Effect] = []
    for effect in effects:
        left = effect.left - sum(1 for m in passed if m == effect.counts_at)
        if left <= 0:
            ended.append(effect)
        elif left != effect.left:
            kept.append(effect.model_copy(update={"left": left}))
        else:
            kept.append(effect)
    return kept, ended


def active(effects: list[Effect], target: str | None, code: str) -> Effect | None:
    """The first running effect with ``code`` on ``target`` (None: on the field), or None."""
    for effect in effects:
        if effect.code == code and effect.target == target:
            return effect
    return None


def next_id(effects: list[Effect]) -> int:
    """A new effect's id: one more than the largest in use."""
    return max((e.id for e in effects), default=0) + 1


#: how `ends` is written, for help and refusals
ENDS_HELP = "\"end of Grak's turn\", \"start of Grak's turn\", \"end of the round\" or \"end of the phase\""

_TURN = re.compile(r"^(?:at )?(?:the )?(start|beginning|end) of (?:(.+?)['’]s? )?(?:next )?turn$")
_ROUND = re.compile(r"^(?:at )?(?:the )?end of (?:the |each |every )?(round|phase)$")


def parse_ends(text: str | None, target: str | None, names: Iterable[str]) -> tuple[Ends, str | None]:
    """``ends`` as typed: (the moment, whose turn). Left out: the end of the target's turn (of the
    round for an effect on the field). A name is matched whatever its case."""
    words = " ".join((text or "").strip().lower().split())
    if not words:
        return ("turn_end", target) if target else ("round_end", None)
    found = _ROUND.match(words)
    if found:
        return ("round_end" if found.group(1) == "round" else "phase_end"), None
    found = _TURN.match(words)
    if found is None:
        raise InputError(f"`ends` should say when the effect counts down: {ENDS_HELP}.")
    kind: Ends = "turn_end" if found.group(1) == "end" else "turn_start"
    who = found.group(2)
    if who in (None, "its", "their", "my", "his", "her"):
        if target is None:
            raise InputError("An effect on the field counts rounds or phases: say \"end of the round\", or name whose turn.")
        return kind, target
    by_fold = {n.casefold(): n for n in names}
    if who not in by_fold:
        raise InputError(f"`ends` names {who[:40]}, who is not in this encounter: name a combatant, e.g. {ENDS_HELP}.")
    return kind, by_fold[who]
