"""A turn change: its message (`Ping`: whom it mentions, the line that says whose turn it is and
who is on deck, within Discord's limits from `bot.limits`) and the tag its buttons carry."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from bot.limits import LIMITS, MAX_MESSAGE
from rules.facts import Facts
from rules.hidden import for_reader, players_see
from rules.models import Encounter
from rules.registry import get_system
from rules.report import user_ref
from rules.system import Turn

__all__ = [
    "Ping", "mentioned", "owners_of", "short_names", "turn_key_json", "turn_ping", "turn_tag", "turn_text", "turn_users",
]

MENTION_ROOM = 1700  # of a message's 2000 characters; the rest says whose turn it is
#: a turn's key as JSON (`turn_tag`), as ``json.dumps(key, default=str)`` writes it
_KEY_JSON = json.JSONEncoder(default=str)


@dataclass(frozen=True)
class Ping:
    """A turn change: a new message that mentions exactly these users. ``encounter_id`` and
    ``turn`` (`turn_tag`) say which encounter and turn its buttons end."""

    user_ids: tuple[str, ...]
    text: str
    encounter_id: int | None = None
    turn: str = ""
    #: the encounter has a map (so the message offers the Map button)
    has_map: bool = True


def turn_key_json(turn: Turn) -> str:
    """The turn's key as JSON, as ``json.dumps(list(turn.key), default=str)`` writes it, by one
    encoder made once: what a turn's reminder row waits on, and what its tag hashes."""
    return _KEY_JSON.encode(list(turn.key))


def turn_tag(enc: Encounter, turn: Turn) -> str:
    """A short tag of the turn under way (``r2.1a2b3c4d``): the round and a hash of the turn's key,
    which changes exactly when the turn passes; a button carrying an older tag is stale."""
    digest = hashlib.sha256(turn_key_json(turn).encode()).hexdigest()[:8]
    return f"r{enc.round}.{digest}"


def mentioned(users: tuple[str, ...]) -> tuple[str, ...]:
    """As many of ``users`` as their mentions fit in one message (with Discord's 100 at most)."""
    out: list[str] = []
    size = 0
    for u in users[: LIMITS["mentions"]]:
        size += len(u) + 4
        if size > MENTION_ROOM:
            break
        out.append(u)
    return tuple(out)


def short_names(names: tuple[str, ...]) -> str:
    """``Borin, Thrain``: at most ten names, then an ellipsis."""
    return ", ".join(names[:10]) + (" …" if len(names) > 10 else "")


def owners_of(enc: Encounter, names: tuple[str, ...]) -> tuple[str, ...]:
    """The users who play ``names`` (a GM's combatant: the first GM), each once."""
    users: list[str] = []
    for n in names:
        c = enc.find(n)
        if c is None:
            continue
        for u in [c.owner_id] if c.owner_id else enc.gm_ids[:1]:
            if u and u not in users:
                users.append(u)
    return tuple(users)


def turn_users(enc: Encounter, turn: Turn) -> tuple[str, ...]:
    """Whom the turn waits for: the owners of its actors, or the GM where nobody can act and the GM moves the fight on
    (`Turn.gm`): whom its message pings and the turn clock reminds."""
    users = owners_of(enc, turn.actors)
    return users if users or not turn.gm else tuple(enc.gm_ids[:1])


def turn_text(enc: Encounter, facts: Facts, users: tuple[str, ...], lead: str) -> str:
    """``@a @b: your turn in **Bridge**: Borin, Thrain. Round 2 ...``, within one message."""
    shown = mentioned(users)
    mentions = " ".join(user_ref(u) for u in shown)
    if len(users) > len(shown):
        mentions += f" (+{len(users) - len(shown)} more)"
    who = f": {short_names(facts.turn.actors)}" if facts.turn.actors else ""  # none: a turn the GM moves on
    line = get_system(enc.system).present.turn_line(enc, facts)
    label = for_reader(line, players_see(enc))  # posted: as players see it
    text = f"{mentions}: {lead} in **{enc.name}**{who}. {label}".strip()
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def turn_ping(enc: Encounter, turn: Turn, encounter_id: int, facts: Facts) -> Ping | None:
    """The turn-change message: who must act now (pinged) and who is on deck (named, not pinged);
    ``facts``: the system's `RuleSystem.facts` of ``enc``."""
    users = turn_users(enc, turn)
    if enc.winner or not users:
        return None
    text = turn_text(enc, facts, users, "your turn")
    on_deck = get_system(enc.system).on_deck(enc, turn)
    if on_deck:
        deck = f"\nOn deck: {short_names(on_deck)}."
        text += deck if len(text) + len(deck) <= MAX_MESSAGE else ""
    return Ping(mentioned(users), text, encounter_id, turn_tag(enc, turn), enc.map.kind != "none")
