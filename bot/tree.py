"""The command tree with the one error handler of the bot."""
from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.limits import LIMITS, checked
from bot.render import NO_MENTIONS, to_embed
from rules.errors import RulesError
from rules.report import COLOURS, Report

__all__ = ["SkirmishTree", "NotShown", "send_error", "report_error", "defer", "answer", "release", "SentView", "kept", "SPARE_VIEWS"]

log = logging.getLogger("skirmish.errors")


def _rules_error(error: BaseException) -> RulesError | None:
    seen = 0
    cur: BaseException | None = error
    while cur is not None and seen < 5:
        if isinstance(cur, RulesError):
            return cur
        cur = cur.__cause__ or getattr(cur, "original", None)
        seen += 1
    return None


class NotShown(Exception):
    """Discord refused a command's reply, or part of it, with a server error twice: the command's
    outcome was saved before (raised from `discord.DiscordServerError` by the reply path)."""


#: ``interaction.extras`` key: the visibility of a deferral no follow-up has answered yet
_THINKING = "skirmish_thinking"


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Answer within Discord's 3 s window with a "thinking" message, before slow work."""
    if interaction.response.is_done():
        return
    await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    interaction.extras[_THINKING] = "ephemeral" if ephemeral else "public"


async def answer(interaction: discord.Interaction, *, ephemeral: bool = False, **kwargs: Any) -> None:
    """The one way a command's first message goes out: the response, or a follow-up once answered.

    The first follow-up after a deferral takes the deferral's visibility, so an ephemeral
    answer to a public deferral first deletes the "thinking" message and then goes out alone.
    """
    checked(**kwargs)
    if not interaction.response.is_done():
        await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
        return
    thinking = interaction.extras.pop(_THINKING, None)
    if thinking == "public" and ephemeral:
        await interaction.delete_original_response()
    await interaction.followup.send(ephemeral=ephemeral, **kwargs)


async def send_error(interaction: discord.Interaction, text: str) -> None:
    embed = to_embed(Report("⚠️ Not done", [text], colour=COLOURS["error"]))
    await answer(interaction, embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS)


def _name(interaction: discord.Interaction) -> str:
    """The command's name, or a button's custom id, for the log."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: Mapping[str, object] = interaction.data or {}
    return str(data.get("custom_id", "?"))


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """The one answer to a failed command or button press: a rules error's message, a fixed line
    for a check failure, or (logged) a short generic reply; always ephemeral."""
    rules_error = _rules_error(error)
    if rules_error is not None:
        text = rules_error.message
    elif isinstance(error, app_commands.NoPrivateMessage):
        text = "Skirmish runs encounters in server channels and threads, not in direct messages."
    elif isinstance(error, app_commands.CheckFailure):
        text = "You cannot use this command here."
    elif isinstance(error, app_commands.TransformerError):
        text = f"`{error.value}` is not accepted for this option: check the option's description."
    elif isinstance(cause := getattr(error, "original", error), (NotShown, discord.DiscordServerError)):
        # the request was sent twice and given up (bot.outbound logged it); the user is told which side of the change it was
        saved = isinstance(cause, NotShown)
        log.warning("%s: Discord refused %s with a server error; the user is told", _name(interaction),
                    "the reply (the outcome is saved)" if saved else "a request before any change")
        text = ("Discord refused to show this reply, or part of it (a server error at Discord, tried twice). "
                "What the command did is saved: check `/log` before you send it again." if saved else
                "Discord answered with a server error (tried twice): nothing was changed. Try again in a moment.")
    else:
        log.exception("%s failed", _name(interaction), exc_info=error)
        text = "Something went wrong on our side; nothing was changed. Try again, or tell the GM."
    try:
        await send_error(interaction, text)
    except discord.HTTPException:
        log.warning("could not send an error reply", exc_info=True)


#: what a finished interaction caches of itself: its response (which points back at it), its
#: follow-up webhook, its namespace and command
_CACHED_PARTS = ("_cs_response", "_cs_followup", "_cs_namespace", "_cs_command")


#: how many released views of each kind are kept for the next messages' buttons
SPARE_VIEWS = 32
_ROW_ITEMS, _CUSTOM_ID, _LABEL = LIMITS["row_items"], LIMITS["custom_id"], LIMITS["label"]


def kept(view: "SentView", spare: list[Any]) -> bool:
    """Keep ``view`` in ``spare`` for the next message (`SPARE_VIEWS` at most; once however
    often it is released); whether it is kept (now or before)."""
    if any(v is view for v in spare):
        return True
    if len(spare) < SPARE_VIEWS:
        view.timeout = None  # as made: an ephemeral send may have set one
        spare.append(view)
        return True
    return False


class SentView(discord.ui.View):
    """A view of the bot's dynamic items (a press is answered by the item registered for its
    custom id), stopped before it goes out, so that discord.py keeps no view for its message.
    A subclass may keep itself for the next message once `release`d (`released`, `kept`)."""

    def within_limits(self) -> bool:
        """Whether this view is of at most five buttons (the bot's dynamic items among them),
        each with a custom id of 1 to 100 characters and a label within 80: then its components
        are within every limit `bot.limits.problems` checks of them (five items make at most
        five rows of at most five), read where discord.py keeps them, without building them
        (`bot.limits.checked` asks)."""
        children = self.children
        if len(children) > _ROW_ITEMS:
            return False
        for child in children:
            button = child.item if isinstance(child, discord.ui.DynamicItem) else child
            if not isinstance(button, discord.ui.Button):
                return False
            custom_id, label = button.custom_id, button.label
            if not custom_id or len(custom_id) > _CUSTOM_ID or (label is not None and len(label) > _LABEL):
                return False
        return True

    def released(self) -> None:
        """Sent (`release`): emptied."""
        self.clear_items()


def release(
    interaction: discord.Interaction | None = None, view: discord.ui.View | discord.ui.LayoutView | None = None,
) -> None:
    """Drop what a finished interaction caches, and the items of a view that was sent or pressed
    (its buttons answer by their custom ids): they and what they hold (the member, the user, the
    options) are then freed at once. Left as cycles, they would wait for the garbage collector,
    whose pauses stall every channel (17 objects a command before, 1 after); a `SentView` may
    keep itself for the next message (`SentView.released`)."""
    if interaction is not None:
        for part in _CACHED_PARTS:
            try:
                delattr(interaction, part)
            except AttributeError:
                pass
    if view is not None:
        view.stop()
        if isinstance(view, SentView):
            view.released()
        else:
            view.clear_items()


def _guild_only(command: object) -> bool:
    """Whether ``command`` (or a group it is in) is for server channels only."""
    while command is not None:
        if getattr(command, "guild_only", False):
            return True
        command = getattr(command, "parent", None)
    return False


class SkirmishTree(app_commands.CommandTree):
    """Maps the rules' error root to an ephemeral reply with its message; logs anything else."""

    async def _call(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None and _guild_only(interaction.command):
            # Discord hides these outside servers; a client that sends one anyway is told so
            if interaction.type is discord.InteractionType.application_command:
                await report_error(interaction, app_commands.NoPrivateMessage())
            release(interaction)
            return
        await super()._call(interaction)  # errors are answered in there (`on_error`)
        release(interaction)  # not when it raised: discord.py still answers that one with it

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)
