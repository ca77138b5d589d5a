"""Help pages are built from the registry and fit in one embed."""
from __future__ import annotations

import pytest
from discord import app_commands

from bot.helptext import COMMANDS, help_report
from bot.offline.harness import Harness
from bot.render import to_embed
from rules.errors import InputError
from rules.options import OptionSet
from rules.registry import all_systems, get_system

PARTS = [None, "sheet", "actions", "options"]


@pytest.mark.parametrize("key", [None] + [s.key for s in all_systems()])
@pytest.mark.parametrize("part", PARTS)
def test_help_fits_one_embed_without_cutting(key: str | None, part: str | None) -> None:
    """Every help page fits Discord's embed limits as built, so nothing is cut off."""
    report = help_report(key, part)
    assert all(len(value) <= 1024 and len(name) <= 256 for name, value in report.fields)
    embed = to_embed(report)
    assert len(embed) <= 6000
    assert len(embed.fields) == len(report.fields)


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_help_lists_every_sheet_key_and_option(system) -> None:
    """The sheet page names every sheet key; the options page every encounter option."""
    sheet = help_report(system.key).text()
    assert all(f"`{k.name}`" in sheet for k in system.sheet_keys(None))
    options = help_report(system.key, "options").text()
    assert all(f"`{k}`" in options for k in system.options_help)


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_help_explains_every_act_action(system) -> None:
    """The actions page gives every declared `/act` action its line: cost, what it does, its options."""
    text = help_report(system.key, "actions").text()
    assert all(spec.line()[:60] in text for spec in system.actions)


@pytest.mark.parametrize("key", ["coup-de-grace", "knights-of-valour", "tote"])
def test_help_lists_the_declared_words_of_every_action_and_command(key: str) -> None:
    """The actions page shows each declared `options:` word, of `/act` actions and of `/attack` and the like."""
    system = get_system(key)
    text = help_report(key, "actions").text()
    specs = [*system.actions, *system.commands]
    assert system.commands.command_lines() and all(f"`{OptionSet.form(o)}`" in text for s in specs for o in s.words)


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_help_gives_each_systems_rules_in_short_lines(system) -> None:
    """`/help system:` opens with the system's rules in a few short lines."""
    assert 3 <= len(system.rules_summary) <= 8
    assert all(len(line) <= 200 for line in system.rules_summary)
    report = help_report(system.key)
    assert report.lines[: len(system.rules_summary)] == list(system.rules_summary)


@pytest.mark.parametrize("part", ["sheet", "actions", "options"])
def test_a_part_without_a_system_says_it_needs_one(part: str) -> None:
    """`/help part:actions` with no system says to add `system`, with an example."""
    first = help_report(None, part).lines[0]
    assert "add `system`" in first and f"part:{part}`" in first


def test_the_command_list_names_effects_and_reveal() -> None:
    """The command list includes `/effect` and `/encounter reveal`."""
    text = help_report().text()
    assert "/effect add" in text and "/encounter reveal" in text


def test_help_names_the_buttons_and_how_to_skip_a_question() -> None:
    """The command list says what End turn, Map and Undo do and that `confirm:true` skips the question."""
    text = help_report().text()
    assert "**End turn**" in text and "**Map**" in text and "**Undo**" in text and "`confirm:true`" in text


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_the_sheet_part_shows_the_sheet_keys_alone(system) -> None:
    """`/help system:X part:sheet` is a page of X's sheet keys, not the system's opening page."""
    report = help_report(system.key, "sheet")
    assert report.title.endswith("sheet keys") and report.lines[0] != system.rules_summary[0]
    assert all(f"`{k.name}`" in report.text() for k in system.sheet_keys(None))


def test_an_unknown_part_is_refused_in_one_line_naming_the_parts() -> None:
    """An unknown `part` gets one line that lists the parts, not a page."""
    with pytest.raises(InputError) as caught:
        help_report("tote", "weapons")
    assert str(caught.value) == "`part:weapons` is not a part of the help: use `sheet`, `actions`, `options`."


def _overview_options() -> dict[str, list[str]]:
    """The help overview's commands with the options it names for each (`COMMANDS`): a segment that starts with
    `/` names its command (a group's, with the subcommand after it), one that does not a subcommand of the last
    group named."""
    named: dict[str, list[str]] = {}
    for line, _ in COMMANDS:
        group = ""
        for segment in line.split(" · "):
            words = segment.split()
            if words[0].startswith("/"):
                group, words = words[0][1:], words[1:]
                name, options = (f"{group} {words[0]}", words[1:]) if group in GROUPS else (group, words)
            else:
                name, options = f"{group} {words[0]}", words[1:]
            assert name not in named, f"/{name} is named twice"
            named[name] = options
    return named


GROUPS = ("encounter", "combatant", "init", "effect")


async def test_the_overview_names_every_command_with_every_option(harness_db: str) -> None:
    """`/help` names each slash command of the tree, each with every option it takes, in the order and with the
    names Discord shows."""
    h = await Harness.create(harness_db)
    try:
        tree = {c.qualified_name: [p.display_name for p in c.parameters] for c in h.bot.tree.walk_commands()
                if isinstance(c, app_commands.Command)}
    finally:
        await h.close()
    assert {c.partition(" ")[0] for c in tree if " " in c} == set(GROUPS)
    assert _overview_options() == tree
