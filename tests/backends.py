"""A real PostgreSQL server for the session, and store fixtures over both backends (registered
for every test folder by tests/conftest.py).

The server runs from a temp dir on a Unix socket (no TCP port) as the ``postgres`` user (it
refuses to run as root), started once for the session and stopped at its end; each test that
asks for it gets a schema of its own, named in the URL's ``search_path`` (creating a database
takes up to a second, a schema well under a millisecond). Where PostgreSQL is not installed, the PostgreSQL half
is skipped with a reason that says how to install it, except under CI, where it fails.
"""
from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from data.store import Store, open_store

BACKENDS = ("sqlite", "postgresql")
_INSTALL = (
    "install PostgreSQL (Debian/Ubuntu: apt-get install postgresql; macOS: brew install "
    "postgresql@15) and asyncpg (pip install -e .) to run the PostgreSQL half of these tests"
)


@dataclass
class PgServer:
    """A running PostgreSQL server: its socket folder and a counter for fresh schema names."""

    socket_dir: str
    names: Iterator[int]

    def url(self, database: str) -> str:
        """The URL of ``database`` on this server."""
        return f"postgresql://postgres@/{database}?host={self.socket_dir}"

    async def fresh_url(self) -> str:
        """Create an empty schema and return the URL of the database with it first in the path."""
        import asyncpg

        name = f"t{next(self.names)}"
        admin = await asyncpg.connect(self.url("postgres"))
        try:
            await admin.execute(f"CREATE SCHEMA {name}")
        finally:
            await admin.close()
        return f"{self.url('postgres')}&search_path={name}"


def _bindir() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: pg_config's, Debian's, or the PATH's."""
    candidates: list[str] = []
    if pg_config := shutil.which("pg_config"):
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        candidates.append(out.stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)  # newest first
    for found in (shutil.which("initdb"), shutil.which("pg_ctl")):
        if found:
            candidates.append(str(Path(found).resolve().parent))
    for folder in candidates:
        if folder and all(os.access(Path(folder, b), os.X_OK) for b in ("initdb", "pg_ctl")):
            return Path(folder)
    return None


def _as_server_user(argv: list[str]) -> list[str]:
    """``argv`` run as the ``postgres`` user when we are root (the server refuses root)."""
    if os.geteuid() != 0:
        return argv
    return ["runuser", "-u", "postgres", "--", *argv]


def _start(root: str) -> PgServer:
    """initdb and start a server under ``root``; raise RuntimeError saying what failed."""
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        raise RuntimeError("asyncpg is not installed") from None
    bindir = _bindir()
    if bindir is None:
        raise RuntimeError("initdb and pg_ctl were not found")
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            raise RuntimeError("running as root and there is no postgres user") from None
        os.chown(root, user.pw_uid, user.pw_gid)
    data = os.path.join(root, "data")
    steps = [
        [str(bindir / "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8",
         "--no-sync", "--locale=C"],
        [str(bindir / "pg_ctl"), "-D", data, "-l", os.path.join(root, "log"), "-w", "-t", "60",
         "-o", f"-k {root} -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
         "-c full_page_writes=off -c max_connections=200", "start"],
    ]
    for argv in steps:
        done = subprocess.run(_as_server_user(argv), capture_output=True, text=True)
        if done.returncode != 0:
            log = Path(root, "log")
            tail = log.read_text(errors="replace")[-500:] if log.exists() else ""
            raise RuntimeError(
                f"{Path(argv[0]).name} failed ({done.returncode}): "
                f"{(done.stderr or done.stdout).strip()[-500:]} {tail}".strip()
            )
    return PgServer(root, itertools.count(1))


def _stop(root: str) -> None:
    bindir = _bindir()
    if bindir is not None and os.path.exists(os.path.join(root, "data", "postmaster.pid")):
        subprocess.run(
            _as_server_user([str(bindir / "pg_ctl"), "-D", os.path.join(root, "data"), "-m",
                             "immediate", "-w", "stop"]),
            capture_output=True,
        )
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL server for the whole session; skipped (failed under CI) where it cannot start."""
    root = tempfile.mkdtemp(prefix="skirmish-pg-")
    try:
        server = _start(root)
    except (RuntimeError, OSError) as error:
        _stop(root)
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL tests cannot run under CI: {error}", pytrace=False)
        pytest.skip(f"PostgreSQL tests skipped: {error}; {_INSTALL}")
    try:
        yield server
    finally:
        _stop(root)


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
