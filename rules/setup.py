"""The GM's setup of an encounter, apart from the fight's actions: a new encounter and its map,
its settings and options, its GMs, its map's terrain, and whose numbers players see.

Each function takes the encounter as it is and returns a changed copy for the caller to store
(with what it decided, where the caller's reply names it), or refuses with a `RulesError` and
changes nothing; none writes the reply. The settings' bounds are the `Settings` model's own
(`Field(ge, le)`), checked once by validating the values given with `GIVEN`; the refusal words
each bound with its field's ``description``.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from rules.errors import IllegalAction, InputError, NotAllowed
from rules.geometry import Cell, parse_map_spec
from rules.geometry.cell_lists import parse_cell_list
from rules.models import (
    MAX_CELL_HEIGHT,
    MAX_ENCOUNTER_NAME,
    Encounter,
    MapState,
    Settings,
)
from rules.report import joined, user_ref
from rules.sheet import read_int
from rules.system import RuleSystem, check_plain
from rules.text import article

__all__ = [
    "GIVEN", "HIDDEN_WORDS", "MAX_OPTION_TEXT", "new_encounter", "map_of", "map_hint", "setting_problem",
    "with_settings", "set_options", "set_hidden", "with_gm", "with_terrain", "with_reveal",
]

#: the validation context of settings a GM or a file gives now: values below a floor are refused
#: (a stored encounter from before the floor reads back raised to it)
GIVEN: dict[str, Any] = {"given": True}
#: the words of the encounter option ``hidden``: whose numbers players see as a condition word
HIDDEN_WORDS = ("gm", "none")
#: the longest value of a system's option
MAX_OPTION_TEXT = 500


def map_hint(system: RuleSystem) -> str:
    """What to write in `map` for ``system``."""
    if system.map_kinds == ("none",):
        return "leave `map` out"
    if "hex" in system.map_kinds:
        return "write a size like `12x10 hex`"
    return "write a size like `12x10`"


def map_of(system: RuleSystem, spec: str | None) -> MapState:
    """The map ``spec`` (``12x10``, ``12x10 hex``, ``none``; None: the system's default) if the
    system plays on that kind of map."""
    if spec is None or not spec.strip():
        spec = system.default_map or "none"
    kind, width, height = parse_map_spec(spec)
    if kind not in system.map_kinds:
        kinds = " or ".join(f"`{k}`" for k in system.map_kinds)
        raise InputError(f"{system.title} plays on a {kinds} map, not `{kind}`: {map_hint(system)}.")
    return MapState.model_validate({"kind": kind, "width": width, "height": height})


def new_encounter(
    system: RuleSystem, name: str | None, map_spec: str | None, variant: str | None, gm_id: str, reminder_hours: float,
) -> Encounter:
    """A new encounter of ``system`` run by ``gm_id``, before anyone is added."""
    variant = system.check_variant(variant)
    name = (name or "").strip()
    if len(name) > MAX_ENCOUNTER_NAME:
        raise InputError(
            f"An encounter's name is at most {MAX_ENCOUNTER_NAME} characters (this one has {len(name)}): shorten it."
        )
    check_plain(name, "encounter's name")
    return Encounter(
        system=system.key,
        variant=variant,
        name=name or f"{system.title} encounter",
        map=map_of(system, map_spec),
        gm_ids=[gm_id],
        settings=Settings(reminder_hours=reminder_hours),
    )


def _shown(value: object) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return f"`{str(value)[:40]}`" if isinstance(value, str) else str(value)


def _refusal(exc: ValidationError, given: Mapping[str, object]) -> str:
    """The first refused setting, in its field's words: ``max_nudges is ... not 11.``"""
    key = str(exc.errors()[0]["loc"][0])
    return f"`{key}` is {Settings.model_fields[key].description}, not {_shown(given.get(key))}."


def setting_problem(key: str, value: object) -> str | None:
    """Why the encounter setting ``key`` cannot be ``value`` (None: it can), as the model checks it."""
    try:
        Settings.model_validate({key: value}, context=GIVEN)
    except ValidationError as exc:
        return _refusal(exc, {key: value})
    return None


def _value_forms(system: RuleSystem, key: str) -> str:
    """What to write for the option ``key``: its values as pairs (``crit=yes``, ``crit=no``) or, for a
    number or a longer list of words, its form (``reach=N`` and N's range), then ``key=default``."""
    values: tuple[str, ...]
    if key == "hidden":
        values, default = HIDDEN_WORDS, HIDDEN_WORDS[0]
    else:
        option = system.options.get(key)
        values = ("yes", "no") if option.kind == "bool" else tuple(option.choices) if option.kind == "choice" else ()
        default = option.default_text()
        if not values or len(values) > 4:
            word, what = ("N", f"from {option.minimum} to {option.maximum}") if option.kind == "int" else ("VALUE", option.accepted())
            return f"`{key}={word}` ({word}: {what}) or `{key}=default` ({default})"
    return f"{', '.join(f'`{key}={v}`' for v in values)} or `{key}=default` ({default})"


def _reads(system: RuleSystem, key: str, word: str) -> bool:
    """Whether the option ``key`` takes ``word`` as its value."""
    if key == "hidden":
        return word in HIDDEN_WORDS
    try:
        system.options.get(key).read(word)
    except InputError:
        return False
    return True


def _check_values(system: RuleSystem, options: Mapping[str, str]) -> None:
    """Refuse a known option given without a value (``crit``, ``crit=``): only ``key=default`` puts one
    back, never a key typed alone; a word after ``crit= `` is named as the value it meant to be."""
    keys = list(options)
    for at, key in enumerate(keys):
        if options[key] or (key != "hidden" and key not in system.options):
            continue
        after = keys[at + 1] if at + 1 < len(keys) else None
        if after is not None and not options[after] and _reads(system, key, after):
            raise InputError(f"`{key}` has no value (`{after[:40]}` after a space is a word of its own: write `{key}={after[:40]}`).")
        raise InputError(f"`{key}` has no value: write {_value_forms(system, key)}.")


def set_options(system: RuleSystem, options: dict[str, str], changes: Mapping[str, str]) -> None:
    """Apply ``key=value`` option ``changes`` to ``options``: known keys only, ``default`` resets
    one (as does ``""``, which a file may hold: `/encounter settings` refuses it first,
    `with_settings`), values of at most 500 characters."""
    for key, value in changes.items():
        if key not in system.options_help:
            known = ", ".join(system.options_help) or "none"
            cut = next((k for k, v in changes.items() if v.endswith(",")), None)  # `weapons=a:b, c:d` unquoted
            quote = f" (`{cut}`'s list goes on after a space: quote it whole, `{cut}='{changes[cut]} {key}'`)" if cut else ""
            raise InputError(f"`{key}` is not an option of {system.title}{quote}. Options: {known}.")
        if value in ("", "default"):
            options.pop(key, None)
        elif len(value) > MAX_OPTION_TEXT:
            raise InputError(f"The value of `{key}` may be at most {MAX_OPTION_TEXT} characters long.")
        else:
            options[key] = value


def set_hidden(enc: Encounter, value: str) -> None:
    """``options:"hidden=none"``: every combatant's numbers are shown to everyone (as `/encounter reveal`
    without a name); ``hidden=gm`` (the default) hides the GM's combatants' numbers again, all of them."""
    word = value.strip().lower()
    if word in ("", "default"):
        word = "gm"
    if word not in HIDDEN_WORDS:
        raise InputError(
            f"`hidden` is `gm` (players see the GM's combatants' health as a condition word; the default) "
            f"or `none` (every number is shown to everyone), not `{value[:40]}`."
        )
    enc.settings.reveal = word == "none"
    if word == "gm":
        enc.settings.revealed.clear()


def with_settings(
    enc: Encounter, system: RuleSystem, changes: Mapping[str, object], options: Mapping[str, str],
) -> Encounter:
    """``enc`` with the encounter settings ``changes`` (None: unchanged) and the system's
    ``options`` (``key=value``; ``hidden`` is the encounter's own, `set_hidden`)."""
    given = {k: v for k, v in changes.items() if v is not None}
    try:
        checked = Settings.model_validate(given, context=GIVEN)
    except ValidationError as exc:
        raise InputError(_refusal(exc, given)) from None
    new = enc.model_copy(deep=True)
    for key in given:
        setattr(new.settings, key, getattr(checked, key))
    _check_values(system, options)
    rest = dict(options)
    if "hidden" in rest:
        set_hidden(new, rest.pop("hidden"))
    set_options(system, new.settings.options, rest)
    system.check_options(new)
    return new


def with_gm(enc: Encounter, user_id: str, remove: bool, by: str) -> Encounter:
    """``enc`` with ``user_id`` a GM too, or (``remove``) no longer one, as the GM ``by`` asks; one GM
    always stays. The first GM (who started the encounter; once they step down, the next) is
    removed only by themselves: co-GMs help the GM, they do not depose them."""
    new = enc.model_copy(deep=True)
    if remove:
        if user_id not in new.gm_ids:
            raise InputError(f"{user_ref(user_id)} is not a GM here.")
        if user_id == new.gm_ids[0] and by != user_id:
            raise NotAllowed(
                f"Only {user_ref(user_id)} can remove themselves as GM: an encounter's first GM "
                "(who started it) stays until they step down."
            )
        if len(new.gm_ids) == 1:
            raise IllegalAction("An encounter needs at least one GM: add another before removing this one.")
        new.gm_ids.remove(user_id)
    else:
        if user_id in new.gm_ids:
            raise InputError(f"{user_ref(user_id)} is already a GM here.")
        new.gm_ids.append(user_id)
    return new


def with_terrain(
    enc: Encounter, system: RuleSystem, cells: str, kind: str | None, height: int | None,
) -> tuple[Encounter, str | None, list[Cell], list[Cell]]:
    """``enc`` with ``cells`` (a cell list: ``A1 B2:C4``) marked as the terrain ``kind`` (``clear``
    clears them; None keeps each cell's) and, with ``height``, raised to it in feet (0 clears it);
    the kind as read, the cells, and the walls among them a kind other than ``wall`` or ``clear``
    left standing (a kind that would change nothing but walls is refused). A solid terrain (a
    wall) cannot go on a cell someone stands on."""
    grid = enc.grid()
    if grid is None:
        raise IllegalAction("This encounter has no map to mark.")
    if kind is None and height is None:
        raise InputError("Give `kind` (what is there), `height` (in feet; 0 clears it) or both: "
                         "a height alone keeps what each cell holds.")
    kind = None if kind is None else kind.strip().lower()
    if kind is not None and kind not in system.terrain_kinds:
        raise InputError(f"`{kind}` is not a terrain {system.title} uses: use one of {', '.join(system.terrain_kinds)}.")
    targets = parse_cell_list(cells, grid.width, grid.height)
    if height is not None:
        read_int(str(height), "height", -MAX_CELL_HEIGHT, MAX_CELL_HEIGHT, hint="in feet; 0 clears it")
    new = enc.model_copy(deep=True)
    m = new.map
    # a terrain is painted around walls, not over them: only `clear` takes a wall away
    kept = [c for c in targets if c.name in m.blocked] if kind not in (None, "clear", "wall") else []
    if kept and len(kept) == len(targets) and height is None:
        one = len(kept) == 1
        raise InputError(
            f"{joined([c.name for c in kept], 300, sep=' ')} {'is a wall' if one else 'are walls'}, and `kind:{kind}` "
            f"leaves walls standing: mark {'it' if one else 'them'} `kind:clear` first to take {'it' if one else 'them'} away."
        )
    for cell in targets:
        name = cell.name
        there = new.at(cell)
        if kind is not None and kind in system.solid_terrain and there is not None:
            raise IllegalAction(f"{name} holds {there.name}: {article(kind)} {kind} cannot go there.")
        if kind is not None and cell not in kept:
            m.terrain.pop(name, None)
            if kind == "wall":
                if name not in m.blocked:
                    m.blocked.append(name)
            else:
                if name in m.blocked:
                    m.blocked.remove(name)
                if kind != "clear":
                    m.terrain[name] = kind
        if height is not None:
            if height:
                m.heights[name] = height
            else:
                m.heights.pop(name, None)
    return new, kind, targets, kept


def with_reveal(enc: Encounter, name: str | None, hide: bool) -> tuple[Encounter, str | None]:
    """``enc`` with the numbers of the GM's combatant ``name`` (None: of every combatant) shown
    to everyone, or (``hide``) hidden from players again; the combatant's name as stored."""
    new = enc.model_copy(deep=True)
    revealed = new.settings.revealed
    if name is None:
        new.settings.reveal = not hide
        if hide:
            revealed.clear()
        return new, None
    c = new.get(name)
    if c.owner_id is not None:
        raise InputError(f"{c.name} is a player's: players' combatants always show their numbers.")
    if hide and new.settings.reveal:
        raise InputError("Every combatant's numbers are shown: `/encounter reveal hide:true` without a name hides them all first.")
    if hide:
        new.settings.revealed = [n for n in revealed if n != c.name]
    elif c.name not in revealed:
        revealed.append(c.name)
    return new, c.name
