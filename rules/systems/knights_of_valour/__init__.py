"""Knights of Valour: Days of Thunder, combat on a square grid of 5 ft squares.

The rules are shared/rules/knights-of-valour.txt with the defaults of shared/rules/README.md
(SRD 5.1 weapons and armour); every choice the GM may want to change is an encounter option
(`options.py`). The package: `tables.py` (the text's data), `sheet.py`, `options.py`,
`state.py`, `turns.py` (turns, through `rules.turns.ordered`), `attacks.py`,
`movement.py`, `actions.py` (the `/act` table), `events.py`, `facts.py` (what the board and
the turn line show) and `present.py` (all its text).

Turns. Initiative is Agility (``/init set`` overrides it), highest first; on a tie player
characters act before monsters, then one delayed `after=` someone first and any other delayed
combatant after the others (unless the GM has set its place with ``/init order`` since), then the order the GM set with ``/init order`` (else
the order they joined). A turn is one Move Action and
one Combat Action in either order; the Move Action may be spread over several ``/move``
commands until the Combat Action is taken (option ``split_move``). At the start of a round a
player may lower its initiative for the round (``/act action:delay``; option ``delay``).
Downed combatants are skipped; a combatant downed during its own turn ends it.

Dice order for ``roll:``. An attack rolls its d20 (two with Advantage or Disadvantage), then on
a hit the weapon's damage dice. A move rolls, stride by stride and for each enemy it provokes
in step and then initiative order, that attack's d20 and then its damage dice on a hit.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.actions import (
    Act,
    ActionSpec,
    ActionTable,
    Attack,
    CoupDeGrace,
    Edit,
    InitOrder,
    InitSet,
    Move,
)
from rules.dice import Dice
from rules.events import Event, HitPointsChanged, hp_cause
from rules.models import HP_LIMIT, Combatant, Encounter, Status
from rules.sheet import SheetKey, current_hp_only, hp_with_raised_most, read_sheet
from rules.system import Action, Highlight, RuleSystem, Turn
from rules.systems.knights_of_valour import attacks, movement, sheet, turns
from rules.systems.knights_of_valour.actions import ACTIONS
from rules.systems.knights_of_valour.events import HpSet
from rules.systems.knights_of_valour.facts import KovFacts, board_facts
from rules.systems.knights_of_valour.options import (
    DEFAULT_ARMOURS,
    DEFAULT_WEAPONS,
    OPTIONS,
)
from rules.systems.knights_of_valour.present import KovPresenter, sheet_summary
from rules.systems.knights_of_valour.state import KovCombatant, KovEncounter
from rules.systems.knights_of_valour.tables import (
    ARMOUR,
    HEIGHTS,
    SHIELDS,
    SIZES,
    SQUARE_FT,
    WEAPONS,
    Weapon,
    effective_range,
    parse_weapon,
    stature_modifier,
)
from rules.turns import ordered

__all__ = [
    "ARMOUR",
    "HEIGHTS",
    "SHIELDS",
    "SIZES",
    "WEAPONS",
    "KnightsOfValourSystem",
    "KovCombatant",
    "KovEncounter",
    "Weapon",
    "effective_range",
    "parse_weapon",
    "stature_modifier",
]


class KnightsOfValourSystem(RuleSystem):
    """Knights of Valour: Agility initiative, Move + Combat Action turns, d20 vs Defence Value."""
    #: the rules in short, for `/help system:` (docs/systems/<key>.md has them in full)
    rules_summary = (
        'Initiative is Agility, highest first; players win ties; players may lower theirs at the start of the round (`/act action:delay`).',
        'A turn is one Move Action and one Combat Action, in either order; `/init next` ends it.',
        "Attack: d20 + modifiers must reach 10 + the target's modifiers; damage is the weapon's dice + Strength.",
        'Moving from next to an enemy to more than 5 ft from it provokes an Attack of Opportunity; walls block; '
        'difficult ground costs double.',
        'At 0 HP a combatant is downed; a coup de grace takes it out. A side wins when the others are all downed (option `victory`).',
    )

    key = "knights-of-valour"
    title = "Knights of Valour"
    can_hold = True
    map_kinds = ("square",)
    default_map = "12x10"
    #: the text has no facing rules
    uses_facing = False
    terrain_kinds = ("clear", "wall", "difficult", "rough", "obstacle", "gap", "climb")
    options = OPTIONS
    actions = ACTIONS
    commands = ActionTable(ActionSpec("attack", "a melee or ranged attack", words=attacks.ATTACK_WORDS))
    presenter_class = KovPresenter
    combatant_state = KovCombatant
    encounter_state = KovEncounter
    effect_values = sheet.EFFECT_VALUES

    # -- sheets -------------------------------------------------------------------------------
    def sheet_keys(self, variant: str | None = None) -> Sequence[SheetKey]:
        return sheet.sheet_keys(DEFAULT_WEAPONS, DEFAULT_ARMOURS)

    def read_sheet(self, enc: Encounter, raw: dict[str, str], base: dict[str, Any] | None = None) -> dict[str, Any]:
        opts = self.option_values(enc)
        out = read_sheet(raw, sheet.sheet_keys(opts.weapons, opts.armors), base)
        most = int(base["hp"]) if base is not None and int(base["hp"]) >= 1 else None
        sheet.check_hp(raw, out, alone_is_most=base is None or not enc.started, most=most)
        return out

    def hold_action(self, enc: Encounter, actor: str) -> Action | None:
        """Holding is a delay until after the next combatant in the order, where the option `delay` allows it now
        (the round's first turn, before anything is done); otherwise there is none and the GM is told."""
        order = [n for n in enc.order if n != actor and (c := enc.find(n)) is not None and c.status == "active"]
        if actor not in enc.order or not order or turns.delay_refusal(enc, self.option_values(enc), enc.get(actor)):
            return None
        later = enc.order[enc.order.index(actor) + 1:]
        after = next((n for n in later if n in order), order[0])
        return Act(action="delay", actor=actor, options={"after": after}, is_gm=True)

    def cannot_hold(self, enc: Encounter, actor: str) -> str:
        c = enc.find(actor)
        refusal = turns.delay_refusal(enc, self.option_values(enc), c) if c is not None and actor in enc.order else None
        if refusal == "not_allowed":
            return (f"{actor} cannot hold: at the start of a round only players may lower their initiative (the option "
                    f"`delay=round` allows anyone)")
        if refusal is not None:  # the text: "At the start of a Round, Players may elect to reduce their Initiative"
            return f"{actor} cannot hold this turn: a delay is made only at the start of a round, before anyone has acted"
        if c is not None and c.in_fight:
            return f"{actor} cannot hold: nobody else is left to act after it"
        return super().cannot_hold(enc, actor)

    def sheet_summary(self, c: Combatant) -> str:
        return sheet_summary(c)

    def weapons_of(self, enc: Encounter, c: Combatant) -> list[str]:
        return sheet.usable(c)

    def setup_combatant(self, enc: Encounter, c: Combatant, new: bool) -> list[Event]:
        st, levels = KovCombatant.of(c), sheet.levels(c)
        if new:
            c.hp = int(c.sheet["hp"])
            if "max_hp" in c.sheet:  # a combatant that starts hurt: `hp` now, `max_hp` at most
                c.sheet["hp"] = c.sheet.pop("max_hp")
            c.status = "active" if c.hp > 0 else "downed"
            KovEncounter.of(enc).tie_order.append(c.name)
        if st.wield not in levels:
            st.wield = next(iter(levels), None)
        if enc.started and c.in_fight and not st.delayed:
            c.initiative = turns.base_init(c)
        turns.arrange(enc)
        return []

    #: editing `hp` sets the current HP, so `/combatant hp` and `hp-7` change it
    hp_key = "hp"

    def hp_ranges(self, enc: Encounter, c: Combatant) -> Mapping[Status, range] | None:
        """Up at 1 HP to the most (the sheet's `hp` once set up), downed at 0 or less (damage goes on below it)."""
        most = int(c.sheet["hp"])
        return {"active": range(1, most + 1), "downed": range(-HP_LIMIT, 1), "out": range(-HP_LIMIT, most + 1)}

    def sheet_number(self, enc: Encounter, c: Combatant, key: str) -> int:
        """As every system's, and `max_hp`, which the sheet keeps as its `hp` once set up, is the most HP
        (so `max_hp+2` counts from it)."""
        if key == "max_hp" and c.hp is not None:
            return int(c.sheet["hp"])
        return super().sheet_number(enc, c, key)

    def absolute_edit(self, enc: Encounter, action: Edit) -> Edit:
        """As every system's, and `/combatant hp` changes the current HP only, before the fight too (where
        an `hp=N` typed alone sets the most as well): it reads as `hp=N max_hp=<the most now>`, a heal
        stopping at the most (``hp_change`` is kept, so the reply says so), and any loss at `LEAST_HP`."""
        change, c = action.hp_change, enc.get(action.actor)
        edit = super().absolute_edit(enc, action)
        if change is None or c.hp is None or "hp" not in edit.raw_sheet:
            return edit
        hp = max(sheet.LEAST_HP, int(edit.raw_sheet["hp"]))
        if enc.started or "max_hp" in edit.raw_sheet:
            return edit.model_copy(update={"raw_sheet": {**edit.raw_sheet, "hp": str(hp)}, "hp_change": change})
        raw = current_hp_only(edit.raw_sheet, int(c.sheet["hp"]), sheet.LEAST_HP)
        return edit.model_copy(update={"raw_sheet": raw, "hp_change": change})

    def apply_edit(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        """`hp` sets the current HP (typed alone before the fight, the most HP too); `max_hp` sets the
        most HP and leaves the current HP as it is, unless it is more than the new most: then the HP is
        lowered to it; before the fight a raised most raises the HP by as much (not an HP of 0 or less). An `hp` above the most
        (a heal past it) stops at it."""
        assert isinstance(action, Edit)  # resolve hands each kind to its handler
        most_before, hp_before = enc.get(action.actor).sheet["hp"], enc.get(action.actor).hp
        c = self.edit_sheet(enc, action)
        setup = self.setup_combatant(enc, c, new=False)
        given_hp, given_max = "hp" in action.raw_sheet, "max_hp" in action.raw_sheet
        new_hp = int(c.sheet["hp"])
        most = c.sheet.pop("max_hp", None)
        if most is None:
            most = new_hp if given_hp and not enc.started else most_before
        c.sheet["hp"] = most
        # before the fight a `max_hp` alone raises the HP by as much as the most rose (a wound stays; one down stays down)
        raised = hp_with_raised_most(hp_before or 0, most_before, most)
        current = new_hp if given_hp else raised if given_max and not enc.started and raised != hp_before else None
        capped = (given_max or given_hp) and (current if current is not None else c.hp or 0) > most
        # `/combatant hp` before the fight comes stopped at the most already (`absolute_edit`)
        capped = capped or (action.hp_change is not None and (hp_before or 0) + action.hp_change > most)
        if capped:  # the HP is never more than the most: a lowered `max_hp`, or an `hp` (or a heal) above it
            current = most
        set_hp: list[Event] = []
        by_hand = action.hp_change is not None and hp_before is not None  # `/combatant hp`: read as every system's
        if current is not None:
            before, c.hp = c.hp, current
            if by_hand and before is not None:
                set_hp.append(HitPointsChanged(actor=c.name, change=c.hp - before, before=before, after=c.hp, by_gm=action.is_gm, asked=action.hp_change))
            else:
                set_hp.append(HpSet(actor=c.name, before=before, after=c.hp, capped=capped))
            if c.status != "out":
                set_hp += attacks.set_status(enc, c, "active" if c.hp > 0 else "downed", hp_cause(action.is_gm))
        edited: list[Event] = [] if by_hand else [self.edited(enc, action, c)]
        return [*edited, *setup, *set_hp, *attacks.end_if_down(enc, self.option_values(enc))]

    def on_removed(self, enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
        st = KovEncounter.of(enc)
        st.tie_order = [n for n in st.tie_order if n != c.name]
        turns.arrange(enc)
        if enc.started and enc.current is None and not enc.winner:
            return turns.advance(enc)
        return []

    def side_defeated(self, enc: Encounter, side: str) -> bool:
        beaten = attacks.beaten(self.option_values(enc))
        return all(c.status in beaten for c in enc.combatants if c.side == side)

    # -- turns ----------------------------------------------------------------------------------
    def roll_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        if action.actor:
            return turns.init_one(enc, enc.get(action.actor))
        return turns.start(enc)

    def set_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(action, InitSet)  # resolve hands each kind to its handler
        return turns.set_initiative(enc, enc.get(action.actor), action.value)

    def reorder_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(action, InitOrder)  # resolve hands each kind to its handler
        # ordering ties is the GM's (the text: players "decide ... which of them goes first")
        return turns.reorder(enc, action.order or "", action.is_gm)

    def next_turn(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        return turns.end_turn(enc, action)

    def pass_turn(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        return turns.pass_turn(enc, enc.get(action.actor))

    def turn_done(self, enc: Encounter, c: Combatant) -> bool:
        """Both actions spent: no Combat Action left, no Move Action to begin and no feet left of one."""
        st = KovCombatant.of(c)
        return st.combat_actions == 0 and st.move_actions == 0 and st.feet_left == 0

    def facts(self, enc: Encounter) -> KovFacts:
        """What its presenter words on the board and in the turn line."""
        return board_facts(enc)

    def turn(self, enc: Encounter) -> Turn:
        return ordered.turn(enc)

    def up_next(self, enc: Encounter, turn: Turn) -> tuple[str, ...]:
        return turns.up_next(enc)

    def highlights(self, enc: Encounter) -> list[Highlight]:
        """The acting knight's melee reach: the squares within 5 ft, heights counted."""
        c = self.acting_on_map(enc)
        grid = enc.grid()
        if c is None or grid is None or c.cell is None:
            return []
        opts, here = self.option_values(enc), c.cell
        level = attacks.ground(grid, opts, here)
        return [
            Highlight(x, "reach")
            for x in grid.neighbours(here, diagonal=True)
            if x not in grid.blocked and attacks.distance(here, level, x, attacks.ground(grid, opts, x)) <= SQUARE_FT
        ]

    # -- actions --------------------------------------------------------------------------------
    def move(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(action, Move)  # resolve hands each kind to its handler
        return movement.move(enc, self.option_values(enc), self.need_grid(enc), action, dice)

    def attack(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(action, Attack)  # resolve hands each kind to its handler
        words = self.words(action)
        return attacks.attack(enc, self.option_values(enc), self.need_grid(enc), action, dice, words)

    def coup_de_grace(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(action, CoupDeGrace)  # resolve hands each kind to its handler
        return attacks.coup_de_grace(enc, self.option_values(enc), self.need_grid(enc), action)

    # -- presentation -----------------------------------------------------------------------------
