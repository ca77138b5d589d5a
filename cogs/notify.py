"""/notify: a player's quiet hours and how nudges reach them."""
from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.service.clock import zone_names
from bot.service.views import NOTIFY_MODES
from cogs._common import _choices, ctx_of, reply, service_of

#: time zones offered first (any IANA name is accepted)
COMMON_ZONES = (
    "UTC", "Europe/London", "Europe/Paris", "Europe/Berlin", "Europe/Moscow", "America/New_York",
    "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Sao_Paulo", "Asia/Tokyo",
    "Asia/Shanghai", "Asia/Kolkata", "Australia/Sydney", "Pacific/Auckland",
)


async def zone_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    names = list(COMMON_ZONES)
    if current:
        names += sorted(z for z in zone_names() if current.lower() in z.lower() and z not in COMMON_ZONES)
    return _choices(names, current)


class NotifyCog(commands.Cog):
    @app_commands.command(name="notify", description="Your quiet hours and how turn nudges reach you (every server)")
    @app_commands.guild_only()
    @app_commands.describe(
        quiet='Hours when nudges wait, e.g. "22:00-08:00" ("none" to clear)',
        tz="Your time zone, an IANA name such as Europe/Paris (default UTC)",
        mode="Nudges by a channel mention, a direct message, or both",
        reset="Forget your choices",
    )
    @app_commands.choices(mode=[app_commands.Choice(name=f"{k}: {v}", value=k) for k, v in NOTIFY_MODES.items()])
    @app_commands.autocomplete(tz=zone_autocomplete)
    async def notify(
        self,
        interaction: discord.Interaction,
        quiet: Optional[str] = None,
        tz: Optional[str] = None,
        mode: Optional[str] = None,
        reset: bool = False,
    ) -> None:
        await reply(interaction, await service_of(interaction).reminders.notify(ctx_of(interaction), quiet, tz, mode, reset))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NotifyCog())
