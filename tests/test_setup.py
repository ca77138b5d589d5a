"""The README's set-up: the two lines work on a fresh Debian machine, and CI runs exactly them."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_setup_lines() -> list[str]:
    """The commands of the README's first ``sh`` block under "## Set-up", comments cut off."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Set-up\n"):]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None, "no sh block under ## Set-up"
    return [re.sub(r"\s+#[^']*$", "", line) for line in block.group(1).splitlines() if line.strip()]


def test_setup_lines_make_their_own_virtual_environment() -> None:
    """Both set-up lines create .venv and use its pip and python, never a bare pip (refused on Debian)."""
    lines = readme_setup_lines()
    assert len(lines) == 2
    for line in lines:
        assert line.startswith("python3 -m venv .venv && .venv/bin/pip install -e "), line
        assert re.search(r"(^|&& )pip ", line) is None and " python -m" not in line, line
    assert lines[0].endswith(".venv/bin/python -m bot")
    assert lines[1].endswith(".venv/bin/python -m pytest") and "'.[test]'" in lines[1]


def test_ci_runs_exactly_the_readme_lines() -> None:
    """.ci/run reads its two commands from the README: what it would run is what the README says."""
    assert readme_setup_lines()[0].startswith("python3 -m venv")  # else .ci/run would run it all
    printed = subprocess.run(
        ["bash", str(ROOT / ".ci" / "run"), "--print"], capture_output=True, text=True, timeout=60,
    )
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout.splitlines() == readme_setup_lines()
