"""Sheets and option strings: ``key=value`` pairs, quoted values, comma lists.

A system describes its keys with :class:`SheetKey`; :func:`read_sheet` checks a raw sheet
against them and names the bad key or value together with what is accepted.
"""
from __future__ import annotations

import re
import shlex
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from rules.errors import InputError, SheetError

__all__ = ["MARKDOWN", "NONE", "SheetKey", "per_tables", "parse_pairs", "parse_sheet_edit", "read_sheet", "parse_options", "yes_no", "read_int", "whole_number", "unprintable", "check_hp_within_most", "current_hp_only"]

MAX_SHEET_TEXT = 1000
#: the word that empties a list (a sheet's `weapons=none`, a list option), as an empty list is shown
NONE = "none"
#: the characters Discord reads as Markdown: no name takes them (every reply, board and ping would misshow it)
MARKDOWN = "*_~|`\\"


def unprintable(text: str) -> bool:
    """Whether ``text`` holds a control character (NUL, a line break, an escape) or half of a
    surrogate pair: text no reader of a name or a value takes."""
    return any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text)


def _words(text: str, what: str, error: type[InputError]) -> list[str]:
    """Split on spaces, keeping quoted values together; one clear error for a bad text."""
    if len(text) > MAX_SHEET_TEXT:
        raise error(f"The {what} may be at most {MAX_SHEET_TEXT} characters long.")
    if unprintable(text):
        raise error(f"The {what} cannot hold control characters (such as NUL or a line break) or broken characters.")
    try:
        return shlex.split(text)
    except ValueError:
        raise error(
            f"The {what} has an unclosed quote: write values with spaces in quotes, like `name=\"Old Tom\"`."
        ) from None


def parse_pairs(text: str | None, what: str = "sheet") -> dict[str, str]:
    """``'class=heavy weapons="hammer, shield"'`` -> ``{"class": "heavy", "weapons": "hammer, shield"}``."""
    return _pairs(text, what, None)


#: a relative change of a number: ``hp-7``, ``str+1`` (``hp-=7`` is read the same)
_RELATIVE = re.compile(r"([a-z][\w-]*?)([+-])=?([0-9]{1,6})", re.I)


def parse_sheet_edit(text: str | None) -> tuple[dict[str, str], dict[str, int]]:
    """An edit's sheet: ``key=value`` pairs, and relative changes of numbers (``hp-7 str+1``).

    ``'hp-7 str+1 name=Tom'`` -> ``({"name": "Tom"}, {"hp": -7, "str": 1})``."""
    deltas: dict[str, int] = {}
    pairs = _pairs(text, "sheet", deltas)
    both = sorted(set(pairs) & set(deltas))
    if both:
        raise SheetError(f"`{both[0]}` is both set and changed in the sheet: give it once.")
    return pairs, deltas


def _pairs(text: str | None, what: str, deltas: dict[str, int] | None) -> dict[str, str]:
    """The pairs of ``text``; ``key+N``/``key-N`` go into ``deltas`` where it is given."""
    if not text or not text.strip():
        return {}
    out: dict[str, str] = {}
    for part in _words(text, what, SheetError):
        relative = _RELATIVE.fullmatch(part) if deltas is not None else None
        if relative is not None and deltas is not None:
            key, sign, amount = relative.groups()
            if key.lower() in deltas:
                raise SheetError(f"`{key}` is changed twice in the {what}: give it once, e.g. `{key}-3`.")
            deltas[key.lower()] = int(amount) * (-1 if sign == "-" else 1)
            continue
        if "=" not in part:
            also = " or changes like `hp-7 str+1`" if deltas is not None else ""
            raise SheetError(
                f"`{part}` in the {what} is not `key=value`: write pairs like `class=heavy hp=3`{also}."
            )
        key, value = part.split("=", 1)
        key = key.strip().lower()
        if not key:
            raise SheetError(f"`{part}` in the {what} has no key before `=`.")
        if key in out:
            raise SheetError(f"`{key}` is given twice in the {what}: give it once, e.g. `{key}={value.strip()[:30]}`.")
        out[key] = value.strip()
    return out


def parse_options(text: str | None) -> dict[str, str]:
    """Options: words and ``key=value`` pairs: ``"adv keep=3"`` -> ``{"adv": "", "keep": "3"}``; a
    word or key given twice is refused.
    Bare ``from>to`` words are one list, in order and repeats kept: ``"2>1,2>1"`` and ``"2>1 2>1"``
    -> ``{"2>1,2>1": ""}``."""
    if not text or not text.strip():
        return {}
    out: dict[str, str] = {}
    turns: list[str] = []
    for part in _words(text, "`options` text", InputError):
        if "=" not in part and ">" in part:
            turns += [t for t in part.split(",") if t.strip()]
            continue
        for piece in part.split(",") if "=" not in part else [part]:
            key, is_pair, value = piece.strip().partition("=")
            key = key.strip().lower()
            if not key and not is_pair:
                continue
            if not key:
                raise InputError(f"`{piece.strip()[:40]}` in `options` has no name before `=`: "
                                 f"write the option's name, then `={value.strip()[:30]}`.")
            if key in out:  # as a sheet key given twice: refused, never the last one silently winning
                example = f", e.g. `{key}={value.strip()[:30]}`" if is_pair else ""
                raise InputError(f"`{key}` is given twice in `options`: give it once{example}.")
            out[key] = value.strip()
    if turns:
        out[",".join(t.strip().lower() for t in turns)] = ""
    return out


_YES = {"yes", "y", "true", "1", "on"}
_NO = {"no", "n", "false", "0", "off"}


_WHOLE = re.compile(r"\s*[+-]?[0-9]{1,9}\s*")


def whole_number(text: str, lo: int, hi: int) -> int | None:
    """``text`` as a whole number from ``lo`` to ``hi`` (ASCII digits, an optional sign), else None."""
    value = int(text) if _WHOLE.fullmatch(text) else None
    return value if value is not None and lo <= value <= hi else None


def check_hp_within_most(raw: Mapping[str, str], sheet: Mapping[str, Any]) -> None:
    """An `hp` above the `max_hp` given with it (what neither key checks alone) is refused."""
    if "hp" in raw and "max_hp" in raw and int(sheet["hp"]) > int(sheet["max_hp"]):
        hp, most = int(sheet["hp"]), int(sheet["max_hp"])
        raise SheetError(
            f"`hp={hp}` is more than `max_hp={most}`, the most hit points: give an `hp` up to {most}, "
            f"or a `max_hp` of {hp} or more."
        )


def current_hp_only(raw: Mapping[str, str], most: int, least: int) -> dict[str, str]:
    """An edit whose `hp` is what `/combatant hp` gives, as a change of the current hit points only
    (where an `hp` typed alone before the fight sets the most too): its `hp` from ``least`` to
    ``most`` (a heal stops at the most), with `max_hp` kept at ``most``."""
    return {**raw, "hp": str(max(least, min(int(raw["hp"]), most))), "max_hp": str(most)}


def hp_with_raised_most(hp: int, most_before: int, most: int) -> int:
    """The current HP after a `max_hp` given alone before the fight: raised by as much as the most rose
    (an unhurt combatant stays at full, a hurt one keeps its wound), except at 0 HP or below, where it
    stays (a GM raising a most does not mean a revival)."""
    return hp + max(0, most - most_before) if hp > 0 else hp


def read_int(text: str, key: str, lo: int, hi: int, error: type[InputError] = InputError, hint: str = "") -> int:
    """A whole number from ``lo`` to ``hi`` typed by a player for ``key``; anything else is
    refused with the range (and ``hint``), so no typed number can store a state that cannot be read back."""
    value = whole_number(text, lo, hi)
    if value is None:
        raise error(f"`{key}` must be a whole number from {lo} to {hi}, not `{text[:20]}`{'; ' + hint if hint else ''}.")
    return value


def yes_no(value: str, key: str) -> bool:
    v = value.strip().lower()
    if v in _YES:
        return True
    if v in _NO:
        return False
    raise SheetError(f"`{key}={value}` is not accepted: use `{key}=yes` or `{key}=no`.")


@dataclass(frozen=True)
class SheetKey:
    """One sheet key: its kind, limits, default and a line of help."""

    name: str
    help: str
    kind: str = "str"  # str | int | choice | bool | list | custom
    default: Any = None
    choices: Sequence[str] = ()
    minimum: int | None = None
    maximum: int | None = None
    required: bool = False
    parse: Callable[[str], Any] | None = field(default=None, compare=False)
    #: only looks (no rule reads it): an owner may still change it once the fight has started
    cosmetic: bool = False
    #: what the key accepts, for the docs and `/help`, where the kind alone does not say it
    accepts: str | None = None

    def read(self, value: str) -> Any:
        if self.kind == "list" and value.strip().lower() == NONE:  # `weapons=none`: the empty list
            return []
        if self.parse is not None:
            return self.parse(value)
        if self.kind == "int":
            assert self.minimum is not None and self.maximum is not None, f"the whole-number key {self.name} declares its limits"
            n = whole_number(value, self.minimum, self.maximum)
            if n is None:
                raise SheetError(f"`{self.name}={value[:20]}` is not accepted: {self.name} is a whole number{self._range()}.")
            return n
        if self.kind == "choice":
            v = value.strip().lower()
            if v not in self.choices:
                raise SheetError(
                    f"`{self.name}={value}` is not accepted: use one of {', '.join(self.choices)}."
                )
            return v
        if self.kind == "bool":
            return yes_no(value, self.name)
        if self.kind == "list":
            items = [x.strip().lower() for x in value.split(",") if x.strip()]
            if self.choices:
                bad = [x for x in items if x not in self.choices]
                if bad:
                    raise SheetError(
                        f"`{self.name}`: {', '.join(bad)} {'is' if len(bad) == 1 else 'are'} not known. "
                        f"Known: {', '.join(self.choices)}."
                    )
            return items
        if len(value) > 100:
            raise SheetError(f"`{self.name}` may be at most 100 characters long.")
        return value

    def _range(self) -> str:
        if self.minimum is not None and self.maximum is not None:
            return f" from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f" of at least {self.minimum}"
        return ""

    def accepted(self) -> str:
        """What the key accepts, in a few words: ``1–20``, ``heavy, light``, ``yes, no``..."""
        if self.accepts:
            return self.accepts
        if self.kind == "int":
            if self.minimum is not None and self.maximum is not None:
                return f"{self.minimum}–{self.maximum}"
            return "a whole number" + self._range()
        if self.kind in ("choice", "list") and self.choices:
            listed = ", ".join(f"`{c}`" for c in self.choices)
            return listed if self.kind == "choice" else f"a comma list of {listed}"
        if self.kind == "bool":
            return "`yes`, `no`"
        return "text"

    def default_text(self) -> str:
        if self.required:
            return "required"
        d = self.default
        if d in (None, "", [], (), {}):
            return "none"
        if isinstance(d, bool):
            return "yes" if d else "no"
        if isinstance(d, (list, tuple)):
            return ",".join(str(x) for x in d)
        return str(d)

    def describe(self) -> str:
        """``armour class: ... (default 10)``: the key's help, then what it takes, its default or that it
        is required, in brackets."""
        extras = []
        if self.choices and self.kind in ("choice", "list"):
            extras.append(f"one of {', '.join(self.choices)}")
        if self.default not in (None, "", [], ()) and not self.required:
            d = self.default
            if isinstance(d, bool):
                d = "yes" if d else "no"
            elif isinstance(d, (list, tuple)):
                d = ",".join(str(x) for x in d)
            extras.append(f"default {d}")
        if self.required:
            extras.append("required")
        if self.cosmetic:
            extras.append("cosmetic: its owner may change it mid-fight")
        return self.help + (f" ({'; '.join(extras)})" if extras else "")


_P = ParamSpec("_P")
_R = TypeVar("_R")

#: the sets of tables a `per_tables` function remembers what it made of
TABLES_KEPT = 32


def per_tables(make: Callable[_P, _R]) -> Callable[_P, _R]:
    """``make`` (a system's sheet keys, made of read-only tables: its catalogue, an option's values)
    made once for the tables it is given and given again for the same tables, by their identity:
    every sheet read or edited asks its keys. The tables are kept with what was made of them (so
    another table never takes an identity while it is remembered), the last `TABLES_KEPT` sets."""
    kept: dict[tuple[int, ...], tuple[tuple[object, ...], _R]] = {}

    @wraps(make)
    def made(*tables: _P.args, **named: _P.kwargs) -> _R:
        assert not named, "per_tables: tables are given by position"
        key = tuple(map(id, tables))
        found = kept.get(key)
        if found is not None:
            return found[1]
        if len(kept) >= TABLES_KEPT:
            kept.clear()
        result = make(*tables, **named)
        kept[key] = (tables, result)
        return result

    return made


def read_sheet(
    raw: dict[str, str], keys: Sequence[SheetKey], base: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Check ``raw`` against ``keys``; start from ``base`` (an existing sheet) or the defaults."""
    spec = {k.name: k for k in keys}
    unknown = [k for k in raw if k not in spec]
    if unknown:
        raise SheetError(
            f"Unknown sheet key{'s' if len(unknown) > 1 else ''} {', '.join('`'+u+'`' for u in unknown)}: "
            f"this system takes {', '.join(spec)}."
        )
    out: dict[str, Any] = dict(base) if base is not None else {}
    if base is None:
        for k in keys:
            if k.default is not None:
                out[k.name] = list(k.default) if isinstance(k.default, (list, tuple)) else k.default
    for key, value in raw.items():
        out[key] = spec[key].read(value)
    missing = [k.name for k in keys if k.required and k.name not in out]
    if missing:
        raise SheetError(f"The sheet needs {', '.join('`'+m+'=...`' for m in missing)}.")
    return out
