"""/move, /attack, /coupdegrace, /act."""
from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs._common import (
    Options,
    action_autocomplete,
    combatant_autocomplete,
    ctx_of,
    facing_autocomplete,
    reply,
    service_of,
    target_autocomplete,
    weapon_autocomplete,
    words_autocomplete,
)
from rules.actions import Act, Action, Attack, CoupDeGrace, Move

OptionsT = app_commands.Transform[dict[str, str], Options]
ROLL = 'Your own natural die results, comma separated, e.g. "15,4"'


async def _run(interaction: discord.Interaction, action: Action, roll: str | None) -> None:
    await reply(interaction, await service_of(interaction).act(ctx_of(interaction, roll), action))


class ActionsCog(commands.Cog):
    @app_commands.command(name="move", description="Move to a cell (cheapest legal path) or along a path, or turn")
    @app_commands.guild_only()
    @app_commands.describe(
        combatant="Who moves (default: yours whose turn it is)",
        to="Destination cell, e.g. D4 (or a range band where there is no map)",
        path='Steps, e.g. "N N E"',
        facing="Facing at the end",
        options="Extra choices the system reads (see /help)",
        roll=ROLL,
    )
    @app_commands.autocomplete(combatant=combatant_autocomplete, facing=facing_autocomplete, options=words_autocomplete)
    async def move(
        self,
        interaction: discord.Interaction,
        combatant: Optional[str] = None,
        to: Optional[str] = None,
        path: Optional[str] = None,
        facing: Optional[str] = None,
        options: Optional[OptionsT] = None,
        roll: Optional[str] = None,
    ) -> None:
        action = Move(actor=combatant, to=to, path=path, facing=facing, options=options or {})
        await _run(interaction, action, roll)

    @app_commands.command(name="attack", description="Attack a target with a weapon")
    @app_commands.guild_only()
    @app_commands.describe(
        combatant="Who attacks (default: yours whose turn it is)",
        target="Who is attacked (an area may be aimed with options instead)",
        weapon="Which weapon",
        roll=ROLL,
        options='Extra choices, e.g. "adv" (see /help)',
    )
    @app_commands.autocomplete(
        combatant=combatant_autocomplete, target=target_autocomplete, weapon=weapon_autocomplete, options=words_autocomplete,
    )
    async def attack(
        self,
        interaction: discord.Interaction,
        target: Optional[str] = None,
        combatant: Optional[str] = None,
        weapon: Optional[str] = None,
        roll: Optional[str] = None,
        options: Optional[OptionsT] = None,
    ) -> None:
        action = Attack(actor=combatant, target=target, weapon=weapon, options=options or {})
        await _run(interaction, action, roll)

    @app_commands.command(name="coupdegrace", description="Finish off a downed foe")
    @app_commands.guild_only()
    @app_commands.describe(
        combatant="Who strikes (default: yours whose turn it is)", target="The downed foe", weapon="Which weapon", roll=ROLL,
        options='The system\'s strike options, as for /attack (e.g. "aim=health")',
    )
    @app_commands.autocomplete(
        combatant=combatant_autocomplete, target=target_autocomplete, weapon=weapon_autocomplete, options=words_autocomplete,
    )
    async def coupdegrace(
        self,
        interaction: discord.Interaction,
        target: str,
        combatant: Optional[str] = None,
        weapon: Optional[str] = None,
        roll: Optional[str] = None,
        options: Optional[OptionsT] = None,
    ) -> None:
        action = CoupDeGrace(actor=combatant, target=target, weapon=weapon, options=options or {})
        await _run(interaction, action, roll)

    @app_commands.command(name="act", description="Any other action of the system (see /help)")
    @app_commands.guild_only()
    @app_commands.describe(
        action="The action",
        combatant="Who acts (default: yours whose turn it is)",
        target="Its target, if any",
        options="Extra choices (see /help)",
        roll=ROLL,
        weapon="The weapon it uses, if any",
        facing="Facing afterwards, where the action allows one",
    )
    @app_commands.autocomplete(
        action=action_autocomplete, combatant=combatant_autocomplete, target=target_autocomplete, weapon=weapon_autocomplete,
        facing=facing_autocomplete, options=words_autocomplete,
    )
    async def act(
        self,
        interaction: discord.Interaction,
        action: str,
        combatant: Optional[str] = None,
        target: Optional[str] = None,
        options: Optional[OptionsT] = None,
        roll: Optional[str] = None,
        weapon: Optional[str] = None,
        facing: Optional[str] = None,
    ) -> None:
        act = Act(
            action=action.strip().lower(), actor=combatant, target=target, options=options or {},
            weapon=weapon, facing=facing,
        )
        await _run(interaction, act, roll)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ActionsCog())
