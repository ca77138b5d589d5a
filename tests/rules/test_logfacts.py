"""The action log's facts (rules/logfacts.py): a system's events are stored by their type's name
and read back as the same events."""
from __future__ import annotations

from collections import Counter

import pytest

from rules.events import Attacked, Damaged, Event, Roll, mod
from rules.logfacts import (
    Deadline,
    LogFacts,
    _subclasses,
    event_types,
    facts_report,
    log_facts,
)
from rules.models import Combatant, Encounter
from rules.registry import SYSTEMS, get_system
from rules.report import events_report


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.key)
def test_each_systems_event_types_have_distinct_names(system: type) -> None:
    """No two event types a system can give share a class name (the log stores events by it)."""
    package = system.__module__
    mine = [c for c in _subclasses(Event)
            if c.__module__ == Event.__module__ or c.__module__ == package or c.__module__.startswith(package + ".")]
    assert [n for n, k in Counter(c.__name__ for c in mine).items() if k > 1] == []
    assert set(event_types(get_system(system.key))) == {c.__name__ for c in mine}


def test_events_read_back_from_their_facts_as_the_same_events() -> None:
    """An attack and its damage, stored as facts and read back, render the same lines for the GM and for players; of
    the hidden, only those the events name are kept (the Orc, hidden but not in them, is not)."""
    system = get_system("open")
    enc = Encounter(system="open", combatants=[
        Combatant(name="Borin", side="dwarves", hp=3, sheet={"hp": 3, "max_hp": 3}),
        Combatant(name="Grak", side="orcs", hp=1, sheet={"hp": 3, "max_hp": 3}),
        Combatant(name="Orc", side="orcs", hp=2, sheet={"hp": 3, "max_hp": 3})])
    events = [Attacked(actor="Borin", target="Grak", weapon="hammer",
                       roll=Roll(dice=[5], modifiers=[mod("charge", 1)], total=6, against=4, success=True)),
              Damaged(actor="Grak", amount=2, before=3, after=1)]
    hide = frozenset({"Grak", "Orc"})
    facts = LogFacts.model_validate_json(log_facts(events, system, enc, hide))
    assert facts.hidden == ["Grak"] and facts.conditions == {"Grak": "badly hurt"}
    assert [e["type"] for e in facts.events] == ["Attacked", "Damaged"]
    assert facts_report(system, facts).lines == events_report("", events, system, enc, hide).lines


@pytest.mark.parametrize("extra", [{}, {"lapse": "the first choice"}, {"deadline": Deadline(whose="Þrór", hours=1.5, policy="pass")}],
                         ids=["plain", "lapse", "deadline"])
@pytest.mark.parametrize("hide", [frozenset(), frozenset({"Grak", "Orc"})], ids=["shown", "hidden"])
@pytest.mark.parametrize("count", [0, 1, 3])
def test_the_facts_json_is_what_logfacts_writes_of_the_events(extra: dict, hide: frozenset[str], count: int) -> None:
    """The log's text of a command's facts is, byte for byte, `LogFacts`' own JSON of its events' dumps (no events, hidden names, a lapse or a deadline alike)."""
    system = get_system("open")
    enc = Encounter(system="open", combatants=[
        Combatant(name="Borin", side="dwarves", hp=3, sheet={"hp": 3, "max_hp": 3}),
        Combatant(name="Grak", side="orcs", hp=1, sheet={"hp": 3, "max_hp": 3}),
        Combatant(name="Orc", side="orcs", hp=2, sheet={"hp": 3, "max_hp": 3})])
    events: list[Event] = [Attacked(actor="Borin", target="Grak", weapon="hämmer \"of\" 1/2",
                                    roll=Roll(dice=[5, 1], typed=[1], modifiers=[mod("charge", 1, "Þrór", 2)], total=6, against=4, success=True)),
                           Damaged(actor="Grak", amount=2, before=3, after=1), Event()][:count]
    named = sorted({"Grak"} & hide) if count else []
    expected = LogFacts(events=[{"type": type(e).__name__, **e.model_dump(exclude_defaults=True)} for e in events], hidden=named,
                        conditions={n: "badly hurt" for n in named}, **extra).model_dump_json(exclude_defaults=True)
    assert log_facts(events, system, enc, hide, **extra) == expected
