"""A real PostgreSQL server for the session, and store fixtures over both backends (registered
for every test folder by tests/conftest.py).

The server (`data.pgserver`, shared with the benchmark) runs from a temp dir on a Unix socket
(no TCP port) as the ``postgres`` user (it refuses to run as root), started once for the session and stopped at its end; each test that
asks for it gets a schema of its own, named in the URL's ``search_path`` (creating a database
takes up to a second, a schema well under a millisecond). Where PostgreSQL is not installed, the PostgreSQL half
is skipped with a reason that says how to install it, except under CI, where it fails.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from data.pgserver import PgServer, start_server, stop_server
from data.store import Store, open_store

BACKENDS = ("sqlite", "postgresql")
_INSTALL = (
    "install PostgreSQL (Debian/Ubuntu: apt-get install postgresql; macOS: brew install "
    "postgresql@15) and asyncpg (pip install -e .) to run the PostgreSQL half of these tests"
)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL server for the whole session; skipped (failed under CI) where it cannot start."""
    root = tempfile.mkdtemp(prefix="skirmish-pg-")
    try:
        server = start_server(root)
    except (RuntimeError, OSError) as error:
        stop_server(root)
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL tests cannot run under CI: {error}", pytrace=False)
        pytest.skip(f"PostgreSQL tests skipped: {error}; {_INSTALL}")
    try:
        yield server
    finally:
        stop_server(root)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh SQLite database file name."""
    return tmp_path / "skirmish.db"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each backend in turn: ``"sqlite"`` and ``"postgresql"``."""
    return str(request.param)


@pytest.fixture
async def url(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str:
    """The URL of an empty database of the backend under test."""
    if backend == "sqlite":
        return str(db_path)
    server: PgServer = request.getfixturevalue("pg_server")
    return await server.fresh_url()


@pytest.fixture
async def store(url: str) -> AsyncIterator[Store]:
    """An open store on an empty database of each backend, closed after the test."""
    s = await open_store(url)
    yield s
    await s.close()



@pytest.fixture(name="harness_db")
def on_each_backend(url: str) -> str:
    """Imported into a test module, this runs the module's `h` harness (tests/conftest.py) on a
    fresh database of each backend in turn."""
    return url
