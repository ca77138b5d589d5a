"""SHARD_COUNT and SHARD_IDS: read and checked at start, an AutoShardedBot over the slice, and
reminders and boards left to the process that runs the guild's shard."""
from __future__ import annotations

from pathlib import Path

import pytest
from discord.ext import commands

from bot.app import create_bot
from bot.offline.harness import GUILD_ID, Clock, Harness, channel_id_of
from bot.settings import SettingsError, load_settings
from data.store import ShardSlice, open_store
from tests.backends import PgServer
from tests.cogs.fights import GRAK, setup_fight
from tests.data.stores import query

HOUR = 3600


@pytest.mark.parametrize(
    ("env", "count", "ids"),
    [
        ({}, None, None),
        ({"SHARD_COUNT": "4"}, 4, None),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,2"}, 4, (0, 2)),
        ({"SHARD_COUNT": "2", "SHARD_IDS": " 1 "}, 2, (1,)),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "2, 0,1"}, 3, (0, 1, 2)),
    ],
)
def test_shard_settings_are_read(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], count: int | None, ids: tuple[int, ...] | None) -> None:
    """SHARD_COUNT is a number and SHARD_IDS a comma list, sorted; both may be left out."""
    for key in ("SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    settings = load_settings(_env_file=None)
    assert (settings.shard_count, settings.shard_ids) == (count, ids)


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be 1 or more"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "SHARD_IDS must be shard numbers from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0;1"}, "SHARD_IDS must be a comma list of shard numbers"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "SHARD_IDS names shard 1 twice"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": ","}, "SHARD_IDS must be a comma list of shard numbers"),
    ],
)
def test_bad_shard_settings_are_one_line_naming_the_setting(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], words: str) -> None:
    """A shard setting that cannot be used is refused in one line that names it."""
    for key in ("SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SettingsError) as caught:
        load_settings(_env_file=None)
    assert words in str(caught.value) and "\n" not in str(caught.value)


async def test_the_bot_runs_the_slice_of_shards_it_is_given(tmp_path: Path) -> None:
    """With shards, the bot is an AutoShardedBot over them and its store claims only their reminders; without, a plain Bot as before."""
    store = await open_store(str(tmp_path / "bot.db"))
    try:
        sharded = create_bot(store, shard_count=4, shard_ids=(1, 3), sync_commands=False)
        assert isinstance(sharded, commands.AutoShardedBot)
        assert (sharded.shard_count, sharded.shard_ids) == (4, [1, 3])
        assert store.shards == ShardSlice(4, (1, 3))
        every = create_bot(store, shard_count=2, sync_commands=False)
        assert isinstance(every, commands.AutoShardedBot)
        assert (every.shard_count, every.shard_ids) == (2, None)
        assert store.shards is None  # all shards: every guild's reminders
        plain = create_bot(store, sync_commands=False)
        assert not isinstance(plain, commands.AutoShardedBot)
        assert plain.shard_count is None and store.shards is None
    finally:
        await store.close()


def test_a_guild_belongs_to_the_shard_discord_sends_it_to() -> None:
    """(guild_id >> 22) % count picks the shard; no guild is shard 0."""
    two = ShardSlice(2, (1,))
    assert two.shard_of(1 << 22) == 1 and two.owns(str(1 << 22))
    assert two.shard_of(2 << 22) == 0 and not two.owns(2 << 22)
    assert two.shard_of(None) == 0 and not two.owns(None)
    assert ShardSlice(17, (7,)).owns(81384788765712384)  # serenity's documented example


#: two guilds on different shards of two: GUILD_ID's and the other one
OTHER_GUILD = next(g for g in range(GUILD_ID + (1 << 22), GUILD_ID + (8 << 22), 1 << 22)
                   if (g >> 22) % 2 != (GUILD_ID >> 22) % 2)


async def test_two_processes_with_disjoint_shards_each_send_only_their_guilds_reminders(pg_server: PgServer) -> None:
    """Two bots on one PostgreSQL database, each running one of two shards: each due reminder goes out once, from the process of its guild's shard."""
    url = await pg_server.fresh_url()
    clock = Clock()
    setup = await Harness.create(url, seed=1, clock=clock)
    try:
        for channel in ("a1", "a2", "b1"):  # Borin's turn, bob's, with a reminder after an hour
            await setup_fight(setup, channel)
            await setup.run("gm", "/encounter settings", channel, reminder_hours="1")
            await setup.run("gm", "/init roll", channel, roll="6,1")
    finally:
        await setup.close()
    # b1 is in the other guild, as a command from there would have stored it
    b1 = str(channel_id_of("b1"))
    await query(url, f"UPDATE encounters SET guild_id = '{OTHER_GUILD}' WHERE channel_id = '{b1}'")
    await query(url, f"UPDATE reminders SET guild_id = '{OTHER_GUILD}' WHERE channel_id = '{b1}'")
    clock.now += 2 * HOUR
    mine = (GUILD_ID >> 22) % 2
    sent: dict[int, list[str]] = {}
    for shard in (mine, 1 - mine):  # one harness at a time: the harness records replies per task
        h = await Harness.create(url, seed=1, clock=clock)
        try:
            h.bot.run_shards(ShardSlice(2, (shard,)))
            sent[shard] = sorted(s.channel for s in await h.reminders())
            assert await h.reminders() == []
        finally:
            await h.close()
    assert sent[mine] == sorted(str(channel_id_of(c)) for c in ("a1", "a2"))
    assert sent[1 - mine] == [b1]


async def test_a_board_is_left_to_the_process_of_its_guilds_shard(h: Harness) -> None:
    """A process that does not run the guild's shard leaves its status board alone; the one that does posts it."""
    h.bot.run_shards(ShardSlice(2, (1 - (GUILD_ID >> 22) % 2,)))
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Bridge", map="8x6")
    sent = await h.run("gm", "/combatant add", name="Grak", side="orcs", at="D3", sheet=GRAK)
    assert [s for s in sent if s.kind.startswith("channel")] == []
    h.bot.run_shards(ShardSlice(2, ((GUILD_ID >> 22) % 2,)))
    sent = await h.run("gm", "/combatant add", name="Snaga", side="orcs", at="D4", sheet=GRAK)
    assert [s.kind for s in sent if s.kind.startswith("channel")] == ["channel"]
