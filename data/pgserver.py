"""A throwaway PostgreSQL server: ``initdb`` and ``pg_ctl`` in a temp dir, on a Unix socket.

The test session (tests/backends.py) and ``python -m bot benchmark --backends sqlite,postgresql``
both start their server here. The server listens on no TCP port, runs with fsync off (its data
is thrown away at the end), and runs as the ``postgres`` user when we are root (PostgreSQL
refuses to run as root). `PgServer.fresh_url` hands out an empty schema per caller.
"""
from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "PgServer", "start_server", "stop_server", "running_server", "create_schema", "drop_schema",
    "halt_server", "resume_server",
]


@dataclass
class PgServer:
    """A running PostgreSQL server: its socket folder and a counter for fresh schema names."""

    socket_dir: str
    names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def url(self, database: str) -> str:
        """The URL of ``database`` on this server."""
        return f"postgresql://postgres@/{database}?host={self.socket_dir}"

    async def fresh_url(self) -> str:
        """Create an empty schema and return the URL of the database with it first in the path."""
        return await create_schema(self.url("postgres"), f"t{next(self.names)}")


async def _admin(url: str, sql: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(url)
    try:
        await admin.execute(sql)
    finally:
        await admin.close()


async def create_schema(url: str, name: str) -> str:
    """Create the empty schema ``name`` (letters, digits, _) in the database ``url`` names; return
    ``url`` with that schema first in its search path."""
    if not name.replace("_", "").isalnum():
        raise ValueError(f"not a schema name: {name!r}")
    await _admin(url, f"CREATE SCHEMA {name}")
    return f"{url}{'&' if '?' in url else '?'}search_path={name}"


async def drop_schema(url: str, name: str) -> None:
    """Drop the schema ``name`` and everything in it from the database ``url`` names."""
    if not name.replace("_", "").isalnum():
        raise ValueError(f"not a schema name: {name!r}")
    await _admin(url, f"DROP SCHEMA IF EXISTS {name} CASCADE")


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


def start_server(root: str) -> PgServer:
    """initdb and start a server under the folder ``root``; raise RuntimeError saying what failed."""
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
    _run(root, [str(bindir / "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8",
                "--no-sync", "--locale=C"])
    resume_server(root)
    return PgServer(root)


def _run(root: str, argv: list[str]) -> None:
    """Run a server tool as the server's user; raise RuntimeError with its output and the log's tail."""
    done = subprocess.run(_as_server_user(argv), capture_output=True, text=True)
    if done.returncode != 0:
        log = Path(root, "log")
        tail = log.read_text(errors="replace")[-500:] if log.exists() else ""
        raise RuntimeError(
            f"{Path(argv[0]).name} failed ({done.returncode}): "
            f"{(done.stderr or done.stdout).strip()[-500:]} {tail}".strip()
        )


def _pg_ctl(root: str, *args: str) -> None:
    bindir = _bindir()
    if bindir is None:
        raise RuntimeError("initdb and pg_ctl were not found")
    _run(root, [str(bindir / "pg_ctl"), "-D", os.path.join(root, "data"), *args])


def resume_server(root: str) -> None:
    """Start the server made under ``root`` (again, after `halt_server`); returns once it accepts
    connections."""
    _pg_ctl(root, "-l", os.path.join(root, "log"), "-w", "-t", "60",
            "-o", f"-k {root} -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
            "-c full_page_writes=off -c max_connections=200", "start")


def halt_server(root: str) -> None:
    """Stop the server under ``root`` as an administrator does (``-m fast``: every session is cut,
    what was committed is kept; `stop_server` stops it as a crash would, the data being thrown away)."""
    _pg_ctl(root, "-m", "fast", "-w", "stop")


def stop_server(root: str) -> None:
    """Stop the server under ``root`` (if it runs) and delete the folder."""
    bindir = _bindir()
    if bindir is not None and os.path.exists(os.path.join(root, "data", "postmaster.pid")):
        subprocess.run(
            _as_server_user([str(bindir / "pg_ctl"), "-D", os.path.join(root, "data"), "-m",
                             "immediate", "-w", "stop"]),
            capture_output=True,
        )
    shutil.rmtree(root, ignore_errors=True)


@contextmanager
def running_server() -> Iterator[PgServer]:
    """A server in a new temp dir for the ``with`` block; stopped and deleted after it."""
    root = tempfile.mkdtemp(prefix="skirmish-pg-")
    try:
        yield start_server(root)
    finally:
        stop_server(root)
