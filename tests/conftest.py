"""Fixtures shared by every test folder."""
from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.offline.harness import Clock, Harness
from tests.backends import backend, db_path, pg_server, store, url  # noqa: F401 (the store fixtures, both backends)
from tests.scenario import Scenario


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    """The offline harness on a fresh database file, seed 7, with a manual clock."""
    harness = await Harness.create(str(tmp_path / "bot.db"), seed=7, clock=Clock())
    yield harness
    await harness.close()


@pytest.fixture
def scenario() -> Callable[..., Scenario]:
    """``scenario("tote", map=None)``: a new `Scenario` of that system."""
    return Scenario
