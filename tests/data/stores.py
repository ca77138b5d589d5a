"""Helpers the store tests share: plain encounters, logged changes, and a look at the database
from another connection."""
from __future__ import annotations

import sqlite3

from data import Change
from rules.models import Encounter

__all__ = ["enc", "change", "query"]


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
    return Change(**args)  # type: ignore[arg-type]


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
