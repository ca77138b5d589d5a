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

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Effect", "Ends", "Moment", "MAX_EFFECTS", "moments", "tick", "active", "next_id"]

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


def moments(before: tuple[int, str | None, str | None], after: tuple[int, str | None, str | None]) -> list[Moment]:
    """The moments that passed between two ``(round, phase, current)`` snapshots, in order.

    The turn of ``before``'s current ended when the current changed or a new round or phase
    began; a new round ends the old one (and its last phase); the new current's turn starts.
    """
    round0, phase0, cur0 = before
    round1, phase1, cur1 = after
    if before == after or round1 < round0:
        return []
    out: list[Moment] = []
    if cur0 is not None and round0 > 0:
        out.append(("turn_end", cur0))
    if phase0 is not None and (phase1 != phase0 or round1 != round0):
        out.append(("phase_end", None))
    if round1 > round0 and round0 > 0:
        out.append(("round_end", None))
    if cur1 is not None:
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
