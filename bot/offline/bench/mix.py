"""The realistic mix: each system's benchmark fight (`SCRIPTS`), how a channel is set up, and the
payloads of one activation; the run's sizes (`Config`, `QUICK`, `FULL`)."""
from __future__ import annotations

import gc
import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from discord import app_commands

from bot.offline.bench.results import (
    _classify,
)
from bot.offline.harness import Harness, channel_id_of
from bot.settings import Settings
from rules.models import Encounter
from rules.registry import get_system
from rules.systems.war_and_combat import WacCombatant

BOARD_DELAY: float = Settings.model_fields["board_delay_seconds"].default
#: commands that read and write nothing
READS = ("/encounter status", "/map")
#: a stall of the event loop longer than this is counted (and its commands in flight named)
STALL_MS = 20.0
RULES_STEP_TARGET_MS = 20.0

Factory = Callable[[str], Awaitable[str]]


@dataclass(frozen=True)
class Config:
    """How much each part of the run does."""

    name: str
    #: (busy channels, activations each channel plays); the second run is the targets' run
    runs: tuple[tuple[int, int], ...]
    floor_tasks: int
    floor_writes: int  # per task
    stored: int
    touched: int
    log_activations: int
    rules_repeat: int
    map_repeat: int
    #: the largest map's side and its combatants (section 5; the slowest rules step's is 100)
    largest: int = 100
    #: the channels of each script whose cached encounters are measured (section 4)
    cached: int = 20
    #: the maps (width, height) and the combatants of the growth table (section 5b)
    growth: tuple[tuple[int, int], ...] = ((12, 10), (40, 40), (100, 100))
    growth_counts: tuple[int, ...] = (2, 10, 30, 60, 100)
    #: the turns played at each size of the growth table, its figure their median
    growth_repeat: int = 3


QUICK = Config("quick", ((1, 12), (50, 6), (500, 2)), 50, 40, 10_000, 200, 40, 2, 10)
#: 1 x 40 + 50 x 40 + 500 x 22 activations of 4-5 commands, and 2,000 touched: over 50,000 commands
FULL = Config("full", ((1, 40), (50, 40), (500, 22)), 50, 200, 10_000, 2_000, 100, 10, 50, growth_repeat=5)


# -- the realistic mix ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Fighter:
    """One fighter of a benchmark fight: a mover walks between its two posts around a wall on
    either side of its foe; an anchor stays and turns to face the mover."""

    name: str
    owner: str
    side: str
    at: str
    foe: str
    posts: tuple[str, str] | None = None


@dataclass(frozen=True)
class Script:
    """How a system's benchmark fight is set up and played."""

    system: str
    map: str | None
    walls: str | None
    sheets: dict[str, str]  # by side
    #: the `roll:` of an attack, by side (or by fighter, where a side's fighters roll apart), in
    #: turn activation by activation
    rolls: dict[str, tuple[str, ...]]
    weapon: str | None = None
    heal: str | None = None  # a GM sheet edit that restores the foe after a hit
    options: str | None = None  # `/encounter settings options:` the fight is played with
    #: an activation moves or attacks, not both: movers move in one round of activations (each
    #: fighter's one) and attack in the next, and an anchor that turns to its foe does not attack
    one_action: bool = False
    #: where each fighter stands and faces, by name, on a board whose cells and facings are not
    #: the squares of `FIGHTERS` (a hex map's)
    places: dict[str, tuple[str, str]] | None = None
    #: the round is phases and flurries (War & Combat): each activation is the step the fight's
    #: state asks of the fighter acting (`_flurry_step`)
    phases: bool = False


#: two pairs, each a mover and an anchor; walls beside each anchor make a mover's way round
FIGHTERS: tuple[Fighter, ...] = (
    Fighter("Borin", "bob", "dwarves", "D5", "Grak", ("D5", "F5")),
    Fighter("Grak", "carol", "orcs", "E5", "Borin"),
    Fighter("Snaga", "carol", "orcs", "D9", "Dain", ("D9", "F9")),
    Fighter("Dain", "bob", "dwarves", "E9", "Snaga"),
)
BY_NAME = {f.name: f for f in FIGHTERS}
WALLS = "E4 E6 E8 E10"
#: cells out of the fighters' way (columns I-L, rows 1-10, of each script's map), two of which, one from each
#: half, make the map of each channel after the first of its script a map of its own
OWN_WALLS = (tuple(f"{c}{r}" for c in "IJ" for r in range(1, 11)), tuple(f"{c}{r}" for c in "KL" for r in range(1, 11)))
TRACK = "track=6,6,5,5,4,4,3,3,2,1,1,U"
#: War & Combat's blows: 3d6 12 + skill 2 against Defense 13 hits, the chest (11), impact 9 less
#: the table's 2 and leather's 2 is a light wound; 9 + 2 is parried
WAC_HIT, WAC_PARRY = "4,4,4,4,4,3,3,3,3", "3,3,3"
SCRIPTS: tuple[Script, ...] = (
    # 20 HP: a fighter takes one hit per round, so a channel plays at most 19 rounds (76 activations)
    Script("coup-de-grace", "12x10", WALLS, dict.fromkeys(("dwarves", "orcs"), "class=unarmoured weapons=sword hp=20"),
           dict.fromkeys(("dwarves", "orcs"), ("5",)), weapon="sword"),
    Script("knights-of-valour", "12x10", WALLS, dict.fromkeys(("dwarves", "orcs"), "hp=30 move=60 weapons=longsword:1"),
           dict.fromkeys(("dwarves", "orcs"), ("18",)), weapon="longsword", heal="hp=30"),
    # no edit heals in TOTE: the heroes hit (one box) every other activation and the foes miss,
    # so the 12-box tracks last 40 activations
    Script("tote", None, None, {"dwarves": f"weapon=sword:1 {TRACK}", "orcs": f"rating=2 weapon=sword:1 {TRACK}"},
           {"dwarves": ("5 3", "1 1"), "orcs": ("1 1 1",)}),
    # d20-style: a 15 hits AC 12, the GM heals the foe; no opportunity attack when the mover steps
    # out of its foe's reach (a player's would wait on its owner's answer)
    Script("open", "12x10", WALLS, dict.fromkeys(("dwarves", "orcs"), "hp=30 ac=12 speed=60 weapons=sword:+5:1d6:slashing"),
           dict.fromkeys(("dwarves", "orcs"), ("15",)), weapon="sword", heal="hp=30", options="opportunity=no"),
    # the damage-grid game: a model moves or attacks in an activation; its four Power dice strike
    # the grid, and Body with the wall's cover stops them, so the fight lasts
    Script("damage-grid", "12x10", WALLS, dict.fromkeys(("dwarves", "orcs"), "body=2 weapons=gravity-saber:2:4:3:melee"),
           dict.fromkeys(("dwarves", "orcs"), ("4,4,5,6",)), weapon="gravity-saber", one_action=True),
    # War & Combat: each round a mover steps into its anchor's zone of threat (engaged), both
    # declare (the mover retreat, the anchor hold), the flurry's attacks (the mover's hit the
    # chest for a light wound the GM heals, the anchor's are parried), and in the adjustment
    # phase the mover, the flurry's winner, retreats a hex; the anchors stand with their backs to walls
    Script("war-and-combat", "16x12 hex", "C6 E6 F5 H5",
           dict.fromkeys(("dwarves", "orcs"), "str=12 fighter=3 skills=broadsword:2 weapons=broadsword armor=leather"),
           {"Borin": (WAC_HIT,), "Snaga": (WAC_HIT,), "Grak": (WAC_PARRY,), "Dain": (WAC_PARRY,)},
           places={"Borin": ("D3", "S"), "Grak": ("D5", "N"), "Snaga": ("G3", "S"), "Dain": ("G5", "N")}, phases=True),
)


def _script_of(index: int) -> Script:
    return SCRIPTS[index % len(SCRIPTS)]


async def _harness(url: str, seed: int, board_delay: float = 0.0) -> Harness:
    """A harness on ``url``; the garbage of the harnesses before it is collected first (a bot
    freezes what is alive when it starts, as the one bot of a process may)."""
    gc.collect()
    return await Harness.create(url, seed=seed, board_delay=board_delay)


async def _check(h: Harness, user: str, command: str, channel: str, **options: Any) -> None:
    sent = await h.run(user, command, channel, **options)
    kind, text = _classify(sent, str(channel_id_of(channel)))
    if kind != "ok":
        raise RuntimeError(f"set-up command {command} in #{channel} failed: {text}")


async def _setup_channel(h: Harness, channel: str, script: Script) -> None:
    """The script's fight in ``channel``, initiative rolled."""
    start: dict[str, Any] = {"system": script.system, "name": f"Bench {channel}"}
    if script.map:
        start["map"] = script.map
    await _check(h, "gm", "/encounter start", channel, **start)
    if script.walls:
        await _check(h, "gm", "/encounter terrain", channel, cells=script.walls, kind="wall")
    facing = get_system(script.system).uses_facing
    for f in FIGHTERS:
        add: dict[str, Any] = {"name": f.name, "owner": "@" + f.owner, "side": f.side, "sheet": script.sheets[f.side],
                               "at": f.at if script.map else "melee"}
        if facing:
            add["facing"] = "E" if f.posts else "W"
        if script.places:
            add["at"], add["facing"] = script.places[f.name]
        await _check(h, "gm", "/combatant add", channel, **add)
    options = [script.options] if script.options else []
    if "auto_end" in get_system(script.system).options:  # every turn of the mix ends with /init next
        options.append("auto_end=no")
    if options:
        await _check(h, "gm", "/encounter settings", channel, options=" ".join(options))
    await _check(h, "gm", "/init roll", channel)


def _actors(enc: Encounter | None) -> list[str]:
    """Who may act now in ``enc`` (none without one), as the driver reads it before each
    activation: the harness's work, counted apart from the bot's."""
    return list(get_system(enc.system).turn(enc).actors) if enc is not None else []


def _activation(h: Harness, channel: str, script: Script, enc: Encounter, actor: str, n: int = 0,
                maps: bool = True, typing: int = 0) -> list[dict[str, Any]]:
    """The payloads of ``actor``'s next activation in ``enc``, the channel's ``n``-th (see `FIGHTERS`;
    in a fight of phases and flurries, the step its state asks for, `_flurry_step`);
    without ``maps``, a `/map` of the mix is an `/encounter status` instead. With ``typing``, each
    command with an autocompleted option comes after that many autocomplete requests (`_typing`)."""
    f = BY_NAME[actor]
    rolls = script.rolls.get(actor) or script.rolls[f.side]
    roll = rolls[n % len(rolls)]
    system = get_system(script.system)
    by = {c.name: c for c in enc.combatants}
    me, foe = by[actor], by[f.foe]
    grid = enc.map.grid()
    out: list[dict[str, Any]] = []

    def add(user: str, command: str, **options: str) -> None:
        out.extend(_typing(h, user, command, options, channel, typing))
        out.append(h.payload(user, command, options, channel))

    if script.phases:  # the step, then an onlooker reads the board
        for user, command, options in _flurry_step(enc, actor, roll):
            add(user, command, **options)
        add("dave", "/map" if maps and not f.posts else "/encounter status")
        return out
    if grid is None:  # no map: strike while initiative lasts, else defend (0 initiative, a strike too)
        if (me.initiative or 0) >= 1:
            add(f.owner, "/attack", combatant=actor, target=f.foe, roll=roll)
        else:
            add(f.owner, "/act", combatant=actor, action="defend", target=f.foe, roll=roll)
    else:
        here, there = grid.parse(me.position or ""), grid.parse(foe.position or "")
        moved = False
        if f.posts and not (script.one_action and n // len(FIGHTERS) % 2):
            to = f.posts[1] if me.position == f.posts[0] else f.posts[0]
            move = {"combatant": actor, "to": to}
            if system.uses_facing:
                move["facing"] = grid.facing_towards(grid.parse(to), there)
            add(f.owner, "/move", **move)
            moved = True
        elif system.uses_facing and me.facing != (face := grid.facing_towards(here, there)):
            add(f.owner, "/move", combatant=actor, facing=face)
            moved = True
        if not (script.one_action and moved):
            attack = {"combatant": actor, "target": f.foe, "roll": roll}
            if script.weapon:
                attack["weapon"] = script.weapon
            add(f.owner, "/attack", **attack)
    if script.heal:
        add("gm", "/combatant edit", name=f.foe, sheet=script.heal)
    add("dave", "/map" if maps and grid is not None and not f.posts else "/encounter status")
    if grid is not None:
        add(f.owner, "/init next")
    return out


#: a command of a step: the user, the command, its options
Command = tuple[str, str, dict[str, str]]


def _flurry_step(enc: Encounter, actor: str, roll: str) -> list[Command]:
    """The commands of ``actor``'s step in War & Combat's ``enc`` (`Script.phases`), as ``(user,
    command, options)``, the `/init next` that ends a movement or adjustment step included. A
    mover steps into its foe's zone of threat in the movement phase, declares retreat, attacks
    with ``roll`` (a hit the GM heals) unless that would leave it no action against a foe with
    two, whose blow would then be indefensible (it holds instead), and, the flurry's winner,
    retreats a hex in the adjustment phase; an anchor stands, declares hold and attacks with
    ``roll`` (parried)."""
    f = BY_NAME[actor]
    by = {c.name: c for c in enc.combatants}
    me, foe = by[actor], by[f.foe]
    who = {"combatant": actor}
    if get_system(enc.system).turn(enc).phase == "declare":
        tactic = "retreat" if f.posts else "hold"
        return [(f.owner, "/act", {**who, "action": "declare", "options": f"intent=kill tactic={tactic}"})]
    if enc.phase == "flurry":
        if f.posts and WacCombatant.of(me).actions < 2 and WacCombatant.of(foe).actions >= 2:
            return [(f.owner, "/act", {**who, "action": "hold"})]
        attack: list[Command] = [(f.owner, "/attack", {**who, "target": f.foe, "roll": roll})]
        return attack + [("gm", "/act", {"action": "heal", "target": f.foe, "options": "chest"})] * bool(f.posts)
    if not f.posts:  # the anchor stands its ground in the movement and adjustment phases
        return [(f.owner, "/init next", {"confirm": "true"})]
    end: Command = (f.owner, "/init next", {})
    if enc.phase == "adjustment":
        return [(f.owner, "/act", {**who, "action": "retreat", "target": f.foe}), end]
    grid = enc.map.grid()
    ahead = grid.front(me.cell, me.facing) if grid is not None and me.cell is not None and me.facing else None
    assert ahead is not None  # the hex it retreated from, beside its foe
    return [(f.owner, "/move", {**who, "to": ahead.name}), end]


#: autocomplete requests a client sends while a command is typed, for each command with an
#: autocompleted option: the option's value as it is typed, empty, a third, two thirds
TYPING = 3


def _typing(h: Harness, user: str, command: str, options: dict[str, str], channel: str, typing: int) -> list[dict[str, Any]]:
    """The autocomplete payloads a client sends while ``user`` types ``command`` with ``options``: ``typing``
    of them for its first autocompleted option (in the order typed), its value growing, with the
    options typed before it."""
    auto = _autocompleted(h, command)
    name = next((k for k in options if k in auto), None)
    if name is None or not typing:
        return []
    before = dict(itertools.takewhile(lambda kv: kv[0] != name, options.items()))
    value = options[name]
    return [h.payload(user, command, {**before, name: value[:len(value) * i // typing]}, channel, focused=name)
            for i in range(typing)]


def _autocompleted(h: Harness, command: str) -> frozenset[str]:
    """The options of ``command`` in ``h``'s tree that Discord autocompletes."""
    cmd = h.bot.tree.get_command(command.lstrip("/").split()[0])
    for word in command.lstrip("/").split()[1:]:
        cmd = cmd.get_command(word) if isinstance(cmd, app_commands.Group) else None
    if not isinstance(cmd, app_commands.Command):
        return frozenset()
    return frozenset(p.display_name for p in cmd.parameters if p.autocomplete)


def _command_name(payload: dict[str, Any]) -> str:
    data = payload["data"]
    words = [data["name"]]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # subcommand (group)
        words.append(options[0]["name"])
        options = options[0].get("options") or []
    return "/" + " ".join(words)

def _col(i: int) -> str:
    name = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        name = chr(ord("A") + r) + name
    return name

