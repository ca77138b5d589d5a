"""Moved to :mod:`bot.offline.harness`; this name stays for importers not yet updated."""
from bot.offline.harness import *  # noqa: F401,F403
from bot.offline.harness import __all__  # noqa: F401
