"""Builders for the War & Combat rules tests: a duel on the hex grid, brought to a flurry."""
from __future__ import annotations

from rules.effects import Effect
from rules.geometry import parse_cell
from rules.registry import get_system
from rules.systems.war_and_combat.state import WacCombatant
from tests.scenario import Scenario

#: the system, for its presenter's words
SYSTEM = get_system("war-and-combat")
BORIN = "str=14 agl=13 fighter=6 skills=broadsword:3,tactics:0 weapons=broadsword armor=mail"
GRAK = "str=15 fighter=3 skills=axe:2 weapons=axe armor=leather"


def near(s: Scenario, cell: str, *steps: str) -> str:
    """The hex reached from ``cell`` by ``steps`` (hex directions)."""
    grid = s.enc.grid()
    at = parse_cell(cell)
    for d in steps:
        at = grid.step(at, d)
    return at.name


def wac(**options: object) -> Scenario:
    """A War & Combat scenario; its flurries declare hidden and all at once (`declare=hidden`) unless
    ``declare="public"`` (the text's order) is given: most tests were written with those dice."""
    return Scenario("war-and-combat", **({"declare": "hidden"} | options))


def duel(borin: str = "", grak: str = "", **options: object) -> Scenario:
    """Borin at D4 facing SE and Grak in the hex to his SE facing him: engaged."""
    s = wac(**options)
    s.add("Borin", f"{BORIN} {borin}", side="dwarves", at="D4", facing="SE")
    s.add("Grak", f"{GRAK} {grak}", side="orcs", at=near(s, "D4", "SE"), facing="NW", owner=None)
    return s


def st(s: Scenario, name: str) -> WacCombatant:
    state = s.get(name).state
    assert isinstance(state, WacCombatant)
    return state


def to_flurry(s: Scenario, init: tuple[int, ...] = (5, 5, 4, 2, 3, 2)) -> None:
    """Roll initiative (Borin 14 + 6 = 20, Grak 7 + 3 = 10) and pass the movement phase."""
    s.run("init_roll", init)
    while s.enc.phase == "movement":
        s.run("next", actor=s.enc.current)


def fight(s: Scenario, borin: str = "kill", grak: str = "kill", flurry_init: tuple[int, ...] = (5, 5, 4, 2, 3, 2)) -> None:
    """Bring the duel to its flurry with both declared: Borin attacks first (20 to 10)."""
    to_flurry(s)
    s.run("act", action="declare", actor="Borin", options={"intent": borin, "tactic": "hold"})
    s.run("act", flurry_init, action="declare", actor="Grak", options={"intent": grak, "tactic": "press"})


def alone(sheet: str = "", at: str = "F6", facing: str = "N", terrain: dict[str, str] | None = None, **options: object) -> Scenario:
    """Borin alone on his side (Grak far off), at his movement step."""
    s = wac(**options)
    if terrain:
        s.enc.map.terrain.update(terrain)
    s.add("Borin", f"fighter=6 {sheet}", side="dwarves", at=at, facing=facing)
    s.add("Grak", "fighter=0", side="orcs", at="P12", facing="N", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    assert s.enc.current == "Borin"
    return s


def adjusting(tactic: str, blocked: tuple[str, ...] = ()) -> Scenario:
    """The duel after a flurry in which Borin declared ``tactic``: Borin's adjustment step (each applies its
    own tactic, `net_movement=each`: nobody scored a success)."""
    s = duel(net_movement="each")
    for way in blocked:
        s.enc.map.blocked.append(near(s, "D4", way))
    fight(s)
    s.enc.state.tactics["Borin"] = tactic
    s.run("act", action="hold", actor="Borin")
    s.run("act", action="hold", actor="Grak")
    s.run("next", actor="Grak")
    assert s.enc.phase == "adjustment" and s.enc.current == "Borin"
    return s


ALDA = "agl=13 fighter=3 skills=dagger:2,tactics:1 weapons=dagger"


def watched(alda_at: str = "E3", surprised: str | None = None) -> Scenario:
    """Borin and Grak engaged (Borin attacks first); Alda (dwarves) unengaged two hexes N of Grak; ``surprised``:
    the one the GM surprises before the first round."""
    s = wac(tactics_skew="no")
    s.add("Borin", BORIN, side="dwarves", at="D4", facing="SE")
    s.add("Grak", GRAK, side="orcs", at=near(s, "D4", "SE"), facing="NW", owner=None)
    s.add("Alda", ALDA, side="dwarves", at=alda_at, facing="S")
    if surprised is not None:
        s.run("act", action="surprise", target=surprised)
    s.run("init_roll", [5, 5, 4, 2, 3, 2, 2, 2, 2])
    while s.enc.phase == "movement":
        s.run("next", actor=s.enc.current)
    return s


def revealed(s: Scenario) -> None:
    """Both of the flurry declare: the declarations are revealed and Borin attacks first."""
    s.run("act", action="declare", actor="Borin", options={})
    s.run("act", [5, 5, 4, 2, 3, 2], action="declare", actor="Grak", options={})
    assert s.enc.current == "Borin"


def stun(s: Scenario, name: str, rounds: int = 2) -> None:
    """``name`` stunned for ``rounds`` round ends, as a wound's stun is stored."""
    ids = [e.id for e in s.enc.effects]
    s.enc.effects.append(Effect(id=max(ids, default=0) + 1, name="stun", target=name, ends="round_end", left=rounds,
                                code="stun"))
