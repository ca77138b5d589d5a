"""The `/act` actions of War & Combat, declared once, and their handlers."""
from __future__ import annotations

from collections.abc import Callable

from rules.actions import Act, ActionSpec, ActionTable
from rules.dice import Dice
from rules.effects import active
from rules.errors import IllegalAction, InputError
from rules.events import Event
from rules.geometry import Grid
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.war_and_combat import flurry, harm, lengthy, sheet
from rules.systems.war_and_combat.lengthy import refuse_if_busy
from rules.systems.war_and_combat.attacks import break_free, carried, load, restricted
from rules.systems.war_and_combat.catalogue import weapon
from rules.systems.war_and_combat.events import EffectTaken
from rules.systems.war_and_combat.movement import circle, press, retreat
from rules.systems.war_and_combat.limbs import crawling, unusable_code
from rules.systems.war_and_combat.rounds import acting, enc_state, full_action, quick_action, surprise
from rules.systems.war_and_combat.swipes import free_attack, interrupt, outside, swipe, within_reach
from rules.systems.war_and_combat.zones import LIMITS, in_hand, wielded

__all__ = ["ACTIONS", "HANDLERS"]


def _waiting(enc: Encounter, c: Combatant | None) -> bool:
    return c is not None and c.name in flurry.to_declare(enc)


def _gm_side(enc: Encounter, c: Combatant | None) -> bool:
    """Offered to the GM only: no combatant, or one the GM plays."""
    return c is None or c.owner_id is None or c.owner_id in enc.gm_ids


def _forceable(enc: Encounter, c: Combatant | None) -> bool:
    d = enc_state(enc).declarations if enc.phase == "flurry" else None
    return _gm_side(enc, c) and d is not None and not d.revealed


def _attacking(enc: Encounter, c: Combatant | None) -> bool:
    return c is not None and enc.phase == "flurry" and enc.current == c.name


def _tactic(name: str) -> Callable[[Encounter, Combatant | None], bool]:
    """Legal in the adjustment step of one who declared the tactic ``name`` in a flurry this round."""
    def legal(enc: Encounter, c: Combatant | None) -> bool:
        est = enc_state(enc)
        return (_my_step(enc, c) and enc.phase == "adjustment" and c is not None and est.tactics.get(c.name) == name
                and c.name in est.won)
    return legal


def _my_step(enc: Encounter, c: Combatant | None) -> bool:
    return c is not None and enc.phase in ("movement", "adjustment") and enc.current == c.name


def _swiping(enc: Encounter, c: Combatant | None) -> bool:
    d = enc_state(enc).declarations
    return (outside(enc, c) and d is not None and d.revealed and c is not None
            and sheet.state(c).swiped != enc.round and bool(within_reach(enc, c)))


def _limiting(enc: Encounter, c: Combatant | None) -> bool:
    return _my_step(enc, c) and c is not None and wielded(c).polearm


def _free_attacking(enc: Encounter, c: Combatant | None) -> bool:
    st = sheet.state(c) if c is not None else None
    return (enc.phase == "movement" and _my_step(enc, c) and st is not None and not st.quick
            and st.swiped != enc.round)


def _interrupting(enc: Encounter, c: Combatant | None) -> bool:
    return outside(enc, c) and c is not None and bool(within_reach(enc, c))


def _breaking(enc: Encounter, c: Combatant | None) -> bool:
    return _attacking(enc, c) and c is not None and restricted(enc, c) is not None


def _surprising(enc: Encounter, c: Combatant | None) -> bool:
    return enc.round == 0 or (enc.round == 1 and enc.phase == "movement")


def _driving(enc: Encounter, c: Combatant | None) -> bool:
    return _attacking(enc, c) and c is not None and bool(flurry.actionless(enc, c))


ACTIONS = ActionTable(
    ActionSpec(
        "declare",
        "declare your intention and manoeuvre tactic for the flurry: the attacker first, openly, then each defender in "
        "turn (option `declare=hidden`: all at once, hidden until all have declared)",
        options=(("intent=", "kill, subdue, disarm, grapple, entangle (as a grapple), tackle, throw or outmanoeuvre"),
                 ("tactic=", "hold, press, retreat or circle (applied in the adjustment phase)"),
                 ("guard=", "front (the default) or flank: defend flank attacks at half the Fighter rank and forfeit "
                  "the front"),
                 ("face=", "the opponent to turn to when several attack you (the default: as you stand, else the nearest; "
                  "turning costs -1 Defense)")),
        legal=_waiting,
    ),
    ActionSpec("force", "reveal the flurry's declarations now: those who have not declared kill and hold", gm_only=True,
               legal=_forceable),
    ActionSpec("hold", "hold the initiative in the flurry: the attack passes to the next fighter with actions",
               legal=_attacking),
    ActionSpec("press", "after a flurry in which you declared press, push an opponent one hex straight back and follow; "
               "a push into a wall or a taken hex pins it instead (next flurry: you +1 action, it -1 Defense)",
               cost="adjustment", target=True, legal=_tactic("press")),
    ActionSpec("retreat", "after a flurry in which you declared retreat, step one hex straight away from an opponent, "
               "still facing it", cost="adjustment", target=True, legal=_tactic("retreat")),
    ActionSpec("circle", "after a flurry in which you declared circle, step to the next hex round an opponent, still "
               "beside it and facing it", cost="adjustment", target=True,
               options=(("way=", "cw (clockwise, the default) or ccw"),), legal=_tactic("circle")),
    ActionSpec("shed", "begin to take off your armour, a lengthy action (option `armour_rounds`, 2): no moving or "
               "shooting until it is done at the start of a later round; begun before moving, not while engaged",
               cost="lengthy", legal=_my_step),
    ActionSpec("don", "begin to put on an armour, a lengthy action like `shed`", cost="lengthy",
               options=(("NAME", "padded, leather, scale, mail or plate"),), legal=_my_step),
    ActionSpec("stand", "stand up from the ground (a quick action of your step)", cost="quick", legal=_my_step),
    ActionSpec("wield", "take another weapon from your sheet in hand (drawing a weapon is a quick action)",
               cost="quick", options=(("NAME", "the weapon"), ("hand=", "right or left: the hand to hold it in")), legal=_my_step),
    ActionSpec("pickup", "pick up an item you dropped (a weapon, or `shield`), standing in the hex where it lies (a quick "
               "action; a weapon comes back in hand)", cost="quick", options=(("NAME", "the item: a weapon, or shield"),),
               legal=_my_step),
    ActionSpec("load", "load a crossbow again after it shot (\"Load Weapon\", a full action: in a step without moving or "
               "shooting, and no more moving after it that phase)", cost="full", options=(("NAME", "the weapon"),),
               legal=_my_step),
    ActionSpec("aim", "aim the weapon in hand (\"Aim a Weapon\", a full action: in a step without moving or shooting, "
               "and no more moving or shooting after it that phase); the text gives aiming no number, so it changes no "
               "roll (a called shot is the shot's own `aim=`)", cost="full", target=True,
               options=(("NAME", "the weapon (the one in hand by default)"),), legal=_my_step),
    ActionSpec("sheathe", "put your weapon away (\"Sheathe weapon\", a full action: in a step without moving or shooting): "
               "no zone of threat or danger, and no melee attack, until `wield` draws it (a quick action)", cost="full",
               legal=_my_step),
    ActionSpec("limit", "a polearm wielder limits its zone of threat to the hex ahead (`ahead`), or to it and the one to "
               "its `left` or `right`, or takes back all three (`full`): the obstructed hex(es) on the side(s) given up "
               "become unobstructed (option `polearm_limit`); a free action of your step, shown on the map",
               cost="free", options=(("WORD", "ahead, left, right or full"),), legal=_limiting),
    ActionSpec("swipe", "from outside the flurry, a free attack at a fighter in it within your reach + 1 hex (once a "
               "round): first negotiate the space (3d6 + Tactics + AGL vs 10 + the flurry's best Fighter rank) or be "
               "struck; the target defends only with an action left", target=True, legal=_swiping),
    ActionSpec("free-attack", "\"Free Attack\", a quick action in your movement step: the swipe at a fighter engaged in a "
               "flurry to come, by one in none, within your reach + 1 hex (one free attack or swipe a round): negotiate "
               "the space as for `swipe`; the target defends, spending one of its coming flurry's actions, unless it "
               "has none or is surprised", cost="quick", target=True, legal=_free_attacking),
    ActionSpec("interrupt", "from outside the flurry, join the flurry under way (an opponent in it within your reach "
               "+ 1 hex); declare with the same words as `declare`",
               options=(("intent=", "as for declare"), ("tactic=", "as for declare")), legal=_interrupting),
    ActionSpec("break", "held by a grapple, spend an action to break free: 3d6 + Strength modifier against the hold's "
               "Restrict level", legal=_breaking),
    ActionSpec("drive", "against an adjacent opponent out of actions: spend an action to press it one hex straight back "
               "(you follow; into a wall or a taken hex it is pinned)", target=True, legal=_driving),
    ActionSpec("withdraw", "against an adjacent opponent out of actions: spend an action to step one hex straight away "
               "from it (it must hold)", target=True, legal=_driving),
    ActionSpec("damage", "give a fighter (`target`) a wound without an attack: its severity and location, e.g. "
               "`options:\"serious left arm\"` (`penetrating` for a P wound); it has the wound effects table's "
               "effects, with their rolls", gm_only=True, target=True, legal=_gm_side,
               options=(("WORDS", "light, serious, critical or mortal; head, chest, belly, arm or leg (left or right: "
                                  "else option `limb_side`); penetrating or blunt (the default)"),)),
    ActionSpec("heal", "take away a fighter's (`target`) worst wound at a location, e.g. `options:\"left arm\"` "
               "(or the one of the severity named, or `all` there): a limb left unwounded is whole again, and one "
               "downed only by a mortal wound stands again", gm_only=True, target=True, legal=_gm_side,
               options=(("WORDS", "the location, a severity, or all"),)),
    ActionSpec("surprise", "before the first round's flurries, mark a fighter (`target`) or a whole side surprised: "
               "in the first round it takes no step and no flurry action, and cannot defend", gm_only=True,
               target=True, options=(("side=", "every fighter of this side"),), legal=_surprising),
)


def _declare(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    c = enc.get(action.actor)
    return flurry.declare(enc, opts, c, action.options, dice)


def _force(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    return flurry.force(enc, opts, dice)


def _hold(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    c = acting(enc, action.actor, ("flurry",))
    return flurry.hold(enc, opts, c, dice)


def _press(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    c = acting(enc, action.actor, ("adjustment",))
    return press(enc, c, action.target)


def _retreat(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    return retreat(enc, acting(enc, action.actor, ("adjustment",)), action.target)


def _circle(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    return circle(enc, acting(enc, action.actor, ("adjustment",)), action.target, action.options.get("way"))


def _lengthy(what: str) -> Callable[[Encounter, OptionValues, Act, Dice], list[Event]]:
    def handler(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
        c = acting(enc, action.actor, ("movement",))
        return lengthy.begin(enc, opts, _grid(enc), c, what, next(iter(action.options), None))
    return handler


def _stand(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    c = acting(enc, action.actor)
    st = sheet.state(c)
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


def _wield(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    c = acting(enc, action.actor)
    hand = action.options.get("hand")
    if hand is not None and hand.strip().lower() not in ("right", "left"):
        raise InputError("`hand` is right or left: the hand to hold the weapon in (the shield goes on the other arm).")
    name = action.weapon or next((k for k in action.options if k != "hand"), None)
    if not name and hand is None:
        raise InputError(f"Name the weapon: one of {', '.join(w.name for w in sheet.weapons(c))}, or `hand=left|right`.")
    w = weapon(name) if name else None
    if w is not None and w.name not in {x.name for x in sheet.weapons(c)}:
        raise InputError(f"{c.name} carries no {w.name}: it has {', '.join(x.name for x in sheet.weapons(c))}.")
    if w is not None and w.name in sheet.state(c).dropped:
        raise IllegalAction(f"{c.name}'s {w.name} lies on the ground: `/act action:pickup options:\"{w.name}\"` where it lies.")
    limit = quick_action(c)
    events: list[Event] = []
    if w is not None:
        sheet.state(c).wield, sheet.state(c).sheathed = w.name, False  # "Draw Weapon"
        events.append(EffectTaken(actor=c.name, effect="wields", detail=w.name))
    if hand is not None:
        sheet.state(c).hand = hand.strip().lower()  # type: ignore[assignment]
        events.append(EffectTaken(actor=c.name, effect="switches_hand", detail=hand.strip().lower()))
    return events + limit


def _pickup(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    """"Pick Up Small Item", a quick action: an item ``c`` dropped, where it lies."""
    c = acting(enc, action.actor)
    st = sheet.state(c)
    if not st.dropped:
        raise IllegalAction(f"{c.name} has dropped nothing to pick up.")
    name = (action.weapon or next(iter(action.options), "")).strip().lower()
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
    return [EffectTaken(actor=c.name, effect="picks_up", detail=item), *limit]


def _load(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    return load(enc, acting(enc, action.actor), action.weapon or next(iter(action.options), None))


def _aim(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    """"Aim a Weapon", a full action: the text gives it no effect on a roll, so it only spends the phase."""
    c = acting(enc, action.actor)
    w = carried(c, action.weapon or next(iter(action.options), None))  # refused when sheathed, dropped or not carried
    t = enc.get(action.target, "target") if action.target else None
    refuse_if_busy(c, "aim")
    full_action(c, "aiming")
    return [EffectTaken(actor=c.name, effect="aims", detail=w.name + (f" at {t.name}" if t else ""))]


def _sheathe(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    c = acting(enc, action.actor)
    st = sheet.state(c)
    if st.sheathed:
        raise IllegalAction(f"{c.name}'s weapon is sheathed already: `/act action:wield` draws it.")
    full_action(c, "sheathing a weapon")
    st.sheathed = True
    return [EffectTaken(actor=c.name, effect="sheathes", detail=wielded(c).name)]


def _swipe(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    return swipe(enc, opts, _grid(enc), action, dice)


def _limit(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    """"If the polearm wielder limits the zone of threat to one or two hexes": the wielder's choice, free."""
    c = acting(enc, action.actor)
    w = in_hand(c)
    if w is None or not w.polearm:
        raise IllegalAction(f"{c.name} holds no polearm: only a polearm's zone of threat is limited (its gap before the head).")
    word = " ".join(action.options).strip().lower() or "?"
    if word not in (*LIMITS, "full"):
        raise InputError(f"`{word[:20]}` is no limit: `ahead` (the hex ahead), `left` or `right` (it and the one to that "
                         "side), or `full` (all three).")
    sheet.state(c).limit = None if word == "full" else word  # type: ignore[assignment]
    return [EffectTaken(actor=c.name, effect="limits_zone", detail=word)]


def _free_attack(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    return free_attack(enc, opts, _grid(enc), action, dice)


def _interrupt(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    return interrupt(enc, opts, _grid(enc), action, dice)


def _break(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    c = acting(enc, action.actor, ("flurry",))
    return break_free(enc, opts, c, dice)


def _drive(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    c = acting(enc, action.actor, ("flurry",))
    return flurry.drive(enc, opts, c, action.target, dice)


def _withdraw(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    c = acting(enc, action.actor, ("flurry",))
    return flurry.withdraw(enc, opts, c, action.target, dice)


def _surprise(enc: Encounter, opts: OptionValues, action: Act, dice: Dice) -> list[Event]:
    side = action.options.get("side")
    if side is not None:
        names = [c.name for c in enc.combatants if c.side == side and c.in_fight]
        if not names:
            raise InputError(f"No side `{side}` is fighting: the sides are {', '.join(enc.sides()) or 'none yet'}.")
    elif action.target:
        names = [enc.get(action.target).name]
    else:
        raise InputError("Say who is surprised: `target:` a fighter, or `options:\"side=orcs\"` a whole side.")
    return surprise(enc, names)


def _grid(enc: Encounter) -> Grid:
    grid = enc.grid()
    if grid is None:
        raise IllegalAction("War & Combat is played on a hex map.")
    return grid


HANDLERS: dict[str, Callable[[Encounter, OptionValues, Act, Dice], list[Event]]] = {
    "declare": _declare,
    "force": _force,
    "hold": _hold,
    "press": _press,
    "retreat": _retreat,
    "circle": _circle,
    "shed": _lengthy("shed"),
    "don": _lengthy("don"),
    "stand": _stand,
    "wield": _wield,
    "pickup": _pickup,
    "load": _load,
    "aim": _aim,
    "sheathe": _sheathe,
    "swipe": _swipe,
    "limit": _limit,
    "free-attack": _free_attack,
    "interrupt": _interrupt,
    "break": _break,
    "drive": _drive,
    "withdraw": _withdraw,
    "damage": harm.damage,
    "heal": harm.heal,
    "surprise": _surprise,
}
