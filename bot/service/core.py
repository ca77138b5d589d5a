"""What the service hands back and takes in: who sent a command (`Ctx`), the outcome a cog
renders (`Outcome`, with a turn change's `Ping`, a reminder's `Nudge`, a `/log` page's
`LogPage`), and the refusals every part shares. Nothing here knows about Discord."""
from __future__ import annotations

from dataclasses import dataclass

from bot.service.turntext import Ping, turn_tag
from data.store import Reminder
from rules.errors import IllegalAction, NotFound
from rules.report import Report
from rules.system import Prompt

__all__ = ["Ctx", "Outcome", "LogPage", "Ping", "Nudge", "Asked", "Unreadable", "no_encounter", "turn_tag", "BOT_USER", "AFTER_END"]

#: the user id the bot's own log rows carry (a deadline applied by the clock)
BOT_USER = "0"


@dataclass(frozen=True)
class Ctx:
    """Who sent a command, and where."""

    channel_id: str
    user_id: str
    guild_id: str | None = None
    interaction_id: str | None = None
    roll: str | None = None


@dataclass(frozen=True)
class Nudge:
    """A due reminder as it goes out: its text, exactly the users it may ping in the channel,
    and those who asked for it by direct message (`/notify`).

    ``kind``: ``nudge``, ``notice`` (the GM's, after ``max_nudges`` nudges), ``warning`` (the
    deadline is near) or ``deadline`` (its policy was applied: the reminder is already replaced)."""

    reminder: Reminder
    text: str
    user_ids: tuple[str, ...]
    kind: str = "nudge"
    dm_ids: tuple[str, ...] = ()
    #: the turn whose buttons the message carries: the one a deadline started, or the one a nudge
    #: or warning is about (None: no buttons, as on the GM's notice)
    ping: Ping | None = None


@dataclass(frozen=True)
class LogPage:
    """Where a `/log` reply stands: the encounter, the entries a page holds, this page (1: the
    newest) and how many there are; the reply carries ◀ ▶ buttons to the pages beside it."""

    encounter_id: int
    count: int
    page: int
    pages: int


@dataclass(frozen=True)
class Asked:
    """What a command asks before it acts (a typed `/init next` ending a turn in which nothing was
    done yet, `/encounter end` of a fight under way, an import replacing an encounter), and what it
    asks about: the encounter, and the turn (its `turn_tag`) where it asks about one, so that a
    Confirm once that encounter has ended, or that turn has passed, changes nothing."""

    report: Report
    encounter_id: int
    turn: str = ""


@dataclass
class Outcome:
    report: Report
    ping: Ping | None = None
    board_changed: bool = False
    file: tuple[str, bytes] | None = None
    ephemeral: bool = False
    #: shown only to the caller after the reply (the GM's numbers behind condition words)
    private: Report | None = None
    #: sent by direct message to these users (a private roll's result to the GMs)
    direct: tuple[tuple[str, ...], Report] | None = None
    #: a `/log` page: the reply carries buttons to the older and newer pages
    log_page: LogPage | None = None
    #: a question the action now waits for, sent privately to the player who answers it, with
    #: a button per choice (``channel_id`` is the encounter's, where the answer is posted)
    prompt: Prompt | None = None
    channel_id: str | None = None


class Unreadable(IllegalAction):
    """The channel's stored encounter does not read back; only export, undo and end work."""

    def __init__(self, reason: str | None) -> None:
        super().__init__(
            f"This channel's encounter could not be read ({reason or 'unknown error'}): the GM can "
            "`/encounter export` it as it is stored, `/undo` the last action, or `/encounter end` it."
        )


#: what still works once an encounter has ended
AFTER_END = ("`/log` and `/encounter export` (only the GM's while it hides anything from players) show it here until a new "
             "encounter starts.")


def no_encounter(ended: bool = False) -> NotFound:
    """The refusal of a command that needs an encounter under way where the channel has none (``ended``: its last
    one has ended, and what still shows it is said)."""
    if ended:
        return NotFound(f"This channel's fight has ended: {AFTER_END} Start a new one with `/encounter start`.")
    return NotFound("There is no encounter in this channel: start one with `/encounter start`.")
