"""A sixth rule system that lives only in the tests: a few sheet keys, one option, one `/act`
action with one declared word, its own state models, and turns in joining order. It proves
the system contract (`rules.system.SystemContract`): adding it takes this folder and one more
entry in `rules.registry.SYSTEMS` (the tests add the entry), no edit anywhere else."""
from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from rules.actions import Act, ActionContext, ActionSpec, ActionTable
from rules.dice import Dice
from rules.errors import IllegalAction
from rules.events import Event, HitPointsChanged
from rules.facts import Facts
from rules.models import Combatant, Encounter
from rules.options import OptionSet, int_option
from rules.sheet import SheetKey
from rules.state import CombatantState, EncounterState
from rules.system import Action, RuleSystem, Turn
from rules.turns.ordered import next_to_act

__all__ = ["SixthSystem", "SixthCombatant", "SixthEncounter"]


class SixthCombatant(CombatantState):
    #: how many pokes it has given
    pokes: int = Field(0, ge=0)


class SixthEncounter(EncounterState):
    #: who has had a turn this round
    acted: list[str] = Field(default_factory=list)


def _order(enc: Encounter) -> list[str]:
    return [c.name for c in enc.combatants if c.in_fight]


def poke(ctx: ActionContext, action: Act) -> list[Event]:
    """Take ``by`` hit points (1 unless given) from a foe within the option ``reach``."""
    enc, grid = ctx.encounter, ctx.need_grid()
    c, t = enc.get(action.actor), enc.get(action.target or "", "target")
    assert c.cell is not None and t.cell is not None
    if grid.distance(c.cell, t.cell) > ctx.options.reach:
        raise IllegalAction(f"{t.name} is out of reach: a poke reaches {ctx.options.reach} cell(s).")
    by = ctx.words.by or 1
    before = t.hp or 0
    t.hp = max(before - by, 0)
    SixthCombatant.of(c).pokes += 1
    return [HitPointsChanged(actor=t.name, change=t.hp - before, before=before, after=t.hp)]


class SixthSystem(RuleSystem):
    """Turns in joining order, and a poke."""

    key = "sixth"
    title = "Sixth"
    map_kinds = ("square",)
    default_map = "6x6"
    terrain_kinds = ()
    uses_facing = False
    hp_key = "hp"
    options = OptionSet(int_option("reach", 1, 1, 3, "how many cells a poke reaches"))
    actions = ActionTable(
        ActionSpec("poke", "poke a foe in reach", target=True, handler=poke,
                   words=OptionSet(int_option("by", None, 1, 3, "the hit points it takes", bare=True))),
    )
    commands = ActionTable()
    effect_values = ()
    rules_summary = ("Turns go in joining order; a poke takes 1 hit point from a foe in reach.",)
    combatant_state = SixthCombatant
    encounter_state = SixthEncounter

    def sheet_keys(self, variant: str | None = None) -> Sequence[SheetKey]:
        return (SheetKey("hp", "hit points", "int", default=5, minimum=0, maximum=20),)

    def setup_combatant(self, enc: Encounter, c: Combatant, new: bool) -> list[Event]:
        if new:
            c.hp = int(c.sheet.get("hp", 5))
        return []

    def weapons_of(self, enc: Encounter, c: Combatant) -> list[str]:
        return []

    def facts(self, enc: Encounter) -> Facts:
        """What its presenter words on the board and in the turn line."""
        return Facts(turn=self.turn(enc))

    def turn(self, enc: Encounter) -> Turn:
        if enc.current is None:
            return Turn()
        return Turn(actors=(enc.current,), key=(enc.round, enc.current), current=enc.current)

    def roll_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        enc.round, enc.current = 1, next(iter(_order(enc)), None)
        return []

    def next_turn(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        self.need_started(enc)
        acted = SixthEncounter.of(enc).acted
        acted.append(enc.current or "")
        order = _order(enc)
        enc.current = next_to_act(order, acted, order)
        if enc.current is None:
            enc.round, acted[:] = enc.round + 1, []
            enc.current = next(iter(order), None)
        return []

    def on_removed(self, enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
        return []

    def move(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        raise IllegalAction("A sixth-system fighter does not move: it pokes.")

    def attack(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        raise IllegalAction("Use `/act action:poke`.")

    def coup_de_grace(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        raise IllegalAction("Use `/act action:poke`.")
