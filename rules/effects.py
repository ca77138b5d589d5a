"""Effects with durations: "Bless until the end of Grak's turn, 3 rounds", a stun for 2 rounds,
a cloud for 4 phases.

An :class:`Effect` lives on the encounter (``Encounter.effects``) and counts down at one kind of
moment: the start or the end of a named combatant's turn, the end of a round, or the end of a
phase. :func:`moments` reads which moments passed between two snapshots of the turn
(``round``, ``phase``, ``current``), and :func:`tick` counts the effects down; the one entry
point ``RuleSystem.resolve`` does both after every action, so every system's timed conditions
expire the same way, are logged with the action that ended them, and are undone exactly with it.

A system keeps its own timed conditions here too: it adds an effect with a ``code`` (``"stun"``)
and asks :func:`active` whether a combatant is under it. The GM's effects (`/effect add`) have no
code: they are reminders shown on the board, unless they carry ``mods``, changes to the values
the system declares that effects may change (``RuleSystem.effect_values``: "attack+1 defence+1",
read once by :func:`parse_mods`). The rules read those changes where they read the value, through
the one helper :func:`modifiers` (one roll modifier per running effect, named after it), so a
change lasts exactly as long as its effect.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from rules.errors import InputError
from rules.events import EffectEnded, Modifier, said
from rules.sheet import SheetKey
from rules.text import signed

__all__ = [
    "Effect", "Ends", "Moment", "TurnPoint", "MAX_EFFECTS", "MAX_EFFECT_NAME", "by", "called", "MAX_DURATION", "MAX_MODS", "moments", "tick", "active", "put_off_turn",
    "next_id", "start_turn", "end_turn", "pass_turns", "parse_ends", "ENDS_HELP", "ends_help", "parse_mods", "mods_example", "change_range", "mods_text", "modifiers", "total", "MODS_HELP",
]

#: the moments an effect can count down at
Ends = Literal["turn_start", "turn_end", "round_end", "phase_end"]
#: at most this many effects on one encounter
MAX_EFFECTS = 100
#: at most this many rounds (or turns, or phases) an effect lasts
MAX_DURATION = 1000
#: at most this many values one effect changes
MAX_MODS = 8
#: the largest change to a value any system may declare (a stored effect never holds more)
MAX_CHANGE = 99

#: the longest name an effect may have: one typed (`/effect add`) has at most 40 characters, a
#: system's effect named after the combatant who put it on (`by`) a combatant's 40 more
MAX_EFFECT_NAME = 60

#: a value's name as a system declares it
ValueName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z_]{0,19}$")]


class Effect(BaseModel):
    """One effect. ``left`` counts the ``ends`` moments still to pass: at 0 it is gone.

    ``of`` is whose turn counts for ``turn_start`` / ``turn_end`` (by default the target's);
    ``target`` is a combatant's name, or None for an effect on the field (a cloud on ``cells``).
    """

    model_config = ConfigDict(extra="forbid")

    id: int = Field(ge=1)
    name: str = Field(min_length=1, max_length=MAX_EFFECT_NAME, pattern=r"^[^\n\r`]+$")
    target: str | None = None
    ends: Ends = "turn_end"
    of: str | None = None
    left: int = Field(default=1, ge=1, le=MAX_DURATION)
    #: a system's code for a condition its rules read (None: a GM's reminder that changes no rule)
    code: str | None = Field(default=None, max_length=40)
    #: cells an effect on the field covers (a cloud), as players write them
    cells: list[str] = Field(default_factory=list, max_length=400)
    #: who added it (a combatant's name, or None for the GM)
    source: str | None = None
    #: changes to the target's values while it runs (`parse_mods`): value -> amount
    mods: dict[ValueName, Annotated[int, Field(ge=-MAX_CHANGE, le=MAX_CHANGE)]] = Field(
        default_factory=dict, max_length=MAX_MODS
    )

    @property
    def counts_at(self) -> tuple[str, str | None]:
        """The moment this effect counts down at: (kind, whose turn or None)."""
        if self.ends in ("turn_start", "turn_end"):
            return self.ends, self.of or self.target
        return self.ends, None


def by(name: str, source: str) -> str:
    """``Protect (by Ann)``: the name of a system's effect one combatant puts on another, naming
    who put it on, so that two on one target are told apart (in `/effect list`, on the board,
    in its end line, by `/effect remove`)."""
    return f"{name} (by {source})"


def called(effects: Sequence[Effect], name: str) -> list[Effect]:
    """The ``effects`` called ``name`` (whatever its case and spacing); none so called, those whose
    name without its ``(by Ann)`` (`by`) is ``name``: `Protect` picks out `Protect (by Ann)`."""
    wanted = " ".join(name.split()).casefold()
    found = [e for e in effects if e.name.casefold() == wanted]
    if found:
        return found
    return [e for e in effects if e.source and e.name.casefold() == by(wanted, e.source.casefold())]


#: one moment that passed: (kind, combatant whose turn it was or None)
Moment = tuple[str, str | None]
#: where the turn stands: (round, phase, the turn's key, the combatant whose turn it is or None)
TurnPoint = tuple[int, str | None, tuple[Any, ...], str | None]


def moments(before: TurnPoint, after: TurnPoint, actor: str | None = None) -> list[Moment]:
    """The moments that passed between two turn points, in order.

    The turn of ``before``'s combatant ended when the turn passed on (another combatant, a new
    key, round or phase). In systems where a side's turn lets any of its models act, nobody's
    turn is current until one acts: when ``actor`` (who did the action) made the turn pass from
    there, its turn both started and ended in this action. A new round ends the old one (and
    its phase); the new combatant's turn starts.
    """
    round0, phase0, key0, cur0 = before
    round1, phase1, key1, cur1 = after
    if before == after or round1 < round0:
        return []
    passed = key0 != key1 or round0 != round1 or phase0 != phase1
    out: list[Moment] = []
    if round0 > 0:
        if cur0 is not None and (cur0 != cur1 or passed):
            out.append(("turn_end", cur0))
        elif cur0 is None and passed and actor is not None and actor != cur1:
            out += [("turn_start", actor), ("turn_end", actor)]
    if phase0 is not None and (phase1 != phase0 or round1 != round0):
        out.append(("phase_end", None))
    if round1 > round0 and round0 > 0:
        out.append(("round_end", None))
    if cur1 is not None and (cur1 != cur0 or passed):
        out.append(("turn_start", cur1))
    return out


def tick(effects: list[Effect], passed: list[Moment]) -> tuple[list[Effect], list[Effect]]:
    """Count ``effects`` down by the moments ``passed``: (still running, ended now), in order."""
    if not effects or not passed:
        return effects, []
    kept: list[Effect] = []
    ended: list[Effect] = []
    for effect in effects:
        left = effect.left - sum(1 for m in passed if m == effect.counts_at)
        if left <= 0:
            ended.append(effect)
        elif left != effect.left:
            kept.append(effect.model_copy(update={"left": left}))
        else:
            kept.append(effect)
    return kept, ended


def _told(effects: list[Effect], passed: list[Moment]) -> tuple[list[Effect], list[EffectEnded]]:
    """`tick`, with an event for each effect ended now."""
    kept, ended = tick(effects, passed)
    return kept, [EffectEnded(actor=e.target, name=e.name) for e in ended]


def start_turn(effects: list[Effect], name: str) -> tuple[list[Effect], list[EffectEnded]]:
    """``name``'s turn starts now, in the middle of an action: in systems where a model's turn is
    its activation, begun by its first action (`rules.system.RuleSystem.activations`), the system
    counts it as the activation begins, so that an effect ending then no longer counts in what the
    action does. (still running, an event for each ended now)."""
    return _told(effects, [("turn_start", name)])


def end_turn(effects: list[Effect], name: str) -> tuple[list[Effect], list[EffectEnded]]:
    """``name``'s turn ends now: in systems where a model's turn is its activation, the system
    counts its end as the activation ends (`start_turn`'s other half), so each activation's lines
    are told together, also when one action passes several. (still running, an event for each ended now)."""
    return _told(effects, [("turn_end", name)])


def pass_turns(effects: list[Effect], names: Sequence[str]) -> tuple[list[Effect], list[EffectEnded]]:
    """The turns of ``names``, who cannot act or lose them, pass unplayed all the same: the effects
    timed by them count down at their start and their end. (still running, an event for each ended now)."""
    if not names:
        return effects, []
    return _told(effects, [m for n in names for m in (("turn_start", n), ("turn_end", n))])


def put_off_turn(effects: list[Effect], name: str) -> list[Effect]:
    """``name``'s turn, announced, is put off until later in the round (a delay): it is one turn, whose
    start and end count when it is played. The effects timed by it get back the start counted as it
    was announced, and the end that its passing on now would count. (the effects, counts given back)"""
    back = {("turn_start", name), ("turn_end", name)}
    return [e.model_copy(update={"left": min(e.left + 1, MAX_DURATION)}) if e.counts_at in back else e for e in effects]


def active(effects: list[Effect], target: str | None, code: str) -> Effect | None:
    """The first running effect with ``code`` on ``target`` (None: on the field), or None."""
    for effect in effects:
        if effect.code == code and effect.target == target:
            return effect
    return None


def next_id(effects: list[Effect]) -> int:
    """A new effect's id: one more than the largest in use."""
    return max((e.id for e in effects), default=0) + 1


#: how `ends` is written, for help and refusals (in a system whose rounds have phases: `ends_help`)
ENDS_HELP = "\"end of Grak's turn\", \"start of Grak's turn\", \"end of the round\" or \"end of the phase\""


def ends_help(phases: bool) -> str:
    """How `ends` is written in a system whose rounds have ``phases`` or not, for help and refusals."""
    return ENDS_HELP if phases else "\"end of Grak's turn\", \"start of Grak's turn\" or \"end of the round\""


#: the words that name the target's own turn ("end of its turn")
_OWN = ("its", "their", "my", "his", "her")
_TURN = re.compile(rf"^(?:at )?(?:the )?(start|beginning|end) of (?:(?:({'|'.join(_OWN)})|(.+?)['’]s?) )?(?:next )?turn$", re.IGNORECASE)
_ROUND = re.compile(r"^(?:at )?(?:the )?end of (?:the |each |every )?(round|phase)$")


def parse_ends(text: str | None, target: str | None, names: Iterable[str], *, phases: bool = True,
               title: str = "This system") -> tuple[Ends, str | None]:
    """``ends`` as typed: (the moment, whose turn). Left out: the end of the target's turn (of the
    round for an effect on the field). A name is matched whatever its case. The end of the phase
    is refused in the system called ``title`` unless its rounds have ``phases``: it never comes."""
    typed = " ".join((text or "").strip().split())  # a name is quoted back as typed
    words = typed.lower()
    if not words:
        return ("turn_end", target) if target else ("round_end", None)
    found = _ROUND.match(words)
    if found and found.group(1) == "phase" and not phases:
        raise InputError(f"{title} has no phases, so an effect cannot end at the end of the phase: say {ends_help(False)}.")
    if found:
        return ("round_end" if found.group(1) == "round" else "phase_end"), None
    found = _TURN.match(typed)
    if found is None:
        raise InputError(f"`ends` should say when the effect counts down: {ends_help(phases)}.")
    kind: Ends = "turn_end" if found.group(1).lower() == "end" else "turn_start"
    who = found.group(3)
    if who is None or who.lower() in _OWN:
        if target is None:
            raise InputError("An effect on the field counts rounds or phases: say \"end of the round\", or name whose turn.")
        return kind, target
    by_fold = {n.casefold(): n for n in names}
    if who.casefold() not in by_fold:
        raise InputError(f"`ends` names \"{who[:40]}\", who is not in this encounter: name a combatant, e.g. {ends_help(phases)}.")
    return kind, by_fold[who.casefold()]


#: how `mods` is written, for help (each system's refusals give an example of its own values: `mods_example`)
MODS_HELP = "changes like `attack+1 defence-2`"


def mods_example(values: Sequence[SheetKey]) -> str:
    """``attack+1 defence-1``: a `mods` text the reader takes, made of the first two ``values``
    (each changed by 1, up if its range allows it, the second down if its range allows it)."""
    out = []
    for i, v in enumerate(values[:2]):
        up, down = (v.maximum or 0) >= 1, (v.minimum or 0) <= -1
        if up or down:
            out.append(f"{v.name}{'-' if (i and down) or not up else '+'}1")
    return " ".join(out)

_MOD = re.compile(r"([a-z][a-z_]*)\s*([+\-−])\s*([0-9]{1,3})")


def parse_mods(text: str | None, effect: str, values: Sequence[SheetKey], title: str) -> dict[str, int]:
    """``mods`` as typed (``"attack+1 defence+1"``) checked against the values ``values`` that
    effects may change in the system called ``title``: value -> amount. Refused, naming the
    values allowed, for a value not among them, an amount out of its range, a value given twice,
    or anything else."""
    words = " ".join((text or "").strip().lower().split())
    if not words:
        return {}
    allowed = {v.name: v for v in values}
    listed = ", ".join(allowed) or "none"
    if not allowed:
        raise InputError(f"{effect}: effects change no values in {title}, so leave `mods` out.")
    out: dict[str, int] = {}
    at = 0
    for found in _MOD.finditer(words):
        if words[at:found.start()].strip(" ,"):
            break
        at = found.end()
        name, sign, amount = found.groups()
        spec = allowed.get(name)
        if spec is None:
            raise InputError(f"{effect}: '{name[:20]}' is not a value effects can change in {title}; use one of: {listed}.")
        if name in out:
            raise InputError(f"{effect}: `{name}` is changed twice in `mods`: give it once.")
        change = int(amount) * (1 if sign == "+" else -1)
        if not (spec.minimum or 0) <= change <= (spec.maximum or 0):
            raise InputError(f"{effect}: effects change `{name}` by {change_range(spec)}, not {signed(change)}.")
        if change:
            out[name] = change
    rest = words[at:].strip(" ,")
    if rest:
        first = rest.split()[0][:20]
        raise InputError(
            f"{effect}: `mods` takes changes like `{mods_example(values)}`, and `{first}` is not one; in {title} "
            f"effects change {listed}."
        )
    if len(out) > MAX_MODS:
        raise InputError(f"{effect}: one effect changes at most {MAX_MODS} values.")
    return out


def change_range(value: SheetKey) -> str:
    """``−3 to +3``: how much one effect may change a declared value."""
    return f"{signed(value.minimum or 0)} to {signed(value.maximum or 0)}"


def mods_text(mods: Mapping[str, Any]) -> str:
    """``attack +1, defence +1`` (``attack ±?`` for a hidden amount, `rules.hidden.SECRET`)."""
    return ", ".join(f"{name} {signed(amount)}" for name, amount in mods.items())


def modifiers(effects: Iterable[Effect], target: str, value: str) -> list[Modifier]:
    """The changes the running effects on ``target`` make to ``value``: one roll modifier per
    effect, named after it (``+1 Bless``). The one reader of effects' ``mods`` in the rules."""
    return [said(e.name, e.mods[value]) for e in effects if e.target == target and e.mods.get(value)]


def total(effects: Iterable[Effect], target: str, value: str) -> int:
    """The sum of :func:`modifiers`: how much the running effects change ``target``'s ``value``."""
    return sum(m.value for m in modifiers(effects, target, value))
