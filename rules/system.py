"""The rule-system base class and the actions it resolves (the systems are listed in `rules.registry`).

``system.resolve(encounter, action, dice)`` returns a NEW encounter and the events that
happened, or raises a :class:`~rules.errors.RulesError`; the encounter passed in is never
changed, so a rejected action changes nothing.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from rules.actions import (
    Act,
    Action,
    ActionContext,
    ActionSpec,
    ActionTable,
    Add,
    Attack,
    CoupDeGrace,
    Edit,
    EffectAdd,
    EffectRemove,
    InitOrder,
    InitRoll,
    InitSet,
    Move,
    Next,
    Remove,
)
from rules.dice import Dice
from rules.effects import Effect, TurnPoint, moments, tick
from rules.errors import IllegalAction, InputError, NotAllowed
from rules.events import EffectEnded, Event, Moved, TurnDone
from rules.facts import Facts, Question
from rules.geometry import Cell, Grid
from rules.hidden import names_in
from rules.models import MAX_TRAIL, Combatant, Encounter, LastMove
from rules.options import AutoEndValues, OptionSet, OptionValues
from rules.present import Presenter, Prompt
from rules.roster import MAX_COMBATANTS, MAX_COPIES, RosterRules, check_plain
from rules.sheet import NONE, SheetKey, read_sheet
from rules.state import CombatantState, EncounterState
from rules.text import user_ref
from rules.turns import Turn

__all__ = [
    "Action",
    "check_plain",
    "Turn",
    "Resolution",
    "Highlight",
    "Prompt",
    "Question",
    "RuleSystem",
    "SystemContract",
    "MAX_COMBATANTS",
    "MAX_COPIES",
]

#: the actions after which a turn with nothing left to do ends by itself (option ``auto_end``)
AUTO_END_KINDS = frozenset({"move", "attack", "coupdegrace", "act"})


@dataclass(frozen=True)
class Highlight:
    """A cell the map shades, and why: ``arc`` (front arc), ``reach`` (melee reach), ``threat``,
    ``danger`` or a system's own word (the map shades unknown kinds alike and names them)."""

    cell: Cell
    kind: str


@dataclass
class Resolution:
    encounter: Encounter
    events: list[Event] = field(default_factory=list)


#: the actions by which the acting combatant can end its own turn
_TURN_KINDS = frozenset({"next", "move", "attack", "coupdegrace", "act"})


@runtime_checkable
class SystemContract(Protocol):
    """What a rule system says, in one screen: each of the five declares every one of these itself
    (a test checks). Everything else on `RuleSystem` is shared behaviour a system may leave as it is."""

    # who it is, and its board
    key: ClassVar[str]
    title: ClassVar[str]
    map_kinds: ClassVar[tuple[str, ...]]
    default_map: ClassVar[str | None]
    terrain_kinds: ClassVar[tuple[str, ...]]
    uses_facing: ClassVar[bool]
    # its declarations: encounter options, `/act` actions (each with its handler and words), the
    # words of `/attack` `/coupdegrace` `/move`, effect values, the rules in short, its state models
    options: ClassVar[OptionSet]
    actions: ClassVar[ActionTable]
    commands: ClassVar[ActionTable]
    effect_values: ClassVar[tuple[SheetKey, ...]]
    rules_summary: ClassVar[tuple[str, ...]]
    combatant_state: ClassVar[type[CombatantState]]
    encounter_state: ClassVar[type[EncounterState]]

    # its sheets
    def sheet_keys(self, variant: str | None = None) -> Sequence[SheetKey]: ...
    def setup_combatant(self, enc: Encounter, c: Combatant, new: bool) -> list[Event]: ...
    def weapons_of(self, enc: Encounter, c: Combatant) -> list[str]: ...

    # its turns, and the facts its presenter words (the turn and what the board shows)
    def turn(self, enc: Encounter) -> Turn: ...
    def facts(self, enc: Encounter) -> Facts: ...
    def roll_initiative(self, enc: Encounter, action: InitRoll, dice: Dice) -> list[Event]: ...
    def next_turn(self, enc: Encounter, action: Next, dice: Dice) -> list[Event]: ...
    def on_removed(self, enc: Encounter, c: Combatant, dice: Dice) -> list[Event]: ...

    # `/move`, `/attack` and `/coupdegrace` (`/act` goes to the handlers in ``actions``)
    def move(self, enc: Encounter, action: Move, dice: Dice) -> list[Event]: ...
    def attack(self, enc: Encounter, action: Attack, dice: Dice) -> list[Event]: ...
    def coup_de_grace(self, enc: Encounter, action: CoupDeGrace, dice: Dice) -> list[Event]: ...


class RuleSystem(RosterRules):
    """Base class of every rule system. Subclasses set the class attributes and override the
    action handlers they support; each handler mutates the private copy it is given."""

    key: ClassVar[str] = ""
    title: ClassVar[str] = ""
    variants: ClassVar[tuple[str, ...]] = ()
    map_kinds: ClassVar[tuple[str, ...]] = ("square",)
    default_map: ClassVar[str | None] = "12x10"
    #: the sides a player's and the GM's combatants join when `side` is left out: the same in every system
    default_side_player: ClassVar[str] = "heroes"
    default_side_gm: ClassVar[str] = "foes"
    has_initiative_numbers: ClassVar[bool] = True
    #: whether combatants face a way (facings are shown and accepted only where this is true)
    uses_facing: ClassVar[bool] = True
    #: the map markings this system's rules read (`/encounter terrain` refuses the others);
    #: each kind means the same in every system that uses it (see `rules.models.TERRAIN_KINDS`)
    terrain_kinds: ClassVar[tuple[str, ...]] = ("clear", "wall")
    #: the markings no mini stands on: `/encounter terrain` refuses them under a combatant
    solid_terrain: ClassVar[tuple[str, ...]] = ("wall",)
    #: the GM-overridable rule defaults, declared once (`rules.options`)
    options: ClassVar[OptionSet] = OptionSet()
    #: the `/act` actions, declared once (`rules.actions.ActionTable`)
    actions: ClassVar[ActionTable] = ActionTable()
    #: the `options:` words `/attack`, `/coupdegrace` and `/move` read, each declared as an
    #: action named by its command (``attack``, ``coupdegrace``, ``move``); a command left out
    #: reads none, and its words are not checked
    commands: ClassVar[ActionTable] = ActionTable()
    #: the rules in short readable lines, for `/help system:` (docs/systems/<key>.md has them in full)
    rules_summary: ClassVar[tuple[str, ...]] = ()
    #: shows this system's events, status lines and board (`rules.present`)
    presenter_class: ClassVar[type[Presenter[Any]]] = Presenter
    #: the sheet key whose edit sets the current hit points (`/combatant hp` changes it), if any
    hp_key: ClassVar[str | None] = None
    #: a combatant joining a fight under way rolls its initiative (`/init roll combatant:`) by itself
    newcomer_rolls: ClassVar[bool] = False
    #: the system has a way to hold a turn at its deadline (`hold_action`): else `deadline_policy` `hold` tells the GM
    can_hold: ClassVar[bool] = False
    #: a side's turn lets any of its models act, and a model's turn is its activation, begun by its
    #: first action (Coup-De-Grace, the damage grid): the system itself says when an action starts one,
    #: counting the start as the activation begins (`rules.effects.start_turn`), before what the
    #: action does reads the effects, and the end as it ends (`rules.effects.end_turn`); the countdown
    #: after the action (`tick_effects`) leaves turn starts and ends to it
    activations: ClassVar[bool] = False
    #: this system's typed state (`rules.state`): a combatant's, and the encounter's
    combatant_state: ClassVar[type[CombatantState]] = CombatantState
    encounter_state: ClassVar[type[EncounterState]] = EncounterState

    def upgrade_state(self, data: dict[str, Any]) -> dict[str, Any]:
        """An encounter's raw data written by older code, brought up to date (a whole encounter's
        raw data in, today's shape out): for state that moved between the combatants' and the
        encounter's parts, which a state model alone cannot see. Read before the state models."""
        return data
    #: the values an effect may change (`/effect add mods:"attack+1"`): name, help, and the range
    #: of one effect's change; the rules read them through `rules.effects.modifiers`
    effect_values: ClassVar[tuple[SheetKey, ...]] = ()

    @property
    def act_actions(self) -> tuple[str, ...]:
        return self.actions.names

    @property
    def gm_actions(self) -> tuple[str, ...]:
        """`/act` actions that belong to the GM and to no combatant (the service passes actor=None)."""
        return self.actions.gm_only

    @property
    def options_help(self) -> dict[str, str]:
        """Option name -> one line of help (see ``/encounter settings``)."""
        return self.options.help

    def option_values(self, enc: Encounter) -> OptionValues:
        """The encounter's options as the rules use them, read once per distinct set of values."""
        return self.options.read(enc.settings.options)

    @property
    def present(self) -> Presenter[Any]:
        presenter = self.__dict__.get("_presenter")
        if presenter is None:
            presenter = self.__dict__["_presenter"] = self.presenter_class(self)
        return presenter

    # -- sheets ------------------------------------------------------------------------------
    def sheet_keys(self, variant: str | None = None) -> Sequence[SheetKey]:
        return ()

    def read_sheet(
        self, enc: Encounter, raw: dict[str, str], base: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        return read_sheet(raw, self.sheet_keys(enc.variant), base)

    def sheet_number(self, enc: Encounter, c: Combatant, key: str) -> int:
        """The number ``key`` holds now, which a relative edit (``hp-7``) changes: the sheet's
        value (its default where unset); the current hit points for `hp_key`. A key that is
        not a number, or one the rules work out while the sheet leaves it unset, is refused,
        saying how to set it."""
        spec = next((k for k in self.sheet_keys(enc.variant) if k.name == key), None)
        if spec is None:
            numbers = ", ".join(k.name for k in self.sheet_keys(enc.variant) if k.kind == "int") or "none"
            raise InputError(f"{self.title} sheets have no `{key}`. The numbers a sheet holds: {numbers}.")
        value = c.sheet.get(key, spec.default)
        if spec.kind != "int" and (not isinstance(value, int) or isinstance(value, bool)):
            raise InputError(f"`{key}` is not a number, so `{key}+1` cannot change it: set it with `{key}=...`.")
        if key == self.hp_key and c.hp is not None:
            return c.hp
        if value is None:
            raise InputError(
                f"{c.name}'s sheet does not set `{key}` (the rules work it out), so there is no number to "
                f"change: set it with `{key}=...`."
            )
        return int(value)

    def absolute_edit(self, enc: Encounter, action: Edit) -> Edit:
        """``action`` (an edit) with its relative changes (``hp-7``, `/combatant hp`) made
        into the values they give, so that every system's edit reads plain ``key=value``; its
        ``deltas`` stay, saying which values were changes (one that moves nothing is refused)."""
        deltas = dict(action.deltas)
        change = action.hp_change
        if not deltas and change is None:
            return action
        if change == 0:
            raise InputError("`change` is the hit points to add or take away, such as `-7` or `3`: not 0.")
        c = enc.get(action.actor)
        if change is not None and self.hp_key is not None:
            deltas[self.hp_key] = deltas.get(self.hp_key, 0) + change
            change = None
        raw = dict(action.raw_sheet)
        for key, amount in deltas.items():
            raw[key] = str(self.sheet_number(enc, c, key) + amount)
        return action.model_copy(update={"raw_sheet": raw, "deltas": deltas, "hp_change": change})

    def change_hp(self, enc: Encounter, c: Combatant, change: int) -> list[Event]:
        """`/combatant hp`: ``c`` gains ``change`` hit points (loses, if negative). A system
        whose hit points are not a sheet key (`hp_key`) overrides this; one without hit points
        refuses."""
        raise IllegalAction(
            f"{self.title} counts no hit points: its harm is not a number. `/combatant show` shows "
            f"how {c.name} is hurt; `/undo` takes back an attack that should not have landed."
        )

    def setup_combatant(self, enc: Encounter, c: Combatant, new: bool) -> list[Event]:
        """Derive hp and state from the sheet (on add, and again after an edit)."""
        return []

    def check_options(self, enc: Encounter) -> None:
        """Raise a RulesError naming the first value in ``enc.settings.options`` the rules cannot use.

        Called when the GM changes options, so a bad value is refused at once, not at the next action.
        """
        self.options.check(enc.settings.options)

    # -- turn order ----------------------------------------------------------------------------
    def turn(self, enc: Encounter) -> Turn:
        return Turn()

    def facts(self, enc: Encounter) -> Facts:
        """What the presenter words on the board and in the turn line: the turn, and what a
        system's own `Facts` add."""
        return Facts(turn=self.turn(enc))

    def turn_done(self, enc: Encounter, c: Combatant) -> bool:
        """Whether ``c``, whose turn it is, has nothing left to do this turn. Where it has and the
        encounter's shared option ``auto_end`` is on, the action that spent the last of it also
        ends the turn. A system whose turns can run out overrides this (and declares ``AUTO_END``)."""
        return False

    def on_deck(self, enc: Encounter, turn: Turn | None = None) -> tuple[str, ...]:
        """Who acts after the turn under way (`up_next`; ``turn``: that turn, where the caller has
        it), never those acting now; nothing while the fight is decided, nobody acts, or a
        question waits for a player's answer."""
        turn = self.turn(enc) if turn is None else turn
        if not turn.actors or enc.winner or self.question(enc) is not None:
            return ()
        return tuple(n for n in self.up_next(enc, turn) if n not in turn.actors)

    def up_next(self, enc: Encounter, turn: Turn) -> tuple[str, ...]:
        """Who may act once ``turn`` ends, as its system's turn module reads it from the state
        (nothing is resolved or copied); nothing when a roll would decide it (a new round's
        roll-off). A system without such an answer names nobody."""
        return ()

    def weapons_of(self, enc: Encounter, c: Combatant) -> list[str]:
        return []

    def actions_for(self, enc: Encounter, c: Combatant | None) -> list[str]:
        return self.actions.legal_now(enc, c)

    # -- handlers --------------------------------------------------------------------------------
    def roll_initiative(self, enc: Encounter, action: InitRoll, dice: Dice) -> list[Event]:
        raise IllegalAction(f"{self.title} has no initiative roll.")

    def set_initiative(self, enc: Encounter, action: InitSet, dice: Dice) -> list[Event]:
        raise IllegalAction(
            f"{self.title} has no initiative number to set: the order comes from its own procedure."
        )

    def reorder_initiative(self, enc: Encounter, action: InitOrder, dice: Dice) -> list[Event]:
        """GM sets the order of tied combatants; ``action.name`` holds the names, comma separated."""
        raise IllegalAction(f"{self.title} has no initiative order for the GM to change.")

    def next_turn(self, enc: Encounter, action: Next, dice: Dice) -> list[Event]:
        raise IllegalAction("There are no turns to end in this system.")

    def move(self, enc: Encounter, action: Move, dice: Dice) -> list[Event]:
        raise IllegalAction(f"{self.title} has no move action.")

    def attack(self, enc: Encounter, action: Attack, dice: Dice) -> list[Event]:
        raise IllegalAction(f"{self.title} has no attack action.")

    def coup_de_grace(self, enc: Encounter, action: CoupDeGrace, dice: Dice) -> list[Event]:
        raise IllegalAction(f"{self.title} has no coup-de-grace.")

    def _words_spec(self, action: Action) -> ActionSpec | None:
        """The declaration whose words ``action`` types: its `/act` action's or its command's (None: it reads none)."""
        if isinstance(action, Act):
            return self.actions.get(action.action)
        return self.commands.get(action.kind) if action.kind in self.commands else None

    def words(self, action: Action) -> OptionValues:
        """``action``'s own `options:` words, read by the declaration of its `/act` action or its
        command (`rules.options.OptionSet.read_words`, the one reader and its one refusal)."""
        spec = self._words_spec(action)
        if spec is None:
            return OptionValues({})
        return spec.words.read_words(getattr(action, "options", {}), spec.name)

    def check_player_modifiers(self, enc: Encounter, action: Action) -> None:
        """With the GM's ``player_rolls`` off, a player's own roll modifiers (the words declared ``modifier``:
        ``atk=2``, ``bonus=1``, ``adv``) are refused as their `roll:` is: the bot and the GM decide the numbers."""
        if action.is_gm or enc.settings.player_rolls or not getattr(action, "options", None):
            return
        spec = self._words_spec(action)
        if spec is None:
            return
        words = self.words(action)
        typed = [o.name for o in spec.words.options if o.modifier and words.get(o.name) not in (None, False)]
        if typed:
            raise NotAllowed(
                f"The GM has turned off `roll:` for players in this encounter, and with it the modifiers you type "
                f"({', '.join(f'`{n}`' for n in typed)}): leave {'it' if len(typed) == 1 else 'them'} out, or ask the GM "
                "(a standing bonus is an effect: `/effect add mods:`)."
            )

    def context(self, enc: Encounter, action: Action, dice: Dice) -> ActionContext:
        """What a handler works with (`rules.actions.ActionContext`) for ``action`` on ``enc``."""
        return ActionContext(
            encounter=enc, grid=enc.grid(), options=self.option_values(enc), dice=dice, actor=enc.find(action.actor),
            words=self.words(action),
        )

    def act(self, enc: Encounter, action: Act, dice: Dice) -> list[Event]:
        """`/act`: the action's declared handler, given the context and the action under its table name."""
        spec = self.actions.get(action.action)
        assert spec.handler is not None, f"the /act action {spec.name} declares no handler"
        return spec.handler(self.context(enc, action, dice), action.model_copy(update={"name": spec.name}))

    # -- presentation hooks -------------------------------------------------------------------------
    def question(self, enc: Encounter) -> Question | None:
        """The choice an action under way waits for from a player, as facts (None: none waits)."""
        return None

    def prompt(self, enc: Encounter) -> Prompt | None:
        """The waiting question (`question`) in the presenter's words, as the bot sends it."""
        q = self.question(enc)
        return None if q is None else self.present.prompt(q)

    def lapse(self, enc: Encounter) -> Action | None:
        """The answer the turn clock gives the waiting question when the turn's deadline passes
        (None: no question waits)."""
        return None

    def check_waiting(self, enc: Encounter, action: Action) -> None:
        """While a question waits for a player's answer (`prompt`), refuse every rule action but
        that answer, saying how a GM answers for them (the deadline's own answer, `lapse`)."""
        asked = self.prompt(enc)
        if asked is None or (isinstance(action, Act) and action.action.strip().lower() == asked.action):
            return
        default = self.lapse(enc)
        choice = getattr(default, "options", {}).get("choice") if default is not None else None
        typed = f" options:\"{choice}\"" if choice else ""
        raise IllegalAction(
            f"{asked.waiting or 'The turn'} waits for {user_ref(asked.user_id)} to answer: {asked.title} (the buttons "
            f"sent to them); nothing else happens until then. A GM can answer for them with `/act "
            f"action:{asked.action} combatant:{asked.actor}{typed}`, or take it back with `/undo`."
        )

    def deadline_passes(self, enc: Encounter, turn: Turn) -> tuple[str, ...]:
        """The combatants whose turn the deadline's `pass` ends (``turn``: the turn under way): the
        deadline's warning goes to their owners. Every combatant the turn names (`Next.whole_turn`)."""
        return turn.actors

    def hold_action(self, enc: Encounter, actor: str) -> Action | None:
        """What ``actor`` does to hold its action when its turn passes its deadline (the
        `deadline_policy` `hold`); None where the system has no way to hold (the GM is told)."""
        return None

    def cannot_hold(self, enc: Encounter, actor: str) -> str:
        """Why ``actor``'s turn is not held at its deadline where `hold_action` gives nothing (or what it gives is
        refused): the GM is told this instead."""
        return f"{self.title} has no way to hold it"

    def health(self, c: Combatant) -> tuple[int, int] | None:
        """``c``'s health now and when unhurt, for its condition word (None: this system has no
        health number for it). The default reads `hp` against the sheet's `hp`."""
        full = c.sheet.get("hp")
        if c.hp is None or not isinstance(full, int) or full <= 0:
            return None
        return c.hp, full

    def kept_from_players(self, enc: Encounter) -> str | None:
        """What of ``enc`` its stored form (an export) holds that players may not see now, worded to
        follow "while ..." with what ends it; None: nothing. Only the GM exports it then, privately.
        The default: the numbers of the GM's hidden combatants (removed ones' too, in the GM changes)."""
        hidden = enc.hidden_names()
        if not hidden:
            return None
        if not hidden.isdisjoint(enc.removed_hidden):  # no reveal shows those (`Encounter.shown_to_players`)
            return "its combatants' numbers are hidden from players (those of the GM's combatants removed while hidden stay so)"
        return "its combatants' numbers are hidden from players (or reveal them with `/encounter reveal`)"

    def hidden_again(self, enc: Encounter) -> str | None:
        """What ``enc``, the state an `/undo` goes back to, hides from players again that the undone
        command told (worded to follow "while"); None: nothing. The undo's reply then says that
        instead of what it undid, and players' `/log` leaves out the undone rows meanwhile."""
        return None

    def condition(self, c: Combatant) -> str:
        """What players see of a hidden combatant's health: unhurt, hurt, badly hurt, down, out."""
        if c.status == "out":
            return "out"
        if c.status == "downed":
            return "down"
        health = self.health(c)
        if health is None or health[0] >= health[1]:
            return "unhurt"
        return "hurt" if 2 * health[0] > health[1] else "badly hurt"

    def sheet_summary(self, c: Combatant) -> str:
        parts = []
        for k, v in c.sheet.items():
            if isinstance(v, list):  # an empty one as it is typed (`weapons=none`), so the line reads back
                v = ",".join(str(x) for x in v) or NONE
            parts.append(f"{k}={v}")
        return " ".join(parts)

    def highlights(self, enc: Encounter) -> list[Highlight]:
        """Cells the map shades now (the acting combatant's front arc or reach, zones of threat);
        none unless the system says so."""
        return []

    def acting_on_map(self, enc: Encounter, *, numbers: bool = False) -> Combatant | None:
        """The one combatant acting now, if it stands on the map (for :meth:`highlights`). With
        ``numbers`` (shading drawn from its sheet: a reach, its weapons), only one whose numbers
        players see: the map is posted to everyone."""
        turn = self.turn(enc)
        name = turn.current or (turn.actors[0] if len(turn.actors) == 1 else None)
        c = enc.find(name)
        if c is not None and numbers and enc.hidden(c):
            return None
        return c if c is not None and c.on_board and enc.grid() is not None else None

    # -- the one entry point ---------------------------------------------------------------------------
    def resolve(self, enc: Encounter, action: Action, dice: Dice, copy: Encounter | None = None,
                turn: Turn | None = None) -> Resolution:
        """Resolve ``action`` on a copy of ``enc``: ``copy`` if the caller has one it owns (equal to
        ``enc``, or ``enc`` itself, changed in place: the caller puts it back if this raises),
        else one made through JSON. ``turn``: ``enc``'s turn, where the caller has worked it out
        (the effects count down from it)."""
        if copy is None:  # a deep copy through JSON: three times faster than deepcopy
            copy = type(enc).model_validate_json(enc.model_dump_json(), context={"system": self})
        new = copy
        self.check_decided(new, action)
        self.check_waiting(new, action)
        self.check_player_modifiers(new, action)
        if isinstance(action, Edit):
            action = self.absolute_edit(new, action)
        # effects count down by the turn moments this action passed (`tick_effects`), one it added too
        before = self.turn_point(new, turn)
        events = self.handle(new, action, dice)
        events += self.after_action(new, action, dice)
        moves = [e for e in events if isinstance(e, Moved) and e.actor]
        if moves and moves[-1].actor and new.map.kind != "none":  # the map draws the last move's trail
            new.last_move = LastMove(actor=moves[-1].actor, path=moves[-1].path[-MAX_TRAIL:])
        if new.last_move is not None and events:
            self._trail_to_stand(new, new.last_move)
        events += self.check_victory(new)
        events += self._auto_end(new, action, dice)
        if action.kind in AUTO_END_KINDS and not new.winner:
            self._note_used(new, action)
        if new.effects:
            ended, with_round, later = self.tick_effects(new, before, action.actor if action.kind in _TURN_KINDS else None)
            at = next((i for i, e in enumerate(events) if e.begins), len(events))
            events[at:at] = ended  # told as it happened: before the round, phase or turn that begins after
            # those the round's end ended, after what ends the round (its last phases), before the next round
            at = next((i for i, e in enumerate(events) if e.begins and e.kind == "round"), at + len(ended))
            events[at:at] = with_round
            events += later
        dice.check_all_used(lambda: bool(names_in(events, new.hidden_names())))
        return Resolution(new, events)

    @staticmethod
    def _trail_to_stand(enc: Encounter, last: LastMove) -> None:
        """The map's trail ends where its mover stands: one struck down on a cell it could not stop on
        (an ally's, in the open system) and fallen back onto an earlier cell of its path leaves it there."""
        mover = enc.find(last.actor)
        at = mover.position if mover is not None else None
        if at is not None and last.path and last.path[-1] != at and at in last.path:
            last.path = last.path[:len(last.path) - last.path[::-1].index(at)]

    def handle(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        """``action`` given to the handler of its kind (a coup de grâce once the fight is decided: `finish`)."""
        match action:
            case Add():
                return self.add(enc, action, dice)
            case Edit():
                return self.edit(enc, action, dice)
            case Remove():
                return self.remove(enc, action, dice)
            case InitRoll():
                return self.roll_initiative(enc, action, dice)
            case InitSet():
                return self.set_initiative(enc, action, dice)
            case InitOrder():
                return self.reorder_initiative(enc, action, dice)
            case Next():
                return self._end_turn(enc, action, dice)
            case Move():
                return self.move(enc, action, dice)
            case Attack():
                return self.attack(enc, action, dice)
            case CoupDeGrace():
                return self.finish(enc, action) if enc.winner else self.coup_de_grace(enc, action, dice)
            case Act():
                return self.act(enc, action, dice)
            case EffectAdd():
                return self.add_effect(enc, action, dice)
            case EffectRemove():
                return self.remove_effect(enc, action, dice)

    def turn_point(self, enc: Encounter, turn: Turn | None = None) -> TurnPoint:
        """Where the turn stands, for counting effects down (`rules.effects.moments`); ``turn``:
        ``enc``'s, where the caller has it."""
        if not enc.started:
            return (enc.round, enc.phase, (), None)
        turn = self.turn(enc) if turn is None else turn
        return (enc.round, enc.phase, turn.key, turn.current)

    def tick_effects(self, enc: Encounter, before: TurnPoint, actor: str | None = None) -> tuple[list[Event], list[Event], list[Event]]:
        """Count the encounter's effects down by the turn moments passed since ``before`` (``actor``
        did the action). One the action added counts them too, as it would had they passed in the
        next action: the action's own step adds it before its turn passes (a Defend taken as the
        last action of a round lasts "this round", that round). A rule that adds one after a moment
        passed (at a round's start) counts that moment into its ``left``. An effect whose target
        has left the encounter ends too, as does one timed by the turns of a combatant who left (its
        turn never comes again). Say which ended: (those that ended as a turn or phase ended, those
        that ended with a round, the rest: at a turn's start, or with their target). A system with `activations`
        counted the turns that started and ended as they did, so they are not counted again; only an
        activation still under way as the fight is decided ends here."""
        names = {c.name for c in enc.combatants}
        passed = moments(before, self.turn_point(enc), actor)
        if self.activations:  # counted as the activations began and ended; one the fight's end cut short ends here
            passed = [m for m in passed if m[0] not in ("turn_start", "turn_end") or m == ("turn_end", enc.current)]
        kept, ended = tick(enc.effects, passed)
        gone = [e for e in kept if any(who is not None and who not in names for who in (e.target, e.counts_at[1]))]
        enc.effects = [e for e in kept if e not in gone]
        def told(effects: list[Effect]) -> list[Event]:
            return [EffectEnded(actor=e.target, name=e.name) for e in effects]

        return (told([e for e in ended if e.ends not in ("round_end", "turn_start")]),
                told([e for e in ended if e.ends == "round_end"]),
                told([e for e in ended if e.ends == "turn_start"] + gone))

    def after_action(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        """What the system's rules do after any action is resolved, before the fight's end is
        checked (e.g. a combatant fallen in its own turn ends it); by default nothing."""
        return []

    def _auto_end(self, enc: Encounter, action: Action, dice: Dice) -> list[Event]:
        """End the turn of a combatant the action left with nothing to do (option ``auto_end``)."""
        if action.kind not in AUTO_END_KINDS or enc.winner:
            return []
        values = self.option_values(enc)
        if not isinstance(values, AutoEndValues) or not values.auto_end:
            return []
        c = enc.find(self.turn(enc).current)
        # a hidden combatant's turn ends with `/init next`: ending by itself would tell its movement
        if c is None or enc.hidden(c) or not self.turn_done(enc, c):
            return []
        end = Next(actor=c.name, user_id=action.user_id, is_gm=action.is_gm)
        return [TurnDone(actor=c.name), *self.next_turn(enc, end, dice)]

    # -- helpers for subclasses ---------------------------------------------------------------------------
    @staticmethod
    def need_grid(enc: Encounter) -> Grid:
        grid = enc.grid()
        if grid is None:
            raise IllegalAction("This encounter has no map: this action needs one.")
        return grid

    @staticmethod
    def need_started(enc: Encounter) -> None:
        if not enc.started:
            raise IllegalAction("Combat has not started: the GM starts it with `/init roll`.")

    def check_variant(self, variant: str | None) -> str | None:
        if variant in (None, "", "default"):
            return None
        if variant not in self.variants:
            known = ", ".join(self.variants) or "none"
            raise InputError(f"{self.title} has no variant `{variant}`. Variants: {known}.")
        return variant

