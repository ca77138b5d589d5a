"""Coup-De-Grace: Rules of Conflict (RPGnet wiki, November 2013).

Two rulesets share this package:

- the newer text (15 Nov 2013, the default): MA 8/6/4, 4-way adjacency and moves, turning in
  place costs 1 MP, each adjacent enemy doubles every MP cost (2, 4, 8...), a coup-de-grace is
  any attack on a downed mini;
- the draft (11 Nov 2013, variant ``draft-2013-11-11``): MA 6/5/4, steps in 8 directions
  (range is counted the same way), one doubling when any enemy touches the mini (diagonals
  included), and the coup-de-grace is its own melee action costing 4 MP. What the draft leaves
  empty falls back to the newer text.

Where the text is silent the choice is an encounter option (`options.py`) with today's reading
as its default. Choices that are not options: only minis on the board are activated
(undeployed minis still count for the initiative); downed minis have no facing (they neither
co-ordinate, distract, block nor get a backstab or a shield bonus; a downed attacker needs no
arc); pushes go one square along the side of the square that points most directly away from
the attacker, and a pistol push that cannot happen is cancelled; a crossbow rerolls a natural 2
by itself, once per round, only when the 2 would miss; spears and polearms reach ``reach``
squares straight ahead over minis, not walls.

Modules: ``tables`` (the text's data), ``sheet``, ``options``, ``state``, ``turns`` (the
rounds, on `rules.turns.alternating`), ``movement``, ``attacks``, ``actions`` (the `/act`
table), ``events``, ``facts`` (what the board and the turn line show) and ``present`` (the text).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.actions import (
    ActionSpec,
    ActionTable,
    Attack,
    CoupDeGrace,
    Edit,
    InitOrder,
    Move,
)
from rules.dice import Dice
from rules.errors import IllegalAction
from rules.events import Event, HitPointsChanged
from rules.models import HP_LIMIT, Combatant, Encounter, Status
from rules.sheet import SheetKey, read_sheet
from rules.system import Action, Highlight, RuleSystem, Turn
from rules.systems.coup_de_grace import attacks, movement, turns
from rules.systems.coup_de_grace.actions import ACTIONS
from rules.systems.coup_de_grace.events import HpChanged, Standing
from rules.systems.coup_de_grace.facts import CdgFacts, board_facts
from rules.systems.coup_de_grace.options import OPTIONS
from rules.systems.coup_de_grace.present import CdgPresenter
from rules.systems.coup_de_grace.sheet import (
    EFFECT_VALUES,
    catalogue,
    defence,
    keys,
    ruleset,
    weapons_held,
)
from rules.systems.coup_de_grace.sheet import movement as movement_allowance
from rules.systems.coup_de_grace.state import CdgCombatant, CdgEncounter
from rules.systems.coup_de_grace.tables import (  # noqa: F401  # noqa: F401
    CLASSES,
    DEFAULT_HP,
    DEFENCE_VALUE,
    DRAFT,
    DRAFT_VARIANT,
    LEAST_HP,
    NEWER,
    WEAPONS,
    Ruleset,
    Weapon,
    normalise_weapon,
)
from rules.targets import need_target

__all__ = [
    "CLASSES",
    "DEFENCE_VALUE",
    "DRAFT",
    "DRAFT_VARIANT",
    "NEWER",
    "WEAPONS",
    "CoupDeGraceSystem",
    "Ruleset",
    "Weapon",
    "normalise_weapon",
]


class CoupDeGraceSystem(RuleSystem):
    #: the rules in short, for `/help system:` (docs/systems/<key>.md has them in full)
    rules_summary = (
        'Sides alternate activating one mini at a time; the side with the most minis in the battle goes first (ties roll a d6).',
        "A mini's activation has its MA in movement points: a step costs 1 MP, turning in place 1; each adjacent enemy doubles a move's cost.",
        "Melee (0 MP): 1d6 >= the target's defence value hits for 1 HP, target in the front square; each weapon attacks once a round.",
        'Ranged (4 MP): the same roll at a target in the front arc, in range and in line of sight; -1 per range increment.',
        'At 0 HP a mini is downed (crawls, attacks at -2, recovers on a 5+); below 0 it is out. `/coupdegrace` finishes a downed mini.',
        'A side wins when every other side is out of action.',
    )
    key = "coup-de-grace"
    title = "Coup-De-Grace"
    variants = (DRAFT_VARIANT,)
    map_kinds = ("square",)
    default_map = "12x10"
    has_initiative_numbers = False
    #: a mini's turn is its activation, begun by its first action (`turns.activate` counts its start)
    activations = True
    uses_facing = True
    #: "walls or other blocking obstacles": an `obstacle` blocks moves and line of sight like a wall
    terrain_kinds = ("clear", "wall", "obstacle")
    solid_terrain = ("wall", "obstacle")
    options = OPTIONS
    actions = ACTIONS
    commands = ActionTable(
        ActionSpec("attack", "a melee or ranged attack", words=attacks.ATTACK_WORDS),
        ActionSpec("coupdegrace", "an attack on a downed mini", words=attacks.ATTACK_WORDS),
    )
    presenter_class = CdgPresenter
    combatant_state = CdgCombatant
    encounter_state = CdgEncounter
    effect_values = EFFECT_VALUES

    # -- sheets -------------------------------------------------------------------------------------
    def sheet_keys(self, variant: str | None = None) -> Sequence[SheetKey]:
        return keys(WEAPONS)

    def read_sheet(self, enc: Encounter, raw: dict[str, str], base: dict[str, Any] | None = None) -> dict[str, Any]:
        return read_sheet(raw, keys(catalogue(enc)), base)

    def change_hp(self, enc: Encounter, c: Combatant, change: int) -> list[Event]:
        """`/combatant hp`: the mini's HP move by ``change`` (the sheet's `hp` is its maximum):
        0 downs it, -1 or less puts it out of action, above 0 a downed mini stands; a heal stops at the
        most, a loss at -1 (`LEAST_HP`). Before the fight a heal brings back a mini put out (off the board)."""
        if c.hp is None or c.status == "out" and enc.started:
            raise IllegalAction(f"{c.name} is out of action: the fight is over for it.")
        full = CdgCombatant.of(c).hp_max or DEFAULT_HP
        before = c.hp
        # a heal stops at the most (the sheet's `hp`), a loss at -1: "-1HP or less" is out of action
        after = max(LEAST_HP, min(before + change, max(full, before)))
        changed: list[Event] = [HitPointsChanged(actor=c.name, change=after - before, before=before, after=after, asked=change)]
        if c.status == "out" and after > LEAST_HP:  # before the fight: back, off the board until placed
            c.hp, c.status = after, "active" if after > 0 else "downed"
            return [*changed, Standing(actor=c.name, status=c.status, cause="back")]
        return [*changed, *attacks.set_hp(enc, c, after)]

    def hp_ranges(self, enc: Encounter, c: Combatant) -> Mapping[Status, range] | None:
        """Standing at 1 HP to the sheet's `hp`, downed at 0; out of action at -1 (or what an earlier version left)."""
        most = int(c.sheet.get("hp", DEFAULT_HP))
        return {"active": range(1, most + 1), "downed": range(0, 1), "out": range(-HP_LIMIT, most + 1)}

    def health(self, c: Combatant) -> tuple[int, int] | None:
        full = CdgCombatant.of(c).hp_max
        return (c.hp, full) if c.hp is not None and full else None

    def setup_combatant(self, enc: Encounter, c: Combatant, new: bool) -> list[Event]:
        hp_max = int(c.sheet.get("hp", DEFAULT_HP))
        if new or c.hp is None:
            c.hp = hp_max
            c.state = CdgCombatant(hp_max=hp_max)
            return []
        s = CdgCombatant.of(c)
        old = s.hp_max if s.hp_max is not None else hp_max
        s.hp_max = hp_max
        if hp_max == old or c.status == "out":
            return []
        new_hp = c.hp + hp_max - old
        return [
            HpChanged(actor=c.name, hp_max_before=old, hp_max=hp_max, before=c.hp, after=new_hp),
            *attacks.set_hp(enc, c, new_hp),
        ]

    def place(self, enc: Encounter, c: Combatant, at: str | None, facing: str | None) -> None:
        grid = enc.grid()
        if at and grid is not None:
            cell = grid.parse(at)
            if cell in movement.blocked(grid):
                raise IllegalAction(f"{cell.name} is a wall or obstacle: pick an open cell.")
        super().place(enc, c, at, facing)
        if c.status == "downed":
            c.facing = None  # a downed mini lies on its side: no facing

    def able_to_act(self, c: Combatant) -> bool:
        """A downed mini still acts (it crawls, or attacks at -2): only one out of the fight cannot."""
        return c.in_fight

    # -- text (made in present.py; the service still asks the system) ----------------------------------
    # -- derived values -------------------------------------------------------------------------------
    def defence(self, c: Combatant) -> int:
        return defence(c)

    def movement(self, enc: Encounter, c: Combatant) -> int:
        return movement_allowance(enc, c)

    def weapons_of(self, enc: Encounter, c: Combatant) -> list[str]:
        return weapons_held(enc, c)

    # -- turn order -------------------------------------------------------------------------------------
    def facts(self, enc: Encounter) -> CdgFacts:
        """What its presenter words on the board, in the turn line and in `/init order`."""
        return board_facts(enc)

    def turn(self, enc: Encounter) -> Turn:
        return turns.turn(enc)

    def highlights(self, enc: Encounter) -> list[Highlight]:
        """The acting mini's front 90 degree arc (a downed mini has none)."""
        c = self.acting_on_map(enc)
        grid = enc.grid()
        if c is None or grid is None or c.cell is None or not c.facing or c.status != "active":
            return []
        return [Highlight(x, "arc") for x in grid.cells() if x != c.cell and grid.in_arc(c.cell, c.facing, x)]

    def roll_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        return turns.start(enc, action.actor, self.title, dice)

    def set_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        raise IllegalAction(
            f"{self.title} has no initiative numbers: each round the side with the most minis "
            f"activates first. The GM can set the order of sides with `/init order` before the "
            f"round's first activation."
        )

    def reorder_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(action, InitOrder)  # resolve hands each kind to its handler
        return turns.reorder(enc, action.order)

    def next_turn(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        return turns.next_turn(enc, action.actor, dice, whole_side=getattr(action, "whole_turn", False))

    def pass_turn(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        return turns.pass_mini(enc, enc.get(action.actor))

    def up_next(self, enc: Encounter, turn: Turn) -> tuple[str, ...]:
        return turns.up_next(enc, turn)

    def on_removed(self, enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
        return turns.on_removed(enc, c, dice)

    def edit(self, enc: Encounter, action: Edit, dice: Dice) -> list[Event]:
        """The GM's edit; one that puts a mini out of action ("Remove the mini from the board") moves priority as
        its removal does (`turns.taken_out`). A mini out of action in a fight under way "takes no further part in
        the battle": it is not placed or turned again."""
        c = enc.get(action.actor)
        if enc.started and c.status == "out" and (action.at or action.facing):
            raise IllegalAction(
                f"{c.name} is out of action, off the board: it takes no further part in the battle, so it is not "
                "placed or turned again (`/undo` takes back what put it out; `/combatant remove` takes it away)."
            )
        events = super().edit(enc, action, dice)
        return events + turns.taken_out(enc, enc.get(action.actor), dice)

    # -- actions ------------------------------------------------------------------------------------------
    def move(self, enc: Encounter, action: Move, dice: Dice) -> list[Event]:
        return movement.move(enc, self.need_grid(enc), action, dice)

    def attack(self, enc: Encounter, action: Attack, dice: Dice) -> list[Event]:
        words = self.words(action)
        grid = self.need_grid(enc)
        self.need_started(enc)
        return attacks.attack(enc, grid, action, dice, words, special_cdg=False)

    def coup_de_grace(self, enc: Encounter, action: CoupDeGrace, dice: Dice) -> list[Event]:
        turns.refuse_if_out(enc.get(action.actor))
        target = enc.get(need_target(action.target), "target")
        if target.status != "downed":
                raise IllegalAction(
                f"{target.name} is not downed: a coup-de-grace is an attack on a downed mini (0 HP). "
                f"Use `/attack` against a standing one."
            )
        words = self.words(action)
        grid = self.need_grid(enc)
        self.need_started(enc)
        return attacks.attack(enc, grid, action, dice, words, special_cdg=ruleset(enc).cdg_action)

