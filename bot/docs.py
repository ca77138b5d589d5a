"""The generated parts of the documentation, made from the systems' declarations.

Each system's sheet keys, encounter options and `/act` actions are declared once in its
package; this module writes them as Markdown between markers on the system's page,
``docs/systems/KEY.md`` (``<!-- tables:KEY -->`` ... ``<!-- /tables:KEY -->``), and the list of
systems with links to those pages into README.md (``<!-- systems -->`` ... ``<!-- /systems -->``).
``python -m bot docs`` prints the blocks, ``python -m bot docs --write`` puts them in place in
every file, and a test checks that every file holds exactly what the declarations say. The
same test checks that every relative link between README.md and docs/ leads somewhere.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from rules.effects import change_range
from rules.registry import all_systems
from rules.system import RuleSystem

__all__ = ["ROOT", "broken_links", "documents", "system_page", "system_tables", "systems_list",
           "write_blocks", "write_docs", "main"]

#: the checkout the command runs from (README.md and docs/ are in it)
ROOT = Path(__file__).resolve().parents[1]

#: how each kind of map reads in the README's list of systems
_MAP_WORDS = {"square": "square grid", "hex": "hex grid", "none": "no map: range bands"}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out


def system_page(key: str, root: Path = ROOT) -> Path:
    """The page of the system ``key``: its rules, and the tables made here."""
    return root / "docs" / "systems" / f"{key}.md"


def system_tables(system: RuleSystem) -> str:
    """Sheet keys, the values effects change, encounter options and `/act` actions of ``system``, as Markdown."""
    lines: list[str] = []
    keys = system.sheet_keys(None)
    lines += _table(
        ("key", "meaning", "accepted values", "default"),
        [(f"`{k.name}`", k.help + (" (cosmetic)" if k.cosmetic else ""), k.accepted(), k.default_text()) for k in keys],
    )
    if system.effect_values:
        lines += ["", "Values effects change (`/effect add mods:\"value+N\"`, the most one effect changes each by):", ""]
        lines += _table(("value", "meaning", "change"), [(f"`{v.name}`", v.help, change_range(v)) for v in system.effect_values])
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


def systems_list() -> str:
    """The README's list of systems: each one's name, key, map and variants, linking its page."""
    lines = []
    for system in all_systems():
        maps = " or ".join(_MAP_WORDS.get(kind, kind) for kind in system.map_kinds)
        variants = "".join(f"; variant `{v}`" for v in system.variants)
        lines.append(f"- [**{system.title}**](docs/systems/{system.key}.md) (`{system.key}`): {maps}{variants}")
    return "\n".join(lines)


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"<!-- {re.escape(name)} -->\n(?:.*?\n)?<!-- /{re.escape(name)} -->", re.S)


def write_blocks(text: str, blocks: dict[str, str], where: str = "the file") -> str:
    """``text`` with each ``<!-- NAME -->`` ... ``<!-- /NAME -->`` block of ``blocks`` replaced by
    its body; a block ``text`` lacks is an error, not a silent skip."""
    for name, body in blocks.items():
        block = f"<!-- {name} -->\n{body}\n<!-- /{name} -->"
        text, found = _pattern(name).subn(lambda _m: block, text)
        if not found:
            raise ValueError(f"{where} has no <!-- {name} --> block")
    return text


def _blocks(root: Path) -> dict[Path, dict[str, str]]:
    """Each file that holds generated parts, and the blocks it holds."""
    files = {root / "README.md": {"systems": systems_list()}}
    for system in all_systems():
        files[system_page(system.key, root)] = {f"tables:{system.key}": system_tables(system)}
    return files


def documents(root: Path = ROOT) -> dict[Path, str]:
    """Each file with generated parts, as it should read: its text with every block rewritten
    from the declarations. A file or block that is missing is an error."""
    out = {}
    for path, blocks in _blocks(root).items():
        if not path.is_file():
            raise ValueError(f"{path.relative_to(root)} is missing")
        out[path] = write_blocks(path.read_text(encoding="utf-8"), blocks, str(path.relative_to(root)))
    return out


def write_docs(root: Path = ROOT) -> list[Path]:
    """Rewrite the generated parts of every file under ``root``; the files that changed."""
    changed = []
    for path, text in documents(root).items():
        if path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed


_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)
_CODE = re.compile(r"`[^`\n]*`")


def _anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of ``text`` (lower case, punctuation dropped,
    spaces to hyphens, a repeated heading numbered)."""
    seen: dict[str, int] = {}
    anchors = set()
    for heading in re.findall(r"^#{1,6} (.+)$", _FENCE.sub("", text), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(f"{slug}-{count}" if count else slug)
    return anchors


def broken_links(root: Path = ROOT) -> list[str]:
    """Every relative link in README.md and docs/**/*.md whose file, folder or heading is not
    there, as ``file: target``."""
    broken = []
    for path in [root / "README.md", *sorted((root / "docs").rglob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for target in _LINK.findall(_CODE.sub("", _FENCE.sub("", text))):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            dest = (path.parent / file).resolve() if file else path
            if not dest.exists() or (anchor and (not dest.is_file() or anchor not in _anchors(dest.read_text(encoding="utf-8")))):
                broken.append(f"{path.relative_to(root)}: {target}")
    return broken


def main(argv: list[str]) -> int:
    if argv[:1] == ["--write"] and len(argv) <= 2:
        root = Path(argv[1]).resolve().parent if len(argv) == 2 else ROOT
        for path in write_docs(root):
            print(f"wrote {path}")
        return 0
    if argv == ["--images"]:
        from bot.maps import write_images

        for path in write_images():
            print(f"wrote {path}")
        return 0
    if argv:
        print("usage: python -m bot docs [--write [README.md] | --images]", file=sys.stderr)
        return 2
    for path, blocks in _blocks(ROOT).items():
        for name, body in blocks.items():
            print(f"{path.relative_to(ROOT)}:\n<!-- {name} -->\n{body}\n<!-- /{name} -->", end="\n\n")
    return 0
