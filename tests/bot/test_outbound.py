"""The one outbound scheduler: a budget under Discord's global limit, the most urgent first, boards merged."""
from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from bot.offline.harness import Harness, channel_id_of
from bot.outbound import BOARD, FOLLOW_UP, PING, Outbound
from tests.cogs.fights import GRAK


def most_in_one_second(starts: list[float]) -> int:
    """The most request starts in any one-second window."""
    return max(sum(1 for t in starts if s <= t < s + 1.0) for s in starts)


async def test_never_more_than_the_budget_in_any_second() -> None:
    """25 requests at a budget of 10 a second: never more than 10 start in any one second."""
    outbound = Outbound(10)
    starts: list[float] = []

    async def request() -> None:
        starts.append(time.monotonic())

    gated = outbound.gate(request)
    await asyncio.gather(*(gated() for _ in range(25)))
    assert len(starts) == 25 and most_in_one_second(starts) <= 10
    assert starts[-1] - starts[0] >= 2.0


async def test_the_most_urgent_go_first() -> None:
    """With the budget spent, a waiting turn ping goes before board edits that waited longer, DMs between."""
    outbound = Outbound(5)
    order: list[str] = []

    async def one(level: int, name: str) -> None:
        await outbound.wait(level)
        order.append(name)

    await asyncio.gather(*(one(BOARD, "fill") for _ in range(5)))  # the second's budget is spent
    boards = [asyncio.create_task(one(BOARD, f"board{i}")) for i in range(3)]
    await asyncio.sleep(0.01)
    dm = asyncio.create_task(one(FOLLOW_UP, "dm"))
    ping = asyncio.create_task(one(PING, "ping"))
    await asyncio.gather(*boards, dm, ping)
    assert order[5:] == ["ping", "dm", "board0", "board1", "board2"]
    assert outbound.sent == [1, 1, 8]


async def start(h: Harness, channel: str) -> None:
    await h.run("gm", "/encounter start", channel, system="coup-de-grace", name="Fight", map="8x6")


async def test_many_boards_at_once_stay_within_discords_global_limit() -> None:
    """60 channels' boards changing at once: the harness answers 429 to a bot without a budget, none to the bot's."""
    for per_second, refused in ((1000, True), (40, False)):
        h = await Harness.create(outbound_per_second=per_second)
        try:
            channels = [f"c{i}" for i in range(60)]
            for c in channels:
                await start(h, c)
            h.recorder.rate_limited.clear()
            for c in channels:
                h.bot.boards.touch(str(channel_id_of(c)))
            await h.bot.boards.flush()
            edits = [s for s in h.recorder.sent if s.kind == "channel_edit"]
            assert len(edits) == 60
            assert bool(h.recorder.rate_limited) is refused, (per_second, h.recorder.rate_limited[:3])
        finally:
            await h.close()


async def test_a_board_waiting_for_the_budget_is_edited_once_for_many_changes() -> None:
    """Changes to one channel while its board waits for the budget go out as one edit with the newest state."""
    h = await Harness.create(outbound_per_second=5, board_delay=0.01)
    try:
        await start(h, "general")
        await h.bot.boards.flush()
        now = [time.monotonic() + 1.0]  # a second after the start's board post
        h.bot.outbound.clock = lambda: now[0]  # the scheduler's second passes only when told
        for _ in range(5):  # the budget spent on pings: the board waits
            await h.bot.outbound.wait(PING)
        before = len(h.recorder.sent)
        for i in range(5):
            await h.run("gm", "/combatant add", name=f"Grak {i}", sheet=GRAK, side="orcs", at=f"A{i + 1}")
        await asyncio.sleep(0.05)
        assert [s.kind for s in h.recorder.sent[before:]].count("channel_edit") == 0
        now[0] += 1.0
        await h.bot.boards.flush()
        edits = [s for s in h.recorder.sent[before:] if s.kind == "channel_edit"]
        assert len(edits) == 1 and "Grak 4" in edits[0].text
    finally:
        await h.close()


async def test_boards_waiting_for_the_budget_go_out_in_the_order_they_came() -> None:
    """A board that waits for the budget is not passed by one that asks later: no board waits longer than those before it."""
    h = await Harness.create(outbound_per_second=1, board_delay=0.01)
    try:
        await start(h, "first")
        await start(h, "second")
        await h.bot.boards.flush()
        now = [time.monotonic() + 1.0]
        h.bot.outbound.clock = lambda: now[0]  # the scheduler's second passes only when told
        await h.bot.outbound.wait(PING)  # the second's budget is spent
        before = len(h.recorder.sent)
        await h.run("gm", "/combatant add", "first", name="Grak", sheet=GRAK, side="orcs", at="A1")
        await asyncio.sleep(0.05)  # the first channel's board waits for the budget
        now[0] += 1.0
        await h.run("gm", "/combatant add", "second", name="Grak", sheet=GRAK, side="orcs", at="A1")
        await asyncio.sleep(0.05)
        now[0] += 1.0
        await h.bot.boards.flush()
        edits = [s.channel for s in h.recorder.sent[before:] if s.kind == "channel_edit"]
        assert edits == [str(channel_id_of("first")), str(channel_id_of("second"))]
    finally:
        await h.close()


def told_clock(per_second: int) -> tuple[list[float], Outbound, list[float], Callable[[], Awaitable[None]]]:
    """A scheduler whose clock moves only when ``now[0]`` is set, and a gated request that notes when it starts."""
    now = [0.0]
    outbound = Outbound(per_second, clock=lambda: now[0])
    starts: list[float] = []

    async def request() -> None:
        starts.append(now[0])

    return now, outbound, starts, outbound.gate(request)


async def test_a_held_turn_counts_when_its_request_goes_out() -> None:
    """A board's turn taken before it reads its state counts from when its edit is sent: never more than the budget in any second of sends."""
    now, outbound, starts, gated = told_clock(2)
    async with outbound.turn(BOARD):  # taken at 0
        now[0] = 0.9  # the board reads its state meanwhile
        await gated()
    now[0] = 1.0
    await gated()
    third = asyncio.create_task(gated())
    await asyncio.sleep(0.05)
    assert not third.done()  # 0.9 and 1.0 fill the second from 0.9 on
    now[0] = 1.95
    await third
    assert starts == [0.9, 1.0, 1.95] and most_in_one_second(starts) <= 2


async def test_a_turn_counts_from_when_its_task_runs_again() -> None:
    """A turn handed out while the event loop is busy counts from when its request goes out, so a late one never shares a second with the next."""
    now, outbound, starts, gated = told_clock(1)
    await gated()
    late = asyncio.create_task(gated())
    await asyncio.sleep(0.01)
    now[0] = 1.0
    outbound._release()  # its turn comes at 1.0, as the scheduler's timer hands it out ...
    now[0] = 1.9  # ... and its task runs again only at 1.9 (a busy loop)
    await late
    now[0] = 2.05
    next_one = asyncio.create_task(gated())
    await asyncio.sleep(0.01)
    assert not next_one.done()
    now[0] = 2.95
    await next_one
    assert starts == [0.0, 1.9, 2.95] and most_in_one_second(starts) <= 1
