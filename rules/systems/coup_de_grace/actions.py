"""Coup-De-Grace's `/act` actions: the dramatic recovery and spells cast from Mage Foci."""
from __future__ import annotations

from rules.actions import Act, ActionContext, ActionSpec, ActionTable
from rules.errors import IllegalAction, InputError
from rules.events import Checked, Event, Roll, Term
from rules.models import Combatant, Encounter
from rules.options import OptionSet, name_word
from rules.report import plural
from rules.systems.coup_de_grace.attacks import set_hp
from rules.systems.coup_de_grace.events import Cast
from rules.systems.coup_de_grace.movement import (
    clear_line,
    cost_here,
    range_between,
    spend,
)
from rules.systems.coup_de_grace.options import Spell, values
from rules.systems.coup_de_grace.sheet import square_of
from rules.systems.coup_de_grace.tables import normalise_weapon
from rules.systems.coup_de_grace.turns import activate, finish, refuse_if_out

__all__ = ["ACTIONS", "recover", "cast"]


def recover(ctx: ActionContext, action: Act) -> list[Event]:
    """A downed mini's dramatic recovery: a d6 of ``recover_on`` or more stands it up with 1 HP."""
    enc, grid, dice = ctx.encounter, ctx.need_grid(), ctx.dice
    c = enc.get(action.actor)
    refuse_if_out(c)
    if c.status != "downed":
        raise IllegalAction(f"{c.name} is not downed: only a downed mini (0 HP) attempts a dramatic recovery.")
    facing = grid.parse_facing(action.facing) if action.facing else None
    need = values(enc).recover_on
    events = activate(enc, c)
    with dice.rolling_for(c.name):
        roll = dice.die(6)
    ok = roll >= need
    result = Roll(dice=[roll], label="d6", total=roll, against=need, versus=Term(code="recovery"), success=ok)
    events.append(Checked(actor=c.name, what="recover", roll=result))
    if ok:
        events += set_hp(enc, c, 1, facing)
    return events + finish(enc, c, dice)


def _spell(enc: Encounter, asked: str | None) -> Spell:
    known: dict[str, Spell] = values(enc).spells
    if not known:
        raise IllegalAction("No spells are known in this encounter: the GM lists them with the `spells` option.")
    spell = known.get(normalise_weapon(asked or ""))
    if spell is None:
        raise InputError(f"Say which spell: `options:spell=NAME`, one of {', '.join(known)}.")
    return spell


def cast(ctx: ActionContext, action: Act) -> list[Event]:
    """A spell from a Mage Focus: it costs its MP ("If no cost is stated, assume ZERO movement
    cost"), doubled next to enemies like every MP cost; a spell with a range needs a target in
    range and in sight. The text gives no effects: the GM rules on what it does."""
    enc, grid = ctx.encounter, ctx.need_grid()
    c = enc.get(action.actor)
    if c.status != "active":
        raise IllegalAction(f"{c.name} is {c.status}: only a standing mini casts a spell.")
    events = activate(enc, c)
    spell = _spell(enc, ctx.words["spell"])
    target: Combatant | None = enc.get(action.target, "target") if action.target else None
    if spell.range is not None and target is None:
        raise InputError(f"{spell.name} reaches {plural(spell.range, 'square')}: say at whom with `target:NAME`.")
    distance = None
    if target is not None:
        a, b = square_of(c), square_of(target)
        distance = range_between(enc, grid, a, b)
        if spell.range is not None and (distance is None or distance > spell.range):
            raise IllegalAction(f"{target.name} is out of range: {spell.name} reaches {plural(spell.range, 'square')}.")
        if target is not c and not clear_line(enc, grid, a, b, enc.occupied(exclude=c) - {b}):
            raise IllegalAction(f"{c.name} has no line of sight to {target.name}: a mini or an obstacle is in the way.")
    cost, why = cost_here(enc, grid, c, spell.cost)
    left = spend(c, cost, f"cast {spell.name}", why)
    events.append(
        Cast(
            actor=c.name, spell=spell.name, cost=cost, left=left,
            target=target.name if target else None, range=distance if target else None,
        )
    )
    return events


def _downed(enc: Encounter, c: Combatant | None) -> bool:
    return c is None or c.status == "downed"


def _can_cast(enc: Encounter, c: Combatant | None) -> bool:
    return bool(values(enc).spells) and (c is None or c.status == "active")


ACTIONS = ActionTable(
    ActionSpec(
        "recover",
        "a downed mini's dramatic recovery: a d6 of `recover_on` (5) or more stands it up with 1 HP; "
        "its one action while downed",
        target=False,
        legal=_downed,
        handler=recover,
    ),
    ActionSpec(
        "cast",
        "cast a spell from a Mage Focus (the GM lists spells with the `spells` option): it costs the "
        "spell's MP (none stated: 0), needs a target in range and sight when the spell has a range; "
        "the GM rules on its effect",
        cost="the spell's MP",
        target=True,
        words=OptionSet(name_word("spell", "the spell to cast", bare=True)),
        legal=_can_cast,
        handler=cast,
    ),
)
