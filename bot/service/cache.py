"""The encounter cache's entries and their measured size: what one cached encounter holds (its
JSON, its state, the next action's spare copy, its status board), and the memory that counts
against the cache's bound (`resident_bytes`); and how often the young generations of the
garbage collector are collected as encounters are cached.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace

from data.delta import Parts
from rules.models import Encounter
from rules.registry import get_system
from rules.report import Report, board_report

__all__ = [
    "CACHE_BYTES", "RESIDENT_PER_JSON_BYTE", "YOUNG_EVERY", "YOUNG_MIDDLE", "RECENT_IDS", "StoredEntry", "LiveEntry",
    "resident_bytes",
]

#: the resident memory of one in-memory copy of an encounter (its models, with its JSON) per byte
#: of its JSON, as `python -m bot benchmark` measures it (part 4: 9.0-11.4x for the mix's fights,
#: 17.4-22.4x after a write, which keeps a second copy, the next action's spare)
RESIDENT_PER_JSON_BYTE = 12
#: the encounter cache holds at most this many bytes of resident memory (`resident_bytes`; the
#: least recently used go): the ``ENCOUNTER_CACHE_MIB`` setting's default
CACHE_BYTES = 256 * 1024 * 1024
#: the young generation of the garbage collector is collected each time this many encounters
#: were cached (loaded or written), and the middle one with it every `YOUNG_MIDDLE`-th time. A
#: write frees about as many old objects as it makes, so the collector's own count (made less
#: freed) stays low while the young generations grow: at 500 busy channels to 40,000-100,000
#: objects and 50-85 ms of CPU a collection; counted by writes, 5-8 ms
YOUNG_EVERY = 10
YOUNG_MIDDLE = 5
#: the interaction ids each cached encounter remembers (a re-delivered one is refused)
RECENT_IDS = 256


@dataclass
class StoredEntry:
    """An active encounter's row as cached in memory: its JSON as last written; ``error`` says
    why it does not read back (a `LiveEntry` is one that does)."""

    id: int
    channel_id: str
    json: str
    board_message_id: str | None
    error: str | None = None
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_IDS))
    recent_set: set[str] = field(default_factory=set)
    #: the row's version as loaded or last written: the next write lands only on it
    version: int = 0
    #: the bytes the cache counts for this entry (`resident_bytes` when it was cached)
    held: int = 0

    def seen(self, interaction_id: str | None) -> bool:
        return interaction_id is not None and interaction_id in self.recent_set

    def remember(self, interaction_id: str | None) -> None:
        if interaction_id is None:
            return
        if len(self.recent) == self.recent.maxlen:
            self.recent_set.discard(self.recent[0])
        self.recent.append(interaction_id)
        self.recent_set.add(interaction_id)


@dataclass(kw_only=True)
class LiveEntry(StoredEntry):
    """An active encounter as cached in memory: the state and its JSON, as last written."""

    enc: Encounter
    #: a second copy of ``enc``, the one the last write read back: the next action resolves on it
    #: (and so needs no copy of its own); whoever takes it sets this to None
    spare: Encounter | None = None
    #: the status board of ``enc`` as drawn for this version, by whether it shows every number
    boards: dict[tuple[int, bool], Report] = field(default_factory=dict)
    #: ``json`` in parts (`data.delta.Parts`) where this process wrote it: the next write's undo
    #: delta is worked out from the parts that changed
    parts: Parts | None = None

    def board(self, numbers: bool = False) -> Report:
        """The status board (`rules.report.board_report`) of this version, drawn once for all
        who read it until the next change; each caller gets a copy of its own."""
        key = (self.version, numbers)
        report = self.boards.get(key)
        if report is None:
            if any(v != self.version for v, _ in self.boards):
                self.boards.clear()
            report = self.boards[key] = board_report(get_system(self.enc.system), self.enc, numbers)
        return replace(report, lines=list(report.lines), fields=list(report.fields))


def resident_bytes(entry: StoredEntry) -> int:
    """The resident memory a cached entry holds at most, from its JSON's size: its JSON alone
    when it does not read back; else `RESIDENT_PER_JSON_BYTE` for each copy of the state it keeps
    (a second after a write: the spare) and its JSON again in parts where it keeps them."""
    size = len(entry.json)
    if not isinstance(entry, LiveEntry):
        return size
    copies = 1 + (entry.spare is not None)
    return size * (RESIDENT_PER_JSON_BYTE * copies + (entry.parts is not None))
