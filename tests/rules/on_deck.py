"""The on-deck check of every system's turn tests: `RuleSystem.on_deck`, read from the state,
against ending the turn for real (the GM's `/init next`, resolved)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.actions import make_action
from rules.dice import Dice
from rules.errors import RulesError
from rules.models import Encounter
from rules.system import RuleSystem

__all__ = ["by_ending", "on_deck_checked"]


def by_ending(system: RuleSystem, enc: Encounter, dice: Sequence[int] = ()) -> tuple[str, ...]:
    """Whom ending the turn under way names: the GM's `/init next` for the one acting (or the first
    who may), resolved with no dice (or ``dice``, where the end itself rolls one that cannot change
    who is next), so that nobody is named where a roll would decide; those acting now left out."""
    turn = system.turn(enc)
    if not turn.actors or enc.winner:
        return ()
    end = make_action("next", actor=turn.current or turn.actors[0], is_gm=True)
    try:
        after = system.resolve(enc, end, Dice.fixed(tuple(dice))).encounter
    except RulesError:
        return ()
    return tuple(n for n in system.turn(after).actors if n not in turn.actors)


def _no_resolving(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("on_deck resolved an action")


def on_deck_checked(system: RuleSystem, enc: Encounter, dice: Sequence[int] = ()) -> tuple[str, ...]:
    """``system.on_deck(enc)``, checked: whom ending the turn names, found without resolving
    anything and leaving ``enc`` as it was."""
    before = enc.model_dump_json()
    expected = by_ending(system, enc, dice)
    system.resolve = _no_resolving  # for this call only: on_deck must not resolve
    try:
        named = system.on_deck(enc)
    finally:
        del system.resolve
    assert named == expected, (named, expected)
    assert enc.model_dump_json() == before
    return named
