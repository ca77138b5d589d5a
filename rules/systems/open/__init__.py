"""Open d20: any d20-style table's fight, on a square or hex map of 5 ft cells.

Not one book's rules: the mechanics common to d20-style games, in this project's words, with
every reading a table may play differently an encounter option (`options.py`). The package:
`sheet.py` (the keys, weapons and save attacks), `options.py`, `state.py`, `turns.py`
(initiative through `rules.turns.ordered`, death saves), `conditions.py`, `space.py` (feet, cover,
areas), `attacks.py`, `movement.py` (and opportunity attacks), `actions.py` (the `/act` table),
`events.py`, `facts.py` (what its board and turn line show) and `present.py` (all its text).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.actions import Act, ActionSpec, ActionTable, Add, Edit, InitSet, make_action
from rules.dice import Dice
from rules.errors import IllegalAction, SheetError
from rules.events import (
    EffectEnded,
    Event,
    HitPointsChanged,
    JoinedFight,
    StatusChanged,
    hp_cause,
)
from rules.models import Combatant, Encounter, Status
from rules.options import OptionSet, flag_word, name_word
from rules.sheet import SheetKey, current_hp_only, hp_with_raised_most
from rules.system import Action, Highlight, RuleSystem, Turn
from rules.systems.open import attacks, movement, sheet, turns
from rules.systems.open.actions import ACTIONS, ANSWER
from rules.systems.open.conditions import CONDITION_NAMES, has
from rules.systems.open.events import Harmed, StillDying
from rules.systems.open.facts import OpenFacts, OpportunityQuestion, open_facts
from rules.systems.open.options import OPTIONS
from rules.systems.open.present import OpenPresenter, sheet_summary
from rules.systems.open.space import feet
from rules.systems.open.state import OpenCombatant, OpenEncounter
from rules.turns import NOBODY_LEFT, ordered

__all__ = ["OpenSystem", "OpenCombatant", "OpenEncounter"]

ATTACK_WORDS = OptionSet(
    flag_word("adv", "advantage: roll two d20s and keep the higher (a weapon attack's d20: a save attack refuses it)",
              modifier=True),
    flag_word("dis", "disadvantage: roll two d20s and keep the lower (a weapon attack's d20: a save attack refuses it)"),
    name_word("at", "the cell a save attack's area is aimed at (else the target's cell; a weapon attack refuses it)"),
)


class OpenSystem(RuleSystem):
    """Open d20: rolled initiative, a move and an action a turn, d20 + bonus against AC."""

    rules_summary = (
        "Initiative: each combatant's `init` (a d20 plus `dex` unless the sheet says), highest first; ties by the "
        "higher modifier, then a roll-off.",
        "A turn is the combatant's speed in feet of movement and one action; `/init next` ends it.",
        "Attack: a d20 + the weapon's bonus must reach the target's AC (+2 or +5 behind cover); a natural 20 is a "
        "critical hit, a natural 1 misses; `adv`/`dis` and conditions roll two d20s.",
        "Save attacks: each combatant caught rolls a d20 + its ability modifier against the DC; a save halves the "
        "damage (`half`) or takes none.",
        "Leaving a hostile's reach provokes an opportunity attack. At 0 HP a player's combatant is down and makes "
        "death saves, the GM's is out; `/coupdegrace` strikes a helpless one.",
    )

    key = "open"
    title = "Open d20"
    map_kinds = ("square", "hex")
    default_map = "12x10"
    uses_facing = False
    terrain_kinds = ("clear", "wall", "difficult", "rough")
    options = OPTIONS
    actions = ACTIONS
    commands = ActionTable(ActionSpec("attack", "an attack or a save attack", words=ATTACK_WORDS),
                           ActionSpec("move", "a move"))
    presenter_class = OpenPresenter
    combatant_state = OpenCombatant
    encounter_state = OpenEncounter
    effect_values = sheet.EFFECT_VALUES
    rule_effect_names = CONDITION_NAMES | {turns.DASH, turns.DISENGAGE}
    #: editing `hp` sets the current HP, so `/combatant hp` and `hp-7` change it
    hp_key = "hp"
    newcomer_rolls = True

    # -- sheets -------------------------------------------------------------------------------
    def read_sheet(self, enc: Encounter, raw: dict[str, str], base: dict[str, Any] | None = None) -> dict[str, Any]:
        out = super().read_sheet(enc, raw, base)
        sheet.check_sheet(raw, out)
        if base is None and int(out["hp"]) < 0:  # an edit's `hp-30` may go below 0 (it stops at 0)
            raise SheetError(f"`hp={out['hp']}`: a combatant joins with 0 HP or more (at 0 it is down or out, "
                             "as the options say): give `hp=0` or more.")
        return out

    def sheet_keys(self, variant: str | None = None) -> Sequence[SheetKey]:
        return sheet.SHEET_KEYS

    def sheet_summary(self, c: Combatant) -> str:
        return sheet_summary(c)

    def weapons_of(self, enc: Encounter, c: Combatant) -> list[str]:
        return list(sheet.weapons(c))

    def health(self, c: Combatant) -> tuple[int, int] | None:
        return None if c.hp is None else (c.hp, sheet.max_hp(c))

    def hp_ranges(self, enc: Encounter, c: Combatant) -> Mapping[Status, range] | None:
        """Up at 1 HP to `max_hp`, down at 0; out at any HP to the most (as it was when it went)."""
        most = sheet.max_hp(c)
        return {"active": range(1, most + 1), "downed": range(0, 1), "out": range(0, most + 1)}

    def _at_zero(self, enc: Encounter, c: Combatant) -> Status:
        """What ``c`` is at 0 HP: a player's down (out with `death_saves=no`), the GM's out (down with
        `gm_at_zero=down`)."""
        return "out" if attacks._out_at_zero(enc, self.option_values(enc), c) else "downed"

    def setup_combatant(self, enc: Encounter, c: Combatant, new: bool) -> list[Event]:
        if new:
            c.hp = max(0, int(c.sheet["hp"]))
            c.sheet.setdefault("max_hp", max(1, int(c.sheet["hp"])))
            c.status = "active" if c.hp > 0 else self._at_zero(enc, c)
        if enc.started:
            turns.arrange(enc, self.option_values(enc))
        return []

    def absolute_edit(self, enc: Encounter, action: Edit) -> Edit:
        """Healing (`/combatant hp`, and in the fight `hp+5`) does not bring back a combatant that is out: the GM's `hp=`
        does (before the fight its owner's too, and an `hp+5`, set-up, as the `hp=` it gives). `/combatant hp` with a
        loss, mid-fight, stays a loss: `change_hp` deals it as damage."""
        c = enc.get(action.actor)
        healing = action.hp_change is not None or enc.started
        if c.status == "out" and healing and (action.hp_change or 0) + action.deltas.get("hp", 0) > 0:
            who = "set its HP" if action.is_gm or not enc.started else "the GM sets its HP"
            raise IllegalAction(f"{c.name} is out of the fight (dead): healing does not bring it back. To bring it back "
                                f"anyway, {who}: `/combatant edit name:{c.name} sheet:\"hp=5\"`.")
        if action.hp_change is not None and action.hp_change < 0 and enc.started and not action.raw_sheet and not action.deltas:
            return action
        edit = super().absolute_edit(enc, action)
        if action.hp_change is None or "hp" not in edit.raw_sheet:
            return edit
        edit = edit.model_copy(update={"hp_change": action.hp_change})  # kept: the reply and board read it as such
        if enc.started or "max_hp" in edit.raw_sheet:
            return edit
        # before the fight an `hp` typed alone above `max_hp` raises it; `/combatant hp` changes the HP now only
        return edit.model_copy(update={"raw_sheet": current_hp_only(edit.raw_sheet, sheet.max_hp(c), 0)})

    def change_hp(self, enc: Encounter, c: Combatant, change: int) -> list[Event]:
        """Hit points the GM takes away mid-fight are damage of no type: temporary HP take it first, and 0 HP,
        damage while down and massive damage do what an attack's damage does."""
        if c.status == "out":
            raise IllegalAction(f"{c.name} is out of the fight: there are no hit points left to take.")
        return attacks.harm(enc, self.option_values(enc), c, -change, "", None)

    def hp_change_note(self, c: Combatant, applied: int, events: list[Event]) -> str:
        """What temporary hit points took of a loss too: ``hp-2, 2 to temporary HP (now 7)``."""
        took = sum(e.temp for e in events if isinstance(e, Harmed) and e.actor == c.name)
        return f"hp{applied:+d}, {took} to temporary HP (now {c.hp})" if took else super().hp_change_note(c, applied, events)

    def apply_edit(self, enc: Encounter, action: Edit, dice: Dice) -> list[Event]:
        """`hp` sets the current HP, never above `max_hp` (before the fight, an `hp` above it raises
        `max_hp` too, and a `max_hp` alone raises an HP above 0 by as much as the most rose); a combatant brought above 0 HP is back up, one brought to 0 is down."""
        assert isinstance(action, Edit)
        c = enc.get(action.actor)
        before, status, most_before = c.hp, c.status, sheet.max_hp(c)
        self.edit_sheet(enc, action)
        setup = self.setup_combatant(enc, c, new=False)
        if "max_hp" in action.raw_sheet and "hp" not in action.raw_sheet and not enc.started and c.hp is not None:
            c.hp = min(hp_with_raised_most(c.hp, most_before, sheet.max_hp(c)), sheet.max_hp(c))
        elif "hp" in action.raw_sheet:
            wanted = int(c.sheet["hp"])
            if not enc.started and "max_hp" not in action.raw_sheet and wanted > sheet.max_hp(c):
                c.sheet["max_hp"] = wanted
            c.hp = max(0, min(wanted, sheet.max_hp(c)))
            c.sheet["hp"] = c.hp  # the value applied: a heal past the most stops at it
        elif c.hp is not None and c.hp > sheet.max_hp(c):
            c.hp = sheet.max_hp(c)
        # `/combatant hp` reads as in every system: the hit-point line alone, no sheet's "updated" line
        events: list[Event] = [*([] if action.hp_change is not None else [self.edited(enc, action, c)]), *setup]
        if c.hp != before and before is not None and c.hp is not None:
            events.append(HitPointsChanged(actor=c.name, change=c.hp - before, before=before, after=c.hp, by_gm=action.is_gm, asked=action.hp_change))
        if status == "out" and c.hp is not None and c.hp > 0 and "hp" in action.raw_sheet and (action.is_gm or not enc.started):
            c.status = "active"  # the GM brings it back with an `hp=` (its owner too, setting it up before the fight)
            st = OpenCombatant.of(c)
            st.saves_made, st.saves_failed, st.stable = 0, 0, False
            events.append(StatusChanged(actor=c.name, status="active", cause=hp_cause(action.is_gm)))
            if enc.started:  # one turn a round: not again in one it has had (or whose place has passed)
                if c.initiative is None:  # it joined the fight out: it rolls its place now, as any joiner
                    events += turns.init_one(enc, self.option_values(enc), c, dice)
                turns.back_in(enc, self.option_values(enc), c)
                if c.name in OpenEncounter.of(enc).acted:  # its place has passed: it waits, and the reply says so
                    events.append(JoinedFight(actor=c.name, round=enc.round + 1, initiative=c.initiative))
        elif c.status != "out" and c.hp is not None:
            if c.hp > 0 and status == "downed":
                c.status = "active"
                st = OpenCombatant.of(c)
                st.saves_made, st.saves_failed, st.stable, st.save_due = 0, 0, False, False  # up: no save owed now
                events.append(StatusChanged(actor=c.name, status="active", cause=hp_cause(action.is_gm)))
            elif c.hp <= 0 and status == "active":
                c.status = self._at_zero(enc, c)
                events.append(StatusChanged(actor=c.name, status=c.status, cause=hp_cause(action.is_gm)))
        if enc.started:
            turns.arrange(enc, self.option_values(enc))
        return events

    def on_removed(self, enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
        st = OpenEncounter.of(enc)
        if st.waiting is not None and c.name in (st.waiting.attacker, st.waiting.mover):
            st.waiting = None
        if not enc.started:
            return []
        turns.arrange(enc, self.option_values(enc))
        if enc.current is None and not enc.winner:
            return self._advance(enc, dice)
        return []

    def join_fight(self, enc: Encounter, c: Combatant, action: Add, dice: Dice) -> list[Event]:
        """One joining the fight under way takes its turns at its place in the order: where that place has passed
        (before the one acting now), from the next round (a project default, as for one brought back). One joining
        down rolls its initiative too (its turns are its death saves'); one joining out rolls it when brought back."""
        events = super().join_fight(enc, c, action, dice)
        if enc.started and c.initiative is None and c.status == "downed":
            rolled = turns.init_one(enc, self.option_values(enc), c, dice)
            events = [*rolled, *(e.model_copy(update={"initiative": c.initiative}) if isinstance(e, JoinedFight) else e
                                 for e in events)]
        if not enc.started or c.initiative is None or not c.in_fight:
            return events
        turns.back_in(enc, self.option_values(enc), c)
        if c.name not in OpenEncounter.of(enc).acted:
            return events
        return [e.model_copy(update={"round": enc.round + 1}) if isinstance(e, JoinedFight) else e for e in events]

    # -- turns ----------------------------------------------------------------------------------
    def roll_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        opts = self.option_values(enc)
        if action.actor:
            return turns.init_one(enc, opts, enc.get(action.actor), dice)
        return turns.start(enc, opts, dice)

    def set_initiative(self, enc: Encounter, action: InitSet, dice: Dice) -> list[Event]:
        return turns.set_initiative(enc, self.option_values(enc), enc.get(action.actor), action.value, dice)

    def next_turn(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        """The turn passes on; a dying combatant's turn ended before its death save rolls it first."""
        if not enc.started:
            raise IllegalAction("Combat has not started: the GM starts it with `/init roll`.")
        c = enc.find(enc.current)
        events = turns.death_save(enc, c, dice, ending=True) if c is not None and turns.saving(enc, c) else []
        if self._decided(enc):
            return events
        events += self._advance(enc, dice)
        if c is None and not events:  # nothing moved on: refused, never a silent step of the log
            raise IllegalAction(f"Nobody is left to take a turn, so `/init next` has nothing to move on (nothing changed): "
                                f"{NOBODY_LEFT}.")
        return events

    def gm_goes_on(self, enc: Encounter, turn: Turn) -> str:
        """With nobody left to take a turn at all (`ordered.turn`'s ``idle``), `/init next` has nothing to move on."""
        return f"the GM may {NOBODY_LEFT}." if turn.phase == "idle" else super().gm_goes_on(enc, turn)

    def untouched(self, enc: Encounter, name: str) -> bool:
        """A dying combatant's turn is ended without asking: that rolls its death save; nor is the turn of one a
        condition stops from acting (stunned, paralysed, unconscious): it "can take no action"."""
        c = enc.find(name)
        return (not (c is not None and (turns.saving(enc, c) or has(enc, c, "incapacitated")))
                and super().untouched(enc, name))

    def facts(self, enc: Encounter) -> OpenFacts:
        """What its presenter words on the board and in the turn line."""
        return open_facts(enc, self.turn(enc))

    def turn(self, enc: Encounter) -> Turn:
        # who takes turns is asked only with nobody acting: the options are read then, not at every turn asked
        return ordered.turn(enc, lambda c: (turns.feet_left(enc, c),),
                            lambda c: turns.takes_turns(enc, self.option_values(enc), c))

    def up_next(self, enc: Encounter, turn: Turn) -> tuple[str, ...]:
        return turns.up_next(enc, self.option_values(enc))

    def turn_done(self, enc: Encounter, c: Combatant) -> bool:
        """Its action used and no movement left (and no question waiting)."""
        st = OpenCombatant.of(c)
        return st.acted and turns.feet_left(enc, c) == 0 and OpenEncounter.of(enc).waiting is None

    def after_action(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        """The effects on a combatant that is out end, and those timed by its turn (it takes no turn again); a combatant
        that fell in its own turn (by an add or an edit, a move, an attack or an act), or that rolled its death save in
        it, ends it."""
        out = {c.name for c in enc.combatants if c.status == "out"}
        gone = [e for e in enc.effects if e.target in out or e.counts_at[1] in out]
        events: list[Event] = [EffectEnded(actor=e.target, name=e.name, removed=e.target in out) for e in gone]
        enc.effects = [e for e in enc.effects if e not in gone]
        if action.kind not in ("add", "edit", "move", "attack", "act"):
            return events
        c = enc.find(enc.current)
        if enc.started and not enc.winner and c is not None and c.status != "active" and not turns.saving(enc, c):
            decided = self.check_victory(enc)
            return events + (decided or self._advance(enc, dice))
        return events

    def side_defeated(self, enc: Encounter, side: str) -> bool:
        """Nobody of ``side`` can act and (option ``victory=settled``) none of it is still making death saves."""
        opts = self.option_values(enc)
        if opts.victory == "downed":
            return super().side_defeated(enc, side)
        return not any(turns.takes_turns(enc, opts, c) for c in enc.combatants if c.side == side)

    def decide(self, enc: Encounter, side: str | None) -> list[Event]:
        """The fight is decided; the winners still dying are named, for the GM to settle (no more death saves)."""
        events = super().decide(enc, side)
        opts = self.option_values(enc)
        dying = [c.name for c in enc.combatants if side and c.side == side and c.status == "downed"
                 and turns.takes_turns(enc, opts, c)]
        return events + ([StillDying(names=dying)] if dying else [])

    def _decided(self, enc: Encounter) -> bool:
        """Would the fight be decided now (at most one side not defeated)?"""
        sides = enc.sides()
        return len(sides) > 1 and sum(not self.side_defeated(enc, s) for s in sides) <= 1

    def _advance(self, enc: Encounter, dice: Dice) -> list[Event]:
        """Pass the turn on, stopping where a death save decides the fight."""
        return turns.advance(enc, self.option_values(enc), dice, lambda: self._decided(enc))

    def highlights(self, enc: Encounter) -> list[Highlight]:
        """The last area attack's cells, and the acting combatant's melee reach."""
        grid = enc.grid()
        shown = [Highlight(grid.parse(x), "area") for x in OpenEncounter.of(enc).area] if grid is not None else []
        c = self.acting_on_map(enc, numbers=True)
        if c is None or grid is None or c.cell is None:
            return shown
        opts, reach = self.option_values(enc), sheet.reach(c)
        return shown + [Highlight(x, "reach") for x in grid.cells()
                        if x != c.cell and x not in grid.blocked and feet(grid, opts, c.cell, x) <= reach]

    # -- actions --------------------------------------------------------------------------------
    def move(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        self.words(action)  # a move reads no words: one typed is refused, not ignored
        return movement.move(enc, self.option_values(enc), self.need_grid(enc), action, dice)

    def attack(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        return attacks.attack(enc, self.option_values(enc), enc.grid(), action, dice, self.words(action))

    def coup_de_grace(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        return attacks.coup_de_grace(enc, self.option_values(enc), enc.grid(), action, dice)

    # -- the question an opportunity attack asks a player ------------------------------------------
    def question(self, enc: Encounter) -> OpportunityQuestion | None:
        waiting = OpenEncounter.of(enc).waiting
        if waiting is None:
            return None
        return OpportunityQuestion(kind=ANSWER, user_id=waiting.owner, tag=waiting.tag, actor=waiting.attacker,
                                   action=ANSWER, answers=("yes", "no"), mover=waiting.mover,
                                   attacker=waiting.attacker, at=waiting.at,
                                   deadline_hours=enc.settings.deadline_hours)

    def lapse(self, enc: Encounter) -> Action | None:
        waiting = OpenEncounter.of(enc).waiting
        if waiting is None:
            return None
        answer = make_action("act", actor=waiting.attacker, action=ANSWER,
                             options={"choice": "no", "tag": waiting.tag, "deadline": "yes"}, is_gm=True)
        assert isinstance(answer, Act)
        return answer
