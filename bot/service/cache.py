"""The encounter cache (:class:`EncounterCache`) and its entries: what one cached encounter holds
(its JSON and its parts, its state, its status board), the memory that counts
against the cache's bound (`resident_bytes`), and how often the young generations of the
garbage collector are collected as encounters are cached.
"""
from __future__ import annotations

import gc
from collections import OrderedDict, deque
from dataclasses import dataclass, field, replace

from data.delta import Parts
from rules.facts import Facts
from rules.models import Encounter
from rules.registry import get_system
from rules.report import Report, board_report
from rules.turns import Turn

__all__ = [
    "CACHE_BYTES", "RESIDENT_PER_JSON_BYTE", "YOUNG_EVERY", "YOUNG_MIDDLE", "UNDO_HELD", "RECENT_IDS", "ABSENT_SIZE", "StoredEntry",
    "LiveEntry", "EncounterCache", "resident_bytes",
]

#: the resident memory of a cached encounter's state (its models, with its JSON, its status
#: boards and facts) per byte of its JSON, as `python -m bot benchmark` measures it (part 4, the
#: mix's fights: 9.1-11.6x loaded, 11.8-14.8x after a write and a board, with its parts)
RESIDENT_PER_JSON_BYTE = 15
#: the encounter cache holds at most this many bytes of resident memory (`resident_bytes`; the
#: least recently used go): the ``ENCOUNTER_CACHE_MIB`` setting's default
CACHE_BYTES = 256 * 1024 * 1024
#: the young generation of the garbage collector is collected each time this many encounters
#: were cached (loaded or written), and the middle one with it every `YOUNG_MIDDLE`-th time. A
#: write frees about as many old objects as it makes, so the collector's own count (made less
#: freed) stays low while the young generations grow: at 500 busy channels to 40,000-100,000
#: objects and 50-85 ms of CPU a collection; counted by writes, 12-16 ms (every 10th, the middle
#: every 5th: 5-8 ms, but 62-67 µs of CPU a command in the mix of 50 busy channels against 43-49)
YOUNG_EVERY = 40
YOUNG_MIDDLE = 3
#: the states before its last writes each cached encounter keeps, for `/undo` (`LiveEntry.history`)
UNDO_HELD = 8
#: the interaction ids each cached encounter remembers (a re-delivered one is refused)
RECENT_IDS = 256
#: how many channels known to have no encounter are remembered (apart from the cache)
ABSENT_SIZE = 4096


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

    #: the state: an action resolves on it in place (`bot.service.encounters.Encounters.changing`)
    enc: Encounter
    #: the status board of ``enc`` as drawn for this version, by whether it shows every number
    boards: dict[tuple[int, bool], Report] = field(default_factory=dict)
    #: ``json`` in parts (`data.delta.Parts`) where this process wrote it: the next write's undo
    #: delta is worked out from the parts that changed
    parts: Parts | None = None
    #: the turn ``enc`` is at (`turn`), once worked out: the next write compares its new turn to it
    known_turn: Turn | None = None
    #: what ``enc``'s board and turn line show (`facts`), once worked out for this version
    known_facts: Facts | None = None
    #: the parts of the states before the last `UNDO_HELD` writes of this process, by the version
    #: each was, with the bytes each holds apart from the state after it (`data.delta.Parts.sharing`):
    #: an `/undo` of one of those writes reads back only what differs from the state now
    history: dict[int, tuple[Parts, int]] = field(default_factory=dict)

    def hold(self, version: int, parts: Parts, after: Parts) -> None:
        """Keep ``parts``, the state at ``version``, that the write to ``after`` replaces; the
        oldest kept go past `UNDO_HELD`."""
        self.history[version] = (parts, parts.bytes_beside(after))
        while len(self.history) > UNDO_HELD:
            del self.history[next(iter(self.history))]

    def turn(self) -> Turn:
        """The turn ``enc`` is at (its system's `RuleSystem.turn`), worked out once for this version."""
        if self.known_turn is None:
            self.known_turn = get_system(self.enc.system).turn(self.enc)
        return self.known_turn

    def facts(self) -> Facts:
        """What ``enc``'s board and turn line show (its system's `RuleSystem.facts`), worked out
        once for this version (the turn ping of the write that made it may have)."""
        if self.known_facts is None:
            self.known_facts = get_system(self.enc.system).facts(self.enc)
        return self.known_facts

    def board(self, numbers: bool = False) -> Report:
        """The status board (`rules.report.board_report`) of this version, drawn once for all
        who read it until the next change; each caller gets a copy of its own."""
        key = (self.version, numbers)
        report = self.boards.get(key)
        if report is None:
            if any(v != self.version for v, _ in self.boards):
                self.boards.clear()
            report = self.boards[key] = board_report(get_system(self.enc.system), self.enc, numbers, self.facts())
        return replace(report, lines=list(report.lines), fields=list(report.fields))


def resident_bytes(entry: StoredEntry) -> int:
    """The resident memory a cached entry holds at most, from its JSON's size: its JSON alone
    when it does not read back; else `RESIDENT_PER_JSON_BYTE` for its state, its JSON again
    in parts where it keeps them (after a write), and what its states before hold apart
    (`LiveEntry.history`)."""
    size = len(entry.json)
    if not isinstance(entry, LiveEntry):
        return size
    return size * (RESIDENT_PER_JSON_BYTE + (entry.parts is not None)) + sum(held for _, held in entry.history.values())


class EncounterCache:
    """The channels' active encounter rows, the least recently used going once the entries hold
    more than ``bound`` bytes of resident memory (`resident_bytes`), and the channels known to
    have none (a bounded set of their own)."""

    def __init__(self, bound: int = CACHE_BYTES) -> None:
        #: the bound, in bytes of resident memory
        self.bound = bound
        #: the bytes of resident memory the cache counts for its entries now
        self.held = 0
        #: the cached rows by channel, the least recently used first
        self.entries: OrderedDict[str, StoredEntry] = OrderedDict()
        self._absent: OrderedDict[str, None] = OrderedDict()
        #: encounters cached so far (`YOUNG_EVERY`)
        self.puts = 0

    def get(self, channel_id: str) -> StoredEntry | None:
        """The channel's cached row (now the most recently used), or None."""
        entry = self.entries.get(channel_id)
        if entry is not None:
            self.entries.move_to_end(channel_id)
        return entry

    def knows(self, channel_id: str) -> bool:
        """Whether the cache has the channel's row, or knows that it has none."""
        return channel_id in self.entries or channel_id in self._absent

    def put(self, entry: StoredEntry) -> None:
        """Cache ``entry`` as its channel's newest; the least recently used go past the bound."""
        self.drop(entry.channel_id)
        self._absent.pop(entry.channel_id, None)
        self.entries[entry.channel_id] = entry
        self.puts += 1
        if self.puts % YOUNG_EVERY == 0:
            gc.collect(1 if self.puts % (YOUNG_EVERY * YOUNG_MIDDLE) == 0 else 0)
        entry.held = resident_bytes(entry)
        self.held += entry.held
        while self.held > self.bound and self.entries:
            _, gone = self.entries.popitem(last=False)
            self.held -= gone.held

    def recount(self, entry: StoredEntry) -> None:
        """Count ``entry``'s resident memory again after it changed in place (if it is cached)."""
        if self.entries.get(entry.channel_id) is entry:
            held = resident_bytes(entry)
            self.held += held - entry.held
            entry.held = held

    def remember(self, channel_id: str, entry: StoredEntry | None) -> None:
        """Cache the channel's encounter row, or that it has none."""
        if entry is None:
            self.mark_absent(channel_id)
        else:
            self.put(entry)

    def drop(self, channel_id: str) -> None:
        """Forget the channel's row (the next read loads it)."""
        gone = self.entries.pop(channel_id, None)
        if gone is not None:
            self.held -= gone.held

    def mark_absent(self, channel_id: str) -> None:
        """Remember that the channel has no encounter."""
        self.drop(channel_id)
        self._absent[channel_id] = None
        self._absent.move_to_end(channel_id)
        while len(self._absent) > ABSENT_SIZE:
            self._absent.popitem(last=False)
