"""Presentation: events and encounters turned into Discord-neutral text.

A :class:`Presenter` maps event types to methods (the d20 stringifier pattern): the core
events are shown here, and each system's ``present.py`` subclasses it for its own events,
its status lines and its board. Nothing here decides a rule.
"""
from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from rules.effects import mods_text
from rules.events import (
    Added,
    Attacked,
    Checked,
    Damaged,
    Edited,
    EffectAdded,
    EffectEnded,
    Event,
    Finished,
    HitPointsChanged,
    InitiativeSet,
    JoinedFight,
    Modifier,
    Moved,
    Removed,
    Roll,
    RoundBegan,
    StatusChanged,
    Term,
    TurnDone,
    Turned,
    TurnPassed,
    Victory,
)
from rules.facts import Facts, Question
from rules.hidden import (
    SECRET,
    for_reader,
    mark,
    names_in,
    public_copy,
    secret,
    turn_line,
)
from rules.text import COLOURS, Report, die_text, joined, signed, user_ref
from rules.turns import NOBODY_LEFT

if TYPE_CHECKING:  # pragma: no cover
    from rules.models import Combatant, Encounter

__all__ = ["Presenter", "PresentedSystem", "Prompt", "changed_by", "by_hand"]


@dataclass(frozen=True)
class Prompt:
    """A question to one player in words (`Presenter.prompt` words a `rules.facts.Question`): sent
    to ``user_id`` privately with a button per choice, ``(label, answer)``. The answer is the `/act`
    action ``action`` of the combatant ``actor`` with ``options`` ``choice=answer`` and ``tag=tag``;
    ``tag`` names this question, so an answer to an older one changes nothing. ``waiting`` names
    the action that waits for it (``Xul's attack``: the log names the answer so); ``lapse`` says
    what the turn's deadline answers for the player (``the least harm``)."""

    user_id: str
    tag: str
    actor: str
    action: str
    title: str
    lines: list[str]
    choices: list[tuple[str, str]]
    waiting: str = ""
    lapse: str = "the answer that changes least"


class PresentedSystem(Protocol):
    """What a presenter reads of its system (`rules.system.RuleSystem` gives each)."""

    @property
    def title(self) -> str: ...
    @property
    def uses_facing(self) -> bool: ...
    @property
    def has_initiative_numbers(self) -> bool: ...
    def condition(self, c: Combatant) -> str: ...


def changed_by(by_gm: bool) -> str:
    """Who changed a combatant's harm by hand, as the lines name them: ``the GM`` or ``its player``
    (an owner, before the fight)."""
    return "the GM" if by_gm else "its player"


def by_hand(by_gm: bool, line: str) -> str:
    """``line`` (a change of harm made by hand) naming who made it: ``GM: line``, or
    ``line, changed by its player``."""
    return f"GM: {line}" if by_gm else f"{line}, changed by {changed_by(False)}"


@functools.cache
def _merged(mro: tuple[type, ...], table: str) -> dict[Any, Any]:
    """A presenter class's table (``formats``, ``terms``) merged along its bases (``mro``), the nearest last."""
    merged: dict[Any, Any] = {}
    for base in reversed(mro):
        merged.update(getattr(base, table, {}))
    return merged


#: the facts a system's presenter reads (`rules.facts.Facts` or the system's own)
F = TypeVar("F", bound=Facts)


class Presenter(Generic[F]):
    """The text of one system. Subclasses add ``formats`` entries for their own event types
    (``{MyEvent: "my_event"}``: the method of that name takes the event and returns a line)."""

    #: event type -> name of the method that shows it; looked up along the type's MRO
    formats: ClassVar[dict[type, str]] = {
        Added: "added",
        Edited: "edited",
        Removed: "removed",
        JoinedFight: "joined_fight",
        RoundBegan: "round_began",
        InitiativeSet: "initiative_set",
        Moved: "moved",
        Turned: "turned",
        Attacked: "attacked",
        Damaged: "damaged",
        HitPointsChanged: "hit_points_changed",
        StatusChanged: "status_changed",
        Victory: "victory",
        Checked: "checked",
        EffectAdded: "effect_added",
        EffectEnded: "effect_ended",
        TurnDone: "turn_done",
        Finished: "finished",
        TurnPassed: "turn_passed",
    }
    #: names for the codes of `StatusChanged.cause` and `Checked.what`
    causes: ClassVar[dict[str, str]] = {}
    checks: ClassVar[dict[str, str]] = {}
    #: the words of the terms (`rules.events.Term`: roll modifiers, what a roll is against) the
    #: system's rules name, by code; ``{0}``... are the term's ``args``, ``{all}`` all of them
    #: joined by commas; merged along the class's bases like `formats`
    terms: ClassVar[dict[str, str]] = {"said": "{0}"}

    #: the combatants whose health players see only as a condition word (`view`)
    hide: frozenset[str] = frozenset()
    #: the encounter a view shows (its combatants' conditions), None for a plain presenter
    enc: "Encounter | None" = None
    #: the condition words of hidden combatants as recorded in the log (`recorded`)
    conditions: Mapping[str, str] = {}
    #: this view's `full` copy, once made
    _full: "Presenter[F] | None" = None

    def __init__(self, system: PresentedSystem) -> None:
        self.system = system
        self._methods: dict[type, Callable[[Any, Any], str]] = {}
        #: `_term_words`, looked up once
        self._terms = self._term_words()

    def view(self, enc: "Encounter", hide: frozenset[str] = frozenset()) -> "Presenter[F]":
        """This presenter showing ``enc`` with the health of ``hide`` as condition words."""
        if not hide and self.enc is None:
            return self
        shown = copy.copy(self)
        shown.enc, shown.hide, shown._full = enc, hide, None
        return shown

    def recorded(self, conditions: Mapping[str, str], hide: frozenset[str]) -> "Presenter[F]":
        """This presenter showing a logged command: the health of ``hide`` as the condition words
        ``conditions`` recorded then."""
        shown = copy.copy(self)
        shown.enc, shown.hide, shown.conditions, shown._full = None, hide, conditions, None
        return shown

    # -- hidden information ---------------------------------------------------------------------------
    def hidden(self, name: str | None) -> bool:
        return name is not None and name in self.hide

    def condition(self, name: str | None) -> str:
        """``badly hurt``: the condition word of a combatant of the viewed encounter."""
        if name is not None and name in self.conditions:
            return self.conditions[name]
        c = self.enc.find(name) if self.enc is not None else None
        return self.system.condition(c) if c is not None else "unknown"

    def health_change(self, name: str | None, before: int | None, after: int | None, unit: str = "") -> str:
        """`` (12 → 7 HP)``, or `` (now hurt)`` for a combatant whose numbers are hidden."""
        if self.hidden(name):
            return f" (now {self.condition(name)})"
        if before is None or after is None:
            return ""
        return f" ({before} → {after}{unit})"

    def hidden_line(self, enc: "Encounter", c: "Combatant") -> str:
        """A hidden combatant's board line: name, place and condition (no number of its own)."""
        bits = [f"**{c.name}**"]
        if c.position:
            bits.append(c.position + (f" {c.facing}" if c.facing and self.system.uses_facing else ""))
        bits.append(self.system.condition(c))
        return " · ".join(bits)

    def shown(self, name: str | None) -> bool:
        """May this view show the numbers of the combatant called ``name``? (`rules.hidden.for_reader`)"""
        return not self.hidden(name)

    def readable(self, text: str) -> str:
        """Marked text (`rules.hidden.mark`) as this view's reader sees it."""
        return for_reader(text, self.shown)

    def line(self, enc: "Encounter", c: "Combatant", facts: F) -> str:
        """``c``'s board line as this view shows it: a hidden one's with its `public_notes`."""
        if not self.hidden(c.name):
            return self.status_line(enc, c, facts)
        return " · ".join([self.hidden_line(enc, c), *self.public_notes(enc, c, facts)])

    def public_notes(self, enc: "Encounter", c: "Combatant", facts: F) -> list[str]:
        """What ``c``'s `status_line` says that a hidden combatant's line says to players too: no number of its own,
        only what the board tells everyone elsewhere (that a condition keeps it from acting, say)."""
        return []

    # -- events -------------------------------------------------------------------------------------
    def marked(self, e: Event) -> str:
        """``e``'s line in both versions (`rules.hidden.mark`): every number for the GM, and the
        text of its public copy (`rules.hidden.public_copy`) for players where it names one of
        the combatants this view hides."""
        if not self.hide:
            return self.text(e)
        full = self.full().text(e)
        names = names_in(e, self.hide)
        if not names:
            return full
        try:
            public = self.text(public_copy(e, self.hide))
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):  # a text that needs a hidden number
            public = f"**{e.actor}**: the GM keeps the details" if e.actor else "The GM keeps the details"
        return mark(names, full, public)

    def full(self) -> "Presenter[F]":
        """This presenter showing every number (the GM's view)."""
        if not self.hide:
            return self
        if self._full is None:
            self._full = copy.copy(self)
            self._full.hide = frozenset()
        return self._full

    def text(self, e: Event) -> str:
        method = self._methods.get(type(e))
        if method is None:
            for cls in type(e).__mro__:
                name = self._formats().get(cls)
                if name is not None:
                    method = self._methods[type(e)] = getattr(type(self), name)
                    break
            else:
                raise TypeError(f"no text for {type(e).__name__}")
        return method(self, e)

    # -- terms and rolls -------------------------------------------------------------------------------
    def term(self, t: Term) -> str:
        """A term's words: ``co-ordinated attack (Borin, Mira)``."""
        words = self._terms.get(t.code)
        if words is None:
            return t.code
        return words.format(*t.args, all=", ".join(str(a) for a in t.args))

    @classmethod
    def _term_words(cls) -> dict[str, str]:
        return _merged(cls.__mro__, "terms")

    def roll_text(self, r: Roll, outcome: str | None = None) -> str:
        """``🎲 4 (d6) +1 backstab −1 distraction = 4 vs DV 5: miss``."""
        bits: list[str] = []
        if r.dice and any(secret(d) for d in r.dice):
            bits.append("🎲 the GM's roll")
        elif r.dice:
            shown = ", ".join(die_text(d, i in r.typed) for i, d in enumerate(r.dice))
            label = f" ({r.label})" if r.label else ""
            kept = f" keep {r.kept}" if r.kept is not None and len(r.dice) > 1 else ""
            bits.append(f"🎲 {shown}{label}{kept}")
        for m in r.modifiers:
            if not secret(m.value):
                bits.append(f"{signed(m.value)} {self.term(m)}")
        text = " ".join(bits)
        if r.total is not None and not secret(r.total):
            text += f" = **{r.total}**"
        versus = self.term(r.versus) if r.versus is not None else "target"
        if secret(r.against):
            text += f" vs {versus}"
        elif r.against is not None:
            text += f" vs {versus} {r.against}"
        if outcome is not None:
            text += f": {outcome}"
        elif r.success is not None:
            text += ": " + ("success" if r.success else "failure")
        return text

    @classmethod
    def _formats(cls) -> dict[type, str]:
        return _merged(cls.__mro__, "formats")

    def added(self, e: Added) -> str:
        """``**Grak** joins **orcs** at D3 facing W, played by {user:1}: class=light``."""
        side = f" **{e.side}**" if e.side else ""
        where = f" at {e.at}" if e.at else " (not on the map yet)" if e.on_map else ""
        facing = f" facing {e.facing}" if e.faces and e.facing else ""
        status = f", already {e.status}" if e.status else ""
        owner = f"played by {user_ref(e.owner_id)}" if e.owner_id else "the GM's"
        summary = f": {e.summary}" if e.summary and not secret(e.summary) else ""
        return f"**{e.actor}** joins{side}{where}{facing}{status}, {owner}{summary}"

    def edited(self, e: Edited) -> str:
        placed = ", ".join(x for x in (f"side **{e.side}**" if e.side else "", f"at {e.at}" if e.at else "",
                                        f"facing {e.facing}" if e.facing else "") if x)
        placed = f" ({placed})" if placed else ""  # where it is now: the board's, for everyone
        if secret(e.summary):
            return f"The GM changed **{e.actor}**{placed}"
        who = "GM edit: " if e.by_gm else ""
        return f"{who}**{e.actor}** updated{placed}" + (f": {e.summary}" if e.summary else "")

    def joined_fight(self, e: JoinedFight) -> str:
        """``**Snaga** joins the fight in round 2, at initiative 12``."""
        shown = e.initiative is not None and not secret(e.initiative) and self.system.has_initiative_numbers
        at = f", at initiative {e.initiative}" if shown else ""
        return f"**{e.actor}** joins the fight in round {e.round}{at}"

    def removed(self, e: Removed) -> str:
        return f"**{e.actor}** removed from the encounter"

    def round_began(self, e: RoundBegan) -> str:
        return f"**Round {e.round}** begins"

    def initiative_set(self, e: InitiativeSet) -> str:
        roll = f" ({self.roll_text(e.roll)})" if e.roll is not None and e.roll.dice else ""
        return f"**{e.actor}** initiative **{e.value}**{roll}"

    def moved(self, e: Moved) -> str:
        path = " → ".join(e.path)
        cost = f" for {e.cost:g} {e.unit}" if e.cost is not None else ""
        rest = f" ({e.left:g} left)" if e.left is not None else ""
        facing = f", facing {e.facing}" if e.facing else ""
        return f"**{e.actor}** moves {path}{cost}{facing}{rest}"

    def turned(self, e: Turned) -> str:
        return f"**{e.actor}** turns to face {e.facing}" + (f" for {e.cost:g} MP" if e.cost else "")

    def attacked(self, e: Attacked) -> str:
        head = f"**{e.actor}** attacks **{e.target}**" + (f" with {e.weapon}" if e.weapon else "")
        outcome = None if e.roll.success is None else ("hit" if e.roll.success else "miss")
        return f"{head}: {self.roll_text(e.roll, outcome)}"

    def damaged(self, e: Damaged) -> str:
        change = self.health_change(e.actor, e.before, e.after)
        return f"**{e.actor}** takes {e.amount} damage{change}"

    def hit_points_changed(self, e: HitPointsChanged) -> str:
        """``GM: **Grak** loses 2 HP (3 → 1 HP)``, or ``... (now hurt)`` where the numbers are hidden;
        a player's own: ``**Borin** loses 2 HP (3 → 1 HP), changed by its player``."""
        if self.hidden(e.actor):
            return f"GM: **{e.actor}**'s hit points changed{self.health_change(e.actor, e.before, e.after)}"
        how = f"loses {-e.change}" if e.change < 0 else f"gains {e.change}"
        return by_hand(e.by_gm, f"**{e.actor}** {how} HP ({e.before} → {e.after} HP{self.stopped(e)})")

    def stopped(self, e: HitPointsChanged) -> str:
        """``; +9 stops at its most``: the change asked, where the most (a heal) or the least (a loss) cut it."""
        if e.asked is None or e.asked == e.change:
            return ""
        return f"; {signed(e.asked)} stops at its {'most' if e.asked > e.change else 'least'}"

    def status_changed(self, e: StatusChanged) -> str:
        cause = self.causes.get(e.cause or "", e.cause or "")
        return f"**{e.actor}** is now **{e.status}**" + (f": {cause}" if cause else "")

    def victory(self, e: Victory) -> str:
        if e.side is None:
            return "🏆 Nobody wins: no side is left standing. The fight is decided"
        finish = f"; `/coupdegrace` may still finish {', '.join(e.helpless[:10])}" if e.helpless else ""
        return f"🏆 **{e.side}** win: no other side has anyone able to act. The fight is decided{finish}"

    def turn_passed(self, e: TurnPassed) -> str:
        return f"**{e.actor}** is passed by the GM: it loses its coming turn this round"

    def finished(self, e: Finished) -> str:
        return f"**{e.actor}** finishes **{e.target}** with a coup de grâce: **{e.target}** is out of the fight"

    def turn_done(self, e: TurnDone) -> str:
        return f"**{e.actor}** has nothing left to do: the turn ends by itself (option `auto_end=no` turns this off)"

    def checked(self, e: Checked) -> str:
        what = self.checks.get(e.what, e.what)
        return f"**{e.actor}** {what}: {self.roll_text(e.roll)}"

    #: how each moment an effect counts down at is written
    ENDS: ClassVar[dict[str, str]] = {
        "turn_start": "the start of {of}'s turn",
        "turn_end": "the end of {of}'s turn",
        "round_end": "the end of the round",
        "phase_end": "the end of the phase",
    }

    def effect_ends(self, ends: str, of: str | None, left: int) -> str:
        """``until the end of Grak's turn, 3 times``: when an effect runs out."""
        when = self.ENDS[ends].format(of=of or "its target")
        return f"until {when}" + (f" ({left} times)" if left > 1 else "")

    def effect_changes(self, target: str | None, mods: dict[str, Any]) -> str:
        """`` (attack +1, defence +1)``: what an effect changes; `` (attack ±?)`` where this view
        hides the target's numbers."""
        if not mods:
            return ""
        shown = {k: (v if self.shown(target) and not secret(v) else SECRET) for k, v in mods.items()}
        return f" ({mods_text(shown)})"

    def changes_note(self, found: Sequence[Modifier]) -> str:
        """`` (+1 Bless)``: the changes the running effects make to a value (``found``, from the facts:
        `rules.facts.effect_changes`), after the value on a combatant's own line (which only views
        that show its numbers draw); nothing where there are none."""
        return f" ({', '.join(f'{signed(m.value)} {self.term(m)}' for m in found)})" if found else ""

    def effect_lines(self, enc: "Encounter") -> list[str]:
        """One line per running effect: ``Bless on Grak (attack +1), until the end of Grak's turn (2 times)``."""
        return [
            f"{e.name}" + (f" on {e.target}" if e.target else "") + self.effect_changes(e.target, e.mods) + ", "
            + self.effect_ends(e.ends, e.of or e.target, e.left)
            for e in enc.effects
        ]

    def effect_added(self, e: EffectAdded) -> str:
        on = f" on **{e.actor}**" if e.actor else ""
        changes = self.effect_changes(e.actor, e.mods)
        return f"Effect **{e.name}**{on}{changes} {self.effect_ends(e.ends, e.of or e.actor, e.left)}"

    def effect_ended(self, e: EffectEnded) -> str:
        on = f" on **{e.actor}**" if e.actor else ""
        return f"Effect **{e.name}**{on} " + ("removed" if e.removed else "ends")

    # -- reports -----------------------------------------------------------------------------------
    def colour(self, events: Sequence[Event]) -> int:
        hits: list[bool | None] = []
        for e in events:
            if isinstance(e, Victory):
                return COLOURS["good"]
            if isinstance(e, Attacked):
                hits.append(e.roll.success)
        if hits:
            return COLOURS["hit"] if any(hits) else COLOURS["miss"]
        return COLOURS["info"]

    def report(self, title: str, events: Sequence[Event]) -> Report:
        """The report of one command's events, each line marked where it hides numbers (`marked`)."""
        return Report(title=title, lines=[t for t in self.lines(events) if t], colour=self.colour(events))

    def lines(self, events: Sequence[Event]) -> Iterator[str]:
        """The marked lines of ``events``, one an event (a system may word some events together)."""
        return (self.marked(e) for e in events)

    def prompt(self, q: Question) -> Prompt:
        """The words of a question the system's rules ask a player (`RuleSystem.question`): a system
        whose rules ask one words it here."""
        raise NotImplementedError(f"{type(self).__name__} has no words for the question {q.kind!r}")

    @staticmethod
    def worded(q: Question, title: str, lines: list[str], labels: Sequence[str], waiting: str, lapse: str) -> Prompt:
        """The prompt of ``q`` in these words: ``labels`` name its answers, in order."""
        return Prompt(user_id=q.user_id, tag=q.tag, actor=q.actor, action=q.action, title=title, lines=lines,
                      choices=list(zip(labels, q.answers, strict=True)), waiting=waiting, lapse=lapse)

    def status_line(self, enc: "Encounter", c: "Combatant", facts: F) -> str:
        """One combatant's line on the board: name, place, health, initiative, status."""
        bits = [f"**{c.name}**"]
        if c.position:
            bits.append(c.position + (f" {c.facing}" if c.facing else ""))
        if c.hp is not None:
            bits.append(f"{c.hp} HP")
        if c.initiative is not None:
            bits.append(f"init {c.initiative}")
        if c.status != "active":
            bits.append(c.status)
        return " · ".join(bits)

    def order_lines(self, enc: "Encounter", facts: F) -> list[str]:
        """`/init order`: one numbered line per combatant in order, the ones acting now marked."""
        turn = facts.turn
        lines = []
        for i, name in enumerate(enc.order, 1):
            c = enc.find(name)
            if c is None:
                continue
            here = "▶️ " if name in turn.actors else ""
            init = f" ({c.initiative})" if c.initiative is not None and self.initiative_shown(c) else ""
            note = self.order_note(c, facts)
            lines.append(f"{here}{i}. **{c.name}**{init} · {c.side}" + (f" · {note}" if note else ""))
        return lines

    def initiative_shown(self, c: "Combatant") -> bool:
        """May this view show ``c``'s initiative? (where its numbers are shown; a system whose initiative
        can tell another's says when not)"""
        return self.shown(c.name)

    def order_note(self, c: Combatant, facts: F) -> str:
        """What `/init order` adds after a combatant's side: its status, where it is not active."""
        return c.status if c.status != "active" else ""

    def turn_label(self, enc: "Encounter", facts: F) -> str:
        """The line that says whose turn it is (on the board, `/init order` and the turn's ping),
        made from the facts (``facts.turn`` above all) and the encounter's state: nothing is
        worked out here. A system's presenter says it in its own words; this is the plain one."""
        turn = facts.turn
        who = ", ".join(turn.actors[:10])
        if who or not turn.gm:
            return f"Round {enc.round} · {who} to act" if who else ""
        if turn.phase == "idle":  # `rules.turns.ordered.turn`: nobody takes turns at all
            return f"Round {enc.round} · nobody is left to take a turn: {NOBODY_LEFT}"
        if turn.over:  # `rules.turns.ordered.turn`: nobody active is left to take a turn
            return f"Round {enc.round} · nobody can act: the GM's `/init next` lets the round pass"
        return f"Round {enc.round} · nobody is acting: the GM's `/init next` gives the next turn"

    def hidden_turn(self, enc: "Encounter", c: "Combatant", line: str) -> str:
        """``line`` (``c``'s turn line), marked where ``c`` is hidden: what it has left of its turn tells
        its movement even in words, so players read whose turn it is."""
        return mark([c.name], line, f"Round {enc.round} · {c.name} to act") if enc.hidden(c) else line

    def turn_line(self, enc: "Encounter", facts: F) -> str:
        """`turn_label`, marked where it gives a hidden combatant's numbers (`rules.hidden.turn_line`)."""
        return turn_line(enc, self.turn_label(enc, facts), facts.turn.actors)

    def board_extra(self, enc: "Encounter", facts: F) -> list[str]:
        """Lines the system adds under the board's head (engagements, distances...)."""
        return []

    @staticmethod
    def over_line(enc: "Encounter") -> str:
        """The line of a decided fight: ``🏆 Over: **heroes** won.``"""
        return f"🏆 Over: **{enc.winner}** won."

    def board(self, enc: "Encounter", facts: F) -> Report:
        """The status board: round, whose turn, and one line per combatant."""
        title = f"⚔️ {enc.name} · {self.system.title}"
        lines: list[str] = []
        if enc.winner:
            lines.append(self.over_line(enc))
        elif not enc.started:
            lines.append("Setting up: add combatants, then the GM uses `/init roll`.")
        else:
            lines.append(f"Round **{enc.round}**" + (f" · {enc.phase}" if enc.phase else ""))
            lines.append(self.readable(self.turn_line(enc, facts)))
        rows: dict[str, list[str]] = {}  # by side, in the order of `Encounter.sides`
        for c in enc.combatants:
            rows.setdefault(c.side, []).append(self.line(enc, c, facts))
        fields = [(side or "no side", "\n".join(side_rows)) for side, side_rows in rows.items()]
        lines.extend(self.board_extra(enc, facts))
        if enc.effects and not enc.winner:
            lines.append("✨ Effects: " + joined(self.effect_lines(enc), 900, "(`/effect list` shows all)"))
        if enc.gm_edits and not enc.winner:
            lines.append("🛠️ GM changes: " + "; ".join(self.readable(note) for note in enc.gm_edits))
        return Report(title=title, lines=lines, fields=fields, colour=COLOURS["turn"])
