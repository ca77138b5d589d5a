"""Persistence: the `Store` interface, its SQLite backend, and the numbered migrations.

All SQL of the project lives in this package. It returns `rules` models and imports nothing
from discord, `bot/` or `cogs/`. Open a store with ``await open_store(settings.database_url)``.
"""
from data.sqlite import SqliteStore
from data.store import (
    RECENT_INTERACTIONS,
    Change,
    ChannelBusy,
    DuplicateInteraction,
    LogEntry,
    NotifyPrefs,
    Reminder,
    StaleEncounter,
    Store,
    StoredEncounter,
    StoreError,
    StoreUnavailable,
    UndoConflict,
    open_store,
    sqlite_path,
)

__all__ = [
    "Store",
    "SqliteStore",
    "open_store",
    "sqlite_path",
    "StoredEncounter",
    "LogEntry",
    "NotifyPrefs",
    "Reminder",
    "Change",
    "ChannelBusy",
    "DuplicateInteraction",
    "UndoConflict",
    "StaleEncounter",
    "StoreError",
    "StoreUnavailable",
    "RECENT_INTERACTIONS",
]
