"""Builders for the TOTE rules tests: encounters made through `tests.scenario.Scenario`."""

from __future__ import annotations

from rules.actions import make_action
from rules.dice import Dice
from rules.models import Combatant, Encounter
from rules.report import events_report
from rules.sheet import parse_options
from rules.system import Resolution
from rules.systems.tote import ToteSystem
from tests.scenario import GM, Scenario

__all__ = ["SYSTEM", "BORIN", "THRAIN", "GRAK", "resolve", "step", "setup", "fight", "act", "who", "text", "pass_round", "engaged_round_two", "started"]

SYSTEM = ToteSystem()
BORIN = ("Borin", "strike=3 hawk=2 brawl=2 impress=2 weapon=axe:2:slash,bow:1:pierce", "heroes", 5)
THRAIN = ("Thrain", "strike=2 hawk=1", "heroes", 2)
GRAK = ("Grak", "rating=2 weapon=club:2:bash", "foes", 3)
Spec = tuple[str, str, str, int | None]


def resolve(enc: Encounter, kind: str, dice: list[int] | tuple[int, ...] = (), **fields: object) -> Resolution:
    """Resolve one action with fixed dice; ``options`` may be given as option text."""
    if isinstance(fields.get("options"), str):
        fields["options"] = parse_options(fields["options"])
    return SYSTEM.resolve(enc, make_action(kind, **fields), Dice.fixed(dice))


def step(enc: Encounter, kind: str, dice: list[int] | tuple[int, ...] = (), **fields: object) -> Encounter:
    return resolve(enc, kind, dice, **fields).encounter


def setup(*specs: Spec, at: dict[str, str] | None = None, **options: str) -> Encounter:
    """An encounter with no map; each spec is (name, sheet, side, initiative set by the GM or None)."""
    s = Scenario("tote", **options)
    for i, (name, sheet, side, init) in enumerate(specs):
        s.add(name, sheet, side=side, owner=str(i + 1), at=(at or {}).get(name))
        if init is not None:
            s.run("init_set", actor=name, value=init)
    return s.enc


def fight(*specs: Spec, at: dict[str, str] | None = None, **options: str) -> Encounter:
    """A started fight (round 1) with the GM's initiative values: no dice needed.

    The values given are round 1's: ``first_round_gain=no`` unless the test sets it.
    """
    options.setdefault("first_round_gain", "no")
    return step(setup(*(specs or (BORIN, THRAIN, GRAK)), at=at, **options), "init_roll", is_gm=True)


def act(enc: Encounter, actor: str, name: str, dice: list[int] | tuple[int, ...] = (), **fields: object) -> Resolution:
    return resolve(enc, "act", dice, actor=actor, action=name, **fields)


def who(enc: Encounter, name: str) -> Combatant:
    return enc.get(name)


def text(res: Resolution) -> str:
    return events_report("t", res.events, SYSTEM).text()


def pass_round(enc: Encounter) -> Encounter:
    """Everyone still to act passes with `/init next`, in turn order."""
    start = enc.round
    while enc.round == start:
        enc = step(enc, "next", actor=enc.current)
    return enc


def engaged_round_two() -> Encounter:
    """Round 2 after Borin hit Grak in round 1 (they are engaged): Borin 4, Thrain 3 (+1), Grak 3."""
    enc = step(fight(), "attack", [2, 3, 6, 3], actor="Borin", target="Grak")
    return pass_round(enc)


def started(*foes: tuple[str, str, int], hero: tuple[str, str, int], **options: str) -> Scenario:
    """A `Scenario` fight begun with `/init roll`: one hero (name, sheet, points) against the GM's foes."""
    s = Scenario("tote", **options)
    s.add(hero[0], hero[1], side="heroes")
    for name, sheet, _ in foes:
        s.add(name, sheet, side="foes", owner=GM)
    for name, _, points in (hero, *foes):
        s.run("init_set", actor=name, value=points)
    s.run("init_roll")
    return s
