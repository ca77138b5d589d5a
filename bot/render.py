"""Reports to Discord embeds, inside Discord's limits."""
from __future__ import annotations

import discord

from rules.hidden import for_reader
from rules.report import Report, render_users

__all__ = ["to_embed", "discord_text", "NO_MENTIONS", "mentions_for", "LIMITS", "clip"]

NO_MENTIONS = discord.AllowedMentions.none()
LIMITS = {"title": 256, "description": 4096, "fields": 25, "field_name": 256, "field_value": 1024, "total": 6000, "content": 2000}


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def discord_text(text: str) -> str:
    """Report text for Discord: each user reference (`rules.report.user_ref`) as a mention
    (which pings nobody unless the message's allowed_mentions name that user), and anything
    still marked with hidden numbers (`rules.hidden.mark`) as players see it."""
    return render_users(for_reader(text, hidden_from_all), lambda user_id: f"<@{user_id}>")


def hidden_from_all(name: str) -> bool:
    """The last step's reading of a marked text: nobody is shown (the GM's own replies are
    picked for the GM before they get here)."""
    return False


def mentions_for(user_ids: tuple[str, ...] | list[str]) -> discord.AllowedMentions:
    """Allow exactly these users to be pinged (Discord takes at most 100), and nobody else."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(int(u)) for u in list(user_ids)[:100]]
    )


def to_embed(report: Report) -> discord.Embed:
    title = clip(discord_text(report.title), LIMITS["title"])
    budget = LIMITS["total"] - len(title) - 40
    description = clip(discord_text("\n".join(report.lines)), min(LIMITS["description"], budget))
    budget -= len(description)
    embed = discord.Embed(title=title, description=description or None, colour=report.colour)
    for name, value in report.fields[: LIMITS["fields"]]:
        name = clip(discord_text(name or "—"), LIMITS["field_name"])
        value = clip(discord_text(value or "—"), LIMITS["field_value"])
        if len(name) + len(value) > budget - 20:
            break
        budget -= len(name) + len(value)
        embed.add_field(name=name, value=value, inline=False)
    footer = discord_text(report.footer or "")
    if footer and len(footer) < budget:
        embed.set_footer(text=clip(footer, 2048))
    return embed
