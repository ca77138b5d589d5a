"""The `/act` actions of the open system, declared once, and their handlers."""
from __future__ import annotations

from rules.actions import Act, ActionContext, ActionSpec, ActionTable
from rules.effects import Effect, Ends, next_id
from rules.errors import IllegalAction, NotAllowed
from rules.events import EffectAdded, EffectEnded, Event
from rules.models import Combatant, Encounter
from rules.options import OptionSet, choice_option, flag_word, name_word
from rules.systems.open import sheet
from rules.systems.open.attacks import check_turn, strike
from rules.systems.open.conditions import has
from rules.systems.open.events import OpportunityDeclined, StoodUp
from rules.systems.open.movement import fall, walk
from rules.systems.open.state import OpenCombatant, OpenEncounter
from rules.systems.open.turns import (
    DASH,
    DISENGAGE,
    acting,
    death_save,
    feet_left,
    saving,
    speed_now,
)

__all__ = ["ACTIONS", "ANSWER"]

#: the `/act` action that answers an opportunity attack's question
ANSWER = "opportunity"


def _my_turn(enc: Encounter, c: Combatant | None) -> bool:
    return c is not None and enc.current == c.name and not OpenCombatant.of(c).acted


def _use_action(ctx: ActionContext, action: Act) -> Combatant:
    c = acting(ctx.encounter, action.actor)
    check_turn(ctx.encounter, c).acted = True
    return c


def _effect(enc: Encounter, c: Combatant, name: str, code: str, ends: Ends) -> list[Event]:
    """The action's effect on ``c``, kept on the encounter as the event says: the board lists it, the rules
    read it by its ``code``, and it ends at ``ends`` of its turn. One of the same name on ``c`` (a GM's, say)
    ends first, and the reply tells its end before the new one begins."""
    old = [e for e in enc.effects if e.target == c.name and e.name.casefold() == name]
    enc.effects = [e for e in enc.effects if e not in old]
    enc.effects.append(Effect(id=next_id(enc.effects), name=name, target=c.name, ends=ends, left=1, code=code,
                              source=c.name))
    return [*(EffectEnded(actor=c.name, name=e.name) for e in old), EffectAdded(actor=c.name, name=name, ends=ends, left=1)]


def _dash(ctx: ActionContext, action: Act) -> list[Event]:
    """Movement again, as much as its speed this turn (`turns.feet_left` reads the effect)."""
    return _effect(ctx.encounter, _use_action(ctx, action), "dash", DASH, "turn_end")


def _disengage(ctx: ActionContext, action: Act) -> list[Event]:
    """Its moves provoke no opportunity attacks this turn (`movement.provokers` reads the effect)."""
    return _effect(ctx.encounter, _use_action(ctx, action), "disengage", DISENGAGE, "turn_end")


def _dodge(ctx: ActionContext, action: Act) -> list[Event]:
    return _effect(ctx.encounter, _use_action(ctx, action), "dodging", "dodge", "turn_start")


def _stand(ctx: ActionContext, action: Act) -> list[Event]:
    """Standing up from prone costs half its speed (its speed now, effects included)."""
    enc = ctx.encounter
    c = acting(enc, action.actor)
    if saving(enc, c):
        raise IllegalAction(f"{c.name} is dying and cannot stand: `/act action:death-save` rolls its death save, or end "
                            "the turn with `/init next` and the bot rolls it.")
    prone = [e for e in enc.effects if e.target == c.name and e.name.casefold() == "prone"]
    if not prone:
        raise IllegalAction(f"{c.name} is not prone, so it has nothing to stand up from: move or act instead.")
    st, half, left = OpenCombatant.of(c), speed_now(enc, c) // 2, feet_left(enc, c)
    if has(enc, c, "speed_zero"):
        then = "Act, or end the turn" if not st.acted and not has(enc, c, "incapacitated") else "End the turn"
        raise IllegalAction(f"{c.name} cannot stand up: a condition holds it at speed 0. {then} with `/init next`.")
    if left < half:
        raise IllegalAction(f"Standing up costs {half} ft of movement and {c.name} has {left} ft left: stand up next "
                            "turn, or crawl.")
    st.feet_spent += half
    enc.effects = [e for e in enc.effects if e not in prone]
    return [EffectEnded(actor=c.name, name=prone[0].name, removed=True), StoodUp(actor=c.name, cost=half, left=left - half)]


def _opportunity(ctx: ActionContext, action: Act) -> list[Event]:
    """The answer to an opportunity attack offered: ``yes`` strikes, ``no`` lets the mover go; the move goes on,
    asking those not yet asked about the step (the deadline's answer answers them all: `movement.walk`)."""
    enc, opts, words = ctx.encounter, ctx.options, ctx.words
    st = OpenEncounter.of(enc)
    waiting = st.waiting
    if waiting is None:
        raise IllegalAction("No opportunity attack waits for an answer: nothing was changed.")
    if words["tag"] and words["tag"] != waiting.tag:
        raise IllegalAction(f"`tag={words['tag'][:20]}` names no question waiting (answered, taken back or mistyped): "
                            f"answer the one waiting, {waiting.attacker}'s, with `options:\"yes\"` (strike) or "
                            "`options:\"no\"` (let it go). Nothing was changed.")
    attacker, mover = enc.get(waiting.attacker), enc.get(waiting.mover)
    if action.actor and enc.get(action.actor) is not attacker:
        if not action.is_gm and action.user_id != attacker.owner_id:
            raise NotAllowed(f"The question is {attacker.name}'s: only its owner or the GM can answer it.")
        raise NotAllowed(f"The question is {attacker.name}'s: answer with `combatant:{attacker.name}`.")
    if words["deadline"] and not action.is_gm:
        raise NotAllowed("`deadline` is the answer the turn's deadline gives: answer with `options:\"yes\"` (strike) "
                         "or `options:\"no\"` (let it go).")
    if words["choice"] is None:
        raise IllegalAction("Answer with `options:\"yes\"` (strike) or `options:\"no\"` (let it go).")
    st.waiting = None
    grid = ctx.need_grid()
    events: list[Event] = []
    stand = grid.parse(waiting.stand or waiting.at)
    if words["choice"] == "yes":
        OpenCombatant.of(attacker).reacted = True
        events += strike(enc, opts, grid, attacker, mover, sheet.weapon(attacker, None, melee_only=True),
                         ctx.dice, [], [], opportunity=True)
        if mover.status != "active":
            events += fall(enc, mover, stand)
    else:
        events.append(OpportunityDeclined(actor=attacker.name, mover=mover.name, lapsed=bool(words["deadline"])))
    if mover.status == "active" and waiting.rest:
        events += walk(enc, opts, grid, mover, [grid.parse(x) for x in waiting.rest], ctx.dice,
                       skip={*waiting.answered, attacker.name}, lapsed=bool(words["deadline"]), stand=stand)
    return events


def _death_save(ctx: ActionContext, action: Act) -> list[Event]:
    """A dying combatant's death save at the start of its turn, its owner's d20 if typed with `roll:`."""
    enc = ctx.encounter
    c = acting(enc, action.actor)
    if not saving(enc, c):
        raise IllegalAction(f"{c.name} has no death save to roll: a player's combatant down at 0 HP rolls one as its "
                            "turn begins. Attack, move, or end the turn with `/init next`.")
    return death_save(enc, c, ctx.dice)


ACTIONS = ActionTable(
    ActionSpec("dash", "your action: as much movement again as your speed this turn", cost="action",
               legal=_my_turn, handler=_dash),
    ActionSpec("disengage", "your action: your moves provoke no opportunity attacks this turn", cost="action",
               legal=_my_turn, handler=_disengage),
    ActionSpec("dodge", "your action: attacks against you have disadvantage until your next turn", cost="action",
               legal=_my_turn, handler=_dodge),
    ActionSpec("stand", "stand up from prone for half your speed", cost="half your speed",
               legal=lambda enc, c: c is not None and enc.current == c.name, handler=_stand),
    ActionSpec("death-save", "at the start of its turn, a dying combatant's death save (`roll:` your own d20; ending "
               "the turn rolls it for you)", legal=lambda enc, c: c is not None and saving(enc, c), handler=_death_save),
    ActionSpec(
        ANSWER,
        "answer the opportunity attack offered to you (the buttons send it): strike the mover, or let it go",
        words=OptionSet(
            choice_option("choice", ("yes", "no"), "`yes`: strike; `no`: let it go", bare=True),
            name_word("tag", "the question answered (the buttons fill it in)"),
            flag_word("deadline", "the turn's deadline answered", internal=True),
        ),
        legal=lambda enc, c: c is not None and (w := OpenEncounter.of(enc).waiting) is not None and w.attacker == c.name,
        handler=_opportunity,
    ),
)
