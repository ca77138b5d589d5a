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
]

#: a full snapshot of the state at least every this many logged rows of an encounter
SNAPSHOT_EVERY = 50

_MISSING = object()


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
    the list there; None when one of them does not parse. Numbers are read exactly
    (`_number`), so that equal parts, the most of a state, are skipped with one comparison."""
    try:
        old, new = (json.loads(text, parse_int=_number, parse_float=_number) for text in (before, after))
    except ValueError:
        return None
    ops: list[list[Any]] = []
    _diff(old, new, [], ops)
    return [[path, _plain(op[0])] if op else [path] for path, *op in ops]


def _number(text: str) -> tuple[str]:
    """A JSON number as its text in a 1-tuple: unlike ``1``, ``1.0`` and ``true`` in Python, no
    two of them compare equal unless written alike (and a JSON list is never a tuple)."""
    return (text,)


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
    if before == after:  # numbers read exactly: equal is the same, so an equal part costs one comparison
        return
    if type(before) is not type(after):
        ops.append([path, after])
    elif isinstance(before, dict):
        for key, value in after.items():
            old = before.get(key, _MISSING)
            if old is _MISSING:
                ops.append([[*path, key], value])
            else:
                _diff(old, value, [*path, key], ops)
        ops.extend([[*path, key]] for key in before if key not in after)
    elif isinstance(before, list):
        common = min(len(before), len(after))
        for i in range(common):
            _diff(before[i], after[i], [*path, i], ops)
        if len(before) > common:
            ops.append([[*path, common]])
        ops.extend([[*path, i], after[i]] for i in range(common, len(after)))
    else:
        ops.append([path, after])


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
    before: str | None, after: str, version: int | None, last: Link | None
) -> tuple[str | None, str | None, int | None]:
    """A new row's ``(snapshot, delta, chain)`` from the state JSON ``before`` and ``after``
    its change, the encounter ``version`` the change read, and the `Link` of the encounter's
    previous row (None: there is none).

    The row is a snapshot on the first row, every `SNAPSHOT_EVERY` rows, and after a break
    (a version skipped, a row without delta); without a ``before`` that parses there is no
    delta, so the next row is a snapshot.
    """
    ops = None if before is None else diff(before, after)
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
    rows: Iterable[tuple[int, str | None, str, int | None]], last: dict[int, Link | None]
) -> list[tuple[str | None, str | None, int | None]]:
    """`undo_columns` for a batch's new rows ``(encounter_id, before, after, version)`` in
    order; ``last`` holds each encounter's previous row (as read before the batch) and is kept
    up to date as the batch goes."""
    out = []
    for encounter_id, before, after, version in rows:
        snapshot, delta, chain = undo_columns(before, after, version, last.get(encounter_id))
        last[encounter_id] = Link(version, chain)
        out.append((snapshot, delta, chain))
    return out


#: the SQL that reads an encounter's newest row as a `Link` (``?`` or ``$1``: its id)
LAST_LINK = (
    "SELECT version, CASE WHEN delta IS NULL THEN NULL ELSE chain END FROM actions "
    "WHERE encounter_id = {} ORDER BY id DESC LIMIT 1"
)
