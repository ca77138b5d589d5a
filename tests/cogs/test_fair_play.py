"""Fair play through the real command path: what owners may change mid-fight, whose dice a player types."""
from __future__ import annotations

from bot.offline.harness import Harness
from tests.cogs.fights import BORIN, borin, export, started_cdg


async def test_owner_cannot_raise_stats_mid_fight_and_nothing_changes(h: Harness) -> None:
    """Once the fight has started, an owner's `hp=20 dv=12 ma=30` is refused, naming the keys and the GM."""
    await started_cdg(h)
    before = await export(h)
    sent = await h.run("bob", "/combatant edit", name="Borin", sheet="hp=20 dv=12 ma=30")
    assert sent[0].ephemeral
    assert "hp, dv, ma" in sent[0].text and "GM" in sent[0].text and "race" in sent[0].text
    assert await export(h) == before


async def test_the_refusal_of_an_edit_mid_fight_agrees_with_what_it_names(h: Harness) -> None:
    """One key refused reads `Borin's hp changes now only by rule actions`; several, and hit points, `change`."""
    await started_cdg(h)
    sent = await h.run("bob", "/combatant edit", name="Borin", sheet="hp=20")
    assert "Borin's hp changes now only by rule actions or by the GM's edit" in sent[0].text
    sent = await h.run("bob", "/combatant edit", name="Borin", sheet="hp=20 dv=12")
    assert "Borin's hp, dv change now only by rule actions" in sent[0].text


async def test_owner_cannot_teleport_or_turn_by_edit_mid_fight(h: Harness) -> None:
    """Once the fight has started, an owner's edit with `at:` or `facing:` is refused and changes nothing."""
    await started_cdg(h)
    before = await export(h)
    for options in ({"at": "E3"}, {"facing": "N"}, {"at": "E3", "sheet": "race=dwarf"}):
        sent = await h.run("bob", "/combatant edit", name="Borin", **options)
        assert sent[0].ephemeral and "GM" in sent[0].text, options
    assert await export(h) == before


async def test_owner_may_still_change_cosmetic_keys_mid_fight(h: Harness) -> None:
    """A cosmetic key (Coup-De-Grace `race`) stays the owner's to edit after the fight started."""
    await started_cdg(h)
    sent = await h.run("bob", "/combatant edit", name="Borin", sheet="race='hill dwarf'")
    assert not sent[0].ephemeral and "GM edit" not in sent[0].text
    assert borin(await export(h))["sheet"]["race"] == "hill dwarf"


async def test_owner_edits_freely_before_the_fight(h: Harness) -> None:
    """Before `/init roll`, an owner still edits stats and position."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=BORIN)
    await h.run("bob", "/combatant edit", name="Borin", sheet="hp=5", at="B2")
    data = borin(await export(h))
    assert data["sheet"]["hp"] == 5 and data["position"] == "B2"


async def test_gm_edit_mid_fight_is_shown_and_logged_as_a_gm_edit(h: Harness) -> None:
    """The GM's edit mid-fight applies, and both the reply and the log say `GM edit`."""
    await started_cdg(h)
    sent = await h.run("gm", "/combatant edit", name="Borin", sheet="hp=5", at="B2")
    assert not sent[0].ephemeral and "GM edit" in sent[0].text
    data = borin(await export(h))
    assert data["sheet"]["hp"] == 5 and data["position"] == "B2"
    log = (await h.run("bob", "/log", count=1))[0].text
    assert "/combatant edit" in log and "GM edit" in log


async def test_player_cannot_add_a_combatant_once_the_fight_started(h: Harness) -> None:
    """After `/init roll`, a player's `/combatant add` is refused with the reason; the GM's still works."""
    await started_cdg(h)
    before = await export(h)
    sent = await h.run("carol", "/combatant add", name="Thrain", side="dwarves", at="B5", sheet=BORIN)
    assert sent[0].ephemeral and "started" in sent[0].text and "GM" in sent[0].text
    assert await export(h) == before
    sent = await h.run("gm", "/combatant add", name="Thrain", owner="@carol", side="dwarves", at="B5", sheet=BORIN)
    assert not sent[0].ephemeral
    assert any(c["name"] == "Thrain" for c in (await export(h))["combatants"])


async def test_help_says_which_sheet_keys_are_cosmetic(h: Harness) -> None:
    """`/help` marks the keys an owner may still change mid-fight."""
    text = "\n".join(s.text for s in await h.run("bob", "/help", system="coup-de-grace"))
    race = next(line for line in text.splitlines() if line.startswith("`race`"))
    assert "cosmetic" in race
    assert not any("cosmetic" in line for line in text.splitlines() if line.startswith("`hp`"))


async def test_gm_edit_mid_fight_shows_on_the_board(h: Harness) -> None:
    """A GM's mid-fight change of hit points is shown on the status board as a GM change."""
    await started_cdg(h)
    await h.run("gm", "/combatant edit", name="Borin", sheet="hp=1")
    boards = [s for s in h.recorder.sent if s.kind in ("channel", "channel_edit")]
    assert "GM changes" in boards[-1].text and "Borin hp=1" in boards[-1].text
