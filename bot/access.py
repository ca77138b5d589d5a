"""What the bot may post in a channel: read from Discord, never guessed by trying.

Every interaction carries the bot's permissions in its channel (``app_permissions``); for posts
the bot makes on its own (the board after a deadline, reminders) the channel's permissions are
computed from the cache when the bot's member is there. A channel post the bot knows would be
refused is not sent (Discord counts refused requests toward a ban of the bot's address), and a
GM who acts in the channel is told once, privately, what to grant.
"""
from __future__ import annotations

import functools

import discord

from rules.text import listing

__all__ = ["ChannelAccess", "BOARD_NEEDS", "TEXT_NEEDS", "grant_text"]

#: what posting or editing the status board needs (an embed)
BOARD_NEEDS = ("view_channel", "send_messages", "embed_links")
#: what a reminder or deadline notice needs (text)
TEXT_NEEDS = ("view_channel", "send_messages")

#: as Discord's settings name them
_NAMES = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
}


@functools.cache
def _in(needs: tuple[str, ...], thread: bool) -> tuple[str, ...]:
    """In a thread, posting takes Send Messages in Threads instead of Send Messages (worked out
    once for each tuple of needs)."""
    return tuple("send_messages_in_threads" if thread and n == "send_messages" else n for n in needs)


@functools.cache
def _bits(needs: tuple[str, ...]) -> int:
    """The permission bits of ``needs`` (`discord.Permissions` names), all set."""
    return discord.Permissions(**dict.fromkeys(needs, True)).value


def _lacking(allowed: discord.Permissions, needs: tuple[str, ...], thread: bool) -> tuple[str, ...]:
    """What ``allowed`` lacks of ``needs`` (in a thread: `_in`), in their order; one look at the
    bits when nothing is lacking."""
    needed = _in(needs, thread)
    bits = _bits(needed)
    return () if allowed.value & bits == bits else tuple(n for n in needed if not getattr(allowed, n))


def grant_text(lacking: list[str]) -> str:
    """What the GM is told: the permissions to grant, by their names in Discord's settings."""
    names = [f"**{_NAMES.get(n, n)}**" for n in lacking]
    return (
        f"I cannot post the status board in this channel: grant Skirmish {listing(names)} here (the channel's "
        "settings → Permissions). Commands still work; the board comes back with the next change once granted."
    )


class ChannelAccess:
    """The channels where the bot lacks a permission it needs, as Discord last said."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        #: channel id -> the permissions it lacks there (only channels lacking some are kept)
        self._lacking: dict[str, tuple[str, ...]] = {}
        #: channels whose GM has been told what to grant
        self._told: set[str] = set()

    def seen(self, interaction: discord.Interaction) -> tuple[str, ...]:
        """Note what an interaction says the bot may do in its channel: what it lacks there of
        `BOARD_NEEDS` (Discord's own word, as fresh as it comes; none outside a server)."""
        if interaction.channel_id is None or interaction.guild_id is None:
            return ()
        channel_id = str(interaction.channel_id)
        thread = isinstance(interaction.channel, discord.Thread)
        lacking = _lacking(interaction.app_permissions, BOARD_NEEDS, thread)
        if lacking:
            self._lacking[channel_id] = lacking
        else:
            self._lacking.pop(channel_id, None)
            self._told.discard(channel_id)
        return lacking

    def missing(self, channel_id: str, needs: tuple[str, ...]) -> list[str]:
        """The permissions of ``needs`` the bot lacks in the channel: from the channel's own
        permissions when the bot's member is cached, else from the last interaction there."""
        channel = self.client.get_channel(int(channel_id))
        guild = getattr(channel, "guild", None)
        me = guild.me if guild is not None else None
        thread = isinstance(channel, discord.Thread)
        if me is not None and hasattr(channel, "permissions_for"):
            allowed = channel.permissions_for(me)  # type: ignore[union-attr]  # hasattr just above: a channel with permissions
            return list(_lacking(allowed, needs, thread))
        wanted = set(needs) | set(_in(needs, True))
        return [n for n in self._lacking.get(channel_id, ()) if n in wanted]

    def refused(self, channel_id: str, needs: tuple[str, ...]) -> None:
        """Discord refused a post (403): nothing more is sent there until an interaction shows
        the permissions granted."""
        channel = self.client.get_channel(int(channel_id))
        self._lacking[channel_id] = _in(needs, isinstance(channel, discord.Thread))

    def tell_once(self, channel_id: str) -> bool:
        """Whether the GM is still to be told what to grant in the channel (true once)."""
        if channel_id in self._told:
            return False
        self._told.add(channel_id)
        return True
