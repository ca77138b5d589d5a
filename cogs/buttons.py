"""Buttons: End turn and Map on a turn-change message, the GM's Undo on the status board,
◀ Older and Newer ▶ under a `/log` page, Confirm / Cancel on the questions `/encounter end`,
`/encounter import replace:true` and `/init next` ask, and the choices of a question the rules
ask one player (a target's flips), sent by direct message.

The turn, board and log-page buttons are persistent `ui.DynamicItem`s: their ``custom_id``
carries the encounter id (and the turn, as `bot.service.core.turn_tag`), so they work after a
restart and a stale one is recognised. Each press goes through the same service method as the slash
command (log, dedup of the interaction id, undo, board update, the turn ping).

A question's answer is held in memory for `QUESTION_SECONDS`; its buttons carry a random token,
so a press after a restart or after the question expired says so and changes nothing.
"""
from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord
from discord import ui

from bot.access import TEXT_NEEDS
from bot.limits import LIMITS, checked
from bot.render import NO_MENTIONS, clip, discord_text, mentions_for, to_embed
from bot.service import Ctx, LogPage, Outcome
from bot.tree import SentView, answer, kept, release, report_error
from cogs._common import bot_of, ctx_of, defer, reply, send_question, service_of
from rules.errors import NotAllowed
from rules.report import COLOURS, Report, user_ref
from rules.system import Prompt

if TYPE_CHECKING:  # pragma: no cover
    from bot.app import Skirmish

__all__ = [
    "EndTurnButton", "MapButton", "UndoButton", "LogPageButton", "AnswerButton", "ChoiceButton", "log_view", "turn_view", "board_view", "ask", "Questions",
    "QUESTION_SECONDS", "DYNAMIC_ITEMS", "prompt_view", "send_prompt", "post_outcome",
]

log = logging.getLogger(__name__)

#: how long a question waits for its Confirm or Cancel
QUESTION_SECONDS = 600


async def _pressed(
    interaction: discord.Interaction, item: ui.DynamicItem[Any], run: Callable[[], Awaitable[Outcome]], *, slow: bool = False
) -> None:
    """Run a press of ``item`` through the service and reply as the slash command does; errors
    are ephemeral."""
    try:
        if slow:
            await defer(interaction, ephemeral=True)
        await reply(interaction, await run())
    except Exception as exc:
        await report_error(interaction, exc)
    finally:
        release(interaction, item.view)


class EndTurnButton(ui.DynamicItem[ui.Button[ui.View]], template=r"skirmish:end:(?P<enc>\d+):(?P<turn>r\d+\.[0-9a-f]+)"):
    """End turn: the `/init next` of the combatant whose turn it is (its owner or a GM)."""

    def __init__(self, encounter_id: int, turn: str) -> None:
        super().__init__(ui.Button(label="End turn", style=discord.ButtonStyle.primary, custom_id=self.custom_id_of(encounter_id, turn)))
        self.encounter_id, self.turn = encounter_id, turn

    @staticmethod
    def custom_id_of(encounter_id: int, turn: str) -> str:
        return f"skirmish:end:{encounter_id}:{turn}"

    def aim(self, encounter_id: int, turn: str) -> None:
        """This button as `EndTurnButton(encounter_id, turn)` makes it (a kept message's: `_Buttons`)."""
        self.item.custom_id = self.custom_id_of(encounter_id, turn)
        self.encounter_id, self.turn = encounter_id, turn

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /) -> "EndTurnButton":
        return cls(int(match["enc"]), match["turn"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _pressed(interaction, self, lambda: service_of(interaction).end_turn(ctx_of(interaction), self.encounter_id, self.turn))


class _EncounterButton(ui.DynamicItem[ui.Button[ui.View]], template=r"skirmish:(?P<kind>[a-z]+):(?P<enc>\d+)"):
    """A button of one encounter, its custom id ``skirmish:KIND:ENCOUNTER`` (Map, Undo: each
    registers a template of its own kind)."""

    KIND: ClassVar[str]
    LABEL: ClassVar[str]
    STYLE: ClassVar[discord.ButtonStyle]

    def __init__(self, encounter_id: int) -> None:
        super().__init__(ui.Button(label=self.LABEL, style=self.STYLE, custom_id=self.custom_id_of(encounter_id)))
        self.encounter_id = encounter_id

    @classmethod
    def custom_id_of(cls, encounter_id: int) -> str:
        return f"skirmish:{cls.KIND}:{encounter_id}"

    def aim(self, encounter_id: int, turn: str = "") -> None:
        """This button as the class makes it for ``encounter_id`` (as `EndTurnButton.aim`)."""
        self.item.custom_id = self.custom_id_of(encounter_id)
        self.encounter_id = encounter_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /) -> Self:
        return cls(int(match["enc"]))


class MapButton(_EncounterButton, template=r"skirmish:map:(?P<enc>\d+)"):
    """Map: the `/map` picture, shown only to whoever pressed."""

    KIND, LABEL, STYLE = "map", "Map", discord.ButtonStyle.secondary

    async def callback(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        await _pressed(interaction, self, lambda: service.map_image(ctx_of(interaction), self.encounter_id, ephemeral=True), slow=True)


class UndoButton(_EncounterButton, template=r"skirmish:undo:(?P<enc>\d+)"):
    """Undo, on the status board: the GM's `/undo`."""

    KIND, LABEL, STYLE = "undo", "Undo", discord.ButtonStyle.danger

    async def callback(self, interaction: discord.Interaction) -> None:
        await _pressed(interaction, self, lambda: service_of(interaction).undo(ctx_of(interaction), self.encounter_id))


#: a button a kept view aims at each message's encounter (and turn)
_Aimed = EndTurnButton | MapButton | UndoButton


class _Buttons(SentView):
    """A turn message's or the status board's view (`bot.tree.SentView`) kept with its buttons
    once released (`SPARE_VIEWS` of each ``kind``: a turn's with and without Map, the board's),
    each button aimed at the next message's encounter and turn (`EndTurnButton.aim`) rather
    than made again (a `DynamicItem` and its `ui.Button` each, and the view)."""

    def __init__(self, kind: str, *items: _Aimed) -> None:
        super().__init__(timeout=None)
        self.kind, self.aimed_items = kind, items
        for item in items:
            self.add_item(item)
        self.stop()

    def aimed(self, encounter_id: int, turn: str) -> "_Buttons":
        for item in self.aimed_items:
            item.aim(encounter_id, turn)
        return self

    def released(self) -> None:
        if not kept(self, _kept[self.kind]):
            self.clear_items()


#: the released views of each kind, for the next message of that kind
_kept: dict[str, list[_Buttons]] = {"turn": [], "turn and map": [], "board": []}


def _buttons(kind: str, encounter_id: int, turn: str, make: Callable[[], tuple[_Aimed, ...]]) -> ui.View:
    """A released view of ``kind`` aimed at ``encounter_id`` and ``turn``, or a new one of ``make``'s buttons."""
    spare = _kept[kind]
    return spare.pop().aimed(encounter_id, turn) if spare else _Buttons(kind, *make())


def turn_view(encounter_id: int, turn: str, has_map: bool = True) -> ui.View:
    """The buttons of a turn-change message (Map only where the encounter has a map), in a view
    stopped before it goes out (`_Buttons`): a press is answered by the item registered for its
    custom id (`DYNAMIC_ITEMS`)."""
    if has_map:
        return _buttons("turn and map", encounter_id, turn, lambda: (EndTurnButton(encounter_id, turn), MapButton(encounter_id)))
    return _buttons("turn", encounter_id, turn, lambda: (EndTurnButton(encounter_id, turn),))


def board_view(encounter_id: int) -> ui.View:
    """The buttons of the status board (`_Buttons`, as `turn_view`)."""
    return _buttons("board", encounter_id, "", lambda: (UndoButton(encounter_id),))


class LogPageButton(ui.DynamicItem[ui.Button[ui.View]], template=r"skirmish:log:(?P<enc>\d+):(?P<count>\d+):(?P<page>\d+)"):
    """◀ Older and Newer ▶ under a `/log` page: the message shows that page instead (for
    everyone who sees it: a public log stays public)."""

    def __init__(self, encounter_id: int, count: int, page: int, label: str) -> None:
        super().__init__(
            ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=f"skirmish:log:{encounter_id}:{count}:{page}")
        )
        self.encounter_id, self.count, self.page = encounter_id, count, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /) -> "LogPageButton":
        return cls(int(match["enc"]), int(match["count"]), int(match["page"]), (item.label if isinstance(item, ui.Button) else None) or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        view = None
        try:
            public = interaction.message is not None and not interaction.message.flags.ephemeral
            outcome = await service_of(interaction).log(ctx_of(interaction), self.count, public, self.page, self.encounter_id)
            view = log_view(outcome.log_page) if outcome.log_page is not None else None
            await interaction.response.edit_message(**checked(embed=to_embed(outcome.report), view=view))
        except Exception as exc:
            await report_error(interaction, exc)
        finally:
            release(interaction, view)


def log_view(page: LogPage) -> ui.View | None:
    """◀ Older and Newer ▶ of a `/log` page, where there is a page that way (None: one page)."""
    if page.pages <= 1:
        return None
    view = ui.View(timeout=None)
    if page.page < page.pages:
        view.add_item(LogPageButton(page.encounter_id, page.count, page.page + 1, "◀ Older"))
    if page.page > 1:
        view.add_item(LogPageButton(page.encounter_id, page.count, page.page - 1, "Newer ▶"))
    return view


# -- questions -----------------------------------------------------------------------------------------
@dataclass
class Question:
    user_id: int
    expires_at: float
    run: Callable[[discord.Interaction], Awaitable[Outcome]]
    #: refuses a Confirm once what was asked about has passed (a turn that ended meanwhile), before
    #: the question is answered; None: the command itself says so
    check: Callable[[discord.Interaction], Awaitable[None]] | None = None


class Questions:
    """The questions waiting for an answer, by token; expired ones are dropped as new ones come,
    and a new question from the same author for the same command in the same channel replaces
    the one before it (so a channel holds at most one per author and command)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._waiting: dict[str, Question] = {}
        #: the token of the question waiting for each (author, channel, command)
        self._asked: dict[tuple[int, int | None, str], str] = {}

    def __len__(self) -> int:
        return len(self._waiting)

    def add(
        self, user_id: int, run: Callable[[discord.Interaction], Awaitable[Outcome]], about: tuple[int | None, str] = (None, ""),
        check: Callable[[discord.Interaction], Awaitable[None]] | None = None,
    ) -> str:
        """A new question of ``user_id`` about ``about`` (its channel and command); its token."""
        now = self.clock()
        self._waiting = {t: q for t, q in self._waiting.items() if q.expires_at > now}
        key = (user_id, *about)
        self._waiting.pop(self._asked.get(key, ""), None)
        self._asked = {k: t for k, t in self._asked.items() if t in self._waiting}
        token = self._asked[key] = secrets.token_hex(8)
        self._waiting[token] = Question(user_id, now + QUESTION_SECONDS, run, check)
        return token

    def get(self, token: str) -> Question | None:
        q = self._waiting.get(token)
        return q if q is not None and q.expires_at > self.clock() else None

    def drop(self, token: str) -> None:
        self._waiting.pop(token, None)


def _questions(interaction: discord.Interaction) -> Questions:
    return bot_of(interaction).questions  # type: ignore[no-any-return]  # the bot holds it as Any: the bot module cannot import this one


class AnswerButton(ui.DynamicItem[ui.Button[ui.View]], template=r"skirmish:answer:(?P<token>[0-9a-f]{16}):(?P<answer>yes|no)"):
    """Confirm or Cancel: only the author of the question may answer, once, before it expires."""

    def __init__(self, token: str, yes: bool) -> None:
        super().__init__(
            ui.Button(
                label="Confirm" if yes else "Cancel",
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=f"skirmish:answer:{token}:{'yes' if yes else 'no'}",
            )
        )
        self.token, self.yes = token, yes

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /) -> "AnswerButton":
        return cls(match["token"], match["answer"] == "yes")

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            questions = _questions(interaction)
            q = questions.get(self.token)
            if q is None:
                raise NotAllowed("This question has expired or was asked again: nothing was changed. Run the command again, or answer the newest question.")
            if interaction.user.id != q.user_id:
                raise NotAllowed(f"Only {user_ref(str(q.user_id))}, who ran the command, can answer this.")
            if self.yes and q.check is not None:
                await q.check(interaction)
            questions.drop(self.token)
            note = Report("✅ Confirmed", ["Done as asked: see the reply below."]) if self.yes else Report(
                "Cancelled", ["Nothing was changed."]
            )
            await interaction.response.edit_message(**checked(embed=to_embed(note)), view=None)
            if self.yes:
                await reply(interaction, await q.run(interaction))
        except Exception as exc:
            await report_error(interaction, exc)


async def ask(
    interaction: discord.Interaction, question: Report, run: Callable[[discord.Interaction], Awaitable[Outcome]],
    check: Callable[[discord.Interaction], Awaitable[None]] | None = None,
) -> None:
    """Ask the command's author ``question`` (only they see it) with Confirm / Cancel; Confirm calls
    ``run`` with the press's interaction, whose outcome is the reply the command would have sent,
    unless ``check`` first refuses the press (what was asked about has passed)."""
    command = interaction.command.qualified_name if interaction.command is not None else ""
    token = _questions(interaction).add(interaction.user.id, run, (interaction.channel_id, command), check)
    view = ui.View(timeout=None)
    view.add_item(AnswerButton(token, True))
    view.add_item(AnswerButton(token, False))
    minutes = QUESTION_SECONDS // 60
    report = Report(question.title, [*question.lines, f"Confirm within {minutes} minutes, or nothing happens."], colour=COLOURS["error"])
    await answer(interaction, embed=to_embed(report), view=view, ephemeral=True, allowed_mentions=NO_MENTIONS)
    release(view=view)  # its buttons answer by their custom ids: the view is not kept per question


# -- a player's choice an action waits for (a target choosing its flips) ------------------------------
class ChoiceButton(ui.DynamicItem[ui.Button[ui.View]], template=r"skirmish:choose:(?P<ch>\d+):(?P<tag>[0-9a-f]{8}):(?P<index>\d+)"):
    """One answer to a question the rules ask a player (`rules.system.Prompt`), sent to them by
    direct message: the encounter's channel, the question's tag and the choice travel in the
    ``custom_id``, so it works after a restart; only that player may press it, and only while the
    question waits. The answer is posted in the encounter's channel."""

    def __init__(self, channel_id: int, tag: str, index: int, label: str = "Choose") -> None:
        super().__init__(
            ui.Button(label=label, style=discord.ButtonStyle.secondary if index else discord.ButtonStyle.primary,
                      custom_id=f"skirmish:choose:{channel_id}:{tag}:{index}")
        )
        self.channel_id, self.tag, self.index, self.label = channel_id, tag, index, label

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /) -> "ChoiceButton":
        return cls(int(match["ch"]), match["tag"], int(match["index"]), (item.label if isinstance(item, ui.Button) else None) or "Choose")

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            ctx = Ctx(channel_id=str(self.channel_id), user_id=str(interaction.user.id), interaction_id=str(interaction.id))
            outcome = await service_of(interaction).answer(ctx, self.tag, self.index)
            note = Report("✅ Answered", [f"{self.label}: the attack is resolved in <#{self.channel_id}>."])
            await interaction.response.edit_message(**checked(embed=to_embed(note)), view=None)
            await post_outcome(bot_of(interaction), str(self.channel_id), outcome)
        except Exception as exc:
            await report_error(interaction, exc)
        finally:
            release(interaction, self.view)


def prompt_view(channel_id: str, q: Prompt) -> ui.View:
    """A button per choice of ``q`` (the rules offer at most as many as fit: five rows of five)."""
    view = ui.View(timeout=None)
    for i, (label, _) in enumerate(q.choices[: LIMITS["rows"] * LIMITS["row_items"]]):
        view.add_item(ChoiceButton(int(channel_id), q.tag, i, clip(label, LIMITS["label"])))
    return view


async def send_prompt(client: "Skirmish", channel_id: str, q: Prompt) -> None:
    """Send ``q`` to the player it asks, by direct message; where their direct messages are closed,
    in the encounter's channel with a mention of them (still only they can answer)."""
    embed = to_embed(Report(q.title, q.lines))
    view = prompt_view(channel_id, q)
    try:
        if await client.send_direct([q.user_id], embed=embed, view=view):
            channel = client.get_partial_messageable(int(channel_id))
            text = f"{user_ref(q.user_id)}: a question for you (your direct messages are closed to the bot)"
            await channel.send(**checked(content=discord_text(text), embed=embed, view=view,
                                         allowed_mentions=mentions_for((q.user_id,))))
    finally:
        release(view=view)


async def post_outcome(client: "Skirmish", channel_id: str, outcome: Outcome) -> None:
    """Post in the encounter's channel what a command answered elsewhere (a direct message) did:
    its report, a turn change's ping with its buttons, the question it leaves waiting (sent to its
    player, as after a typed answer), and the status board. The answer is already
    applied: where the channel refuses the post, that is logged and the board still follows."""
    channel = client.get_partial_messageable(int(channel_id))
    try:
        if client.access.missing(channel_id, TEXT_NEEDS):
            log.warning("no permission to post an answer's result in %s", channel_id)
        else:
            await channel.send(**checked(embed=to_embed(outcome.report), allowed_mentions=NO_MENTIONS))
        ping = outcome.ping
        if ping is not None and not client.access.missing(channel_id, TEXT_NEEDS):
            view = turn_view(ping.encounter_id, ping.turn, ping.has_map) if ping.encounter_id is not None else None
            extra = {"view": view} if view is not None else {}
            await channel.send(**checked(content=clip(discord_text(ping.text), LIMITS["content"]),
                                         allowed_mentions=mentions_for(ping.user_ids), **extra))
            release(view=view)
    except discord.HTTPException:
        log.warning("cannot post an answer's result in %s", channel_id)
    await send_question(client, outcome)  # the next question, as a typed answer sends it
    if outcome.board_changed:
        client.boards.touch(channel_id)


#: every persistent button, registered at start-up with `bot.add_dynamic_items`
DYNAMIC_ITEMS: tuple[Any, ...] = (EndTurnButton, MapButton, UndoButton, LogPageButton, AnswerButton, ChoiceButton)


async def setup(bot: Skirmish) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    bot.turn_view, bot.board_view, bot.log_view = turn_view, board_view, log_view
    bot.send_prompt = send_prompt
    bot.questions = Questions(bot.service.clock)
