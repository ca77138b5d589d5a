"""Coup-De-Grace's attacks: melee and ranged, every modifier and weapon rule, damage and status."""
from __future__ import annotations

from collections.abc import Iterable

from rules.actions import Attack, CoupDeGrace
from rules.dice import Dice
from rules.effects import modifiers
from rules.errors import IllegalAction, InputError, NotFound
from rules.events import Event, Modifier, Roll, Term, mod
from rules.geometry import Cell, Grid
from rules.models import Combatant, Encounter
from rules.options import OptionSet, OptionValues, choice_option, flag_word
from rules.report import plural
from rules.systems.coup_de_grace.events import (
    DIE_BONUSES,
    Blocker,
    Finesse,
    PushCancelled,
    Pushed,
    Standing,
    Struck,
    Wounded,
)
from rules.systems.coup_de_grace.movement import (
    blocked,
    blocker,
    clear_line,
    cost_here,
    is_open,
    range_between,
    spend,
)
from rules.systems.coup_de_grace.options import values
from rules.systems.coup_de_grace.sheet import (
    catalogue,
    defence,
    facing_of,
    ruleset,
    square_of,
    weapon,
)
from rules.systems.coup_de_grace.state import CdgCombatant
from rules.systems.coup_de_grace.tables import (
    ATTACK_OPTIONS,
    DOWNED_PENALTY,
    DRAFT_CDG_COST,
    DRAFT_VARIANT,
    LEAST_HP,
    RANGED_COST,
    Mode,
    Weapon,
    normalise_weapon,
)
from rules.systems.coup_de_grace.turns import activate, finish
from rules.targets import attack_target

__all__ = ["attack", "set_hp", "ATTACK_WORDS"]

#: the `options:` words `/attack` and `/coupdegrace` read
ATTACK_WORDS = OptionSet(
    choice_option("mode", tuple(ATTACK_OPTIONS), "attack in melee or at range (`throw`, `shoot`: at range)", bare=True),
    flag_word("push", "a hammer's Bash Back push, where the `hammer_push` option leaves it to the attacker"),
)


def _pick_weapon(enc: Encounter, c: Combatant, asked: str | None) -> Weapon:
    known = catalogue(enc)
    held: list[str] = list(c.sheet.get("weapons") or [])
    defending = [w for w in dict.fromkeys(held) if not known.get(w, Weapon(w)).attacks]
    if len(defending) == len(set(held)):  # `weapons=none`: the text attacks only with a weapon, and gives no unarmed attack
        only = f" that attacks ({', '.join(defending)}: {'it only defends' if len(defending) == 1 else 'they only defend'})"
        raise IllegalAction(
            f"{c.name} holds no weapon{only if held else ''}: \"a mini with a melee weapon can make a melee attack\" (a "
            f"ranged one, a ranged attack), and the rules give no unarmed attack. It can still move and turn; the GM gives "
            f"it a weapon with `/combatant edit name:{c.name} sheet:\"weapons=sword\"`, or end the activation with `/init next`."
        )
    used = CdgCombatant.of(c).used
    ready = [w for w in dict.fromkeys(held) if known.get(w, Weapon(w)).attacks and used.get(w, 0) < held.count(w)]
    if asked:
        name = {normalise_weapon(w): w for w in held}.get(normalise_weapon(asked))
        if name is None:
            raise NotFound(f"{c.name} holds no {asked}: {c.name}'s weapons are {', '.join(held) or 'none'}.")
        chosen = weapon(enc, name)
        if not chosen.attacks:
            raise IllegalAction(f"A {name} cannot attack (it only defends){_ready(ready)}")
        if name not in ready:
            raise IllegalAction(
                f"{c.name} has already attacked with the {name} this round: each weapon attacks once a round{_ready(ready)}"
            )
        return chosen
    if len(ready) == 1:
        return weapon(enc, ready[0])
    if not ready:
        raise IllegalAction(
            f"{c.name} has no weapon ready to attack with this round (weapons: {', '.join(held) or 'none'}): "
            f"end the activation with `/init next`."
        )
    raise InputError(f"Say which weapon {c.name} attacks with: `weapon:` {', '.join(ready)}.")


def _ready(ready: list[str]) -> str:
    """The end of a refusal of a weapon that may not attack: the weapons that may, or what to do instead."""
    return f". Ready: {', '.join(ready)}." if ready else ", and none is ready: end the activation with `/init next`."


def _mode(w: Weapon, asked: str | None) -> Mode | None:
    """``melee``/``ranged`` as the ``mode`` word asks (None: decide by the target's place)."""
    mode = ATTACK_OPTIONS[asked] if asked else None
    if mode == "melee" and not w.melee or mode == "ranged" and not w.ranged:
        raise InputError(f"A {w.name} is not a {mode} weapon: leave `{asked}` out, or name a {mode} weapon with `weapon:`.")
    if mode is None and w.melee != w.ranged:
        mode = "melee" if w.melee else "ranged"
    return mode


def _reach(enc: Encounter, w: Weapon) -> int:
    return w.reach or values(enc).reach


def _reach_cells(enc: Encounter, grid: Grid, c: Combatant, w: Weapon) -> list[Cell]:
    """Squares a standing mini's melee weapon reaches: straight ahead, not through walls."""
    cells: list[Cell] = []
    here = square_of(c)
    for _ in range(_reach(enc, w)):
        ahead = grid.step(here, facing_of(c))
        if ahead is None or ahead in blocked(grid):
            break
        cells.append(ahead)
        here = ahead
    return cells


def _check_melee(enc: Encounter, grid: Grid, c: Combatant, t: Combatant, w: Weapon) -> None:
    if c.status == "downed":
        if not grid.adjacent(square_of(c), square_of(t)):
            raise IllegalAction(f"{c.name} is downed: its melee attack needs an adjacent target (N, E, S or W).")
        return
    if square_of(t) in _reach_cells(enc, grid, c, w):
        return
    side = grid.direction(square_of(c), square_of(t))
    if side is not None and len(side) == 1:
        raise IllegalAction(
            f"{t.name} is next to {c.name} but not in {c.name}'s front facing square ({c.name} faces "
            f"{c.facing}): turn with `/move facing:{side}` first."
        )
    reach = _reach(enc, w)
    more = f" (the {w.name} reaches {reach} squares straight ahead): move within reach" if reach > 1 else ": move next to it"
    raise IllegalAction(f"{c.name} is not adjacent to {t.name}: melee needs an adjacent target in the front facing{more} "
                        f"with `/move` first.")


def _check_ranged(enc: Encounter, grid: Grid, c: Combatant, t: Combatant, w: Weapon) -> tuple[int, int]:
    """Arc, range and sight; returns ``(range, increment)``."""
    a, b = square_of(c), square_of(t)
    if c.status != "downed" and not grid.in_arc(a, facing_of(c), b):
        raise IllegalAction(
            f"{t.name} is not in {c.name}'s front 90 degree arc (facing {c.facing}): turn towards "
            f"{grid.facing_towards(a, b)} first."
        )
    distance = range_between(enc, grid, a, b)
    increment = w.increment or values(enc).range_increment
    longest = increment * values(enc).max_increments
    if distance is None or distance > longest:
        away = "no way round the walls" if distance is None else f"{plural(distance, 'square')} away"
        raise IllegalAction(f"{t.name} is {away}: the {w.name} reaches {longest} at most: move closer with `/move` first.")
    if not clear_line(enc, grid, a, b, enc.occupied(exclude=c) - {b}):
        raise IllegalAction(
            f"{c.name} has no line of sight to {t.name}: a mini or an obstacle is in the way. Move to a clear line first."
        )
    return distance, increment


def _faces(grid: Grid, o: Combatant, cell: Cell | None) -> bool:
    at = o.cell
    return bool(o.facing and at and grid.front(at, o.facing) == cell)


def _standing(group: Iterable[Combatant]) -> list[Combatant]:
    return [o for o in group if o.on_board and o.status == "active"]


def _melee_modifiers(enc: Encounter, grid: Grid, c: Combatant, t: Combatant) -> tuple[list[Modifier], bool]:
    """Co-ordinated attack, backstab, distraction, coup-de-grace bonus; and whether it is a backstab."""
    a, b = square_of(c), square_of(t)
    helpers = [x.name for x in _standing(enc.allies_of(c)) if grid.adjacent(square_of(x), b) and _faces(grid, x, b)]
    distractors = [
        o.name
        for o in _standing(enc.enemies_of(c))
        if o is not t and grid.adjacent(square_of(o), a) and _faces(grid, o, a)
    ]
    straight = a.col == b.col or a.row == b.row
    backstab = bool(t.facing and straight and grid.facing_towards(a, b) == t.facing)
    mods = []
    if helpers:
        mods.append(mod("coordinated", len(helpers), *helpers))
    if backstab:
        mods.append(mod("backstab", 1))
    if distractors:
        mods.append(mod("distraction", -len(distractors), *distractors))
    if t.status == "downed":
        mods.append(mod("cdg_melee", 1))
    return mods, backstab


def _ranged_modifiers(enc: Encounter, grid: Grid, c: Combatant, t: Combatant, distance: int, increment: int) -> list[Modifier]:
    """Firing into melee and the range penalty (doubled against a downed target)."""
    mods = []
    near = [a.name for a in enc.allies_of(c) if a.on_board and grid.adjacent(square_of(a), square_of(t))]
    if near:
        mods.append(mod("into_melee", -len(near), *near))
    penalty = distance // increment
    if penalty:
        if t.status == "downed":
            mods.append(mod("range_downed", -penalty * 2, distance, increment))
        else:
            mods.append(mod("range", -penalty, distance, increment))
    return mods


def _shields(grid: Grid, c: Combatant, t: Combatant, melee: bool) -> list[Modifier]:
    """Shield and buckler bonuses against an attacker in the target's front arc."""
    if not t.facing or not grid.in_arc(square_of(t), t.facing, square_of(c)):
        return []
    held = set(t.sheet.get("weapons") or [])
    out = [mod("shield", 1)] if "shield" in held else []
    if "buckler" in held and melee:
        out.append(mod("buckler", 2))
    return out


def _fighters(enc: Encounter, action: Attack | CoupDeGrace) -> tuple[Combatant, Combatant]:
    """The attacker and a target it may attack at all."""
    c = enc.get(action.actor)
    return c, attack_target(enc, c, action.target, foe=True, gone="out of action", on_map=True)


def _aim(
    enc: Encounter, grid: Grid, c: Combatant, t: Combatant, w: Weapon, asked: str | None
) -> tuple[Mode, list[Modifier], bool, int]:
    """Check the attack is legal; return its mode, modifiers, whether it is a backstab, and the range."""
    mode = _mode(w, asked)
    if mode is None:  # a versatile weapon: melee when the target is in reach
        in_reach = (
            grid.adjacent(square_of(c), square_of(t))
            if c.status == "downed"
            else square_of(t) in _reach_cells(enc, grid, c, w)
        )
        mode = "melee" if in_reach else "ranged"
    backstab = False
    if mode == "melee":
        _check_melee(enc, grid, c, t, w)
        distance = grid.distance(square_of(c), square_of(t), diagonal=ruleset(enc).diagonal)
        mods, backstab = _melee_modifiers(enc, grid, c, t)
    else:
        distance, increment = _check_ranged(enc, grid, c, t, w)
        mods = _ranged_modifiers(enc, grid, c, t, distance, increment)
    if c.status == "downed":
        mods.append(mod("downed", DOWNED_PENALTY))
    return mode, mods + modifiers(enc.effects, c.name, "attack"), backstab, distance


def _roll(dice: Dice, c: Combatant, w: Weapon, mods: list[Modifier], dv: int) -> tuple[int, list[int]]:
    """The d6 with the crossbow's reroll and the curved sword's +1 (added to ``mods``)."""
    natural = dice.die(6)
    rolled = [natural]
    s = CdgCombatant.of(c)
    if w.name == "crossbow" and natural == 2 and not s.reroll and natural + sum(m.value for m in mods) < dv:
        s.reroll = True
        natural = dice.die(6)
        rolled.append(natural)
    if w.name == "curved sword" and natural <= 3:
        mods.append(mod("curved_sword", 1))
    return natural, rolled


def attack(
    enc: Encounter, grid: Grid, action: Attack | CoupDeGrace, dice: Dice, words: OptionValues, special_cdg: bool
) -> list[Event]:
    """An attack; ``words``: its `ATTACK_WORDS`; ``special_cdg`` is the draft's own coup-de-grace action (4 MP, melee only)."""
    c, t = _fighters(enc, action)
    events = activate(enc, c)
    if ruleset(enc).cdg_action and t.status == "downed" and not special_cdg:
        raise IllegalAction(
            f"{t.name} is downed: in the {DRAFT_VARIANT} rules finishing it is a coup-de-grace: "
            f"use `/coupdegrace` ({DRAFT_CDG_COST} MP, melee only)."
        )
    if special_cdg and c.status == "downed":
        raise IllegalAction(f"{c.name} is downed: a coup-de-grace is not among a downed mini's actions.")
    w = _pick_weapon(enc, c, action.weapon)
    mode, mods, backstab, distance = _aim(enc, grid, c, t, w, words["mode"])
    if special_cdg and mode != "melee":
        raise IllegalAction("Ranged weapons cannot make a coup-de-grace: use a melee weapon.")
    if special_cdg:  # "the base cost of 2 movement points is always doubled to 4"
        cost, why = DRAFT_CDG_COST, ""
    else:
        cost, why = cost_here(enc, grid, c, RANGED_COST if mode == "ranged" and c.status == "active" else 0)
    left = spend(c, cost, "make a coup-de-grace" if special_cdg else "shoot", why)
    guard = _shields(grid, c, t, mode == "melee") + modifiers(enc.effects, t.name, "defence")
    dv = defence(t) + sum(m.value for m in guard)
    with dice.rolling_for(c.name):
        natural, rolled = _roll(dice, c, w, mods, dv)
    total = natural + sum(m.value for m in mods)
    hit = total >= dv
    used = CdgCombatant.of(c).used
    used[w.name] = used.get(w.name, 0) + 1
    roll = Roll(
        dice=rolled, label="d6", kept=natural if len(rolled) > 1 else None, modifiers=mods,
        total=total, against=dv, versus=Term(code="DV"), success=hit,
    )
    events.append(
        Struck(
            actor=c.name, target=t.name, weapon=w.name, roll=roll, mode=mode, range=distance, dv=defence(t),
            cost=cost, left=left, defence=guard, coup_de_grace=t.status == "downed", reroll=len(rolled) > 1,
        )
    )
    if hit:
        events += _on_hit(enc, grid, c, t, w, natural, backstab, words["push"])
    elif w.name == "fencing sword" and c.status == "active":
        CdgCombatant.of(c).mp = left + 2
        events.append(Finesse(actor=c.name, gained=2, left=left + 2))
    if c.status == "downed":
        events += finish(enc, c, dice)
    return events


def _on_hit(
    enc: Encounter, grid: Grid, c: Combatant, t: Combatant, w: Weapon, natural: int, backstab: bool, asked_push: bool
) -> list[Event]:
    """Damage (with each weapon's bonus), status changes and pushes."""
    bonuses: list[str] = []
    if w.name == "axe" and natural == 6:
        bonuses.append("axe")
    if w.name == "assassin's knife" and backstab:
        bonuses.append("knife")
    if w.name == "glaive" and natural in (3, 4):
        bonuses.append("glaive")
    pushes = w.name == "pistol" or (w.name == "hammer" and (values(enc).hammer_push == "always" or asked_push))
    push_to: Cell | None = None
    stop = None
    if pushes:
        square = grid.step(square_of(t), _push_direction(enc, grid, square_of(c), square_of(t)))
        if is_open(grid, enc.occupied(exclude=t), square):
            push_to = square
        else:
            stop = blocker(enc, grid, square)
            if w.name == "hammer":
                bonuses.append("hammer")
    die = not DIE_BONUSES.isdisjoint(bonuses)  # a bonus the attacker's die gave: the event names both
    events = damage(enc, t, 1 + len(bonuses), bonuses, stop if w.name == "hammer" else None,
                    by=c.name if die else None, natural=natural if die else None)
    if w.name == "pistol" and stop is not None and t.on_board:
        events.append(PushCancelled(actor=c.name, weapon=w.name, blocker=stop))
    if push_to is not None and t.on_board:
        events.append(Pushed(actor=c.name, target=t.name, weapon=w.name, path=[t.position or "", push_to.name]))
        t.position = push_to.name
    return events


def _push_direction(enc: Encounter, grid: Grid, a: Cell, b: Cell) -> str:
    """Straight back from ``a`` through ``b``: the side nearest that line; on an exact diagonal
    the text says nothing, and option `diagonal_push` picks (`clockwise` by default)."""
    dx, dy = b.col - a.col, b.row - a.row
    if dx == 0 or abs(dx) != abs(dy):
        return grid.facing_towards(a, b)
    back = ("N" if dy < 0 else "S") + ("E" if dx > 0 else "W")
    turn = values(enc).diagonal_push
    if turn == "diagonal":
        return back
    return {"clockwise": {"NE": "E", "SE": "S", "SW": "W", "NW": "N"},
            "counter-clockwise": {"NE": "N", "SE": "E", "SW": "S", "NW": "W"}}[turn][back]


def damage(enc: Encounter, t: Combatant, amount: int, bonuses: list[str], stop: Blocker | None = None,
           by: str | None = None, natural: int | None = None) -> list[Event]:
    """``t`` wounded by ``amount``, with ``bonuses`` of the attack ``by`` made with its die ``natural``; its HP
    stop at -1 (`LEAST_HP`), as `/combatant hp` stops them: "-1HP or less" is out of action, off the board."""
    before = t.hp or 0
    after = max(LEAST_HP, before - amount)
    event = Wounded(actor=t.name, amount=amount, before=before, after=after, bonuses=bonuses, blocker=stop,
                    by=by, natural=natural)
    return [event, *set_hp(enc, t, after)]


def set_hp(enc: Encounter, c: Combatant, hp: int, facing: str | None = None) -> list[Event]:
    """Set HP and the status it means: 0 downed, -1 or less out of action."""
    c.hp = hp
    if hp <= LEAST_HP and c.status != "out":
        c.status, c.position, c.facing = "out", None, None
        enc.order = [n for n in enc.order if n != c.name]
        return [Standing(actor=c.name, status="out", cause="out")]
    if hp == 0 and c.status == "active":
        CdgCombatant.of(c).last_facing = c.facing
        c.status, c.facing = "downed", None
        return [Standing(actor=c.name, status="downed", cause="zero")]
    if hp > 0 and c.status == "downed":
        c.status = "active"
        c.facing = facing or CdgCombatant.of(c).last_facing or "N"
        return [Standing(actor=c.name, status="active", cause="stands", facing=c.facing)]
    return []
