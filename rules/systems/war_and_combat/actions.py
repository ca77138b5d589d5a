"""The `/act` actions of War & Combat, declared once, and their handlers."""
from __future__ import annotations

from collections.abc import Callable

from rules.actions import Act, ActionContext, ActionSpec, ActionTable, Handler
from rules.effects import active
from rules.errors import IllegalAction, InputError
from rules.events import Event
from rules.models import Combatant, Encounter
from rules.systems.war_and_combat import flurry, harm, lengthy, rounds, sheet, words
from rules.systems.war_and_combat.attacks import (
    break_free,
    restricted,
    wielding,
)
from rules.systems.war_and_combat.catalogue import weapon
from rules.systems.war_and_combat.events import EffectTaken
from rules.systems.war_and_combat.limbs import crawling, unusable_code
from rules.systems.war_and_combat.missiles import load, missile_default
from rules.systems.war_and_combat.movement import (
    circle,
    drive,
    press,
    retreat,
    withdraw,
)
from rules.systems.war_and_combat.state import WacCombatant, WacEncounter
from rules.systems.war_and_combat.swipes import (
    free_attack,
    interrupt,
    outside,
    swipe,
    within_reach,
)
from rules.systems.war_and_combat.turns import (
    acting,
    done_full,
    full_action,
    idle,
    quick_action,
    surprise,
)
from rules.systems.war_and_combat.zones import in_hand, wielded

__all__ = ["ACTIONS"]


def _waiting(enc: Encounter, c: Combatant | None) -> bool:
    return c is not None and c.name in flurry.to_declare(enc)


def _gm_side(enc: Encounter, c: Combatant | None) -> bool:
    """Offered to the GM only: no combatant, or one the GM plays."""
    return c is None or c.owner_id is None or c.owner_id in enc.gm_ids


def _forceable(enc: Encounter, c: Combatant | None) -> bool:
    d = WacEncounter.of(enc).declarations if enc.phase == "flurry" else None
    return _gm_side(enc, c) and d is not None and not d.revealed


def _attacking(enc: Encounter, c: Combatant | None) -> bool:
    return c is not None and enc.phase == "flurry" and enc.current == c.name


def _tactic(name: str) -> Callable[[Encounter, Combatant | None], bool]:
    """Legal in the adjustment step of one who declared the tactic ``name`` in a flurry this round."""
    def legal(enc: Encounter, c: Combatant | None) -> bool:
        est = WacEncounter.of(enc)
        return (_my_step(enc, c) and enc.phase == "adjustment" and c is not None and est.tactics.get(c.name) == name
                and c.name in est.won)
    return legal


def _my_step(enc: Encounter, c: Combatant | None) -> bool:
    """Offered in one's own movement or adjustment step, unless stunned or surprised ("can take no action": `refuse_if_idle`)."""
    return c is not None and enc.phase in ("movement", "adjustment") and enc.current == c.name and not idle(enc, c)


def _swiping(enc: Encounter, c: Combatant | None) -> bool:
    d = WacEncounter.of(enc).declarations
    return (outside(enc, c) and d is not None and d.revealed and c is not None
            and WacCombatant.of(c).swiped != enc.round and bool(within_reach(enc, c)))


def _limiting(enc: Encounter, c: Combatant | None) -> bool:
    return _my_step(enc, c) and c is not None and wielded(c).polearm


def _free_attacking(enc: Encounter, c: Combatant | None) -> bool:
    st = WacCombatant.of(c) if c is not None else None
    return (enc.phase == "movement" and _my_step(enc, c) and st is not None and not st.quick
            and st.swiped != enc.round)


def _interrupting(enc: Encounter, c: Combatant | None) -> bool:
    return outside(enc, c) and c is not None and bool(within_reach(enc, c))


def _breaking(enc: Encounter, c: Combatant | None) -> bool:
    return _attacking(enc, c) and c is not None and not idle(enc, c) and restricted(enc, c) is not None


def _surprising(enc: Encounter, c: Combatant | None) -> bool:
    return enc.round == 0 or (enc.round == 1 and enc.phase == "movement")


def _driving(enc: Encounter, c: Combatant | None) -> bool:
    return _attacking(enc, c) and c is not None and not idle(enc, c) and bool(flurry.actionless(enc, c))


def _declare(ctx: ActionContext, action: Act) -> list[Event]:
    enc, opts, dice = ctx.encounter, ctx.options, ctx.dice
    c = enc.get(action.actor)
    return rounds.declare(enc, opts, c, ctx.words, dice)


def _force(ctx: ActionContext, action: Act) -> list[Event]:
    enc, opts, dice = ctx.encounter, ctx.options, ctx.dice
    return rounds.force(enc, opts, dice)


def _hold(ctx: ActionContext, action: Act) -> list[Event]:
    enc, opts, dice = ctx.encounter, ctx.options, ctx.dice
    c = acting(enc, action.actor, ("flurry",), passing=True)
    return rounds.hold(enc, opts, c, dice)


def _press(ctx: ActionContext, action: Act) -> list[Event]:
    enc = ctx.encounter
    c = acting(enc, action.actor, ("adjustment",))
    return press(enc, c, action.target)


def _retreat(ctx: ActionContext, action: Act) -> list[Event]:
    enc = ctx.encounter
    return retreat(enc, acting(enc, action.actor, ("adjustment",)), action.target)


def _circle(ctx: ActionContext, action: Act) -> list[Event]:
    enc = ctx.encounter
    return circle(enc, acting(enc, action.actor, ("adjustment",)), action.target, ctx.words.way)


def _lengthy(what: str) -> Handler:
    def handler(ctx: ActionContext, action: Act) -> list[Event]:
        enc, opts = ctx.encounter, ctx.options
        c = acting(enc, action.actor, ("movement",))
        done_full(c, "a lengthy action is a full action too: begin it in your next movement step")  # "Lengthy Actions are Full Actions"
        return lengthy.begin(enc, opts, ctx.need_grid(), c, what, ctx.words.get("armour"))
    return handler


def _stand(ctx: ActionContext, action: Act) -> list[Event]:
    enc = ctx.encounter
    c = acting(enc, action.actor)
    st = WacCombatant.of(c)
    if not st.fallen:
        raise IllegalAction(f"{c.name} is on its feet already.")
    if st.immobile or crawling(c):
        raise IllegalAction(f"{c.name} cannot stand: its legs will not carry it.")
    leg = next((x for x in ("left leg", "right leg") if active(enc.effects, c.name, unusable_code(x))), None)
    if leg is not None:  # Stumble?: "may not stand on the leg for the rest of the round"
        raise IllegalAction(f"{c.name} may not stand on its {leg} until the round ends: stand in the next round.")
    limit = quick_action(c)
    st.fallen = False
    return [EffectTaken(actor=c.name, effect="stands"), *limit]


def _wield(ctx: ActionContext, action: Act) -> list[Event]:
    enc = ctx.encounter
    c = acting(enc, action.actor)
    hand = ctx.words.hand
    if hand is not None and hand.strip().lower() not in ("right", "left"):
        raise InputError("`hand` is right or left: the hand to hold the weapon in (the shield goes on the other arm).")
    name = action.weapon or ctx.words.weapon
    if not name and hand is None:
        raise InputError(f"Name the weapon: one of {', '.join(w.name for w in sheet.weapons(c))}, or `hand=left|right`.")
    w = weapon(name) if name else None
    if w is not None and w.name not in {x.name for x in sheet.weapons(c)}:
        raise InputError(f"{c.name} carries no {w.name}: it has {', '.join(x.name for x in sheet.weapons(c))}.")
    if w is not None and w.name in WacCombatant.of(c).dropped:
        raise IllegalAction(f"{c.name}'s {w.name} lies on the ground: `/act action:pickup options:\"{w.name}\"` where it lies.")
    held = in_hand(c)
    if w is not None and held is not None and held.name == w.name and (hand is None or hand.strip().lower() == WacCombatant.of(c).hand):
        raise IllegalAction(f"{c.name} already has the {w.name} in hand: nothing to draw (its quick action is left for "
                            "another), or name another weapon.")
    limit = quick_action(c)
    events: list[Event] = []
    if w is not None:
        WacCombatant.of(c).wield, WacCombatant.of(c).sheathed = w.name, False  # "Draw Weapon"
        events.append(EffectTaken(actor=c.name, effect="wields", detail=w.name))
    if hand is not None:
        WacCombatant.of(c).hand = hand.strip().lower()
        events.append(EffectTaken(actor=c.name, effect="switches_hand", detail=hand.strip().lower()))
    return events + limit


def _pickup(ctx: ActionContext, action: Act) -> list[Event]:
    """"Pick Up Small Item", a quick action: an item ``c`` dropped, where it lies."""
    enc = ctx.encounter
    c = acting(enc, action.actor)
    st = WacCombatant.of(c)
    if not st.dropped:
        raise IllegalAction(f"{c.name} has dropped nothing to pick up.")
    name = (action.weapon or ctx.words.item or "").strip().lower()
    if not name and len(st.dropped) > 1:
        raise InputError(f"Name the item to pick up: {' or '.join(st.dropped)}.")
    item = st.dropped[0] if not name else next((x for x in st.dropped if x == name), None)
    if item is None and name != "shield":
        item = next((x for x in st.dropped if x == weapon(name).name), None)
    if item is None:
        raise InputError(f"{c.name} has not dropped a {name[:20]}: it dropped {', '.join(st.dropped)}.")
    where = st.dropped_at.get(item)
    if where is not None and c.cell is not None and where != c.cell.name:
        raise IllegalAction(f"{c.name}'s {item} lies at {where}: move there first, then pick it up.")
    limit = quick_action(c)
    st.dropped.remove(item)
    st.dropped_at.pop(item, None)
    if item != "shield":  # a weapon picked up is in hand again
        st.wield = item
    if item == "shield":  # a term of its Defense: named where its numbers are (`attacks._drop`)
        return [EffectTaken(actor=c.name, effect="picks_up", item=item), *limit]
    return [EffectTaken(actor=c.name, effect="picks_up", detail=item), *limit]


def _load(ctx: ActionContext, action: Act) -> list[Event]:
    enc = ctx.encounter
    return load(enc, acting(enc, action.actor), action.weapon or ctx.words.weapon)


def _aim(ctx: ActionContext, action: Act) -> list[Event]:
    """"Aim a Weapon", a full action: the text gives it no effect on a roll, so it only spends the phase."""
    enc = ctx.encounter
    c = acting(enc, action.actor)
    full_action(c, "aiming", "aim")  # what the phase allows first (a refusal puts everything back)
    # in hand, as a shot is; without a name, the one a shot would take
    w = wielding(enc, c, action.weapon or ctx.words.weapon or missile_default(c), melee=False, doing="aiming it")
    t = enc.get(action.target, "target") if action.target else None
    return [EffectTaken(actor=c.name, effect="aims", args=[w.name, *([t.name] if t else [])])]


def _sheathe(ctx: ActionContext, action: Act) -> list[Event]:
    enc = ctx.encounter
    c = acting(enc, action.actor)
    st = WacCombatant.of(c)
    if st.sheathed:
        raise IllegalAction(f"{c.name}'s weapon is sheathed already: `/act action:wield` draws it.")
    full_action(c, "sheathing a weapon", "sheathe")
    st.sheathed = True
    return [EffectTaken(actor=c.name, effect="sheathes", detail=wielded(c).name)]


def _swipe(ctx: ActionContext, action: Act) -> list[Event]:
    enc, opts, dice = ctx.encounter, ctx.options, ctx.dice
    return swipe(enc, opts, ctx.need_grid(), action, ctx.words, dice)


def _limit(ctx: ActionContext, action: Act) -> list[Event]:
    """"If the polearm wielder limits the zone of threat to one or two hexes": the wielder's choice, free."""
    enc = ctx.encounter
    c = acting(enc, action.actor)
    w = in_hand(c)
    if w is None or not w.polearm:
        raise IllegalAction(f"{c.name} holds no polearm: only a polearm's zone of threat is limited (its gap before the head).")
    word = ctx.words.limit
    if word is None:
        raise InputError("Say how to limit the zone: `ahead` (the hex ahead), `left` or `right` (it and the one to that "
                         "side), or `full` (all three).")
    WacCombatant.of(c).limit = None if word == "full" else word
    return [EffectTaken(actor=c.name, effect="limits_zone", detail=word)]


def _free_attack(ctx: ActionContext, action: Act) -> list[Event]:
    enc, opts, dice = ctx.encounter, ctx.options, ctx.dice
    return free_attack(enc, opts, ctx.need_grid(), action, ctx.words, dice)


def _interrupt(ctx: ActionContext, action: Act) -> list[Event]:
    enc, opts, dice = ctx.encounter, ctx.options, ctx.dice
    return interrupt(enc, opts, ctx.need_grid(), action, ctx.words, dice)


def _break(ctx: ActionContext, action: Act) -> list[Event]:
    enc, opts, dice = ctx.encounter, ctx.options, ctx.dice
    c = acting(enc, action.actor, ("flurry",))
    return break_free(enc, opts, c, dice)


def _drive(ctx: ActionContext, action: Act) -> list[Event]:
    enc, opts, dice = ctx.encounter, ctx.options, ctx.dice
    c = acting(enc, action.actor, ("flurry",))
    return drive(enc, opts, c, action.target, dice, action.is_gm)


def _withdraw(ctx: ActionContext, action: Act) -> list[Event]:
    enc, opts, dice = ctx.encounter, ctx.options, ctx.dice
    c = acting(enc, action.actor, ("flurry",))
    return withdraw(enc, opts, c, action.target, dice, action.is_gm)


def _surprise(ctx: ActionContext, action: Act) -> list[Event]:
    enc = ctx.encounter
    side = ctx.words.side
    if side is not None:
        names = [c.name for c in enc.combatants if c.side == side and c.in_fight]
        if not names:
            raise InputError(f"No side `{side}` is fighting: the sides are {', '.join(enc.sides()) or 'none yet'}.")
    elif action.target:
        names = [enc.get(action.target).name]
    else:
        raise InputError("Say who is surprised: `target:` a fighter, or `options:\"side=orcs\"` a whole side.")
    return surprise(enc, names)


ACTIONS = ActionTable(
    ActionSpec(
        "declare",
        "declare your intention and manoeuvre tactic for the flurry: the attacker first, openly, then each defender in "
        "turn (option `declare=hidden`: all at once, hidden until all have declared)",
        words=words.DECLARE,
        legal=_waiting,
        handler=_declare,
    ),
    ActionSpec("force", "reveal the flurry's declarations now: those who have not declared kill and hold", gm_only=True,
               legal=_forceable, handler=_force),
    ActionSpec("hold", "hold the initiative in the flurry: the attack passes to the next fighter with actions",
               legal=_attacking, handler=_hold),
    ActionSpec("press", "after a flurry in which you declared press, push an opponent one hex straight back and follow; "
               "a push into a wall or a taken hex pins it instead (next flurry: you +1 action, it -1 Defense)",
               cost="adjustment", target=True, legal=_tactic("press"), handler=_press),
    ActionSpec("retreat", "after a flurry in which you declared retreat, step one hex straight away from an opponent, "
               "still facing it", cost="adjustment", target=True, legal=_tactic("retreat"), handler=_retreat),
    ActionSpec("circle", "after a flurry in which you declared circle, step to the next hex round an opponent, still "
               "beside it and facing it", cost="adjustment", target=True,
               words=words.WAY, legal=_tactic("circle"), handler=_circle),
    ActionSpec("shed", "begin to take off your armour, a lengthy action (option `armour_rounds`, 2): no moving or "
               "shooting until it is done at the start of a later round; begun before moving, not while engaged",
               cost="lengthy", legal=_my_step, handler=_lengthy("shed")),
    ActionSpec("don", "begin to put on an armour, a lengthy action like `shed`", cost="lengthy",
               words=words.ARMOUR, legal=_my_step, handler=_lengthy("don")),
    ActionSpec("stand", "stand up from the ground (a quick action of your step)", cost="quick", legal=_my_step, handler=_stand),
    ActionSpec("wield", "take another weapon from your sheet in hand (drawing a weapon is a quick action)",
               cost="quick", words=words.WIELD, legal=_my_step, handler=_wield),
    ActionSpec("pickup", "pick up an item you dropped (a weapon, or `shield`), standing in the hex where it lies (a quick "
               "action; a weapon comes back in hand)", cost="quick", words=words.ITEM,
               legal=_my_step, handler=_pickup),
    ActionSpec("load", "load the crossbow in hand again after it shot (\"Load Weapon\", a full action: in a step without moving or "
               "shooting, and no more moving after it that phase)", cost="full", words=words.WEAPON,
               legal=_my_step, handler=_load),
    ActionSpec("aim", "aim the weapon in hand; without one named, the one a shot takes: the missile weapon in hand, else "
               "the first carried (drawn first with `wield`) (\"Aim a Weapon\", a full action: in a step without moving or shooting, "
               "and no more moving or shooting after it that phase); the text gives aiming no number, so it changes no "
               "roll (a called shot is the shot's own `aim=`)", cost="full", target=True,
               words=words.WEAPON, legal=_my_step, handler=_aim),
    ActionSpec("sheathe", "put your weapon away (\"Sheathe weapon\", a full action: in a step without moving or shooting): "
               "no zone of threat or danger, and no melee attack, until `wield` draws it (a quick action)", cost="full",
               legal=_my_step, handler=_sheathe),
    ActionSpec("limit", "a polearm wielder limits its zone of threat to the hex ahead (`ahead`), or to it and the one to "
               "its `left` or `right`, or takes back all three (`full`): the obstructed hex(es) on the side(s) given up "
               "become unobstructed (option `polearm_limit`); a free action of your step, shown on the map",
               cost="free", words=words.LIMIT, legal=_limiting, handler=_limit),
    ActionSpec("swipe", "from outside the flurry, a free attack at a fighter in it within your reach + 1 hex (once a "
               "round): first negotiate the space (3d6 + Tactics + AGL vs 10 + the flurry's best Fighter rank) or be "
               "struck; the target defends only with an action left", target=True, words=words.SIDE, legal=_swiping, handler=_swipe),
    ActionSpec("free-attack", "\"Free Attack\", a quick action in your movement step: the swipe at a fighter engaged in a "
               "flurry to come, by one in none, within your reach + 1 hex (one free attack or swipe a round): negotiate "
               "the space as for `swipe`; the target defends, spending one of its coming flurry's actions, unless it "
               "has none or is surprised", cost="quick", target=True, words=words.SIDE, legal=_free_attacking, handler=_free_attack),
    ActionSpec("interrupt", "from outside the flurry, join the flurry under way (an opponent in it within your reach "
               "+ 1 hex: you step in, and in it your blows and theirs at you reach 1 hex farther); declare with the same words as `declare`",
               words=words.DECLARE, legal=_interrupting, handler=_interrupt),
    ActionSpec("break", "held by a grapple, spend an action to break free: 3d6 + Strength modifier against the hold's "
               "Restrict level", legal=_breaking, handler=_break),
    ActionSpec("drive", "against an adjacent opponent out of actions: spend an action to press it one hex straight back "
               "(you follow; into a wall or a taken hex it is pinned)", target=True, legal=_driving, handler=_drive),
    ActionSpec("withdraw", "against an adjacent opponent out of actions: spend an action to step one hex straight away "
               "from it (it must hold)", target=True, legal=_driving, handler=_withdraw),
    ActionSpec("damage", "give a fighter (`target`) a wound without an attack: its severity and location, e.g. "
               "`options:\"serious left arm\"` (`penetrating` for a P wound); it has the wound effects table's "
               "effects, with their rolls", gm_only=True, target=True, legal=_gm_side,
               words=words.WOUND, handler=harm.damage),
    ActionSpec("heal", "take away a fighter's (`target`) worst wound at a location, e.g. `options:\"left arm\"` "
               "(or the one of the severity named, or `all` there), and what it caused: a limb no wound still impairs "
               "or disables is whole again, a chest wound's immobility and a belly wound's disabled legs end, and "
               "one downed only by that wound is active again", gm_only=True, target=True, legal=_gm_side,
               words=words.HEAL, handler=harm.heal),
    ActionSpec("surprise", "before the first round's flurries, mark a fighter (`target`) or a whole side surprised: "
               "in the first round it takes no step and no flurry action (no interrupt or swipe either), and cannot defend", gm_only=True,
               target=True, words=words.SURPRISE, legal=_surprising, handler=_surprise),
)
