"""The action log's facts: what a command did, kept as its events rather than as the text of its
reply, so that a log row is rendered for each reader (and in the words of the day it is read)."""
from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from rules.events import Event
from rules.hidden import names_in
from rules.report import Report

if TYPE_CHECKING:  # pragma: no cover
    from rules.models import Encounter
    from rules.system import RuleSystem

__all__ = ["Deadline", "Undid", "LogFacts", "log_facts", "facts_report", "event_types"]


class Deadline(BaseModel):
    """A turn's deadline acted for its player: whose turn, after how long, and the policy applied."""

    model_config = ConfigDict(extra="forbid")
    whose: str
    hours: float
    policy: str


class Undid(BaseModel):
    """An `/undo`: the command it took back and who had given it."""

    model_config = ConfigDict(extra="forbid")
    command: str
    user_id: str | None = None


class LogFacts(BaseModel):
    """What one logged command did, kept as facts rather than text: its events (each with its type's
    name), the combatants whose numbers were hidden then, and the condition words players were shown
    of them after it. `facts_report` renders it for any reader, in the words of the day it is read.
    ``lapse``: a question nobody answered, answered by the deadline this way; ``deadline``: a turn's
    deadline acted; ``undid``: an `/undo` of the command whose facts these are."""

    model_config = ConfigDict(extra="forbid")
    events: list[dict[str, Any]] = Field(default_factory=list)
    hidden: list[str] = Field(default_factory=list)
    conditions: dict[str, str] = Field(default_factory=dict)
    lapse: str | None = None
    deadline: Deadline | None = None
    undid: Undid | None = None


def log_facts(events: Sequence[Event], system: "RuleSystem", enc: "Encounter", hide: frozenset[str],
              lapse: str | None = None, deadline: Deadline | None = None) -> str:
    """The facts (`LogFacts`) of a command that gave ``events`` and left ``enc``, its numbers of
    ``hide`` hidden, as the log keeps them (``model_dump_json(exclude_defaults=True)``): of the
    hidden, only those the events name (no other is read when they are rendered). Each event is
    written by its own model (`_event_json`), not dumped to a dict that `LogFacts` reads again."""
    named = set().union(*(names_in(e, hide) for e in events)) if hide else set()
    rest = "{}"
    if named or lapse is not None or deadline is not None:
        shown = {c.name: system.condition(c) for c in enc.combatants if c.name in named}
        rest = LogFacts(hidden=sorted(named), conditions=shown, lapse=lapse, deadline=deadline).model_dump_json(exclude_defaults=True)
    if not events:
        return rest
    listed = b'{"events":[' + b",".join([_event_json(e) for e in events]) + b"]"  # `LogFacts.events` comes first
    return listed.decode() + ("}" if rest == "{}" else "," + rest[1:])


#: the start of each event type's JSON in `LogFacts.events`, ``{"type":"Moved"``, by its class
_HEADS: dict[type[Event], bytes] = {}


def _event_json(event: Event) -> bytes:
    """An event as `LogFacts.events` keeps it, ``{"type": its class's name, **its
    model_dump(exclude_defaults=True)}``, written as JSON (UTF-8) by its model's serializer, as
    its ``model_dump_json(exclude_defaults=True)`` writes it (without the call's keywords and a
    decode for each event)."""
    cls = type(event)
    head = _HEADS.get(cls)
    if head is None:
        head = _HEADS[cls] = b'{"type":"' + cls.__name__.encode() + b'"'
    body: bytes = cls.__pydantic_serializer__.to_json(event, exclude_defaults=True)
    return head + b"}" if body == b"{}" else head + b"," + body[1:]


def _subclasses(cls: type[Event]) -> list[type[Event]]:
    found: list[type[Event]] = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def event_types(system: "RuleSystem") -> dict[str, type[Event]]:
    """The event types a system's rules give, by class name: the core's and its package's own."""
    return _types_of(type(system).__module__)


@functools.cache
def _types_of(package: str) -> dict[str, type[Event]]:
    """`event_types` of the system defined in ``package``, worked out once (its events are imported with it)."""
    return {c.__name__: c for c in _subclasses(Event)
            if c.__module__ == Event.__module__ or c.__module__ == package or c.__module__.startswith(package + ".")}


def facts_report(system: "RuleSystem", facts: LogFacts) -> Report:
    """The lines of a logged command rebuilt from its facts, marked for readers as its reply was."""
    types = event_types(system)
    events = [types[data["type"]].model_validate({k: v for k, v in data.items() if k != "type"}) for data in facts.events]
    present = system.present.recorded(facts.conditions, frozenset(facts.hidden))
    return present.report("", events)
