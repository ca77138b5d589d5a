"""What each write does with the whole state, timed apart on the mix's fights and on the largest
fight (issue 25: the costs that grow with the state): serialising it, reading it back (and the
state hook's part of that), and the undo delta; each beside an alternative tried as an A/B."""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter

from bot.offline.bench.growth import _big_fight
from bot.offline.bench.results import _table
from data.delta import diff
from data.store import read_state
from rules.models import Encounter
from rules.registry import get_system
from rules.state import CURRENT, _typed


def cpu_us(fn: Callable[[], Any], n: int) -> float:
    """The least CPU µs one call of ``fn`` took, over three rounds of ``n`` calls (this thread's CPU)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.thread_time()
        for _ in range(n):
            fn()
        best = min(best, (time.thread_time() - t0) / n)
    return best * 1e6


def _states_one_call(system: str) -> Callable[[list[Any]], Any]:
    """The alternative to the state hook's per-combatant validation: every combatant's state in one call."""
    model = get_system(system).combatant_state
    adapter: TypeAdapter[list[Any]] = TypeAdapter(list[model])  # type: ignore[valid-type]  # the system's model, known at run time
    return lambda states: adapter.validate_python(states, context=CURRENT)


def write_costs(pairs: dict[str, tuple[Encounter, Encounter]], n: int) -> list[tuple[str, dict[str, float]]]:
    """For each ``label: (before, after)``: the CPU µs of a write's work on ``after``'s state:
    serialise, read back (`read_state` of it, as the service reads every new state back), the
    state hook's part (each combatant's state validated one by one) and the alternative (all in
    one call), the undo delta from ``before`` (`data.delta.diff`) and its floor (two plain
    `json.loads`)."""
    out = []
    for label, (before, after) in pairs.items():
        system = get_system(after.system)
        old, new = before.model_dump_json(), after.model_dump_json()
        states = [c.get("state") or {} for c in json.loads(new)["combatants"]]
        one_call = _states_one_call(after.system)
        out.append((f"{label}, {len(after.combatants)} combatants, {len(new):,} B", {
            "serialise": cpu_us(after.model_dump_json, n),
            "read back": cpu_us(lambda: read_state(new, current=True), n),
            "states one by one": cpu_us(lambda: [_typed(s, system.combatant_state, CURRENT) for s in states], n),
            "states in one call": cpu_us(lambda: one_call(states), n),
            "undo delta": cpu_us(lambda: diff(old, new), n),
            "two json.loads": cpu_us(lambda: (json.loads(old), json.loads(new)), n),
        }))
    return out


def largest_pair(size: int, count: int) -> tuple[Encounter, Encounter]:
    """The largest fight (Coup-De-Grace's, `_big_fight`), and the same after its Mover's far move."""
    from rules.actions import make_action
    from rules.dice import Dice

    stored, to = _big_fight("coup-de-grace", "square", size, count)
    before = Encounter.model_validate_json(stored)
    move: Any = make_action("move", is_gm=True, actor="Mover", to=to)  # one of the actions `resolve` takes
    after = get_system("coup-de-grace").resolve(before, move, Dice.fixed([])).encounter
    return before, after


def state_report(costs: list[tuple[str, dict[str, float]]]) -> tuple[str, dict[str, float]]:
    """The table of `write_costs`, and the figures of the mix's fights (the mean of them) and the largest."""
    names = list(costs[0][1]) if costs else []
    rows = [[label, *(f"{by[n]:.1f}" for n in names)] for label, by in costs]
    table = _table("4b. A write's work on the whole state, CPU µs (best of three rounds): the mix's fights (from as set up "
                   "to as played) and the largest (a far /move); the state hook's per-combatant validation and the undo "
                   "delta beside what was tried in their place", ["fight", *names], rows)
    mix = [by for label, by in costs if "100 combatants" not in label]
    fig = {f"state.{n.replace(' ', '_')}_us": sum(by[n] for by in mix) / len(mix) for n in names} if mix else {}
    return table, fig
