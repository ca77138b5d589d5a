"""``python -m bot.offline.benchmark``: the benchmark, as ``python -m bot benchmark`` runs it. It
lives in the package `bot.offline.bench` (the mix, the floors, growth, pictures, the report);
this module keeps the names it always had."""
from __future__ import annotations

import sys

from bot.offline.bench.driver import Bench
from bot.offline.bench.growth import time_rules_steps
from bot.offline.bench.mix import FULL, QUICK, SCRIPTS, Config, _setup_channel
from bot.offline.bench.report import targets
from bot.offline.bench.run import main, measure
from bot.offline.bench.stored import cache_held, fill_cache

__all__ = ["Bench", "Config", "FULL", "QUICK", "SCRIPTS", "_setup_channel", "cache_held", "fill_cache", "main",
           "measure", "targets", "time_rules_steps"]

if __name__ == "__main__":
    sys.exit(main())
