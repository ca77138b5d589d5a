"""The builders of the Knights of Valour rules tests: an encounter on a 12x10 map, a started duel,
actions resolved with fixed dice, and the lines the system shows."""
from __future__ import annotations

from rules.actions import make_action
from rules.dice import Dice
from rules.events import Event
from rules.models import Encounter
from rules.sheet import parse_pairs
from rules.system import Resolution
from rules.systems.knights_of_valour import KnightsOfValourSystem
from tests.scenario import GM, Scenario  # noqa: F401 (GM re-exported for the tests)

SYSTEM = KnightsOfValourSystem()
KEY = SYSTEM.key
KNIGHT = "str=1 agi=1 hp=12 armor=chain-mail shield=small weapons=longsword:2,longbow:1"
ORC = "str=2 agi=0 hp=9 size=tall armor=leather weapons=greataxe:2"


def encounter(
    blocked: tuple[str, ...] = (),
    terrain: dict[str, str] | None = None,
    heights: dict[str, int] | None = None,
    **options: str,
) -> Encounter:
    """A 12x10 encounter (the shared `Scenario`'s) with walls, terrain, heights and options."""
    enc = Scenario(KEY, map="12x10", blocked=blocked, **options).enc
    enc.map.terrain.update(terrain or {})
    enc.map.heights.update(heights or {})
    return enc


def run(enc: Encounter, dice: list[int] | tuple[int, ...] = (), *, gm: bool = False, **fields: object) -> Resolution:
    """Resolve one action with fixed dice."""
    return SYSTEM.resolve(enc, make_action(is_gm=gm, **fields), Dice.fixed(dice))


def step(enc: Encounter, dice: list[int] | tuple[int, ...] = (), **fields: object) -> Encounter:
    return run(enc, dice, **fields).encounter


def add(enc: Encounter, name: str, sheet: str, at: str, side: str, owner: str | None = "1") -> Encounter:
    return step(enc, kind="add", name=name, raw_sheet=parse_pairs(sheet), at=at, side=side, owner_id=owner)


def start(enc: Encounter) -> Encounter:
    return step(enc, kind="init_roll")


def duel(knight_at: str = "C4", orc_at: str = "D4", knight: str = KNIGHT, orc: str = ORC,
         enc: Encounter | None = None) -> Encounter:
    """Borin (player, agility +1) against Grak (monster, agility 0); Borin acts first."""
    enc = add(enc or encounter(), "Borin", knight, knight_at, "dwarves", owner="1")
    return start(add(enc, "Grak", orc, orc_at, "orcs", owner=None))


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def one(events: list[Event], kind: str) -> Event:
    found = of(events, kind)
    assert len(found) == 1, [e.kind for e in events]
    return found[0]


def moved(enc: Encounter, dice: tuple[int, ...] = (), **fields: object) -> tuple[Encounter, list[Event]]:
    res = run(enc, dice, kind="move", actor="Borin", **fields)
    return res.encounter, res.events


def cost_of(events: list[Event]) -> float:
    return sum(e.cost or 0 for e in of(events, "move"))


def text(e: Event) -> str:
    """The line the system shows for ``e``."""
    return SYSTEM.present.text(e)


def defence(attack: Event) -> list[list[object]]:
    """An attack's Defence Value terms as ``[name, value]`` pairs."""
    return [[SYSTEM.present.term(m), m.value] for m in attack.defence]


def shown_path(move: Event) -> list[str]:
    """A move's squares as the reply shows them, with how each was entered."""
    return SYSTEM.present.text(move).split(" moves ", 1)[1].split(" for ")[0].split(" → ")


def three_way() -> Encounter:
    """Borin (agi 2, player), Grak (agi 1, monster), Thrain (agi 0, player)."""
    enc = add(encounter(), "Borin", "agi=2 hp=9 weapons=club:1", "A1", "party")
    enc = add(enc, "Grak", "agi=1 hp=9 weapons=club:1", "H1", "orcs", owner=None)
    return start(add(enc, "Thrain", "agi=0 hp=9", "A2", "party", owner="2"))
