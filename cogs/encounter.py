"""/encounter: start, status, end, export, import, settings, gm, terrain."""
from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import MAX_IMPORT_BYTES
from cogs._common import (
    Options,
    _choices,
    ctx_of,
    defer,
    option_autocomplete,
    reply,
    service_of,
    target_autocomplete,
)
from cogs.buttons import ask
from rules.errors import InputError
from rules.models import MAX_CELL_HEIGHT, TERRAIN_KINDS
from rules.registry import all_systems, get_system

SYSTEM_CHOICES = [app_commands.Choice(name=s.title, value=s.key) for s in all_systems()]
#: the `public` option of the replies that only the caller sees by default
PUBLIC_HELP = "Post it for everyone (default: only you see it)"
#: the `confirm` option of the commands that ask before they drop a fight under way
CONFIRM_HELP = "Skip the Confirm / Cancel question and do it at once"
TERRAIN_CHOICES = [app_commands.Choice(name=k, value=k) for k in TERRAIN_KINDS]


async def _variants(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    key = getattr(interaction.namespace, "system", None)
    systems = [get_system(key)] if key in {c.value for c in SYSTEM_CHOICES} else all_systems()
    return _choices([v for s in systems for v in s.variants], current)


@app_commands.guild_only()
class EncounterCog(commands.GroupCog, group_name="encounter", group_description="Open, show, save and close encounters"):
    @app_commands.command(name="start", description="Open an encounter in this channel; you become its GM")
    @app_commands.describe(
        system="The rule system",
        name="A name for the encounter",
        map='Grid size: "12x10" for squares, "12x10 hex" for hexes, "none" for no map',
        variant="A variant of the rules (see /help)",
    )
    @app_commands.choices(system=SYSTEM_CHOICES)
    @app_commands.autocomplete(variant=_variants)
    async def start(
        self,
        interaction: discord.Interaction,
        system: str,
        name: Optional[str] = None,
        map: Optional[str] = None,
        variant: Optional[str] = None,
    ) -> None:
        await reply(interaction, await service_of(interaction).start(ctx_of(interaction), system, name, map, variant))

    @app_commands.command(name="status", description="Show the encounter: round, whose turn, every combatant")
    @app_commands.describe(public=PUBLIC_HELP)
    async def status(self, interaction: discord.Interaction, public: bool = False) -> None:
        await reply(interaction, await service_of(interaction).status(ctx_of(interaction), public))

    @app_commands.command(name="end", description="Close this channel's encounter (GM; asks first while the fight is on)")
    @app_commands.describe(confirm=CONFIRM_HELP)
    async def end(self, interaction: discord.Interaction, confirm: bool = False) -> None:
        service = service_of(interaction)
        asked = None if confirm else await service.end_question(ctx_of(interaction))
        if asked is None:
            await reply(interaction, await service.end(ctx_of(interaction)))
        else:  # Confirm ends the encounter asked about, or nothing once it has ended
            await ask(interaction, asked.report, lambda pressed: service.end(ctx_of(pressed), asked.encounter_id),
                      lambda pressed: service.check_asked(ctx_of(pressed), asked))

    @app_commands.command(name="export", description="Download the encounter as encounter.json")
    async def export(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        await reply(interaction, await service_of(interaction).export(ctx_of(interaction)))

    @app_commands.command(name="import", description="Load an encounter.json from /encounter export (GM)")
    @app_commands.describe(
        file="The encounter.json file",
        replace="Replace this channel's active encounter with the file (GM; asks first; /undo brings it back)",
        confirm=CONFIRM_HELP,
    )
    async def import_(
        self, interaction: discord.Interaction, file: discord.Attachment, replace: bool = False, confirm: bool = False
    ) -> None:
        if file.size > MAX_IMPORT_BYTES:
            raise InputError(f"That file is over {MAX_IMPORT_BYTES // 1024} KiB: attach an `encounter.json` from `/encounter export`.")
        await defer(interaction)
        raw = await file.read()
        service = service_of(interaction)
        asked = None if confirm else await service.import_question(ctx_of(interaction), raw, replace)
        if asked is None:
            await reply(interaction, await service.import_(ctx_of(interaction), raw, replace))
        else:  # Confirm replaces the encounter asked about, or nothing once it has ended
            await ask(interaction, asked.report, lambda pressed: service.import_(ctx_of(pressed), raw, True, asked.encounter_id),
                      lambda pressed: service.check_asked(ctx_of(pressed), asked))

    @app_commands.command(name="settings", description="Show or change the encounter's settings (GM changes)")
    @app_commands.describe(
        player_rolls="May players type their own die results (roll:) and roll modifiers (atk=, bonus=, adv)?",
        reminder_hours="Nudge a waiting player after this many hours (0: never, else 0.25-720)",
        options='Rule options, "key=value ..." (see /help); "key=default" resets one',
        max_nudges="Nudges per turn (0-10, default 3); then only the GM is told, once",
        deadline_hours="A waiting turn's deadline in hours (0: none, else 1-2160)",
        deadline_policy="At the deadline: pass the turn, hold the action, or only tell the GM",
    )
    @app_commands.autocomplete(options=option_autocomplete)
    @app_commands.choices(deadline_policy=[
        app_commands.Choice(name="pass: the turn ends", value="pass"),
        app_commands.Choice(name="hold: the combatant holds its action", value="hold"),
        app_commands.Choice(name="gm: only tell the GM", value="gm"),
    ])
    async def settings(
        self,
        interaction: discord.Interaction,
        player_rolls: Optional[bool] = None,
        reminder_hours: Optional[float] = None,
        options: Optional[app_commands.Transform[dict[str, str], Options]] = None,
        max_nudges: Optional[int] = None,
        deadline_hours: Optional[float] = None,
        deadline_policy: Optional[str] = None,
    ) -> None:
        service = service_of(interaction)
        ctx = ctx_of(interaction)
        changes = (player_rolls, reminder_hours, max_nudges, deadline_hours, deadline_policy)
        if all(x is None for x in changes) and not options:
            await reply(interaction, await service.show_settings(ctx))
        else:
            await reply(interaction, await service.settings(
                ctx, player_rolls, reminder_hours, options, max_nudges, deadline_hours, deadline_policy
            ))

    @app_commands.command(name="gm", description="Add or remove a co-GM (GM)")
    @app_commands.describe(user="The user", remove="Remove instead of add")
    async def gm(self, interaction: discord.Interaction, user: discord.User, remove: bool = False) -> None:
        await reply(interaction, await service_of(interaction).co_gm(ctx_of(interaction), str(user.id), remove))

    @app_commands.command(name="terrain", description="Mark map cells: walls, difficult ground, heights (GM)")
    @app_commands.describe(cells='Cells, e.g. "D4 D5 E5", a range "A1-A4" or a rectangle "B2:D4"', kind="What is there (left out: each cell keeps its own)", height="Height in feet (0 clears)")
    @app_commands.choices(kind=TERRAIN_CHOICES)
    async def terrain(
        self,
        interaction: discord.Interaction,
        cells: str,
        kind: Optional[str] = None,
        height: Optional[app_commands.Range[int, -MAX_CELL_HEIGHT, MAX_CELL_HEIGHT]] = None,
    ) -> None:
        await reply(interaction, await service_of(interaction).terrain(ctx_of(interaction), cells, kind, height))

    @app_commands.command(name="reveal", description="Show players the numbers of your combatants, or hide them again (GM)")
    @app_commands.describe(combatant="One of your combatants (left out: all of them)", hide="Hide the numbers again")
    @app_commands.autocomplete(combatant=target_autocomplete)
    async def reveal(self, interaction: discord.Interaction, combatant: Optional[str] = None, hide: bool = False) -> None:
        await reply(interaction, await service_of(interaction).reveal(ctx_of(interaction), combatant, hide))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(EncounterCog())
