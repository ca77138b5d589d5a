"""The README's per-system tables, made from the systems' declarations.

Each system's sheet keys, encounter options and `/act` actions are declared once in its
package; this module writes them as Markdown between markers in README.md
(``<!-- tables:KEY -->`` ... ``<!-- /tables:KEY -->``). ``python -m bot docs`` prints them,
``python -m bot docs --write README.md`` puts them in place, and a test checks that the README
holds exactly what the declarations say.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from rules.system import RuleSystem
from rules.registry import all_systems

__all__ = ["system_tables", "write_tables", "main"]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out


def system_tables(system: RuleSystem) -> str:
    """Sheet keys, encounter options and `/act` actions of ``system``, as Markdown."""
    lines: list[str] = []
    keys = system.sheet_keys(None)
    lines += _table(
        ("key", "meaning", "accepted values", "default"),
        [(f"`{k.name}`", k.help + (" (cosmetic)" if k.cosmetic else ""), k.accepted(), k.default_text()) for k in keys],
    )
    rows = system.options.rows()
    if rows:
        lines += ["", "Encounter options (`/encounter settings options:\"key=value\"`):", ""]
        lines += _table(("option", "meaning", "accepted values", "default"), [(f"`{n}`", m, a, d) for n, m, a, d in rows])
    if len(system.actions):
        lines += ["", "Actions (`/act action:`):", ""]
        lines += [f"- {line}" for line in system.actions.lines()]
    if system.commands.command_lines():
        lines += ["", "Words of the other commands (`options:`):", ""]
        lines += [f"- {line}" for line in system.commands.command_lines()]
    return "\n".join(lines)


def _block(key: str, body: str) -> str:
    return f"<!-- tables:{key} -->\n{body}\n<!-- /tables:{key} -->"


def _pattern(key: str) -> re.Pattern[str]:
    return re.compile(rf"<!-- tables:{re.escape(key)} -->\n(?:.*?\n)?<!-- /tables:{re.escape(key)} -->", re.S)


def write_tables(text: str) -> str:
    """``text`` (a README) with every system's block replaced by what the declarations say."""
    for system in all_systems():
        block = _block(system.key, system_tables(system))
        text, found = _pattern(system.key).subn(lambda _m: block, text)
        if not found:
            raise ValueError(f"README.md has no <!-- tables:{system.key} --> block")
    return text


def main(argv: list[str]) -> int:
    if argv[:1] == ["--write"] and len(argv) == 2:
        path = Path(argv[1])
        path.write_text(write_tables(path.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    if argv == ["--images"]:
        from bot.mapdocs import write_images

        for path in write_images():
            print(f"wrote {path}")
        return 0
    if argv:
        print("usage: python -m bot docs [--write README.md | --images]", file=sys.stderr)
        return 2
    for system in all_systems():
        print(_block(system.key, system_tables(system)), end="\n\n")
    return 0
