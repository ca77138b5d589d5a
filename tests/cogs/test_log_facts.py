"""The action log keeps facts, not the text of replies: a rules command's row stores its events
(rules/logfacts.py), and `/log` renders them for each reader, as the reply showed them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.offline.harness import Harness
from bot.service import views
from data.store import Change
from rules.hidden import players_see
from rules.logfacts import LogFacts
from rules.registry import get_system
from rules.report import render_users
from tests.backends import on_each_backend  # noqa: F401 (the h harness on SQLite and PostgreSQL)
from tests.cogs.fights import EXAMPLES, commands, setup_fight, started_cdg

#: the lines a reply adds to the command's own (not part of what the command did)
NOT_LOGGED = ("✍ typed with `roll:`",)


def _said(sent: list) -> str | None:
    """The lines of a command's public reply after its title, joined as a log row joins them."""
    public = [s for s in sent if not s.ephemeral]
    if not public:
        return None
    lines = [ln for ln in public[0].text.split("\n")[1:] if ln and not ln.startswith(NOT_LOGGED)]
    return " · ".join(lines)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
async def test_each_row_of_an_example_fight_is_rendered_from_its_facts_as_the_reply_said_it(path: Path, tmp_path: Path) -> None:
    """Every logged rules command of each example stores facts and no text, and /log's players' text of it is what the channel's reply showed."""
    h = await Harness.create(str(tmp_path / "x.db"), seed=3)
    try:
        replies: list[str] = []
        for user, channel, command, options in commands(path):
            sent = await h.run(user, command, channel, **options)
            if user == "gm" and command.startswith(("/attack", "/move", "/act", "/init next", "/coupdegrace")):
                said = _said(sent)
                if said:
                    replies.append(said)
        store = h.bot.service.store
        [live] = await store.active_encounters()
        entries = await store.log(live.id, 1000)
        system = get_system(live.encounter.system)
        with_facts = [e for e in entries if e.facts is not None]
        assert with_facts, "no row keeps facts"
        assert all(e.summary == "" for e in with_facts), "a row with facts also stored text"
        for e in with_facts:
            stored = json.loads(e.facts)
            assert all("type" in ev for ev in stored.get("events", [])), e.facts
        rendered = {views.entry_text(e, system) for e in with_facts}
        seen = players_see(live.encounter)  # a reply in the channel is the players' version
        public = [views.log_report("x", [e], system).for_reader(seen).lines[0].split(": ", 1)[1] for e in with_facts]
        public = [render_users(p, lambda u: f"<@{u}>").replace("\n", " · ") for p in public]  # a line of several lines reads as the reply split it
        missing = [r for r in replies if not any(p.startswith(r) for p in public)]
        assert rendered and missing == [], missing[:3]
    finally:
        await h.close()


async def test_a_hidden_combatants_row_stays_hidden_for_players_as_it_was(h: Harness) -> None:
    """A row about the GM's Grak (hidden from players) shows them his condition word of that moment, never his numbers, even after later changes."""
    await started_cdg(h)
    sent = await h.run("gm", "/combatant hp", combatant="Grak", change="-1")
    assert not sent[0].ephemeral, sent[0].text
    store = h.bot.service.store
    [live] = await store.active_encounters()
    row = (await store.log(live.id, 1))[-1]
    facts = LogFacts.model_validate_json(row.facts or "")
    assert "Grak" in facts.hidden and facts.conditions["Grak"] in ("hurt", "badly hurt")
    system = get_system(live.encounter.system)
    public = views.log_report("x", [row], system).for_reader(players_see(live.encounter)).lines[0]
    assert f"now {facts.conditions['Grak']}" in public and "→" not in public
    await h.run("gm", "/combatant hp", combatant="Grak", change="-9")  # later: out of the fight
    public_later = views.log_report("x", [row], system).for_reader(players_see(live.encounter)).lines[0]
    assert public_later == public


async def test_a_row_written_before_facts_still_reads(h: Harness) -> None:
    """An old row with only its text (no facts) shows that text in /log."""
    await started_cdg(h)
    store = h.bot.service.store
    [live] = await store.active_encounters()
    await store.apply(Change(encounter_id=live.id, encounter=live.encounter, interaction_id="old-1", user_id="1",
                             command="/move", summary="Borin moves D5 → D4 (an old row)", dice=[], state_before=None,
                             now=h.bot.service.clock(), undoable=False))
    sent = await h.run("gm", "/log", count="3")
    assert "Borin moves D5 → D4 (an old row)" in sent[0].text


async def test_an_undo_row_keeps_the_facts_of_what_it_took_back(h: Harness) -> None:
    """/undo's row stores the undone command's facts and who gave it; /log renders 'Undid ...' from them."""
    await started_cdg(h)
    await h.run("gm", "/combatant hp", combatant="Grak", change="-1")
    await h.run("gm", "/undo")
    store = h.bot.service.store
    [live] = await store.active_encounters()
    row = (await store.log(live.id, 1))[-1]
    facts = LogFacts.model_validate_json(row.facts or "")
    assert row.summary == "" and facts.undid is not None and facts.undid.command == "/combatant hp"
    sent = await h.run("gm", "/log", count="2")
    assert "Undid /combatant hp by" in sent[0].text and "Grak" in sent[0].text


async def test_log_rows_are_numbered_within_their_encounter(h: Harness) -> None:
    """`/log` numbers an encounter's rows 1, 2, 3... however many other channels log meanwhile, the newest page
    ending at the encounter's count: no gaps for a GM to take for lost or hidden rows."""
    await setup_fight(h, "a")
    await setup_fight(h, "b")
    await h.run("gm", "/combatant edit", "a", name="Grak", at="E3")
    text = (await h.run("gm", "/log", "a", count=2))[0].text
    assert "`#2` " in text and "`#3` " in text and "`#1` " not in text and "· 3 entries" in text
    text = (await h.run("gm", "/log", "a", count=2, page=2))[0].text
    assert "`#1` " in text and "`#2` " not in text
