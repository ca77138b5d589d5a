"""/effect: add, remove, list: effects with durations ("Bless until the end of Grak's turn")."""
from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs._common import (
    _choices,
    _encounter,
    ctx_of,
    reply,
    service_of,
    target_autocomplete,
)
from cogs.encounter import PUBLIC_HELP
from rules.actions import EffectAdd, EffectRemove
from rules.effects import MAX_DURATION
from rules.registry import get_system


async def ends_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The target's turn, the acting combatants' turns, the round and (where rounds have phases) the phase."""
    enc = await _encounter(interaction)
    names: list[str] = []
    phase = ["end of the phase"] if enc is not None and get_system(enc.system).has_phases else []
    target = getattr(interaction.namespace, "target", None)
    if enc is not None:
        found = enc.find(target) if target else None
        if found is not None:
            names.append(found.name)
        names += [n for n in enc.order if n not in names]
    phrases = [f"end of {n}'s turn" for n in names] + [f"start of {n}'s turn" for n in names]
    return _choices(["end of the round", *phrases, *phase], current)


async def mods_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The values the encounter's system lets effects change: the last word of ``current``
    completed to ``value+1`` and ``value-1``; the words before it are kept."""
    enc = await _encounter(interaction)
    if enc is None:
        return []
    head, _, word = current.rpartition(" ")
    prefix = f"{head} " if head else ""
    name = word.rstrip("+-0123456789").lower()
    out = [f"{prefix}{v.name}{sign}1" for v in get_system(enc.system).effect_values if v.name.startswith(name)
           for sign in "+-"]
    return _choices(out)


async def effect_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    enc = await _encounter(interaction)
    return _choices(sorted({e.name for e in enc.effects}) if enc is not None else [], current)


@app_commands.guild_only()
class EffectCog(commands.GroupCog, group_name="effect", group_description="Effects that last a number of turns or rounds"):
    @app_commands.command(name="add", description="Put an effect on a combatant (its owner or the GM) or on the field (GM)")
    @app_commands.describe(
        name='Its name, e.g. "Bless"',
        target="Who is under it (left out: the field, GM only)",
        rounds=f"How many times it counts down before it ends (1 to {MAX_DURATION}; default 1)",
        ends="When it counts down: \"end of Grak's turn\" (default: the end of the target's turn), \"start of Grak's turn\", \"end of the round\"",
        mods='What it changes while it lasts, e.g. "attack+1 defence+1" (GM only once the fight is on)',
    )
    @app_commands.autocomplete(target=target_autocomplete, ends=ends_autocomplete, mods=mods_autocomplete)
    async def add(
        self,
        interaction: discord.Interaction,
        name: str,
        target: Optional[str] = None,
        rounds: app_commands.Range[int, 1, MAX_DURATION] = 1,
        ends: Optional[str] = None,
        mods: Optional[str] = None,
    ) -> None:
        action = EffectAdd(actor=target, effect=name, rounds=rounds, ends=ends, mods=mods)
        await reply(interaction, await service_of(interaction).act(ctx_of(interaction), action))

    @app_commands.command(name="remove", description="End an effect now (its target's owner or the GM)")
    @app_commands.describe(name="Which effect", target="Whose (when several have one of that name)")
    @app_commands.autocomplete(name=effect_autocomplete, target=target_autocomplete)
    async def remove(self, interaction: discord.Interaction, name: str, target: Optional[str] = None) -> None:
        action = EffectRemove(actor=target, effect=name)
        await reply(interaction, await service_of(interaction).act(ctx_of(interaction), action))

    @app_commands.command(name="list", description="The effects running now and when each ends")
    @app_commands.describe(public=PUBLIC_HELP)
    async def list_(self, interaction: discord.Interaction, public: bool = False) -> None:
        await reply(interaction, await service_of(interaction).effects(ctx_of(interaction), public))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(EffectCog())
