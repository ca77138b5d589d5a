"""Encounter options, declared once: name, kind, default, range, help.

A system lists its options as :class:`Option` values in an :class:`OptionSet`. The same
declaration checks ``/encounter settings options:"key=value"`` (and imports), feeds ``/help``,
autocomplete and the docs' tables, and reads the GM's values into one
:class:`OptionValues`, parsed once per distinct set of values and shared after that.

Typed access: a system declares its options' values as a subclass of :class:`OptionValues`
with one annotation per option (``class DgValues(OptionValues): forced_penalty: int``) and
gives it to its set (``OptionSet(..., into=DgValues)``), whose ``read`` then returns that
class: ``values.forced_penalty`` is an ``int`` to the type checker. A test checks every
declaration against its class (an ``int`` option is an ``int``, a choice a ``str`` or the
``Literal`` of its choices, a yes/no a ``bool``, a ``custom`` one what its ``parse`` returns).

An action's own ``options:`` words (`rules.actions.ActionSpec.words`) are declared the same
way and read by :meth:`OptionSet.read_words`, the one reader of them: ``keep=2``, a flag such
as ``push``, or a word typed alone for an option that takes one (``far`` for ``to=far``).

Reading follows the sheet keys' rules (:class:`rules.sheet.SheetKey`): whole numbers within
their range, choices from a list, ``yes``/``no``, or a ``parse`` function for structured
values (a weapon list). A value the rules cannot use is an :class:`~rules.errors.InputError`
that names the option and what it accepts.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Generic, overload

from typing_extensions import TypeVar

from rules.errors import InputError, SheetError
from rules.sheet import MARKDOWN, NONE, SheetKey, read_int, unprintable, whole_number

__all__ = [
    "Option", "OptionSet", "OptionValues", "AutoEndValues", "int_option", "choice_option", "yes_no_option", "text_option", "AUTO_END",
    "flag_word", "name_word", "keyed_words", "NO_WORDS", "listed_name",
]

#: how a refusal of an option's value ends
_CHANGE_IT = "the GM changes it with `/encounter settings`"
#: the longest value the GM may give one option
MAX_OPTION_TEXT = 500


def listed_name(key: str, item: str, name: str, compared: str, seen: set[str]) -> None:
    """The one check of the name a list option gives an item (`weapons`, `armors`, `spells`): not
    ``none`` (the word that empties a list, and a sheet's list), no Markdown character (the board
    would misshow it), and not twice in the list: ``compared`` (the name as the rules compare
    names) is not in ``seen``, the names before it, and is added to it."""
    if compared == NONE:
        raise SheetError(f"`{key}` item `{item}`: `none` is the word that empties the list: name it another way.")
    if any(ch in name for ch in MARKDOWN):
        raise SheetError(f"`{key}` item `{item}`: a name cannot hold the Markdown characters * _ ~ | ` or \\ "
                         f"(Discord would not show it as typed): write it without them, e.g. with hyphens.")
    if compared in seen:
        raise SheetError(f"`{key}` names `{name}` twice: give each once.")
    seen.add(compared)


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
    #: a list (`text_option`): ``none``, in any case, is the empty list, read as nothing typed
    listed: bool = False
    #: as an action's word: it may be typed alone: a flag's name (``push``), one of the choices
    #: (``far`` for ``to=far``), or the value of a number or a name (``3`` for ``by=3``)
    bare: bool = False
    #: as an action's word: a modifier a player types into their own roll (``atk=2``, ``adv``), which the GM's
    #: ``player_rolls`` off refuses to players as it refuses their `roll:` (`RuleSystem.check_player_modifiers`)
    modifier: bool = False
    #: as an action's word: one the bot gives (the turn clock's answer at a deadline), never typed: `/help`,
    #: refusals and autocomplete leave it out
    internal: bool = False

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
                f"The value of `{self.name}` cannot hold control characters (such as NUL or a line break) or broken "
                "characters: type it again with letters, digits and punctuation."
            )
        if self.kind == "int" and self.minimum is not None and self.maximum is not None:
            return read_int(raw.strip(), self.name, self.minimum, self.maximum, hint=_CHANGE_IT)
        if self.listed and raw.strip().lower() == NONE:
            raw = ""
        try:
            return self._key().read(raw.strip())
        except SheetError as exc:
            raise InputError(f"Encounter option {exc.message} The GM changes it with `/encounter settings`.") from None

    def default_value(self) -> Any:
        if self.default is None and self.kind == "choice" and self.choices:
            return self.choices[0]
        return self.default

    def accepted(self) -> str:
        """What the option accepts, for ``/help`` and the docs."""
        return self._key().accepted()

    def default_text(self) -> str:
        value = self.default_value()
        return SheetKey(self.name, self.help, default=value).default_text() if not isinstance(value, Mapping) else "none"


def int_option(name: str, default: int | None, minimum: int, maximum: int, help: str, *, bare: bool = False,
               modifier: bool = False) -> Option:
    return Option(name, help, "int", default, minimum, maximum, bare=bare, modifier=modifier)


def choice_option(name: str, choices: Sequence[str], help: str, *, bare: bool = False) -> Option:
    """The first of ``choices`` is the default (of an encounter option; an action's word not given is None)."""
    return Option(name, help, "choice", None, choices=tuple(choices), bare=bare)


def flag_word(name: str, help: str, *, modifier: bool = False, internal: bool = False) -> Option:
    """An action's word that is there or not: ``push`` (``push=yes`` and ``push=no`` are read too);
    ``internal``: one only the bot gives (`Option.internal`)."""
    return Option(name, help, "bool", False, bare=True, modifier=modifier, internal=internal)


def name_word(name: str, help: str, *, bare: bool = False, accepts: str = "NAME") -> Option:
    """An action's word naming something (an ally, a weapon, a spell): ``ally=Ann``; ``accepts``
    says what it names in ``/help`` (``aim=LOCATION``)."""
    return Option(name, help, "custom", None, parse=str.strip, accepts=accepts, bare=bare)


def keyed_words(name: str, help: str, minimum: int, maximum: int, accepts: str, example: str) -> Option:
    """An action's words whose names the rules cannot list ahead (a target's grid locations and
    weapons): every ``key=N`` the action's other words do not name, read into one dict
    ``{key: N}`` (N a whole number within the range); the handler checks the keys."""
    return Option(name, help, "keyed", None, minimum, maximum, choices=(example,), accepts=accepts)


def yes_no_option(name: str, default: bool, help: str) -> Option:
    return Option(name, help, "bool", default)


def text_option(name: str, parse: Callable[[str], Any], default: Any, help: str, accepts: str) -> Option:
    """A list (weapons, squares), read by ``parse``; ``none`` is the empty list: ``parse`` reads it as ``""``."""
    return Option(name, help, "custom", default, parse=parse, accepts=accepts, listed=True)


class OptionValues(Mapping[str, Any]):
    """The options of one encounter as the rules use them: ``values["reach"]`` or ``values.reach``.

    A subclass declares each option's type as an annotation (see the module's docstring); an
    attribute it does not declare (an action's `options:` words, which are not declared so)
    reads as ``Any``."""

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


class AutoEndValues(OptionValues):
    """The values of a system with the shared option `AUTO_END` (its own values class derives from this)."""

    auto_end: bool


#: the class an `OptionSet` reads its values into
V = TypeVar("V", bound=OptionValues, default=OptionValues, covariant=True)


class OptionSet(Generic[V]):
    """A system's options, in the order ``/help`` and the docs list them; ``into``: the class
    their values are read into, which declares each option's type (default: untyped)."""

    @overload
    def __init__(self: OptionSet[OptionValues], *options: Option) -> None: ...
    @overload
    def __init__(self, *options: Option, into: type[V]) -> None: ...

    def __init__(self, *options: Option, into: type[Any] = OptionValues) -> None:
        names = [o.name for o in options]
        if len(set(names)) != len(names):
            raise ValueError(f"option names repeat: {names}")
        self.options: tuple[Option, ...] = options
        self.values_class: type[V] = into
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

    def read(self, raw: Mapping[str, str]) -> V:
        """Every option's value; raises InputError for the first unknown key or bad value."""
        return self._read(tuple(sorted(raw.items())))

    def _read_items(self, items: tuple[tuple[str, str], ...]) -> V:
        given = dict(items)
        unknown = [k for k in given if k not in self._by_name]
        if unknown:
            self.get(unknown[0])
        return self.values_class({o.name: o.read(given.get(o.name)) for o in self.options})

    def check(self, raw: Mapping[str, str]) -> None:
        self.read(raw)

    def rows(self) -> list[tuple[str, str, str, str]]:
        """``(name, meaning, accepted values, default)`` for the docs and ``/help``."""
        return [(o.name, o.help, o.accepted(), o.default_text()) for o in self.options]

    # -- an action's `options:` words -------------------------------------------------------------
    def read_words(self, given: Mapping[str, str], action: str) -> OptionValues:
        """The words of ``action`` (its `options:`, as `rules.sheet.parse_options` reads them)
        typed by these declarations; a word not given is None (a flag: False). A word not
        declared, a bad value or a word given twice is refused (`refuse_word`)."""
        values: dict[str, Any] = {}
        keyed = next((o for o in self.options if o.kind == "keyed"), None)
        for key, raw in given.items():
            if keyed is not None and key not in self._by_name and raw != "":
                values.setdefault(keyed.name, {})[key] = self._keyed_value(keyed, key, raw, action)
                continue
            option, text = self._word(key, raw, action)
            if option.name in values:
                raise self.refuse_word(action, f"`{option.name}` is given twice in `options`", option)
            values[option.name] = self._word_value(option, text, action)
        empty = {"bool": False, "keyed": {}}
        return OptionValues({o.name: values.get(o.name, empty.get(o.kind)) for o in self.options})

    def _keyed_value(self, option: Option, key: str, raw: str, action: str) -> int:
        assert option.minimum is not None and option.maximum is not None
        value = whole_number(raw, option.minimum, option.maximum)
        if value is None:
            what = f"a whole number from {option.minimum} to {option.maximum}"
            raise self.refuse_word(action, f"`{key[:20]}` must be {what}, not `{raw[:20]}`", option)
        return value

    def refuse_word(self, action: str, problem: str, option: Option | None = None) -> InputError:
        """The one refusal of an action's words: ``action``, what is wrong, and what to type instead."""
        if not self.options:
            return InputError(f"`{action}`: {problem}: it reads no `options` words. Leave `options` out.")
        instead = f"e.g. `options:\"{self.example(option)}\"`" if option is not None else f"one of {self.forms()}"
        return InputError(f"`{action}`: {problem}. Type {instead}.")

    def _word(self, key: str, raw: str, action: str) -> tuple[Option, str]:
        """The option ``key`` (``raw``: its value, "" when typed alone) gives, and its value as text."""
        option = self._by_name.get(key)
        if option is not None:
            if raw == "" and option.kind != "bool":
                raise self.refuse_word(action, f"`{key}` needs a value", option)
            return option, "yes" if raw == "" else raw
        if raw == "":
            for option in self.options:
                if option.bare and option.kind == "choice" and key in option.choices:
                    return option, key
            for option in self.options:
                if option.bare and option.kind in ("int", "custom"):
                    return option, key
        raise self.refuse_word(action, f"`{key[:20]}` is not one of its `options` words" if self.options else f"`{key[:20]}` is not read")

    def _word_value(self, option: Option, text: str, action: str) -> Any:
        text = text.strip()
        if option.kind == "int" and option.minimum is not None and option.maximum is not None:
            value = whole_number(text, option.minimum, option.maximum)
            if value is None:
                what = f"a whole number from {option.minimum} to {option.maximum}"
                raise self.refuse_word(action, f"`{option.name}` must be {what}, not `{text[:20]}`", option)
            return value
        try:
            return option._key().read(text)
        except SheetError:
            what = f"one of {option.accepted()}" if option.kind in ("choice", "bool") else option.accepted()
            raise self.refuse_word(action, f"`{option.name}` must be {what}, not `{text[:20]}`", option) from None

    @staticmethod
    def form(option: Option) -> str:
        """How the word is typed: ``push``, ``far|close``, ``keep=N``, ``ally=NAME``."""
        if option.kind in ("bool", "keyed"):
            return option.accepts if option.kind == "keyed" and option.accepts else option.name
        value = "|".join(option.choices) if option.kind == "choice" else "N" if option.kind == "int" else option.accepts or "TEXT"
        return value if option.bare and option.kind == "choice" else f"{option.name}={value}"

    def forms(self) -> str:
        return ", ".join(f"`{self.form(o)}`" for o in self.typed())

    def typed(self) -> list[Option]:
        """The words a caller types: all but the bot's own (`Option.internal`)."""
        return [o for o in self.options if not o.internal]

    @staticmethod
    def example(option: Option) -> str:
        """One word ``option`` reads, for a refusal to show."""
        if option.kind == "bool":
            return option.name
        if option.kind == "keyed":
            return option.choices[0]
        if option.kind == "choice" and option.choices:
            return option.choices[0] if option.bare else f"{option.name}={option.choices[0]}"
        if option.kind == "int":
            return f"{option.name}={option.minimum if option.minimum is not None else 1}"
        return f"{option.name}={option.accepts or 'TEXT'}"

    def word_lines(self) -> str:
        """The words for ``/help`` and the docs: `` `keep=N`: the skill die to keep (1–6).``"""
        out = []
        for o in self.typed():
            bounds = f" (from {o.minimum} to {o.maximum})" if o.kind == "int" and o.minimum is not None else ""
            bounds = f" (N from {o.minimum} to {o.maximum})" if o.kind == "keyed" else bounds
            alone = f" (or alone: `{o.accepts or 'N'}`)" if o.bare and o.kind in ("int", "custom") else ""
            out.append(f" `{self.form(o)}`{alone}: {o.help}{bounds}.")
        return "".join(out)

    def completions(self, word: str) -> list[str]:
        """The words that complete ``word`` (what is typed so far), for autocomplete."""
        key, eq, value = word.lower().partition("=")
        out: list[str] = []
        for o in self.typed():
            if eq:
                if o.name == key and o.kind == "choice":
                    out += [f"{o.name}={c}" for c in o.choices if c.startswith(value)]
                continue
            if o.kind == "bool" and o.name.startswith(key):
                out.append(o.name)
            elif o.kind == "choice" and o.bare:
                out += [c for c in o.choices if c.startswith(key)]
            if o.kind not in ("bool", "keyed") and o.name.startswith(key):
                out.append(f"{o.name}=")
        return out


#: an action that reads no `options:` words
NO_WORDS = OptionSet()


#: shared by every system with a `RuleSystem.turn_done` rule: a turn with nothing left to do ends by itself
AUTO_END = yes_no_option(
    "auto_end",
    True,
    "`yes`: a turn ends by itself once its combatant has nothing left to do, with the action that spent the "
    "last of it (one `/undo` takes both back); `no`: only `/init next` or the End turn button ends it",
)
