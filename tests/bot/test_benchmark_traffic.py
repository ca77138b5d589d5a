"""The mix's traffic beside its commands (issue 25, target 8): the autocomplete requests a client
sends while a command is typed, and the bot-token requests each command sends. Counts only:
timings are the benchmark's to print, never a test's to assert."""
from __future__ import annotations

import io
from pathlib import Path

from bot.offline.bench import mix
from bot.offline.bench.driver import Bench, requests_by_command, run_load
from bot.offline.bench.report import autocomplete_report, requests_report


def _bench(tmp_path: Path) -> Bench:
    made = iter(range(100))

    async def fresh(name: str) -> str:
        return str(tmp_path / f"{name}-{next(made)}.db")
    return Bench(fresh, io.StringIO())


async def test_each_command_with_an_autocompleted_option_is_typed_with_three_autocomplete_requests(tmp_path: Path) -> None:
    """The mix sends 3 autocomplete requests through the real tree before each command with an autocompleted option, every one answered; the commands stay the same."""
    typed = await run_load(_bench(tmp_path), len(mix.SCRIPTS), 2, prefix="typed", maps=False)
    plain = await run_load(_bench(tmp_path / "plain"), len(mix.SCRIPTS), 2, prefix="plain", maps=False, typing=0)
    autocompleted = sum(n for counts in typed.by_system.values() for name, n in counts.items()
                        if name in ("/move", "/attack", "/act", "/combatant edit"))
    assert autocompleted > 0 and len(typed.autocompletes) == mix.TYPING * autocompleted
    assert typed.errors == typed.rejected == 0, typed.examples
    assert typed.commands == plain.commands and plain.autocompletes == []
    assert f"{len(typed.autocompletes):,} autocomplete requests beside its {typed.commands:,} commands" in autocomplete_report([typed])


async def test_the_floor_bots_answer_the_mixs_autocomplete_requests(tmp_path: Path) -> None:
    """The no-op bot answers every autocomplete request of the mix (one choice), so the floors carry the same traffic as the bot."""
    from bot.offline.bench.floors import floor_bot

    r = await run_load(_bench(tmp_path), len(mix.SCRIPTS), 2, prefix="floor", maps=False,
                       bot=lambda h: floor_bot(h, False), label="floor")
    assert len(r.autocompletes) > 0 and r.errors == r.rejected == 0, r.examples


def test_typing_a_command_grows_its_first_autocompleted_option(tmp_path: Path) -> None:
    """The autocomplete payloads of `/attack combatant:Borin target:Grak` type `combatant` as a client does: empty, `B`, `Bor`, focused."""
    import asyncio

    from bot.offline.bench.mix import _harness, _typing

    async def payloads() -> list[dict[str, object]]:
        h = await _harness(str(tmp_path / "typing.db"), 1)
        try:
            return _typing(h, "bob", "/attack", {"combatant": "Borin", "target": "Grak"}, "typing", 3)
        finally:
            await h.close()

    typed = asyncio.run(payloads())
    assert [p["type"] for p in typed] == [4, 4, 4]
    options = [p["data"]["options"] for p in typed]
    assert [o[0]["value"] for o in options] == ["", "B", "Bor"] and all(o[0]["focused"] for o in options)
    assert all(len(o) == 1 for o in options)  # nothing typed after the focused option yet


async def test_bot_token_requests_of_each_command_are_counted(tmp_path: Path) -> None:
    """A write sends its board's edit on the bot token, a read and an autocomplete request send none; the table prints each."""
    by_command = await requests_by_command(_bench(tmp_path), activations=1)
    assert by_command["/attack"] >= 1 and by_command["/encounter status"] == 0
    assert by_command["/attack (autocomplete)"] == 0
    from bot.offline.bench.results import LoadResult

    text, fig = requests_report(by_command, LoadResult("mix", commands=10, requests=5))
    assert "0.50 a command" in text and fig["requests.per_command"] == 0.5 and fig["requests.autocomplete"] == 0
