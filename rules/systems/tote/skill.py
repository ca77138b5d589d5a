"""The TOTE skill test: as many plain d6 as the skill (0-5), keep one (the best the injury
track allows, or ``keep=N``), add the Paragon d6 and any bonus, compare with the target.

Given ``roll:`` results are the plain dice in order, then the Paragon die.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.dice import Dice
from rules.events import Modifier, mod
from rules.models import Combatant, Encounter
from rules.options import int_option
from rules.systems.tote.events import SkillTest
from rules.systems.tote.options import opts
from rules.systems.tote.sheet import TOHIT_RE, is_enemy
from rules.systems.tote.state import ToteCombatant
from rules.systems.tote.tables import ATTACK_SKILLS

__all__ = ["TestResult", "skill_test", "run_test", "KEEP", "BONUS"]

#: the `options:` words of an action with a skill test
KEEP = int_option("keep", None, 1, 6, "the skill die to keep")
BONUS = int_option("bonus", None, -10, 10, "a bonus", modifier=True)


@dataclass
class TestResult:
    """One skill test: plain dice, Paragon die, kept die, modifiers, total and successes."""

    dice: list[int]
    paragon: int
    kept: int | None
    modifiers: list[Modifier]
    target: int
    total: int
    successes: int
    critical: bool
    barred: list[int] = field(default_factory=list)
    #: the face ``keep`` asked for when it was not rolled (or is barred): the best was kept instead
    keep_missing: int | None = None

    @property
    def success(self) -> bool:
        return self.successes > 0


def skill_test(
    dice: Dice,
    count: int,
    target: int,
    modifiers: Sequence[Modifier] = (),
    *,
    keep: int | None = None,
    barred: frozenset[int] | set[int] = frozenset(),
    extra_successes: bool = True,
    critical_successes: int = 1,
) -> TestResult:
    """Roll ``count`` plain d6 then the Paragon d6; keep one die that is not ``barred``.

    Successes: 0 on a failure; else 1, plus 1 for each other keepable die that would also
    have met the target (``extra_successes``), plus ``critical_successes`` when the kept
    die equals the Paragon die.
    """
    plain = dice.roll(count, 6)
    paragon = dice.die(6)
    keepable = [d for d in plain if d not in barred]
    missing = None
    if keep is not None and keep not in keepable:
        missing, keep = keep, None
    kept = keep if keep is not None else max(keepable, default=None)
    bonus = sum(m.value for m in modifiers)
    total = (kept or 0) + paragon + bonus
    critical = kept is not None and kept == paragon
    successes = 0
    if total >= target:
        others = list(keepable)
        if kept is not None:
            others.remove(kept)
        successes = 1 + (sum(1 for d in others if d + paragon + bonus >= target) if extra_successes else 0)
        successes += critical_successes if critical else 0
    barred_rolled = sorted({d for d in plain if d in barred}, reverse=True)
    return TestResult(plain, paragon, kept, list(modifiers), target, total, successes, critical, barred_rolled, missing)


def _pool(c: Combatant, skill: str) -> tuple[int, list[Modifier]]:
    """Skill dice and fixed modifiers of ``c`` for a test of ``skill``."""
    if not is_enemy(c):
        return int(c.sheet[skill]), []
    rating_dice = min(int(c.sheet["rating"]), 5)
    if skill not in ATTACK_SKILLS or not c.sheet.get("tohit"):
        return rating_dice, []
    m = TOHIT_RE.match(c.sheet["tohit"])
    assert m is not None
    count = int(m.group(1)) if m.group(1) is not None else rating_dice
    bonus = int(m.group(2) + m.group(3)) if m.group(2) else 0
    return count, [mod("to-hit", bonus)] if bonus else []


def _barred(enc: Encounter, c: Combatant) -> frozenset[int]:
    if not opts(enc).injury_bars:
        return frozenset()
    return frozenset(int(b) for b in c.sheet["track"][: ToteCombatant.of(c).filled] if b != "U")


def run_test(
    enc: Encounter,
    c: Combatant,
    skill: str,
    target: int,
    dice: Dice,
    words: Mapping[str, Any],
    extra: Sequence[Modifier] = (),
) -> tuple[TestResult, SkillTest]:
    """``c`` tests ``skill`` against ``target`` with the player's words ``keep``/``bonus`` (`KEEP`, `BONUS`;
    absent where the action has none): the result and its event data."""
    count, mods = _pool(c, skill)
    bonus = words.get("bonus")
    if bonus:
        mods.append(mod("bonus", bonus))
    values = opts(enc)
    with dice.rolling_for(c.name):
        r = skill_test(
            dice,
            count,
            target,
            [*mods, *extra],
            keep=words.get("keep"),
            barred=_barred(enc, c),
            extra_successes=values.extra_successes,
            critical_successes=values.critical_successes,
        )
    return r, SkillTest.of(r, skill, is_enemy(c))
