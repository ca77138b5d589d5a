"""/roll, /log, /undo, /map, /help."""
from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.helptext import help_report
from bot.service import Outcome
from cogs._common import ctx_of, defer, reply, service_of
from cogs.encounter import PUBLIC_HELP, SYSTEM_CHOICES

PART_CHOICES = [
    app_commands.Choice(name="sheet keys", value="sheet"),
    app_commands.Choice(name="/act actions", value="actions"),
    app_commands.Choice(name="encounter options", value="options"),
]


class ToolsCog(commands.Cog):
    @app_commands.command(name="roll", description="Roll dice in d20 notation, e.g. 1d20+5 or 4d6kh3")
    @app_commands.guild_only()
    @app_commands.rename(reason="for")
    @app_commands.describe(
        dice="The expression; `adv` or `dis` after it rolls the d20 twice (1d20+5 adv)",
        reason="What the roll is for (shown, and kept in the encounter's log)",
        adv="Advantage: roll the d20 twice, keep the higher",
        dis="Disadvantage: roll the d20 twice, keep the lower",
        private="Only you and the GM see the result",
    )
    async def roll(
        self, interaction: discord.Interaction, dice: str, reason: Optional[str] = None,
        adv: bool = False, dis: bool = False, private: bool = False,
    ) -> None:
        await reply(interaction, await service_of(interaction).roll(ctx_of(interaction), dice, reason, adv, dis, private))

    @app_commands.command(name="log", description="The last actions of this encounter, with every die")
    @app_commands.describe(count="How many a page holds (1-25)", public=PUBLIC_HELP, page="Which page: 1 is the newest")
    @app_commands.guild_only()
    async def log(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 25] = 10, public: bool = False,
        page: app_commands.Range[int, 1, 100_000] = 1,
    ) -> None:
        await reply(interaction, await service_of(interaction).log(ctx_of(interaction), count, public, page))

    @app_commands.command(name="undo", description="Undo the last action; repeat to go further back (GM)")
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction) -> None:
        await reply(interaction, await service_of(interaction).undo(ctx_of(interaction)))

    @app_commands.command(name="map", description="A picture of the battle map")
    @app_commands.guild_only()
    async def map(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        await reply(interaction, await service_of(interaction).map_image(ctx_of(interaction)))

    @app_commands.command(name="help", description="How to play: commands, or one system's sheet keys and actions")
    @app_commands.guild_only()
    @app_commands.describe(system="A rule system", part="What to show about it")
    @app_commands.choices(system=SYSTEM_CHOICES, part=PART_CHOICES)
    async def help(self, interaction: discord.Interaction, system: Optional[str] = None, part: Optional[str] = None) -> None:
        await reply(interaction, Outcome(help_report(system, part), ephemeral=True))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ToolsCog())
