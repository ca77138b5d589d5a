"""/init: roll, set, next, order."""
from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs._common import (
    combatant_autocomplete,
    ctx_of,
    reply,
    service_of,
    target_autocomplete,
)
from cogs.buttons import ask
from rules.actions import InitOrder, InitRoll, InitSet, Next
from rules.models import INITIATIVE_MAX, INITIATIVE_MIN


@app_commands.guild_only()
class InitiativeCog(commands.GroupCog, group_name="init", group_description="Initiative and turns"):
    @app_commands.command(name="roll", description="Roll initiative and start combat, or roll for one combatant (GM)")
    @app_commands.describe(combatant="Only this combatant (e.g. one who joined late)", roll='Your own die results, e.g. "4,5"')
    @app_commands.autocomplete(combatant=target_autocomplete)
    async def roll(self, interaction: discord.Interaction, combatant: Optional[str] = None, roll: Optional[str] = None) -> None:
        action = InitRoll(actor=combatant)
        await reply(interaction, await service_of(interaction).act(ctx_of(interaction, roll), action))

    @app_commands.command(name="set", description="Set a combatant's initiative number (GM)")
    @app_commands.describe(combatant="Which combatant", value="The new initiative")
    @app_commands.autocomplete(combatant=target_autocomplete)
    async def set_(self, interaction: discord.Interaction, combatant: str, value: app_commands.Range[int, INITIATIVE_MIN, INITIATIVE_MAX]) -> None:
        action = InitSet(actor=combatant, value=value)
        await reply(interaction, await service_of(interaction).act(ctx_of(interaction), action))

    @app_commands.command(name="next", description="End your turn or activation (owner or GM)")
    @app_commands.describe(
        combatant="Whose turn ends (default: the one acting); the GM naming another passes it, or is told why not",
        roll='Die results for what the turn change rolls (round-start checks, initiative...), e.g. "4,5"',
        confirm="Skip the question asked before ending a turn in which nothing was done yet",
    )
    @app_commands.autocomplete(combatant=combatant_autocomplete)
    async def next_(
        self, interaction: discord.Interaction, combatant: Optional[str] = None, roll: Optional[str] = None, confirm: bool = False
    ) -> None:
        service, action = service_of(interaction), Next(actor=combatant)
        asked = None if confirm else await service.next_question(ctx_of(interaction, roll), action)
        if asked is None:
            await reply(interaction, await service.act(ctx_of(interaction, roll), action))
        else:  # Confirm ends the turn asked about, or nothing once it has passed
            enc, turn = asked.encounter_id, asked.turn
            await ask(interaction, asked.report, lambda pressed: service.end_turn(ctx_of(pressed, roll), enc, turn, action),
                      lambda pressed: service.check_asked(ctx_of(pressed), asked))

    @app_commands.command(name="order", description="Show the initiative order; the GM may reorder tied combatants")
    @app_commands.describe(set='GM: the tied combatants in the order they act, e.g. "Alda, Bren"')
    async def order(self, interaction: discord.Interaction, set: Optional[str] = None) -> None:
        service = service_of(interaction)
        ctx = ctx_of(interaction)
        if set:
            await reply(interaction, await service.act(ctx, InitOrder(order=set)))
        else:
            await reply(interaction, await service.order(ctx))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(InitiativeCog())
