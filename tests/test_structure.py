"""Structural checks: rules/ stays pure, every extension loads, the sync payload fits Discord."""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app import EXTENSIONS
from bot.offline.harness import Harness
from tests.layers import layer_problems, package_problems

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {"discord", "aiosqlite", "bot", "cogs", "data", "random", "time", "datetime"}
ALLOWED_TOP = {"random"}  # only as a type (random.Random passed in); see test below
NAME_RE = re.compile(r"^[-_\w]{1,32}$")


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name.split(".")[0], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module.split(".")[0], node.lineno))
    return found


def test_rules_layer_is_pure() -> None:
    """No module under rules/ imports discord, aiosqlite, bot, cogs, data, time or datetime."""
    bad = []
    for path in sorted((ROOT / "rules").rglob("*.py")):
        for module, line in _imports(path):
            if module in FORBIDDEN - ALLOWED_TOP:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert bad == []


def test_rules_never_call_the_global_random() -> None:
    """rules/ may name random.Random as a type but never draws from the module-level generator."""
    bad = []
    for path in sorted((ROOT / "rules").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"\brandom\.(\w+)\(", text):
            if m.group(1) != "Random":
                bad.append(f"{path.relative_to(ROOT)}: random.{m.group(1)}")
    assert bad == []


def test_the_purity_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    """The import scanner sees `from discord import ...` and `import aiosqlite`."""
    f = tmp_path / "x.py"
    f.write_text("import aiosqlite\nfrom discord.ext import commands\nfrom rules.geometry import Cell\n")
    assert [m for m, _ in _imports(f)] == ["aiosqlite", "discord", "rules"]


UNIX_ONLY = {"fcntl", "termios", "pwd", "grp", "resource", "posix"}
#: tools that start PostgreSQL or measure the process, which only Linux runs
UNIX_TOOLS = {"data/pgserver.py", "bot/offline/bench/results.py"}


def test_the_bot_imports_nothing_unix_only() -> None:
    """The bot's own modules import no Unix-only module (fcntl, pwd...): it runs on Windows and macOS."""
    bad = []
    for top in ("bot", "cogs", "data", "rules"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if path.relative_to(ROOT).as_posix() in UNIX_TOOLS:
                continue
            bad += [
                f"{path.relative_to(ROOT)}:{line} imports {module}"
                for module, line in _imports(path) if module in UNIX_ONLY
            ]
    assert bad == []


def test_service_is_a_package_of_small_modules() -> None:
    """bot/service/ is core, commands, permissions, porting and views, each under 600 lines."""
    modules = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in (ROOT / "bot" / "service").glob("*.py")}
    assert {"core.py", "commands.py", "permissions.py", "porting.py", "views.py"} <= set(modules)
    assert not (ROOT / "bot" / "service.py").exists() and not (ROOT / "bot" / "porting.py").exists()
    assert {name: n for name, n in modules.items() if n >= 600} == {}


#: bot/maps/, bottom first: each module imports only those before it
MAP_MODULES = ("key", "style", "png", "layer", "image", "worker", "docs")


def test_maps_is_a_package_read_bottom_up() -> None:
    """bot/maps/ holds the map modules; each imports only public names, and only of the modules below it."""
    folder = ROOT / "bot" / "maps"
    assert sorted(p.name for p in (ROOT / "bot").glob("map*.py")) == []
    assert package_problems(folder, "bot.maps", MAP_MODULES) == []


def test_the_maps_check_catches_a_private_name_and_a_cycle(tmp_path: Path) -> None:
    """The check refuses a sibling's private name, a module above, and the package's own names."""
    f = tmp_path / "layer.py"
    f.write_text(
        "from bot.maps.key import font\nfrom bot.maps.style import _tile, tint\n"
        "def later():\n    from bot.maps import image\n    from bot.maps import map_picture\n"
    )
    assert layer_problems(f, "bot.maps", MAP_MODULES, "layer") == [
        "layer:2 imports the private style._tile",
        "layer:4 imports image (only key, style, png)",
        "layer:5 imports __init__ (only key, style, png)",
    ]


def test_the_bot_process_does_not_load_pillow() -> None:
    """Importing the bot and bot.maps loads no Pillow: the worker processes draw the pictures."""
    code = "import sys, bot.app, bot.maps; print(sorted(m for m in ('PIL', 'bot.maps.image') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_no_test_module_imports_another() -> None:
    """Tests share fixtures through conftest.py and helpers through plain modules, never by importing a test_*.py."""
    bad = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if path.parent.name == "rules":  # tests/rules is being rewritten beside this change
            continue
        for module, line in _imports_full(path):
            if module.rsplit(".", 1)[-1].startswith("test_"):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert bad == []


def _imports_full(path: Path) -> list[tuple[str, int]]:
    """Every module ``path`` imports from, with its full dotted name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, node.lineno))
    return found


@pytest.fixture
async def harness():
    h = await Harness.create()
    yield h
    await h.close()


async def test_every_extension_loads(harness: Harness) -> None:
    """Each listed extension is loaded and adds at least one command."""
    assert set(EXTENSIONS) <= set(harness.bot.extensions)
    assert len(harness.bot.tree.get_commands()) >= 8


async def test_command_names_are_unique_and_the_contract_is_there(harness: Harness) -> None:
    """Top-level names are unique, and every command of the public contract exists."""
    names = [c.name for c in harness.bot.tree.get_commands()]
    assert len(names) == len(set(names))
    flat = set()
    for cmd in harness.bot.tree.walk_commands():
        flat.add(cmd.qualified_name)
    contract = {
        "encounter start", "encounter status", "encounter end", "encounter export", "encounter import",
        "combatant add", "combatant edit", "combatant remove", "init roll", "init set", "init next",
        "init order", "move", "attack", "coupdegrace", "act", "roll", "log", "undo", "map",
    }
    assert contract <= flat


def _check_option(opt: dict, where: str, problems: list[str]) -> None:
    if not NAME_RE.match(opt["name"]) or opt["name"] != opt["name"].lower():
        problems.append(f"{where}: bad option name {opt['name']!r}")
    if not 1 <= len(opt.get("description", "")) <= 100:
        problems.append(f"{where}.{opt['name']}: description must be 1-100 characters")
    if len(opt.get("choices") or []) > 25:
        problems.append(f"{where}.{opt['name']}: more than 25 choices")
    subs = opt.get("options") or []
    if len(subs) > 25:
        problems.append(f"{where}.{opt['name']}: more than 25 options")
    required_seen_optional = False
    for sub in subs:
        if sub["type"] not in (1, 2):
            if sub.get("required"):
                if required_seen_optional:
                    problems.append(f"{where}.{opt['name']}: required option after an optional one")
            else:
                required_seen_optional = True
        _check_option(sub, f"{where}.{opt['name']}", problems)


def _text_size(node: dict) -> int:
    size = len(node.get("name", "")) + len(node.get("description", ""))
    for ch in node.get("choices") or []:
        size += len(ch["name"]) + len(str(ch["value"]))
    return size + sum(_text_size(o) for o in node.get("options") or [])


async def test_sync_payload_fits_discord_limits(harness: Harness) -> None:
    """The exact payload tree.sync() would send respects Discord's limits on names, sizes and counts."""
    tree = harness.bot.tree
    payload = [c.to_dict(tree) for c in tree.get_commands()]
    assert 0 < len(payload) <= 100
    problems: list[str] = []
    for cmd in payload:
        if not NAME_RE.match(cmd["name"]):
            problems.append(f"bad command name {cmd['name']!r}")
        if not 1 <= len(cmd["description"]) <= 100:
            problems.append(f"{cmd['name']}: description must be 1-100 characters")
        if len(cmd.get("options") or []) > 25:
            problems.append(f"{cmd['name']}: more than 25 options")
        if _text_size(cmd) > 4000:
            problems.append(f"{cmd['name']}: over 4000 characters of names and descriptions")
        for opt in cmd.get("options") or []:
            _check_option(opt, cmd["name"], problems)
    assert problems == []
    assert len(json.dumps(payload)) < 64_000


async def test_every_command_is_guild_only(harness: Harness) -> None:
    """Every top-level command's sync payload forbids DMs: dm_permission false and contexts guild only."""
    tree = harness.bot.tree
    open_to_dms = [
        c["name"]
        for c in (cmd.to_dict(tree) for cmd in tree.get_commands())
        if c.get("dm_permission") is not False or c.get("contexts") != [0]
    ]
    assert open_to_dms == []


def _runtime_imports(path: Path) -> list[tuple[str, int]]:
    """The modules ``path`` imports when it runs: those under ``if TYPE_CHECKING:`` are left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for n in ast.walk(node)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, node.lineno))
    return found


def test_the_service_loads_neither_discord_nor_the_map_processes() -> None:
    """bot/service/ names discord.py and bot.maps only as types: the app passes the map renderer in, and the
    message limits it keeps to come from bot/limits.py, which loads no discord.py either."""
    paths = [*sorted((ROOT / "bot" / "service").glob("*.py")), ROOT / "bot" / "limits.py"]
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in paths
        for module, line in _runtime_imports(path)
        if module.split(".")[0] == "discord" or module.startswith("bot.maps")
    ]
    assert bad == []
    code = "import sys, bot.service; print(sorted(m for m in ('discord', 'bot.maps') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
