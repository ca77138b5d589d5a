"""What a timed run measured (`LoadResult`), how a reply is classified, the process's CPU and
memory, and the plain-text tables every part prints."""
from __future__ import annotations

import resource
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot.offline.harness import Sent


# -- results -------------------------------------------------------------------------------------
@dataclass
class LoadResult:
    """What one timed run measured."""

    label: str
    commands: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # this process's CPU time during the run (a database server's is apart)
    harness_cpu_seconds: float = 0.0  # ... of which the harness's and the driver's own (`_HarnessMeter`)
    map_cpu_seconds: float = 0.0  # the map worker processes' CPU time drawing the run's pictures
    latencies: list[float] = field(default_factory=list)
    autocompletes: list[float] = field(default_factory=list)  # the autocomplete requests' latencies (not commands)
    cold: list[float] = field(default_factory=list)  # the first command to each channel, where it is a cold load
    ok: int = 0
    rejected: int = 0  # ephemeral "Not done" replies: the command was refused
    errors: int = 0  # "Something went wrong" replies, exceptions, or no reply at all
    writes: int = 0  # accepted commands that write (all but `READS`)
    examples: list[str] = field(default_factory=list)  # the first few refusals, for the report
    by_command: dict[str, list[float]] = field(default_factory=dict)
    by_system: dict[str, Counter[str]] = field(default_factory=dict)  # command counts per system
    stall: float = 0.0  # the event loop's longest lag (the probe's lateness), seconds
    callback: float = 0.0  # the longest single step the loop ran (one callback or task step), seconds
    callback_what: str = ""  # the commands in flight during it
    stalls: int = 0  # stalls over STALL_MS
    blame: Counter[str] = field(default_factory=Counter)  # commands in flight during those stalls
    gc_longest: float = 0.0  # the longest garbage collection, seconds
    gc_longest_cpu: float = 0.0  # ... its CPU seconds (the rest: the machine's other work)
    gc_generation: int = -1  # ... the generation it collected
    gc_most_cpu: float = 0.0  # the most CPU seconds one garbage collection took
    gc_counts: list[int] = field(default_factory=lambda: [0, 0, 0])  # collections by generation
    requests: int = 0  # bot-token requests (board posts and edits, reminders, DMs) during the run and its boards' flush
    request_seconds: float = 0.0  # the run and its boards' flush: the time those requests went out in
    requests_peak: int = 0  # the most bot-token requests in any one second
    http_429: int = 0  # the 429s the harness answered (Discord's global bucket)
    staleness: list[float] = field(default_factory=list)  # each board edit: seconds from its first change to the edit

    @property
    def rate(self) -> float:
        return self.commands / self.seconds if self.seconds else 0.0

    @property
    def request_rate(self) -> float:
        """Bot-token requests a second, over the run and its boards' flush."""
        return self.requests / self.request_seconds if self.request_seconds else 0.0

    @property
    def write_rate(self) -> float:
        return self.writes / self.seconds if self.seconds else 0.0

    def pct(self, q: float, data: list[float] | None = None) -> float:
        """The ``q``-th percentile of the latencies (or of ``data``), in milliseconds."""
        return _pct(self.latencies if data is None else data, q)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    data = sorted(values)
    return data[min(len(data) - 1, max(0, round(q / 100 * (len(data) - 1))))] * 1000


def _classify(sent: list[Sent], channel: str) -> tuple[str, str]:
    """``("ok" | "rejected" | "error", text)`` for the replies of one command in ``channel``."""
    if any(s.channel == channel and s.kind == "autocomplete" for s in sent):
        return "ok", "autocomplete"
    replies = [s for s in sent if s.channel == channel and s.kind in ("response", "followup")]
    if not replies:
        return "error", "no reply"
    first = replies[0]
    text = first.text
    if "Something went wrong" in text:
        return "error", text
    title = first.embeds[0].get("title", "") if first.embeds else ""
    if first.ephemeral and "Not done" in title:
        return "rejected", text
    return "ok", text


#: an INTERACTION_CREATE of this type is an autocomplete request
AUTOCOMPLETE = 4


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def rss_mib() -> float:
    """This process's resident memory now (VmRSS), in MiB; the peak where /proc is missing."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

# -- report ------------------------------------------------------------------------------------------
def _row(cols: list[str], widths: list[int]) -> str:
    return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cols, widths)))


def _table(title: str, header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [title, _row(header, widths), "  ".join("-" * w for w in widths)]
    lines += [_row(r, widths) for r in rows]
    return "\n".join(lines)

