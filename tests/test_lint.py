"""The linter runs with the tests: ruff (pyflakes, pycodestyle and import order, configured in
pyproject.toml) finds nothing in the repository."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing() -> None:
    """`ruff check .` passes: no unused import or name, no unsorted imports, no pycodestyle error."""
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_would_find_an_unused_import(tmp_path: Path) -> None:
    """The check is live: the same configuration flags an unused import in a file of the project's layout."""
    bad = tmp_path / "rules"
    bad.mkdir()
    (bad / "bad.py").write_text("import os\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"),
                           str(bad / "bad.py")], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "F401" in done.stdout
