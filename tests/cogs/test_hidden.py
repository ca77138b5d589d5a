"""Hidden information: players see the GM's combatants' health as a condition word until the GM reveals it."""
from __future__ import annotations

import pytest

from bot.offline.harness import Harness, Sent
from rules.models import Combatant
from rules.system import get_system
from rules.state import state_types
from tests.cogs.fights import export, started_cdg


def system_state(system, **fields):
    """A combatant state of ``system`` with ``fields``."""
    return state_types(system.key)[0](**fields)


def reply(sent: list[Sent]) -> Sent:
    """The reply to the command (not the board or a ping)."""
    return next(s for s in sent if s.kind in ("response", "followup"))


def board(sent: list[Sent]) -> str:
    """The status board as last posted or edited in ``sent``."""
    return [s for s in sent if s.kind in ("channel", "channel_edit") and s.text.startswith("⚔️")][-1].text


async def hit_grak(h: Harness, who: str = "bob") -> list[Sent]:
    """Borin steps next to Grak and hits him with the hammer for 1 (Grak: 3 -> 2 HP, bashed back to G3)."""
    await started_cdg(h)
    await h.run("bob", "/move", to="E3")
    return await h.run(who, "/attack", combatant="Borin", target="Grak", weapon="hammer", roll="5")


async def test_a_players_hit_shows_the_gms_combatant_as_a_condition(h: Harness) -> None:
    """The public reply and the board say Grak is hurt, never his hit points; Borin's stay in numbers."""
    sent = await hit_grak(h)
    text = reply(sent).text
    assert "**Grak** takes 1 damage (now hurt)" in text and "3 → 2" not in text
    shown = board(sent)
    assert "**Grak** · G3 W · hurt" in shown and "2/3 HP" not in shown
    assert "**Borin** · E3 E · 3/3 HP" in shown
    assert not [s for s in sent if s.kind == "followup" and s.ephemeral]


async def test_the_gm_gets_the_numbers_privately(h: Harness) -> None:
    """When the GM resolves the hit, the numbers follow in a reply only the GM sees."""
    sent = await hit_grak(h, who="gm")
    assert "(now hurt)" in reply(sent).text
    private = [s for s in sent if s.kind == "followup" and s.ephemeral]
    assert len(private) == 1 and "**Grak** takes 1 damage (3 → 2)" in private[0].text


async def test_status_is_numbers_for_the_gm_and_conditions_for_players(h: Harness) -> None:
    """`/encounter status`: the GM's private copy has every number; a player's, and a public one, do not."""
    await hit_grak(h)
    assert "**Grak** · G3 W · 2/3 HP" in reply(await h.run("gm", "/encounter status")).text
    assert "**Grak** · G3 W · hurt" in reply(await h.run("bob", "/encounter status")).text
    assert "**Grak** · G3 W · hurt" in reply(await h.run("gm", "/encounter status", public="true")).text


async def test_show_of_a_hidden_combatant_shows_players_only_what_is_public(h: Harness) -> None:
    """`/combatant show Grak` gives a player his place and condition, no sheet; the GM sees the sheet."""
    await hit_grak(h)
    text = reply(await h.run("bob", "/combatant show", name="Grak")).text
    assert "hurt" in text and "Sheet" not in text and "HP" not in text and "axe" not in text
    assert "Sheet: hp=3 class=light weapons=axe" in reply(await h.run("gm", "/combatant show", name="Grak")).text


async def test_reveal_one_then_all_then_hide_again_and_undo(h: Harness) -> None:
    """The GM reveals Grak, hides him again, reveals everyone; `/undo` steps back; players cannot reveal."""
    await hit_grak(h)
    refused = reply(await h.run("bob", "/encounter reveal", combatant="Grak"))
    assert refused.ephemeral and "Only the GM" in refused.text
    sent = await h.run("gm", "/encounter reveal", combatant="Grak")
    assert "Grak's numbers are shown to everyone." in reply(sent).text and "**Grak** · G3 W · 2/3 HP" in board(sent)
    sent = await h.run("gm", "/encounter reveal", combatant="Grak", hide="true")
    assert "**Grak** · G3 W · hurt" in board(sent)
    await h.run("gm", "/encounter reveal")
    assert "2/3 HP" in reply(await h.run("bob", "/encounter status")).text
    await h.run("gm", "/undo")
    assert "**Grak** · G3 W · hurt" in reply(await h.run("bob", "/encounter status")).text
    mine = reply(await h.run("gm", "/encounter reveal", combatant="Borin"))
    assert mine.ephemeral and "players' combatants always show their numbers" in mine.text


async def test_players_export_only_when_nothing_is_hidden(h: Harness) -> None:
    """A player's export would show hidden numbers, so it is the GM's until every combatant is revealed."""
    await started_cdg(h)
    refused = reply(await h.run("bob", "/encounter export"))
    assert refused.ephemeral and "hidden from players" in refused.text
    await h.run("gm", "/encounter reveal")
    assert (await export(h, who="bob"))["settings"]["reveal"] is True


@pytest.mark.parametrize(
    "hp, status, word",
    [(3, "active", "unhurt"), (2, "active", "hurt"), (1, "active", "badly hurt"), (0, "downed", "down"), (-1, "out", "out")],
)
def test_condition_words_follow_the_share_of_health_left(hp: int, status: str, word: str) -> None:
    """unhurt at full health, hurt above half, badly hurt at half or less, then down and out."""
    system = get_system("coup-de-grace")
    c = Combatant(name="Grak", hp=hp, status=status, sheet={"hp": 3})
    c.state = system_state(system, hp_max=3)
    assert system.condition(c) == word
