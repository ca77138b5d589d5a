"""`/effect add`, `/effect remove` and `/effect list` through the real command tree."""
from __future__ import annotations

from bot.offline.harness import Harness, Sent
from tests.cogs.fights import borins_turn, export, started_cdg


def reply(sent: list[Sent]) -> Sent:
    """The reply to the command (not the board or a ping)."""
    return next(s for s in sent if s.kind in ("response", "followup"))


def effects(data: dict) -> list[tuple[str, str | None, int]]:
    """(name, target, left) of each effect in an export."""
    return [(e["name"], e["target"], e["left"]) for e in data["effects"]]


async def test_an_owner_adds_an_effect_that_counts_down_at_the_end_of_its_turns(h: Harness) -> None:
    """Bless on Borin for 2 of his turns: shown on the board, 1 left after his turn, gone after the next."""
    await started_cdg(h)
    sent = await h.run("bob", "/effect add", name="Bless", target="Borin", rounds="2")
    assert "Effect **Bless** on **Borin** until the end of Borin's turn (2 times)" in reply(sent).text
    status = reply(await h.run("bob", "/encounter status")).text
    assert "✨ Effects: Bless on Borin, until the end of Borin's turn (2 times)" in status
    await h.run("bob", "/init next", confirm="true")
    assert effects(await export(h)) == [("Bless", "Borin", 1)]
    await h.run("gm", "/init next", confirm="true")
    sent = await h.run("bob", "/init next", confirm="true")
    assert "Effect **Bless** on **Borin** ends" in reply(sent).text
    assert effects(await export(h)) == []


async def test_undo_brings_an_ended_effect_back_exactly(h: Harness) -> None:
    """`/undo` of the turn that ended an effect restores it with its count."""
    await started_cdg(h)
    await h.run("bob", "/effect add", name="Bless", target="Borin")
    await h.run("bob", "/init next", confirm="true")
    assert effects(await export(h)) == []
    await h.run("gm", "/undo")
    assert effects(await export(h)) == [("Bless", "Borin", 1)]


async def test_round_effects_on_the_field_are_the_gms(h: Harness) -> None:
    """Fog for 3 round ends is the GM's to place; a player is told to name a combatant of theirs."""
    await started_cdg(h)
    refused = reply(await h.run("bob", "/effect add", name="Fog", rounds="3", ends="end of the round"))
    assert refused.ephemeral and "Only the GM puts effects on the field" in refused.text
    await h.run("gm", "/effect add", name="Fog", rounds="3", ends="end of the round")
    await h.run("bob", "/init next", confirm="true")
    await h.run("gm", "/init next", confirm="true")  # round 1 ends
    assert effects(await export(h)) == [("Fog", None, 2)]


async def test_a_player_removing_the_gms_field_effect_is_told_it_is_on_the_field(h: Harness) -> None:
    """docs/commands.md: `/effect remove` is "the target's owner (an effect they put on ...), or GM"
    and `/effect add` is "(GM only on the field: no `target`)": bob's removal of the GM's Fog is
    refused, saying it is on the field, and changes nothing."""
    await started_cdg(h)
    await h.run("gm", "/effect add", name="Fog", rounds="3")
    before = await export(h)
    refused = reply(await h.run("bob", "/effect remove", name="Fog"))
    assert refused.ephemeral and "The GM put Fog on the field: it ends by itself, or ask the GM to remove it." in refused.text
    assert "None" not in refused.text
    assert await export(h) == before and effects(before) == [("Fog", None, 3)]


async def test_refusals_change_nothing(h: Harness) -> None:
    """Someone else's combatant, an unreadable `ends`, a duplicate name and an unknown effect are refused with what to do."""
    await started_cdg(h)
    await h.run("gm", "/effect add", name="Haste", target="Grak", ends="start of borin's turn")
    before = await export(h)
    cases = [
        ("bob", {"name": "Curse", "target": "Grak"}, "Grak is not yours"),
        ("gm", {"name": "X", "target": "Grak", "ends": "whenever"}, "`ends` should say when"),
        ("gm", {"name": "haste", "target": "Grak"}, "Grak already has an effect called haste"),
        ("gm", {"name": "Ghost", "target": "Grak", "ends": "end of Nobody's turn"}, "not in this encounter"),
        ("gm", {"name": "Bad*name", "target": "Grak"}, "without them"),
    ]
    for who, options, message in cases:
        r = reply(await h.run(who, "/effect add", **options))
        assert r.ephemeral and message in r.text, r.text
    r = reply(await h.run("gm", "/effect remove", name="Bless"))
    assert "No effect called Bless" in r.text and "Haste" in r.text
    assert await export(h) == before
    assert effects(before) == [("Haste", "Grak", 1)] and before["effects"][0]["of"] == "Borin"


async def test_list_is_private_unless_public_and_remove_ends_it(h: Harness) -> None:
    """`/effect list` is ephemeral by default; the owner removes their own effect."""
    await started_cdg(h)
    r = reply(await h.run("bob", "/effect list"))
    assert r.ephemeral and "No effects running" in r.text
    await h.run("bob", "/effect add", name="Bless", target="Borin", rounds="3")
    r = reply(await h.run("bob", "/effect list", public="true"))
    assert not r.ephemeral and "Bless on Borin, until the end of Borin's turn (3 times)" in r.text
    r = reply(await h.run("bob", "/effect remove", name="bless"))
    assert "Effect **Bless** on **Borin** removed" in r.text
    assert effects(await export(h)) == []


async def test_ends_autocomplete_offers_the_targets_turn_first(h: Harness) -> None:
    """`ends` suggests the round, then the target's turn before the others'."""
    await started_cdg(h)
    choices = await h.autocomplete("gm", "/effect add", "ends", "", target="Grak", name="Haste")
    assert choices[0] == "end of the round" and choices[1] == "end of Grak's turn"


async def test_ends_autocomplete_offers_the_phase_only_where_rounds_have_phases(h: Harness) -> None:
    """`"end of the phase"` is offered "only in the damage grid and War & Combat, whose rounds have phases"
    (docs/commands.md): not in Coup-De-Grace, where it is refused."""
    await started_cdg(h)
    choices = await h.autocomplete("gm", "/effect add", "ends", "", target="Grak", name="Haste")
    assert "end of the round" in choices and "end of the phase" not in choices
    refused = reply(await h.run("gm", "/effect add", name="Haste", target="Grak", ends="end of the phase"))
    assert refused.ephemeral and "Coup-De-Grace has no phases" in refused.text and "end of the round" in refused.text


async def test_ends_autocomplete_offers_the_phase_in_the_damage_grid(h: Harness) -> None:
    """The damage grid's rounds have phases ("A round has 4 phases"): `"end of the phase"` is offered and taken."""
    await borins_turn(h, "damage-grid")
    choices = await h.autocomplete("gm", "/effect add", "ends", "", target="Grak", name="Haste")
    assert "end of the phase" in choices
    await h.run("gm", "/effect add", name="Haste", target="Grak", ends="end of the phase")
    assert [(e["name"], e["ends"]) for e in (await export(h))["effects"]] == [("Haste", "phase_end")]


async def test_removing_the_combatant_whose_turn_times_an_effect_ends_it_and_undo_brings_both_back(h: Harness) -> None:
    """"so does an effect timed by a combatant's turn when that combatant is removed" (docs/commands.md), told in the
    removal's reply; `/undo` brings back the combatant and the effect with its count."""
    await started_cdg(h)
    await h.run("gm", "/combatant add", name="Snaga", side="orcs", at="F5", facing="W", sheet="class=light weapons=axe")
    await h.run("bob", "/effect add", name="Bless", target="Borin", rounds="2", ends="end of Grak's turn")
    sent = await h.run("gm", "/combatant remove", name="Grak")
    assert "Effect **Bless** on **Borin** ends" in reply(sent).text
    assert effects(await export(h)) == []
    await h.run("gm", "/undo")
    data = await export(h)
    assert effects(data) == [("Bless", "Borin", 2)] and "Grak" in [c["name"] for c in data["combatants"]]
