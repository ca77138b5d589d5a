"""The type checker runs with the tests: mypy (configured in pyproject.toml), strict, finds nothing
in bot/, cogs/, rules/ and data/, and every `# type: ignore` left names its error code and says why."""
from __future__ import annotations

import re
import subprocess
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: an ignore comment with its code(s) in brackets, then a second `#` and the reason
IGNORE = re.compile(r"#\s*type:\s*ignore(\[[a-z0-9-]+(?:,\s*[a-z0-9-]+)*\])?(\s*#\s*\S.*)?")


def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_mypy_strict_finds_nothing() -> None:
    """`python -m mypy --strict bot cogs rules data` reports no error."""
    done = _mypy("--strict", "bot", "cogs", "rules", "data")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_mypy_would_find_a_wrong_return_type(tmp_path: Path) -> None:
    """The check is live: the same configuration flags a function that returns the wrong type."""
    bad = tmp_path / "bad.py"
    bad.write_text("def half(n: int) -> int:\n    return n / 2\n", encoding="utf-8")
    done = _mypy("--strict", "--config-file", str(ROOT / "pyproject.toml"), str(bad))
    assert done.returncode == 1 and "Incompatible return value type" in done.stdout


def test_every_type_ignore_names_its_code_and_a_reason() -> None:
    """No bare `type: ignore` comment: each names the error it silences and says why, after a second `#`."""
    bare = []
    for path in sorted(ROOT.glob("*/**/*.py")):
        if path.relative_to(ROOT).parts[0] not in ("bot", "cogs", "rules", "data", "tests"):
            continue
        with path.open("rb") as f:
            comments = [t for t in tokenize.tokenize(f.readline) if t.type == tokenize.COMMENT]
        for token in comments:
            for m in IGNORE.finditer(token.string):
                if not m.group(1) or not m.group(2):
                    bare.append(f"{path.relative_to(ROOT)}:{token.start[0]}: {token.string}")
    assert bare == [], "\n".join(bare[:40])


def test_the_ignore_check_would_find_a_bare_one() -> None:
    """The check is live: of a bare ignore, one without a reason and one with both, it reports the first two."""
    found = [m for line in ("x = 1  # type: ignore", "x = 1  # type: ignore[misc]", "x = 1  # type: ignore[misc]  # why")
             for m in IGNORE.finditer(line) if not m.group(1) or not m.group(2)]
    assert len(found) == 2
