"""What the damage-grid game's board and turn line show, worked out for its presenter: the turn,
and the squares of the cloud on the field (`DgFacts`). Everything else the board shows is the
models' stored state (`state.DgCombatant`: the grid's values, Combat Points, prone, held by). And
the question a target's owner answers, its flips (`FlipsQuestion`), as facts for the presenter to word."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.effects import active
from rules.facts import Facts, Question
from rules.models import Encounter
from rules.systems.damage_grid.areas import row_by_row
from rules.systems.damage_grid.state import Offer
from rules.turns import Turn

__all__ = ["DgFacts", "FlipsQuestion", "board_facts"]


@dataclass(frozen=True)
class DgFacts(Facts):
    """The turn, ``cloud``: the squares a cloud covers, row by row (none without a cloud), and ``waiting``: the sides
    in this round's order, each with its models still to activate in the phase (none before the fight)."""

    cloud: tuple[str, ...] = ()
    waiting: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class FlipsQuestion(Question):
    """``kind`` ``flips``: ``attacker`` attacks ``target`` (the question's ``actor``) with ``weapon``
    ("": an attack with none named; ``lunge``: a Lunge) at a negative Accuracy, rolling the Power dice
    ``faces``: which of the ``points`` flips does the target make? ``offers`` are the answers offered
    as buttons (their ``answer`` codes are the question's ``answers``), ``combination`` an answer of
    several flips that fits, to show how one is typed; the turn's deadline, ``deadline_hours`` after
    the turn began (0: none), answers the least harm."""

    attacker: str
    target: str
    weapon: str
    lunge: bool
    faces: tuple[int, ...]
    points: int
    offers: tuple[Offer, ...]
    combination: str
    deadline_hours: float


def board_facts(enc: Encounter, turn: Turn, waiting: Mapping[str, tuple[str, ...]]) -> DgFacts:
    """The facts of ``enc`` whose ``turn`` is under way, the sides ``waiting`` as `turns.waiting` gives them."""
    cloud = active(enc.effects, None, "cloud")
    cells = tuple(row_by_row(cloud.cells)) if cloud else ()
    return DgFacts(turn=turn, cloud=cells, waiting=waiting)
