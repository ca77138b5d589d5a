"""TOTE (Tales from the Torn Earth): initiative as a resource, range bands, no grid.

Source: ``shared/rules/tote.txt`` with the project defaults of ``shared/rules/README.md``.
Where each rule lives: the data of the text in `tables`, sheets in `sheet`, options in
`options`, typed state in `state`, the skill test in `skill`, bands and engagement in
`movement`, attacks and damage in `attacks`, the initiative pool in `turns` (on
`rules.turns.pool`), the `/act` table and its handlers in `actions`, what the board shows in
`facts`, text in `present`.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.actions import Attack, CoupDeGrace, InitOrder, InitRoll, InitSet, Move, Next
from rules.dice import Dice
from rules.errors import IllegalAction, InputError
from rules.events import Event, HitPointsChanged, Victory
from rules.models import Combatant, Encounter
from rules.sheet import SheetKey
from rules.system import Action, RuleSystem, Turn
from rules.systems.tote import actions, turns
from rules.systems.tote.actions import COMMANDS
from rules.systems.tote.events import FightLeft
from rules.systems.tote.facts import ToteFacts, board_facts
from rules.systems.tote.movement import (
    end_protects,
    forget_pairs,
    place_band,
    placed_apart,
    release,
    take_out,
)
from rules.systems.tote.options import OPTIONS, opts
from rules.systems.tote.present import TotePresenter
from rules.systems.tote.sheet import (
    EFFECT_VALUES,
    ENEMY_KEYS,
    HERO_KEYS,
    SHARED_KEYS,
    Weapon,
    is_enemy,
    parse_resist,
    parse_tohit,
    parse_track,
    parse_weapons,
    read_tote_sheet,
    weapons,
)
from rules.systems.tote.skill import TestResult, skill_test
from rules.systems.tote.state import ToteCombatant, ToteEncounter, upgrade
from rules.systems.tote.tables import BANDS, DISTANCE_COSTS, MELEE_COSTS, SKILLS, TOTEMS
from rules.text import plural

__all__ = [
    "ToteSystem",
    "ToteCombatant",
    "ToteEncounter",
    "TestResult",
    "Weapon",
    "skill_test",
    "parse_weapons",
    "parse_track",
    "parse_tohit",
    "parse_resist",
    "BANDS",
    "MELEE_COSTS",
    "DISTANCE_COSTS",
    "TOTEMS",
    "SKILLS",
]


class ToteSystem(RuleSystem):
    #: the rules in short, for `/help system:` (docs/systems/<key>.md has them in full)
    rules_summary = (
        'No map: distance is a range band (melee, close, far) between each pair of foes.',
        'Skill test: roll as many d6 as the skill, keep one, add the Paragon d6; meet the target (T8...) to succeed.',
        "Initiative points: a T8 Plan test's successes + Hawk (enemies: + Rating); actions spend points, highest acts first.",
        "Strike or Shoot against the foe's Block; damage fills Injury Track boxes, whose numbers can no longer be kept on a skill die.",
        'Filling the U box leaves a combatant unconscious; a coup-de-grace finishes it.',
    )
    key = "tote"
    title = "TOTE"
    can_hold = True
    map_kinds = ("none",)
    default_map = None
    uses_facing = False
    terrain_kinds = ()
    options = OPTIONS
    actions = actions.ACTIONS
    commands = COMMANDS
    presenter_class = TotePresenter
    combatant_state = ToteCombatant
    encounter_state = ToteEncounter
    effect_values = EFFECT_VALUES
    #: a newcomer rolls its Plan test for initiative as it joins the fight
    newcomer_rolls = True

    is_enemy = staticmethod(is_enemy)

    def upgrade_state(self, data: dict[str, Any]) -> dict[str, Any]:
        return upgrade(data)

    # -- sheets ---------------------------------------------------------------------------------
    def sheet_keys(self, variant: str | None = None) -> Sequence[SheetKey]:
        return (*HERO_KEYS[: -len(SHARED_KEYS)], *ENEMY_KEYS)

    def read_sheet(self, enc: Encounter, raw: dict[str, str], base: dict[str, Any] | None = None) -> dict[str, Any]:
        return read_tote_sheet(raw, base)

    def setup_combatant(self, enc: Encounter, c: Combatant, new: bool) -> list[Event]:
        st = ToteCombatant.of(c)
        st.filled = min(st.filled, len(c.sheet["track"]))
        c.hp = len(c.sheet["track"]) - st.filled
        if c.hp == 0 and c.status == "active":
            c.status = "downed"
        return turns.settle(enc)

    def change_hp(self, enc: Encounter, c: Combatant, change: int) -> list[Event]:
        """`/combatant hp`: the GM marks (``change`` below 0) or clears boxes of the Injury Track,
        left to right (clearing stops with every box free); filling the U box leaves the combatant unconscious, and out of the order
        as an attack that fills it does (`turns.settle`)."""
        if c.status != "active":
            downed = c.status == "downed"
            raise IllegalAction(
                f"{c.name} is {'unconscious' if downed else 'out of the fight'}: the track stays as it is. "
                f"If that was a mistake, `/undo` back to the command that {'filled it' if downed else 'took them out'} "
                "(`/log` shows which it was)."
            )
        track, st = c.sheet["track"], ToteCombatant.of(c)
        filled = max(0, st.filled - change)  # clearing stops with every box free, as a heal stops at the most
        if filled > len(track):
            raise IllegalAction(
                f"{c.name}'s Injury Track has {len(track) - st.filled} of {len(track)} boxes free: mark at most "
                f"{len(track) - st.filled} (`change:-{len(track) - st.filled}`)."
            )
        before, st.filled = c.hp or 0, filled
        c.hp = len(track) - filled
        events: list[Event] = [HitPointsChanged(actor=c.name, change=c.hp - before, before=before, after=c.hp, asked=change)]
        return events + (take_out(enc, c, "downed", "unconscious") + turns.settle(enc) if c.hp == 0 else [])

    def hp_change_note(self, c: Combatant, applied: int, events: list[Event]) -> str:
        """The board's GM change in the Injury Track's words: ``2 boxes marked (4 left)``."""
        boxes = plural(abs(applied), "box", "boxes")
        return f"{boxes} {'marked' if applied < 0 else 'cleared'} ({c.hp} left)"

    def check_options(self, enc: Encounter) -> None:
        """Besides the values: before the fight, `distance=melee` is refused while `at:` placed
        combatants at close or far (a melee start puts every pair of foes in melee at `/init roll`)."""
        super().check_options(enc)
        apart = [] if enc.started or opts(enc).distance != "melee" else placed_apart(enc)
        if apart:
            names = ", ".join(f"{c.name} ({ToteCombatant.of(c).band})" for c in apart)
            first = apart[0]
            raise IllegalAction(
                f"A fight that starts in melee (`distance=melee`) puts every pair of foes in melee at `/init roll`, "
                f"so {names} would lose the place `at:` gave. Keep distance rounds (`distance=close` or `far`), or first place "
                f"{'them' if len(apart) > 1 else first.name} in melee (`/combatant edit name:{first.name} at:melee`)."
            )

    def place(self, enc: Encounter, c: Combatant, at: str | None, facing: str | None) -> None:
        if facing:
            raise InputError("TOTE has no map, so there is no facing: leave `facing` out.")
        if at:
            place_band(enc, c, at)

    def weapons_of(self, enc: Encounter, c: Combatant) -> list[str]:
        return [w.name for w in weapons(c)]

    # -- turns and actions ------------------------------------------------------------------------
    def facts(self, enc: Encounter) -> ToteFacts:
        """What its presenter words on the board and in the turn line (`facts.ToteFacts`)."""
        return board_facts(enc, self.turn(enc))

    def turn(self, enc: Encounter) -> Turn:
        ToteEncounter.of(enc)
        return turns.turn(enc)

    def up_next(self, enc: Encounter, turn: Turn) -> tuple[str, ...]:
        return turns.up_next(enc, turn)

    def gm_goes_on(self, enc: Encounter, turn: Turn) -> str:
        """Where those able to act have no initiative yet, the GM rolls it (the GM's `/init next` is refused so)."""
        return turns.roll_first(enc) if turn.phase == "initiative" else super().gm_goes_on(enc, turn)

    def roll_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(action, InitRoll)  # resolve hands each kind to its handler
        return turns.roll_initiative(enc, action, dice)

    def set_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(action, InitSet)  # resolve hands each kind to its handler
        return turns.set_initiative(enc, action)

    def reorder_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(action, InitOrder)  # resolve hands each kind to its handler
        return turns.reorder(enc, action)

    def next_turn(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(action, Next)  # resolve hands each kind to its handler
        return turns.next_turn(enc, action)

    def pass_turn(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        """The GM passes a combatant out of turn: it keeps its points and loses this round's action."""
        assert isinstance(action, Next)  # resolve hands each kind to its handler
        return turns.next_turn(enc, action)

    def attack(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(action, Attack)  # resolve hands each kind to its handler
        return actions.attack(self.context(enc, action, dice), action)

    def move(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(action, Move)  # resolve hands each kind to its handler
        return actions.move(self.context(enc, action, dice), action)

    def coup_de_grace(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(action, CoupDeGrace)  # resolve hands each kind to its handler
        return actions.coup_de_grace(self.context(enc, action, dice), action)

    # -- presentation (made in present.py) ----------------------------------------------------------
    def hold_action(self, enc: Encounter, actor: str) -> Action | None:
        """Holding is passing with `/init next`: the combatant keeps its initiative points."""
        return Next(actor=actor, is_gm=True)

    def health(self, c: Combatant) -> tuple[int, int] | None:
        track = c.sheet.get("track")
        return (c.hp, len(track)) if c.hp is not None and track else None

    def check_hp(self, enc: Encounter, c: Combatant) -> None:
        """TOTE's hit points are the Injury Track's free boxes: a file's `hp` is their count, and its `status` is
        conscious while any box is free (unconscious when none is); else refused, saying what to write."""
        track = c.sheet.get("track")
        if not isinstance(track, list) or c.hp is None:
            return
        filled = min(ToteCombatant.of(c).filled, len(track))
        free = len(track) - filled
        if c.hp != free:
            mark = (f", or mark {plural(len(track) - c.hp, 'box', 'boxes')} with `state.filled` {len(track) - c.hp}"
                    if 0 <= c.hp < len(track) else "")
            raise InputError(f"{c.name}'s `hp` in the file is {c.hp}, but its Injury Track has {free} of {len(track)} boxes "
                             f"free (`state.filled` {filled}): write `hp` {free}{mark}.")
        if c.status == "active" and free == 0:
            raise InputError(f"{c.name} is `active` in the file with no box of its Injury Track free: write `status` "
                             f"`downed`, or free a box (`state.filled` {len(track) - 1}, `hp` 1).")
        if c.status == "downed" and free:
            raise InputError(f"{c.name} is `downed` in the file with {free} boxes of its Injury Track free: write `status` "
                             f"`active`, or mark every box (`state.filled` {len(track)}, `hp` 0).")

    def health_words(self, c: Combatant) -> str:
        """``Snaga's Injury Track already has 3 of 3 boxes free``."""
        return f"{c.name}'s Injury Track already has {c.hp} of {len(c.sheet['track'])} boxes free"

    def sheet_summary(self, c: Combatant) -> str:
        present = self.present
        assert isinstance(present, TotePresenter)
        enemy = is_enemy(c)
        return present.sheet_summary(c, enemy, {k.name: k.default for k in (ENEMY_KEYS if enemy else HERO_KEYS)})

    # -- victory and removal ------------------------------------------------------------------------
    def side_defeated(self, enc: Encounter, side: str) -> bool:
        return turns.defeated(enc, side)

    @staticmethod
    def _left(enc: Encounter, side: str) -> bool:
        return all(ToteCombatant.of(c).escaped for c in enc.combatants if c.side == side)

    def check_victory(self, enc: Encounter) -> list[Event]:
        """A side whose every foe is defeated wins; when the others all escaped, nobody won."""
        if not enc.started or enc.winner or len(enc.sides()) < 2:
            return []
        sides = enc.sides()
        left = [s for s in sides if self._left(enc, s)]
        beaten = turns.defeated_sides(enc)
        standing = [s for s in sides if s not in left and s not in beaten]
        if len(standing) > 1:
            return []
        enc.current = None
        if len(standing) == 1 and len(left) < len(sides) - 1:
            return self.decide(enc, standing[0])
        enc.winner = "nobody"
        return [FightLeft(side=s) for s in left] if left else [Victory(side=None)]

    def on_removed(self, enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
        release(enc, c.name)
        st = ToteEncounter.of(enc)
        if st.pending_return and c.name in (st.pending_return.by, st.pending_return.against):
            st.pending_return = None
        st.tiebreak = [n for n in st.tiebreak if n != c.name]
        forget_pairs(enc, c.name)
        return [*end_protects(enc, c.name), *turns.settle(enc)]
