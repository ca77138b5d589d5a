"""Facts: what the rules work out about an encounter for its presenter to word on the board, in
the turn line and in `/init order` (`rules.system.SystemContract.facts`). A presenter reads them
and the encounter's stored state, and works nothing out itself.

A system with more to show subclasses `Facts` with its own fields (numbers, names, codes:
never words), and its presenter is a ``Presenter[ItsFacts]``."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.effects import modifiers
from rules.events import Modifier
from rules.turns import Turn

if TYPE_CHECKING:  # pragma: no cover
    from rules.models import Encounter

__all__ = ["Facts", "Question", "effect_changes"]


@dataclass(frozen=True)
class Facts:
    """Who may act now (`Turn`); a system's subclass adds what its board and turn line show."""

    turn: Turn


@dataclass(frozen=True, kw_only=True)
class Question:
    """A question the rules leave to one player while an action waits, as facts (never words):
    ``user_id`` is asked; the answer is the `/act` action ``action`` of the combatant ``actor`` with
    ``choice=`` one of ``answers`` (codes, in the order offered) and ``tag=tag``, ``tag`` naming this
    question so an answer to an older one changes nothing. ``kind`` names the question; a system's
    subclass adds the facts its words need, and its presenter words it (`rules.present.Presenter.prompt`)."""

    kind: str
    user_id: str
    tag: str
    actor: str
    action: str
    answers: tuple[str, ...]


def effect_changes(enc: Encounter, value: str) -> Mapping[str, tuple[Modifier, ...]]:
    """What the running effects change ``value`` by, as the rules read it (`rules.effects.modifiers`):
    the combatants some effect changes it of, by name, each with one modifier per effect (``+1 Bless``),
    for a presenter to word after the value (`rules.present.Presenter.changes_note`)."""
    return {c.name: tuple(found) for c in enc.combatants if (found := modifiers(enc.effects, c.name, value))}
