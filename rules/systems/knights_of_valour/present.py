"""Every sentence Knights of Valour shows: its events, its status lines and its board."""
from __future__ import annotations

from typing import Any, ClassVar

from rules.events import Moved
from rules.hidden import secret
from rules.models import Combatant, Encounter
from rules.present import Presenter, changed_by
from rules.report import signed
from rules.systems.knights_of_valour.events import (
    ActionsLeft,
    CoupDeGraceStruck,
    Fell,
    Granted,
    HpSet,
    KovAttack,
    KovDamage,
    KovInitiative,
    KovMoved,
    KovRound,
    Narrated,
    OrderShown,
    PathProvokes,
    Ranked,
    TieOrdered,
    TurnBegan,
    TurnEnded,
    Wielded,
)
from rules.systems.knights_of_valour.facts import KovFacts
from rules.systems.knights_of_valour.state import KovCombatant, KovEncounter
from rules.systems.knights_of_valour.tables import NARRATIVE

__all__ = ["KovPresenter", "left_text", "sheet_summary"]


def order_text(order: list[Ranked]) -> str:
    """``Alda 17, Grak, Borin 12``: a hidden combatant's initiative is left out."""
    return ", ".join(r.name if secret(r.initiative) else f"{r.name} {r.initiative}" for r in order)


def left_text(feet_left: int, move_actions: int, combat_actions: int, granted: int = 0, hint: bool = True) -> str:
    """``Move Action (25 ft) and Combat Action left``: "left" is said once; with all used (``both``, unless the GM
    ``granted`` extra actions this turn), ``hint`` adds how the turn ends (an action's reply leaves it out: the turn
    may already have ended by itself)."""
    parts = []
    if not secret(feet_left) and feet_left > 0:  # a hidden one's: whether its feet ran out would tell them
        parts.append(f"Move Action ({feet_left} ft)")
    if move_actions > 0:
        parts.append("Move Action" + (f" ×{move_actions}" if move_actions > 1 else ""))
    if combat_actions > 0:
        parts.append("Combat Action" + (f" ×{combat_actions}" if combat_actions > 1 else ""))
    if parts:
        return " and ".join(parts) + " left"
    if secret(feet_left):  # whether a hidden one's Move Action under way has feet left is its number
        return "Combat Action used"
    used = f"{'all' if granted else 'both'} actions used"
    return f"{used}, `/init next` ends the turn" if hint else used


def sheet_summary(c: Combatant) -> str:
    """The sheet as replies show it; once set up, ``hp=3 max_hp=8``: the HP now and the most, as the board has them."""

    def show(v: Any) -> str:
        if isinstance(v, dict):
            return ",".join(f"{k}:{n}" for k, n in v.items())
        return "yes" if v is True else "no" if v is False else str(v)

    parts = []
    for k, v in c.sheet.items():
        if k == "hp" and c.hp is not None and "max_hp" not in c.sheet:  # set up: the sheet's `hp` is the most
            parts += [f"hp={c.hp}", f"max_hp={v}"]
        else:
            parts.append(f"{k}={show(v)}")
    return " ".join(parts)


class KovPresenter(Presenter[KovFacts]):
    #: the words of the terms its rules name (`rules.present.Presenter.terms`): an attack's and
    #: its damage's modifiers, the Defence Value's terms, and the defence it is against
    terms: ClassVar[dict[str, str]] = {
        "defence": "defence",
        "pl": "P.L. {0}",
        "strength": "strength",
        "agility": "agility",
        "stature": "stature {0} vs {1}",
        "buff": "buff",
        "base": "base",
        "armour": "{0}",
        "armour_value": "armour",
        "shield": "{0} shield",
        "weapon_damage": "weapon damage",
    }
    formats: ClassVar[dict[type, str]] = {
        KovInitiative: "kov_initiative",
        KovRound: "kov_round",
        OrderShown: "order_shown",
        TieOrdered: "tie_ordered",
        TurnBegan: "turn_began",
        TurnEnded: "turn_ended",
        ActionsLeft: "actions_left",
        KovAttack: "kov_attack",
        CoupDeGraceStruck: "coup_de_grace",
        KovDamage: "kov_damage",
        HpSet: "hp_set",
        KovMoved: "moved",
        PathProvokes: "path_provokes",
        Fell: "fell",
        Wielded: "wielded",
        Granted: "granted",
        Narrated: "narrated",
    }
    causes: ClassVar[dict[str, str]] = {
        "zero_hp": "0 HP or less; a coup de grâce takes it out",
        "coup": "coup de grâce",
        "gm_hp": f"HP set by {changed_by(True)}",
        "player_hp": f"HP set by {changed_by(False)}",
    }
    steps: ClassVar[dict[str, str]] = {"difficult": "difficult", "vault": "vault", "leap": "leap"}
    #: the 2d20 of `KovAttack.edge`
    edges: ClassVar[dict[str, str]] = {"advantage": "Advantage", "disadvantage": "Disadvantage"}
    reasons: ClassVar[dict[str, str]] = {
        "adv_asked": "Advantage asked",
        "dis_asked": "Disadvantage asked",
        "close_zero": "effective close range 0 ft",
        "past_close": "{range} ft is past close range {close} ft",
        "cancel": "they cancel",
    }

    # -- turns ----------------------------------------------------------------------------------
    def kov_initiative(self, e: KovInitiative) -> str:
        if secret(e.value) and e.cause == "delay" and e.after and e.lowered and not secret(e.lowered):
            return f"**{e.actor}** delays for this round: {e.lowered} lower, still after {e.after[0]}"
        if secret(e.value) and e.cause == "delay" and e.after:  # a number after a hidden one's: its place in words
            since = "" if secret(e.old) else f", from {e.old}"
            return f"**{e.actor}** delays for this round{since} until after {e.after[0]}"
        if secret(e.value):
            return f"**{e.actor}** has its initiative (the GM keeps the number)"
        agility = f"Agility {signed(e.agility)}"
        acted = "; it has acted this round, so its place changes from the next round" if e.acted else ""
        note = {
            "agility": agility,
            "gm": "set by the GM",
            "set": f"set by the GM ({agility}){acted}",
            "delay": f"delays for this round to {e.value}" if secret(e.old) else f"delays for this round, from {e.old} to {e.value}",
        }[e.cause]
        return f"**{e.actor}** initiative **{e.value}**: {note}"

    def kov_round(self, e: KovRound) -> str:
        note = f"order {order_text(e.order)}"
        # a hidden combatant in a tie would tell its number (a shown one's, or another hidden one's): left out
        tied = [shown for t in e.tied if len(shown := [n for n in t if not self.hidden(n)]) > 1]
        if tied:
            groups = "; ".join(", ".join(t) for t in tied)
            note += f"; tied players ({groups}) may ask the GM for another order with `/init order`"
        return f"**Round {e.round}** begins: {note}"

    def order_shown(self, e: OrderShown) -> str:
        return f"Initiative order: {order_text(e.order) or 'not set yet'}"

    def tie_ordered(self, e: TieOrdered) -> str:
        later = " (from the next round for those who have acted)" if e.later else ""
        if secret(e.initiative):  # that they tie would tell players their numbers are equal
            if any(not secret(r.initiative) for r in e.order if r.name in e.names):  # and a hidden one's is a shown one's
                return f"The GM sets the order of tied combatants{later}. Order: {order_text(e.order)}"
            return f"The GM sets the order of {', then '.join(e.names)}{later}. Order: {order_text(e.order)}"
        return f"The GM orders the tie at {e.initiative}: {', then '.join(e.names)}{later}. Order: {order_text(e.order)}"

    def turn_began(self, e: TurnBegan) -> str:
        moves, combats = e.move_actions, e.combat_actions
        move = "Move Action" + (f" ×{moves}" if moves > 1 else "")
        if not secret(e.movement):
            move += f" ({e.movement} ft each)" if moves > 1 else f" ({e.movement} ft)"
        combat = "Combat Action" + (f" ×{combats}" if combats > 1 else "")
        return f"**{e.actor}** to act: {move} and {combat}"

    def turn_ended(self, e: TurnEnded) -> str:
        return f"**{e.actor}** ends the turn"

    def actions_left(self, e: ActionsLeft) -> str:
        lost = "" if not e.lost or secret(e.lost) else (
            f" ({e.lost} ft of the move were left: lost, as option `split_move=no` has it; `split_move=yes` keeps them)")
        moves = e.moves_told if secret(e.move_actions) else e.move_actions
        return f"{e.actor}: {left_text(e.feet_left, moves, e.combat_actions, e.granted, hint=False)}{lost}"

    # -- attacks --------------------------------------------------------------------------------
    def _head(self, actor: str | None, target: str, weapon: str, mode: str, dist: int) -> str:
        return f"**{actor}** attacks **{target}** with {weapon} ({mode}" + (f", {dist} ft)" if dist else ")")

    def kov_attack(self, e: KovAttack) -> str:
        head = self._head(e.actor, e.target, e.weapon or "", e.mode, e.range)
        if e.opportunity:
            head = f"Attack of Opportunity: {head}"
        label = (e.roll.label or "d20") + (f" {self.edges[e.edge]}" if e.edge else "")
        if e.reasons:
            label += ": " + "; ".join(self.reasons[r].format(range=e.range, close=e.close) for r in e.reasons)
        shown: dict[str, Any] = {"label": label, "against": None, "success": None}
        if self.hidden(e.target):  # the stature term counts the target's size, and the total would tell it
            shown |= {"modifiers": [m for m in e.roll.modifiers if m.code != "stature"], "total": None}
        roll = self.roll_text(e.roll.model_copy(update=shown))
        defence = " ".join(f"{signed(m.value)} {self.term(m)}" if i else f"{m.value} {self.term(m)}" for i, m in enumerate(e.defence))
        result = "**hit**" if e.roll.success else "**miss**"
        if secret(e.roll.against):
            return f"{head}: {roll} vs **{e.target}**'s defence: {result}"
        return f"{head}: {roll} vs defence **{e.roll.against}** ({defence}): {result}"

    def coup_de_grace(self, e: CoupDeGraceStruck) -> str:
        head = self._head(e.actor, e.target, e.weapon, e.mode, 5)
        return f"{head}: coup de grâce, an automatic hit on a downed target"

    def kov_damage(self, e: KovDamage) -> str:
        extra = f": raised to the minimum {e.floor}" if e.floor is not None and not secret(e.floor) else ""
        change = self.health_change(e.actor, e.before, e.after, " HP")
        if secret(e.amount) and not self.hidden(e.actor) and e.before is not None and e.after is not None:
            # a hidden attacker's dice, on a player's combatant: the damage it takes is its own (the HP show it)
            return f"**{e.actor}** takes **{e.before - e.after}** damage{change}"
        return f"**{e.actor}** takes {self.roll_text(e.roll)} = **{e.amount}** damage{change}{extra}"

    def hp_set(self, e: HpSet) -> str:
        cap = ": no more than its `max_hp`" if e.capped else ""
        how = "lowered" if e.capped and e.before is not None and e.after < e.before else "set"
        if self.hidden(e.actor):
            return f"**{e.actor}** HP {how} by the GM{self.health_change(e.actor, e.before, e.after)}{cap}"
        return f"**{e.actor}** HP {how} to {e.after} (was {e.before}){cap}"

    # -- movement -------------------------------------------------------------------------------
    def moved(self, e: Moved) -> str:
        if isinstance(e, KovMoved):
            shown = [e.path[0]]
            for s in e.steps:
                how = f"{s.how} {s.feet} ft" if s.how in ("climb", "descend") else self.steps.get(s.how, "")
                shown.append(s.cell + (f" ({how})" if how else ""))
            e = e.model_copy(update={"path": shown})
        return super().moved(e)

    def path_provokes(self, e: PathProvokes) -> str:
        foes = ", ".join(e.foes)
        what = "an Attack of Opportunity" if len(e.foes) == 1 else "Attacks of Opportunity"
        return f"{e.actor}'s path to {e.goal} provokes {what} from {foes}: no path as cheap avoids them"

    def fell(self, e: Fell) -> str:
        return f"**{e.actor}** falls at {e.at} and stops there"

    # -- /act -------------------------------------------------------------------------------------
    def wielded(self, e: Wielded) -> str:
        defends = f"defends in melee with its P.L. {e.level}" if e.melee else "adds no P.L. to its melee defence"
        return f"**{e.actor}** takes up the {e.weapon} (free): {defends}"

    def granted(self, e: Granted) -> str:
        what = " and ".join(f"an extra {k.title()} Action" for k in e.actions)
        return f"The GM grants **{e.actor}** {what}"

    def narrated(self, e: Narrated) -> str:
        what = NARRATIVE[e.action] + (f" **{e.target}**" if e.target else "")
        return (
            f"**{e.actor}** uses the Combat Action to {what}: the rules give no procedure for it, so "
            f"the GM rules on the outcome (`/roll` for any check)"
        )

    # -- the board ----------------------------------------------------------------------------------
    def status_line(self, enc: Encounter, c: Combatant, facts: KovFacts) -> str:
        st = KovCombatant.of(c)
        bits = [f"**{c.name}**"]
        if c.position:
            bits.append(c.position)
        bits.append(f"{c.hp}/{c.sheet.get('hp')} HP")
        if c.initiative is not None and not self.initiative_shown(c):
            bits.append(f"delayed until after {st.delay_after[0]}")
        elif c.initiative is not None:
            bits.append(f"init {c.initiative}" + (" (delayed)" if st.delayed else ""))
        if st.wield:
            bits.append(st.wield)
        if c.status != "active":
            bits.append(c.status)
        elif enc.started and not enc.winner:
            if c.name == enc.current:
                bits.append("▶ " + left_text(st.feet_left, st.move_actions, st.combat_actions, st.granted))
            elif isinstance(enc.state, KovEncounter) and c.name in enc.state.acted:
                bits.append("turn over")
            else:
                bits.append("Move and Combat Action to come")
        return " · ".join(bits)

    def board_extra(self, enc: Encounter, facts: KovFacts) -> list[str]:
        if not (enc.started and enc.order and not enc.winner):
            return []
        order = ", ".join(
            f"{n} {facts.initiative[n]}" if self.initiative_shown(enc.get(n)) else n for n in enc.order if n in facts.initiative
        )
        return [f"Order: {order}"]

    def initiative_shown(self, c: Combatant) -> bool:
        """As every system's, and not where a delay placed ``c`` after a hidden combatant (its number tells theirs)."""
        return super().initiative_shown(c) and not any(self.hidden(n) for n in KovCombatant.of(c).delay_after)

    def turn_label(self, enc: Encounter, facts: KovFacts) -> str:
        turn = facts.turn
        c = enc.find(turn.current)
        if c is None:  # nobody's turn: the plain line (a turn the GM moves on)
            return super().turn_label(enc, facts)
        st = KovCombatant.of(c)
        return self.hidden_turn(enc, c, f"Round {enc.round} · {c.name} to act: {left_text(st.feet_left, st.move_actions, st.combat_actions, st.granted)}")
