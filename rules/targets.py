"""May this combatant take that one as the target of an attack now: the checks every system makes
before its own (reach, range, sight, a flurry's opponents), written once.

A system passes what its text adds: ``foe`` (an attack on one's own side is refused), ``gone``
(the word for a combatant no longer in the fight: "destroyed" for the damage grid's models),
``on_map`` (both must stand on the map). The refusals say what to do instead.
"""
from __future__ import annotations

from rules.errors import IllegalAction, InputError
from rules.geometry import Cell
from rules.models import Combatant, Encounter

__all__ = ["attack_target", "need_target", "cell_of"]


def cell_of(c: Combatant) -> Cell:
    """The cell ``c`` stands on, or the refusal saying the GM places it."""
    cell = c.cell
    if cell is None:
        raise IllegalAction(f"{c.name} is not on the map: the GM places it with `/combatant edit at:`.")
    return cell


def need_target(name: str | None, verb: str = "attack") -> str:
    """The ``target`` given, or an `InputError` asking for one."""
    if not name:
        raise InputError(f"Name the combatant to {verb} in `target`.")
    return name


def attack_target(enc: Encounter, c: Combatant, name: str | None, *, verb: str = "attack", foe: bool = False,
                  gone: str = "out of the fight", on_map: bool = False) -> Combatant:
    """The combatant ``c`` names in ``target``, checked: ``c`` still in the fight, the target named, not
    ``c`` itself, still in the fight, an enemy where ``foe``, and on the map with ``c`` where ``on_map``."""
    if c.status == "out":  # off the board and out of the fight: not one the GM places again
        raise IllegalAction(f"{c.name} is {gone} and takes no further part in the fight: it cannot {verb}.")
    t = enc.get(need_target(name, verb), "target")
    if t is c:
        raise IllegalAction(f"{c.name} cannot {verb} itself: pick another target.")
    if foe and t.side == c.side:
        raise IllegalAction(f"{t.name} is on {c.name}'s side: pick an enemy.")
    if t.status == "out":
        raise IllegalAction(f"{t.name} is already {gone}: pick another target.")
    if on_map:
        cell_of(c), cell_of(t)
    return t
