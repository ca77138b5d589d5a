"""Every sentence of War & Combat: its events, status lines and board."""
from __future__ import annotations

from typing import ClassVar, cast

from rules.events import Attacked, Checked, Roll, Term
from rules.hidden import SECRET, secret
from rules.models import Combatant, Encounter
from rules.present import Presenter
from rules.systems.war_and_combat.events import (
    AttackPassed,
    CarriedOver,
    CollapsePrompt,
    Declared,
    EffectTaken,
    Engaged,
    FacedAttacker,
    FlurryBegan,
    FlurryEnded,
    FlurryInitiative,
    Interrupted,
    MoralePrompt,
    Negotiated,
    NobodyActs,
    PhaseBegan,
    Revealed,
    StepGivenUp,
    Struck,
    WacAttacked,
    WacInitiative,
)
from rules.systems.war_and_combat.facts import WacFacts
from rules.systems.war_and_combat.state import WacCombatant, WacEncounter
from rules.text import listing, plural, signed

__all__ = ["WacPresenter", "sheet_summary"]

#: a stunned or surprised fighter, on the board (``why``: `turns.idle_why`): "can take no action for 1d6 rounds"
NO_ACTION = "{why}: no action this round"

PHASE_TEXT = {
    "movement": "each in initiative order moves (`/move`), may shoot (`/attack`), then `/init next`",
    "adjustment": "in reverse initiative order, move the other half (one hex after a flurry), "
                  "shoot again, then `/init next`",
}
EFFECTS = {
    "stun": "is stunned: no action for {d}",
    "loses_action": "loses {d} this round",
    "no_declaration": "is {d}: no action this round (no declaration, no flurry initiative); the flurry does not wait for it",
    "drops": "drops its {d}",
    "falls": "falls down",
    "stays_fallen": "fails to keep its feet (\"{d}\"), but is already fallen: it stays down",
    "knockout": "is knocked out",
    "immobile": "is conscious but immobile",
    "mobile": "is no longer immobile (the wound that held it healed)",
    "disabled": "'s {d} is disabled",
    "impaired": "'s {d} is impaired",
    "mortal": "is mortally wounded: no more actions",
    "restrict": "is restricted: acts at {d}",
    "break": "'s {d} breaks",
    "stands": "stands up",
    "lengthy": "begins a lengthy action: {d}; no moving or shooting meanwhile",
    "lengthy_done": "{d}",
    "lengthy_broken": "is drawn into a fight: it stops {d} (a lengthy action broken off)",
    "lengthy_stopped": "can take no action: it stops {d} (a lengthy action broken off)",
    "tactic": "{d} (its manoeuvre tactic)",
    "pinned": "is pressed against something impassable by {d}: in their next flurry {d} has +1 action and it -1 Defense",
    "wields": "takes the {d} in hand",
    "quick_limit": "has {d} movement point(s) left this phase (a quick action limits movement to half the phase's)",
    "picks_up": "picks up its {d}",
    "loads": "loads its {d}",
    "sheathes": "sheathes its {d}",
    "aims": "aims its {d}",
    "wounded": "takes {d}",
    "healed": "is healed of {d}",
    "limits_zone": "holds its polearm's zone of threat to: {d}",
    "switches_hand": "takes its weapon in the {d} hand (the shield on the other arm)",
    "breaks_free": "breaks free of the hold",
    "restricted": "is held by a grapple (Restrict-{d}): a Strength task before each of its actions, until the flurry ends",
}
#: the hex directions in words: where a dropped item goes
WAY_WORDS = {"N": "north", "NE": "north-east", "SE": "south-east", "S": "south", "SW": "south-west", "NW": "north-west"}
#: how a Stumble-XX failure falls, by its "Miss by" row ("1-3 Fall to knees. 4-6 Fall to your hands and knees. 7+
#: Fall on back, side, or face"): each is a fall (the text gives kneeling no rule of its own), named as the row says
FALLS = {"knees": "falls to its knees", "hands and knees": "falls to its hands and knees",
         "back, side, or face": "falls on its back, side or face"}
CHECKS = {
    "shock": "checks shock", "death": "makes a death check", "fumble?": "checks for a fumble",
    "stumble?": "checks for a stumble", "obstacle": "tries the obstacle", "stumble": "tries to keep its footing",
    "pass": "tries to pass through",
    "negotiate": "negotiates the space around the flurry",
    "break free": "tries to break free of the hold",
}
#: why turning to face an attacker as the flurry begins costs no Defense (`FacedAttacker.reason`)
FACED_NO_PENALTY = {
    "gap": "the turn does not place the attacker in its zone of threat",
    "missile": "with a missile weapon in hand it has no zone of threat to place the attacker in",
    "unarmed": "with no weapon in hand it has no zone of threat to place the attacker in",
}
#: the words of the rules' terms: roll modifiers and what a roll is against (`rules.events.Term`)
TERMS = {
    "open_end": "open end",
    "open_end_high": "natural 18: the excess over 10 of the 3d6 rolled again",
    "open_end_low": "natural 3: the shortfall below 10 of the 3d6 rolled again",
    "fighter": "Fighter",
    "skill": "skill",
    "named_skill": "{0}",
    "agility": "Agility",
    "dexterity": "Dexterity",
    "strength": "Strength",
    "attribute": "{0}",
    "wounds": "wounds",
    "moving": "moving",
    "pace": "pace",
    "movement_type": "{0}",
    "restricted": "restricted",
    "obstructed": "obstructed",
    "called_shot": "called shot",
    "called_shot_at": "called shot ({0})",
    "table": "table",
    "defense": "Defense ({all})",
    "defense_restricted": "Defense ({all}, restricted)",
    "restricted_none": "Defense (restricted: none)",
    "defense_aware": "Defense ({all}), point blank, aware",
    "defense_aware_melee": "Defense ({0}), point blank, aware, +{1} into a mêlée",
    "range_evading": "{0} range, evading, Defense ({1})",
    "range_evading_melee": "{0} range, evading, Defense ({1}), +{2} into a mêlée",
    "range": "{0} range, {1}",
    "range_melee": "{0} range, {1}, +{2} into a mêlée",
    "shock": "shock",
    "death": "death",
    "footing": "footing",
    "obstacle": "{0}",
    "pass_through": "pass-through",
    "negotiate": "negotiate",
}
#: the words of the codes a term names in its ``args``, by the term's code: a Defense's rule, an attribute
DEFENSES = {"flank_unguarded": "flank, unguarded", "front_forfeited": "front, forfeited", "turned": "−1 turned to face",
            "pinned": "−1 pinned"}
TERM_ARGS: dict[str, dict[str, str]] = {
    "defense": DEFENSES, "defense_restricted": DEFENSES, "defense_aware": DEFENSES, "defense_aware_melee": DEFENSES,
    "range_evading": DEFENSES, "range_evading_melee": DEFENSES,
    "attribute": {"str": "STR", "agl": "AGL", "dex": "DEX"},
}
#: the terms whose ``args`` hold a Defense's (its rule, then what changed it) between others: how many come before
#: them and after (a shot's range band; +5 into a mêlée), the Defense's filling one place of the term's words
DEFENSE_WITHIN = {"defense_aware_melee": (0, 1), "range_evading": (1, 0), "range_evading_melee": (1, 1)}
#: a lengthy action under way (`WacFacts.busy`, an effect's args), worded with the armour's name; and done
BUSY = {"shed": "shedding its {0}", "don": "donning {0}"}
DONE = {"shed": "has shed its {0}", "don": "has donned {0}"}
#: a manoeuvre tactic's step (an effect's args: the tactic, its way, the opponent)
TACTIC_STEPS = {"retreat": "retreats {0} from {1}", "circle": "circles {0} round {1}"}
WAYS = {"cw": "clockwise", "ccw": "counter-clockwise"}
REASONS = {"miss": "the attack failed, so the defender attacks", "spent": "the attacker is out of actions",
           "hold": "the attacker holds"}


def sheet_summary(c: Combatant, worn: str | None = None) -> str:
    """The sheet as typed; ``worn``: the armour a lengthy action has put on or shed since (None: the sheet's)."""
    s = c.sheet
    skills = ",".join(f"{k}:{v}" for k, v in (s.get("skills") or {}).items())
    now = f" (wears {worn} now)" if worn is not None and worn != s.get("armor") else ""
    bits = [f"STR {s.get('str')} AGL {s.get('agl')} DEX {s.get('dex')}", f"Fighter {s.get('fighter')}",
            f"size {s.get('size')}", "weapons " + ",".join(s.get("weapons") or []), f"armor {s.get('armor')}{now}"]
    if s.get("shield", "none") != "none":
        bits.append(f"{s['shield']} shield")
    if skills:
        bits.append(f"skills {skills}")
    bits.append(f"pace {s.get('pace')}")
    return " · ".join(bits)


def _unnumbered(t: Term) -> Term:
    """A hidden Defense's term with its effects' changes as the GM's numbers (``±? Ward``); its rule's own words
    (``front``, ``turned``) stay."""
    hidden = signed(cast(int, SECRET))
    return t.model_copy(update={"args": [f"{hidden} {_effect_change(a)}" if _effect_change(a) else a for a in t.args]})


def _effect_change(arg: str | int) -> str | None:
    """The effect's name in an effect's change to a Defense, as `attacks._adjustments` words it (``+3 Ward``: a
    number of the defender's); None for any other arg (a rule's code: ``front``, ``turned``)."""
    if not isinstance(arg, str) or arg in DEFENSES:
        return None
    amount, _, name = arg.partition(" ")
    return name if name and amount[:1] in ("+", "−", "-") and amount[1:].isdigit() else None


def _dropped(e: EffectTaken) -> str:
    """What a ``drops`` effect drops: ``its axe``; a shield (its ``item``, the arm first in ``args``) ``its shield``,
    or ``what its left arm held`` where the fighter's numbers are hidden (a term of its Defense)."""
    if e.item is None:
        return f"its {e.args[0]}"
    return f"what its {e.args[0]} held" if secret(e.item) else f"its {e.item}"


class WacPresenter(Presenter[WacFacts]):
    formats: ClassVar[dict[type, str]] = {
        WacInitiative: "wac_initiative",
        PhaseBegan: "phase_began",
        Engaged: "engaged",
        FlurryBegan: "flurry_began",
        Declared: "declared",
        Revealed: "revealed",
        FlurryInitiative: "flurry_initiative",
        AttackPassed: "attack_passed",
        Struck: "struck",
        EffectTaken: "effect_taken",
        FlurryEnded: "flurry_ended",
        MoralePrompt: "morale",
        NobodyActs: "nobody_acts",
        FacedAttacker: "faced",
        Interrupted: "interrupted",
        CollapsePrompt: "collapse",
        CarriedOver: "carried_over",
        StepGivenUp: "step_given_up",
    }
    causes: ClassVar[dict[str, str]] = {
        "unconscious": "unconscious", "mortal": "mortally wounded", "immobile": "immobile",
        "coup": "a coup-de-grâce", "death": "failed the death check and dies", "healed": "its mortal wound healed",
        "mobile": "its immobility ended (the wound that downed it healed)",
    }
    checks: ClassVar[dict[str, str]] = CHECKS
    terms: ClassVar[dict[str, str]] = TERMS

    def term(self, t: Term) -> str:
        """A term's words, the codes among its ``args`` worded too (`TERM_ARGS`); an open end of 3d6 rolled again
        more than once in the plural: ``natural 18: the excesses over 10 of the 3d6 rolled again``."""
        if t.code in ("open_end_high", "open_end_low") and t.args and isinstance(t.args[0], int) and t.args[0] > 1:
            return TERMS[t.code].replace("the excess ", "the excesses ").replace("the shortfall ", "the shortfalls ")
        words = TERM_ARGS.get(t.code)
        if words:
            t = t.model_copy(update={"args": [words.get(a, a) if isinstance(a, str) else a for a in t.args]})
        if t.code in DEFENSE_WITHIN:  # the Defense's words as one
            before, after = DEFENSE_WITHIN[t.code]
            args, end = t.args, len(t.args) - after
            t = t.model_copy(update={"args": [*args[:before], ", ".join(str(a) for a in args[before:end]), *args[end:]]})
        return super().term(t)

    def roll_text(self, r: Roll, outcome: str | None = None) -> str:
        """A task roll's line, saying why dice after the first throw were rolled: ``(3d6, then 3d6 again for the natural
        18) +0 natural 18: the excess over 10 of the 3d6 rolled again``; a Defense this view hides names the effects
        in it without their changes (``Defense (front, ±? Ward)``)."""
        if secret(r.against) and r.versus is not None and TERM_ARGS.get(r.versus.code) is DEFENSES:
            r = r.model_copy(update={"versus": _unnumbered(r.versus)})
        again = next((m for m in r.modifiers if m.code in ("open_end_high", "open_end_low")), None)
        if again is not None and r.label and not secret(r.label):
            times = again.args[0] if again.args and isinstance(again.args[0], int) else 1
            keep = f" keep {r.kept}" if r.kept else ""
            natural = 18 if again.code == "open_end_high" else 3
            label = f"{r.label}{keep}, then 3d6 again" + (f" ×{times}" if times > 1 else "") + f" for the natural {natural}"
            r = r.model_copy(update={"label": label, "kept": None})
        return super().roll_text(r, outcome)

    def effect_ends(self, ends: str, of: str | None, left: int) -> str:
        """A condition counted in rounds, as the text counts a stun ("can take no action for 1d6 rounds"):
        ``for 6 rounds: this one and the next 5``; one of a round ``until the end of this round``."""
        if ends != "round_end" or secret(left):
            return super().effect_ends(ends, of, left)
        if left <= 1:
            return "until the end of this round"
        return f"for {left} rounds: this one and the next" + (f" {left - 1}" if left > 2 else "")

    def wac_initiative(self, e: WacInitiative) -> str:
        """``**Borin** initiative **21** (🎲 6, 5, 4, 1 (3d6 + a high skew die, the best 3 kept: the side with the
        better Tactics) +6 Fighter = **21**)``."""
        if e.high_skew and e.roll is not None and e.roll.label and not secret(e.roll.label):
            label = f"{e.roll.label} + a high skew die, the best {e.roll.kept or 3} kept: the side with the better Tactics"
            e = e.model_copy(update={"roll": e.roll.model_copy(update={"label": label, "kept": None})})
        return self.initiative_set(e)

    def checked(self, e: Checked) -> str:
        what = CHECKS.get(e.what) or f"resists {e.what}"
        blow = ""
        if isinstance(e, Negotiated) and e.unswung:
            blow = ": no foe in the flurry can swing at it (stunned or surprised)"
        elif isinstance(e, Negotiated) and e.striker:
            blow = f": the blow is **{e.striker}**'s ({e.target} can take no action)"
        return f"**{e.actor}** {what}: {self.roll_text(e.roll)}{blow}"

    def phase_began(self, e: PhaseBegan) -> str:
        if e.phase not in PHASE_TEXT:
            return ""
        order = f" Order: {', '.join(e.order)}." if e.order else ""
        return f"**{e.phase.title()} phase**: {PHASE_TEXT.get(e.phase, '')}.{order}"

    def engaged(self, e: Engaged) -> str:
        also = f"; it is also engaged with {listing(e.also)}" if e.also else ""
        if e.zone == "own threat":
            return f"**{e.actor}** brings {e.by} into its zone of threat at {e.at}: movement stops, they are engaged{also}"
        return f"**{e.actor}** enters {e.by}'s zone of {e.zone} at {e.at}: movement stops, they are engaged{also}"

    def flurry_began(self, e: FlurryBegan) -> str:
        """The flurry's fighters and how they declare; those who can take no action say so, and are not asked."""
        still = "".join(f". **{n}** is {why}: no action this round (no declaration, no flurry initiative)"
                        for n, why in e.idle.items())
        declaring = [n for n in e.participants if n not in e.idle]
        if not declaring:
            return f"⚔️ **Flurry**: {', '.join(e.participants)}{still}. Nobody in it can act: it ends at once"
        if e.in_turn:
            return (f"⚔️ **Flurry**: {', '.join(e.participants)}. In flurry-initiative order each declares openly with "
                    f"`/act action:declare options:\"intent=kill tactic=press\"`: **{declaring[0]}** first{still}")
        return (f"⚔️ **Flurry**: {', '.join(e.participants)}. Each declares with "
                f"`/act action:declare options:\"intent=kill tactic=press\"` (hidden until all have declared){still}")

    def declared(self, e: Declared) -> str:
        if e.choice is not None:
            words = ", ".join(v if k in ("intent", "tactic") else f"{k} {v}" for k, v in e.choice.items())
            wait = f"; **{e.waiting[0]}** responds" if e.waiting else ""
            return f"**{e.actor}** declares: {words}{wait}"
        wait = f"; still to declare: {', '.join(e.waiting)}" if e.waiting else ""
        return f"**{e.actor}** has declared (hidden){wait}"

    def revealed(self, e: Revealed) -> str:
        shown = "; ".join(f"**{n}** {i}, {t}" + (f", {self._choices(e.extra[n])}" if e.extra.get(n) else "")
                          for n, (i, t) in e.choices.items())
        forced = f" (the GM forced it: {', '.join(e.defaulted)} kill and hold)" if e.defaulted else ""
        return f"Declarations revealed: {shown}{forced}"

    @staticmethod
    def _choices(extra: dict[str, str] | str) -> str:
        """``guard flank, face Borin``: a fighter's declared choices besides its intention and tactic."""
        return extra if isinstance(extra, str) else ", ".join(f"{k} {v}" for k, v in extra.items())

    def flurry_initiative(self, e: FlurryInitiative) -> str:
        return f"**{e.actor}** flurry initiative **{e.value}** ({self.roll_text(e.roll)}), {e.actions} action(s)"

    def attack_passed(self, e: AttackPassed) -> str:
        return f"The attack passes to **{e.actor}**: {REASONS.get(e.reason, e.reason)}"

    def attacked(self, e: Attacked) -> str:
        outcome = None if e.roll.success is None else ("hit" if e.roll.success else "miss")
        shown = not secret(e.roll.total) and not secret(e.roll.against)  # how close it came is the numbers'
        if outcome == "miss" and isinstance(e, WacAttacked) and e.parried and shown:
            outcome = "miss, parried, blocked or dodged"
        return f"**{e.actor}** attacks **{e.target}** with the {e.weapon}: {self.roll_text(e.roll, outcome)}"

    def struck(self, e: Struck) -> str:
        if secret(e.effective):  # a hidden fighter's blow or wound: where and how bad, not the impact's numbers
            wound = f"a {e.severity or 'superficial'} {e.option} result" if e.option else (f"**{e.severity}** wound" if e.severity else "no wound")
            shown = e.location_roll is not None and not secret(e.location_roll.total)  # the target's, if shown
            where = f" ({self.roll_text(e.location_roll)})" if shown and e.location_roll is not None else ""
            # the armour's own value, not what it took: a blow smaller than the armour would tell its impact
            soak = f": the armour absorbs up to {e.armour} (a critical goes through it)" if e.armour and not secret(e.armour) else ""
            return f"**{e.actor}** is struck in the {e.location}{where}{soak}: {wound}"
        crit = f", critical +{e.critical_dice}d6" if e.critical_dice else ""
        impact = e.impact
        if not secret(impact.label):  # the table's modifier is in the dice's label (3d6-2): shown once
            table = [m for m in impact.modifiers if m.code == "table" or (m.code == "said" and m.args == ["table"])]
            impact = impact.model_copy(update={"modifiers": [m for m in impact.modifiers if m not in table]})
        impact = impact.model_copy(update={"label": f"{e.impact.label} +{e.critical_dice}d6 critical"}) if e.critical_dice else impact
        if e.low_skew and not secret(e.impact.label):  # "add a low skew die for impact, since the blow is unintentional"
            worst = f", the worst {impact.kept} kept" if impact.kept else ""
            impact = impact.model_copy(update={"label": f"{impact.label} + a low skew die{worst}: the blow is unintentional",
                                               "kept": None})
        where = f" ({self.roll_text(e.location_roll)})" if e.location_roll is not None else ""
        head = f"**{e.actor}** is struck in the {e.location}{where}{crit}: impact {self.roll_text(impact)} (cap {e.cap})"
        if e.critical_dice:
            soak = f", effective {e.effective} (a critical goes through armour)"
        else:
            soak = f", absorbed {e.absorbed}, effective {e.effective}, " + ("penetrating" if e.penetrating else "blunt")
        if e.option:
            what = e.severity or "superficial"
            return f"{head}{soak}: a {what} {e.option} result"
        wound = f": **{e.severity}** wound" if e.severity else ": no wound"
        return head + soak + wound

    def effect_taken(self, e: EffectTaken) -> str:
        detail = self._effect_detail(e.effect, e.args, e.item) if e.args else e.detail
        if e.effect == "stun":  # the Defense used while stunned, and why (logged before: the rule's words)
            detail = self._stun_defense(e.args, e.values) if len(e.args) in (2, 3) else f"{detail} rounds, Defense 5 + half Fighter rank"
        if e.effect == "quick_limit" and e.values:  # the points left, ``?`` where the fighter's numbers are hidden
            detail = str(e.values[0])
        if e.effect == "loses_action" and e.args == ["none_left"]:
            return f"**{e.actor}** would lose {e.detail} action, but has none left this round: nothing is lost"
        if e.effect == "slips" and len(e.args) in (3, 4):  # a Stumble-XX or Fumble-XX missed by 0 (4th: already down)
            name, target, item = e.args[:3]
            row = f"({str(name).title()}-{target} missed by 0)"
            if name == "stumble" and e.args[3:] == ["down"]:  # nothing to catch on the ground
                return f"**{e.actor}** slips, but is already down {row}"
            if name == "stumble":
                return f"**{e.actor}** slips, but catches itself {row}"
            return f"**{e.actor}**'s {item} slips, but is caught {row}"
        if e.effect == "falls" and detail in FALLS:  # the Stumble-XX row: how it falls
            return f"**{e.actor}** {FALLS[detail]}"
        if e.effect == "loses_action" and detail and detail.isdigit():
            detail = plural(int(detail), "action")
        if e.effect == "picks_up" and e.item is not None:  # a shield: named where the fighter's numbers are
            return f"**{e.actor}** picks up " + ("what it dropped" if secret(e.item) else f"its {e.item}")
        if e.effect == "drops" and len(e.args) == 2:
            return f"**{e.actor}** drops {_dropped(e)} ({e.args[1]})"
        text = EFFECTS.get(e.effect, e.effect).format(d=detail or "")
        joiner = "" if text.startswith("'") else " "
        shown = e.roll is not None and bool(e.roll.dice)
        if e.effect == "drops" and len(e.args) == 6:  # where it landed, in words, after its dice
            return self._landed(e)
        if e.effect == "drops" and len(e.args) > 2:  # where it landed, after its dice: the distance's, the direction's
            how = f" ({e.args[1]})"
            if e.roll is not None and shown:
                dice = f"{e.args[1]}, direction" if len(e.roll.dice) > 1 and "direction" not in str(e.args[1]) else e.args[1]
                how = f": {self.roll_text(e.roll.model_copy(update={'label': dice}))}"
            return f"**{e.actor}** drops {_dropped(e)}{how}, it lies at {e.args[2]}"
        rolled = f" ({self.roll_text(e.roll)})" if e.roll is not None and shown else ""
        return f"**{e.actor}**{joiner}{text}{rolled}"

    def _landed(self, e: EffectTaken) -> str:
        """``**Grak** drops its axe: 🎲 5, 2 (1d6-1 m, then 1d6 for the direction): it lands 4 m away, 2 hexes to the
        north-east, at G4``: a dropped item's dice, then how far and which way it went, in words."""
        _, how, at, hexes, moved, way = e.args
        item = _dropped(e)
        if how == "at feet":
            return f"**{e.actor}** drops {item} at its feet, at {at}"
        dice = ""
        if e.roll is not None and e.roll.dice:
            label = f"{str(how).split(',')[0]}, then 1d6 for the direction" if len(e.roll.dice) > 1 else str(how)
            dice = f": {self.roll_text(e.roll.model_copy(update={'label': label}))}"
        shown = how == "1d6-1 m" and e.roll is not None and bool(e.roll.dice) and not secret(e.roll.dice[0])
        metres = int(e.roll.dice[0]) - 1 if shown and e.roll is not None else None
        away = f"{metres} m away, " if metres else ""
        if not hexes:
            where = "at its feet" if metres == 0 else f"{away}in its own hex"
            return f"**{e.actor}** drops {item}{dice}: it lands {where}, at {at}"
        towards = f"to the {WAY_WORDS.get(str(way), way)}"
        if not moved:  # stopped in its own hex: where the dice would have thrown it, and what kept it there
            far = f"{metres} m ({plural(int(hexes), 'hex', 'hexes')})" if metres else plural(int(hexes), "hex", "hexes")
            return (f"**{e.actor}** drops {item}{dice}: it would fly {far} {towards}, but a wall or the map's edge stops "
                    f"it at its feet, at {at}")
        if moved != hexes:  # stopped short: the hexes it went, not the metres the dice gave
            short = f" (stopped {int(hexes) - int(moved)} short of the {hexes} by a wall or the map's edge)"
            return f"**{e.actor}** drops {item}{dice}: it flies {plural(int(moved), 'hex', 'hexes')} {towards}{short}, at {at}"
        verb = "lands" if how == "1d6-1 m" else "flies"
        return f"**{e.actor}** drops {item}{dice}: it {verb} {away}{plural(int(moved), 'hex', 'hexes')} {towards}, at {at}"

    @staticmethod
    def _stun_defense(args: list[str | int], values: list[int]) -> str:
        """``6 rounds, Defense 5 + half Fighter rank 1 = 6``: a stun's rounds and the Defense used while it lasts
        (`attacks._stun_taken`), its numbers left out where this view hides them; a third arg: the rounds left of the
        longer stun running, which is kept."""
        rounds, why, *kept = args
        if why in ("unconscious", "immobile"):
            words = f"Defense 3, not the stunned 5 + half Fighter rank: {why}, it gets no Fighter rank or Agility modifier"
        elif len(values) != 3 or any(secret(v) for v in values):
            words = "Defense 5 + half Fighter rank" + (" + Agility modifier (option `down_agility`)"
                                                       if why == "stunned_agility" else "")
        else:
            value, half, agl = values
            agility = f" + Agility modifier {signed(agl)} (option `down_agility`)" if why == "stunned_agility" else ""
            words = f"Defense 5 + half Fighter rank {half}{agility} = {value}"
        under = f" (shorter than the {plural(int(kept[0]), 'round')} of the stun it is under, which runs on)" if kept else ""
        return f"{rounds} round{'' if str(rounds) == '1' else 's'}{under}, {words}"

    @staticmethod
    def _effect_detail(effect: str, args: list[str | int], item: str | None = None) -> str:
        """The words an effect's ``args`` (and ``item``, the actor's armour: `armour` where it is hidden) fill its
        `EFFECTS` text with (``shedding its mail, done at the start of round 3``); effects logged before they had args
        carry these words in ``detail``, and lengthy actions logged before ``item`` their armour second in ``args``."""
        a = [str(x) for x in args]
        if effect.startswith("lengthy"):
            if len(a) == (3 if effect == "lengthy" else 2):  # logged before ``item``: the armour second
                item = a.pop(1)
            words = BUSY if effect != "lengthy_done" else DONE
            said = words[a[0]].format("armour" if item is None or secret(item) else item)
            return f"{said}, done at the start of round {a[1]}" if effect == "lengthy" else said
        if effect == "tactic":
            return TACTIC_STEPS[a[0]].format(*([a[1]] if a[0] == "retreat" else [WAYS[a[1]]]), a[2])
        if effect == "aims":
            return " at ".join(a)
        if effect == "wounded":
            return f"a {a[0]} wound to the {a[1]} ({a[2]})"
        if effect == "healed":  # "its critical left arm wound", "its serious and light left arm wounds"
            severities = a[1:]
            return f"its {listing(severities)} {a[0]} wound{'s' if len(severities) > 1 else ''}"
        return ", ".join(a)

    def flurry_ended(self, e: FlurryEnded) -> str:
        return f"The flurry of {', '.join(e.participants)} ends"

    def morale(self, e: MoralePrompt) -> str:
        return (f"**Morale** (end of round {e.round}): the text gives no procedure, so the GM checks morale for any "
                f"side that needs it (`/roll`, and `/combatant remove` for those who flee)")

    def nobody_acts(self, e: NobodyActs) -> str:
        return (f"Nobody standing can take an action in round {e.round} (stunned or surprised): the GM's `/init next` "
                "lets the round pass")

    def faced(self, e: FacedAttacker) -> str:
        if not e.penalty:
            why = FACED_NO_PENALTY.get(e.reason or "gap", FACED_NO_PENALTY["gap"])
            return f"**{e.actor}** turns to face {e.facing} as the flurry begins (no Defense penalty: {why})"
        return f"**{e.actor}** turns to face {e.facing} as the flurry begins (-1 Defense this flurry)"

    def interrupted(self, e: Interrupted) -> str:
        then = ("its declaration is revealed at once" if e.revealed
                else f"it declares in its turn of the flurry-initiative order, after {', '.join(e.ahead)} "
                     "(`/act action:declare` then)" if e.ahead
                else "one more to declare, it declares now" if e.declares
                else "it declares with the others (`/act action:declare`)")
        return f"**{e.actor}** interrupts the flurry and joins it ({', '.join(e.participants)}): {then}"

    def carried_over(self, e: CarriedOver) -> str:
        return (f"**{e.actor}** begins the step into {e.to} without the points to finish it: {e.owed} point(s) "
                "carried over, paid by its next `/move` in the next phase")

    def step_given_up(self, e: StepGivenUp) -> str:
        why = f"taken by {e.by}" if e.by else "a wall now"
        return (f"**{e.actor}** gives up the step it began into {e.to} ({why}): the movement points spent on it are "
                "lost")

    def collapse(self, e: CollapsePrompt) -> str:
        return (f"**{e.actor}** steps onto treacherous ground at {e.at}: it may collapse, as the GM decides "
                f"(`/combatant edit` to drop it, `/encounter terrain` to change the hex)")

    # -- the board ----------------------------------------------------------------------------
    def public_notes(self, enc: Encounter, c: Combatant, facts: WacFacts) -> list[str]:
        """A hidden fighter's line, too, says that it takes no action, as the effects line tells everyone."""
        why = facts.idle.get(c.name)
        return [NO_ACTION.format(why=why)] if why else []

    def status_line(self, enc: Encounter, c: Combatant, facts: WacFacts) -> str:
        st = WacCombatant.of(c)
        bits = [f"**{c.name}**"]
        if c.position:
            bits.append(c.position + (f" {c.facing}" if c.facing else ""))
        if c.initiative is not None:
            bits.append(f"init {c.initiative}")
        wounds = facts.wounds.get(c.name)
        if wounds:
            bits.append("wounds " + ", ".join(f"{loc} {sev} {record}" for loc, sev, record in wounds))
        why = facts.idle.get(c.name)
        flags = [f for f, on in (("fallen", st.fallen), (NO_ACTION.format(why=why), why), ("unconscious", st.unconscious),
                                 ("immobile", st.immobile)) if on]
        bits += flags
        bits += [f"{what} {', '.join(items)}" for what, items in (("impaired", st.impaired), ("disabled", st.disabled)) if items]
        if st.sheathed:
            bits.append("weapon sheathed")
        if c.name in facts.zone_limits:
            bits.append(f"zone of threat: {facts.zone_limits[c.name]}")
        if st.unloaded:
            bits.append("unloaded " + ", ".join(st.unloaded))
        if st.dropped:
            bits.append("dropped " + ", ".join(x + (f" (at {st.dropped_at[x]})" if x in st.dropped_at else "") for x in st.dropped))
        if st.restrict is not None:
            bits.append(f"held (Restrict-{st.restrict})")
        if c.name in facts.busy:
            what, armour = facts.busy[c.name]
            bits.append(f"{BUSY[what].format(armour)} (done at round {st.busy_until})")
        if st.carry:
            bits.append(f"stepping into {st.carry_to} ({st.owed} MP owed)")
        if enc.phase == "flurry" and st.flurry_init is not None and st.actions:
            bits.append(f"{st.actions} action(s)")
        if enc.phase in ("movement", "adjustment") and c.name == enc.current:
            bits.append(f"▶ {facts.stopped}: no moving" if facts.stopped else f"▶ {st.mp} MP")
        if c.status != "active":
            bits.append(c.status)
        return " · ".join(bits)

    def board_extra(self, enc: Encounter, facts: WacFacts) -> list[str]:
        if not enc.started or enc.winner:
            return []
        est = WacEncounter.of(enc)
        d = est.declarations
        lines = []
        if enc.phase == "flurry" and d is not None and not d.revealed:
            names = [n for n in (est.flurries[0] if est.flurries else d.participants) if n in d.participants or n in facts.idle]
            lines.append(f"Flurry: {', '.join(names)} · still to declare: {', '.join(facts.waiting)}"
                         + (f" ({facts.to_declare[0]} next)" if est.in_turn and facts.to_declare else "")
                         + "".join(f" · {n} {NO_ACTION.format(why=facts.idle[n])}" for n in names
                                   if n not in d.participants and n in facts.idle))
        if len(est.flurries) > 1:
            lines.append(f"Flurries to come: {len(est.flurries) - 1}")
        return lines

    def turn_label(self, enc: Encounter, facts: WacFacts) -> str:
        turn = facts.turn
        if not enc.started or enc.winner:
            return ""
        if turn.phase == "declare":
            return f"Round {enc.round} · flurry: declare your intentions ({', '.join(turn.actors)} to declare)"
        why = facts.idle.get(enc.current or "")  # "can take no action": only passing is offered
        if turn.phase == "flurry":
            if why:
                return f"Round {enc.round} · flurry: {enc.current} is {why} and can take no action: `/act action:hold`"
            c = enc.find(enc.current)
            left = WacCombatant.of(c).actions if c else 0
            return f"Round {enc.round} · flurry: {enc.current} attacks ({left} action(s) left), or `/act action:hold`"
        c = enc.find(enc.current)
        if c is None and turn.gm:  # `rounds.begin_phase`: a round nobody could act in as it began
            if any(x.status == "active" and x.name not in facts.idle for x in enc.combatants):  # its stuns ended since
                return f"Round {enc.round} · movement phase: the GM's `/init next` gives the first step"
            return f"Round {enc.round} · nobody standing can take an action: the GM's `/init next` lets the round pass"
        mp = (f"{why}: no action" if why else f"{facts.stopped}: no moving" if facts.stopped
              else f"{WacCombatant.of(c).mp if c else 0} MP")
        return f"Round {enc.round} · {enc.phase} phase: {enc.current} ({mp}), then `/init next`"
