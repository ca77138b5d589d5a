"""The rules layer: pure, synchronous, no I/O.

Dice, grid geometry, the encounter models, the rule-system protocol and registry, and the
presentation of events as Discord-neutral reports.
"""
from rules.errors import RulesError

__all__ = ["RulesError"]
