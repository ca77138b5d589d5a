"""The service: one command at a time per channel, permissions, rules, and one write per command.

- `core`: channel locks, the encounter cache, loading, the one write per command, the turn
  ping and the reminders (:class:`ServiceCore`, the outcome types);
- `cache`: a cached encounter's entry and the memory it counts against the cache's bound;
- `commands`: :class:`Service`, every command a cog calls;
- `permissions`: who may do what;
- `porting`: `encounter.json` export and import checks;
- `views`: the read-only replies (order, show, log, settings lines, rolls).

Nothing here knows about Discord.
"""
from bot.service.cache import CACHE_BYTES
from bot.service.commands import Service
from bot.service.core import Ctx, LogPage, Nudge, Outcome, Ping, Unreadable
from bot.service.porting import MAX_IMPORT_BYTES

__all__ = ["Service", "Ctx", "Outcome", "LogPage", "Ping", "Nudge", "MAX_IMPORT_BYTES", "CACHE_BYTES", "Unreadable"]
