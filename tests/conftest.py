"""Fixtures shared by every test folder."""
from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.offline.harness import Clock, Harness
from tests.backends import backend, db_path, pg_server, store, url  # noqa: F401 (the store fixtures, both backends)
from tests.scenario import Scenario


@pytest.fixture
def harness_db(tmp_path: Path) -> str:
    """The database of the `h` harness: a fresh SQLite file (a test module that imports
    `tests.backends.on_each_backend` runs it on each backend instead)."""
    return str(tmp_path / "bot.db")


@pytest.fixture
async def h(harness_db: str) -> AsyncIterator[Harness]:
    """The offline harness on a fresh database, seed 7, with a manual clock."""
    harness = await Harness.create(harness_db, seed=7, clock=Clock())
    yield harness
    await harness.close()


@pytest.fixture
def scenario() -> Callable[..., Scenario]:
    """``scenario("tote", map=None)``: a new `Scenario` of that system."""
    return Scenario
