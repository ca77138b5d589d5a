"""The GM's wounds without an attack: `/act action:damage` and `/act action:heal`, listed under the
board's GM changes as every system's hand-made harm is.

War & Combat's harm is no number but wounds per location, so the GM's vocabulary is a wound:
its severity (light, serious, critical, mortal) and location (head, chest, belly, or an arm or
leg, left or right). Where the text is silent (the project's defaults):

- a wound the GM gives is recorded as a hit's would be and has the wound effects table's
  effects (stun, knockout, fumble?, stumble?...), with their rolls; it is blunt unless the
  word `penetrating` is given (the text's B or P record);
- an arm or leg without a side is the option `limb_side`'s, as for a hit;
- healing removes the worst wound at the location (or the one of the severity named, or with
  `all` every wound there) and what it caused that lasts ("can no longer be used until
  healed"): a limb is impaired or disabled, and the fighter immobile, only while a wound left
  causes it (a critical belly wound keeps both legs disabled, a critical chest wound keeps it
  immobile: one "conscious but immobile" is not downed, it acts where it lies); one downed by a
  mortal wound is active again once nothing else keeps it down. A fall is a position: it stays fallen until it stands. A knockout or a stun is not
  undone by it (`/effect remove` ends a stun).
"""
from __future__ import annotations

from rules.actions import Act, ActionContext
from rules.errors import InputError
from rules.events import Event
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.roster import note_gm_change
from rules.systems.war_and_combat.attacks import downed, inflict
from rules.systems.war_and_combat.events import EffectTaken
from rules.systems.war_and_combat.options import LIMB_SIDES
from rules.systems.war_and_combat.state import WacCombatant, WoundRecord
from rules.systems.war_and_combat.tables import (
    LOCATIONS,
    SEVERITIES,
    wound_effect,
    wound_nature,
)
from rules.systems.war_and_combat.turns import set_status

__all__ = ["damage", "heal"]

def _target(enc: Encounter, action: Act) -> Combatant:
    if not action.target:
        raise InputError("Name the wounded in `target`, e.g. `target:Grak options:\"serious left arm\"`.")
    return enc.get(action.target, "target")


def _words(words: OptionValues) -> list[str]:
    """The words given (`words.WOUND`, `words.HEAL`), as a list: ``["serious", "left", "arm"]``."""
    return [v for k, v in words.items() if isinstance(v, str)] + [k for k, v in words.items() if v is True]


def _where(opts: OptionValues, words: list[str]) -> str:
    """The location the words name: ``head``, ``chest``, ``belly``, or ``left arm``... (side by `limb_side`)."""
    found = [w for w in words if w in LOCATIONS]
    if len(found) != 1:
        raise InputError(f"Name one location: {', '.join(LOCATIONS)} (an arm or leg may say `left` or `right`).")
    location = found[0]
    sides = [w for w in words if w in LIMB_SIDES]  # at most one: the words' reader refuses a second
    if location not in ("arm", "leg"):
        if sides:
            raise InputError(f"Only an arm or leg has a side: write `{location}` without `{sides[0]}`.")
        return location
    return f"{sides[0] if sides else opts.limb_side} {location}"


def _severity(words: list[str]) -> str | None:
    """The severity the words name, if any (the words' reader refuses a second)."""
    return next((w for w in words if w in SEVERITIES), None)


def damage(ctx: ActionContext, action: Act) -> list[Event]:
    """`/act action:damage target:Grak options:"serious left arm"`: the GM gives a wound, with its effects."""
    enc, opts, dice = ctx.encounter, ctx.options, ctx.dice
    t = _target(enc, action)
    words = _words(ctx.words)
    severity = _severity(words)
    if severity is None:
        raise InputError(f"Say how bad the wound is: {', '.join(SEVERITIES)} (e.g. `options:\"serious left arm\"`).")
    where = _where(opts, words)
    penetrating = "penetrating" in words
    wound: list[str | int] = [severity, where, wound_nature(severity, penetrating, where)]
    note_gm_change(enc, action.is_gm, t, [f"{severity} {where} wound"])
    return [EffectTaken(actor=t.name, effect="wounded", args=wound), *inflict(enc, opts, t, where, severity, penetrating, dice)]


def _lasting(wounds: list[WoundRecord]) -> tuple[set[str], set[str], bool]:
    """The limbs impaired, the limbs disabled and the immobility that the wounds ``wounds`` cause."""
    impaired: set[str] = set()
    disabled: set[str] = set()
    immobile = False
    for w in wounds:
        effect = wound_effect(w.location.split()[-1], w.severity)
        if effect is None:
            continue
        if effect.limb == "impaired":
            impaired.add(w.location)
        elif effect.limb == "disabled":
            disabled.add(w.location)
        elif effect.limb == "both legs disabled":
            disabled.update(("left leg", "right leg"))
        immobile = immobile or effect.immobile
    return impaired, disabled, immobile


def heal(ctx: ActionContext, action: Act) -> list[Event]:
    """`/act action:heal target:Grak options:"left arm"`: the GM takes away the worst wound there."""
    enc, opts = ctx.encounter, ctx.options
    t = _target(enc, action)
    words = _words(ctx.words)
    where = _where(opts, words)
    st = WacCombatant.of(t)
    here = [w for w in st.wounds if w.location == where]
    severity = _severity(words)
    if severity is not None:
        here = [w for w in here if w.severity == severity]
    if not here:
        has = ", ".join(f"{w.severity} {w.location}" for w in st.wounds) or "none"
        raise InputError(f"{t.name} has no {severity + ' ' if severity else ''}wound to the {where}: its wounds are {has}.")
    gone = here if "all" in words else [max(here, key=lambda w: SEVERITIES.index(w.severity))]
    st.wounds = [w for w in st.wounds if not any(w is g for g in gone)]
    note_gm_change(enc, action.is_gm, t, [f"{where} wound{'s' if len(gone) > 1 else ''} healed"])
    events: list[Event] = [EffectTaken(actor=t.name, effect="healed", args=[where, *(w.severity for w in gone)])]
    impaired, disabled, immobile = _lasting(st.wounds)
    st.impaired = [x for x in st.impaired if x in impaired]
    st.disabled = [x for x in st.disabled if x in disabled]
    if st.immobile and not immobile:
        st.immobile = False
        events.append(EffectTaken(actor=t.name, effect="mobile"))
    if t.status == "downed" and not st.unconscious and not st.immobile and not any(w.severity == "mortal" for w in st.wounds):
        events += set_status(t, "active", "healed" if any(w.severity == "mortal" for w in gone) else "mobile")
    return events + downed(t)
