"""Who may end which turn, and the end of the fight: the same two rules in every system.

`FightRules` is part of `rules.system.RuleSystem`, which supplies what these rules read of a
system: ``turn(enc)`` (whose turn it is), ``next_turn`` (its own end of a turn) and ``title``.
A system overrides `pass_turn` where it can pass a combatant out of turn, and `able_to_act`
where its downed combatants still act.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, ClassVar

from rules.actions import Action, ActionBase, CoupDeGrace, Next
from rules.dice import Dice
from rules.errors import IllegalAction, InputError, NotYourTurn
from rules.events import Event, Finished, Victory
from rules.models import Combatant, Encounter
from rules.text import possessive
from rules.turns import GM_GOES_ON, Turn

__all__ = ["FightRules"]


#: writes a turn's mark (`json.dumps` with ``default=str``, without making an encoder each time)
_MARKS = json.JSONEncoder(default=str)


def _used_mark(turn: Turn, name: str) -> str:
    """The mark of ``name`` having acted in ``turn`` (`Encounter.turn_used`): every action asks
    for one, so each is written once (`_mark`); a key that is no dict key is written each time."""
    try:
        return _mark(turn.key, name)
    except TypeError:
        return _write_mark(turn.key, name)


def _write_mark(key: tuple[Any, ...], name: str) -> str:
    return _MARKS.encode([list(key), name])[:1000]


_mark = lru_cache(maxsize=4096)(_write_mark)


class FightRules:
    """Turn control and the end of the fight, for `rules.system.RuleSystem`."""

    title: ClassVar[str]

    def turn(self, enc: Encounter) -> Turn:  # pragma: no cover - the system's own
        raise NotImplementedError

    def next_turn(self, enc: Encounter, action: Next, dice: Dice) -> list[Event]:  # pragma: no cover
        raise NotImplementedError

    # -- who may end which turn (the same rule in every system) -------------------------------------------
    def ending(self, enc: Encounter, action: ActionBase) -> tuple[str | None, bool]:
        """Whose turn `/init next` (``action``, its combatant filled in) ends, and whether it instead
        passes a combatant out of turn (the GM naming one who is not acting: `pass_turn`).

        Only the acting combatant's owner or the GM ends a turn: a player naming (or defaulting to)
        a combatant that is not acting now is refused, and never ends the turn under way. With
        nobody acting (a round or phase to move on), only the GM goes on, naming nobody. (None, False): the
        system's own `next_turn` decides (the fight has not started, nobody is named).
        """
        named = enc.find(action.actor)
        if not enc.started or named is None or enc.winner:
            return None, False
        turn = self.turn(enc)
        now = turn.current
        if now is not None and named.name == now:
            return now, False
        if now is None and named.name in turn.actors:
            return named.name, False
        if now is None and turn.side and named.side == turn.side:
            return None, False  # its side's turn, but it cannot activate: the system says why
        if action.is_gm and (now or turn.actors):
            return None, True
        if action.is_gm:  # a turn the GM moves on: nobody's to end, nobody to pass
            hint = self.gm_blocked(enc, turn) or "`/init next` without `combatant` moves the fight on"
            raise NotYourTurn(f"Nobody is acting now, so {named.name} has no turn to end or pass: {hint}. Nothing changed.")
        if now is None and not turn.actors:
            raise NotYourTurn(f"Nobody is acting now: {self.gm_goes_on(enc, turn)}")
        whose = possessive(now or turn.side or ", ".join(turn.actors[:10]))
        raise NotYourTurn(
            f"It is {whose} turn now, not {possessive(named.name)}: only the owner of the combatant acting, or the GM, "
            "can end a turn, and nothing was ended."
        )

    def gm_goes_on(self, enc: Encounter, turn: Turn) -> str:
        """What the GM does to move on a ``turn`` nobody is acting in (a player's `/init next` is told it): the GM's
        `/init next`, unless the system's rules want another command first (it says which)."""
        return GM_GOES_ON

    def gm_blocked(self, enc: Encounter, turn: Turn) -> str:
        """What the GM does first where its `/init next` cannot move on a ``turn`` nobody is acting in (`gm_goes_on`
        names another command; a deadline cannot pass such a turn either); empty where it can."""
        how = self.gm_goes_on(enc, turn)
        return "" if how == GM_GOES_ON else how.rstrip(".")

    def pass_turn(self, enc: Encounter, action: Next, dice: Dice) -> list[Event]:
        """The GM's `/init next combatant:X` while someone else acts: X loses its coming turn (a system
        that can do so overrides this); here it is refused with the reason, and nothing ends."""
        turn = self.turn(enc)
        now = turn.current or turn.side or ", ".join(turn.actors[:10])
        raise IllegalAction(
            f"{action.actor} is not acting now ({now} is), and {self.title} cannot pass a combatant before its "
            f"turn comes: nothing was ended. End the turn under way with `/init next` first, or wait for "
            f"{possessive(action.actor or '')} turn."
        )

    def untouched(self, enc: Encounter, name: str) -> bool:
        """Whether ``name``, whose turn it is, has done nothing yet in this turn (a typed `/init next`
        asks before ending such a turn)."""
        return enc.turn_used != _used_mark(self.turn(enc), name)

    def _end_turn(self, enc: Encounter, action: Next, dice: Dice) -> list[Event]:
        """`/init next`: the turn-control rule (`ending`), then the system's end of the turn."""
        _, passing = self.ending(enc, action)
        if passing:  # the turn under way goes on, with what its combatant has done in it
            return self.pass_turn(enc, action, dice)
        enc.turn_used = None
        return self.next_turn(enc, action, dice)

    def _note_used(self, enc: Encounter, action: ActionBase) -> None:
        """Mark that the acting combatant did something in its turn (while that turn goes on)."""
        turn = self.turn(enc)
        if action.actor and (action.actor == turn.current or (turn.current is None and action.actor in turn.actors)):
            enc.turn_used = _used_mark(turn, action.actor)

    # -- the end of the fight (the same rule in every system) --------------------------------------------
    def able_to_act(self, c: Combatant) -> bool:
        """Whether ``c`` can still act in the fight: active (a system whose downed combatants still
        act says so here)."""
        return c.status == "active"

    def side_defeated(self, enc: Encounter, side: str) -> bool:
        """Nobody of ``side`` is able to act (`able_to_act`)."""
        return not any(self.able_to_act(c) for c in enc.combatants if c.side == side)

    def check_victory(self, enc: Encounter) -> list[Event]:
        """Decide the fight once one side alone has combatants able to act (none: nobody won)."""
        if not enc.started or enc.winner:
            return []
        sides = enc.sides()
        if len(sides) < 2:
            return []
        standing = [s for s in sides if not self.side_defeated(enc, s)]
        if len(standing) > 1:
            return []
        return self.decide(enc, standing[0] if standing else None)

    def decide(self, enc: Encounter, side: str | None) -> list[Event]:
        """The fight is decided: ``side`` won (None: nobody). Turns stop; the result is announced
        once, naming the helpless foes a finishing blow may still take out (`check_decided`)."""
        enc.winner = side or "nobody"
        enc.current = None
        helpless = [c.name for c in enc.combatants if c.side != side and c.status == "downed"] if side else []
        return [Victory(side=side, helpless=helpless)]

    def check_decided(self, enc: Encounter, action: Action) -> None:
        """Once the fight is decided, only finishing blows (a coup de grâce on the helpless), the
        GM's edits and removals remain (and, outside the rules, `/undo`, `/log`, export and
        `/encounter end`): anything else is refused in one line."""
        if not enc.winner:
            return
        if action.kind in ("edit", "remove") and action.is_gm:
            return
        if action.kind == "coupdegrace" and enc.winner != "nobody":
            return
        finish = " a coup de grâce on the helpless," if enc.winner != "nobody" else ""
        raise IllegalAction(
            f"The fight is decided ({enc.winner} won): only{finish} the GM's edits, `/undo`, `/log`, "
            f"`/encounter export` and `/encounter end` remain."
        )

    def finish(self, enc: Encounter, action: CoupDeGrace) -> list[Event]:
        """A coup de grâce after the fight was decided: a combatant of the winning side able to act
        takes a helpless foe out of the fight, with no roll and out of any turn (nothing is left to
        resist it)."""
        c = enc.get(action.actor)
        target = action.target
        if not target:
            names = ", ".join(o.name for o in enc.combatants if o.side != enc.winner and o.status == "downed") or "none"
            raise InputError(f"Name the helpless foe to finish with `target`: {names}.")
        t = enc.get(target, "target")
        if c.side != enc.winner or not self.able_to_act(c):
            raise IllegalAction(f"The fight is decided ({enc.winner} won): only a combatant of {enc.winner} able to act can finish a foe.")
        if t.side == c.side or t.status != "downed":
            raise IllegalAction(f"{t.name} is not a helpless foe: a coup de grâce after the fight finishes only a downed foe.")
        t.status = "out"
        return [Finished(actor=c.name, target=t.name)]
