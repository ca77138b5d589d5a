"""`/encounter end`'s summary, the ended fight's `/log` and export, and private status and log replies."""
from __future__ import annotations

import json
from pathlib import Path

from bot.offline.harness import Harness, Sent
from tests.backends import on_each_backend  # noqa: F401 (the h harness on SQLite and PostgreSQL)
from tests.cogs.fights import GRAK, export, started_cdg


def reply(sent: list[Sent]) -> Sent:
    """The reply to the command (not the board or a ping)."""
    return next(s for s in sent if s.kind in ("response", "followup"))


async def fallen_fight(h: Harness, tmp_path: Path) -> dict:
    """A started fight in round 2 where Grak is out, Snaga downed and the dwarves have won."""
    await started_cdg(h)
    await h.run("gm", "/combatant add", name="Snaga", side="orcs", at="F5", facing="W", sheet=GRAK)
    data = await export(h, who="gm")
    for c in data["combatants"]:
        if c["name"] == "Grak":
            c.update(status="out", hp=0, facing=None)
        if c["name"] == "Snaga":
            c.update(status="downed", hp=0, facing=None)
    data.update(round=2, winner="dwarves")
    path = tmp_path / "fallen.json"
    path.write_text(json.dumps(data))
    await h.run("gm", "/encounter import", file=str(path), replace="true", confirm="true")
    return await export(h, who="gm")


async def test_end_posts_rounds_winner_the_fallen_and_the_log_length(h: Harness, tmp_path: Path) -> None:
    """`/encounter end` replies with the rounds played, the winner, who fell by side and how many actions were logged."""
    await fallen_fight(h, tmp_path)
    store = h.bot.service.store
    [live] = await store.active_encounters()
    logged = len(await store.log(live.id, 1000))
    sent = await h.run("gm", "/encounter end", confirm="true")
    text = reply(sent).text
    assert not reply(sent).ephemeral
    assert "Rounds played: **2**" in text
    assert "Winner: **dwarves**" in text
    assert "orcs: Grak (out), Snaga (downed)" in text
    assert "dwarves" in text and "Borin" not in text.split("Fell:")[1]
    assert f"Actions logged: **{logged}**" in text


async def test_end_before_anyone_won_says_no_winner(h: Harness) -> None:
    """docs/commands.md: "`/encounter end` posts a summary: rounds played, the winner (or none)": the
    fight has ended, so nobody will win it: "Winner: none", not "none yet"; and nobody fell."""
    await started_cdg(h)
    text = reply(await h.run("gm", "/encounter end", confirm="true")).text
    assert "Winner: none\n" in text + "\n" and "none yet" not in text and "Fell: nobody" in text


async def test_ended_fights_log_and_export_work_until_a_new_encounter(h: Harness, tmp_path: Path) -> None:
    """After the end, `/log` says the fight ended and export gives its final state; other commands say the fight has
    ended; a new start replaces both."""
    final = await fallen_fight(h, tmp_path)
    await h.run("gm", "/encounter end", confirm="true")
    log = reply(await h.run("bob", "/log")).text
    assert "ended" in log and "/encounter import" in log and "/encounter end" in log
    assert await export(h) == final
    status = reply(await h.run("bob", "/encounter status"))
    assert status.ephemeral and "fight has ended" in status.text and "/encounter start" in status.text
    await h.run("gm", "/encounter start", system="tote", name="Ford")
    log = reply(await h.run("bob", "/log")).text
    assert "Ford" in log and "ended" not in log and "/encounter import" not in log
    assert (await export(h))["name"] == "Ford"


async def test_log_and_export_elsewhere_still_find_no_encounter(h: Harness) -> None:
    """A channel that never had an encounter still says so for `/log` and export, even after another channel's ended."""
    await started_cdg(h)
    await h.run("gm", "/encounter end", confirm="true")
    for command in ("/log", "/encounter export"):
        sent = reply(await h.run("bob", command, "tavern"))
        assert sent.ephemeral and "no encounter" in sent.text and not sent.files


async def test_status_and_log_are_ephemeral_unless_public(h: Harness) -> None:
    """`/encounter status` and `/log` answer only the caller by default, and everyone with `public:true`."""
    await started_cdg(h)
    for command in ("/encounter status", "/log"):
        private = reply(await h.run("bob", command))
        assert private.ephemeral and "Bridge" in private.text
        shared = reply(await h.run("bob", command, public="true"))
        assert not shared.ephemeral and "Bridge" in shared.text
