"""Every sentence TOTE shows: its events, the status lines, the board, sheet summaries."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from rules.events import HitPointsChanged
from rules.hidden import secret
from rules.present import Presenter, by_hand
from rules.report import die_text, plural, signed
from rules.systems.tote import events as ev
from rules.systems.tote.facts import ToteFacts
from rules.systems.tote.state import ToteCombatant, ToteEncounter
from rules.systems.tote.tables import ATTACK_SKILLS

if TYPE_CHECKING:  # pragma: no cover
    from rules.models import Combatant, Encounter

__all__ = ["TotePresenter"]

#: the words of `Struck.action` and `Spent.action`
ACTION_WORDS = {
    "strike": "Strike",
    "assault": "Assault",
    "assist": "Assist strike",
    "defend": "Defend strike",
    "grapple": "Grapple",
    "shoot": "Shoot",
    "return": "Return attack",
}
#: the words of `InitiativeChanged.cause`
GAIN_WORDS = {"defend": "Defend", "unengaged": "unengaged", "quiet": "no melee damage last round", "gm": "set by the GM"}


def _label(t: ev.SkillTest) -> str:
    """How a test's dice are named: the hero's skill, or an enemy's To-Hit / Rating dice."""
    if not t.enemy:
        return t.skill.capitalize()
    return "To-Hit" if t.skill in ATTACK_SKILLS else "Rating dice"


class TotePresenter(Presenter[ToteFacts]):
    #: the words of the terms its rules name (`rules.present.Presenter.terms`)
    terms: ClassVar[dict[str, str]] = {
        "assault": "Assault",
        "return": "Assault return",
        "defend": "Defend",
        "to-hit": "to-hit bonus",
        "bonus": "bonus",
    }
    formats: ClassVar[dict[type, str]] = {
        ev.InitiativeRolled: "initiative_rolled",
        ev.Spent: "spent",
        ev.Struck: "struck",
        ev.Wounded: "wounded",
        ev.Tested: "tested",
        ev.InitiativeChanged: "initiative_changed",
        ev.Engaged: "engaged",
        ev.Disengaged: "disengaged",
        ev.Defending: "defending",
        ev.Protecting: "protecting",
        ev.Redirected: "redirected",
        ev.ReturnOffered: "return_offered",
        ev.NoReturn: "no_return",
        ev.ReturnDeclined: "return_declined",
        ev.Passed: "passed",
        ev.BandMoved: "band_moved",
        ev.MeleeNext: "melee_next",
        ev.EscapeFailed: "escape_failed",
        ev.NoMove: "no_move",
        ev.DistanceSet: "distance_set",
        ev.TiesOrdered: "ties_ordered",
        ev.ToteRound: "tote_round",
        ev.FightLeft: "fight_left",
    }
    causes: ClassVar[dict[str, str]] = {
        "unconscious": "unconscious (U filled): a `/coupdegrace` takes them out of the fight",
        "coup-de-grace": "a coup-de-grace takes them out of the fight",
        "escaped": "escaped the fight",
    }

    # -- events -------------------------------------------------------------------------------------
    def test_text(self, t: ev.SkillTest, against: str | None = None, attack: bool = False) -> str:
        """``🎲 Strike [2✍, 3✍, 6✍] keep 6 + Paragon 3✍ = **9** vs Block 8: hit, 1 success``."""
        result = ("hit" if t.success else "miss") if attack else ("success" if t.success else "failure")
        if secret(t.total):  # a hidden combatant's test: the outcome, what it was against by name, the rules' numbers
            rules = "".join(f" {signed(m.value)} {self.term(m)}" for m in t.rules_modifiers)
            return f"🎲 the GM's roll{rules} vs {against}: {result}" if against else f"🎲 the GM's roll{rules}: {result}"
        shown = ", ".join(die_text(d, i in t.typed) for i, d in enumerate(t.dice)) if t.dice else "no skill dice"
        bits = [f"🎲 {_label(t)} [{shown}]"]
        if t.barred:
            bits.append(f"({', '.join(map(str, t.barred))} barred by injuries)")
        bits.append(f"keep {t.kept}" if t.kept is not None else "nothing to keep")
        bits.append(f"+ Paragon {die_text(t.paragon, t.paragon_typed)}")
        bits += [f"{signed(m.value)} {self.term(m)}" for m in t.modifiers]
        text = " ".join(bits) + f" = **{t.total}** vs {against or f'T{t.target}'}: {result}"
        if t.success:
            if not secret(t.successes):  # counted against a hidden opponent's number, it would bracket it
                text += f", {plural(t.successes, 'success', 'successes')}"
            if t.critical:
                text += " (critical)"
        if t.keep_missing is not None:
            text += f" (no keepable {t.keep_missing} was rolled, so the best die was kept)"
        return text

    def initiative_rolled(self, e: ev.InitiativeRolled) -> str:
        if secret(e.value):
            return f"**{e.actor}** has its starting initiative (the GM keeps the number)"
        base = f"{'Rating' if e.test.enemy else 'Hawk'} {e.base}"
        return f"**{e.actor}** starting initiative **{e.value}**: {self.test_text(e.test)} → {e.test.successes} + {base}"

    def spent(self, e: ev.Spent) -> str:
        what = ACTION_WORDS.get(e.action) if e.action == "return" else e.action.replace("-", " ").capitalize()
        if secret(e.after):
            return f"**{e.actor}** · {what}"
        if e.cost:
            return f"**{e.actor}** · {what}: spends {e.cost} initiative ({e.before} → **{e.after}**)"
        return f"**{e.actor}** · {what}: free ({e.after} initiative left)"

    def struck(self, e: ev.Struck) -> str:
        what = ACTION_WORDS.get(e.action, e.action)
        block = f"**{e.target}**'s Block" if secret(e.test.target) else f"Block {e.test.target}"
        return f"**{e.actor}** · {what} at **{e.target}** with {e.weapon}: {self.test_text(e.test, block, True)}"

    def hit_points_changed(self, e: HitPointsChanged) -> str:
        """``GM: **Borin** marks 2 boxes of the Injury Track (6 → 4 left)`` (a condition word where hidden)."""
        if self.hidden(e.actor):  # the boxes marked are its numbers too: "clears ? boxes" read as healing
            return f"GM: **{e.actor}**'s Injury Track changed (now {self.condition(e.actor)})"
        how = f"marks {plural(-e.change, 'box', 'boxes')}" if e.change < 0 else f"clears {plural(e.change, 'box', 'boxes')}"
        left = f" ({e.before} → {e.after} left{self.stopped(e)})"
        return by_hand(e.by_gm, f"**{e.actor}** {how} of the Injury Track{left}")

    def wounded(self, e: ev.Wounded) -> str:
        if secret(e.damage):  # a hidden attacker's weapon: the damage it did, not how
            taken = "" if secret(e.amount) else f" {len(e.boxes)}"
            return f"**{e.actor}** takes{taken} damage from {e.weapon}{self.health_change(e.actor, e.before, e.after)}"
        parts = [f"{e.weapon} {e.damage}"]
        if secret(e.extra):  # counted against a hidden target's Block
            parts.append("+? for extra successes")
        elif e.extra:
            parts.append(f"{signed(e.extra)} for {plural(e.extra_successes, 'extra success', 'extra successes')}")
        if e.effect:
            parts.append(f"{signed(e.effect)} effect (critical)")
        if secret(e.amount):  # a hidden target: what the hit did, not its resists or track
            return f"**{e.actor}** is hit: {' '.join(parts)}{self.health_change(e.actor, e.before, e.after)}"
        parts += [f"−{boxes} resist {kind}" for kind, boxes in e.resists]
        capped = len(e.boxes) < e.amount  # the track had fewer boxes left than the damage
        cap = f", capped at the {plural(len(e.boxes), 'box', 'boxes')} left on the track" if capped else ""
        boxes = f"fills {' '.join(f'[{b}]' for b in e.boxes)}" if e.boxes else "no box filled"
        return f"**{e.actor}** takes {len(e.boxes)} damage ({e.before} → {e.after}): {' '.join(parts)} = {e.amount}{cap}; {boxes}"

    def band_moved(self, e: ev.BandMoved) -> str:
        """``**Borin** moves melee → close from Grak (1 initiative left)``: the foes whose distance changed, and the
        initiative left (not the injury boxes a bare "left" reads as)."""
        whom = f" from {', '.join(e.foes)}" if e.foes else ""
        left = f" ({e.left:g} initiative left)" if e.left is not None else ""
        return f"**{e.actor}** moves {' → '.join(e.path)}{whom}{left}"

    def tested(self, e: ev.Tested) -> str:
        label = ("Rating" if e.level_of_enemy else ("Stag" if e.what == "intimidate" else "Hawk"))
        source = ""
        if e.what == "escape":  # a hidden foe unnamed: which of them has the highest Rating is theirs to keep
            source = " (the highest foe's)" if secret(e.level) else f" ({e.level_from or 'nobody'})"
        against = f"{e.base} + {label} {e.level}{source} = {e.test.target}"
        what = f"Intimidate {e.target}" if e.what == "intimidate" else "Escape Foes"
        return f"**{e.actor}** · {what}: {self.test_text(e.test, against)}"

    def initiative_changed(self, e: ev.InitiativeChanged) -> str:
        if secret(e.after):
            return f"**{e.actor}**'s initiative changes" + (f" ({e.by}'s Assist)" if e.cause == "assist" else "")
        if e.cause == "assist":
            note = f"+1 from {e.by}'s Assist"
        elif e.cause == "intimidated":
            note = f"−{(e.before or 0) - e.after} intimidated"
        elif e.cause == "gm":
            note = "set by the GM"
        else:
            note = f"{signed(e.after - (e.before or 0))} {GAIN_WORDS[e.cause]}"
        return f"**{e.actor}** initiative **{e.after}**: {note}"

    def engaged(self, e: ev.Engaged) -> str:
        return f"{e.actor} and {e.other} are now engaged."

    def disengaged(self, e: ev.Disengaged) -> str:
        return f"{e.actor} disengages from {e.other} and counts as disengaged until the end of round {e.until}."

    def defending(self, e: ev.Defending) -> str:
        return f"{e.actor} defends: attacks against {e.actor} take −{e.penalty} this round."

    def protecting(self, e: ev.Protecting) -> str:
        return f"{e.actor} protects {e.ally}: attacks on {e.ally} hit {e.actor} instead this round."

    def redirected(self, e: ev.Redirected) -> str:
        return f"{e.actor} protects {e.ally} and takes the attack instead."

    def return_offered(self, e: ev.ReturnOffered) -> str:
        return (
            f"{e.actor} may return the Assault now: `/attack target:{e.against}` (free, {signed(e.bonus)}; "
            f"it is {e.actor}'s action this round) or `/init next` to let it go."
        )

    def no_return(self, e: ev.NoReturn) -> str:
        return f"{e.actor} has already acted this round: no return attack."

    def return_declined(self, e: ev.ReturnDeclined) -> str:
        return f"{e.actor} lets {e.against}'s Assault go unanswered and keeps its action"

    def passed(self, e: ev.Passed) -> str:
        points = "its initiative points" if secret(e.points) else plural(e.points, "initiative point")
        if e.by_gm:  # out of turn: its action this round is gone
            return f"**{e.actor}** is passed by the GM: it loses its action this round, keeping {points}"
        return f"{e.actor} passes, keeping {points}"

    def melee_next(self, e: ev.MeleeNext) -> str:
        return f"{e.actor} moves in from Close: melee rounds begin next round."

    def escape_failed(self, e: ev.EscapeFailed) -> str:
        return f"{e.actor} fails to escape and stays at Far."

    def no_move(self, e: ev.NoMove) -> str:
        return f"{e.actor} has no foe left standing to move from: the move is not made."

    def distance_set(self, e: ev.DistanceSet) -> str:
        text = "melee rounds" if e.band == "melee" else f"distance rounds at {e.band.capitalize()}: move 0, shoot 0, shoot-and-move 1"
        when = "" if e.started else " from the first round"
        return f"The GM sets the distance: {text}{when}; everyone is at {e.band.capitalize()}."

    def ties_ordered(self, e: ev.TiesOrdered) -> str:
        if any(self.hidden(n) for n in e.names):  # naming them would tell players their hidden initiatives tie
            return "The GM sets the order ties break in, after heroes first and Hawk/Rating"
        return f"Ties left after initiative, heroes-first and Hawk/Rating now break in this order: {', '.join(e.names)}"

    def tote_round(self, e: ev.ToteRound) -> str:
        if not e.melee:
            note = "distance round: move 0, shoot 0, shoot-and-move 1; no initiative gain"
        elif e.melee_begins:
            note = "a combatant is in Melee: melee rounds begin"
        else:
            note = "melee round"
        return f"**Round {e.round}** begins: {note}"

    def fight_left(self, e: ev.FightLeft) -> str:
        return f"🏃 Every one of **{e.side}** escaped: the fight is over, and nobody won it."

    # -- sheets, status lines, the board -------------------------------------------------------------
    def sheet_summary(self, c: "Combatant", enemy: bool, defaults: Mapping[str, Any]) -> str:
        """The sheet without its ``defaults`` (the values of its keys when not given), led by hero
        or enemy."""
        parts = []
        for k, v in c.sheet.items():
            if v == defaults.get(k) or v is None:
                continue
            shown = ",".join(map(str, v)) if isinstance(v, list) else ("yes" if v is True else v)
            parts.append(f"{k}={shown}")
        return ("enemy: " if enemy else "hero: ") + (" ".join(parts) or "default values")

    def status_line(self, enc: "Encounter", c: "Combatant", facts: ToteFacts) -> str:
        st = ToteCombatant.of(c)
        bits = [f"**{c.name}**"]
        if c.name in facts.enemies:
            bits.append(f"rating {c.sheet['rating']}" + (" group" if c.sheet.get("group") else ""))
        if c.status == "out":
            return " · ".join([*bits, "escaped" if st.escaped else "out"])
        filled = st.filled
        track = "".join(f"[{'x' if i < filled else b}]" for i, b in enumerate(c.sheet["track"]))
        bits += [facts.band[c.name], f"init {'—' if c.initiative is None else c.initiative}", f"{track} {c.hp} left"]
        engaged = facts.engaged.get(c.name)
        if engaged:
            bits.append(f"engaged: {', '.join(engaged)}")
        if c.name in facts.disengaged:
            bits.append(f"disengaged until round {st.disengaged}'s end")
        if c.name in facts.defending:
            bits.append("defending")
        if c.name in facts.protecting:
            bits.append(f"protecting {facts.protecting[c.name]}")
        if c.status == "downed":
            bits.append("unconscious")
        elif c.name in facts.acted:
            bits.append("acted")
        return " · ".join(bits)

    def line(self, enc: "Encounter", c: "Combatant", facts: ToteFacts) -> str:
        """A hidden combatant's line shows its band too: where it stands is no number of its own."""
        if self.hidden(c.name) and c.name in facts.band:
            return " · ".join([f"**{c.name}**", facts.band[c.name], self.system.condition(c)])
        return super().line(enc, c, facts)

    def order_note(self, c: Combatant, facts: ToteFacts) -> str:
        """Its status, or that it has acted this round (the order lists those after the one acting)."""
        return super().order_note(c, facts) or ("acted" if c.name in facts.acted else "")

    def turn_label(self, enc: "Encounter", facts: ToteFacts) -> str:
        turn = facts.turn
        if turn.phase == "initiative":
            return "Nobody is ready to act: the GM rolls initiative with `/init roll combatant:NAME`."
        if turn.over:
            return f"Round {enc.round} · nobody can act: the GM's `/init next` ends the round"
        c = enc.find(turn.current)
        if c is None:
            return ""
        if turn.phase == "return":
            pending = ToteEncounter.of(enc).pending_return
            against = pending.against if pending else ""
            return f"{c.name} may return {against}'s Assault: `/attack` (free) or `/init next` to let it go"
        shown = [o for o in map(enc.find, turn.queue[:3]) if o is not None]
        later = ", ".join(f"{o.name} {o.initiative}" for o in shown) + (" …" if len(turn.queue) > 3 else "")
        return f"{c.name} to act ({c.initiative} initiative)" + (f"; then {later}" if later else "")

    def board_extra(self, enc: "Encounter", facts: ToteFacts) -> list[str]:
        if not enc.started:
            return [f"Starting distance: {facts.distance} (the GM changes it with `/act action:distance options:far|close|melee`)."]
        costs = ", ".join(f"{n} {v}" for n, v in facts.costs.items())
        if facts.distance == "melee":
            lines = [f"⚔️ Melee round: unengaged combatants gain initiative at the start of each. Costs: {costs}."]
            if facts.apart:
                lines.append(f"🏹 Not in melee: {', '.join(facts.apart)}: Shoot (if unengaged) or move (`/move to:in`), no melee attack.")
            lines += self._distances(facts)
        else:
            lines = [
                f"🏹 Distance round (distance: {facts.distance}): no initiative gain. Costs: {costs}; "
                "moving in from Close starts melee, moving away from Far tries to Escape Foes."
            ]
            lines += self._distances(facts)
        pairs = ToteEncounter.of(enc).engaged
        lines.append("🔗 Engaged: " + ("; ".join(f"{a} ⇄ {b}" for a, b in pairs) if pairs else "nobody"))
        pending = ToteEncounter.of(enc).pending_return
        if pending:
            lines.append(f"↩️ {pending.by} may return {pending.against}'s Assault.")
        return lines

    @staticmethod
    def _distances(facts: ToteFacts, limit: int = 12) -> list[str]:
        """One line per combatant whose foes are not all at one distance (at most ``limit``)."""
        return [f"📏 {name}: " + ", ".join(f"{n} {b}" for n, b in bands.items())
                for name, bands in list(facts.foe_bands.items())[:limit]]
