"""Setting up faster: `count:` copies, sides matched and autocompleted, one pair of default sides, a telling add reply."""
from __future__ import annotations

import pytest

from bot.offline.harness import Harness, HarnessError, channel_id_of, user_id_of
from tests.cogs.fights import GRAK, export, setup_fight

TOTE_ENEMY = "rating=2"


async def log_rows(h: Harness) -> int:
    """How many rows the channel's encounter has in its log."""
    enc = await h.store.load_active(str(channel_id_of("general")))
    return len(await h.store.log(enc.id, 100))


def placed(data: dict) -> dict[str, str | None]:
    """Each combatant's cell in an export."""
    return {c["name"]: c["position"] for c in data["combatants"]}


async def test_count_adds_numbered_copies_at_the_listed_cells_as_one_action(h: Harness) -> None:
    """`count:5 at:"B1 A4-A5 F5:G5"` adds Goblin 1..5 on those cells in one log row, and one /undo takes all five back."""
    await setup_fight(h)
    rows = await log_rows(h)
    sent = await h.run("gm", "/combatant add", name="Goblin", count=5, at="B1 A4-A5 F5:G5", sheet=GRAK, side="orcs")
    assert not sent[0].ephemeral, sent[0].text
    data = await export(h)
    goblins = {n: p for n, p in placed(data).items() if n.startswith("Goblin")}
    assert goblins == {"Goblin 1": "B1", "Goblin 2": "A4", "Goblin 3": "A5", "Goblin 4": "F5", "Goblin 5": "G5"}
    assert all("**Goblin %d** joins" % i in sent[0].text for i in range(1, 6))
    assert await log_rows(h) == rows + 1
    await h.run("gm", "/undo")
    assert not any(n.startswith("Goblin") for n in placed(await export(h)))


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"count": 3, "at": "A1 A2"}, "3 combatants need 3 cells"),
        ({"count": 21}, "from 1 to 20"),
        ({"count": 3, "at": "A1 A2 D3"}, "D3 is taken by Grak"),
        ({"count": 3, "name": "Borin"}, None),
    ],
)
async def test_a_bad_count_is_refused_and_adds_nobody(h: Harness, options: dict, words: str | None) -> None:
    """Too few cells, a count over 20, one copy's cell taken: refused with a reason, and not one copy added."""
    await setup_fight(h)
    before = await export(h)
    given = {"name": "Goblin", "sheet": GRAK, **options}
    if given["count"] > 20:  # past the option's range: Discord's client never sends it, the bot refuses it all the same
        with pytest.raises(HarnessError, match="option count takes a whole number from 1 to 20"):
            await h.run("gm", "/combatant add", **given)
        payload = h.payload("gm", "/combatant add", {k: str(v) for k, v in {**given, "count": 1}.items()})
        sent = await h.run_payload(h.forged(payload, "count", given["count"]))
    else:
        sent = await h.run("gm", "/combatant add", **given)
    if words is None:  # Borin 1..3 do not clash with Borin: allowed
        assert not sent[0].ephemeral and "**Borin 3** joins" in sent[0].text
        return
    assert sent[0].ephemeral and words in sent[0].text, sent[0].text
    assert await export(h) == before


async def test_count_one_keeps_the_name_as_given(h: Harness) -> None:
    """`count:1` adds the name as typed, without a number."""
    await setup_fight(h)
    await h.run("gm", "/combatant add", name="Snaga", count=1, at="A1", sheet=GRAK)
    assert placed(await export(h))["Snaga"] == "A1"


async def test_count_without_a_map_puts_every_copy_in_the_band(h: Harness) -> None:
    """In TOTE (no map) `at` is a band for all the copies."""
    await h.run("gm", "/encounter start", system="tote", name="Ford")
    await h.run("gm", "/encounter settings", options="distance=far")
    sent = await h.run("gm", "/combatant add", name="Wolf", count=3, at="close", sheet=TOTE_ENEMY)
    assert not sent[0].ephemeral, sent[0].text
    wolves = [c for c in (await export(h))["combatants"] if c["name"].startswith("Wolf")]
    assert [c["name"] for c in wolves] == ["Wolf 1", "Wolf 2", "Wolf 3"]
    assert {c["state"]["band"] for c in wolves} == {"close"}


async def test_a_side_is_matched_whatever_its_case(h: Harness) -> None:
    """`side:Orcs` joins the existing side `orcs`, keeping its first spelling."""
    await setup_fight(h)
    await h.run("gm", "/combatant add", name="Snaga", side="ORCS", at="A1", sheet=GRAK)
    sides = {c["name"]: c["side"] for c in (await export(h))["combatants"]}
    assert sides["Snaga"] == "orcs"


async def test_side_autocomplete_offers_the_encounters_sides_and_the_defaults(h: Harness) -> None:
    """`/combatant add side:` offers the sides already in the encounter, then heroes and foes, filtered by what was typed."""
    await setup_fight(h)
    assert await h.autocomplete("gm", "/combatant add", "side", "") == ["dwarves", "orcs", "heroes", "foes"]
    assert await h.autocomplete("gm", "/combatant add", "side", "OR") == ["orcs"]


@pytest.mark.parametrize(
    ("system", "map_", "sheet"),
    [("coup-de-grace", "8x6", GRAK), ("knights-of-valour", "8x6", "agi=1 hp=5"), ("tote", None, TOTE_ENEMY)],
)
async def test_default_sides_are_heroes_and_foes_in_every_system(h: Harness, system: str, map_: str | None, sheet: str) -> None:
    """A player's combatant added without a side joins `heroes`, the GM's joins `foes`, whatever the system."""
    await h.run("gm", "/encounter start", system=system, **({"map": map_} if map_ else {}))
    await h.run("bob", "/combatant add", name="Ann", sheet=sheet)
    await h.run("gm", "/combatant add", name="Grak", sheet=sheet)
    sides = {c["name"]: c["side"] for c in (await export(h))["combatants"]}
    assert sides == {"Ann": "heroes", "Grak": "foes"}


async def test_add_reply_says_place_facing_side_and_owner_without_pinging(h: Harness) -> None:
    """The add reply names the cell, the facing, the side and the owner (shown as a user, never pinged)."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    sent = await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C3", facing="E", sheet=GRAK)
    text = sent[0].text
    assert "at C3" in text and "facing E" in text and "dwarves" in text, text
    assert f"<@{user_id_of('bob')}>" in text and sent[0].pinged_users() == []
    sent = await h.run("gm", "/combatant add", name="Grak", sheet=GRAK)
    assert "not on the map yet" in sent[0].text and "the GM's" in sent[0].text, sent[0].text


async def test_add_reply_leaves_out_facing_where_the_system_has_none(h: Harness) -> None:
    """In TOTE the reply says the band and side and never a facing."""
    await h.run("gm", "/encounter start", system="tote", name="Ford")
    await h.run("gm", "/encounter settings", options="distance=far")
    sent = await h.run("gm", "/combatant add", name="Wolf", at="close", sheet=TOTE_ENEMY)
    text = sent[0].text
    assert "at close" in text and "foes" in text and "facing" not in text, text


@pytest.mark.parametrize(
    ("name", "words"),
    [("G" * 38, "name of 1 to 37 characters"), ("  ", "name of 1 to 37 characters")],
)
async def test_copies_need_a_name_that_fits_with_its_number(h: Harness, name: str, words: str) -> None:
    """With `count:`, a name too long for its number, or a blank one, is refused, naming the limit."""
    await setup_fight(h)
    before = await export(h)
    sent = await h.run("gm", "/combatant add", name=name, count=12, sheet=GRAK)
    assert sent[0].ephemeral and words in sent[0].text, sent[0].text
    assert await export(h) == before


async def test_edit_side_joins_an_existing_side_whatever_its_case(h: Harness) -> None:
    """`/combatant edit side:DWARVES` moves Grak to the side `dwarves` as first spelt."""
    await setup_fight(h)
    await h.run("gm", "/combatant edit", name="Grak", side="DWARVES")
    sides = {c["name"]: c["side"] for c in (await export(h))["combatants"]}
    assert sides == {"Borin": "dwarves", "Grak": "dwarves"}

