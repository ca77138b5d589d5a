"""The `/act` actions of the damage-grid game, declared once, and their handlers.

- ``lunge``: "A Lunge costs 1 Combat Point and this is the only CP that can be spent during the
  activation. The model must be able to move to an adjacent square from the target. If the model
  fails to damage the target they have fallen to the ground." The move is paid in Speed points
  (``to=CELL``, else the nearest square next to the target from which the weapon reaches it, its own
  when it is there: a square diagonal to the target is Reach 2), and the lunger ends facing the target
  (one beside a target it does not face, or with the target directly behind, turns to it); then one attack.
- ``grapple``: "Both model and target roll an attack using their Health as the Power. The side
  with the greater number of same facings is the winner" (a tie holds nobody); each ally of the
  grappler next to the target adds 1 Power. 1 Combat Point: it is one of the text's "Special Attacks",
  made in a Combat activation, before or after the model's other attacks in it. Dice for ``roll:``: the grappler's,
  then the target's.
- ``break``: the grappled model spends 1 Combat Point on the same test against its strongest holder.
  A held model can do nothing else: "stop it from moving and performing any other activation
  that to break the grapple" (`turns.activate` refuses the rest; `/init next` still passes).
"""
from __future__ import annotations

from rules.actions import (
    Act,
    ActionContext,
    ActionSpec,
    ActionTable,
    Attack,
    CoupDeGrace,
)
from rules.dice import Dice
from rules.errors import IllegalAction, InputError
from rules.events import Event, StatusChanged
from rules.geometry import Cell, Grid
from rules.models import Combatant, Encounter
from rules.options import OptionSet, keyed_words, name_word
from rules.roster import note_gm_change
from rules.system import Action
from rules.systems.damage_grid import asking, blasts, cover
from rules.systems.damage_grid.attacks import (
    ATTACK_WORDS,
    FORCE_WORDS,
    choose_weapon,
    one_weapon,
    spend_cp,
    strike,
)
from rules.systems.damage_grid.events import (
    GrappleTest,
    GridDamage,
    GridMarked,
    ProneChanged,
)
from rules.systems.damage_grid.grid import HEALTH, MIND
from rules.systems.damage_grid.mode import largest_group
from rules.systems.damage_grid.movement import find_path, walk
from rules.systems.damage_grid.options import values
from rules.systems.damage_grid.reach import adjacent, reach_to
from rules.systems.damage_grid.sheet import Weapon, carried, release
from rules.systems.damage_grid.state import DgCombatant, DgEncounter
from rules.systems.damage_grid.turns import activate, marked_out, pool
from rules.targets import attack_target, cell_of, need_target

__all__ = ["ACTIONS", "COMMANDS", "attack", "coup_de_grace"]


def _may_start(enc: Encounter, c: Combatant | None) -> bool:
    if c is None or not enc.started or c.status != "active":
        return False
    return enc.current is None and c in pool(enc, c.side)


def _free(enc: Encounter, c: Combatant | None) -> bool:
    """Not held in a grapple (a held model may only try to break it)."""
    return c is not None and not DgCombatant.of(c).grappled_by


def _held(enc: Encounter, c: Combatant | None) -> bool:
    return c is not None and bool(DgCombatant.of(c).grappled_by) and (_may_start(enc, c) or enc.current == c.name)


def _model_targeted(enc: Encounter, c: Combatant, name: str | None, verb: str = "attack") -> Combatant:
    """The model ``c`` names to attack: named, not itself, not destroyed, both on the map (`rules.targets`)."""
    return attack_target(enc, c, name, verb=verb, gone="destroyed", on_map=True)


#: a Lunge's words: where to, and an attack's
LUNGE_WORDS = OptionSet(
    name_word("to", "the square to lunge to (default: the nearest next to the target)", accepts="CELL"),
    *ATTACK_WORDS.options,
)
#: the GM's ``damage`` and ``heal``: hits per location of the target's grid (or carried weapon)
MARK_WORDS = OptionSet(keyed_words("hits", "N hits on that location or carried weapon, e.g. `health=2 mind=1` or `rifle=1`",
                                   1, 99, "LOCATION=N", "health=2"))
HEAL_WORDS = OptionSet(keyed_words("hits", "N hits cleared from that location or carried weapon, e.g. `health=1`",
                                   1, 99, "LOCATION=N", "health=1"))
#: the answer to a target's flips (a button sends ``choice=`` and the question's ``tag=``)
ANSWER_WORDS = OptionSet(
    name_word("choice", "`least-harm` (the flips that leave the least harm), `none` (no flips), or flips like "
              "`5>3,4>1` (a neighbouring face 1, the opposite face 2)", bare=True, accepts="ANSWER"),
    name_word("flips", "these flips (the same as typed alone)", accepts="5>3,4>1"),
    name_word("tag", "the question answered (its buttons send it)", accepts="TAG"),
)


ACTIONS = ActionTable(
    ActionSpec(
        "lunge",
        "move next to the target and attack it with exactly 1 Combat Point; no damage and the lunger falls prone",
        cost="a Lunge activation, 1 CP",
        target=True,
        words=LUNGE_WORDS,
        legal=lambda enc, c: _free(enc, c) and _may_start(enc, c),
        handler=lambda ctx, action: asking.declared(ctx.encounter, action, ctx.dice, run_declared),
    ),
    ActionSpec(
        "grapple",
        "hold an adjacent target: both roll their Health in dice, the larger group of equal faces wins; allies next "
        "to the target add 1 Power each; melee attacks on a grappled model get +2 Accuracy",
        cost="a Combat activation, 1 CP",
        target=True,
        words=FORCE_WORDS,
        legal=lambda enc, c: _free(enc, c) and (_may_start(enc, c) or (c is not None and enc.current == c.name)),
        handler=lambda ctx, action: _grapple(ctx, action),
    ),
    ActionSpec("break", "try to break a grapple holding you (the same test)", cost="1 CP", words=FORCE_WORDS, legal=_held,
               handler=lambda ctx, action: _break(ctx, action)),
    ActionSpec(
        "damage",
        "mark hits on a location of the target's grid without an attack (no Shield, Body or arrows; a carried "
        "weapon's or equipment's name marks its Health): Mind 0 makes it inert, Health 0 destroys it",
        gm_only=True,
        target=True,
        words=MARK_WORDS,
        handler=lambda ctx, action: _marks(ctx, action, heal=False),
    ),
    ActionSpec(
        "heal",
        "clear hits from locations of the target's grid (up to each one's whole value): an inert model whose Mind "
        "is above 0 again is active",
        gm_only=True,
        target=True,
        words=HEAL_WORDS,
        handler=lambda ctx, action: _marks(ctx, action, heal=True),
    ),
    ActionSpec(
        asking.ANSWER,
        "choose the flips of an attack on your model at a negative Accuracy (encounter option `target_flips=ask`: "
        "the bot asks by direct message with buttons, and this is the same answer typed); a GM may answer for the player",
        cost="free",
        words=ANSWER_WORDS,
        legal=lambda enc, c: c is not None and (a := DgEncounter.of(enc).asking) is not None and a.target == c.name,
        handler=lambda ctx, action: asking.answer(ctx.encounter, action, ctx.words, ctx.dice, run_declared),
    ),
)


def _lunge(ctx: ActionContext, action: Act) -> list[Event]:
    enc, grid, words = ctx.encounter, ctx.need_grid(), ctx.words
    c = enc.get(action.actor)
    t = _model_targeted(enc, c, action.target, "lunge at")
    here, there = cell_of(c), cell_of(t)
    w = choose_weapon(c, action.weapon)
    if w.cp > 1:
        raise IllegalAction(f"A Lunge spends exactly 1 Combat Point: the {w.name} costs {w.cp}. Attack with it in a Combat activation.")
    events = activate(enc, c, "lunge")
    st = DgCombatant.of(c)
    if st.cp < 1:
        raise IllegalAction(f"{c.name} has no Combat Point left for a Lunge this round.")
    if words.to:
        goal = grid.parse(words.to)
        if not adjacent(goal, there) or goal == there:
            raise IllegalAction(f"{goal.name} is not next to {t.name}: a Lunge ends next to its target.")
        lying = reach_to(goal, grid.facing_towards(goal, there), there)  # a square diagonal to the target: Reach 2
        if lying > w.reach and not (values(enc).extended_reach == "yes" and not w.melee):
            raise IllegalAction(
                f"{goal.name} is diagonal to {t.name} (Reach {lying}), beyond the {w.name}'s Reach {w.reach}: lunge to "
                f"a square beside {t.name}, or leave out `to=` to step beside it."
            )
        cells = find_path(enc, grid, c, goal, st.speed_left - (1 if st.prone else 0)) if goal != here else []
    else:
        cells = _lunge_path(enc, grid, c, t, w)
    moved = walk(enc, grid, c, cells)
    facing = grid.facing_towards(cell_of(c), there)  # "combines movement and combat": it ends facing the target
    if facing != c.facing or cells:  # (one directly behind too, which it reaches either way)
        c.facing = moved.facing = facing
    if cells or moved.facing or moved.stood is not None:
        events.append(moved)
    st.cp -= 1
    st.activation, st.speed_left = "lunged", 0
    struck = strike(enc, grid, c, t, w, words, ctx.dice, special="lunge")
    damaged = any(isinstance(e, GridDamage) and any(h.taken for h in e.locations) for e in struck)
    events += struck
    if not damaged and not st.prone:
        st.prone = True
        events.append(ProneChanged(actor=c.name, prone=True, cause="lunge"))
    return events


def _lunge_path(enc: Encounter, grid: Grid, c: Combatant, t: Combatant, w: Weapon) -> list[Cell]:
    """The steps of a Lunge with ``w`` at ``t`` (no ``to=``): to the square next to the target, its own when it is
    there, from which the weapon reaches it facing it (a square diagonal to the target is Reach 2), then the
    nearest in steps, then in a straight line; refused, saying why, when none it can reach will do."""
    here, there, left = cell_of(c), cell_of(t), DgCombatant.of(c).speed_left

    def reaches(n: Cell) -> bool:
        return reach_to(n, grid.facing_towards(n, there), there) <= w.reach

    near = [n for n in grid.neighbours(there, diagonal=True) if enc.at(n) is None or n == here]
    near.sort(key=lambda n: (not reaches(n), grid.distance(here, n, diagonal=True),
                             (n.col - here.col) ** 2 + (n.row - here.row) ** 2, n.row, n.col))
    stranded = True  # no square next to the target within its Speed points
    points = f"{left} Speed point{'s' if left != 1 else ''}"
    for goal in near:
        try:
            found = find_path(enc, grid, c, goal, left) if goal != here else []
        except IllegalAction:
            continue
        if reaches(goal) or (values(enc).extended_reach == "yes" and not w.melee):
            return found
        stranded = False
        break
    if stranded:
        raise IllegalAction(f"{c.name} cannot reach a square next to {t.name} with {points}: move closer in a "
                            f"Move activation and attack in the next.")
    raise IllegalAction(
        f"From the squares next to {t.name} that {c.name} can reach with {points} the {w.name} (Reach "
        f"{w.reach}) does not reach it (a square diagonal to the target is Reach 2): lunge with a weapon of longer "
        f"Reach, or move in a Move activation and attack in the next."
    )


def _helpers(enc: Encounter, a: Combatant, t: Combatant) -> list[str]:
    """``a``'s allies next to ``t``, who aid it: "Additional models can aid in a Grapple each increasing the Power"."""
    there = t.cell
    return [o.name for o in enc.allies_of(a)
            if o.status == "active" and o.cell and there and adjacent(o.cell, there) and o.name != t.name]


def _test(enc: Encounter, a: Combatant, t: Combatant, dice: Dice, breaking: bool) -> tuple[GrappleTest, bool]:
    """``a`` grapples ``t``, or (``breaking``) tries to break ``t``'s grapple: "The test is the same", so the
    holder's helpers still next to the held model add to the grapple's Power as they did to the grapple."""
    helpers = _helpers(enc, a, t)
    target_helpers = _helpers(enc, t, a) if breaking else []
    mine = max(DgCombatant.of(a).values.get("health", 0), 0) + len(helpers)
    theirs = max(DgCombatant.of(t).values.get("health", 0), 0) + len(target_helpers)
    with dice.rolling_for(a.name):
        rolled = [int(x) for x in dice.roll(max(mine, 1), 6)]
    with dice.rolling_for(t.name):
        other = [int(x) for x in dice.roll(max(theirs, 1), 6)]
    best, their_best = largest_group(rolled), largest_group(other)
    won = best > their_best
    return GrappleTest(actor=a.name, target=t.name, dice=rolled, target_dice=other, best=best,
                       target_best=their_best, helpers=helpers, target_helpers=target_helpers, won=won,
                       breaking=breaking), won


def _grapple(ctx: ActionContext, action: Act) -> list[Event]:
    enc = ctx.encounter
    ctx.need_grid()
    c = enc.get(action.actor)
    t = _model_targeted(enc, c, action.target, "grapple")
    if not adjacent(cell_of(c), cell_of(t)):
        raise IllegalAction(f"{t.name} is not next to {c.name}: a Grapple needs an adjacent target.")
    if c.name in DgCombatant.of(t).grappled_by:
        raise IllegalAction(f"{c.name} already holds {t.name}.")
    events = activate(enc, c, "combat")  # one of the "Special Attacks": it shares a Combat activation with attacks
    spend_cp(enc, c, ctx.words)
    test, won = _test(enc, c, t, ctx.dice, False)
    if won:
        DgCombatant.of(t).grappled_by.append(c.name)
    return events + [test]


def _break(ctx: ActionContext, action: Act) -> list[Event]:
    enc = ctx.encounter
    ctx.need_grid()
    c = enc.get(action.actor)
    holders = [h for n in DgCombatant.of(c).grappled_by if (h := enc.find(n)) is not None]
    if not holders:
        raise IllegalAction(f"{c.name} is not held in a grapple.")
    events = activate(enc, c, "break")
    spend_cp(enc, c, ctx.words)
    strongest = max(holders, key=lambda h: DgCombatant.of(h).values.get("health", 0))
    test, won = _test(enc, c, strongest, ctx.dice, True)
    if won:
        DgCombatant.of(c).grappled_by = []
    return events + [test]


def _marks(ctx: ActionContext, action: Act, heal: bool) -> list[Event]:
    """The GM's ``damage`` or ``heal``: ``options`` give hits per location (or carried weapon) of the target."""
    enc, hits = ctx.encounter, ctx.words.hits
    ctx.need_grid()
    t = enc.get(need_target(action.target, "heal" if heal else "damage"), "target")
    st = DgCombatant.of(t)
    names = [*st.values, *st.weapon_health]
    word = "clear" if heal else "mark"
    if t.status == "out":
        raise IllegalAction(f"{t.name} is destroyed: its grid stays as it is (`/undo` takes back what destroyed it).")
    if not hits:
        raise InputError(f"Say where and how many hits to {word}: `options:\"health=2\"` ({t.name}'s locations and "
                         f"weapons: {', '.join(names)}).")
    events: list[Event] = []
    for key, n in hits.items():
        loc = key.strip().lower()
        if loc not in names:
            raise InputError(f"`{key[:20]}` is not a location of {t.name}'s grid or a weapon it carries: use "
                             f"{', '.join(names)}.")
        table, full = (st.values, st.full) if loc in st.values else (st.weapon_health, carried(t))
        before = table[loc]
        most = full.get(loc, before) - before if heal else before
        if n > most:
            has = f"has {before} of {full.get(loc, before)}" if heal else f"has {before} left"
            room = f"{word} at most {most}" if most else f"there is nothing to {word}"
            raise IllegalAction(f"{t.name}'s {loc.title()} {has}: {room}.")
        table[loc] = after = before + n if heal else before - n
        events.append(GridMarked(actor=t.name, location=loc, change=after - before, before=before, after=after, healed=heal))
    note_gm_change(enc, action.is_gm, t, [f"{e.location}{e.change:+d} (now {e.after})" for e in events if isinstance(e, GridMarked)])
    if heal:
        if t.status == "downed" and st.values.get(MIND, 1) > 0:
            t.status = "active"
            events.append(StatusChanged(actor=t.name, status="active", cause="healed"))
        return events
    gone = st.values.get(HEALTH, 1) <= 0
    if gone or (st.values.get(MIND, 1) <= 0 and t.status == "active"):
        release(enc, t)
        t.status = "out" if gone else "downed"
        events.append(StatusChanged(actor=t.name, status=t.status, cause="health0" if gone else "mind0"))
        events += marked_out(enc, t, ctx.dice, blasts.phase_begins)
    return events


def attack(ctx: ActionContext, action: Attack) -> list[Event]:
    """`/attack`: a model, a cover square, or (an area weapon) a square or a model's square."""
    enc, grid, words = ctx.encounter, ctx.need_grid(), ctx.words
    c = enc.get(action.actor)
    w = choose_weapon(c, action.weapon)
    square = action.target if action.target and enc.find(action.target) is None else None  # not a model's name
    if w.area and square:
        centre = grid.parse(square)
    elif w.area:
        centre = cell_of(_model_targeted(enc, c, action.target))
    elif square and cover.is_cover(enc, grid, square):
        return cover.attack_cover(enc, grid, c, action, words, ctx.dice)
    elif square and (why := cover.not_a_target(enc, grid, square)):
        raise InputError(why)
    t = None if w.area else _model_targeted(enc, c, action.target)
    events = activate(enc, c, "combat")
    one_weapon(c, w)
    forced = spend_cp(enc, c, words, w.cp)
    if t is None:
        return events + blasts.area_attack(enc, grid, c, centre, w, words, ctx.dice, forced)
    return events + strike(enc, grid, c, t, w, words, ctx.dice, forced=forced)


def coup_de_grace(ctx: ActionContext, action: Action) -> list[Event]:
    """`/coupdegrace`: an attack on an inert model, with only its positive Accuracy modifiers."""
    assert isinstance(action, CoupDeGrace)
    enc, grid = ctx.encounter, ctx.need_grid()
    c = enc.get(action.actor)
    t = _model_targeted(enc, c, action.target)
    if t.status != "downed":
        raise IllegalAction(f"{t.name} is not inert: a coup de grâce is for a model at Mind 0. Use `/attack`.")
    w = choose_weapon(c, action.weapon)
    events = activate(enc, c, "combat")
    one_weapon(c, w)
    forced = spend_cp(enc, c, ctx.words, w.cp)
    return events + strike(enc, grid, c, t, w, ctx.words, ctx.dice, special="coup", forced=forced)


#: the words of `/attack` and `/coupdegrace` (`RuleSystem.commands`)
COMMANDS = ActionTable(
    ActionSpec("attack", "an attack", words=ATTACK_WORDS),
    ActionSpec("coupdegrace", "an attack on an inert model", words=ATTACK_WORDS),
)


def run_declared(enc: Encounter, action: Action, dice: Dice) -> list[Event]:
    """An attack or Lunge as declared (`asking.declared`), or run again with its target's chosen flips."""
    table, name = (COMMANDS, "attack") if isinstance(action, Attack) else (ACTIONS, "lunge")
    words = table.get(name).words.read_words(getattr(action, "options", {}), name)
    ctx = ActionContext(encounter=enc, grid=enc.grid(), options=values(enc), dice=dice, actor=enc.find(action.actor), words=words)
    if isinstance(action, Attack):
        return attack(ctx, action)
    assert isinstance(action, Act)
    return _lunge(ctx, action)
