"""What a system's tests check of where its words are made: its rules name each term (`mod`,
`Term`) by a literal code, and a roll's label is dice notation; its presenter imports only what
words facts (no function of the rules to work something out while rendering). Read from the
source with `ast`; and a question the rules ask a player is facts (`sentences`)."""
from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel

__all__ = ["ROOT", "dice_labels", "named_terms", "presenter_imports", "sentences"]

ROOT = Path(__file__).resolve().parents[2]
#: the core modules a presenter may import: events, facts, hidden values, word helpers, types
PRESENTER_CORE = frozenset({
    "rules.events", "rules.facts", "rules.hidden", "rules.present", "rules.report", "rules.text",
    "rules.models", "rules.turns",
})
#: the standard library a presenter needs for its types
PRESENTER_STDLIB = frozenset({"__future__", "typing", "collections.abc", "dataclasses"})
#: a system's own modules a presenter may import whole: its events, typed state and facts; from
#: its other modules it takes constants only (UPPER_CASE names: tables of numbers or words)
PRESENTER_OWN = frozenset({"events", "state", "facts"})
DICE = re.compile(r"\d*d\d+([+-]\d+)?")


def _rules_modules(key: str) -> list[tuple[str, ast.Module]]:
    folder = ROOT / "rules" / "systems" / key
    return [(p.name, ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(folder.glob("*.py")) if p.name != "present.py"]


def _called(node: ast.Call) -> str:
    return node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(node.func, ast.Attribute) else ""


def named_terms(key: str) -> list[tuple[str, int, str | None]]:
    """``(module, line, code)`` for each term the rules of system package ``key`` make
    (``mod(code, ...)``, ``Term(code=...)``, ``Modifier(code=...)``); ``code`` is None where it is not a literal string."""
    found = []
    for module, tree in _rules_modules(key):
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or _called(node) not in ("mod", "Term", "Modifier"):
                continue
            given = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "code"), None)
            code = given.value if isinstance(given, ast.Constant) and isinstance(given.value, str) else None
            found.append((module, node.lineno, code))
    return found


def _words(label: ast.expr) -> list[str]:
    """The parts of a label written in the rules that are not dice notation: a literal string
    other than dice, or words assembled (an f-string other than dice with a number filled in); a
    name or a field is data (a weapon's dice)."""
    if isinstance(label, ast.IfExp):
        return _words(label.body) + _words(label.orelse)
    if isinstance(label, ast.Constant):
        return [] if label.value is None or DICE.fullmatch(str(label.value)) else [repr(label.value)]
    if isinstance(label, ast.JoinedStr):  # dice with a number filled in (``f"{count}d6"``) are dice
        shape = "".join(str(v.value) if isinstance(v, ast.Constant) else "1" for v in label.values)
        return [] if DICE.fullmatch(shape) else [ast.unparse(label)]
    return [ast.unparse(label)] if isinstance(label, ast.BinOp) else []


def dice_labels(key: str) -> list[tuple[str, int, str]]:
    """``(module, line, label)`` for each ``label=`` of a `Roll` the rules of ``key`` make that
    is not dice notation (``d6``, ``2d20``, ``1d8+1``)."""
    return [
        (module, node.lineno, words)
        for module, tree in _rules_modules(key)
        for node in ast.walk(tree) if isinstance(node, ast.Call) and _called(node) == "Roll"
        for k in node.keywords if k.arg == "label"
        for words in _words(k.value)
    ]


def presenter_imports(key: str) -> list[str]:
    """What the presenter of system package ``key`` imports that it must not: a module of the
    rules other than those that word facts, or a name from its other modules that is not a constant."""
    own = f"rules.systems.{key}"
    tree = ast.parse((ROOT / "rules" / "systems" / key / "present.py").read_text(encoding="utf-8"))
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bad += [f"{node.lineno}: import {a.name}" for a in node.names if a.name not in PRESENTER_STDLIB]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = [a.name for a in node.names]
            if module in PRESENTER_CORE | PRESENTER_STDLIB or module in {f"{own}.{m}" for m in PRESENTER_OWN}:
                continue
            if module == own and set(names) <= PRESENTER_OWN:  # ``from <package> import events``
                continue
            if module.startswith(f"{own}.") and all(n.isupper() for n in names):  # its constants
                continue
            bad.append(f"{node.lineno}: from {module} import {', '.join(names)}")
    return bad


def sentences(facts: Any, where: str = "") -> list[str]:
    """The texts in ``facts`` (a dataclass, a stored model, or what they hold) that are more than one
    word: a question of facts holds names, cells, codes and numbers, never a sentence."""
    if dataclasses.is_dataclass(facts) and not isinstance(facts, type):
        return [s for f in dataclasses.fields(facts) for s in sentences(getattr(facts, f.name), f"{where}.{f.name}")]
    if isinstance(facts, BaseModel):
        return [s for name in type(facts).model_fields for s in sentences(getattr(facts, name), f"{where}.{name}")]
    if isinstance(facts, (list, tuple)):
        return [s for i, v in enumerate(facts) for s in sentences(v, f"{where}[{i}]")]
    if isinstance(facts, dict):
        return [s for k, v in facts.items() for s in sentences(v, f"{where}[{k!r}]")]
    return [f"{where}: {facts!r}"] if isinstance(facts, str) and len(facts.split()) > 1 else []
