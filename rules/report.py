"""Reports: one command's events, and the status board, in a system's words (`rules.present`).

The text they are made of (`Report`, `plural`, `user_ref`...) lives in `rules.text`, whose
names this module gives too."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.facts import Facts
from rules.models import Encounter
from rules.system import RuleSystem
from rules.text import (
    COLOURS,
    TYPED,
    Report,
    die_text,
    joined,
    plural,
    render_users,
    signed,
    user_ref,
)

__all__ = ["Report", "user_ref", "render_users", "die_text", "TYPED", "signed", "plural", "COLOURS", "events_report", "board_report", "joined"]


def events_report(
    title: str, events: Sequence[Any], system: RuleSystem, enc: Encounter | None = None, hide: frozenset[str] = frozenset()
) -> Report:
    """The report of one command's events, in the system's words (`RuleSystem.present`): the
    lines that would show a number of ``hide`` (combatants of ``enc``) are marked with their
    public version (`rules.hidden.mark`; `Report.for_reader` picks one per reader)."""
    present = system.present.view(enc, hide) if enc is not None else system.present
    return present.report(title, events)


def board_report(system: RuleSystem, enc: Encounter, numbers: bool = False, facts: Facts | None = None) -> Report:
    """The status board (`rules.present.Presenter.board`): hidden combatants' health as condition
    words unless ``numbers`` (the GM's own view); ``facts``: ``system.facts(enc)``, if worked out."""
    facts = system.facts(enc) if facts is None else facts
    return system.present.view(enc, frozenset() if numbers else enc.hidden_names()).board(enc, facts)
