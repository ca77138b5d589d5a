"""Where the words are made, read from each system's source: its rules name every term (`mod`,
`Term`, `Modifier`) by a literal code its presenter has words for, a roll's label is dice notation,
and its presenter imports nothing that works a rule out (issue 24: "No text made in the rules ...
presenters make every sentence. Presenters do not import rules to compute while rendering")."""
from __future__ import annotations

import pytest

from rules.registry import all_systems
from rules.system import RuleSystem
from tests.rules.wording import dice_labels, named_terms, presenter_imports


def _package(system: RuleSystem) -> str:
    return type(system).__module__.removeprefix("rules.systems.")


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_every_term_the_rules_name_is_a_literal_code_the_presenter_words(system: RuleSystem) -> None:
    """Each term of the rules is named by a literal code (names and numbers in its args), and the presenter words every code."""
    found = named_terms(_package(system))
    assert found, "the scan finds the system's terms"
    assert [(module, line) for module, line, code in found if code is None] == []
    words = system.present._term_words()
    assert sorted({f"{module}:{line} {code}" for module, line, code in found if code not in words}) == []


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_every_roll_label_is_dice_notation(system: RuleSystem) -> None:
    """A roll's label says its dice only (``3d6``): anything more is a fact of the event that the presenter words."""
    assert dice_labels(_package(system)) == []


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_the_presenter_imports_nothing_that_works_a_rule_out(system: RuleSystem) -> None:
    """A presenter imports events, facts, stored state, word helpers, types and constant tables only."""
    assert presenter_imports(_package(system)) == []


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_a_presenters_merged_tables_are_made_once_for_its_class(system: RuleSystem) -> None:
    """A presenter's terms and formats, merged along its bases, are made once for its class and read
    after that (every event's line looks its format up): the same dictionary each time."""
    presenter = type(system.present)
    assert presenter._term_words() is presenter._term_words()
    assert presenter._formats() is presenter._formats()
