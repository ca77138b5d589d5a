"""Checks that a system's rules make no words and its presenter works nothing out, read from the
source: every term the rules name (`rules.events.mod`, `Modifier`, `Term`) is a literal code the
presenter words, every roll's ``label`` is dice notation, and the presenter imports only what it
may (events, facts, stored state, word helpers, types and tables)."""
from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

__all__ = ["PRESENTER_MAY_IMPORT", "term_codes", "term_problems", "label_problems", "import_problems"]

#: the modules outside its own package a presenter may import (`docs/development.md`, step 5)
PRESENTER_MAY_IMPORT = frozenset({
    "__future__", "typing", "collections.abc", "rules.events", "rules.facts", "rules.hidden", "rules.present",
    "rules.report", "rules.text", "rules.models", "rules.turns",
})
#: a roll's label: dice only (``3d6``, ``d20``, ``2d6kh1``)
DICE = re.compile(r"^\d*d\d+(k[hl]?\d+)?$")
_TERM_CALLS = {"mod": 0, "Modifier": None, "Term": None}


def _rules_files(folder: Path) -> Iterable[Path]:
    return sorted(p for p in folder.glob("*.py") if p.stem != "present")


def _name(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _code_node(call: ast.Call) -> ast.expr | None:
    """The expression a term call gives as its code (`mod`'s first argument, else ``code=``)."""
    if _name(call) == "mod" and call.args:
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg == "code"), None)


def _calls(folder: Path) -> Iterable[tuple[str, ast.Call]]:
    for path in _rules_files(folder):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                yield f"{path.stem}:{node.lineno}", node


def term_codes(folder: Path) -> dict[str, list[str]]:
    """Each literal code the modules of ``folder`` (its presenter aside) name a term by -> where."""
    found: dict[str, list[str]] = {}
    for where, call in _calls(folder):
        node = _code_node(call) if _name(call) in _TERM_CALLS else None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.setdefault(node.value, []).append(where)
    return found


def term_problems(folder: Path, words: dict[str, str]) -> list[str]:
    """Terms the rules in ``folder`` name by anything but a literal code, and codes ``words`` (the
    presenter's `terms`) has no words for."""
    bad = []
    for where, call in _calls(folder):
        if _name(call) not in _TERM_CALLS:
            continue
        node = _code_node(call)
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            bad.append(f"{where}: {_name(call)}(...) names its term by {ast.unparse(node) if node else 'nothing'}")
    bad += [f"{', '.join(where)}: no words for the code {code!r}" for code, where in term_codes(folder).items()
            if code not in words]
    return bad


def _pattern(node: ast.expr) -> str:
    """A label's text, each formatted value read as a number (``f"{count}d6"`` -> ``1d6``)."""
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "1" for v in node.values)
    return ast.unparse(node)


def label_problems(folder: Path) -> list[str]:
    """Rolls the modules of ``folder`` label with anything but dice notation."""
    return [f"{where}: label {ast.unparse(k.value)}" for where, call in _calls(folder) if _name(call) == "Roll"
            for k in call.keywords if k.arg == "label" and not DICE.match(_pattern(k.value))]


def import_problems(path: Path, own: Iterable[str]) -> list[str]:
    """The modules the presenter at ``path`` imports beyond `PRESENTER_MAY_IMPORT` and ``own`` (its
    system's events, state, facts and tables)."""
    allowed = PRESENTER_MAY_IMPORT | set(own)
    bad = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] if node.module in allowed else [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        bad += [f"{path.stem}:{node.lineno} imports {n}" for n in names if n not in allowed]
    return bad
