"""Hidden information: the numbers of the GM's hidden combatants kept out of every text players read.

One model, applied where text is made:

- **Events** say whose each value is with a field marker, ``Annotated[int, Of("target")]``.
  `public_copy` gives the copy of an event that the public rendering sees: every value of a
  hidden combatant is replaced by `SECRET`, which prints as ``?``. It fails closed: in an event
  that names a hidden combatant, every number without a marker is taken for that combatant's
  (a new event field is hidden until it is marked as someone's who is shown).
- **Text** that holds both versions is *marked*: `mark` wraps a line's GM text and public text
  with the names it hides; `for_reader` picks one version per reader (the GM sees every number,
  a player sees the public text unless every name is shown to players now). Replies, the log,
  the board's GM changes and turn labels carry marked text, and the last step before Discord
  (`bot.render.discord_text`) shows anything still marked as players see it.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

__all__ = [
    "Secret", "SECRET", "secret", "Of", "Also", "PUBLIC", "public_copy", "names_in", "mark", "marked_names", "for_reader",
    "players_see", "everyone", "MARK_START", "turn_line",
]


class Secret:
    """A hidden value as the public rendering sees it: prints as ``?``, absorbs arithmetic,
    compares as unequal and not less or greater than anything, iterates as empty."""

    __slots__ = ()

    def __str__(self) -> str:
        return "?"

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return "?"

    def _absorb(self, *_: Any) -> "Secret":
        return self

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _absorb
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _absorb
    __neg__ = __pos__ = __abs__ = _absorb

    def __bool__(self) -> bool:
        return True

    def __eq__(self, other: object) -> bool:
        return other is self

    def __hash__(self) -> int:
        return 0

    def _never(self, other: object) -> bool:
        return False

    __lt__ = __le__ = __gt__ = __ge__ = _never

    def __iter__(self) -> Any:
        return iter(())

    def __len__(self) -> int:
        return 0


#: the one hidden value
SECRET = Secret()


def secret(value: Any) -> bool:
    """Is ``value`` hidden from this rendering?"""
    return value is SECRET


class Of:
    """Field marker: the value is the combatant's named by the field ``who`` of the same event
    (``Of("target")``; a list of names: hidden if any of them is), or by a role the containing field gives (``Of("actor", against="target")``
    on a `Roll`: the roll's own values are the actor's, its ``Of("against")`` values the target's).
    ``Of(None)``: nobody's (a distance, a count of rounds): always shown."""

    __slots__ = ("who", "roles")

    def __init__(self, who: str | None, **roles: str) -> None:
        self.who = who
        self.roles = roles

    def __repr__(self) -> str:
        return f"Of({self.who!r})"


#: a value that belongs to no combatant
PUBLIC = Of(None)


class Also:
    """Field marker beside the owner a value has (its `Of`, or the one its holder passes down): the value was
    worked out with the number of the combatant ``who`` names too (a field or a role, as `Of` reads it), so it is
    hidden where either is (a count of successes against a hidden foe's target number)."""

    __slots__ = ("who",)

    def __init__(self, who: str) -> None:
        self.who = who

    def __repr__(self) -> str:
        return f"Also({self.who!r})"

# the modes of a value: shown, hidden (numbers and texts), or unknown (numbers hidden, texts shown)
_SHOWN, _HIDDEN, _UNKNOWN = "shown", "hidden", "unknown"


def names_in(value: Any, names: frozenset[str]) -> set[str]:
    """Which of ``names`` appear as a text value anywhere in ``value`` (an event, list, dict...)."""
    found: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, str):
            if v in names:
                found.add(v)
        elif isinstance(v, BaseModel):
            for f in type(v).model_fields:
                walk(getattr(v, f))
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(k)
                walk(x)
        elif isinstance(v, (list, tuple, set, frozenset)):
            for x in v:
                walk(x)

    walk(value)
    return found


def _marker(model: type[BaseModel], field: str) -> Of | None:
    info = model.model_fields[field]
    return next((m for m in info.metadata if isinstance(m, Of)), None)


def _also(model: type[BaseModel], field: str) -> list[Also]:
    return [m for m in model.model_fields[field].metadata if isinstance(m, Also)]


#: the modes from the most shown to the most hidden
_RANK = {_SHOWN: 0, _UNKNOWN: 1, _HIDDEN: 2}


def _scrub(v: Any, mode: str, roles: dict[str, str | None], hidden: frozenset[str]) -> Any:
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return v if mode == _SHOWN else SECRET
    if isinstance(v, str):
        return SECRET if mode == _HIDDEN else v
    if isinstance(v, BaseModel):
        return _scrub_model(v, mode, roles, hidden)
    if isinstance(v, dict):
        return {k: _scrub(x, mode, roles, hidden) for k, x in v.items()}
    if isinstance(v, list):
        return _one_secret([_scrub(x, mode, roles, hidden) for x in v])
    if isinstance(v, tuple):
        items = [_scrub(x, mode, roles, hidden) for x in v]
        return type(v)(*items) if hasattr(v, "_fields") else tuple(_one_secret(items))
    return v if mode == _SHOWN else SECRET


def _one_secret(items: list[Any]) -> list[Any]:
    """A list of hidden values as one: how many dice a hidden combatant rolls is its number too."""
    return [SECRET] if len(items) > 1 and all(x is SECRET for x in items) else items


def _owner_mode(owner: Any, hidden: frozenset[str], inherited: str) -> str:
    if isinstance(owner, list) and owner and all(isinstance(o, str) for o in owner):  # a value several tell
        return _HIDDEN if any(o in hidden for o in owner) else _SHOWN
    if not isinstance(owner, str):
        return inherited
    return _HIDDEN if owner in hidden else _SHOWN


M = TypeVar("M", bound=BaseModel)


def _scrub_model(m: M, mode: str, roles: dict[str, str | None], hidden: frozenset[str]) -> M:
    update: dict[str, Any] = {}
    for name in type(m).model_fields:
        value = getattr(m, name)
        marker = _marker(type(m), name)
        sub_mode, sub_roles = mode, roles
        if marker is not None:
            if marker.who is None:
                sub_mode = _SHOWN
            elif marker.who in roles:
                sub_mode = _owner_mode(roles[marker.who], hidden, mode)
            else:
                sub_mode = _owner_mode(getattr(m, marker.who, None), hidden, mode)
            if marker.roles:
                sub_roles = {role: getattr(m, f, None) for role, f in marker.roles.items()}
        for also in _also(type(m), name):
            owner = roles[also.who] if also.who in roles else getattr(m, also.who, None)
            sub_mode = max(sub_mode, _owner_mode(owner, hidden, _SHOWN), key=_RANK.__getitem__)
        new = _scrub(value, sub_mode, sub_roles, hidden)
        if new is not value:
            update[name] = new
    return m.model_copy(update=update) if update else m


def public_copy(event: M, hidden: frozenset[str]) -> M:
    """``event`` as players may see it: the values of the ``hidden`` combatants it names replaced
    by `SECRET` (unmarked numbers too, when it names any of them). Unchanged if it names none."""
    if not hidden or not names_in(event, hidden):
        return event
    return _scrub_model(event, _UNKNOWN, {}, hidden)


# -- marked text ------------------------------------------------------------------------------------
MARK_START = "⟦h:"
_PUBLIC_PART = "⟦p⟧"
_MARK_END = "⟦/h⟧"
_MARK = re.compile(r"⟦h:(\[[^⟧]*\])⟧(.*?)⟦p⟧(.*?)⟦/h⟧", re.DOTALL)


def mark(names: Iterable[str], gm: str, public: str) -> str:
    """One line in both versions: ``gm`` for those who may see the numbers of ``names``,
    ``public`` for everyone else (`for_reader` picks)."""
    if gm == public:
        return gm
    listed = json.dumps(sorted(set(names)), ensure_ascii=True)
    return f"{MARK_START}{listed}⟧{gm}{_PUBLIC_PART}{public}{_MARK_END}"


def marked_names(text: str) -> set[str]:
    """The names whose numbers the marked lines of ``text`` hide."""
    found: set[str] = set()
    for m in _MARK.finditer(text):
        try:
            names = json.loads(m.group(1))
        except ValueError:
            continue
        if isinstance(names, list):
            found.update(n for n in names if isinstance(n, str))
    return found


def for_reader(text: str, shown: Callable[[str], bool]) -> str:
    """``text`` for one reader: each marked line's GM version where ``shown`` is true of all its
    names, else its public version. A mark cut short (a clipped text) is dropped from there on."""
    if MARK_START not in text:
        return text

    def pick(m: re.Match[str]) -> str:
        try:
            names = json.loads(m.group(1))
        except ValueError:
            names = [None]
        ok = isinstance(names, list) and all(isinstance(n, str) and shown(n) for n in names)
        return m.group(2) if ok else m.group(3)

    out = _MARK.sub(pick, text)
    cut = out.find(MARK_START)
    return out if cut < 0 else out[:cut] + "…"


def everyone(name: str) -> bool:
    """The GM's reading: every number is shown."""
    return True


class Seen(Protocol):
    """What the readers below ask of an encounter (`rules.models.Encounter` answers)."""

    @property
    def round(self) -> int: ...
    @property
    def phase(self) -> str | None: ...
    def hidden_names(self) -> frozenset[str]: ...
    def shown_to_players(self, name: str) -> bool: ...


def players_see(enc: Seen | None) -> Callable[[str], bool]:
    """Whether players see the numbers of the combatant called ``name`` in ``enc`` now
    (`rules.models.Encounter.shown_to_players`); without an encounter, nobody's."""
    if enc is None:
        return lambda name: False
    return enc.shown_to_players


_ROUND = re.compile(r"Round [0-9]+")


def turn_line(enc: Seen, label: str, actors: Iterable[str]) -> str:
    """A turn's line (`rules.present.Presenter.turn_label`), marked: where it names a hidden combatant and
    holds a number besides the round's and the phase's (everyone's), players read only the round, the phase
    and whose turn it is."""
    acting = tuple(actors)
    names = [n for n in enc.hidden_names() if n in label]
    numbers = _ROUND.sub("", label.replace(enc.phase, "") if enc.phase else label)
    for named in sorted({*names, *acting}, key=len, reverse=True):  # a name's own digits (`Orc 2`) are no number
        numbers = numbers.replace(named, "")
    if not names or MARK_START in label or not any(ch.isdigit() for ch in numbers):
        return label  # (a line the presenter marked itself is left as it is)
    who = ", ".join(acting[:10])
    public = [f"Round {enc.round}", *([enc.phase] if enc.phase and enc.phase in label else []), *([f"{who} to act"] if who else [])]
    return mark(names, label, " · ".join(public))
