"""Commands that may take over a second defer first (Discord's 3 s window), and errors stay private."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.offline.harness import Harness, Sent
from tests.cogs.fights import setup_fight


async def calls_of(h: Harness, who: str, command: str, channel: str = "general", /, **options: Any) -> tuple[list[Sent], list[Sent]]:
    """Run a command; return (every call to Discord in order, the messages run() hands back)."""
    start = len(h.recorder.calls)
    sent = await h.run(who, command, channel, **options)
    return [c for c in h.recorder.calls[start:] if not c.kind.startswith("channel")], sent


async def export_file(h: Harness, tmp_path: Path) -> Path:
    path = tmp_path / "encounter.json"
    path.write_bytes((await h.run("gm", "/encounter export"))[0].files[0][1])
    return path


async def test_slow_commands_defer_publicly_then_deliver_their_result(h: Harness, tmp_path: Path) -> None:
    """/map, /encounter export and /encounter import defer, then the result replaces the thinking message."""
    await setup_fight(h)
    path = await export_file(h, tmp_path)
    await h.run("gm", "/init roll")
    await h.run("gm", "/encounter reveal")  # (while anything is hidden the GM's export is private)
    cases = [
        (("bob", "/map"), {}, "map.png"),
        (("gm", "/encounter export"), {}, "encounter.json"),
        (("gm", "/encounter import", "other"), {"file": str(path)}, None),
    ]
    for args, options, file_name in cases:
        calls, sent = await calls_of(h, *args, **options)
        assert [c.kind for c in calls][:2] == ["defer", "followup"], (args, [c.kind for c in calls])
        defer, result = calls[0], calls[1]
        assert not defer.ephemeral and not result.ephemeral and "Not done" not in result.text
        assert result.deferred and result.message_id == defer.message_id
        assert sent[0] is result and all(s.kind != "defer" for s in sent)
        if file_name is not None:
            assert [f[0] for f in result.files] == [file_name]


async def test_an_error_after_a_public_deferral_is_private_and_the_thinking_message_is_deleted(h: Harness, tmp_path: Path) -> None:
    """A bad import after a public deferral: the thinking message goes, the error is ephemeral."""
    await setup_fight(h)
    await h.run("gm", "/init roll")
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"{not json")
    for args, options in [(("gm", "/encounter import", "other"), {"file": str(bad)})]:
        calls, sent = await calls_of(h, *args, **options)
        assert [c.kind for c in calls] == ["defer", "delete", "followup"], (args, [c.kind for c in calls])
        assert calls[1].message_id == calls[0].message_id
        error = calls[2]
        assert error.ephemeral and "Not done" in error.text and not error.deferred
        assert sent == [error]


async def test_move_answers_at_once_on_a_map_or_without_one(h: Harness) -> None:
    """A path search takes milliseconds (the slowest rules step, a far move on a 100x100 map with
    100 combatants, is measured under 20 ms), so /move to: needs no deferral: one response, and a
    refused move is one private message."""
    await setup_fight(h)
    await h.run("gm", "/init roll")
    calls, sent = await calls_of(h, "gm", "/move", combatant="Borin", to="B2")
    assert [c.kind for c in calls][:1] == ["response"] and "defer" not in [c.kind for c in calls]
    assert sent[0] is calls[0] and not calls[0].ephemeral and "Not done" not in calls[0].text
    calls, sent = await calls_of(h, "gm", "/move", combatant="Borin", to="Z99")
    assert [c.kind for c in calls] == ["response"] and calls[0].ephemeral and "Not done" in calls[0].text
    await h.run("gm", "/encounter start", "ford", system="tote", name="Ford")
    await h.run("gm", "/combatant add", "ford", name="Ash", owner="@bob", side="heroes",
                sheet="hawk=3 strike=3 move=3 block=2 weapon=sword:2:slash track=5,4,3,2,1,U")
    calls, sent = await calls_of(h, "bob", "/move", "ford", to="close")
    assert "defer" not in [c.kind for c in calls]
    assert calls[0].kind == "response" and sent[0] is calls[0]  # refused: the fight has not started


async def test_a_deferral_carries_no_message_and_pings_nobody(h: Harness) -> None:
    """The recorded deferral has no content or embeds, so it needs no mentions restricted; run() leaves it out."""
    await setup_fight(h)
    calls, sent = await calls_of(h, "bob", "/map")
    defer = calls[0]
    assert defer.kind == "defer" and defer.content == "" and defer.embeds == [] and defer.files == []
    assert defer not in h.recorder.sent and sent[0].allowed_mentions is not None
