"""The offline console: line parsing, a scripted run, reproducible seeds, files, exit codes."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.offline.console import parse_line, parse_press
from bot.offline.harness import HarnessError

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """\
# a comment, then a blank line

@gm /encounter start system:coup-de-grace name:"Test Fight" map:8x6
@gm /combatant add name:Borin owner:@bob side:dwarves at:B3 facing:E sheet:"class=heavy weapons=hammer,shield"
@gm /combatant add name:Grak side:orcs at:E3 facing:W sheet:"class=light weapons=axe"
@gm /init roll
@bob /map
@gm /encounter export
@stranger /encounter end
@gm #tavern /encounter status
@gm /nonsense
"""


def console(tmp_path: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "bot", "console", *args], cwd=tmp_path, env=env, input=stdin,
        capture_output=True, text=True, timeout=120,
    )


@pytest.mark.parametrize(
    "line, expected",
    [
        ("@alice /encounter status", ("alice", "general", "/encounter status", {})),
        ("@alice #tavern /move to:D4", ("alice", "tavern", "/move", {"to": "D4"})),
        ('@gm /combatant add name:"Old Tom" sheet:"weapons=longsword:2"', ("gm", "general", "/combatant add", {"name": "Old Tom", "sheet": "weapons=longsword:2"})),
        # a backslash is kept as typed, quoted or not, as Discord passes an option's text
        (r'@gm /combatant add name:"Tom\\Jr" side:a\b', ("gm", "general", "/combatant add", {"name": r"Tom\\Jr", "side": r"a\b"})),
        ("@gm /note text:\"it's\"", ("gm", "general", "/note", {"text": "it's"})),
    ],
)
def test_parse_line(line: str, expected: tuple) -> None:
    """A console line gives the user, channel, command and options."""
    assert parse_line(line) == expected


@pytest.mark.parametrize("line", ["/encounter status", "@alice encounter", "@alice /move to:D4 facing", '@a /x name:"open'])
def test_parse_line_refuses_malformed_lines(line: str) -> None:
    """Lines without a user, a slash command, or name:value options are refused."""
    with pytest.raises(HarnessError):
        parse_line(line)


def test_script_runs_and_prints_what_the_bot_sends(tmp_path: Path) -> None:
    """A script prints replies, pings, ephemeral marks and attachment paths, and exits 0."""
    (tmp_path / "fight.txt").write_text(SCRIPT)
    result = console(tmp_path, "--seed", "4", "--files", "out", "fight.txt")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Test Fight" in out and "status board (posted)" in out
    assert "(pings @" in out
    assert "(only @stranger can see this)" in out
    assert (tmp_path / "out" / "map.png").read_bytes()[:4] == b"\x89PNG"
    assert "encounter.json written to" in out
    assert "[#tavern]" in out and "no encounter" in out
    assert "unknown command /nonsense" in out


def test_same_seed_same_story(tmp_path: Path) -> None:
    """--seed makes every roll reproducible."""
    script = "@gm /encounter start system:coup-de-grace\n@gm /roll dice:10d20\n"
    a = console(tmp_path, "--seed", "11", stdin=script).stdout
    b = console(tmp_path, "--seed", "11", stdin=script).stdout
    assert a == b and "10d20" in a


def test_unreadable_script_exits_nonzero(tmp_path: Path) -> None:
    """A script that cannot be read is the one case with a non-zero exit."""
    result = console(tmp_path, "missing.txt")
    assert result.returncode == 1 and "cannot read missing.txt" in result.stderr


def test_db_keeps_encounters_between_runs(tmp_path: Path) -> None:
    """With --db the encounter is still there in the next run."""
    console(tmp_path, "--db", "c.db", stdin="@gm /encounter start system:coup-de-grace name:Kept\n")
    out = console(tmp_path, "--db", "c.db", stdin="@gm /encounter status\n").stdout
    assert "Kept" in out


def test_wait_sends_due_reminders_and_delete_board_reposts(tmp_path: Path) -> None:
    """`!wait HOURS` moves the clock and sends due nudges; `!delete-board` makes the bot post the board again."""
    script = "\n".join([
        "@gm /encounter start system:coup-de-grace map:6x6",
        '@gm /combatant add name:A owner:@bob side:x at:A1 sheet:"class=light"',
        '@gm /combatant add name:B side:y at:F6 sheet:"class=light"',
        '@gm /combatant add name:C owner:@cat side:x at:A2 sheet:"class=light"',
        "@gm /encounter settings reminder_hours:2",
        "@gm /init roll",
        "!wait 1",
        "!wait 1.5",
        "!delete-board",
        "@gm /encounter status",
        "@gm /combatant edit name:B sheet:hp=4",
        "",
    ])
    out = console(tmp_path, stdin=script).stdout
    first, second = out.split("> !wait 1.5")
    assert "still your turn" not in first.split("> !wait 1")[1]
    assert "still your turn" in second and "(pings @bob @cat)" in second
    after = out.split("> !delete-board")[1]
    assert "(status board in #general deleted)" in after
    assert "status board (posted)" in after.split("> @gm /combatant edit")[1]


def test_wait_shows_the_board_edit_a_deadline_makes(tmp_path: Path) -> None:
    """A deadline that passes the turn edits the status board, as the bot does: `!wait` prints that
    edit (the board now names Grak's side) after the deadline's message, as a command prints its own."""
    script = "\n".join([
        "@gm /encounter start system:coup-de-grace map:6x6",
        '@gm /combatant add name:A owner:@bob side:x at:A1 sheet:"class=light"',
        '@gm /combatant add name:Grak side:y at:F6 sheet:"class=light"',
        "@gm /encounter settings reminder_hours:0 deadline_hours:4 deadline_policy:pass",
        '@gm /init roll roll:"6,1"',
        "!wait 4",
        "",
    ])
    waited = console(tmp_path, stdin=script).stdout.split("> !wait 4")[1]
    assert "Deadline: A's turn" in waited
    deadline, board = waited.split("[#general] status board (edited):")
    assert "y to activate: Grak" in board.splitlines()[3], board


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: (p / "bot.db").write_bytes(b"not a database\n" * 100), "is not a SQLite database"),
        (lambda p: (p / "bot.db").mkdir(), "is a folder"),
    ],
)
def test_unusable_database_is_one_line(tmp_path: Path, make, words: str) -> None:
    """--db naming a file that cannot be used exits 2 with one line on stderr, no traceback."""
    make(tmp_path)
    result = console(tmp_path, "--db", "bot.db", stdin="@gm /encounter status\n")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and lines[0].startswith("skirmish console: ")


@pytest.mark.parametrize(
    "line, expected",
    [
        ('@bob !press "End turn"', ("bob", "general", "End turn")),
        ("@gm #tavern !press Confirm", ("gm", "tavern", "Confirm")),
        ("@gm /encounter end", None),
    ],
)
def test_parse_press(line: str, expected: tuple | None) -> None:
    """`@user [#channel] !press "Label"` names who presses which button where; other lines are not presses."""
    assert parse_press(line) == expected


def test_press_needs_one_label() -> None:
    """`!press` with no label, or two, is refused with how to write it."""
    for line in ("@bob !press", '@bob !press "End turn" Map'):
        with pytest.raises(HarnessError, match="one button label"):
            parse_press(line)


BUTTONS = """\
@gm /encounter start system:knights-of-valour name:Ford map:8x6
@gm /combatant add name:Borin owner:@bob at:B3 sheet:"agi=2 hp=10 weapons=club:1"
@gm /combatant add name:Grak at:F3 sheet:"agi=1 hp=10 weapons=club:1"
@gm /init roll
@tess !press "End turn"
@bob !press "End turn"
@gm /encounter end
@gm !press Cancel
@gm /encounter end
@gm !press Confirm
@gm !press Nope
!frob
"""


def test_console_prints_and_presses_buttons(tmp_path: Path) -> None:
    """Buttons are printed under their message; !press presses the latest one; refusals and unknown buttons are said."""
    result = console(tmp_path, "--seed", "2", stdin=BUTTONS)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "  [End turn] [Map]" in out and "  [Undo]" in out and "  [Confirm] [Cancel]" in out
    assert "Borin is not yours" in out and "(only @tess can see this)" in out
    assert "Borin: init next" in out and "your turn in **Ford**: Grak" in out and "On deck: Borin." in out
    assert "Cancelled" in out and out.count("Ford has ended") == 1
    assert "no message in #general has a button 'Nope'" in out
    assert "!press" in out.split("> !frob", 1)[1]


def test_a_direct_message_prints_as_one_to_its_player(tmp_path: Path) -> None:
    """The question an opportunity attack asks a player goes by direct message: it prints as
    `[DM to @bob] message:` (as the README says), not as a channel's status board; its button
    is pressed there with `#dm`, and the answer names the channel as Discord shows it."""
    (tmp_path / "oa.txt").write_text("\n".join([
        "@gm /encounter start system:open map:12x10",
        '@gm /combatant add name:Ana owner:@bob side:heroes at:E5 sheet:"hp=10 ac=12 speed=30 init=+30 weapons=spear:+3:1d6:piercing"',
        '@gm /combatant add name:Gob side:foes at:D5 sheet:"hp=30 ac=5 speed=30 weapons=club:+4:1d4:bludgeoning"',
        "@gm /init roll",
        "@bob /init next confirm:true",
        "@gm /move combatant:Gob to:B5",
        '@bob #dm !press "Strike"',
    ]) + "\n")
    result = console(tmp_path, "--seed", "3", "oa.txt")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    asked = lines.index("[DM to @bob] message:")
    assert lines[asked + 1] == "  ⚔️ Ana: opportunity attack?"
    assert "[#DM" not in result.stdout
    assert "a GM can answer for them). The move waits.\n" in result.stdout  # the reply's sentence ends
    answered = lines.index("[DM to @bob] edited reply:")  # its button pressed there (`#dm`)
    assert lines[answered + 2] == "  Strike: the attack is resolved in #general."
