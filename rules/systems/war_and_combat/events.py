"""The War & Combat events: typed data, shown by `present.py` (evaluation never builds text)."""
from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import Field, model_validator

from rules.events import Attacked, Checked, Event, InitiativeSet, Roll
from rules.hidden import PUBLIC, Of

__all__ = [
    "WacInitiative",
    "WacAttacked",
    "Negotiated",
    "PhaseBegan",
    "Engaged",
    "FlurryBegan",
    "Declared",
    "Revealed",
    "FlurryInitiative",
    "AttackPassed",
    "Struck",
    "EffectTaken",
    "FlurryEnded",
    "MoralePrompt",
    "NobodyActs",
    "FacedAttacker",
    "Interrupted",
    "CollapsePrompt",
    "CarriedOver",
    "StepGivenUp",
]


class WacInitiative(InitiativeSet):
    """``actor``'s initiative for the round; ``high_skew``: its side rolled it with a skew die (the
    side with the best Tactics, option `tactics_skew`)."""

    high_skew: bool = False


class WacAttacked(Attacked):
    """An attack roll; ``parried``: it missed a Defense by so little that the defender parried,
    blocked or dodged it ("within three points or so")."""

    parried: bool = False


class Negotiated(Checked):
    """``actor``'s negotiate task to swipe at a flurry (``what`` "negotiate"): its target is set by the best
    Fighter rank among ``fighters``, so it is theirs (hidden from players while any of them is hidden)."""

    fighters: list[str] = Field(default_factory=list)
    roll: Annotated[Roll, Of("actor", against="fighters")]
    #: a failure that takes no blow: nobody in the flurry can take an action (stunned, surprised) to swing
    unswung: bool = False
    #: a failure whose blow is another fighter's, as ``target`` (at whom the swipe was aimed) can take no action
    striker: str | None = None
    target: str | None = None


class PhaseBegan(Event):
    kind: ClassVar[str] = "phase"
    begins: ClassVar[bool] = True
    phase: str
    order: list[str] = Field(default_factory=list)


class Engaged(Event):
    """``actor`` entered the zone of ``by`` (``zone``: threat or danger), or brought ``by`` into its
    own zone of threat (``zone`` "own threat"): its movement stops. ``also``: the other enemies it is engaged with
    there (a hex in two zones of threat engages both)."""

    kind: ClassVar[str] = "engaged"
    by: str
    zone: str
    at: str
    also: list[str] = Field(default_factory=list)


class FlurryBegan(Event):
    """A flurry begins; ``in_turn``: its initiative comes first and each declares openly in turn. ``idle``: those
    in it who can take no action (name -> why: ``stunned``, ``surprised``), who neither declare nor roll its
    initiative."""

    kind: ClassVar[str] = "flurry"
    participants: list[str]
    in_turn: bool = False
    idle: dict[str, str] = Field(default_factory=dict)


class Declared(Event):
    """``actor`` declared: hidden until all have (``choice`` None), or openly (``choice`` intent, tactic...);
    ``waiting`` still have to (declaring in turn: the next one)."""

    kind: ClassVar[str] = "declare"
    waiting: list[str] = Field(default_factory=list)
    choice: dict[str, str] | None = None


class Revealed(Event):
    """Every declaration of the flurry: name -> (intent, tactic); ``defaulted`` by the GM's force."""

    kind: ClassVar[str] = "reveal"
    choices: dict[str, tuple[str, str]]
    defaulted: list[str] = Field(default_factory=list)
    #: name -> its other choices ({"guard": "flank", "face": "Borin"}; logs written before name them in words)
    extra: dict[str, dict[str, str] | str] = Field(default_factory=dict)


class FlurryInitiative(Event):
    kind: ClassVar[str] = "flurry_init"
    value: int
    actions: int
    roll: Roll


class AttackPassed(Event):
    """The attack passes to ``actor``: ``reason`` miss, spent (the attacker ran out of actions), hold."""

    kind: ClassVar[str] = "pass"
    reason: str
    from_: str | None = None


class Struck(Event):
    """``actor`` (the target) struck at ``location``: the impact roll, extra critical dice,
    absorption, the effective impact, penetration, and the wound's severity (None: no wound)."""

    kind: ClassVar[str] = "struck"
    location: str
    #: the attacker (whose Strength and weapon make the cap and the impact dice)
    by: str | None = None
    cap: Annotated[int, Of("by")]
    dice: Annotated[str, Of("by")]
    impact: Annotated[Roll, Of("by")]
    critical_dice: Annotated[int, Of("by")] = 0
    absorbed: Annotated[int, Of("actor")] = 0
    effective: int
    penetrating: bool
    severity: str | None = None
    option: str | None = None
    #: the hit location's 3d6, rolled on the target's body (None: a called shot, or a log written before it was kept)
    location_roll: Annotated[Roll | None, Of("actor")] = None
    #: what the target's armour at ``location`` absorbs at most, kept for a critical too (which goes through it) so that
    #: the players' line of a hidden attacker's blow has one shape, critical or not (None: a tackle, which ignores armour,
    #: or a log written before it was kept)
    armour: Annotated[int | None, Of("actor")] = None
    #: the impact was rolled with a low skew die (an accidental blow): one die more, the worst kept
    low_skew: bool = False

    @model_validator(mode="before")
    @classmethod
    def _dice_only(cls, data: Any) -> Any:
        """Logs written before the impact roll's label was its dice only named the critical dice in it too."""
        impact = data.get("impact") if isinstance(data, dict) else None
        if isinstance(impact, dict) and " critical" in str(impact.get("label") or ""):
            data = data | {"impact": impact | {"label": str(impact["label"]).partition(" +")[0]}}
        return data


class EffectTaken(Event):
    """A wound or combat-option effect on ``actor``: ``effect`` a code (stun, knockout, falls,
    drops, disabled, impaired, loses_action, restrict, break, mortal...), ``detail`` a number or place."""

    kind: ClassVar[str] = "wound_effect"
    effect: str
    #: what the table sees happen (rounds stunned, the limb, the weapon dropped): shown to all
    detail: Annotated[str | None, PUBLIC] = None
    #: what the effect names where it names more than one thing (a lengthy action's armour and the
    #: round it is done, a tactic's way and opponent...): codes, names and numbers, shown to all
    args: Annotated[list[str | int], PUBLIC] = Field(default_factory=list)
    #: the actor's own thing the effect names (a lengthy action's armour): hidden where the actor's numbers are, as
    #: its sheet is (a lengthy action logged before this field names its armour in ``args``)
    item: Annotated[str | None, Of("actor")] = None
    #: the dice the effect rolled (a stun's 1d6 rounds; where a dropped item lands), shown to all
    roll: Annotated[Roll | None, PUBLIC] = None
    #: the actor's own numbers the effect names (a stun's Defense, the half Fighter rank and the Agility modifier in
    #: it): hidden where the actor's numbers are
    values: list[int] = Field(default_factory=list)


class FlurryEnded(Event):
    kind: ClassVar[str] = "flurry_end"
    participants: list[str]


class MoralePrompt(Event):
    kind: ClassVar[str] = "morale"
    round: Annotated[int, PUBLIC]


class NobodyActs(Event):
    """Round ``round`` begins with nobody standing able to take an action (stunned, surprised): it waits for the
    GM's `/init next`, which lets it pass."""

    kind: ClassVar[str] = "nobody_acts"
    round: Annotated[int, PUBLIC]


class FacedAttacker(Event):
    """Turned to face an attacker as the flurry began (free; -1 Defense for the flurry where it ``penalty``)."""

    kind: ClassVar[str] = "face_flurry"
    facing: str
    #: the turn places the attacker in its zone of threat: -1 Defense for the flurry (not a polearm's foe in its gap)
    penalty: bool = True
    #: why there is no penalty: ``gap`` (a polearm's foe a hex off), ``missile`` (a missile weapon in hand: no zone of
    #: threat), ``unarmed`` (its weapon dropped or sheathed: no zone of threat)
    reason: str | None = None


class Interrupted(Event):
    """``actor`` interrupts the flurry under way and joins it (``participants`` now); before the
    reveal (``revealed`` False) it declares with the others: declaring in turn, after those ``ahead``
    of it in the flurry-initiative order (its words, if given, wait for its own `/act action:declare`)."""

    kind: ClassVar[str] = "interrupt"
    participants: list[str]
    revealed: bool = False
    ahead: list[str] = Field(default_factory=list)
    #: its words (`intent=`, `tactic=`) are its declaration, made now
    declares: bool = False


class CollapsePrompt(Event):
    """``actor`` stepped onto treacherous ground at ``at``: "treacherous terrain may collapse
    (according to GM's design)", so the GM is asked (option `collapse`)."""

    kind: ClassVar[str] = "collapse"
    at: str


class CarriedOver(Event):
    """``actor`` has begun the step into ``to`` without the points to finish it: ``owed`` points are
    paid from its next phase ("that movement action is carried over to the next phase or round")."""

    kind: ClassVar[str] = "carry"
    to: str
    owed: int


class StepGivenUp(Event):
    """``actor`` had begun the step into ``to`` in an earlier phase (`CarriedOver`), but the hex has since been taken
    (by ``by``) or walled (``by`` None): its `/move` goes elsewhere, and the points spent on the step are lost."""

    kind: ClassVar[str] = "carry_given_up"
    to: str
    by: str | None = None
