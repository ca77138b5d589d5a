"""Random and hostile command sequences through the real discord.py tree (bot/offline/harness.py).

Properties, for every command of every generated sequence:
- no unhandled error: nothing logged at ERROR by the bot or discord.py, no "Something went wrong";
- every interaction gets exactly one response (or one autocomplete answer);
- a refused command (an ephemeral "Not done") leaves every encounter exactly as it was: the export
  bytes, the stored row and the action log;
- what the bot holds in memory is what is stored;
- every payload stays within Discord's limits and restricts mentions.
A command the harness cannot even build (a bad option type or choice, a number outside an
option's range) is skipped: the Discord client would refuse to send it.
"""
from __future__ import annotations

import asyncio
import json
import logging
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from bot.offline.harness import (
    Clock,
    Harness,
    HarnessError,
    Sent,
    channel_id_of,
    user_id_of,
)
from bot.service import Ctx
from rules.errors import RulesError
from rules.registry import all_systems
from tests.cogs import fights
from tests.cogs.fights import BORIN, GRAK

CHANNELS = ("general", "thread")
USERS = ("gm", "bob", "carol", "stranger")

HOSTILE = [
    "", " ", "@everyone", "@here", "<@&123456789012345678>", "<@654377531583639947>", "'", '"', '"unclosed',
    "a'b", "x=y", "=", "==", "hp=", "hp=-1", "hp=0", "hp=99999999999999999999", "class=", "weapons=,,,",
    "\u0000", "\n\n", "line\nbreak", "🐉" * 10, "é", "Ω", "\u202eevil", "`code`", "**bold**", "||spoiler||",
    "'; DROP TABLE encounters; --", "${jndi:x}", "%s%s%s", "{0}", "\\", "N N E", "N" * 100, "A1 " * 50,
    "x" * 1999, "y" * 4000, "1e309", "-0", "nan", "inf", "-1", "0", "999999999999999999999999",
    "Borin", "Grak", "borin", " Borin ", "Thrain",
]
CELLS = ["A1", "B2", "C3", "D3", "E3", "C4", "H6", "L10", "M11", "Z99", "AA1", "ZZZ999", "A0", "A-1", "0", "C",
         "3C", "c3", "", "near", "far", "engaged", "A1 B2", "Ω1", "A99999999999999999999"]
FACINGS = ["N", "E", "S", "W", "NE", "SE", "SW", "NW", "X", "n", "", "north", "NN"]
SHEETS = [BORIN, GRAK, "class=unarmoured", "class=heavy weapons=bow", "hp=2", "hp=20", "hp=21", "dv=9 ma=1",
          "weapons=hammer,shield,axe,bow,sword,spear,dagger", "class=light weapons=axe hp=1",
          "str=3 agi=-3 size=tall hp=5", "bear=10 wolf=0 block=2", "group=yes", 'name="a b"', "a=1 a=2",
          "hp=10 weapons=longsword:2", "hp=8 weapons=mace:1 shield=large armor=3", "hp=0", "rating=3", "rating=5 group=yes",
          "strike=2 track=5,4,U", "weapon=club:2:stun:bash", "resist=pierce:2,slash", "tohit=3d+1"]
ROLLS = ["1", "6", "15,4", "0", "-1", "7", "1,1,1,1,1,1,1,1,1,1", "", "a", "1,,2", " 3 ", "6,6", "99999999999999999999"]
DICE = ["1d20", "4d6kh3", "1000d6", "1d0", "0d6", "d", "1d20+" * 60 + "1", "(((1)))", "1d6e6", "1d1e1", "2d6ro1",
        "10000000000d1", "1d100000000000", "", "@everyone", "1/0", "5 - 10", "1d20 [attack]"]
MAPS = ["12x10", "12x10 hex", "none", "8x6", "1x1", "60x60", "100x100", "0x0", "101x1", "999x999", "abc", "", "12 x 10", "12x10 square"]
NAMES = ["Borin", "Grak", "Thrain", "borin", "@everyone", "<@&1>", "", " ", "x" * 40, "x" * 41, "🐉", "line\nbreak"]
SYSTEMS = [s.key for s in all_systems()] + ["chess", ""]

text = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=40),
                 st.builds(lambda s, n: s * n, st.sampled_from(["x", "🐉", "@everyone ", "N ", "A1 ", "="]),
                           st.integers(1, 1200)))
# mostly plausible values, so that sequences get deep into a fight; hostile ones the rest of the time
cells = st.one_of(st.sampled_from(["C3", "D3", "C4", "D4", "B3", "E3", "C2"]), st.sampled_from(["close", "far", "melee"]),
                  st.sampled_from(CELLS), text)
names = st.one_of(st.sampled_from(["Borin", "Grak"]), st.sampled_from(["Alda", "Brute", "Kit", "Ogre"]),
                  st.sampled_from(NAMES), text)
users = st.sampled_from(["@gm", "@bob", "@carol", "@stranger", "@everyone"])
ints = st.one_of(st.integers(-3, 30), st.integers(-(2**53), 2**53)).map(str)
floats = st.one_of(st.sampled_from(["0", "1", "0.001", "720", "721", "-1", "1e308", "nan", "inf", "x"]),
                   st.floats(allow_nan=False, allow_infinity=False).map(repr))
bools = st.sampled_from(["true", "false", "yes", "0", "maybe"])


def opts(required: dict[str, Any] | None = None, **optional: Any) -> st.SearchStrategy[dict[str, str]]:
    return st.fixed_dictionaries(required or {}, optional=optional)


def _rename(d: dict[str, Any], new: str, index: int = 0) -> dict[str, Any]:
    old = d["combatants"][index]["name"]
    d["combatants"][index]["name"] = new
    d["order"] = [new if n == old else n for n in d["order"]]
    d["current"] = new if d.get("current") == old else d.get("current")
    return d


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A mutation that sets ``a.b.0.c``-style ``path`` of the export to ``value``."""
    def mutate(d: dict[str, Any]) -> dict[str, Any]:
        *parents, last = path.split(".")
        node: Any = d
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[int(last) if isinstance(node, list) else last] = value
        return d
    return mutate


def _many(d: dict[str, Any]) -> dict[str, Any]:
    first = d["combatants"][0]
    d["combatants"] = [dict(first, name=f"Clone{i}", position=None) for i in range(101)]
    d["order"], d["current"] = [], None
    return d


#: what to attach to /encounter import: the channel's export changed by a mutation, or raw bytes
IMPORTS: dict[str, Callable[[dict[str, Any]], dict[str, Any]] | bytes] = {
    "current": lambda d: d,
    "garbage": b"\x00\xff not json",
    "empty": b"",
    "not-object": b"[1, 2, 3]",
    "other-system": _set("system", "tote"),
    "huge-round": _set("round", 10**30),
    "negative-round": _set("round", -5),
    "long-name": lambda d: _rename(d, "B" * 500),
    "newline-name": lambda d: _rename(d, "Bo\nrin `x`"),
    "everyone-name": lambda d: _rename(d, "@everyone", -1),
    "same-names": lambda d: _rename(d, d["combatants"][0]["name"], -1),
    "off-map": _set("combatants.0.position", "Z99"),
    "negative-hp": _set("combatants.0.hp", -3),
    "huge-hp": _set("combatants.0.hp", 10**20),
    "wide-map": _set("map.width", 101),
    "bad-facing": _set("combatants.0.facing", "NE"),
    "bad-status": _set("combatants.0.status", "zombie"),
    "downed-status": _set("combatants.0.status", "downed"),
    "big-state": _set("state.junk", "j" * 300_000),
    "no-gm": _set("gm_ids", []),
    "current-missing": _set("current", "Nobody"),
    "order-unknown": lambda d: _set("order", ["Ghost", *d["order"]])(d),
    "many-combatants": _many,
    "weird-sheet": _set("combatants.0.sheet", {"class": "ultra", "weapons": "notalist", "hp": "many"}),
    "state-types": _set("state", {"sides": 5, "priority": ["x"], "slot": "abc"}),
    "combatant-state-types": _set("combatants.0.state", {"mp": "lots", "done": "maybe", "used": [], "hp_max": None}),
    "initiative-text": _set("combatants.0.initiative", "first"),
    "owner-not-snowflake": _set("combatants.0.owner_id", "carol"),
    "gm-not-snowflake": _set("gm_ids", ["carol"]),
    "bad-option": _set("settings.options", {"bogus": "1"}),
    "deep": b"[" * 100_000,
}


COMMANDS: dict[str, st.SearchStrategy[dict[str, str]]] = {
    "/encounter start": opts({"system": st.sampled_from(SYSTEMS)}, name=text, map=st.one_of(st.sampled_from(MAPS), text),
                             variant=st.one_of(st.sampled_from(["draft-2013-11-11", "standard"]), text)),
    "/encounter status": opts(),
    "/encounter end": opts(),
    "/encounter export": opts(),
    "/encounter settings": opts(player_rolls=bools, reminder_hours=floats,
                                options=st.one_of(st.sampled_from(["range_increment=3", "range_increment=0", "weapons=x:melee",
                                                                   "weapons=club:melee:2", "bogus=1", "ruleset=default"]), text)),
    "/encounter gm": opts({"user": users}, remove=bools),
    "/encounter terrain": opts({"cells": cells, "kind": st.sampled_from(["wall", "difficult", "clear", "rough", "lava"])},
                               height=ints),
    "/encounter import": opts({"file": st.sampled_from(sorted(IMPORTS))}, replace=bools),
    "/combatant add": opts({"name": names}, sheet=st.one_of(st.sampled_from(SHEETS), text), owner=users,
                           side=st.one_of(st.sampled_from(["dwarves", "orcs", ""]), text), at=cells,
                           facing=st.one_of(st.sampled_from(FACINGS), text)),
    "/combatant edit": opts({"name": names}, sheet=st.one_of(st.sampled_from(SHEETS), text),
                            side=st.one_of(st.sampled_from(["dwarves", "orcs"]), text), at=cells,
                            facing=st.sampled_from(FACINGS)),
    "/combatant remove": opts({"name": names}),
    "/combatant show": opts({"name": names}),
    "/init roll": opts(combatant=names, roll=st.one_of(st.sampled_from(ROLLS), text)),
    "/init set": opts({"combatant": names, "value": ints}),
    "/init next": opts(combatant=names),
    "/init order": opts(set=st.one_of(st.sampled_from(["Borin, Grak", "Grak, Borin", "Borin", ""]), text)),
    "/move": opts(combatant=names, to=cells, path=st.one_of(st.sampled_from(["N N E", "N", "", "Q", "N " * 100]), text),
                  facing=st.sampled_from(FACINGS), options=text, roll=st.sampled_from(ROLLS)),
    "/attack": opts({"target": names}, combatant=names,
                    weapon=st.one_of(st.sampled_from(["hammer", "axe", "shield", "bow", ""]), text),
                    roll=st.one_of(st.sampled_from(ROLLS), text), options=st.one_of(st.sampled_from(["adv", "mode=ranged", "x"]), text)),
    "/coupdegrace": opts({"target": names}, combatant=names, weapon=st.sampled_from(["hammer", "axe", "bow"]),
                         roll=st.sampled_from(ROLLS)),
    "/act": opts({"action": st.one_of(st.sampled_from(["recover", "stand", "dodge", "charge", "strike", "shoot", "assault", "defend",
                                                       "disengage", "distance", "wield", "shove", "grapple", "delay", "cast",
                                                       "throw", "release", "search", "use", "protect", "assist", ""]), text)},
                 combatant=names,
                 target=names, options=text, roll=st.sampled_from(ROLLS)),
    "/roll": opts({"dice": st.one_of(st.sampled_from(DICE), text)}, **{"for": text}),
    "/log": opts(count=ints),
    "/undo": opts(),
    "/map": opts(),
    "/help": opts(system=st.sampled_from(SYSTEMS)),
}
AUTOCOMPLETE = [("/attack", "target"), ("/attack", "weapon"), ("/attack", "combatant"), ("/act", "action"),
                ("/combatant edit", "name"), ("/combatant remove", "name"), ("/init next", "combatant"), ("/move", "combatant")]


@dataclass
class Step:
    user: str
    channel: str
    command: str
    options: dict[str, str]
    focused: str | None = None  # an autocomplete request for this option


command_steps = st.sampled_from(sorted(COMMANDS)).flatmap(
    lambda name: st.builds(Step, st.sampled_from(USERS), st.sampled_from(CHANNELS + ("general",) * 3), st.just(name), COMMANDS[name])
)
autocomplete_steps = st.builds(
    lambda user, pair, current: Step(user, "general", pair[0], {pair[1]: current}, focused=pair[1]),
    st.sampled_from(USERS), st.sampled_from(AUTOCOMPLETE), st.one_of(st.just(""), names),
)
steps = st.lists(st.one_of(command_steps, command_steps, command_steps, autocomplete_steps), min_size=1, max_size=15)
#: the fights the fuzz plays in each system, by the name of its set-up (`_setup`)
FIGHTS = {"fight": "coup-de-grace", "kov": "knights-of-valour", "tote": "tote", "damage-grid": "damage-grid",
          "war-and-combat": "war-and-combat", "open": "open"}
#: the open system's fight: two players' fighters against the GM's, on a square map
OPEN_ADDS = [
    dict(name="Borin", owner="@bob", side="dwarves", at="C3", sheet="hp=20 ac=14 speed=30 weapons=axe:+5:1d8+3:slashing"),
    dict(name="Thrain", owner="@tess", side="dwarves", at="C4", sheet="hp=12 ac=12 weapons=bow:+4:1d6:piercing:range=80/320"),
    dict(name="Grak", side="orcs", at="D3", sheet="hp=15 ac=13 resist=slashing weapons=club:+3:1d6:bludgeoning"),
    dict(name="Snaga", side="orcs", at="F4", sheet="hp=7 ac=11 weapons=fireball:save=dex:13:2d6:fire:half:area=burst10"),
]
setups = st.sampled_from(["empty", "started", "fight+thread", *FIGHTS])


class _Errors(logging.Handler):
    """Collects ERROR records from the bot's and discord.py's loggers."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class Session:
    h: Harness
    files: Path
    errors: _Errors
    ran: int = 0
    refused: int = 0
    skipped: int = 0
    notes: list[str] = field(default_factory=list)


def _is_refusal(s: Sent) -> bool:
    return s.ephemeral and any("Not done" in (e.get("title") or "") for e in s.embeds)


def _problems(s: Sent) -> list[str]:
    """Discord's limits and restricted mentions, in brief (test_reliability checks them at length)."""
    p = s.payload
    if s.kind == "autocomplete":
        choices = p.get("choices") or []
        bad = [c for c in choices if not 1 <= len(c["name"]) <= 100 or len(str(c["value"])) > 100]
        return (["over 25 choices"] if len(choices) > 25 else []) + [f"choice {c['name'][:30]!r}" for c in bad]
    out = []
    if len(p.get("content") or "") > 2000:
        out.append("content over 2000")
    embeds = p.get("embeds") or []
    total = 0
    for e in embeds:
        fields = e.get("fields") or []
        sizes = {"title": len(e.get("title") or ""), "description": len(e.get("description") or ""),
                 "footer": len((e.get("footer") or {}).get("text") or "")}
        if sizes["title"] > 256 or sizes["description"] > 4096 or sizes["footer"] > 2048 or len(fields) > 25:
            out.append(f"embed sizes {sizes}, {len(fields)} fields")
        for f in fields:
            if not 1 <= len(f.get("name") or "") <= 256 or not 1 <= len(f.get("value") or "") <= 1024:
                out.append(f"field {str(f.get('name'))[:30]!r}")
        total += sum(sizes.values()) + sum(len(f.get("name") or "") + len(f.get("value") or "") for f in fields)
    if total > 6000 or len(embeds) > 10:
        out.append(f"{len(embeds)} embeds, {total} characters")
    am = p.get("allowed_mentions")
    if am is None or {"everyone", "roles"} & set(am.get("parse") or []) or am.get("roles"):
        out.append(f"allowed_mentions {am}")
    return out


async def _snapshot(h: Harness) -> dict[str, tuple[Any, ...]]:
    """Per channel: the export bytes, the stored state (the active encounter's, else the last
    ended one's), the log length and whether it is active (None: no encounter)."""
    out: dict[str, tuple[Any, ...]] = {}
    for channel in CHANNELS:
        cid = str(channel_id_of(channel))
        try:
            exported = (await h.bot.service.export(Ctx(cid, str(user_id_of("gm"))))).file
        except RulesError:
            exported = None
        active = await h.store.load_active(cid)
        stored = active or await h.store.last_ended(cid)
        state = stored.encounter.model_dump_json() if stored else None
        log = len(await h.store.log(stored.id, 10**6)) if stored else 0
        out[channel] = (exported[1] if exported else None, state, log, active is not None)
    return out


def _import_file(s: Session, kind: str, current: bytes | None) -> str:
    """Write the file for an /encounter import of ``kind`` and return its path."""
    mutation = IMPORTS[kind]
    if isinstance(mutation, bytes):
        content = mutation
    else:
        try:
            content = json.dumps(mutation(json.loads(current or b"{}"))).encode()
        except (KeyError, IndexError, TypeError, ValueError):  # nothing to mutate: no encounter here
            content = current or b"{}"
    path = s.files / f"{kind}.json"
    path.write_bytes(content)
    return str(path)


async def _setup(h: Harness, kind: str) -> None:
    async def ok(user: str, command: str, channel: str = "general", **options: str) -> None:
        sent = await h.run(user, command, channel, **options)
        assert sent and not _is_refusal(sent[0]), (command, sent[0].text if sent else None)

    if kind == "empty":
        return
    if kind == "kov":
        await ok("gm", "/encounter start", system="knights-of-valour", map="10x10")
        await ok("gm", "/combatant add", name="Alda", owner="@bob", side="knights", at="B2", sheet="hp=10 weapons=longsword:2")
        await ok("gm", "/combatant add", name="Brute", owner="@carol", side="brutes", at="C2", sheet="hp=8 weapons=mace:1")
        await ok("gm", "/init roll")
        return
    if kind in ("damage-grid", "war-and-combat", "open"):
        await ok("gm", "/encounter start", system=kind, map=fights.MAPS.get(kind, "8x6"))
        for add in OPEN_ADDS if kind == "open" else fights.ADDS[kind]:
            await ok("gm", "/combatant add", **add)
        await ok("gm", "/init roll")
        return
    if kind == "tote":
        await ok("gm", "/encounter start", system="tote")
        await ok("gm", "/encounter settings", options="distance=close")
        await ok("gm", "/combatant add", name="Kit", owner="@carol", side="heroes", sheet="strike=2", at="close")
        await ok("gm", "/combatant add", name="Ogre", side="monsters", sheet="rating=3", at="close")
        await ok("gm", "/init roll")
        return
    await ok("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    if kind == "started":
        return
    await ok("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=BORIN)
    await ok("gm", "/combatant add", name="Grak", owner="@carol", side="orcs", at="D3", facing="W", sheet=GRAK)
    await ok("gm", "/init roll")
    if kind == "fight+thread":
        await ok("carol", "/encounter start", "thread", system="knights-of-valour", map="10x10")
        await ok("carol", "/combatant add", "thread", name="Alda", owner="@bob", at="B2", sheet="str=1 agi=2 hp=10")


async def _step(s: Session, step: Step) -> None:
    h = s.h
    options = dict(step.options)
    if step.command == "/encounter import":
        snapshot = await _snapshot(h)
        current = snapshot[step.channel][0] or next((v[0] for v in snapshot.values() if v[0]), None)
        options["file"] = _import_file(s, options["file"], current)
    try:
        payload = h.payload(step.user, step.command, options, step.channel, focused=step.focused)
    except HarnessError:
        s.skipped += 1
        return
    before = await _snapshot(h)
    errors_before = len(s.errors.records)
    calls_before = len(h.recorder.calls)
    sent = await h.run_payload(payload)
    calls = h.recorder.calls[calls_before:]
    after = await _snapshot(h)
    s.ran += 1
    what = f"{step.user} #{step.channel} {step.command} {options}" + (f" (autocomplete {step.focused})" if step.focused else "")

    new_errors = [r.getMessage() for r in s.errors.records[errors_before:]]
    assert new_errors == [], f"{what} logged an error: {new_errors}"
    assert not any("Something went wrong" in x.text for x in sent), f"{what}: unhandled error"
    if step.focused:
        assert len([x for x in sent if x.kind == "autocomplete"]) == 1, f"{what}: no autocomplete answer"
    else:
        # answered once: a response, or a deferral that its first follow-up answers
        answers = [x for x in calls if x.kind in ("response", "defer")]
        assert len(answers) == 1, f"{what}: {len(answers)} responses"
        first = answers[0] if answers[0].kind == "response" else next((x for x in sent if x.kind == "followup"), None)
        assert first is not None, f"{what}: deferred and never answered"
        if _is_refusal(first):
            s.refused += 1
            assert after == before, f"{what} was refused ({first.text!r}) but changed the state"
    for channel, (exported, state, _log, _active) in after.items():
        if exported is not None or state is not None:
            assert exported is not None and state is not None, f"{what}: memory and store disagree in #{channel}"
            assert json.loads(exported) == json.loads(state), f"{what}: memory and store disagree in #{channel}"
    for x in sent:
        assert _problems(x) == [], f"{what}: {x.kind} breaks Discord's limits: {_problems(x)}"


async def _run(setup: str, sequence: list[Step]) -> Session:
    errors = _Errors()
    loggers = [logging.getLogger("skirmish"), logging.getLogger("discord")]
    for lg in loggers:
        lg.addHandler(errors)
    h = await Harness.create(":memory:", seed=5, clock=Clock())
    try:
        with tempfile.TemporaryDirectory(prefix="skirmish-fuzz-") as files:
            s = Session(h, Path(files), errors)
            await _setup(h, setup)
            for step in sequence:
                await _step(s, step)
            return s
    finally:
        await h.close()
        for lg in loggers:
            lg.removeHandler(errors)


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(setup=setups, sequence=steps)
def test_random_hostile_commands_never_crash_and_refusals_change_nothing(setup: str, sequence: list[Step]) -> None:
    """Random users send random and hostile commands: no unhandled error, and a refused command changes nothing."""
    note(f"setup: {setup}")
    session = asyncio.run(_run(setup, sequence))
    note(f"ran {session.ran}, refused {session.refused}, skipped {session.skipped}")
    event(f"commands run: {min(session.ran, 10)}{'+' if session.ran >= 10 else ''}")
    event(f"accepted: {'some' if session.ran - session.refused > 0 else 'none'}")


# -- hostile encounter.json files, one by one ----------------------------------------------------------
async def _import_then_play(kind: str) -> list[str]:
    """Import the mutated export into a fresh channel, then use it; return what went wrong."""
    errors = _Errors()
    loggers = [logging.getLogger("skirmish"), logging.getLogger("discord")]
    for lg in loggers:
        lg.addHandler(errors)
    h = await Harness.create(":memory:", seed=5, clock=Clock())
    problems: list[str] = []
    try:
        with tempfile.TemporaryDirectory(prefix="skirmish-import-") as files:
            s = Session(h, Path(files), errors)
            await _setup(h, "fight")
            path = _import_file(s, kind, (await _snapshot(h))["general"][0])
            sent = await h.run("gm", "/encounter import", "thread", file=path)
            accepted = not _is_refusal(sent[0])
            if not accepted:
                after = await h.run("gm", "/encounter status", "thread")
                if "no encounter" not in after[0].text:
                    problems.append(f"refused ({sent[0].text!r}) but an encounter was created")
            else:
                enc = await h.bot.service.encounter(str(channel_id_of("thread")))
                assert enc is not None
                commands: list[tuple[str, str, dict[str, str]]] = [
                    ("carol", "/encounter status", {}), ("carol", "/init order", {}), ("carol", "/map", {}),
                    ("carol", "/log", {}), ("gm", "/encounter settings", {}),
                    *[("carol", "/combatant show", {"name": c.name}) for c in enc.combatants[:3]],
                    ("gm", "/combatant add", {"name": "Newcomer", "sheet": GRAK, "at": "A6"}),
                    ("gm", "/init roll", {}), ("gm", "/init next", {}), ("gm", "/move", {"facing": "S"}),
                    ("gm", "/attack", {"target": enc.combatants[-1].name, "roll": "6"}), ("gm", "/undo", {}),
                ]
                for user, command, options in commands:
                    try:
                        out = await h.run(user, command, "thread", **options)
                    except HarnessError:
                        continue
                    for x in out:
                        if "Something went wrong" in x.text:
                            problems.append(f"{command} {options}: unhandled error")
                        problems += [f"{command}: {p}" for p in _problems(x)]
                # import accepts what export wrote
                exported = (await _snapshot(h))["thread"][0]
                if exported is not None:
                    again = Path(files) / "again.json"
                    again.write_bytes(exported)
                    out = await h.run("gm", "/encounter import", "thread-2", file=str(again))
                    if _is_refusal(out[0]):
                        problems.append(f"its own export is refused: {out[0].text!r}")
            problems += [f"logged: {r.getMessage()}" for r in errors.records]
    finally:
        await h.close()
        for lg in loggers:
            lg.removeHandler(errors)
    return problems


@pytest.mark.parametrize("kind", sorted(IMPORTS))
def test_hostile_import_is_refused_or_playable(kind: str) -> None:
    """An edited encounter.json is either refused with nothing created, or imported and playable without errors."""
    assert asyncio.run(_import_then_play(kind)) == []


def test_an_import_is_refused_when_what_it_becomes_breaks_the_files_limits() -> None:
    """A number written as text that the state turns into a number too large (a damage-grid weapon's health) is refused, as its export would be."""
    from bot.service.porting import read_export

    async def exported() -> dict[str, Any]:
        h = await Harness.create(":memory:", seed=5, clock=Clock())
        try:
            await _setup(h, "damage-grid")
            return await fights.export(h)
        finally:
            await h.close()

    data = asyncio.run(exported())
    data["combatants"][0]["state"]["weapon_health"]["Name"] = str(2**64)
    with pytest.raises(RulesError, match="number too large"):
        read_export(json.dumps(data).encode(), str(user_id_of("gm")))


# -- 10,000 hostile imports and option values, straight through the service ----------------------------
FUZZ_SEED = 7_2026
FUZZ_CASES_PER_SYSTEM = 1_701
#: the slowest single case of the last run: (seconds, what it was); printed by the test
SLOWEST: list[tuple[float, str]] = []

DEEP: Any = 0
for _ in range(40):
    DEEP = [DEEP]
#: values a mutation puts anywhere in an export: wrong types, edge and huge numbers, long texts, deep nesting
VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 7, -(2**31), 2**31, 2**53 + 1, 2**63, -(2**63) - 1, 10**30, 0.5, -1e308, 1e300,
    "", " ", "x" * 999, "x" * 1001, "🐉" * 300, "<@123>", "@everyone", "carol", "`", "a\nb", "A1", "Z99", "AA1",
    "N", "NE", "downed", "out", "active", "12345678901234567890", str(2**64), "00000000000000000000", "-5",
    [], {}, [1] * 70, {"a": 1}, {"": None}, ["Borin", "Borin"], {"k" * 1001: 1}, DEEP, [DEEP], {"x": DEEP},
]
BAD_IDS = ["carol", "", " 1", "1 ", "-1", "1.0", "1e5", "１２", "1" * 21, str(2**64), "0x10", None, 5, ["1"]]
OPTION_VALUES = [
    *HOSTILE, "-1", "0", "1", "2", "5", "6", "7", "8", "20", "60", "61", "99", "100", "101", "1000", "2147483648",
    "1e3", "0x10", "1_000", "+5", " 5 ", "٣", "5.5", "-0", "yes", "no", "YES", " no ", "true", "roll", "join",
    "round", "start", "downed", "out", "melee", "close", "far", "engaged", "x:melee", "longbow:ranged:8",
    "halberd:melee:2", "a:b:c:d", ":", "bow:ranged:0", "bow:ranged:-1", "bow:ranged:99999999999", "," * 200,
    "club:2:stun:bash", "x" * 500, "x" * 501, "default",
]
CHARS = "0123456789-+.:,=_ ayesnoYESxé🐉\n`@<>"


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into an export (to its dicts' values and its lists' items)."""
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*path, i))
    return out


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def _mutate(base: dict[str, Any], paths: list[tuple[Any, ...]], options: list[str], rng: random.Random) -> tuple[bytes, str]:
    """A hostile variant of ``base`` as file bytes, and what was done to it."""
    d = json.loads(json.dumps(base))
    op = rng.randrange(10)
    if op == 0:  # the bytes themselves
        raw = json.dumps(d).encode()
        k = rng.randrange(len(raw))
        variants = {"truncated": raw[:k], "garbage": raw[:k] + b"\xff\x00" + raw[k:],
                    "nan": raw.replace(b'"round": ', b'"round": NaN, "x": ', 1), "deep": b"[" * 100_000,
                    "big-int": raw.replace(b'"round": ', b'"round": 1' + b"0" * 5000 + b', "x": ', 1)}
        what = rng.choice(sorted(variants))
        return variants[what], what
    if op == 1:  # owner and GM ids
        bad = rng.choice(BAD_IDS)
        if d["combatants"] and rng.random() < 0.6:
            i = rng.randrange(len(d["combatants"]))
            d["combatants"][i]["owner_id"] = bad
            return json.dumps(d).encode(), f"combatants.{i}.owner_id={bad!r}"
        d["gm_ids"].append(bad)
        return json.dumps(d).encode(), f"gm_ids+={bad!r}"
    if op == 2:  # cells and facings
        i = rng.randrange(len(d["combatants"]))
        key = rng.choice(["position", "facing"])
        value = rng.choice(CELLS + FACINGS + [None])
        d["combatants"][i][key] = value
        return json.dumps(d).encode(), f"combatants.{i}.{key}={value!r}"
    if op == 3:  # options
        key = rng.choice(options + ["bogus", "", "x" * 200])
        value = rng.choice(OPTION_VALUES)
        d["settings"]["options"][key] = value
        return json.dumps(d).encode(), f"options {key}={value!r}"
    if op == 4:  # walls and map sizes
        key = rng.choice(["blocked", "terrain", "heights", "width", "height", "kind"])
        value = rng.choice([[rng.choice(CELLS) for _ in range(rng.randrange(1, 80))], {rng.choice(CELLS): rng.choice(VALUES)},
                            rng.choice(VALUES), ["A1"] * 3601, "hex", "square", "none"])
        d["map"][key] = value
        return json.dumps(d).encode(), f"map.{key}={str(value)[:60]}"
    path = rng.choice(paths)
    parent, last = (_at(d, path[:-1]), path[-1]) if path else (None, None)
    if op == 5 and isinstance(parent, dict):  # a key removed
        del parent[last]
        return json.dumps(d).encode(), f"del {path}"
    node = _at(d, path)
    if op == 6 and isinstance(node, dict):  # an unknown key
        node[rng.choice(["junk", "Name", "hp ", "", "x" * 50])] = rng.choice(VALUES)
        return json.dumps(d).encode(), f"unknown key at {path}"
    if op == 7 and isinstance(node, list) and node:  # a list grown
        node.extend([node[0]] * rng.choice([1, 59, 61, 400]))
        return json.dumps(d).encode(), f"grown {path}"
    value = rng.choice(VALUES) if rng.random() < 0.8 else "".join(rng.choice(CHARS) for _ in range(rng.randrange(30)))
    if parent is None:
        return json.dumps(value).encode(), f"the whole file = {str(value)[:60]}"
    parent[last] = value
    return json.dumps(d).encode(), f"{path} = {str(value)[:60]!r}"


async def _stored(h: Harness, channel: str) -> tuple[Any, ...]:
    """The channel's stored state and the id of its newest log row (None: no encounter)."""
    stored = await h.store.load_active(channel)
    if stored is None:
        return (None, None)
    log = await h.store.log(stored.id, 1)
    return (stored.encounter.model_dump_json(), log[-1].id if log else None)


async def _fuzz_channel(h: Harness, channel: str, base_raw: bytes, rng: random.Random, cases: int, label: str) -> tuple[int, tuple[float, str]]:
    """``cases`` hostile imports and option changes in one channel; returns (accepted, slowest case)."""
    from bot.service.porting import read_export
    from rules.registry import get_system
    from rules.report import board_report

    service = h.bot.service
    gm, bob = str(user_id_of("gm")), str(user_id_of("bob"))
    base = json.loads(base_raw)
    options = list(get_system(base["system"]).options_help)
    paths = _paths(base)
    slowest, accepted = (0.0, ""), 0
    known: dict[str, tuple[Any, ...]] = {}  # each channel's stored state after the last case
    for i in range(cases):
        if i % 250 == 0:  # a fresh encounter now and then keeps the log, and each case, short
            await service.end(Ctx(channel, gm, interaction_id=f"{label}-end-{i}"))
            await service.import_(Ctx(channel, gm, interaction_id=f"{label}-reset-{i}"), base_raw)
            known.pop(channel, None)
        user = gm if rng.random() < 0.85 else bob
        target = channel if rng.random() < 0.9 else f"{channel}{i:05d}"  # now and then an empty channel of its own
        ctx = Ctx(target, user, interaction_id=f"{label}-case-{i}")
        if i % 3 == 2:  # every option of the system in turn, with a hostile value
            key = options[(i // 3) % len(options)] if rng.random() < 0.95 else rng.choice(["bogus", "", "x" * 100])
            value = rng.choice(OPTION_VALUES) if rng.random() < 0.7 else "".join(
                rng.choice(CHARS) for _ in range(rng.randrange(12)))
            what = f"/encounter settings options:{key}={value!r}"
            call = service.settings(ctx, None, None, {key: value})
        else:
            raw, what = _mutate(base, paths, options, rng)
            what = f"/encounter import ({what})"
            call = service.import_(ctx, raw, replace=rng.random() < 0.8)
        before = known.get(target) or await _stored(h, target)
        start = time.perf_counter()
        try:
            await call
        except RulesError:
            refused = True
        except Exception as exc:  # the property under test: nothing else escapes
            raise AssertionError(f"{label} case {i}: {what} raised {type(exc).__name__}: {exc}") from exc
        else:
            refused = False
        took = time.perf_counter() - start
        if took > slowest[0]:
            slowest = (took, f"{label} case {i}: {what[:200]}")
        after = known[target] = await _stored(h, target)
        if refused:
            assert after == before, f"{label} case {i}: {what} was refused but changed the stored state or the log"
            continue
        accepted += 1
        state = after[0]
        assert state is not None, f"{label} case {i}: {what} was accepted but nothing is stored"
        enc = await service.encounter(target)
        assert enc is not None and json.loads(enc.model_dump_json()) == json.loads(state)
        board_report(get_system(enc.system), enc)  # what is accepted can be shown
        read_export(state.encode(), gm)  # and exported and imported again
    return accepted, slowest


async def _fuzz_system(setup: str, seed: int, cases: int, channels: int = 3) -> tuple[int, list[tuple[float, str]]]:
    """``cases`` seeded hostile cases on one system's fight, over ``channels`` channels at once."""
    h = await Harness.create(":memory:", seed=5, clock=Clock())
    try:
        await _setup(h, setup)
        gm = str(user_id_of("gm"))
        exported = (await h.bot.service.export(Ctx(str(channel_id_of("general")), gm))).file
        assert exported is not None
        names = [str(channel_id_of(f"fuzz-{n}")) for n in range(channels)]
        for n, channel in enumerate(names):
            await h.bot.service.import_(Ctx(channel, gm, interaction_id=f"{setup}-{n}-first"), exported[1])
        done = await asyncio.gather(*(
            _fuzz_channel(h, channel, exported[1], random.Random(seed * 100 + n), cases // channels, f"{setup}-{n}")
            for n, channel in enumerate(names)
        ))
    finally:
        await h.close()
    return sum(a for a, _ in done), [s for _, s in done]


async def _fuzz_all(cases: int) -> tuple[int, list[tuple[float, str]]]:
    done = await asyncio.gather(*(_fuzz_system(setup, FUZZ_SEED + n, cases) for n, setup in enumerate(FIGHTS)))
    return sum(a for a, _ in done), [s for _, s in done for s in s]


def test_ten_thousand_hostile_imports_and_options_escape_nothing_and_refusals_change_nothing() -> None:
    """10,206 seeded hostile imports and option values over the six systems: only RulesError, and a refusal changes nothing."""
    cases = FUZZ_CASES_PER_SYSTEM // 3 * 3
    accepted, slowest = asyncio.run(_fuzz_all(FUZZ_CASES_PER_SYSTEM))
    total = len(FIGHTS) * cases
    SLOWEST[:] = sorted(slowest, reverse=True)
    print(f"\nfuzzed {total} imports and options, {accepted} accepted; slowest {SLOWEST[0][0] * 1000:.1f} ms "
          f"(9 channels at once): {SLOWEST[0][1]}")
    assert total >= 10_000 and 0 < accepted < total


def test_the_fuzz_plays_a_fight_of_every_registered_system() -> None:
    """The fuzz's fights (`FIGHTS`) set up a started fight of each of the registered systems, the open system's among them."""
    async def systems() -> dict[str, str]:
        out = {}
        for setup in FIGHTS:
            h = await Harness.create(":memory:", seed=5, clock=Clock())
            try:
                await _setup(h, setup)
                enc = await h.bot.service.encounter(str(channel_id_of("general")))
            finally:
                await h.close()
            assert enc is not None and enc.round >= 1, setup
            out[setup] = enc.system
        return out

    assert asyncio.run(systems()) == FIGHTS
    assert set(FIGHTS.values()) == {s.key for s in all_systems()}
