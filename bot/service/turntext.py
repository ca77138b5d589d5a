"""The words of a turn change: whom one message mentions, and the line that says whose turn it
is, within Discord's 2,000 characters (`bot.limits` holds every limit; this is its content one)."""
from __future__ import annotations

from rules.hidden import for_reader, players_see
from rules.models import Encounter
from rules.registry import get_system
from rules.report import user_ref
from rules.system import Turn

__all__ = ["MAX_MESSAGE", "mentioned", "short_names", "turn_text"]

MAX_MESSAGE = 2000
MENTION_ROOM = 1700  # of a message's 2000 characters; the rest says whose turn it is


def mentioned(users: tuple[str, ...]) -> tuple[str, ...]:
    """As many of ``users`` as their mentions fit in one message (with Discord's 100 at most)."""
    out: list[str] = []
    size = 0
    for u in users[:100]:
        size += len(u) + 4
        if size > MENTION_ROOM:
            break
        out.append(u)
    return tuple(out)


def short_names(names: tuple[str, ...]) -> str:
    """``Borin, Thrain``: at most ten names, then an ellipsis."""
    return ", ".join(names[:10]) + (" …" if len(names) > 10 else "")


def turn_text(enc: Encounter, turn: Turn, users: tuple[str, ...], lead: str) -> str:
    """``@a @b: your turn in **Bridge**: Borin, Thrain. Round 2 ...``, within one message."""
    shown = mentioned(users)
    mentions = " ".join(user_ref(u) for u in shown)
    if len(users) > len(shown):
        mentions += f" (+{len(users) - len(shown)} more)"
    who = short_names(turn.actors)
    line = get_system(enc.system).present.turn_line(enc, turn)
    label = for_reader(line, players_see(enc))  # posted: as players see it
    text = f"{mentions}: {lead} in **{enc.name}**: {who}. {label}".strip()
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"

