"""Attacks in the damage-grid game: the checks of reach and sight, Power, Accuracy, flips, damage.

The order of dice for ``roll:``: the Power dice in order, then the target's Mode (knock-down) test
dice when it must take one. Each reply shows every die before and after the flips, the faces on
the grid, what Shield and Body stopped, and what changed.

Choices where the text is silent: a "stationary target or attacker" gives +2 once; moving means
5 or more squares in consecutive Move activations with no phase between them without a move
(fast: more than 10); the reach-1 attack "using the current Health attribute of the model as its
Power" is the weapon ``bare`` (melee, Accuracy 0); the Power rolled is at least 1; the ``k``-th
Combat Point forced in a round costs ``k`` times ``forced_penalty`` Accuracy.
"""
from __future__ import annotations

from rules.dice import Dice
from rules.effects import modifiers
from rules.errors import IllegalAction, InputError
from rules.events import Checked, Event, Modifier, Roll, StatusChanged, Term, mod
from rules.geometry import Cell, Grid
from rules.models import Combatant, Encounter
from rules.options import OptionSet, OptionValues, flag_word, int_option, name_word
from rules.systems.damage_grid import asking, damage, flips, mode
from rules.systems.damage_grid.events import (
    DgAttack,
    Flip,
    GridDamage,
    ProneChanged,
)
from rules.systems.damage_grid.grid import ARSENAL, HEALTH, MIND, DamageGrid
from rules.systems.damage_grid.options import values
from rules.systems.damage_grid.reach import (
    Sight,
    adjacent,
    behind,
    in_front_rows,
    line_of_sight,
    reach_distance,
    reach_to,
    view,
)
from rules.systems.damage_grid.sheet import (
    Weapon,
    grid_of,
    release,
    size,
    weapon_said,
    weapons,
)
from rules.systems.damage_grid.state import DgCombatant
from rules.systems.damage_grid.turns import end_if_out, now
from rules.targets import cell_of

__all__ = ["BARE", "choose_weapon", "one_weapon", "check_reach", "power_of", "strike", "spend_cp", "ATTACK_WORDS", "NO_ATTACK_WORDS", "FORCE_WORDS", "SIZE_ACCURACY"]

#: "a model can always attack at Reach 1 ... using the current Health attribute of the model as its Power"
BARE = Weapon(name="bare", reach=1, power=0, accuracy=0, melee=True, health=1)
#: the environments that allow "only Reach 1 and without any Accuracy"
LIMITING = ("total-darkness", "extreme-brightness")
#: Accuracy by the target's size
SIZE_ACCURACY = {0: -3, 1: -1, 2: 0, 3: 1, 4: 3}
#: where the bot aims when the attacker names no location, in order of preference
AIMS = (HEALTH, MIND)
#: the `options:` words `/attack`, `/coupdegrace` and a Lunge read
ATTACK_WORDS = OptionSet(
    name_word("aim", "the location to aim the flips at", accepts="LOCATION"),
    name_word("flips", "explicit flips: a neighbouring face costs 1, the opposite face 2", accepts="5>3,4>1"),
    int_option("dice", None, 1, 99, "roll fewer Power dice than the attack's Power"),
    flag_word("low", "a weapon low on power: half its Power"),
    flag_word("force", "force the Combat Points the model lacks, each at a further Accuracy penalty"),
    int_option("acc", None, -20, 20, "an ability's Accuracy modifier", modifier=True),
    int_option("power", None, -20, 20, "an ability's Power modifier", modifier=True),
    name_word("arsenal", "the carried weapon an Arsenal hit damages", accepts="WEAPON"),
)
#: an attack's words when none is given (a pulse's or cloud's later strikes)
NO_ATTACK_WORDS = ATTACK_WORDS.read_words({}, "attack")
#: the words of an action that only spends Combat Points (a Grapple)
FORCE_WORDS = OptionSet(ATTACK_WORDS.get("force"))


def usable(c: Combatant) -> list[Weapon]:
    """The weapons it carries that still have Health."""
    health = DgCombatant.of(c).weapon_health
    return [w for w in weapons(c) if health.get(w.name, w.health) > 0]


def choose_weapon(c: Combatant, name: str | None) -> Weapon:
    ws = usable(c)
    if not name:
        if len(ws) == 1:
            return ws[0]
        if not ws:
            return BARE
        raise InputError(f"Name the weapon in `weapon`: {c.name} carries {', '.join(w.name for w in ws)} (or `bare`).")
    key = name.strip().lower()
    if key == "bare":
        return BARE
    found = next((w for w in ws if w.name == key), None)
    others = ", ".join(f"`{w.name}`" for w in ws)
    if found is None and any(w.name == key for w in weapons(c)):
        raise IllegalAction(f"{c.name}'s {key} is ruined (its Health is 0): attack with {others + ' or ' if others else ''}"
                            f"`bare` (Reach 1, its Health as Power).")
    if found is None:
        raise IllegalAction(f"{c.name} has no usable weapon `{name}`: it carries {', '.join(w.name for w in ws) or 'none'} (and `bare`).")
    return found


def one_weapon(c: Combatant, w: Weapon) -> None:
    """"A model can only make an attack with one weapon each Action unless explained otherwise" (an Action is an
    activation: "regardless who is Actioning this phase"): refuse a second weapon in the activation under way."""
    st = DgCombatant.of(c)
    if st.weapon is not None and st.weapon != w.name:
        raise IllegalAction(
            f"{c.name} has attacked with {weapon_said(st.weapon, True)} in this activation, and a model attacks with one "
            f"weapon each Action: attack with {weapon_said(st.weapon, True)} again, or end the activation with `/init "
            f"next` and use {weapon_said(w.name, True)} in a later one."
        )
    st.weapon = w.name


def spend_cp(enc: Encounter, c: Combatant, words: OptionValues, cost: int = 1) -> int:
    """Pay the attack's ``cost`` Combat Points ("Some special attacks cost more Combat points": a weapon's
    ``cp=N``); those it lacks ``force`` forces, each at a further penalty. The Accuracy it costs."""
    st = DgCombatant.of(c)
    short = max(cost - st.cp, 0)
    penalty = values(enc).forced_penalty
    if short and not words.force:
        price = sum(penalty * (st.forced + k) for k in range(1, short + 1))
        has = f"only {st.cp} Combat Point{'s' if st.cp != 1 else ''}" if st.cp else "no Combat Points"
        raise IllegalAction(
            f"{c.name} has {has} left this round and this attack costs {cost}: add `options:\"force\"` to force "
            f"{'one' if short == 1 else short} at -{price} Accuracy, or end the activation with `/init next`."
        )
    st.cp -= cost - short
    forced = 0
    for _ in range(short):
        st.forced += 1
        forced += penalty * st.forced
    return forced


def check_reach(enc: Encounter, grid: Grid, c: Combatant, where: Cell, w: Weapon, melee_only: bool = False) -> tuple[int, int, str, int]:
    """Refuse an attack out of reach; ``(distance, counted, limited, extended-reach penalty)``, ``limited`` naming the
    factors that allow only Reach 1 without Accuracy (empty: none do)."""
    if w.reach <= 2 and not w.melee:
        raise IllegalAction(f"The {w.name} has Reach {w.reach} and no melee: it cannot be used to attack.")
    if not in_front_rows(c, where):
        raise IllegalAction(
            f"{where.name} is in a row behind {c.name} (facing {c.facing}): a model attacks only ahead, beside, or the "
            f"square immediately behind it. Turn with `/move facing:` in a Move activation first."
        )
    here = cell_of(c)
    d = reach_to(here, c.facing, where)
    seen = view(enc, c, d, where)
    if seen.limited and d > 1:
        raise IllegalAction(f"In {', '.join(seen.factors)} {c.name} can attack only at Reach 1 (this target is at {d}).")
    # "a model can always attack at Reach 1": no environment factor takes the Reach-1 attack away
    counted = d if seen.limited or d == 1 else seen.distance
    penalty = 0
    if counted > w.reach:
        if values(enc).extended_reach == "yes" and not w.melee and not melee_only:
            penalty = -(-counted // w.reach) - 1
        else:
            why = f" ({', '.join(seen.factors)} make{'s' if len(seen.factors) == 1 else ''} it {counted})" if seen.factors else ""
            turned = reach_to(here, grid.facing_towards(here, where), where)
            hint = (f"it is beside: turn to face it (`/move facing:{grid.facing_towards(here, where)}` in a Move "
                    f"activation, or lunge at it: a Lunge turns to face its target) and it is at Reach {turned}"
                    if adjacent(here, where) and turned < d
                    else "attack with a weapon of longer Reach" if adjacent(here, where) else "get closer")
            said = weapon_said(w.name, the=True)  # `the saber`, `bare hands`
            raise IllegalAction(f"The target is at Reach {d}{why}, beyond {said}'{'' if said.endswith('s') else 's'} "
                                f"Reach {w.reach}: {hint}.")
    limiting = [f for f in seen.factors if f in LIMITING] if seen.limited else []
    return d, counted, ", ".join(limiting), penalty


def _melee_needed(enc: Encounter, c: Combatant, t: Combatant, d: int) -> bool:
    """Both have melee weapons in reach of each other: only melee weapons may be used."""
    if not in_front_rows(t, cell_of(c)):
        return False
    back = reach_to(cell_of(t), t.facing, cell_of(c))
    return any(w.melee and w.reach >= d for w in usable(c)) and any(w.melee and w.reach >= back for w in usable(t))


def injuries(c: Combatant) -> int:
    st = DgCombatant.of(c)
    return sum(max(st.full.get(k, 0) - st.values.get(k, 0), 0) for k in ("mind", "health"))


def _moving(enc: Encounter, c: Combatant) -> int:
    st = DgCombatant.of(c)
    if st.moved < now(enc) - 1:
        return 0
    return -3 if st.run > 10 else -1 if st.run >= 5 else 0


def _stationary(enc: Encounter, c: Combatant) -> bool:
    return now(enc) - DgCombatant.of(c).moved >= 5


def power_of(enc: Encounter, c: Combatant, w: Weapon, words: OptionValues, from_behind: bool = False) -> tuple[list[Modifier], int]:
    """The attack's Power modifiers and the dice it rolls. "With the weapon selected the model rolls as many D6
    as the Power of the weapon": a weapon of Power 0 (a smoke grenade) rolls none, whatever the modifiers;
    any other rolls at least 1, and fewer by choice with ``dice=``."""
    base = max(DgCombatant.of(c).values.get("health", 0), 0) if w is BARE else w.power
    power: list[Modifier] = [mod("health", base) if w is BARE else mod("weapon", base, w.name)]
    if w.power == 0 and w is not BARE:
        if words.dice is not None:
            raise InputError(f"The {w.name} has Power 0 and rolls no dice: leave `dice=` out.")
        return power, 0
    if words.low:
        power.append(mod("low", -(base // 2)))
    if values(enc).gravity:
        power.append(mod("gravity", values(enc).gravity))
    if from_behind:
        power.append(mod("behind", 1))
    if words.power is not None:
        power.append(mod("ability", words.power))
    power += modifiers(enc.effects, c.name, "power")
    most = max(sum(m.value for m in power), 1)
    count = most if words.dice is None else words.dice
    if count > most:
        raise InputError(f"`dice` must be a whole number from 1 to {most}, not `{count}`; at most the attack's Power {most}.")
    if count < most:
        power.append(mod("fewer", count - most))
    return power, count


def strike(
    enc: Encounter, grid: Grid, c: Combatant, t: Combatant, w: Weapon, words: OptionValues, dice: Dice,
    *, special: str | None = None, forced: int = 0, area: Cell | None = None, seen: Sight | None = None,
) -> list[Event]:
    """One attack of ``c`` on ``t`` with ``w`` (the Combat Point paid by the caller); returns the events, the
    damage and the knock-down test included. ``area``: ``t`` is caught in an area centred there (the area's
    reach and sight were checked; no obstruction or cover between the centre and ``t``), ``seen`` the sight and
    cover of the targeted square for the model on it."""
    a, b = cell_of(c), cell_of(t)
    if area is None:
        d, counted, limited, extended = check_reach(enc, grid, c, b, w)
        if not w.melee and _melee_needed(enc, c, t, d):
            use = " or ".join(weapon_said(m.name, the=True) for m in usable(c) if m.melee and m.reach >= d)
            if enc.hidden(t):  # the rule must refuse, but the refusal leaves the hidden model's weapon unsaid
                raise IllegalAction(f"Only a melee weapon can be used against {t.name} from here: attack with {use}.")
            raise IllegalAction(f"{c.name} and {t.name} both have melee weapons in reach of each other, so only a melee "
                                f"weapon can be used: attack with {use}.")
        seen = line_of_sight(enc, grid, c, b, t.name)
    else:
        d, counted, limited, extended = reach_distance(a, b), reach_distance(a, b), "", 0
        seen = seen or Sight(0)
    ts = DgCombatant.of(t)
    power, count = power_of(enc, c, w, words, from_behind=area is None and behind(t, a))
    # Accuracy
    acc: list[Modifier] = [mod("weapon", w.accuracy, w.name)]
    if SIZE_ACCURACY[size(t)]:
        acc.append(mod("size", SIZE_ACCURACY[size(t)], size(t)))
    if seen.lines:
        acc.append(mod("obstructed", -2) if seen.lines == 1 else mod("hidden", -4))
    if ts.prone or t.status == "downed":
        acc.append(mod("prone", -2))
    if _stationary(enc, t) or _stationary(enc, c):
        acc.append(mod("stationary", 2))
    if (m := _moving(enc, t)):
        acc.append(mod("fast", m) if m == -3 else mod("moving", m))
    if injuries(c) >= 2:
        acc.append(mod("injured", -(injuries(c) // 2)))
    if forced:
        acc.append(mod("forced", -forced))
    if extended:
        acc.append(mod("extended", -extended))
    if ts.grappled_by and w.melee:
        acc.append(mod("grappled", 2))
    if words.acc is not None:
        acc.append(mod("ability", words.acc))
    acc += modifiers(enc.effects, c.name, "accuracy")
    if special == "coup":
        acc = [m for m in acc if m.value > 0]
    if limited:  # "only attack at Reach 1 and without any Accuracy": the modifiers shown, then taken away
        acc.append(mod("reach-1", -sum(m.value for m in acc), limited))
    accuracy = sum(m.value for m in acc)
    # the dice
    with dice.rolling_for(c.name):
        rolled = dice.roll(count, 6)
    faces = [int(x) for x in rolled]
    if not faces:
        accuracy = 0  # nothing rolled, nothing to flip
    target_grid = grid_of(t)
    aim = flips.aim_location(target_grid, words.aim) if words.aim else None
    if accuracy <= 0:  # only the attacker's own flips are aimed: at a negative Accuracy the target flips
        aim = None
    shield = not adjacent(a, b) and not w.blast
    cover_added = max(seen.cover - count, 0)
    hit: damage.Hit = {"shield": shield, "extra_body": cover_added, "weapons": ts.weapon_health, "arsenal": words.arsenal,
                       "per_location": values(enc).protection == "location"}
    kept = enc.hidden(t)  # its Accuracy is the GM's to keep: no refusal tells it
    if accuracy <= 0 and words.flips:
        flips.parse_flips(words.flips, faces, accuracy, hidden=kept)  # refused but for `none`: no flips, or the target's
    if accuracy > 0 and words.flips:
        turns = flips.parse_flips(words.flips, faces, accuracy, hidden=kept)
    elif accuracy > 0:
        aim = aim or _best_aim(target_grid, faces, accuracy)
        turns = flips.best_flips(faces, accuracy, aim, target_grid)
    elif accuracy < 0:
        turns = asking.target_turns(enc, t, faces, -accuracy, target_grid, damage.harm(target_grid, ts.values, **hit),
                                    area is None)
    else:
        turns = []
    faces = flips.apply_flips(faces, turns)
    applied = damage.apply_faces(faces, target_grid, ts.values, **hit)
    event = DgAttack(
        actor=c.name, target=t.name, weapon=w.name, roll=Roll(dice=list(rolled), label=f"{count}d6", success=applied.taken > 0),
        faces=faces, flips=[Flip(before=tn.before, after=tn.after, cost=tn.cost, by=tn.by) for tn in turns],
        power=power, accuracy=acc, aim=aim, distance=d, reach=counted, sight=seen.level, cover=seen.cover,
        cover_by=seen.cover_by, cover_added=cover_added, cp=w.cp, forced=forced, melee=w.melee, special=special,
        area=area.name if area is not None else None,
    )
    return [event, *_damage(enc, c, t, applied, dice, special, words.arsenal, seen.cover_by)]


def _best_aim(grid: DamageGrid, faces: list[int], accuracy: int) -> str:
    """Where the bot aims when the attacker does not say: Health or Mind, whichever gets more dice (ties: Health)."""
    def score(loc: str) -> tuple[int, int]:
        final = flips.apply_flips(faces, flips.best_flips(faces, accuracy, loc, grid))
        return sum(1 for f in final if grid.location_of(f) == loc), -AIMS.index(loc)

    return max((loc for loc in AIMS if grid.has(loc)), key=score, default=grid.names[0])


def _damage(enc: Encounter, c: Combatant, t: Combatant, applied: damage.Damage, dice: Dice, special: str | None,
            named: str | None = None, cover_by: str | None = None) -> list[Event]:
    """What ``applied`` does to ``t``: its grid, inert or out, the Mode test; ``named``: the weapon or equipment the
    attacker named for Arsenal (`option arsenal`), told when the hit landed on another; ``cover_by``: the square or
    model whose cover added to ``t``'s Body."""
    ts = DgCombatant.of(t)
    landed = applied.weapon is not None and named is not None and named != applied.weapon and applied.at(ARSENAL)
    before_health = ts.values.get(HEALTH, 0)
    ts.values, ts.weapon_health = dict(applied.values), dict(applied.weapons)
    rows = applied.locations
    events: list[Event] = [GridDamage(actor=t.name, locations=rows, weapon=applied.weapon, health_lost=applied.health_lost,
                                      stopped=not any(r.taken for r in rows), attacker=c.name, cover_by=cover_by,
                                      named=named if landed else None, carried=named in ts.weapon_health)]
    if applied.killed or applied.inert:
        release(enc, t)
    if applied.killed or (special == "coup" and applied.health_lost):
        t.status = "out"
        events.append(StatusChanged(actor=t.name, status="out", cause="health0" if applied.killed else "coup"))
        return events + end_if_out(enc, t)
    if applied.inert and t.status == "active":
        t.status = "downed"
        events.append(StatusChanged(actor=t.name, status="downed", cause="mind0"))
        return events + end_if_out(enc, t)
    if t.status != "active":
        return events
    with dice.rolling_for(t.name):
        test = mode.mode_test(dice, before_health, applied.health_lost, ts.values.get(MIND, 0))
    if test is not None:
        events.append(Checked(actor=t.name, what="mode", roll=Roll(
            dice=list(test.dice), label=f"{len(test.dice)}d6", total=test.best, against=test.difficulty,
            versus=Term(code="difficulty"), success=test.passed)))
        if not test.passed and not ts.prone:
            ts.prone = True
            events.append(ProneChanged(actor=t.name, prone=True, cause="knocked"))
    return events
