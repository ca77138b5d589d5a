"""Cover as a target: "Treat the Body of the cover as the Body damage square with a Health of the
same value. When the Health of the cover is reduced to 0 it is destroyed or reduced to debris that
will not provide cover anymore but may increase the cost of speed points entering the square."

Reading: a wall or obstacle square is a one-square grid that every Power die hits; its hits add up
over the fight, and at its Body (`reach.square_body`) it is debris. The attack needs
Reach and line of sight to the square as any other, and its Power is modified as any other's
(`attacks.power_of`: ``low``, ``dice=``, ``power=``, gravity; a square has no facing, so no +1 from
behind). Accuracy does not matter: every die hits the one square. "A model that is
also obstructing as cover cannot be targeted this way."
"""
from __future__ import annotations

from rules.actions import Attack
from rules.dice import Dice
from rules.errors import InputError
from rules.events import Event, Roll
from rules.geometry import Grid
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.damage_grid.attacks import (
    check_reach,
    choose_weapon,
    one_weapon,
    power_of,
    spend_cp,
)
from rules.systems.damage_grid.events import CoverHit, DgAttack
from rules.systems.damage_grid.reach import blocking, line_of_sight, square_body
from rules.systems.damage_grid.state import DgEncounter
from rules.systems.damage_grid.turns import activate

__all__ = ["is_cover", "not_a_target", "cover_body", "attack_cover"]


def is_cover(enc: Encounter, grid: Grid, text: str) -> bool:
    try:
        cell = grid.parse(text)
    except InputError:
        return False
    return cell in blocking(enc, grid)


def not_a_target(enc: Encounter, grid: Grid, text: str) -> str | None:
    """Why the square ``text`` (neither a model's name nor cover) is no target for a weapon without an area: debris,
    a model's square, or an empty one; None when ``text`` is not a square."""
    try:
        cell = grid.parse(text)
    except InputError:
        return None
    if cell.name in DgEncounter.of(enc).debris:
        return f"{cell.name} is debris now: it gives no cover and is no target. Attack a model, or cover still standing."
    if (m := enc.at(cell)) is not None:
        return f"{cell.name} is where {m.name} stands: attack it by name (`target:{m.name}`)."
    return f"{cell.name} is an empty square: only an area weapon attacks a square. Attack a model or a cover square."


def cover_body(enc: Encounter, grid: Grid, name: str) -> int:
    return square_body(enc, grid, grid.parse(name))


def attack_cover(enc: Encounter, grid: Grid, c: Combatant, action: Attack, words: OptionValues, dice: Dice) -> list[Event]:
    cell = grid.parse(action.target or "")
    w = choose_weapon(c, action.weapon)
    d, counted, _, _ = check_reach(enc, grid, c, cell, w)
    seen = line_of_sight(enc, grid, c, cell, cell.name)
    events = activate(enc, c, "combat")
    one_weapon(c, w)
    forced = spend_cp(enc, c, words, w.cp)
    power, count = power_of(enc, c, w, words)  # a square has no facing: no +1 from behind
    with dice.rolling_for(c.name):
        rolled = dice.roll(count, 6)
    state = DgEncounter.of(enc)
    body = cover_body(enc, grid, cell.name)
    taken = min(len(rolled), body - state.cover_hits.get(cell.name, 0))
    state.cover_hits[cell.name] = state.cover_hits.get(cell.name, 0) + taken
    left = body - state.cover_hits[cell.name]
    if left <= 0:
        state.debris.append(cell.name)
    events.append(DgAttack(actor=c.name, target=cell.name, weapon=w.name, roll=Roll(dice=list(rolled), label=f"{count}d6"),
                           faces=[int(x) for x in rolled], power=power, distance=d, reach=counted, sight=seen.level,
                           cp=w.cp, forced=forced, melee=w.melee))
    return events + [CoverHit(cell=cell.name, hits=taken, left=max(left, 0), debris=left <= 0)]
