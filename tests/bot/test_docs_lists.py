"""The lists in the docs that name every system's part: effect values, example fights, turns that end by themselves."""
from __future__ import annotations

from pathlib import Path

from rules.registry import all_systems

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = (ROOT / "docs" / "commands.md").read_text()
README = (ROOT / "README.md").read_text()


def paragraph(text: str, start: str) -> str:
    """The list item of ``text`` that begins with ``start`` (up to the next item)."""
    found = text[text.index(start):]
    return found[:found.find("\n- ", 1)]


def test_every_systems_effect_values_are_listed() -> None:
    """docs/commands.md, "Effects that change numbers": "Each system declares the values effects may change" and the
    paragraph names each system's values."""
    listed = paragraph(COMMANDS, "- **Effects that change numbers.**")
    for system in all_systems():
        for value in system.effect_values:
            assert f"`{value.name}`" in listed, (system.key, value.name)
    assert "the open system `attack`, `ac`, `damage`, `save`, `speed`" in listed


def test_every_example_fight_is_in_the_readme() -> None:
    """README: "A longer fight for each system is in `bot/examples/`": each file there is listed."""
    for example in sorted((ROOT / "bot" / "examples").glob("*.txt")):
        assert f"bot/examples/{example.name}" in README, example.name


def test_turns_that_end_by_themselves_name_each_system_with_auto_end() -> None:
    """docs/commands.md, "Turns that end by themselves": each system with option `auto_end` is named there."""
    listed = paragraph(COMMANDS, "- **Turns that end by themselves**")
    names = {"knights-of-valour": "in Knights of Valour", "open": "in the open system"}
    assert {s.key for s in all_systems() if any(o.name == "auto_end" for o in s.options.options)} == set(names)
    for name in names.values():
        assert name in listed


def test_the_open_systems_help_says_a_save_may_take_nothing() -> None:
    """docs/systems/open.md: "a success takes half (`half`) or nothing": `/help system:open` says both."""
    summary = " ".join(next(s for s in all_systems() if s.key == "open").rules_summary)
    assert "a save halves the damage (`half`) or takes none" in summary


def test_the_readme_cites_the_open_rules_reference_of_the_open_systems_conditions() -> None:
    """Issue #27, item 6: "Conditions ... with the advantage/disadvantage and speed effects each one names in an open
    rules reference the README cites": the README names the reference (SRD 5.1) and its licence (CC-BY-4.0)."""
    assert "System Reference Document 5.1" in README and "CC-BY-4.0" in README
    cited = README[README.index("System Reference Document 5.1") - 300:README.index("System Reference Document 5.1")]
    assert "Open d20" in cited
