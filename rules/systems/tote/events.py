"""TOTE's own events: typed data (names, numbers, codes); `present.py` makes their text."""
from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.dice import Typed
from rules.events import Event, Modifier, Moved, RoundBegan
from rules.hidden import PUBLIC, Also, Of

__all__ = [
    "SkillTest",
    "InitiativeRolled",
    "Spent",
    "Struck",
    "Wounded",
    "Tested",
    "InitiativeChanged",
    "Engaged",
    "Disengaged",
    "Defending",
    "Protecting",
    "Redirected",
    "ReturnOffered",
    "NoReturn",
    "ReturnDeclined",
    "Passed",
    "BandMoved",
    "MeleeNext",
    "EscapeFailed",
    "NoMove",
    "DistanceSet",
    "TiesOrdered",
    "ToteRound",
    "FightLeft",
]


#: the codes of the modifiers whose values are the encounter's options, the same for every combatant
RULES_MODIFIERS = frozenset({"assault", "return", "defend"})


class SkillTest(BaseModel):
    """One skill test as rolled: plain dice, Paragon die, the kept die, modifiers, total, successes."""

    model_config = ConfigDict(extra="forbid")

    #: the skill tested (plan, strike, shoot, brawl, impress, move); ``enemy``: rolled on Rating/To-Hit dice
    skill: str
    enemy: bool = False
    dice: list[int] = Field(default_factory=list)
    #: indexes into ``dice`` of the results the caller typed with `roll:`
    typed: list[int] = Field(default_factory=list)
    paragon: int
    paragon_typed: bool = False
    kept: int | None = None
    modifiers: list[Modifier] = Field(default_factory=list)
    #: those of ``modifiers`` that are the encounter's numbers, not the roller's (its options: the
    #: Assault bonus, the return's, the Defend penalty): shown with a hidden combatant's roll too
    rules_modifiers: Annotated[list[Modifier], PUBLIC] = Field(default_factory=list)
    #: the number to beat: the opponent's where the containing field names an ``against`` role
    target: Annotated[int, Of("against")]
    total: int
    #: counted against ``target``: with a hidden opponent's number (a Rating, a Block) the count brackets it
    successes: Annotated[int, Also("against")]
    critical: bool = False
    #: faces rolled that filled injury boxes bar
    barred: list[int] = Field(default_factory=list)
    #: ``keep=N`` asked for a face that was not rolled (or is barred): the best was kept
    keep_missing: int | None = None

    #: at least one success: kept as its own value, since a hidden combatant's hit or miss is
    #: public while the count of its successes is not
    success: bool = False

    @model_validator(mode="before")
    @classmethod
    def _success(cls, data: Any) -> Any:
        if isinstance(data, dict) and "success" not in data:
            return {**data, "success": (data.get("successes") or 0) > 0}
        return data

    @classmethod
    def of(cls, r: Any, skill: str, enemy: bool) -> "SkillTest":
        """From a `rules.systems.tote.skill.TestResult`, marking the typed dice."""
        return cls(
            skill=skill,
            enemy=enemy,
            dice=list(r.dice),
            typed=[i for i, d in enumerate(r.dice) if isinstance(d, Typed)],
            paragon=r.paragon,
            paragon_typed=isinstance(r.paragon, Typed),
            kept=r.kept,
            modifiers=r.modifiers,
            rules_modifiers=[m for m in r.modifiers if m.code in RULES_MODIFIERS],
            target=r.target,
            total=r.total,
            successes=r.successes,
            critical=r.critical,
            barred=r.barred,
            keep_missing=r.keep_missing,
        )


class InitiativeRolled(Event):
    """The starting initiative: the test's successes + Hawk (hero) or Rating (enemy)."""

    kind: ClassVar[str] = "initiative"
    test: SkillTest
    base: int
    value: int


class Spent(Event):
    """``actor`` takes ``action`` for ``cost`` initiative (``before`` -> ``after``)."""

    kind: ClassVar[str] = "spend"
    action: str
    cost: int
    before: int
    after: int


class Struck(Event):
    """An attack test: ``action`` is strike, assault, assist, defend, grapple, shoot or return."""

    kind: ClassVar[str] = "attack"
    target: str
    weapon: str
    action: str
    test: Annotated[SkillTest, Of("actor", against="target")]

    @property
    def success(self) -> bool:
        return self.test.success


class Wounded(Event):
    """``actor`` is hit by ``by``: weapon damage, extra successes, effect and resists make
    ``amount``; ``boxes`` were filled, ``before`` -> ``after`` unfilled boxes."""

    kind: ClassVar[str] = "damage"
    by: str
    weapon: str
    damage: Annotated[int, Of("by")]
    #: counted against the target's Block: a hidden target's number too
    extra: Annotated[int, Of("by"), Also("actor")] = 0
    extra_successes: Annotated[int, Of("by"), Also("actor")] = 0
    effect: Annotated[int, Of("by")] = 0
    resists: Annotated[list[tuple[str, int]], Of("actor")] = Field(default_factory=list)
    amount: Annotated[int, Of("actor")]
    #: the boxes filled: they show the track, so they are the one hit's
    boxes: Annotated[list[str], Of("actor")] = Field(default_factory=list)
    before: Annotated[int, Of("actor")]
    after: Annotated[int, Of("actor")]


class Tested(Event):
    """A test that is not an attack: ``what`` is intimidate or escape; the target number is
    ``base`` + ``level`` (a Rating, or a hero's Stag or Hawk) of ``target``: the foe intimidated,
    or for Escape Foes the foe whose level sets the number (``level_from``), so a hidden foe's
    number is hidden with its level. ``base`` is an option's (``intimidate_base``, ``escape_base``):
    always shown."""

    kind: ClassVar[str] = "check"
    what: str
    target: str | None = None
    test: Annotated[SkillTest, Of("actor", against="target")]
    base: Annotated[int, PUBLIC]
    #: the target's (the foe intimidated or the hero whose Stag it is; for Escape Foes the foe named in ``level_from``)
    level: Annotated[int, Of("target")]
    level_of_enemy: bool
    level_from: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _escape_target(cls, data: Any) -> Any:
        """Escape Foes stored before named only ``level_from``: the target number is that foe's."""
        if isinstance(data, dict) and data.get("what") == "escape" and not data.get("target") and data.get("level_from"):
            return {**data, "target": data["level_from"]}
        return data


class InitiativeChanged(Event):
    """``cause``: assist (``by`` assisted), defend, unengaged, quiet (the round's gain of one
    still engaged with a foe that no melee damage passed between), intimidated, gm."""

    kind: ClassVar[str] = "initiative_change"
    #: the actor's own, as the board shows it (an Intimidate's by a hidden foe too: its successes are the drop)
    before: Annotated[int | None, Of("actor")]
    after: Annotated[int, Of("actor")]
    cause: str
    by: str | None = None


class Engaged(Event):
    kind: ClassVar[str] = "engaged"
    other: str


class Disengaged(Event):
    kind: ClassVar[str] = "disengaged"
    other: str
    until: Annotated[int, PUBLIC]


class Defending(Event):
    """``actor`` defends: attacks against it take ``penalty`` (the encounter's option, shown to everyone)."""

    kind: ClassVar[str] = "defend"
    penalty: Annotated[int, PUBLIC]


class Protecting(Event):
    kind: ClassVar[str] = "protect"
    ally: str


class Redirected(Event):
    """``actor`` protects ``ally`` and takes the attack instead."""

    kind: ClassVar[str] = "redirect"
    ally: str


class ReturnOffered(Event):
    """``actor`` may return ``against``'s Assault now at ``bonus`` (the encounter's option, shown to everyone)."""

    kind: ClassVar[str] = "return_offered"
    against: str
    bonus: Annotated[int, PUBLIC]


class NoReturn(Event):
    kind: ClassVar[str] = "no_return"


class ReturnDeclined(Event):
    kind: ClassVar[str] = "return_declined"
    against: str


class Passed(Event):
    """``actor`` passes, keeping its initiative ``points``; ``by_gm``: the GM passed it out of turn."""

    kind: ClassVar[str] = "pass"
    points: int
    by_gm: bool = False


class BandMoved(Moved):
    """A move between bands: ``path`` is [from, to]; ``foes`` the foes whose distance changed."""

    foes: list[str] = Field(default_factory=list)


class MeleeNext(Event):
    """``actor`` moved in from Close: melee rounds begin next round."""

    kind: ClassVar[str] = "melee_next"


class EscapeFailed(Event):
    kind: ClassVar[str] = "escape_failed"


class NoMove(Event):
    """``actor``'s Shoot & Move shot left no foe standing: there is nobody to move from."""

    kind: ClassVar[str] = "no_move"


class DistanceSet(Event):
    kind: ClassVar[str] = "distance"
    band: str
    started: bool


class TiesOrdered(Event):
    kind: ClassVar[str] = "ties"
    names: list[str]


class ToteRound(RoundBegan):
    """A round begins: ``melee`` or a distance round; ``melee_begins``: the first melee round
    after distance rounds (someone is in Melee)."""

    melee: bool
    melee_begins: bool = False


class FightLeft(Event):
    """Every combatant of ``side`` escaped: the fight is over and nobody won it."""

    kind: ClassVar[str] = "left"
    side: str
