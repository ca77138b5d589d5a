"""War & Combat (Ken St-Cyr): a hex grid of 2 m hexes with six facings, rounds of three phases,
flurries with declared intentions, hit locations and wounds.

The rules are shared/rules/war-and-combat.txt with the defaults of shared/rules/README.md
(open-ended task rolls, skew dice, attribute modifiers, shock and death checks, default weapons
and armour); every choice the GM may want to change is an encounter option (`options.py`).
The package, bottom-up (each module imports only those before it): `task.py` (the task roll),
`catalogue.py` and `tables*.py` (the data), `options.py`, `state.py`, `events.py`, `sheet.py`,
`zones.py` (zones of threat, danger, marginal), `lengthy.py` (lengthy actions), `turns.py` (a
fighter's part in the round: conditions, points, quick and full actions, whose step),
`limbs.py` (what wounded limbs may still do), `flurry.py` (who is in a flurry, and what each
declared), `rounds.py` (the round phase by phase, the flurry phase's declarations, flurry
initiative and passing attack included), `attacks.py` (strikes, wounds, combat
options, coup-de-grâce), `missiles.py` (ranged strikes and loading), `movement.py` (moves, manoeuvre tactics, driving back and withdrawing),
`swipes.py` (free attacks and interrupts from outside a flurry), `harm.py` (the GM's wounds),
`words.py` (the declared `options:` words), `actions.py`, `facts.py` (what the board shows), `present.py`.

Dice order for ``roll:``. `/init roll` and the `/init next` that begins a round: for each
combatant in joining order its shock check and death check (3d6 each, if wounded), then the
initiative of each one standing (3d6, 4d6 with a skew die). Each participant's flurry
initiative (3d6): as the flurry begins (the command that ends the movement phase or the flurry
before), or with `declare=hidden` at its last declaration (or the GM's force). An attack: its 3d6, then the hit
location's 3d6 (if it hits and no shot is called), the impact dice (critical dice last), then
any wound-effect roll (3d6 for a fumble?, stumble? or combat option; 1d6 for the rounds of a
stun; for a dropped item 1d6 for its distance, then 1d6 for its direction if it leaves the hex). A held fighter's Restrict check (3d6) comes before its attack, defence, drive or
withdraw; a swipe (or free attack) rolls its negotiate task (3d6) first; `/act action:break` its Strength task
(3d6); `/act action:damage` the wound effect's rolls, as after a hit. A move rolls, in step order, each footing roll (3d6) where the pace exceeds the
terrain's and each obstacle roll (3d6). An open-ended 3d6 (a natural 3 or 18) is followed at
once by its reroll.
"""
from __future__ import annotations

from collections.abc import Sequence

from rules.actions import (
    Act,
    ActionSpec,
    ActionTable,
    Attack,
    CoupDeGrace,
    EffectAdd,
    Move,
    Next,
)
from rules.dice import Dice
from rules.errors import IllegalAction, InputError
from rules.events import Event
from rules.models import Combatant, Encounter
from rules.sheet import SheetKey
from rules.system import Action, Highlight, RuleSystem, Turn
from rules.systems.war_and_combat import (
    attacks,
    flurry,
    missiles,
    movement,
    rounds,
    sheet,
    turns,
    words,
    zones,
)
from rules.systems.war_and_combat.actions import ACTIONS
from rules.systems.war_and_combat.facts import WacFacts, facts_of
from rules.systems.war_and_combat.options import OPTIONS
from rules.systems.war_and_combat.present import WacPresenter, sheet_summary
from rules.systems.war_and_combat.state import WacCombatant, WacEncounter

__all__ = ["WarAndCombatSystem", "WacCombatant", "WacEncounter"]


#: the effects `/effect add` puts on a fighter as the rules' own conditions, by name: their codes
RULE_CONDITIONS = {"stun": "stun", "stunned": "stun", "surprise": turns.SURPRISED, "surprised": turns.SURPRISED}


class WarAndCombatSystem(RuleSystem):
    """War & Combat: initiative each round, movement, flurries and adjustment on a hex grid."""

    key = "war-and-combat"
    title = "War & Combat"
    can_hold = True
    map_kinds = ("hex",)
    default_map = "16x12 hex"
    uses_facing = True
    #: the states the rules put on and read: a player does not add or remove one by hand mid-fight
    rule_effect_names = frozenset(RULE_CONDITIONS) | {"knockout", "knocked out", "pinned"}
    terrain_kinds = ("clear", "wall", "rough", "difficult", "climb", "obstacle", "gap", "treacherous", "uphill", "slick", "water")
    options = OPTIONS
    actions = ACTIONS
    commands = ActionTable(
        ActionSpec("attack", "a strike, or a ranged strike", words=words.ATTACK),
        ActionSpec("move", "a move", words=words.MOVE),
    )
    presenter_class = WacPresenter
    combatant_state = WacCombatant
    encounter_state = WacEncounter
    effect_values = sheet.EFFECT_VALUES
    #: "each of which consists of three phases: movement, flurries, and adjustment": an effect may end at the end of the phase
    has_phases = True
    #: the rules in short, for `/help system:` (docs/systems/<key>.md has them in full)
    rules_summary = (
        "Each round: shock checks, initiative (3d6 + Fighter rank, open-ended), movement in initiative order, flurries, adjustment in reverse order, morale.",
        "Facing a hex side: the three front hexes cost normal movement, flanks and rear double, pivoting 1; half the pace's points in each moving phase.",
        "Entering a zone of threat engages; engaged fighters roll flurry initiative, then declare intent and tactic, the attacker first (option declare=hidden: all at once, hidden).",
        "Attack: 3d6 + weapon skill + Agility modifier must exceed Defense (Fighter rank + Agility modifier + 10); 5 over is critical.",
        "A hit rolls its location and impact (Impact Cap = Strength + weapon); absorption and penetration, then the size's thresholds give the wound.",
        "Wounds cost actions (-1, -3, -7) and may stun, fell or disable; mortal wounds call for death checks; a coup-de-grace finishes the helpless.",
    )

    def condition(self, c: Combatant) -> str:
        """Players see a hidden fighter's wounds as a word: none unhurt, light ones hurt, worse badly hurt."""
        if c.status != "active":
            return super().condition(c)
        worst = {w.severity for w in WacCombatant.of(c).wounds}
        if not worst:
            return "unhurt"
        return "hurt" if worst == {"light"} else "badly hurt"

    def kept_from_players(self, enc: Encounter) -> str | None:
        """Besides hidden numbers, declarations made under `declare=hidden` ("all declare at once, hidden
        until all have"): the export holds them, so it waits for the reveal (the GM's is private)."""
        if self.declarations_hidden(enc):
            return ("the flurry's declarations are hidden (export once all have declared, "
                    "or the GM's `/act action:force` reveals them)")
        return super().kept_from_players(enc)

    def hidden_again(self, enc: Encounter) -> str | None:
        """An undo back to before the reveal hides the declarations made again (each may declare anew)."""
        if self.declarations_hidden(enc):
            return "the flurry's declarations are hidden until all have declared (anyone may declare again: the new one replaces the old)"
        return None

    @staticmethod
    def declarations_hidden(enc: Encounter) -> bool:
        """Declarations made under `declare=hidden` and not yet revealed?"""
        est = WacEncounter.of(enc)
        d = est.declarations
        return d is not None and bool(d.made) and not d.revealed and not est.in_turn

    def highlights(self, enc: Encounter) -> list[Highlight]:
        """The acting fighter's zones: threat (its weapon's front hexes in range), a polearm's
        obstructed hexes, marginal (beside it, range 2 and 3), and, only while it is engaged, the rest of its zone of danger ("any hex
        that is in range of a weapon held by any fighter that is actively engaged")."""
        c = self.acting_on_map(enc)
        grid = enc.grid()
        if c is None or grid is None or c.cell is None or not c.facing:
            return []
        threat = zones.threat(grid, c)
        danger = zones.danger(grid, c) - threat if c.name in zones.actively_engaged(enc, grid) else frozenset()
        lying = {grid.parse(x) for x in WacCombatant.of(c).dropped_at.values()}  # where its dropped items lie
        if enc.hidden(c):  # its zones are drawn from its weapons, which the map (posted to everyone) would tell
            return [Highlight(x, "dropped item") for x in sorted(lying)]
        blocked = zones.obstructed(grid, c, self.option_values(enc).polearm_limit) - threat - danger
        return ([Highlight(x, "threat") for x in sorted(threat)]
                + [Highlight(x, "obstructed") for x in sorted(blocked)]
                + [Highlight(x, "marginal") for x in sorted(zones.marginal(grid, c) - threat - danger)]
                + [Highlight(x, "danger") for x in sorted(danger)]
                + [Highlight(x, "dropped item") for x in sorted(lying)])

    # -- sheets ---------------------------------------------------------------------------------
    def sheet_keys(self, variant: str | None = None) -> Sequence[SheetKey]:
        return sheet.SHEET_KEYS

    def sheet_summary(self, c: Combatant) -> str:
        return sheet_summary(c, WacCombatant.of(c).armor)

    def weapons_of(self, enc: Encounter, c: Combatant) -> list[str]:
        return [w.name for w in sheet.weapons(c)]

    def setup_combatant(self, enc: Encounter, c: Combatant, new: bool) -> list[Event]:
        WacCombatant.of(c)
        c.hp = None
        return []

    def change_hp(self, enc: Encounter, c: Combatant, change: int) -> list[Event]:
        """`/combatant hp` is refused: harm is wounds at locations, which the GM's `damage` and `heal` give and take."""
        raise IllegalAction(
            f"{self.title} counts no hit points: harm is wounds at hit locations. `/act action:damage "
            f"target:{c.name} options:\"serious left arm\"` gives one and `action:heal` takes it away; "
            f"`/combatant show` shows how {c.name} is hurt."
        )

    def on_removed(self, enc: Encounter, c: Combatant, dice: Dice) -> list[Event]:
        est = WacEncounter.of(enc)
        est.flurries = [[n for n in f if n != c.name] for f in est.flurries]
        if est.declarations is not None:
            est.declarations.participants.pop(c.name, None)
            est.declarations.made.pop(c.name, None)
        if not enc.started or enc.winner:
            return []
        if enc.phase == "flurry":
            return rounds.resume(enc, self.option_values(enc), dice)
        if enc.current is None:
            return rounds.end_step(enc, self.option_values(enc), dice)
        return []

    # -- turns ------------------------------------------------------------------------------------
    def roll_initiative(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        if enc.started:
            raise IllegalAction("Initiative is rolled at the start of every round by itself: `/init next` moves the round on.")
        if len([c for c in enc.combatants if c.in_fight]) < 1:
            raise IllegalAction("Add combatants first.")
        return rounds.start_round(enc, self.option_values(enc), dice)

    def next_turn(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        self.need_started(enc)
        opts = self.option_values(enc)
        if enc.phase == "flurry":
            est = WacEncounter.of(enc)
            if est.declarations is not None and not est.declarations.revealed:
                raise IllegalAction("The flurry waits for declarations: `/act action:declare`, or the GM's `/act action:force`.")
            c = turns.acting(enc, action.actor or enc.current, ("flurry",), passing=True)
            return rounds.hold(enc, opts, c, dice)
        if enc.current is None and enc.phase == "movement":  # a round nobody could act in, waiting for the GM
            return rounds.end_step(enc, opts, dice)
        turns.acting(enc, action.actor or enc.current, passing=True)
        return rounds.end_step(enc, opts, dice)

    def after_action(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        """A fighter downed in its own step or while it holds the flurry's initiative (a free attack's or a
        pass-through's blow taken, the GM's wound) "is incapable of performing any action": its step ends as
        `/init next` ends it, and the flurry's attack passes on as after a blow from outside it (unless the
        fight is decided); one stunned or surprised while its flurry awaits declarations is no longer awaited
        (`rounds.drop_idle`)."""
        if not enc.started or enc.winner:
            return []
        opts = self.option_values(enc)
        if idle := rounds.drop_idle(enc, opts, dice):
            return idle  # stunned or surprised before its flurry's declarations were all made
        c = enc.find(enc.current) if enc.current else None
        if c is None or c.status == "active":
            return []
        if decided := self.check_victory(enc):
            return decided
        if enc.phase == "flurry":
            return rounds.settle(enc, opts, dice)
        return rounds.end_step(enc, opts, dice)

    def facts(self, enc: Encounter) -> WacFacts:
        """What its presenter words on the board and in the turn line (`facts.WacFacts`)."""
        return facts_of(enc, self.turn(enc))

    def turn(self, enc: Encounter) -> Turn:
        if not enc.started or enc.winner:
            return Turn()
        est = WacEncounter.of(enc)
        d = est.declarations
        if enc.phase == "flurry" and d is not None and not d.revealed:
            first = next(iter(d.participants), "")
            waiting = flurry.to_declare(enc)
            key = (enc.round, "declare", first, len(est.flurries), *(waiting if est.in_turn else ()))
            return Turn(actors=tuple(waiting), key=key, phase="declare")
        if enc.current is None:  # a round nobody could act in as it began waits for the GM (`rounds.begin_phase`)
            return Turn(key=(enc.round, enc.phase), phase=enc.phase, gm=enc.phase == "movement")
        c = enc.get(enc.current)
        return Turn(actors=(c.name,), key=(enc.round, enc.phase, c.name, len(est.flurries)),
                    current=c.name, side=c.side, phase=enc.phase)

    def up_next(self, enc: Encounter, turn: Turn) -> tuple[str, ...]:
        return () if turn.phase == "declare" else rounds.up_next(enc, self.option_values(enc))

    def put_condition(self, enc: Encounter, c: Combatant, name: str, action: EffectAdd) -> list[Event] | None:
        """A stun or surprise given with `/effect add` on a fighter is the rules' own condition (the stun: "can take
        no action for 1d6 rounds", here for the ``rounds`` given), counted down at each round's end; any other
        effect is a named one. One running of the same name is never cut short: the longer is kept (`turns.add_effect`).
        """
        code = RULE_CONDITIONS.get(name.casefold())
        if code is None:
            return None
        if action.mods or action.ends:
            raise InputError(f"{name} is the rules' condition: it lasts whole rounds, ending with "
                             f"a round, and changes no numbers itself: give only `rounds` (and `target`).")
        if code == "stun":  # told as every stun is: a shorter one under a longer running says the longer runs on
            return [*turns.stun(enc, self.option_values(enc), c, action.rounds), *turns.stopped(enc, c)]
        return [turns.add_effect(enc, c, code, action.rounds), *turns.stopped(enc, c)]

    def untouched(self, enc: Encounter, name: str) -> bool:
        """A stunned or surprised fighter "can take no action": ending its turn asks nothing first."""
        c = enc.find(name)
        return super().untouched(enc, name) and not (c is not None and turns.idle(enc, c))

    def hold_action(self, enc: Encounter, actor: str) -> Action | None:
        """Holding at a deadline (`deadline_policy` `hold`): a fighter yet to declare declares the
        default intention with the tactic hold; one with the initiative in a flurry holds it (the
        attack passes on); in the movement or adjustment phase the step ends where it stands."""
        if not enc.started or enc.winner or enc.find(actor) is None:
            return None
        d = WacEncounter.of(enc).declarations if enc.phase == "flurry" else None
        if d is not None and not d.revealed:
            if actor not in flurry.to_declare(enc):
                return None
            return Act(action="declare", actor=actor, options=dict(flurry.DEFAULT_CHOICE), is_gm=True)
        if enc.current != actor:
            return None
        return Next(actor=actor, is_gm=True)

    # -- actions ------------------------------------------------------------------------------------
    def move(self, enc: Encounter, action: Move, dice: Dice) -> list[Event]:
        ctx = self.context(enc, action, dice)
        return movement.move(enc, ctx.options, self.need_grid(enc), action, ctx.words, dice)

    def attack(self, enc: Encounter, action: Attack, dice: Dice) -> list[Event]:
        ctx = self.context(enc, action, dice)
        strike = attacks.attack if enc.phase == "flurry" else missiles.shoot  # a shot in the other phases
        return strike(enc, ctx.options, self.need_grid(enc), action, ctx.words, dice)

    def coup_de_grace(self, enc: Encounter, action: CoupDeGrace, dice: Dice) -> list[Event]:
        return attacks.coup_de_grace(enc, self.option_values(enc), self.need_grid(enc), action, dice)
