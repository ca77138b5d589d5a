"""Copy one database into another, row for row (``python -m bot migrate``).

Every table of `TABLES` is copied as stored: encounters with their versions, ended ones too;
the whole action log, compacted or not (snapshots, deltas, typed dice, undone marks); the
reminders; interaction ids come with the log rows that hold them. Keys are kept, so a copy run
twice finds its rows already there and writes nothing. Before anything is written, every row
the destination already holds is compared with the source's: a destination that holds other
data (a row that differs, or rows the source does not have) is refused and left as it was.
After the copy, each table's row count is checked on both sides.
"""
from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

from data.store import TABLES, Row, Store, StoreError, text_without_nul

__all__ = ["TableCopy", "migrate", "BATCH"]

#: rows read and written per round trip
BATCH = 500


@dataclass(frozen=True, slots=True)
class TableCopy:
    """What a copy did to one table."""

    table: str
    #: rows in the source (and, once checked, in the destination)
    rows: int
    #: rows written by this run
    copied: int
    #: rows the destination held already, equal to the source's
    present: int


def _key_of(row: Row, key: str) -> int | str:
    """``row``'s key (a number, or a text key), refused if it holds anything else."""
    value = row[key]
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise StoreError(f"A row's key `{key}` holds {value!r}, which is no key: the source database is damaged.")
    return value


async def _batches(store: Store, table: str, size: int) -> AsyncIterator[list[Row]]:
    """``table``'s rows, ``size`` at a time, in key order."""
    key = TABLES[table][0]
    after: int | None = None
    while rows := await store.read_rows(table, after, size):
        yield rows
        after = int(_key_of(rows[-1], key))


def _comparable(row: Row) -> Row:
    """``row`` as any backend stores it: a NUL in text is U+FFFD on PostgreSQL."""
    return {k: text_without_nul(v) if isinstance(v, str) else v for k, v in row.items()}


async def _missing(source_rows: list[Row], dest: Store, table: str) -> tuple[list[Row], int]:
    """The rows of ``source_rows`` the destination lacks, and how many it holds already;
    `StoreError` when it holds one that differs."""
    key = TABLES[table][0]
    held = {r[key]: r for r in await dest.read_rows_by_key(table, [_key_of(r, key) for r in source_rows])}
    missing = []
    for row in source_rows:
        theirs = held.get(row[key])
        if theirs is None:
            missing.append(row)
        elif (a := _comparable(theirs)) != (b := _comparable(row)):
            column = next(c for c in TABLES[table][1] if a.get(c) != b.get(c))
            raise StoreError(
                f"The destination already holds {table} row {key}={row[key]} with another "
                f"{column}: nothing was copied. Migrate into an empty database, or remove its "
                "rows first."
            )
    return missing, len(source_rows) - len(missing)


async def migrate(source: Store, dest: Store, *, batch: int = BATCH) -> list[TableCopy]:
    """Copy every row of ``source`` that ``dest`` lacks into ``dest``; one `TableCopy` per table.

    Raises `StoreError` (one line, nothing written) when ``dest`` holds rows that differ from
    the source's or that the source does not have, and after the copy when a table's counts
    differ (something else wrote to a database meanwhile: stop the bot while migrating).
    """
    present: dict[str, int] = {}
    for table in TABLES:  # first compare everything, so a refused copy writes nothing
        present[table] = 0
        async for rows in _batches(source, table, batch):
            present[table] += (await _missing(rows, dest, table))[1]
        extra = await dest.count_rows(table) - present[table]
        if extra:
            raise StoreError(
                f"The destination holds {extra} {table} row{'s' if extra != 1 else ''} the source "
                "does not have: nothing was copied. Migrate into an empty database."
            )
    report = []
    for table in TABLES:
        copied = 0
        async for rows in _batches(source, table, batch):
            missing, _ = await _missing(rows, dest, table)
            if missing:
                await dest.write_rows(table, missing)
                copied += len(missing)
        mine, theirs = await source.count_rows(table), await dest.count_rows(table)
        if mine != theirs:
            raise StoreError(
                f"After the copy, {table} has {mine} rows in the source and {theirs} in the "
                "destination: stop every bot on either database and run the migration again."
            )
        report.append(TableCopy(table, mine, copied, present[table]))
    return report
