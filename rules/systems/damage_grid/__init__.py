"""The damage-grid game (an unnamed science-fiction skirmish game), on a square grid.

The rules are shared/rules/damage-grid.txt with the defaults of shared/rules/README.md for its
missing pages (the turn sequence, movement, the knock-down table); every choice the GM may want
to change is an encounter option (`options.py`). The package, bottom-up (each module imports only
those before it; tests/rules/damage_grid/test_layers.py checks it): `grid.py`, `mode.py` and
`areas.py` (the grid, knock-down and area arithmetic), `events.py`, `options.py`, `state.py`,
`flips.py`, `damage.py`, `sheet.py`, `turns.py` (phases of alternating activations, through
`rules.turns.alternating`; what else a phase's beginning does is passed in), `reach.py` (reach
circles, the row behind, obstruction, corner lines of sight, cover), `movement.py`, `asking.py`
(the target choosing its flips; the attack to run is passed in), `attacks.py`, `blasts.py` (area
weapons, clouds, pulses), `cover.py` (cover as a target), `actions.py` (the `/act` table, its
handlers and the declared `options:` words), `facts.py` (what the board shows, worked out for the
presenter) and `present.py` (all its text).

Status: a model at Mind 0 is inert (``downed``: it performs no action, and ``/coupdegrace``
finishes it); at Health 0 it is destroyed (``out``).
"""
from __future__ import annotations

from collections.abc import Sequence

from rules.actions import Move
from rules.dice import Dice
from rules.errors import IllegalAction
from rules.events import Event
from rules.models import Combatant, Encounter
from rules.sheet import SheetKey
from rules.system import Action, Highlight, RuleSystem, Turn
from rules.systems.damage_grid import (
    asking,
    attacks,
    blasts,
    movement,
    reach,
    sheet,
    turns,
)
from rules.systems.damage_grid.actions import (
    ACTIONS,
    COMMANDS,
    coup_de_grace,
    run_declared,
)
from rules.systems.damage_grid.facts import DgFacts, FlipsQuestion, board_facts
from rules.systems.damage_grid.options import OPTIONS
from rules.systems.damage_grid.present import DgPresenter, sheet_summary
from rules.systems.damage_grid.state import DgCombatant, DgEncounter

__all__ = ["DamageGridSystem", "DgCombatant", "DgEncounter"]


class DamageGridSystem(RuleSystem):
    """Phases of alternating activations, Power d6 pools, Accuracy face flips, the damage grid."""

    key = "damage-grid"
    title = "Damage Grid"
    map_kinds = ("square",)
    default_map = "12x10"
    has_initiative_numbers = False
    #: a model's turn is its activation, begun by its first action (`turns.activate` counts its start)
    activations = True
    #: "the target is not in any row behind the model": models face a way
    uses_facing = True
    terrain_kinds = ("clear", "wall", "obstacle", "rough", "difficult")
    solid_terrain = ("wall", "obstacle")
    options = OPTIONS
    actions = ACTIONS
    commands = COMMANDS
    presenter_class = DgPresenter
    combatant_state = DgCombatant
    encounter_state = DgEncounter
    effect_values = sheet.EFFECT_VALUES
    #: "A round has 4 phases": an effect may end at the end of the phase
    has_phases = True
    #: the rules in short, for `/help system:` (docs/systems/<key>.md has them in full)
    rules_summary = (
        "A round has 4 phases; in each, sides alternate activating one model: Move, Combat or Lunge.",
        "Move: 1 Speed point a square (rough and debris +1). Combat: 1 Combat Point an attack, 2 CP a round; the k-th CP forced in a round costs k x 2 Accuracy.",
        "A target must be in the weapon's Reach circles, not in a row behind, and seen along the three back-corner lines.",
        "Attack: roll Power d6; Accuracy flips faces (a neighbouring face costs 1, the opposite 2); each face hits its grid location.",
        "Shield (not from adjacent squares, not against Blast), then Body (and cover), stop their value in hits once an attack; a ruined location passes hits by its arrow.",
        "Mind 0: inert (downed), and `/coupdegrace` can finish it; Health 0: destroyed (out). Heavy Health loss calls for a knock-down test.",
    )

    # -- sheets -------------------------------------------------------------------------------
    def sheet_keys(self, variant: str | None = None) -> Sequence[SheetKey]:
        return sheet.sheet_keys()

    def sheet_summary(self, c: Combatant) -> str:
        return sheet_summary(c)

    def weapons_of(self, enc: Encounter, c: Combatant) -> list[str]:
        return [w.name for w in attacks.usable(c)] + ["bare"]

    def setup_combatant(self, enc: Encounter, c: Combatant, new: bool) -> list[Event]:
        """The grid's values from the sheet (a new model whole; an edit keeps the hits taken)."""
        st = DgCombatant.of(c)
        sheet.check_flips(c)
        given = {k: int(c.sheet[k]) for k in sheet.LOCATION_KEYS if c.sheet.get(k) is not None}
        full = sheet.grid_of(c).start_values(given)
        arms = sheet.carried(c)
        if new or not st.full:
            st.values, st.weapon_health = dict(full), dict(arms)
        else:
            st.values = {k: max(v - (st.full.get(k, v) - st.values.get(k, st.full.get(k, v))), 0) for k, v in full.items()}
            st.weapon_health = {k: min(st.weapon_health.get(k, v), v) for k, v in arms.items()}
        st.full = full
        return []

    def highlights(self, enc: Encounter) -> list[Highlight]:
        """The acting model's reach: the squares its longest-reaching usable weapon reaches, ahead
        of it and beside it (not in the rows behind), the environment counted."""
        c = self.acting_on_map(enc, numbers=True)
        grid = enc.grid()
        if c is None or grid is None or c.cell is None:
            return []
        longest = max((w.reach for w in attacks.usable(c) if w.melee or w.reach > 2), default=1)
        here, out = c.cell, []
        for x in grid.cells():
            if x == here or x in grid.blocked or not reach.in_front_rows(c, x):
                continue
            d = reach.reach_to(here, c.facing, x)
            seen = reach.view(enc, c, d, x)
            if d == 1 or (not seen.limited and seen.distance <= longest):
                out.append(Highlight(x, "reach"))
        return out

    def change_hp(self, enc: Encounter, c: Combatant, change: int) -> list[Event]:
        """`/combatant hp` is refused: harm is hits on the grid's locations, which the GM's `damage` and `heal` mark."""
        raise IllegalAction(
            f"{self.title} counts no hit points: harm is hits on the grid's locations. `/act action:damage "
            f"target:{c.name} options:\"health=2\"` marks them and `action:heal` clears them; `/combatant show` "
            f"shows how {c.name} is hurt."
        )

    def health(self, c: Combatant) -> tuple[int, int] | None:
        st = DgCombatant.of(c)
        full = st.full.get("health")
        return (st.values.get("health", 0), full) if full else None

    # -- turns ----------------------------------------------------------------------------------
    def facts(self, enc: Encounter) -> DgFacts:
        """What its presenter words on the board and in the turn line (`facts.DgFacts`)."""
        return board_facts(enc, self.turn(enc), turns.waiting(enc))

    def turn(self, enc: Encounter) -> Turn:
        return turns.turn(enc)

    def roll_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        return turns.start(enc, action.actor)

    def next_turn(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        return turns.next_turn(enc, action.actor, dice, blasts.phase_begins)

    def on_removed(self, enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
        return turns.on_removed(enc, c, dice, blasts.phase_begins)

    def up_next(self, enc: Encounter, turn: Turn) -> tuple[str, ...]:
        return turns.up_next(enc, turn)

    def deadline_passes(self, enc: Encounter, turn: Turn) -> tuple[str, ...]:
        """A side's turn is one activation ("sides alternate activating one model"): the deadline passes
        the activating model's, or else the first of the side's models (`/init next combatant:`)."""
        return turn.actors[:1]

    # -- actions --------------------------------------------------------------------------------
    def move(self, enc: Encounter, action: Move, dice: Dice) -> list[Event]:
        return movement.move(enc, self.need_grid(enc), action)

    def attack(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        return asking.declared(enc, action, dice, run_declared)

    def coup_de_grace(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        return coup_de_grace(self.context(enc, action, dice), action)

    # -- a target's owner choosing its flips (`asking`) ------------------------------------------
    def question(self, enc: Encounter) -> FlipsQuestion | None:
        return asking.question(enc)

    def lapse(self, enc: Encounter) -> Action | None:
        return asking.lapse(enc)
