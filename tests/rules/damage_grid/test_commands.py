"""The damage-grid game through the real command path (the offline harness): replies, typed dice, undo."""
from __future__ import annotations

from pathlib import Path

from bot.offline.harness import Harness
from tests.cogs.fights import export


async def duel(h: Harness, reveal: bool = True) -> None:
    """Meena (bob's) faces Hera (the GM's, her numbers shown unless ``reveal`` is false) across one square; the crew activate first."""
    await h.run("gm", "/encounter start", system="damage-grid", map="12x10")
    await h.run("gm", "/combatant add", name="Meena", owner="@bob", side="crew", at="E8", facing="N",
                sheet="body=2 weapons=gravity-saber:2:4:3:melee")
    await h.run("gm", "/combatant add", name="Hera", side="boarders", at="E7", facing="S", sheet="body=2 mind=2")
    await h.run("gm", "/init roll")
    if reveal:
        await h.run("gm", "/encounter reveal")


async def test_a_hidden_targets_grid_shows_players_a_condition(h: Harness) -> None:
    """With Hera's numbers hidden, the reply says she is hit and down, not what her Body stopped nor her Mind's values."""
    await duel(h, reveal=False)
    sent = await h.run("bob", "/attack", target="Hera", weapon="gravity-saber", options="aim=mind", roll="1,3,4,4")
    text = next(s for s in sent if not s.ephemeral).text
    assert "**Hera** is hit (now down)" in text and "Body stops" not in text and "(2 → 0)" not in text
    assert "1✍, 3✍, 4✍, 4✍" in text  # Meena's own dice
    logged = next(s for s in await h.run("gm", "/log") if s.ephemeral).text
    assert "Body stops 2" in logged and "(2 → 0)" in logged


async def test_the_phase_of_a_hidden_sides_turn_is_shown_to_players(h: Harness) -> None:
    """"The round and the phase are everyone's: a turn line naming a hidden combatant keeps them" (docs/commands.md):
    with Hera hidden, her side's turn reads `Round 1 · phase 1/4 · boarders to activate one of: Hera` to players."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "commands.md").read_text(encoding="utf-8").split())
    assert ("The round and the phase are everyone's: a turn line naming a hidden combatant keeps them (`Round 1 · "
            "phase 1/4 · boarders to activate one of: Hera`)") in page
    await duel(h, reveal=False)
    sent = await h.run("bob", "/init next", confirm="true")
    turn = next(s for s in sent if "your turn in" in s.text).text
    assert "Round 1 · phase 1/4 · boarders to activate one of: Hera" in turn
    board = next(s for s in sent if s.text.startswith("⚔️")).text
    assert "Round 1 · phase 1/4 · boarders to activate one of: Hera" in board


async def test_typed_dice_are_marked_after_the_die_as_in_every_system(h: Harness) -> None:
    """"Typed dice are marked ✍ in replies (`🎲 15✍ (d20)`)" (docs/commands.md): Meena's typed dice read
    `🎲 1✍, 3✍, 4✍, 4✍ (4d6)`, the mark after each die and without a variation selector."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "commands.md").read_text(encoding="utf-8").split())
    assert "Typed dice are marked ✍ in replies (`🎲 15✍ (d20)`)" in page
    await duel(h)
    sent = await h.run("bob", "/attack", target="Hera", weapon="gravity-saber", options="aim=mind", roll="1,3,4,4")
    text = next(s for s in sent if not s.ephemeral).text
    assert "🎲 1✍, 3✍, 4✍, 4✍ (4d6)" in text and "\ufe0f" not in text


async def test_an_aimed_attack_shows_every_die_before_and_after_the_flips(h: Harness) -> None:
    """The text's Mind example typed by the player: the reply shows the dice, the flips, Body's stop and the change."""
    await duel(h)
    sent = await h.run("bob", "/attack", target="Hera", weapon="gravity-saber", options="aim=mind", roll="1,3,4,4")
    text = next(s for s in sent if not s.ephemeral).text
    assert "1✍, 3✍, 4✍, 4✍" in text and "3→1, 4→1, 4→1 → 1, 1, 1, 1" in text
    assert "Body stops 2" in text and "(2 → 0)" in text and "inert" in text
    hera = next(c for c in (await export(h))["combatants"] if c["name"] == "Hera")
    assert hera["status"] == "downed" and hera["state"]["values"]["mind"] == 0


async def test_a_refused_attack_changes_nothing_and_undo_restores(h: Harness) -> None:
    """A bad `flips` is refused with what to write; an accepted attack is undone exactly."""
    await duel(h)
    before = await export(h)
    sent = await h.run("bob", "/attack", target="Hera", weapon="gravity-saber", options="flips=9>1", roll="1,3,4,4")
    assert sent[0].ephemeral and "from>to" in sent[0].text
    assert await export(h) == before
    await h.run("bob", "/attack", target="Hera", weapon="gravity-saber", roll="2,2,2,2")
    await h.run("gm", "/undo")
    assert await export(h) == before


async def test_coupdegrace_takes_strike_options(h: Harness) -> None:
    """`/coupdegrace options:"aim=health"` aims the finishing blow at Health, which takes the inert Hera out."""
    await duel(h)
    await h.run("gm", "/combatant add", name="Xul", side="boarders", at="A1", facing="S", sheet="body=2")
    await h.run("bob", "/attack", target="Hera", weapon="gravity-saber", options="aim=mind", roll="1,3,4,4")
    sent = await h.run("bob", "/coupdegrace", target="Hera", weapon="gravity-saber", options="aim=health", roll="2,2,2,2")
    assert not sent[0].ephemeral, sent[0].text
    hera = next(c for c in (await export(h))["combatants"] if c["name"] == "Hera")
    assert hera["status"] == "out"


async def test_init_order_shows_the_sides_alternating_in_the_phase(h: Harness) -> None:
    """"In each phase the sides alternate activating one model" (docs/systems/damage-grid.md): `/init order` reads
    so, the phase, the order of sides and each side's models still to activate, the side to activate marked."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "damage-grid.md").read_text(encoding="utf-8").split())
    assert ("`/init order` reads as the activation order goes: the phase, the order of sides, and each side's models still "
            "to activate in the phase, the side to activate (or the model activating) marked ▶️") in page
    await h.run("gm", "/encounter start", system="damage-grid", map="12x10")
    for name, side, at in (("Meena", "crew", "E8"), ("Vex", "crew", "C8"), ("Xul", "raiders", "H4"), ("Juno", "raiders", "E5")):
        await h.run("gm", "/combatant add", name=name, side=side, at=at, facing="N", sheet="body=1")
    await h.run("gm", "/init roll")
    order = next(s for s in await h.run("gm", "/init order")).text
    assert ("Phase 1/4: the sides alternate activating one model, crew → raiders\n"
            "▶️ **crew**: to activate: Meena, Vex\n"
            "**raiders**: to activate: Xul, Juno") in order
    assert order.count("▶️") == 1
    await h.run("gm", "/move", combatant="Meena", to="E7")
    order = next(s for s in await h.run("gm", "/init order")).text
    assert "▶️ **crew**: Meena activating; to activate: Vex\n**raiders**: to activate: Xul, Juno" in order
    await h.run("gm", "/init next")
    order = next(s for s in await h.run("gm", "/init order")).text
    assert "**crew**: to activate: Vex\n▶️ **raiders**: to activate: Xul, Juno" in order
