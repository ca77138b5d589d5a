"""Coup-De-Grace's words: its events, status lines and board (every sentence the system shows)."""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rules.events import Checked
from rules.hidden import secret
from rules.present import Presenter
from rules.report import plural, signed
from rules.systems.coup_de_grace.events import (
    DIE_BONUSES,
    Activated,
    ActivationEnded,
    Blocker,
    Cast,
    Finesse,
    HpChanged,
    MiniMoved,
    MiniTurned,
    NewRound,
    OrderSet,
    Passed,
    Priority,
    PushCancelled,
    Pushed,
    RoundOver,
    Standing,
    Struck,
    Wounded,
)
from rules.systems.coup_de_grace.facts import CdgFacts
from rules.systems.coup_de_grace.state import CdgCombatant
from rules.systems.coup_de_grace.tables import STEP_COST

if TYPE_CHECKING:  # pragma: no cover
    from rules.models import Combatant, Encounter

__all__ = ["CdgPresenter", "blocker_text"]

#: the damage bonuses of `Wounded.bonuses`
BONUSES = {
    "axe": "axe Dolorous Blow",
    "knife": "assassin's knife Spine Stab (backstab)",
    "glaive": "glaive Cut Down",
    "hammer": "hammer Bash Back",
}
#: the attacker's die each of `DIE_BONUSES` asks for (`Wounded.natural`): named only where its
#: numbers are shown (a hidden attacker's die is its number)
NATURAL = {"axe": "natural 6", "glaive": "natural 3-4"}
assert NATURAL.keys() == DIE_BONUSES, "each bonus a die gives is worded"


def blocker_text(b: Blocker) -> str:
    """``E3 is taken by Grak``: why a square cannot be entered."""
    if b.what == "edge":
        return "off the map"
    if b.what == "wall":
        return f"{b.cell} is a wall or obstacle"
    return f"{b.cell} is taken by {b.by or 'a mini'}"


class CdgPresenter(Presenter[CdgFacts]):
    #: the words of the terms its rules name (`rules.present.Presenter.terms`): the attack's
    #: modifiers (``{all}``: the minis named), the DV and the dramatic recovery it is against
    terms: ClassVar[dict[str, str]] = {
        "DV": "DV",
        "recovery": "dramatic recovery",
        "coordinated": "co-ordinated attack ({all})",
        "backstab": "backstab",
        "distraction": "distraction ({all})",
        "cdg_melee": "melee coup-de-grace",
        "into_melee": "firing into melee ({all})",
        "range": "range {0} (increment {1})",
        "range_downed": "range {0} (increment {1}) ×2 vs downed",
        "shield": "shield (Block)",
        "buckler": "buckler",
        "downed": "downed",
        "curved_sword": "curved sword (natural 1-3)",
    }
    formats: ClassVar[dict[type, str]] = {
        NewRound: "new_round",
        Priority: "priority",
        Passed: "passed",
        RoundOver: "round_over",
        OrderSet: "order_set",
        Activated: "activated",
        ActivationEnded: "activation_ended",
        MiniMoved: "mini_moved",
        MiniTurned: "mini_turned",
        Struck: "struck",
        Finesse: "finesse",
        Wounded: "wounded",
        Pushed: "pushed",
        PushCancelled: "push_cancelled",
        Standing: "standing",
        HpChanged: "hp_changed",
        Cast: "cast",
    }
    checks: ClassVar[dict[str, str]] = {
        "roll_off": "roll off for the initiative",
        "recover": "attempts a dramatic recovery",
    }

    # -- rounds and activations ---------------------------------------------------------------------
    def new_round(self, e: NewRound) -> str:
        summary = ", ".join(f"{s} {e.counts.get(s, 0)}" for s in e.sides) or "none"
        lead = e.sides[0] if e.sides else "nobody"
        return (
            f"**Round {e.round}** begins: {lead} have the initiative (minis in the battle: {summary}); "
            f"sides take turns activating one mini at a time"
        )

    def priority(self, e: Priority) -> str:
        return f"**{e.side}** to activate a mini: {', '.join(e.minis)}"

    def passed(self, e: Passed) -> str:
        return f"{e.side} have no minis left to activate and pass."

    def round_over(self, e: RoundOver) -> str:
        return f"Every mini has activated: round {e.round} is over."

    def order_set(self, e: OrderSet) -> str:
        return f"Order of sides this round: {' → '.join(e.sides)}."

    def activated(self, e: Activated) -> str:
        if e.downed and e.passing:  # no action to take: the activation ends at once
            return f"{e.actor} activates while downed"
        if e.downed:
            return (
                f"{e.actor} activates while downed: ONE action (crawl one square, attack at −2, "
                f"or `/act action:recover`)"
            )
        return f"{e.actor} activates" if secret(e.mp) else f"{e.actor} activates with {e.mp} MP"

    def activation_ended(self, e: ActivationEnded) -> str:
        unused = f" ({e.unused} MP unused)" if e.unused and not secret(e.unused) else ""
        return f"{e.actor}'s activation ends{unused}."

    def checked(self, e: Checked) -> str:
        if e.what == "recover":
            outcome = "stands up with 1 HP" if e.roll.success else "nothing happens"
            return f"**{e.actor}** {self.checks['recover']}: {self.roll_text(e.roll, outcome)}"
        if e.what == "roll_off":  # the actor is a side: "the dwarves roll off"
            return f"the {super().checked(e)}"
        return super().checked(e)

    # -- moves ---------------------------------------------------------------------------------------
    def mini_moved(self, e: MiniMoved) -> str:
        path = " → ".join(e.path)
        if e.crawl:
            return f"**{e.actor}** crawls {path} (its one action while downed)"
        if secret(e.cost):
            return f"**{e.actor}** moves {path}, facing {e.facing}"
        detail = f" ({'+'.join(map(str, e.steps))})" if any(s > STEP_COST for s in e.steps) else ""
        return f"**{e.actor}** moves {path} for {e.cost:g} MP{detail}, facing {e.facing} · {e.left:g} MP left"

    def mini_turned(self, e: MiniTurned) -> str:
        if secret(e.cost):
            return f"**{e.actor}** turns to face {e.facing}"
        return f"**{e.actor}** turns to face {e.facing} for {e.cost:g} MP · {e.left} MP left"

    # -- attacks -------------------------------------------------------------------------------------
    def struck(self, e: Struck) -> str:
        verb = "shoots at" if e.mode == "ranged" else "attacks"
        if e.coup_de_grace and e.mode == "ranged":
            verb = "shoots a coup-de-grace at"
        roll = self.roll_text(e.roll.model_copy(update={"against": None, "success": None}), None)
        guard = "".join(f" {signed(m.value)} {self.term(m)}" for m in e.defence)
        dv = f"DV {e.dv}{guard}" + (f" = **{e.roll.against}**" if guard else "")
        if secret(e.dv):
            dv = f"**{e.target}**'s DV"
        cost = f" · {e.cost} MP, {e.left} left" if e.cost and not secret(e.cost) else ""
        extra = ""
        if e.reroll:  # a hidden roller's reroll is told without the die it rerolled
            die = "a die" if any(secret(d) for d in e.roll.dice) else "the missing 2"
            extra = f" (crossbow Accuracy: {die} is rerolled, once a round)"
        return (
            f"**{e.actor}** {verb} **{e.target}** with {e.weapon}: {roll} vs {dv}: "
            f"**{'hit' if e.roll.success else 'miss'}**{extra}{cost}"
        )

    def finesse(self, e: Finesse) -> str:
        return f"fencing sword Finesse: the miss gives {e.actor} +{e.gained} MP ({e.left} left)"

    def wounded(self, e: Wounded) -> str:
        change = self.health_change(e.actor, e.before, e.after)
        if self.shown(e.actor) and e.before is not None and e.after is not None and e.before - e.amount < e.after:
            # HP stop at -1 ("-1HP or less" is out of action), as `/combatant hp` stops them
            change = f" ({e.before} → {e.after}; stops at {e.after}, out of action)"
        die = e.natural is not None and not secret(e.natural)
        names = [
            BONUSES[b] + (f" ({NATURAL[b]})" if die and b in NATURAL else "")
            + (f" ({blocker_text(e.blocker)})" if b == "hammer" and e.blocker else "") for b in e.bonuses
        ]
        note = ": " + " ".join(["1", *(f"+1 {n}" for n in names)]) if names else ""
        return f"**{e.actor}** takes {e.amount} damage{change}{note}"

    def pushed(self, e: Pushed) -> str:
        return f"**{e.target}** is pushed back {' → '.join(e.path)} ({e.weapon})"

    def push_cancelled(self, e: PushCancelled) -> str:
        return f"{e.weapon} Blastback cancelled: {blocker_text(e.blocker)}"

    def standing(self, e: Standing) -> str:
        cause = {
            "out": "out of action, removed from the board",
            "zero": "0 HP: lies down, no facing",
            "stands": f"stands up facing {e.facing}",
            "back": "back in the battle, not deployed: place it with `/combatant edit at:`",
        }.get(e.cause or "", "")
        return f"**{e.actor}** is now **{e.status}**" + (f": {cause}" if cause else "")

    def hp_changed(self, e: HpChanged) -> str:
        if self.hidden(e.actor):
            return f"{e.actor}'s sheet hp changed{self.health_change(e.actor, e.before, e.after)}"
        return f"sheet hp {e.hp_max_before} → {e.hp_max}: {e.actor} has {e.before} → {e.after} HP"

    def cast(self, e: Cast) -> str:
        at = f" at **{e.target}** ({plural(e.range or 0, 'square')})" if e.target else ""
        left = f" · {e.left} MP left" if e.left is not None else ""
        return f"**{e.actor}** casts {e.spell}{at} for {e.cost} MP{left}: the GM rules on its effect"

    # -- the board -------------------------------------------------------------------------------------
    def status_line(self, enc: "Encounter", c: "Combatant", facts: CdgFacts) -> str:
        s = CdgCombatant.of(c)
        bits = [f"**{c.name}**"]
        if c.position:
            bits.append(c.position + (f" {c.facing}" if c.facing else ""))
        elif c.status != "out":
            bits.append("not deployed")
        dv = f"DV {facts.dv[c.name]}{self.changes_note(facts.dv_changes.get(c.name, ()))}"
        ma = f"MA {facts.ma[c.name]}{self.changes_note(facts.ma_changes.get(c.name, ()))}"
        bits.append(f"{c.hp}/{s.hp_max if s.hp_max is not None else c.hp} HP · {dv} · {ma}")
        if s.mp is not None:
            bits.append(f"▶ {s.mp} MP left")
        elif enc.started and s.done and c.in_fight:
            bits.append("activated")
        if c.status != "active":
            bits.append(c.status)
        weapons = ", ".join(w + (" (used)" if s.used.get(w) else "") for w in (c.sheet.get("weapons") or []))
        bits.append(weapons or "no weapons")
        if c.sheet.get("race"):
            bits.append(str(c.sheet["race"]))
        return " · ".join(bits)

    def order_lines(self, enc: "Encounter", facts: CdgFacts) -> list[str]:
        """Sides alternate, so the order is of sides: each side's minis still to activate, the side with priority marked."""
        if not enc.started:
            return []
        turn = facts.turn
        lines = [f"Order of sides this round: {' → '.join(facts.sides)}"]
        for side in facts.sides:
            waiting = facts.waiting[side]
            mark = "▶️ " if side == turn.side and turn.actors else ""
            lines.append(f"{mark}**{side}**: " + (f"to activate: {', '.join(waiting)}" if waiting else "all activated"))
        return lines

    def turn_label(self, enc: "Encounter", facts: CdgFacts) -> str:
        turn = facts.turn
        if turn.over:
            return f"Round {enc.round} is over: `/init next` starts round {enc.round + 1}"
        cur = enc.find(turn.current)
        if cur is None:
            return f"Round {enc.round} · {turn.side} to activate: {', '.join(turn.actors)}" if turn.actors else ""
        doing = f"{turn.points[0]}/{turn.points[1]} MP left" if turn.points else "one action (downed)"
        return f"Round {enc.round} · {cur.name} ({cur.side}) activating: {doing}"

    def board_extra(self, enc: "Encounter", facts: CdgFacts) -> list[str]:
        if not enc.started or enc.winner:
            return []
        return [f"Order of sides this round: {' → '.join(facts.sides)}"]
