"""Lengthy actions: "Full Actions prohibit movement; Lengthy Actions are Full Actions that take
more than one round to perform", the text's example being "Don/Shed Armor/Clothing".

`/act action:shed` takes off the armour worn, `/act action:don options:"mail"` puts on a
catalogue armour. The text gives no length: the option `armour_rounds` (2, "more than one
round"). Begun in the fighter's movement step before it has moved, it is done at the start of
the round ``armour_rounds`` later; meanwhile the fighter neither moves nor shoots (a full
action). Engaged fighters have no time for it: it cannot begin while engaged, and a fighter
drawn into a flurry breaks it off (nothing changes).
"""
from __future__ import annotations

from rules.errors import IllegalAction, InputError
from rules.events import Event
from rules.geometry import Grid
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.war_and_combat import sheet
from rules.systems.war_and_combat.catalogue import armour
from rules.systems.war_and_combat.events import EffectTaken
from rules.systems.war_and_combat.state import WacCombatant
from rules.systems.war_and_combat.zones import engaged_with

__all__ = ["begin", "finish", "break_off", "refuse_if_busy", "doing", "busy_with"]


def busy_with(c: Combatant) -> tuple[str, str]:
    """What ``c`` is busy with: (``shed`` or ``don``, the armour's name)."""
    st = WacCombatant.of(c)
    if st.busy == "shed":
        return "shed", sheet.worn(c).name
    return "don", (st.busy or "").removeprefix("don:")


def doing(c: Combatant) -> str:
    """What ``c`` is busy with, in words for a refusal (``shedding its mail``, ``donning plate``)."""
    what, armour = busy_with(c)
    return f"shedding its {armour}" if what == "shed" else f"donning {armour}"


def refuse_if_busy(c: Combatant, what: str) -> None:
    """A busy fighter neither moves nor shoots: refuse ``what`` (``move``, ``shoot``)."""
    st = WacCombatant.of(c)
    if st.busy:
        raise IllegalAction(f"{c.name} is {doing(c)} (a lengthy action, done at the start of round "
                            f"{st.busy_until}): it cannot {what} meanwhile. `/init next` ends its step.")


def begin(enc: Encounter, opts: OptionValues, grid: Grid, c: Combatant, what: str, name: str | None) -> list[Event]:
    """``c`` begins to shed its armour (``what`` ``shed``) or to don the armour ``name``."""
    st = WacCombatant.of(c)
    if st.busy:
        raise IllegalAction(f"{c.name} is {doing(c)} already.")
    if st.moved:
        raise IllegalAction(f"{c.name} has moved this phase: a lengthy action is begun standing still: begin it in your "
                            "next movement step, before moving.")
    if engaged_with(enc, grid, c):
        raise IllegalAction(f"{c.name} is engaged: there is no time for a lengthy action in a fight: begin it out of "
                            f"every foe's reach.")
    if what == "shed":
        if sheet.worn(c).name == "none":
            raise IllegalAction(f"{c.name} wears no armour (none) to shed.")
        busy = "shed"
    else:
        if not name:
            raise InputError("Name the armour to don: `options:\"mail\"` (padded, leather, scale, mail, plate).")
        busy = f"don:{armour(name).name}"
    st.busy, st.busy_until, st.mp = busy, enc.round + opts.armour_rounds, 0
    what, item = busy_with(c)
    return [EffectTaken(actor=c.name, effect="lengthy", args=[what, st.busy_until], item=item)]


def finish(enc: Encounter, c: Combatant) -> list[Event]:
    """At a round's start: the lengthy action of ``c`` that is due is done."""
    st = WacCombatant.of(c)
    if not st.busy or enc.round < st.busy_until:
        return []
    what, item = busy_with(c)
    st.armor = "none" if st.busy == "shed" else st.busy.removeprefix("don:")
    st.busy, st.busy_until = None, 0
    return [EffectTaken(actor=c.name, effect="lengthy_done", args=[what], item=item)]


def break_off(c: Combatant, why: str = "lengthy_broken") -> list[Event]:
    """``c`` is drawn into a flurry (``why``: or can take no action, ``lengthy_stopped``): its lengthy action is
    broken off, nothing changes."""
    st = WacCombatant.of(c)
    if not st.busy:
        return []
    what, item = busy_with(c)
    st.busy, st.busy_until = None, 0
    return [EffectTaken(actor=c.name, effect=why, args=[what], item=item)]
