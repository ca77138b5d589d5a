"""Helpers the store tests share: plain encounters, logged changes, and a look at the database
from another connection."""
from __future__ import annotations

import random
import sqlite3

from data import Change
from rules.models import Combatant, Encounter, MapState

__all__ = ["enc", "change", "query", "SIZE", "fight", "step"]


def enc(name: str = "x", round: int = 0) -> Encounter:
    """A plain encounter that needs no rule system."""
    return Encounter(system="coup-de-grace", name=name, round=round)


def change(encounter_id: int, iid: str | None, round: int = 1, **kw: object) -> Change:
    """A logged change that sets the encounter's round (so the order of writes shows)."""
    args: dict[object, object] = dict(
        encounter_id=encounter_id,
        encounter=enc(round=round),
        interaction_id=iid,
        user_id="u1",
        command="act",
        summary=f"round {round}",
        dice=[round, 6],
        state_before=enc(round=round - 1).model_dump_json(),
        now=1000.0 + round,
    )
    args.update(kw)
    return Change(**args)


async def query(url: str, sql: str) -> list[tuple[object, ...]]:
    """Run ``sql`` on a connection of its own to the database at ``url`` (what another process sees)."""
    if not url.startswith("postgresql://"):
        con = sqlite3.connect(url)
        try:
            rows = con.execute(sql).fetchall()
            con.commit()
            return rows
        finally:
            con.close()
    import asyncpg

    con = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await con.fetch(sql)]
    finally:
        await con.close()


SIZE = 60


def fight(size: int = SIZE) -> Encounter:
    """An encounter of ``size`` combatants on a 30x30 map."""
    return Encounter(
        system="coup-de-grace", name="big", map=MapState(kind="square", width=30, height=30),
        combatants=[
            Combatant(name=f"C{n}", side="ab"[n % 2], position=f"{'ABCDEFGHIJ'[n % 10]}{n // 10 + 1}",
                      facing="N", hp=10, initiative=n)
            for n in range(size)
        ],
    )


def step(enc: Encounter, rng: random.Random) -> Encounter:
    """A random realistic change: a move, a hit or a turn end."""
    new = enc.model_copy(deep=True)
    who = rng.choice(new.combatants)
    kind = rng.randrange(3)
    if kind == 0:
        who.position, who.facing = f"{'ABCDEFGHIJ'[rng.randrange(10)]}{rng.randrange(1, 31)}", rng.choice("NESW")
    elif kind == 1:
        who.hp = (who.hp or 0) - rng.randrange(1, 4)
        who.status = "downed" if who.hp <= 0 else "active"
    else:
        new.round += 1
        new.current = who.name
    return new
