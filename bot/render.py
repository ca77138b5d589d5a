"""Reports to Discord embeds, inside Discord's limits, and never cut silently.

A report longer than an embed holds keeps whole lines: what is left out is counted in a last
line (``… and 12 more lines``, followed by the report's own `Report.more` hint), so nothing
disappears without a word. The report's footer (its hints) is kept before anything else. A
report that shows every line (`Report.whole`) goes on instead in more embeds and messages
(`to_messages`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.limits import LIMITS
from rules.hidden import MARK_START, for_reader
from rules.report import Report, render_users, user_ref

if TYPE_CHECKING:  # pragma: no cover
    from discord.types.embed import Embed as EmbedData

__all__ = ["to_embed", "discord_text", "NO_MENTIONS", "mentions_for", "clip", "fit_lines", "to_messages"]

NO_MENTIONS = discord.AllowedMentions.none()

#: how every user reference (`rules.report.user_ref`) starts
_USER_REF_START = user_ref("")[:-1]

#: a field (its name, and one line or the "and N more" line) is not shown in less than this
_MIN_FIELD = 80
_FIELD_NAME, _FIELD_VALUE = LIMITS["field_name"], LIMITS["field_value"]


def clip(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, marked with "…" where it was cut (for one line)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fit_lines(lines: list[str], limit: int, more: str = "") -> str:
    """The lines that fit in ``limit`` characters, whole, joined; those left out are counted in
    a last line (``… and N more lines`` and ``more``). A first line alone too long is clipped."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        left = len(lines) - i - 1
        note = _more_line(left, more) if left else ""
        cost = len(line) + (1 if kept else 0)
        if used + cost + (len(note) + 1 if note else 0) > limit:
            break
        kept.append(line)
        used += cost
    left = len(lines) - len(kept)
    note = _more_line(left, more)
    if not kept:  # not one whole line fits: the first, clipped, and the count of the others
        room = limit - (len(_more_line(left - 1, more)) + 1 if left > 1 else 0)
        return "\n".join([clip(lines[0], max(room, 1)), *([_more_line(left - 1, more)] if left > 1 else [])])[:limit]
    return "\n".join([*kept, note])


def _more_line(n: int, more: str) -> str:
    return f"… and {n} more line{'s' if n != 1 else ''}" + (f" {more}" if more else "")


def discord_text(text: str) -> str:
    """Report text for Discord: each user reference (`rules.report.user_ref`) as a mention
    (which pings nobody unless the message's allowed_mentions name that user), and anything
    still marked with hidden numbers (`rules.hidden.mark`) as players see it; a text with
    neither is itself."""
    if MARK_START not in text and _USER_REF_START not in text:
        return text
    return render_users(for_reader(text, hidden_from_all), _mention)


def _mention(user_id: str) -> str:
    """A user's mention as Discord writes it."""
    return f"<@{user_id}>"


def hidden_from_all(name: str) -> bool:
    """The last step's reading of a marked text: nobody is shown (the GM's own replies are
    picked for the GM before they get here)."""
    return False


def mentions_for(user_ids: tuple[str, ...] | list[str]) -> discord.AllowedMentions:
    """Allow exactly these users to be pinged (Discord takes at most 100), and nobody else."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(int(u)) for u in list(user_ids)[: LIMITS["mentions"]]]
    )


def _fields(fields: list[tuple[str, str]], budget: int) -> list[tuple[str, str]]:
    """The fields within ``budget`` characters and 25 fields: each keeps whole lines and says
    how many it left out; the fields that find no room are named in a last one."""
    fields = [(clip(discord_text(n or "—"), _FIELD_NAME), discord_text(v or "—")) for n, v in fields]
    if len(fields) <= LIMITS["fields"]:
        total, longest = 0, 0
        for n, v in fields:
            total += len(n) + len(v)
            longest = max(longest, len(v))
        if total <= budget and longest <= _FIELD_VALUE:
            return fields
    last: list[tuple[str, str]] = []
    for shown in range(min(len(fields), LIMITS["fields"]), 0, -1):
        rest = fields[shown:]
        last = [(f"… and {len(rest)} more", clip(", ".join(n for n, _ in rest), 2 * _MIN_FIELD))] if rest else []
        room = budget - sum(len(n) + len(v) for n, v in last)
        if shown + len(last) <= LIMITS["fields"] and room // shown >= _MIN_FIELD:
            break
    out: list[tuple[str, str]] = []
    for i, (name, value) in enumerate(fields[:shown]):
        share = room // (shown - i)
        value = fit_lines(value.split("\n"), min(LIMITS["field_value"], max(share - len(name), 1))) or "—"
        out.append((name, value))
        room -= len(name) + len(value)
    return out + last


class _Embed(discord.Embed):
    """An embed as `to_embed` makes it (`made`): a title, a description, a colour, fields and a
    footer, and none of the parts it never sets (a timestamp, an image, a thumbnail, a video, a
    provider, an author). Its `to_dict`, which discord.py calls to send it, gives the dict
    `discord.Embed.to_dict` gives, key for key and in its order, without asking for each of
    the parts it never holds (an `AttributeError` each)."""

    __slots__ = ()

    @classmethod
    def made(cls, title: str, description: str | None, colour: int | None, fields: list[tuple[str, str]], footer: str) -> "_Embed":
        """The embed ``discord.Embed(title=..., description=..., colour=...)`` makes, with an
        `add_field(..., inline=False)` for each of ``fields`` and `set_footer(text=footer)`
        where there is a footer, its parts set as those calls set them."""
        embed = cls.__new__(cls)
        embed.title, embed.type, embed.url, embed.description, embed._flags = title, "rich", None, description, 0
        embed._colour = None if colour is None else discord.Colour(colour)
        if fields:
            embed._fields = [{"inline": False, "name": name, "value": value} for name, value in fields]
        if footer:
            embed._footer = {"text": footer}
        return embed

    def to_dict(self) -> EmbedData:
        result: dict[str, object] = {}
        # discord.Embed.to_dict reads its parts in ``__slots__``' order (colour, footer, fields,
        # flags), then writes the colour's value as "color" and the plain attributes after them
        try:
            result["footer"] = self._footer
        except AttributeError:
            pass
        try:
            result["fields"] = self._fields
        except AttributeError:
            pass
        result["flags"] = self._flags
        colour = self._colour
        if colour:
            result["color"] = colour.value
        for key, value in (("type", self.type), ("description", self.description), ("url", self.url), ("title", self.title)):
            if value:
                result[key] = value
        return result  # type: ignore[return-value]  # the same keys as discord.Embed.to_dict's EmbedData


def to_embed(report: Report) -> discord.Embed:
    title = clip(discord_text(report.title), LIMITS["title"])
    footer = clip(discord_text(report.footer), LIMITS["footer"]) if report.footer else ""
    budget = LIMITS["total"] - len(title) - len(footer)
    lines, text = report.lines, "\n".join(report.lines)
    if MARK_START in text or _USER_REF_START in text:  # one look at all the lines, not a call for each
        lines = [discord_text(line) for line in lines]
        text = "\n".join(lines)
    wanted = sum(len(n) + len(v) for n, v in report.fields)
    keep_for_fields = min(wanted + 60, budget // 2) if report.fields else 0
    room = min(LIMITS["description"], budget - keep_for_fields)
    description = text if len(text) <= room else fit_lines(lines, room, report.more)  # as fit_lines would: the lines joined
    budget -= len(description)
    return _Embed.made(title, description or None, report.colour, _fields(report.fields, budget), footer)


def to_messages(report: Report) -> list[list[discord.Embed]]:
    """The messages (each a list of embeds) that carry ``report``: one embed (`to_embed`), or for a
    report that shows every line (`Report.whole`) as many embeds of whole lines as its lines need,
    as few messages as hold them (10 embeds and 6,000 characters a message), the title on the
    first and its fields and footer after the last line."""
    if not report.whole:
        return [[to_embed(report)]]
    title = clip(discord_text(report.title), LIMITS["title"])
    lines = [clip(discord_text(line), LIMITS["description"]) for line in report.lines]
    room = LIMITS["description"]
    chunks: list[list[str]] = [[]]
    for line in lines:
        if chunks[-1] and len("\n".join([*chunks[-1], line])) > room:
            chunks.append([])
        chunks[-1].append(line)
    embeds: list[discord.Embed] = [_Embed.made(title if i == 0 else "", "\n".join(chunk) or None, report.colour, [], "") for i, chunk in enumerate(chunks)]
    if report.fields or report.footer:
        embeds.append(to_embed(Report("", [], report.fields, report.colour, report.footer)))
    messages: list[list[discord.Embed]] = [[]]
    used = 0
    for embed in embeds:
        size = len(embed)
        if messages[-1] and (used + size > LIMITS["total"] or len(messages[-1]) == LIMITS["embeds"]):
            messages.append([])
            used = 0
        messages[-1].append(embed)
        used += size
    return messages
