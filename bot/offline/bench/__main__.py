"""``python -m bot.offline.bench``: the benchmark (the same as ``python -m bot benchmark``)."""
import sys

from bot.offline.bench.run import main

sys.exit(main())
