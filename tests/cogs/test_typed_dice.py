"""Whose dice a player's `roll:` may stand for, and typed dice marked in replies and `/log`, through the real command path."""
from __future__ import annotations

from bot.offline.harness import Harness, Sent, user_id_of
from tests.backends import on_each_backend  # noqa: F401 (the h harness on SQLite and PostgreSQL)
from tests.cogs.fights import borin, export, started_cdg

KNIGHT = "str=1 agi=1 hp=12 armor=chain-mail shield=small weapons=longsword:2"
ORC = "str=2 agi=0 hp=9 size=tall armor=leather weapons=greataxe:2"


async def kov_duel(h: Harness) -> None:
    """Borin (bob's knight) stands next to Grak (the GM's orc); Borin acts first."""
    await h.run("gm", "/encounter start", system="knights-of-valour", map="12x10")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="C4", sheet=KNIGHT)
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="D4", sheet=ORC)
    await h.run("gm", "/init roll")


def reply(sent: list[Sent]) -> Sent:
    return next(s for s in sent if s.kind in ("response", "followup"))


async def test_moving_player_cannot_type_the_enemys_attack_of_opportunity(h: Harness) -> None:
    """A player's `roll:` on a move that provokes an AoO is refused: the enemy's d20 and damage are the bot's."""
    await kov_duel(h)
    sent = await h.run("bob", "/move", path="W W", roll="1")
    assert sent[0].ephemeral and "roll" in sent[0].text
    assert borin(await export(h))["position"] == "C4"
    sent = await h.run("bob", "/move", path="W W")
    text = reply(sent).text
    assert "Attack of Opportunity" in text and "✍" not in text
    assert borin(await export(h))["position"] in ("A4", "C4")


async def test_gm_may_type_the_attack_of_opportunity(h: Harness) -> None:
    """The GM types the enemy's dice for a player's move, and the GM's numbers mark them typed."""
    await kov_duel(h)
    sent = await h.run("gm", "/move", combatant="Borin", path="W W", roll="1")
    text = reply(sent).text
    assert "Attack of Opportunity" in text and "1✍" not in text  # the hidden Grak's die is the GM's
    assert "1✍" in next(s.text for s in sent if s.kind == "followup" and s.ephemeral)
    assert borin(await export(h))["hp"] == 12


async def test_log_shows_who_typed_which_dice(h: Harness) -> None:
    """`/log` tells typed dice (and who typed them) from the bot's dice, and the reply marks typed ones."""
    await started_cdg(h)
    await h.run("bob", "/move", to="E3")
    sent = await h.run("bob", "/attack", target="Grak", weapon="hammer", roll="6")
    assert "6✍" in reply(sent).text and f"<@{user_id_of('bob')}>" in reply(sent).text
    await h.run("gm", "/undo")
    await h.run("bob", "/attack", target="Grak", weapon="hammer")
    lines = (await h.run("gm", "/log", count=4))[0].text.splitlines()
    typed = next(line for line in lines if "> /attack" in line and "undone" in line)
    rolled = [line for line in lines if "> /attack" in line and "undone" not in line][0]
    assert f"typed by <@{user_id_of('bob')}>: 6" in typed
    assert "🎲" in rolled and "typed" not in rolled and "✍" not in rolled
