"""TOTE's actions: the `/act` table (cost, help, options, when legal) and the handlers.

Every action is one of a combatant's one action a round: `perform` checks the round type and
the cost, runs the handler, spends the points and passes the turn on (`turns.settle`).
"""
from __future__ import annotations

from collections.abc import Callable

from rules.actions import (
    Act,
    ActionContext,
    ActionSpec,
    ActionTable,
    Attack,
    CoupDeGrace,
    Handler,
    Move,
)
from rules.effects import Effect, active, by, next_id
from rules.errors import IllegalAction, InputError, NotYourTurn
from rules.events import Event, mod
from rules.models import Combatant, Encounter
from rules.options import NO_WORDS, OptionSet, choice_option, name_word
from rules.report import plural
from rules.systems.tote import attacks, turns
from rules.systems.tote.events import (
    Defending,
    Disengaged,
    DistanceSet,
    InitiativeChanged,
    NoMove,
    NoReturn,
    Protecting,
    ReturnOffered,
    Spent,
    Tested,
)
from rules.systems.tote.movement import (
    BAND_WORDS,
    all_at,
    band_of,
    costs,
    distance_now,
    engaged_with,
    foes_in_fight,
    is_melee,
    move_band,
    pair_band,
    release,
    take_out,
    wanted_band,
)
from rules.systems.tote.options import opts
from rules.systems.tote.sheet import Weapon, is_enemy
from rules.systems.tote.skill import BONUS, KEEP, run_test
from rules.systems.tote.state import (
    DEFEND,
    PROTECT,
    Pending,
    ToteCombatant,
    ToteEncounter,
)
from rules.systems.tote.tables import BANDS, DISTANCE_COSTS, MELEE_COSTS

__all__ = ["ACTIONS", "COMMANDS", "acting", "perform", "attack", "move", "coup_de_grace"]

#: the `options:` words: a skill test's, the weapon, the ally, where a move goes and the distance
WEAPON = name_word("weapon", "the weapon")
ALLY = name_word("ally", "the ally")
TO = choice_option("to", BAND_WORDS, "where to", bare=True)
DISTANCE = choice_option("to", BANDS, "the distance", bare=True)
TEST_WORDS = OptionSet(KEEP, BONUS)
STRIKE_WORDS = OptionSet(WEAPON, KEEP, BONUS)
MOVE_WORDS = OptionSet(TO, KEEP, BONUS)
#: the melee-round actions that attack a foe in melee (one at a distance from every foe cannot take them)
MELEE_ATTACKS = frozenset({"assault", "assist", "grapple", "strike"})
#: the actions a combatant takes on its turn
Acting = Act | Attack | Move | CoupDeGrace


def _target(action: Acting) -> str | None:
    """The ``target`` the action names (a `/move` names none)."""
    return None if isinstance(action, Move) else action.target


def _in_melee(enc: Encounter, c: Combatant | None) -> bool:
    return is_melee(enc)


def _in_melee_with_a_foe(enc: Encounter, c: Combatant | None) -> bool:
    """A melee attack: in melee rounds, for one in melee with a foe."""
    return is_melee(enc) and (c is None or band_of(enc, c) == "melee")


def _at_distance(enc: Encounter, c: Combatant | None) -> bool:
    return not is_melee(enc)


def _may_move(enc: Encounter, c: Combatant | None) -> bool:
    """Move: in distance rounds, and in melee rounds for one not in melee with any foe (it kept its distance)."""
    return not is_melee(enc) or c is None or band_of(enc, c) != "melee"


def _melee_action(name: str, help: str, step: Step, *, target: bool = True, words: OptionSet = STRIKE_WORDS) -> ActionSpec:
    return ActionSpec(
        name, help, f"{MELEE_COSTS[name]} initiative, melee round", target=target, words=words,
        legal=_in_melee_with_a_foe if name in MELEE_ATTACKS else _in_melee,
        handler=on_turn(step),
    )


# -- who acts ---------------------------------------------------------------------------------------
def acting(enc: Encounter, action: Acting) -> Combatant:
    """The combatant named in ``action`` if it may act now, else a message saying who may."""
    if not enc.started:
        raise IllegalAction("Combat has not started: the GM starts it with `/init roll`.")
    c = enc.get(action.actor)
    if c.status != "active":
        raise IllegalAction(f"{c.name} is {'unconscious' if c.status == 'downed' else 'out of the fight'} and cannot act.")
    pending = ToteEncounter.of(enc).pending_return
    if pending and pending.by != c.name:
        raise NotYourTurn(f"{pending.by} first answers {pending.against}'s Assault (a free `/attack` or `/init next`).")
    if pending:
        return c
    if c.initiative is None:
        raise NotYourTurn(f"{c.name} has no initiative yet: the GM rolls it with `/init roll combatant:{c.name}`.")
    if ToteCombatant.of(c).acted == enc.round:
        raise NotYourTurn(f"{c.name} has already acted in round {enc.round}: wait for round {enc.round + 1}.")
    first = turns.waiting(enc)[0]
    if first is not c:
        def at(x: Combatant) -> str:  # a hidden combatant's initiative is the GM's to read
            return "" if enc.hidden(x) else f" ({x.initiative}{' initiative' if x is first else ''})"

        raise NotYourTurn(f"It is {first.name}'s turn{at(first)}: {c.name}{at(c)} acts later this round, highest initiative first.")
    return c


#: what one of a combatant's actions does once it may act (``c``) and has paid
Step = Callable[[ActionContext, Combatant, Acting], list[Event]]


def perform(ctx: ActionContext, c: Combatant, name: str, step: Step, action: Acting, cost: int | None = None) -> list[Event]:
    """Check the round type and the cost, take the step, spend, and pass the turn on."""
    enc = ctx.encounter
    table = costs(enc)
    if name == "move" and cost is None and is_melee(enc) and _may_move(enc, c):  # one that kept its distance moves too
        cost = opts(enc).melee_move_cost
    if name not in table and cost is None:
        if is_melee(enc):
            raise IllegalAction(
                f"{name.capitalize()} is a distance-round action and this is a melee round: "
                f"use {', '.join(MELEE_COSTS)} (or `/act action:disengage` to break off)."
            )
        raise IllegalAction(
            f"{name.capitalize()} is a melee-round action and this is a distance round (distance: {distance_now(enc)}): "
            f"use move, shoot or shoot-and-move."
        )
    cost = table[name] if cost is None else cost
    have = c.initiative or 0
    if cost > have:
        choices = dict(table)
        if is_melee(enc) and _may_move(enc, c):  # at a distance in a melee round: no melee attack, but a move
            choices = {n: v for n, v in choices.items() if n not in MELEE_ATTACKS}
            choices["move"] = opts(enc).melee_move_cost
        affordable = ", ".join(f"{n} {v}" for n, v in sorted(choices.items(), key=lambda kv: kv[1]) if v <= have)
        points = plural(have, "initiative point")
        raise IllegalAction(
            f"{c.name} has {points} and {name} costs {cost}: choose an action it can pay for ({affordable}) "
            "or pass with `/init next`."
        )
    c.initiative = have - cost
    spent = Spent(actor=c.name, action=name, cost=cost, before=have, after=c.initiative)
    results = step(ctx, c, action)
    ToteCombatant.of(c).acted = enc.round
    return [spent, *results, *turns.settle(enc)]


# -- the handlers ----------------------------------------------------------------------------------
def _strike(ctx: ActionContext, c: Combatant, action: Acting) -> list[Event]:
    enc, dice, words = ctx.encounter, ctx.dice, ctx.words
    return attacks.strike(enc, c, action, dice, words, "strike")[0]


def _assault(ctx: ActionContext, c: Combatant, action: Acting) -> list[Event]:
    enc, dice, words = ctx.encounter, ctx.dice, ctx.words
    bonus = opts(enc).assault_bonus
    events, foe = attacks.strike(enc, c, action, dice, words, "assault", [mod("assault", bonus)])
    if foe.status != "active" or foe.initiative is None:
        return events
    if ToteCombatant.of(foe).acted == enc.round:
        return [*events, NoReturn(actor=foe.name)]
    ToteEncounter.of(enc).pending_return = Pending(by=foe.name, against=c.name)
    return [*events, ReturnOffered(actor=foe.name, against=c.name, bonus=bonus)]


def _assist(ctx: ActionContext, c: Combatant, action: Acting) -> list[Event]:
    enc, dice, words = ctx.encounter, ctx.dice, ctx.words
    friend = attacks.ally(enc, c, words["ally"], "assist")
    target = attacks.foe(enc, c, _target(action))
    if friend.initiative is None:
        raise IllegalAction(f"{friend.name} has no initiative yet to add to.")
    before = friend.initiative
    friend.initiative += 1
    gain = InitiativeChanged(actor=friend.name, before=before, after=friend.initiative, cause="assist", by=c.name)
    return [gain, *attacks.attack(enc, c, target, action, dice, words=words, skill="strike", what="assist", melee=True)[0]]


def _defend(ctx: ActionContext, c: Combatant, action: Acting) -> list[Event]:
    enc, dice, words = ctx.encounter, ctx.dice, ctx.words
    strike = attacks.strike(enc, c, action, dice, words, "defend")[0] if _target(action) else []
    if active(enc.effects, c.name, DEFEND) is None:
        enc.effects.append(
            Effect(id=next_id(enc.effects), name="Defend", target=c.name, ends="round_end", left=1, code=DEFEND, source=c.name)
        )
    before = c.initiative or 0
    c.initiative = before + 1
    return [
        Defending(actor=c.name, penalty=opts(enc).defend_penalty),
        InitiativeChanged(actor=c.name, before=before, after=c.initiative, cause="defend"),
        *strike,
    ]


def _disengage(ctx: ActionContext, c: Combatant, action: Acting) -> list[Event]:
    enc = ctx.encounter
    engaged = engaged_with(enc, c.name)
    if not engaged:
        raise IllegalAction(f"{c.name} is not engaged with anyone: there is nothing to disengage from.")
    if _target(action):
        other = enc.get(_target(action)).name
        if other not in engaged:
            raise IllegalAction(f"{c.name} is not engaged with {other}: it is engaged with {', '.join(engaged)}.")
    elif len(engaged) == 1:
        other = engaged[0]
    else:
        raise InputError(f"Name the foe to disengage from as `target`: {', '.join(engaged)}.")
    release(enc, c.name, other)
    ToteCombatant.of(c).disengaged = enc.round + 1
    events: list[Event] = [Disengaged(actor=c.name, other=other, until=enc.round + 1)]
    foe = enc.get(other)
    if pair_band(enc, c, foe) == "melee":  # "Move away from a foe": one band, to Close from it
        events += move_band(enc, c, "away", {}, ctx.dice, only=foe)
    return events


def _grapple(ctx: ActionContext, c: Combatant, action: Acting) -> list[Event]:
    enc, dice, words = ctx.encounter, ctx.dice, ctx.words
    if not isinstance(action, Move) and action.weapon:
        raise InputError("A Grapple is a Brawl attack with bare hands: leave `weapon` out.")
    target = attacks.foe(enc, c, _target(action))
    hold = Weapon("bare hands", opts(enc).grapple_damage, 0, "bash")
    return attacks.attack(enc, c, target, action, dice, words=words, skill="brawl", what="grapple", melee=True, arm=hold)[0]


def _intimidate(ctx: ActionContext, c: Combatant, action: Acting) -> list[Event]:
    enc, dice, words = ctx.encounter, ctx.dice, ctx.words
    t = attacks.foe(enc, c, _target(action))
    lvl = int(t.sheet["rating"] if is_enemy(t) else t.sheet["stag"])
    base = opts(enc).intimidate_base
    r, test = run_test(enc, c, "impress", base + lvl, dice, words)
    tested = Tested(actor=c.name, what="intimidate", target=t.name, test=test, base=base, level=lvl, level_of_enemy=is_enemy(t))
    if not r.success or t.initiative is None:
        return [tested]
    before = t.initiative
    t.initiative = max(0, before - r.successes)
    return [tested, InitiativeChanged(actor=t.name, before=before, after=t.initiative, cause="intimidated", by=c.name)]


def _protect(ctx: ActionContext, c: Combatant, action: Acting) -> list[Event]:
    enc, words = ctx.encounter, ctx.words
    if engaged_with(enc, c.name):
        raise IllegalAction(f"{c.name} is engaged: only an unengaged combatant can Protect. Disengage first.")
    friend = attacks.ally(enc, c, _target(action) or words["ally"], "protect")
    enc.effects = [e for e in enc.effects if not (e.code == PROTECT and e.source == c.name)]
    enc.effects.append(Effect(id=next_id(enc.effects), name=by("Protect", c.name), target=friend.name, ends="round_end",
                              left=1, code=PROTECT, source=c.name))
    return [Protecting(actor=c.name, ally=friend.name)]


def _shoot(ctx: ActionContext, c: Combatant, action: Acting) -> list[Event]:
    enc, dice, words = ctx.encounter, ctx.dice, ctx.words
    return attacks.shoot(enc, c, action, dice, words)


def _move(ctx: ActionContext, c: Combatant, action: Acting) -> list[Event]:
    enc, dice, words = ctx.encounter, ctx.dice, ctx.words
    want = wanted_band(getattr(action, "to", None), words["to"])
    only = attacks.foe(enc, c, _target(action)) if _target(action) else None
    return move_band(enc, c, want, words, dice, only)


def _shoot_and_move(ctx: ActionContext, c: Combatant, action: Acting) -> list[Event]:
    enc, dice, words = ctx.encounter, ctx.dice, ctx.words
    want = wanted_band(None, words["to"])
    shot = attacks.shoot(enc, c, action, dice, words)
    if not foes_in_fight(enc, c):  # the shot downed the last foe: no Escape Foes against nobody
        return [*shot, NoMove(actor=c.name)]
    return shot + move_band(enc, c, want, words, dice)


def _coup_de_grace(ctx: ActionContext, c: Combatant, action: Acting) -> list[Event]:
    enc = ctx.encounter
    t = attacks.foe(enc, c, _target(action), downed=True)
    attacks.in_melee(enc, c, t)
    return take_out(enc, t, "out", "coup-de-grace")


# -- the commands ----------------------------------------------------------------------------------
def _return_attack(ctx: ActionContext, c: Combatant, action: Acting) -> list[Event]:
    enc = ctx.encounter
    st = ToteEncounter.of(enc)
    assert st.pending_return is not None
    assaulter = enc.get(st.pending_return.against)
    st.pending_return = None
    if _target(action) and enc.get(_target(action)) is not assaulter:
        raise IllegalAction(f"A return attack answers the Assault: its target is {assaulter.name}.")
    bonus = mod("return", opts(enc).assault_bonus)
    events, _ = attacks.attack(
        enc, c, assaulter, action, ctx.dice, words=ctx.words, skill="strike", what="return", melee=True, extra=[bonus]
    )
    ToteCombatant.of(c).acted = enc.round
    spent = Spent(actor=c.name, action="return", cost=0, before=c.initiative or 0, after=c.initiative or 0)
    return [spent, *events, *turns.settle(enc)]


def _only_return(c: Combatant) -> IllegalAction:
    return IllegalAction(f"{c.name} may only return the Assault now (`/attack`) or let it go (`/init next`).")


def on_turn(step: Step) -> Handler:
    """The handler of an action taken on the combatant's turn: it checks who may act (while an
    Assault waits for its answer, only `strike` or `assault` answer it), then `perform`s ``step``."""

    def handler(ctx: ActionContext, action: Act) -> list[Event]:
        c = acting(ctx.encounter, action)
        if ToteEncounter.of(ctx.encounter).pending_return:
            if action.action not in ("strike", "assault"):
                raise _only_return(c)
            return _return_attack(ctx, c, action)
        return perform(ctx, c, action.action, step, action)

    return handler


def attack(ctx: ActionContext, action: Attack) -> list[Event]:
    """`/attack`: a Strike in a melee round, a Shoot in a distance round, or the answer to an Assault."""
    enc = ctx.encounter
    c = acting(enc, action)
    if ToteEncounter.of(enc).pending_return:
        return _return_attack(ctx, c, action)
    if is_melee(enc):
        return perform(ctx, c, "strike", _strike, action)
    return perform(ctx, c, "shoot", _shoot, action)


def move(ctx: ActionContext, action: Move) -> list[Event]:
    """`/move`: one band, as `/act action:move`."""
    enc = ctx.encounter
    if action.path or action.facing:
        raise InputError("TOTE has no map: move with `to:` a band (far, close, melee) or `in`, `away`, `escape`.")
    c = acting(enc, action)
    if not _may_move(enc, c):
        raise IllegalAction(
            "In melee rounds nobody in melee moves between bands: break off with `/act action:disengage` (3 initiative); "
            "the GM sets a new distance with `/act action:distance`."
        )
    return perform(ctx, c, "move", _move, action)


def coup_de_grace(ctx: ActionContext, action: CoupDeGrace) -> list[Event]:
    """`/coupdegrace`: a melee blow that takes an unconscious foe out, at its own cost."""
    enc = ctx.encounter
    c = acting(enc, action)
    if ToteEncounter.of(enc).pending_return:
        raise _only_return(c)
    if not is_melee(enc):
        raise IllegalAction("A coup-de-grace is a melee blow: it waits for melee rounds.")
    return perform(ctx, c, "coup-de-grace", _coup_de_grace, action, cost=opts(enc).coup_de_grace_cost)


def _set_distance(ctx: ActionContext, action: Act) -> list[Event]:
    """The GM sets the distance (`gm_only` in the table: the service lets only the GM send it)."""
    enc, band = ctx.encounter, ctx.words["to"]
    if band is None:
        raise InputError("Give one distance in `options`: `far`, `close` or `melee`, like `options:far`.")
    st = ToteEncounter.of(enc)
    st.distance = band
    st.pending_return = None
    all_at(enc, band)
    if band != "melee":
        st.engaged = []
    return [DistanceSet(band=band, started=enc.started), *turns.settle(enc)]


ACTIONS = ActionTable(
    _melee_action("assault", "attack a foe at +2 to hit; the foe may return an attack at +2 for free, as its action for "
                  "the round (\"does count as the foe's action\": a foe that has acted this round returns none)", _assault),
    _melee_action("assist", "an ally gains 1 initiative, and a Strike test at a foe", _assist, words=OptionSet(ALLY, WEAPON, KEEP, BONUS)),
    _melee_action("defend", "attacks against you take -2 this round, gain 1 initiative; a Strike test if you name a target", _defend),
    _melee_action("disengage", "break off from a foe and move away from it, to Close: you count as disengaged for the next round",
                  _disengage, words=NO_WORDS),
    _melee_action("grapple", "a Brawl attack with bare hands", _grapple, words=TEST_WORDS),
    _melee_action("intimidate", "an Impress test against 7 + the foe's Rating (or a hero's Stag): each success takes 1 initiative from it", _intimidate, words=TEST_WORDS),
    _melee_action("protect", "if unengaged, name an ally: attacks on it hit you instead this round", _protect, words=OptionSet(name_word("ally", "the ally (or `target`)"))),
    ActionSpec(
        "shoot",
        "a Shoot test at a foe in range with a weapon that shoots (melee rounds: only if unengaged)",
        "3 initiative in a melee round, 0 in a distance round",
        target=True,
        words=STRIKE_WORDS,
        handler=on_turn(_shoot),
    ),
    _melee_action("strike", "a Strike test against a foe (if engaged, that foe)", _strike),
    ActionSpec(
        "move",
        "one band nearer or farther from your foes (or from the `target` foe); away from Far tries to Escape Foes",
        "0 initiative, distance round; melee round: one not in melee, option `melee_move_cost`",
        target=True,
        words=MOVE_WORDS,
        legal=_may_move,
        handler=on_turn(_move),
    ),
    ActionSpec(
        "shoot-and-move",
        "a Shoot test at the current range, then a move",
        "1 initiative, distance round",
        target=True,
        words=OptionSet(TO, WEAPON, KEEP, BONUS),
        legal=_at_distance,
        handler=on_turn(_shoot_and_move),
    ),
    ActionSpec(
        "distance",
        "set the distance for everyone: melee rounds, or distance rounds at Close or Far",
        gm_only=True,
        words=OptionSet(DISTANCE),
        handler=_set_distance,
    ),
)

#: the words of `/attack` (a Strike or a Shoot, or the answer to an Assault) and `/move`
COMMANDS = ActionTable(
    ActionSpec("attack", "a Strike in a melee round, a Shoot in a distance round", words=STRIKE_WORDS),
    ActionSpec("move", "one band from every foe, as `/act action:move` (which alone takes a `target` foe)", words=MOVE_WORDS),
)

# the distance table's names are the `/act` names too
assert set(DISTANCE_COSTS) <= set(ACTIONS.names)
