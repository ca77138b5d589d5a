"""The target's owner chooses the flips: encounter option ``target_flips=ask``.

"A negative Accuracy allows the target to flip that many faces": with ``target_flips=ask`` an
attack on a player's model whose sheet keeps the default ``flips=least-harm`` does not resolve
at once. The attack is checked and its Power dice rolled; then nothing of it is applied: the
encounter keeps it as a question (`state.Asked`) for the model's owner, with the answers
(:func:`choices`) the bot offers as buttons (:func:`question`). The answer (`/act action:flips`, which the buttons
send) resolves the declared attack again with the same dice and the chosen flips. While it
waits, every other rule action in the encounter waits too (:func:`waiting`); reading commands,
`/undo` (which takes the attack back) and `/encounter end` go on. The turn clock's deadline, if
one is set, answers it with the least harm (:func:`lapse`); its reminders go to the owner.

A GM's model, an area attack's models (each caught model is its own attack) and a model whose
sheet sets another ``flips=`` keep the sheet's choice (`flips.preferred_flips`).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any

from rules.actions import Act, Attack, make_action
from rules.dice import Dice, DieRoll, Typed
from rules.errors import IllegalAction, InputError, NotAllowed
from rules.events import Event
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.report import user_ref
from rules.system import Action
from rules.systems.damage_grid import flips
from rules.systems.damage_grid.events import FlipsAsked
from rules.systems.damage_grid.facts import FlipsQuestion
from rules.systems.damage_grid.grid import FACES, DamageGrid
from rules.systems.damage_grid.options import values
from rules.systems.damage_grid.state import Asked, DgEncounter, Offer

__all__ = ["ANSWER", "NONE", "LEAST", "MAX_CHOICES", "FlipsWanted", "choices", "read_answer", "target_turns",
           "declared", "answer", "question", "lapse"]

#: the `/act` action that answers, and its answers besides ``from>to`` flips
ANSWER = "flips"
NONE = flips.NO_FLIPS
LEAST = flips.LEAST_HARM
#: the most answers offered as buttons (Discord: 5 rows of 5)
MAX_CHOICES = 25


class FlipsWanted(Exception):
    """Raised inside an attack when its target's owner must choose the flips (caught by :func:`declared`)."""

    def __init__(self, target: Combatant, faces: list[int], points: int, offered: list[Offer]) -> None:
        super().__init__(target.name)
        self.target, self.faces, self.points, self.offered = target, faces, points, offered


def _text(turns: Sequence[flips.Flip]) -> str:
    """An answer as words: ``5>3,4>1``, or ``none``."""
    return ",".join(f"{f.before}>{f.after}" for f in turns) or NONE


def choices(faces: Sequence[int], points: int, grid: DamageGrid, harm: Callable[[Sequence[int]], Any]) -> list[Offer]:
    """The answers offered as buttons, each a different set of flips: the least harm (the bot's
    choice), the most dice turned onto each location of the grid, no flips, then each single flip
    the points allow (``only`` that flip), in order of the faces; at most :data:`MAX_CHOICES`.
    Other combinations are typed (the question says how)."""
    out: list[Offer] = []

    def offer(kind: str, turns: Sequence[flips.Flip], at: str = "") -> None:
        answer = _text(turns)
        if len(out) < MAX_CHOICES and all(o.answer != answer for o in out):
            out.append(Offer(kind=kind, at=at, flips=[(f.before, f.after, f.cost) for f in turns], answer=answer))

    offer("least", flips.target_flips(faces, points, harm))
    for loc in grid.names:
        turns = flips.best_flips(faces, points, loc, grid)
        if turns:
            offer("onto", turns, loc)
    offer("none", [])
    for a in sorted({int(f) for f in faces}):
        for b in FACES:
            if b != a and flips.flip_cost(a, b) <= points:
                offer("only", [flips.Flip(0, a, b, flips.flip_cost(a, b))])
    return out


def _asks(enc: Encounter, t: Combatant) -> bool:
    """Does an attack on ``t`` ask its owner? ``target_flips=ask``, a player's model, no other standing choice."""
    pref = t.sheet.get("flips") or flips.LEAST_HARM
    return (values(enc).target_flips == "ask" and bool(t.owner_id) and t.owner_id not in enc.gm_ids
            and pref == flips.LEAST_HARM)


def read_answer(text: str, faces: Sequence[int], points: int) -> list[flips.Flip]:
    """An answer against the rolled faces: ``least-harm`` is read by the caller; ``none``; or ``from>to`` flips."""
    v = (text or "").strip().lower()
    if v == NONE:
        return []
    turns = flips.parse_flips(v, faces, points, who="the target")
    return [flips.Flip(f.index, f.before, f.after, f.cost, by="target") for f in turns]


def target_turns(enc: Encounter, t: Combatant, faces: list[int], points: int, grid: DamageGrid,
                 harm: Callable[[Sequence[int]], Any], single: bool) -> list[flips.Flip]:
    """The target's flips for a negative Accuracy of ``-points``: the answer being resolved, else a
    question for its owner (:class:`FlipsWanted`, only for a ``single`` attack), else its sheet's choice."""
    asked = DgEncounter.of(enc).asking
    if asked is not None and asked.answer is not None and asked.target == t.name:
        if asked.answer == LEAST:
            return flips.target_flips(faces, points, harm)
        return read_answer(asked.answer, faces, points)
    if single and asked is None and _asks(enc, t):
        raise FlipsWanted(t, faces, points, choices(faces, points, grid, harm))
    return flips.preferred_flips(t.sheet.get("flips"), faces, points, grid, harm)


Run = Callable[[Encounter, Action, Dice], list[Event]]


def declared(enc: Encounter, action: Action, dice: Dice, run: Run) -> list[Event]:
    """Run the attack ``action``; if its target's owner must choose the flips, leave ``enc`` as it
    was and keep the attack as a question instead."""
    if values(enc).target_flips != "ask" or DgEncounter.of(enc).asking is not None:
        return run(enc, action, dice)
    saved = enc.model_dump_json()
    try:
        return run(enc, action, dice)
    except FlipsWanted as want:
        before = type(enc).model_validate_json(saved)
        for name in type(enc).model_fields:
            setattr(enc, name, getattr(before, name))
        t = want.target
        dump = action.model_dump(mode="json", exclude={"user_id", "is_gm"})
        key = json.dumps([dump, dice.values(), enc.round, DgEncounter.of(enc).phase, DgEncounter.of(enc).slot], sort_keys=True)
        asked = Asked(
            tag=hashlib.sha256(key.encode()).hexdigest()[:8], attacker=action.actor or "", target=t.name,
            owner=t.owner_id or "", weapon=getattr(action, "weapon", None) or "", action=dump, dice=dice.values(),
            faces=want.faces, points=want.points, choices=want.offered, typed=dice.typed(),
        )
        DgEncounter.of(enc).asking = asked
        return [FlipsAsked(actor=asked.attacker, target=t.name, owner=asked.owner, faces=want.faces, points=want.points)]


class _Again(Dice):
    """The declared attack's dice again, each marked typed only where it was typed then."""

    def __init__(self, dice: Dice, rolled: list[int], typed: list[int]) -> None:
        super().__init__(rng=dice.rng, given=list(rolled))
        self.was_typed = set(typed)

    def die(self, sides: int) -> int:
        if self._used >= len(self.given):
            return super().die(sides)
        i, self._used = self._used, self._used + 1
        value, typed = self.given[i], i in self.was_typed
        self.rolled.append(DieRoll(sides, value, given=typed))
        return Typed(value) if typed else value


def answer(enc: Encounter, action: Action, words: OptionValues, dice: Dice, run: Run) -> list[Event]:
    """`/act action:flips`: the target's owner (or, typed, a GM) answers the waiting question; the
    attack is resolved with the same dice and these flips. ``words`` (`actions.ANSWER_WORDS`):
    ``least-harm``, ``none`` or ``5>3,4>1`` (a button sends ``choice=`` and the question's ``tag=``)."""
    asked = DgEncounter.of(enc).asking
    if asked is None:
        raise IllegalAction("No attack waits for a target's flips now: `/act action:flips` answers such a question.")
    tag = words.tag
    if tag is not None and tag != asked.tag:
        raise IllegalAction("This question has been answered or taken back: nothing was changed.")
    if action.user_id != asked.owner and (tag is not None or not action.is_gm):
        raise NotAllowed(f"Only {user_ref(asked.owner)}, who plays {asked.target}, chooses {asked.target}'s flips.")
    text = words.choice or words.flips or ""
    if not text:
        raise InputError(f"Answer with one of `least-harm`, `none` or flips like `options:\"{flips.example(asked.faces)}\"` "
                         f"(the dice are {', '.join(map(str, asked.faces))}; {asked.points} flips, a connected face "
                         f"costs 1, the opposite face 2).")
    text = text.strip().lower()
    if text != LEAST:
        read_answer(text, asked.faces, asked.points)  # refused before anything is resolved
    original = make_action(asked.action["kind"], **{k: v for k, v in asked.action.items() if k != "kind"},
                           user_id=action.user_id, is_gm=action.is_gm)
    assert isinstance(original, (Attack, Act)), "only an attack or a Lunge waits for a target's flips"
    asked.answer = text
    again = _Again(dice, asked.dice, asked.typed)
    events = run(enc, original, again)
    DgEncounter.of(enc).asking = None
    dice.rolled += again.rolled[len(asked.dice):]  # the dice rolled after the answer (a knock-down test)
    return events


def question(enc: Encounter) -> FlipsQuestion | None:
    """The waiting question, as facts for the presenter to word (`DgPresenter.prompt`)."""
    asked = DgEncounter.of(enc).asking
    if asked is None:
        return None
    return FlipsQuestion(kind=ANSWER, user_id=asked.owner, tag=asked.tag, actor=asked.target, action=ANSWER,
                         answers=tuple(o.answer for o in asked.choices), attacker=asked.attacker, target=asked.target,
                         weapon=asked.weapon, lunge=asked.action.get("action") == "lunge", faces=tuple(asked.faces),
                         points=asked.points, offers=tuple(asked.choices),
                         combination=_combination(asked.faces, asked.points),
                         deadline_hours=enc.settings.deadline_hours)


def _combination(faces: Sequence[int], points: int) -> str:
    """An answer of several flips that fits: each of the first dice the points allow (at most 2)
    turned to its lowest connected face (``2>1,2>1``)."""
    return ",".join(flips.example(faces[i:]) for i in range(min(points, 2, len(faces))))


def lapse(enc: Encounter) -> Action | None:
    """The answer the turn clock gives a question left open at the deadline: the least harm."""
    asked = DgEncounter.of(enc).asking
    if asked is None:
        return None
    return Act(actor=asked.target, action=ANSWER, options={"choice": LEAST}, is_gm=True)
