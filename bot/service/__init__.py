"""The service: one command at a time per channel, permissions, rules, and one write per command.

Its parts, each taking what it needs in its constructor (`Service` builds them):

- `encounters`: the channels' encounters: locks (`locks`), the cache (`cache`), loading, and the
  one write per command (`Encounters.commit` of a `Write`);
- `reminders`: the turn clock's pass (nudges, warnings, deadlines), over the encounters;
- `commands`: :class:`Service`, every command a cog calls, with the map renderer the app passes
  (`pictures`: what the service needs of it);
- `core`: what the service takes and hands back (`Ctx`, `Outcome`, `Nudge`, `LogPage`);
- `turntext`: a turn change's message (`Ping`); `clock`: the turn clock's arithmetic;
- `permissions`: who may do what; `porting`: `encounter.json` export and import checks;
- `views`: the replies' text (order, show, log, settings lines, rolls).

Nothing here knows about Discord.
"""
from bot.service.cache import CACHE_BYTES
from bot.service.commands import Service
from bot.service.core import (
    Asked,
    Ctx,
    LogPage,
    Nudge,
    Outcome,
    Ping,
    Unreadable,
)
from bot.service.porting import MAX_IMPORT_BYTES

__all__ = ["Service", "Ctx", "Outcome", "LogPage", "Ping", "Nudge", "Asked", "MAX_IMPORT_BYTES", "CACHE_BYTES", "Unreadable"]
