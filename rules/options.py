"""Encounter options, declared once: name, kind, default, range, help.

A system lists its options as :class:`Option` values in an :class:`OptionSet`. The same
declaration checks ``/encounter settings options:"key=value"`` (and imports), feeds ``/help``,
autocomplete and the README's tables, and reads the GM's values into one typed
:class:`OptionValues`, parsed once per distinct set of values and shared after that.

Reading follows the sheet keys' rules (:class:`rules.sheet.SheetKey`): whole numbers within
their range, choices from a list, ``yes``/``no``, or a ``parse`` function for structured
values (a weapon list). A value the rules cannot use is an :class:`~rules.errors.InputError`
that names the option and what it accepts.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rules.errors import InputError, SheetError
from rules.sheet import SheetKey, read_int, unprintable

__all__ = [
    "Option", "OptionSet", "OptionValues", "int_option", "choice_option", "yes_no_option", "text_option", "AUTO_END",
]

#: how a refusal of an option's value ends
_CHANGE_IT = "the GM changes it with `/encounter settings`"
#: the longest value the GM may give one option
MAX_OPTION_TEXT = 500


@dataclass(frozen=True)
class Option:
    """One GM-overridable rule default.

    ``kind`` is ``int``, ``choice`` (the first choice is the default unless ``default`` is
    given), ``bool`` or ``custom`` (``parse`` turns the text into the value; ``default`` is the
    value when unset). ``accepts`` overrides the generated "accepted values" text.
    """

    name: str
    help: str
    kind: str = "int"
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    choices: Sequence[str] = ()
    parse: Callable[[str], Any] | None = field(default=None, compare=False)
    accepts: str | None = None

    def _key(self) -> SheetKey:
        return SheetKey(
            name=self.name,
            help=self.help,
            kind=self.kind if self.kind != "custom" else "str",
            default=self.default,
            choices=tuple(self.choices),
            minimum=self.minimum,
            maximum=self.maximum,
            parse=self.parse,
            accepts=self.accepts,
        )

    def read(self, raw: str | None) -> Any:
        """The value the rules use: the default when unset, else ``raw`` checked and read."""
        if raw is None:
            return self.default_value()
        if len(raw) > MAX_OPTION_TEXT:
            raise InputError(f"The value of `{self.name}` may be at most {MAX_OPTION_TEXT} characters long.")
        if unprintable(raw):
            raise InputError(
                f"The value of `{self.name}` cannot hold control characters (such as NUL or a line break) or broken characters."
            )
        if self.kind == "int" and self.minimum is not None and self.maximum is not None:
            return read_int(raw.strip(), self.name, self.minimum, self.maximum, hint=_CHANGE_IT)
        try:
            return self._key().read(raw.strip())
        except SheetError as exc:
            raise InputError(f"Encounter option {exc.message} The GM changes it with `/encounter settings`.") from None

    def default_value(self) -> Any:
        if self.default is None and self.kind == "choice" and self.choices:
            return self.choices[0]
        return self.default

    def accepted(self) -> str:
        """What the option accepts, for ``/help`` and the README."""
        return self._key().accepted()

    def default_text(self) -> str:
        value = self.default_value()
        return SheetKey(self.name, self.help, default=value).default_text() if not isinstance(value, Mapping) else "none"


def int_option(name: str, default: int, minimum: int, maximum: int, help: str) -> Option:
    return Option(name, help, "int", default, minimum, maximum)


def choice_option(name: str, choices: Sequence[str], help: str) -> Option:
    """The first of ``choices`` is the default."""
    return Option(name, help, "choice", None, choices=tuple(choices))


def yes_no_option(name: str, default: bool, help: str) -> Option:
    return Option(name, help, "bool", default)


def text_option(name: str, parse: Callable[[str], Any], default: Any, help: str, accepts: str) -> Option:
    return Option(name, help, "custom", default, parse=parse, accepts=accepts)


class OptionValues(Mapping[str, Any]):
    """The options of one encounter as the rules use them: ``values["reach"]`` or ``values.reach``."""

    __slots__ = ("_values",)

    def __init__(self, values: dict[str, Any]) -> None:
        self._values = values

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __getattr__(self, key: str) -> Any:
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(key) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


class OptionSet:
    """A system's options, in the order ``/help`` and the README list them."""

    def __init__(self, *options: Option) -> None:
        names = [o.name for o in options]
        if len(set(names)) != len(names):
            raise ValueError(f"option names repeat: {names}")
        self.options: tuple[Option, ...] = options
        self._by_name = {o.name: o for o in options}
        self._read = lru_cache(maxsize=256)(self._read_items)

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __len__(self) -> int:
        return len(self.options)

    def get(self, name: str) -> Option:
        try:
            return self._by_name[name]
        except KeyError:
            known = ", ".join(self._by_name) or "none"
            raise InputError(f"`{name}` is not an option here. Options: {known}.") from None

    @property
    def help(self) -> dict[str, str]:
        """name -> one line of help: what the option does, what it accepts, its default."""
        return {o.name: f"{o.help} ({o.accepted()}; default {o.default_text()})" for o in self.options}

    def read(self, raw: Mapping[str, str]) -> OptionValues:
        """Every option's value; raises InputError for the first unknown key or bad value."""
        return self._read(tuple(sorted(raw.items())))

    def _read_items(self, items: tuple[tuple[str, str], ...]) -> OptionValues:
        given = dict(items)
        unknown = [k for k in given if k not in self._by_name]
        if unknown:
            self.get(unknown[0])
        return OptionValues({o.name: o.read(given.get(o.name)) for o in self.options})

    def check(self, raw: Mapping[str, str]) -> None:
        self.read(raw)

    def rows(self) -> list[tuple[str, str, str, str]]:
        """``(name, meaning, accepted values, default)`` for the README and ``/help``."""
        return [(o.name, o.help, o.accepted(), o.default_text()) for o in self.options]


#: shared by every system with a `RuleSystem.turn_done` rule: a turn with nothing left to do ends by itself
AUTO_END = yes_no_option(
    "auto_end",
    True,
    "`yes`: a turn ends by itself once its combatant has nothing left to do, with the action that spent the "
    "last of it (one `/undo` takes both back); `no`: only `/init next` or the End turn button ends it",
)
