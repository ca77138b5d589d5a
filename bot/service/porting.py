"""Reading an ``encounter.json`` back: sizes first, then types, then the rules.

`read_export` checks a file in order of cost, so that a hostile file is refused before it can
cost anything: the byte size; the parse (a nesting too deep is refused, not a RecursionError);
the counts that bound the work (combatants, order, GMs, walls); one walk over the parsed JSON
bounding depth, list and object sizes, text lengths and numbers; user ids (Discord snowflakes);
then the typed models, the options through the readers `/encounter settings` uses, the map,
sheets and state against the rules, and last the same validation a load does. Every refusal is
one `InputError` naming what is wrong and the limit. Nothing here touches storage or Discord.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

import annotated_types
from pydantic import ValidationError

from rules.effects import parse_mods
from rules.errors import InputError, RulesError
from rules.geometry import MAX_SIDE, parse_cell
from rules.models import EXPORT_FORMAT, Combatant, Encounter
from rules.registry import get_system, system_keys
from rules.setup import set_options, setting_problem
from rules.system import MAX_COMBATANTS, RuleSystem, check_plain

__all__ = [
    "MAX_IMPORT_BYTES",
    "MAX_DEPTH",
    "MAX_TEXT",
    "MAX_KEYS",
    "MAX_GMS",
    "MAX_VALUES",
    "read_export",
    "is_snowflake",
]

MAX_IMPORT_BYTES = 512 * 1024
#: how deeply lists and objects may nest in a file (an export nests 5 deep)
MAX_DEPTH = 20
#: the longest text anywhere in a file (a sheet's whole text is at most 1000 characters)
MAX_TEXT = 1000
#: the most keys of an object (a sheet, a state); the map's terrain and heights go by the map's size
MAX_KEYS = 100
#: the longest list anywhere, unless a tighter bound applies: one entry per cell of the largest map
MAX_LIST = MAX_SIDE * MAX_SIDE
#: the most values in a file: a full export (100 combatants, every cell of a 100x100 map marked) has about 32,000
MAX_VALUES = 40_000
MAX_GMS = 25
MAX_NUMBER = 2**63
_SNOWFLAKE = re.compile(r"[0-9]{1,20}")
#: a NUL, or half of a surrogate pair: text that no database stores as it is
_BROKEN = re.compile("[\x00\ud800-\udfff]")


def is_snowflake(value: object) -> bool:
    """A Discord id: up to 20 ASCII digits that fit in 64 bits."""
    return isinstance(value, str) and _SNOWFLAKE.fullmatch(value) is not None and int(value) < 2**64


def read_export(raw: bytes, importer: str) -> Encounter:
    """Validate an ``encounter.json``; any problem is one clear message. ``importer`` becomes a GM."""
    data = _parse(raw)
    _check_counts(data)
    _check_sizes(data)
    _check_ids(data)
    _check_settings(data)
    try:
        enc = Encounter.model_validate(data)
    except ValidationError as exc:
        raise _invalid(exc, data) from None
    except RulesError as exc:
        raise InputError(f"The file is not valid: {exc.message}") from None
    system = get_system(enc.system)
    system.check_variant(enc.variant)
    options = dict(enc.settings.options)
    enc.settings.options = {}
    set_options(system, enc.settings.options, options)
    try:
        system.check_options(enc)
    except RulesError as exc:
        raise InputError(f"The file's options cannot be used: {exc.message}") from None
    _check_rules(enc, system)
    if importer not in enc.gm_ids:
        enc.gm_ids.append(importer)
    stored = enc.model_dump_json()
    _check_sizes(json.loads(stored))  # what the file becomes (text turned number...) within the file's limits
    try:  # exactly what a load of the stored row will do
        return Encounter.model_validate_json(stored)
    except ValidationError as exc:
        raise _invalid(exc) from None


def _invalid(exc: ValidationError, data: Any = None) -> InputError:
    """A file the models refuse, in the GM's words where they can be had: a state of another system
    than the file's `system` says so, a combatant's number out of range names it and the range."""
    if (meant := _state_of(data)) is not None:
        return InputError(
            f"This file's state is for {meant.title}, not {get_system(data['system']).title}: set its `system` back to "
            f"`{meant.key}`, or export the encounter again."
        )
    first = exc.errors()[0]
    loc = first["loc"]
    if len(loc) == 3 and loc[0] == "combatants" and isinstance(loc[1], int) and (bounds := _bounds(str(loc[2]))):
        field, (least, most) = str(loc[2]), bounds
        most_of = " (and at most its sheet's most)" if field == "hp" else ""
        return InputError(
            f"{_combatant(data, loc[1])}'s `{field}` in the file is {str(first.get('input'))[:30]}: a combatant's `{field}` "
            f"is from {least} to {most}{most_of}: write one in that range, or export the encounter again."
        )
    return InputError(f"The file is not valid at `{_where(loc)}`: {first['msg']}.")


def _state_of(data: Any) -> RuleSystem | None:
    """The system whose state a file the models refuse holds, when its `system` names another (a changed `system`)."""
    if not isinstance(data, dict):
        return None
    for key in system_keys():
        if key == data.get("system"):
            continue
        try:
            Encounter.model_validate({**data, "system": key})
        except (ValidationError, RulesError):
            continue
        return get_system(key)
    return None


def _bounds(field: str) -> tuple[int, int] | None:
    """The least and the most a combatant's number ``field`` holds in any system (None: not a bounded number)."""
    info = Combatant.model_fields.get(field)
    if info is None:
        return None
    least = next((m.ge for m in info.metadata if isinstance(m, annotated_types.Ge)), None)
    most = next((m.le for m in info.metadata if isinstance(m, annotated_types.Le)), None)
    return (int(least), int(most)) if isinstance(least, int) and isinstance(most, int) else None


def _combatant(data: Any, index: int) -> str:
    """The name of the file's combatant at ``index`` (as the file spells it), or its place."""
    try:
        name = data["combatants"][index]["name"]
    except (KeyError, IndexError, TypeError):
        name = None
    return name[:40] if isinstance(name, str) and name.strip() else f"Combatant {index + 1}"


def _where(path: tuple[Any, ...] | list[Any]) -> str:
    return ".".join(str(p) for p in path)[:200] or "the top"


def _no_constant(name: str) -> float:
    raise InputError(f"The file holds `{name}`, which is not a number an export writes: export it again.")


def _parse(raw: bytes) -> Any:
    if len(raw) > MAX_IMPORT_BYTES:
        raise InputError(f"That file is over {MAX_IMPORT_BYTES // 1024} KiB: attach an `encounter.json` from `/encounter export`.")
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        raise InputError(f"The file is nested more than {MAX_DEPTH} levels deep: attach an `encounter.json` from `/encounter export`.") from None
    except (UnicodeDecodeError, ValueError):  # JSONDecodeError, or an integer of thousands of digits
        raise InputError("That file is not JSON: attach the `encounter.json` that `/encounter export` gave you.") from None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise InputError(f"That file is not a Skirmish export (its `format` should be `{EXPORT_FORMAT}`).")
    if data.get("system") not in system_keys():
        raise InputError(f"Unknown system `{str(data.get('system'))[:40]}`: this bot runs {', '.join(system_keys())}.")
    return data


def _length(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    return len(value) if isinstance(value, (list, dict)) else 0


def _check_counts(data: dict[str, Any]) -> None:
    """The counts that bound all later work, read before anything else is looked at."""
    if (n := _length(data, "combatants")) > MAX_COMBATANTS:
        raise InputError(f"The file has {n} combatants: an encounter holds at most {MAX_COMBATANTS}.")
    if (n := _length(data, "order")) > MAX_COMBATANTS:
        raise InputError(f"The file's order has {n} names: it may have at most {MAX_COMBATANTS} names.")
    if (n := _length(data, "gm_ids")) > MAX_GMS:
        raise InputError(f"The file has {n} GMs: an encounter has at most {MAX_GMS}.")
    m = data.get("map")
    if not isinstance(m, dict):
        return
    width, height = (v if isinstance(v, int) and 0 <= v <= MAX_SIDE else MAX_SIDE for v in (m.get("width"), m.get("height")))
    cells = width * height
    if (n := _length(m, "blocked")) > cells:
        raise InputError(f"The file's map has {n} walls: a {width}x{height} map holds at most {cells} walls.")
    for key in ("terrain", "heights"):
        if (n := _length(m, key)) > cells:
            raise InputError(f"The file's map `{key}` marks {n} cells: a {width}x{height} map has at most {cells}.")


def _check_sizes(data: Any) -> None:
    """One walk over the parsed file: depth, list and object sizes, text lengths, numbers."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    seen = 0
    while stack:
        node, path = stack.pop()
        seen += 1
        if seen > MAX_VALUES:
            raise InputError(f"The file holds more than {MAX_VALUES} values: attach an `encounter.json` from `/encounter export`.")
        if isinstance(node, dict):
            if len(path) >= MAX_DEPTH:
                raise InputError(f"The file is nested more than {MAX_DEPTH} levels deep at `{_where(path)}`.")
            most = MAX_LIST if path in (("map", "terrain"), ("map", "heights")) else MAX_KEYS
            if len(node) > most:
                raise InputError(f"`{_where(path)}` in the file has {len(node)} keys: at most {most} keys.")
            for key, value in node.items():
                if len(key) > MAX_TEXT:
                    raise InputError(f"A key in `{_where(path)}` is {len(key)} characters long: at most {MAX_TEXT} characters.")
                _check_text(key, path)
                stack.append((value, (*path, key)))
        elif isinstance(node, list):
            if len(path) >= MAX_DEPTH:
                raise InputError(f"The file is nested more than {MAX_DEPTH} levels deep at `{_where(path)}`.")
            if len(node) > MAX_LIST:
                raise InputError(f"`{_where(path)}` in the file has {len(node)} entries: at most {MAX_LIST}.")
            stack.extend((value, (*path, i)) for i, value in enumerate(node))
        elif isinstance(node, str):
            if len(node) > MAX_TEXT:
                raise InputError(f"`{_where(path)}` in the file is {len(node)} characters long: at most {MAX_TEXT} characters.")
            _check_text(node, path)
        elif isinstance(node, (int, float)) and not isinstance(node, bool):
            if not (math.isfinite(node) and -MAX_NUMBER < node < MAX_NUMBER):
                raise InputError(f"`{_where(path)}` in the file is a number too large for any rule.")


def _check_settings(data: dict[str, Any]) -> None:
    """The turn clock's numbers, as `/encounter settings` takes them (`rules.setup.setting_problem`:
    a deadline of 0.001 h would pass a turn on every reminder pass)."""
    settings = data.get("settings")
    if not isinstance(settings, dict):
        return
    for key in ("reminder_hours", "deadline_hours"):
        value = settings.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and (why := setting_problem(key, value)):
            raise InputError(f"The file's settings cannot be used: {why}")


def _check_text(text: str, path: tuple[Any, ...]) -> None:
    """Text no database stores as it is: NUL, or half of a surrogate pair (JSON's ``\\ud800``)."""
    if _BROKEN.search(text):
        raise InputError(
            f"`{_where(path)}` in the file holds a NUL or a broken character: export it again, or fix that text."
        )


def _check_ids(data: dict[str, Any]) -> None:
    """Owners and GMs are Discord users: their ids must be snowflakes."""
    places: list[tuple[str, Any]] = []
    if isinstance(data.get("gm_ids"), list):
        places += [(f"gm_ids.{i}", v) for i, v in enumerate(data["gm_ids"])]
    if isinstance(data.get("combatants"), list):
        places += [
            (f"combatants.{i}.owner_id", c["owner_id"])
            for i, c in enumerate(data["combatants"])
            if isinstance(c, dict) and c.get("owner_id") is not None
        ]
    for where, value in places:
        if not is_snowflake(value):
            shown = str(value)[:30].replace("`", "'")
            raise InputError(
                f"The file's `{where}` is `{shown}`, which is not a Discord user id (up to 20 digits): "
                "export the encounter again, or fix that id."
            )


def _check_rules(enc: Encounter, system: RuleSystem) -> None:
    """The map, positions, order, sheets, hit points and state fit the system's rules."""
    if enc.map.kind not in system.map_kinds and not (enc.map.kind == "none" and "none" in system.map_kinds):
        raise InputError(f"{system.title} cannot play on a `{enc.map.kind}` map.")
    try:  # names and sides through the readers the commands use
        check_plain(enc.name, "encounter's name")
        for c in enc.combatants:
            check_plain(c.name, "combatant's name", listed=True)
            if system.side_name(enc, c.side) != c.side:
                raise InputError(f"{c.name}'s side is spelt `{c.side}`, while another combatant's is spelt otherwise.")
    except RulesError as exc:
        raise InputError(f"The file is not valid: {exc.message}") from None
    names = [c.name.casefold() for c in enc.combatants]
    if len(set(names)) != len(names):
        raise InputError("The file has two combatants with the same name.")
    grid = enc.grid()
    seen: set[str] = set()
    for c in enc.combatants:
        if c.position is None:
            continue
        if grid is None:
            raise InputError(f"{c.name} has a position but the map is `none`.")
        cell = parse_cell(c.position)
        if not grid.contains(cell) or cell in grid.blocked:
            raise InputError(f"{c.name} stands at {c.position}, which is off the map or a wall.")
        if c.position in seen and c.status != "out":
            raise InputError(f"Two combatants stand at {c.position}.")
        seen.add(c.position)
        if c.facing is not None and c.facing not in grid.facings:
            raise InputError(f"{c.name} has facing `{c.facing}`, which this map does not have.")
    for name in [*enc.order, *([enc.current] if enc.current else [])]:
        if enc.find(name) is None and name not in enc.sides():
            raise InputError(f"The order names `{name}`, who is not among the combatants.")
    for c in enc.combatants:
        try:
            sheet = system.read_sheet(enc, {k: _as_text(v) for k, v in c.sheet.items()})
        except RulesError as exc:
            raise InputError(f"The sheet of {c.name} in the file is not valid: {exc.message}") from None
        if sheet != c.sheet:
            raise InputError(f"The sheet of {c.name} in the file does not read back the same: export it again.")
        system.check_hp(enc, c)  # its hit points and status, as its sheet and the rules leave them
    for e in enc.effects:  # the changes effects make, through the reader `/effect add mods:` uses
        if not e.mods:
            continue
        try:
            mods = parse_mods(" ".join(f"{k}{v:+d}" for k, v in e.mods.items()), e.name, system.effect_values, system.title)
        except RulesError as exc:
            raise InputError(f"The effect {e.name} in the file is not valid: {exc.message}") from None
        if e.target is None or mods != e.mods:
            raise InputError(f"The effect {e.name} in the file changes values it cannot: export it again.")


def _as_text(value: object) -> str:
    """A stored sheet value written back as the `key=value` text it was read from."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ",".join(f"{k}:{v}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)
