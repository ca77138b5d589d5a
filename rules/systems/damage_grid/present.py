"""Every sentence the damage-grid game shows: its events, its status lines and its board."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from rules.events import Event, Modifier
from rules.facts import Question
from rules.hidden import mark, names_in, public_copy, secret
from rules.models import Combatant, Encounter
from rules.present import Presenter, Prompt
from rules.report import signed, user_ref
from rules.systems.damage_grid.events import (
    Activated,
    ActivationEnded,
    AreaEmpty,
    CloudDrifted,
    CloudPlaced,
    CoverHit,
    DgAttack,
    DgMoved,
    FlipsAsked,
    GrappleTest,
    GridDamage,
    GridMarked,
    LocationHit,
    NewRound,
    Passed,
    PhaseBegan,
    Priority,
    ProneChanged,
)
from rules.systems.damage_grid.facts import DgFacts, FlipsQuestion
from rules.systems.damage_grid.sheet import WEAPON_WORDS
from rules.systems.damage_grid.state import DgCombatant, DgEncounter, Offer
from rules.text import die_text

__all__ = ["DgPresenter", "sheet_summary"]

#: the longest button label (Discord: 80); a longer one is cut and the question lists it with its answer
LABEL = 80
#: the words an offered answer's button begins with, by its kind (`state.Offer`)
OFFERS = {"least": "Least harm: {flips}", "onto": "Onto {at}: {flips}", "none": "No flips", "only": "Only {flips}"}

HOW = {
    "move": "a Move", "combat": "a Combat activation", "lunge": "a Lunge", "grapple": "a Grapple",
    "break": "an attempt to break a grapple", "pass": "nothing (passes)",
}


def sheet_summary(c: Combatant) -> str:
    bits = []
    for k, v in c.sheet.items():
        if isinstance(v, list):  # weapons, equipment
            v = ",".join(v) or "none"
        elif isinstance(v, bool):
            v = "yes" if v else "no"
        bits.append(f"{k}={v}")
    return " ".join(bits)


class DgPresenter(Presenter[DgFacts]):

    #: the words of the terms its rules name (`rules.present.Presenter.terms`)
    terms: ClassVar[dict[str, str]] = {
        # Power
        "health": "Health",
        "weapon": "{0}",
        "low": "low on power",
        "gravity": "gravity",
        "behind": "from behind",
        "ability": "ability",
        "fewer": "fewer by choice",
        # Accuracy
        "size": "size {0}",
        "obstructed": "partly obstructed",
        "hidden": "hidden",
        "prone": "prone",
        "stationary": "stationary",
        "fast": "fast",
        "moving": "moving",
        "injured": "injured",
        "forced": "forced CP",
        "extended": "extended reach",
        "grappled": "grappled",
        "reach-1": "{0}: only Reach 1, without any Accuracy",
        # the Mode (knock-down) test
        "difficulty": "difficulty",
    }
    formats: ClassVar[dict[type, str]] = {
        NewRound: "new_round",
        PhaseBegan: "phase_began",
        Priority: "priority",
        Passed: "passed",
        Activated: "activated",
        ActivationEnded: "activation_ended",
        DgMoved: "dg_moved",
        DgAttack: "dg_attack",
        GridDamage: "grid_damage",
        ProneChanged: "prone_changed",
        CoverHit: "cover_hit",
        GrappleTest: "grapple_test",
        CloudPlaced: "cloud_placed",
        CloudDrifted: "cloud_drifted",
        AreaEmpty: "area_empty",
        FlipsAsked: "flips_asked",
        GridMarked: "grid_marked",
    }
    causes: ClassVar[dict[str, str]] = {
        "mind0": "Mind 0, inert (a `/coupdegrace` finishes it)",
        "health0": "Health 0, destroyed",
        "coup": "coup de grâce",
        "healed": "Mind above 0 again (healed by the GM)",
    }
    checks: ClassVar[dict[str, str]] = {"mode": "Mode (knock-down) test"}
    prone_causes: ClassVar[dict[str, str]] = {
        "knocked": "knocked down (failed the Mode test)",
        "lunge": "falls to the ground: the Lunge did no damage",
        "stood": "stands up",
    }

    def terms_text(self, name: str, mods: list[Modifier], total_label: str) -> str:
        """``Power 3 Health +1 from behind = 4``; a weapon the replies name otherwise (`WEAPON_WORDS`) comes
        first, with nothing more when it is the only term: ``bare hands, Accuracy 0``."""
        if not mods:
            return ""
        first, rest = mods[0], mods[1:]
        said = WEAPON_WORDS.get(str(first.args[0])) if first.code == "weapon" and first.args else None
        if said is not None and not rest:
            return f"{said}, {name} {first.value}"
        text = f"{said}, {name} {first.value}" if said is not None else f"{name} {first.value} {self.term(first)}"
        for m in rest:
            if m.code == "reach-1" and m.value > 0:  # "without any Accuracy": the penalties are taken away, not added
                text += f", {m.args[0]} takes the {signed(-m.value)} away: only Reach 1, without any Accuracy"
            else:
                text += f" {signed(m.value)} {self.term(m)}"
        return f"{text} = {total_label}"

    # -- turns ----------------------------------------------------------------------------------
    def new_round(self, e: NewRound) -> str:
        return f"**Round {e.round}** begins: Combat Points back; sides activate in the order {', '.join(e.sides)}"

    def phase_began(self, e: PhaseBegan) -> str:
        return f"**Phase {e.phase}/{e.phases}** of round {e.round} begins"

    def priority(self, e: Priority) -> str:
        return f"**{e.side}** activate a model: {', '.join(e.models)}"

    def passed(self, e: Passed) -> str:
        return f"{e.side} have no model left to activate in this phase"

    def activated(self, e: Activated) -> str:
        points = f" ({e.speed} Speed point{'s' if e.speed != 1 else ''})" if e.how in ("move", "lunge") else ""
        left = points or (f" ({e.cp} CP to spend)" if e.how != "pass" else "")
        return f"**{e.actor}** activates: {HOW.get(e.how, e.how)}{left}"

    def activation_ended(self, e: ActivationEnded) -> str:
        return f"**{e.actor}** ends its activation"

    # -- movement -------------------------------------------------------------------------------
    def dg_moved(self, e: DgMoved) -> str:
        if len(e.path) <= 1:  # it stayed on its square: it stood up, turned, or both
            left = f", {e.left:g} left" if e.left is not None and not secret(e.left) else ""
            stood = f"stands up ({e.stood} Speed point{'s' if e.stood != 1 else ''}{left})" if e.stood is not None else ""
            turned = f"turns to face {e.facing}" if e.facing else ""
            return f"**{e.actor}** " + (" and ".join(x for x in (stood, turned) if x) or f"stays on {e.path[0] if e.path else '?'}")
        text = super().moved(e)
        notes = []
        if e.stood is not None:
            notes.append(f"standing up cost {e.stood}")
        if e.rough:
            notes.append(f"rough ground at {', '.join(e.rough)}")
        return text + (f"; {'; '.join(notes)}" if notes else "")

    # -- attacks --------------------------------------------------------------------------------
    def dg_attack(self, e: DgAttack) -> str:
        what = {"lunge": "lunges at", "coup": "gives the coup de grâce to"}.get(e.special or "", "attacks")
        head = f"**{e.actor}** {what} **{e.target}** with {WEAPON_WORDS.get(e.weapon or '', e.weapon)} (" + (f"area on {e.area}, " if e.area else "")
        head += f"Reach {e.distance}"
        head += f", counted {e.reach}" if e.reach != e.distance and not secret(e.reach) else ""
        head += ", melee" if e.melee else ""
        head += f", {e.cp} CP)" if e.cp != 1 and not secret(e.cp) else ")"  # "Some special attacks cost more"
        power = sum(m.value for m in e.power)
        accuracy = sum(m.value for m in e.accuracy)
        lines = [head]
        if not secret(power) and not secret(accuracy):
            # "as many D6 as the Power": a Power taken below 1 still rolled its die (power_of), and says so
            rolled = len(e.roll.dice)
            used = f"{rolled} (at least 1, not {signed(power) if power else 0})" if rolled > power else str(power)
            lines.append("; ".join(self.terms_text(name, mods, total) for name, mods, total in
                                   (("Power", e.power, used), ("Accuracy", e.accuracy, str(accuracy))) if mods))
        if e.sight != "none":
            lines.append("the target is " + ("partly obstructed" if e.sight == "partial" else "hidden"))
        if e.cover_by is not None and secret(e.cover):  # a hidden model's cover: its size and Body are the GM's
            lines.append(f"cover ({e.cover_by}): the GM keeps its Body hidden")
        elif e.cover_by is not None and e.cover:
            added = "" if secret(e.cover_added) else f": +{e.cover_added} Body" if e.cover_added else ": the Power penetrates it"
            lines.append(f"cover of Body {e.cover} ({e.cover_by}){added}")
        if any(secret(d) for d in e.roll.dice):
            lines.append("🎲 the GM's roll")
        else:
            shown = ", ".join(die_text(d, i in e.roll.typed) for i, d in enumerate(e.roll.dice))
            lines.append(f"🎲 {shown} ({e.roll.label})" if e.roll.dice else "🎲 no dice: Power 0")
        if e.flips and not any(secret(f) for f in e.faces):
            who = "the target flips" if e.flips[0].by == "target" else "flips"
            aim = f" aiming at {e.aim.title()}" if e.aim and who == "flips" else ""  # an aim logged with the target's
            lines.append(f"{who}{aim}: " + ", ".join(f"{f.before}→{f.after}" + (" (2)" if f.cost == 2 else "") for f in e.flips)
                         + f" → {', '.join(map(str, e.faces))}")
        if e.forced and not secret(e.forced):
            lines.append(f"forced Combat Point: -{e.forced} Accuracy")
        return "\n".join(lines)

    def hit_now(self, name: str | None) -> str:
        """A hidden model hit: ``is hit (now wounded)``, or ``is hit, but its Health is whole (now unhurt)`` (its
        condition is its Health's word, "unhurt" while Health is whole, whatever else the hit struck)."""
        now = self.condition(name)
        return f"is hit{', but its Health is whole' if now == 'unhurt' else ''} (now {now})"

    def grid_damage(self, e: GridDamage) -> str:
        if secret(e.health_lost):  # a hidden target: its condition, not its grid
            if e.stopped:
                return f"**{e.actor}**: no hit gets through (now {self.condition(e.actor)})"
            return f"**{e.actor}** {self.hit_now(e.actor)}"
        if not e.locations:
            return f"**{e.actor}**: no face lands"
        # the dice counts of a hidden attacker's hit, or of one a hidden model covered, are secret: the locations and
        # the harm only, and no location whose every hit Shield and Body stopped (it would tell what they stopped,
        # which counts the attacker's Power or the cover's Body)
        rows = [h for h in e.locations if not secret(h.rolled) or h.taken or h.received or h.passed]
        if not rows:
            return f"**{e.actor}**: no hit gets through"
        parts = []
        for h in rows:
            stops = ", ".join(s for s in (f"Shield stops {h.shield}" if h.shield and not secret(h.shield) else "",
                                          f"Body stops {h.body}" if h.body and not secret(h.body) else "") if s)
            name = f"Arsenal ({self.landed(e, h)})" if h.location == "arsenal" and e.weapon else h.location.title()
            bits = [name + (f" ×{h.rolled}" if h.rolled and not secret(h.rolled) else "") + (f" ({stops})" if stops else "")]
            if h.received:
                bits.append(f"{h.received} passed on to it")
            if h.taken:
                bits.append(f"takes {h.taken}" + ("" if self.hidden(e.actor) else f" ({h.before} → {h.after})"))
            elif h.rolled and not h.passed:
                bits.append("no hit gets through")
            if h.passed:
                bits.append(f"passes {h.passed} on by its arrow")
            parts.append(", ".join(bits))
        now = f" (now {self.condition(e.actor)})" if self.hidden(e.actor) else ""
        return f"**{e.actor}**'s grid: " + "; ".join(parts) + now

    @staticmethod
    def landed(e: GridDamage, h: LocationHit) -> str:
        """The weapon an Arsenal row's hits land on: ``gun``, or ``claw is ruined: the hit lands on the gun`` when the
        attacker named another it could not land on."""
        if e.named is None:
            return str(e.weapon)
        why = f"{e.named} is ruined" if e.carried else f"{e.actor} carries no {e.named}"
        hits = h.rolled + h.received
        return f"{why}: the hit{'s land' if hits != 1 else ' lands'} on the {e.weapon}"

    def prone_changed(self, e: ProneChanged) -> str:
        return f"**{e.actor}** " + self.prone_causes.get(e.cause, e.cause)

    def cover_hit(self, e: CoverHit) -> str:
        end = ": reduced to debris (no cover; rough to cross)" if e.debris else f" ({e.left} left)"
        return f"The cover at {e.cell} takes {e.hits}{end}"

    def grapple_test(self, e: GrappleTest) -> str:
        helpers = f" (helped by {', '.join(e.helpers)})" if e.helpers else ""
        theirs = f", helped by {', '.join(e.target_helpers)}" if e.target_helpers else ""
        what = "tries to break free of" if e.breaking else "grapples"
        result = ("breaks free" if e.breaking else "holds the target") if e.won else "fails"
        return (f"**{e.actor}** {what} **{e.target}**{helpers}: 🎲 {', '.join(map(str, e.dice))} (best group {e.best}) "
                f"vs 🎲 {', '.join(map(str, e.target_dice))} (best group {e.target_best}{theirs}): {result}")

    def cloud_placed(self, e: CloudPlaced) -> str:
        return f"A {e.name} covers {', '.join(e.cells)} for {e.phases} phase{'s' if e.phases != 1 else ''}, this one included"

    def area_empty(self, e: AreaEmpty) -> str:
        return f"**{e.actor}**'s {e.weapon} on {e.at} catches no model"

    def cloud_drifted(self, e: CloudDrifted) -> str:
        if e.gone:
            return f"The {e.name} rolls {e.roll} on its d10 and disappears"
        if e.blocked:
            return f"The {e.name} rolls {e.roll}: blocked, it stays"
        if e.direction is None:
            return f"The {e.name} rolls {e.roll} and stays where it is"
        return f"The {e.name} rolls {e.roll} and drifts {e.direction}, to {', '.join(e.cells)}"

    def grid_marked(self, e: GridMarked) -> str:
        """``GM: **Juno**'s Health: 2 hits marked (3 → 1)`` (a condition word where hidden)."""
        if secret(e.change):
            return f"GM: **{e.actor}** " + (f"is healed (now {self.condition(e.actor)})" if e.healed else self.hit_now(e.actor))
        return f"GM: **{e.actor}**'s {self.location_marked(e)}"

    @staticmethod
    def location_marked(e: GridMarked) -> str:
        """``Health: 2 hits marked (3 → 1)``."""
        how = f"{-e.change} hit{'s' if e.change != -1 else ''} marked" if e.change < 0 else f"{e.change} hit{'s' if e.change != 1 else ''} cleared"
        return f"{e.location.title()}: {how} ({e.before} → {e.after})"

    def lines(self, events: Sequence[Event]) -> Iterator[str]:
        """As every presenter's, but the GM's marks on one model's locations read as one line (a hidden model's as
        one hit: players do not count its locations by the lines)."""
        merged: list[Event | list[GridMarked]] = []
        for e in events:
            last = merged[-1] if merged else None
            if isinstance(e, GridMarked) and isinstance(last, list) and last[0].actor == e.actor:
                last.append(e)
            else:
                merged.append([e] if isinstance(e, GridMarked) else e)
        return (self._marks_line(x) if isinstance(x, list) else self.marked(x) for x in merged)

    def _marks_line(self, marks: list[GridMarked]) -> str:
        """One line for the GM's marks on one model: each location's for the GM, the last mark's line (the
        model's condition now) for players where the model is hidden."""
        if len(marks) == 1:
            return self.marked(marks[0])
        full = f"GM: **{marks[0].actor}**'s " + "; ".join(self.location_marked(e) for e in marks)
        names = names_in(marks[-1], self.hide) if self.hide else set()
        return mark(names, full, self.text(public_copy(marks[-1], self.hide))) if names else full

    def flips_asked(self, e: FlipsAsked) -> str:
        """``**Xul** attacks **Juno**: 2, 2, 3 at a negative Accuracy; ... chooses Juno's 2 flips`` (a hidden
        attacker's dice and flips are the GM's roll: only the target's owner is sent them)."""
        if secret(e.points) or any(secret(f) for f in e.faces):
            return (f"**{e.actor}** attacks **{e.target}**: 🎲 the GM's roll, at a negative Accuracy. The attack waits "
                    f"for {user_ref(e.owner)} to choose {e.target}'s flips (asked privately)")
        flips = f"{e.points} flip{'s' if e.points != 1 else ''}"
        return (f"**{e.actor}** attacks **{e.target}**: {', '.join(map(str, e.faces))} at a negative Accuracy. The attack "
                f"waits for {user_ref(e.owner)} to choose {e.target}'s {flips} (asked privately)")

    # -- the question a target's owner answers: its flips ----------------------------------------
    def offer_label(self, o: Offer) -> str:
        """``Onto body: 2→3, 1→6 (2 flips)``: a flip to the opposite face says what it costs; a label
        longer than :data:`LABEL` is cut (``…``)."""
        turns = ", ".join(f"{a}→{b}" + (" (2 flips)" if cost == 2 else "") for a, b, cost in o.flips) or "no flips"
        label = OFFERS[o.kind].format(at=o.at, flips=turns)
        return label if len(label) <= LABEL else label[:LABEL - 1] + "…"

    def prompt(self, q: Question) -> Prompt:
        assert isinstance(q, FlipsQuestion), f"the damage-grid game asks no {q.kind!r} question"
        if q.deadline_hours > 0:
            until = f"at the turn's deadline, {q.deadline_hours:g} h after the turn began, the least harm is taken"
        else:
            until = "there is no turn deadline: meanwhile a GM can answer for you or take the attack back with `/undo`"
        labels = [self.offer_label(o) for o in q.offers]
        lines = [
            (f"**{q.attacker}** attacks **{q.target}** with the {q.weapon or 'attack'} at a negative Accuracy: "
             f"you may make **{q.points}** flip{'s' if q.points != 1 else ''} (a neighbouring face 1, the opposite "
             f"face 2)."),
            f"The dice: **{', '.join(map(str, q.faces))}**. Press the flips to make; the attack waits for your answer ({until}).",
        ]
        lines += [f"{label}: `{answer}`" for label, answer in zip(labels, q.answers, strict=True) if label.endswith("…")]
        lines.append(f"Each button answers at once: an **Only** button makes that one flip and no other. Other combinations: "
                     f"type `/act action:{q.action} combatant:{q.target} options:\"{q.combination}\"` in the channel.")
        return self.worded(q, f"🎲 {q.target}: choose the flips", lines, labels,
                           waiting=f"{q.attacker}'s {'Lunge' if q.lunge else 'attack'} on {q.target}", lapse="the least harm")

    # -- the board ----------------------------------------------------------------------------------
    def public_notes(self, enc: Encounter, c: Combatant, facts: DgFacts) -> list[str]:
        """A hidden model's line, too, says that it is prone, who holds it (told to everyone as it happened) and that
        it is lit: no number."""
        return self._seen(c)

    @staticmethod
    def _seen(c: Combatant) -> list[str]:
        """``prone``, ``held by Meena``, ``lit``: what everyone sees of a model (what keeps it down or in place, a
        light it carries), a hidden one's too."""
        st = DgCombatant.of(c)
        held = ["held by " + ", ".join(st.grappled_by)] if st.grappled_by else []
        return ["prone"] * st.prone + held + ["lit"] * bool(c.sheet.get("lit"))

    def status_line(self, enc: Encounter, c: Combatant, facts: DgFacts) -> str:
        st = DgCombatant.of(c)
        bits = [f"**{c.name}**"]
        if c.position:
            bits.append(c.position + (f" {c.facing}" if c.facing else ""))
        vals = " ".join(f"{loc[:2].title()}{n}" for loc, n in st.values.items())
        if vals:
            bits.append(vals)
        if enc.started:
            bits.append(f"{st.cp} CP")
        bits += self._seen(c)
        if c.status != "active":
            bits.append("inert" if c.status == "downed" else "destroyed")
        return " · ".join(bits)

    def turn_label(self, enc: Encounter, facts: DgFacts) -> str:
        turn = facts.turn
        if turn.over:
            if not any(facts.waiting.values()):  # nobody on the board can activate in the phase
                return f"Round {enc.round} · {turn.phase}: nobody can activate: the GM's `/init next` ends the phase"
            return f"Round {enc.round} · {turn.phase}: the GM's `/init next` goes on"
        cur = enc.find(turn.current)
        if cur is None:
            return f"Round {enc.round} · {turn.phase} · {turn.side} to activate one of: {', '.join(turn.actors)}" if turn.actors else ""
        st = DgCombatant.of(cur)
        doing = f"{st.speed_left} Speed left" if st.activation in ("move", "lunge") else f"{st.cp} CP left"
        return f"Round {enc.round} · {turn.phase} · {cur.name} ({cur.side}) activating: {doing}"

    def order_lines(self, enc: Encounter, facts: DgFacts) -> list[str]:
        """The sides alternate activating one model each phase: the order of sides, and each side's models still to
        activate, the side to activate (or the model activating) marked."""
        if not facts.waiting:
            return []
        turn = facts.turn
        lines = [f"{(turn.phase or '').capitalize()}: the sides alternate activating one model, {' → '.join(facts.waiting)}"]
        for side, names in facts.waiting.items():
            here = "▶️ " if side == turn.side and turn.actors else ""
            doing = [f"{turn.current} activating"] if here and turn.current else []
            if names:
                doing.append(f"to activate: {', '.join(names)}")
            elif not doing:
                doing.append("all activated")
            lines.append(f"{here}**{side}**: " + "; ".join(doing))
        return lines

    def board_extra(self, enc: Encounter, facts: DgFacts) -> list[str]:
        lines = [f"Cloud on {', '.join(facts.cloud)}"] if facts.cloud else []
        asked = DgEncounter.of(enc).asking
        if asked is not None:
            lines.append(f"⏳ {asked.attacker}'s attack on {asked.target} waits for {user_ref(asked.owner)} to choose the flips.")
        return lines
