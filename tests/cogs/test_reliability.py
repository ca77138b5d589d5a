"""Reliability: concurrency on one channel, a process killed mid-load, and Discord's payload limits.

See DESIGN.md, "Performance and reliability: how they are measured". Everything runs through
the offline harness (the real discord.py tree) or the offline console in a subprocess, on each
backend (a SQLite file and a PostgreSQL database, the `url` fixture of tests/backends.py).
"""
from __future__ import annotations

import asyncio
import os
import queue
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.limits import choice_problems
from bot.limits import problems as message_problems
from bot.offline.harness import Clock, Harness, Sent, channel_id_of, user_id_of
from bot.service.views import entry_text
from data.store import open_store
from rules.registry import all_systems, get_system
from tests.cogs.fights import BORIN, GRAK, export

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
async def h(url: str):
    """The harness on each backend with seed 11 (these tests were written against its dice)."""
    harness = await Harness.create(url, seed=11, clock=Clock())
    yield harness
    await harness.close()


def cell(i: int, width: int = 12) -> str:
    """The i-th cell of a map, row by row: 0 -> A1, 12 -> A2 (columns A..Z, then AA..)."""
    col, letters = i % width + 1, ""
    while col:
        col, r = divmod(col - 1, 26)
        letters = chr(ord("A") + r) + letters
    return f"{letters}{i // width + 1}"


def responses(sent: list[Sent]) -> list[Sent]:
    return [s for s in sent if s.kind == "response"]


def refused(s: Sent) -> bool:
    return s.ephemeral and any("Not done" in (e.get("title") or "") for e in s.embeds)


# -- many concurrent commands on one channel ---------------------------------------------------------
async def test_concurrent_commands_on_one_channel_none_lost_none_twice(h: Harness) -> None:
    """110 concurrent deliveries on one channel (40 adds, 40 edits, 20 status, 10 re-sent edits): each applied and logged once."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Crowd", map="12x10")
    for i in range(20):
        owner = "@bob" if i % 2 else None
        sent = await h.run("gm", "/combatant add", name=f"E{i}", sheet=GRAK, at=cell(i), owner=owner)
        assert not refused(sent[0]), sent[0].text
    rng = random.Random(5)
    adds = [h.payload("gm", "/combatant add", {"name": f"A{i}", "sheet": GRAK, "at": cell(20 + i), "side": "crowd"})
            for i in range(40)]
    edits: list[dict[str, Any]] = []
    hp_of: dict[str, tuple[str, int]] = {}  # interaction id -> (combatant, hp it sets)
    for k in range(40):
        name, hp = f"E{k % 20}", rng.randint(1, 20)
        user = "bob" if (k % 20) % 2 and k % 3 == 0 else "gm"  # owners edit their own too
        p = h.payload(user, "/combatant edit", {"name": name, "sheet": f"hp={hp}"})
        hp_of[p["id"]] = (name, hp)
        edits.append(p)
    status = [h.payload(rng.choice(["carol", "stranger", "bob"]), "/encounter status", {"public": "true"}) for _ in range(20)]
    resent = rng.sample(edits, 10)  # the same interactions delivered a second time
    deliveries = adds + edits + status + resent
    rng.shuffle(deliveries)
    before = len(h.recorder.sent)

    await asyncio.gather(*(h.run_payload(p) for p in deliveries))

    answered = responses(h.recorder.sent[before:])
    replies = [r for r in answered if not r.ephemeral]
    assert len(replies) == 100, "every distinct interaction is answered once"
    again = [r for r in answered if r.ephemeral]
    assert len(again) <= 10 and all(refused(r) and "already applied" in r.text for r in again), [r.text for r in again]
    for i in range(40):
        assert sum(f"**A{i}** joins" in r.text for r in replies) == 1
    assert sum("updated" in r.text or "The GM changed" in r.text for r in replies) == 40  # a hidden one's numbers are the GM's
    assert sum(r.embeds[0]["title"].startswith("⚔️ Crowd") for r in replies) == 20

    enc_id = (await h.store.load_active(str(channel_id_of("general")))).id
    log = await h.store.log(enc_id, 1000)
    ids = Counter(e.interaction_id for e in log)
    assert max(ids.values()) == 1, "an interaction was logged twice"
    assert {p["id"] for p in adds + edits} <= set(ids)
    commands = Counter(e.command for e in log)
    assert commands["/combatant add"] == 60 and commands["/combatant edit"] == 40
    assert len(log) == 100

    # the final state is the log replayed: every combatant once, each hp from its last logged edit
    data = await export(h)
    names = [c["name"] for c in data["combatants"]]
    assert sorted(names) == sorted([f"E{i}" for i in range(20)] + [f"A{i}" for i in range(40)])
    positions = [c["position"] for c in data["combatants"]]
    assert len(set(positions)) == 60
    last_hp: dict[str, int] = {}
    for e in log:  # oldest first
        if e.interaction_id in hp_of:
            name, hp = hp_of[e.interaction_id]
            last_hp[name] = hp
    assert len(last_hp) == 20
    for c in data["combatants"]:
        if c["name"] in last_hp:
            assert c["hp"] == last_hp[c["name"]], c["name"]

    # what the bot holds in memory is what is on disk, and survives a restart
    cid = str(channel_id_of("general"))
    stored, live = await h.store.load_active(cid), await h.bot.service.encounter(cid)
    assert stored is not None and live is not None
    assert stored.encounter.model_dump() == live.model_dump()
    h2 = await h.restart()
    try:
        assert await export(h2) == data
    finally:
        await h2.close()
        h.store = h2.store


# -- a process killed mid-load ----------------------------------------------------------------------
CHANNELS = 6
ADDS = 50  # per channel; a 12x10 map and at most 60 combatants


def _console_lines() -> list[str]:
    lines = [f"@gm #c{c} /encounter start system:coup-de-grace name:Load{c} map:12x10" for c in range(CHANNELS)]
    for i in range(ADDS):
        for c in range(CHANNELS):
            lines.append(f'@gm #c{c} /combatant add name:U{c}x{i} sheet:"{GRAK}" at:{cell(i)} side:s{i % 3}')
    return lines


def _run_console_and_kill(db: str, files: Path, want_acks: int) -> tuple[set[str], int, str]:
    """Feed the offline console a load, SIGKILL it once ``want_acks`` adds were answered.

    Returns the names whose add was acknowledged (its reply printed), the exit code, and the output.
    """
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "console", "--db", db, "--files", str(files)],
        cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, encoding="utf-8", env=env,
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    acked: set[str] = set()
    output: list[str] = []
    try:
        assert proc.stdin is not None
        proc.stdin.write("\n".join(_console_lines()) + "\n")  # about 30 KB: fits in the pipe
        proc.stdin.flush()  # stdin stays open: the console is still busy, not at its end
        deadline = time.monotonic() + 90
        while len(acked) < want_acks and time.monotonic() < deadline:
            try:
                line = lines.get(timeout=1)
            except queue.Empty:
                continue
            if line is None:
                break
            output.append(line)
            if m := re.search(r"\*\*(U\d+x\d+)\*\* joins", line):
                acked.add(m.group(1))
    finally:
        proc.send_signal(signal.SIGKILL)
        code = proc.wait(timeout=30)
        reader.join(timeout=10)
    return acked, code, "".join(output[-40:])


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
async def test_killed_mid_load_loses_no_acknowledged_command(url: str, tmp_path: Path) -> None:
    """SIGKILL the console mid-load: integrity check ok, every acknowledged add stored and logged, and the bot carries on."""
    db = url
    acked, code, tail = _run_console_and_kill(db, tmp_path, want_acks=40)
    assert code == -signal.SIGKILL, f"the console ended by itself ({code}) before it was killed:\n{tail}"
    assert len(acked) >= 40, f"too few replies before the kill:\n{tail}"
    assert len(acked) < CHANNELS * ADDS, "the load was over before the kill: nothing was tested mid-load"

    store = await open_store(db)
    try:
        assert await store.integrity_check() == "ok"
        stored_names: set[str] = set()
        for c in range(CHANNELS):
            found = await store.load_active(str(channel_id_of(f"c{c}")))
            assert found is not None, f"the encounter of #c{c} is lost"
            names = [x.name for x in found.encounter.combatants]
            log = await store.log(found.id, 1000)
            adds = [e for e in log if e.command == "/combatant add"]
            assert len(adds) == len(names), "state and log are written in one transaction"
            system = get_system(found.encounter.system)
            assert all(f"**{n}** joins" in entry_text(e, system) for n, e in zip(names, adds))
            assert len({e.interaction_id for e in log}) == len(log)
            stored_names |= set(names)
    finally:
        await store.close()
    missing = sorted(acked - stored_names)
    assert missing == [], f"acknowledged but lost: {missing}"

    h = await Harness.create(db, seed=3)
    try:
        sent = await h.run("gm", "/combatant add", "c0", name="After", sheet=BORIN, at=cell(100))
        assert not refused(sent[0]), sent[0].text
        sent = await h.run("carol", "/encounter status", "c0", public="true")
        assert "After" in sent[0].text and not sent[0].ephemeral
        names = {c["name"] for c in (await export(h, "c0"))["combatants"]}
        assert "After" in names and {n for n in acked if n.startswith("U0x")} <= names
        assert await h.store.integrity_check() == "ok"
    finally:
        await h.close()


# -- Discord's limits on every outgoing payload --------------------------------------------------------
def limit_problems(s: Sent) -> list[str]:
    """What in one recorded payload Discord would refuse, or that could ping everyone or a role."""
    p = s.payload
    if s.kind in ("defer", "delete"):  # no message: nothing in it can exceed a limit or ping anyone
        return [f"a {s.kind} that carries a message"] if s.content or s.embeds or s.files else []
    if s.kind == "autocomplete":
        return choice_problems(p.get("choices") or [])
    problems = message_problems(p, [len(data) for _, data in s.files])
    am = p.get("allowed_mentions")
    if am is None:
        problems.append("no allowed_mentions: Discord would use its default and parse @everyone")
    else:
        parse = am.get("parse") or []
        if "everyone" in parse or "roles" in parse:
            problems.append(f"allowed_mentions parses {parse}")
        if am.get("roles"):
            problems.append(f"allowed_mentions lets roles be pinged: {am['roles']}")
    return problems


HOSTILE_NAMES = ["@everyone", "@here", "<@&123456789012345678>", "<@123456789012345678>", "**bold**", "`x`",
                 "||spoiler||", "🐉" * 20, "Ω" * 40, "W" * 40, "a'b\"c", "\u202eevil", "x" * 39 + "é"]


async def test_every_outgoing_payload_is_within_discord_limits(h: Harness, tmp_path: Path) -> None:
    """A long, varied session: every payload sent stays within Discord's limits and restricts mentions."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="N" * 100, map="60x60")  # the longest name
    await h.run("gm", "/encounter settings", reminder_hours="1", options="range_increment=6")
    for i in range(60):
        name = HOSTILE_NAMES[i] if i < len(HOSTILE_NAMES) else f"Fighter number {i} " + "z" * 18
        owner = ["@bob", "@carol", "@everyone", None][i % 4]
        await h.run("gm", "/combatant add", name=name[:40], sheet=BORIN if i % 2 else GRAK, side=f"side{i % 2}" + "s" * 30,
                    at=cell(i * 7, 60), facing="N", owner=owner)
    await h.run("gm", "/combatant add", name="One too many", sheet=GRAK, at="B40")
    await h.run("gm", "/encounter terrain", cells=" ".join(cell(i, 60) for i in range(500, 900)), kind="wall")
    await h.run("gm", "/encounter terrain", cells=" ".join(cell(i, 60) for i in range(1000, 1400)), kind="difficult")
    await h.run("gm", "/encounter terrain", cells=" ".join(cell(i, 60) for i in range(1400, 1801)), kind="rough")
    await h.run("gm", "/init roll")
    service = h.bot.service
    for _ in range(30):  # whoever may act: turn, attack someone, end the activation (turn pings)
        enc = await service.encounter(str(channel_id_of("general")))
        assert enc is not None
        actor = get_system(enc.system).turn(enc).actors[0]
        weapon = enc.get(actor).sheet["weapons"][0]
        await h.run("gm", "/move", combatant=actor, facing="E")
        await h.run("gm", "/attack", combatant=actor, target="@everyone", weapon=weapon, roll="6")
        await h.run("gm", "/init next", combatant=actor, confirm="true")
    # a duel to the end: hits, a downed fighter, a coup-de-grace, a winner
    await h.run("gm", "/encounter start", "duel", system="coup-de-grace", map="8x6")
    await h.run("gm", "/combatant add", "duel", name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=BORIN)
    await h.run("gm", "/combatant add", "duel", name="@everyone", owner="@carol", side="orcs", at="D3", facing="W", sheet=GRAK)
    await h.run("gm", "/init roll", "duel", roll="6,1")
    await h.run("gm", "/combatant edit", "duel", name="@everyone", sheet="hp=1")
    await h.run("bob", "/attack", "duel", combatant="Borin", target="@everyone", weapon="hammer", roll="6")
    for _ in range(3):
        await h.run("gm", "/init next", "duel", confirm="true")
        await h.run("bob", "/move", "duel", combatant="Borin", to="D3")
        await h.run("bob", "/coupdegrace", "duel", combatant="Borin", target="@everyone", weapon="hammer", roll="6")
    await h.run("carol", "/log", "duel", count=25)
    await h.run("gm", "/encounter gm", user="@everyone")
    for command in ("/encounter status", "/init order", "/encounter settings", "/encounter export", "/map"):
        await h.run("carol", command)
    await h.run("carol", "/log", count=25)
    await h.run("carol", "/combatant show", name="@everyone")
    await h.run("gm", "/undo")
    await h.run("bob", "/roll", dice="200d6", **{"for": "r" * 1000})
    await h.run("bob", "/roll", dice="1d20+" * 90 + "1", **{"for": "@everyone <@&1>"})
    await h.run("bob", "/roll", dice="(" * 500 + "1" + ")" * 500)
    await h.run("bob", "/help")
    for system in all_systems():
        await h.run("bob", "/help", system=system.key)
        await h.run("gm", "/encounter start", f"thread-{system.key}", system=system.key, name="@everyone " * 20)
        await h.run("gm", "/combatant add", f"thread-{system.key}", name="@here", sheet="")
        await h.run("gm", "/encounter status", f"thread-{system.key}")
    for option in ("target", "combatant", "weapon"):
        await h.autocomplete("gm", "/attack", option, "", target="@everyone")
    await h.autocomplete("gm", "/act", "action", "")
    await h.autocomplete("gm", "/combatant edit", "name", "e")
    h.recorder.deleted.update(s.message_id for s in h.recorder.sent if s.kind == "channel")
    await h.run("gm", "/combatant edit", name="@everyone", sheet="hp=2")  # the board is posted again

    sent = h.recorder.sent
    kinds = Counter(s.kind for s in sent)
    assert {"response", "followup", "channel", "channel_edit", "autocomplete"} <= set(kinds), kinds
    assert any(len(e.get("description") or "") > 2000 for s in sent for e in s.embeds), "the session never came near a limit"
    assert {"defer", "delete"} <= {s.kind for s in h.recorder.calls}, "the session never deferred or deleted"
    problems = [(s.kind, s.text[:60], p) for s in h.recorder.calls for p in limit_problems(s)]
    assert problems == []
    for s in sent:
        if s.kind == "autocomplete":  # choices are not messages: nothing in them can ping
            continue
        assert not s.pings_everyone()
        assert set(s.pinged_users()) <= {str(user_id_of(u)) for u in ("bob", "carol", "everyone", "gm")}


async def test_reminder_to_a_big_side_stays_within_discord_limits(h: Harness) -> None:
    """A turn reminder for a side of 59 minis with long names, each with its own owner, fits in one message."""
    await h.run("gm", "/encounter start", system="coup-de-grace", map="60x60")
    await h.run("gm", "/encounter settings", reminder_hours="1")
    for i in range(59):
        await h.run("gm", "/combatant add", name=f"{i:02d} " + "W" * 37, owner=f"@player{i}", side="horde",
                    at=cell(i, 60), sheet=GRAK)
    await h.run("gm", "/combatant add", name="Lone", owner="@bob", side="solo", at="Z50", sheet=GRAK)
    sent = await h.run("gm", "/init roll")
    assert not refused(sent[0]), sent[0].text
    clock: Clock = h.bot.service.clock
    clock.now += 2 * 3600
    reminders = await h.reminders()
    assert len(reminders) == 1
    assert limit_problems(reminders[0]) == []
    assert len(reminders[0].pinged_users()) == 59
