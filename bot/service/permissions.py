"""Who may do what: GM-only commands and `/act` actions, owners, the cosmetic-only rule mid-fight,
players' adds after the start, and whose dice a caller may type with `roll:`.

The GM-only `/act` actions come from the system's declared action table (`system.gm_actions`).
"""
from __future__ import annotations

import json
import random

from bot.service.cache import LiveEntry, StoredEntry
from bot.service.core import Ctx
from rules.actions import Act, Add, Edit, EffectAdd, EffectRemove
from rules.dice import Dice, parse_given
from rules.errors import (
    IllegalAction,
    InputError,
    NotAllowed,
    NotFound,
    NotYourTurn,
    RulesError,
)
from rules.models import Combatant, Encounter
from rules.registry import get_system
from rules.report import user_ref
from rules.system import Action, RuleSystem
from rules.text import possessive
from rules.turns import Turn

__all__ = [
    "COMMAND_NAMES", "GM_ONLY", "require_gm", "require_gm_of", "authorise", "acting", "default_actor",
    "dice_for", "not_gm", "stored_gm_ids",
]

COMMAND_NAMES = {
    "add": "/combatant add",
    "edit": "/combatant edit",
    "remove": "/combatant remove",
    "init_roll": "/init roll",
    "init_set": "/init set",
    "init_order": "/init order",
    "next": "/init next",
    "move": "/move",
    "attack": "/attack",
    "coupdegrace": "/coupdegrace",
    "act": "/act",
    "effect_add": "/effect add",
    "effect_remove": "/effect remove",
}
#: the commands only a GM may use (GM-only `/act` actions come from each system's action table)
GM_ONLY = {"remove", "init_roll", "init_set", "init_order"}


def require_gm(enc: Encounter, ctx: Ctx, what: str = "do that") -> None:
    """Refuse unless the caller is a GM of ``enc``, naming a GM to ask."""
    if not enc.is_gm(ctx.user_id):
        raise not_gm(enc.gm_ids, what)

def require_gm_of(entry: StoredEntry, ctx: Ctx, what: str) -> Encounter | None:
    """Check the caller is a GM of the channel's encounter, and return it (None if it does
    not read back: then its GMs are read from the stored JSON, and if even they cannot be
    read, anyone may recover the channel)."""
    if isinstance(entry, LiveEntry):
        require_gm(entry.enc, ctx, what)
        return entry.enc
    gm_ids = stored_gm_ids(entry.json)
    if gm_ids and ctx.user_id not in gm_ids:
        raise not_gm(gm_ids, what)
    return None

def authorise(enc: Encounter, system: RuleSystem, ctx: Ctx, action: Action, turn: Turn | None = None) -> Action:
    """Check the caller may do this, and fill in the acting combatant when it was left out;
    ``turn``: ``system.turn(enc)``, where the caller holds it already (`default_actor`)."""
    user, is_gm = ctx.user_id, action.is_gm
    kind = action.kind
    system.check_decided(enc, action)  # a decided fight says so before asking who acts
    if kind in GM_ONLY:
        require_gm(enc, ctx, f"use {COMMAND_NAMES[kind]}")
        return action
    if isinstance(action, Act) and action.action in system.gm_actions:
        require_gm(enc, ctx, f"use `/act action:{action.action}`")
        if action.actor:
            return _with_actor(action, enc.get(action.actor).name)
        return action
    if isinstance(action, Add):
        owner = action.owner_id or (None if is_gm else user)
        if not is_gm and owner != user:
            raise NotAllowed("Players can add only their own combatants: leave `owner` out, or ask the GM.")
        if not is_gm and enc.started:
            raise NotAllowed(
                f"The fight has started, so only the GM adds combatants now: ask {user_ref(enc.gm_ids[0])} to add yours."
            )
        return action.model_copy(update={"owner_id": owner})
    if isinstance(action, Edit):
        c = enc.get(action.actor)
        if not is_gm and c.owner_id != user:
            raise NotAllowed(f"{c.name} is not yours: only its owner or the GM can edit it.")
        if not is_gm and action.side:
            raise NotAllowed("Only the GM can move a combatant to another side.")
        if not is_gm and enc.started:
            _cosmetic_only(enc, system, c, action)
        return action
    if isinstance(action, (EffectAdd, EffectRemove)):
        if action.actor is None:
            if not is_gm and kind == "effect_add":
                raise NotAllowed("Only the GM puts effects on the field: name a combatant of yours with `target`.")
            return action
        c = enc.get(action.actor)
        if not is_gm and c.owner_id != user:
            raise NotAllowed(f"{c.name} is not yours: only its owner or the GM can change its effects.")
        return _with_actor(action, c.name)
    # acting commands
    if action.actor:
        c = enc.get(action.actor)
        if not is_gm and c.owner_id != user:
            raise NotAllowed(f"{c.name} is not yours: you can act only for your own combatants.")
        return _with_actor(action, c.name)
    if kind == "next":  # before the fight no turn can end, whoever would be named
        system.need_started(enc)
    turn = system.turn(enc) if turn is None else turn
    if kind == "next" and is_gm and enc.started and turn.current is None and not turn.actors:
        return action  # nobody is acting (a round nobody can act in): the GM moves the fight on, naming nobody
    actor = default_actor(enc, system, user, is_gm, turn)
    target = enc.find(getattr(action, "target", None))
    if target is not None and target.name == actor and actor in turn.actors:  # the GM aims at the one whose turn it is: name the attacker
        if not is_gm:  # a player's own combatant acts: the others are not theirs to command
            raise InputError(f"It is {actor}'s turn and {actor} is the target: name another `target`.")
        foes = ", ".join(c.name for c in enc.enemies_of(target) if c.in_fight)
        raise InputError(f"It is {actor}'s turn and {actor} is the target: name the attacker with `combatant` ({foes}).")
    return action.model_copy(update={"actor": actor})

def _with_actor(action: Action, name: str) -> Action:
    """``action`` by the combatant called ``name`` (as its roster spells it): the action itself
    where it names it so already."""
    return action if action.actor == name else action.model_copy(update={"actor": name})

def _cosmetic_only(enc: Encounter, system: RuleSystem, c: Combatant, action: Edit) -> None:
    """Mid-fight, an owner's edit may touch only cosmetic sheet keys: the rest is the GM's or the rules'."""
    keys = {k.name: k for k in system.sheet_keys(enc.variant)}
    changed = [*action.raw_sheet, *getattr(action, "deltas", {})]
    refused = [k for k in changed if k in keys and not keys[k].cosmetic]
    refused += ["hit points"] if getattr(action, "hp_change", None) is not None else []
    refused += [f"`{o}`" for o in ("at", "facing") if getattr(action, o)]
    if not refused:
        return
    cosmetic = [k for k, key in keys.items() if key.cosmetic]
    still = f"; you may still change {', '.join(cosmetic)}" if cosmetic else ""
    agrees = "changes" if len(refused) == 1 and refused[0] != "hit points" else "change"  # one key; hit points are many
    raise NotAllowed(
        f"The fight has started: {c.name}'s {', '.join(refused)} {agrees} now only by rule actions or by the GM's "
        f"edit. Ask {user_ref(enc.gm_ids[0])}{still}."
    )

def acting(enc: Encounter, user: str, named: str | None = None) -> Combatant | None:
    """The combatant a command by ``user`` would act with, or None where it must be named."""
    if named:
        return enc.find(named)
    try:
        return enc.find(default_actor(enc, get_system(enc.system), user, enc.is_gm(user)))
    except RulesError:
        return None

def default_actor(enc: Encounter, system: RuleSystem, user: str, is_gm: bool, turn: Turn | None = None) -> str:
    """The combatant a command by ``user`` acts with when it names none; ``turn``: the turn
    ``enc`` is at (``system.turn(enc)``, worked out here where not given)."""
    turn = system.turn(enc) if turn is None else turn
    def mine(name: str) -> bool:
        c = enc.find(name)
        return c is not None and (is_gm or c.owner_id == user)
    candidates = [n for n in turn.actors if mine(n)]
    if turn.current and turn.current in candidates:
        return turn.current
    if len(candidates) == 1:
        return candidates[0]
    if len(candidates) > 1:
        raise InputError(f"Name the combatant with `combatant`: {', '.join(candidates[:20])}.")
    owned = [c.name for c in enc.combatants if c.owner_id == user and c.in_fight]
    if len(owned) == 1:
        return owned[0]
    if not owned and not is_gm:
        fallen = [c.name for c in enc.combatants if c.owner_id == user]
        if fallen:
            one = len(fallen) == 1
            raise IllegalAction(f"{', '.join(fallen[:20])} {'is' if one else 'are'} out of the fight and cannot act: ask "
                                f"the GM whether {'it comes' if one else 'they come'} back.")
        raise NotFound("You have no combatant in this encounter: add one with `/combatant add`.")
    yours = ", ".join(owned[:20])
    if turn.actors and owned and not is_gm:  # several of theirs, none of them acting now
        actors = ", ".join(turn.actors[:20])
        # a side's turn (Coup-De-Grace, the damage grid): the side activates one of them
        whose = f"{possessive(turn.side)} turn (to activate one of {actors})" if turn.side and not turn.current else f"{actors}'s turn"
        raise NotYourTurn(f"It is {whose}, not one of yours ({yours}): wait for your turn, "
                          "or name yours with `combatant` for what it may do out of turn.")
    now = f" It is {', '.join(turn.actors[:20])}'s turn." if turn.actors else ""
    raise InputError(f"Name the combatant with `combatant`{f' (yours: {yours})' if owned else ''}.{now}")


def dice_for(enc: Encounter, ctx: Ctx, is_gm: bool, rng: random.Random) -> Dice:
    """The dice of a command: the caller's `roll:` stands only for the dice of their own
    combatants (the GM's for anyone's); the bot rolls the rest."""
    given = parse_given(ctx.roll)
    if given and not is_gm and not enc.settings.player_rolls:
        raise NotAllowed(
            "The GM has turned off `roll:` for players in this encounter: leave it out and the bot rolls."
        )
    mine = None if is_gm else frozenset(c.name for c in enc.combatants if c.owner_id == ctx.user_id)
    return Dice(rng=rng, given=given, may_type=mine)


def not_gm(gm_ids: list[str], what: str) -> NotAllowed:
    """The refusal of a GM-only step, naming a GM to ask."""
    ask = f": ask {user_ref(gm_ids[0])}" if gm_ids else ""
    return NotAllowed(f"Only the GM of this encounter can {what}{ask}.")


def stored_gm_ids(raw: str) -> list[str]:
    """The GMs named in an encounter's stored JSON that does not read back as an encounter."""
    try:
        data = json.loads(raw)
    except ValueError:
        return []
    ids = data.get("gm_ids") if isinstance(data, dict) else None
    return [str(i) for i in ids] if isinstance(ids, list) else []
