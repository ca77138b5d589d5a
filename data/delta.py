"""The compact undo log, shared by both backends: what a log row stores so that `/undo` can
rebuild the state before it, and the rebuilding itself.

A logged row stores the change it made (a JSON delta from the state before to the state
after) and, every `SNAPSHOT_EVERY` rows and whenever the chain of rows is broken, the whole
state before it. A row's ``version`` is the encounter version its change read, and ``chain``
counts the deltas since the nearest snapshot (0 on a snapshot row), so the state before any
row is that snapshot with the deltas of the rows between applied in order. Rows written before
this scheme hold the whole state before them, and read as snapshots.
"""
from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from rules.models import Combatant, Encounter, MapState

__all__ = [
    "SNAPSHOT_EVERY",
    "Link",
    "UndoRow",
    "diff",
    "patch",
    "undo_columns",
    "states_before",
    "chain_rows",
    "LAST_LINK",
    "Parts",
    "state_parts",
    "parts_diff",
    "STR_OVERHEAD",
]

#: a full snapshot of the state at least every this many logged rows of an encounter
SNAPSHOT_EVERY = 50

_MISSING = object()
#: the bytes of memory a `str` of ASCII text holds beyond its characters (49), rounded up
STR_OVERHEAD = 64


@dataclass(frozen=True, slots=True)
class Link:
    """What the next row needs of the row before it: the version its change read and its
    ``chain``; ``chain`` None when the row has no delta (the chain ends there)."""

    version: int | None
    chain: int | None


@dataclass(frozen=True, slots=True)
class UndoRow:
    """A log row's undo columns, oldest first when rebuilding."""

    id: int
    snapshot: str | None
    delta: str | None
    version: int | None
    chain: int | None
    undoable: bool


def diff(before: str, after: str) -> list[list[Any]] | None:
    """Operations that turn the JSON text ``before`` into ``after``: ``[path, value]`` sets (a
    list index one past the end appends) and ``[path]`` removes a key or, on a list index, cuts
    the list there; None when one of them does not parse. Equal parts, the most of a state, are
    skipped with one comparison, yet a number that only changed its type is not (`_diff_texts`)."""
    ops: list[list[Any]] = []
    return ops if _diff_texts(before, after, [], ops) else None


def _diff_texts(before: str, after: str, path: list[Any], ops: list[list[Any]]) -> bool:
    """Add to ``ops`` the operations from the JSON text ``before`` to ``after``, each under
    ``path``; false when one of them does not parse.

    Read with orjson first, where ``1``, ``1.0`` and ``true`` compare equal and an equal part
    with a number of another type in it would be skipped: those operations are kept only when
    ``before`` patched with them is ``after`` to the character (`_fast_ops`). Else, and where
    orjson does not read a text, both are read exactly (`_number`)."""
    found = _fast_ops(before, after)
    if found is None:
        try:
            old, new = _read(before), _read(after)
        except ValueError:
            return False
        found = []
        if old != new:
            _diff(old, new, [], found)
        found = _plain_ops(found)
    ops += [[[*path, *op[0]], *op[1:]] for op in found] if path else found
    return True


def _fast_ops(before: str, after: str) -> list[list[Any]] | None:
    """The operations from ``before`` to ``after`` (paths from their root) read with orjson,
    where ``before`` patched with them is written by orjson as ``after`` is written (the JSON
    of a state, as pydantic writes it, is written alike); else None."""
    try:
        old, new = orjson.loads(before), orjson.loads(after)
    except orjson.JSONDecodeError:
        return None
    ops: list[list[Any]] = []
    if old != new:
        _diff(old, new, [], ops)
    # ``old`` takes ``new``'s parts whole: no later operation reaches into one (`_diff`'s paths are disjoint)
    return ops if orjson.dumps(patch(old, ops)) == after.encode() else None


def _plain_ops(ops: list[list[Any]]) -> list[list[Any]]:
    """Operations found on values read with `_number`, their values back as plain JSON data."""
    return [[path, _plain(op[0])] if op else [path] for path, *op in ops]


def _number(text: str) -> tuple[str]:
    """A JSON number as its text in a 1-tuple: unlike ``1``, ``1.0`` and ``true`` in Python, no
    two of them compare equal unless written alike (and a JSON list is never a tuple)."""
    return (text,)


#: JSON text read with its numbers as `_number` reads them (one decoder, made once)
_read = json.JSONDecoder(parse_int=_number, parse_float=_number).decode


def _plain(value: Any) -> Any:
    """A value read with `_number` back as plain JSON data."""
    if isinstance(value, tuple):
        text = value[0]
        return float(text) if any(ch in text for ch in ".eE") else int(text)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _diff(before: Any, after: Any, path: list[Any], ops: list[list[Any]]) -> None:
    """The operations from ``before`` to ``after``, which differ: an equal part costs one
    comparison, made before descending into it."""
    if type(before) is not type(after):
        ops.append([path, after])
    elif isinstance(before, dict):
        for key, value in after.items():
            old = before.get(key, _MISSING)
            if old is _MISSING:
                ops.append([[*path, key], value])
            elif old != value:
                _diff(old, value, [*path, key], ops)
        ops.extend([[*path, key]] for key in before if key not in after)
    elif isinstance(before, list):
        common = min(len(before), len(after))
        for i in range(common):
            if before[i] != after[i]:
                _diff(before[i], after[i], [*path, i], ops)
        if len(before) > common:
            ops.append([[*path, common]])
        ops.extend([[*path, i], after[i]] for i in range(common, len(after)))
    else:
        ops.append([path, after])


@dataclass(frozen=True, slots=True)
class Parts:
    """A state's JSON text in parts: ``head`` and ``tail``, the object of its fields before
    ``map`` and after ``combatants``; ``map``, the JSON of its map; ``items``, the JSON of each
    combatant. `state_parts` writes them, `whole` joins them into the state's JSON exactly as
    `model_dump_json` writes it, and `parts_diff` works the delta between two states out from
    the parts that differ alone."""

    head: str
    tail: str
    map: str
    items: tuple[str, ...]

    def whole(self) -> str:
        """The state's JSON, as ``model_dump_json`` writes it."""
        return (f'{self.head[:-1]},"map":{self.map},"combatants":[{",".join(self.items)}],{self.tail[1:]}')

    def changed_since(self, before: Parts | None) -> str:
        """The JSON of a state of this one's fields with only what differs from ``before`` (which
        read back): its other fields, its map if it changed, and the combatants whose JSON is not
        one of ``before``'s. Read back, it proves that this whole state reads back, as an equal
        part's text reads back as it did. Without ``before``, the whole state."""
        if before is None:
            return self.whole()
        known = set(before.items)
        items = ",".join(item for item in self.items if item not in known)
        where = "" if self.map == before.map else f'"map":{self.map},'
        return f'{self.head[:-1]},{where}"combatants":[{items}],{self.tail[1:]}'

    def sharing(self, before: Parts | None) -> Parts:
        """These parts with each one equal to one of ``before``'s as ``before``'s very string, so
        that two versions kept side by side (`bot.service.cache.LiveEntry.history`) hold an
        unchanged part once."""
        if before is None:
            return self
        known = {item: item for item in before.items}
        return Parts(before.head if self.head == before.head else self.head,
                     before.tail if self.tail == before.tail else self.tail,
                     before.map if self.map == before.map else self.map,
                     tuple([known.get(item, item) for item in self.items]))

    def bytes_beside(self, other: Parts) -> int:
        """The bytes of memory these parts hold that ``other`` does not share (`sharing`): each
        string of their own, and their list of combatants."""
        shared = {id(s) for s in (other.head, other.tail, other.map, *other.items)}
        own = (s for s in (self.head, self.tail, self.map, *self.items) if id(s) not in shared)
        return 2 * STR_OVERHEAD + 8 * len(self.items) + sum(len(s) + STR_OVERHEAD for s in own)


_FIELDS = tuple(Encounter.model_fields)
_HEAD = set(_FIELDS[:_FIELDS.index("map")])
_TAIL = set(_FIELDS[_FIELDS.index("map") + 2:])
assert _FIELDS[_FIELDS.index("map") + 1] == "combatants", "state_parts joins the map and the combatants side by side"
_MAP_JSON = MapState.__pydantic_serializer__.to_json
_COMBATANT_JSON = Combatant.__pydantic_serializer__.to_json


def state_parts(enc: Encounter) -> Parts:
    """``enc``'s JSON in parts (`Parts`)."""
    return Parts(enc.model_dump_json(include=_HEAD), enc.model_dump_json(include=_TAIL), _MAP_JSON(enc.map).decode(),
                 tuple(_COMBATANT_JSON(c).decode() for c in enc.combatants))


def parts_diff(before: Parts, after: Parts) -> list[list[Any]] | None:
    """The operations of `diff` from the state ``before`` to ``after``, worked out from the
    parts that differ: the other fields when one changed, the map when it changed, then each
    combatant that changed, was cut or added. Patched onto ``before`` they give exactly what
    `diff`'s give (an equal part's text is equal, and `diff` leaves an equal part alone); None
    where `diff` gives None."""
    ops: list[list[Any]] = []
    for old, new, path in ((before.head, after.head, []), (before.tail, after.tail, []), (before.map, after.map, ["map"])):
        if old != new and not _diff_texts(old, new, path, ops):
            return None
    common = min(len(before.items), len(after.items))
    for i in range(common):
        if before.items[i] != after.items[i] and not _diff_texts(before.items[i], after.items[i], ["combatants", i], ops):
            return None
    if len(before.items) > common:
        ops.append([["combatants", common]])
    for i in range(common, len(after.items)):  # an added combatant: set whole (from null, no part of it is equal)
        if not _diff_texts("null", after.items[i], ["combatants", i], ops):
            return None
    return ops


def patch(value: Any, ops: Iterable[list[Any]]) -> Any:
    """``value`` with the operations of `diff` applied (in place where it can be)."""
    for op in ops:
        path = op[0]
        if not path:
            value = op[1]
            continue
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        if len(op) == 1:
            if isinstance(parent, list):
                del parent[key:]
            else:
                del parent[key]
        elif isinstance(parent, list) and key == len(parent):
            parent.append(op[1])
        else:
            parent[key] = op[1]
    return value


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _loads(text: str | None) -> Any:
    if text is None:
        return _MISSING
    try:
        return json.loads(text)
    except ValueError:
        return _MISSING


def undo_columns(
    before: str | None, after: str, version: int | None, last: Link | None, ops: list[list[Any]] | None = None
) -> tuple[str | None, str | None, int | None]:
    """A new row's ``(snapshot, delta, chain)`` from the state JSON ``before`` and ``after``
    its change, the encounter ``version`` the change read, and the `Link` of the encounter's
    previous row (None: there is none). ``ops``: the delta from ``before`` to ``after`` when the
    caller worked it out already (`parts_diff`); else it is diffed here.

    The row is a snapshot on the first row, every `SNAPSHOT_EVERY` rows, and after a break
    (a version skipped, a row without delta); without a ``before`` that parses there is no
    delta, so the next row is a snapshot.
    """
    if before is None:
        ops = None
    elif ops is None:
        ops = diff(before, after)
    if ops is None:
        return before, None, None
    delta = _dumps(ops)
    linked = (
        last is not None and last.chain is not None and last.version is not None
        and version is not None and version == last.version + 1
        and last.chain + 1 < SNAPSHOT_EVERY
    )
    if linked:
        assert last is not None and last.chain is not None
        return None, delta, last.chain + 1
    return before, delta, 0


def states_before(
    rows: Sequence[UndoRow], wanted: Collection[int] | None = None
) -> dict[int, str | None]:
    """The state JSON before each undoable row of ``rows`` (one encounter's rows in id order,
    reaching back to the snapshot of the oldest row wanted): its snapshot, or the nearest
    snapshot before it with the deltas of the rows between applied. None where the chain
    cannot be followed (a row missing from ``rows``, or undo data dropped). With ``wanted``,
    only those rows' states are written out."""
    found: dict[int, str | None] = {}
    state: Any = _MISSING
    previous: UndoRow | None = None
    for row in rows:
        if row.snapshot is not None:
            state = _loads(row.snapshot)
            if row.undoable:
                found[row.id] = row.snapshot
        else:
            chained = (
                state is not _MISSING and previous is not None and previous.delta is not None
                and row.chain is not None and previous.chain == row.chain - 1
                and row.version is not None and previous.version == row.version - 1
            )
            if chained:
                assert previous is not None and previous.delta is not None
                state = patch(state, json.loads(previous.delta))
            else:
                state = _MISSING
            if row.undoable and (wanted is None or row.id in wanted):
                found[row.id] = None if state is _MISSING else _dumps(state)
        previous = row
    return found


def chain_rows(
    rows: Iterable[tuple[int, str | None, str, int | None, list[list[Any]] | None]], last: dict[int, Link | None]
) -> list[tuple[str | None, str | None, int | None]]:
    """`undo_columns` for a batch's new rows ``(encounter_id, before, after, version, ops)`` in
    order (``ops`` None: diffed here); ``last`` holds each encounter's previous row (as read
    before the batch) and is kept up to date as the batch goes."""
    out = []
    for encounter_id, before, after, version, ops in rows:
        snapshot, delta, chain = undo_columns(before, after, version, last.get(encounter_id), ops)
        last[encounter_id] = Link(version, chain)
        out.append((snapshot, delta, chain))
    return out


#: the SQL that reads an encounter's newest row as a `Link` (``?`` or ``$1``: its id)
LAST_LINK = (
    "SELECT version, CASE WHEN delta IS NULL THEN NULL ELSE chain END FROM actions "
    "WHERE encounter_id = {} ORDER BY id DESC LIMIT 1"
)
