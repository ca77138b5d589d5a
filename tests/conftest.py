"""Fixtures shared by every test folder."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.scenario import Scenario


@pytest.fixture
def scenario() -> Callable[..., Scenario]:
    """``scenario("tote", map=None)``: a new `Scenario` of that system."""
    return Scenario
