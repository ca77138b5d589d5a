"""Dice: a thin adapter over d20 that takes a ``random.Random`` or the player's own results.

Every die rolled through a :class:`Dice` is recorded in :attr:`Dice.rolled`, so the action log
can show each one. Given results (``roll:"15,4"``) are consumed in order; running out, giving
too many, or giving a face the die does not have is a :class:`~rules.errors.DiceError`.

A system rolls each die for someone (``with dice.rolling_for(name): ...``); given results stand
only for the dice of the combatants in ``may_type`` (None: anyone's, as for the GM), and every
other die comes from the generator. A given result comes back as :class:`Typed`, so the events
built from it can show it was typed.
"""
from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import d20
import d20.expression as _d20_expression

from rules.errors import DiceError
from rules.text import plural

__all__ = [
    "Dice", "DieRoll", "Typed", "parse_given", "roll_expression", "ExpressionResult", "MAX_DICE",
    "with_advantage",
]

MAX_DICE = 200
MAX_EXPRESSION = 200


class Typed(int):
    """A natural result the caller typed with `roll:` rather than the bot rolling it (arithmetic gives plain ints)."""

    __slots__ = ()


@dataclass(frozen=True)
class DieRoll:
    sides: int
    value: int
    given: bool = False


def parse_given(text: str | None) -> list[int]:
    """Read ``"15,4"`` into ``[15, 4]``; empty or None gives ``[]``."""
    if text is None or not text.strip():
        return []
    if any(not chunk.strip() for chunk in text.split(",")):
        raise DiceError(f"`roll:{text.strip()[:40]}` has an empty result between commas: give each result once, like `15,4`.")
    values: list[int] = []
    for part in re.split(r"[,\s]+", text.strip()):
        try:
            values.append(int(part))
        except ValueError:
            raise DiceError(
                f"`roll` takes the natural die results you rolled, comma separated, like `15,4`; "
                f"`{part}` is not a whole number."
            ) from None
    if len(values) > MAX_DICE:
        raise DiceError(f"`roll` takes at most {MAX_DICE} results.")
    return values


class _RollingFor:
    """`Dice.rolling_for`'s block: whose dice are rolled inside it, and whose again after it (a class,
    not a generator's context manager: attacks open a few such blocks each)."""

    __slots__ = ("dice", "names", "saved")

    def __init__(self, dice: Dice, names: tuple[str, ...]) -> None:
        self.dice, self.names, self.saved = dice, names, dice._for

    def __enter__(self) -> None:
        self.saved, self.dice._for = self.dice._for, self.names

    def __exit__(self, *exc: object) -> None:
        self.dice._for = self.saved


@dataclass
class Dice:
    """A source of die results: given ones first, then the random generator."""

    rng: random.Random | None = None
    given: list[int] = field(default_factory=list)
    rolled: list[DieRoll] = field(default_factory=list)
    #: the combatants whose dice ``given`` may stand for; None: anyone's (the GM)
    may_type: frozenset[str] | None = None
    _used: int = 0
    _for: tuple[str, ...] = ()
    _skipped: int = 0
    _spare: int = 0
    _sparing: bool = False
    _spare_faces: list[int] = field(default_factory=list)

    @classmethod
    def fixed(cls, values: Iterable[int]) -> "Dice":
        """Dice that only ever return the given results (tests, worked examples)."""
        return cls(rng=None, given=list(values))

    def rolling_for(self, *names: str) -> _RollingFor:
        """The dice rolled inside (a ``with`` block) belong to ``names`` (a combatant, or every member of a side)."""
        return _RollingFor(self, names)

    def _typeable(self) -> bool:
        """May the next given result stand for this die? Dice not tagged belong to the caller's actor."""
        if self.may_type is None or not self._for or not self.may_type.isdisjoint(self._for):
            return True
        self._skipped += 1
        return False

    def die(self, sides: int) -> int:
        if self._used < len(self.given) and self._typeable():
            value = self.given[self._used]
            self._used += 1
            if not 1 <= value <= sides:
                raise DiceError(
                    f"`roll` result {value} (number {self._used}) cannot come from a d{sides}: "
                    f"give a number from 1 to {sides}."
                )
            self.rolled.append(DieRoll(sides, value, given=True))
            return Typed(value)
        if self.rng is None:
            raise DiceError(
                f"This action rolls more dice than the {plural(len(self.given), 'result')} given in `roll`: "
                f"give one more d{sides} result, or leave `roll` out to let the bot roll."
            )
        value = self.rng.randint(1, sides)
        self.rolled.append(DieRoll(sides, value))
        return value

    def roll(self, count: int, sides: int) -> list[int]:
        if count > MAX_DICE:
            raise DiceError(f"At most {MAX_DICE} dice can be rolled at once.")
        return [self.die(sides) for _ in range(count)]

    def spare(self, faces: Sequence[int]) -> None:
        """Given results the action did not need (the damage dice of a miss: one per die, ``faces`` its
        sides) are not refused, but checked as those dice would check them: whether they were needed may
        hang on a number the roller does not see (a hidden AC). An action that may spare dice calls this
        whether or not it does (no ``faces``), so its refusal reads the same either way."""
        self._spare += len(faces)
        self._spare_faces += list(faces)
        self._sparing = True

    def check_all_used(self, hidden: Callable[[], bool] | None = None) -> None:
        """Refuse given results that the action did not use (beyond those :meth:`spare` allows).
        ``hidden``: whether the action touched a combatant whose numbers the caller does not see;
        then a player's results past those used are left unused, not refused, as how many an action
        uses may tell such a number (a hit rolls damage, a miss none), and a refusal changes nothing,
        so it could be tried again and again."""
        if not self.given:  # nothing given: nothing to refuse (most actions)
            return
        for n, (value, sides) in enumerate(zip(self.given[self._used:], self._spare_faces), self._used + 1):
            if not 1 <= value <= sides:
                raise DiceError(f"`roll` result {value} (number {n}) cannot come from a d{sides}: give a number from 1 to {sides}.")
        if len(self.given) <= self._used:  # every result used (the hidden walk below is not needed)
            return
        if self._used and len(self.given) <= self._used + self._spare:
            return
        if self._used and self.may_type is not None and not self._sparing and hidden is not None and hidden():
            return
        if not self._used and self.may_type is not None:  # a player's, none used: whether the action rolled others'
            # dice (the GM's, whose numbers may be hidden: a hidden foe's reach) or none, in the same words
            raise DiceError(
                f"`roll` gave {plural(len(self.given), 'result')} but this command rolled none of your combatants' dice "
                "(any others are the bot's to roll, or the GM's to type), so leave `roll` out."
            )
        if self._used < len(self.given) and self._skipped:
            fix = f"give at most {self._used}" if self._used else "leave `roll` out"
            raise DiceError(
                f"`roll` gave {plural(len(self.given), 'result')} but only {self._used} of this action's dice are your own "
                f"combatants': the others are the bot's to roll, or the GM's to type. {fix.capitalize()}."
            )
        if self.given and not self._used:
            raise DiceError("This command rolls no dice, so leave `roll` out.")
        if self._used < len(self.given) and self._sparing:
            most = self._used + self._spare
            raise DiceError(
                f"`roll` gave {plural(len(self.given), 'result')} but this action takes at most "
                f"{plural(most, 'die', 'dice')}: give at most {most} (the bot rolls the rest)."
            )
        if self._used < len(self.given):
            raise DiceError(
                f"`roll` gave {plural(len(self.given), 'result')} but this action rolled only "
                f"{plural(self._used, 'die', 'dice')}: give at most {self._used} (the bot rolls the rest)."
            )

    @property
    def used_given(self) -> bool:
        return bool(self.given)

    def values(self) -> list[int]:
        return [r.value for r in self.rolled]

    def typed(self) -> list[int]:
        """Indexes into :meth:`values` of the results the caller typed."""
        return [i for i, r in enumerate(self.rolled) if r.given]


class _RngShim:
    """Stands in for the ``random`` module inside d20 while one expression is rolled."""

    def __init__(self, dice: Dice) -> None:
        self._dice = dice

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:  # randrange(size) + 1 is a d(size)
            return self._dice.die(start) - 1
        # percentile die: randrange(0, 100, 10)
        return (self._dice.die(10) - 1) * step


@dataclass(frozen=True)
class ExpressionResult:
    expression: str
    total: int
    #: the roll in words (`/roll`'s reply); empty where the caller asked for none (`roll_expression`'s ``words``)
    text: str
    dice: Sequence[DieRoll]

    def marked_dice(self) -> list[int]:
        """The dice for a roll's line, a typed one kept `Typed` (marked ✍ there)."""
        return [Typed(d.value) if d.given else d.value for d in self.dice]


#: the one roller and its words: a roll resets the roller's count of dice first, and the rules roll in one thread
_ROLLER = d20.Roller(context=d20.RollContext(max_rolls=MAX_DICE))
_WORDS = d20.SimpleStringifier()


@lru_cache(maxsize=256)
def _parsed(expression: str) -> d20.ast.Node:
    """``expression``'s syntax tree, parsed once (a weapon's damage is rolled again and again; the
    tree is only read by a roll). A syntax error is raised, and not kept."""
    return d20.Roller().parse(expression, allow_comments=False)


#: dice of one size and a number added or taken away (``2d6+3``, ``1d8``): the rules' damage and initiative
#: rolls, which `roll_expression` rolls as d20 would (die by die, in order) without d20's tree
_PLAIN = re.compile(r"([1-9][0-9]?)d([1-9][0-9]{0,2})(?:([+-])(0|[1-9][0-9]{0,3}))?")


def roll_expression(expression: str, dice: Dice, *, words: bool = True) -> ExpressionResult:
    """Roll a d20-notation expression with limits on abusive input; without ``words``, its `text` is left
    empty (the rules read the total and the dice)."""
    expression = (expression or "").strip()
    if not expression:
        raise DiceError("Give a dice expression such as `1d20+5` or `4d6kh3`.")
    if len(expression) > MAX_EXPRESSION:
        raise DiceError(f"A dice expression may be at most {MAX_EXPRESSION} characters long.")
    start = len(dice.rolled)
    plain = None if words else _PLAIN.fullmatch(expression)
    if plain is not None:
        count, sides, sign, number = plain.groups()
        total = sum(dice.die(int(sides)) for _ in range(int(count)))
        if number:
            total += int(number) if sign == "+" else -int(number)
        return ExpressionResult(expression, int(total), "", tuple(dice.rolled[start:]))
    saved = _d20_expression.random
    _d20_expression.random = _RngShim(dice)
    try:
        result = _ROLLER.roll(_parsed(expression), stringifier=_WORDS, allow_comments=False)
        total = result.total
        text = str(result) if words else ""
    except d20.TooManyRolls:
        raise DiceError(f"That expression rolls more than {MAX_DICE} dice: roll fewer.") from None
    except d20.RollSyntaxError:
        raise DiceError(
            f"`{expression}` is not dice notation: try `1d20+5`, `2d6`, `4d6kh3` or `1d20 + 1d4`."
        ) from None
    except (d20.RollError, ZeroDivisionError, OverflowError, RecursionError, ValueError) as exc:
        why = (getattr(exc, "msg", None) or str(exc) or "it cannot be rolled").rstrip(".")
        raise DiceError(f"`{expression}` cannot be rolled ({why[:80]}): try `1d20+5`, `2d6` or `4d6kh3`.") from None
    finally:
        _d20_expression.random = saved
    if isinstance(total, float):
        if total != total or total in (float("inf"), float("-inf")):
            raise DiceError(f"`{expression}` has no finite total.")
        total = int(total)
    return ExpressionResult(expression, int(total), text, tuple(dice.rolled[start:]))


#: Avrae's words after an expression: ``1d20+5 adv``, ``1d20+5 dis``
_ADV_WORDS = re.compile(r"(?<!\w)(adv|dis)(?!\w)", re.I)
#: the first plain d20 of an expression (``1d20`` or ``d20``, not ``2d20``, ``1d200`` or ``1d20kh1``)
_PLAIN_D20 = re.compile(r"(?<![\w)])1?d20(?!\w)", re.I)


def with_advantage(expression: str, adv: bool = False, dis: bool = False) -> tuple[str, str | None]:
    """The expression to roll and the mode to show (``"advantage"``, ``"disadvantage"``,
    ``"advantage and disadvantage cancel"``, or None).

    ``adv``/``dis`` and the words ``adv``/``dis`` in the expression ask for advantage
    (its first plain d20 becomes ``2d20kh1``) or disadvantage (``2d20kl1``); asked for both,
    they cancel and the d20 is rolled once."""
    words = {w.lower() for w in _ADV_WORDS.findall(expression or "")}
    adv, dis = adv or "adv" in words, dis or "dis" in words
    expression = " ".join(_ADV_WORDS.sub(" ", expression or "").split())
    if not expression or not (adv or dis):
        return expression, None
    if not _PLAIN_D20.search(expression):
        raise DiceError(
            f"Advantage and disadvantage roll a d20 twice: `{expression}` has no plain `1d20` "
            "to roll so. Try `1d20+5 adv`."
        )
    if adv and dis:
        return expression, "advantage and disadvantage cancel"
    return _PLAIN_D20.sub("2d20kh1" if adv else "2d20kl1", expression, count=1), (
        "advantage" if adv else "disadvantage"
    )
