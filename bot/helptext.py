"""Help pages, built from the registry so they never drift from the rules."""
from __future__ import annotations

from rules.effects import change_range
from rules.errors import InputError
from rules.registry import all_systems, get_system
from rules.report import Report

__all__ = ["help_report", "COMMANDS", "PART_NAMES"]

#: the parts of a system's help page
PART_NAMES = {"sheet": "sheet keys", "actions": "`/act` actions", "options": "encounter options"}

#: the command overview: each line's commands with every option they take (a test holds it to the tree)
COMMANDS: tuple[tuple[str, str], ...] = (
    ("/encounter start system name map variant", "open an encounter here; you become its GM"),
    ("/encounter status public · end confirm · export · import file replace confirm", "show, close, save to or load from encounter.json"),
    ("/encounter settings player_rolls reminder_hours options max_nudges deadline_hours deadline_policy",
     "show or change settings: who rolls, the turn clock, the system's options (GM changes)"),
    ("/encounter gm user remove · terrain cells kind height", "co-GMs; mark walls, terrain, heights (GM)"),
    ("/encounter reveal combatant hide", "show players the numbers of the GM's combatants, or hide them again (GM)"),
    ("/combatant add name sheet owner side at facing count init",
     "add a combatant, or `count` of them (GM, or a player adding their own before the fight); `init` joins a fight under way"),
    ("/combatant edit name sheet side at facing · hp combatant change · remove name · show name",
     "change (GM; owners before the fight), damage or heal (GM), remove (GM), look at a sheet"),
    ("/init roll combatant roll · set combatant value · next combatant roll confirm · order set",
     "start combat, set a number, end a turn, show or reorder"),
    ("/move combatant to path facing options roll", "move (cheapest legal path to a cell, or exact steps) or turn"),
    ("/attack target combatant weapon roll options · /coupdegrace target combatant weapon roll options", "attack; finish a downed foe"),
    ("/act action combatant target options roll weapon facing", "the system's other actions"),
    ("/effect add name target rounds ends mods · remove name target · list public",
     "effects that last some turns or rounds (`mods` change numbers), shown on the board"),
    ("/roll dice for adv dis private · /log count public page · /undo · /map · /help system part",
     "dice (`private`: you and the GM), the log, undo (GM), map picture, help"),
    ("/notify quiet tz mode reset", "your own nudges: quiet hours, by direct message or in the channel"),
)


def _chunked(name: str, lines: list[str], limit: int = 1000) -> list[tuple[str, str]]:
    """Lines as embed fields of at most ``limit`` characters each."""
    fields: list[tuple[str, str]] = []
    current: list[str] = []
    for line in lines:
        if current and len("\n".join([*current, line])) > limit:
            fields.append((name if not fields else f"{name} (more)", "\n".join(current)))
            current = []
        current.append(line[:limit])
    if current:
        fields.append((name if not fields else f"{name} (more)", "\n".join(current)))
    return fields


def help_report(system_key: str | None = None, part: str | None = None) -> Report:
    """The command list, or one system's page (``part``: only its sheet keys, `/act` actions or options)."""
    if part is not None and part not in PART_NAMES:
        raise InputError(f"`part:{part}` is not a part of the help: use {', '.join(f'`{p}`' for p in PART_NAMES)}.")
    if not system_key:
        lines = [f"`{cmd}`: {text}" for cmd, text in COMMANDS]
        if part:
            lines.insert(0, f"`part` shows one system's {PART_NAMES.get(part, part)}: add `system`, e.g. `/help system:{all_systems()[0].key} part:{part}`.")
        lines.append("")
        lines.append("`roll:` takes your own natural die results, comma separated (`15,4`), used in order.")
        lines.append(
            "Buttons: **End turn** (the acting combatant's owner or a GM) and **Map** (only you see it) on the turn "
            "message, the GM's **Undo** on the board; `/encounter end` and `import replace:true` ask Confirm / Cancel "
            "(`confirm:true` skips the question)."
        )
        lines.append("Systems: " + ", ".join(f"`{s.key}`" for s in all_systems()) + ". `/help system:` shows one.")
        return Report("📖 Skirmish", lines)
    system = get_system(system_key)
    keys = [f"`{k.name}`: {k.describe()}" for k in system.sheet_keys(None)]
    changed = [f"`{v.name}` ({change_range(v)}): {v.help}" for v in system.effect_values]
    if part == "sheet":
        return Report(
            f"📖 {system.title}: sheet keys",
            ["`/combatant add sheet:\"key=value ...\"`; `/combatant edit` changes them.",
             "Effects change the values below while they last: `/effect add mods:\"attack+1\"`."],
            _chunked("Sheet keys", keys or ["This system has no sheet keys."])
            + _chunked("Values effects change", changed or ["none"]),
        )
    if part == "actions":
        return Report(
            f"📖 {system.title}: /act actions",
            ["`/act action:NAME` with `target`, `options` and `roll` where the action takes them."],
            _chunked("Actions", list(system.actions.lines()) or ["This system has no `/act` actions."])
            + _chunked("Options of /attack, /coupdegrace, /move", list(system.commands.command_lines())),
        )
    if part == "options":
        lines = [f"`{k}`: {v}" for k, v in system.options_help.items()] or ["This system has no options."]
        return Report(
            f"📖 {system.title}: encounter options",
            ["The GM sets them with `/encounter settings options:\"key=value\"`; `key=default` resets one."],
            _chunked("Options", lines),
        )
    lines = list(system.rules_summary)
    if system.variants:
        lines.append("Variants: " + ", ".join(f"`{v}`" for v in system.variants))
    lines.append("Map: " + " or ".join(system.map_kinds) + (f" (default {system.default_map})" if system.default_map else ""))
    fields = _chunked("Sheet keys", keys or ["none"])
    if changed:
        fields.append((
            "Values effects change",
            ", ".join(f"`{v.name}`" for v in system.effect_values)
            + f": `/effect add mods:\"{system.effect_values[0].name}+1\"`; `/help system:{system.key} part:sheet` explains them.",
        ))
    if system.act_actions:
        fields.append((
            "/act actions",
            ", ".join(f"`{a}`" for a in system.act_actions) + f": `/help system:{system.key} part:actions` explains them.",
        ))
    if system.options_help:
        fields.append(("Encounter options", f"{len(system.options_help)} options: `/help system:{system.key} part:options` lists them."))
    return Report(f"📖 {system.title} (`{system.key}`)", lines, fields)
