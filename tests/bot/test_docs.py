"""The documentation: a short README that links every page, and generated parts that are exactly
what the systems declare (README.md's list of systems, each docs/systems page's tables)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from bot.docs import (
    ROOT,
    broken_links,
    documents,
    main,
    system_page,
    system_tables,
    write_blocks,
    write_docs,
)
from bot.offline.harness import Harness
from bot.settings import Settings
from rules.registry import all_systems

README = ROOT / "README.md"
DOCS = ROOT / "docs"


def _copy_docs(tmp_path: Path) -> Path:
    """README.md and docs/ copied under ``tmp_path``."""
    shutil.copy(README, tmp_path / "README.md")
    shutil.copytree(DOCS, tmp_path / "docs")
    return tmp_path


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_system_page_tables_come_from_the_declarations(system) -> None:
    """Each system's sheet keys, options and actions on its page are the generated block."""
    text = system_page(system.key).read_text(encoding="utf-8")
    block = f"<!-- tables:{system.key} -->\n{system_tables(system)}\n<!-- /tables:{system.key} -->"
    assert block in text, f"run `python -m bot docs --write` to refresh the {system.key} tables"


def test_every_generated_file_is_up_to_date() -> None:
    """README.md and every system page read exactly as `python -m bot docs --write` writes them."""
    stale = [str(p.relative_to(ROOT)) for p, text in documents().items() if p.read_text(encoding="utf-8") != text]
    assert stale == [], "run `python -m bot docs --write`"
    assert {p.relative_to(ROOT).as_posix() for p in documents()} == {"README.md"} | {
        f"docs/systems/{s.key}.md" for s in all_systems()
    }


def test_there_is_a_page_for_each_system_and_no_other() -> None:
    """docs/systems/ holds one page per registered system, so no page outlives its system."""
    assert {p.stem for p in (DOCS / "systems").glob("*.md")} == {s.key for s in all_systems()}


def test_every_declared_option_and_action_is_in_its_table() -> None:
    """The generated tables name every option and `/act` action a system declares."""
    for system in all_systems():
        tables = system_tables(system)
        assert all(f"`{o.name}`" in tables for o in system.options)
        assert all(f"`{a.name}`" in tables for a in system.actions)


def test_write_blocks_refuses_a_text_without_the_markers() -> None:
    """A file without a block's markers is an error, not a silent skip."""
    with pytest.raises(ValueError, match="README.md has no <!-- systems --> block"):
        write_blocks("# no markers here\n", {"systems": "- a"}, "README.md")


def test_a_missing_system_page_is_an_error(tmp_path: Path) -> None:
    """With a system's page gone, the generator names it instead of skipping it."""
    root = _copy_docs(tmp_path)
    system_page("tote", root).unlink()
    with pytest.raises(ValueError, match="tote.md is missing"):
        documents(root)


def test_docs_write_rewrites_every_stale_file(tmp_path: Path) -> None:
    """`python -m bot docs --write README.md` puts back a changed table and a changed README list."""
    root = _copy_docs(tmp_path)
    page = system_page("knights-of-valour", root)
    page.write_text(page.read_text(encoding="utf-8").replace("| `hp` |", "| `hit points` |"), encoding="utf-8")
    readme = root / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8").replace("(`tote`): no map", "(`tote`): a grid"), encoding="utf-8")
    assert main(["--write", str(readme)]) == 0
    assert page.read_text(encoding="utf-8") == system_page("knights-of-valour").read_text(encoding="utf-8")
    assert readme.read_text(encoding="utf-8") == README.read_text(encoding="utf-8")
    assert write_docs(root) == []


def test_every_link_between_the_readme_and_docs_leads_somewhere() -> None:
    """Each relative link and picture in README.md and docs/ names a file or folder there, and its
    #anchor a heading of that file."""
    assert broken_links() == []


def test_a_broken_link_or_anchor_is_found(tmp_path: Path) -> None:
    """The link check catches a file that is not there and a heading that is not there."""
    root = _copy_docs(tmp_path)
    page = root / "docs" / "commands.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text + "\n[gone](nowhere.md) and [no heading](../README.md#no-such-heading)\n", encoding="utf-8")
    assert broken_links(root) == ["docs/commands.md: nowhere.md", "docs/commands.md: ../README.md#no-such-heading"]


def test_the_readme_is_a_quick_start_that_links_every_page() -> None:
    """README.md stays under 300 lines, has the first ten minutes' sections, and links each page."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 300
    for section in ("## Set-up", "### Creating the Discord application", "### Settings", "## Try it offline: the console",
                    "## Commands", "## The map", "## The systems", "## Read more"):
        assert f"\n{section}\n" in text, section
    pages = ["docs/commands.md", "docs/deployment.md", "docs/development.md"]
    pages += [f"docs/systems/{s.key}.md" for s in all_systems()]
    assert [p for p in pages if f"]({p}" not in text] == []


def test_every_setting_is_in_the_readme() -> None:
    """Each setting the bot reads has a row in the README's settings table."""
    text = README.read_text(encoding="utf-8")
    settings = text[text.index("### Settings"):text.index("## Try it offline")]
    assert [n.upper() for n in Settings.model_fields if f"| `{n.upper()}` |" not in settings] == []


async def test_every_command_and_option_is_in_the_commands_page(harness_db: str) -> None:
    """docs/commands.md has a row for each slash command naming each of its options, and the
    README's overview names each command."""
    rows = {m[0]: m[1] for m in re.findall(r"^\| `(/[^`]+)` \|(.*)$", (DOCS / "commands.md").read_text(encoding="utf-8"), re.M)}
    overview = README.read_text(encoding="utf-8").split("## Commands", 1)[1].split("\n## ", 1)[0]
    h = await Harness.create(harness_db)
    try:
        leaves = [c for c in h.bot.tree.walk_commands() if hasattr(c, "parameters")]
    finally:
        await h.close()
    missing = [
        f"/{c.qualified_name} {p.display_name if p else ''}".strip()
        for c in leaves for p in [None, *c.parameters]
        if (p is None and f"/{c.qualified_name}" not in rows)
        or (p is not None and f"`{p.display_name}`" not in rows.get(f"/{c.qualified_name}", ""))
    ]
    assert missing == []
    unnamed = []
    for c in leaves:
        group, _, sub = c.qualified_name.partition(" ")
        lines = [ln for ln in overview.splitlines() if f"`/{group}" in ln]
        if not any((f"`{sub}`" in ln or f"`/{group} {sub}`" in ln) if sub else f"`/{group}`" in ln for ln in lines):
            unnamed.append(c.qualified_name)
    assert unnamed == []
