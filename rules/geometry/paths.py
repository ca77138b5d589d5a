"""The cheapest path within a budget, with a second cost for ties.

:func:`cheapest_path` is A* over search states (a cell, or a cell plus how one stands on
it): ``successors(state)`` yields ``(next_state, cost, label)``. With a ``budget`` the search
never expands a state whose cost so far plus ``heuristic(state)`` (a lower bound of the cost
still to pay) exceeds the points left, so a far move that is refused costs little. Among
paths of equal cost it returns the one whose summed ``tie(state, next_state, label)`` (a
system's second cost, e.g. the attacks a step provokes) is least, then the first found.
"""
from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

__all__ = ["cheapest_path", "SEARCH_LIMIT"]

#: states expanded at most by one search, whatever the budget: a backstop, not a rule
SEARCH_LIMIT = 20000

S = TypeVar("S", bound=Hashable)


def cheapest_path(
    start: S,
    is_goal: Callable[[S], bool],
    successors: Callable[[S], Iterable[tuple[S, float, str]]],
    budget: float | None = None,
    limit: int = SEARCH_LIMIT,
    *,
    heuristic: Callable[[S], float] | None = None,
    tie: Callable[[S, S, str], float] | None = None,
) -> tuple[float, list[tuple[S, str]]] | None:
    """The total cost and the ``(state, label)`` steps of the cheapest way to a goal, or None
    when no goal is reachable within ``budget`` (or within ``limit`` expanded states)."""
    cap = math.inf if budget is None else budget
    h0 = heuristic(start) if heuristic else 0.0
    if h0 > cap:
        return None
    counter = itertools.count()
    frontier: list[tuple[float, float, int, float, S]] = [(h0, 0.0, next(counter), 0.0, start)]
    best: dict[S, tuple[float, float]] = {start: (0.0, 0.0)}
    back: dict[S, tuple[S, str]] = {}
    seen = 0
    push, pop = heapq.heappush, heapq.heappop
    while frontier:
        _, second, _, cost, state = pop(frontier)
        if (cost, second) > best[state]:
            continue
        if is_goal(state):
            steps: list[tuple[S, str]] = []
            cur = state
            while cur in back:
                prev, label = back[cur]
                steps.append((cur, label))
                cur = prev
            steps.reverse()
            return cost, steps
        seen += 1
        if seen > limit:
            break
        for nxt, step_cost, label in successors(state):
            new = cost + step_cost
            old = best.get(nxt)
            # the cheap test first: a dearer way is dropped before its tie and heuristic are asked
            if old is not None and new > old[0]:
                continue
            key = (new, second + tie(state, nxt, label) if tie else second)
            if old is not None and key >= old:
                continue
            h = heuristic(nxt) if heuristic else 0.0
            if new + h > cap:
                continue
            best[nxt] = key
            back[nxt] = (state, label)
            push(frontier, (new + h, key[1], next(counter), new, nxt))
    return None
