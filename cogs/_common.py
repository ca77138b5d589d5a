"""What every cog shares: the caller's context, the one reply path, transformers, autocomplete."""
from __future__ import annotations

import io
import itertools
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands

from bot.access import grant_text
from bot.app import Skirmish
from bot.limits import LIMITS, checked
from bot.render import (
    NO_MENTIONS,
    clip,
    discord_text,
    mentions_for,
    to_embed,
    to_messages,
)
from bot.service import Ctx, Outcome, Service
from bot.tree import NotShown, answer, defer, release
from rules.errors import InputError, RulesError
from rules.models import Combatant, Encounter
from rules.registry import get_system
from rules.report import COLOURS, Report
from rules.sheet import parse_options, parse_pairs, parse_sheet_edit

__all__ = [
    "ctx_of",
    "reply",
    "send_question",
    "Sheet",
    "SheetEdit",
    "Options",
    "combatant_autocomplete",
    "target_autocomplete",
    "weapon_autocomplete",
    "action_autocomplete",
    "facing_autocomplete",
    "option_autocomplete",
    "words_autocomplete",
    "service_of",
    "bot_of",
    "defer",
]


def bot_of(interaction: discord.Interaction) -> Skirmish:
    """The bot an interaction came to: these cogs load only into a `Skirmish`."""
    client = interaction.client
    if not isinstance(client, Skirmish):
        raise TypeError(f"Skirmish's cogs run in a Skirmish bot, not in {type(client).__name__}")
    return client


def service_of(interaction: discord.Interaction) -> Service:
    return bot_of(interaction).service


def ctx_of(interaction: discord.Interaction, roll: str | None = None) -> Ctx:
    channel_id = interaction.channel_id
    if channel_id is None:
        raise InputError("Use Skirmish in a server channel or thread.")
    return Ctx(
        channel_id=str(channel_id),
        user_id=str(interaction.user.id),
        guild_id=str(interaction.guild_id) if interaction.guild_id else None,
        interaction_id=str(interaction.id),
        roll=roll,
    )


async def reply(interaction: discord.Interaction, outcome: Outcome) -> None:
    """Send the outcome: the report, its file, a turn-change ping, and a board update. The outcome
    is saved already: a server error at Discord while it goes out is told as such (`NotShown`)."""
    try:
        await _send_outcome(interaction, outcome)
    except discord.DiscordServerError as error:
        if outcome.board_changed and interaction.channel_id is not None:  # the board still shows the change
            bot_of(interaction).boards.touch(str(interaction.channel_id))
        raise NotShown() from error


async def _send_outcome(interaction: discord.Interaction, outcome: Outcome) -> None:
    client = bot_of(interaction)
    lacking = client.access.seen(interaction)
    first, *more = to_messages(outcome.report)
    kwargs: dict[str, Any] = {"embeds": first, "allowed_mentions": NO_MENTIONS}
    if outcome.file is not None:
        name, data = outcome.file
        kwargs["file"] = discord.File(io.BytesIO(data), filename=name)
    view = client.log_view(outcome.log_page) if outcome.log_page is not None and client.log_view is not None else None
    if view is not None:
        kwargs["view"] = view
    await answer(interaction, ephemeral=outcome.ephemeral, **kwargs)
    release(view=kwargs.get("view"))
    for embeds in more:  # a report that shows every line goes on where one message had no room
        await interaction.followup.send(**checked(embeds=embeds, allowed_mentions=NO_MENTIONS), ephemeral=outcome.ephemeral)
    if outcome.private is not None:
        await interaction.followup.send(**checked(embed=to_embed(outcome.private), allowed_mentions=NO_MENTIONS), ephemeral=True)
    if outcome.direct is not None:
        users, report = outcome.direct
        await client.send_direct(users, embed=to_embed(report))
    await send_question(client, outcome)
    ping = outcome.ping
    if ping is not None:
        extra: dict[str, Any] = {}
        if client.turn_view is not None and ping.encounter_id is not None:
            extra["view"] = client.turn_view(ping.encounter_id, ping.turn, ping.has_map)
        await interaction.followup.send(
            **checked(content=clip(discord_text(ping.text), LIMITS["content"]), allowed_mentions=mentions_for(ping.user_ids), **extra)
        )
        release(view=extra.get("view"))
    if outcome.board_changed and interaction.channel_id is not None:
        await _board_or_grant(interaction, str(interaction.channel_id), lacking)


async def send_question(client: Skirmish, outcome: Outcome) -> None:
    """Send the question the command left waiting (``outcome.prompt``: one a player answers by
    button, such as the next opportunity attack of a move), whichever way the command came: typed,
    a button's press in a direct message, or the turn clock."""
    if outcome.prompt is not None and outcome.channel_id is not None and client.send_prompt is not None:
        await client.send_prompt(client, outcome.channel_id, outcome.prompt)


async def _board_or_grant(interaction: discord.Interaction, channel_id: str, lacking: tuple[str, ...]) -> None:
    """Update the channel's board, or, where the bot may not post it (``lacking``: what the
    interaction says the bot lacks there of `BOARD_NEEDS`), tell a GM once (privately) what to
    grant instead of sending what Discord would refuse."""
    client = bot_of(interaction)
    if not lacking:
        client.boards.touch(channel_id)
        return
    enc = await service_of(interaction).encounter(channel_id)
    if enc is not None and enc.is_gm(str(interaction.user.id)) and client.access.tell_once(channel_id):
        report = Report("🔒 The status board needs a permission", [grant_text(list(lacking))], colour=COLOURS["error"])
        await interaction.followup.send(**checked(embed=to_embed(report), allowed_mentions=NO_MENTIONS), ephemeral=True)


class Sheet(app_commands.Transformer):
    """``key=value`` pairs, checked for form before the callback runs."""

    async def transform(self, interaction: discord.Interaction, value: str) -> dict[str, str]:
        return parse_pairs(value)


class SheetEdit(app_commands.Transformer):
    """An edit's ``key=value`` pairs and relative changes (``hp-7 str+1``), checked for form."""

    async def transform(self, interaction: discord.Interaction, value: str) -> tuple[dict[str, str], dict[str, int]]:
        return parse_sheet_edit(value)


class Options(app_commands.Transformer):
    async def transform(self, interaction: discord.Interaction, value: str) -> dict[str, str]:
        return parse_options(value)


def _choices(names: Iterable[str], current: str = "") -> list[app_commands.Choice[str]]:
    """The one way autocomplete choices are made: the first 25 of ``names`` that contain
    ``current``, each with a name of 1 to 100 characters (Discord refuses the whole list for one
    empty or longer name, so such a name is left out, never offered cut)."""
    cur = current.casefold()
    hits = (n for n in names if n.strip() and len(n) <= 100 and (not cur or cur in n.casefold()))
    return [app_commands.Choice(name=n, value=n) for n in itertools.islice(hits, 25)]


async def _encounter(interaction: discord.Interaction) -> Encounter | None:
    if interaction.channel_id is None:
        return None
    return await service_of(interaction).encounter(str(interaction.channel_id))


async def combatant_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The caller's own combatants first (all of them for a GM)."""
    enc = await _encounter(interaction)
    if enc is None:
        return []
    user = str(interaction.user.id)
    is_gm = enc.is_gm(user)
    return _choices((c.name for c in enc.combatants if c.in_fight and (is_gm or c.owner_id == user)), current)


async def target_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    enc = await _encounter(interaction)
    if enc is None:
        return []
    user = str(interaction.user.id)
    names = sorted((c for c in enc.combatants if c.in_fight), key=lambda c: c.owner_id == user)
    return _choices((c.name for c in names), current)


def _actor(enc: Encounter, interaction: discord.Interaction) -> Combatant | None:
    """The combatant the command would act with, by the service's own rule."""
    named = getattr(interaction.namespace, "combatant", None)
    return service_of(interaction).acting(enc, str(interaction.user.id), named)


async def weapon_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    enc = await _encounter(interaction)
    if enc is None:
        return []
    actor = _actor(enc, interaction)
    system = get_system(enc.system)
    if actor is not None:
        names = system.weapons_of(enc, actor)
    else:
        names = sorted({w for c in enc.combatants for w in system.weapons_of(enc, c)})
    return _choices(names, current)


async def facing_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The map's facings, and none where the encounter's system has no facings."""
    enc = await _encounter(interaction)
    grid = enc.grid() if enc is not None and get_system(enc.system).uses_facing else None
    return _choices(list(grid.facings), current) if grid is not None else []


async def action_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    enc = await _encounter(interaction)
    if enc is None:
        return []
    system = get_system(enc.system)
    return _choices(system.actions_for(enc, _actor(enc, interaction)), current)


async def words_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The `options:` words the action declares (`/act`'s chosen action, or the command itself):
    the last word of ``current`` completed; the words before it are kept."""
    enc = await _encounter(interaction)
    command = interaction.command.name if interaction.command is not None else ""
    if enc is None:
        return []
    system = get_system(enc.system)
    table = system.actions if command == "act" else system.commands
    name = getattr(interaction.namespace, "action", None) if command == "act" else command
    try:
        spec = table.get(name)
    except RulesError:
        return []
    head, _, word = current.rpartition(" ")
    prefix = f"{head} " if head else ""
    return _choices([prefix + w for w in spec.words.completions(word)])


async def option_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The encounter's declared options: the last word of ``current`` completed to ``key=`` or,
    for an option with a list of values, to ``key=value``; the words before it are kept."""
    enc = await _encounter(interaction)
    if enc is None:
        return []
    head, _, word = current.rpartition(" ")
    prefix = f"{head} " if head else ""
    key, eq, value = word.partition("=")
    out: list[str] = []
    for option in get_system(enc.system).options:
        if not eq and option.name.startswith(key.lower()):
            out.append(f"{prefix}{option.name}=")
        elif eq and option.name == key.lower():
            values = option.choices or (("yes", "no") if option.kind == "bool" else ())
            out += [f"{prefix}{key}={v}" for v in (*values, "default") if v.startswith(value.lower())]
    return _choices(out)
