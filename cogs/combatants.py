"""/combatant: add, edit, remove, show."""
from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs._common import (
    Sheet,
    SheetEdit,
    _choices,
    _encounter,
    combatant_autocomplete,
    ctx_of,
    facing_autocomplete,
    reply,
    service_of,
    target_autocomplete,
)
from rules.actions import Add, Edit, Remove
from rules.registry import get_system
from rules.system import MAX_COPIES

SheetT = app_commands.Transform[dict[str, str], Sheet]
SheetEditT = app_commands.Transform[tuple[dict[str, str], dict[str, int]], SheetEdit]


async def side_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The encounter's sides, then the system's default player and GM sides."""
    enc = await _encounter(interaction)
    if enc is None:
        return []
    system = get_system(enc.system)
    sides: dict[str, str] = {}
    for side in (*enc.sides(), system.default_side_player, system.default_side_gm):
        sides.setdefault(side.casefold(), side)
    return _choices(list(sides.values()), current)


@app_commands.guild_only()
class CombatantCog(commands.GroupCog, group_name="combatant", group_description="Add and change combatants"):
    @app_commands.command(name="add", description="Add a combatant (GM, or a player adding their own)")
    @app_commands.describe(
        name="Its name",
        sheet='key=value pairs, e.g. "class=heavy weapons=hammer,shield" (see /help)',
        owner="The player who controls it (default: you, or nobody for the GM)",
        side="Its side or team (matched whatever the case)",
        at='Where it stands: a cell like C4 (a band with no map); with count, a list: "B2 C2", A1-A4, B2:D4',
        facing="Which way it faces: N E S W (hex: N NE SE S SW NW), where the system uses facings",
        count=f"Add this many, named Goblin 1, Goblin 2... (1 to {MAX_COPIES})",
        init="Joining a fight under way: its initiative (left out: the system's rule gives or rolls it)",
    )
    @app_commands.autocomplete(facing=facing_autocomplete, side=side_autocomplete)
    async def add(
        self,
        interaction: discord.Interaction,
        name: str,
        sheet: Optional[SheetT] = None,
        owner: Optional[discord.User] = None,
        side: Optional[str] = None,
        at: Optional[str] = None,
        facing: Optional[str] = None,
        count: Optional[app_commands.Range[int, 1, MAX_COPIES]] = None,
        init: Optional[app_commands.Range[int, -99, 999]] = None,
    ) -> None:
        action = Add(
            name=name, raw_sheet=sheet or {}, owner_id=str(owner.id) if owner else None,
            side=side, at=at, facing=facing, count=count, init=init,
        )
        await reply(interaction, await service_of(interaction).act(ctx_of(interaction), action))

    @app_commands.command(name="edit", description="Change a combatant's sheet, side or place (GM or owner)")
    @app_commands.describe(
        name="Which combatant", sheet='key=value pairs to set, or numbers to change: "hp-7 str+1"',
        side="New side (GM)", at="New cell (GM set-up)", facing="New facing",
    )
    @app_commands.autocomplete(name=combatant_autocomplete, facing=facing_autocomplete, side=side_autocomplete)
    async def edit(
        self,
        interaction: discord.Interaction,
        name: str,
        sheet: Optional[SheetEditT] = None,
        side: Optional[str] = None,
        at: Optional[str] = None,
        facing: Optional[str] = None,
    ) -> None:
        pairs, deltas = sheet or ({}, {})
        action = Edit(actor=name, raw_sheet=pairs, deltas=deltas, side=side, at=at, facing=facing)
        await reply(interaction, await service_of(interaction).act(ctx_of(interaction), action))

    @app_commands.command(name="hp", description="Take or give hit points: damage -7, healing 3 (GM)")
    @app_commands.describe(combatant="Which combatant", change="Hit points to add (negative: damage), e.g. -7")
    @app_commands.autocomplete(combatant=target_autocomplete)
    async def hp(
        self, interaction: discord.Interaction, combatant: str, change: app_commands.Range[int, -1000, 1000],
    ) -> None:
        action = Edit(actor=combatant, hp_change=change)
        await reply(interaction, await service_of(interaction).act(ctx_of(interaction), action))

    @app_commands.command(name="remove", description="Remove a combatant (GM)")
    @app_commands.describe(name="Which combatant")
    @app_commands.autocomplete(name=target_autocomplete)
    async def remove(self, interaction: discord.Interaction, name: str) -> None:
        await reply(interaction, await service_of(interaction).act(ctx_of(interaction), Remove(actor=name)))

    @app_commands.command(name="show", description="Show one combatant's sheet and state")
    @app_commands.describe(name="Which combatant")
    @app_commands.autocomplete(name=target_autocomplete)
    async def show(self, interaction: discord.Interaction, name: str) -> None:
        await reply(interaction, await service_of(interaction).show(ctx_of(interaction), name))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CombatantCog())
