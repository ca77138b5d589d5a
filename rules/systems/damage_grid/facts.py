"""What the damage-grid game's board and turn line show, worked out for its presenter: the turn,
and the squares of the cloud on the field (`DgFacts`). Everything else the board shows is the
models' stored state (`state.DgCombatant`: the grid's values, Combat Points, prone, held by)."""
from __future__ import annotations

from dataclasses import dataclass

from rules.effects import active
from rules.facts import Facts
from rules.geometry import parse_cell
from rules.models import Encounter
from rules.turns import Turn

__all__ = ["DgFacts", "board_facts"]


@dataclass(frozen=True)
class DgFacts(Facts):
    """The turn, and ``cloud``: the squares a cloud covers, row by row (none without a cloud)."""

    cloud: tuple[str, ...] = ()


def board_facts(enc: Encounter, turn: Turn) -> DgFacts:
    """The facts of ``enc`` whose ``turn`` is under way."""
    cloud = active(enc.effects, None, "cloud")
    cells = tuple(sorted(cloud.cells, key=lambda x: parse_cell(x)[::-1])) if cloud else ()
    return DgFacts(turn=turn, cloud=cells)
