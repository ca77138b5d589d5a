"""The README's per-system tables are exactly what the systems declare."""
from __future__ import annotations

from pathlib import Path

import pytest

from bot.docs import system_tables, write_tables
from rules.registry import all_systems

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_readme_tables_come_from_the_declarations(system) -> None:  # type: ignore[no-untyped-def]
    """Each system's sheet keys, options and actions in the README are the generated block."""
    text = README.read_text(encoding="utf-8")
    block = f"<!-- tables:{system.key} -->\n{system_tables(system)}\n<!-- /tables:{system.key} -->"
    assert block in text, f"run `python -m bot docs --write README.md` to refresh the {system.key} tables"


def test_every_declared_option_and_action_is_in_its_table() -> None:
    """The generated tables name every option and `/act` action a system declares."""
    for system in all_systems():
        tables = system_tables(system)
        assert all(f"`{o.name}`" in tables for o in system.options)
        assert all(f"`{a.name}`" in tables for a in system.actions)


def test_write_tables_refuses_a_readme_without_the_markers() -> None:
    """A README without a system's markers is an error, not a silent skip."""
    with pytest.raises(ValueError, match="tables:"):
        write_tables("# no markers here\n")
