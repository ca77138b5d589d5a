"""The `/act` actions of Knights of Valour, declared once, and their handlers."""
from __future__ import annotations

from rules.actions import Act, ActionContext, ActionSpec, ActionTable
from rules.errors import IllegalAction, InputError, NotYourTurn, RulesError
from rules.events import Event
from rules.models import INITIATIVE_MAX, INITIATIVE_MIN, Combatant, Encounter
from rules.options import OptionSet, flag_word, int_option, name_word
from rules.systems.knights_of_valour import sheet
from rules.systems.knights_of_valour.attacks import left
from rules.systems.knights_of_valour.events import Granted, Narrated, Wielded
from rules.systems.knights_of_valour.options import OPTIONS
from rules.systems.knights_of_valour.state import KovCombatant
from rules.systems.knights_of_valour.tables import NARRATIVE
from rules.systems.knights_of_valour.turns import (
    acting,
    delay,
    delay_refusal,
    spend_combat,
)

__all__ = ["ACTIONS"]


def _my_turn(enc: Encounter, c: Combatant | None) -> bool:
    return c is not None and enc.current == c.name


def _may_delay(enc: Encounter, c: Combatant | None) -> bool:
    if c is None or not enc.started or c.status != "active":
        return False
    try:
        opts = OPTIONS.read(enc.settings.options)
    except RulesError:  # a bad option is refused when the action is taken, with its reason
        return True
    return delay_refusal(enc, opts, c) is None


def _delay(ctx: ActionContext, action: Act) -> list[Event]:
    enc, opts = ctx.encounter, ctx.options
    return delay(enc, opts, enc.get(action.actor), ctx.words, action.is_gm)


def _wield(ctx: ActionContext, action: Act) -> list[Event]:
    enc, opts = ctx.encounter, ctx.options
    c = enc.get(action.actor)
    if enc.started and c.name != enc.current:
        raise NotYourTurn(f"{c.name} changes weapons on its own turn (it is {enc.current}'s).")
    name = action.weapon or ctx.words["weapon"]
    levels = sheet.levels(c)
    weapon = sheet.weapon(opts, name) if name else None
    if weapon is None or weapon.name not in levels:
        example = next(iter(levels), "longsword")
        raise InputError(
            f"Name a weapon from the sheet to wield, like `options:\"{example}\"`: "
            f"{c.name} has {', '.join(levels) or 'none'}."
        )
    if KovCombatant.of(c).wield == weapon.name:
        raise IllegalAction(f"{c.name} already wields the {weapon.name}: nothing to change.")
    KovCombatant.of(c).wield = weapon.name
    return [Wielded(actor=c.name, weapon=weapon.name, melee=weapon.melee, level=levels[weapon.name])]


def _grant(ctx: ActionContext, action: Act) -> list[Event]:
    enc = ctx.encounter
    c = acting(enc, action.actor or enc.current)
    kinds = [k for k in ("move", "combat") if ctx.words[k]]
    if not kinds:
        raise InputError("Say what to grant: `options:\"move\"`, `options:\"combat\"` or both.")
    st = KovCombatant.of(c)
    st.granted = min(st.granted + len(kinds), 198)
    for k in kinds:
        if k == "move":
            st.move_actions += 1
            st.moves_told += 1
        else:
            st.combat_actions += 1
    return [Granted(actor=c.name, actions=kinds), left(c)]


def _narrative(ctx: ActionContext, action: Act) -> list[Event]:
    enc, opts = ctx.encounter, ctx.options
    c = acting(enc, action.actor)
    t = enc.get(action.target, "target") if action.target else None
    lost = spend_combat(enc, opts, c)
    return [Narrated(actor=c.name, action=action.action, target=t.name if t else None), left(c, lost)]


ACTIONS = ActionTable(
    ActionSpec(
        "delay",
        "lower your initiative for this round (players at the start of the round; option `delay`)",
        words=OptionSet(
            int_option("by", None, 1, 99, "lower it by N", bare=True),
            int_option("to", None, INITIATIVE_MIN, INITIATIVE_MAX, "lower it to N"),
            name_word("after", "take NAME's initiative less one, and act first of those at it (after the players there, "
                               "for a monster: players go first on a tie), so just after NAME unless others tie with NAME"),
        ),
        legal=_may_delay,
        handler=_delay,
    ),
    ActionSpec(
        "wield",
        "take up another weapon from your sheet; its P.L. then counts in your melee defence",
        cost="free",
        words=OptionSet(name_word("weapon", "the weapon", bare=True)),
        legal=lambda enc, c: c is not None and (not enc.started or _my_turn(enc, c)),
        handler=_wield,
    ),
    ActionSpec(
        "grant",
        "give the acting combatant an extra Move or Combat Action (an item, buff or spell)",
        gm_only=True,
        words=OptionSet(flag_word("move", "an extra Move Action"), flag_word("combat", "an extra Combat Action")),
        handler=_grant,
    ),
    *(
        ActionSpec(
            name,
            f"{what}: recorded for the GM to rule on (the text gives no procedure)",
            cost="Combat Action",
            target=True,
            legal=_my_turn,
            handler=_narrative,
        )
        for name, what in NARRATIVE.items()
    ),
)

