"""Reports to Discord embeds, inside Discord's limits."""
from __future__ import annotations

import discord

from rules.report import Report

__all__ = ["to_embed", "NO_MENTIONS", "mentions_for", "LIMITS", "clip"]

NO_MENTIONS = discord.AllowedMentions.none()
LIMITS = {"title": 256, "description": 4096, "fields": 25, "field_name": 256, "field_value": 1024, "total": 6000, "content": 2000}


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def mentions_for(user_ids: tuple[str, ...] | list[str]) -> discord.AllowedMentions:
    """Allow exactly these users to be pinged (Discord takes at most 100), and nobody else."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(int(u)) for u in list(user_ids)[:100]]
    )


def to_embed(report: Report) -> discord.Embed:
    title = clip(report.title, LIMITS["title"])
    budget = LIMITS["total"] - len(title) - 40
    description = clip("\n".join(report.lines), min(LIMITS["description"], budget))
    budget -= len(description)
    embed = discord.Embed(title=title, description=description or None, colour=report.colour)
    for name, value in report.fields[: LIMITS["fields"]]:
        name = clip(name or "—", LIMITS["field_name"])
        value = clip(value or "—", LIMITS["field_value"])
        if len(name) + len(value) > budget - 20:
            break
        budget -= len(name) + len(value)
        embed.add_field(name=name, value=value, inline=False)
    if report.footer and len(report.footer) < budget:
        embed.set_footer(text=clip(report.footer, 2048))
    return embed
