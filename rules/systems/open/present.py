"""Every sentence the open system shows: its events, its status lines and its board."""
from __future__ import annotations

from typing import Any, ClassVar

from rules.events import StatusChanged
from rules.facts import Question
from rules.hidden import secret
from rules.models import Combatant, Encounter
from rules.present import Presenter, Prompt, by_hand, changed_by
from rules.report import user_ref
from rules.systems.open.events import (
    AreaStruck,
    DeathSave,
    DeathSaveDue,
    FellBack,
    Harmed,
    OpenAttack,
    OpenInitiative,
    OpenRound,
    OpportunityDeclined,
    OpportunityOffered,
    Ranked,
    RolledOff,
    Saved,
    StillDying,
    StoodUp,
    TurnBegan,
)
from rules.systems.open.facts import OpenFacts, OpportunityQuestion
from rules.systems.open.sheet import SHEET_KEYS
from rules.systems.open.state import OpenCombatant, OpenEncounter
from rules.text import die_text

__all__ = ["OpenPresenter", "sheet_summary"]

ABILITY_NAMES = {"str": "Strength", "dex": "Dexterity", "con": "Constitution", "int": "Intelligence",
                 "wis": "Wisdom", "cha": "Charisma"}


def _shown_ties(e: OpenRound) -> list[RolledOff]:
    """The roll-off d20s of those whose initiative is shown and tied with another shown one: a tie
    with a hidden combatant would tell its number."""
    shown = {r.name: r.initiative for r in e.order if not secret(r.initiative)}
    return [t for t in e.rolled_off if t.name in shown
            and any(o.name != t.name and shown.get(o.name) == shown[t.name] for o in e.rolled_off)]


def roll_off_text(tied: list[RolledOff]) -> str:
    """``a roll-off: Borin 🎲 14, Alda 🎲 9✍``, naming those whose equal dice keep the order they joined
    (``a roll-off among Borin, Alda`` in a log written before the dice were kept)."""
    def who(t: RolledOff) -> str:
        return f"the {t.shared} group" if t.shared else t.name

    if any(t.die is None for t in tied):
        return "a roll-off among " + ", ".join(who(t) for t in tied)
    dice = ", ".join(f"{who(t)} 🎲 {die_text(t.die or 0, t.typed)}" for t in tied)
    alike = [who(t) for t in tied if any(o is not t and (o.group, o.die) == (t.group, t.die) for o in tied)]
    return f"a roll-off: {dice}" + (f" (equal dice keep the order they joined: {', '.join(alike)})" if alike else "")


def order_text(order: list[Ranked]) -> str:
    """``Alda 17, Grak, Borin 12``: a hidden combatant's initiative is left out."""
    return ", ".join(r.name if secret(r.initiative) else f"{r.name} {r.initiative}" for r in order)


def sheet_summary(c: Combatant) -> str:
    """The sheet as replies show it: ``hp=7 max_hp=12 ac=15 ... weapons=longsword:+5:1d8+3:slashing``."""

    def show(v: Any) -> str:
        if isinstance(v, list):
            return ",".join(v)
        return str(v)

    defaults = {k.name: k.default for k in SHEET_KEYS}
    parts = [f"hp={c.hp}"] if c.hp is not None else []
    parts += [f"{k}={show(v)}" for k, v in c.sheet.items()
              if not (k == "hp" and c.hp is not None) and v != defaults.get(k) and v not in ([], {})]
    return " ".join(parts)


def left_words(left: int, acted: bool) -> str:
    """``30 ft and action left``: the feet of movement left and whether the action is."""
    parts = [f"{left} ft"] if left else []
    parts += [] if acted else ["action"]
    return (" and ".join(parts) + " left") if parts else "movement and action used"


class OpenPresenter(Presenter[OpenFacts]):

    #: the words of the terms its rules name (`rules.present.Presenter.terms`): what a roll is against,
    #: its modifiers (a weapon's bonus, an ability's modifier, cover) and what gave an attack advantage
    #: or disadvantage (`events.OpenAttack.reasons`)
    terms: ClassVar[dict[str, str]] = {
        "AC": "AC", "DC": "DC", "weapon": "{0}", "ability": "{0}", "cover": "{0} cover",
        "adv_asked": "adv asked", "dis_asked": "dis asked", "long_range": "long range",
        "hostile_near": "a hostile within 5 ft", "condition": "{0}", "target_condition": "{0} {1}",
    }
    formats: ClassVar[dict[type, str]] = {
        OpenInitiative: "open_initiative",
        OpenRound: "open_round",
        TurnBegan: "turn_began",
        OpenAttack: "open_attack",
        Harmed: "harmed",
        Saved: "saved",
        AreaStruck: "area_struck",
        DeathSave: "death_save",
        StoodUp: "stood_up",
        FellBack: "fell_back",
        StillDying: "still_dying",
        DeathSaveDue: "death_save_due",
        OpportunityOffered: "opportunity_offered",
        OpportunityDeclined: "opportunity_declined",
    }
    causes: ClassVar[dict[str, str]] = {
        "zero_hp": "0 HP",
        "death_saves": "0 HP: it makes a death save at the start of each of its turns",
        "helpless": "0 HP: helpless until healed",
        "failed_save": "hurt while down: a failed death save",
        "failed_saves": "a critical hit while down: two failed death saves",
        "harmed_down": "hurt while down",
        "massive_damage": "massive damage: what was left over at 0 HP reached its hit point maximum, so it dies "
                          "outright",
        "revived": "a natural 20 on its death save: back up with 1 HP",
        "gm_hp": f"HP set by {changed_by(True)}",
        "player_hp": f"HP set by {changed_by(False)}",
    }

    # -- turns ----------------------------------------------------------------------------------
    def open_initiative(self, e: OpenInitiative) -> str:
        if secret(e.value):
            return f"**{e.actor}** has its initiative (the GM keeps the number)"
        shown = [t for t in e.rolled_off if not secret(t.die)]  # a tie with a hidden combatant would tell its number
        tie = f"; tied with others: {roll_off_text(shown)}" if len(shown) > 1 else ""
        if e.by_gm:
            return f"**{e.actor}** initiative **{e.value}**: set by the GM{tie}"
        shared = f", sharing the roll of the {e.group} group" if e.group else ""
        roll = f" ({self.roll_text(e.roll)})" if e.roll is not None and e.roll.dice and not shared else ""
        return f"**{e.actor}** initiative **{e.value}**{roll}{shared}{tie}"

    def open_round(self, e: OpenRound) -> str:
        tied = _shown_ties(e)
        tie = f"; ties settled by {roll_off_text(tied)}" if tied else ""
        return f"**Round {e.round}** begins: order {order_text(e.order)}{tie}"

    def turn_began(self, e: TurnBegan) -> str:
        if e.held:  # a condition takes its actions: nothing to do but end the turn
            return f"**{e.actor}**'s turn: it cannot act ({', '.join(e.held)}): `/init next` ends the turn"
        if secret(e.speed):
            return f"**{e.actor}** to act: movement and one action"
        return f"**{e.actor}** to act: {e.speed} ft of movement and one action"

    # -- attacks --------------------------------------------------------------------------------
    def open_attack(self, e: OpenAttack) -> str:
        what = "Coup de grâce" if e.coup else "Opportunity attack" if e.opportunity else None
        head = f"**{e.actor}** attacks **{e.target}** with the {e.weapon}"
        head = f"{what}: {head}" if what else head
        mode = {"advantage": "advantage", "disadvantage": "disadvantage", "cancel": "advantage and disadvantage cancel"}
        reasons = ", ".join(self.term(r) for r in e.reasons)
        notes = [mode[e.mode] + (f" ({reasons})" if reasons else "")] if e.mode else []
        notes += [f"{e.cover} cover"] if e.cover else []
        outcome = ("**critical hit**" if e.critical else "**hit**") if e.roll.success else "**miss**"
        extra = f" [{'; '.join(notes)}]" if notes else ""
        return f"{head}{extra}: {self.roll_text(e.roll, outcome)}"

    def harmed(self, e: Harmed) -> str:
        why = {"immune": "immune", "resist": "resistant: half", "vulnerable": "vulnerable: double", "save": "saved: half"}
        roll = e.roll if e.roll is not None and not secret(e.roll.total) else None  # a hidden attacker's: not shown
        notes = [self.roll_text(roll)] if roll is not None else []
        notes += [why[w] for w in e.why if not secret(w)]
        if e.temp and not secret(e.temp):
            notes.append(f"{e.temp} taken by temporary HP")
        if secret(e.amount):  # a hidden target: the dice rolled, never what it made of them
            rolled = f" of {e.rolled} rolled" if e.rolled and not secret(e.rolled) else ""
            if roll is not None and e.rolled and not secret(e.rolled) and e.rolled != roll.total:  # its save, said aloud
                rolled = f" of {e.rolled}"
                notes.append("halved by the save")
        else:
            rolled = f" of {e.rolled}" if e.why and not secret(e.rolled) and e.rolled != e.amount else ""
        kind = f" {e.damage_type}" if e.damage_type else ""
        if rolled and not secret(e.amount) and e.amount > e.rolled:  # doubled: more than was rolled, not a part of it
            taken = f"**{e.amount}**{kind} damage from {e.rolled} rolled"
        else:
            taken = f"**{e.amount}**{rolled}{kind} damage"
        note = f" ({'; '.join(notes)})" if notes else ""
        line = f"**{e.actor}** takes {taken}{note}{self.health_change(e.actor, e.before, e.after, ' HP')}"
        return line if e.source is not None else by_hand(True, line)  # no source: the GM's `/combatant hp`, mid-fight

    def saved(self, e: Saved) -> str:
        name = ABILITY_NAMES.get(e.ability, e.ability)
        if e.automatic:
            return f"**{e.actor}** fails the {name} save against **{e.source}** at once (it cannot move to avoid it)"
        mode = f" [{e.mode}]" if e.mode else ""
        outcome = "saves" if e.roll.success else "fails"
        return f"**{e.actor}** {name} save against **{e.source}**{mode}: {self.roll_text(e.roll, outcome)}"

    def area_struck(self, e: AreaStruck) -> str:
        where = f" at {e.at}" if e.at else ""
        shape = f": a {e.size} ft {e.shape}{where} ({e.cells} cells)" if e.shape else f" at {e.caught[0]}" if e.caught else ""
        caught = ", ".join(e.caught) if e.caught else "nobody"
        return f"**{e.actor}** uses the {e.weapon}{shape}; caught: {caught}"

    def status_changed(self, e: StatusChanged) -> str:
        if e.status == "out" and e.cause == "death_saves":  # the third failure, not the fall that began the saves
            return f"**{e.actor}** is now **out**: dead after three failed death saves"
        if e.cause == "massive_damage" and self.hidden(e.actor):  # why would tell its hit point maximum
            return f"**{e.actor}** is now **{e.status}**"
        return super().status_changed(e)

    def stood_up(self, e: StoodUp) -> str:
        return f"**{e.actor}** stands up for {e.cost} ft of movement ({e.left} ft left)"

    def still_dying(self, e: StillDying) -> str:
        who, them = ", ".join(f"**{n}**" for n in e.names[:10]), "them" if len(e.names) > 1 else "it"
        more = f" and {len(e.names) - 10} more" if len(e.names) > 10 else ""
        return (f"{who}{more} {'are' if len(e.names) > 1 else 'is'} still dying: no more death saves are rolled; the GM "
                f"settles {them} with `/combatant hp` (healing) or `/combatant edit`")

    def fell_back(self, e: FellBack) -> str:
        return f"**{e.actor}** falls on {e.to}, the last cell of its path it could stop on ({e.at} is **{e.holder}**'s)"

    def death_save(self, e: DeathSave) -> str:
        result = {
            "made": "a success", "failed": "a failure", "stable": "three successes: stable",
            "dead": "three failures: it dies", "revived": "a natural 20: back up with 1 HP",
        }[e.result]
        if e.result == "failed" and e.roll.dice[:1] == [1]:
            result = "a natural 1: two failures"
        tally = f" ({e.made} success{'es' if e.made != 1 else ''}, {e.failed} failure{'s' if e.failed != 1 else ''})"
        return f"**{e.actor}** death save: {self.roll_text(e.roll, result)}{tally if e.result in ('made', 'failed') else ''}"

    def death_save_due(self, e: DeathSaveDue) -> str:
        return (f"**{e.actor}** is dying: `/act action:death-save` rolls its death save (add `roll:` to type your own "
                "d20); ending the turn rolls it")

    def opportunity_offered(self, e: OpportunityOffered) -> str:
        until = "the turn's deadline answers no" if e.deadline else "no turn deadline: meanwhile a GM can answer for them"
        return (f"**{e.mover}** leaves **{e.actor}**'s reach at {e.at}: {user_ref(e.owner)} may take an opportunity "
                f"attack (the buttons sent to them; {until}). The move waits.")

    def opportunity_declined(self, e: OpportunityDeclined) -> str:
        why = "the deadline passed" if e.lapsed else "declined"
        return f"**{e.actor}** lets **{e.mover}** go ({why})"

    # -- the question an opportunity attack asks a player -----------------------------------------
    #: the buttons' words, by answer
    ANSWER_LABELS: ClassVar[dict[str, str]] = {"yes": "Strike", "no": "Let it go"}

    def prompt(self, q: Question) -> Prompt:
        assert isinstance(q, OpportunityQuestion), f"the open system asks no {q.kind!r} question"
        lines = [f"**{q.mover}** is leaving **{q.attacker}**'s reach at {q.at}: take an opportunity attack with "
                 "your reaction?",
                 "The move waits for your answer; the turn's deadline answers no." if q.deadline_hours > 0 else
                 "The move waits for your answer (there is no turn deadline: meanwhile a GM can answer for you or take "
                 "the move back with `/undo`)."]
        return self.worded(q, f"⚔️ {q.attacker}: opportunity attack?", lines, [self.ANSWER_LABELS[a] for a in q.answers],
                           waiting=f"{q.mover}'s move", lapse="no opportunity attack")

    # -- the board ----------------------------------------------------------------------------------
    def status_line(self, enc: Encounter, c: Combatant, facts: OpenFacts) -> str:
        st = OpenCombatant.of(c)
        bits = [f"**{c.name}**"]
        if c.position:
            bits.append(c.position)
        hp = f"{c.hp}/{facts.max_hp[c.name]} HP"
        temp = facts.temp_hp.get(c.name, 0)
        bits.append(hp + (f" +{temp} temp" if temp else ""))
        bits.append(f"AC {facts.ac[c.name]}{self.changes_note(facts.ac_changes.get(c.name, ()))}")
        if c.initiative is not None:
            bits.append(f"init {c.initiative}")
        shown = [k for k in facts.conditions.get(c.name, ()) if not (k == "unconscious" and c.status == "downed")]
        if shown:
            bits.append(", ".join(shown))
        if c.status == "downed":
            saves = f" (saves {st.saves_made}✓ {st.saves_failed}✗)" if not st.stable else " (stable)"
            bits.append("down" + (saves if c.name in facts.players else ""))
        elif c.status != "active":
            bits.append(c.status)
        elif facts.turn.current == c.name and facts.turn.points:
            bits.append(self._held(c, facts) or "▶ " + left_words(facts.turn.points[0], st.acted))
        return " · ".join(bits)

    @staticmethod
    def _held(c: Combatant, facts: OpenFacts) -> str:
        """``▶ cannot act``: in its turn, a condition takes ``c``'s actions (else empty)."""
        acting = c.status == "active" and facts.turn.current == c.name and facts.turn.points
        return "▶ cannot act" if acting and facts.held.get(c.name) else ""

    def public_notes(self, enc: Encounter, c: Combatant, facts: OpenFacts) -> list[str]:
        """A hidden combatant's line, too, says that it cannot act in its turn, as the turn line and the effects line
        (its condition) tell everyone."""
        held = self._held(c, facts)
        return [held] if held else []

    def board_extra(self, enc: Encounter, facts: OpenFacts) -> list[str]:
        lines = []
        waiting = OpenEncounter.of(enc).waiting
        if waiting is not None:
            lines.append(f"⏳ {waiting.mover} waits at {waiting.at}: {waiting.attacker} may take an opportunity attack")
        if enc.started and enc.order and not enc.winner:
            order = ", ".join(n if self.hidden(n) or c.initiative is None else f"{n} {c.initiative}"
                              for n in enc.order if (c := enc.find(n)))
            lines.append(f"Order: {order}")
        return lines

    def turn_label(self, enc: Encounter, facts: OpenFacts) -> str:
        turn = facts.turn
        c = enc.find(turn.current)
        if c is None:  # nobody's turn: the plain line (a turn the GM moves on)
            return super().turn_label(enc, facts)
        if not turn.points:
            return ""
        if c.status == "downed":  # its turn is its death save's
            return f"Round {enc.round} · {c.name} is dying: its death save to roll (`/act action:death-save`)"
        held = facts.held.get(c.name, ())
        if held:  # a condition takes its actions (and its movement): nothing to do but end the turn
            return f"Round {enc.round} · {c.name} cannot act ({', '.join(held)}): `/init next` ends the turn"
        line = f"Round {enc.round} · {c.name} to act: {left_words(turn.points[0], OpenCombatant.of(c).acted)}"
        return self.hidden_turn(enc, c, line)
