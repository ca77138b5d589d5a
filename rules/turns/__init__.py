"""Turn procedures shared by the rule systems: each module is one procedure, working on typed
data the system passes in (names, sides, numbers), never on a system's own state. `Turn` says
who may act now (`rules.system.RuleSystem.turn` answers it)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Turn", "GM_GOES_ON", "NOBODY_ACTING", "NOBODY_LEFT"]

#: what the GM does where nobody is acting, as a rule names it (`rules.fight.FightRules.gm_goes_on`)
GM_GOES_ON = "the GM moves the fight on with `/init next`."
#: the refusal of a player's turn command (`/init next`, an action) where nobody is acting
NOBODY_ACTING = f"Nobody is acting now: {GM_GOES_ON}"
#: what the GM does where nobody is left to take a turn at all (`/init next` has nothing to move on)
NOBODY_LEFT = "bring a combatant back with `/combatant edit name:NAME sheet:\"hp=N\"`, or end the fight with `/encounter end`"


@dataclass(frozen=True)
class Turn:
    """Who may act now.

    ``actors``: combatants that may act now; ``key`` changes exactly when the turn passes to
    someone new (the bot then pings the owners of ``actors``). The rest are plain facts for the
    presenter's turn line (`rules.present.Presenter.turn_label`), which makes the sentence:
    ``phase`` names the part of the round, or a kind of turn the system has (``return``: a
    return attack; ``declare``: declarations); ``over``: nobody can act until the GM's `/init next` moves
    the round or phase on (so ``gm`` too); ``gm``: nobody can act and the GM's command moves the fight on (the bot
    pings the GM for it, and reminds the GM as it reminds players of their turn); ``points``: the acting combatant's allowance as the system counts it
    (movement left, and its whole); ``queue``: those waiting after ``actors``, in order, where the
    order is known.
    """

    actors: tuple[str, ...] = ()
    key: tuple[Any, ...] = ()
    current: str | None = None
    side: str | None = None
    phase: str | None = None
    over: bool = False
    gm: bool = False
    points: tuple[int, ...] = ()
    queue: tuple[str, ...] = ()
