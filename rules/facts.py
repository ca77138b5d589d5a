"""Facts: what the rules work out about an encounter for its presenter to word on the board, in
the turn line and in `/init order` (`rules.system.SystemContract.facts`). A presenter reads them
and the encounter's stored state, and works nothing out itself.

A system with more to show subclasses `Facts` with its own fields (numbers, names, codes:
never words), and its presenter is a ``Presenter[ItsFacts]``."""
from __future__ import annotations

from dataclasses import dataclass

from rules.turns import Turn

__all__ = ["Facts"]


@dataclass(frozen=True)
class Facts:
    """Who may act now (`Turn`); a system's subclass adds what its board and turn line show."""

    turn: Turn
