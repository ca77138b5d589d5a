"""Help pages, built from the registry so they never drift from the rules."""
from __future__ import annotations

from rules.report import Report
from rules.system import all_systems, get_system

__all__ = ["help_report", "COMMANDS"]

COMMANDS: tuple[tuple[str, str], ...] = (
    ("/encounter start system name map variant", "open an encounter here; you become its GM"),
    ("/encounter status · end · export · import file", "show, close, save to or load from encounter.json"),
    ("/encounter settings player_rolls reminder_hours options", "show or change settings (GM changes)"),
    ("/encounter gm user remove · terrain cells kind height", "co-GMs; mark walls, terrain, heights (GM)"),
    ("/combatant add name sheet owner side at facing", "add a combatant (GM, or a player adding their own)"),
    ("/combatant edit · remove · show", "change (GM or owner), remove (GM), look at a sheet"),
    ("/init roll · set · next · order", "start combat, set a number, end a turn, show or reorder"),
    ("/move to path facing", "move (cheapest legal path to a cell, or exact steps) or turn"),
    ("/attack target weapon roll options · /coupdegrace target weapon roll", "attack; finish a downed foe"),
    ("/act action target options roll", "the system's other actions"),
    ("/roll dice reason · /log count · /undo · /map · /help system", "dice, the log, undo (GM), map picture, help"),
)


def help_report(system_key: str | None = None) -> Report:
    if not system_key:
        lines = [f"`{cmd}`: {text}" for cmd, text in COMMANDS]
        lines.append("")
        lines.append("`roll:` takes your own natural die results, comma separated (`15,4`), used in order.")
        lines.append("Systems: " + ", ".join(f"`{s.key}`" for s in all_systems()) + ". `/help system:` shows one.")
        return Report("📖 Skirmish", lines)
    system = get_system(system_key)
    lines = []
    if system.variants:
        lines.append("Variants: " + ", ".join(f"`{v}`" for v in system.variants))
    lines.append("Map: " + " or ".join(system.map_kinds) + (f" (default {system.default_map})" if system.default_map else ""))
    fields = [("Sheet keys", "\n".join(f"`{k.name}`: {k.describe()}" for k in system.sheet_keys(None)) or "none")]
    if system.act_actions:
        fields.append(("/act actions", ", ".join(f"`{a}`" for a in system.act_actions)))
    if system.options_help:
        fields.append(("Encounter options (`/encounter settings options:`)", "\n".join(f"`{k}`: {v}" for k, v in system.options_help.items())))
    return Report(f"📖 {system.title} (`{system.key}`)", lines, fields)
