"""A write keeps an encounter's JSON in parts and the next write's undo delta comes from the
parts that changed (`data.delta.Parts`): every `/undo` still restores the state before its
action exactly."""
from __future__ import annotations

from bot.offline.harness import Harness, channel_id_of
from data.store import StoredEncounter

CID = str(channel_id_of("general"))


async def _state(h: Harness) -> str:
    enc = await h.bot.service.encounter(CID)
    assert enc is not None
    return enc.model_dump_json()


async def test_undo_restores_each_state_of_a_large_encounter_written_in_parts(h: Harness) -> None:
    """With nine combatants, edits, a move, an arrival and a removal undo one by one back to the fight as it began."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Crowd", map="20x10")
    for i in range(9):
        await h.run("gm", "/combatant add", name=f"F{i}", side="ab"[i % 2], at=f"{'ABCDEFGHIJ'[i % 10]}{1 + i // 10 * 5}",
                    facing="E", sheet="class=light weapons=sword hp=9")
    await h.run("gm", "/init roll")
    states = []
    for command, options in (("/combatant edit", {"name": "F3", "sheet": "hp=4"}),
                             ("/combatant edit", {"name": "F0", "sheet": "hp=7"}),
                             ("/combatant add", {"name": "Late", "side": "a", "at": "T10", "facing": "W",
                                                 "sheet": "class=light weapons=sword hp=9"}),
                             ("/combatant remove", {"name": "F5"}),
                             ("/encounter terrain", {"cells": "S1", "kind": "wall"})):
        states.append(await _state(h))
        sent = await h.run("gm", command, **options)
        assert "Not done" not in sent[0].text and await _state(h) != states[-1], (command, sent[0].text)
    assert h.bot.service.encounters.cache.entries[CID].parts is not None
    for before in reversed(states):
        await h.run("gm", "/undo")
        assert await _state(h) == before
    [stored] = [s for s in await h.store.active_encounters() if isinstance(s, StoredEncounter)]
    assert stored.raw_state == states[0]
