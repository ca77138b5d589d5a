"""Turn procedures shared by the rule systems: each module is one procedure, working on typed
data the system passes in (names, sides, numbers), never on a system's own state. `Turn` says
who may act now (`rules.system.RuleSystem.turn` answers it)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Turn"]


@dataclass(frozen=True)
class Turn:
    """Who may act now.

    ``actors``: combatants that may act now; ``key`` changes exactly when the turn passes to
    someone new (the bot then pings the owners of ``actors``); ``label`` is a line for the board.
    """

    actors: tuple[str, ...] = ()
    key: tuple[Any, ...] = ()
    label: str = ""
    current: str | None = None
    side: str | None = None
