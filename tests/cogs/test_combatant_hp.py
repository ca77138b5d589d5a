"""`/combatant hp` and relative sheet edits through the real command path."""
from __future__ import annotations

import pytest

from bot.offline.harness import Harness
from tests.cogs.fights import borins_turn, export, started_cdg


async def test_gm_changes_hit_points_with_one_command(h: Harness) -> None:
    """`/combatant hp combatant:Borin change:-3` downs Borin (3 → 0 HP), logged and undone like any edit."""
    await started_cdg(h)
    assert await h.autocomplete("gm", "/combatant hp", "combatant", "bo") == ["Borin"]
    [answer, *_] = await h.run("gm", "/combatant hp", combatant="Borin", change=-3)
    assert "GM: **Borin** loses 3 HP (3 → 0 HP)" in answer.text and "downed" in answer.text
    borin = next(c for c in (await export(h))["combatants"] if c["name"] == "Borin")
    assert (borin["hp"], borin["status"]) == (0, "downed")
    [log] = await h.run("gm", "/log", count=1)
    assert "/combatant hp" in log.text
    await h.run("gm", "/undo")
    borin = next(c for c in (await export(h))["combatants"] if c["name"] == "Borin")
    assert (borin["hp"], borin["status"]) == (3, "active")


async def test_a_player_cannot_change_hit_points_mid_fight(h: Harness) -> None:
    """Mid-fight an owner's `/combatant hp` or `sheet:"hp+1"` is refused and changes nothing."""
    await started_cdg(h)
    before = await export(h)
    [refusal] = await h.run("bob", "/combatant hp", combatant="Borin", change=1)
    assert refusal.ephemeral and "hit points" in refusal.text
    [refusal] = await h.run("bob", "/combatant edit", name="Borin", sheet="hp+1")
    assert refusal.ephemeral and "hp" in refusal.text
    assert await export(h) == before


async def test_hidden_combatants_hit_points_stay_hidden(h: Harness) -> None:
    """The GM's hidden Grak loses 1 HP: the channel reads a condition word, only the GM sees the numbers."""
    await started_cdg(h)
    sent = await h.run("gm", "/combatant hp", combatant="Grak", change=-1)
    public = [s for s in sent if not s.ephemeral]
    assert public and all("3 → 2" not in s.text for s in public)
    assert any(s.ephemeral and "GM: **Grak** loses 1 HP (3 → 2 HP)" in s.text for s in sent)


async def test_relative_sheet_edit_through_the_command(h: Harness) -> None:
    """`/combatant edit sheet:"hp+2 dv-1"` changes the sheet's values from what they are now (defaults where unset)."""
    await started_cdg(h)
    await h.run("gm", "/combatant edit", name="Borin", sheet="hp+2 dv=4")
    await h.run("gm", "/combatant edit", name="Borin", sheet="dv-1")
    after = next(c for c in (await export(h))["combatants"] if c["name"] == "Borin")
    assert (after["sheet"]["hp"], after["sheet"]["dv"], after["hp"]) == (5, 3, 5)
    [refusal] = await h.run("gm", "/combatant edit", name="Borin", sheet="hp-30")
    assert refusal.ephemeral and "from 1 to 20" in refusal.text


async def test_clearing_boxes_of_an_unconscious_tote_combatant_says_what_to_do_instead(h: Harness) -> None:
    """TOTE: the GM's `/combatant hp` on an unconscious combatant is refused, saying the track
    stays as it is and to `/undo` back to the command that filled it (`/log` shows it); nothing changes."""
    await h.run("gm", "/encounter start", system="tote", name="Ford")
    await h.run("gm", "/combatant add", name="Snaga", side="foes", sheet="rating=1 track=3,2,U weapon=spear:1:pierce")
    [answer, *_] = await h.run("gm", "/combatant hp", combatant="Snaga", change=-3)
    assert "unconscious" in answer.text
    before = await export(h)
    [refusal] = await h.run("gm", "/combatant hp", combatant="Snaga", change=1)
    assert refusal.ephemeral and "Snaga is unconscious: the track stays as it is" in refusal.text
    assert "`/undo` back to the command that filled it (`/log` shows which it was)" in refusal.text
    assert await export(h) == before


async def test_a_tote_combatant_the_gms_hp_knocks_out_leaves_the_order_at_once(h: Harness) -> None:
    """TOTE, "Actions are resolved in Initiative order": a combatant the GM's `/combatant hp`
    leaves unconscious takes no more actions, so `/init order` drops it at once, as after an
    attack, not only after some later change."""
    await h.run("gm", "/encounter start", system="tote", name="Ford")
    for name, side, sheet in (("Borin", "heroes", "hawk=2"), ("Thrain", "heroes", "hawk=1"),
                              ("Grak", "foes", "rating=3"), ("Snaga", "foes", "rating=2")):
        await h.run("gm", "/combatant add", name=name, side=side, sheet=sheet)
    await h.run("gm", "/init roll", roll=",".join(["1"] * 11))
    await h.run("gm", "/combatant hp", combatant="Thrain", change=-6)
    order = (await h.run("gm", "/init order"))[0].text
    assert "**Grak**" in order and "Thrain" not in order
    await h.run("gm", "/combatant edit", name="Borin", sheet="strike=2")
    assert (await h.run("gm", "/init order"))[0].text == order
    [refusal] = await h.run("gm", "/combatant hp", combatant="Thrain", change=1)
    assert "`/undo` back to the command that filled it" in refusal.text


async def test_an_owners_combatant_hp_before_the_fight_changes_the_current_hp_only(h: Harness) -> None:
    """"`/combatant hp` | ... | GM; owner before the fight: in Coup-De-Grace, Knights of Valour and the open system (hit
    points)" (docs/commands.md): bob's Borin (4 of 9) loses 1 to 3 of 9, then 10 more to -7 (downed), read as his
    player's change; an open system player's heal stops at `max_hp`."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Ford", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="B3", sheet="hp=4 max_hp=9 weapons=club:1")
    for change, hp in ((-1, 3), (-10, -7)):
        sent = await h.run("bob", "/combatant hp", combatant="Borin", change=change)
        assert not any(s.ephemeral and "Not done" in s.text for s in sent), sent[0].text
        borin = next(c for c in (await export(h))["combatants"] if c["name"] == "Borin")
        assert (borin["hp"], borin["sheet"]["hp"]) == (hp, 9)
    assert "HP set by its player" in sent[0].text and "GM" not in sent[0].text
    await h.run("gm", "/encounter start", "inn", system="open", name="Inn", map="8x6")
    await h.run("gm", "/combatant add", "inn", name="Ann", owner="@bob", side="a", at="B3", sheet="hp=15 max_hp=20 ac=15")
    [answer, *_] = await h.run("bob", "/combatant hp", "inn", combatant="Ann", change=10)
    assert "**Ann** gains 5 HP (15 → 20 HP; +10 stops at its most), changed by its player" in answer.text


async def test_a_heal_at_full_is_refused_and_leaves_no_log_row_or_undo_step(h: Harness) -> None:
    """"healing stops at the most" (docs/commands.md): the GM's `/combatant hp change:2` on Borin at 3 of 3 HP,
    or `sheet:"hp+2"` in Knights of Valour mid-fight, moves nothing: refused as such, with no log row and no undo
    step (`/undo` then takes back the change before it)."""
    await started_cdg(h)
    await h.run("gm", "/combatant hp", combatant="Grak", change=-1)
    before, [log] = await export(h), await h.run("gm", "/log", count=1)
    [refusal] = await h.run("gm", "/combatant hp", combatant="Borin", change=2)
    assert refusal.ephemeral and refusal.text.endswith("Borin is already at 3/3 HP; nothing changed.")
    assert await export(h) == before and (await h.run("gm", "/log", count=1))[0].text == log.text
    await h.run("gm", "/undo")
    assert next(c for c in (await export(h))["combatants"] if c["name"] == "Grak")["hp"] == 3
    await h.run("gm", "/encounter start", "kov", system="knights-of-valour", name="Ford", map="8x6")
    await h.run("gm", "/combatant add", "kov", name="Borin", owner="@bob", side="a", at="B3", sheet="hp=9 weapons=club:1")
    await h.run("gm", "/combatant add", "kov", name="Grak", side="b", at="F3", sheet="hp=9 weapons=club:1")
    await h.run("gm", "/init roll", "kov")
    before = await export(h, "kov")
    [refusal] = await h.run("gm", "/combatant edit", "kov", name="Borin", sheet="hp+2")
    assert refusal.ephemeral and refusal.text.endswith("Borin is already at 9/9 HP; nothing changed.")
    assert await export(h, "kov") == before


@pytest.mark.parametrize("system, line", [
    ("coup-de-grace", "Thrain hp-1 (now 2)"), ("knights-of-valour", "Thrain hp-1 (now 9)"), ("tote", "Thrain 1 box marked (5 left)"),
    ("open", "Thrain hp-1 (now 8)"),
])
async def test_the_gms_combatant_hp_mid_fight_shows_under_gm_changes(h: Harness, system: str, line: str) -> None:
    """Hit points then "change only by rule actions or by the GM's edit, which the reply and `/log` call a "GM edit"
    and the status board lists under "GM changes"" (docs/commands.md): the GM's `/combatant hp` too, in every
    system that has it (the open system's loss as damage)."""
    if system == "open":
        await h.run("gm", "/encounter start", system="open", name="Inn", map="8x6")
        for name, owner, side, at in (("Thrain", "@tess", "a", "B3"), ("Grak", None, "b", "F3")):
            await h.run("gm", "/combatant add", name=name, side=side, at=at, sheet="hp=9 ac=12",
                        **({"owner": owner} if owner else {}))
        await h.run("gm", "/init roll")
    else:
        await borins_turn(h, system)
    await h.run("gm", "/combatant hp", combatant="Thrain", change=-1)
    board = [s for s in h.recorder.sent if s.kind in ("channel", "channel_edit")][-1]
    assert f"🛠️ GM changes: round 1: {line}" in board.text, board.text


async def test_the_open_systems_combatant_hp_reply_reads_as_every_systems(h: Harness) -> None:
    """`/combatant hp` "changes the current hit points in one step" (docs/commands.md): in the open system, as in
    the others, its reply is the hit-point line (`GM: **Ann** gains 5 HP (4 → 9 HP)`), before and in the fight,
    not a sheet's "updated: hp=… max_hp=…" line."""
    await h.run("gm", "/encounter start", system="open", name="Inn", map="8x6")
    await h.run("gm", "/combatant add", name="Ann", owner="@bob", side="a", at="B3", sheet="hp=4 max_hp=9 ac=12")
    await h.run("gm", "/combatant add", name="Grak", side="b", at="F3", sheet="hp=9 ac=12")
    [answer, *_] = await h.run("gm", "/combatant hp", combatant="Ann", change=5)
    assert answer.text.splitlines()[1:] == ["GM: **Ann** gains 5 HP (4 → 9 HP)"], answer.text
    await h.run("gm", "/init roll")
    await h.run("gm", "/combatant hp", combatant="Ann", change=-3)
    [answer, *_] = await h.run("gm", "/combatant hp", combatant="Ann", change=2)
    assert answer.text.splitlines()[1:] == ["GM: **Ann** gains 2 HP (6 → 8 HP)"], answer.text


@pytest.mark.parametrize("system, line", [
    ("coup-de-grace", "GM: **Thrain** gains 1 HP (2 → 3 HP; +5 stops at its most)"),
    ("knights-of-valour", "GM: **Thrain** gains 1 HP (9 → 10 HP; +5 stops at its most)"),
    ("tote", "GM: **Thrain** clears 1 box of the Injury Track (5 → 6 left; +5 stops at its most)"),
])
async def test_a_heal_cut_at_the_most_says_so(h: Harness, system: str, line: str) -> None:
    """"a heal stops at `max_hp` (the reply says so)" (docs/systems/knights-of-valour.md): the GM's `change:+5` on
    Thrain one short of the most gains 1, and the hit-point line, every system's, says the +5 stopped at the most."""
    await borins_turn(h, system)
    await h.run("gm", "/combatant hp", combatant="Thrain", change=-1)
    [answer, *_] = await h.run("gm", "/combatant hp", combatant="Thrain", change=5)
    assert line in answer.text.splitlines(), answer.text


async def test_a_loss_cut_at_the_least_says_so(h: Harness) -> None:
    """Knights of Valour: "a heal stops at `max_hp` (the reply says so)" (docs/systems/knights-of-valour.md), and
    likewise a loss at the least HP, -99: `change:-200` on Borin at 9 HP reads "−200 stops at its least"."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Ford", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="a", at="B3", sheet="hp=9 weapons=club:1")
    [answer, *_] = await h.run("gm", "/combatant hp", combatant="Borin", change=-200)
    assert "GM: **Borin** loses 108 HP (9 → -99 HP; −200 stops at its least)" in answer.text.splitlines(), answer.text
